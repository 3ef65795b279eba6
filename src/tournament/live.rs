//! The games in progress of a running tournament, for a live view (`plateau serve --tournament`): `plateau tournament
//! --results FILE` keeps the sidecar file `FILE.live` up to date while it runs and removes it at the end.
//!
//! ```text
//! FILE.live = {"plateau_live": 1, "tournament": ID, "updated_ms": UNIX_MS,
//!              "playing": [{"id", "round", "white", "black", "fen", "moves": [...]}]}
//! a worker   registers its game when it starts (LiveBoard::start); each time one of its players is asked for a move,
//!            the game's moves so far (the arena's public history) are copied to the board (LiveBoard::moved, from
//!            arena::play_game_watched's watch)
//! main       after a game's results line is written, the game leaves the board; the file is rewritten through
//!            files::write_atomic (a reader never sees half a file) when the board changed, at most every
//!            WRITE_EVERY, and at least every REFRESH so a reader can tell a running tournament from a killed one
//!            (a file not rewritten for STALE: the tournament is not running)
//! ```
//!
//! The Ray cluster driver (`python -m plateau.cluster`, `live.py`) writes the same file, its games without their
//! moves (they are played on the workers).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::schedule::GameJob;

/// The board is written at most this often while games change.
pub(crate) const WRITE_EVERY: Duration = Duration::from_millis(250);
/// The board is rewritten at least this often while the tournament runs.
pub(crate) const REFRESH: Duration = Duration::from_secs(2);
/// A live file not rewritten for this long belongs to a tournament that stopped (killed, or its machine down).
pub(crate) const STALE: Duration = Duration::from_secs(15);
/// The largest live file a reader reads.
pub(crate) const MAX_LIVE: u64 = 4 << 20;

/// A game being played.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LiveGame {
    pub id: usize,
    pub round: usize,
    pub white: String,
    pub black: String,
    /// The start position when not the game's start.
    pub fen: Option<String>,
    /// The moves so far (the opening's included).
    pub moves: Vec<String>,
}

/// The live file's content.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LiveFile {
    pub plateau_live: u32,
    /// The tournament's id.
    pub tournament: String,
    /// When it was written: milliseconds since 1970 (UTC).
    pub updated_ms: u64,
    pub playing: Vec<LiveGame>,
}

/// The live file of the results file `results`: `RESULTS.live` beside it.
pub fn live_path(results: &Path) -> PathBuf {
    let mut name = results.as_os_str().to_owned();
    name.push(".live");
    PathBuf::from(name)
}

/// Milliseconds since 1970.
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// The games in progress, shared by the workers and the writer.
#[derive(Default)]
pub(crate) struct LiveBoard {
    games: Mutex<BTreeMap<usize, LiveGame>>,
    changed: std::sync::atomic::AtomicBool,
}

impl LiveBoard {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<usize, LiveGame>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn touch(&self) {
        self.changed.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Game `job` starts (between the entries `names`).
    pub fn start(&self, job: &GameJob, names: &[String]) {
        let g = LiveGame {
            id: job.id,
            round: job.round,
            white: names[job.white].clone(),
            black: names[job.black].clone(),
            fen: None,
            moves: Vec::new(),
        };
        self.lock().insert(job.id, g);
        self.touch();
    }

    /// Game `id` reached `moves` (from `fen`).
    pub fn moved(&self, id: usize, fen: Option<&str>, moves: &[String]) {
        if let Some(g) = self.lock().get_mut(&id) {
            g.fen = fen.map(str::to_string);
            g.moves = moves.to_vec();
        }
        self.touch();
    }

    /// Game `id` is over (and in the results file).
    pub fn finish(&self, id: usize) {
        self.lock().remove(&id);
        self.touch();
    }

    /// The games in progress, by id.
    pub fn playing(&self) -> Vec<LiveGame> {
        self.lock().values().cloned().collect()
    }
}

/// The writer of a tournament's live file: rewrites it when due, removes it at the end. A failed write is said once
/// on stderr and the tournament goes on without its live file.
pub(crate) struct LiveWriter {
    path: PathBuf,
    tournament: String,
    pub board: Arc<LiveBoard>,
    last: Option<Instant>,
    broken: bool,
}

impl LiveWriter {
    pub fn new(results: &Path, tournament: String) -> LiveWriter {
        LiveWriter { path: live_path(results), tournament, board: Arc::default(), last: None, broken: false }
    }

    /// Rewrite the file if the board changed (at most every [`WRITE_EVERY`]) or [`REFRESH`] passed.
    pub(crate) fn tick(&mut self) {
        let since = self.last.map(|t| t.elapsed());
        let changed = self.board.changed.load(std::sync::atomic::Ordering::SeqCst);
        let due = match since {
            None => true,
            Some(s) => (changed && s >= WRITE_EVERY) || s >= REFRESH,
        };
        if !due || self.broken {
            return;
        }
        self.board.changed.store(false, std::sync::atomic::Ordering::SeqCst);
        self.last = Some(Instant::now());
        let file = LiveFile {
            plateau_live: 1,
            tournament: self.tournament.clone(),
            updated_ms: now_ms(),
            playing: self.board.playing(),
        };
        let written = serde_json::to_vec(&file)
            .map_err(|e| e.to_string())
            .and_then(|bytes| crate::files::replace(&self.path, &bytes, "live file"));
        if let Err(e) = written {
            eprintln!("warning: tournament: {e}; the games in progress are not shown live (the results are written)");
            self.broken = true;
        }
    }

    /// The tournament stopped: its live file is removed.
    pub fn end(self) {
        if !self.broken {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
