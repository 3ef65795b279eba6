//! Information-set Monte Carlo tree search, single observer (Cowling, Powley and Whitehouse, 2012):
//! `ismcts(playouts=1000,time=T,c=0.7,cap=2000,seed=S)`.
//!
//! ```text
//! one tree for the player's information set: a node is a sequence of moves from the root, an edge a (mover, move)
//! each iteration:
//!     d = a board drawn from the belief (belief.rs): a determinization
//!     select: from the root, while d is not over and every move legal in d has its edge:
//!                 every edge legal in d is *available* once more
//!                 follow the edge maximizing  mean + c * sqrt(ln(available) / visits)   (UCB1, subset-armed)
//!                 play its move on d
//!     expand: one untried legal move of d gets an edge (and a node); play it
//!     simulate: random moves to the end of the game
//!     back up: each edge on the path gets a visit and the reward of its mover (win 1, draw 1/2, loss 0)
//! play the root's most visited edge among the legal moves
//! ```
//! The moves of the opponent in the tree are those of the determinizations: the tree mixes the opponent's
//! information sets (the "single observer" simplification). Every iteration uses another board, so the statistics of
//! a move are averaged over the boards the player cannot rule out, not fitted to one of them.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::RngExt;

use super::{Tracking, random_of};
use crate::game::playout::random_playout_for;
use crate::game::{FullGame, GameError, MoveList, Outcome, Side, WIN_SCORE};
use crate::search::{Limits, SearchResult, Searcher, Stats, StopCheck};
use crate::spec::Spec;

/// Default iterations per move.
pub(crate) const DEFAULT_PLAYOUTS: u64 = 1000;
/// Default exploration constant.
pub(crate) const DEFAULT_C: f64 = 0.7;

struct Edge<M> {
    mover: Side,
    mv: M,
    child: u32,
    visits: u32,
    available: u32,
    reward: f64,
}

struct Node<M> {
    edges: Vec<Edge<M>>,
}

pub(crate) struct Ismcts<G: FullGame> {
    pub playouts: Option<u64>,
    pub c: f64,
    limits: Limits,
    tracking: Tracking<G>,
    /// A protocol's or the web page's stop.
    stop: Option<Arc<AtomicBool>>,
}

fn reward(o: Option<Outcome>) -> f64 {
    match o {
        Some(Outcome::Win) => 1.0,
        Some(Outcome::Loss) => 0.0,
        Some(Outcome::Value(v)) if v > 0 => 1.0,
        Some(Outcome::Value(v)) if v < 0 => 0.0,
        _ => 0.5,
    }
}

impl<G: FullGame> Ismcts<G> {
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let playouts = crate::mcts::params::playouts(spec)?;
        let c = spec.text("c").map(|t| t.parse::<f64>()).transpose().map_err(|e| GameError::new(format!("c: {e}")))?;
        let c = c.unwrap_or(DEFAULT_C);
        if !(c >= 0.0 && c.is_finite()) {
            return Err(GameError::new("ismcts: c must be a non-negative number"));
        }
        let limits = Limits::from_spec(spec)?;
        if limits.depth.is_some() || limits.nodes.is_some() {
            return Err(GameError::new("ismcts: no depth or node limit (it plays to the end); use playouts= or time="));
        }
        let tracking = Tracking::from_spec(spec)?;
        Ok(Ismcts { playouts, c, limits, tracking, stop: None })
    }

    /// Run the iterations with boards from `draw` and pick among `legal` for `me`.
    fn run(
        &mut self,
        game: &G,
        me: Side,
        legal: &[G::Move],
        mut draw: impl FnMut(&mut Tracking<G>) -> Option<G::State>,
    ) -> SearchResult<G::Move> {
        let t0 = Instant::now();
        let check = StopCheck::anytime(t0, self.limits.time, me).with_flag(self.stop.as_deref());
        // A time control (until stopped included) runs until it says stop; otherwise the playouts.
        let iterations = match (self.playouts, self.limits.time) {
            (Some(n), _) => n,
            (None, Some(_)) => u64::MAX,
            (None, None) => DEFAULT_PLAYOUTS,
        };
        let mut nodes: Vec<Node<G::Move>> = vec![Node { edges: Vec::new() }];
        let mut stats = Stats::default();
        let mut max_depth = 0;
        let mut path: Vec<(u32, usize)> = Vec::new();
        let mut moves = MoveList::new();
        let mut done = 0u64;
        while done < iterations {
            if done > 0 && done.is_multiple_of(4) && check.poll() {
                break;
            }
            let Some(mut d) = draw(&mut self.tracking) else { break };
            done += 1;
            path.clear();
            let mut node = 0u32;
            // Select and expand.
            loop {
                if game.is_terminal(&d) {
                    break;
                }
                let mover = game.side_to_move(&d);
                game.generate_moves(&d, &mut moves);
                let edges = &mut nodes[node as usize].edges;
                let mut untried: Vec<G::Move> = Vec::new();
                let mut best: Option<(usize, f64)> = None;
                for &m in &moves {
                    match edges.iter().position(|e| e.mover == mover && e.mv == m) {
                        Some(i) => {
                            let e = &mut edges[i];
                            e.available += 1;
                            let ucb = e.reward / e.visits as f64
                                + self.c * ((e.available as f64).ln() / e.visits as f64).sqrt();
                            if best.is_none_or(|(_, b)| ucb > b) {
                                best = Some((i, ucb));
                            }
                        }
                        None => untried.push(m),
                    }
                }
                if !untried.is_empty() {
                    let m = untried[self.tracking.rng.random_range(0..untried.len())];
                    let child = nodes.len() as u32;
                    nodes[node as usize].edges.push(Edge { mover, mv: m, child, visits: 0, available: 1, reward: 0.0 });
                    path.push((node, nodes[node as usize].edges.len() - 1));
                    nodes.push(Node { edges: Vec::new() });
                    stats.nodes += 1;
                    game.play(&mut d, m);
                    break;
                }
                let Some((i, _)) = best else { break };
                path.push((node, i));
                let e = &nodes[node as usize].edges[i];
                game.play(&mut d, e.mv);
                node = e.child;
            }
            max_depth = max_depth.max(path.len() as u32);
            // Simulate.
            let first = if game.is_terminal(&d) {
                reward(game.outcome_for(&d, Side::First))
            } else {
                stats.leaves += 1;
                reward(Some(random_playout_for(game, &d, Side::First, &mut self.tracking.rng).0))
            };
            // Back up.
            for &(n, i) in &path {
                let e = &mut nodes[n as usize].edges[i];
                e.visits += 1;
                e.reward += if e.mover == Side::First { first } else { 1.0 - first };
            }
        }
        let root = &nodes[0].edges;
        let best = root.iter().filter(|e| e.mover == me && legal.contains(&e.mv)).max_by_key(|e| e.visits);
        let m = best.map(|e| e.mv).or_else(|| random_of(legal, &mut self.tracking.rng));
        let value = best.map_or(0, |e| ((2.0 * e.reward / e.visits.max(1) as f64 - 1.0) * 1000.0) as i32);
        SearchResult {
            best_move: m,
            value: value.clamp(-WIN_SCORE / 2, WIN_SCORE / 2),
            depth: max_depth,
            pv: m.into_iter().collect(),
            stats,
            seconds: t0.elapsed().as_secs_f64(),
        }
    }
}

impl<G: FullGame> Searcher<G> for Ismcts<G> {
    fn name(&self) -> String {
        let mut p = Vec::new();
        if let Some(n) = self.playouts {
            p.push(format!("playouts={n}"));
        }
        p.extend(self.limits.spec_params());
        if self.c != DEFAULT_C {
            p.push(format!("c={}", self.c));
        }
        p.extend(self.tracking.name_params());
        if p.is_empty() { "ismcts".into() } else { format!("ismcts({})", p.join(",")) }
    }

    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        let me = game.side_to_move(state);
        let legal = super::legal_moves(game, state);
        let s = *state;
        self.run(game, me, &legal, |t| Some(game.resample(&s, me, &mut t.rng)))
    }

    fn set_limits(&mut self, limits: Limits) {
        // `playouts=` stays: with a time control too, whichever runs out first stops the search.
        self.limits = limits;
    }

    fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    fn reseed(&mut self, seed: u64) {
        self.tracking.reseed(seed);
    }

    fn observe_start(&mut self, game: &G, start: &G::State, player: Side) {
        self.tracking.start(game, start, player);
    }

    fn observe(&mut self, _game: &G, observation: &str) {
        self.tracking.observe(observation);
    }

    fn choose_observed(&mut self, game: &G, legal: &[G::Move]) -> SearchResult<G::Move> {
        let me = self.tracking.belief.as_ref().map_or(Side::First, |b| b.player());
        let r = self.run(game, me, legal, |t| t.boards(game, 1).pop());
        if let Some(m) = r.best_move {
            self.tracking.played(game, m);
        }
        r
    }
}
