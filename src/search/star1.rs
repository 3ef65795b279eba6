//! Star1 (Ballard 1983): alpha-beta carried through chance nodes. A chance node's value is a weighted average; once
//! some outcomes are searched, the others can only lie between the evaluation's bounds `L = -value_bound` and
//! `U = value_bound` (`Capabilities::value_bound`), so the node's value is already known to lie in an interval. Each outcome is
//! searched with the window that would decide the node, and the node is cut as soon as the interval leaves `(α, β)`.
//!
//! ```text
//! Star1(s, depth, α, β):                                     -- fail-hard, side to move's view
//!     if s is terminal or depth = 0: return value(s)
//!     if chance acts in s:
//!         S := 0                                             -- Σ p_j · v_j over the outcomes searched
//!         for each outcome o_i of s, probability p_i:
//!             R := Σ p_j over the outcomes after o_i
//!             A := (α - S - U · R) / p_i                     -- v_i ≤ A: even if the rest scores U, s ≤ α
//!             B := (β - S - L · R) / p_i                     -- v_i ≥ B: even if the rest scores L, s ≥ β
//!             v_i := sign · Star1(s·o_i, depth - 1, max(A, L), min(B, U))   -- window seen from s·o_i by its sign
//!             if v_i ≤ A: return α                          -- cut-off: fail low
//!             if v_i ≥ B: return β                          -- cut-off: fail high
//!             S := S + p_i · v_i
//!         return S
//!     for each move m of s:                                  -- alpha-beta
//!         v := sign · Star1(s·m, depth - 1, the window (α, β) seen from s·m)
//!         if v ≥ β: return β
//!         if v > α: α := v
//!     return α
//! ```
//!
//! `sign` is `+1` when the same player moves in both positions, `-1` otherwise (`search/chance.rs`); a window passes as
//! `(-β, -α)` to the other player. At full window Star1 returns expectimax's value: the average is added in the same
//! order, so an exact node gives the same number bit for bit. The narrower the bounds `[L, U]` around the values
//! really met, the more it prunes: with `value_bound` far above the evaluations, nothing is cut at chance nodes.

use crate::game::{ChanceList, FullGame, GameError, MoveList};
use crate::search::catalogue::Algorithm;
use crate::search::chance::{child_window, is_chance, rest_after, score, sign};
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

/// Ballard's Star1.
pub struct Star1;

impl<G: FullGame> Algorithm<G> for Star1 {
    const NAME: &'static str = "star1";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(Star1)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        let u = ctx.game.value_bound() as f64;
        score(star1(ctx, state, depth, -u, u, 0, u))
    }
}

/// The Star1 value of `s` to `depth` in the window `(alpha, beta)` (fail-hard), every value lying in `[-u, u]`.
pub fn star1<G: FullGame, T: Tracer<G>>(
    ctx: &mut Ctx<'_, G, T>,
    s: &G::State,
    depth: u32,
    mut alpha: f64,
    beta: f64,
    ply: u32,
    u: f64,
) -> f64 {
    ctx.enter(s, ply, score(alpha), score(beta));
    if let Some(v) = ctx.leaf(s, depth, ply) {
        return v as f64;
    }
    if is_chance(ctx.game, s) {
        let v = chance_node(ctx, s, depth, alpha, beta, ply, u);
        ctx.exit(score(v));
        return v;
    }
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    for &m in &moves {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let sg = sign(ctx.game, s, &child);
        let (a, b) = child_window(sg, alpha, beta);
        let v = sg * star1(ctx, &child, depth - 1, a, b, ply + 1, u);
        if ctx.stopped {
            break;
        }
        if v >= beta {
            ctx.pv.update(ply as usize, m);
            ctx.cutoff();
            ctx.exit(score(beta));
            return beta;
        }
        if v > alpha {
            alpha = v;
            ctx.pv.update(ply as usize, m);
        }
    }
    ctx.exit(score(alpha));
    alpha
}

/// A chance node of Star1 (the node is entered; the caller exits it).
fn chance_node<G: FullGame, T: Tracer<G>>(
    ctx: &mut Ctx<'_, G, T>,
    s: &G::State,
    depth: u32,
    alpha: f64,
    beta: f64,
    ply: u32,
    u: f64,
) -> f64 {
    let l = -u;
    let mut outcomes = ChanceList::new();
    ctx.game.chance_outcomes(s, &mut outcomes);
    let mut rest = [0.0; crate::game::MAX_MOVES];
    rest_after(outcomes.iter().map(|o| o.1), &mut rest[..outcomes.len()]);
    let mut sum = 0.0;
    for (i, &(o, p)) in outcomes.iter().enumerate() {
        if p <= 0.0 {
            continue;
        }
        let a = (alpha - sum - u * rest[i]) / p;
        let b = (beta - sum - l * rest[i]) / p;
        let mut child = *s;
        ctx.game.play(&mut child, o);
        let sg = sign(ctx.game, s, &child);
        let (ca, cb) = child_window(sg, a.max(l), b.min(u));
        let v = sg * star1(ctx, &child, depth - 1, ca, cb, ply + 1, u);
        if ctx.stopped {
            return alpha;
        }
        if v <= a {
            ctx.cutoff();
            return alpha;
        }
        if v >= b {
            ctx.cutoff();
            return beta;
        }
        sum += p * v;
    }
    sum
}
