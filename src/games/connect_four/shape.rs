//! The board's shape: its size and the masks and shifts that follow from it (the bit layout is drawn in the module
//! documentation of [`super`]).
//!
//! [`Shape`] has two implementations: [`ConnectFour`](super::ConnectFour), any size read at run time, and
//! [`Standard`], the 6x7 board known at compile time, so that every mask and shift folds into a constant. The
//! position's helpers ([`super::Position`]) and the solver ([`crate::solve::connect4`]) are generic over it; the
//! results are the same with both (a test compares node counts).

/// `x >> n`, 0 when `n >= 64`.
#[inline(always)]
pub(super) fn shr(x: u64, n: u32) -> u64 {
    x.checked_shr(n).unwrap_or(0)
}

/// `x << n`, 0 when `n >= 64`.
#[inline(always)]
pub(super) fn shl(x: u64, n: u32) -> u64 {
    x.checked_shl(n).unwrap_or(0)
}

/// One bit at the bottom of each of the first `columns` columns, columns `stride` bits apart.
pub(super) const fn bottom_row(columns: u32, stride: u32) -> u64 {
    let mut b = 0u64;
    let mut c = 0;
    while c < columns {
        b |= 1u64 << (c * stride);
        c += 1;
    }
    b
}

/// A board size. Columns are 0-based here (move `1` is column 0).
pub trait Shape: Copy + Send + Sync + std::fmt::Debug + 'static {
    /// Number of rows.
    fn rows(&self) -> u32;
    /// Number of columns.
    fn columns(&self) -> u32;
    /// The bottom cell of every column.
    fn bottom_mask(&self) -> u64;
    /// Every playable cell (the sentinels excluded).
    fn board_mask(&self) -> u64;

    /// Bits per column: the rows and the sentinel.
    #[inline(always)]
    fn stride(&self) -> u32 {
        self.rows() + 1
    }

    /// Number of cells.
    #[inline(always)]
    fn cells(&self) -> u32 {
        self.columns() * self.rows()
    }

    /// The cells of column `c`.
    #[inline(always)]
    fn column_mask(&self, c: u32) -> u64 {
        ((1u64 << self.rows()) - 1) << (c * self.stride())
    }

    /// The top cell of column `c`.
    #[inline(always)]
    fn top_mask(&self, c: u32) -> u64 {
        1u64 << (self.rows() - 1 + c * self.stride())
    }

    /// The bottom cell of column `c`.
    #[inline(always)]
    fn bottom_cell(&self, c: u32) -> u64 {
        1u64 << (c * self.stride())
    }

    /// The column of a one-bit move.
    #[inline(always)]
    fn column_of(&self, mv: u64) -> u32 {
        mv.trailing_zeros() / self.stride()
    }

    /// Whether the discs `p` hold four in a row: for each direction `d` (1 vertical, `stride` horizontal,
    /// `stride - 1` and `stride + 1` the two diagonals), `m = p & (p >> d); m & (m >> 2d) != 0`. A line across
    /// needs four columns, so boards of fewer columns only look up; with four or more columns the stride is at most
    /// 16 and no shift reaches 64.
    #[inline(always)]
    fn has_four(&self, p: u64) -> bool {
        let m = p & (p >> 1);
        if m & (m >> 2) != 0 {
            return true;
        }
        if self.columns() < 4 {
            return false;
        }
        let h = self.stride();
        for d in [h, h - 1, h + 1] {
            let m = p & (p >> d);
            if m & (m >> (2 * d)) != 0 {
                return true;
            }
        }
        false
    }

    /// The empty cells (playable now or later) where the discs `p` would complete four in a row, given every disc
    /// `mask` (Pons's `compute_winning_position`). As in [`Shape::has_four`], lines across are only looked for on
    /// boards of four columns or more, where every shift stays below 64.
    #[inline(always)]
    fn winning_cells(&self, p: u64, mask: u64) -> u64 {
        // Vertical: three discs right below the cell.
        let mut r = (p << 1) & (p << 2) & (p << 3);
        if self.columns() >= 4 {
            // Horizontal and the two diagonals: the empty cell may be at any of the line's four places.
            let h = self.stride();
            for d in [h, h - 1, h + 1] {
                let two = (p << d) & (p << (2 * d));
                r |= two & (p << (3 * d));
                r |= two & (p >> d);
                let two = (p >> d) & (p >> (2 * d));
                r |= two & (p << d);
                r |= two & (p >> (3 * d));
            }
        }
        r & (self.board_mask() ^ mask)
    }

    /// Mirror image (column `c` becomes column `columns - 1 - c`) of a bitboard or of a key
    /// ([`super::Position::key`] works column by column, so the mirror of a key is the key of the mirror image).
    #[inline(always)]
    fn mirror(&self, bits: u64) -> u64 {
        let h = self.stride();
        let col = shl(1, h).wrapping_sub(1);
        let w = self.columns();
        let mut out = 0u64;
        for c in 0..w {
            out |= ((bits >> (c * h)) & col) << ((w - 1 - c) * h);
        }
        out
    }
}

/// The standard board, 6 rows x 7 columns, with compile-time constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Standard;

const STANDARD_BOTTOM: u64 = bottom_row(7, 7);

impl Shape for Standard {
    #[inline(always)]
    fn rows(&self) -> u32 {
        6
    }
    #[inline(always)]
    fn columns(&self) -> u32 {
        7
    }
    #[inline(always)]
    fn bottom_mask(&self) -> u64 {
        STANDARD_BOTTOM
    }
    #[inline(always)]
    fn board_mask(&self) -> u64 {
        STANDARD_BOTTOM * 63
    }
}
