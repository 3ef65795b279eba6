//! Breakthrough with simultaneous moves: `breakthrough(moves=simultaneous)`, with any of Breakthrough's size and variant
//! parameters (`breakthrough(rows=5,columns=5,moves=simultaneous)`). The rules are written out, with their reasons, in
//! `docs/breakthrough-variants.md`; in short:
//!
//! ```text
//! every turn     both players choose one of their Breakthrough moves on the same board, without seeing the other's
//!                (White's moves as if White were to move, Black's as if Black were); the referee resolves the pair:
//! collision      the two moves end on the same square, or the two pieces would swap squares (each capturing the
//!                other): both moves are cancelled, nobody moves, the referee announces the pair
//! otherwise      both pieces leave their squares, then arrive: a piece arriving on an enemy piece that stayed captures
//!                it; a piece arriving on the square an enemy piece just left captures nothing (that piece escaped)
//! end            a side that reaches the far row wins (loses if misere); both in the same turn: a draw. A side with
//!                no piece (or no move) left loses; both: a draw. Two cancelled turns in a row (the same board for
//!                the third time): a draw.
//! ```
//!
//! Every non-terminal state is a simultaneous node ([`Turn::Simultaneous`]); the side to move is always White, the
//! point of view of [`Game::outcome`]. A joint move is written `WHITE/BLACK`, each half in Breakthrough's notation
//! (`a2a3/c5b4`).
//!
//! State: the two bitboards, the number of turns cancelled in a row (0, 1, or 2 when the game ended by repetition) and
//! the last cancelled pair (for the referee's announcement, [`Capabilities::observation`]). The Zobrist key is Breakthrough's
//! piece keys, plus one key for a count of cancelled turns (the announced pair does not change the future and is not
//! in the key). Position text: the ranks, then, after a cancelled turn, the count and the cancelled pair:
//! `ppp/3/PPP` at the start of 3x3, `p1p/1p1/P1P 1 a1b2/b3b2` after a collision.

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{Evaluator, Game, GameError, Kind, MoveList, Outcome, Side, Turn, err, zobrist};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

use super::{Breakthrough, BtMove, BtState, eval::BtEval};

/// Cancelled turns in a row that end the game in a draw (the board then stands for the third time).
pub const REPEATS_TO_DRAW: u8 = 2;

/// The registry entry. Users write `breakthrough(...,moves=simultaneous)`: the registry sends that string here.
pub fn info() -> GameInfo {
    let mut parameters = super::info().parameters;
    parameters.push(GameParam {
        name: "moves",
        default: "simultaneous",
        description: "both players move at once (written breakthrough(...,moves=simultaneous))",
    });
    GameInfo {
        name: "breakthrough_simultaneous",
        aliases: &[],
        description: "Breakthrough with simultaneous moves: both players move at once; colliding moves (same target \
square, or swapping squares) are cancelled; two cancelled turns in a row draw",
        parameters,
    }
}

/// The rules: Breakthrough's board and variants, moves played at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimBreakthrough {
    pub base: Breakthrough,
}

/// A position: both sides' pieces, the turns cancelled in a row, the last cancelled pair, and the Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SimState {
    pub white: u64,
    pub black: u64,
    pub key: u64,
    /// Turns cancelled in a row (0, 1, or [`REPEATS_TO_DRAW`] at the end).
    pub repeats: u8,
    /// The last cancelled pair (White's move, Black's move) while `repeats > 0`; zero otherwise.
    pub cancelled: [BtMove; 2],
}

const NO_MOVE: BtMove = BtMove { from: 0, to: 0 };

/// Why a pair is cancelled, or `None` when both moves are played.
pub fn collision(white: BtMove, black: BtMove) -> Option<&'static str> {
    if white.to == black.to {
        Some("both moves end on the same square")
    } else if white.to == black.from && black.to == white.from {
        Some("the two pieces would swap squares")
    } else {
        None
    }
}

fn repeat_key(repeats: u8) -> u64 {
    if repeats == 0 { 0 } else { zobrist::key(128 + repeats as usize) }
}

impl SimBreakthrough {
    /// Build from a parsed game string (`moves=simultaneous` plus Breakthrough's parameters).
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let moves = spec.text("moves").unwrap_or_else(|| "simultaneous".into());
        if moves != "simultaneous" {
            return err(format!(
                "breakthrough: moves={moves}: expected simultaneous (leave 'moves' out for the alternating game)"
            ));
        }
        Ok(SimBreakthrough { base: Breakthrough::from_spec(spec)? })
    }

    /// The board as ordinary Breakthrough with `side` to move (what `side`'s moves are generated from).
    #[inline(always)]
    pub fn view(s: &SimState, side: Side) -> BtState {
        BtState { white: s.white, black: s.black, key: 0, stm: side }
    }

    fn has_move(&self, s: &SimState, side: Side) -> bool {
        let (f, l, r) = self.base.targets(&Self::view(s, side), side);
        (f | l | r) != 0
    }

    fn piece_key(side: Side, mut bits: u64) -> u64 {
        let mut k = 0;
        while bits != 0 {
            k ^= zobrist::key(side.index() * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
        k
    }

    fn half(&self, s: &SimState, side: Side, text: &str) -> Result<BtMove, GameError> {
        self.base.read_move(&Self::view(s, side), text)
    }
}

impl Game for SimBreakthrough {
    type State = SimState;

    type Move = BtMove;

    fn spec(&self) -> String {
        let base = self.base.spec();
        match base.strip_suffix(')') {
            Some(open) => format!("{open},moves=simultaneous)"),
            None => format!("{base}(moves=simultaneous)"),
        }
    }

    fn start(&self) -> SimState {
        let b = self.base.start();
        let mut s = SimState { white: b.white, black: b.black, key: 0, repeats: 0, cancelled: [NO_MOVE; 2] };
        s.key = self.compute_key(&s);
        s
    }

    fn side_to_move(&self, _s: &SimState) -> Side {
        Side::First
    }

    /// No single player moves here: both choose at once ([`Capabilities::player_moves`]).
    fn generate_moves(&self, _s: &SimState, moves: &mut MoveList<BtMove>) {
        moves.clear();
    }

    /// Never legal: no single move exists in this game (see [`Capabilities::play_joint`]).
    fn play(&self, _s: &mut SimState, _m: BtMove) {
        panic!("breakthrough(moves=simultaneous): both players move at once; play a pair with play_joint");
    }

    fn outcome(&self, s: &SimState) -> Option<Outcome> {
        if s.repeats >= REPEATS_TO_DRAW {
            return Some(Outcome::Draw);
        }
        let reached = |won: bool| if won != self.base.misere { Outcome::Win } else { Outcome::Loss };
        let white_in = s.white & self.base.goal_row(Side::First) != 0;
        let black_in = s.black & self.base.goal_row(Side::Second) != 0;
        match (white_in, black_in) {
            (true, true) => return Some(Outcome::Draw),
            (true, false) => return Some(reached(true)),
            (false, true) => return Some(reached(false)),
            (false, false) => {}
        }
        // With pieces on the board a side always has a move (its most advanced piece can move diagonally): these
        // arise only in positions given by hand.
        let white_can = s.white != 0 && self.has_move(s, Side::First);
        let black_can = s.black != 0 && self.has_move(s, Side::Second);
        match (white_can, black_can) {
            (true, true) => None,
            (false, false) => Some(Outcome::Draw),
            (true, false) => Some(Outcome::Win),
            (false, true) => Some(Outcome::Loss),
        }
    }

    fn key(&self, s: &SimState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &SimState) -> u64 {
        Self::piece_key(Side::First, s.white) ^ Self::piece_key(Side::Second, s.black) ^ repeat_key(s.repeats)
    }

    fn parse_move(&self, s: &SimState, text: &str) -> Result<BtMove, GameError> {
        if self.is_terminal(s) {
            return err("the game is over: no move is legal");
        }
        err(format!("'{}': both players move at once here: write the pair WHITE/BLACK, e.g. a2a3/c5b4", text.trim()))
    }

    fn format_move(&self, _s: &SimState, m: BtMove) -> String {
        format!("{}{}", self.base.square_name(m.from as u32), self.base.square_name(m.to as u32))
    }

    fn parse_position(&self, text: &str) -> Result<SimState, GameError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let shape = "expected the ranks (as pp/2/PP), then after a cancelled turn the count of cancelled turns in a \
row and the cancelled pair (pp/2/PP 1 a1b2/b3b2)";
        let (board, repeats, pair) = match words[..] {
            [board] => (board, 0, None),
            [board, n, pair] => {
                let n: u8 = match n {
                    "1" => 1,
                    "2" => 2,
                    _ => return err(format!("position '{}': cancelled turns '{n}': expected 1 or 2", text.trim())),
                };
                (board, n, Some(pair))
            }
            [_, "w" | "b" | "W" | "B", ..] => {
                return err(format!(
                    "position '{}': no side to move in the simultaneous game (both move at once): {shape}",
                    text.trim()
                ));
            }
            _ => return err(format!("position '{}': {shape}", text.trim())),
        };
        let (white, black) = self.base.read_board(board)?;
        let mut s = SimState { white, black, key: 0, repeats: 0, cancelled: [NO_MOVE; 2] };
        if let Some(pair) = pair {
            let (w, b) =
                self.parse_joint(&s, pair).map_err(|e| GameError::new(format!("position: the cancelled pair: {e}")))?;
            if collision(w, b).is_none() {
                return err(format!("position: the pair {pair} does not collide: it would not have been cancelled"));
            }
            s.repeats = repeats;
            s.cancelled = [w, b];
        }
        s.key = self.compute_key(&s);
        Ok(s)
    }

    fn format_position(&self, s: &SimState) -> String {
        let board = crate::games::board_text::write_ranks(self.base.rows, self.base.columns, |row, col| {
            let bit = 1u64 << (row * self.base.columns + col);
            if s.white & bit != 0 {
                Some('P')
            } else if s.black & bit != 0 {
                Some('p')
            } else {
                None
            }
        });
        if s.repeats == 0 { board } else { format!("{board} {} {}", s.repeats, self.cancelled_pair(s)) }
    }

    fn display(&self, s: &SimState) -> String {
        let mut out = self.base.draw_board(s.white, s.black);
        if let Some(a) = self.announcement(s) {
            out += &format!("{a}\n");
        }
        out += &match self.outcome(s) {
            Some(Outcome::Win) => "game over: White wins".to_string(),
            Some(Outcome::Loss) => "game over: Black wins".to_string(),
            Some(_) => "game over: draw".to_string(),
            None => "White (P) and Black (p) move at once".to_string(),
        };
        out
    }
}

impl Capabilities for SimBreakthrough {
    const KIND: Kind = Kind { chance: false, simultaneous: true, hidden: false };

    fn turn(&self, _s: &SimState) -> Turn {
        Turn::Simultaneous
    }

    fn player_moves(&self, s: &SimState, player: Side, moves: &mut MoveList<BtMove>) {
        moves.clear();
        if !self.is_terminal(s) {
            self.base.generate_moves(&Self::view(s, player), moves);
        }
    }

    fn play_joint(&self, s: &mut SimState, w: BtMove, b: BtMove) {
        debug_assert!(!self.is_terminal(s));
        s.key ^= repeat_key(s.repeats);
        if collision(w, b).is_some() {
            s.repeats += 1;
            s.cancelled = [w, b];
        } else {
            let bit = |sq: u8| 1u64 << sq;
            let white = (s.white & !bit(w.from) & !bit(b.to)) | bit(w.to);
            let black = (s.black & !bit(b.from) & !bit(w.to)) | bit(b.to);
            s.key ^= Self::piece_key(Side::First, s.white ^ white) ^ Self::piece_key(Side::Second, s.black ^ black);
            s.white = white;
            s.black = black;
            s.repeats = 0;
            s.cancelled = [NO_MOVE; 2];
        }
        s.key ^= repeat_key(s.repeats);
    }

    fn parse_joint(&self, s: &SimState, text: &str) -> Result<(BtMove, BtMove), GameError> {
        let t = text.trim();
        if self.is_terminal(s) {
            return err("the game is over: no move is legal");
        }
        let Some((a, b)) = t.split_once('/') else {
            return err(format!("'{t}': both players move at once: write the pair WHITE/BLACK, e.g. a2a3/c5b4"));
        };
        let at = |who: &'static str| move |e: GameError| GameError::new(format!("'{t}': {who}'s half: {e}"));
        let white = self.half(s, Side::First, a).map_err(at("White"))?;
        Ok((white, self.half(s, Side::Second, b).map_err(at("Black"))?))
    }

    /// The referee's view, the same for both players (nothing is hidden): the board, and after a cancelled turn the
    /// cancelled pair and why.
    fn observation(&self, s: &SimState, _player: Side) -> String {
        let board = self.format_position(&SimState { repeats: 0, ..*s });
        match self.announcement(s) {
            Some(a) => format!("{board}; {a}"),
            None => board,
        }
    }
}

impl Knowledge for SimBreakthrough {
    type Eval = SimEval;

    const EVALUATIONS: &'static [&'static str] = super::eval::NAMES;

    fn check_evaluation(name: &str) -> Result<(), GameError> {
        super::eval::check_name(name)
    }

    fn evaluation(&self, name: &str) -> Result<SimEval, GameError> {
        Ok(SimEval(BtEval::named(&self.base, name)?))
    }
}

impl Interop for SimBreakthrough {
    fn player_name(&self, player: Side) -> Option<&'static str> {
        self.base.player_name(player)
    }

    /// `[3, rows, columns]`, Breakthrough's tensor (White's pieces, Black's, the empty squares; row 0 rank 1), the
    /// same for both players: the board is public (the last cancelled pair is not in it).
    fn observation_shape(&self) -> Vec<usize> {
        self.base.observation_shape()
    }

    fn observation_tensor(&self, s: &SimState, _player: Side, out: &mut [f32]) {
        self.base.board_planes(s.white, s.black, out);
    }
}

impl SimBreakthrough {
    fn cancelled_pair(&self, s: &SimState) -> String {
        let [w, b] = s.cancelled;
        format!("{}/{}", self.format_move(s, w), self.format_move(s, b))
    }

    /// The referee's announcement after a cancelled turn: `cancelled: a1b2/b3b2 (both moves end on the same
    /// square)`; `None` after a turn that was played.
    pub fn announcement(&self, s: &SimState) -> Option<String> {
        let [w, b] = s.cancelled;
        (s.repeats > 0).then(|| {
            let why = collision(w, b).unwrap_or("a collision");
            let more = if s.repeats >= REPEATS_TO_DRAW { ", twice in a row: a draw" } else { "" };
            format!("cancelled: {} ({why}{more})", self.cancelled_pair(s))
        })
    }
}

/// An evaluation of Breakthrough's, for White (the side to move of every state), of the board as if White were to
/// move.
#[derive(Clone, Debug, Default)]
pub struct SimEval(pub BtEval);

impl Evaluator<SimBreakthrough> for SimEval {
    type Carry = ();

    fn evaluate(&self, g: &SimBreakthrough, s: &SimState) -> i32 {
        self.0.evaluate(&g.base, &SimBreakthrough::view(s, Side::First))
    }
}
