//! Breakthrough's notations: squares (`a1`, or the course's `2a` on input), moves (`a2a3`; `b4xc5` and `b4-c5`
//! accepted), the FEN-like position text of Fairy-Stockfish, and the board drawing.

use crate::game::{BoardView, Game, GameError, Layout, MoveList, Side, err, view};
use crate::games::board_text;

use super::{Breakthrough, BtMove, BtState};

impl Breakthrough {
    /// Square name, `a1` .. (file letter, rank number).
    pub fn square_name(&self, sq: u32) -> String {
        let file = (b'a' + (sq % self.columns) as u8) as char;
        format!("{}{}", file, sq / self.columns + 1)
    }

    /// The board for the web page: White's pawns (the first player) and Black's on a grid, rank 1 at the bottom.
    pub fn view(&self, s: &BtState) -> BoardView {
        BoardView::from_fn(Layout::Grid, self.rows, self.columns, ["white", "black"], |row, column| {
            let sq = row * self.columns + column;
            let owner = if s.white >> sq & 1 != 0 {
                Some(Side::First)
            } else if s.black >> sq & 1 != 0 {
                Some(Side::Second)
            } else {
                None
            };
            view::cell(self.square_name(sq), "\u{265F}", owner)
        })
    }

    /// The index of square `sq` among [`Breakthrough::view`]'s cells (row-major from the top row).
    pub(crate) fn view_cell(&self, sq: u32) -> u32 {
        (self.rows - 1 - sq / self.columns) * self.columns + sq % self.columns
    }

    /// Parse one square at the start of `text` (`a2` or the course's `2a`); returns the square and the rest.
    fn parse_square<'a>(&self, text: &'a str) -> Result<(u32, &'a str), GameError> {
        let b = text.as_bytes();
        let (file, rank, rest) = if b.first().is_some_and(|c| c.is_ascii_alphabetic()) {
            let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return err(format!("'{text}': expected a square such as a2"));
            }
            (b[0].to_ascii_lowercase(), &text[1..1 + digits], &text[1 + digits..])
        } else if b.first().is_some_and(|c| c.is_ascii_digit()) {
            let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
            if digits >= b.len() || !b[digits].is_ascii_alphabetic() {
                return err(format!("'{text}': expected a square such as a2 (or 2a in the course notation)"));
            }
            (b[digits].to_ascii_lowercase(), &text[..digits], &text[digits + 1..])
        } else {
            return err(format!("'{text}': expected a square such as a2"));
        };
        let col = (file - b'a') as u32;
        let row: u32 = rank.parse().map_err(|_| GameError::new(format!("bad rank '{rank}'")))?;
        if col >= self.columns || row < 1 || row > self.rows {
            let last = (b'a' + self.columns as u8 - 1) as char;
            return err(format!(
                "square {}{} is off the {}x{} board (a1..{}{})",
                file as char, row, self.rows, self.columns, last, self.rows
            ));
        }
        Ok(((row - 1) * self.columns + col, rest))
    }

    pub(super) fn read_move(&self, s: &BtState, text: &str) -> Result<BtMove, GameError> {
        let t = text.trim();
        let (from, rest) = self.parse_square(t)?;
        let rest = rest.strip_prefix(['x', 'X', '-']).unwrap_or(rest);
        if rest.is_empty() {
            return err(format!("'{t}': expected a move from-to such as a2a3"));
        }
        let (to, rest) = self.parse_square(rest)?;
        if !rest.is_empty() {
            return err(format!("'{t}': unexpected '{rest}' after the move (expected from-to such as a2a3)"));
        }
        if self.outcome(s).is_some() {
            return err("the game is over: no move is legal");
        }
        let m = BtMove { from: from as u8, to: to as u8 };
        let mut moves = MoveList::new();
        self.generate_moves(s, &mut moves);
        if moves.contains(&m) {
            return Ok(m);
        }
        let (own, _) = Self::sides(s);
        let side = if s.stm == Side::First { "White" } else { "Black" };
        if own & (1u64 << from) == 0 {
            return err(format!("illegal move {t}: no {side} piece on {}", self.square_name(from)));
        }
        if self.forced_captures && moves.iter().any(|mm| self.is_capture(s, *mm)) {
            return err(format!("illegal move {t}: a capture is available and captures are forced"));
        }
        err(format!(
            "illegal move {t}: {side} pieces move one square forward, straight onto an empty square or diagonally onto a square without an own piece"
        ))
    }

    pub(super) fn read_position(&self, text: &str) -> Result<BtState, GameError> {
        let mut fields = text.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| GameError::new("empty position: expected ranks separated by '/' then w or b"))?;
        let side =
            fields.next().ok_or_else(|| GameError::new("position: missing side to move (w or b) after the board"))?;
        let extra: Vec<&str> = fields.collect();
        // Fairy-Stockfish writes "- - 0 1" after the side; accept exactly that shape.
        if !extra.is_empty() {
            let ok = extra.len() <= 4
                && extra.iter().enumerate().all(|(i, f)| if i < 2 { *f == "-" } else { is_plain_number(f) });
            if !ok {
                return err(format!("position: unexpected '{}' after the side to move", extra.join(" ")));
            }
        }
        let (white, black) = self.read_board(board)?;
        let stm = match side {
            "w" | "W" => Side::First,
            "b" | "B" => Side::Second,
            _ => return err(format!("position: side to move '{side}': expected w or b")),
        };
        let s = BtState { white, black, key: 0, stm };
        let (own, opp) = Self::sides(&s);
        let name = |p: Side| if p == Side::First { "White" } else { "Black" };
        if own & self.goal_row(stm) != 0 {
            return err(format!(
                "position: impossible: {} to move already has a piece on its goal row (the game ended a move ago)",
                name(stm)
            ));
        }
        if opp == 0 {
            return err(format!(
                "position: impossible: {} to move, but {} has no piece left",
                name(stm),
                name(stm.other())
            ));
        }
        let mut s = s;
        s.key = self.compute_key(&s);
        Ok(s)
    }

    /// The ranks of a position text (`pp/2/PP`): White's and Black's pieces, each side at most the pieces it starts
    /// with.
    pub(super) fn read_board(&self, board: &str) -> Result<(u64, u64), GameError> {
        let (mut white, mut black) = (0u64, 0u64);
        let words = board_text::RankWords { unit: "rank", symbol: "piece", expected: "P, p or a digit" };
        board_text::read_ranks(board, self.rows, self.columns, &words, |ch, row, col| {
            let bit = 1u64 << (row * self.columns + col);
            match ch {
                'P' => white |= bit,
                'p' => black |= bit,
                _ => return false,
            }
            true
        })?;
        let name = |p: Side| if p == Side::First { "White" } else { "Black" };
        let most = self.piece_rows * self.columns;
        for (pieces, who) in [(white, Side::First), (black, Side::Second)] {
            if pieces.count_ones() > most {
                return err(format!(
                    "position: impossible: {} has {} pieces, more than the {most} it starts with",
                    name(who),
                    pieces.count_ones()
                ));
            }
        }
        Ok((white, black))
    }

    pub(super) fn write_position(&self, s: &BtState) -> String {
        let mut out = board_text::write_ranks(self.rows, self.columns, |row, col| {
            let bit = 1u64 << (row * self.columns + col);
            if s.white & bit != 0 {
                Some('P')
            } else if s.black & bit != 0 {
                Some('p')
            } else {
                None
            }
        });
        out.push(' ');
        out.push(if s.stm == Side::First { 'w' } else { 'b' });
        out
    }

    pub(super) fn draw(&self, s: &BtState) -> String {
        let mut out = self.draw_board(s.white, s.black);
        let side = if s.stm == Side::First { "White (P)" } else { "Black (p)" };
        out += &format!("{side} to move");
        out
    }

    /// The board drawing (ranks from the top, files below), each line ending with a newline.
    pub(super) fn draw_board(&self, white: u64, black: u64) -> String {
        let s = BtState { white, black, key: 0, stm: Side::First };
        let mut out = String::new();
        for row in (0..self.rows).rev() {
            out += &format!("{:>3} ", row + 1);
            for col in 0..self.columns {
                let bit = 1u64 << (row * self.columns + col);
                let ch = if s.white & bit != 0 {
                    'P'
                } else if s.black & bit != 0 {
                    'p'
                } else {
                    '.'
                };
                out.push(ch);
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out += "    ";
        for col in 0..self.columns {
            out.push((b'a' + col as u8) as char);
            out.push(' ');
        }
        out.pop();
        out.push('\n');
        out
    }
}

/// A FEN counter: digits without a leading zero (`0`, `1`, `17`; not `01`).
fn is_plain_number(f: &str) -> bool {
    f.parse::<u32>().is_ok() && f.bytes().all(|b| b.is_ascii_digit()) && (f == "0" || !f.starts_with('0'))
}
