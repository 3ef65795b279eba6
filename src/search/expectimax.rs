//! Expectimax, the course's algorithm for games of chance ("if state is a chance node then return the average of the
//! successors' values"), depth-limited, in negamax form.
//!
//! ```text
//! Expectimax(s, depth):
//!     if s is terminal or depth = 0: return value(s)            -- side to move's view
//!     if chance acts in s:
//!         return Σ over the outcomes o of s: p(o) · sign(s, s·o) · Expectimax(s·o, depth - 1)
//!     v := -∞
//!     for each move m of s:
//!         v := max(v, sign(s, s·m) · Expectimax(s·m, depth - 1))
//!     return v
//! ```
//!
//! `sign(s, c)` is `+1` when the same player moves in `s` and `c`, `-1` otherwise (`search/chance.rs`): in a chance
//! game a player may move twice in a row. A chance node counts as a ply, as in `perft`. On a game without chance it
//! is [`negamax`](super::negamax). Values are real numbers, rounded at the root; the course's warning follows: only
//! positive *linear* transformations of the evaluation keep the choices of expectimax.

use crate::game::{ChanceList, FullGame, GameError, MoveList};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::chance::{is_chance, score, sign};
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

/// Depth-limited expectimax.
pub(crate) struct Expectimax;

impl<G: FullGame> Algorithm<G> for Expectimax {
    const NAME: &'static str = "expectimax";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(Expectimax)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        score(expectimax(ctx, state, depth, 0))
    }
}

/// The expectimax value of `s` searched to `depth` (side to move's view).
pub fn expectimax<G: FullGame, T: Tracer<G>>(ctx: &mut Ctx<'_, G, T>, s: &G::State, depth: u32, ply: u32) -> f64 {
    ctx.enter(s, ply, -INFINITY, INFINITY);
    if let Some(v) = ctx.leaf(s, depth, ply) {
        return v as f64;
    }
    if is_chance(ctx.game, s) {
        let mut outcomes = ChanceList::new();
        ctx.game.chance_outcomes(s, &mut outcomes);
        let mut sum = 0.0;
        for &(o, p) in &outcomes {
            let mut child = *s;
            ctx.game.play(&mut child, o);
            sum += p * sign(ctx.game, s, &child) * expectimax(ctx, &child, depth - 1, ply + 1);
        }
        ctx.exit(score(sum));
        return sum;
    }
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    let mut v = f64::NEG_INFINITY;
    for &m in &moves {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let w = sign(ctx.game, s, &child) * expectimax(ctx, &child, depth - 1, ply + 1);
        if w > v {
            v = w;
            ctx.pv.update(ply as usize, m);
        }
    }
    ctx.exit(score(v));
    v
}
