//! MTD(f) (Plaat, Schaeffer, Pijls, de Bruin 1996): the value is found by a series of minimal-window searches, each
//! a *memory-enhanced test* MT that stores its bounds in the transposition table, so that the next pass re-reads
//! instead of re-searching. The first guess comes from the previous iteration of iterative deepening (which MTD(f)
//! always runs: depth 1, 2, ..., d; the first iteration starts from 0).
//!
//! ```text
//! MTDF(s, depth, f):                          MT(s, depth, γ):          -- window (γ - 1, γ), fail-soft
//!     g := f; lower := -∞; upper := +∞            if TT has s at this depth with a bound that decides: return it
//!     repeat                                      if s is terminal or depth = 0: store and return value(s)
//!         β := g + 1 if g = lower else g          g := -∞
//!         g := MT(s, depth, β)                    for each move m (the TT's best move first):
//!         if g < β: upper := g                        g := max(g, -MT(play(s, m), depth - 1, -γ + 1))
//!         else:     lower := g                        if g >= γ: break                -- cut-off
//!     until lower >= upper                        store g in TT: lower bound if g >= γ, else upper bound
//!     return g                                    return g
//! ```
//!
//! Engineering: the table is the shared [`TranspositionTable`] (parameter `tt=16mb`). An entry is used for a cut-off
//! only when its draft equals the remaining depth, so that the value is exactly the fixed-depth minimax value that
//! the other algorithms compute (a deeper entry reached by a transposition would give a different, deeper value).
//! Passes after the first count as re-searches; the best move is the one of the last pass that failed high.

use crate::game::{FullGame, GameError, MoveList};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::search::tt::{Bound, TranspositionTable, from_tt};
use crate::spec::Spec;

/// Default table size in MiB.
pub(crate) const DEFAULT_TT_MIB: usize = 16;

/// MTD(f) with its transposition table.
pub(crate) struct Mtdf<G: FullGame> {
    pub tt: TranspositionTable<G::Move>,
    mib: usize,
    guess: i32,
}

impl<G: FullGame> Mtdf<G> {
    pub fn new(mib: usize) -> Self {
        Mtdf { tt: TranspositionTable::new(mib), mib, guess: 0 }
    }
}

/// Read `tt=SIZE` (MiB).
pub(crate) fn tt_param(spec: &Spec) -> Result<usize, GameError> {
    spec.mib("tt", DEFAULT_TT_MIB)
}

impl<G: FullGame> Algorithm<G> for Mtdf<G> {
    const NAME: &'static str = "mtdf";
    const ITERATIVE: bool = true;
    fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        Ok(Mtdf::new(tt_param(spec)?))
    }
    fn params(&self) -> Vec<String> {
        if self.mib == DEFAULT_TT_MIB { Vec::new() } else { vec![format!("tt={}mb", self.mib)] }
    }
    fn new_search(&mut self) {
        self.tt.new_search();
        self.guess = 0;
    }
    fn new_game(&mut self) {
        self.tt.clear();
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut g = self.guess;
        let mut first = true;
        ctx.pv.set_root(None);
        ctx.pv.save_root_move();
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            if !first {
                ctx.research();
            }
            first = false;
            g = mt(ctx, &mut self.tt, state, depth, beta, 0, true);
            if ctx.stopped {
                break;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
                ctx.pv.save_root_move();
            }
        }
        ctx.pv.restore_root();
        self.guess = g;
        g
    }
}

/// MT: a fail-soft minimal-window search with the window `(gamma - 1, gamma)` and memory. The result `g` is a lower
/// bound of the value when `g >= gamma`, an upper bound when `g < gamma`. With `reorder`, the table's best move is
/// tried first (MTD(f)); without, moves keep the game's order (MT-SSS*, to stay equivalent to SSS*).
pub fn mt<G: FullGame, T: Tracer<G>>(
    ctx: &mut Ctx<'_, G, T>,
    tt: &mut TranspositionTable<G::Move>,
    s: &G::State,
    depth: u32,
    gamma: i32,
    ply: u32,
    reorder: bool,
) -> i32 {
    ctx.enter(s, ply, gamma - 1, gamma);
    let key = ctx.game.key(s);
    if depth == 0 || ctx.stopped || ctx.game.is_terminal(s) {
        // Leaves are stored too (as in Plaat's MT), so that a later pass reads them instead of scoring them again.
        ctx.stats.tt_probes += 1;
        if let Some(e) = tt.probe(key) {
            ctx.stats.tt_hits += 1;
            if e.draft as i64 == depth as i64 && e.bound == Bound::Exact {
                ctx.horizon |= depth == 0; // what the stored leaf saw: keep deepening
                return ctx.exit(from_tt(e.value, ply));
            }
        }
        if let Some(v) = ctx.leaf(s, depth, ply) {
            if !ctx.stopped {
                tt.store(key, depth as i32, v, Bound::Exact, None, ply);
            }
            return v;
        }
    }
    ctx.stats.tt_probes += 1;
    let mut tt_move = None;
    if let Some(e) = tt.probe(key) {
        ctx.stats.tt_hits += 1;
        tt_move = e.mv;
        if e.draft as i64 == depth as i64 {
            let v = from_tt(e.value, ply);
            let decides = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= gamma,
                Bound::Upper => v < gamma,
            };
            if decides {
                ctx.horizon = true; // the stored subtree may have met the horizon: keep deepening
                if v >= gamma {
                    ctx.pv.set_line(ply as usize, e.mv);
                }
                return ctx.exit(v);
            }
        }
    }
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    if reorder
        && let Some(tm) = tt_move
        && let Some(i) = moves.iter().position(|&m| m == tm)
    {
        moves[..=i].rotate_right(1);
    }
    let mut g = -INFINITY;
    let mut best = None;
    for &m in &moves {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let v = -mt(ctx, tt, &child, depth - 1, -gamma + 1, ply + 1, reorder);
        if ctx.stopped {
            return ctx.exit(g);
        }
        if v > g {
            g = v;
            best = Some(m);
            ctx.pv.update(ply as usize, m);
        }
        if g >= gamma {
            ctx.cutoff();
            break;
        }
    }
    tt.store(key, depth as i32, g, if g >= gamma { Bound::Lower } else { Bound::Upper }, best, ply);
    ctx.exit(g)
}
