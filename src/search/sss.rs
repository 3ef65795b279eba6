//! SSS* (Stockman, 1979), as the course gives it: a best-first search over *states* `(node, status, h)` kept in the
//! OPEN list, where `status` is LIVE (not yet examined) or SOLVED, and `h` is an upper bound of the node's merit from
//! the root player's (MAX's) point of view. The root is a MAX node; MAX and MIN alternate.
//!
//! ```text
//! SSS*(root):
//!     OPEN := { (root, LIVE, +∞) }
//!     loop
//!         (J, status, h) := the state of OPEN with the highest h (ties: the leftmost node, or with
//!                           `ties=newest` the course's list: the state put in last); remove it
//!         if J = root and status = SOLVED: return h
//!         Γ applied to (J, status, h):
//!         case LIVE, J terminal (or at the horizon):  insert (J, SOLVED, min(h, value(J)))
//!         case LIVE, J a MAX node:                    insert (J.i, LIVE, h) for every child J.i
//!         case LIVE, J a MIN node:                    insert (J.1, LIVE, h)                 -- first child only
//!         case SOLVED, J a MIN node (parent P is MAX): insert (P, SOLVED, h);
//!                                                      remove from OPEN every state of a descendant of P
//!         case SOLVED, J a MAX node (parent P is MIN): if J has a next sibling J': insert (J', LIVE, h)
//!                                                      else insert (P, SOLVED, h)
//! ```
//!
//! Stockman's theorem: SSS* never evaluates a leaf that alpha-beta (same move order) prunes. The tests check it.
//!
//! Engineering: nodes live in an arena (state, parent, child index, ply) kept by the searcher and reused by every
//! iteration and search (it grows, amortised, only when a search needs more nodes than any before); OPEN is a binary heap of arena indices ordered by `h` then by left-to-right position (compared by
//! walking the parent links); "remove every descendant of P" is lazy: P is marked solved, and a state popped later
//! under a solved ancestor is discarded. Counting: a node counts when its LIVE state is examined; a leaf when Γ
//! scores it. The best move is the root child whose MIN state solved the root.
//!
//! Ties: `sss(ties=leftmost)` (the default, Stockman's rule; the same leaves as MT-SSS*) or `sss(ties=newest)`, the
//! course's list, where STACK puts states in front and ORDONNATE puts a state before those of the same h: among equal
//! h the latest state comes first, the children of a MAX node in their order. `plateau tree --trace` prints the list
//! before each step as the slides' table does (`<x, v|f, h>`).

use crate::game::{Evaluator, FullGame, GameError, MoveList, err, outcome_score};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

const NONE: u32 = u32::MAX;

/// Most nodes the arena may hold (a few hundred MB): beyond, the search stops as if out of time, so that a too-deep
/// SSS* fails like a timed-out search instead of exhausting the memory.
pub(crate) const ARENA_LIMIT: usize = 4_000_000;

#[derive(Clone, Copy, Debug)]
struct Node<S> {
    state: S,
    parent: u32,
    /// Index of the move leading here in the parent's move list.
    index: u16,
    ply: u32,
    /// A MAX node whose value is known: every state below it is dead.
    solved: bool,
    /// Scored by Γ (its trace already has its value).
    leaf: bool,
    trace: u32,
}

#[derive(Clone, Copy, Debug)]
struct State {
    node: u32,
    live: bool,
    h: i32,
    /// When it was put in OPEN (for `ties=newest`).
    seq: u32,
}

/// Stockman's SSS* with its OPEN list.
pub(crate) struct Sss<G: FullGame> {
    arena: Vec<Node<G::State>>,
    open: Vec<State>,
    /// Ties between equal h: the latest state first (the course's list) instead of the leftmost node.
    newest: bool,
    seq: u32,
}

impl<G: FullGame> Algorithm<G> for Sss<G> {
    const NAME: &'static str = "sss";
    fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let newest = match spec.text("ties").as_deref() {
            None | Some("leftmost") | Some("left") => false,
            Some("newest") | Some("course") => true,
            Some(other) => return err(format!("sss: ties={other}: expected leftmost or newest")),
        };
        Ok(Sss { arena: Vec::with_capacity(4096), open: Vec::with_capacity(4096), newest, seq: 0 })
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        self.arena.clear();
        self.open.clear();
        self.seq = 0;
        self.arena.push(Node { state: *state, parent: NONE, index: 0, ply: 0, solved: false, leaf: false, trace: 0 });
        self.push(State { node: 0, live: true, h: INFINITY, seq: 0 });
        let mut moves = MoveList::new();
        let mut best_index: Option<u16> = None;
        let mut last_h = INFINITY;
        while !self.open.is_empty() {
            if T::ENABLED {
                self.report_open(ctx);
            }
            let Some(st) = self.pop() else { break };
            let j = st.node as usize;
            let h = st.h;
            last_h = h;
            if self.dead(j) {
                continue;
            }
            let node = self.arena[j];
            let max_node = node.ply.is_multiple_of(2);
            if st.live {
                ctx.stats.nodes += 1;
                if ctx.limit.expired(ctx.stats.nodes) {
                    ctx.stopped = true;
                }
                if T::ENABLED {
                    let parent = (node.parent != NONE).then(|| self.arena[node.parent as usize].trace);
                    let (a, b) = if max_node { (-INFINITY, h) } else { (-h, INFINITY) };
                    self.arena[j].trace = ctx.tracer.node(parent, &node.state, node.ply, a, b, false);
                    if ctx.tracer.full() {
                        ctx.stopped = true;
                    }
                }
                if self.arena.len() > ARENA_LIMIT {
                    ctx.stopped = true;
                }
                if ctx.stopped {
                    break;
                }
                let remaining = depth.saturating_sub(node.ply);
                let value = if let Some(o) = ctx.game.outcome(&node.state) {
                    Some(outcome_score(o, node.ply))
                } else if remaining == 0 {
                    ctx.horizon = true;
                    Some(ctx.eval.evaluate(ctx.game, &node.state))
                } else {
                    None
                };
                if let Some(v) = value {
                    // Γ: a leaf is solved with min(h, its value from MAX's view).
                    ctx.stats.leaves += 1;
                    let v_max = if max_node { v } else { -v };
                    self.arena[j].leaf = true;
                    if T::ENABLED {
                        ctx.tracer.result(self.arena[j].trace, v, true);
                    }
                    self.push(State { node: st.node, live: false, h: h.min(v_max), seq: 0 });
                    continue;
                }
                ctx.game.generate_moves(&node.state, &mut moves);
                let count = if max_node { moves.len() } else { 1 };
                // With `ties=newest` the first child must be the latest put in: the children go in right to left.
                let order: &mut dyn Iterator<Item = (usize, &G::Move)> = if self.newest {
                    &mut moves.iter().take(count).enumerate().rev()
                } else {
                    &mut moves.iter().take(count).enumerate()
                };
                for (i, &m) in order {
                    let mut child = node.state;
                    ctx.game.play(&mut child, m);
                    let c = self.arena.len() as u32;
                    self.arena.push(Node {
                        state: child,
                        parent: st.node,
                        index: i as u16,
                        ply: node.ply + 1,
                        solved: false,
                        leaf: false,
                        trace: 0,
                    });
                    self.push(State { node: c, live: true, h, seq: 0 });
                }
                continue;
            }
            // SOLVED states.
            if T::ENABLED && !node.leaf {
                let v = if max_node { h } else { -h };
                ctx.tracer.result(node.trace, v, false);
            }
            if j == 0 {
                break;
            }
            let p = node.parent;
            if !max_node {
                // J is a MIN node: its MAX parent is solved with h; everything else below the parent is dead.
                self.arena[p as usize].solved = true;
                if p == 0 {
                    best_index = Some(node.index);
                }
                self.push(State { node: p, live: false, h, seq: 0 });
            } else {
                // J is a MAX node under a MIN parent: on to the next sibling, or the parent is solved.
                let parent_state = self.arena[p as usize].state;
                ctx.game.generate_moves(&parent_state, &mut moves);
                let next = node.index as usize + 1;
                if next < moves.len() {
                    let mut child = parent_state;
                    ctx.game.play(&mut child, moves[next]);
                    let c = self.arena.len() as u32;
                    self.arena.push(Node {
                        state: child,
                        parent: p,
                        index: next as u16,
                        ply: node.ply,
                        solved: false,
                        leaf: false,
                        trace: 0,
                    });
                    self.push(State { node: c, live: true, h, seq: 0 });
                } else {
                    self.push(State { node: p, live: false, h, seq: 0 });
                }
            }
        }
        ctx.game.generate_moves(state, &mut moves);
        ctx.pv.set_root(best_index.and_then(|i| moves.get(i as usize).copied()));
        last_h
    }
}

impl<G: FullGame> Sss<G> {
    /// Whether a proper ancestor of `j` is solved (the state was removed from OPEN).
    fn dead(&self, j: usize) -> bool {
        let mut p = self.arena[j].parent;
        while p != NONE {
            if self.arena[p as usize].solved {
                return true;
            }
            p = self.arena[p as usize].parent;
        }
        false
    }

    /// Whether node `a` lies to the left of node `b` (an ancestor counts as left of its descendants).
    fn left_of(&self, mut a: u32, mut b: u32) -> bool {
        let (da, db) = (self.arena[a as usize].ply, self.arena[b as usize].ply);
        for _ in db..da {
            a = self.arena[a as usize].parent;
        }
        for _ in da..db {
            b = self.arena[b as usize].parent;
        }
        if a == b {
            return da < db;
        }
        loop {
            let (na, nb) = (&self.arena[a as usize], &self.arena[b as usize]);
            if na.parent == nb.parent {
                return na.index < nb.index;
            }
            a = na.parent;
            b = nb.parent;
        }
    }

    /// Heap order: higher h first, then the leftmost node (or, `ties=newest`, the latest state).
    fn before(&self, x: &State, y: &State) -> bool {
        x.h > y.h || (x.h == y.h && if self.newest { x.seq > y.seq } else { self.left_of(x.node, y.node) })
    }

    fn push(&mut self, mut st: State) {
        self.seq += 1;
        st.seq = self.seq;
        self.open.push(st);
        let mut i = self.open.len() - 1;
        while i > 0 {
            let p = (i - 1) / 2;
            if self.before(&self.open[i], &self.open[p]) {
                self.open.swap(i, p);
                i = p;
            } else {
                break;
            }
        }
    }

    /// The OPEN list as the course writes it, for tracing: live states only (the lazily removed ones left out),
    /// in the order they will be taken.
    fn report_open<T: Tracer<G>>(&self, ctx: &mut Ctx<'_, G, T>) {
        let mut list: Vec<State> = self.open.iter().filter(|s| !self.dead(s.node as usize)).copied().collect();
        list.sort_by(|x, y| {
            if self.before(x, y) {
                std::cmp::Ordering::Less
            } else if self.before(y, x) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        let named: Vec<(G::State, bool, i32)> =
            list.iter().map(|s| (self.arena[s.node as usize].state, s.live, s.h)).collect();
        ctx.tracer.open_list(&named);
    }

    fn pop(&mut self) -> Option<State> {
        if self.open.is_empty() {
            return None;
        }
        let top = self.open.swap_remove(0);
        let n = self.open.len();
        let mut i = 0;
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < n && self.before(&self.open[l], &self.open[m]) {
                m = l;
            }
            if r < n && self.before(&self.open[r], &self.open[m]) {
                m = r;
            }
            if m == i {
                break;
            }
            self.open.swap(i, m);
            i = m;
        }
        Some(top)
    }
}
