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
//! when the limits are a time or a node budget rather than a depth.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::{Evaluator, Game, GameError, MoveList, outcome_score};
use crate::search::{Deadline, INFINITY, Limits, SearchResult, Searcher, Stats};
use crate::spec::Spec;

/// Default depth when no limit is given.
pub const DEFAULT_DEPTH: u32 = 4;

/// Fixed-depth (or iteratively deepened) fail-hard alpha-beta with the game's default evaluation.
pub struct AlphaBeta<G: Game> {
    pub limits: Limits,
    eval: G::Eval,
    stop: Option<Arc<AtomicBool>>,
}

impl<G: Game> AlphaBeta<G> {
    pub fn new(limits: Limits) -> Self {
        AlphaBeta { limits, eval: G::Eval::default(), stop: None }
    }
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        Ok(Self::new(Limits::from_spec(spec)?))
    }
}

struct Ctx<'a, G: Game> {
    game: &'a G,
    eval: &'a G::Eval,
    stats: Stats,
    deadline: Deadline,
    stopped: bool,
    /// Set by another thread to stop the search (checked with the deadline).
    stop: Option<&'a AtomicBool>,
    /// pv[ply] holds the best line found from `ply`.
    pv: Vec<Vec<G::Move>>,
}

impl<G: Game> Ctx<'_, G> {
    fn alphabeta(&mut self, s: &G::State, depth: u32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.stats.nodes += 1;
        self.pv[ply].clear();
        if self.deadline.expired(self.stats.nodes) {
            self.stopped = true;
        }
        if self.stats.nodes & 255 == 0
            && let Some(flag) = self.stop
            && flag.load(Ordering::Relaxed)
        {
            self.stopped = true;
        }
        if let Some(o) = self.game.outcome(s) {
            self.stats.leaves += 1;
            return outcome_score(o, ply as u32);
        }
        if depth == 0 || self.stopped {
            self.stats.leaves += 1;
            return self.eval.evaluate(self.game, s);
        }
        let mut moves = MoveList::new();
        self.game.generate_moves(s, &mut moves);
        for &m in &moves {
            let mut child = *s;
            self.game.play(&mut child, m);
            let v = -self.alphabeta(&child, depth - 1, -beta, -alpha, ply + 1);
            if self.stopped {
                return alpha;
            }
            if v >= beta {
                self.stats.cutoffs += 1;
                return beta;
            }
            if v > alpha {
                alpha = v;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(m);
                head[ply].extend_from_slice(&tail[0]);
            }
        }
        alpha
    }
}

/// Run one fail-hard alpha-beta to `depth` and return (value, pv, stats). Exposed for tests and other drivers.
pub fn search_depth<G: Game>(game: &G, eval: &G::Eval, state: &G::State, depth: u32) -> (i32, Vec<G::Move>, Stats) {
    let mut ctx = Ctx {
        game,
        eval,
        stats: Stats::default(),
        deadline: Deadline::new(&Limits::default()),
        stopped: false,
        stop: None,
        pv: vec![Vec::new(); depth as usize + 2],
    };
    let v = ctx.alphabeta(state, depth, -INFINITY, INFINITY, 0);
    (v, ctx.pv[0].clone(), ctx.stats)
}

impl<G: Game> Searcher<G> for AlphaBeta<G> {
    fn name(&self) -> String {
        let mut p = Vec::new();
        if let Some(d) = self.limits.depth {
            p.push(format!("depth={d}"));
        }
        if let Some(t) = self.limits.time {
            p.push(format!("time={}ms", t.as_millis()));
        }
        if let Some(n) = self.limits.nodes {
            p.push(format!("nodes={n}"));
        }
        if p.is_empty() { "alphabeta".into() } else { format!("alphabeta({})", p.join(",")) }
    }

    fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        let deadline = Deadline::new(&self.limits);
        let timed = self.limits.time.is_some() || self.limits.nodes.is_some();
        let max_depth = self.limits.depth.unwrap_or(if timed { 100 } else { DEFAULT_DEPTH });
        let first_depth = if timed { 1 } else { max_depth };
        let mut ctx = Ctx {
            game,
            eval: &self.eval,
            stats: Stats::default(),
            deadline,
            stopped: false,
            stop: self.stop.as_deref(),
            pv: vec![Vec::new(); max_depth as usize + 2],
        };
        let mut result =
            SearchResult { best_move: None, value: 0, depth: 0, pv: Vec::new(), stats: Stats::default(), seconds: 0.0 };
        let mut moves = MoveList::new();
        game.generate_moves(state, &mut moves);
        result.best_move = moves.first().copied();
        for depth in first_depth..=max_depth {
            let v = ctx.alphabeta(state, depth, -INFINITY, INFINITY, 0);
            if ctx.stopped && depth > first_depth {
                break;
            }
            result.value = v;
            result.depth = depth;
            if let Some(&m) = ctx.pv[0].first() {
                result.best_move = Some(m);
                result.pv = ctx.pv[0].clone();
            }
            if ctx.stopped || !ctx.deadline.may_deepen() || v.abs() >= crate::game::WIN_THRESHOLD {
                break;
            }
        }
        result.stats = ctx.stats;
        result.seconds = ctx.deadline.elapsed();
        result
    }
}
