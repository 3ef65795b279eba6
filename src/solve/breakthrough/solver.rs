//! The [`Solver`]: the state every part of the solver shares (the game, the options, the race table, the df-pn and
//! alpha-beta tables, the counters), its construction, and one solve of a root position: the df-pn proof, then the
//! proofs of the first moves (the winning moves), then the exact distance when asked.

use std::time::Instant;

use super::rules::Quick;
use super::table::{self, AbEntry, Entry};
use super::{Solution, SolveOptions};
use crate::game::{Game, MoveList};
use crate::games::breakthrough::race::RaceTable;
use crate::games::breakthrough::{Breakthrough, BtState};

/// The df-pn solver and its tables. Reusable: [`Solver::prove`] and [`Solver::split`] keep the tables between calls.
pub struct Solver<'a> {
    pub(super) g: &'a Breakthrough,
    pub(super) race: Option<RaceTable>,
    /// Buckets of four entries; a key's bucket is the high half of `key * tt.len()` (any length, not only powers of two).
    pub(super) tt: Vec<[Entry; 4]>,
    pub(super) ab: Vec<[AbEntry; 2]>,
    pub(super) ab_mask: usize,
    pub(super) nodes: u64,
    pub(super) ab_nodes: u64,
    pub(super) max_nodes: u64,
    pub(super) aborted: bool,
    pub(super) options: SolveOptions,
    pub(super) start: Instant,
    pub(super) last_report: f64,
    /// Knowledge rules 5 (the defended runner) and 6 (threat sequences) are on.
    pub(super) runner_rule: bool,
    pub(super) threat_rule: bool,
    /// Column reversal of one row's bits (empty: no symmetry).
    pub(super) mirror: Vec<u64>,
    /// Root key and its children's (pn, dn) refreshed at every root iteration, for the progress lines.
    pub(super) root_key: u64,
    pub(super) root_kids: (usize, usize, usize),
    pub(super) root_pn_dn: (u32, u32),
    /// Expansions behind a table read from a file; seconds (since `start`) of the last save.
    pub(super) earlier_nodes: u64,
    pub(super) last_save: f64,
}

impl<'a> Solver<'a> {
    /// A solver of `g` with the options `options` and, when given, the race table.
    pub fn new(g: &'a Breakthrough, options: &SolveOptions, race: Option<RaceTable>) -> Self {
        let m = if options.distance {
            table::table_len(options.distance_tt_mib, std::mem::size_of::<[AbEntry; 2]>())
        } else {
            1
        };
        let ab: Vec<[AbEntry; 2]> = crate::limits::lazy_table(m, 1);
        Solver {
            g,
            race,
            tt: table::df_table(options.tt_mib),
            ab_mask: ab.len() - 1,
            ab,
            nodes: 0,
            ab_nodes: 0,
            max_nodes: options.max_nodes.unwrap_or(u64::MAX),
            aborted: false,
            options: options.clone(),
            start: Instant::now(),
            last_report: 0.0,
            runner_rule: g.rows >= 4 && options.runner_rule,
            threat_rule: g.rows >= 4 && options.threat_depth >= 2,
            mirror: if options.symmetry { table::row_mirror(g.columns) } else { Vec::new() },
            root_key: 0,
            root_kids: (0, 0, 0),
            root_pn_dn: (0, 0),
            earlier_nodes: 0,
            last_save: 0.0,
        }
    }

    /// Whether the search must stop now: [`SolveOptions::max_seconds`] passed, or [`SolveOptions::stop`] or
    /// [`SolveOptions::interrupt`] raised.
    pub(super) fn stop_asked(&self) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        self.options.max_seconds.is_some_and(|m| self.start.elapsed().as_secs_f64() >= m)
            || self.options.stop.as_ref().is_some_and(|f| f.load(Relaxed))
            || self.options.interrupt.is_some_and(|f| f.load(Relaxed))
    }

    /// Df-pn expansions so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Solves the root `s`: its proof, the proofs of its first moves (every one with
    /// [`SolveOptions::all_winning_moves`], otherwise until one wins), then the exact distance with [`SolveOptions::distance`].
    pub(super) fn run(&mut self, s: &BtState) -> Solution {
        let (pn, dn) = self.prove(s);
        let mut sol = Solution {
            result: None,
            plies: None,
            winning_moves: Vec::new(),
            best_move: None,
            nodes: 0,
            distance_nodes: 0,
            seconds: 0.0,
            race_table_seconds: 0.0,
            root_pn: pn,
            root_dn: dn,
            undecided_moves: Vec::new(),
            earlier_nodes: 0,
            proof_check: None,
        };
        if pn != 0 && dn != 0 {
            sol.nodes = self.nodes;
            return sol;
        }
        let win = pn == 0;
        sol.result = Some(if win { "win" } else { "loss" }.to_string());
        if win {
            let mut list = MoveList::new();
            let q = self.quick(s, true);
            self.moves(s, q, &mut list);
            if matches!(q, Quick::Win(_) | Quick::RaceWin | Quick::RunnerWin | Quick::ThreatWin) {
                self.g.generate_moves(s, &mut list);
            }
            for &m in &list {
                let mut c = *s;
                self.g.play(&mut c, m);
                let (_, cdn) = if self.options.all_winning_moves || sol.winning_moves.is_empty() {
                    self.prove(&c)
                } else {
                    break;
                };
                if cdn == 0 {
                    sol.winning_moves.push(self.g.format_move(s, m));
                }
            }
            sol.best_move = sol.winning_moves.first().cloned();
        }
        if self.options.distance {
            // (A node budget spent by the proofs does not hold the distance pass back, as before.)
            self.aborted = false;
            let (plies, best_move) = self.root_distance(s);
            // Stopped during the distance pass: the proof stands, the distance is not known.
            if !self.aborted {
                sol.plies = Some(plies);
                if best_move.is_some() {
                    sol.best_move = best_move;
                }
            }
            self.aborted = false;
        }
        sol.nodes = self.nodes;
        sol.distance_nodes = self.ab_nodes;
        sol
    }
}
