//! The exact distance to the end, by alpha-beta after the df-pn proof.
//!
//! Fail-soft alpha-beta on scores `WIN - plies` (a win in `p` plies from the root) with its own table of bounds
//! (stored relative to the node, `table.rs`), ordering moves by the table move and then by the df-pn table (proven wins
//! first). It gives the distance to the end under best play (the fastest win, the slowest loss) and the best move.
//! Only the exact knowledge rules cut the search (game over, win in 1, loss in 2, the forced capture, win in 3: each
//! is exact for the distance as well); the weak ones (race tables, defended runner, threat sequences) are not used.

use super::Solver;
use super::rules::Quick;
use super::table::{EXACT, LOWER, UPPER};
use crate::game::{Game, MoveList, Outcome};
use crate::games::breakthrough::{BtMove, BtState};

const WIN: i32 = 1_000_000;

/// The number of plies in a score of the form `WIN - plies` or `-(WIN - plies)`.
pub(crate) fn score_plies(score: i32) -> u32 {
    (WIN - score.abs()) as u32
}

impl Solver<'_> {
    /// The exact distance of the root `s` in plies and the move reaching it (the fastest win, the slowest loss; `None`
    /// when `s` has no move). The root moves are searched one by one, so that the best move is right even when a
    /// knowledge rule decides the root.
    pub(super) fn root_distance(&mut self, s: &BtState) -> (u32, Option<String>) {
        let mut list = MoveList::new();
        self.g.generate_moves(s, &mut list);
        let mut best = -WIN - 1;
        let mut best_move = None;
        for &m in &list {
            let mut c = *s;
            self.g.play(&mut c, m);
            let v = -self.alphabeta(&c, -WIN - 1, -best, 1);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(self.g.format_move(s, m));
            }
        }
        if list.is_empty() {
            best = self.alphabeta(s, -WIN - 1, WIN + 1, 0);
        }
        (score_plies(best), best_move)
    }

    /// The exact value of the root moves of `s` (a solved position: its proof is in the df-pn table) for the side
    /// to move at `s`, each given to `each(move, plies)` as it is found: plies positive when the move wins in that
    /// many plies, negative when it loses in as many (the slowest loss). Moves named in `skip` are left out (a
    /// caller that knows them already: mirror images). False when stopped first ([`SolveOptions::max_seconds`],
    /// [`SolveOptions::stop`]). Needs [`SolveOptions::distance`] (its table).
    ///
    /// [`SolveOptions::max_seconds`]: super::SolveOptions::max_seconds
    /// [`SolveOptions::stop`]: super::SolveOptions::stop
    /// [`SolveOptions::distance`]: super::SolveOptions::distance
    // Used by the web server only (src/server/): unused in a build without the `server` feature.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    pub(crate) fn move_distances(&mut self, s: &BtState, skip: &[String], each: &mut dyn FnMut(&str, i32)) -> bool {
        let mut list = MoveList::new();
        self.g.generate_moves(s, &mut list);
        self.aborted = false;
        for &m in &list {
            let name = self.g.format_move(s, m);
            if skip.contains(&name) {
                continue;
            }
            let mut c = *s;
            self.g.play(&mut c, m);
            let v = -self.alphabeta(&c, -WIN - 1, WIN + 1, 1);
            if self.aborted {
                self.aborted = false;
                return false;
            }
            let plies = score_plies(v) as i32;
            each(&name, if v > 0 { plies } else { -plies });
        }
        true
    }

    /// Exact distance search: scores `WIN - plies` from the root (`ply` = this node's depth), fail-soft. When the
    /// search is stopped (`aborted`), it unwinds at once storing nothing, and its value means nothing.
    fn alphabeta(&mut self, s: &BtState, mut alpha: i32, mut beta: i32, ply: i32) -> i32 {
        self.ab_nodes += 1;
        if self.ab_nodes & 0xFFF == 0 && self.stop_asked() {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let q = self.quick(s, false);
        match q {
            Quick::Win(3) => {
                // A win in 1 by other means (capturing the last piece, leaving the opponent without a move)?
                let mut list = MoveList::new();
                self.g.generate_moves(s, &mut list);
                let quick1 = list.iter().any(|&m| {
                    let mut c = *s;
                    self.g.play(&mut c, m);
                    self.g.outcome(&c) == Some(Outcome::Loss)
                });
                return WIN - ply - if quick1 { 1 } else { 3 };
            }
            Quick::Win(p) => return WIN - ply - p as i32,
            Quick::Loss(p) => return -(WIN - ply - p as i32),
            _ => {}
        }
        let mut tt_move = None;
        if let Some(e) = self.ab_probe(s.key) {
            let v = if e.value > 0 { e.value - ply } else { e.value + ply };
            match e.bound {
                EXACT => return v,
                LOWER => alpha = alpha.max(v),
                _ => beta = beta.min(v),
            }
            if alpha >= beta {
                return v;
            }
            tt_move = Some(BtMove { from: e.from, to: e.to });
        }
        let mut list = MoveList::new();
        self.moves(s, q, &mut list);
        // Order: the table move, then children the df-pn table proved lost for the opponent, then the rest.
        let mut scored: arrayvec::ArrayVec<(i32, BtMove), 256> = list
            .iter()
            .map(|&m| {
                let mut c = *s;
                self.g.play(&mut c, m);
                let k = if Some(m) == tt_move {
                    0
                } else {
                    match self.probe(self.tkey(&c)) {
                        Some((_, 0)) => 1,
                        Some((0, _)) => 3,
                        _ => 2,
                    }
                };
                (k, m)
            })
            .collect();
        scored.sort_by_key(|x| x.0);
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = scored[0].1;
        for &(_, m) in &scored {
            let mut c = *s;
            self.g.play(&mut c, m);
            let v = -self.alphabeta(&c, -beta, -alpha.max(best), ply + 1);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m;
                if v >= beta {
                    break;
                }
            }
        }
        let bound = if best >= beta {
            LOWER
        } else if best <= alpha0 {
            UPPER
        } else {
            EXACT
        };
        let stored = if best > 0 { best + ply } else { best - ply };
        self.ab_store(s.key, stored, bound, best_move);
        best
    }
}
