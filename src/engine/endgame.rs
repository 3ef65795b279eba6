//! The engine's endgame probe (`engine(race=on)`, on by default): the game's endgame tables ([`Knowledge::endgame`]; for
//! Breakthrough, the race tables of the last 3 rows on boards of at most 5 columns, after Isaac and Lorentz 2016)
//! asked at the entry of every search node.
//!
//! ```text
//! before a search: game.prepare_endgame()            (builds the tables once per process, when they fit)
//! at the entry of every search node:
//!     match game.endgame(s)    (side to move's view, with an upper bound p on the plies to the end)
//!         Win(p)  => return WIN - (ply + p)          a proven win, scored as if it took its bound
//!         Loss(p) => return -(WIN - (ply + p))
//! ```
//!
//! The distance is an upper bound, not the exact one: a proven result is scored no better than it is, so the engine
//! prefers faster proven wins and, in a game where every move makes progress (Breakthrough), it always progresses.

use crate::game::{FullGame, Outcome, WIN_SCORE};

use super::params::EngineOptions;
use super::search::Worker;

/// Before a search: build the game's endgame tables if the option is on.
pub(crate) fn prepare<G: FullGame>(opts: &EngineOptions, game: &G) {
    if opts.race {
        game.prepare_endgame();
    }
}

impl<G: FullGame> Worker<'_, G> {
    /// The endgame tables' score of `s`, if they prove something.
    #[inline]
    pub(super) fn probe_endgame(&mut self, s: &G::State, ply: usize) -> Option<i32> {
        if !self.sh.opts.race {
            return None;
        }
        let (outcome, plies) = self.sh.game.endgame(s)?;
        self.stats.nodes += 1;
        self.stats.leaves += 1;
        let score = WIN_SCORE - (ply as u32 + plies).min(WIN_SCORE as u32 / 2) as i32;
        Some(match outcome {
            Outcome::Win => score,
            Outcome::Loss => -score,
            Outcome::Draw => 0,
            Outcome::Value(v) => v,
        })
    }
}
