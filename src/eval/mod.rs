//! Heuristic evaluations used by the engine.
//!
//! - [`breakthrough`]: the Breakthrough evaluation (features, phase blending) with its weights in [`weights`];
//! - [`tune`]: Texel-style tuning of those weights from engine self-play games (`plateau tune`);
//! - [`pst`]: the second evaluation (full piece-square table, safety and race features) with its weights in
//!   [`pst_weights`], fitted by [`train`] (`plateau tune --eval pst`);
//! - [`ntuple`]: the `pst` evaluation plus a pattern table over every 2x3 window (weights in `nt_weights.bin`),
//!   fitted by [`ntrain`] (`plateau tune --eval nt`);
//! - [`EngineEval`]: what the engine calls at a leaf: the Breakthrough evaluation for Breakthrough, the game's default
//!   evaluator for every other game.

pub mod breakthrough;
pub mod geometry;
pub mod ntrain;
pub mod ntuple;
pub mod pst;
pub mod pst_weights;
pub mod train;
pub mod tune;
pub mod weights;

use crate::engine::params::EvalKind;
use crate::engine::tactics::bt_parts;
use crate::game::{Evaluator, Game};
use crate::games::breakthrough::Breakthrough;

pub use breakthrough::BtEvaluator;
pub use ntuple::NtEvaluator;
pub use pst::PstEvaluator;

/// The engine's leaf evaluation for game `G`.
pub struct EngineEval<G: Game> {
    default: G::Eval,
    bt: Option<BtEvaluator>,
    pst: Option<PstEvaluator>,
    nt: Option<NtEvaluator>,
}

impl<G: Game> EngineEval<G> {
    /// The evaluation of `kind` for `game` (the Breakthrough kinds fall back to the default for other games).
    pub fn new(game: &G, kind: EvalKind) -> Self {
        let b = (game as &dyn std::any::Any).downcast_ref::<Breakthrough>();
        let bt = match kind {
            EvalKind::Tuned => b.map(BtEvaluator::new),
            EvalKind::Hand => b.map(|b| BtEvaluator::with_weights(b, weights::HAND_MG, weights::HAND_EG)),
            EvalKind::Simple | EvalKind::Pst | EvalKind::Nt => None,
        };
        // `nt` on a board its table was not trained for: `pst` alone.
        let nt = match kind {
            EvalKind::Nt => b.and_then(NtEvaluator::new),
            _ => None,
        };
        let pst = match kind {
            EvalKind::Pst => b.map(PstEvaluator::new),
            EvalKind::Nt if nt.is_none() => b.map(PstEvaluator::new),
            _ => None,
        };
        EngineEval { default: G::Eval::default(), bt, pst, nt }
    }

    /// Score of `s` from the side to move's point of view.
    #[inline]
    pub fn evaluate(&self, game: &G, s: &G::State) -> i32 {
        if let Some(e) = &self.nt
            && let Some((b, st)) = bt_parts(game, s)
        {
            return e.evaluate(b, st);
        }
        if let Some(e) = &self.pst
            && let Some((b, st)) = bt_parts(game, s)
        {
            return e.evaluate(b, st);
        }
        if let Some(e) = &self.bt
            && let Some((b, st)) = bt_parts(game, s)
        {
            return e.evaluate(b, st);
        }
        self.default.evaluate(game, s)
    }
}
