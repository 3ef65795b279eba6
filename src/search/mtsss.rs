//! MT-SSS* = MTD(+∞) (Plaat et al. 1996): SSS* recast as a series of memory-enhanced tests (see [`mtdf`](super::mtdf))
//! that start from an upper bound of +∞ and lower it pass by pass, each pass refining the best upper-bound
//! solution tree, exactly as Stockman's OPEN list does (the same leaves as [`sss`](super::sss) given a table large enough).
//!
//! ```text
//! MT-SSS*(s, depth):
//!     g := +∞; lower := -∞; upper := +∞
//!     repeat
//!         β := g
//!         g := MT(s, depth, β)          -- window (β - 1, β)
//!         if g < β: upper := g else lower := g
//!     until lower >= upper
//!     return g
//! ```
//!
//! Parameter `tt=16mb` as MTD(f); one search per depth (no iterative deepening unless asked with `id=true`). The
//! moves keep the game's order (no table move first), so that the leaves are those of SSS* on trees without
//! transpositions; leaves are kept in the table, so with a table large enough the leaf count is SSS*'s too.

use crate::game::{FullGame, GameError};
use crate::search::INFINITY;
use crate::search::catalogue::Algorithm;
use crate::search::ctx::Ctx;
use crate::search::mtdf::{DEFAULT_TT_MIB, mt, tt_param};
use crate::search::trace::Tracer;
use crate::search::tt::TranspositionTable;
use crate::spec::Spec;

/// MT-SSS* with its transposition table.
pub(crate) struct MtSss<G: FullGame> {
    pub tt: TranspositionTable<G::Move>,
    mib: usize,
}

impl<G: FullGame> Algorithm<G> for MtSss<G> {
    const NAME: &'static str = "mtsss";
    fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let mib = tt_param(spec)?;
        Ok(MtSss { tt: TranspositionTable::new(mib), mib })
    }
    fn params(&self) -> Vec<String> {
        if self.mib == DEFAULT_TT_MIB { Vec::new() } else { vec![format!("tt={}mb", self.mib)] }
    }
    fn new_search(&mut self) {
        self.tt.new_search();
    }
    fn new_game(&mut self) {
        self.tt.clear();
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut g = INFINITY;
        let mut first = true;
        ctx.pv.set_root(None);
        ctx.pv.save_root_move();
        while lower < upper {
            let beta = g;
            if !first {
                ctx.research();
            }
            first = false;
            g = mt(ctx, &mut self.tt, state, depth, beta, 0, false);
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
        g
    }
}
