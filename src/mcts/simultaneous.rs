//! Simultaneous-move MCTS as a player: `smmcts(playouts=N, time=T, select=duct|rm|exp3, c=1.4, gamma=0.1, seed=S)`.
//!
//! ```text
//! iterate(root):                                  (rewards u for the first player, 1 - u for the second)
//!     s = root, node = root node
//!     loop:
//!         if s is terminal: u = its result; break
//!         i = the first player's bandit at node chooses,  j = the second player's chooses   (bandit.rs)
//!         s = play_joint(s, move_i, move_j)
//!         if node has the child (i, j): node = that child; continue
//!         else: add the child (expansion), u = the result of a random playout from s; break
//!     for every (node, i, j) on the path: the first player's bandit records (i, u), the second's (j, 1 - u)
//!
//! search_as(state, player): iterate until playouts, nodes or time run out; then play player's move drawn from its
//! root bandit's final strategy (DUCT: the most visited move; RM, EXP3: the average strategy)
//! ```
//!
//! Each node keeps one bandit per player over that player's moves, and its children by pair of move indices. A node
//! where one player moves alone (a game mixing turns) has a one-move bandit for the other. It plays the games whose
//! turns are simultaneous or a player's (no chance, no hidden information); the registry of players refuses the others.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::bandit::{Bandit, Select};
use crate::game::{FullGame, GameError, MoveList, Outcome, Side, Turn, playout};
use crate::search::{Limits, SearchResult, Searcher, Stats, StopCheck};
use crate::spec::Spec;

/// Playouts per move when no limit is given.
pub(crate) const DEFAULT_PLAYOUTS: u64 = 10_000;
/// Most tree nodes (beyond it, iterations go on without expanding).
pub(crate) const MAX_NODES: usize = 2_000_000;

/// A tree node: the moves and bandit of each player, the children by pair of move indices.
struct Node<M> {
    moves: [Vec<M>; 2],
    bandits: [Bandit; 2],
    /// Who moves: both (simultaneous), or one player alone.
    turn: Turn,
    children: Vec<(u16, u16, u32)>,
}

/// The player.
pub struct SmMcts<G: FullGame> {
    pub select: Select,
    pub c: f64,
    pub gamma: f64,
    pub playouts: Option<u64>,
    pub limits: Limits,
    seed: Option<u64>,
    rng: SmallRng,
    nodes: Vec<Node<G::Move>>,
    stop: Option<Arc<AtomicBool>>,
}

/// The first player's reward of a finished game: win 1, draw 1/2, loss 0 (a numeric result by its sign).
fn reward(o: Outcome) -> f64 {
    match o {
        Outcome::Win => 1.0,
        Outcome::Loss => 0.0,
        Outcome::Draw => 0.5,
        Outcome::Value(v) => 0.5 + 0.5 * (v.signum() as f64),
    }
}

impl<G: FullGame> SmMcts<G> {
    /// A player with the selection rule `select`, its constants, playouts, limits and seed.
    pub fn new(select: Select, c: f64, gamma: f64, playouts: Option<u64>, limits: Limits, seed: Option<u64>) -> Self {
        let rng = match seed {
            Some(s) => SmallRng::seed_from_u64(s),
            None => SmallRng::from_rng(&mut rand::rng()),
        };
        SmMcts { select, c, gamma, playouts, limits, seed, rng, nodes: Vec::new(), stop: None }
    }

    /// Build from `smmcts(...)` (the caller checks unknown parameters with `spec.finish()`).
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let limits = Limits::from_spec(spec)?;
        if limits.depth.is_some() {
            return Err(GameError::new("smmcts: no depth limit (it plays to the end); use playouts= or time="));
        }
        let playouts = super::params::playouts(spec)?;
        let select = match spec.text("select") {
            None => Select::Rm,
            Some(t) => Select::parse(&t)
                .ok_or_else(|| GameError::new(format!("smmcts: select={t}: expected duct, rm or exp3")))?,
        };
        let real = |key: &str, default: f64, lo: f64, hi: f64| -> Result<f64, GameError> {
            match spec.text(key) {
                None => Ok(default),
                Some(t) => match t.parse::<f64>() {
                    Ok(x) if (lo..=hi).contains(&x) => Ok(x),
                    _ => Err(GameError::new(format!("smmcts: {key}={t}: expected a number in {lo}..={hi}"))),
                },
            }
        };
        let c = real("c", 1.4, 0.0, 100.0)?;
        let gamma = real("gamma", 0.1, 0.001, 1.0)?;
        let seed = spec.count("seed")?;
        Ok(Self::new(select, c, gamma, playouts, limits, seed))
    }

    fn node(game: &G, s: &G::State) -> Node<G::Move> {
        let turn = game.turn(s);
        let list = |p: Side| {
            let mut m = MoveList::new();
            game.player_moves(s, p, &mut m);
            m.to_vec()
        };
        let mut moves = [list(Side::First), list(Side::Second)];
        // The player who does not move here has one (unused) choice: the mover's move stands in for it.
        if let Turn::Player(p) = turn {
            let mover = moves[p.index()].clone();
            moves[p.other().index()] = mover.into_iter().take(1).collect();
        }
        let bandits = [Bandit::new(moves[0].len()), Bandit::new(moves[1].len())];
        Node { moves, bandits, turn, children: Vec::new() }
    }

    fn play(game: &G, s: &mut G::State, node: &Node<G::Move>, i: usize, j: usize) {
        match node.turn {
            Turn::Simultaneous => game.play_joint(s, node.moves[0][i], node.moves[1][j]),
            Turn::Player(p) => game.play(s, node.moves[p.index()][if p == Side::First { i } else { j }]),
            Turn::Chance => unreachable!("the registry refuses games with chance"),
        }
    }

    /// One iteration from the root state `root` (node 0).
    fn iterate(
        &mut self,
        game: &G,
        root: &G::State,
        path: &mut Vec<(u32, u16, u16, f64, f64)>,
        scratch: &mut Vec<f64>,
    ) {
        path.clear();
        let mut s = *root;
        let mut at = 0u32;
        let u = loop {
            if let Some(o) = game.outcome_for(&s, Side::First) {
                break reward(o);
            }
            let (select, c, gamma) = (self.select, self.c, self.gamma);
            let node = &mut self.nodes[at as usize];
            let (i, pi) = node.bandits[0].choose(select, c, gamma, scratch, &mut self.rng);
            let (j, pj) = node.bandits[1].choose(select, c, gamma, scratch, &mut self.rng);
            Self::play(game, &mut s, node, i, j);
            path.push((at, i as u16, j as u16, pi, pj));
            let child = node.children.iter().find(|&&(a, b, _)| a as usize == i && b as usize == j).map(|c| c.2);
            match child {
                Some(c) => at = c,
                None => {
                    if self.nodes.len() < MAX_NODES && !game.is_terminal(&s) {
                        let id = self.nodes.len() as u32;
                        self.nodes[at as usize].children.push((i as u16, j as u16, id));
                        let fresh = Self::node(game, &s);
                        self.nodes.push(fresh);
                    }
                    break reward(playout::random_playout_for(game, &s, Side::First, &mut self.rng).0);
                }
            }
        };
        for &(n, i, j, pi, pj) in path.iter() {
            let node = &mut self.nodes[n as usize];
            node.bandits[0].update(self.select, i as usize, pi, u);
            node.bandits[1].update(self.select, j as usize, pj, 1.0 - u);
        }
    }

    /// Run the iterations of one search from `state` (a new tree).
    fn run(&mut self, game: &G, state: &G::State, mover: Side) -> (u64, f64) {
        let start = Instant::now();
        self.nodes.clear();
        self.nodes.push(Self::node(game, state));
        // The flag is shared (an `Arc`), so the check holds its own handle while the tree grows.
        let stop = self.stop.clone();
        let check = StopCheck::anytime(start, self.limits.time, mover).with_flag(stop.as_deref());
        let unlimited = self.limits.time.is_none() && self.limits.nodes.is_none();
        let playouts = self.playouts.or(if unlimited { Some(DEFAULT_PLAYOUTS) } else { None });
        let (mut path, mut scratch) = (Vec::new(), Vec::new());
        let mut n = 0u64;
        loop {
            // `nodes=N`: N tree nodes, or N iterations where the tree stops growing (its leaves are terminal, or it
            // holds MAX_NODES): an iteration adds at most one node, so N iterations is the most N nodes can take.
            let nodes_done = |m: u64| self.nodes.len() as u64 >= m || n >= m;
            if playouts.is_some_and(|p| n >= p) || self.limits.nodes.is_some_and(nodes_done) {
                break;
            }
            if n.is_multiple_of(8) && n > 0 && check.poll() {
                break;
            }
            self.iterate(game, state, &mut path, &mut scratch);
            n += 1;
        }
        (n, start.elapsed().as_secs_f64())
    }

    /// `player`'s moves at the root of the last search and the strategy it plays them with.
    pub fn root_strategy(&self, player: Side) -> Vec<(G::Move, f64)> {
        let Some(root) = self.nodes.first() else { return Vec::new() };
        let p = player.index();
        root.moves[p].iter().copied().zip(root.bandits[p].final_strategy(self.select)).collect()
    }

    /// `player`'s mean reward at the root of the last search (its estimate of the position, in `[0, 1]`).
    pub(crate) fn root_mean(&self, player: Side) -> f64 {
        let Some(root) = self.nodes.first() else { return 0.5 };
        let b = &root.bandits[player.index()];
        if b.total == 0 { 0.5 } else { b.reward.iter().sum::<f64>() / b.total as f64 }
    }
}

impl<G: FullGame> Searcher<G> for SmMcts<G> {
    fn name(&self) -> String {
        let mut p = Vec::new();
        if let Some(n) = self.playouts {
            p.push(format!("playouts={n}"));
        }
        p.extend(self.limits.spec_params());
        p.push(format!("select={}", self.select.name()));
        if self.select == Select::Duct {
            p.push(format!("c={}", self.c));
        } else {
            p.push(format!("gamma={}", self.gamma));
        }
        if let Some(s) = self.seed {
            p.push(format!("seed={s}"));
        }
        format!("smmcts({})", p.join(","))
    }

    /// The move of the player to move (at a simultaneous node: the first player's half).
    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        let p = match game.turn(state) {
            Turn::Player(p) => p,
            _ => Side::First,
        };
        self.search_as(game, state, p)
    }

    fn search_as(&mut self, game: &G, state: &G::State, player: Side) -> SearchResult<G::Move> {
        if game.is_terminal(state) {
            return SearchResult {
                best_move: None,
                value: 0,
                depth: 0,
                pv: vec![],
                stats: Stats::default(),
                seconds: 0.0,
            };
        }
        let (playouts, seconds) = self.run(game, state, player);
        let strategy = self.root_strategy(player);
        let mut x: f64 = self.rng.random();
        let mut best = strategy.last().map(|&(m, _)| m);
        for &(m, p) in &strategy {
            if x < p {
                best = Some(m);
                break;
            }
            x -= p;
        }
        let value = ((2.0 * self.root_mean(player) - 1.0) * 1000.0).round() as i32;
        SearchResult {
            best_move: best,
            value,
            depth: 1,
            pv: best.into_iter().collect(),
            stats: Stats { nodes: self.nodes.len() as u64, leaves: playouts, ..Stats::default() },
            seconds,
        }
    }

    fn new_game(&mut self) {
        self.nodes.clear();
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = SmallRng::seed_from_u64(crate::game::seed::with_own(self.seed, seed));
    }

    fn set_limits(&mut self, limits: Limits) {
        // `playouts=` stays: with a time control too, whichever runs out first stops the search.
        self.limits = limits;
    }

    fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }
}
