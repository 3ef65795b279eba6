//! Tree parallelism with virtual loss (Chaslot, Winands & van den Herik 2008): the threads share one tree under a lock
//! and run their playouts outside it.
//!
//! ```text
//! worker(t):
//!     until a limit:
//!         lock:   descend from the root to a leaf (selection, expansion), adding to every node of the path one
//!                 visit and a loss for the player choosing it (the virtual loss: other threads turn elsewhere)
//!         unlock: a playout from the leaf
//!         lock:   back up the reward, replacing the virtual loss (visits unchanged, reward - loss added)
//! ```
//!
//! Root parallelism (`parallel=root`: independent trees, root statistics added up) is in `mod.rs`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use rand::rngs::SmallRng;

use crate::game::{FullGame, SearchEval};

use super::TreeLimits;
use super::params::Params;
use super::tree::{Leaf, Scratch, Tree, simulate};

fn lock<'a, 'b, G: FullGame>(m: &'a Mutex<&'b mut Tree<G>>) -> MutexGuard<'a, &'b mut Tree<G>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Run one shared tree with one thread per random generator until a limit (`limits.playouts` and `limits.nodes`
/// count for the whole tree).
pub(super) fn run_shared<G: FullGame>(
    tree: &mut Tree<G>,
    game: &G,
    state: &G::State,
    params: &Params,
    eval: &SearchEval<G>,
    rngs: &mut [SmallRng],
    limits: &TreeLimits<'_>,
) {
    tree.set_threads(rngs.len());
    let started = AtomicU64::new(0);
    let shared = Mutex::new(tree);
    let (shared, started) = (&shared, &started);
    // One worker: descend under the lock, play out outside it, back up under the lock.
    let work = move |t: usize, rng: &mut SmallRng| {
        let mut sc = Scratch::default();
        let mut iterations = 0u64;
        loop {
            if limits.expired_at(iterations) {
                return;
            }
            if limits.playouts.is_some_and(|n| started.fetch_add(1, Ordering::Relaxed) >= n) {
                return;
            }
            let leaf = {
                let mut tree = lock(shared);
                if tree.nodes[0].proven.is_some() {
                    limits.halt.store(true, Ordering::Relaxed);
                    return;
                }
                if limits.nodes.is_some_and(|n| tree.counts.created >= n) {
                    return;
                }
                tree.descend(t, game, state, params, eval, rng, &mut sc, true)
            };
            let reward = match leaf {
                Leaf::Known(r) => r,
                Leaf::Playout(s) => simulate(game, &s, params, eval, rng, &mut sc.played),
            };
            lock(shared).backup(t, game, reward, params, &mut sc, true);
            iterations += 1;
        }
    };
    let work = &work;
    let (rng0, others) = rngs.split_first_mut().expect("at least one generator");
    let total = others.len() + 1;
    std::thread::scope(|scope| {
        // Workers 1.. on helper threads; one the system cannot start (thread or memory limit) is not an error: the
        // search goes on with the threads that started, and a warning says so once.
        for (i, rng) in others.iter_mut().enumerate() {
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || work(i + 1, rng));
            if let Err(e) = spawned {
                if !super::SPAWN_WARNED.swap(true, Ordering::Relaxed) {
                    eprintln!("warning: mcts: started {} of {total} threads ({e}); searching with those", i + 1);
                }
                break;
            }
        }
        // Worker 0 on this thread.
        work(0, rng0);
    });
}
