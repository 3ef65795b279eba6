//! Scout (Pearl, 1980): evaluate the first move, then only *test* whether each other move beats it; a move that
//! passes the test is evaluated in full (a re-search). Test(s, v) answers the boolean "value(s) > v?" and stops at
//! the first move that proves it, a search with the minimal window `(v, v + 1)`.
//!
//! Negamax form, integer values (`-value(c) > v` is `value(c) <= -v - 1`, i.e. `not Test(c, -v - 1)`):
//!
//! ```text
//! Scout(s, depth):
//!     if s is terminal or depth = 0: return value(s)
//!     v := -Scout(first child, depth - 1)
//!     for each other child c:
//!         if not Test(c, depth - 1, -v - 1):   -- c is better than v for the side to move
//!             v := -Scout(c, depth - 1)        -- re-search
//!     return v
//!
//! Test(s, depth, v):                           -- is value(s) > v ?
//!     if s is terminal or depth = 0: return value(s) > v
//!     for each child c:
//!         if not Test(c, depth - 1, -v - 1): return true     -- cut-off
//!     return false
//! ```
//!
//! In traces a Test node has the window `(v, v + 1)` and the value `v + 1` (true) or `v` (false); its leaves show
//! their values.

use crate::game::{FullGame, GameError, MoveList};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

/// Pearl's Scout.
pub(crate) struct Scout;

impl<G: FullGame> Algorithm<G> for Scout {
    const NAME: &'static str = "scout";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(Scout)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        scout(ctx, state, depth, 0)
    }
}

/// The exact value of `s` searched to `depth`.
pub fn scout<G: FullGame, T: Tracer<G>>(ctx: &mut Ctx<'_, G, T>, s: &G::State, depth: u32, ply: u32) -> i32 {
    ctx.enter(s, ply, -INFINITY, INFINITY);
    if let Some(v) = ctx.leaf(s, depth, ply) {
        return v;
    }
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    let mut v = -INFINITY;
    for (i, &m) in moves.iter().enumerate() {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        if i == 0 {
            v = -scout(ctx, &child, depth - 1, ply + 1);
            ctx.pv.update(ply as usize, m);
        } else if !test(ctx, &child, depth - 1, -v - 1, ply + 1) {
            if ctx.stopped {
                break;
            }
            ctx.research();
            v = -scout(ctx, &child, depth - 1, ply + 1);
            ctx.pv.update(ply as usize, m);
        }
        if ctx.stopped {
            break;
        }
    }
    ctx.exit(v)
}

/// Whether the value of `s` (searched to `depth`) is greater than `v`.
pub fn test<G: FullGame, T: Tracer<G>>(ctx: &mut Ctx<'_, G, T>, s: &G::State, depth: u32, v: i32, ply: u32) -> bool {
    ctx.enter(s, ply, v, v + 1);
    if let Some(x) = ctx.leaf(s, depth, ply) {
        return x > v;
    }
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    for &m in &moves {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        if !test(ctx, &child, depth - 1, -v - 1, ply + 1) {
            if ctx.stopped {
                break;
            }
            ctx.cutoff();
            ctx.exit(v + 1);
            return true;
        }
        if ctx.stopped {
            break;
        }
    }
    ctx.exit(v);
    false
}
