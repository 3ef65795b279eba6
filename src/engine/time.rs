//! Time management: how long one move may take.
//!
//! ```text
//! fixed time per move t:     hard = t - margin            soft = 60% of hard
//! clock r, increment i, n moves to go (30 when unknown):
//!     usable = r - margin
//!     base   = usable / n + 3/4 i
//!     soft   = min(base, usable / 4)
//!     hard   = min(3 base, usable / 2)        -- never more than half of what is left
//! hard is where the search stops whatever it is doing; soft is the last moment to start a new iteration.
//! When the margin eats everything, a quarter of what is left is the budget: the engine still moves.
//! ```

use std::time::Duration;

/// How the time of a move is given.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No time limit (depth or node limits only).
    Infinite,
    /// A fixed time per move.
    MoveTime(Duration),
    /// A clock: time left for the rest of the game, the increment per move, and the moves until the next time
    /// control when known.
    Clock { remaining: Duration, increment: Duration, moves_to_go: Option<u32> },
}

/// The time plan of one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop searching at this.
    pub hard: Option<Duration>,
}

/// Moves assumed left when a clock gives no count.
pub const DEFAULT_MOVES_TO_GO: u32 = 30;

/// The budget of one move under `tc`, keeping `margin` in reserve for latency.
pub fn plan(tc: TimeControl, margin: Duration) -> Budget {
    plan_with(tc, margin, 60)
}

/// [`plan`] with the soft limit of a fixed time per move at `soft_pct` percent of the hard one (`engine(soft=N)`).
pub fn plan_with(tc: TimeControl, margin: Duration, soft_pct: u32) -> Budget {
    match tc {
        TimeControl::Infinite => Budget { soft: None, hard: None },
        TimeControl::MoveTime(t) => {
            let hard = if t > margin * 2 { t - margin } else { t / 2 };
            Budget { soft: Some(hard * soft_pct.min(100) / 100), hard: Some(hard) }
        }
        TimeControl::Clock { remaining, increment, moves_to_go } => {
            let usable = if remaining > margin * 2 { remaining - margin } else { remaining / 4 };
            let n = moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 1000);
            let base = usable / n + increment * 3 / 4;
            let hard = (base * 3).min(usable / 2);
            let soft = base.min(usable / 4).min(hard);
            Budget { soft: Some(soft), hard: Some(hard) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn move_time_keeps_the_margin() {
        let b = plan(TimeControl::MoveTime(ms(100)), ms(5));
        assert_eq!(b.hard, Some(ms(95)));
        assert_eq!(b.soft, Some(ms(57)));
        let b = plan(TimeControl::MoveTime(ms(6)), ms(5));
        assert_eq!(b.hard, Some(ms(3)), "a margin larger than half the time leaves half");
        assert_eq!(plan(TimeControl::Infinite, ms(5)), Budget { soft: None, hard: None });
    }

    #[test]
    fn clocks_never_overstep() {
        for rem in [0u64, 1, 3, 9, 10, 11, 50, 100, 999, 1000, 10_000, 60_000, 3_600_000] {
            for inc in [0u64, 10, 100, 1000, 5000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    for margin in [0u64, 5, 50] {
                        let tc = TimeControl::Clock { remaining: ms(rem), increment: ms(inc), moves_to_go: mtg };
                        let b = plan(tc, ms(margin));
                        let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
                        assert!(soft <= hard, "{tc:?}");
                        assert!(hard <= ms(rem) / 2, "{tc:?} plans {hard:?}, more than half the clock");
                        if rem > 2 * margin {
                            assert!(hard + ms(margin) <= ms(rem), "{tc:?}: the margin is kept");
                        }
                        if rem >= 10 {
                            assert!(hard > Duration::ZERO, "{tc:?}: some time is used");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn increment_is_spent_and_moves_to_go_divides() {
        let a = plan(TimeControl::Clock { remaining: ms(10_000), increment: ms(0), moves_to_go: None }, ms(0));
        let b = plan(TimeControl::Clock { remaining: ms(10_000), increment: ms(400), moves_to_go: None }, ms(0));
        assert_eq!(a.soft.unwrap().as_millis(), 333);
        assert_eq!(b.soft.unwrap().as_millis(), 633);
        let c = plan(TimeControl::Clock { remaining: ms(10_000), increment: ms(0), moves_to_go: Some(1) }, ms(0));
        assert_eq!(c.hard, Some(ms(5000)), "one move to go still keeps half");
    }
}
