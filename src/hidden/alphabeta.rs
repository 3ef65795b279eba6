//! Alpha-beta on one full state (a determinized board), negamax style, for games where a player may move twice in a
//! row (a cancelled move in dark Breakthrough, a failed try in phantom tic-tac-toe):
//!
//! ```text
//! alphabeta(s, depth, alpha, beta):            value for the side to move of s
//!     if s is terminal: return outcome_score(outcome(s), ply)
//!     if depth = 0: return evaluate(s)
//!     for each move m (captures first when the game tells them):
//!         c = play(s, m)
//!         v = if side_to_move(c) = side_to_move(s) then alphabeta(c, depth-1, alpha, beta)      (same player again)
//!             else -alphabeta(c, depth-1, -beta, -alpha)
//!         alpha = max(alpha, v); if alpha >= beta: cut
//!     return alpha
//! ```

use crate::game::{Evaluator, FullGame, MoveList, SearchEval, outcome_score};
use crate::search::{INFINITY, StopCheck};

/// One search: the game, its evaluation, a node counter and when to stop (a deadline, a stop flag).
pub(crate) struct AlphaBeta<'a, G: FullGame> {
    pub game: &'a G,
    pub eval: &'a SearchEval<G>,
    pub nodes: u64,
    pub check: StopCheck<'a>,
    pub stopped: bool,
}

impl<'a, G: FullGame> AlphaBeta<'a, G> {
    pub fn new(game: &'a G, eval: &'a SearchEval<G>, check: StopCheck<'a>) -> Self {
        AlphaBeta { game, eval, nodes: 0, check, stopped: false }
    }

    /// The value of each of `moves` in `s` (for the side to move of `s`), searched `depth` plies deep; `None` when
    /// the search was stopped (deadline, stop flag) before it finished. The first best move's value is exact; a move after it that is
    /// not better gets an upper bound, which may equal the best value: pick the best with [`best_index`].
    pub fn root_values(&mut self, s: &G::State, moves: &[G::Move], depth: u32) -> Option<Vec<i32>> {
        let me = self.game.side_to_move(s);
        let mut values = Vec::with_capacity(moves.len());
        let mut alpha = -INFINITY;
        for &m in moves {
            let mut c = *s;
            self.game.play(&mut c, m);
            // A full window for the best move so far, then a null window above it: the values of worse moves are
            // bounds, enough for a vote, and their order among themselves is not needed.
            let v = if self.game.side_to_move(&c) == me {
                self.search(&c, depth.saturating_sub(1), 1, alpha.max(-INFINITY), INFINITY)
            } else {
                -self.search(&c, depth.saturating_sub(1), 1, -INFINITY, -alpha.max(-INFINITY))
            };
            if self.stopped {
                return None;
            }
            alpha = alpha.max(v);
            values.push(v);
        }
        Some(values)
    }

    fn search(&mut self, s: &G::State, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.check.expired(self.nodes) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if let Some(o) = self.game.outcome(s) {
            return outcome_score(o, ply);
        }
        if depth == 0 {
            return self.eval.evaluate(self.game, s);
        }
        let mut moves = MoveList::new();
        self.game.generate_moves(s, &mut moves);
        if self.game.has_tactics() {
            moves.sort_by_key(|&m| std::cmp::Reverse(self.game.move_class(s, m) as u8));
        }
        let me = self.game.side_to_move(s);
        for &m in &moves {
            let mut c = *s;
            self.game.play(&mut c, m);
            let v = if self.game.side_to_move(&c) == me {
                self.search(&c, depth - 1, ply + 1, alpha, beta)
            } else {
                -self.search(&c, depth - 1, ply + 1, -beta, -alpha)
            };
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}

/// The index of the best of [`AlphaBeta::root_values`]: the **first** maximum. A later move whose search failed low
/// returns the best value as its bound although it may be worse, so a tie goes to the earlier move (the one whose
/// value is exact).
pub(crate) fn best_index(values: &[i32]) -> Option<usize> {
    (0..values.len()).max_by_key(|&i| (values[i], std::cmp::Reverse(i)))
}
