//! An upper bound on the score of a Connect Four position from the second player's follow-up strategy (Allis's
//! "claimeven"), for boards with an even number of rows when the first player is to move.
//!
//! The strategy. With an even number of stones on the board, the columns of odd height are even in number. The
//! second player answers a stone on an odd row (rows counted from 1 at the bottom) by a stone right above it, on an
//! even row; a stone on an even row (possible only at the top of a column of odd height, which it makes even) by a
//! stone on top of another column of odd height, again on an even row. The reply always exists, so the second player
//! ends up with every empty even-row cell except, perhaps, those playable now (the tops of the columns of odd height
//! today), and the first player with at most the rest: its stones, the empty odd-row cells and the cells playable now.
//!
//! The bound, for the side to move (the first player), from these two sets of cells:
//! - its set holds no four in a row: it can never win against the strategy, so it scores at most 0 (a draw);
//! - and the second player's set holds a four: that four is completed at the latest when its highest empty cell is
//!   filled, and when a cell on row `k` is filled the `rows - k` cells above it are still empty: the second player
//!   wins at the latest with stone number `cells - rows + k` of the game. Taking the lowest `k` for which the second
//!   player's stones plus its empty cells up to row `k` hold a four gives the bound `-(cells/2 + 1 - (cells - rows +
//!   k)/2)` (Pons's score of that loss).
//!
//! Otherwise (the first player's set holds a four) there is no bound. The search uses it as an upper bound only, so a
//! position where the strategy fails is searched as before.

use crate::games::connect_four::{Position, Shape};

/// Rows supported: `columns * (rows + 1) <= 64` allows up to 63.
const MAX_ROWS: usize = 64;

/// The masks of a board the bound needs; `None` from [`Claimeven::new`] on boards with an odd number of rows.
#[derive(Clone, Copy, Debug)]
pub(super) struct Claimeven {
    /// Every cell on an even row (1-based from the bottom).
    even_cells: u64,
    /// `up_to[i]`: every cell on rows `1..=2(i+1)`.
    up_to: [u64; MAX_ROWS / 2],
    /// Pairs of rows (`rows / 2`).
    pairs: usize,
}

impl Claimeven {
    /// The masks of board `g`, or `None` if its number of rows is odd (the strategy needs whole pairs of rows).
    pub(super) fn new<S: Shape>(g: &S) -> Option<Claimeven> {
        let rows = g.rows();
        if !rows.is_multiple_of(2) {
            return None;
        }
        let mut row_mask = [0u64; MAX_ROWS];
        for (r, m) in row_mask.iter_mut().enumerate().take(rows as usize) {
            *m = g.bottom_mask() << r;
        }
        let mut even_cells = 0;
        let mut up_to = [0u64; MAX_ROWS / 2];
        let mut below = 0u64;
        for i in 0..(rows / 2) as usize {
            // 0-based rows 2i (odd, 1-based) and 2i + 1 (even, 1-based).
            even_cells |= row_mask[2 * i + 1];
            below |= row_mask[2 * i] | row_mask[2 * i + 1];
            up_to[i] = below;
        }
        Some(Claimeven { even_cells, up_to, pairs: (rows / 2) as usize })
    }

    /// The lowest bound [`Claimeven::bound`] gives on board `g` (a four of the second player on the second row).
    #[inline(always)]
    pub(super) fn lowest<S: Shape>(&self, g: &S) -> i32 {
        let cells = g.cells() as i32;
        -(cells / 2 + 1 - (cells - g.rows() as i32 + 2) / 2)
    }

    /// The bound described in the module documentation for `p`, whose side to move is the first player (an even
    /// number of stones); `None` when the strategy does not bound the score.
    #[inline(always)]
    pub(super) fn bound<S: Shape>(&self, g: &S, p: &Position) -> Option<i32> {
        debug_assert!(p.plies.is_multiple_of(2));
        let empty = g.board_mask() & !p.mask;
        let theirs_empty = empty & self.even_cells & !p.possible(g);
        let theirs = p.opponent() | theirs_empty;
        let ours = g.board_mask() & !theirs;
        if g.has_four(ours) {
            return None;
        }
        if !g.has_four(theirs) {
            return Some(0);
        }
        let cells = g.cells() as i32;
        let rows = g.rows() as i32;
        for i in 0..self.pairs {
            if g.has_four(p.opponent() | (theirs_empty & self.up_to[i])) {
                let k = 2 * (i as i32 + 1);
                return Some(-(cells / 2 + 1 - (cells - rows + k) / 2));
            }
        }
        // Not reached: the last pair's cells are all of `theirs`, which holds a four.
        Some(-1)
    }
}
