//! Alpha-beta, fail-hard, in the two-function form of the course: MaxValue and MinValue, values from the root
//! player's (MAX's) point of view, α the best value MAX is sure of, β the best value MIN is sure of.
//!
//! ```text
//! MaxValue(s, depth, α, β):                    MinValue(s, depth, α, β):
//!     if s is terminal or depth = 0:               if s is terminal or depth = 0:
//!         return value(s)                              return value(s)
//!     for each move m of s:                        for each move m of s:
//!         α := max(α, MinValue(s·m, depth-1, α, β))    β := min(β, MaxValue(s·m, depth-1, α, β))
//!         if α >= β: return β      -- cut-off          if α >= β: return α      -- cut-off
//!     return α                                     return β
//! ```
//!
//! It visits exactly the nodes of the negamax form [`alphabeta`](super::alphabeta) with the same move order.
//! (Traces report windows and values from the side to move's view, as for every algorithm: at MIN nodes the window
//! `(α, β)` is reported as `(-β, -α)`.)

use crate::game::{FullGame, GameError, MoveList};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

/// Fail-hard alpha-beta, MaxValue/MinValue form.
pub(crate) struct AlphaBetaMinMax;

impl<G: FullGame> Algorithm<G> for AlphaBetaMinMax {
    const NAME: &'static str = "alphabeta_minmax";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(AlphaBetaMinMax)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        max_value(ctx, state, depth, -INFINITY, INFINITY, 0)
    }
}

/// MAX to move.
pub(crate) fn max_value<G: FullGame, T: Tracer<G>>(
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
    for &m in &moves {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let v = min_value(ctx, &child, depth - 1, alpha, beta, ply + 1);
        if ctx.stopped {
            return ctx.exit(alpha);
        }
        if v > alpha {
            alpha = v;
            ctx.pv.update(ply as usize, m);
        }
        if alpha >= beta {
            ctx.cutoff();
            return ctx.exit(beta);
        }
    }
    ctx.exit(alpha)
}

/// MIN to move.
pub(crate) fn min_value<G: FullGame, T: Tracer<G>>(
    ctx: &mut Ctx<'_, G, T>,
    s: &G::State,
    depth: u32,
    alpha: i32,
    mut beta: i32,
    ply: u32,
) -> i32 {
    ctx.enter(s, ply, -beta, -alpha);
    if let Some(v) = ctx.leaf(s, depth, ply) {
        return -v;
    }
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    for &m in &moves {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let v = max_value(ctx, &child, depth - 1, alpha, beta, ply + 1);
        if ctx.stopped {
            return -ctx.exit(-beta);
        }
        if v < beta {
            beta = v;
            ctx.pv.update(ply as usize, m);
        }
        if alpha >= beta {
            ctx.cutoff();
            return -ctx.exit(-alpha);
        }
    }
    -ctx.exit(-beta)
}
