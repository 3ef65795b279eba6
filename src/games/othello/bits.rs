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
//! On the full 8x8 board [`moves_8x8`] does the same in four steps a direction instead of six.
//!
//! Flips of a move look at the eight rays from the square ([`RAYS`]) and keep a ray's opponent discs when one of ours
//! closes it.

/// The board geometry of one size: the board mask and the eight directions' target masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub size: u32,
    /// Every square of the board.
    pub board: u64,
    /// Per direction (see [`DIRS`]): the squares a shift may land on.
    pub target: [u64; 8],
    /// The four corners.
    pub(crate) corners: u64,
    /// The four quadrants (parity ordering of the endgame solver).
    pub(crate) quadrants: [u64; 4],
}

/// The eight directions as signed shifts: E, W, S, N, SE, NW, SW, NE.
pub(crate) const DIRS: [i32; 8] = [1, -1, 8, -8, 9, -9, 7, -7];

/// Column a of the 8x8 grid.
pub(crate) const COL_A: u64 = 0x0101_0101_0101_0101;
const COL_H: u64 = COL_A << 7;

/// `RAYS[sq][i]`: the squares of the 8x8 grid from `sq` (excluded) in direction `DIRS[i]` to the grid's edge. A
/// smaller board is a block in the grid's corner, so a ray from one of its squares stays on it for a prefix of the ray:
/// the ray cut to the board is `RAYS[sq][i] & board`.
pub(crate) static RAYS: [[u64; 8]; 64] = rays();

const fn rays() -> [[u64; 8]; 64] {
    let mut out = [[0u64; 8]; 64];
    let steps: [(i32, i32); 8] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 8 {
            let (dr, dc) = steps[i];
            let (mut r, mut c) = (sq as i32 / 8 + dr, sq as i32 % 8 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                out[sq][i] |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            i += 1;
        }
        sq += 1;
    }
    out
}

/// `AROUND[sq]`: the squares of the 8x8 grid next to `sq` (in any of the eight directions). A move on `sq` flips
/// something only if one of them is an opponent disc: a test cheaper than the flips (the opponent's discs are on
/// the board, so the grid's squares serve every size).
pub(crate) static AROUND: [u64; 64] = around();

const fn around() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (rr, cc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && rr >= 0 && rr < 8 && cc >= 0 && cc < 8 {
                    out[sq] |= 1u64 << (rr * 8 + cc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    out
}

/// The moves of the side owning `own` on the full 8x8 board. The same lines as the shift-and-mask loop, with two
/// changes that make each direction four steps instead of six: only the opponent's discs inside the board's frame
/// (not on the edge the shift leaves) may be passed, so no target mask is needed for the discs; and after two single
/// steps the run doubles its stride, through the pairs of adjacent opponent discs (`pairs`):
///
/// ```text
/// per direction d (and its opposite):  m := opp & inner_d          -- passable opponent discs
///     x := m & shift_d(own);  x |= m & shift_d(x)                  -- runs of 1 and 2 discs
///     pairs := m & shift_d(m)                                      -- a disc whose neighbour behind is passable
///     x |= pairs & shift_2d(x);  x |= pairs & shift_2d(x)          -- runs of up to 6 discs
///     moves |= shift_d(x)
/// moves & empty
/// ```
#[inline]
pub(crate) fn moves_8x8(own: u64, opp: u64) -> u64 {
    // Horizontal and diagonal runs may not wrap from column h to column a: their passable discs are off both
    // columns. Vertical runs fall off the top and bottom by themselves.
    let inner_cols = opp & 0x7E7E_7E7E_7E7E_7E7E;
    let mut moves = 0;
    for (d, m) in [(1, inner_cols), (8, opp), (7, inner_cols), (9, inner_cols)] {
        let mut x = m & (own << d);
        x |= m & (x << d);
        let pairs = m & (m << d);
        x |= pairs & (x << (2 * d));
        x |= pairs & (x << (2 * d));
        moves |= x << d;
        let mut y = m & (own >> d);
        y |= m & (y >> d);
        let pairs = m & (m >> d);
        y |= pairs & (y >> (2 * d));
        y |= pairs & (y >> (2 * d));
        moves |= y >> d;
    }
    moves & !(own | opp)
}

/// Shift a bitboard by a signed amount (positive: towards higher squares).
#[inline(always)]
pub(crate) fn shift(b: u64, d: i32) -> u64 {
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

    /// The squares where the side owning `own` may play (on 8x8 by [`moves_8x8`]).
    #[inline]
    pub fn moves(&self, own: u64, opp: u64) -> u64 {
        if self.size == 8 {
            return moves_8x8(own, opp);
        }
        self.moves_by_shifts(own, opp)
    }

    /// [`Self::moves`] by the shift-and-mask loop of the module's comment, on every size.
    #[inline]
    pub(crate) fn moves_by_shifts(&self, own: u64, opp: u64) -> u64 {
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

    /// The position after our move on `sq` (a legal one), from the opponent's side: (its discs, ours).
    #[inline]
    pub fn play(&self, own: u64, opp: u64, sq: u32) -> (u64, u64) {
        let f = self.flips(own, opp, sq);
        (opp & !f, own | f | (1 << sq))
    }

    /// The opponent discs flipped by playing on `sq` (empty, legal or not: an illegal square flips nothing).
    ///
    /// Each ray from `sq` (the 8x8 grid's ray cut to the board, see [`RAYS`]) flips its squares before the first
    /// square that is not an opponent disc (the *blocker*: the lowest such bit on a ray towards higher squares, the
    /// highest on one towards lower squares) when that blocker is one of our discs. Without branches: a ray that is
    /// not closed by one of ours is masked out (whether a ray closes is a coin toss to the processor's predictor).
    ///
    /// On 8x8 the four lines through the square read as bytes do it with small tables ([`super::lines`]).
    #[inline]
    pub(crate) fn flips(&self, own: u64, opp: u64, sq: u32) -> u64 {
        if self.size == 8 {
            return super::lines::flips_8x8(own, opp, sq);
        }
        self.flips_by_rays(own, opp, sq)
    }

    /// [`Self::flips`] from the rays cut to the board, on every size.
    #[inline]
    pub(crate) fn flips_by_rays(&self, own: u64, opp: u64, sq: u32) -> u64 {
        let rays = &RAYS[sq as usize];
        let mut flips = 0;
        // Towards higher squares (E, S, SE, SW): the blocker is the lowest bit (none: 0, and nothing closes).
        for i in [0, 2, 4, 6] {
            let ray = rays[i] & self.board;
            let blockers = ray & !opp;
            let b = blockers & blockers.wrapping_neg();
            let closed = ((b & own != 0) as u64).wrapping_neg();
            flips |= ray & b.wrapping_sub(1) & closed;
        }
        // Towards lower squares (W, N, NW, NE): the highest bit (none: bit 0 stands in, and is no blocker).
        for i in [1, 3, 5, 7] {
            let ray = rays[i] & self.board;
            let blockers = ray & !opp;
            let b = (1u64 << 63) >> (blockers | 1).leading_zeros();
            let closed = ((b & blockers & own != 0) as u64).wrapping_neg();
            flips |= ray & !(b << 1).wrapping_sub(1) & closed;
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

    /// The board's squares next to a square of `discs` (in any of the eight directions).
    #[inline]
    pub(crate) fn neighbours(&self, discs: u64) -> u64 {
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

    proptest::proptest! {
        /// On 8x8 the specialised moves equal the general ones, on arbitrary boards.
        #[test]
        fn the_8x8_moves_equal_the_general_ones(a in proptest::prelude::any::<u64>(),
                                                        b in proptest::prelude::any::<u64>(),
                                                        c in proptest::prelude::any::<u64>()) {
            let g = Geometry::new(8);
            // Half the squares empty, then an eighth (b & c as the empty squares' mask).
            for (own, opp) in [(a & !b, b & !a), (a & !(b & c), !a & !(b & c))] {
                proptest::prop_assert_eq!(moves_8x8(own, opp), g.moves_by_shifts(own, opp));
                proptest::prop_assert_eq!(moves_8x8(opp, own), g.moves_by_shifts(opp, own));
            }
        }
    }
}
