//! The tracing hook: how an algorithm reports the tree it explores, at zero cost when nobody listens.
//!
//! Every algorithm of the catalogue is generic over a [`Tracer`]. The searches used for play and for `compare` run
//! with [`NoTrace`], whose methods are empty and whose `ENABLED` constant is `false`: the calls are inlined away and
//! the `if T::ENABLED` blocks in [`Ctx`](super::ctx::Ctx) vanish at compile time. `plateau tree` runs the same code with
//! a [`Recorder`], which keeps every node (position, window, value, leaf or not, cut-off, re-search) for drawing.
//!
//! The interface is by node id so that non-recursive algorithms (SSS* and its OPEN list) can report too; the
//! recursive ones go through `Ctx::enter` / `Ctx::leaf` / `Ctx::exit`, which keep the stack of ids.
//!
//! Values and windows are given from the point of view of the side to move at the node (negamax view).

use crate::game::FullGame;

/// Receives the explored tree. Every method has an empty default.
pub trait Tracer<G: FullGame> {
    /// `false` for the no-op tracer: lets the search skip the bookkeeping entirely.
    const ENABLED: bool = true;
    /// A node was entered (searched with window `(alpha, beta)`, node view). `parent` is `None` for a root; a driver
    /// that searches the root several times (MTD(f), NegaC*) reports one root per pass. Returns the node's id.
    fn node(
        &mut self,
        _parent: Option<u32>,
        _state: &G::State,
        _ply: u32,
        _alpha: i32,
        _beta: i32,
        _research: bool,
    ) -> u32 {
        0
    }
    /// The node's returned value (node view); `leaf` when it was scored without expansion.
    fn result(&mut self, _id: u32, _value: i32, _leaf: bool) {}
    /// The node stopped looking at its moves because a bound was reached.
    fn cutoff(&mut self, _id: u32) {}
    /// True when the tracer wants the search to stop (too many nodes to draw).
    fn full(&self) -> bool {
        false
    }
    /// SSS*'s OPEN list before each step, in order: `(node, live, h)`, `h` from MAX's view.
    fn open_list(&mut self, _list: &[(G::State, bool, i32)]) {}
}

/// The tracer that does nothing: the default for every search.
#[derive(Default, Clone, Copy, Debug)]
pub struct NoTrace;

impl<G: FullGame> Tracer<G> for NoTrace {
    const ENABLED: bool = false;
}

/// One recorded node.
#[derive(Clone, Debug)]
pub(crate) struct TraceNode<S> {
    pub parent: Option<u32>,
    pub state: S,
    pub ply: u32,
    pub alpha: i32,
    pub beta: i32,
    /// Whether this visit is a re-search of a move already searched with another window.
    pub(crate) research: bool,
    /// Value returned (node view); `None` if the search stopped before the node returned.
    pub value: Option<i32>,
    pub leaf: bool,
    pub cutoff: bool,
    pub children: Vec<u32>,
}

/// Knuth-Moore node type of a visit, read from its window and its result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum NodeType {
    /// Type 1, PV node: the value fell inside the window (exact).
    Pv,
    /// Type 2, CUT node: the value reached beta (a lower bound; remaining moves pruned).
    Cut,
    /// Type 3, ALL node: the value stayed at or below alpha (an upper bound; every move searched).
    All,
}

impl<S> TraceNode<S> {
    /// The Knuth-Moore type of this visit, or `None` if it did not return.
    pub(crate) fn node_type(&self) -> Option<NodeType> {
        let v = self.value?;
        Some(if v >= self.beta {
            NodeType::Cut
        } else if v <= self.alpha {
            NodeType::All
        } else {
            NodeType::Pv
        })
    }
}

/// A tracer that records every node, up to a limit.
#[derive(Clone, Debug)]
pub(crate) struct Recorder<G: FullGame> {
    pub nodes: Vec<TraceNode<G::State>>,
    /// The ids of the roots, in order (one per pass or iteration).
    pub(crate) roots: Vec<u32>,
    pub limit: usize,
    /// Set when the limit was exceeded.
    pub(crate) overflow: bool,
    /// SSS*'s OPEN list at each step (`(node, live, h)`), when the search is SSS*.
    pub open_lists: Vec<Vec<(G::State, bool, i32)>>,
}

impl<G: FullGame> Recorder<G> {
    pub fn new(limit: usize) -> Self {
        Recorder { nodes: Vec::new(), roots: Vec::new(), limit, overflow: false, open_lists: Vec::new() }
    }
}

impl<G: FullGame> Tracer<G> for Recorder<G> {
    fn node(&mut self, parent: Option<u32>, state: &G::State, ply: u32, alpha: i32, beta: i32, research: bool) -> u32 {
        if self.nodes.len() >= self.limit {
            self.overflow = true;
            return u32::MAX;
        }
        if parent == Some(u32::MAX) {
            return u32::MAX;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(TraceNode {
            parent,
            state: *state,
            ply,
            alpha,
            beta,
            research,
            value: None,
            leaf: false,
            cutoff: false,
            children: Vec::new(),
        });
        match parent {
            Some(p) => self.nodes[p as usize].children.push(id),
            None => self.roots.push(id),
        }
        id
    }
    fn result(&mut self, id: u32, value: i32, leaf: bool) {
        if let Some(n) = self.nodes.get_mut(id as usize) {
            n.value = Some(value);
            n.leaf = leaf;
        }
    }
    fn cutoff(&mut self, id: u32) {
        if let Some(n) = self.nodes.get_mut(id as usize) {
            n.cutoff = true;
        }
    }
    fn full(&self) -> bool {
        self.overflow
    }
    fn open_list(&mut self, list: &[(G::State, bool, i32)]) {
        if self.open_lists.len() < self.limit {
            self.open_lists.push(list.to_vec());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::RandomTree;
    use crate::search::catalogue::{self, Traced};
    use crate::spec::Spec;

    fn tree() -> RandomTree {
        RandomTree::from_spec(&Spec::parse("random_tree(width=3,depth=3,seed=2)").unwrap()).unwrap()
    }

    #[test]
    fn node_types_come_from_window_and_value() {
        let n = |value, alpha, beta| TraceNode {
            parent: None,
            state: (),
            ply: 0,
            alpha,
            beta,
            research: false,
            value,
            leaf: false,
            cutoff: false,
            children: Vec::new(),
        };
        assert_eq!(n(Some(5), 0, 10).node_type(), Some(NodeType::Pv));
        assert_eq!(n(Some(10), 0, 10).node_type(), Some(NodeType::Cut));
        assert_eq!(n(Some(0), 0, 10).node_type(), Some(NodeType::All));
        assert_eq!(n(None, 0, 10).node_type(), None);
    }

    #[test]
    fn the_recorder_sees_every_visit_and_stops_at_its_limit() {
        let g = tree();
        let s = g.start();
        for algo in ["alphabeta(depth=3)", "negascout(depth=3)", "sss(depth=3)", "mtdf(depth=3)"] {
            let spec = Spec::parse(algo).unwrap();
            let mut rec = Recorder::new(10_000);
            let (_, r) = catalogue::build(&spec, Traced { game: &g, state: &s, tracer: &mut rec }).unwrap().unwrap();
            assert_eq!(rec.nodes.len() as u64, r.stats.nodes, "{algo}");
            assert_eq!(rec.nodes.iter().filter(|n| n.leaf).count() as u64, r.stats.leaves, "{algo}");
            assert!(!rec.overflow);
            // Every recorded child points back to its parent.
            for (i, n) in rec.nodes.iter().enumerate() {
                for &c in &n.children {
                    assert_eq!(rec.nodes[c as usize].parent, Some(i as u32));
                }
            }
            let mut small = Recorder::new(5);
            catalogue::build(&spec, Traced { game: &g, state: &s, tracer: &mut small }).unwrap().unwrap();
            assert!(small.overflow && small.nodes.len() == 5, "{algo}");
        }
    }
}
