//! Principal Variation Search (Marsland), fail-hard: the first move is searched with the full window, the others
//! with the zero window `(α, α + 1)`; a move that beats α inside the window is searched again with `(α, β)`.
//!
//! ```text
//! PVS(s, depth, α, β):
//!     if s is terminal or depth = 0: return value(s)
//!     for each move m of s (i = 1, 2, ...):
//!         if i = 1: v := -PVS(play(s, m), depth - 1, -β, -α)
//!         else:
//!             v := -PVS(play(s, m), depth - 1, -α - 1, -α)     -- zero-window test
//!             if α < v < β: v := -PVS(play(s, m), depth - 1, -β, -α)   -- re-search
//!         if v >= β: return β                                   -- cut-off
//!         if v > α: α := v
//!     return α
//! ```
//!
//! Differences with [`negascout`](super::negascout): fail-hard bounds, the re-search window is `(α, β)` rather than
//! `(t, β)`, and no skip of the re-search near the leaves.

use crate::game::{Game, GameError, MoveList};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

/// Principal Variation Search.
pub struct Pvs;

impl<G: Game> Algorithm<G> for Pvs {
    const NAME: &'static str = "pvs";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(Pvs)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        pvs(ctx, state, depth, -INFINITY, INFINITY, 0)
    }
}

/// PVS of `s` with the window `(alpha, beta)`.
pub fn pvs<G: Game, T: Tracer<G>>(
    ctx: &mut Ctx<'_, G, T>,
    s: &G::State,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: u32,
) -> i32 {
    ctx.enter(s, ply, alpha, beta);
    if let Some(v) = ctx.leaf(s, depth, ply) {
        return v;
    }
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    for (i, &m) in moves.iter().enumerate() {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let mut v;
        if i == 0 {
            v = -pvs(ctx, &child, depth - 1, -beta, -alpha, ply + 1);
        } else {
            v = -pvs(ctx, &child, depth - 1, -alpha - 1, -alpha, ply + 1);
            if v > alpha && v < beta && !ctx.stopped {
                ctx.research();
                v = -pvs(ctx, &child, depth - 1, -beta, -alpha, ply + 1);
            }
        }
        if ctx.stopped {
            return ctx.exit(alpha);
        }
        if v >= beta {
            ctx.pv.update(ply as usize, m);
            ctx.cutoff();
            return ctx.exit(beta);
        }
        if v > alpha {
            alpha = v;
            ctx.pv.update(ply as usize, m);
        }
    }
    ctx.exit(alpha)
}
