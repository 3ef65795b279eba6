//! Resampling: a full state that a player cannot tell from the true one (the same observation, so the same legal
//! moves).
//!
//! For player `p` (opponent `q`) in a state that is not over, the sample keeps everything `p` sees (its pieces, the
//! side to move, the squares found this turn, the messages) and the number of `q`'s pieces. The pieces of `q` that the
//! observation pins down stay: the found squares and the square where `q` just captured when `p` is to move; the
//! pieces behind `q`'s found squares when `q` is to move. The others are put uniformly on the squares left (not `p`'s,
//! not on `q`'s goal row, where the game would be over). The sample is consistent with the current observation, not
//! necessarily with the whole history: the belief tracker (`hidden/belief.rs`) is what keeps only boards consistent
//! with every observation.

use rand::{Rng, RngExt};

use super::{DarkBreakthrough, DarkState, News};
use crate::game::{Game, Side};

/// A state `p` cannot tell from `s` (the keys are recomputed by the caller).
pub fn resample<R: Rng + ?Sized>(g: &DarkBreakthrough, s: &DarkState, p: Side, rng: &mut R) -> DarkState {
    if g.is_terminal(s) {
        return *s;
    }
    let q = p.other();
    let (own, theirs) = (DarkBreakthrough::pieces(s, p), DarkBreakthrough::pieces(s, q));
    let c = g.bt.columns;
    let mut fixed = 0u64;
    if s.board.stm == p {
        fixed |= s.found;
        if let News::OpponentMoved(Some(sq)) = s.said[p.index()] {
            fixed |= 1u64 << sq;
        }
    } else {
        // q found p's pieces straight ahead of some of its own: those stay behind them.
        fixed |= match q {
            Side::First => s.found >> c,
            Side::Second => s.found << c,
        };
    }
    fixed &= theirs;
    let free = g.bt.board_mask() & !own & !fixed & !g.bt.goal_row(q);
    let mut squares: Vec<u32> = Vec::new();
    let mut b = free;
    while b != 0 {
        squares.push(b.trailing_zeros());
        b &= b - 1;
    }
    let n = (theirs.count_ones() - fixed.count_ones()) as usize;
    // A partial Fisher-Yates shuffle picks n squares uniformly.
    let mut placed = fixed;
    for i in 0..n.min(squares.len()) {
        let j = rng.random_range(i..squares.len());
        squares.swap(i, j);
        placed |= 1u64 << squares[i];
    }
    let mut t = *s;
    match q {
        Side::First => t.board.white = placed,
        Side::Second => t.board.black = placed,
    }
    t
}
