//! The engine's retrograde-database probe (`engine(db=FILE)`): a position found in the database returns its exact
//! value at once, as a win or loss at its distance from the root.
//!
//! ```text
//! at the entry of every search node (before the depth test, so the horizon's quiescence is skipped too):
//!     if the database is for this game and holds s:  (v, d) := db[key(s)]
//!         win:  return WIN - (ply + d);  loss: return -(WIN - (ply + d));  draw: return 0
//! ```
//!
//! The database is opened (and checked) once when the player string is parsed; [`prepare`] compares its game with
//! the game of each search, so a database of another game is never probed (a warning says so once).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::{FullGame, GameError, WIN_SCORE};
use crate::solve::db::Db;
use crate::solve::retro::Value;

use super::params::EngineOptions;
use super::search::Worker;

/// An open database shared by the engine's options and threads.
#[derive(Clone)]
pub struct DbHandle {
    path: String,
    db: Arc<Db>,
    /// True while the current search's game is the database's.
    enabled: Arc<AtomicBool>,
    warned: Arc<AtomicBool>,
}

impl DbHandle {
    pub fn open(path: &str) -> Result<DbHandle, GameError> {
        let db = Db::open(Path::new(path)).map_err(|e| GameError::new(format!("engine: db: {e}")))?;
        Ok(DbHandle {
            path: path.to_string(),
            db: Arc::new(db),
            enabled: Arc::new(AtomicBool::new(false)),
            warned: Arc::new(AtomicBool::new(false)),
        })
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn db(&self) -> &Db {
        &self.db
    }
}

impl PartialEq for DbHandle {
    fn eq(&self, other: &DbHandle) -> bool {
        self.path == other.path
    }
}

impl Eq for DbHandle {}

impl std::fmt::Debug for DbHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DbHandle({})", self.path)
    }
}

/// Before a search: probe the database only if it is for this game.
pub(crate) fn prepare<G: FullGame>(opts: &EngineOptions, game: &G) {
    if let Some(h) = &opts.db {
        let spec = game.spec();
        let ok = h.db.game() == spec;
        h.enabled.store(ok, Ordering::Relaxed);
        if !ok && !h.warned.swap(true, Ordering::Relaxed) {
            eprintln!("warning: engine: db {} is for '{}', not '{spec}': not used", h.path, h.db.game());
        }
    }
}

impl<G: FullGame> Worker<'_, G> {
    /// The exact value of `s` from the database, if it is there.
    #[inline]
    pub(super) fn probe_db(&mut self, s: &G::State, ply: usize) -> Option<i32> {
        let h = self.sh.opts.db.as_ref()?;
        if !h.enabled.load(Ordering::Relaxed) {
            return None;
        }
        let (v, d) = h.db.probe(self.sh.game.key(s))?;
        self.stats.nodes += 1;
        self.stats.leaves += 1;
        let dist = (ply as u32 + d).min(WIN_SCORE as u32 / 2) as i32;
        Some(match v {
            Value::Win => WIN_SCORE - dist,
            Value::Loss => -WIN_SCORE + dist,
            Value::Draw => 0,
        })
    }
}
