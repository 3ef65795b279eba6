//! One Monte Carlo search tree and its four steps, after Kocsis & Szepesvári (UCT, 2006) and Winands, Björnsson &
//! Saito (MCTS-Solver, 2008):
//!
//! ```text
//! iteration(root):
//!     1. selection      from the root, while the node is expanded and not proven:
//!                         player's node: the child maximising  q + c·sqrt(ln N / n)   (+ RAVE, + progressive bias)
//!                                        (q: the child's mean reward for the mover; an unvisited child first;
//!                                         a proven child is never chosen again: its value is in the bounds)
//!                         chance node:   an outcome drawn by its probability
//!     2. expansion      a leaf that is not terminal: create all its children (moves shuffled, terminal children
//!                       proven at once); go down to one unvisited child
//!     3. simulation     reward := the proven value of the leaf if it has one, else a playout from it: random steps
//!                       to the end (the game's own random move), or K steps then the evaluation squashed to [0, 1]
//!     4. backpropagation every node of the path: n += 1, w += reward; then, bottom-up while they change, the
//!                       bounds [pess, opt] on the exact value (score-bounded MCTS-Solver, Cazenave & Saffidine 2010):
//!                         terminal:      [r, r];  not expanded: [loss, win]
//!                         player's node: the mover's best of the children's pess, the mover's best of their opt
//!                         chance node:   the expectations of the children's pess and opt
//!                       a node is proven when pess = opt (a proven win needs one winning child; a proven draw no
//!                       longer needs every losing sibling proven, only bounded); in selection, a child whose opt
//!                       cannot beat the node's pess (for the mover) is not explored
//! ```
//!
//! Rewards are kept for [`Player::First`] (1 a win, ½ a draw, 0 a loss), so passes, repeated turns and chance nodes
//! need no sign flipping by parity: a node of `Second` reads `1 - w/n`. Results are read with
//! [`Game::outcome_for`].
//!
//! Engineering: the nodes live in one vector sized from a MiB budget (children of a node are contiguous); when it is
//! full the tree stops growing and iterations simulate from the leaves they reach. [`Tree::reroot`] keeps the subtree
//! of the next position between moves.

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use crate::game::{ChanceList, Evaluator, Game, MOVE_KEYS, MoveList, Outcome, Player, Turn};

use super::params::Params;

/// No node (the root's parent).
pub const NONE: u32 = u32::MAX;

/// Who acts at a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    Mover(Player),
    Chance,
}

/// One node of the tree: the position reached by `mv` from its parent.
#[derive(Clone, Debug)]
pub struct Node<M> {
    /// The move (or chance outcome) from the parent; `None` at the root.
    pub mv: Option<M>,
    pub parent: u32,
    pub first_child: u32,
    pub n_children: u16,
    pub expanded: bool,
    /// The game is over here (its reward is `prior`).
    pub terminal: bool,
    pub actor: Actor,
    /// Probability of this outcome when the parent is a chance node (1 otherwise).
    pub prob: f32,
    /// The evaluation of the position, squashed, for `First` (progressive bias; ½ without it).
    pub prior: f32,
    pub visits: u32,
    /// Sum of the rewards for `First`.
    pub reward: f64,
    /// All-moves-as-first statistics of `mv` (RAVE): visits and sum of rewards for `First`.
    pub amaf_visits: u32,
    pub amaf_reward: f64,
    /// Bounds on the value for `First` (score-bounded MCTS-Solver): what `First` is sure of, what it may hope for.
    pub pess: f32,
    pub opt: f32,
    /// The exact value for `First` once proven (`pess == opt`), and the plies to the end of the proof.
    pub proven: Option<f32>,
    pub proof_plies: u16,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, parent: u32, actor: Actor, prob: f32) -> Self {
        Node {
            mv,
            parent,
            first_child: NONE,
            n_children: 0,
            expanded: false,
            terminal: false,
            actor,
            prob,
            prior: 0.5,
            visits: 0,
            reward: 0.0,
            amaf_visits: 0,
            amaf_reward: 0.0,
            pess: 0.0,
            opt: 1.0,
            proven: None,
            proof_plies: 0,
        }
    }

    fn set_exact(&mut self, v: f32) {
        (self.pess, self.opt, self.proven) = (v, v, Some(v));
    }

    /// The children's index range.
    pub fn children(&self) -> std::ops::Range<usize> {
        if self.n_children == 0 {
            0..0
        } else {
            self.first_child as usize..self.first_child as usize + self.n_children as usize
        }
    }

    /// Mean reward for `First` (½ before any visit), or the proven value.
    pub fn mean(&self) -> f64 {
        match self.proven {
            Some(v) => v as f64,
            None if self.visits == 0 => 0.5,
            None => self.reward / self.visits as f64,
        }
    }
}

/// A reward for `First` seen by `p`.
#[inline]
pub fn for_player(first_reward: f64, p: Player) -> f64 {
    if p == Player::First { first_reward } else { 1.0 - first_reward }
}

/// A finished game's reward for `First`: 1 a win, ½ a draw, 0 a loss (a numeric result by its sign).
pub fn reward_of<G: Game>(game: &G, state: &G::State) -> Option<f64> {
    Some(match game.outcome_for(state, Player::First)? {
        Outcome::Win => 1.0,
        Outcome::Loss => 0.0,
        Outcome::Draw => 0.5,
        Outcome::Value(v) => 0.5 + 0.5 * v.signum() as f64,
    })
}

/// An evaluation (side to move's view) squashed to a winning chance for `First`.
pub fn squash<G: Game>(game: &G, state: &G::State, eval: &G::Eval, scale: f64) -> f64 {
    let v = eval.evaluate(game, state) as f64;
    let p = 1.0 / (1.0 + (-v / scale).exp());
    for_player(p, game.side_to_move(state))
}

fn actor_of<G: Game>(game: &G, state: &G::State) -> Actor {
    if G::KIND.chance && game.turn(state) == Turn::Chance {
        Actor::Chance
    } else {
        Actor::Mover(game.side_to_move(state))
    }
}

/// Counters of one search.
#[derive(Default, Clone, Copy, Debug)]
pub struct Counts {
    pub playouts: u64,
    pub created: u64,
    pub max_depth: u32,
}

/// The tree, its node budget and the scratch space of an iteration (allocated once).
pub struct Tree<G: Game> {
    pub nodes: Vec<Node<G::Move>>,
    capacity: usize,
    path: Vec<u32>,
    /// Moves played after each point of the iteration, by player and move key (RAVE).
    amaf: Vec<bool>,
    played: Vec<(Option<Player>, usize)>,
    pub counts: Counts,
}

impl<G: Game> Tree<G> {
    /// A tree with room for `capacity` nodes (at least one move list).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(crate::game::MAX_MOVES + 1);
        Tree {
            nodes: Vec::new(),
            capacity,
            path: Vec::with_capacity(256),
            amaf: Vec::new(),
            played: Vec::new(),
            counts: Counts::default(),
        }
    }

    /// Start from `state` with an empty tree.
    pub fn clear(&mut self, game: &G, state: &G::State) {
        self.nodes.clear();
        self.nodes.push(Node::new(None, NONE, actor_of(game, state), 1.0));
        if let Some(r) = reward_of(game, state) {
            self.nodes[0].set_exact(r as f32);
        }
    }

    /// The node budget is used up: no more expansion.
    pub fn full(&self) -> bool {
        self.nodes.len() + crate::game::MAX_MOVES > self.capacity
    }

    /// One iteration from the root `state`: the four steps. Returns the depth of the leaf reached.
    pub fn iterate<R: Rng + ?Sized>(&mut self, game: &G, state: &G::State, p: &Params, eval: &G::Eval, rng: &mut R) {
        // 1. Selection.
        let mut s = *state;
        let mut n = 0u32;
        self.path.clear();
        self.path.push(0);
        self.played.clear();
        loop {
            let node = &self.nodes[n as usize];
            if node.proven.is_some() || node.terminal || (node.expanded && node.n_children == 0) {
                break;
            }
            if !node.expanded {
                // 2. Expansion (unless the budget is spent or the depth limit reached).
                if self.full() || self.path.len() > p.max_depth as usize {
                    break;
                }
                self.expand(game, n, &s, p, eval, rng);
                if self.nodes[n as usize].n_children == 0 {
                    break;
                }
            }
            n = self.select(n, p, rng);
            let node = &self.nodes[n as usize];
            let mv = node.mv.expect("a child has a move");
            if p.rave > 0.0 {
                let pl = match self.nodes[node.parent as usize].actor {
                    Actor::Mover(pl) => Some(pl),
                    Actor::Chance => None,
                };
                self.played.push((pl, game.move_key(mv)));
            }
            game.play(&mut s, mv);
            self.path.push(n);
            if self.nodes[n as usize].visits == 0 {
                break;
            }
        }
        let depth = self.path.len() as u32 - 1;
        self.counts.max_depth = self.counts.max_depth.max(depth);
        // 3. Simulation.
        let leaf = &self.nodes[n as usize];
        let reward = match leaf.proven {
            Some(v) => v as f64,
            None if leaf.terminal => leaf.prior as f64,
            None if leaf.expanded && leaf.n_children == 0 => {
                // A player without a move in a position that is not over loses (as in `random_playout_for`).
                for_player(0.0, game.side_to_move(&s))
            }
            None => {
                self.counts.playouts += 1;
                self.simulate(game, &s, p, eval, rng)
            }
        };
        // 4. Backpropagation.
        for &i in &self.path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.reward += reward;
        }
        if p.rave > 0.0 {
            self.update_amaf(game, reward);
        }
        if p.solver {
            // Bounds change from the deepest expanded node up, as long as they change.
            let len = self.path.len();
            for k in (0..len).rev() {
                if !self.update_bounds(self.path[k]) && k + 2 < len {
                    break;
                }
            }
        }
    }

    /// Step 2: create every child of `n` (in random order, so that "the first unvisited" is a random one).
    fn expand<R: Rng + ?Sized>(&mut self, game: &G, n: u32, s: &G::State, p: &Params, eval: &G::Eval, rng: &mut R) {
        let actor = self.nodes[n as usize].actor;
        let first = self.nodes.len() as u32;
        if actor == Actor::Chance {
            let mut outcomes = ChanceList::new();
            game.chance_outcomes(s, &mut outcomes);
            for &(m, prob) in &outcomes {
                self.push_child(game, n, s, m, prob as f32, p, eval);
            }
        } else {
            let mut moves = MoveList::new();
            game.generate_moves(s, &mut moves);
            moves.shuffle(rng);
            for &m in &moves {
                self.push_child(game, n, s, m, 1.0, p, eval);
            }
        }
        let count = self.nodes.len() as u32 - first;
        self.counts.created += count as u64;
        let node = &mut self.nodes[n as usize];
        node.expanded = true;
        node.first_child = first;
        node.n_children = count as u16;
        if count == 0 && p.solver {
            // No move in a position that is not over: the mover loses.
            if let Actor::Mover(pl) = actor {
                node.set_exact(for_player(0.0, pl) as f32);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn push_child(&mut self, game: &G, n: u32, s: &G::State, m: G::Move, prob: f32, p: &Params, eval: &G::Eval) {
        let mut c = *s;
        game.play(&mut c, m);
        let mut child = Node::new(Some(m), n, actor_of(game, &c), prob);
        if let Some(r) = reward_of(game, &c) {
            child.expanded = true;
            child.terminal = true;
            if p.solver {
                child.set_exact(r as f32);
            }
            child.prior = r as f32;
        } else if p.bias > 0.0 {
            child.prior = squash(game, &c, eval, p.scale) as f32;
        }
        self.nodes.push(child);
    }

    /// Step 1 at one node: the child to go down to.
    fn select<R: Rng + ?Sized>(&self, n: u32, p: &Params, rng: &mut R) -> u32 {
        let node = &self.nodes[n as usize];
        let range = node.children();
        let Actor::Mover(mover) = node.actor else {
            // A chance node: an outcome by its probability.
            let mut x: f32 = rng.random();
            for i in range.clone() {
                x -= self.nodes[i].prob;
                if x < 0.0 {
                    return i as u32;
                }
            }
            return range.end as u32 - 1;
        };
        let log_n = (node.visits.max(1) as f64).ln();
        // What the mover is already sure of: children that cannot do better are not explored.
        let sure = for_player(if mover == Player::First { node.pess } else { node.opt } as f64, mover);
        let (mut best, mut best_score) = (range.start as u32, f64::NEG_INFINITY);
        for i in range {
            let c = &self.nodes[i];
            if c.proven.is_some() {
                // Its exact value is already in the node's bounds: sampling it again would teach nothing.
                continue;
            }
            if p.solver {
                let hope = for_player(if mover == Player::First { c.opt } else { c.pess } as f64, mover);
                if hope <= sure {
                    continue;
                }
            }
            if c.visits == 0 {
                return i as u32;
            }
            let q = for_player(c.mean(), mover);
            let visits = c.visits.max(1) as f64;
            let mut value = q;
            if p.rave > 0.0 && c.amaf_visits > 0 && c.proven.is_none() {
                let beta = (p.rave / (3.0 * visits + p.rave)).sqrt();
                let amaf = for_player(c.amaf_reward / c.amaf_visits as f64, mover);
                value = (1.0 - beta) * q + beta * amaf;
            }
            let mut score = value + p.c * (log_n / visits).sqrt();
            if p.bias > 0.0 {
                score += p.bias * for_player(c.prior as f64, mover) / (visits + 1.0);
            }
            if score > best_score {
                best_score = score;
                best = i as u32;
            }
        }
        best
    }

    /// Step 3: a playout from `s`; the reward for `First`.
    fn simulate<R: Rng + ?Sized>(&mut self, game: &G, s: &G::State, p: &Params, eval: &G::Eval, rng: &mut R) -> f64 {
        if p.cut == 0 && p.rave == 0.0 {
            let (o, _) = game.random_playout(s, rng);
            let mover = game.side_to_move(s);
            let r = match o {
                Outcome::Win => 1.0,
                Outcome::Loss => 0.0,
                Outcome::Draw => 0.5,
                Outcome::Value(v) => 0.5 + 0.5 * v.signum() as f64,
            };
            return for_player(r, mover);
        }
        let mut s = *s;
        let mut steps = 0u32;
        loop {
            if let Some(r) = reward_of(game, &s) {
                return r;
            }
            if p.cut > 0 && steps >= p.cut {
                return squash(game, &s, eval, p.scale);
            }
            let mover = game.side_to_move(&s);
            let chance = G::KIND.chance && game.turn(&s) == Turn::Chance;
            let Some(m) = game.random_move(&s, rng) else { return for_player(0.0, mover) };
            if p.rave > 0.0 && !chance {
                self.played.push((Some(mover), game.move_key(m)));
            }
            game.play(&mut s, m);
            steps += 1;
        }
    }

    /// RAVE: at every player's node of the path, the children whose move that player played later in the iteration
    /// (`played[e - 1]` is the move of path edge `e`, then come the playout's moves).
    fn update_amaf(&mut self, game: &G, reward: f64) {
        self.amaf.clear();
        self.amaf.resize(2 * MOVE_KEYS, false);
        let mut k = self.played.len();
        for edge in (1..self.path.len()).rev() {
            while k > edge - 1 {
                k -= 1;
                if let (Some(pl), key) = self.played[k] {
                    self.amaf[pl.index() * MOVE_KEYS + key] = true;
                }
            }
            let parent = self.path[edge - 1] as usize;
            if let Actor::Mover(pl) = self.nodes[parent].actor {
                for i in self.nodes[parent].children() {
                    let Some(m) = self.nodes[i].mv else { continue };
                    if self.amaf[pl.index() * MOVE_KEYS + game.move_key(m)] {
                        self.nodes[i].amaf_visits += 1;
                        self.nodes[i].amaf_reward += reward;
                    }
                }
            }
        }
    }

    /// MCTS-Solver with score bounds at node `i`: its bounds from its children's; true when they changed. The node
    /// is proven when they meet.
    fn update_bounds(&mut self, i: u32) -> bool {
        let node = &self.nodes[i as usize];
        if !node.expanded || node.n_children == 0 || node.proven.is_some() {
            return false;
        }
        let children = &self.nodes[node.children()];
        let (pess, opt) = match node.actor {
            Actor::Chance => {
                children.iter().fold((0.0f32, 0.0f32), |(a, b), c| (a + c.prob * c.pess, b + c.prob * c.opt))
            }
            Actor::Mover(Player::First) => {
                children.iter().fold((0.0f32, 0.0f32), |(a, b), c| (a.max(c.pess), b.max(c.opt)))
            }
            Actor::Mover(Player::Second) => {
                children.iter().fold((1.0f32, 1.0f32), |(a, b), c| (a.min(c.pess), b.min(c.opt)))
            }
        };
        if pess == node.pess && opt == node.opt {
            return false;
        }
        let proven = pess >= opt - 1e-6;
        let plies = if !proven {
            0
        } else {
            // A win: the shortest proven win among the children; otherwise the longest proven line.
            let wins = children.iter().filter(|c| c.proven == Some(pess)).map(|c| c.proof_plies);
            let decisive = matches!(node.actor, Actor::Mover(pl) if for_player(pess as f64, pl) >= 1.0);
            if decisive {
                wins.min().unwrap_or(0)
            } else {
                children.iter().filter(|c| c.proven.is_some()).map(|c| c.proof_plies).max().unwrap_or(0)
            }
        };
        let node = &mut self.nodes[i as usize];
        (node.pess, node.opt) = (pess, opt);
        if proven {
            node.proven = Some(pess);
            node.proof_plies = plies.saturating_add(1);
        }
        true
    }

    /// Keep only the subtree of node `new_root` (which becomes node 0), children still contiguous.
    pub fn reroot(&mut self, new_root: u32) {
        let mut out: Vec<Node<G::Move>> = Vec::with_capacity(self.nodes.len());
        let mut root = self.nodes[new_root as usize].clone();
        root.parent = NONE;
        root.mv = None;
        out.push(root);
        let mut next = 0usize;
        while next < out.len() {
            let range = out[next].children();
            if !range.is_empty() {
                let first = out.len() as u32;
                for i in range {
                    let mut c = self.nodes[i].clone();
                    c.parent = next as u32;
                    out.push(c);
                }
                out[next].first_child = first;
            }
            next += 1;
        }
        self.nodes = out;
    }

    /// The node reached from the root by the positions seen within `max_plies`, whose state is `target`.
    pub fn find(&self, game: &G, root: &G::State, target: &G::State, max_plies: u32) -> Option<u32> {
        let mut stack = vec![(0u32, *root, 0u32)];
        while let Some((n, s, d)) = stack.pop() {
            if s == *target {
                return Some(n);
            }
            if d >= max_plies {
                continue;
            }
            for i in self.nodes[n as usize].children() {
                let mut c = s;
                game.play(&mut c, self.nodes[i].mv.expect("a child has a move"));
                stack.push((i as u32, c, d + 1));
            }
        }
        None
    }
}
