//! Heuristic evaluations used by the engine.
//!
//! - [`breakthrough`]: the Breakthrough evaluation (features, phase blending) with its weights in [`weights`];
//! - [`tune`]: Texel-style tuning of those weights from engine self-play games (`plateau tune`);
//! - [`EngineEval`]: what the engine calls at a leaf: the Breakthrough evaluation for Breakthrough, the game's default
//!   evaluator for every other game.

pub mod breakthrough;
// tune: added with the tuner
pub mod weights;

use crate::engine::tactics::bt_parts;
use crate::game::{Evaluator, Game};
use crate::games::breakthrough::Breakthrough;

pub use breakthrough::BtEvaluator;

/// The engine's leaf evaluation for game `G`.
pub struct EngineEval<G: Game> {
    default: G::Eval,
    bt: Option<BtEvaluator>,
}

impl<G: Game> EngineEval<G> {
    /// The evaluation for `game`: the tuned Breakthrough one when `tuned` and the game is Breakthrough.
    pub fn new(game: &G, tuned: bool) -> Self {
        let bt = if tuned {
            (game as &dyn std::any::Any).downcast_ref::<Breakthrough>().map(BtEvaluator::new)
        } else {
            None
        };
        EngineEval { default: G::Eval::default(), bt }
    }

    /// Score of `s` from the side to move's point of view.
    #[inline]
    pub fn evaluate(&self, game: &G, s: &G::State) -> i32 {
        if let Some(e) = &self.bt
            && let Some((b, st)) = bt_parts(game, s)
        {
            return e.evaluate(b, st);
        }
        self.default.evaluate(game, s)
    }
}
