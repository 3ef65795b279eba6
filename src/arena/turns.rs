//! The arena's steps where no single player moves, for games that are not deterministic and alternating:
//!
//! ```text
//! chance node         the arena draws the outcome by its probability with the game's seeded generator, and writes it
//!                     into the record like a move (0 ms in the move times)
//! simultaneous node   both players are asked at once (one thread each; Player::choose with View::Half) and choose their
//!                     own half without seeing the other's, each within the match's time control: a fixed time per
//!                     move, or its own clock (both clocks run during the step; each is charged its own thinking
//!                     time and gets its increment); a failure or a half past its time (+ margin) loses, both: a draw;
//!                     the record gets the joint move FIRST/SECOND
//! player's turn       the ordinary loop of play_game; with hidden information the player gets only its
//!                     observations and the moves legal on the board it sees (referee.rs)
//!
//! A record of a game with hidden information also gets the referee's full final state ([`final_position`]).

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::openings::Opening;
use super::record::GameRecord;
use crate::game::{ChanceList, FullGame, MoveList, Side, Turn, sample_outcome};
use crate::players::{Context, Player, PositionText, View};
use crate::search::{Limits, TimeControl};

/// The generator of game `round`'s chance draws in a match seeded with `seed`.
pub(crate) fn chance_rng(seed: u64, round: usize) -> SmallRng {
    SmallRng::seed_from_u64(seed ^ (round as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// What [`step`] did.
pub enum Step {
    /// A player's turn: the caller asks the side to move as usual.
    Player,
    /// A chance outcome or a joint move was played and recorded.
    Played,
    /// The game ended by a failure; the record says who lost and why.
    Over,
}

/// Play the step at `state` if it is a chance node or a simultaneous node.
pub fn step<G: FullGame>(
    game: &G,
    state: &mut G::State,
    players: &mut [&mut dyn Player<G>; 2],
    names: &[String; 2],
    rng: &mut SmallRng,
    timing: Timing,
    rec: &mut GameRecord,
) -> Step {
    match game.turn(state) {
        Turn::Player(_) => Step::Player,
        Turn::Chance => {
            let mut outcomes = ChanceList::new();
            game.chance_outcomes(state, &mut outcomes);
            let Some(m) = sample_outcome(&outcomes, rng) else {
                rec.termination = "a chance node without outcomes (a bug in the game)".into();
                return Step::Over;
            };
            rec.moves.push(game.format_move(state, m));
            rec.move_ms.push(0);
            game.play(state, m);
            Step::Played
        }
        Turn::Simultaneous => joint(game, state, players, names, timing, rec),
    }
}

/// The time control of a match as the arena applies it at a simultaneous node: the limit (a fixed time per move or
/// both clocks), the players' clocks as they stand (by side), the tolerance, and the record's position text.
pub struct Timing<'a> {
    pub limit: Option<TimeControl>,
    pub clock: &'a mut [Duration; 2],
    pub margin: Duration,
    pub pos: PositionText<'a>,
}

/// A simultaneous node: both players are asked at once (one thread each), each within its own time; a player that
/// fails (error, illegal half, over its time plus the margin) loses, both failing is a draw.
fn joint<G: FullGame>(
    game: &G,
    state: &mut G::State,
    players: &mut [&mut dyn Player<G>; 2],
    names: &[String; 2],
    timing: Timing,
    rec: &mut GameRecord,
) -> Step {
    let limit = match timing.limit {
        Some(TimeControl::Clock { inc, moves_to_go, .. }) => {
            Some(TimeControl::Clock { time: *timing.clock, inc, moves_to_go })
        }
        other => other,
    };
    let allowed = |seat: usize| match limit {
        Some(TimeControl::MoveTime(t)) => Some(t),
        Some(TimeControl::Clock { time, .. }) => Some(time[seat]),
        _ => None,
    };
    let hard = |seat: usize| allowed(seat).map_or(Duration::from_secs(3600), |a| a + timing.margin);
    let s = *state;
    let pos = &timing.pos;
    let [p0, p1] = players;
    let think = |p: &mut dyn Player<G>, seat: usize| {
        let side = if seat == 0 { Side::First } else { Side::Second };
        let t0 = Instant::now();
        let cx = Context {
            view: View::Half(&s),
            side,
            history: *pos,
            limits: limit.map(Limits::time),
            hard: hard(seat),
            stop: None,
            progress: None,
        };
        let r = p.choose(game, cx).map(|c| c.mv);
        (r, t0.elapsed())
    };
    // Both players think at the same time, neither seeing the other's half.
    let results = std::thread::scope(|scope| {
        let other = scope.spawn(|| think(&mut **p1, 1));
        let first = think(&mut **p0, 0);
        let second = other.join().unwrap_or_else(|_| (Err("the player's thread panicked".into()), Duration::ZERO));
        [first, second]
    });
    let mut halves = [None, None];
    let mut failed: [Option<String>; 2] = [None, None];
    let mut total = 0;
    for (seat, (r, elapsed)) in results.into_iter().enumerate() {
        let p = if seat == 0 { Side::First } else { Side::Second };
        let ms = elapsed.as_millis() as u64;
        let ab = if rec.a_first { seat } else { 1 - seat };
        rec.max_move_ms[ab] = rec.max_move_ms[ab].max(ms);
        rec.total_move_ms[ab] += ms;
        rec.moves_timed[ab] += 1;
        total = total.max(ms);
        let mut legal = MoveList::new();
        game.player_moves(state, p, &mut legal);
        match r {
            Ok(m) if !legal.contains(&m) => failed[seat] = Some(format!("illegal move {}", game.format_move(state, m))),
            Ok(_) if allowed(seat).is_some_and(|a| elapsed > a + timing.margin) => {
                let a = allowed(seat).unwrap_or_default().as_millis();
                failed[seat] = Some(format!("time forfeit (move took {ms} ms, {a} ms allowed)"));
            }
            Ok(m) => halves[seat] = Some(m),
            Err(e) => failed[seat] = Some(e),
        }
        if let Some(TimeControl::Clock { inc, .. }) = timing.limit {
            timing.clock[seat] = timing.clock[seat].saturating_sub(elapsed) + inc[seat];
        }
    }
    let seat_failed = usize::from(failed[0].is_none());
    match failed {
        [Some(a), Some(b)] => {
            rec.winner = None;
            rec.termination = format!("both failed: {} lost: {a}; {} lost: {b}", names[0], names[1]);
            return Step::Over;
        }
        [Some(e), None] | [None, Some(e)] => {
            let seat = seat_failed;
            rec.winner = Some(if seat == 0 { Side::Second } else { Side::First });
            rec.termination = format!("{} lost: {e}", names[seat]);
            return Step::Over;
        }
        [None, None] => {}
    }
    let (Some(a), Some(b)) = (halves[0], halves[1]) else { unreachable!("both halves were chosen") };
    rec.moves.push(format!("{}/{}", game.format_move(state, a), game.format_move(state, b)));
    // The two halves were thought at once: the step took as long as the slower one.
    rec.move_ms.push(total);
    game.play_joint(state, a, b);
    Step::Played
}

/// The position text of the final state of a recorded game (its moves replayed from the opening's start).
pub fn final_position<G: FullGame>(game: &G, opening: &Opening<G>, moves: &[String]) -> Option<String> {
    let s = game.play_moves(&opening.start, &moves.join(" ")).ok()?;
    Some(game.format_position(&s))
}
