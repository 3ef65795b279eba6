//! Star2 (Ballard 1983): Star1 with a *probing phase* at chance nodes. Before searching any outcome fully, one move of
//! each outcome's position is searched: a player's value is at least the value of any one of its moves, so the probe
//! bounds the outcome from one side, and those bounds replace `L` or `U` in Star1's windows; often the probes alone
//! decide the node. With good move ordering (the table's best move probed first) this is where Star2 gains.
//!
//! ```text
//! Star2(s, depth, α, β):                                     -- fail-hard, side to move's view
//!     if s is terminal or depth = 0: return value(s)
//!     if the table decides (α, β) for s at this depth: return its value
//!     if chance acts in s:
//!         lo_i := L; hi_i := U for each outcome o_i           -- what is known of each outcome's value (s's view)
//!         -- probing phase
//!         for each outcome o_i, probability p_i, whose position c is a player's with depth - 1 > 0:
//!             x := the value of c's first move (the table's), searched to depth - 2: then value(c) ≥ x
//!             same player in s and c: lo_i := x;  if Σ p_j · lo_j ≥ β: return β
//!             the other player:       hi_i := -x; if Σ p_j · hi_j ≤ α: return α
//!             (the probe's window only asks whether x reaches the bound that would cut)
//!         -- search phase: Star1 with lo_j, hi_j for the outcomes not searched yet instead of L, U
//!         S := 0
//!         for each outcome o_i:
//!             A := (α - S - Σ_{j>i} p_j · hi_j) / p_i;  B := (β - S - Σ_{j>i} p_j · lo_j) / p_i
//!             v_i := sign · Star2(s·o_i, depth - 1, max(A, lo_i), min(B, hi_i))
//!             if v_i ≤ A: return α;  if v_i ≥ B: return β
//!             S := S + p_i · v_i
//!         return S
//!     alpha-beta over the moves, the table's best move first (as Star1)
//!     store the result in the table
//! ```
//!
//! The table (`tt=16mb`; none by default, so that `compare` shows Ballard's algorithm alone) is the interval table of
//! `search/chance.rs`: its values are used at the same depth and ply only, so the value stays exactly expectimax's.
//! Star2 with a table under iterative deepening is the engine of chance games (`engine` on a game with chance).

use crate::game::{ChanceList, FullGame, GameError, MAX_MOVES, MoveList};
use crate::search::catalogue::Algorithm;
use crate::search::chance::{ChanceTable, child_window, is_chance, score, sign};
use crate::search::ctx::Ctx;
use crate::search::trace::Tracer;
use crate::spec::Spec;

/// Ballard's Star2, with an optional table.
pub struct Star2<G: FullGame> {
    pub tt: Option<ChanceTable<G::Move>>,
    mib: usize,
}

impl<G: FullGame> Star2<G> {
    /// Star2 with a table of `mib` MiB (0: none).
    pub fn new(mib: usize) -> Self {
        Star2 { tt: (mib > 0).then(|| ChanceTable::new(mib)), mib }
    }
}

impl<G: FullGame> Algorithm<G> for Star2<G> {
    const NAME: &'static str = "star2";
    fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        Ok(Star2::new(spec.mib("tt", 0)?))
    }
    fn params(&self) -> Vec<String> {
        if self.mib == 0 { Vec::new() } else { vec![format!("tt={}mb", self.mib)] }
    }
    fn new_game(&mut self) {
        if let Some(t) = &mut self.tt {
            t.clear();
        }
    }
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32 {
        let u = ctx.game.value_bound() as f64;
        score(star2(ctx, &mut self.tt, state, depth, -u, u, 0, u))
    }
}

/// The Star2 value of `s` to `depth` in the window `(alpha, beta)` (fail-hard), every value lying in `[-u, u]`.
#[allow(clippy::too_many_arguments)]
pub fn star2<G: FullGame, T: Tracer<G>>(
    ctx: &mut Ctx<'_, G, T>,
    tt: &mut Option<ChanceTable<G::Move>>,
    s: &G::State,
    depth: u32,
    alpha: f64,
    beta: f64,
    ply: u32,
    u: f64,
) -> f64 {
    ctx.enter(s, ply, score(alpha), score(beta));
    if let Some(v) = ctx.leaf(s, depth, ply) {
        return v as f64;
    }
    let mut best = None;
    if let Some(t) = tt {
        ctx.stats.tt_probes += 1;
        if let Some(e) = t.probe(ctx.game.key(s)) {
            ctx.stats.tt_hits += 1;
            if let Some(v) = e.cut(depth, ply, alpha, beta) {
                if let Some(m) = e.mv {
                    ctx.pv.set_line(ply as usize, Some(m));
                }
                ctx.exit(score(v));
                return v;
            }
            best = e.mv;
        }
    }
    let v = if is_chance(ctx.game, s) {
        chance_node(ctx, tt, s, depth, alpha, beta, ply, u)
    } else {
        player_node(ctx, tt, s, depth, alpha, beta, ply, u, &mut best)
    };
    if let Some(t) = tt
        && !ctx.stopped
    {
        t.store(ctx.game.key(s), depth, ply, (alpha, beta), v, best);
    }
    ctx.exit(score(v));
    v
}

/// Alpha-beta at a player's node, the table's move `best` first; `best` becomes the node's best move.
#[allow(clippy::too_many_arguments)]
fn player_node<G: FullGame, T: Tracer<G>>(
    ctx: &mut Ctx<'_, G, T>,
    tt: &mut Option<ChanceTable<G::Move>>,
    s: &G::State,
    depth: u32,
    mut alpha: f64,
    beta: f64,
    ply: u32,
    u: f64,
    best: &mut Option<G::Move>,
) -> f64 {
    let mut moves = MoveList::new();
    ctx.game.generate_moves(s, &mut moves);
    first_move(&mut moves, *best);
    for &m in &moves {
        let mut child = *s;
        ctx.game.play(&mut child, m);
        let sg = sign(ctx.game, s, &child);
        let (a, b) = child_window(sg, alpha, beta);
        let v = sg * star2(ctx, tt, &child, depth - 1, a, b, ply + 1, u);
        if ctx.stopped {
            break;
        }
        if v >= beta {
            *best = Some(m);
            ctx.pv.update(ply as usize, m);
            ctx.cutoff();
            return beta;
        }
        if v > alpha {
            alpha = v;
            *best = Some(m);
            ctx.pv.update(ply as usize, m);
        }
    }
    alpha
}

/// Put `first` (if legal) at the front of `moves`.
fn first_move<M: Copy + PartialEq>(moves: &mut MoveList<M>, first: Option<M>) {
    if let Some(f) = first
        && let Some(i) = moves.iter().position(|&m| m == f)
    {
        moves[..=i].rotate_right(1);
    }
}

/// A chance node: the probing phase, then Star1's search with the probed bounds.
#[allow(clippy::too_many_arguments)]
fn chance_node<G: FullGame, T: Tracer<G>>(
    ctx: &mut Ctx<'_, G, T>,
    tt: &mut Option<ChanceTable<G::Move>>,
    s: &G::State,
    depth: u32,
    alpha: f64,
    beta: f64,
    ply: u32,
    u: f64,
) -> f64 {
    let mut outcomes = ChanceList::new();
    ctx.game.chance_outcomes(s, &mut outcomes);
    let n = outcomes.len();
    let (mut lo, mut hi) = ([-u; MAX_MOVES], [u; MAX_MOVES]);
    // Probing phase.
    let total: f64 = outcomes.iter().map(|o| o.1).sum();
    let (mut sum_lo, mut sum_hi) = (-u * total, u * total);
    for (i, &(o, p)) in outcomes.iter().enumerate() {
        let mut c = *s;
        ctx.game.play(&mut c, o);
        if p <= 0.0 || depth < 2 || ctx.game.is_terminal(&c) || is_chance(ctx.game, &c) {
            continue;
        }
        let sg = sign(ctx.game, s, &c);
        // In c's view: its value lies in [clo, chi]; the node is cut once the probe reaches t.
        let (clo, chi, t) = if sg > 0.0 {
            (lo[i], hi[i], (beta - (sum_lo - p * lo[i])) / p)
        } else {
            (-hi[i], -lo[i], ((sum_hi - p * hi[i]) - alpha) / p)
        };
        let x = probe(ctx, tt, &c, depth - 1, clo, t.min(chi), ply + 1, u);
        if ctx.stopped {
            return alpha;
        }
        if x >= t {
            ctx.cutoff();
            return if sg > 0.0 { beta } else { alpha };
        }
        if x > clo {
            if sg > 0.0 {
                sum_lo += p * (x - lo[i]);
                lo[i] = x;
            } else {
                sum_hi += p * (-x - hi[i]);
                hi[i] = -x;
            }
        }
    }
    // Search phase: after outcome i, the others lie in Σ_{j>i} p_j [lo_j, hi_j].
    let (mut rest_lo, mut rest_hi) = ([0.0; MAX_MOVES], [0.0; MAX_MOVES]);
    let (mut acc_lo, mut acc_hi) = (0.0, 0.0);
    for i in (0..n).rev() {
        rest_lo[i] = acc_lo;
        rest_hi[i] = acc_hi;
        acc_lo += outcomes[i].1 * lo[i];
        acc_hi += outcomes[i].1 * hi[i];
    }
    let mut sum = 0.0;
    for (i, &(o, p)) in outcomes.iter().enumerate() {
        if p <= 0.0 {
            continue;
        }
        let a = (alpha - sum - rest_hi[i]) / p;
        let b = (beta - sum - rest_lo[i]) / p;
        if hi[i] <= a {
            ctx.cutoff();
            return alpha;
        }
        if lo[i] >= b {
            ctx.cutoff();
            return beta;
        }
        let mut child = *s;
        ctx.game.play(&mut child, o);
        let sg = sign(ctx.game, s, &child);
        let (ca, cb) = child_window(sg, a.max(lo[i]), b.min(hi[i]));
        let v = sg * star2(ctx, tt, &child, depth - 1, ca, cb, ply + 1, u);
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

/// The probe of a player's position `c` (not terminal, `depth >= 1`): the value of its first move (the table's best
/// move first) searched in the window `(alpha, beta)` of `c`'s view. A value above `alpha` is a lower bound of `c`.
#[allow(clippy::too_many_arguments)]
fn probe<G: FullGame, T: Tracer<G>>(
    ctx: &mut Ctx<'_, G, T>,
    tt: &mut Option<ChanceTable<G::Move>>,
    c: &G::State,
    depth: u32,
    alpha: f64,
    beta: f64,
    ply: u32,
    u: f64,
) -> f64 {
    ctx.enter(c, ply, score(alpha), score(beta));
    let mut moves = MoveList::new();
    ctx.game.generate_moves(c, &mut moves);
    let first = tt.as_ref().and_then(|t| t.probe(ctx.game.key(c))).and_then(|e| e.mv);
    first_move(&mut moves, first);
    let Some(&m) = moves.first() else {
        ctx.exit(score(alpha));
        return alpha;
    };
    let mut g = *c;
    ctx.game.play(&mut g, m);
    let sg = sign(ctx.game, c, &g);
    let (a, b) = child_window(sg, alpha, beta);
    let x = sg * star2(ctx, tt, &g, depth - 1, a, b, ply + 1, u);
    ctx.exit(score(x));
    x
}
