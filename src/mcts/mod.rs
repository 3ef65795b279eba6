//! Monte Carlo tree search as a player: `mcts(playouts=N, time=T, nodes=N, c=1, ...)` (see [`params`]).
//!
//! The four steps of one iteration are in [`tree`]; this file is the engineering around them:
//!
//! ```text
//! search(state):
//!     for each tree (one; one per thread with root parallelism):
//!         reuse: the subtree of `state` in the previous tree (within 4 plies), else a new root
//!     run until: `playouts` iterations, `nodes` tree nodes, the time plan of the move, the stop flag, or a proven
//!         root: one thread; `threads` sharing the tree (tree parallelism with virtual loss, `parallel.rs`, the
//!         default); or one thread per tree (`parallel=root`)
//!     add up the root's children over the trees (same move: visits and rewards added, a proof kept)
//!     best move: a proven win (the shortest), else the most visited child that is not a proven loss
//! ```
//!
//! It plays every game whose turns are a player's or chance's (deterministic and dice games, passes included);
//! simultaneous moves and hidden information are refused by the registry of players.
//!
//! Reporting (the counting rules of `search/mod.rs` for MCTS): `nodes` = tree nodes created, `leaves` = playouts,
//! `depth` = the deepest tree node reached; the value is the best move's mean reward for the side to move mapped to
//! `±1000` (`2q - 1` thousandths), or `win in n` / `loss in n` once proven. [`Mcts::root_stats`] gives the root's
//! children (visits, mean, proof) after a search.

pub(crate) mod amaf;
pub mod bandit;
pub mod parallel;
pub mod params;
pub mod recycle;
pub mod select;
pub mod simultaneous;
pub mod transpose;
pub mod tree;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::game::{FullGame, GameError, GivenEval, NamedEval, SearchEval, Side, WIN_SCORE, err};
use crate::search::StopCheck;
use crate::search::{Iteration, Limits, Reporter, RootMoveStats, SearchResult, Searcher, Stats};
use crate::spec::Spec;

pub(crate) use params::{Parallel, Params};

/// Whether the warning about threads that could not start was printed (once per process).
pub(crate) static SPAWN_WARNED: AtomicBool = AtomicBool::new(false);
use tree::{Actor, Tree, for_player};

/// Plies searched below the previous root for the new position (our move, the reply, chance draws between them).
const REUSE_PLIES: u32 = 4;

/// One root move after a search, all trees added up.
#[derive(Clone, Debug)]
pub struct RootChild<M> {
    pub mv: M,
    pub visits: u64,
    /// Mean reward for the side to move at the root.
    pub mean: f64,
    /// The exact value for the side to move once proven, and the plies of the proof.
    pub proven: Option<(f64, u16)>,
}

/// One generator per thread, seeded from `seed`.
fn thread_rngs(threads: usize, seed: u64) -> Vec<SmallRng> {
    (0..threads).map(|i| SmallRng::seed_from_u64(seed.wrapping_add(i as u64 * 0x9E37_79B9_7F4A_7C15))).collect()
}

/// The MCTS player.
pub struct Mcts<G: FullGame> {
    pub params: Params,
    pub limits: Limits,
    trees: Vec<(Tree<G>, Option<G::State>)>,
    rngs: Vec<SmallRng>,
    eval: NamedEval<G>,
    stop: Option<Arc<AtomicBool>>,
    reporter: Option<Reporter<G::Move>>,
    root: Vec<RootChild<G::Move>>,
}

impl<G: FullGame> Mcts<G> {
    /// A player with the parameters `params` and its own limits `limits`.
    pub fn new(params: Params, limits: Limits) -> Self {
        let rngs = match params.seed {
            Some(s) => thread_rngs(params.threads, s),
            None => (0..params.threads).map(|_| SmallRng::from_rng(&mut rand::rng())).collect(),
        };
        Mcts {
            params,
            limits,
            trees: Vec::new(),
            rngs,
            eval: NamedEval::new(None),
            stop: None,
            reporter: None,
            root: Vec::new(),
        }
    }

    /// Build from `mcts(...)` (the caller checks unknown parameters with `spec.finish()`).
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let mut limits = Limits::from_spec(spec)?;
        let mut params = Params::from_spec::<G>(spec)?;
        if let Some(d) = limits.depth.take() {
            params.max_depth = d.max(1);
        }
        if limits.nodes == Some(0) {
            return Err(GameError::new("mcts: nodes=0: the tree needs at least its root"));
        }
        Ok(Mcts::new(params, limits))
    }

    /// The root's moves after the last search (all trees added up), most visited first.
    pub fn root_stats(&self) -> &[RootChild<G::Move>] {
        &self.root
    }

    /// Tree `i` (one per thread) of the last search, for inspection.
    pub fn tree(&self, i: usize) -> Option<&Tree<G>> {
        self.trees.get(i).map(|(t, _)| t)
    }

    /// The number of trees: one per thread with root parallelism, else one.
    fn tree_count(&self) -> usize {
        if self.params.parallel == Parallel::Root { self.params.threads } else { 1 }
    }

    /// Set up the trees for a search from `state`: the previous subtree when it is found, else a new root.
    fn prepare(&mut self, game: &G, state: &G::State) {
        let count = self.tree_count();
        if self.trees.len() != count {
            let bytes = (self.params.mem_mib << 20) / count;
            self.trees = (0..count).map(|_| (Tree::with_budget(bytes, self.params.tt), None)).collect();
        }
        for (tree, root) in &mut self.trees {
            let found = match root {
                Some(r) if self.params.reuse => tree.find(game, r, state, REUSE_PLIES),
                _ => None,
            };
            match found {
                Some(0) => {}
                Some(n) => tree.reroot(n),
                None => tree.clear(game, state),
            }
            tree.counts = Default::default();
            *root = Some(*state);
        }
    }
}

/// Run one tree until a limit; returns whether the root was proven.
fn run_tree<G: FullGame>(
    tree: &mut Tree<G>,
    game: &G,
    state: &G::State,
    params: &Params,
    eval: &SearchEval<G>,
    rng: &mut SmallRng,
    limits: &TreeLimits<'_>,
) {
    let mut iterations = 0u64;
    loop {
        if tree.nodes[0].proven.is_some() {
            limits.halt.store(true, Ordering::Relaxed);
            return;
        }
        if limits.playouts.is_some_and(|n| iterations >= n) || limits.nodes.is_some_and(|n| tree.counts.created >= n) {
            return;
        }
        if limits.expired_at(iterations) {
            return;
        }
        tree.iterate(game, state, params, eval, rng);
        iterations += 1;
    }
}

/// The clock (the deadline) is read every this many iterations of a tree (a few microseconds each on the course's
/// games); the stop flags, one atomic load, before every iteration: `stop` waits for at most the playout under way.
const POLL_EVERY: u64 = 8;

/// The limits of one tree: its share of the playouts and nodes, and the one stop check of the searches without
/// iterations ([`StopCheck::anytime`]: the deadline, the stop flag and `halt`).
struct TreeLimits<'a> {
    playouts: Option<u64>,
    nodes: Option<u64>,
    check: StopCheck<'a>,
    /// Set when a tree proves the root: every tree stops.
    halt: &'a AtomicBool,
}

impl TreeLimits<'_> {
    /// Whether the tree stops before its iteration number `iterations`: a stop flag (`stop`, a proven root) at every
    /// iteration, the deadline every [`POLL_EVERY`] after the first (`time=0` plays one playout, as the engine's
    /// `time=0` completes its first ply: a time limit never gives an unsearched move).
    fn expired_at(&self, iterations: u64) -> bool {
        self.check.flagged() || (iterations > 0 && iterations.is_multiple_of(POLL_EVERY) && self.check.poll())
    }
}

impl<G: FullGame> Searcher<G> for Mcts<G> {
    fn name(&self) -> String {
        // (`depth=` is the tree's, kept in `params`: `limits.depth` is always empty here.)
        let mut p = self.limits.spec_params();
        if self.params.max_depth != u32::MAX {
            p.push(format!("depth={}", self.params.max_depth));
        }
        p.extend(self.params.spec());
        if self.params.plain && !G::MCTS_DEFAULTS.is_empty() {
            p.push("defaults=none".into());
        }
        if p.is_empty() { "mcts".into() } else { format!("mcts({})", p.join(",")) }
    }

    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        let start = Instant::now();
        let name = self.params.eval.as_deref().unwrap_or("simple");
        self.eval.set_name(Some(name.to_string()));
        self.prepare(game, state);
        if self.params.probe {
            game.prepare_endgame();
        }
        let mover = game.side_to_move(state);
        let unlimited = self.limits.time.is_none() && self.limits.nodes.is_none();
        let playouts = self.params.playouts.or(if unlimited { Some(params::DEFAULT_PLAYOUTS) } else { None });
        let trees = self.trees.len() as u64;
        let share = |n: u64| n.div_ceil(trees);
        let halt = AtomicBool::new(false);
        let limits = TreeLimits {
            playouts: playouts.map(share),
            nodes: self.limits.nodes.map(share),
            check: StopCheck::anytime(start, self.limits.time, mover)
                .with_flag(self.stop.as_deref())
                .with_flag(Some(&halt)),
            halt: &halt,
        };
        let (params, eval) = (&self.params, self.eval.get(game));
        if self.params.threads == 1 {
            run_tree(&mut self.trees[0].0, game, state, params, eval, &mut self.rngs[0], &limits);
        } else if self.trees.len() == 1 {
            parallel::run_shared(&mut self.trees[0].0, game, state, params, eval, &mut self.rngs, &limits);
        } else {
            // Tree 0 grows on this thread, the others on helpers. A helper the system cannot start (thread or memory
            // limit) is not an error: its tree and the ones after it sit this move out, and a warning says so once.
            let (first, others) = self.trees.split_first_mut().expect("at least one tree");
            let (rng0, rngs) = self.rngs.split_first_mut().expect("one generator per tree");
            let total = others.len() + 1;
            std::thread::scope(|scope| {
                for (i, ((tree, _), rng)) in others.iter_mut().zip(rngs.iter_mut()).enumerate() {
                    let limits = &limits;
                    let spawned = std::thread::Builder::new()
                        .spawn_scoped(scope, move || run_tree(tree, game, state, params, eval, rng, limits));
                    if let Err(e) = spawned {
                        if !SPAWN_WARNED.swap(true, Ordering::Relaxed) {
                            eprintln!(
                                "warning: mcts: started {} of {total} threads ({e}); searching with those",
                                i + 1
                            );
                        }
                        break;
                    }
                }
                run_tree(&mut first.0, game, state, params, eval, rng0, &limits);
            });
        }
        self.root = collect_root(&self.trees, mover);
        let result = self.result(game, state, mover, start);
        if let Some(r) = &self.reporter {
            r(&Iteration {
                depth: result.depth,
                seldepth: None,
                value: result.value,
                nodes: result.stats.leaves,
                elapsed: start.elapsed(),
                hashfull: None,
                pv: result.pv.clone(),
            });
        }
        result
    }

    fn give_evaluation(&mut self, f: GivenEval<G>) -> Result<(), GameError> {
        if self.params.cut == 0 && self.params.bias == 0.0 {
            let why = "its playouts run to the end of the game (give it cut=N or bias=X to use an evaluation)";
            return err(format!("{} evaluates no position: {why}", Searcher::<G>::name(self)));
        }
        self.eval.give(f);
        Ok(())
    }

    fn new_game(&mut self) {
        self.trees.clear();
    }
    fn reseed(&mut self, seed: u64) {
        self.rngs = thread_rngs(self.params.threads, crate::game::seed::with_own(self.params.seed, seed));
    }
    fn set_limits(&mut self, limits: Limits) {
        if let Some(d) = limits.depth {
            self.params.max_depth = d.max(1);
        }
        self.limits = Limits { depth: None, ..limits };
    }
    fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }
    fn set_reporter(&mut self, reporter: Option<Reporter<G::Move>>) {
        self.reporter = reporter;
    }
    fn root_moves(&self) -> Vec<RootMoveStats<G::Move>> {
        self.root
            .iter()
            .map(|r| RootMoveStats {
                mv: r.mv,
                visits: r.visits,
                mean: r.mean,
                proven: r.proven.map(|(v, plies)| proven_score(v, plies + 1)),
            })
            .collect()
    }
}

/// The root's children over all trees, from the root mover's view, best first.
fn collect_root<G: FullGame>(trees: &[(Tree<G>, Option<G::State>)], mover: Side) -> Vec<RootChild<G::Move>> {
    let mut out: Vec<(RootChild<G::Move>, f64)> = Vec::new();
    for (tree, _) in trees {
        for i in tree.nodes[0].children() {
            let c = &tree.nodes[i];
            let mv = c.mv.expect("a child has a move");
            let k = match out.iter().position(|(r, _)| r.mv == mv) {
                Some(k) => k,
                None => {
                    out.push((RootChild { mv, visits: 0, mean: 0.5, proven: None }, 0.0));
                    out.len() - 1
                }
            };
            let (r, sum) = &mut out[k];
            r.visits += c.visits as u64;
            // The sum of the rewards for the mover: for `Second`, the visits minus `First`'s sum.
            *sum += if mover == Side::First { c.reward } else { c.visits as f64 - c.reward };
            if let Some(v) = c.proven {
                r.proven = Some((for_player(v as f64, mover), c.proof_plies));
            }
        }
    }
    let mut root: Vec<RootChild<G::Move>> = out
        .into_iter()
        .map(|(mut r, sum)| {
            r.mean = match r.proven {
                Some((v, _)) => v,
                None if r.visits > 0 => sum / r.visits as f64,
                None => 0.5,
            };
            r
        })
        .collect();
    root.sort_by(|a, b| rank(b).partial_cmp(&rank(a)).unwrap_or(std::cmp::Ordering::Equal));
    root
}

/// The order of root moves: proven wins (shortest first), then by visits and mean, proven losses last (longest
/// first).
fn rank<M>(r: &RootChild<M>) -> (i32, f64, f64) {
    match r.proven {
        Some((v, plies)) if v >= 1.0 => (2, -(plies as f64), 0.0),
        Some((v, plies)) if v <= 0.0 => (-1, plies as f64, 0.0),
        _ => (0, r.visits as f64, r.mean),
    }
}

impl<G: FullGame> Mcts<G> {
    fn result(&self, game: &G, state: &G::State, mover: Side, start: Instant) -> SearchResult<G::Move> {
        let best = self.root.first();
        let root0 = &self.trees[0].0.nodes[0];
        let value = match (root0.proven, best) {
            (Some(v), _) => proven_score(for_player(v as f64, mover), root0.proof_plies),
            (None, Some(b)) => match b.proven {
                Some((v, plies)) => proven_score(v, plies + 1),
                None => ((2.0 * b.mean - 1.0) * 1000.0).round() as i32,
            },
            (None, None) => 0,
        };
        let mut stats = Stats::default();
        let mut depth = 0;
        for (tree, _) in &self.trees {
            stats.nodes += tree.counts.created + 1;
            stats.leaves += tree.counts.playouts;
            depth = depth.max(tree.counts.max_depth);
        }
        let mut pv: Vec<G::Move> = best.map(|b| b.mv).into_iter().collect();
        // The rest of the line: the most visited children of tree 0 below the best move.
        let tree = &self.trees[0].0;
        let mut n = tree.nodes[0].children().find(|&i| tree.nodes[i].mv == pv.first().copied());
        while let Some(i) = n {
            let next = tree.nodes[i].children().max_by_key(|&c| tree.nodes[c].visits);
            let Some(c) = next.filter(|&c| tree.nodes[c].visits > 0) else { break };
            if tree.nodes[i].actor == Actor::Chance || pv.len() >= 32 {
                break;
            }
            pv.extend(tree.nodes[c].mv);
            n = Some(c);
        }
        let _ = (game, state);
        SearchResult { best_move: best.map(|b| b.mv), value, depth, pv, stats, seconds: start.elapsed().as_secs_f64() }
    }
}

/// A proven value for the side to move on the search's score scale: a win or loss by its distance, else the
/// expectation mapped to `±1000`.
fn proven_score(v: f64, plies: u16) -> i32 {
    if v >= 1.0 {
        WIN_SCORE - plies as i32
    } else if v <= 0.0 {
        -WIN_SCORE + plies as i32
    } else {
        ((2.0 * v - 1.0) * 1000.0).round() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raised_stop_flag_is_seen_before_the_next_playout() {
        // Issue 43, point 9: the flags were read every POLL_EVERY iterations only, so `stop` waited for up to 8
        // playouts (22 ms measured). Now at most the playout under way is finished after the flag is raised.
        let (stop, halt) = (AtomicBool::new(false), AtomicBool::new(false));
        let check = StopCheck::anytime(Instant::now(), None, Side::First).with_flag(Some(&stop));
        let limits = TreeLimits { playouts: None, nodes: None, check, halt: &halt };
        assert!((0..3 * POLL_EVERY).all(|i| !limits.expired_at(i)), "no limit, no flag: never expired");
        stop.store(true, Ordering::Relaxed);
        for i in 0..3 * POLL_EVERY {
            assert!(limits.expired_at(i), "the flag is seen before iteration {i}");
        }
    }

    #[test]
    fn no_time_still_plays_one_playout() {
        // `mcts(time=0)` gave a move from an empty tree (0 playouts), where `engine(time=0)` completes its first ply.
        let halt = AtomicBool::new(false);
        let zero = Some(crate::search::TimeControl::MoveTime(std::time::Duration::ZERO));
        let check = StopCheck::anytime(Instant::now(), zero, Side::First);
        let limits = TreeLimits { playouts: None, nodes: None, check, halt: &halt };
        assert!(!limits.expired_at(0), "the first playout is played");
        assert!(limits.expired_at(POLL_EVERY), "the deadline is read at the next poll");
    }
}
