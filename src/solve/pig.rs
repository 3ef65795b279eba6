//! Pig solved by value iteration (Neller and Presser 2004): the optimal policy and its winning chances.
//!
//! `W(i, j, k)` is the probability that the player about to decide wins, with `i` banked, the opponent `j`, and a
//! turn total `k`, both playing optimally (`W = 1` once `i + k` reaches the target: holding wins):
//!
//! ```text
//! W(i, j, k) = max( hold: 1 - W(j, i + k, 0),
//!                   roll: (1/d) · (1 - W(j, i, 0)) + Σ_{f = 2..d} (1/d) · W(i, j, k + f) )
//! ```
//!
//! The equations are circular (a 1 or a hold at 0 hands the same scores back), so they are solved by iteration. Every
//! term but `W(j, i, 0)` has a larger score sum `i + j` or a larger turn total, so the layers of equal `i + j` are
//! solved from the largest sum down, each by Gauss-Seidel sweeps (turn totals from the largest down) until no value
//! moves by more than [`TOLERANCE`].

use crate::game::GameError;
use crate::games::pig::{HOLD, Pig, PigMove, PigState, ROLL};

/// The largest target solved (the table holds `target³` values).
pub(crate) const MAX_SOLVE_TARGET: u32 = 150;
/// Sweeps of a layer stop when no value moves by more than this.
pub(crate) const TOLERANCE: f64 = 1e-14;

/// The solved game: `W` for every decision.
pub struct PigSolution {
    pub target: u32,
    pub die: u32,
    w: Vec<f64>,
    /// Gauss-Seidel sweeps over all the layers.
    pub sweeps: u64,
}

impl PigSolution {
    /// Solve `game` by value iteration.
    pub fn solve(game: &Pig) -> Result<Self, GameError> {
        let t = game.target;
        if t > MAX_SOLVE_TARGET {
            return Err(GameError::new(format!(
                "solve: pig target={t} is too large to solve (at most {MAX_SOLVE_TARGET}: the table holds target³ values)"
            )));
        }
        let n = t as usize;
        let mut sol = PigSolution { target: t, die: game.die, w: vec![0.0; n * n * n], sweeps: 0 };
        for sum in (0..=2 * (t - 1)).rev() {
            loop {
                sol.sweeps += 1;
                let mut delta: f64 = 0.0;
                for i in sum.saturating_sub(t - 1)..=sum.min(t - 1) {
                    let j = sum - i;
                    for k in (0..t - i).rev() {
                        let v = sol.hold(i, j, k).max(sol.roll(i, j, k));
                        let slot = sol.index(i, j, k);
                        delta = delta.max((v - sol.w[slot]).abs());
                        sol.w[slot] = v;
                    }
                }
                if delta <= TOLERANCE {
                    break;
                }
            }
        }
        Ok(sol)
    }

    #[inline]
    fn index(&self, i: u32, j: u32, k: u32) -> usize {
        let n = self.target as usize;
        (i as usize * n + j as usize) * n + k as usize
    }

    /// `W(i, j, k)`: the deciding player's winning chances (1 once `i + k` reaches the target).
    #[inline]
    pub fn win(&self, i: u32, j: u32, k: u32) -> f64 {
        if i + k >= self.target { 1.0 } else { self.w[self.index(i, j, k)] }
    }

    /// The winning chances after holding.
    #[inline]
    pub fn hold(&self, i: u32, j: u32, k: u32) -> f64 {
        if i + k >= self.target { 1.0 } else { 1.0 - self.win(j, i + k, 0) }
    }

    /// The winning chances after rolling (0 where rolling is illegal: the target is reached).
    #[inline]
    pub fn roll(&self, i: u32, j: u32, k: u32) -> f64 {
        if i + k >= self.target {
            return 0.0;
        }
        let d = self.die as f64;
        let mut v = (1.0 - self.win(j, i, 0)) / d;
        for f in 2..=self.die {
            v += self.win(i, j, k + f) / d;
        }
        v
    }

    /// The optimal move of the deciding player (roll on a tie: it keeps the game going towards its end).
    pub fn best(&self, i: u32, j: u32, k: u32) -> PigMove {
        if self.roll(i, j, k) >= self.hold(i, j, k) { ROLL } else { HOLD }
    }

    /// The winning chances of the side to move in any position of the solved game (0 in a finished game: the side to
    /// move lost; while the die rolls, the average over the faces).
    pub fn value(&self, s: &PigState) -> f64 {
        let (i, j, k) = (s.scores[s.side as usize] as u32, s.scores[1 - s.side as usize] as u32, s.turn_total as u32);
        if i >= self.target || j >= self.target {
            return 0.0;
        }
        if s.rolling { self.roll(i, j, k) } else { self.win(i, j, k) }
    }

    /// The smallest turn total at which the optimal player holds with `i` banked against `j` (Neller and Presser's
    /// "hold at" boundary; the policy is not always a threshold, see [`PigSolution::best`] for any state).
    pub fn hold_at(&self, i: u32, j: u32) -> u32 {
        (1..self.target - i).find(|&k| self.best(i, j, k) == HOLD).unwrap_or(self.target - i)
    }
}
