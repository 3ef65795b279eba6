//! The per-search context shared by every algorithm of the catalogue: the game, the evaluation, the counters
//! ([`Stats`], counted by the rules of `search/mod.rs`), the stop check (`time.rs`), the principal-variation table and
//! the tracer.
//!
//! The algorithms call, at every node:
//! - [`Ctx::enter`] first (counts a node, checks the clock, opens a trace node, clears the node's PV line);
//! - [`Ctx::leaf`], which scores terminal positions and the depth horizon (counting a leaf), or `None`;
//! - [`Ctx::exit`] on every other return; [`Ctx::cutoff`] and [`Ctx::research`] when those happen.
//!
//! Everything is allocated when the context is built, before the search starts.

use crate::game::{Evaluator, FullGame, SearchEval, outcome_score};
use crate::search::trace::Tracer;
use crate::search::{Stats, StopCheck};

/// The triangular principal-variation table: `line(ply)` is the best line found from the node at `ply`.
pub struct PvTable<M> {
    lines: Vec<Vec<M>>,
    saved: Vec<M>,
}

impl<M: Copy> PvTable<M> {
    /// A table for searches up to `max_ply` plies deep (lines are reserved, never reallocated).
    pub fn new(max_ply: usize) -> Self {
        let n = max_ply + 2;
        PvTable { lines: (0..n).map(|_| Vec::with_capacity(n)).collect(), saved: Vec::with_capacity(n) }
    }
    #[inline]
    /// Empty the line at `ply`.
    pub fn clear(&mut self, ply: usize) {
        if let Some(l) = self.lines.get_mut(ply) {
            l.clear();
        }
    }
    /// `m` is the new best move at `ply`: its line becomes `m` followed by the child's line.
    #[inline]
    pub fn update(&mut self, ply: usize, m: M) {
        if ply + 1 >= self.lines.len() {
            return;
        }
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        let room = line.capacity() - 1;
        let child = &tail[0];
        line.extend_from_slice(&child[..child.len().min(room)]);
    }
    /// The line from the root.
    pub fn root(&self) -> &[M] {
        &self.lines[0]
    }
    /// Keep the root's best move (window drivers keep the move of their last fail-high pass; the rest of that
    /// pass's line is not a principal variation).
    pub(crate) fn save_root_move(&mut self) {
        self.saved.clear();
        self.saved.extend(self.lines[0].first().copied());
    }
    /// Put the saved root line back.
    pub(crate) fn restore_root(&mut self) {
        let (lines, saved) = (&mut self.lines, &self.saved);
        lines[0].clear();
        lines[0].extend_from_slice(saved);
    }
    /// Replace the line at `ply` by one move (a transposition-table cut-off knows only its best move).
    #[inline]
    pub(crate) fn set_line(&mut self, ply: usize, m: Option<M>) {
        if let Some(l) = self.lines.get_mut(ply) {
            l.clear();
            l.extend(m);
        }
    }
    /// Replace the root line by one move.
    pub(crate) fn set_root(&mut self, m: Option<M>) {
        self.lines[0].clear();
        self.lines[0].extend(m);
    }
}

/// What an algorithm sees while it searches.
pub struct Ctx<'a, G: FullGame, T: Tracer<G>> {
    pub game: &'a G,
    pub eval: &'a SearchEval<G>,
    pub stats: Stats,
    /// The deadlines, the node budget and the stop flag, checked at every node.
    pub limit: StopCheck<'a>,
    /// Set when the clock or the node budget ran out, or a stop flag was set (or the tracer is full): unwind quickly.
    pub stopped: bool,
    pub pv: PvTable<G::Move>,
    pub tracer: &'a mut T,
    /// Set when a non-terminal position was scored at the horizon: a deeper iteration could see more.
    pub horizon: bool,
    trace_stack: Vec<u32>,
    pending_research: bool,
}

impl<'a, G: FullGame, T: Tracer<G>> Ctx<'a, G, T> {
    /// A context for one search of `game` with `eval`, stopped by `limit`, at most `max_ply` deep, traced by `tracer`.
    pub fn new(game: &'a G, eval: &'a SearchEval<G>, limit: StopCheck<'a>, max_ply: u32, tracer: &'a mut T) -> Self {
        Ctx {
            game,
            eval,
            stats: Stats::default(),
            limit,
            stopped: false,
            pv: PvTable::new(max_ply as usize),
            tracer,
            horizon: false,
            trace_stack: if T::ENABLED { Vec::with_capacity(max_ply as usize + 2) } else { Vec::new() },
            pending_research: false,
        }
    }

    /// Entering a node searched with the window `(alpha, beta)` (node view; minimax-style algorithms without a
    /// window pass `(-INFINITY, INFINITY)`).
    #[inline(always)]
    pub(crate) fn enter(&mut self, s: &G::State, ply: u32, alpha: i32, beta: i32) {
        self.stats.nodes += 1;
        self.pv.clear(ply as usize);
        if self.limit.expired(self.stats.nodes) {
            self.stopped = true;
        }
        if T::ENABLED {
            let parent = self.trace_stack.last().copied();
            let research = std::mem::take(&mut self.pending_research);
            let id = self.tracer.node(parent, s, ply, alpha, beta, research);
            self.trace_stack.push(id);
            if self.tracer.full() {
                self.stopped = true;
            }
        }
    }

    /// If the node just entered is a leaf (terminal, at the horizon `depth == 0`, or the search is stopping), count
    /// it, close it and return its value from the side to move's point of view; otherwise `None`.
    #[inline(always)]
    pub fn leaf(&mut self, s: &G::State, depth: u32, ply: u32) -> Option<i32> {
        let v = if let Some(o) = self.game.outcome(s) {
            outcome_score(o, ply)
        } else if depth == 0 || self.stopped {
            self.horizon = true;
            self.eval.evaluate(self.game, s)
        } else {
            return None;
        };
        self.stats.leaves += 1;
        if T::ENABLED {
            self.close(v, true);
        }
        Some(v)
    }

    /// Leave the node just entered with value `v` (node view); returns `v`.
    #[inline(always)]
    pub fn exit(&mut self, v: i32) -> i32 {
        if T::ENABLED {
            self.close(v, false);
        }
        v
    }

    /// The current node cuts off.
    #[inline(always)]
    pub fn cutoff(&mut self) {
        self.stats.cutoffs += 1;
        if T::ENABLED
            && let Some(&id) = self.trace_stack.last()
        {
            self.tracer.cutoff(id);
        }
    }

    /// The next node entered is a re-search (of a child, or of the root by a window driver).
    #[inline(always)]
    pub(crate) fn research(&mut self) {
        self.stats.researches += 1;
        if T::ENABLED {
            self.pending_research = true;
        }
    }

    fn close(&mut self, v: i32, leaf: bool) {
        if let Some(id) = self.trace_stack.pop() {
            self.tracer.result(id, v, leaf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PvTable;

    #[test]
    fn pv_lines_are_built_from_the_children_lines() {
        let mut pv: PvTable<u8> = PvTable::new(3);
        pv.update(2, 9);
        pv.update(1, 5);
        pv.update(0, 1);
        assert_eq!(pv.root(), &[1, 5, 9]);
        pv.save_root_move();
        pv.clear(0);
        assert!(pv.root().is_empty());
        pv.restore_root();
        assert_eq!(pv.root(), &[1]);
        // Out-of-range plies are ignored rather than panicking.
        pv.update(10, 3);
        pv.clear(10);
        pv.set_line(10, Some(1));
    }
}
