//! What a search tells the outside world while it runs (its limits, the time control included, are in `time.rs`).
//!
//! ```text
//! protocol go  -> Searcher::set_reporter(callback)      every completed iteration -> callback(Iteration) -> "info ..."
//! ```

use std::sync::Arc;
use std::time::Duration;

/// One completed iteration of an iterative-deepening search.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    /// Nominal depth of the iteration, in plies.
    pub depth: u32,
    /// Deepest ply reached (quiescence included), when the searcher tracks it.
    pub seldepth: Option<u32>,
    /// From the side to move's point of view; wins are `WIN_SCORE - plies`.
    pub value: i32,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Transposition-table fill in per mille, when the searcher has a table.
    pub hashfull: Option<u32>,
    /// The principal variation, its first move the current best move.
    pub pv: Vec<M>,
}

/// A callback that receives every completed iteration (called on the searching thread; it must be quick).
pub(crate) type Reporter<M> = Arc<dyn Fn(&Iteration<M>) + Send + Sync>;
