//! Lazy SMP: `threads = N` runs N copies of the search on one shared transposition table.
//!
//! ```text
//! helpers 1..N-1: iterative deepening of the same root (helper i starts at depth 1 + i mod 2, so half of them are
//!                 one ply ahead), writing what they learn into the shared table, until the main thread halts them
//! main thread:    the full driver (probe, search, loss check); its result is the engine's move
//! ```
//! With one thread nothing is spawned and a node-limited search is deterministic. A helper the system cannot start is
//! not a panic: the search goes on with the threads it has (a warning on stderr, once).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::FullGame;
use crate::search::Stats;

use super::params::MAX_DEPTH;
use super::search::{RootMove, Shared, Worker};

/// Whether the warning about threads that could not start was printed (once per process).
static SPAWN_WARNED: AtomicBool = AtomicBool::new(false);

/// Run `main` on a worker while `threads - 1` helpers search `state` too; returns main's result and the summed
/// statistics of every thread.
pub fn run<'a, G: FullGame, R>(
    make_shared: impl Fn(&'a AtomicBool) -> Shared<'a, G> + Sync,
    halt: &'a AtomicBool,
    no_halt: &'a AtomicBool,
    threads: usize,
    state: &G::State,
    roots: &[RootMove<G::Move>],
    main: impl FnOnce(&mut Worker<'a, G>) -> R,
) -> (R, Stats) {
    if threads <= 1 {
        let mut w = Worker::new(make_shared(no_halt));
        let r = main(&mut w);
        return (r, w.stats);
    }
    halt.store(false, Ordering::Relaxed);
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for i in 1..threads {
            let sh = make_shared(halt);
            let mut roots = roots.to_vec();
            let state = *state;
            // A helper that the system cannot start (thread or memory limit) is not an error of the search: it goes
            // on with the threads it has, and says so once.
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut w = Worker::new(sh);
                // Different helpers look at the root moves in different orders.
                if !roots.is_empty() {
                    let k = i % roots.len();
                    roots.rotate_left(k);
                }
                w.iterate(&state, &mut roots, 1 + (i as u32 % 2), MAX_DEPTH, None);
                w.stats
            });
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    if !SPAWN_WARNED.swap(true, Ordering::Relaxed) {
                        eprintln!("warning: engine: started {i} of {threads} threads ({e}); searching with those");
                    }
                    break;
                }
            }
        }
        let mut w = Worker::new(make_shared(no_halt));
        let r = main(&mut w);
        halt.store(true, Ordering::Relaxed);
        let mut stats = w.stats;
        for h in handles {
            if let Ok(s) = h.join() {
                stats += s;
            }
        }
        (r, stats)
    })
}
