//! What a search tells the outside world while it runs, and the clock it may be given.
//!
//! ```text
//! protocol go  -> Searcher::set_reporter(callback)      every completed iteration -> callback(Iteration) -> "info ..."
//! go wtime ... -> Searcher::set_clock(limits, Clock)    the engine plans with the clock itself (engine/time.rs);
//!                                                       other searchers get Clock::time_per_move() as their time
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
pub type Reporter<M> = Arc<dyn Fn(&Iteration<M>) + Send + Sync>;

/// A game clock of the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left for the rest of the game.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control, when known.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// A fixed time for this move, for searchers without their own clock plan.
    ///
    /// A fraction of the remaining time (`1/movestogo`, default 1/30) plus 80% of the increment, never more than 40%
    /// of what is left minus a safety margin (20 ms, or a tenth of what is left), so the clock never runs out even with
    /// overheads; at least 1 ms.
    pub fn time_per_move(&self) -> Duration {
        let margin = Duration::from_millis(20).min(self.remaining / 10);
        let usable = self.remaining.saturating_sub(margin);
        let mtg = self.moves_to_go.unwrap_or(30).clamp(1, 60);
        let base = usable / mtg + self.increment.mul_f64(0.8);
        let cap = usable.mul_f64(0.4);
        base.min(cap).max(Duration::from_millis(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn time_per_move_stays_inside_the_clock() {
        for rem in [0u64, 1, 5, 30, 100, 1000, 10_000, 60_000] {
            for inc in [0u64, 10, 100, 1000] {
                for mtg in [None, Some(1), Some(5)] {
                    let c = Clock { remaining: ms(rem), increment: ms(inc), moves_to_go: mtg };
                    let t = c.time_per_move();
                    assert!(t <= ms(rem).mul_f64(0.4).max(ms(1)), "{c:?} gives {t:?}");
                    assert!(t >= ms(1));
                }
            }
        }
        // 10 s + 0.1 s: (10000 - 20)/30 + 80 = 412.666 ms.
        let c = Clock { remaining: ms(10_000), increment: ms(100), moves_to_go: None };
        assert_eq!(c.time_per_move().as_micros(), 412_666);
    }
}
