//! The engine's race-table probe (`engine(race=on)`): Breakthrough race endgame tables of the last 3 rows
//! (`solve/race.rs`, after Isaac and Lorentz 2016) used as an oracle inside the search.
//!
//! ```text
//! before a search: if the game is standard Breakthrough and the 3-row table of its width is small enough
//!                  (2^C * 3^(2C) entries per side <= AUTO_ENTRIES, i.e. C <= 5: built in well under a second),
//!                  build it once per width (cached for the process)
//! at the entry of every search node:
//!     match table.verdict(s)       (side to move's view, with an upper bound p on the plies to the end)
//!         Win(p)  => return WIN - (ply + p)          a proven win, scored as if it took its bound
//!         Loss(p) => return -(WIN - (ply + p))
//! ```
//!
//! The distance is an upper bound, not the exact one: a proven race is scored no better than it is, so the engine
//! prefers faster proven wins and, since every Breakthrough move goes forward, it always makes progress. On by
//! default; it only acts on boards of 5 columns or fewer: 6 columns take about 3 s to build (too long inside a
//! short move) and 8x8 would need 2^8 * 3^16 = 11e9 entries.

use std::sync::OnceLock;

use crate::game::{Game, WIN_SCORE};
use crate::solve::race::{MAX_ENTRIES, Race, RaceTable};

use super::params::Options;
use super::search::Worker;
use super::tactics::bt_parts;

/// Rows of the region the engine's tables cover.
pub const RACE_ROWS: u32 = 3;

/// Largest table (entries per side to move) the engine builds: 5 columns (2^5 * 3^10 = 1,889,568).
pub const AUTO_ENTRIES: u64 = 1 << 21;

/// One table per board width (2..=16 columns), built on first use; `None` where it does not fit.
static TABLES: [OnceLock<Option<RaceTable>>; 17] = [const { OnceLock::new() }; 17];

fn table(columns: u32) -> Option<&'static RaceTable> {
    TABLES.get(columns as usize)?.get()?.as_ref()
}

/// Before a search: build the table of this board's width if the option is on and it fits.
pub fn prepare<G: Game>(opts: &Options, game: &G) {
    if !opts.race {
        return;
    }
    let start = game.start();
    let Some((b, _)) = bt_parts(game, &start) else {
        return;
    };
    let c = b.columns;
    if b.misere || b.forced_captures || !(2..=16).contains(&c) || b.rows <= RACE_ROWS {
        return;
    }
    TABLES[c as usize].get_or_init(|| {
        if RaceTable::entries(c, RACE_ROWS) > AUTO_ENTRIES.min(MAX_ENTRIES) {
            return None;
        }
        RaceTable::build(c, RACE_ROWS).ok()
    });
}

impl<G: Game> Worker<'_, G> {
    /// The race tables' score of `s`, if they prove something.
    #[inline]
    pub(super) fn probe_race(&mut self, s: &G::State, ply: usize) -> Option<i32> {
        if !self.sh.opts.race {
            return None;
        }
        let (b, st) = bt_parts(self.sh.game, s)?;
        if b.misere || b.forced_captures {
            return None;
        }
        let verdict = table(b.columns)?.verdict(b, st)?;
        self.stats.nodes += 1;
        self.stats.leaves += 1;
        let score = |plies: u32| WIN_SCORE - (ply as u32 + plies).min(WIN_SCORE as u32 / 2) as i32;
        Some(match verdict {
            Race::Win(p) => score(p),
            Race::Loss(p) => -score(p),
        })
    }
}
