//! The checkers board: the 32 dark squares as bits 0..31 of a `u32` (bit `i` is PDN square `i + 1`), their rows and
//! columns, and the neighbour and jump tables the move generator walks.
//!
//! ```text
//!        a  b  c  d  e  f  g  h          square s (1..32): row r = (s-1)/4 from the top, column 2*((s-1)%4) + 1
//!   8       1     2     3     4          on even rows (b, d, f, h), 2*((s-1)%4) on odd rows (a, c, e, g);
//!   7    5     6     7     8             rank = 8 - r. Black starts on 1..12 (top) and moves down,
//!   6       9    10    11    12          White on 21..32 (bottom) and moves up.
//!   5   13    14    15    16
//!   4      17    18    19    20
//!   3   21    22    23    24
//!   2      25    26    27    28
//!   1   29    30    31    32
//! ```

/// No square (off the board), in the tables.
pub(crate) const NONE: u8 = 255;

/// The four diagonal directions: towards the top (rank 8) left and right, towards the bottom left and right.
pub(crate) const UP_LEFT: usize = 0;
pub(crate) const UP_RIGHT: usize = 1;
pub(crate) const DOWN_LEFT: usize = 2;
pub(crate) const DOWN_RIGHT: usize = 3;

/// Black's back rank (squares 1..4): White's men are crowned there.
pub(crate) const TOP_ROW: u32 = 0x0000_000F;
/// White's back rank (squares 29..32): Black's men are crowned there.
pub(crate) const BOTTOM_ROW: u32 = 0xF000_0000;
/// Every square.
pub const ALL: u32 = u32::MAX;

/// The row (0 at the top, rank 8) and column (0 = file a) of bit `i`.
pub const fn row_col(i: usize) -> (usize, usize) {
    let r = i / 4;
    let c = 2 * (i % 4) + if r.is_multiple_of(2) { 1 } else { 0 };
    (r, c)
}

/// The bit of the dark square at (`row`, `column`), if it is one.
pub(crate) const fn square_at(row: isize, column: isize) -> u8 {
    if row < 0 || row > 7 || column < 0 || column > 7 || (row + column) % 2 == 0 {
        return NONE;
    }
    (row * 4 + column / 2) as u8
}

const DR: [isize; 4] = [-1, -1, 1, 1];
const DC: [isize; 4] = [-1, 1, -1, 1];

const fn table(step: isize) -> [[u8; 4]; 32] {
    let mut t = [[NONE; 4]; 32];
    let mut i = 0;
    while i < 32 {
        let (r, c) = row_col(i);
        let mut d = 0;
        while d < 4 {
            t[i][d] = square_at(r as isize + step * DR[d], c as isize + step * DC[d]);
            d += 1;
        }
        i += 1;
    }
    t
}

/// `NEXT[i][d]`: the square one step from bit `i` in direction `d`.
pub(crate) const NEXT: [[u8; 4]; 32] = table(1);
/// `JUMP[i][d]`: the square two steps away (where a jump over `NEXT[i][d]` lands).
pub(crate) const JUMP: [[u8; 4]; 32] = table(2);

/// The name of bit `i` in algebraic coordinates (`a1` is square 29, `h8` square 4).
pub fn algebraic(i: usize) -> String {
    let (r, c) = row_col(i);
    format!("{}{}", (b'a' + c as u8) as char, 8 - r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_neighbours() {
        assert_eq!(algebraic(28), "a1");
        assert_eq!(algebraic(3), "h8");
        assert_eq!(algebraic(0), "b8");
        // 11 (bit 10) moves down to 15 and 16 (bits 14, 15); 9 (bit 8) down to 13 and 14.
        assert_eq!(NEXT[10][DOWN_LEFT], 14);
        assert_eq!(NEXT[10][DOWN_RIGHT], 15);
        assert_eq!(NEXT[8][DOWN_LEFT], 12);
        assert_eq!(NEXT[8][DOWN_RIGHT], 13);
        assert_eq!(NEXT[12][DOWN_LEFT], NONE);
        assert_eq!(JUMP[14][DOWN_RIGHT], 23);
        assert_eq!(JUMP[0][UP_LEFT], NONE);
    }
}
