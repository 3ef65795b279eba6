//! The FEN-like board text shared by the board games: ranks from the top row down separated by `/`, one letter per
//! piece, digits for runs of empty squares.

use crate::game::{GameError, err};

/// Write `rows` ranks of `columns` squares, top rank first; `piece(row, col)` names the piece on a square (row 0 is
/// the bottom rank), `None` for an empty one.
pub(crate) fn write_ranks(rows: u32, columns: u32, piece: impl Fn(u32, u32) -> Option<char>) -> String {
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

/// How a game names the parts of its board text in error messages.
pub(crate) struct RankWords<'a> {
    /// `rank` or `row`.
    pub unit: &'a str,
    /// `piece` or `symbol`.
    pub symbol: &'a str,
    /// What a square may hold, for the error on an unknown symbol (`P, p or a digit`).
    pub expected: &'a str,
}

/// Read `rows` ranks of `columns` squares, top rank first, separated by `/`: digits are runs of empty squares (no
/// leading zero), any other character goes to `square(ch, row, col)` (row 0 is the bottom rank), which returns
/// `false` for a symbol the game does not know. Errors are one line, starting `position:`.
pub(crate) fn read_ranks(
    board: &str,
    rows: u32,
    columns: u32,
    words: &RankWords,
    mut square: impl FnMut(char, u32, u32) -> bool,
) -> Result<(), GameError> {
    let RankWords { unit, symbol, expected } = words;
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != rows as usize {
        return err(format!(
            "position: {} {unit}s given, the board has {rows} ({unit}s from the top separated by '/')",
            ranks.len()
        ));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let row = rows - 1 - i as u32;
        let label = row + 1;
        let mut col = 0u32;
        let mut chars = rank.char_indices().peekable();
        while let Some((j, ch)) = chars.next() {
            if ch.is_ascii_digit() {
                let mut end = j + 1;
                while let Some(&(k, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
                    end = k + d.len_utf8();
                    chars.next();
                }
                let run = &rank[j..end];
                let n: u32 = run.parse().unwrap_or(u32::MAX);
                if n == 0 || n > columns - col || run.starts_with('0') {
                    return err(format!(
                        "position: {unit} {label} '{rank}' has a bad empty count '{run}' ({columns} columns)"
                    ));
                }
                col += n;
                continue;
            }
            if col >= columns {
                return err(format!("position: {unit} {label} '{rank}' is longer than {columns} columns"));
            }
            if !square(ch, row, col) {
                return err(format!(
                    "position: unknown {symbol} '{}' on {unit} {label} (expected {expected})",
                    ch.escape_debug()
                ));
            }
            col += 1;
        }
        if col != columns {
            return err(format!("position: {unit} {label} '{rank}' covers {col} columns, the board has {columns}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{RankWords, read_ranks, write_ranks};

    #[test]
    fn ranks_read_back_what_was_written_and_bad_ranks_are_errors() {
        let words = RankWords { unit: "rank", symbol: "piece", expected: "P or a digit" };
        let mut seen = Vec::new();
        read_ranks("12/3P8", 2, 12, &words, |ch, r, c| {
            seen.push((ch, r, c));
            ch == 'P'
        })
        .unwrap();
        assert_eq!(seen, vec![('P', 0, 3)]);
        for (bad, says) in [
            ("12", "1 ranks given"),
            ("12/3P9", "bad empty count '9'"),
            ("12/03P8", "bad empty count '03'"),
            ("12/3P7", "covers 11 columns"),
            ("12/3PPPPPPPPPP", "longer than 12"),
            ("12/3é8", "unknown piece 'é' on rank 1"),
        ] {
            let e = read_ranks(bad, 2, 12, &words, |ch, _, _| ch == 'P').unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn runs_of_empty_squares_become_digits() {
        let t = write_ranks(2, 12, |r, c| if r == 0 && c == 3 { Some('P') } else { None });
        assert_eq!(t, "12/3P8");
    }
}
