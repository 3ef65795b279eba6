//! The notations: position text (`7/7/7/7/3O3/3XX2 o`), the board drawn for the terminal, move lists (`4 4 5 3` or
//! `4453`), and Pascal Pons's move strings as the solver's benchmark files write them.

use crate::game::{BoardView, Game, GameError, Layout, Side, err, view};
use crate::games::board_text;

use super::shape::{shl, shr};
use super::{C4State, ConnectFour, Position, Shape};

fn side_letter(p: Side) -> char {
    match p {
        Side::First => 'X',
        Side::Second => 'O',
    }
}

impl ConnectFour {
    /// Split a move list: whitespace-separated words, and on boards of at most 9 columns every word made of several
    /// digits is split into single digits (`4453` = `4 4 5 3`).
    pub(crate) fn split_move_text(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        // Commas separate moves too, as in batch files (`Position::from_moves`): both read `4,5,` as `4 5`.
        for w in text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()) {
            if self.columns <= 9 && w.len() > 1 && w.bytes().all(|b| b.is_ascii_digit()) {
                out.extend(w.chars().map(|c| c.to_string()));
            } else {
                out.push(w.to_string());
            }
        }
        out
    }

    /// [`Game::parse_position`]: the text, then the checks that such a position can arise in a game.
    pub(super) fn parse_position_text(&self, text: &str) -> Result<C4State, GameError> {
        let shape =
            format!("expected {} rows from the top separated by '/' (X, O, digits or '.'), then x or o", self.rows);
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or_else(|| GameError::new(format!("empty position: {shape}")))?;
        let side =
            fields.next().ok_or_else(|| GameError::new("position: missing side to move (x or o) after the board"))?;
        if let Some(extra) = fields.next() {
            return err(format!("position: unexpected '{extra}' after the side to move"));
        }
        let (mut first, mut second) = (0u64, 0u64);
        let words = board_text::RankWords { unit: "row", symbol: "symbol", expected: "X, O, a digit or '.'" };
        board_text::read_ranks(board, self.rows, self.columns, &words, |ch, row, col| {
            match ch {
                '.' => {}
                'X' | 'x' => first |= self.bit(row, col),
                'O' | 'o' => second |= self.bit(row, col),
                _ => return false,
            }
            true
        })?;
        let stm = match side {
            "x" | "X" => Side::First,
            "o" | "O" => Side::Second,
            _ => return err(format!("position: side to move '{side}': expected x or o")),
        };
        let mask = first | second;
        // Gravity: every disc rests on the bottom or on another disc.
        let floating = mask & !shl(mask, 1) & !self.bottom_mask();
        if floating != 0 {
            let b = floating.trailing_zeros();
            return err(format!(
                "position: impossible: the disc in column {} row {} floats above an empty cell",
                b / self.stride() + 1,
                b % self.stride() + 1
            ));
        }
        let (nx, no) = (first.count_ones(), second.count_ones());
        let expected = match stm {
            Side::First => no,
            Side::Second => no + 1,
        };
        if nx != expected {
            return err(format!(
                "position: impossible counts: {nx} X and {no} O with {} to move (X moves first: X must equal O with x to move, O + 1 with o to move)",
                side_letter(stm).to_ascii_lowercase()
            ));
        }
        if self.has_four(first) && self.has_four(second) {
            return err("position: impossible: both X and O have four in a row");
        }
        let s = self.from_discs(first, second);
        if self.has_four(s.pos.cur) {
            return err(format!(
                "position: impossible: {} has four in a row but is to move (the game ended a move earlier)",
                side_letter(stm)
            ));
        }
        let last = s.pos.opponent();
        let tops = mask & !shr(mask, 1) & last;
        // The candidates for the last disc played: any top disc of the last mover, or, when the last mover has four in
        // a row, only a top disc whose removal removes every line (otherwise the game ended earlier).
        let won = self.has_four(last);
        let mut last_discs = 0u64;
        for b in 0..64 {
            if tops & (1u64 << b) != 0 && (!won || !self.has_four(last & !(1u64 << b))) {
                last_discs |= 1u64 << b;
            }
        }
        if won && last_discs == 0 {
            return err(format!(
                "position: impossible: no single last disc of {} made all its lines (the game would have ended earlier)",
                side_letter(stm.other())
            ));
        }
        if !self.orderable(first, second, last_discs) {
            return err(
                "position: impossible: no order of alternate moves (X first, each disc dropped onto the one below) builds these columns",
            );
        }
        Ok(s)
    }

    /// [`Game::format_position`].
    pub(super) fn format_position_text(&self, s: &C4State) -> String {
        let (first, second) = Self::discs(s);
        let mut out = board_text::write_ranks(self.rows, self.columns, |row, col| {
            let b = self.bit(row, col);
            if first & b != 0 {
                Some('X')
            } else if second & b != 0 {
                Some('O')
            } else {
                None
            }
        });
        out.push(' ');
        out.push(side_letter(self.side_to_move(s)).to_ascii_lowercase());
        out
    }

    /// [`Interop::board_view`]: the discs in their columns, X (the first player) red, O yellow.
    pub(super) fn view(&self, s: &C4State) -> BoardView {
        let (first, second) = Self::discs(s);
        let mut v = BoardView::from_fn(Layout::Columns, self.rows, self.columns, ["crimson", "gold"], |row, col| {
            let b = self.bit(row, col);
            let owner = if first & b != 0 {
                Some(Side::First)
            } else if second & b != 0 {
                Some(Side::Second)
            } else {
                None
            };
            view::cell(String::new(), "\u{25CF}", owner)
        });
        // The columns numbered as moves name them; the discs fall down: the board is never turned round.
        v.coords.bottom = (1..=self.columns).map(|c| c.to_string()).collect();
        v.flip = false;
        v
    }

    /// [`Interop::move_cells`]: a disc dropped in `column` lands on its lowest empty cell.
    pub(super) fn landing_cell(&self, s: &C4State, column: u32) -> Option<u32> {
        let (first, second) = Self::discs(s);
        let row = (0..self.rows).find(|&row| (first | second) & self.bit(row, column) == 0)?;
        Some((self.rows - 1 - row) * self.columns + column)
    }

    /// [`Game::display`]: the board drawn with the column numbers below.
    pub(super) fn display_text(&self, s: &C4State) -> String {
        let (first, second) = Self::discs(s);
        let w = if self.columns > 9 { 3 } else { 2 };
        let mut out = String::new();
        for row in (0..self.rows).rev() {
            for col in 0..self.columns {
                let b = self.bit(row, col);
                let ch = if first & b != 0 {
                    'X'
                } else if second & b != 0 {
                    'O'
                } else {
                    '.'
                };
                out += &format!("{ch:>w$}");
            }
            out.push('\n');
        }
        for col in 0..self.columns {
            out += &format!("{:>w$}", col + 1);
        }
        out.push('\n');
        out += &format!("{} to move", side_letter(self.side_to_move(s)));
        out
    }
}

impl Position {
    /// Play a move sequence from the empty board, as Pons's benchmark files write it: columns `1..=columns`, written
    /// as one string of digits (boards of at most 9 columns) or as space/comma separated numbers. Errors name the bad
    /// move; a sequence whose last move ends the game (four in a row or a full board) is refused too, as there is
    /// nothing left to solve.
    pub fn from_moves<S: Shape>(g: &S, text: &str) -> Result<Position, GameError> {
        let text = text.trim();
        let separator = |c: char| [' ', ',', '\t'].contains(&c);
        let words: Vec<&str> = if g.columns() <= 9 {
            // One character per move, separators or not, as the game's move lists read them (`4 45` is three moves,
            // `01` a 0 then a 1; not one byte per move: `44é5` is refused at the `é`, not read as `445`).
            text.char_indices().filter(|&(_, c)| !separator(c)).map(|(i, c)| &text[i..i + c.len_utf8()]).collect()
        } else {
            text.split(separator).filter(|w| !w.is_empty()).collect()
        };
        let mut p = Position::empty();
        // Whether the last move played completed four (a further move is then refused as "already over").
        let mut won = false;
        for (i, w) in words.iter().enumerate() {
            let col = column(w, g.columns()).map_err(|e| GameError::new(format!("move {} {e}", i + 1)))?;
            if won || p.plies >= g.cells() {
                return err(format!("move {} '{}': the game is already over", i + 1, w));
            }
            if !p.can_play(g, col) {
                return err(format!("move {} '{}': column {} is full", i + 1, w, col + 1));
            }
            won = p.is_winning_column(g, col);
            p.play_column(g, col);
        }
        if won {
            return err("the last move completes four in a row: the game is over");
        }
        if p.plies >= g.cells() {
            return err("the board is full: the game is over (a draw)");
        }
        Ok(p)
    }
}

/// The column (from 0) of a move written as its number `1..=columns`: digits only (`str::parse` would also take a
/// sign) and no leading zero. The one reading of a column for the game's moves and the solver's move lists.
pub(crate) fn column(t: &str, columns: u32) -> Result<u32, String> {
    match t.parse::<u32>() {
        Ok(c) if t.bytes().all(|b| b.is_ascii_digit()) && (1..=columns).contains(&c) => {
            if t.starts_with('0') {
                Err(format!("'{t}': expected a column number 1..={columns} without leading zeros"))
            } else {
                Ok(c - 1)
            }
        }
        _ => Err(format!("'{t}': expected a column number 1..={columns}")),
    }
}
