//! The df-pn of the threat solver: proof and disproof numbers for the root player's win, with the game's knowledge at
//! every node and a threat-space search ([`super::tss`]) the first time a position of the root player is expanded.
//!
//! ```text
//! every node is seen from its side to move P: success = a win when P is the root player R, not a loss otherwise
//! value of a position without expanding it (`leaf`):
//!     over: success -> (0, ∞), else (∞, 0)       P has a winning move -> (0, ∞)     two threats against P -> (∞, 0)
//!     in the table -> its numbers;  else (1, the moves P may play: 1 when it must block, else all)  -- df-pn+ style
//! mid(s, thpn, thdn):
//!     the moves: all, or the blocks when the opponent threatens once (every other move loses at once)
//!     P = R, first expansion: a threat sequence wins -> (0, ∞)
//!     the children's values from `leaf`; loop as Nagai's df-pn (pn = min child dn, dn = Σ child pn; 1 + ε: ε = 1/4)
//!     store (pn, dn) under the symmetry key (positions equal up to the board's symmetries share one entry)
//! ```
//! Games without repeated positions along a line are assumed (Qubic fills a cell a move), so there is no
//! graph-history interaction; transpositions and symmetries may only overestimate proof numbers.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;

use crate::game::{Forced, FullGame, MoveList, Outcome, Side, Tactics};
use crate::solve::dfpn::mid_loop;

use super::table::Table;
use super::tss;

/// "Infinite" proof or disproof number (the one of [`crate::solve::dfpn`], whose `mid` loop this search shares).
pub(crate) use crate::solve::dfpn::INF;

/// What stops a search unsolved, and how often the table is saved.
pub(super) struct Limits {
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: Option<&'static AtomicBool>,
    pub tss: tss::Limits,
}

/// What a search calls every 2^16 expansions with its table and its expansions (the periodic save).
pub(super) type Tick<'a> = Box<dyn FnMut(&Table, u64) + 'a>;

/// A child in `mid`'s loop: its state and symmetry key (`None` for a child whose value the knowledge gives, which
/// `mid_loop` never searches), and its (pn, dn).
type Kid<S> = ((S, Option<u64>), u32, u32);

/// One search: the table, the root player, the counts.
pub(super) struct Search<'a, G: FullGame> {
    pub game: &'a G,
    pub table: Table,
    pub root: Side,
    pub nodes: u64,
    pub(crate) tss_calls: u64,
    pub(crate) tss_nodes: u64,
    pub(crate) tss_wins: u64,
    pub limits: Limits,
    pub stopped: bool,
    /// Called every 2^16 expansions with the table (the periodic save).
    pub(crate) tick: Option<Tick<'a>>,
    /// The children's lists of the expansions under way, one per depth, kept for the next expansions.
    pool: Vec<Vec<Kid<G::State>>>,
}

impl<'a, G: FullGame> Search<'a, G> {
    pub fn new(game: &'a G, table: Table, root: Side, limits: Limits) -> Self {
        Search {
            game,
            table,
            root,
            nodes: 0,
            tss_calls: 0,
            tss_nodes: 0,
            tss_wins: 0,
            limits,
            stopped: false,
            tick: None,
            pool: Vec::new(),
        }
    }

    /// The value of `s` for its side to move without expanding it.
    pub fn leaf(&self, s: &G::State) -> (u32, u32) {
        match self.known_value(s, self.game.tactics(s)) {
            Ok(v) => v,
            Err(forced) => self.open_value(s, forced, self.game.symmetry_key(s)),
        }
    }

    /// The value the rules and the knowledge give at once: the game is over, a win in one, two threats to block.
    pub fn known(&self, s: &G::State) -> Option<(u32, u32)> {
        self.known_value(s, self.game.tactics(s)).ok()
    }

    /// [`Search::known`]'s value from the position's [`Tactics`], or else what the opponent's threats force (`Free`
    /// or `Defend`), which [`Search::open_value`] needs next.
    fn known_value(&self, s: &G::State, tactics: Tactics) -> Result<(u32, u32), Forced> {
        let success = match tactics {
            Tactics::Over(Outcome::Win) => true,
            Tactics::Over(Outcome::Loss) => false,
            Tactics::Over(Outcome::Value(v)) => v > 0,
            Tactics::Over(Outcome::Draw) => self.game.side_to_move(s) != self.root,
            Tactics::WinInOne => true,
            Tactics::Forced(Forced::Lost) => false,
            Tactics::Forced(forced) => return Err(forced),
        };
        Ok(if success { (0, INF) } else { (INF, 0) })
    }

    /// The value of a position whose value is not known at once: the table's under `key`, else (1, the moves its
    /// side may play: 1 when it must block, else all) -- df-pn+ style.
    fn open_value(&self, s: &G::State, forced: Forced, key: u64) -> (u32, u32) {
        if let Some(v) = self.table.get(key) {
            return v;
        }
        let mobility = match forced {
            Forced::Defend(_) => 1,
            _ => self.game.count_moves(s).max(1) as u32,
        };
        (1, mobility)
    }

    /// Prove or disprove `s` (whose value is not `known`), within the limits: its (pn, dn).
    pub fn prove(&mut self, s: &G::State) -> (u32, u32) {
        self.mid(s, self.game.symmetry_key(s), INF - 1, INF - 1)
    }

    /// A threat sequence's first move for the root player at `s` (counted).
    pub(crate) fn threat_sequence(&mut self, s: &G::State) -> Option<G::Move> {
        self.tss_calls += 1;
        let (found, nodes) = tss::find(self.game, s, self.limits.tss);
        self.tss_nodes += nodes;
        self.tss_wins += u64::from(found.is_some());
        found
    }

    fn out_of_limits(&mut self) -> bool {
        if self.nodes >= self.limits.max_nodes {
            self.stopped = true;
        }
        if self.nodes & 0x3FF == 0 {
            if self.limits.deadline.is_some_and(|d| Instant::now() >= d)
                || self.limits.stop.is_some_and(|f| f.load(Ordering::Relaxed))
            {
                self.stopped = true;
            }
            if self.nodes & 0xFFFF == 0
                && let Some(mut tick) = self.tick.take()
            {
                tick(&self.table, self.nodes);
                self.tick = Some(tick);
            }
        }
        self.stopped
    }

    /// Nagai's `mid` at `s`, whose symmetry key is `key`.
    fn mid(&mut self, s: &G::State, key: u64, thpn: u32, thdn: u32) -> (u32, u32) {
        self.nodes += 1;
        let g = self.game;
        let nodes_before = self.nodes;
        if g.side_to_move(s) == self.root
            && self.table.get(key).is_none()
            && self.limits.tss.depth > 0
            && self.threat_sequence(s).is_some()
        {
            self.table.put(key, 0, INF, 1);
            return (0, INF);
        }
        // The children's list from the pool (one per depth, kept: no allocation once the pool has grown).
        let mut kids = self.pool.pop().unwrap_or_default();
        self.children(s, &mut kids);
        let (pn, dn) = mid_loop(
            self,
            &mut kids,
            (thpn, thdn),
            |me| me.out_of_limits(),
            |me, &(c, key), child_thpn, child_thdn| {
                let key = key.unwrap_or_else(|| me.game.symmetry_key(&c));
                me.mid(&c, key, child_thpn, child_thdn)
            },
        );
        self.pool.push(kids);
        self.table.put(key, pn, dn, self.nodes - nodes_before + 1);
        (pn, dn)
    }

    /// The children of `s` (the moves of [`tss::answers`]) and their values as [`Search::leaf`] gives them, into
    /// `kids`: the knowledge and the symmetry keys of all of them at once ([`Knowledge::child_tactics`],
    /// [`Knowledge::child_symmetry_keys`]), the table entries of those whose value is not known prefetched, then
    /// read. Out of line, so that its buffers are not on the stack of the recursion.
    ///
    /// [`Knowledge::child_tactics`]: crate::game::Knowledge::child_tactics
    /// [`Knowledge::child_symmetry_keys`]: crate::game::Knowledge::child_symmetry_keys
    #[inline(never)]
    fn children(&self, s: &G::State, kids: &mut Vec<Kid<G::State>>) {
        let g = self.game;
        let mut moves = MoveList::new();
        tss::answers(g, s, &mut moves);
        let (mut tactics, mut keys) = (ArrayVec::new(), ArrayVec::new());
        g.child_tactics(s, &moves, &mut tactics);
        g.child_symmetry_keys(s, &moves, &mut keys);
        kids.clear();
        for ((&m, &t), &key) in moves.iter().zip(&tactics).zip(&keys) {
            let mut c = *s;
            g.play(&mut c, m);
            match self.known_value(&c, t) {
                Ok((pn, dn)) => kids.push(((c, None), pn, dn)),
                Err(forced) => {
                    self.table.prefetch(key);
                    // The mobility of `open_value`, for now: 1 for a block, 0 for "count the moves if not in the table".
                    kids.push(((c, Some(key)), 1, u32::from(matches!(forced, Forced::Defend(_)))));
                }
            }
        }
        for kid in kids.iter_mut() {
            if let ((c, Some(key)), _, mobility) = *kid {
                let (pn, dn) = match self.table.get(key) {
                    Some(v) => v,
                    None if mobility == 0 => (1, g.count_moves(&c).max(1) as u32),
                    None => (1, mobility),
                };
                (kid.1, kid.2) = (pn, dn);
            }
        }
    }

    /// A move of the root player at `s` (a proven win) that keeps the win: a win at once, a child the table or the
    /// knowledge shows lost for the defender, a threat sequence, else the children proven again (the table's entry
    /// may have been replaced), by budgets that double. `None` if none can be shown within the limits.
    pub(crate) fn winning_move(&mut self, s: &G::State) -> Option<G::Move> {
        let g = self.game;
        if let Some(m) = tss::winning_move(g, s) {
            return Some(m);
        }
        let mut moves = MoveList::new();
        tss::answers(g, s, &mut moves);
        let child = |m: G::Move| {
            let mut c = *s;
            g.play(&mut c, m);
            c
        };
        if let Some(&m) = moves.iter().find(|&&m| self.leaf(&child(m)).1 == 0) {
            return Some(m);
        }
        if let Some(m) = self.threat_sequence(s) {
            return Some(m);
        }
        // Proven again: the children nearest a loss of the defender first (smallest dn in the table), each within a
        // budget of expansions that doubles round after round, so that a move that does not win (a draw is as hard
        // to show as a win) cannot hold the extraction forever (it was proven without bound, in generated order).
        let mut open: Vec<(u32, G::Move)> = moves
            .iter()
            .map(|&m| (self.leaf(&child(m)).1, m))
            .filter(|&(dn, m)| dn != INF && self.known(&child(m)).is_none())
            .collect();
        open.sort_by_key(|&(dn, _)| dn);
        let limit = self.limits.max_nodes;
        let mut budget: u64 = 1 << 10;
        while !open.is_empty() {
            let mut next = Vec::new();
            for &(dn, m) in &open {
                self.limits.max_nodes = limit.min(self.nodes.saturating_add(budget));
                let (child_pn, child_dn) = self.prove(&child(m));
                self.limits.max_nodes = limit;
                if child_dn == 0 {
                    return Some(m);
                }
                if self.stopped && self.hard_stop() {
                    return None;
                }
                self.stopped = false;
                if child_pn != 0 {
                    next.push((dn, m)); // cut by the budget: again in the next round
                }
            }
            open = next;
            budget = budget.saturating_mul(2);
        }
        None
    }

    /// Whether the search itself must stop (its node limit, its deadline, the stop flag), not only one attempt.
    fn hard_stop(&self) -> bool {
        self.nodes >= self.limits.max_nodes
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
            || self.limits.stop.is_some_and(|f| f.load(Ordering::Relaxed))
    }
}
