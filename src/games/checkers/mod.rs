//! Checkers (English draughts, the 8 x 8 game Schaeffer's Chinook team solved in 2007), on three `u32` bitboards.
//!
//! ```text
//!        a  b  c  d  e  f  g  h
//!   8       1     2     3     4          Black (the first player) starts on 1..12 and moves down;
//!   7    5     6     7     8             White starts on 21..32 and moves up. Bit i is square i + 1.
//!   ...                                  (geometry.rs)
//!   1   29    30    31    32
//! ```
//!
//! Rules as played: men step one square diagonally forwards, kings one square diagonally either way; a jump over an
//! adjacent enemy piece onto the empty square beyond captures it. Capturing is compulsory (any capture, not the
//! longest), and a jump sequence must be finished: the piece jumps on while it can. A man reaching the far row is
//! crowned and its move ends there. The side to move with no legal move loses. The draw rule (so that games end):
//! with `rule=standard` (the default) the game is drawn when 80 plies (40 moves each) pass with no capture and no
//! man move; with `rule=openspiel` when 40 plies pass with no capture, OpenSpiel's `kMaxMovesWithoutCapture`.
//! Otherwise both rules play the same game (OpenSpiel splits a multi-jump into one action per jump; its perft by
//! turns equals the published figures). Repetitions are not detected.
//!
//! Files: this one holds the rules and the game knowledge for the engine; `geometry.rs` the squares and their
//! neighbours; `movegen.rs` the moves; `text.rs` the notation; `eval.rs` the evaluation; `db.rs`, `db_solve.rs` and
//! `rank.rs` the endgame databases (`docs/checkers.md`).

pub mod db;
mod db_solve;
mod eval;
pub mod geometry;
mod movegen;
pub mod rank;
mod text;

pub(crate) use eval::CheckersEval;

use crate::game::{BoardView, Game, GameError, Layout, MoveClass, MoveList, Outcome, Side, view, zobrist};
use crate::game::{Capabilities, Interop, Knowledge};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;
use geometry::{BOTTOM_ROW, TOP_ROW};

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    GameInfo {
        name: "checkers",
        aliases: &["english_draughts", "draughts"],
        description: "Checkers (English draughts): 8x8, men forwards and kings both ways one square, compulsory \
                      captures and multi-jumps, moves as PDN square numbers (11-15, 15x24x31)",
        parameters: vec![GameParam {
            name: "rule",
            default: "standard",
            description: "the draw rule: standard (80 plies without a capture or a man move) or openspiel (40 plies \
                          without a capture, as OpenSpiel's checkers)",
        }],
    }
}

/// Which draw rule ends the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawRule {
    /// 80 plies with no capture and no man move.
    Standard,
    /// 40 plies with no capture (OpenSpiel's checkers).
    OpenSpiel,
}

/// The rules: the draw rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkers {
    pub rule: DrawRule,
}

impl Default for Checkers {
    fn default() -> Self {
        Checkers { rule: DrawRule::Standard }
    }
}

/// A whole turn: a step, a jump or a multi-jump, as bits 0..31.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CheckersMove {
    pub from: u8,
    pub to: u8,
    /// Number of jumps (0 for a step).
    pub jumps: u8,
    /// The direction of each jump, 2 bits each, the first lowest (`geometry::UP_LEFT`..`DOWN_RIGHT`).
    pub path: u32,
    /// The captured pieces.
    pub captured: u32,
}

/// A position: each side's pieces, the kings among them, the side to move, the plies counted by the draw rule and
/// the incremental Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CheckersState {
    /// Black's pieces (the first player).
    pub black: u32,
    /// White's pieces.
    pub white: u32,
    /// The kings of both sides.
    pub kings: u32,
    pub stm: Side,
    /// Plies since the draw rule's count was reset.
    pub quiet: u16,
    pub key: u64,
}

impl CheckersState {
    /// The pieces of the side to move, then of the opponent.
    #[inline(always)]
    pub fn own_opp(&self) -> (u32, u32) {
        match self.stm {
            Side::First => (self.black, self.white),
            Side::Second => (self.white, self.black),
        }
    }
}

/// Zobrist key numbers: black men, white men, black kings, white kings, 32 each.
fn zkey(side: Side, king: bool, sq: u32) -> u64 {
    zobrist::key((side.index() + 2 * king as usize) * 32 + sq as usize)
}

impl Checkers {
    /// Build from a parsed game string (`rule=standard` or `rule=openspiel`).
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let rule = match spec.text("rule").as_deref() {
            None | Some("standard") => DrawRule::Standard,
            Some("openspiel") => DrawRule::OpenSpiel,
            Some(other) => {
                return Err(GameError::new(format!("checkers: rule={other}: expected standard or openspiel")));
            }
        };
        spec.finish()?;
        Ok(Checkers { rule })
    }

    /// The plies after which the draw rule ends the game.
    pub fn draw_plies(&self) -> u16 {
        match self.rule {
            DrawRule::Standard => 80,
            DrawRule::OpenSpiel => 40,
        }
    }

    pub(crate) fn compute_key_of(&self, s: &CheckersState) -> u64 {
        let mut k = 0;
        for (side, bits) in [(Side::First, s.black), (Side::Second, s.white)] {
            let mut b = bits;
            while b != 0 {
                let sq = b.trailing_zeros();
                k ^= zkey(side, s.kings >> sq & 1 == 1, sq);
                b &= b - 1;
            }
        }
        if s.stm == Side::Second {
            k ^= zobrist::key(zobrist::SIDE);
        }
        k
    }

    /// Whether the draw rule has ended the game.
    #[inline]
    fn drawn(&self, s: &CheckersState) -> bool {
        s.quiet >= self.draw_plies()
    }
}

impl Game for Checkers {
    type State = CheckersState;

    type Move = CheckersMove;

    fn spec(&self) -> String {
        match self.rule {
            DrawRule::Standard => "checkers".to_string(),
            DrawRule::OpenSpiel => "checkers(rule=openspiel)".to_string(),
        }
    }

    fn start(&self) -> CheckersState {
        let mut s =
            CheckersState { black: 0x0000_0FFF, white: 0xFFF0_0000, kings: 0, stm: Side::First, quiet: 0, key: 0 };
        s.key = self.compute_key_of(&s);
        s
    }

    fn side_to_move(&self, s: &CheckersState) -> Side {
        s.stm
    }

    fn generate_moves(&self, s: &CheckersState, moves: &mut MoveList<CheckersMove>) {
        if self.drawn(s) {
            moves.clear();
            return;
        }
        movegen::generate(s, moves);
    }

    fn play(&self, s: &mut CheckersState, m: CheckersMove) {
        let side = s.stm;
        let (from, to) = (1u32 << m.from, 1u32 << m.to);
        let was_king = s.kings & from != 0;
        let crown_row = if side == Side::First { BOTTOM_ROW } else { TOP_ROW };
        let king = was_king || to & crown_row != 0;
        let mut key = s.key ^ zkey(side, was_king, m.from as u32) ^ zkey(side, king, m.to as u32);
        let opp = side.other();
        let mut c = m.captured;
        while c != 0 {
            let sq = c.trailing_zeros();
            key ^= zkey(opp, s.kings >> sq & 1 == 1, sq);
            c &= c - 1;
        }
        match side {
            Side::First => {
                s.black = s.black & !from | to;
                s.white &= !m.captured;
            }
            Side::Second => {
                s.white = s.white & !from | to;
                s.black &= !m.captured;
            }
        }
        s.kings &= !(from | m.captured);
        if king {
            s.kings |= to;
        }
        let reset = m.captured != 0 || (self.rule == DrawRule::Standard && !was_king);
        s.quiet = if reset { 0 } else { s.quiet + 1 };
        s.key = key ^ zobrist::key(zobrist::SIDE);
        s.stm = opp;
    }

    fn outcome(&self, s: &CheckersState) -> Option<Outcome> {
        if self.drawn(s) {
            Some(Outcome::Draw)
        } else if !movegen::has_move(s) {
            Some(Outcome::Loss)
        } else {
            None
        }
    }

    fn key(&self, s: &CheckersState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &CheckersState) -> u64 {
        self.compute_key_of(s)
    }

    fn count_leaf_moves(&self, s: &CheckersState) -> u64 {
        self.count_moves(s)
    }

    fn parse_move(&self, s: &CheckersState, t: &str) -> Result<CheckersMove, GameError> {
        text::parse_move(self, s, t)
    }

    fn format_move(&self, _s: &CheckersState, m: CheckersMove) -> String {
        text::format_move(m)
    }

    fn parse_position(&self, t: &str) -> Result<CheckersState, GameError> {
        text::parse_position(self, t)
    }

    fn format_position(&self, s: &CheckersState) -> String {
        text::format_position(s)
    }

    fn display(&self, s: &CheckersState) -> String {
        text::display(self, s)
    }
}

impl Capabilities for Checkers {}

impl Knowledge for Checkers {
    type Eval = CheckersEval;

    // ---- Knowledge: captures for quiescence and move ordering ----

    fn has_tactics(&self) -> bool {
        true
    }

    fn move_class(&self, _s: &CheckersState, m: CheckersMove) -> MoveClass {
        if m.captured != 0 { MoveClass::Capture } else { MoveClass::Quiet }
    }

    /// More pieces taken first, kings counting double.
    fn capture_order(&self, s: &CheckersState, m: CheckersMove) -> u32 {
        (m.captured.count_ones() * 4 + (m.captured & s.kings).count_ones() * 4).min(63)
    }

    fn move_key(&self, m: CheckersMove) -> usize {
        m.from as usize * 32 + m.to as usize
    }

    /// The endgame databases in `$PLATEAU_CHECKERS_DB` (`db.rs`).
    fn prepare_endgame(&self) {
        db::prepare();
    }

    fn endgame(&self, s: &CheckersState) -> Option<(Outcome, u32)> {
        db::probe_outcome(self, s)
    }
}

impl Interop for Checkers {
    fn player_name(&self, player: Side) -> Option<&'static str> {
        Some(if player == Side::First { "Black" } else { "White" })
    }

    /// The 8 x 8 board, Black at the top; the dark squares are named by their numbers, the light ones not at all.
    fn board_view(&self, s: &CheckersState) -> Option<BoardView> {
        let mut v = BoardView::from_fn(Layout::Grid, 8, 8, ["black", "white"], |row, column| {
            let sq = geometry::square_at(7 - row as isize, column as isize);
            if sq == geometry::NONE {
                return view::cell(String::new(), "", None);
            }
            let b = 1u32 << sq;
            let piece = if s.kings & b != 0 { "K" } else { "●" };
            let name = text::square_name(sq);
            if s.black & b != 0 {
                view::cell(name, piece, Some(Side::First))
            } else if s.white & b != 0 {
                view::cell(name, piece, Some(Side::Second))
            } else {
                view::cell(name, "", None)
            }
        });
        v.coords.left = (1..=8).rev().map(|r| r.to_string()).collect();
        v.coords.bottom = (b'a'..=b'h').map(|c| (c as char).to_string()).collect();
        v.notes.push("squares 1..32: 1-4 on rank 8 (b8 d8 f8 h8), 29-32 on rank 1 (a1 c1 e1 g1); hover one".into());
        v.notes.push(format!("{} of {} plies towards the draw rule", s.quiet, self.draw_plies()));
        Some(v)
    }

    /// From the start square to the last landing square (a multi-jump's text names its first landing second).
    fn move_cells(&self, _s: &CheckersState, m: CheckersMove) -> (Option<u32>, Option<u32>) {
        let cell = |sq: u8| {
            let (r, c) = geometry::row_col(sq as usize);
            Some((r * 8 + c) as u32)
        };
        (cell(m.from), cell(m.to))
    }

    /// `[5, 8, 8]`: Black's men, Black's kings, White's men, White's kings, the empty dark squares; then rank
    /// (row `i` is rank `i + 1`) and file.
    fn observation_shape(&self) -> Vec<usize> {
        vec![5, 8, 8]
    }

    fn observation_tensor(&self, s: &CheckersState, _player: Side, out: &mut [f32]) {
        for sq in 0..32u32 {
            let b = 1u32 << sq;
            let plane = match (s.black & b != 0, s.white & b != 0, s.kings & b != 0) {
                (true, _, false) => 0,
                (true, _, true) => 1,
                (_, true, false) => 2,
                (_, true, true) => 3,
                _ => 4,
            };
            let (r, c) = geometry::row_col(sq as usize);
            out[plane * 64 + (7 - r) * 8 + c] = 1.0;
        }
    }
}
