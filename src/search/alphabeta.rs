//! Alpha-beta, fail-hard, in negamax form.
//!
//! ```text
//! AlphaBeta(s, depth, α, β):
//!     if s is terminal or depth = 0: return value(s)
//!     for each move m of s:
//!         v := -AlphaBeta(play(s, m), depth - 1, -β, -α)
//!         if v >= β: return β              -- cut-off (fail-hard: the bound, not v)
//!         if v > α: α := v
//!     return α
//! ```
//!
//! Engineering around the pseudo-code: a principal variation collected in a triangular table, and iterative deepening
//! when the limits are a time or a node budget rather than a depth (the [`Driver`]).

use crate::game::{FullGame, GameError, MoveList, SearchEval};
use crate::search::catalogue::{Algorithm, Driver};
use crate::search::ctx::Ctx;
use crate::search::trace::{NoTrace, Tracer};
use crate::search::{INFINITY, Limits, Stats, StopCheck};
use crate::spec::Spec;

/// The algorithm: fail-hard alpha-beta, negamax form.
pub(crate) struct AlphaBetaNegamax;

impl<G: FullGame> Driver<G, AlphaBetaNegamax> {
    /// The algorithm with the limits `limits`.
    pub fn new(limits: Limits) -> Self {
        Driver::with_algorithm(limits, AlphaBetaNegamax)
    }
}

impl<G: FullGame> Algorithm<G> for AlphaBetaNegamax {
    const NAME: &'static str = "alphabeta";
    fn from_spec(_spec: &Spec) -> Result<Self, GameError> {
        Ok(AlphaBetaNegamax)
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        alphabeta(ctx, state, depth, -INFINITY, INFINITY, 0)
    }
}

/// Fail-hard alpha-beta: the result is clamped to `[alpha, beta]`.
pub fn alphabeta<G: FullGame, T: Tracer<G>>(
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
        let v = -alphabeta(ctx, &child, depth - 1, -beta, -alpha, ply + 1);
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

/// Run one fail-hard alpha-beta to `depth` and return (value, pv, stats). Exposed for tests and other drivers.
pub fn search_depth<G: FullGame>(game: &G, eval: &G::Eval, state: &G::State, depth: u32) -> (i32, Vec<G::Move>, Stats) {
    let mut tracer = NoTrace;
    let eval = SearchEval::Game(eval.clone());
    let mut ctx = Ctx::new(game, &eval, StopCheck::none(), depth, &mut tracer);
    let v = alphabeta(&mut ctx, state, depth, -INFINITY, INFINITY, 0);
    (v, ctx.pv.root().to_vec(), ctx.stats)
}
