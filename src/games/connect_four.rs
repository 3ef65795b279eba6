//! Connect Four on a bitboard with a sentinel row, any size with `(rows + 1) * columns <= 64`.
//!
//! The layout is Pascal Pons's (`blog.gamesolver.org`, "bitboard"): the board is stored column by column, each column
//! taking `rows + 1` bits, the extra top bit of every column being a *sentinel* that is always empty. For the standard
//! 6 rows x 7 columns (`H = rows + 1 = 7`):
//!
//! ```text
//!   .  .  .  .  .  .  .     <- sentinel row (always empty)
//!   5 12 19 26 33 40 47     row 6 (top)
//!   4 11 18 25 32 39 46
//!   3 10 17 24 31 38 45
//!   2  9 16 23 30 37 44
//!   1  8 15 22 29 36 43
//!   0  7 14 21 28 35 42     row 1 (bottom)
//!   1  2  3  4  5  6  7     column numbers of the moves
//!
//!   bit index = column * H + row       (column 0 = move 1, row 0 = the bottom)
//! ```
//!
//! A position is two bitboards, as in Pons's solver: `cur`, the discs of the side to move, and `mask`, every disc.
//! The other side's discs are `cur ^ mask`. Playing in column `c` is `cur ^= mask; mask |= mask + bottom(c)`: adding the
//! column's bottom bit to the column's discs carries up to the first empty cell. The sentinel keeps every column apart:
//! a full column's carry lands on its sentinel, and a shift never carries a line from the top of one column into the
//! bottom of the next, because the sentinel in between is empty.
//!
//! Four in a row, for a bitboard `p` and a direction shift `d` (1 vertical, `H` horizontal, `H - 1` and `H + 1` the two
//! diagonals): `m = p & (p >> d); m & (m >> 2d) != 0`. The playable cells of all columns at once are
//! `(mask + bottom_row) & board`; perft's last ply is their popcount.
//!
//! The side to move follows from the number of discs (the first player moves when it is even). Moves are column numbers
//! `1..=columns`; on boards of at most 9 columns a move list may be one string of digits (`4453`), as in Pons's
//! benchmark files.
//!
//! Position text: the rows from the top down, separated by `/`, with `X` (first player), `O` (second player) and digits
//! for runs of empty cells (`.` is accepted for one empty cell on input), then the side to move, `x` or `o`. The 6x7
//! start is `7/7/7/7/7/7 x`; after `4 4 5` it is `7/7/7/7/3O3/3XX2 o`.

use crate::game::{Evaluator, Game, GameError, MoveList, Outcome, Player, err, zobrist};
use crate::games::board_text;
use crate::games::{GameInfo, ParamInfo};
use crate::spec::Spec;

/// Search steps [`ConnectFour::orderable`] may take before it accepts a position it could not decide.
pub const ORDER_BUDGET: u64 = 1 << 21;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    let p = |name, default, description| ParamInfo { name, default, description };
    GameInfo {
        name: "connect_four",
        aliases: &["connect4", "c4"],
        description: "Connect Four: drop discs into columns 1..=columns; four in a row (any direction) wins, a full board is a draw",
        parameters: vec![
            p("rows", "6", "board height; (rows+1)*columns <= 64 (one sentinel row)"),
            p("columns", "7", "board width; (rows+1)*columns <= 64"),
        ],
    }
}

/// The rules and the board geometry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    pub rows: u32,
    pub columns: u32,
    /// Bits per column, `rows + 1`.
    height: u32,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every playable cell (the sentinels excluded).
    board: u64,
    /// Columns in the order moves are generated: centre first.
    order: [u8; 64],
}

/// A position (Pons's encoding) and its incremental Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct C4State {
    /// The discs of the side to move.
    pub cur: u64,
    /// Every disc.
    pub mask: u64,
    /// Discs on the board (plies played).
    pub plies: u32,
    pub key: u64,
}

impl Default for ConnectFour {
    fn default() -> Self {
        ConnectFour::new(6, 7).expect("the default board is valid")
    }
}

/// `x >> n`, 0 when `n >= 64`.
#[inline(always)]
fn shr(x: u64, n: u32) -> u64 {
    x.checked_shr(n).unwrap_or(0)
}

/// `x << n`, 0 when `n >= 64`.
#[inline(always)]
fn shl(x: u64, n: u32) -> u64 {
    x.checked_shl(n).unwrap_or(0)
}

fn side_letter(p: Player) -> char {
    match p {
        Player::First => 'X',
        Player::Second => 'O',
    }
}

impl ConnectFour {
    pub fn new(rows: u32, columns: u32) -> Result<Self, GameError> {
        if rows < 1 || columns < 1 {
            return err(format!("connect_four: rows={rows}, columns={columns}: both must be at least 1"));
        }
        if (rows as u64 + 1) * columns as u64 > 64 {
            return err(format!(
                "connect_four: a {rows}x{columns} board needs (rows+1)*columns = {} bits (one sentinel row); at most 64 fit",
                (rows as u64 + 1) * columns as u64
            ));
        }
        let height = rows + 1;
        let mut bottom = 0u64;
        for c in 0..columns {
            bottom |= 1u64 << (c * height);
        }
        let column_cells = (1u64 << rows) - 1;
        let board = bottom * column_cells;
        let mut order = [0u8; 64];
        let mut cols: Vec<u32> = (0..columns).collect();
        // Centre first, then outwards (left before right at equal distance).
        cols.sort_by_key(|&c| ((2 * c as i64 - (columns as i64 - 1)).abs(), c));
        for (i, c) in cols.iter().enumerate() {
            order[i] = *c as u8;
        }
        Ok(ConnectFour { rows, columns, height, bottom, board, order })
    }

    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let rows = spec.int("rows", 6, 1, 63)? as u32;
        let columns = spec.int("columns", 7, 1, 32)? as u32;
        spec.finish()?;
        ConnectFour::new(rows, columns)
    }

    /// Bits per column (`rows + 1`).
    pub fn height(&self) -> u32 {
        self.height
    }
    /// The bottom cell of every column.
    pub fn bottom_mask(&self) -> u64 {
        self.bottom
    }
    /// Every playable cell.
    pub fn board_mask(&self) -> u64 {
        self.board
    }
    /// The cells of column `c` (0-based).
    pub fn column_mask(&self, c: u32) -> u64 {
        ((1u64 << self.rows) - 1) << (c * self.height)
    }
    /// The top cell of column `c`.
    pub fn top_mask(&self, c: u32) -> u64 {
        1u64 << (self.rows - 1 + c * self.height)
    }
    /// The bottom cell of column `c`.
    pub fn bottom_mask_col(&self, c: u32) -> u64 {
        1u64 << (c * self.height)
    }
    /// Columns in move-generation order (centre first).
    pub fn column_order(&self) -> &[u8] {
        &self.order[..self.columns as usize]
    }
    /// The cell each non-full column would receive, all at once.
    #[inline(always)]
    pub fn possible(&self, s: &C4State) -> u64 {
        s.mask.wrapping_add(self.bottom) & self.board
    }
    /// Whether column `c` (0-based) can take a disc.
    #[inline(always)]
    pub fn can_play(&self, s: &C4State, c: u32) -> bool {
        s.mask & self.top_mask(c) == 0
    }
    /// The discs of the player who made the last move.
    #[inline(always)]
    pub fn last_mover_discs(s: &C4State) -> u64 {
        s.cur ^ s.mask
    }

    /// Whether bitboard `p` holds four in a row.
    #[inline(always)]
    pub fn has_four(&self, p: u64) -> bool {
        let h = self.height;
        for d in [1, h, h - 1, h + 1] {
            let m = p & shr(p, d);
            if m & shr(m, 2 * d) != 0 {
                return true;
            }
        }
        false
    }

    /// The empty cells (playable now or later) that would complete four in a row for the discs `p`, given every disc
    /// `mask` (Pons's `compute_winning_position`, with the shifts made safe for any board height).
    pub fn winning_cells(&self, p: u64, mask: u64) -> u64 {
        let h = self.height;
        // Vertical: three discs below the cell.
        let mut r = shl(p, 1) & shl(p, 2) & shl(p, 3);
        for d in [h, h - 1, h + 1] {
            let two = shl(p, d) & shl(p, 2 * d);
            r |= two & shl(p, 3 * d);
            r |= two & shr(p, d);
            let two = shr(p, d) & shr(p, 2 * d);
            r |= two & shl(p, d);
            r |= two & shr(p, 3 * d);
        }
        r & (self.board ^ mask)
    }

    fn zkey(side: Player, bit: u32) -> u64 {
        zobrist::key(side.index() * 64 + bit as usize)
    }

    fn stm_of(plies: u32) -> Player {
        if plies.is_multiple_of(2) { Player::First } else { Player::Second }
    }

    /// The discs of the first and the second player.
    pub fn discs(s: &C4State) -> (u64, u64) {
        let other = s.cur ^ s.mask;
        if s.plies.is_multiple_of(2) { (s.cur, other) } else { (other, s.cur) }
    }

    /// A state from the two players' discs (no validation; see `parse_position`).
    pub fn from_discs(&self, first: u64, second: u64) -> C4State {
        let plies = (first | second).count_ones();
        let cur = if plies.is_multiple_of(2) { first } else { second };
        let mut s = C4State { cur, mask: first | second, plies, key: 0 };
        s.key = self.compute_key(&s);
        s
    }

    fn bit(&self, row: u32, col: u32) -> u64 {
        1u64 << (col * self.height + row)
    }

    /// Whether some game (alternate moves from the empty board, X first) builds the discs `first` and `second`, whose
    /// last move is one of `last_discs` (top discs of the last mover). A depth-first search peels discs off the tops
    /// in reverse order, remembering the disc sets that failed, so each set of column heights is expanded at most once.
    /// After [`ORDER_BUDGET`] steps it gives up and accepts. The budget exceeds the 7^7 = 823,543 height combinations
    /// of the 6x7 board, so the answer is exact there and on every board with no more combinations.
    pub fn orderable(&self, first: u64, second: u64, last_discs: u64) -> bool {
        let mask = first | second;
        if mask == 0 {
            return true;
        }
        let mut failed = std::collections::HashSet::new();
        let mut budget = ORDER_BUDGET;
        let mut b = last_discs;
        while b != 0 {
            let bit = b & b.wrapping_neg();
            b ^= bit;
            match self.peel(first, second, mask ^ bit, &mut failed, &mut budget) {
                Some(true) | None => return true,
                Some(false) => {}
            }
        }
        false
    }

    /// One step of [`ConnectFour::orderable`]: can `mask` (discs of `first`/`second` still on the board) be built?
    /// `None` when the budget ran out.
    fn peel(
        &self,
        first: u64,
        second: u64,
        mask: u64,
        failed: &mut std::collections::HashSet<u64>,
        budget: &mut u64,
    ) -> Option<bool> {
        if mask == 0 {
            return Some(true);
        }
        if failed.contains(&mask) {
            return Some(false);
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        // With an odd number of discs, X (the first player) made the last move.
        let own = if mask.count_ones() % 2 == 1 { first } else { second };
        let mut tops = mask & !shr(mask, 1) & own;
        while tops != 0 {
            let bit = tops & tops.wrapping_neg();
            tops ^= bit;
            match self.peel(first, second, mask ^ bit, failed, budget) {
                Some(false) => {}
                other => return other,
            }
        }
        failed.insert(mask);
        Some(false)
    }

    /// Split a move list: whitespace-separated words, and on boards of at most 9 columns every word made of several
    /// digits is split into single digits (`4453` = `4 4 5 3`).
    pub fn split_move_text(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for w in text.split_whitespace() {
            if self.columns <= 9 && w.len() > 1 && w.bytes().all(|b| b.is_ascii_digit()) {
                out.extend(w.chars().map(|c| c.to_string()));
            } else {
                out.push(w.to_string());
            }
        }
        out
    }
}

impl Game for ConnectFour {
    type State = C4State;
    type Move = u8;
    type Eval = C4Eval;

    fn spec(&self) -> String {
        let mut p = Vec::new();
        if self.rows != 6 {
            p.push(format!("rows={}", self.rows));
        }
        if self.columns != 7 {
            p.push(format!("columns={}", self.columns));
        }
        if p.is_empty() { "connect_four".to_string() } else { format!("connect_four({})", p.join(",")) }
    }

    fn start(&self) -> C4State {
        C4State { cur: 0, mask: 0, plies: 0, key: 0 }
    }

    fn side_to_move(&self, s: &C4State) -> Player {
        Self::stm_of(s.plies)
    }

    fn generate_moves(&self, s: &C4State, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.outcome(s).is_some() {
            return;
        }
        for &c in self.column_order() {
            if self.can_play(s, c as u32) {
                moves.push(c);
            }
        }
    }

    #[inline]
    fn play(&self, s: &mut C4State, m: u8) {
        let new = (s.mask.wrapping_add(self.bottom_mask_col(m as u32))) & self.column_mask(m as u32) & !s.mask;
        let mover = Self::stm_of(s.plies);
        s.cur ^= s.mask;
        s.mask |= new;
        s.plies += 1;
        s.key ^= Self::zkey(mover, new.trailing_zeros()) ^ zobrist::key(zobrist::SIDE);
    }

    #[inline]
    fn outcome(&self, s: &C4State) -> Option<Outcome> {
        if self.has_four(Self::last_mover_discs(s)) {
            Some(Outcome::Loss)
        } else if self.has_four(s.cur) {
            // Only in positions given by hand, which the parser refuses.
            Some(Outcome::Win)
        } else if s.mask == self.board {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn key(&self, s: &C4State) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &C4State) -> u64 {
        let (first, second) = Self::discs(s);
        let mut k = 0;
        for (side, mut b) in [(Player::First, first), (Player::Second, second)] {
            while b != 0 {
                k ^= Self::zkey(side, b.trailing_zeros());
                b &= b - 1;
            }
        }
        if Self::stm_of(s.plies) == Player::Second {
            k ^= zobrist::key(zobrist::SIDE);
        }
        k
    }

    #[inline]
    fn count_moves(&self, s: &C4State) -> u64 {
        self.possible(s).count_ones() as u64
    }

    fn parse_move(&self, s: &C4State, text: &str) -> Result<u8, GameError> {
        let t = text.trim();
        let c: u32 = match t.parse() {
            Ok(c) if t.bytes().all(|b| b.is_ascii_digit()) && (1..=self.columns).contains(&c) => c,
            _ => return err(format!("'{t}': expected a column number 1..={}", self.columns)),
        };
        if t.starts_with('0') {
            return err(format!("'{t}': expected a column number 1..={} without leading zeros", self.columns));
        }
        if self.outcome(s).is_some() {
            return err("the game is over: no move is legal");
        }
        if !self.can_play(s, c - 1) {
            return err(format!("illegal move {t}: column {c} is full"));
        }
        Ok((c - 1) as u8)
    }

    fn format_move(&self, _s: &C4State, m: u8) -> String {
        (m as u32 + 1).to_string()
    }

    fn split_moves(&self, text: &str) -> Vec<String> {
        self.split_move_text(text)
    }

    fn parse_position(&self, text: &str) -> Result<C4State, GameError> {
        let shape =
            format!("expected {} rows from the top separated by '/' (X, O, digits or '.'), then x or o", self.rows);
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or_else(|| GameError::new(format!("empty position: {shape}")))?;
        let side =
            fields.next().ok_or_else(|| GameError::new("position: missing side to move (x or o) after the board"))?;
        if let Some(extra) = fields.next() {
            return err(format!("position: unexpected '{extra}' after the side to move"));
        }
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != self.rows as usize {
            return err(format!("position: {} rows given, the board has {}; {shape}", rows.len(), self.rows));
        }
        let (mut first, mut second) = (0u64, 0u64);
        for (i, text_row) in rows.iter().enumerate() {
            let row = self.rows - 1 - i as u32;
            let label = row + 1;
            let bytes = text_row.as_bytes();
            let mut col = 0u32;
            let mut j = 0;
            while j < bytes.len() {
                let ch = bytes[j];
                if ch.is_ascii_digit() {
                    let start = j;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                    let n: u32 = text_row[start..j].parse().unwrap_or(u32::MAX);
                    if n == 0 || n > self.columns - col {
                        return err(format!(
                            "position: row {label} '{text_row}' has a bad empty count '{}' ({} columns)",
                            &text_row[start..j],
                            self.columns
                        ));
                    }
                    col += n;
                    continue;
                }
                if col >= self.columns {
                    return err(format!("position: row {label} '{text_row}' is longer than {} columns", self.columns));
                }
                match ch {
                    b'.' => {}
                    b'X' | b'x' => first |= self.bit(row, col),
                    b'O' | b'o' => second |= self.bit(row, col),
                    _ => {
                        let c = text_row[j..].chars().next().unwrap_or('?');
                        return err(format!(
                            "position: unknown symbol '{c}' in row {label} (expected X, O, a digit or '.')"
                        ));
                    }
                }
                col += 1;
                j += 1;
            }
            if col != self.columns {
                return err(format!(
                    "position: row {label} '{text_row}' covers {col} columns, the board has {}",
                    self.columns
                ));
            }
        }
        let stm = match side {
            "x" | "X" => Player::First,
            "o" | "O" => Player::Second,
            _ => return err(format!("position: side to move '{side}': expected x or o")),
        };
        let mask = first | second;
        // Gravity: every disc rests on the bottom or on another disc.
        let floating = mask & !shl(mask, 1) & !self.bottom;
        if floating != 0 {
            let b = floating.trailing_zeros();
            return err(format!(
                "position: impossible: the disc in column {} row {} floats above an empty cell",
                b / self.height + 1,
                b % self.height + 1
            ));
        }
        let (nx, no) = (first.count_ones(), second.count_ones());
        let expected = match stm {
            Player::First => no,
            Player::Second => no + 1,
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
        if self.has_four(s.cur) {
            return err(format!(
                "position: impossible: {} has four in a row but is to move (the game ended a move earlier)",
                side_letter(stm)
            ));
        }
        let last = Self::last_mover_discs(&s);
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

    fn format_position(&self, s: &C4State) -> String {
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

    fn display(&self, s: &C4State) -> String {
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

/// A simple default evaluation from the side to move's point of view: 16 points per empty cell that would complete four
/// in a row for the side (a threat), minus the opponent's, plus 2 points per own disc in the central column(s) minus
/// the opponent's.
#[derive(Clone, Copy, Debug, Default)]
pub struct C4Eval;

impl Evaluator<ConnectFour> for C4Eval {
    fn evaluate(&self, g: &ConnectFour, s: &C4State) -> i32 {
        let own = s.cur;
        let opp = s.cur ^ s.mask;
        let threats = |p: u64| g.winning_cells(p, s.mask).count_ones() as i32;
        let mut centre = g.column_mask((g.columns - 1) / 2);
        if g.columns.is_multiple_of(2) {
            centre |= g.column_mask(g.columns / 2);
        }
        let c = |p: u64| (p & centre).count_ones() as i32;
        16 * (threats(own) - threats(opp)) + 2 * (c(own) - c(opp))
    }
}
