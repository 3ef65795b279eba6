//! Threat-space search (Allis 1994, chapter 5), through the game's knowledge only: a sequence of forcing moves of the
//! attacker, each making a threat whose only answer is the block, that ends in a double threat (or a win at once).
//!
//! ```text
//! attack(s, depth):                              -- the attacker A is to move at s
//!     A has a winning move               -> that move
//!     the defender threatens twice        -> none (Forced::Lost: A cannot block both)
//!     depth = 0 or the budget is spent    -> none
//!     for each move m of A that is a threat (move_class = Threat: `retain_threats`), among the blocks if D threatens
//!     once:
//!         c := s after m                  -- the defender D is to move
//!         D has a winning move            -> skip m (D wins first)
//!         forced(c) = Lost                -> m   (two threats: D blocks one, A completes the other)
//!         forced(c) = Defend(t), one move d of D defends t:
//!             attack(c after d, depth - 1) finds a move -> m
//!     none
//! ```
//! Every sequence found is a forced win: at each step the defender's moves other than the one block lose at once
//! (the threat is completed next move), so the proof of a position found here is the sequence itself plus wins in
//! one. Only sequences whose answers are unique are followed (a threat with two answers is not forcing enough to
//! follow cheaply); the search is cut by a depth and a node budget, so that it costs a bounded time per position.

use arrayvec::ArrayVec;

use crate::game::{Forced, FullGame, MoveClass, MoveList, Tactics};

/// The bounds of one threat-space search.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// Threats in a sequence at most.
    pub depth: u32,
    /// Positions visited at most.
    pub budget: u64,
}

/// A move that starts a winning threat sequence for the side to move at `s`, and the positions visited.
pub fn find<G: FullGame>(game: &G, s: &G::State, limits: Limits) -> (Option<G::Move>, u64) {
    let mut nodes = 0;
    let found = attack(game, s, limits.depth, limits.budget, &mut nodes);
    (found, nodes)
}

/// A move that wins at once for the side to move, if any (through [`Game::move_class`]).
pub(crate) fn winning_move<G: FullGame>(game: &G, s: &G::State) -> Option<G::Move> {
    if !game.has_winning_move(s) {
        return None;
    }
    first_win(game, s)
}

/// The moves of the side to move at `s` that answer the opponent's single threat (all of them when there is none).
pub fn answers<G: FullGame>(game: &G, s: &G::State, moves: &mut MoveList<G::Move>) {
    answers_to(game, s, game.forced(s), moves);
}

/// [`answers`] when what the opponent's threats force at `s` is known: `forced`.
fn answers_to<G: FullGame>(game: &G, s: &G::State, forced: Forced, moves: &mut MoveList<G::Move>) {
    match forced {
        Forced::Defend(t) => game.defences(s, t, moves),
        _ => game.generate_moves(s, moves),
    }
}

/// A move that wins at once at `s` (through [`Game::move_class`]), the first in the generated order.
fn first_win<G: FullGame>(game: &G, s: &G::State) -> Option<G::Move> {
    let mut moves = MoveList::new();
    game.generate_moves(s, &mut moves);
    moves.iter().copied().find(|&m| game.move_class(s, m) == MoveClass::Win)
}

fn attack<G: FullGame>(game: &G, s: &G::State, depth: u32, budget: u64, nodes: &mut u64) -> Option<G::Move> {
    *nodes += 1;
    // The rules and the knowledge at once (`Knowledge::tactics`): over, a win in one, or what D's threats force.
    let tactics = game.tactics(s);
    if let Tactics::Over(_) = tactics {
        return None;
    }
    if tactics == Tactics::WinInOne
        && let Some(m) = first_win(game, s)
    {
        return Some(m);
    }
    let forced = match tactics {
        Tactics::Forced(f) => f,
        _ => game.forced(s),
    };
    if forced == Forced::Lost || depth == 0 || *nodes > budget {
        return None;
    }
    let mut moves = MoveList::new();
    answers_to(game, s, forced, &mut moves);
    game.retain_threats(s, &mut moves);
    // What each threat leaves the defender, all at once (`Knowledge::child_tactics`).
    let mut after = ArrayVec::new();
    game.child_tactics(s, &moves, &mut after);
    let mut replies = MoveList::new();
    for (&m, &t) in moves.iter().zip(&after) {
        match t {
            Tactics::Over(_) | Tactics::WinInOne | Tactics::Forced(Forced::Free) => continue,
            Tactics::Forced(Forced::Lost) => return Some(m),
            Tactics::Forced(defend) => {
                let mut c = *s;
                game.play(&mut c, m);
                answers_to(game, &c, defend, &mut replies);
                if replies.len() != 1 {
                    continue;
                }
                let mut d = c;
                game.play(&mut d, replies[0]);
                if attack(game, &d, depth - 1, budget, nodes).is_some() {
                    return Some(m);
                }
                if *nodes > budget {
                    return None;
                }
            }
        }
    }
    None
}
