//! The full 8x8 board read line by line: the four lines through a square (its row, its column, its diagonal and its
//! anti-diagonal) each gathered into a byte, and the flips of a move computed from those bytes with small tables.
//!
//! ```text
//! a line's byte: row r: bit k = square (r, k)     column c: bit k = square (k, c)
//!                diagonals: bit k = the diagonal's square in column k (0 where it has none)
//! the place p of sq = (r, c) on a line: c on the row and the diagonals, r on the column
//!
//! flips_8x8(own, opp, sq) = for each of the four lines through sq:
//!     ends := OUTFLANK[p][opp's byte, bits 1 to 6]     -- the squares just past each run of opponent discs that
//!                                                          starts next to p (at most one each side)
//!     f := FLIPPED[p][ends & own's byte]               -- the squares between p and the ends that are ours
//!     f spread back onto the line's squares
//! ```
//!
//! The opponent's edge squares (bits 0 and 7) never need reading: a run that reaches the edge has no square past it,
//! and the table's candidate end there is then an opponent disc, never one of ours. A diagonal shorter than 8 leaves
//! its byte's other bits at 0 in both bytes: no run crosses them and no end is ours there, as off the board. Spreading
//! back: a row by a shift, a column by a table of 256 (bit k to bit 8k), a diagonal by copying the byte to every row
//! and keeping the diagonal's squares. [`super::bits::Geometry::flips`] uses this on 8x8; the rays of `bits.rs` stay
//! for 4x4 and 6x6, and a property test compares the two on random boards.

use super::bits::COL_A;

/// Gathers column a's bits (row `r` at bit `8r`) into the top byte, row `r` at bit `56 + r`.
const COL_GATHER: u64 = 0x0102_0408_1020_4080;

/// `DIAGS[sq]`: the diagonal (towards the south-east) and the anti-diagonal (towards the south-west) through `sq`.
static DIAGS: [[u64; 2]; 64] = diagonals();

const fn diagonals() -> [[u64; 2]; 64] {
    let mut out = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut row = 0;
        while row < 8 {
            let down = c + (row - r);
            let up = c - (row - r);
            if down >= 0 && down < 8 {
                out[sq][0] |= 1u64 << (row * 8 + down);
            }
            if up >= 0 && up < 8 {
                out[sq][1] |= 1u64 << (row * 8 + up);
            }
            row += 1;
        }
        sq += 1;
    }
    out
}

/// The bytes of `x` on the four lines through `sq`: row, column, diagonal, anti-diagonal (see the module's comment).
#[inline(always)]
pub(crate) fn line_bytes(x: u64, sq: u32) -> [usize; 4] {
    let (r, c) = (sq / 8, sq % 8);
    let [d, a] = DIAGS[sq as usize];
    [
        (x >> (8 * r)) as u8 as usize,
        (((x >> c) & COL_A).wrapping_mul(COL_GATHER) >> 56) as usize,
        ((x & d).wrapping_mul(COL_A) >> 56) as usize,
        ((x & a).wrapping_mul(COL_A) >> 56) as usize,
    ]
}

/// `OUTFLANK[p][o]`: with the opponent's discs at the bits of `o << 1` (places 1 to 6), the place just past each run
/// of them that starts next to `p`, on either side (a run of at least one disc).
static OUTFLANK: [[u8; 64]; 8] = outflank_table();

const fn outflank_table() -> [[u8; 64]; 8] {
    let mut t = [[0u8; 64]; 8];
    let mut p = 0;
    while p < 8 {
        let mut o = 0;
        while o < 64 {
            let opp = o << 1;
            let mut ends = 0u8;
            let mut i = p + 1;
            while i < 8 && opp >> i & 1 == 1 {
                i += 1;
            }
            if i > p + 1 && i < 8 {
                ends |= 1 << i;
            }
            let mut j = p as i32 - 1;
            while j >= 0 && opp >> j & 1 == 1 {
                j -= 1;
            }
            if j < p as i32 - 1 && j >= 0 {
                ends |= 1 << j;
            }
            t[p][o] = ends;
            o += 1;
        }
        p += 1;
    }
    t
}

/// `FLIPPED[p][e]`: the places strictly between `p` and each bit of `e`.
static FLIPPED: [[u8; 256]; 8] = flipped_table();

const fn flipped_table() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut e = 0;
        while e < 256 {
            let mut f = 0u8;
            let mut k = 0;
            while k < 8 {
                if e >> k & 1 == 1 {
                    let (lo, hi) = if k > p { (p + 1, k) } else { (k + 1, p) };
                    let mut i = lo;
                    while i < hi {
                        f |= 1 << i;
                        i += 1;
                    }
                }
                k += 1;
            }
            t[p][e] = f;
            e += 1;
        }
        p += 1;
    }
    t
}

/// `COLUMN[b]`: bit `k` of `b` at bit `8k` (a byte spread down column a).
static COLUMN: [u64; 256] = column_table();

const fn column_table() -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if b >> k & 1 == 1 {
                t[b] |= 1 << (8 * k);
            }
            k += 1;
        }
        b += 1;
    }
    t
}

/// The flipped discs of one line: place `p`, the mover's byte `own`, the opponent's `opp`.
#[inline(always)]
fn line_flips(p: usize, own: usize, opp: usize) -> u64 {
    FLIPPED[p][(OUTFLANK[p][(opp >> 1) & 63] as usize) & own] as u64
}

/// The opponent discs flipped by the move of `own` on the empty square `sq` of the 8x8 board (0 when the square
/// flips nothing: not a move).
#[inline]
pub(crate) fn flips_8x8(own: u64, opp: u64, sq: u32) -> u64 {
    let (r, c) = (sq / 8, sq % 8);
    let [d, a] = DIAGS[sq as usize];
    let mine = line_bytes(own, sq);
    let theirs = line_bytes(opp, sq);
    let (r_p, c_p) = (r as usize, c as usize);
    let row = line_flips(c_p, mine[0], theirs[0]) << (8 * r);
    let col = COLUMN[line_flips(r_p, mine[1], theirs[1]) as usize] << c;
    let diag = line_flips(c_p, mine[2], theirs[2]).wrapping_mul(0x0101_0101_0101_0101) & d;
    let anti = line_flips(c_p, mine[3], theirs[3]).wrapping_mul(0x0101_0101_0101_0101) & a;
    row | col | diag | anti
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::bits::Geometry;
    use proptest::prelude::*;

    proptest! {
        /// The line tables give the rays' flips on every empty square, for both sides, on sparse and dense boards.
        #[test]
        fn line_flips_equal_the_rays(a in any::<u64>(), b in any::<u64>(), c in any::<u64>()) {
            let g = Geometry::new(8);
            for (own, opp) in [(a & !b, b & !a), (a & !(b & c), !a & !(b & c))] {
                for sq in 0..64 {
                    if (own | opp) >> sq & 1 == 0 {
                        prop_assert_eq!(flips_8x8(own, opp, sq), g.flips_by_rays(own, opp, sq));
                        prop_assert_eq!(flips_8x8(opp, own, sq), g.flips_by_rays(opp, own, sq));
                    }
                }
            }
        }
    }
}
