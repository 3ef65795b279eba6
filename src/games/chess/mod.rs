//! Chess, with the rules of the `cozy-chess` crate (legal move generation, FEN, Zobrist hashing).
//!
//! The state wraps a `cozy_chess::Board` ([`board_copy`]: a `Copy` holder, for copy-make) with what a board alone
//! does not know: the position key and the keys of the positions since the last irreversible move, for threefold
//! repetition ([`rules`]). The game ends by checkmate (a loss for the side to move), stalemate, the fifty-move rule
//! (halfmove clock 100), threefold repetition or insufficient material (all draws, automatic, as in OpenSpiel).
//!
//! Moves are UCI long algebraic (`e2e4`, `e7e8q`, castling `e1g1`), positions FEN ([`notation`]). Two states are
//! equal when their boards are (FEN has no history): the history only decides repetitions.
//!
//! The folder: the rules here and in [`rules`], [`notation`], [`knowledge`] (captures, check, null move),
//! [`eval`] (the course's evaluation and piece-square tables).

pub(crate) mod board_copy;
pub mod eval;
pub mod knowledge;
pub mod notation;
pub mod rules;
pub mod tensor;

use std::hash::{Hash, Hasher};

use cozy_chess::{Board, Color, Move};

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{Forced, Game, GameError, MoveClass, MoveList, Outcome, Side};
use crate::games::GameInfo;
use crate::spec::Spec;

use board_copy::BoardCell;
use rules::HISTORY;

/// The registry entry.
pub fn info() -> GameInfo {
    GameInfo {
        name: "chess",
        aliases: &[],
        description: "Chess (rules from cozy-chess): UCI moves (e2e4, e7e8q, e1g1), FEN positions; draws by stalemate, \
                      fifty moves, threefold repetition and insufficient material",
        parameters: vec![],
    }
}

/// The rules (chess has no parameters).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chess;

/// A position: the board, its key, and the fingerprints of the positions since the last capture or pawn move.
#[derive(Clone, Copy)]
pub struct ChessState {
    board: BoardCell,
    key: u64,
    /// Number of entries of `history` in use.
    seen: u8,
    /// Fingerprints of the previous positions since the last irreversible move, oldest first.
    history: [u32; HISTORY],
}

impl ChessState {
    /// A state with no history.
    pub fn new(board: Board) -> ChessState {
        let key = rules::position_key(&board);
        ChessState { board: BoardCell::new(board), key, seen: 0, history: [0; HISTORY] }
    }

    /// The cozy-chess board.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        self.board.get()
    }
}

impl PartialEq for ChessState {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
    }
}

impl Eq for ChessState {}

impl Hash for ChessState {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.board.hash(h)
    }
}

impl std::fmt::Debug for ChessState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ChessState({}, {} earlier positions)", self.board(), self.seen)
    }
}

impl Chess {
    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        spec.finish()?;
        Ok(Chess)
    }

    fn player(c: Color) -> Side {
        if c == Color::White { Side::First } else { Side::Second }
    }
}

impl Game for Chess {
    type State = ChessState;

    type Move = Move;

    fn spec(&self) -> String {
        "chess".to_string()
    }

    fn start(&self) -> ChessState {
        ChessState::new(Board::default())
    }

    fn side_to_move(&self, s: &ChessState) -> Side {
        Self::player(s.board().side_to_move())
    }

    #[inline]
    fn generate_moves(&self, s: &ChessState, moves: &mut MoveList<Move>) {
        moves.clear();
        if rules::drawn_by_rule(s) {
            return;
        }
        s.board().generate_moves(|pm| {
            moves.extend(pm);
            false
        });
    }

    #[inline]
    fn play(&self, s: &mut ChessState, m: Move) {
        let before = s.key;
        let b = s.board.get_mut();
        b.play_unchecked(m);
        let clock = b.halfmove_clock();
        s.key = rules::position_key(b);
        rules::remember(s, before, clock);
    }

    fn outcome(&self, s: &ChessState) -> Option<Outcome> {
        let b = s.board();
        if !b.generate_moves(|_| true) {
            return Some(if b.checkers().is_empty() { Outcome::Draw } else { Outcome::Loss });
        }
        rules::drawn_by_rule(s).then_some(Outcome::Draw)
    }

    fn key(&self, s: &ChessState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &ChessState) -> u64 {
        // From scratch: the board rebuilt from its FEN hashes every piece again.
        match Board::from_fen(&s.board().to_string(), false) {
            Ok(b) => rules::position_key(&b),
            Err(_) => !s.key,
        }
    }

    #[inline]
    fn count_moves(&self, s: &ChessState) -> u64 {
        let mut n = 0;
        s.board().generate_moves(|pm| {
            n += pm.len() as u64;
            false
        });
        n
    }

    #[inline]
    fn count_leaf_moves(&self, s: &ChessState) -> u64 {
        if rules::drawn_by_rule(s) { 0 } else { self.count_moves(s) }
    }

    fn parse_move(&self, s: &ChessState, text: &str) -> Result<Move, GameError> {
        self.read_move(s, text)
    }

    fn format_move(&self, s: &ChessState, m: Move) -> String {
        notation::format_uci(s.board(), m)
    }

    fn parse_position(&self, text: &str) -> Result<ChessState, GameError> {
        match text.trim() {
            "start" | "startpos" => Ok(self.start()),
            t => self.read_position(t).map(ChessState::new),
        }
    }

    fn format_position(&self, s: &ChessState) -> String {
        s.board().to_string()
    }

    fn display(&self, s: &ChessState) -> String {
        self.draw(s)
    }
}

impl Capabilities for Chess {}

impl Knowledge for Chess {
    type Eval = eval::ChessEval;

    const EVALUATIONS: &'static [&'static str] = eval::NAMES;

    fn evaluation(&self, name: &str) -> Result<eval::ChessEval, GameError> {
        eval::ChessEval::named(name)
    }

    fn has_tactics(&self) -> bool {
        true
    }

    #[inline]
    fn move_class(&self, s: &ChessState, m: Move) -> MoveClass {
        knowledge::classify(s.board(), m)
    }

    #[inline]
    fn capture_order(&self, s: &ChessState, m: Move) -> u32 {
        knowledge::capture_order(s.board(), m)
    }

    fn forced(&self, s: &ChessState) -> Forced {
        knowledge::in_check(s.board())
    }

    #[inline]
    fn null_move(&self, s: &ChessState) -> Option<ChessState> {
        knowledge::pass(s)
    }

    #[inline]
    fn move_key(&self, m: Move) -> usize {
        m.from as usize * 64 + m.to as usize
    }
}

impl Interop for Chess {
    fn board_view(&self, s: &ChessState) -> Option<crate::game::BoardView> {
        Some(self.view(s))
    }

    /// The sides as the game's own text names them: White moves first.
    fn player_name(&self, player: Side) -> Option<&'static str> {
        Some(if player == Side::First { "White" } else { "Black" })
    }

    #[inline]
    /// `[20, 8, 8]`, OpenSpiel's layout ([`tensor`]).
    fn observation_shape(&self) -> Vec<usize> {
        tensor::SHAPE.to_vec()
    }

    fn observation_tensor(&self, s: &ChessState, _player: Side, out: &mut [f32]) {
        tensor::observe(s, out)
    }
}
