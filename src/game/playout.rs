//! Random play for every kind of game: one random step, and playouts to the end whose result is read for a given
//! player (never by the parity of the plies: passes, repeated turns and chance nodes break parity).

use rand::{Rng, RngExt};

use super::{Capabilities, ChanceList, MoveList, Outcome, Side, Turn, sample_outcome};

/// Play one random step in place: a uniformly random move at a player's turn, an outcome drawn by its probability at
/// a chance node, a uniformly random move for each player at a simultaneous node. False when the game is over (or a
/// player has no move, which the rules of every game here forbid in a non-terminal state).
pub fn random_step<G: Capabilities, R: Rng + ?Sized>(game: &G, state: &mut G::State, rng: &mut R) -> bool {
    if game.is_terminal(state) {
        return false;
    }
    let turn = if G::KIND.is_classic() { Turn::Player(game.side_to_move(state)) } else { game.turn(state) };
    match turn {
        Turn::Player(_) => match game.random_move(state, rng) {
            Some(m) => game.play(state, m),
            None => return false,
        },
        Turn::Chance => {
            let mut outcomes = ChanceList::new();
            game.chance_outcomes(state, &mut outcomes);
            match sample_outcome(&outcomes, rng) {
                Some(m) => game.play(state, m),
                None => return false,
            }
        }
        Turn::Simultaneous => {
            let pick = |p: Side, rng: &mut R| {
                let mut moves = MoveList::new();
                game.player_moves(state, p, &mut moves);
                if moves.is_empty() { None } else { Some(moves[rng.random_range(0..moves.len())]) }
            };
            let (Some(a), Some(b)) = (pick(Side::First, rng), pick(Side::Second, rng)) else { return false };
            game.play_joint(state, a, b);
        }
    }
    true
}

/// Play random steps from `state` to the end. Returns the outcome for `player` and the number of steps played.
/// A position where the mover has no move although the game is not over counts as a loss for the mover.
pub fn random_playout_for<G: Capabilities, R: Rng + ?Sized>(
    game: &G,
    state: &G::State,
    player: Side,
    rng: &mut R,
) -> (Outcome, u32) {
    let mut s = *state;
    let mut plies = 0u32;
    loop {
        if let Some(o) = game.outcome_for(&s, player) {
            return (o, plies);
        }
        if G::KIND.is_classic() {
            // A player's turn, and the game is not over: the game's own random move, no second test for the end.
            match game.random_move(&s, rng) {
                Some(m) => game.play(&mut s, m),
                None => {
                    let stuck = game.side_to_move(&s);
                    return (if stuck == player { Outcome::Loss } else { Outcome::Win }, plies);
                }
            }
            plies += 1;
            continue;
        }
        if !random_step(game, &mut s, rng) {
            let stuck = game.side_to_move(&s);
            return (if stuck == player { Outcome::Loss } else { Outcome::Win }, plies);
        }
        plies += 1;
    }
}

/// A uniformly random set bit of `bits` (which must not be empty): its index. Games pick a random move from their
/// bitboards with it, without building the move list.
#[inline]
pub fn random_bit<R: Rng + ?Sized>(bits: u64, rng: &mut R) -> u32 {
    debug_assert!(bits != 0);
    nth_bit(bits, rng.random_range(0..bits.count_ones()))
}

/// The index of the `k`-th set bit of `bits` (from the lowest, `k` from 0; there must be more than `k`).
#[inline]
pub fn nth_bit(mut bits: u64, k: u32) -> u32 {
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}
