//! Quiescence search: at the depth horizon, keep searching captures and threats to reach the last row, so that the
//! evaluation only sees quiet positions.
//!
//! ```text
//! Quiesce(s, α, β):
//!     if s is terminal: return its value
//!     if the side to move wins at once: return win in 1
//!     if the opponent threatens to win next move:
//!         two threats, or one that cannot be captured: return loss in 2
//!         best := loss in 2; moves := the captures of the threatening piece     -- no stand pat: we must answer
//!     else:
//!         best := stand pat = eval(s); if best >= β: return best
//!         moves := captures and moves onto the row before the goal
//!     for each move m (winning, captures, threats first):
//!         v := -Quiesce(m, -β, -max(α, best)); keep the best; stop at β
//!     return best
//! ```
//!
//! Every capture removes a piece and every threat move advances one, so the recursion ends. Games the engine has no
//! tactical knowledge of stand pat at once.

use crate::game::{Forced, FullGame, MoveClass, MoveList, WIN_SCORE, outcome_score};

use super::ordering::Picker;
use super::params::MAX_PLY;
use super::search::Worker;

impl<G: FullGame> Worker<'_, G> {
    /// Quiescence search of a node at `ply`.
    pub(super) fn quiesce(&mut self, s: &G::State, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.stats.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.check_stop() {
            return 0;
        }
        let g = self.sh.game;
        if let Some(o) = g.outcome(s) {
            self.stats.leaves += 1;
            return outcome_score(o, ply as u32);
        }
        if !self.sh.opts.quiescence || ply >= MAX_PLY - 1 || !g.has_tactics() {
            return self.evaluate(s, ply);
        }
        if g.has_winning_move(s) {
            self.stats.leaves += 1;
            return WIN_SCORE - ply as i32 - 1;
        }
        let threat = g.forced(s);
        let mut best = match threat {
            Forced::Lost => {
                self.stats.leaves += 1;
                return -WIN_SCORE + ply as i32 + 2;
            }
            Forced::Defend(_) => -WIN_SCORE + ply as i32 + 2,
            Forced::Free => {
                let stand = self.evaluate(s, ply);
                if stand >= beta {
                    return stand;
                }
                stand
            }
        };
        alpha = alpha.max(best);
        let mut moves = MoveList::new();
        g.generate_moves(s, &mut moves);
        let mut picker = Picker::new(g, s, &moves, None, [None, None, None], None);
        while let Some((_, m)) = picker.pick() {
            let class = g.move_class(s, m);
            let keep = match threat {
                Forced::Defend(target) => g.defends(m, target),
                _ => class != MoveClass::Quiet,
            };
            if !keep {
                if class == MoveClass::Quiet && threat == Forced::Free {
                    break; // the picker gives every noisy move before the quiet ones
                }
                continue;
            }
            let mut child = *s;
            g.play(&mut child, m);
            self.carry_move(s, m, ply);
            let v = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        self.stats.cutoffs += 1;
                        break;
                    }
                }
            }
        }
        best
    }
}
