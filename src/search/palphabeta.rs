//! P-alpha-beta (Fishburn's principal-variation alpha-beta): the first move is searched with the full window, as the
//! expected principal variation; every other move is only *tested* with a minimal window around the best value so
//! far (by a fail-soft alpha-beta), and searched again with a real window only when the test fails high.
//!
//! ```text
//! PAlphaBeta(s, depth, α, β):
//!     if s is terminal or depth = 0: return value(s)
//!     best := -PAlphaBeta(first child, depth - 1, -β, -α)
//!     for each other child c:
//!         if best >= β: return best                     -- cut-off
//!         bound := max(α, best)
//!         t := -AlphaBetaFS(c, depth - 1, -bound - 1, -bound)   -- minimal window test: is c better than bound?
//!         if t > bound:                                  -- it is: find out by how much
//!             if t < β: t := -PAlphaBeta(c, depth - 1, -β, -t)  -- re-search
//!             best := t
//!     return best
//! ```
//!
//! Unlike NegaScout, the tests use plain alpha-beta below (not P-alpha-beta itself).

use crate::game::{FullGame, GameError, MoveList};
use crate::search::INFINITY;
use crate::search::alphabeta_failsoft::failsoft;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

/// P-alpha-beta.
pub(crate) struct PAlphaBeta;

impl<G: FullGame> Algorithm<G> for PAlphaBeta {
    const NAME: &'static str = "palphabeta";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(PAlphaBeta)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        palphabeta(ctx, state, depth, -INFINITY, INFINITY, 0)
    }
}

/// P-alpha-beta of `s` with the window `(alpha, beta)` (fail-soft).
pub fn palphabeta<G: FullGame, T: Tracer<G>>(
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
    for (i, &m) in moves.iter().enumerate() {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        if i == 0 {
            best = -palphabeta(ctx, &child, depth - 1, -beta, -alpha, ply + 1);
            ctx.pv.update(ply as usize, m);
        } else {
            let bound = alpha.max(best);
            let mut t = -failsoft(ctx, &child, depth - 1, -bound - 1, -bound, ply + 1);
            if ctx.stopped {
                break;
            }
            if t > bound {
                if t < beta {
                    ctx.research();
                    t = -palphabeta(ctx, &child, depth - 1, -beta, -t, ply + 1);
                }
                best = t;
                ctx.pv.update(ply as usize, m);
            } else if t > best {
                best = t;
            }
        }
        if ctx.stopped {
            break;
        }
        if best >= beta {
            ctx.cutoff();
            break;
        }
    }
    ctx.exit(best)
}
