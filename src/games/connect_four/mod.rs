//! Connect Four on a bitboard with a sentinel row, any size with `(rows + 1) * columns <= 64`: one board type for the
//! rules, the strong solver ([`crate::solve::connect4`]) and the book builder.
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
//! A position ([`Position`]) is two bitboards, as in Pons's solver: `cur`, the discs of the side to move, and `mask`,
//! every disc. The other side's discs are `cur ^ mask`. Playing in column `c` is `cur ^= mask; mask |= mask +
//! bottom(c)`: adding the column's bottom bit to the column's discs carries up to the first empty cell. The sentinel
//! keeps every column apart: a full column's carry lands on its sentinel, and a shift never carries a line from the top
//! of one column into the bottom of the next, because the sentinel in between is empty.
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
//!
//! Files: this one holds the rules ([`ConnectFour`], the [`Game`] implementation, the default evaluation);
//! `shape.rs` the board size and its masks ([`Shape`], [`Standard`]); `position.rs` the position and Pons's helpers
//! ([`Position`]); `text.rs` the notations (position text, move lists, Pons's move strings); `reachable.rs` the check
//! that a position text can arise in a game.

mod position;
mod reachable;
mod shape;
mod text;

pub use position::Position;
pub(crate) use position::safe_moves;
pub use shape::{Shape, Standard};

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{Evaluator, Game, GameError, MoveList, Outcome, Side, err, playout, zobrist};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    let p = |name, default, description| GameParam { name, default, description };
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

/// The rules and the board size (a [`Shape`] read at run time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    pub rows: u32,
    pub columns: u32,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every playable cell (the sentinels excluded).
    board: u64,
    /// Columns in the order moves are generated: centre first.
    order: [u8; 64],
}

/// A position and its incremental Zobrist key (the key the engine's tables and the book files use).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct C4State {
    pub pos: Position,
    pub key: u64,
}

impl Default for ConnectFour {
    fn default() -> Self {
        ConnectFour::new(6, 7).expect("the default board is valid")
    }
}

impl Shape for ConnectFour {
    #[inline(always)]
    fn rows(&self) -> u32 {
        self.rows
    }
    #[inline(always)]
    fn columns(&self) -> u32 {
        self.columns
    }
    #[inline(always)]
    fn bottom_mask(&self) -> u64 {
        self.bottom
    }
    #[inline(always)]
    fn board_mask(&self) -> u64 {
        self.board
    }
}

impl ConnectFour {
    /// A board of `rows` by `columns` (checked).
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
        let bottom = shape::bottom_row(columns, rows + 1);
        let column_cells = (1u64 << rows) - 1;
        let board = bottom * column_cells;
        let mut order = [0u8; 64];
        let mut cols: Vec<u32> = (0..columns).collect();
        // Centre first, then outwards (left before right at equal distance).
        cols.sort_by_key(|&c| ((2 * c as i64 - (columns as i64 - 1)).abs(), c));
        for (i, c) in cols.iter().enumerate() {
            order[i] = *c as u8;
        }
        Ok(ConnectFour { rows, columns, bottom, board, order })
    }

    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let rows = spec.int("rows", 6, 1, 63)? as u32;
        let columns = spec.int("columns", 7, 1, 32)? as u32;
        spec.finish()?;
        ConnectFour::new(rows, columns)
    }

    /// Whether this is the standard 6x7 board (which the solver runs on [`Standard`]).
    pub(crate) fn is_standard(&self) -> bool {
        (self.rows, self.columns) == (6, 7)
    }

    /// Columns in move-generation order (centre first).
    pub(crate) fn column_order(&self) -> &[u8] {
        &self.order[..self.columns as usize]
    }

    fn zkey(side: Side, bit: u32) -> u64 {
        zobrist::key(side.index() * 64 + bit as usize)
    }

    fn stm_of(plies: u32) -> Side {
        if plies.is_multiple_of(2) { Side::First } else { Side::Second }
    }

    /// The discs of the first and the second player.
    pub fn discs(s: &C4State) -> (u64, u64) {
        let other = s.pos.opponent();
        if s.pos.plies.is_multiple_of(2) { (s.pos.cur, other) } else { (other, s.pos.cur) }
    }

    /// A state from the two players' discs (no validation; see `parse_position`).
    pub fn from_discs(&self, first: u64, second: u64) -> C4State {
        let plies = (first | second).count_ones();
        let cur = if plies.is_multiple_of(2) { first } else { second };
        let mut s = C4State { pos: Position { cur, mask: first | second, plies }, key: 0 };
        s.key = self.compute_key(&s);
        s
    }

    /// The mirror image of `s` (column `c` becomes column `columns - 1 - c`): the same value, each move `m` of `s`
    /// answered by [`ConnectFour::mirror_move`]`(m)` there. `s` is symmetric when its image is itself.
    // Used by the web server only (src/server/): unused in a build without the `server` feature.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    pub(crate) fn mirror_state(&self, s: &C4State) -> C4State {
        let (first, second) = Self::discs(s);
        self.from_discs(self.mirror(first), self.mirror(second))
    }

    /// The move of the mirror image that mirrors `m` (see [`ConnectFour::mirror_state`]).
    // Used by the web server only (src/server/): unused in a build without the `server` feature.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    pub(crate) fn mirror_move(&self, m: u8) -> u8 {
        (self.columns - 1) as u8 - m
    }

    /// The cell of `row` and `col` (both 0-based, row 0 at the bottom).
    fn bit(&self, row: u32, col: u32) -> u64 {
        1u64 << (col * self.stride() + row)
    }
}

impl Game for ConnectFour {
    type State = C4State;

    type Move = u8;

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
        C4State { pos: Position::empty(), key: 0 }
    }

    fn side_to_move(&self, s: &C4State) -> Side {
        Self::stm_of(s.pos.plies)
    }

    fn generate_moves(&self, s: &C4State, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.outcome(s).is_some() {
            return;
        }
        for &c in self.column_order() {
            if s.pos.can_play(self, c as u32) {
                moves.push(c);
            }
        }
    }

    #[inline]
    fn play(&self, s: &mut C4State, m: u8) {
        let new = s.pos.drop_cell(self, m as u32);
        let mover = Self::stm_of(s.pos.plies);
        s.pos.play(new);
        s.key ^= Self::zkey(mover, new.trailing_zeros()) ^ zobrist::key(zobrist::SIDE);
    }

    #[inline]
    fn outcome(&self, s: &C4State) -> Option<Outcome> {
        if self.has_four(s.pos.opponent()) {
            Some(Outcome::Loss)
        } else if self.has_four(s.pos.cur) {
            // Only in positions given by hand, which the parser refuses.
            Some(Outcome::Win)
        } else if s.pos.mask == self.board {
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
        for (side, mut b) in [(Side::First, first), (Side::Second, second)] {
            while b != 0 {
                k ^= Self::zkey(side, b.trailing_zeros());
                b &= b - 1;
            }
        }
        if Self::stm_of(s.pos.plies) == Side::Second {
            k ^= zobrist::key(zobrist::SIDE);
        }
        k
    }

    #[inline]
    fn count_moves(&self, s: &C4State) -> u64 {
        s.pos.possible(self).count_ones() as u64
    }

    fn parse_move(&self, s: &C4State, text: &str) -> Result<u8, GameError> {
        let t = text.trim();
        let c = text::column(t, self.columns).map_err(GameError::new)? + 1;
        if self.outcome(s).is_some() {
            return err("the game is over: no move is legal");
        }
        if !s.pos.can_play(self, c - 1) {
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
        self.parse_position_text(text)
    }

    fn format_position(&self, s: &C4State) -> String {
        self.format_position_text(s)
    }

    fn display(&self, s: &C4State) -> String {
        self.display_text(s)
    }
}

impl Capabilities for ConnectFour {
    /// Uniform over the non-full columns, as the default, drawn from the playable cells' bitboard.
    #[inline]
    fn random_move<R: rand::Rng + ?Sized>(&self, s: &C4State, rng: &mut R) -> Option<u8> {
        if self.outcome(s).is_some() {
            return None;
        }
        Some((playout::random_bit(s.pos.possible(self), rng) / self.stride()) as u8)
    }

    /// The default's loop with one test for the end per ply (only the player who just moved can have four), on the
    /// constant masks of [`Standard`] for the standard board.
    fn random_playout<R: rand::Rng + ?Sized>(&self, state: &C4State, rng: &mut R) -> (Outcome, u32) {
        if self.is_standard() {
            random_playout_on(&Standard, state.pos, rng)
        } else {
            random_playout_on(self, state.pos, rng)
        }
    }
}

impl Knowledge for ConnectFour {
    type Eval = C4Eval;

    // Playouts that win or block at once, statistics by position (docs/mcts.md, "Connect Four's settings").
    const MCTS_DEFAULTS: &'static str = "decisive=true,c=0.5,tt=true";

    /// A random cell among those that win at once, else among those that block the opponent's win at once, else
    /// among all playable cells.
    fn decisive_random_move<R: rand::Rng + ?Sized>(&self, s: &C4State, rng: &mut R) -> Option<u8> {
        if self.outcome(s).is_some() {
            return None;
        }
        let possible = s.pos.possible(self);
        let win = self.winning_cells(s.pos.cur, s.pos.mask) & possible;
        let block = self.winning_cells(s.pos.opponent(), s.pos.mask) & possible;
        let pick = if win != 0 {
            win
        } else if block != 0 {
            block
        } else {
            possible
        };
        Some((playout::random_bit(pick, rng) / self.stride()) as u8)
    }
}

impl Interop for ConnectFour {
    fn max_game_length(&self) -> Option<u32> {
        Some(self.rows() * self.columns())
    }

    /// OpenSpiel's numbering: the column, from 0.
    fn num_distinct_actions(&self) -> Option<u32> {
        Some(self.columns())
    }

    fn action_id(&self, _s: &C4State, m: u8) -> Option<u32> {
        Some(m as u32)
    }

    /// `[3, rows, columns]`: the first player's discs, the second's, the empty cells; row 0 is the bottom row
    /// (OpenSpiel's layout).
    fn observation_shape(&self) -> Vec<usize> {
        vec![3, self.rows() as usize, self.columns() as usize]
    }

    fn observation_tensor(&self, s: &C4State, _player: Side, out: &mut [f32]) {
        let first = if s.pos.plies.is_multiple_of(2) { s.pos.cur } else { s.pos.opponent() };
        let (rows, cols) = (self.rows() as usize, self.columns() as usize);
        for c in 0..cols {
            for r in 0..rows {
                let cell = self.bottom_cell(c as u32) << r;
                let plane = if first & cell != 0 {
                    0
                } else if s.pos.mask & cell != 0 {
                    1
                } else {
                    2
                };
                out[(plane * rows + r) * cols + c] = 1.0;
            }
        }
    }

    fn player_name(&self, player: Side) -> Option<&'static str> {
        Some(if player == Side::First { "X" } else { "O" })
    }

    fn board_view(&self, s: &C4State) -> Option<crate::game::BoardView> {
        Some(self.view(s))
    }

    fn move_cells(&self, s: &C4State, m: u8) -> (Option<u32>, Option<u32>) {
        (None, self.landing_cell(s, m as u32))
    }
}

/// A random game from `pos` on the board `g`: the outcome for the side to move in `pos`, and the plies played.
fn random_playout_on<S: Shape, R: rand::Rng + ?Sized>(g: &S, mut pos: Position, rng: &mut R) -> (Outcome, u32) {
    let mut plies = 0u32;
    let outcome = loop {
        if g.has_four(pos.opponent()) {
            break Outcome::Loss;
        }
        if pos.mask == g.board_mask() {
            break Outcome::Draw;
        }
        pos.play(1u64 << playout::random_bit(pos.possible(g), rng));
        plies += 1;
    };
    // `outcome` is for the side to move at the end.
    (if plies.is_multiple_of(2) { outcome } else { outcome.flip() }, plies)
}

/// A simple default evaluation from the side to move's point of view: 16 points per empty cell that would complete four
/// in a row for the side (a threat), minus the opponent's, plus 2 points per own disc in the central column(s) minus
/// the opponent's.
#[derive(Clone, Copy, Debug, Default)]
pub struct C4Eval;

impl Evaluator<ConnectFour> for C4Eval {
    type Carry = ();

    fn evaluate(&self, g: &ConnectFour, s: &C4State) -> i32 {
        let own = s.pos.cur;
        let opp = s.pos.opponent();
        let threats = |p: u64| g.winning_cells(p, s.pos.mask).count_ones() as i32;
        let mut centre = g.column_mask((g.columns - 1) / 2);
        if g.columns.is_multiple_of(2) {
            centre |= g.column_mask(g.columns / 2);
        }
        let c = |p: u64| (p & centre).count_ones() as i32;
        16 * (threats(own) - threats(opp)) + 2 * (c(own) - c(opp))
    }

    fn terms(&self, g: &ConnectFour, s: &C4State) -> Vec<crate::game::Term> {
        let (own, opp) = (s.pos.cur, s.pos.opponent());
        let threats =
            g.winning_cells(own, s.pos.mask).count_ones() as i32 - g.winning_cells(opp, s.pos.mask).count_ones() as i32;
        let centre = self.evaluate(g, s) - 16 * threats;
        vec![
            crate::game::Term::new("threats (16 each)", threats, 16 * threats),
            crate::game::Term::new("centre discs (2 each)", centre / 2, centre),
        ]
    }
}
