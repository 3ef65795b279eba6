//! Tic-tac-toe on two 9-bit bitboards.
//!
//! ```text
//!  square index = row * 3 + column        (row 0 = rank 1 at the bottom, column 0 = file a), as in Breakthrough
//!
//!   3   6 7 8        c3 = bit 8
//!   2   3 4 5
//!   1   0 1 2        a1 = bit 0
//!       a b c
//! ```
//!
//! One `u16` per side (bits 0..9). A side has won when one of the eight line masks (three rows, three columns, two
//! diagonals) is a subset of its bitboard. Only the player who just moved can have completed a line, so
//! [`Game::outcome`] tests that side only.
//!
//! Position text: the rows from the top (rank 3) down to rank 1, separated by `/`, with `X` (first player), `O` (second
//! player) and digits for runs of empty squares (`.` is accepted for one empty square on input), then the side to move,
//! `x` or `o`. The start is `3/3/3 x`; after `b2 a1` it is `3/1X1/O2 x`.

use crate::game::{BoardView, Evaluator, Game, GameError, Layout, MoveList, Outcome, Side, err, view, zobrist};
use crate::game::{Capabilities, Interop, Knowledge};
use crate::games::GameInfo;
use crate::games::board_text;
use crate::spec::Spec;

/// The eight winning lines.
pub const LINES: [u16; 8] = [
    0b000_000_111, // rank 1
    0b000_111_000, // rank 2
    0b111_000_000, // rank 3
    0b001_001_001, // file a
    0b010_010_010, // file b
    0b100_100_100, // file c
    0b100_010_001, // a1 b2 c3
    0b001_010_100, // c1 b2 a3
];

/// All nine squares.
pub(crate) const FULL: u16 = 0x1FF;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    GameInfo {
        name: "tic_tac_toe",
        aliases: &["tictactoe", "ttt"],
        description: "tic-tac-toe: X and O mark squares a1..c3 in turn; three in a row wins, a full board is a draw",
        parameters: vec![],
    }
}

/// The rules (tic-tac-toe has no parameters).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe;

/// A position: one bitboard per side, the side to move and the incremental Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TttState {
    /// X's squares (the first player).
    pub x: u16,
    /// O's squares (the second player).
    pub o: u16,
    pub stm: Side,
    pub key: u64,
}

/// Whether `bits` contains a complete line.
#[inline(always)]
pub(crate) fn has_line(bits: u16) -> bool {
    for line in LINES {
        if bits & line == line {
            return true;
        }
    }
    false
}

fn side_letter(p: Side) -> char {
    match p {
        Side::First => 'X',
        Side::Second => 'O',
    }
}

impl TicTacToe {
    /// Build from a parsed game string (no parameters are accepted).
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        spec.finish()?;
        Ok(TicTacToe)
    }

    fn zkey(side: Side, sq: u32) -> u64 {
        zobrist::key(side.index() * 9 + sq as usize)
    }

    /// The name of a square, `a1` .. `c3`.
    pub fn square_name(sq: u32) -> String {
        format!("{}{}", (b'a' + (sq % 3) as u8) as char, sq / 3 + 1)
    }

    /// The stones of the side to move, then of the opponent.
    pub fn own_opp(s: &TttState) -> (u16, u16) {
        match s.stm {
            Side::First => (s.x, s.o),
            Side::Second => (s.o, s.x),
        }
    }

    fn empty(s: &TttState) -> u16 {
        FULL & !(s.x | s.o)
    }
}

impl Game for TicTacToe {
    type State = TttState;

    type Move = u8;

    fn spec(&self) -> String {
        "tic_tac_toe".to_string()
    }

    fn start(&self) -> TttState {
        TttState { x: 0, o: 0, stm: Side::First, key: 0 }
    }

    fn side_to_move(&self, s: &TttState) -> Side {
        s.stm
    }

    fn generate_moves(&self, s: &TttState, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.outcome(s).is_some() {
            return;
        }
        let mut b = Self::empty(s);
        while b != 0 {
            moves.push(b.trailing_zeros() as u8);
            b &= b - 1;
        }
    }

    #[inline]
    fn play(&self, s: &mut TttState, m: u8) {
        let bit = 1u16 << m;
        match s.stm {
            Side::First => s.x |= bit,
            Side::Second => s.o |= bit,
        }
        s.key ^= Self::zkey(s.stm, m as u32) ^ zobrist::key(zobrist::SIDE);
        s.stm = s.stm.other();
    }

    #[inline]
    fn outcome(&self, s: &TttState) -> Option<Outcome> {
        let (own, opp) = Self::own_opp(s);
        if has_line(opp) {
            Some(Outcome::Loss)
        } else if has_line(own) {
            // Only in positions given by hand, which the parser refuses.
            Some(Outcome::Win)
        } else if (s.x | s.o) == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn key(&self, s: &TttState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &TttState) -> u64 {
        let mut k = 0;
        for (side, mut b) in [(Side::First, s.x), (Side::Second, s.o)] {
            while b != 0 {
                k ^= Self::zkey(side, b.trailing_zeros());
                b &= b - 1;
            }
        }
        if s.stm == Side::Second {
            k ^= zobrist::key(zobrist::SIDE);
        }
        k
    }

    #[inline]
    fn count_moves(&self, s: &TttState) -> u64 {
        Self::empty(s).count_ones() as u64
    }

    fn parse_move(&self, s: &TttState, text: &str) -> Result<u8, GameError> {
        let t = text.trim();
        let b = t.as_bytes();
        if b.len() != 2 {
            return err(format!("'{t}': expected a square a1..c3 (file a-c, then rank 1-3)"));
        }
        let file = b[0].to_ascii_lowercase();
        if !(b'a'..=b'c').contains(&file) || !(b'1'..=b'3').contains(&b[1]) {
            return err(format!("'{t}': expected a square a1..c3 (file a-c, then rank 1-3)"));
        }
        let sq = (b[1] - b'1') * 3 + (file - b'a');
        if self.outcome(s).is_some() {
            return err("the game is over: no move is legal");
        }
        if (s.x | s.o) & (1 << sq) != 0 {
            let who = if s.x & (1 << sq) != 0 { 'X' } else { 'O' };
            return err(format!("illegal move {t}: square {} is taken by {who}", Self::square_name(sq as u32)));
        }
        Ok(sq)
    }

    fn format_move(&self, _s: &TttState, m: u8) -> String {
        Self::square_name(m as u32)
    }

    fn parse_position(&self, text: &str) -> Result<TttState, GameError> {
        const SHAPE: &str = "expected three rows from the top separated by '/' (X, O, digits or '.'), then x or o";
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or_else(|| GameError::new(format!("empty position: {SHAPE}")))?;
        let side = fields
            .next()
            .ok_or_else(|| GameError::new("position: missing side to move (x or o) after the board".to_string()))?;
        if let Some(extra) = fields.next() {
            return err(format!("position: unexpected '{extra}' after the side to move"));
        }
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 3 {
            return err(format!("position: {} rows given, tic-tac-toe has 3; {SHAPE}", rows.len()));
        }
        let (mut x, mut o) = (0u16, 0u16);
        for (i, row) in rows.iter().enumerate() {
            let rank = 3 - i as u32;
            let mut col = 0u32;
            for ch in row.chars() {
                if col >= 3 {
                    return err(format!("position: rank {rank} '{row}' is longer than 3 squares"));
                }
                match ch {
                    '1'..='3' => {
                        col += ch as u32 - '0' as u32;
                        if col > 3 {
                            return err(format!("position: rank {rank} '{row}' is longer than 3 squares"));
                        }
                    }
                    '.' => col += 1,
                    'X' | 'x' => {
                        x |= 1 << ((rank - 1) * 3 + col);
                        col += 1;
                    }
                    'O' | 'o' => {
                        o |= 1 << ((rank - 1) * 3 + col);
                        col += 1;
                    }
                    _ => {
                        return err(format!(
                            "position: unknown symbol '{ch}' on rank {rank} (expected X, O, a digit 1-3 or '.')"
                        ));
                    }
                }
            }
            if col != 3 {
                return err(format!("position: rank {rank} '{row}' covers {col} squares, expected 3"));
            }
        }
        let stm = match side {
            "x" | "X" => Side::First,
            "o" | "O" => Side::Second,
            _ => return err(format!("position: side to move '{side}': expected x or o")),
        };
        let (nx, no) = (x.count_ones(), o.count_ones());
        let expected = match stm {
            Side::First => no,
            Side::Second => no + 1,
        };
        if nx != expected {
            return err(format!(
                "position: impossible counts: {nx} X and {no} O with {} to move (X moves first: X must equal O with x to move, O + 1 with o to move)",
                side_letter(stm)
            ));
        }
        let (xl, ol) = (has_line(x), has_line(o));
        if xl && ol {
            return err("position: impossible: both X and O have three in a row");
        }
        let s = TttState { x, o, stm, key: 0 };
        let (own, opp) = Self::own_opp(&s);
        if has_line(own) {
            return err(format!(
                "position: impossible: {} has three in a row but is to move (the game ended a move earlier)",
                side_letter(stm)
            ));
        }
        if has_line(opp) && !(0..9).any(|sq| opp & (1 << sq) != 0 && !has_line(opp & !(1 << sq))) {
            return err(format!(
                "position: impossible: no single last move of {} made all its lines (the game would have ended earlier)",
                side_letter(stm.other())
            ));
        }
        let mut s = s;
        s.key = self.compute_key(&s);
        Ok(s)
    }

    fn format_position(&self, s: &TttState) -> String {
        let mut out = board_text::write_ranks(3, 3, |rank, col| {
            let bit = 1u16 << (rank * 3 + col);
            if s.x & bit != 0 {
                Some('X')
            } else if s.o & bit != 0 {
                Some('O')
            } else {
                None
            }
        });
        out.push(' ');
        out.push(side_letter(s.stm).to_ascii_lowercase());
        out
    }

    fn display(&self, s: &TttState) -> String {
        let mut out = String::new();
        for rank in (0..3).rev() {
            out += &format!("{} ", rank + 1);
            for col in 0..3 {
                let bit = 1u16 << (rank * 3 + col);
                out.push(' ');
                out.push(if s.x & bit != 0 {
                    'X'
                } else if s.o & bit != 0 {
                    'O'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out += "   a b c\n";
        match self.outcome(s) {
            None => out += &format!("{} to move", side_letter(s.stm)),
            Some(Outcome::Loss) => out += &format!("game over: {} wins", side_letter(s.stm.other())),
            Some(Outcome::Win) => out += &format!("game over: {} wins", side_letter(s.stm)),
            Some(_) => out += "game over: a draw",
        }
        out
    }
}

impl Capabilities for TicTacToe {}

impl Knowledge for TicTacToe {
    type Eval = TttEval;
}

impl Interop for TicTacToe {
    fn max_game_length(&self) -> Option<u32> {
        Some(9)
    }

    /// OpenSpiel's numbering: `row * 3 + column` with row 0 at the top (`a3` is 0, `c1` is 8).
    fn num_distinct_actions(&self) -> Option<u32> {
        Some(9)
    }

    fn action_id(&self, _s: &TttState, m: u8) -> Option<u32> {
        Some((2 - m as u32 / 3) * 3 + m as u32 % 3)
    }

    /// `[3, 3, 3]`: X's squares, O's, the empty squares; row 0 is rank 1.
    fn observation_shape(&self) -> Vec<usize> {
        vec![3, 3, 3]
    }

    fn observation_tensor(&self, s: &TttState, _player: Side, out: &mut [f32]) {
        for sq in 0..9 {
            let plane = if s.x >> sq & 1 == 1 {
                0
            } else if s.o >> sq & 1 == 1 {
                1
            } else {
                2
            };
            out[plane * 9 + sq] = 1.0;
        }
    }

    fn player_name(&self, player: Side) -> Option<&'static str> {
        Some(if player == Side::First { "X" } else { "O" })
    }

    fn board_view(&self, s: &TttState) -> Option<BoardView> {
        Some(BoardView::from_fn(Layout::Grid, 3, 3, ["royalblue", "crimson"], |row, col| {
            let bit = 1u16 << (row * 3 + col);
            let name = Self::square_name(row * 3 + col);
            if s.x & bit != 0 {
                view::cell(name, "X", Some(Side::First))
            } else if s.o & bit != 0 {
                view::cell(name, "O", Some(Side::Second))
            } else {
                view::cell(name, "", None)
            }
        }))
    }
}

/// A simple default evaluation from the side to move's point of view: every line still open for a side (no enemy
/// stone on it) counts 1, 4 or 16 points for one, two or (never in a live game) three own stones, plus 1 for the
/// centre square; the opponent's open lines count against.
#[derive(Clone, Copy, Debug, Default)]
pub struct TttEval;

impl Evaluator<TicTacToe> for TttEval {
    type Carry = ();

    fn evaluate(&self, _g: &TicTacToe, s: &TttState) -> i32 {
        let (own, opp) = TicTacToe::own_opp(s);
        let lines = |me: u16, them: u16| -> i32 {
            LINES
                .iter()
                .filter(|&&l| l & them == 0)
                .map(|&l| match (l & me).count_ones() {
                    0 => 0,
                    1 => 1,
                    2 => 4,
                    _ => 16,
                })
                .sum()
        };
        let centre = |me: u16| ((me >> 4) & 1) as i32;
        lines(own, opp) - lines(opp, own) + centre(own) - centre(opp)
    }
}
