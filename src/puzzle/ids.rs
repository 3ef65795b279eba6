//! Iterative deepening: depth-limited searches with limits 0, 1, 2, ... until one finds a goal.
//!
//! ```text
//! IDS(start):
//!     for L = 0, 1, 2, ..., max_depth:
//!         r = DLS(start, L)                  // with its table of depths, cleared for each L
//!         if r found a path: return it       // the shallowest goal: no path of L - 1 moves exists
//!         if r is "no path" (nothing was cut off at depth L): return no path
//!         if r entered no more states than DLS(start, L - 1): return no path   // the reachable space is exhausted
//!     return "limit reached"
//! ```
//!
//! The first limit at which DLS succeeds is the length of a shortest path, and DLS returns a path of at most that many
//! moves, so IDS is optimal in moves. Memory is the table of one iteration; time is dominated by the last iterations.
//! The counters add up all iterations.

use super::{
    FastMap, Outcome, Problem, SearchBounds, SearchResult, Stats,
    dls::{Step, dls_into},
};

/// Iterative deepening from the problem's start, up to `limits.depth` moves.
pub fn ids<P: Problem>(p: &P, limits: SearchBounds) -> SearchResult<P::Action> {
    let mut stats = Stats { generated: 1, ..Stats::default() };
    let mut table = FastMap::default();
    let mut entered = 0;
    for limit in 0..=limits.depth {
        stats.iterations += 1;
        match dls_into(p, limit, limits, &mut table, &mut stats) {
            // The table holds exactly the states within `limit` moves: if it did not grow, nothing more is reachable.
            Step::Cut if table.len() == entered => return SearchResult { outcome: Outcome::NoPath, stats },
            Step::Cut => entered = table.len(),
            Step::Done(outcome) => return SearchResult { outcome, stats },
        }
    }
    let msg = format!("IDS found no path within {} moves", limits.depth);
    SearchResult { outcome: Outcome::LimitReached(msg), stats }
}
