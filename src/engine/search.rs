//! The search proper: iterative deepening, aspiration windows, principal variation search with a transposition
//! table, null move, late-move reductions and fractional-depth extensions. Depths are in quarter plies.
//!
//! ```text
//! Iterate(root, window):
//!     for d = 1, 2, ...:                                   -- until the depth, node or time limit
//!         if aspiration and d >= 4: (a, b) := (v - δ, v + δ), widened by 4x on each failure
//!         v := Root(root, d, a, b)                         -- the best root move goes first next time
//!
//! PVS(s, depth, α, β):
//!     if depth < 1 ply: return Quiesce(s, α, β)
//!     if s is terminal: return its value (wins and losses by distance from the root)
//!     if the side to move wins at once: return win in 1
//!     TT: a stored bound deep enough decides (outside the principal variation)
//!     threat to lose next move: only the capture of the threatening piece is searched (none: loss in 2)
//!     iir (option): no TT move and depth >= 4 plies => depth -= 1 ply
//!     non-PV node without a threat: e := eval(s); improving := e > eval of the node two plies up (true if unknown)
//!         rfp: depth <= 6 plies and e - 90 * depth >= β => return e            -- reverse futility (static null move)
//!     null move (option): pass, search depth - 1 - R plies with (β-1, β); fail high => return β
//!         R = 3 [+ depth / null_depth_div] [+ min(3, (e - β) / null_eval_div)]
//!     for each move m, in the picker's order:
//!         non-PV, no threat, a quiet non-killer move after the first:
//!             lmp: depth <= 4 plies and more than 4 + depth² quiet moves seen => skip m
//!             futility: depth <= 3 plies and e + 120 * depth <= α => skip m
//!         d' := depth - cost(m)           -- quiet 1 ply, capture 3/4, threat 1/2, forced reply 1/2
//!         first move: v := -PVS(m, d', -β, -α)
//!         others:     v := -PVS(m, d' - reduction, -α-1, -α); re-search without reduction, then with (α, β)
//!                     reduction of a late quiet move: 1 ply after the 3rd, 2 after the 10th; with lmrlog
//!                     0.5 + ln(depth) ln(move number) / 2.25 plies after the 2nd (one ply less at PV nodes,
//!                     improving_lmr_q quarter plies more when not improving)
//!         if v >= β: a quiet m becomes a killer and gains depth² of history, the quiet moves searched before it
//!                    lose history_malus% of that; stop
//!     store (value, bound, depth, best move) in the TT
//! ```
//!
//! The evaluation's carry (an NNUE's accumulators) follows the path: see `carry.rs`.

use std::sync::atomic::AtomicBool;

use arrayvec::ArrayVec;

use crate::game::{
    Evaluator, Forced, FullGame, MAX_MOVES, MOVE_KEYS, MoveClass, MoveList, SearchEval, WIN_SCORE, WIN_THRESHOLD,
    outcome_score,
};
use crate::search::time::stability_pct;
use crate::search::tt::Bound;
use crate::search::{INFINITY, Stats, StopCheck};

use super::ordering::Picker;
use super::params::*;
use super::table::AtomicTable;

/// `Worker::evals` of a node without a static evaluation.
const NO_EVAL: i32 = i32::MIN;

/// What every thread of one search shares.
pub(crate) struct Shared<'a, G: FullGame> {
    pub game: &'a G,
    pub eval: &'a SearchEval<G>,
    pub tt: &'a AtomicTable,
    pub(crate) opts: &'a EngineOptions,
    /// Set from outside (`stop` in a protocol).
    pub stop: &'a AtomicBool,
    /// Set by the main thread when the helpers must stop.
    pub(crate) halt: &'a AtomicBool,
}

/// A root move with the score of the last iteration that searched it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct RootMove<M> {
    pub mv: M,
    pub score: i32,
}

/// The result of an iterative-deepening run.
#[derive(Clone, Debug)]
pub(crate) struct Best<M> {
    pub mv: M,
    pub value: i32,
    /// Last completed iteration, in plies.
    pub depth: u32,
    pub pv: Vec<M>,
}

/// Where a worker sends its progress reports (`report.rs`), and when its search started.
pub(crate) struct Hook<M> {
    pub(crate) reporter: crate::search::Reporter<M>,
    pub start: std::time::Instant,
}

/// One search thread: its statistics, killers, history and principal-variation table.
pub(crate) struct Worker<'a, G: FullGame> {
    pub sh: Shared<'a, G>,
    pub stats: Stats,
    pub(super) killers: Vec<[Option<G::Move>; 2]>,
    pub(super) history: Vec<i32>,
    /// The quiet move that last refuted each move (by move key), for the countermove heuristic.
    pub(super) counters: Vec<Option<G::Move>>,
    /// The move played at each ply on the current path (`None`: the null move).
    path: Vec<Option<G::Move>>,
    /// The static evaluation of the node at each ply on the current path (`NO_EVAL` where none was computed).
    evals: Vec<i32>,
    /// What the evaluation carries to each ply on the current path ([`Evaluator::Carry`]: an NNUE's accumulators):
    /// set at the root, then from the parent's on every move, before the child is searched.
    pub(super) carries: Vec<<SearchEval<G> as Evaluator<G>>::Carry>,
    pv: Vec<ArrayVec<G::Move, MAX_PLY>>,
    /// The deadlines and the node budget of the current phase (counted in `stats.nodes`), and the stop flags
    /// (`Shared::stop`, `Shared::halt`); its soft deadline ends iterative deepening.
    pub limit: StopCheck<'a>,
    pub stopped: bool,
    /// Null move allowed in this phase (off in win probes: passing proves nothing there).
    pub(crate) null_phase: bool,
    /// A root move other than the first completed with a better value in the current iteration.
    best_changed: bool,
    /// Logarithmic late-move reductions in quarter plies, by remaining plies and move number (both below 64).
    lmr_table: Vec<[i32; 64]>,
    /// Deepest ply reached (for progress reports).
    pub seldepth: u32,
    /// Where completed iterations are reported (`None`: nowhere), see `report.rs`.
    pub(crate) hook: Option<Hook<G::Move>>,
}

impl<'a, G: FullGame> Worker<'a, G> {
    pub fn new(sh: Shared<'a, G>) -> Self {
        let limit = StopCheck::none().with_flag(Some(sh.stop)).with_flag(Some(sh.halt));
        let lmr_table = sh.opts.params.lmr_table();
        Worker {
            sh,
            stats: Stats::default(),
            killers: vec![[None, None]; MAX_PLY + 1],
            history: vec![0; MOVE_KEYS],
            counters: vec![None; MOVE_KEYS],
            path: vec![None; MAX_PLY + 1],
            evals: vec![NO_EVAL; MAX_PLY + 1],
            carries: vec![Default::default(); MAX_PLY + 1],
            pv: (0..=MAX_PLY).map(|_| ArrayVec::new()).collect(),
            limit,
            stopped: false,
            null_phase: true,
            best_changed: false,
            lmr_table,
            seldepth: 0,
            hook: None,
        }
    }

    /// True when the search must stop (the node budget checked at every node; the clock and the flags every 256
    /// nodes, see [`StopCheck::expired`]).
    #[inline]
    pub(super) fn check_stop(&mut self) -> bool {
        if !self.stopped && self.limit.expired(self.stats.nodes) {
            self.stopped = true;
        }
        self.stopped
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        let room = MAX_PLY - 1;
        head[ply].extend(tail[0].iter().copied().take(room));
    }

    /// Depth cost of a move (quarter plies).
    #[inline]
    fn cost(&self, class: MoveClass, forced_reply: bool) -> i32 {
        if !self.sh.opts.extensions {
            return ONE_PLY;
        }
        let p = &self.sh.opts.params;
        let c = match class {
            MoveClass::Quiet | MoveClass::Win => p.cost_quiet,
            MoveClass::Capture => p.cost_capture,
            MoveClass::Threat => p.cost_threat,
        };
        if forced_reply { c.min(p.cost_forced) } else { c }
    }

    /// Principal variation search of a non-root node.
    pub(super) fn pvs(
        &mut self,
        s: &G::State,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if let Some(v) = self.probe_db(s, ply) {
            return v;
        }
        if let Some(v) = self.probe_endgame(s, ply) {
            return v;
        }
        if depth < ONE_PLY {
            return self.quiesce(s, alpha, beta, ply);
        }
        self.stats.nodes += 1;
        if self.check_stop() {
            return 0;
        }
        let g = self.sh.game;
        if let Some(o) = g.outcome(s) {
            self.stats.leaves += 1;
            return outcome_score(o, ply as u32);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(s, ply);
        }
        let opts = self.sh.opts;
        let pv_node = beta - alpha > 1;
        let mut threat = Forced::Free;
        if opts.tactics {
            if g.has_winning_move(s) {
                self.stats.leaves += 1;
                return WIN_SCORE - ply as i32 - 1;
            }
            // Mate-distance pruning: nothing here can beat a win found nearer the root.
            alpha = alpha.max(-WIN_SCORE + ply as i32);
            beta = beta.min(WIN_SCORE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            threat = g.forced(s);
            if threat == Forced::Lost {
                self.stats.leaves += 1;
                return -WIN_SCORE + ply as i32 + 2;
            }
        }
        let key = g.key(s);
        let mut tt_move = None;
        if opts.tt_mib > 0 {
            self.stats.tt_probes += 1;
            if let Some(h) = self.sh.tt.probe(key, ply as u32) {
                self.stats.tt_hits += 1;
                tt_move = h.mv;
                if !pv_node && h.draft >= depth {
                    let cut = match h.bound {
                        Bound::Exact => true,
                        Bound::Lower => h.value >= beta,
                        Bound::Upper => h.value <= alpha,
                    };
                    if cut {
                        self.stats.cutoffs += 1;
                        return h.value;
                    }
                }
            }
        }
        let mut depth = depth;
        if opts.iir && tt_move.is_none() && opts.tt_mib > 0 && depth >= opts.params.iir_depth * ONE_PLY {
            depth -= ONE_PLY;
        }
        // The static evaluation, for the pruning decisions of non-PV nodes without a threat to answer.
        let static_eval = if !pv_node && threat == Forced::Free && (opts.rfp || opts.futility || opts.null) {
            Some(self.static_eval(s, ply))
        } else {
            None
        };
        // Reverse futility pruning: far enough above beta near the horizon, assume a quiet move keeps it.
        self.evals[ply] = static_eval.unwrap_or(NO_EVAL);
        // Improving: the static evaluation is above the one of the same side two plies before (true when unknown).
        let improving = match static_eval {
            Some(e) if ply >= 2 && self.evals[ply - 2] != NO_EVAL => e > self.evals[ply - 2],
            _ => true,
        };
        if opts.rfp
            && let Some(e) = static_eval
            && depth <= opts.params.rfp_depth * ONE_PLY
            && beta.abs() < WIN_THRESHOLD
            && e - opts.params.rfp_margin * depth / ONE_PLY >= beta
        {
            self.stats.cutoffs += 1;
            return e;
        }
        if opts.null
            && self.null_phase
            && null_ok
            && !pv_node
            && threat == Forced::Free
            && depth >= 2 * ONE_PLY
            && beta.abs() < WIN_THRESHOLD
            && let Some(ns) = g.null_move(s)
            && static_eval.is_some_and(|e| e >= beta)
            // Never pass into a win in 1 for the opponent (with the tactics on, `threat` already says so; without
            // them a shallow null search would not see the win and the pass would look safe).
            && (opts.tactics || !g.has_winning_move(&ns))
        {
            let p = &opts.params;
            let mut r = p.null_reduction;
            if p.null_depth_div > 0 {
                r += depth / ONE_PLY / p.null_depth_div;
            }
            if p.null_eval_div > 0 {
                r += static_eval.map_or(0, |e| ((e - beta) / p.null_eval_div).min(3));
            }
            self.path[ply] = None;
            self.sh.eval.carry(g, &ns, &mut self.carries[ply + 1]);
            let v = -self.pvs(&ns, depth - ONE_PLY - r * ONE_PLY, -beta, -beta + 1, ply + 1, false);
            if self.stopped {
                return 0;
            }
            if v >= beta {
                self.stats.cutoffs += 1;
                return beta;
            }
        }

        let mut moves = MoveList::new();
        g.generate_moves(s, &mut moves);
        let k = if opts.killers { self.killers[ply] } else { [None, None] };
        let prev = if opts.counter && ply > 0 { self.path[ply - 1] } else { None };
        let counter = prev.and_then(|p| self.counters[g.move_key(p)]);
        let killers = [k[0], k[1], counter];
        let history = if opts.history { Some(&self.history[..]) } else { None };
        let mut picker = Picker::new(g, s, &moves, tt_move, killers, history);
        let orig_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_idx = None;
        let mut searched = 0usize;
        let mut quiets = 0usize;
        // Quiet moves searched so far (they lose history when a later quiet move cuts off).
        let mut tried: ArrayVec<G::Move, MAX_MOVES> = ArrayVec::new();
        let forced_reply = threat != Forced::Free;
        while let Some((idx, m)) = picker.pick() {
            if let Forced::Defend(target) = threat
                && !g.defends(m, target)
            {
                continue;
            }
            let class = g.move_class(s, m);
            let quiet = class == MoveClass::Quiet && !killers.contains(&Some(m));
            if quiet && searched > 0 && best > -WIN_THRESHOLD && static_eval.is_some() {
                // Near the horizon at a non-PV node: late quiet moves (move count) and hopeless ones (futility).
                quiets += 1;
                let plies = depth / ONE_PLY;
                if opts.lmp
                    && depth <= opts.params.lmp_depth * ONE_PLY
                    && quiets > (opts.params.lmp_base + plies * plies) as usize
                {
                    continue;
                }
                if opts.futility
                    && depth <= opts.params.futility_depth * ONE_PLY
                    && static_eval.is_some_and(|e| e + opts.params.futility_margin * depth / ONE_PLY <= alpha)
                {
                    continue;
                }
            }
            let nd = depth - self.cost(class, forced_reply);
            let mut child = *s;
            g.play(&mut child, m);
            if nd >= ONE_PLY {
                // The child will probe the table: its bucket loads while the evaluation's carry is updated.
                self.sh.tt.prefetch(g.key(&child));
            }
            self.carry_move(s, m, ply);
            self.path[ply] = Some(m);
            let v = if searched == 0 {
                -self.pvs(&child, nd, -beta, -alpha, ply + 1, true)
            } else {
                let mut red = 0;
                if opts.lmr && opts.lmr_log {
                    if quiet && !forced_reply && searched >= 2 && depth >= opts.params.lmr_min_depth * ONE_PLY {
                        let r = self.lmr_table[(depth / ONE_PLY).min(63) as usize][searched.min(63)];
                        let r = if pv_node { r - ONE_PLY } else { r };
                        let r = if improving { r } else { r + opts.params.improving_lmr_q };
                        red = r.clamp(0, (nd - ONE_PLY).max(0));
                    }
                } else if opts.lmr
                    && quiet
                    && !forced_reply
                    && searched >= opts.params.lmr_after as usize
                    && depth >= opts.params.lmr_min_depth * ONE_PLY
                {
                    red = if searched >= opts.params.lmr_late as usize { 2 * ONE_PLY } else { ONE_PLY };
                }
                let mut x = -self.pvs(&child, nd - red, -alpha - 1, -alpha, ply + 1, true);
                if x > alpha && red > 0 && !self.stopped {
                    x = -self.pvs(&child, nd, -alpha - 1, -alpha, ply + 1, true);
                }
                if x > alpha && x < beta && !self.stopped {
                    self.stats.researches += 1;
                    x = -self.pvs(&child, nd, -beta, -alpha, ply + 1, true);
                }
                x
            };
            if self.stopped {
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                best_idx = Some(idx);
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, m);
                    if v >= beta {
                        self.stats.cutoffs += 1;
                        if class == MoveClass::Quiet {
                            self.reward(m, &tried, ply, depth, prev);
                        }
                        break;
                    }
                }
            }
            if class == MoveClass::Quiet {
                tried.push(m);
            }
        }
        if searched == 0 {
            // Only when a forced capture could not be played (never with correct tactics): the threat wins.
            return -WIN_SCORE + ply as i32 + 2;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.sh.tt.store(key, ply as u32, depth, best, bound, best_idx);
        best
    }

    /// Search the root moves to `depth` with the window (alpha, beta); the best move is moved to the front.
    pub fn root(
        &mut self,
        s: &G::State,
        roots: &mut [RootMove<G::Move>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let g = self.sh.game;
        self.stats.nodes += 1;
        self.pv[0].clear();
        self.best_changed = false;
        let threat = if self.sh.opts.tactics { g.forced(s) } else { Forced::Free };
        self.carry_root(s);
        let mut best = -INFINITY;
        let mut best_i = 0;
        for (i, root) in roots.iter_mut().enumerate() {
            let m = root.mv;
            let class = g.move_class(s, m);
            let nd = depth - self.cost(class, threat != Forced::Free);
            let mut child = *s;
            g.play(&mut child, m);
            self.carry_move(s, m, 0);
            self.path[0] = Some(m);
            let v = if i == 0 {
                -self.pvs(&child, nd, -beta, -alpha, 1, true)
            } else {
                let mut x = -self.pvs(&child, nd, -alpha - 1, -alpha, 1, true);
                if x > alpha && x < beta && !self.stopped {
                    self.stats.researches += 1;
                    x = -self.pvs(&child, nd, -beta, -alpha, 1, true);
                }
                x
            };
            if self.stopped {
                break;
            }
            root.score = v;
            if v > best {
                best = v;
                if v > alpha {
                    best_i = i;
                    alpha = v;
                    self.update_pv(0, m);
                    if i > 0 {
                        self.best_changed = true;
                    }
                    if v >= beta {
                        self.stats.cutoffs += 1;
                        break;
                    }
                }
            }
        }
        roots[..=best_i].rotate_right(1);
        best
    }

    /// The current principal variation from the root.
    pub(crate) fn root_pv(&self) -> Vec<G::Move> {
        self.pv[0].to_vec()
    }

    /// Iterative deepening from `start` to `max_depth` plies. With `window`, every iteration uses that fixed window
    /// (the win/not-win probe) and the run ends as soon as the value reaches its top; otherwise aspiration windows
    /// around the previous value. No iteration starts after the soft deadline of `self.limit`. `None` when not even the
    /// first iteration finished.
    pub(crate) fn iterate(
        &mut self,
        s: &G::State,
        roots: &mut [RootMove<G::Move>],
        start: u32,
        max_depth: u32,
        window: Option<(i32, i32)>,
    ) -> Option<Best<G::Move>> {
        let mut best: Option<Best<G::Move>> = None;
        let mut prev = 0;
        // Completed iterations the best move has not changed (a clock's soft limit scales with it).
        let mut stable = 0;
        for d in start.max(1)..=max_depth {
            let depth = d as i32 * ONE_PLY;
            // A node budget never cuts the main search's first iteration (the move played has been searched:
            // `engine(nodes=1)` searches depth 1); the clock and the stop flags still do.
            let budget = self.limit.nodes.take_if(|_| d == 1 && window.is_none());
            let v = match window {
                Some((a, b)) => self.root(s, roots, depth, a, b),
                None => self.aspiration(s, roots, depth, prev, d),
            };
            self.limit.nodes = self.limit.nodes.or(budget);
            if self.stopped {
                if self.best_changed {
                    // A later move proved better before time ran out: trust it.
                    let depth = best.as_ref().map_or(0, |b| b.depth);
                    best = Some(Best { mv: roots[0].mv, value: v.max(roots[0].score), depth, pv: self.root_pv() });
                }
                break;
            }
            prev = v;
            stable = if best.as_ref().is_some_and(|b| b.mv == roots[0].mv) { stable + 1 } else { 0 };
            best = Some(Best { mv: roots[0].mv, value: v, depth: d, pv: self.root_pv() });
            self.report(&best);
            if let Some((_, b)) = window {
                if v >= b {
                    break;
                }
            } else if v.abs() >= WIN_THRESHOLD {
                break;
            }
            if !self.limit.may_deepen_scaled(stability_pct(stable)) {
                break;
            }
        }
        best
    }

    fn aspiration(&mut self, s: &G::State, roots: &mut [RootMove<G::Move>], depth: i32, prev: i32, d: u32) -> i32 {
        if !self.sh.opts.aspiration || d < 4 || prev.abs() >= WIN_THRESHOLD {
            return self.root(s, roots, depth, -INFINITY, INFINITY);
        }
        let mut delta = self.sh.opts.params.asp_delta;
        let (mut a, mut b) = (prev - delta, prev + delta);
        loop {
            let v = self.root(s, roots, depth, a, b);
            if self.stopped {
                return v;
            }
            if v <= a {
                self.stats.researches += 1;
                delta *= self.sh.opts.params.asp_growth;
                a = if delta > 4000 { -INFINITY } else { (v - delta).max(-INFINITY) };
            } else if v >= b {
                self.stats.researches += 1;
                delta *= self.sh.opts.params.asp_growth;
                b = if delta > 4000 { INFINITY } else { (v + delta).min(INFINITY) };
            } else {
                return v;
            }
        }
    }
}
