//! Time control, for every searcher, the arena and the protocols: how long a move may take ([`TimeControl`]), the one
//! plan that turns it into a soft and a hard limit ([`TimeControl::plan`]), and the one check a running search makes
//! at its nodes ([`StopCheck`]).
//!
//! ```text
//! TimeControl: MoveTime(t) | Clock { time[side], inc[side], moves_to_go } | Infinite (until stopped)
//! Limits (search/mod.rs) = depth + nodes + Option<TimeControl>        (None: no time limit)
//!
//! plan(side to move, margin, soft%) -> Budget { soft, hard, stretch }  (durations from the start of the search)
//!     move time t:   hard = t - min(margin, t/30)                                       soft = soft% of hard
//!                    (time not used on a move is lost: the engine plans soft = hard)
//!     clock r + i, n moves to go (30 when unknown):
//!         usable = r - margin (r/4 when the margin is more than half of r)
//!         ideal  = usable / n + i                                  -- the increment comes back after the move
//!         soft   = min(ideal / 2, usable / 8)                      -- an iteration started just before soft
//!                                                                     ends near 2 soft, so about ideal on average
//!         hard   = min(4 ideal, usable / 3)                        -- never more than a third of what is left
//!         stretch: the soft limit may be scaled by the best move's stability (stability_pct), never past hard
//!     infinite: neither (the search runs until the stop flag, or a depth or node limit)
//! hard is where the search stops whatever it is doing; soft is the last moment to start a new iteration.
//!
//! stability_pct(iterations the best move has not changed):  0 -> 200   1 -> 140   2 -> 100   3 -> 80   4+ -> 65
//!
//! StopCheck, at every node (after counting it):
//!     node count >= node budget                                     -> stop   (every node: budgets are exact)
//!     every 256 nodes: a stop flag is set, or the hard deadline passed -> stop
//!     may_deepen(pct): now < start + pct% of soft (only a clock's budget stretches; capped at hard)
//! ```
//! The margin and the soft share are the caller's: the engine's `margin=` (10 ms) and `soft=` (100%) options, the
//! catalogue's driver no margin and 50% (`search/catalogue.rs`).
//!
//! Searches without iterations to end early (MCTS, ISMCTS, simultaneous-move MCTS, determinization, the naive hidden
//! player) all use one rule, [`StopCheck::anytime`]: they run until the planned time of the move (a time per move:
//! all of it but [`ANYTIME_MARGIN`]; clocks: the plan's soft share), their node budget or a stop flag, and poll it
//! every few iterations, so that `stop` is answered within one playout or one board's search.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::Side;

/// How the time of a move is given.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No time limit and no default depth: iterative deepening runs until the stop flag is set (a protocol's
    /// `stop`), or to a depth or node limit (`go infinite`).
    Infinite,
    /// A fixed time per move.
    MoveTime(Duration),
    /// Clocks, indexed by [`Player::index`] (the protocols' `wtime`/`btime`): the time left for the rest of the game,
    /// the increment added after each move, and the moves until the next time control when known.
    Clock { time: [Duration; 2], inc: [Duration; 2], moves_to_go: Option<u32> },
}

/// The time plan of one move, as durations from the start of the search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop searching at this.
    pub hard: Option<Duration>,
    /// Whether iterative deepening may scale the soft limit by the best move's stability ([`stability_pct`]): a
    /// clock's time can be saved for later moves, a fixed time per move's cannot.
    pub(crate) stretch: bool,
}

/// Iterative deepening's scale of the soft limit (percent), from the number of completed iterations the best move has
/// not changed: a move that just changed deserves more time, one that has stood for several iterations less.
pub(crate) fn stability_pct(stable_iterations: u32) -> u32 {
    match stable_iterations {
        0 => 200,
        1 => 140,
        2 => 100,
        3 => 80,
        _ => 65,
    }
}

/// Moves assumed left when a clock gives no count.
pub(crate) const DEFAULT_MOVES_TO_GO: u32 = 30;

impl TimeControl {
    /// The same clock for both players: `base` for the game, `inc` added after each move.
    pub fn clock(base: Duration, inc: Duration) -> Self {
        TimeControl::Clock { time: [base; 2], inc: [inc; 2], moves_to_go: None }
    }

    /// The budget of one move of `side` under this time control, keeping `margin` in reserve for latency; the soft
    /// limit of a fixed time per move is `soft_pct` percent of the hard one.
    pub fn plan(&self, side: Side, margin: Duration, soft_pct: u32) -> Budget {
        match *self {
            TimeControl::Infinite => Budget::default(),
            TimeControl::MoveTime(t) => {
                // The margin covers the answer's way out; on a short move it is at most a thirtieth of the move
                // (the stop check looks at the clock every 256 nodes, a fraction of a millisecond).
                let hard = t - margin.min(t / 30);
                Budget { soft: Some(hard * soft_pct.min(100) / 100), hard: Some(hard), stretch: false }
            }
            TimeControl::Clock { time, inc, moves_to_go } => {
                let (remaining, increment) = (time[side.index()], inc[side.index()]);
                let usable = if remaining > margin * 2 { remaining - margin } else { remaining / 4 };
                let n = moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 1000);
                let ideal = usable / n + increment;
                let hard = (ideal * 4).min(usable / 3);
                let soft = (ideal / 2).min(usable / 8).min(hard);
                Budget { soft: Some(soft), hard: Some(hard), stretch: true }
            }
        }
    }
}

/// As game records and summaries write it: `movetime 100ms`, `10000ms+100ms` (first player's clock), `infinite`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Infinite => write!(f, "infinite"),
            TimeControl::MoveTime(t) => write!(f, "movetime {}ms", t.as_millis()),
            TimeControl::Clock { time, inc, moves_to_go } => {
                write!(f, "{}ms+{}ms", time[0].as_millis(), inc[0].as_millis())?;
                match moves_to_go {
                    Some(n) => write!(f, " movestogo {n}"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// The margin of the searches without iterations ([`StopCheck::anytime`]): they look at the clock every few
/// playouts, so they overshoot their deadline by about one playout.
pub(crate) const ANYTIME_MARGIN: Duration = Duration::from_millis(1);

/// The clock and the node counter are looked at every this many nodes (a power of two).
pub(crate) const CHECK_EVERY: u64 = 256;

/// When a running search must stop: a node budget, a hard deadline and up to two stop flags (a protocol's `stop`;
/// the engine's main thread halting its Lazy SMP helpers), plus the soft deadline after which no new iteration starts.
/// The searcher keeps its own sticky `stopped` and calls [`StopCheck::expired`] after counting each node.
#[derive(Clone, Debug, Default)]
pub struct StopCheck<'a> {
    /// No new iteration after this.
    pub soft: Option<Instant>,
    /// Stop at this.
    pub hard: Option<Instant>,
    /// Stop when the node count reaches this.
    pub nodes: Option<u64>,
    /// A clock's soft limit as (start, duration): [`StopCheck::may_deepen_scaled`] may scale it (`None`: `soft` is
    /// fixed).
    pub(crate) stretch: Option<(Instant, Duration)>,
    flags: [Option<&'a AtomicBool>; 2],
}

impl<'a> StopCheck<'a> {
    /// No limit at all (a fixed-depth search).
    pub fn none() -> Self {
        StopCheck::default()
    }

    /// The deadlines of `budget` counted from `start`, and the node budget `nodes`.
    pub(crate) fn planned(start: Instant, budget: Budget, nodes: Option<u64>) -> Self {
        StopCheck {
            soft: budget.soft.map(|s| start + s),
            hard: budget.hard.map(|h| start + h),
            nodes,
            stretch: if budget.stretch { budget.soft.map(|s| (start, s)) } else { None },
            flags: [None; 2],
        }
    }

    /// The stop check of a search without iterations (see the module's text): it stops at the plan's soft limit
    /// (its hard one when there is no soft), with [`ANYTIME_MARGIN`] and the whole time per move, counted from
    /// `start`; no node budget here (each search counts its own unit: playouts, tree nodes, boards).
    pub fn anytime(start: Instant, time: Option<TimeControl>, side: Side) -> Self {
        let budget = time.map_or(Budget::default(), |tc| tc.plan(side, ANYTIME_MARGIN, 100));
        let end = budget.soft.or(budget.hard).map(|d| start + d);
        StopCheck { soft: end, hard: end, nodes: None, stretch: None, flags: [None; 2] }
    }

    /// Set the soft deadline of `budget` counted from `start` (and whether it stretches), keeping the rest.
    pub(crate) fn set_soft(&mut self, start: Instant, budget: &Budget) {
        self.soft = budget.soft.map(|s| start + s);
        self.stretch = if budget.stretch { budget.soft.map(|s| (start, s)) } else { None };
    }

    /// Also stop when `flag` is set (`None` changes nothing). At most two flags.
    pub(crate) fn with_flag(mut self, flag: Option<&'a AtomicBool>) -> Self {
        if let Some(f) = flag {
            let slot = self.flags.iter_mut().find(|s| s.is_none()).expect("a stop check watches at most two flags");
            *slot = Some(f);
        }
        self
    }

    /// True when the search must stop, `nodes` being the count so far (this node included): the node budget is
    /// checked at every call, the flags and the hard deadline every [`CHECK_EVERY`] nodes.
    #[inline]
    pub fn expired(&self, nodes: u64) -> bool {
        if let Some(n) = self.nodes
            && nodes >= n
        {
            return true;
        }
        nodes & (CHECK_EVERY - 1) == 0 && self.poll()
    }

    /// A stop flag is set (no clock read: cheap enough for every iteration of a search).
    #[inline]
    pub(crate) fn flagged(&self) -> bool {
        self.flags.iter().flatten().any(|f| f.load(Ordering::Relaxed))
    }

    /// A stop flag is set or the hard deadline passed (the clock is read only when there is a deadline).
    #[inline]
    pub(crate) fn poll(&self) -> bool {
        self.flags.iter().flatten().any(|f| f.load(Ordering::Relaxed)) || self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// Whether a new iteration may start with the soft limit scaled to `pct` percent (a clock's budget only, never
    /// past the hard deadline; a fixed soft deadline ignores `pct`).
    pub(crate) fn may_deepen_scaled(&self, pct: u32) -> bool {
        self.soft_deadline(pct).is_none_or(|s| Instant::now() < s)
    }

    /// The soft deadline scaled to `pct` percent when it stretches.
    pub(crate) fn soft_deadline(&self, pct: u32) -> Option<Instant> {
        match self.stretch {
            Some((start, soft)) => {
                let t = start + soft * pct / 100;
                Some(self.hard.map_or(t, |h| t.min(h)))
            }
            None => self.soft,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    fn clock(rem: u64, inc: u64, mtg: Option<u32>) -> TimeControl {
        TimeControl::Clock { time: [ms(rem); 2], inc: [ms(inc); 2], moves_to_go: mtg }
    }

    /// The engine's defaults and the catalogue's (no margin, no new iteration after half the time).
    const CALLERS: [(Duration, u32); 3] =
        [(Duration::from_millis(10), 100), (Duration::ZERO, 50), (Duration::from_millis(50), 90)];

    #[test]
    fn move_time_keeps_the_margin() {
        let b = TimeControl::MoveTime(ms(300)).plan(Side::First, ms(5), 60);
        assert_eq!(b.hard, Some(ms(295)));
        assert_eq!(b.soft, Some(ms(177)));
        // 100 ms: the margin is at most a thirtieth of the move.
        let b = TimeControl::MoveTime(ms(100)).plan(Side::First, ms(5), 60);
        assert_eq!(b.hard, Some(Duration::from_nanos(96_666_667)));
        let b = TimeControl::MoveTime(ms(6)).plan(Side::First, ms(5), 60);
        assert_eq!(b.hard, Some(Duration::from_micros(5800)), "a short move keeps 29/30, whatever the margin");
        // The engine's 10 ms margin on 33 ms and 10 ms moves (time odds): it searched 23 ms and 5 ms with the margin
        // whole, 29.7 ms and 9 ms with at most a tenth of the move.
        assert_eq!(
            TimeControl::MoveTime(ms(33)).plan(Side::First, ms(10), 100).hard,
            Some(Duration::from_micros(31_900))
        );
        assert_eq!(
            TimeControl::MoveTime(ms(10)).plan(Side::First, ms(10), 100).hard,
            Some(Duration::from_nanos(9_666_667))
        );
        assert_eq!(TimeControl::Infinite.plan(Side::First, ms(5), 60), Budget::default());
        assert!(!b.stretch, "a fixed time per move never stretches");
        // The engine's plan: all of it.
        let b = TimeControl::MoveTime(ms(100)).plan(Side::First, ms(10), 100);
        let most = Some(Duration::from_nanos(96_666_667));
        assert_eq!((b.soft, b.hard), (most, most));
        // The catalogue's plan of `time=T`: stop at T, no new iteration after T/2.
        let b = TimeControl::MoveTime(ms(1001)).plan(Side::Second, Duration::ZERO, 50);
        assert_eq!((b.soft, b.hard), (Some(Duration::from_micros(500_500)), Some(ms(1001))));
    }

    #[test]
    fn clocks_never_overstep() {
        for rem in [0u64, 1, 3, 5, 9, 10, 11, 30, 50, 100, 999, 1000, 10_000, 60_000, 3_600_000] {
            for inc in [0u64, 10, 100, 1000, 5000] {
                for mtg in [None, Some(1), Some(2), Some(5), Some(40)] {
                    for margin in [0u64, 5, 10, 50] {
                        for soft_pct in [10, 50, 60, 100] {
                            let tc = clock(rem, inc, mtg);
                            let b = tc.plan(Side::First, ms(margin), soft_pct);
                            let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
                            assert!(soft <= hard, "{tc:?}");
                            assert!(hard <= ms(rem) / 3, "{tc:?} plans {hard:?}, more than a third of the clock");
                            assert!(b.stretch);
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
    }

    #[test]
    fn the_side_to_move_plans_with_its_own_clock() {
        let tc = TimeControl::Clock { time: [ms(10_000), ms(1000)], inc: [ms(0), ms(400)], moves_to_go: None };
        for (margin, soft) in CALLERS {
            assert_eq!(tc.plan(Side::First, margin, soft), clock(10_000, 0, None).plan(Side::Second, margin, soft));
            assert_eq!(tc.plan(Side::Second, margin, soft), clock(1000, 400, None).plan(Side::First, margin, soft));
        }
    }

    #[test]
    fn increment_is_spent_and_moves_to_go_divides() {
        let a = clock(10_000, 0, None).plan(Side::First, ms(0), 60);
        let b = clock(10_000, 400, None).plan(Side::First, ms(0), 60);
        assert_eq!(a.soft.unwrap().as_micros(), 166_666, "half of 10000/30");
        assert_eq!(b.soft.unwrap().as_micros(), 366_666, "half of 10000/30 + 400");
        assert!(b.hard > a.hard);
        let c = clock(10_000, 0, Some(1)).plan(Side::First, ms(0), 60);
        assert_eq!(c.hard.unwrap().as_micros(), 3_333_333, "one move to go still keeps two thirds");
        let d = clock(10_000, 0, Some(10)).plan(Side::First, ms(0), 60);
        assert_eq!(d.soft, Some(ms(500)), "ten moves to go: half of a tenth");
        assert_eq!(d.hard.unwrap().as_micros(), 3_333_333, "and a third of the clock at most");
        // 10 s + 0.1 s: ideal 10000/30 + 100 ms; no iteration starts after half of it, stop at four times it.
        let e = clock(10_000, 100, None).plan(Side::First, Duration::ZERO, 50);
        assert_eq!(e.soft.unwrap().as_micros(), 216_666);
        assert_eq!(e.hard.unwrap().as_micros(), 1_733_333);
        // The margin comes off what is left, so more increment never means less time.
        for (margin, soft) in CALLERS {
            let mut last = Duration::ZERO;
            for inc in [0u64, 10, 100, 1000] {
                let h = clock(5000, inc, None).plan(Side::First, margin, soft).hard.unwrap();
                assert!(h >= last);
                last = h;
            }
        }
    }

    /// A whole game on the clock with a searcher that takes twice its soft limit (what an iteration started just
    /// before it costs), never more than the hard one: the clock never runs out, and the moves get most of the time.
    #[test]
    fn a_game_on_the_clock_keeps_time_and_spends_it() {
        for (base, inc) in [(10_000u64, 100u64), (10_000, 0), (60_000, 1000), (1000, 10), (300, 100)] {
            let mut left = ms(base);
            let (mut spent, mut moves) = (Duration::ZERO, 0u32);
            for _ in 0..150 {
                let tc = TimeControl::Clock { time: [left; 2], inc: [ms(inc); 2], moves_to_go: None };
                let b = tc.plan(Side::First, ms(10), 100);
                let took = (b.soft.unwrap() * 2).min(b.hard.unwrap());
                assert!(took < left, "{base}+{inc}: a move of {took:?} with {left:?} left");
                left = left - took + ms(inc);
                spent += took;
                moves += 1;
            }
            let mean = spent / moves;
            let available = (ms(base) + ms(inc) * moves) / moves;
            assert!(mean * 4 >= available, "{base}+{inc}: {mean:?} a move of {available:?} available");
        }
        // The increment alone, once the clock is low: about the increment a move.
        let b = clock(500, 100, None).plan(Side::First, ms(10), 100);
        assert!(b.soft.unwrap() >= ms(50) && b.hard.unwrap() <= ms(170), "{b:?}");
    }

    #[test]
    fn the_soft_limit_stretches_with_the_best_move_only_on_a_clock() {
        let now = Instant::now();
        let b = clock(10_000, 100, None).plan(Side::First, Duration::ZERO, 100);
        let s = StopCheck::planned(now, b, None);
        let (soft, hard) = (now + b.soft.unwrap(), now + b.hard.unwrap());
        assert_eq!(s.soft_deadline(100), Some(soft));
        assert_eq!(s.soft_deadline(200), Some(now + b.soft.unwrap() * 2));
        assert_eq!(s.soft_deadline(50), Some(now + b.soft.unwrap() / 2));
        assert_eq!(s.soft_deadline(10_000), Some(hard), "never past the hard limit");
        let m = TimeControl::MoveTime(ms(300)).plan(Side::First, ms(10), 100);
        let s = StopCheck::planned(now, m, None);
        assert_eq!(s.soft_deadline(50), Some(now + ms(290)), "a fixed time per move is used whole");
        let mut s = StopCheck::none();
        s.set_soft(now, &b);
        assert_eq!(s.soft_deadline(200), Some(now + b.soft.unwrap() * 2), "no hard limit set: not capped");
        // More stability, less time; a fresh change the most.
        assert!((0..8).map(stability_pct).collect::<Vec<_>>().windows(2).all(|w| w[0] >= w[1]));
        assert!(stability_pct(0) > 100 && stability_pct(10) < 100);
    }

    #[test]
    fn the_node_budget_is_exact() {
        let s = StopCheck::planned(Instant::now(), Budget::default(), Some(1000));
        assert!((1..1000).all(|n| !s.expired(n)));
        assert!(s.expired(1000) && s.expired(1001));
        let none = StopCheck::none();
        assert!((0..5000).all(|n| !none.expired(n)) && none.may_deepen_scaled(100));
    }

    #[test]
    fn stop_flags_are_honoured_every_256_nodes() {
        let stop = AtomicBool::new(false);
        let halt = AtomicBool::new(false);
        let s = StopCheck::none().with_flag(Some(&stop)).with_flag(None).with_flag(Some(&halt));
        assert!(!s.expired(256) && !s.expired(512));
        stop.store(true, Ordering::Relaxed);
        assert!(!s.expired(255) && !s.expired(257), "between checks the flag is not read");
        assert!(s.expired(256) && s.expired(768));
        stop.store(false, Ordering::Relaxed);
        halt.store(true, Ordering::Relaxed);
        assert!(s.expired(1024), "the second flag too");
    }

    #[test]
    fn deadlines() {
        let past = Instant::now();
        std::thread::sleep(ms(2));
        let b = Budget { soft: Some(Duration::ZERO), hard: Some(ms(1)), stretch: false };
        let s = StopCheck::planned(past, b, None);
        assert!(!s.may_deepen_scaled(100));
        assert!(!s.expired(1) && s.expired(256), "the clock is read every 256 nodes");
        let later = StopCheck::planned(
            Instant::now(),
            Budget { soft: Some(ms(60_000)), hard: Some(ms(60_000)), stretch: false },
            None,
        );
        assert!(later.may_deepen_scaled(100) && !later.expired(256));
    }

    #[test]
    fn display() {
        assert_eq!(TimeControl::MoveTime(ms(100)).to_string(), "movetime 100ms");
        assert_eq!(TimeControl::clock(ms(300), ms(0)).to_string(), "300ms+0ms");
        assert_eq!(TimeControl::Infinite.to_string(), "infinite");
    }
}
