//! The evaluation's carry along the search path ([`Evaluator::Carry`]: an NNUE's accumulators, nothing for most
//! evaluations): one per ply in `Worker::carries`.
//!
//! ```text
//! root:           carry[0] := carry(root)                        -- from scratch, at every iteration
//! child by m:     carry[ply + 1] := carry_move(s, m, carry[ply])  -- before the child is searched (once per move:
//!                                                                    its re-searches find it in place)
//! null move:      carry[ply + 1] := carry(s after the pass)       -- from scratch
//! leaf, static:   evaluate_carried(s, carry[ply])                 -- debug builds compare it with evaluate(s)
//! ```

use crate::game::{Evaluator, FullGame};

use super::search::Worker;

impl<G: FullGame> Worker<'_, G> {
    /// The value of the leaf `s`, the node at `ply`.
    #[inline]
    pub(super) fn evaluate(&mut self, s: &G::State, ply: usize) -> i32 {
        self.stats.leaves += 1;
        self.static_eval(s, ply)
    }

    /// The static evaluation of `s`, the node at `ply`, read with its carry.
    #[inline]
    pub(super) fn static_eval(&self, s: &G::State, ply: usize) -> i32 {
        let v = self.sh.eval.evaluate_carried(self.sh.game, s, &self.carries[ply]);
        debug_assert_eq!(v, self.sh.eval.evaluate(self.sh.game, s), "the evaluation's carry at ply {ply} is stale");
        v
    }

    /// The carry of the root `s` (ply 0), from scratch.
    #[inline]
    pub(super) fn carry_root(&mut self, s: &G::State) {
        self.sh.eval.carry(self.sh.game, s, &mut self.carries[0]);
    }

    /// The carry of the child that `m` reaches from `s` (the node at `ply`), before that child is searched.
    #[inline]
    pub(super) fn carry_move(&mut self, s: &G::State, m: G::Move, ply: usize) {
        let (head, tail) = self.carries.split_at_mut(ply + 1);
        self.sh.eval.carry_move(self.sh.game, s, m, &head[ply], &mut tail[0]);
    }
}
