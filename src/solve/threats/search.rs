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

use crate::game::{Forced, FullGame, MoveList, Outcome, Side};
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
        }
    }

    /// The value of `s` for its side to move without expanding it.
    pub fn leaf(&self, s: &G::State) -> (u32, u32) {
        let forced = match self.known_or_forced(s) {
            Ok(v) => return v,
            Err(forced) => forced,
        };
        if let Some(v) = self.table.get(self.game.symmetry_key(s)) {
            return v;
        }
        let mobility = match forced {
            Forced::Defend(_) => 1,
            _ => self.game.count_moves(s).max(1) as u32,
        };
        (1, mobility)
    }

    /// The value the rules and the knowledge give at once: the game is over, a win in one, two threats to block.
    pub fn known(&self, s: &G::State) -> Option<(u32, u32)> {
        self.known_or_forced(s).ok()
    }

    /// [`Search::known`]'s value, or else what the opponent's threats force (`Free` or `Defend`), which `leaf` needs
    /// next: computed once (the children of every expansion are valued this way).
    fn known_or_forced(&self, s: &G::State) -> Result<(u32, u32), Forced> {
        let g = self.game;
        if let Some(o) = g.outcome(s) {
            let success = match o {
                Outcome::Win => true,
                Outcome::Loss => false,
                Outcome::Value(v) => v > 0,
                Outcome::Draw => g.side_to_move(s) != self.root,
            };
            return Ok(if success { (0, INF) } else { (INF, 0) });
        }
        if g.has_winning_move(s) {
            return Ok((0, INF));
        }
        match g.forced(s) {
            Forced::Lost => Ok((INF, 0)),
            forced => Err(forced),
        }
    }

    /// Prove or disprove `s` (whose value is not `known`), within the limits: its (pn, dn).
    pub fn prove(&mut self, s: &G::State) -> (u32, u32) {
        self.mid(s, INF - 1, INF - 1)
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

    fn mid(&mut self, s: &G::State, thpn: u32, thdn: u32) -> (u32, u32) {
        self.nodes += 1;
        let g = self.game;
        let key = g.symmetry_key(s);
        let nodes_before = self.nodes;
        if g.side_to_move(s) == self.root
            && self.table.get(key).is_none()
            && self.limits.tss.depth > 0
            && self.threat_sequence(s).is_some()
        {
            self.table.put(key, 0, INF, 1);
            return (0, INF);
        }
        let mut moves = MoveList::new();
        tss::answers(g, s, &mut moves);
        let mut kids: Vec<(G::State, u32, u32)> = moves
            .iter()
            .map(|&m| {
                let mut c = *s;
                g.play(&mut c, m);
                let (pn, dn) = self.leaf(&c);
                (c, pn, dn)
            })
            .collect();
        let (pn, dn) = mid_loop(
            self,
            &mut kids,
            (thpn, thdn),
            |me| me.out_of_limits(),
            |me, c, child_thpn, child_thdn| me.mid(c, child_thpn, child_thdn),
        );
        self.table.put(key, pn, dn, self.nodes - nodes_before + 1);
        (pn, dn)
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
