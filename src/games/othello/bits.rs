//! Othello's bitboards: the board geometry, move generation and flips, for every even size from 4 to 8.
//!
//! The board of size `n` sits in the top-left corner of an 8x8 grid of bits: square `(row, col)` is bit
//! `row * 8 + col`, row 0 being the top row (`a1`..`h1`) as in the usual Othello notation. Squares outside the board
//! are never set.
//!
//! ```text
//!        a  b  c  d  e  f  g  h
//!   1    0  1  2  3  4  5  6  7
//!   2    8  9 10 11 12 13 14 15
//!   ...
//!   8   56 57 58 59 60 61 62 63
//! ```
//!
//! The eight directions are shifts of the whole board: `+1` east, `+8` south, `+9` south-east, `+7` south-west and the
//! negative ones. Each direction has a *target mask*: the board squares a shift may land on without wrapping from one
//! edge of the grid to the other (a shift east may not land on column a, a shift west not on column h). Move
//! generation is the classic shift-and-mask loop, all squares at once:
//!
//! ```text
//! moves(own, opp):
//!     for each direction d:
//!         x := shift_d(own) & opp & target_d          -- opponent discs next to ours
//!         repeat n - 3 times: x |= shift_d(x) & opp & target_d
//!         moves |= shift_d(x) & empty & target_d      -- an empty square closes the line
//! ```
//!
//! Flips of a move walk the eight rays from the square and keep a ray's opponent discs when one of ours closes it.

/// The board geometry of one size: the board mask and the eight directions' target masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub size: u32,
    /// Every square of the board.
    pub board: u64,
    /// Per direction (see [`DIRS`]): the squares a shift may land on.
    pub target: [u64; 8],
    /// The four corners.
    pub corners: u64,
    /// The four quadrants (parity ordering of the endgame solver).
    pub quadrants: [u64; 4],
}

/// The eight directions as signed shifts: E, W, S, N, SE, NW, SW, NE.
pub const DIRS: [i32; 8] = [1, -1, 8, -8, 9, -9, 7, -7];

const COL_A: u64 = 0x0101_0101_0101_0101;
const COL_H: u64 = COL_A << 7;

/// Shift a bitboard by a signed amount (positive: towards higher squares).
#[inline(always)]
pub fn shift(b: u64, d: i32) -> u64 {
    if d > 0 { b << d } else { b >> (-d) }
}

/// The square of `(row, col)`.
#[inline(always)]
pub fn square(row: u32, col: u32) -> u32 {
    row * 8 + col
}

impl Geometry {
    /// The geometry of an `n`x`n` board (`n` even, 4..=8: checked by the caller).
    pub fn new(n: u32) -> Geometry {
        let mut board = 0u64;
        for r in 0..n {
            for c in 0..n {
                board |= 1 << square(r, c);
            }
        }
        let mut target = [0u64; 8];
        for (i, &d) in DIRS.iter().enumerate() {
            let col = d.rem_euclid(8);
            // Eastward components (+1, +9, -7) may not land on column a; westward ones (-1, -9, +7) not on column h.
            let no_wrap = match col {
                1 => !COL_A,
                7 => !COL_H,
                _ => !0,
            };
            target[i] = board & no_wrap;
        }
        let m = n - 1;
        let corners = (1 << square(0, 0)) | (1 << square(0, m)) | (1 << square(m, 0)) | (1 << square(m, m));
        let h = n / 2;
        let mut quadrants = [0u64; 4];
        for r in 0..n {
            for c in 0..n {
                quadrants[(2 * (r / h) + c / h) as usize] |= 1 << square(r, c);
            }
        }
        Geometry { size: n, board, target, corners, quadrants }
    }

    /// The squares where the side owning `own` may play.
    #[inline]
    pub fn moves(&self, own: u64, opp: u64) -> u64 {
        let empty = self.board & !(own | opp);
        let mut moves = 0;
        for (i, &d) in DIRS.iter().enumerate() {
            let t = opp & self.target[i];
            let mut x = shift(own, d) & t;
            x |= shift(x, d) & t;
            x |= shift(x, d) & t;
            x |= shift(x, d) & t;
            x |= shift(x, d) & t;
            x |= shift(x, d) & t;
            moves |= shift(x, d) & empty & self.target[i];
        }
        moves
    }

    /// The opponent discs flipped by playing on `sq` (empty, legal or not: an illegal square flips nothing).
    #[inline]
    pub fn flips(&self, own: u64, opp: u64, sq: u32) -> u64 {
        let from = 1u64 << sq;
        let mut flips = 0;
        for (i, &d) in DIRS.iter().enumerate() {
            let t = self.target[i];
            let mut ray = 0;
            let mut x = shift(from, d) & t;
            while x & opp != 0 {
                ray |= x;
                x = shift(x, d) & t;
            }
            if x & own != 0 {
                flips |= ray;
            }
        }
        flips
    }

    /// The four centre squares' start: the second player (white, `o`) on the main diagonal, the first (black, `x`)
    /// on the other; returns (black, white).
    pub fn start(&self) -> (u64, u64) {
        let h = self.size / 2;
        let white = (1 << square(h - 1, h - 1)) | (1 << square(h, h));
        let black = (1 << square(h - 1, h)) | (1 << square(h, h - 1));
        (black, white)
    }

    /// The four centre squares.
    pub fn centre(&self) -> u64 {
        let (b, w) = self.start();
        b | w
    }

    /// Empty squares next to a disc of `discs` (in any direction).
    #[inline]
    pub fn neighbours(&self, discs: u64) -> u64 {
        let mut n = 0;
        for (i, &d) in DIRS.iter().enumerate() {
            n |= shift(discs, d) & self.target[i];
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_moves_are_d3_c4_f5_e6() {
        let g = Geometry::new(8);
        let (b, w) = g.start();
        let m = g.moves(b, w);
        let expect = [square(2, 3), square(3, 2), square(4, 5), square(5, 4)];
        assert_eq!(m, expect.iter().map(|&s| 1u64 << s).sum::<u64>());
        assert_eq!(g.flips(b, w, square(2, 3)), 1 << square(3, 3));
        assert_eq!(g.flips(b, w, 0), 0);
    }

    #[test]
    fn small_boards_stay_inside() {
        for n in [4, 6] {
            let g = Geometry::new(n);
            let (b, w) = g.start();
            assert_eq!(g.moves(b, w).count_ones(), 4);
            assert_eq!(g.moves(b, w) & !g.board, 0);
            assert_eq!(g.board.count_ones(), n * n);
        }
    }
}
