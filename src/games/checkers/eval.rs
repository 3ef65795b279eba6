//! Checkers evaluation, from the side to move's point of view, in hundredths of a man: material (a man 100, a king
//! 150), the men's advancement (4 a row, so that men march and crown), the back rank kept (men on their own first
//! row stop the opponent's crowning: 12 each while the opponent has men), the centre (8 for a piece on the eight
//! central squares) and, in endings where one side is ahead, 2 points for every piece traded off (the stronger side
//! wants trades) — all mirrored for the opponent.

use super::geometry::{BOTTOM_ROW, TOP_ROW};
use super::{Checkers, CheckersState};
use crate::game::{Evaluator, Side};

const MAN: i32 = 100;
const KING: i32 = 150;
const ADVANCE: i32 = 4;
const BACK_RANK: i32 = 12;
const CENTRE: i32 = 8;
/// Squares 14, 15, 18, 19 and 10, 11, 22, 23 (bits 13, 14, 17, 18, 9, 10, 21, 22).
const CENTRE_SQUARES: u32 =
    (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18) | (1 << 9) | (1 << 10) | (1 << 21) | (1 << 22);

/// The material-and-position evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckersEval;

/// One side's score: `men` and `kings` its pieces, `side` which way its men go.
fn side_score(men: u32, kings: u32, side: Side, opponent_men: u32) -> i32 {
    let mut score = men.count_ones() as i32 * MAN + kings.count_ones() as i32 * KING;
    let mut m = men;
    while m != 0 {
        let row = m.trailing_zeros() as i32 / 4;
        score += ADVANCE * if side == Side::First { row } else { 7 - row };
        m &= m - 1;
    }
    let back = if side == Side::First { TOP_ROW } else { BOTTOM_ROW };
    if opponent_men != 0 {
        score += BACK_RANK * (men & back).count_ones() as i32;
    }
    score + CENTRE * ((men | kings) & CENTRE_SQUARES).count_ones() as i32
}

impl Evaluator<Checkers> for CheckersEval {
    type Carry = ();

    fn evaluate(&self, _g: &Checkers, s: &CheckersState) -> i32 {
        let (bm, bk) = (s.black & !s.kings, s.black & s.kings);
        let (wm, wk) = (s.white & !s.kings, s.white & s.kings);
        let black = side_score(bm, bk, Side::First, wm);
        let white = side_score(wm, wk, Side::Second, bm);
        let mut score = black - white;
        // Ahead in material: fewer pieces on the board is better for the side ahead.
        let material = (bm.count_ones() as i32 - wm.count_ones() as i32) * MAN
            + (bk.count_ones() as i32 - wk.count_ones() as i32) * KING;
        let traded = 24 - (s.black | s.white).count_ones() as i32;
        score += material.signum() * 2 * traded;
        if s.stm == Side::First { score } else { -score }
    }
}
