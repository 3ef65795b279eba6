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
pub mod chance;
pub mod ctx;
pub mod expectimax;
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
pub mod star1;
pub mod star2;
pub mod summary;
pub mod time;
pub mod trace;
pub(crate) mod trace_draw;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::game::{FullGame, GameError, GivenEval, Side, WIN_SCORE, err};
use crate::spec::Spec;
pub(crate) use report::{Iteration, Reporter};
pub(crate) use time::Budget;
pub use time::{StopCheck, TimeControl};

/// A value larger than any score: the initial window is `(-INFINITY, INFINITY)`.
pub(crate) const INFINITY: i32 = WIN_SCORE + 1_000;

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

/// How long a search may run: a depth, a node budget and a time control ([`time`]), in any combination. `None`
/// everywhere means the algorithm's own default depth; a time control or a node budget without a depth means iterative
/// deepening until that limit.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    /// `None`: no time limit. `time=100ms` in a player string is a [`TimeControl::MoveTime`].
    pub time: Option<TimeControl>,
    pub nodes: Option<u64>,
}

impl Limits {
    /// Read `depth`, `time` and `nodes` from a spec.
    pub fn from_spec(spec: &Spec) -> Result<Limits, GameError> {
        Ok(Limits {
            // (Read even when absent, so that `depth` is in the list of accepted parameters.)
            depth: u32::try_from(spec.int("depth", -1, 0, 200)?).ok(),
            time: spec.duration("time")?.map(TimeControl::MoveTime),
            nodes: spec
                .count("nodes")?
                .map(|n| crate::limits::check_nodes(&format!("{}: nodes={n}", spec.name), n))
                .transpose()
                .map_err(GameError::new)?,
        })
    }

    /// The limits as a player string writes them, in the order `depth`, `time`, `nodes` (`depth=3`, `time=100ms`,
    /// `nodes=1000`): what every player's name writes back. A clock (given by a match, never by a player string) is
    /// not written.
    pub(crate) fn spec_params(&self) -> Vec<String> {
        let mut p = Vec::new();
        if let Some(d) = self.depth {
            p.push(format!("depth={d}"));
        }
        if let Some(TimeControl::MoveTime(t)) = self.time {
            p.push(format!("time={}ms", t.as_millis()));
        }
        if let Some(n) = self.nodes {
            p.push(format!("nodes={n}"));
        }
        p
    }

    /// The time plan of a move of `side` (see [`TimeControl::plan`]); no limit without a time control.
    pub fn plan(&self, side: Side, margin: Duration, soft_pct: u32) -> Budget {
        self.time.map_or(Budget::default(), |tc| tc.plan(side, margin, soft_pct))
    }

    /// A player's own limits (these) under the time control `tc` of a match, for a move of `side`: its depth and node
    /// budget stay, and of its own time per move and `tc`'s plan for this move the tighter applies. Whichever limit
    /// is reached first stops the search.
    pub fn under(self, tc: TimeControl, side: Side) -> Limits {
        let time = match self.time {
            Some(TimeControl::MoveTime(own)) if tc.plan(side, Duration::ZERO, 100).hard.is_none_or(|h| own <= h) => {
                TimeControl::MoveTime(own)
            }
            _ => tc,
        };
        Limits { depth: self.depth, nodes: self.nodes, time: Some(time) }
    }

    /// These limits (a player's own) together with a caller's `other` for a move of `side`: the smaller depth, the
    /// smaller node budget, and of the two times the tighter ([`Limits::under`]). Whichever is reached first stops
    /// the search.
    pub fn with(self, other: Limits, side: Side) -> Limits {
        let least = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        Limits {
            depth: least(self.depth.map(u64::from), other.depth.map(u64::from)).map(|d| d as u32),
            nodes: least(self.nodes, other.nodes),
            time: match other.time {
                Some(tc) => self.under(tc, side).time,
                None => self.time,
            },
        }
    }

    /// A time control alone.
    pub fn time(tc: TimeControl) -> Limits {
        Limits { time: Some(tc), ..Limits::default() }
    }

    /// The limits in words, as a match reports what a player plays under: `depth 2, movetime 100ms`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        if let Some(t) = self.time {
            parts.push(t.to_string());
        }
        if parts.is_empty() { "its own limits".into() } else { parts.join(", ") }
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

/// One root move after a search that keeps statistics per move (MCTS): its visits, its mean reward for the side to
/// move (0 a loss, 1 a win) and, once proven, its exact value on the score scale.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMoveStats<M> {
    pub mv: M,
    pub visits: u64,
    pub mean: f64,
    pub proven: Option<i32>,
}

/// Anything that picks moves: a search algorithm, a random player, an engine.
pub trait Searcher<G: FullGame>: Send {
    /// The player string that rebuilds it.
    fn name(&self) -> String;
    /// Choose `player`'s move in `state`: at a simultaneous node, its half of the joint move (from
    /// [`Capabilities::player_moves`], without seeing the other's); elsewhere the same as [`Searcher::search`]. Only players
    /// that play simultaneous games override it.
    fn search_as(&mut self, game: &G, state: &G::State, player: crate::game::Side) -> SearchResult<G::Move> {
        let _ = player;
        self.search(game, state)
    }
    /// Search `state` (not terminal) within the searcher's limits.
    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move>;
    /// Hidden information, under a referee (`arena/referee.rs`): a game starts from `start`, a position both players
    /// know, and this searcher plays `player`; from then on it learns the game only from [`Searcher::observe`].
    fn observe_start(&mut self, game: &G, start: &G::State, player: crate::game::Side) {
        let _ = (game, start, player);
    }
    /// Hidden information: the referee's new observation for this searcher's player ([`Capabilities::observation`], sent
    /// each time it changes).
    fn observe(&mut self, game: &G, observation: &str) {
        let _ = (game, observation);
    }
    /// Hidden information: choose a move among `legal` (the moves legal on the board the player sees) from the
    /// observations alone. Only the players registered for hidden information (`players.rs`) override it; the
    /// default has no move.
    fn choose_observed(&mut self, game: &G, legal: &[G::Move]) -> SearchResult<G::Move> {
        let _ = (game, legal);
        SearchResult { best_move: None, value: 0, depth: 0, pv: Vec::new(), stats: Stats::default(), seconds: 0.0 }
    }
    /// Set up for games of `game`, outside any clock: what a player builds once (endgame tables, an evaluation, a
    /// database's check). A match, a protocol and the web page call it before the first move, so that no move pays
    /// for it; a search that starts without it does it first.
    fn prepare(&mut self, game: &G) {
        let _ = game;
    }
    /// Search with `f` instead of the game's evaluation, from the next search on (Python's `search(..., evaluate=f)`).
    /// The players that evaluate positions hold a [`crate::game::NamedEval`] and override it; the default, for the
    /// others (random, proof-number search, the Monte Carlo players of hidden and simultaneous games), is the error
    /// saying so.
    fn give_evaluation(&mut self, f: GivenEval<G>) -> Result<(), GameError> {
        let _ = f;
        err(format!("{} evaluates no position: an evaluation given to it would never be called", self.name()))
    }
    /// Forget what was learnt from the previous game (transposition table, history).
    fn new_game(&mut self) {}
    /// Re-seed every random generator from `seed` (mixed with the searcher's own `seed=`, [`crate::game::seed`]):
    /// a match calls it before each game with a seed derived from `--seed`, so that a command repeats exactly.
    /// Searchers that draw nothing at random ignore it.
    fn reseed(&mut self, seed: u64) {
        let _ = seed;
    }
    /// Replace the limits of the next searches: depth, nodes and the time control (a fixed time per move, the clocks
    /// of a match or a protocol's `go wtime ...`, or until stopped). The searcher plans each move with the clock of
    /// the side to move ([`TimeControl::plan`]).
    fn set_limits(&mut self, _limits: Limits) {}
    /// Share a stop flag: the search returns soon (its best move so far) once the flag is set. Protocols (`stop`) set
    /// it from another thread. Searchers that do not look at it simply run to their limits.
    fn set_stop(&mut self, _flag: Arc<AtomicBool>) {}
    /// Receive every completed iteration of the next searches (protocol `info` lines); `None` stops the reports.
    /// Searchers that do not report give only their final result.
    fn set_reporter(&mut self, _reporter: Option<Reporter<G::Move>>) {}
    /// The root moves' statistics of the last search, best first, for searchers that keep them (MCTS); empty for the
    /// others.
    fn root_moves(&self) -> Vec<RootMoveStats<G::Move>> {
        Vec::new()
    }
}
