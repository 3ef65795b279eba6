//! Negamax: minimax written once, every value from the side to move's point of view.
//!
//! ```text
//! Negamax(s, depth):
//!     if s is terminal or depth = 0: return value(s)      -- side to move's view
//!     v := -∞
//!     for each move m of s:
//!         v := max(v, -Negamax(play(s, m), depth - 1))
//!     return v
//! ```
//!
//! It visits exactly the nodes of [`minimax`](super::minimax) and returns the same value (seen from the root).

use crate::game::{FullGame, GameError, MoveList};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

/// Plain negamax.
pub(crate) struct Negamax;

impl<G: FullGame> Algorithm<G> for Negamax {
    const NAME: &'static str = "negamax";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(Negamax)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        negamax(ctx, state, depth, 0)
    }
}

/// The negamax value of `s` searched to `depth`.
pub fn negamax<G: FullGame, T: Tracer<G>>(ctx: &mut Ctx<'_, G, T>, s: &G::State, depth: u32, ply: u32) -> i32 {
    ctx.enter(s, ply, -INFINITY, INFINITY);
    if let Some(v) = ctx.leaf(s, depth, ply) {
        return v;
    }
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    let mut v = -INFINITY;
    for &m in &moves {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let w = -negamax(ctx, &child, depth - 1, ply + 1);
        if w > v {
            v = w;
            ctx.pv.update(ply as usize, m);
        }
    }
    ctx.exit(v)
}
