//! The last empty square of a full 8x8 board: how many discs a move there flips, from the mover's discs alone.
//!
//! With one empty square left, every other square holds a disc, so a square that is not the mover's is the
//! opponent's: the discs a move flips on one of its four lines (row, column, two diagonals) depend only on the mover's
//! discs on that line. Each line is gathered into one byte (bit `i`: the line's square in column `i`, or in row `i` for
//! a column), and a table of 8 x 256 counts, built at compile time, gives the flips of a move at each place of the
//! line:
//!
//! ```text
//! count(sq, mine) = Σ over the 4 lines through sq:  COUNT[place of sq on the line][mine's byte of the line]
//!     row r:          (mine >> 8r) & 0xff                                          place: column c
//!     column c:       ((mine >> c) & column a) x 0x0102040810204080 >> 56         place: row r
//!     diagonal d:     (mine & d) x 0x0101010101010101 >> 56                       place: column c
//!     (each square of a diagonal is in its own column, so the product's top byte gathers them without carries)
//! COUNT[p][x] = Σ over the two directions from p: the squares passed until the first bit of x, if there is one
//! ```
//!
//! A diagonal shorter than 8 leaves the byte's other bits at 0 (not the mover's): a run from `p` that leaves the
//! diagonal never meets a bit of `x` again, so it flips nothing, as on the board. On smaller boards the squares off
//! the board are nobody's, so this holds on 8x8 only.

use crate::games::othello::bits::COL_A;

/// Gathers column a's bits (row `r` at bit `8r`) into the top byte, row `r` at bit `56 + r`.
const COL_GATHER: u64 = 0x0102_0408_1020_4080;

/// `COUNT[p][x]`: discs flipped by a move at place `p` of a line whose other squares are the mover's at the bits of
/// `x` and the opponent's elsewhere.
static COUNT: [[u8; 256]; 8] = count_table();

const fn count_table() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut x = 0;
        while x < 256 {
            let mut total = 0;
            // Towards higher places.
            let mut i = p + 1;
            while i < 8 && x >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                total += i - p - 1;
            }
            // Towards lower places.
            let mut j = p as i32 - 1;
            while j >= 0 && x >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                total += p - j as usize - 1;
            }
            t[p][x] = total as u8;
            x += 1;
        }
        p += 1;
    }
    t
}

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

/// The number of discs a move on `sq` flips on a full 8x8 board but for `sq`, the mover owning `mine` (every other
/// square is the opponent's).
#[inline]
pub(super) fn count(sq: u32, mine: u64) -> i32 {
    let (r, c) = ((sq / 8) as usize, (sq % 8) as usize);
    let row = (mine >> (8 * r)) as u8 as usize;
    let col = (((mine >> c) & COL_A).wrapping_mul(COL_GATHER) >> 56) as usize;
    let [d, a] = DIAGS[sq as usize];
    let diag = ((mine & d).wrapping_mul(COL_A) >> 56) as usize;
    let anti = ((mine & a).wrapping_mul(COL_A) >> 56) as usize;
    (COUNT[c][row] + COUNT[r][col] + COUNT[c][diag] + COUNT[c][anti]) as i32
}

#[cfg(test)]
mod tests {
    use super::count;
    use crate::games::othello::bits::Geometry;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// On a full board but one square, the count equals the number of discs the general flips give, for either
        /// side to move.
        #[test]
        fn counts_equal_the_general_flips(board in any::<u64>(), sq in 0u32..64) {
            let geo = Geometry::new(8);
            let own = board & !(1u64 << sq);
            let opp = !own & !(1u64 << sq);
            prop_assert_eq!(count(sq, own), geo.flips(own, opp, sq).count_ones() as i32);
            prop_assert_eq!(count(sq, opp), geo.flips(opp, own, sq).count_ones() as i32);
        }
    }
}
