//! The FEN-like board text shared by the board games: ranks from the top row down separated by `/`, one letter per
//! piece, digits for runs of empty squares.

/// Write `rows` ranks of `columns` squares, top rank first; `piece(row, col)` names the piece on a square (row 0 is
/// the bottom rank), `None` for an empty one.
pub fn write_ranks(rows: u32, columns: u32, piece: impl Fn(u32, u32) -> Option<char>) -> String {
    let mut out = String::new();
    for row in (0..rows).rev() {
        let mut empty = 0;
        for col in 0..columns {
            match piece(row, col) {
                Some(ch) => {
                    if empty > 0 {
                        out += &empty.to_string();
                        empty = 0;
                    }
                    out.push(ch);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out += &empty.to_string();
        }
        if row > 0 {
            out.push('/');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::write_ranks;

    #[test]
    fn runs_of_empty_squares_become_digits() {
        let t = write_ranks(2, 12, |r, c| if r == 0 && c == 3 { Some('P') } else { None });
        assert_eq!(t, "12/3P8");
    }
}
