//! Adversarial search: the shared vocabulary (limits, statistics, results, the `Searcher` trait), the course's
//! catalogue of algorithms and their support code. The registry of every player is `players.rs`, one layer up.
//!
//! # Counting rules (the same for every algorithm, so that numbers compare)
//! - `nodes`: positions at which the search entered its recursive function (the root included). A position visited
//!   twice (re-search, iterative deepening) counts twice.
//! - `leaves`: positions scored without being expanded: heuristic evaluations at the depth limit and terminal positions.
//! - `cutoffs`: times a node stopped looking at its remaining moves because a bound was reached.
//! - `researches`: times a child (or the root, for window-driven drivers) was searched again with another window.
//! - `tt_probes` / `tt_hits`: transposition-table look-ups, and those that found the position.
//!
//! In the catalogue (`catalogue.rs`) every algorithm counts through `ctx.rs`: a node when its recursive function is
//! entered (a Test of Scout, a minimal-window pass of MTD(f) or NegaC*, each counts), a leaf when it is scored, a
//! cut-off each time a node returns early because its value reached beta (also on its last move), a re-search each
//! time a move already searched is searched again with another window, and each pass after the first of a window
//! driver (NegaC*, MTD(f), MT-SSS*). SSS* counts a node when its LIVE state is examined. Iterative deepening adds up
//! the iterations.

pub mod alphabeta;
pub mod alphabeta_failsoft;
pub mod alphabeta_minmax;
pub mod catalogue;
pub mod ctx;
pub mod minimax;
pub mod mtdf;
pub mod mtsss;
pub mod negacstar;
pub mod negamax;
pub mod negascout;
pub mod palphabeta;
pub mod pvs;
pub mod random;
pub mod report;
pub mod scout;
pub mod sss;
pub mod trace;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::game::{Game, GameError, WIN_SCORE};
use crate::spec::Spec;
pub use report::{Clock, Iteration, Reporter};

/// A value larger than any score: the initial window is `(-INFINITY, INFINITY)`.
pub const INFINITY: i32 = WIN_SCORE + 1_000;

/// The instrumentation shared by every algorithm.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    pub nodes: u64,
    pub leaves: u64,
    pub cutoffs: u64,
    pub researches: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.leaves += o.leaves;
        self.cutoffs += o.cutoffs;
        self.researches += o.researches;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
    }
}

/// How long a search may run. Any combination; `None` everywhere means the algorithm's own default depth.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

impl Limits {
    /// Read `depth`, `time` and `nodes` from a spec.
    pub fn from_spec(spec: &Spec) -> Result<Limits, GameError> {
        Ok(Limits {
            depth: if spec.has("depth") { Some(spec.int("depth", 0, 0, 200)? as u32) } else { None },
            time: spec.duration("time")?,
            nodes: spec.count("nodes")?,
        })
    }
}

/// What a search returns.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only in terminal positions.
    pub best_move: Option<M>,
    /// From the side to move's point of view; wins are `WIN_SCORE - plies`.
    pub value: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    pub pv: Vec<M>,
    pub stats: Stats,
    pub seconds: f64,
}

/// Anything that picks moves: a search algorithm, a random player, an engine.
pub trait Searcher<G: Game>: Send {
    /// The player string that rebuilds it.
    fn name(&self) -> String;
    /// Search `state` (not terminal) within the searcher's limits.
    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move>;
    /// Forget what was learnt from the previous game (transposition table, history).
    fn new_game(&mut self) {}
    /// Override the limits for the next searches (time per move in matches and `play`).
    fn set_limits(&mut self, _limits: Limits) {}
    /// Share a stop flag: the search returns soon (its best move so far) once the flag is set. Protocols (`stop`) set
    /// it from another thread. Searchers that do not look at it simply run to their limits.
    fn set_stop(&mut self, _flag: Arc<AtomicBool>) {}
    /// Receive every completed iteration of the next searches (protocol `info` lines); `None` stops the reports.
    /// Searchers that do not report give only their final result.
    fn set_reporter(&mut self, _reporter: Option<Reporter<G::Move>>) {}
    /// Play the next searches on a clock: `limits` (depth, nodes) plus the side to move's `clock`. The default gives a
    /// fixed time for the move ([`Clock::time_per_move`], or `limits.time` when smaller); the engine plans with the
    /// clock itself.
    fn set_clock(&mut self, limits: Limits, clock: Clock) {
        let t = clock.time_per_move();
        self.set_limits(Limits { time: Some(limits.time.map_or(t, |x| x.min(t))), ..limits });
    }
}

/// A simple clock: the deadline of a timed search, a node budget, and an optional stop flag set by another thread
/// (a protocol's `stop`), checked every few hundred nodes.
#[derive(Clone, Debug)]
pub struct Deadline {
    start: Instant,
    time: Option<Duration>,
    nodes: Option<u64>,
    stop: Option<Arc<AtomicBool>>,
}

impl Deadline {
    pub fn new(limits: &Limits) -> Self {
        Deadline { start: Instant::now(), time: limits.time, nodes: limits.nodes, stop: None }
    }
    /// The same deadline, also stopped when `flag` is set.
    pub fn with_stop(mut self, flag: Option<Arc<AtomicBool>>) -> Self {
        self.stop = flag;
        self
    }
    /// True when the search must stop.
    #[inline]
    pub fn expired(&self, nodes: u64) -> bool {
        if let Some(n) = self.nodes
            && nodes >= n
        {
            return true;
        }
        if nodes & 255 == 0
            && let Some(flag) = &self.stop
            && flag.load(std::sync::atomic::Ordering::Relaxed)
        {
            return true;
        }
        if let Some(t) = self.time
            && nodes & 1023 == 0
        {
            return self.start.elapsed() >= t;
        }
        false
    }
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
    /// Whether another iteration is worth starting (less than half the time used).
    pub fn may_deepen(&self) -> bool {
        match self.time {
            Some(t) => self.start.elapsed() < t / 2,
            None => true,
        }
    }
}
