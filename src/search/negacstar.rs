//! NegaC* (Weill): bisection of the root value with minimal-window fail-soft alpha-beta searches. Every search
//! answers "is the value above γ?" and, being fail-soft, returns a bound that may jump past the midpoint.
//!
//! ```text
//! NegaCStar(s, depth):
//!     min := -∞; max := +∞
//!     while min < max:
//!         γ := ⌊(min + max) / 2⌋
//!         v := AlphaBetaFS(s, depth, γ, γ + 1)     -- minimal window
//!         if v > γ: min := v                        -- failed high: value >= v
//!         else:     max := v                        -- failed low:  value <= v
//!     return min
//! ```
//!
//! Each pass after the first counts as a re-search of the root. The best move is the one of the last pass that
//! failed high (that pass raised `min` to the final value). No transposition table: every pass starts from scratch.

use crate::game::{FullGame, GameError};
use crate::search::INFINITY;
use crate::search::alphabeta_failsoft::failsoft;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

/// NegaC*.
pub(crate) struct NegaCStar;

impl<G: FullGame> Algorithm<G> for NegaCStar {
    const NAME: &'static str = "negacstar";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(NegaCStar)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        let (mut min, mut max) = (-INFINITY, INFINITY);
        let mut first = true;
        ctx.pv.set_root(None);
        ctx.pv.save_root_move();
        while min < max {
            let gamma = (min + max).div_euclid(2);
            if !first {
                ctx.research();
            }
            first = false;
            let v = failsoft(ctx, state, depth, gamma, gamma + 1, 0);
            if ctx.stopped {
                break;
            }
            if v > gamma {
                min = v;
                ctx.pv.save_root_move();
            } else {
                max = v;
            }
        }
        ctx.pv.restore_root();
        if ctx.stopped && min == -INFINITY { max } else { min }
    }
}
