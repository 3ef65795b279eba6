//! Progress reports of the engine: after every completed iteration of the main thread's normal search, an
//! [`Iteration`] goes to the reporter given through [`crate::search::Searcher::set_reporter`] (the protocols print it
//! as an `info` line).
//!
//! ```text
//! Iterate: ... iteration d completed with best (move, value, pv) -> Worker::report -> reporter(Iteration)
//! ```
//! The probe, the loss check and the Lazy SMP helpers do not report (their workers have no hook).

use crate::game::FullGame;
use crate::search::Iteration;

use super::search::{Best, Worker};

impl<G: FullGame> Worker<'_, G> {
    /// Send the result of a completed iteration to the hook, if any.
    pub(super) fn report(&self, best: &Option<Best<G::Move>>) {
        let (Some(hook), Some(b)) = (&self.hook, best) else { return };
        let it = Iteration {
            depth: b.depth,
            seldepth: Some(self.seldepth.max(b.depth)),
            value: b.value,
            nodes: self.stats.nodes,
            elapsed: hook.start.elapsed(),
            hashfull: self.sh.tt.hashfull(),
            pv: if b.pv.first() == Some(&b.mv) { b.pv.clone() } else { vec![b.mv] },
        };
        (hook.reporter)(&it);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use super::super::Engine;
    use super::super::params::EngineOptions;
    use crate::games::breakthrough::Breakthrough;
    use crate::search::{Iteration, Limits, Reporter, Searcher, TimeControl};

    #[test]
    fn a_clock_reaches_the_time_plan_and_limits_replace_it() {
        let mut e = Engine::<Breakthrough>::new(EngineOptions::default());
        let clock = TimeControl::clock(Duration::from_secs(10), Duration::from_millis(100));
        e.set_limits(Limits { depth: Some(7), time: Some(clock), ..Limits::default() });
        assert_eq!(e.opts.limits.time, Some(clock));
        assert_eq!(e.opts.limits.depth, Some(7));
        e.set_limits(Limits { time: Some(TimeControl::MoveTime(Duration::from_millis(50))), ..Limits::default() });
        assert_eq!(e.opts.limits.time, Some(TimeControl::MoveTime(Duration::from_millis(50))));
        assert_eq!(e.opts.limits.depth, None);
    }

    #[test]
    fn every_completed_iteration_is_reported_once_in_order() {
        let game = Breakthrough::default();
        let mut e = Engine::<Breakthrough>::new(EngineOptions { tt_mib: 1, ..EngineOptions::default() });
        e.set_limits(Limits { depth: Some(4), ..Limits::default() });
        let seen: Arc<Mutex<Vec<(u32, i32, u64)>>> = Arc::default();
        let sink = seen.clone();
        let reporter: Reporter<_> = Arc::new(move |it: &Iteration<_>| {
            assert_eq!(it.pv.len().min(1), 1, "a principal variation");
            sink.lock().unwrap().push((it.depth, it.value, it.nodes));
        });
        e.set_reporter(Some(reporter));
        let mut s = crate::game::Game::start(&game);
        let m = crate::game::Game::parse_move(&game, &s, "a2a3").unwrap();
        crate::game::Game::play(&game, &mut s, m);
        let r = e.search(&game, &s);
        let seen = seen.lock().unwrap().clone();
        assert_eq!(seen.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
        assert!(seen.windows(2).all(|w| w[0].2 <= w[1].2), "nodes grow: {seen:?}");
        assert_eq!(seen.last().unwrap().1, r.value);
        // Without a reporter nothing is called (and the search is unchanged).
        e.set_reporter(None);
        e.new_game();
        let again = e.search(&game, &s);
        assert_eq!((again.best_move, again.value), (r.best_move, r.value));
    }
}
