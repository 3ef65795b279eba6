//! The vocabulary of game knowledge: what a game can tell a search without searching (see the knowledge methods of
//! [`Game`](super::Game)). Every method has a neutral default, "nothing is known", so a game without knowledge is
//! searched correctly, only slower; a game that knows more overrides the methods in its own folder.
//!
//! ```text
//! method              answer                                      used by
//! move_class          quiet / capture / threat / win              move ordering, fractional depths, quiescence
//! has_tactics         whether move_class says anything            quiescence (stand pat at once without)
//! has_winning_move    a win in 1 without trying every move        engine, solvers
//! forced              threats to win next move and their answer   engine (forced replies), solvers
//! null_move           the state after passing, when sound         null-move pruning
//! move_key            a small index per move                      history tables
//! symmetry_key        one key for positions equal up to symmetry  solvers' tables (Qubic's threat df-pn)
//! adjudicate          a result certain without playing on         arena
//! endgame             an exact result from endgame tables         engine (probed at every node)
//! ```

use std::hash::{Hash, Hasher};

/// The class of a move, from the least to the most forcing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveClass {
    Quiet,
    Capture,
    /// The move threatens to win with the next move (Breakthrough: onto the row before the goal).
    Threat,
    /// The move wins at once.
    Win,
}

/// What the side to move must do about the opponent's threats to win with its next move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Forced {
    /// No threat: every move may be played.
    Free,
    /// One threat, answered only by the moves `m` with `game.defends(m, target)` (Breakthrough: the captures of the
    /// threatening piece on square `target`); every other move loses at once.
    Defend(u32),
    /// Threats that cannot all be answered: every move loses in two plies.
    Lost,
}

/// Move keys are below this: the size of a history table.
pub const MOVE_KEYS: usize = 4096;

/// The default move key: a hash of the move's bytes, below [`MOVE_KEYS`].
pub fn hashed_move_key<M: Hash>(m: &M) -> usize {
    let mut h = MulHasher(0);
    m.hash(&mut h);
    (h.0 >> 52) as usize
}

/// A tiny multiplicative hasher (moves are a few bytes).
struct MulHasher(u64);

impl Hasher for MulHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
}
