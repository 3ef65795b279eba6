//! The df-pn search: depth-first proof-number search (Nagai 2002, negamax form, with the 1+ε trick of Pawlewicz and
//! Lew), new nodes' initial proof and disproof numbers, and the winning moves proposed to the proof checker.
//!
//! ```text
//! (pn, dn) of a node, from its side to move: pn = cost to prove a win, dn = cost to prove a loss.
//! pn = min over children of child.dn        dn = sum over children of child.pn
//! mid(n, thpn, thdn):
//!     expand n (children initialised from the table, or by the knowledge rules, else from h = 8m + 4r,
//!               m = the child's own minus opponent pieces, r = own minus opponent pieces on their pre-pre-goal
//!               rows: (max(1, 16 - h), max(1, 16 + h)); or (1, 1) when Options::material_init is off)
//!     loop:
//!         compute pn, dn; if pn >= thpn or dn >= thdn: break
//!         c1 = child with the smallest dn, dn2 = the second smallest
//!         mid(c1, thdn - dn + c1.pn, min(thpn, dn2 * (1 + ε) + 1))
//!     store (pn, dn) in the table
//! root: mid(root, ∞, ∞)
//! ```
//! The knowledge rules (`rules.rs`) decide a node before it is expanded, and narrow its moves to the captures of a
//! threat; the table is `table.rs`.

use super::rules::Quick;
use super::{HINT_BUDGET, INF, Solver};
use crate::game::{Game, MoveList};
use crate::games::breakthrough::{Breakthrough, BtMove, BtState};

impl Solver<'_> {
    pub(super) fn initial(&self, s: &BtState) -> (u32, u32) {
        self.initial_keyed(s, self.tkey(s))
    }

    /// [`Solver::initial`] with the table key already computed.
    pub(super) fn initial_keyed(&self, s: &BtState, key: u64) -> (u32, u32) {
        if let Some(v) = self.probe(key) {
            return v;
        }
        match self.quick(s, true) {
            Quick::Win(_) | Quick::RaceWin | Quick::RunnerWin | Quick::ThreatWin => (0, INF),
            Quick::Loss(_) | Quick::RaceLoss => (INF, 0),
            Quick::Defend(_) | Quick::Open => self.heuristic(s),
        }
    }

    /// Initial (pn, dn) of a new open node: `(1, 1)`, or with [`super::SolveOptions::material_init`] `h = 8m + 4r` from the
    /// material balance `m` (own minus opponent pieces, side to move's view) and the runner balance `r` (own pieces on
    /// the own pre-pre-goal row minus the opponent's on its own): `(max(1, 16 - h), max(1, 16 + h))`.
    #[inline]
    fn heuristic(&self, s: &BtState) -> (u32, u32) {
        if !self.options.material_init {
            return (1, 1);
        }
        let (own, opp) = Breakthrough::own_opp(s);
        let (mine, theirs) = (self.g.pre_pre_goal_row(s.stm), self.g.pre_pre_goal_row(s.stm.other()));
        let m = own.count_ones() as i32 - opp.count_ones() as i32;
        let r = (own & mine).count_ones() as i32 - (opp & theirs).count_ones() as i32;
        let h = 8 * m + 4 * r;
        ((16 - h).max(1) as u32, (16 + h).max(1) as u32)
    }

    fn report(&mut self) {
        let t = self.start.elapsed().as_secs_f64();
        if self.options.max_seconds.is_some_and(|m| t >= m)
            || self.options.interrupt.is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            self.aborted = true;
        }
        if self.options.progress_seconds > 0 && t - self.last_report >= self.options.progress_seconds as f64 {
            self.last_report = t;
            let used = self.tt.iter().flatten().filter(|e| e.work != 0).count();
            let (won, lost, all) = self.root_kids;
            eprintln!(
                "df-pn: {} nodes, {:.0} s, {:.0} nodes/s, table {:.1}% full; root pn {} dn {}, moves: {} of {} lose, {} win",
                self.nodes,
                t,
                self.nodes as f64 / t.max(1e-9),
                100.0 * used as f64 / (self.tt.len() * 4) as f64,
                self.root_pn_dn.0,
                self.root_pn_dn.1,
                lost,
                all,
                won,
            );
        }
    }

    /// One df-pn call; returns the node's (pn, dn).
    fn mid(&mut self, s: &BtState, key: u64, thpn: u32, thdn: u32) -> (u32, u32) {
        let q = self.quick(s, true);
        match q {
            Quick::Win(_) | Quick::RaceWin | Quick::RunnerWin | Quick::ThreatWin => return (0, INF),
            Quick::Loss(_) | Quick::RaceLoss => return (INF, 0),
            _ => {}
        }
        self.nodes += 1;
        let nodes_before = self.nodes;
        if self.nodes >= self.max_nodes || (self.nodes & 0xFFF == 0 && self.stop_asked()) {
            self.aborted = true;
        }
        if self.nodes & 0xFFFF == 0 {
            self.report();
        }
        let mut list = MoveList::new();
        self.moves(s, q, &mut list);
        // (child, pn, dn, key): keys first and their buckets prefetched, then the probes.
        let mut kids: arrayvec::ArrayVec<(BtState, u32, u32, u64), 256> = arrayvec::ArrayVec::new();
        for &m in &list {
            let mut c = *s;
            self.g.play(&mut c, m);
            let k = self.tkey(&c);
            self.prefetch(k);
            kids.push((c, 0, 0, k));
        }
        for k in kids.iter_mut() {
            (k.1, k.2) = self.initial_keyed(&k.0, k.3);
        }
        let (mut pn, mut dn);
        loop {
            pn = INF;
            let mut dn_sum = 0u64;
            let mut best = 0;
            let mut dn2 = INF;
            for (i, k) in kids.iter().enumerate() {
                if k.2 < pn {
                    dn2 = pn;
                    pn = k.2;
                    best = i;
                } else if k.2 < dn2 {
                    dn2 = k.2;
                }
                dn_sum += k.1 as u64;
            }
            dn = if pn == 0 || kids.iter().any(|k| k.1 >= INF) { INF } else { dn_sum.min(INF as u64 - 1) as u32 };
            if pn == 0 {
                dn = INF;
            }
            if dn == 0 {
                pn = INF;
            }
            if key == self.root_key {
                self.root_pn_dn = (pn, dn);
                let lost = kids.iter().filter(|k| k.1 == 0).count();
                let won = kids.iter().filter(|k| k.2 == 0).count();
                self.root_kids = (won, lost, kids.len());
            }
            if pn >= thpn || dn >= thdn || self.aborted {
                break;
            }
            let child_pn = kids[best].1;
            let cthpn = (thdn as u64 - dn as u64 + child_pn as u64).min(INF as u64) as u32;
            let cthdn = (thpn as u64).min(dn2 as u64 + dn2 as u64 / 4 + 1).min(INF as u64) as u32;
            let (c, ckey) = (kids[best].0, kids[best].3);
            let (cpn, cdn) = self.mid(&c, ckey, cthpn, cthdn);
            kids[best].1 = cpn;
            kids[best].2 = cdn;
        }
        let work = self.nodes - nodes_before + 1;
        if !self.aborted || pn == 0 || dn == 0 {
            self.store(key, pn, dn, work);
        }
        (pn, dn)
    }

    /// Prove or disprove `s` (df-pn from the root until solved or out of budget). Returns (pn, dn).
    pub fn prove(&mut self, s: &BtState) -> (u32, u32) {
        let (pn, dn) = self.initial(s);
        if pn == 0 || dn == 0 {
            return (pn, dn);
        }
        self.root_key = self.tkey(s);
        self.mid(s, self.root_key, INF, INF)
    }

    /// Moves of `s` after which the solver knows (from its table or its knowledge) that the opponent loses, for the
    /// proof checker ([`crate::solve::proof_check`]): those the table holds as proved (in move order: ordering them by
    /// the work stored, smallest first, made the proofs walked 4% larger on 5x5), else those its knowledge rules
    /// decide.
    /// The children's buckets are prefetched before the probes. When it knows none: a df-pn run on `s`, then if need
    /// be on each child (at most [`HINT_BUDGET`] expansions each, no time limit), and the moves then known. The
    /// checker verifies what is proposed, so nothing here needs to be right.
    pub(crate) fn winning_moves_hint(&mut self, s: &BtState) -> Vec<BtMove> {
        let mut list = MoveList::new();
        self.g.generate_moves(s, &mut list);
        let known = |this: &Self| -> Vec<BtMove> {
            let mut kids: arrayvec::ArrayVec<(BtState, u64), 256> = arrayvec::ArrayVec::new();
            for &m in &list {
                let mut c = *s;
                this.g.play(&mut c, m);
                let k = this.tkey(&c);
                this.prefetch(k);
                kids.push((c, k));
            }
            let mut out: Vec<BtMove> = list
                .iter()
                .zip(&kids)
                .filter(|(_, (_, k))| this.probe(*k).is_some_and(|(_, dn)| dn == 0))
                .map(|(&m, _)| m)
                .collect();
            if out.is_empty() {
                out.extend(
                    list.iter().zip(&kids).filter(|(_, (c, k))| this.initial_keyed(c, *k).1 == 0).map(|(&m, _)| m),
                );
            }
            out
        };
        let found = known(self);
        if !found.is_empty() {
            return found;
        }
        let max_seconds = self.options.max_seconds.take();
        self.aborted = false;
        self.max_nodes = self.nodes.saturating_add(HINT_BUDGET);
        self.prove(s);
        let mut found = known(self);
        if found.is_empty() {
            // s itself may be decided by a knowledge rule, which proves nothing about its children: try each.
            for &m in &list {
                let mut c = *s;
                self.g.play(&mut c, m);
                self.aborted = false;
                self.max_nodes = self.nodes.saturating_add(HINT_BUDGET);
                if self.prove(&c).1 == 0 {
                    found.push(m);
                    break;
                }
            }
        }
        self.aborted = false;
        self.max_nodes = self.options.max_nodes.unwrap_or(u64::MAX);
        self.options.max_seconds = max_seconds;
        found
    }
}
