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
//!                       to the end (the game's own random move, or with `decisive` a move that wins or stops a win
//!                       at once when there is one), or K steps then the evaluation squashed to [0, 1]
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
//! Rewards are kept for [`Side::First`] (1 a win, ½ a draw, 0 a loss), so passes, repeated turns and chance nodes
//! need no sign flipping by parity: a node of `Second` reads `1 - w/n`. Results are read with
//! [`Capabilities::outcome_for`].
//!
//! Engineering: the nodes live in one vector sized from a MiB budget (children of a node are contiguous, a parent
//! before its children); when it is full, the children of the least visited nodes are freed ([`super::recycle`]), or
//! with `recycle=false` the tree stops growing. [`Tree::reroot`] keeps the subtree of the next position between moves.
//! An iteration is [`Tree::descend`] (selection, expansion), [`simulate`] (which needs no tree, so threads sharing a
//! tree run it outside the lock) and [`Tree::backup`]; with tree parallelism, a descent adds a virtual loss to its path
//! that its backup replaces by the playout's reward ([`super::parallel`]). Selection is in [`super::select`], RAVE and
//! GRAVE in [`super::amaf`], the statistics by position (`tt=true`) in [`super::transpose`].

use rand::Rng;
use rand::seq::SliceRandom;

use crate::game::{ChanceList, Evaluator, FullGame, MoveList, Outcome, SearchEval, Side, Turn};

use super::params::Params;
use super::transpose::Table;

/// No node (the root's parent).
pub(crate) const NONE: u32 = u32::MAX;

/// Who acts at a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    Mover(Side),
    Chance,
}

/// One node of the tree: the position reached by `mv` from its parent.
#[derive(Clone, Debug)]
pub struct Node<M> {
    /// The move (or chance outcome) from the parent; `None` at the root.
    pub mv: Option<M>,
    pub parent: u32,
    pub(crate) first_child: u32,
    pub n_children: u16,
    pub expanded: bool,
    /// The game is over here (its reward is `prior`).
    pub terminal: bool,
    pub actor: Actor,
    /// Probability of this outcome when the parent is a chance node (1 otherwise).
    pub prob: f32,
    /// The evaluation of the position, squashed, for `First` (progressive bias; ½ without it).
    pub(crate) prior: f32,
    pub visits: u32,
    /// Sum of the rewards for `First`.
    pub reward: f64,
    /// All-moves-as-first statistics of `mv` (RAVE): visits and sum of rewards for `First`.
    pub(crate) amaf_visits: u32,
    pub(crate) amaf_reward: f64,
    /// Bounds on the value for `First` (score-bounded MCTS-Solver): what `First` is sure of, what it may hope for.
    pub pess: f32,
    pub opt: f32,
    /// The exact value for `First` once proven (`pess == opt`), and the plies to the end of the proof.
    pub proven: Option<f32>,
    pub(crate) proof_plies: u16,
    /// The position's key (`Game::key`), for the statistics by position (`tt=true`; 0 otherwise).
    pub key: u64,
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
            key: 0,
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
pub fn for_player(first_reward: f64, p: Side) -> f64 {
    if p == Side::First { first_reward } else { 1.0 - first_reward }
}

/// A result's reward for its player: 1 a win, ½ a draw, 0 a loss (a numeric result by its sign).
fn reward_of_outcome(o: Outcome) -> f64 {
    match o {
        Outcome::Win => 1.0,
        Outcome::Loss => 0.0,
        Outcome::Draw => 0.5,
        Outcome::Value(v) => 0.5 + 0.5 * v.signum() as f64,
    }
}

/// A finished game's reward for `First`: 1 a win, ½ a draw, 0 a loss (a numeric result by its sign).
pub(crate) fn reward_of<G: FullGame>(game: &G, state: &G::State) -> Option<f64> {
    Some(reward_of_outcome(game.outcome_for(state, Side::First)?))
}

/// An evaluation (side to move's view) squashed to a winning chance for `First`.
pub(crate) fn squash<G: FullGame>(game: &G, state: &G::State, eval: &SearchEval<G>, scale: f64) -> f64 {
    let v = eval.evaluate(game, state) as f64;
    let p = 1.0 / (1.0 + (-v / scale).exp());
    for_player(p, game.side_to_move(state))
}

pub(super) fn actor_of<G: FullGame>(game: &G, state: &G::State) -> Actor {
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
    pub(crate) max_depth: u32,
    /// Times the full pool was recycled.
    pub recycled: u64,
}

/// The scratch space of one thread's iterations (allocated once).
#[derive(Default)]
pub(crate) struct Scratch {
    /// Moves played after each point of the iteration, by player and move key (RAVE).
    pub(super) played: Vec<(Option<Side>, usize)>,
    pub(super) amaf: Vec<bool>,
    /// GRAVE: the reference node's child by move key.
    pub(super) by_key: Vec<u32>,
    /// GRAVE: the reference node of each player on the current path.
    pub(super) refs: [u32; 2],
}

/// Where a descent stopped.
pub(crate) enum Leaf<S> {
    /// The reward is known (a proven or finished position).
    Known(f64),
    /// A playout from this position gives the reward.
    Playout(S),
}

/// The tree, its node budget and the scratch space of an iteration (allocated once).
pub struct Tree<G: FullGame> {
    pub nodes: Vec<Node<G::Move>>,
    pub(super) capacity: usize,
    /// The path of each thread's iteration in flight (thread 0's is the one-thread iteration's); recycling keeps and
    /// renumbers them.
    pub(super) paths: Vec<Vec<u32>>,
    scratch: Scratch,
    /// Statistics by position (`tt=true`).
    pub(super) table: Table,
    /// Recycling's scratch: old index to new.
    pub(super) remap: Vec<u32>,
    pub counts: Counts,
}

impl<G: FullGame> Tree<G> {
    /// A tree with room for `capacity` nodes (at least one move list).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(crate::game::MAX_MOVES + 1);
        Tree {
            nodes: Vec::new(),
            capacity,
            paths: vec![Vec::with_capacity(256)],
            scratch: Scratch::default(),
            table: Table::new(0),
            remap: Vec::new(),
            counts: Counts::default(),
        }
    }

    /// A tree within `bytes`: the nodes and recycling's index (a quarter for the table of positions with `tt`).
    pub(crate) fn with_budget(bytes: usize, tt: bool) -> Self {
        let table = Table::new(if tt { bytes / 4 } else { 0 });
        let per_node = std::mem::size_of::<Node<G::Move>>() + std::mem::size_of::<u32>();
        let mut tree = Tree::new(bytes.saturating_sub(table.bytes()) / per_node);
        tree.table = table;
        tree
    }

    /// Room for `threads` iterations in flight.
    pub(crate) fn set_threads(&mut self, threads: usize) {
        self.paths.resize_with(threads.max(1), || Vec::with_capacity(256));
    }

    /// The statistics by position of `key` (`tt=true`): visits and sum of rewards for `First`.
    pub fn position_stats(&self, key: u64) -> Option<(u32, f64)> {
        self.table.get(key)
    }

    /// The most nodes the tree holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Start from `state` with an empty tree (the statistics by position stay: they are the positions').
    pub fn clear(&mut self, game: &G, state: &G::State) {
        self.nodes.clear();
        if self.nodes.capacity() < self.capacity {
            // The whole pool at once: it never reallocates (pages are touched only when used).
            self.nodes.reserve_exact(self.capacity);
        }
        let mut root = Node::new(None, NONE, actor_of(game, state), 1.0);
        root.key = game.key(state);
        self.nodes.push(root);
        if let Some(r) = reward_of(game, state) {
            self.nodes[0].set_exact(r as f32);
        }
    }

    /// The node budget is used up: no more expansion.
    pub fn full(&self) -> bool {
        self.nodes.len() + crate::game::MAX_MOVES > self.capacity
    }

    /// One iteration from the root `state`: the four steps.
    pub(crate) fn iterate<R: Rng + ?Sized>(
        &mut self,
        game: &G,
        state: &G::State,
        p: &Params,
        eval: &SearchEval<G>,
        rng: &mut R,
    ) {
        let mut sc = std::mem::take(&mut self.scratch);
        let reward = match self.descend(0, game, state, p, eval, rng, &mut sc, false) {
            Leaf::Known(r) => r,
            Leaf::Playout(s) => simulate(game, &s, p, eval, rng, &mut sc.played),
        };
        self.backup(0, game, reward, p, &mut sc, false);
        self.scratch = sc;
    }

    /// Steps 1 and 2 for thread `t`: from the root down to a leaf (expanded on the way), the path in `paths[t]`.
    /// With `virtual_loss`, every node of the path counts the visit now with a loss for the player choosing it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn descend<R: Rng + ?Sized>(
        &mut self,
        t: usize,
        game: &G,
        state: &G::State,
        p: &Params,
        eval: &SearchEval<G>,
        rng: &mut R,
        sc: &mut Scratch,
        virtual_loss: bool,
    ) -> Leaf<G::State> {
        let mut s = *state;
        let mut path = std::mem::take(&mut self.paths[t]);
        path.clear();
        path.push(0);
        sc.played.clear();
        sc.refs = [NONE; 2];
        if virtual_loss {
            self.add_virtual(&path, 0);
        }
        loop {
            let mut n = *path.last().expect("the root");
            let node = &self.nodes[n as usize];
            if node.proven.is_some() || node.terminal || (node.expanded && node.n_children == 0) {
                break;
            }
            if !node.expanded {
                // 2. Expansion (unless the depth limit is reached or the pool is full and not recycled).
                if path.len() > p.max_depth as usize {
                    break;
                }
                if self.full() {
                    if !p.recycle {
                        break;
                    }
                    self.paths[t] = path;
                    self.recycle();
                    path = std::mem::take(&mut self.paths[t]);
                    n = *path.last().expect("the root");
                    if self.full() {
                        break;
                    }
                }
                self.expand(game, n, &s, p, eval, rng);
                if self.nodes[n as usize].n_children == 0 {
                    break;
                }
            }
            if p.grave > 0
                && let Actor::Mover(pl) = self.nodes[n as usize].actor
                && self.nodes[n as usize].visits as u64 >= p.grave
            {
                sc.refs[pl.index()] = n;
            }
            // 1. Selection.
            let c = self.select(game, n, p, rng, sc);
            let node = &self.nodes[c as usize];
            let mv = node.mv.expect("a child has a move");
            if p.rave > 0.0 {
                let pl = match self.nodes[node.parent as usize].actor {
                    Actor::Mover(pl) => Some(pl),
                    Actor::Chance => None,
                };
                sc.played.push((pl, game.move_key(mv)));
            }
            let first = node.visits == 0;
            game.play(&mut s, mv);
            path.push(c);
            if virtual_loss {
                self.add_virtual(&path, path.len() - 1);
            }
            if first {
                break;
            }
        }
        let n = *path.last().expect("the root");
        let depth = path.len() as u32 - 1;
        self.paths[t] = path;
        self.counts.max_depth = self.counts.max_depth.max(depth);
        let leaf = &self.nodes[n as usize];
        match leaf.proven {
            Some(v) => Leaf::Known(v as f64),
            None if leaf.terminal => Leaf::Known(leaf.prior as f64),
            // A player without a move in a position that is not over loses (as in `random_playout_for`).
            None if leaf.expanded && leaf.n_children == 0 => Leaf::Known(for_player(0.0, game.side_to_move(&s))),
            None => {
                self.counts.playouts += 1;
                Leaf::Playout(s)
            }
        }
    }

    /// The virtual loss of the `k`-th node of `path`: a loss for the player choosing it (½ below chance and at the
    /// root, which nobody chooses).
    fn virtual_reward(&self, path: &[u32], k: usize) -> f64 {
        if k == 0 {
            return 0.5;
        }
        match self.nodes[path[k - 1] as usize].actor {
            Actor::Mover(pl) => for_player(0.0, pl),
            Actor::Chance => 0.5,
        }
    }

    fn add_virtual(&mut self, path: &[u32], k: usize) {
        let r = self.virtual_reward(path, k);
        let node = &mut self.nodes[path[k] as usize];
        node.visits += 1;
        node.reward += r;
    }

    /// Step 4 for thread `t`: the reward for `First` along `paths[t]` (replacing the virtual loss if one was added),
    /// then the AMAF statistics, the statistics by position and the solver's bounds.
    pub(crate) fn backup(&mut self, t: usize, game: &G, reward: f64, p: &Params, sc: &mut Scratch, virtual_loss: bool) {
        let mut path = std::mem::take(&mut self.paths[t]);
        for k in 0..path.len() {
            let r = if virtual_loss { reward - self.virtual_reward(&path, k) } else { reward };
            let node = &mut self.nodes[path[k] as usize];
            if !virtual_loss {
                node.visits += 1;
            }
            node.reward += r;
            if p.tt {
                self.table.add(node.key, reward);
            }
        }
        if p.rave > 0.0 {
            self.update_amaf(game, reward, &path, sc);
        }
        if p.solver {
            // Bounds change from the deepest expanded node up, as long as they change.
            let len = path.len();
            for k in (0..len).rev() {
                if !self.update_bounds(path[k]) && k + 2 < len {
                    break;
                }
            }
        }
        path.clear();
        self.paths[t] = path;
    }

    /// Step 2: create every child of `n` (in random order, so that "the first unvisited" is a random one).
    fn expand<R: Rng + ?Sized>(
        &mut self,
        game: &G,
        n: u32,
        s: &G::State,
        p: &Params,
        eval: &SearchEval<G>,
        rng: &mut R,
    ) {
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
    fn push_child(&mut self, game: &G, n: u32, s: &G::State, m: G::Move, prob: f32, p: &Params, eval: &SearchEval<G>) {
        let mut c = *s;
        game.play(&mut c, m);
        let mut child = Node::new(Some(m), n, actor_of(game, &c), prob);
        if p.tt {
            child.key = game.key(&c);
        }
        let known = || game.endgame(&c).map(|(o, _)| for_player(reward_of_outcome(o), game.side_to_move(&c)));
        if let Some(r) = reward_of(game, &c).or_else(|| if p.probe { known() } else { None }) {
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
            Actor::Mover(Side::First) => {
                children.iter().fold((0.0f32, 0.0f32), |(a, b), c| (a.max(c.pess), b.max(c.opt)))
            }
            Actor::Mover(Side::Second) => {
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
}

/// Step 3: a playout from `s`; the reward for `First`. With RAVE, the moves played are added to `played`.
pub(crate) fn simulate<G: FullGame, R: Rng + ?Sized>(
    game: &G,
    s: &G::State,
    p: &Params,
    eval: &SearchEval<G>,
    rng: &mut R,
    played: &mut Vec<(Option<Side>, usize)>,
) -> f64 {
    if p.cut == 0 && p.rave == 0.0 && !p.decisive {
        let (o, _) = game.random_playout(s, rng);
        return for_player(reward_of_outcome(o), game.side_to_move(s));
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
        let m = if p.decisive { game.decisive_random_move(&s, rng) } else { game.random_move(&s, rng) };
        let Some(m) = m else { return for_player(0.0, mover) };
        if p.rave > 0.0 && !chance {
            played.push((Some(mover), game.move_key(m)));
        }
        game.play(&mut s, m);
        steps += 1;
    }
}
