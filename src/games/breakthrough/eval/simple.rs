//! The simple evaluation the course's algorithms use on Breakthrough: material and advancement (a piece `a` rows from
//! its home row is worth `100 + 4a^2`), from the side to move's point of view.

use crate::game::Side;
use crate::games::breakthrough::{Breakthrough, BtState};

/// A simple default evaluation: material and advancement, from the side to move's point of view.
#[derive(Clone, Copy, Debug, Default)]
pub struct SimpleEval;

impl SimpleEval {
    /// The value of `s` for its side to move.
    pub fn evaluate(&self, g: &Breakthrough, s: &BtState) -> i32 {
        let mut score = 0i32;
        for (sign, side, mut b) in [(1, Side::First, s.white), (-1, Side::Second, s.black)] {
            while b != 0 {
                let sq = b.trailing_zeros();
                b &= b - 1;
                let row = sq / g.columns;
                let adv = if side == Side::First { row } else { g.rows - 1 - row };
                score += sign * (100 + (adv * adv) as i32 * 4);
            }
        }
        if s.stm == Side::First { score } else { -score }
    }
}
