//! The arena's steps where no single player moves, for games that are not deterministic and alternating:
//!
//! ```text
//! chance node         the arena draws the outcome by its probability with the game's seeded generator, and writes it
//!                     into the record like a move (0 ms in the move times)
//! simultaneous node   each player chooses its own half (ArenaPlayer::think_as) without seeing the other's; the
//!                     record gets the joint move FIRST/SECOND; the two halves are timed for the statistics but not
//!                     against the clock (only players without time management, such as random, play these games)
//! player's turn       the ordinary loop of play_game; with hidden information the player gets only its
//!                     observations and the moves legal on the board it sees (referee.rs)
//!
//! A record of a game with hidden information also gets the referee's full final state ([`final_position`]).

use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::openings::Opening;
use super::player::ArenaPlayer;
use super::record::GameRecord;
use crate::game::{ChanceList, Game, MoveList, Player, Turn, sample_outcome};

/// The generator of game `round`'s chance draws in a match seeded with `seed`.
pub fn chance_rng(seed: u64, round: usize) -> SmallRng {
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
pub fn step<G: Game>(
    game: &G,
    state: &mut G::State,
    players: &mut [&mut dyn ArenaPlayer<G>; 2],
    names: &[String; 2],
    rng: &mut SmallRng,
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
        Turn::Simultaneous => {
            let mut halves = [None, None];
            let mut total = 0;
            for (seat, p) in [Player::First, Player::Second].into_iter().enumerate() {
                let t0 = Instant::now();
                let r = players[seat].think_as(game, state, p);
                let ms = t0.elapsed().as_millis() as u64;
                let ab = if rec.a_first { seat } else { 1 - seat };
                rec.max_move_ms[ab] = rec.max_move_ms[ab].max(ms);
                rec.total_move_ms[ab] += ms;
                rec.moves_timed[ab] += 1;
                total += ms;
                let mut legal = MoveList::new();
                game.player_moves(state, p, &mut legal);
                match r {
                    Ok(m) if legal.contains(&m) => halves[seat] = Some(m),
                    Ok(m) => {
                        rec.winner = Some(p.other());
                        rec.termination = format!("{} lost: illegal move {}", names[seat], game.format_move(state, m));
                        return Step::Over;
                    }
                    Err(e) => {
                        rec.winner = Some(p.other());
                        rec.termination = format!("{} lost: {e}", names[seat]);
                        return Step::Over;
                    }
                }
            }
            let (Some(a), Some(b)) = (halves[0], halves[1]) else { unreachable!("both halves were chosen") };
            rec.moves.push(format!("{}/{}", game.format_move(state, a), game.format_move(state, b)));
            rec.move_ms.push(total);
            game.play_joint(state, a, b);
            Step::Played
        }
    }
}

/// The position text of the final state of a recorded game (its moves replayed from the opening's start).
pub fn final_position<G: Game>(game: &G, opening: &Opening<G>, moves: &[String]) -> Option<String> {
    let s = game.play_moves(&opening.start, &moves.join(" ")).ok()?;
    Some(game.format_position(&s))
}
