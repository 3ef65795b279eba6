//! Backgammon's observation tensor in OpenSpiel's layout (Tesauro's TD-Gammon inputs, 200 numbers), for observer `p`:
//!
//! ```text
//! 0..96     p's checkers on OpenSpiel's points 0..23, four numbers each: n == 1, n == 2, n == 3, max(n - 3, 0)
//! 96..192   the opponent's, the same way
//! 192..198  p's checkers on the bar, p's borne off, 1 if p is to play; then the same three for the opponent
//! 198..200  the dice while a player is to play (low, high; OpenSpiel keeps the order they were rolled), else 0 0
//! ```
//! OpenSpiel's point `i` is X's point `24 - i` and O's point `i + 1` (one numbering for the board, X moving up).

use super::board::{BAR, count};
use super::{BgState, phase};

/// The tensor's length.
pub(crate) const SIZE: usize = 200;

/// Fill `out` (zeroed, [`SIZE`] numbers) with what `observer` (0 = X, 1 = O) sees of `s`.
pub fn observe(s: &BgState, observer: usize, out: &mut [f32]) {
    let to_play = matches!(s.phase, phase::MOVE | phase::HALF) && s.winner().is_none();
    for (k, p) in [observer, 1 - observer].into_iter().enumerate() {
        let side = s.sides[p];
        for i in 0..24 {
            let point = if p == 0 { 24 - i } else { i + 1 };
            let n = count(side, point);
            let cell = &mut out[96 * k + 4 * i..96 * k + 4 * i + 4];
            match n {
                0 => {}
                1..=3 => cell[n as usize - 1] = 1.0,
                _ => cell[3] = (n - 3) as f32,
            }
        }
        out[192 + 3 * k] = count(side, BAR) as f32;
        out[193 + 3 * k] = count(side, 0) as f32;
        out[194 + 3 * k] = if to_play && s.mover as usize == p { 1.0 } else { 0.0 };
    }
    if to_play {
        out[198] = s.lo as f32;
        out[199] = s.hi as f32;
    }
}
