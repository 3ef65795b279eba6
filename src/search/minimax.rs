//! Minimax as the course writes it: two mutually recursive functions, Max for the nodes where the root player moves
//! and Min for the others. Values are from the root player's (MAX's) point of view.
//!
//! ```text
//! Max(s, depth):                              Min(s, depth):
//!     if s is terminal or depth = 0:              if s is terminal or depth = 0:
//!         return value(s)                             return value(s)
//!     v := -∞                                     v := +∞
//!     for each move m of s:                       for each move m of s:
//!         v := max(v, Min(play(s, m), depth-1))       v := min(v, Max(play(s, m), depth-1))
//!     return v                                    return v
//! ```
//!
//! `value(s)` is the evaluation from MAX's view: the game's evaluation (side to move's view) negated at MIN nodes.
//! No pruning: every node down to the horizon is visited, so nodes = 1 + b + ... + b^d on a uniform tree.

use crate::game::{FullGame, GameError};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

use crate::game::MoveList;

/// Plain minimax, Max/Min form.
pub struct Minimax;

impl<G: FullGame> Algorithm<G> for Minimax {
    const NAME: &'static str = "minimax";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(Minimax)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        max_value(ctx, state, depth, 0)
    }
}

/// MAX to move: the best value for MAX.
pub(crate) fn max_value<G: FullGame, T: Tracer<G>>(ctx: &mut Ctx<'_, G, T>, s: &G::State, depth: u32, ply: u32) -> i32 {
    ctx.enter(s, ply, -INFINITY, INFINITY);
    if let Some(v) = ctx.leaf(s, depth, ply) {
        return v; // MAX to move: the side to move's view is MAX's view
    }
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    let mut v = -INFINITY;
    for &m in &moves {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let w = min_value(ctx, &child, depth - 1, ply + 1);
        if w > v {
            v = w;
            ctx.pv.update(ply as usize, m);
        }
    }
    ctx.exit(v)
}

/// MIN to move: the worst value for MAX.
pub(crate) fn min_value<G: FullGame, T: Tracer<G>>(ctx: &mut Ctx<'_, G, T>, s: &G::State, depth: u32, ply: u32) -> i32 {
    ctx.enter(s, ply, -INFINITY, INFINITY);
    if let Some(v) = ctx.leaf(s, depth, ply) {
        return -v; // MIN to move: negate into MAX's view
    }
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    let mut v = INFINITY;
    for &m in &moves {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let w = max_value(ctx, &child, depth - 1, ply + 1);
        if w < v {
            v = w;
            ctx.pv.update(ply as usize, m);
        }
    }
    // The tracer takes values from the side to move's view.
    -ctx.exit(-v)
}
