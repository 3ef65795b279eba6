//! NegaScout (Reinefeld, 1983), fail-soft: the first move gets the full window; every other move is searched with the
//! minimal window `(a, a + 1)` by NegaScout itself, and searched again with `(t, β)` only when that test fails high
//! inside the window.
//!
//! ```text
//! NegaScout(s, depth, α, β):
//!     if s is terminal or depth = 0: return value(s)
//!     best := -∞; b := β
//!     for each move m of s (i = 1, 2, ...):
//!         a := max(α, best)
//!         t := -NegaScout(play(s, m), depth - 1, -b, -a)
//!         if t > a and t < β and i > 1 and depth - 1 > 1:    -- the test failed high: re-search
//!             t := -NegaScout(play(s, m), depth - 1, -β, -t)
//!         best := max(best, t)
//!         if best >= β: return best                            -- cut-off
//!         b := max(α, best) + 1                                -- the next moves get a minimal window
//!     return best
//! ```
//!
//! The refinement near the leaves: a child with at most one ply left returns an exact value from its minimal-window
//! search whenever the test fails high (fail-soft, its own children are scored exactly), so its re-search is skipped
//! (`depth - 1 > 1` above). [`pvs`](super::pvs) is the same idea without the refinement and with fail-hard bounds.

use crate::game::{FullGame, GameError, MoveList};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

/// Reinefeld's NegaScout.
pub struct NegaScout;

impl<G: FullGame> Algorithm<G> for NegaScout {
    const NAME: &'static str = "negascout";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(NegaScout)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        negascout(ctx, state, depth, -INFINITY, INFINITY, 0)
    }
}

/// NegaScout of `s` with the window `(alpha, beta)`.
pub fn negascout<G: FullGame, T: Tracer<G>>(
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
    let mut b = beta;
    for (i, &m) in moves.iter().enumerate() {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let a = alpha.max(best);
        let mut t = -negascout(ctx, &child, depth - 1, -b, -a, ply + 1);
        if t > a && t < beta && i > 0 && depth - 1 > 1 && !ctx.stopped {
            ctx.research();
            t = -negascout(ctx, &child, depth - 1, -beta, -t, ply + 1);
        }
        if ctx.stopped {
            break;
        }
        if t > best {
            best = t;
            ctx.pv.update(ply as usize, m);
        }
        if best >= beta {
            ctx.cutoff();
            break;
        }
        b = alpha.max(best) + 1;
    }
    ctx.exit(best)
}
