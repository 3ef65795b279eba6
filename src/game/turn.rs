//! The kinds of game the model carries, after OpenSpiel's game types: who acts in a state (a player, chance, or both
//! players at once) and what each player sees.
//!
//! ```text
//! kind of game                      capability used                          tiny example in games/
//! deterministic, alternating        nothing (the defaults)                   tic-tac-toe, marbles, Breakthrough
//! passes, non-alternating turns     side_to_move may repeat a player         phantom tic-tac-toe (a failed try)
//! chance                            Turn::Chance + chance_outcomes           coin_game (the course's coin toss)
//! simultaneous moves                Turn::Simultaneous + player_moves        matching_pennies
//!                                     + play_joint
//! hidden information                observation + resample                   phantom_tic_tac_toe
//! ```
//!
//! A game declares what it uses in [`Capabilities::KIND`](super::Capabilities::KIND); tools branch on that constant, so the
//! branches a deterministic game never takes are compiled out of its code.

use arrayvec::ArrayVec;
use rand::{Rng, RngExt};

use super::Side;

/// Who acts in a non-terminal state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// One player chooses a move.
    Player(Side),
    /// The rules draw an outcome (a die, a coin) with known probabilities: [`Capabilities::chance_outcomes`](super::Game).
    Chance,
    /// Both players choose at once; the rules resolve the pair: [`Capabilities::play_joint`](super::Game).
    Simultaneous,
}

/// The capabilities a game uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Kind {
    /// Some states are chance nodes.
    pub chance: bool,
    /// Some states are simultaneous-move nodes.
    pub simultaneous: bool,
    /// Players do not see the whole state: [`Capabilities::observation`](super::Game) differs between them.
    pub hidden: bool,
}

impl Kind {
    /// Deterministic, sequential, perfect information: what minimax and alpha-beta need.
    pub(crate) const CLASSIC: Kind = Kind { chance: false, simultaneous: false, hidden: false };

    /// True for deterministic, sequential games of perfect information.
    pub const fn is_classic(self) -> bool {
        !self.chance && !self.simultaneous && !self.hidden
    }

    /// Words for messages: `chance, simultaneous moves`.
    pub fn describe(self) -> String {
        let mut w = Vec::new();
        if self.chance {
            w.push("chance");
        }
        if self.simultaneous {
            w.push("simultaneous moves");
        }
        if self.hidden {
            w.push("hidden information");
        }
        if w.is_empty() { "deterministic, perfect information".into() } else { w.join(", ") }
    }
}

/// The outcomes of a chance node with their probabilities (they add up to 1).
pub type ChanceList<M> = ArrayVec<(M, f64), { super::MAX_MOVES }>;

/// Draw one outcome of `outcomes` by its probability; `None` for an empty list.
pub(crate) fn sample_outcome<M: Copy, R: Rng + ?Sized>(outcomes: &ChanceList<M>, rng: &mut R) -> Option<M> {
    let last = outcomes.last()?.0;
    let mut x: f64 = rng.random();
    for &(m, p) in outcomes {
        if x < p {
            return Some(m);
        }
        x -= p;
    }
    // Rounding left a sliver above the sum of the probabilities.
    Some(last)
}

/// A line of moves (a principal variation) in the game's notation, played from `state` as far as it goes: it stops at
/// the end of the game. In a simultaneous-move game a searcher's line is its own half of the next turn (the other half
/// is not known): that half is shown, not played.
pub(crate) fn line_words<G: super::Capabilities>(game: &G, state: &G::State, line: &[G::Move]) -> Vec<String> {
    if game.is_terminal(state) {
        return Vec::new();
    }
    if matches!(game.turn(state), Turn::Simultaneous) {
        return line.iter().take(1).map(|&m| game.format_move(state, m)).collect();
    }
    let mut s = *state;
    let mut words = Vec::with_capacity(line.len());
    for &m in line {
        if game.is_terminal(&s) || matches!(game.turn(&s), Turn::Simultaneous) {
            break;
        }
        words.push(game.format_move(&s, m));
        game.play(&mut s, m);
    }
    words
}
