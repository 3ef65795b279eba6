//! Fail-soft alpha-beta (negamax form): the result is the best value found even when it falls outside the window,
//! so a fail-high returns a lower bound `>= β` and a fail-low an upper bound `<= α`, both as tight as the search
//! could make them. Same nodes as fail-hard alpha-beta; the extra information is what the window drivers
//! (NegaC*, MTD(f)) and the minimal-window algorithms feed on.
//!
//! ```text
//! AlphaBetaFS(s, depth, α, β):
//!     if s is terminal or depth = 0: return value(s)
//!     best := -∞
//!     for each move m of s:
//!         v := -AlphaBetaFS(play(s, m), depth - 1, -β, -max(α, best))
//!         if v > best:
//!             best := v
//!             if best >= β: return best     -- cut-off, a lower bound
//!     return best                           -- exact if α < best < β, else an upper bound
//! ```

use crate::game::{FullGame, GameError, MoveList};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

/// Fail-soft alpha-beta.
pub(crate) struct FailSoft;

impl<G: FullGame> Algorithm<G> for FailSoft {
    const NAME: &'static str = "alphabeta_failsoft";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(FailSoft)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        failsoft(ctx, state, depth, -INFINITY, INFINITY, 0)
    }
}

/// Fail-soft alpha-beta of `s` with the window `(alpha, beta)`.
pub(crate) fn failsoft<G: FullGame, T: Tracer<G>>(
    ctx: &mut Ctx<'_, G, T>,
    s: &G::State,
    depth: u32,
    alpha: i32,
    beta: i32,
    ply: u32,
) -> i32 {
    ctx.enter(s, ply, alpha, beta);
    if let Some(v) = ctx.leaf(s, depth, ply) {
        return v;
    }
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    let mut best = -INFINITY;
    for &m in &moves {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let v = -failsoft(ctx, &child, depth - 1, -beta, -alpha.max(best), ply + 1);
        if ctx.stopped {
            return ctx.exit(best.max(alpha));
        }
        if v > best {
            best = v;
            ctx.pv.update(ply as usize, m);
            if best >= beta {
                ctx.cutoff();
                break;
            }
        }
    }
    ctx.exit(best)
}
