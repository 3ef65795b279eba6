//! Othello's notations: square and move names (`d3`, `pass`), the position text and the drawing (see the module
//! documentation of [`super`]).

use crate::game::{BoardView, GameError, Layout, Side, err, view};

use super::bits::square;
use super::{Othello, OthelloState, PASS};

/// The name of a move: its square (`d3`) or `pass`.
pub(crate) fn move_name(mv: u8) -> String {
    if mv == PASS {
        return "pass".into();
    }
    let (row, col) = (mv / 8, mv % 8);
    format!("{}{}", (b'a' + col) as char, row + 1)
}

impl Othello {
    /// Parse `d3` or `pass` (any case); it must be legal in `s`.
    pub(super) fn parse_move_text(&self, s: &OthelloState, text: &str) -> Result<u8, GameError> {
        let t = text.trim().to_ascii_lowercase();
        let n = self.size();
        let legal = self.geo.moves(s.own, s.opp);
        let over = legal == 0 && self.geo.moves(s.opp, s.own) == 0;
        if over {
            return err("the game is over: no move is legal");
        }
        if t == "pass" {
            if legal != 0 {
                return err("'pass' is illegal: the side to move has a legal move (a player passes only without one)");
            }
            return Ok(PASS);
        }
        let b = t.as_bytes();
        let last = (b'a' + n as u8 - 1) as char;
        let bad =
            || format!("'{}': expected a square a1..{last}{n} (column letter, row number) or 'pass'", text.trim());
        if b.len() != 2 || !(b'a'..b'a' + n as u8).contains(&b[0]) || !(b'1'..b'1' + n as u8).contains(&b[1]) {
            return err(bad());
        }
        let sq = square((b[1] - b'1') as u32, (b[0] - b'a') as u32);
        if legal & (1 << sq) == 0 {
            let why = if (s.own | s.opp) & (1 << sq) != 0 {
                "the square is taken"
            } else if legal == 0 {
                "the side to move has no legal move and must pass"
            } else {
                "it flips no disc"
            };
            return err(format!("illegal move {t}: {why}"));
        }
        Ok(sq as u8)
    }

    /// `x`/`o`/`.` rows from row 1 down, separated by `/`, then the side to move.
    pub(super) fn format_position_text(&self, s: &OthelloState) -> String {
        let (black, white) = Othello::colours(s);
        let n = self.size();
        let rows: Vec<String> = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        let bit = 1u64 << square(r, c);
                        if black & bit != 0 {
                            'x'
                        } else if white & bit != 0 {
                            'o'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if s.side == Side::First { 'x' } else { 'o' };
        format!("{} {side}", rows.join("/"))
    }

    /// Read the position text (or the FFO/Edax one-run form); see the module documentation.
    pub(super) fn parse_position_text(&self, text: &str) -> Result<OthelloState, GameError> {
        let n = self.size() as usize;
        let words: Vec<&str> = text.split_whitespace().collect();
        let (board, side) = match words.as_slice() {
            [b, s] => (*b, *s),
            _ => {
                return err(format!(
                    "othello position: expected the board and the side to move (x or o), as in '{}'",
                    self.format_position_text(&self.start_state())
                ));
            }
        };
        let side = match side {
            "x" | "X" => Side::First,
            "o" | "O" => Side::Second,
            other => return err(format!("othello position: side to move '{other}': expected x or o")),
        };
        let cells: Vec<char> = if board.contains('/') {
            let rows: Vec<&str> = board.split('/').collect();
            if rows.len() != n {
                return err(format!("othello position: {} rows, expected {n} separated by '/'", rows.len()));
            }
            if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.chars().count() != n) {
                return err(format!("othello position: row {} '{r}' has {} squares, expected {n}", i + 1, r.len()));
            }
            rows.concat().chars().collect()
        } else {
            let c: Vec<char> = board.chars().collect();
            if c.len() != n * n {
                return err(format!(
                    "othello position: {} squares, expected {} (rows separated by '/', or one run of {n}x{n})",
                    c.len(),
                    n * n
                ));
            }
            c
        };
        let (mut black, mut white) = (0u64, 0u64);
        for (i, ch) in cells.iter().enumerate() {
            let bit = 1u64 << square((i / n) as u32, (i % n) as u32);
            match ch {
                'x' | 'X' | '*' => black |= bit,
                'o' | 'O' => white |= bit,
                '.' | '-' => {}
                other => {
                    return err(format!("othello position: '{other}' is not a square (x, o, or . for empty)"));
                }
            }
        }
        if (black | white) & self.geo.centre() != self.geo.centre() {
            return err("othello position: the four centre squares are never empty in a game");
        }
        Ok(self.from_colours(black, white, side))
    }

    fn start_state(&self) -> OthelloState {
        let (b, w) = self.geo.start();
        self.from_colours(b, w, Side::First)
    }

    /// [`Interop::board_view`](crate::game::Interop::board_view): black (x, the first player) and white discs, row 1 at the
    /// top as in the notation.
    pub(super) fn view(&self, s: &OthelloState) -> BoardView {
        let (black, white) = Othello::colours(s);
        let n = self.size();
        let mut v = BoardView::from_fn(Layout::Grid, n, n, ["black", "white"], |row, c| {
            let r = n - 1 - row;
            let bit = 1u64 << square(r, c);
            let name = format!("{}{}", (b'a' + c as u8) as char, r + 1);
            let owner = if black & bit != 0 {
                Some(Side::First)
            } else if white & bit != 0 {
                Some(Side::Second)
            } else {
                None
            };
            view::cell(name, "\u{25CF}", owner)
        });
        v.notes.push(format!("black {}, white {}", black.count_ones(), white.count_ones()));
        v
    }

    /// The board with coordinates, row 1 at the top, and the counts.
    pub(super) fn display_text(&self, s: &OthelloState) -> String {
        let (black, white) = Othello::colours(s);
        let n = self.size();
        let letters: String = (0..n).map(|c| format!(" {}", (b'a' + c as u8) as char)).collect();
        let mut out = format!(" {letters}\n");
        for r in 0..n {
            out += &format!("{}", r + 1);
            for c in 0..n {
                let bit = 1u64 << square(r, c);
                let ch = if black & bit != 0 {
                    'x'
                } else if white & bit != 0 {
                    'o'
                } else {
                    '.'
                };
                out += &format!(" {ch}");
            }
            out.push('\n');
        }
        let side = if s.side == Side::First { "x (black)" } else { "o (white)" };
        out += &format!("x {}  o {}  {side} to move", black.count_ones(), white.count_ones());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn start_text_round_trips_and_ffo_form_reads() {
        let g = Othello::default();
        let s = g.start();
        let t = g.format_position(&s);
        assert_eq!(t, "......../......../......../...ox.../...xo.../......../......../........ x");
        assert_eq!(g.parse_position(&t).unwrap(), s);
        let ffo = "---------------------------OX------XO--------------------------- X";
        assert_eq!(g.parse_position(ffo).unwrap(), s);
        for bad in ["", "x", "......../........ x", &t.replace(" x", " z"), &t.replace("...ox...", "...oxq..")] {
            let e = g.parse_position(bad).unwrap_err();
            assert!(!e.0.contains('\n'), "{e}");
        }
        assert!(g.parse_position(&t.replace("...ox...", "........")).is_err());
    }

    #[test]
    fn moves_parse_and_refuse() {
        let g = Othello::default();
        let s = g.start();
        assert_eq!(g.format_move(&s, g.parse_move(&s, "D3").unwrap()), "d3");
        for (bad, why) in
            [("d4", "taken"), ("a1", "flips no"), ("pass", "legal move"), ("z9", "expected"), ("", "expected")]
        {
            let e = g.parse_move(&s, bad).unwrap_err();
            assert!(e.0.contains(why), "{bad}: {e}");
        }
    }
}
