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
//!
//! Parameter `tt=SIZE` (`pvs(time=1000ms,tt=64mb)`): a transposition table used for move ordering only (the best move
//! found at a position is tried first when the position comes again, in this iteration or the next). Values are never
//! taken from it, so the value is PVS's exactly; without `tt=` there is no table and the counts are the course's.

use crate::game::{FullGame, GameError, MoveList};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::search::tt::{Bound, TranspositionTable};
use crate::spec::Spec;

/// Principal Variation Search, with an optional move-ordering table.
pub(crate) struct Pvs<G: FullGame> {
    tt: Option<(TranspositionTable<G::Move>, usize)>,
}

impl<G: FullGame> Algorithm<G> for Pvs<G> {
    const NAME: &'static str = "pvs";
    fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        // `tt=0` (the default): no table.
        let mib = spec.mib("tt", 0)?;
        Ok(Pvs { tt: (mib > 0).then(|| (TranspositionTable::new(mib), mib)) })
    }
    fn params(&self) -> Vec<String> {
        self.tt.iter().map(|(_, mib)| format!("tt={mib}mb")).collect()
    }
    fn new_search(&mut self) {
        if let Some((tt, _)) = &mut self.tt {
            tt.new_search();
        }
    }
    fn new_game(&mut self) {
        if let Some((tt, _)) = &mut self.tt {
            tt.clear();
        }
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        let mut tt = self.tt.as_mut().map(|(t, _)| t);
        pvs(ctx, &mut tt, state, depth, -INFINITY, INFINITY, 0)
    }
}

/// PVS of `s` with the window `(alpha, beta)`.
pub fn pvs<G: FullGame, T: Tracer<G>>(
    ctx: &mut Ctx<'_, G, T>,
    tt: &mut Option<&mut TranspositionTable<G::Move>>,
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
    // The table's move first (ordering only).
    let key = if tt.is_some() { ctx.game.key(s) } else { 0 };
    if let Some(best) = tt.as_ref().and_then(|t| t.probe(key)).and_then(|e| e.mv)
        && let Some(i) = moves.iter().position(|&m| m == best)
    {
        moves[..=i].rotate_right(1);
    }
    let alpha0 = alpha;
    let mut best = None;
    for (i, &m) in moves.iter().enumerate() {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let mut v;
        if i == 0 {
            v = -pvs(ctx, tt, &child, depth - 1, -beta, -alpha, ply + 1);
        } else {
            v = -pvs(ctx, tt, &child, depth - 1, -alpha - 1, -alpha, ply + 1);
            if v > alpha && v < beta && !ctx.stopped {
                ctx.research();
                v = -pvs(ctx, tt, &child, depth - 1, -beta, -alpha, ply + 1);
            }
        }
        if ctx.stopped {
            return ctx.exit(alpha);
        }
        if v >= beta {
            ctx.pv.update(ply as usize, m);
            if let Some(t) = tt {
                t.store(key, depth as i32, beta, Bound::Lower, Some(m), ply);
            }
            ctx.cutoff();
            return ctx.exit(beta);
        }
        if v > alpha {
            alpha = v;
            best = Some(m);
            ctx.pv.update(ply as usize, m);
        }
    }
    if let Some(t) = tt {
        let bound = if alpha > alpha0 { Bound::Exact } else { Bound::Upper };
        t.store(key, depth as i32, alpha, bound, best, ply);
    }
    ctx.exit(alpha)
}
