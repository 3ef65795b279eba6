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

use crate::games::othello::lines::line_bytes;

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

/// The number of discs a move on `sq` flips on a full 8x8 board but for `sq`, the mover owning `mine` (every other
/// square is the opponent's).
#[inline]
pub(super) fn count(sq: u32, mine: u64) -> i32 {
    let (r, c) = ((sq / 8) as usize, (sq % 8) as usize);
    let [row, col, diag, anti] = line_bytes(mine, sq);
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
