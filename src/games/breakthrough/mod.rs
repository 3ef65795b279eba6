//! Breakthrough on bitboards, any board with `rows * columns <= 64`.
//!
//! ```text
//!  square index = row * columns + column        (row 0 = rank 1, White's side; column 0 = file a)
//!
//!  8x8:  56 57 58 59 60 61 62 63   rank 8  <- White's goal, Black's home
//!        ...
//!         8  9 10 11 12 13 14 15   rank 2
//!         0  1  2  3  4  5  6  7   rank 1  <- Black's goal, White's home
//! ```
//!
//! One `u64` per side. A White piece moves "up" by `columns` bits; its diagonal moves shift by `columns - 1` and
//! `columns + 1` bits, masked so that nothing wraps from one edge file to the other. Black mirrors this with right shifts.
//! Generating or counting all moves of a side is then three shifts and masks per direction; perft's last ply is three
//! popcounts.
//!
//! Variants: `misere` (reaching the far row loses) and `forced_captures` (a capture must be played when one exists).
//!
//! The folder: the rules here, [`knowledge`] (threats, forced replies, races, endgame tables), [`race`] (the race
//! endgame tables), [`eval`] (the evaluations).

pub mod eval;
pub mod imperfect;
pub mod knowledge;
pub mod notation;
pub mod race;
pub mod simultaneous;

use crate::game::{BoardView, Forced, Game, GameError, MoveClass, MoveList, Outcome, Side, err, playout, zobrist};
use crate::game::{Capabilities, Interop, Knowledge};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

/// The registry entry.
pub fn info() -> GameInfo {
    let p = |name, default, description| GameParam { name, default, description };
    GameInfo {
        name: "breakthrough",
        aliases: &["bt"],
        description: "Breakthrough: pieces move one square forward (straight or diagonally), capture diagonally; reach the far row to win",
        parameters: vec![
            p("rows", "8", "board height; rows > 2*piece_rows and rows*columns <= 64"),
            p("columns", "8", "board width, at least 2"),
            p("piece_rows", "2", "rows of pieces each side starts with"),
            p("misere", "false", "reaching the far row loses"),
            p("forced_captures", "false", "a capture must be played when one exists"),
        ],
    }
}

/// The rules and board geometry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakthrough {
    pub rows: u32,
    pub columns: u32,
    pub piece_rows: u32,
    pub misere: bool,
    pub forced_captures: bool,
    board: u64,
    not_first_file: u64,
    not_last_file: u64,
    /// Rank 1 (Black's goal).
    bottom_row: u64,
    /// The last rank (White's goal).
    top_row: u64,
    /// File masks, `files[c]` = every square of column `c`.
    files: [u64; 32],
    /// By side index: the row next to the side's goal, and the row before that ([`Breakthrough::pre_goal_row`],
    /// [`Breakthrough::pre_pre_goal_row`]; precomputed, as the solvers ask at every node).
    pre_goal: [u64; 2],
    pre_pre_goal: [u64; 2],
}

/// A position: one bitboard per side, the side to move, and the incremental Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BtState {
    pub white: u64,
    pub black: u64,
    pub key: u64,
    pub stm: Side,
}

/// A move from one square to another (a capture when the target holds an enemy piece).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BtMove {
    pub from: u8,
    pub to: u8,
}

impl Default for Breakthrough {
    fn default() -> Self {
        Breakthrough::new(8, 8, 2, false, false).expect("the default board is valid")
    }
}

impl Breakthrough {
    /// The tensor of [`Interop::observation_tensor`] for the pieces `white` and `black`: three planes of `rows x
    /// columns` (White's, Black's, the other squares), row 0 rank 1. The variants use it with the pieces their
    /// observer knows of.
    pub(crate) fn board_planes(&self, white: u64, black: u64, out: &mut [f32]) {
        let n = (self.rows * self.columns) as usize;
        for sq in 0..n {
            let plane = if white >> sq & 1 == 1 {
                0
            } else if black >> sq & 1 == 1 {
                1
            } else {
                2
            };
            out[plane * n + sq] = 1.0;
        }
    }

    /// A board of the given size and variant (checked: an error for an unsupported one).
    pub fn new(
        rows: u32,
        columns: u32,
        piece_rows: u32,
        misere: bool,
        forced_captures: bool,
    ) -> Result<Self, GameError> {
        if columns < 2 {
            return err(format!("breakthrough: columns={columns}: at least 2 columns are needed"));
        }
        if columns > 26 {
            return err(format!("breakthrough: columns={columns}: at most 26 columns (files a..z)"));
        }
        if piece_rows < 1 {
            return err("breakthrough: piece_rows must be at least 1");
        }
        if rows <= 2 * piece_rows {
            return err(format!(
                "breakthrough: rows={rows} with piece_rows={piece_rows}: rows must be greater than 2*piece_rows"
            ));
        }
        if (rows as u64) * (columns as u64) > 64 {
            return err(format!(
                "breakthrough: a {rows}x{columns} board has {} squares; rows*columns must be at most 64",
                rows as u64 * columns as u64
            ));
        }
        let n = rows * columns;
        let board = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut files = [0u64; 32];
        for (c, f) in files.iter_mut().enumerate().take(columns as usize) {
            for r in 0..rows {
                *f |= 1u64 << (r * columns + c as u32);
            }
        }
        let bottom_row = (1u64 << columns) - 1;
        let top_row = bottom_row << ((rows - 1) * columns);
        let row = |r: u32| bottom_row << (r * columns);
        Ok(Breakthrough {
            rows,
            columns,
            piece_rows,
            misere,
            forced_captures,
            board,
            not_first_file: board & !files[0],
            not_last_file: board & !files[columns as usize - 1],
            bottom_row,
            top_row,
            files,
            pre_goal: [row(rows - 2), row(1)],
            pre_pre_goal: [row(rows - 3), row(2)],
        })
    }

    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let rows = spec.int("rows", 8, 3, 64)? as u32;
        let columns = spec.int("columns", 8, 2, 64)? as u32;
        let piece_rows = spec.int("piece_rows", 2, 1, 31)? as u32;
        let misere = spec.bool("misere", false)?;
        let forced = spec.bool("forced_captures", false)?;
        spec.finish()?;
        Breakthrough::new(rows, columns, piece_rows, misere, forced)
    }

    /// The number of squares of the board.
    pub fn squares(&self) -> u32 {
        self.rows * self.columns
    }
    /// The bits of the board's squares.
    pub fn board_mask(&self) -> u64 {
        self.board
    }
    /// The row a side must reach to win (the far row).
    pub(crate) fn goal_row(&self, side: Side) -> u64 {
        match side {
            Side::First => self.top_row,
            Side::Second => self.bottom_row,
        }
    }
    pub(crate) fn file_mask(&self, column: u32) -> u64 {
        self.files[column as usize]
    }
    /// Mask of one rank (row 0 = rank 1).
    pub(crate) fn row_mask(&self, row: u32) -> u64 {
        self.bottom_row << (row * self.columns)
    }

    /// The three move target sets of `side`: (straight, diagonal towards lower files, diagonal towards higher files),
    /// each a bitboard of destination squares.
    #[inline(always)]
    pub fn targets(&self, s: &BtState, side: Side) -> (u64, u64, u64) {
        let c = self.columns;
        let empty = self.board & !(s.white | s.black);
        match side {
            Side::First => {
                let p = s.white;
                let fwd = (p << c) & empty;
                let dl = ((p & self.not_first_file) << (c - 1)) & self.board & !p;
                let dr = ((p & self.not_last_file) << (c + 1)) & self.board & !p;
                (fwd, dl, dr)
            }
            Side::Second => {
                let p = s.black;
                let fwd = (p >> c) & empty;
                let dl = ((p & self.not_first_file) >> (c + 1)) & !p;
                let dr = ((p & self.not_last_file) >> (c - 1)) & !p;
                (fwd, dl, dr)
            }
        }
    }

    /// The source square offsets of the three directions for `side`: target + offset = source (as i32).
    #[inline(always)]
    fn deltas(&self, side: Side) -> (i32, i32, i32) {
        let c = self.columns as i32;
        match side {
            Side::First => (-c, -(c - 1), -(c + 1)),
            Side::Second => (c, c + 1, c - 1),
        }
    }

    #[inline(always)]
    fn sides(s: &BtState) -> (u64, u64) {
        match s.stm {
            Side::First => (s.white, s.black),
            Side::Second => (s.black, s.white),
        }
    }

    #[inline(always)]
    fn any_move(&self, s: &BtState) -> bool {
        let (f, l, r) = self.targets(s, s.stm);
        (f | l | r) != 0
    }

    /// Whether a move is a capture.
    pub fn is_capture(&self, s: &BtState, m: BtMove) -> bool {
        let (_, opp) = Self::sides(s);
        opp & (1u64 << m.to) != 0
    }

    fn zkey(side: Side, sq: u32) -> u64 {
        zobrist::key(side.index() * 64 + sq as usize)
    }

    /// The pieces of the side to move, then of the opponent.
    pub fn own_opp(s: &BtState) -> (u64, u64) {
        Self::sides(s)
    }
}

/// The engine's search constants for standard 8x8 Breakthrough with its network, tuned by SPSA.
const TUNED_8X8: &str = include_str!("../../../data/params/breakthrough-spsa-20k.txt");

impl Game for Breakthrough {
    type State = BtState;

    type Move = BtMove;

    fn spec(&self) -> String {
        let mut p = Vec::new();
        if self.rows != 8 {
            p.push(format!("rows={}", self.rows));
        }
        if self.columns != 8 {
            p.push(format!("columns={}", self.columns));
        }
        if self.piece_rows != 2 {
            p.push(format!("piece_rows={}", self.piece_rows));
        }
        if self.misere {
            p.push("misere=true".to_string());
        }
        if self.forced_captures {
            p.push("forced_captures=true".to_string());
        }
        if p.is_empty() { "breakthrough".to_string() } else { format!("breakthrough({})", p.join(",")) }
    }

    fn start(&self) -> BtState {
        let n = self.piece_rows * self.columns;
        let white = (1u64 << n) - 1;
        let black = white << ((self.rows - self.piece_rows) * self.columns);
        let mut s = BtState { white, black, key: 0, stm: Side::First };
        s.key = self.compute_key(&s);
        s
    }

    fn side_to_move(&self, s: &BtState) -> Side {
        s.stm
    }

    #[inline]
    fn generate_moves(&self, s: &BtState, moves: &mut MoveList<BtMove>) {
        moves.clear();
        let (own, opp) = Self::sides(s);
        if opp & self.goal_row(s.stm.other()) != 0 || own & self.goal_row(s.stm) != 0 || opp == 0 {
            return; // the game is over
        }
        let (mut f, mut l, mut r) = self.targets(s, s.stm);
        if self.forced_captures && ((l | r) & opp) != 0 {
            f = 0;
            l &= opp;
            r &= opp;
        }
        let (df, dl, dr) = self.deltas(s.stm);
        // Captures first: a cheap, useful order for every search.
        for (set, d) in [(l & opp, dl), (r & opp, dr), (f, df), (l & !opp, dl), (r & !opp, dr)] {
            let mut b = set;
            while b != 0 {
                let to = b.trailing_zeros();
                b &= b - 1;
                moves.push(BtMove { from: (to as i32 + d) as u8, to: to as u8 });
            }
        }
    }

    #[inline(always)]
    fn play(&self, s: &mut BtState, m: BtMove) {
        let from = 1u64 << m.from;
        let to = 1u64 << m.to;
        let me = s.stm;
        let (own, opp) = match me {
            Side::First => (&mut s.white, &mut s.black),
            Side::Second => (&mut s.black, &mut s.white),
        };
        *own ^= from | to;
        let mut k = Self::zkey(me, m.from as u32) ^ Self::zkey(me, m.to as u32) ^ zobrist::key(zobrist::SIDE);
        if *opp & to != 0 {
            *opp ^= to;
            k ^= Self::zkey(me.other(), m.to as u32);
        }
        s.key ^= k;
        s.stm = me.other();
    }

    fn outcome(&self, s: &BtState) -> Option<Outcome> {
        let (own, opp) = Self::sides(s);
        let reached = if self.misere { Outcome::Win } else { Outcome::Loss };
        if opp & self.goal_row(s.stm.other()) != 0 {
            return Some(reached);
        }
        if own & self.goal_row(s.stm) != 0 {
            // Only in positions given by hand (the parser refuses them); the mover's arrival decides.
            return Some(reached.flip());
        }
        if own == 0 {
            return Some(Outcome::Loss);
        }
        if opp == 0 {
            return Some(Outcome::Win);
        }
        if !self.any_move(s) {
            return Some(Outcome::Loss);
        }
        None
    }

    fn key(&self, s: &BtState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &BtState) -> u64 {
        let mut k = 0;
        for (side, mut b) in [(Side::First, s.white), (Side::Second, s.black)] {
            while b != 0 {
                let sq = b.trailing_zeros();
                b &= b - 1;
                k ^= Self::zkey(side, sq);
            }
        }
        if s.stm == Side::Second {
            k ^= zobrist::key(zobrist::SIDE);
        }
        k
    }

    #[inline]
    fn count_moves(&self, s: &BtState) -> u64 {
        let (f, l, r) = self.targets(s, s.stm);
        if self.forced_captures {
            let (_, opp) = Self::sides(s);
            let caps = (l & opp).count_ones() + (r & opp).count_ones();
            if caps > 0 {
                return caps as u64;
            }
        }
        (f.count_ones() + l.count_ones() + r.count_ones()) as u64
    }

    #[inline]
    fn count_leaf_moves(&self, s: &BtState) -> u64 {
        let (own, opp) = Self::sides(s);
        // The game is over if the last mover reached its goal, or (positions given by hand) a side has no piece.
        if opp & self.goal_row(s.stm.other()) != 0 || own & self.goal_row(s.stm) != 0 || own == 0 || opp == 0 {
            return 0;
        }
        // No legal move also ends the game, and counts 0 either way.
        self.count_moves(s)
    }

    fn parse_move(&self, s: &BtState, text: &str) -> Result<BtMove, GameError> {
        self.read_move(s, text)
    }

    fn format_move(&self, _s: &BtState, m: BtMove) -> String {
        format!("{}{}", self.square_name(m.from as u32), self.square_name(m.to as u32))
    }

    fn parse_position(&self, text: &str) -> Result<BtState, GameError> {
        self.read_position(text)
    }

    fn format_position(&self, s: &BtState) -> String {
        self.write_position(s)
    }

    fn display(&self, s: &BtState) -> String {
        self.draw(s)
    }
}

impl Capabilities for Breakthrough {
    /// Uniform over the legal moves, as the default, but drawn from the target bitboards without building the list.
    fn random_move<R: rand::Rng + ?Sized>(&self, s: &BtState, rng: &mut R) -> Option<BtMove> {
        let (own, opp) = Self::sides(s);
        if opp & self.goal_row(s.stm.other()) != 0 || own & self.goal_row(s.stm) != 0 || opp == 0 {
            return None; // the game is over
        }
        let (mut f, mut l, mut r) = self.targets(s, s.stm);
        if self.forced_captures && ((l | r) & opp) != 0 {
            f = 0;
            l &= opp;
            r &= opp;
        }
        let (nf, nl) = (f.count_ones(), l.count_ones());
        let n = nf + nl + r.count_ones();
        if n == 0 {
            return None;
        }
        let k = rand::RngExt::random_range(rng, 0..n);
        let (df, dl, dr) = self.deltas(s.stm);
        let (set, d, k) = if k < nf {
            (f, df, k)
        } else if k < nf + nl {
            (l, dl, k - nf)
        } else {
            (r, dr, k - nf - nl)
        };
        let to = playout::nth_bit(set, k);
        Some(BtMove { from: (to as i32 + d) as u8, to: to as u8 })
    }
}

impl Knowledge for Breakthrough {
    type Eval = eval::BtEval;

    const EVALUATIONS: &'static [&'static str] = eval::NAMES;

    // Evaluation-cut playouts (docs/mcts.md, "Breakthrough and Connect Four against OpenSpiel").
    const MCTS_DEFAULTS: &'static str = "cut=4,eval=tuned,scale=100";

    /// Standard Breakthrough 8x8 with a network (`nnue`, or `nnue:FILE`: the same architecture and scale): the values
    /// of the long SPSA run (docs/strength.md, accepted by an SPRT); every other size, variant or evaluation keeps the
    /// general defaults.
    fn engine_params(&self, eval: &str) -> Option<&'static str> {
        let standard =
            self.rows == 8 && self.columns == 8 && self.piece_rows == 2 && !self.misere && !self.forced_captures;
        let network = eval == "nnue" || eval.starts_with("nnue:");
        (standard && network).then_some(TUNED_8X8)
    }

    fn check_evaluation(name: &str) -> Result<(), GameError> {
        eval::check_name(name)
    }

    fn evaluation(&self, name: &str) -> Result<eval::BtEval, GameError> {
        eval::BtEval::named(self, name)
    }

    fn has_tactics(&self) -> bool {
        true
    }

    #[inline]
    fn move_class(&self, s: &BtState, m: BtMove) -> MoveClass {
        self.classify(s, m)
    }

    #[inline]
    fn has_winning_move(&self, s: &BtState) -> bool {
        self.wins_in_one(s)
    }

    #[inline]
    fn forced(&self, s: &BtState) -> Forced {
        self.threats(s)
    }

    #[inline]
    fn defends(&self, m: BtMove, target: u32) -> bool {
        m.to as u32 == target
    }

    #[inline]
    fn null_move(&self, s: &BtState) -> Option<BtState> {
        Some(self.pass(s))
    }

    #[inline]
    fn move_key(&self, m: BtMove) -> usize {
        m.from as usize * 64 + m.to as usize
    }

    fn adjudicate(&self, s: &BtState) -> Option<(Outcome, &'static str)> {
        self.won_race(s).then_some((Outcome::Win, "won race"))
    }

    fn prepare_endgame(&self) {
        self.build_endgame_table()
    }

    #[inline]
    fn endgame(&self, s: &BtState) -> Option<(Outcome, u32)> {
        self.endgame_verdict(s)
    }
}

impl Interop for Breakthrough {
    #[inline]
    /// Every move takes a piece one row forward: each of a side's `piece_rows * columns` pieces moves at most
    /// `rows - 1` times.
    fn max_game_length(&self) -> Option<u32> {
        Some(2 * self.piece_rows * self.columns * (self.rows - 1))
    }

    /// OpenSpiel's numbering: `((row * columns + column) * 6 + direction) * 2 + capture` from the moving piece's
    /// square, with OpenSpiel's first player (Black, from the top) mirrored onto ours (White, from the bottom), so that
    /// a row index here is OpenSpiel's: directions 0..3 go up a row (left, straight, right), 3..6 down.
    fn num_distinct_actions(&self) -> Option<u32> {
        Some(self.rows * self.columns * 12)
    }

    fn action_id(&self, s: &BtState, m: BtMove) -> Option<u32> {
        let (from, to, cols) = (m.from as u32, m.to as u32, self.columns);
        let up = to / cols > from / cols;
        let dir = if up { 0 } else { 3 } + (to % cols + 1 - from % cols);
        let capture = (s.white | s.black) >> to & 1;
        Some((from * 6 + dir) * 2 + capture as u32)
    }

    /// `[3, rows, columns]`: White's pieces, Black's, the empty squares; row 0 is rank 1 (OpenSpiel's layout).
    fn observation_shape(&self) -> Vec<usize> {
        vec![3, self.rows as usize, self.columns as usize]
    }

    fn observation_tensor(&self, s: &BtState, _player: Side, out: &mut [f32]) {
        self.board_planes(s.white, s.black, out);
    }

    fn player_name(&self, player: Side) -> Option<&'static str> {
        Some(if player == Side::First { "White" } else { "Black" })
    }

    fn board_view(&self, s: &BtState) -> Option<BoardView> {
        Some(self.view(s))
    }

    fn move_cells(&self, _s: &BtState, m: BtMove) -> (Option<u32>, Option<u32>) {
        (Some(self.view_cell(m.from as u32)), Some(self.view_cell(m.to as u32)))
    }
}
