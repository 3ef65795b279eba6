//! Othello on bitboards, on square boards of even size 4, 6 or 8 (`othello(size=8)`).
//!
//! Rules (the usual ones, as in OpenSpiel's `othello`): black (`x`, the first player) and white (`o`) start with two
//! discs each on the centre squares, white on the main diagonal (d4 and e5 on 8x8), black on the other (e4, d5); black
//! moves first. A move puts a disc on an empty square so that it brackets, in at least one of the eight directions, a
//! line of opponent discs ending on one of the mover's discs; every bracketed disc is flipped. A player without a legal
//! move passes, and the pass is a move (`pass`, the only legal move then), so the players always alternate; the game
//! ends when neither player can move (a full board included). The player with more discs wins; equal counts draw.
//!
//! Score: the game's result ([`Game::outcome`]) is a win, loss or draw. The exact endgame solver ([`endgame`],
//! `plateau solve othello`) reports the final *disc difference* with the usual tournament convention: the empty
//! squares left at the end go to the winner (none to either on a draw), as in the FFO test suite and Edax.
//!
//! Notation: squares `a1`..`h1` along the top row down to `a8`..`h8` (column letter, row number, row 1 at the top); a
//! move is its square (`d3`) or `pass`. Position text: the rows from row 1 down, `x` black, `o` white, `.` empty,
//! separated by `/`, then the side to move, `x` or `o`; the 8x8 start is
//! `......../......../......../...ox.../...xo.../......../......../........ x`. On input, the rows may also be written
//! as one run of `size*size` characters without `/` and with `-` for empty squares, then `X` or `O` (the FFO and Edax
//! form: `O--OOOOX-...-------- X`).
//!
//! Files: this one (rules, [`Game`]), `bits.rs` (geometry, move generation, flips), `text.rs` (notation, position text,
//! drawing), `eval.rs` (evaluations), `stable.rs` (stable discs), `endgame.rs` (the exact solver and the engine's
//! endgame probe).

mod bits;
pub mod endgame;
pub mod eval;
mod lines;
mod stable;
mod text;

pub(crate) use bits::Geometry;
pub use endgame::{Bounds, EndgameSolver, StopAt};
pub(crate) use eval::OthelloEval;

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{Game, GameError, MoveList, Outcome, Side, err, playout, zobrist};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

/// The move that passes (a square is `0..64`).
pub const PASS: u8 = 64;

/// The engine's endgame probe solves (win, draw or loss) positions with at most this many empty squares.
pub(crate) const PROBE_EMPTIES: u32 = 10;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    GameInfo {
        name: "othello",
        aliases: &["reversi"],
        description: "Othello: place a disc to bracket and flip opponent discs; no move = pass; most discs wins",
        parameters: vec![GameParam { name: "size", default: "8", description: "board side: 4, 6 or 8" }],
    }
}

/// The rules: the board size and its geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Othello {
    pub geo: Geometry,
}

/// A position: the discs of the side to move and of the opponent, who moves, and the Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OthelloState {
    /// Discs of the side to move.
    pub own: u64,
    /// Discs of the other side.
    pub opp: u64,
    /// The side to move (`First` = black, `x`).
    pub side: Side,
    pub key: u64,
}

impl Default for Othello {
    fn default() -> Self {
        Othello::new(8).expect("8 is a valid size")
    }
}

impl Othello {
    /// A board of `size` by `size` (checked).
    pub fn new(size: u32) -> Result<Othello, GameError> {
        if !(4..=8).contains(&size) || !size.is_multiple_of(2) {
            return err(format!("othello: size={size}: the board side must be 4, 6 or 8"));
        }
        Ok(Othello { geo: Geometry::new(size) })
    }

    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Othello, GameError> {
        let size = spec.int("size", 8, 1, 64)? as u32;
        spec.finish()?;
        Othello::new(size)
    }

    /// The board's width (and height).
    pub fn size(&self) -> u32 {
        self.geo.size
    }

    /// (black, white) discs.
    pub fn colours(s: &OthelloState) -> (u64, u64) {
        if s.side == Side::First { (s.own, s.opp) } else { (s.opp, s.own) }
    }

    /// A state from the two colours' discs and the side to move, with its key (no validation).
    pub fn from_colours(&self, black: u64, white: u64, side: Side) -> OthelloState {
        let (own, opp) = if side == Side::First { (black, white) } else { (white, black) };
        let mut s = OthelloState { own, opp, side, key: 0 };
        s.key = self.compute_key(&s);
        s
    }

    /// Empty squares.
    pub fn empties(&self, s: &OthelloState) -> u32 {
        (self.geo.board & !(s.own | s.opp)).count_ones()
    }

    /// The final disc difference for the side to move, the empties going to the winner.
    pub fn final_score(&self, s: &OthelloState) -> i32 {
        endgame::final_score(&self.geo, s.own, s.opp)
    }

    #[inline]
    fn flip_key(sq: u32) -> u64 {
        zobrist::key(sq as usize) ^ zobrist::key(64 + sq as usize)
    }
}

impl Game for Othello {
    type State = OthelloState;

    type Move = u8;

    fn spec(&self) -> String {
        if self.size() == 8 { "othello".into() } else { format!("othello(size={})", self.size()) }
    }

    fn start(&self) -> OthelloState {
        let (black, white) = self.geo.start();
        self.from_colours(black, white, Side::First)
    }

    fn side_to_move(&self, s: &OthelloState) -> Side {
        s.side
    }

    fn generate_moves(&self, s: &OthelloState, moves: &mut MoveList<u8>) {
        moves.clear();
        let mut m = self.geo.moves(s.own, s.opp);
        if m == 0 {
            if self.geo.moves(s.opp, s.own) != 0 {
                moves.push(PASS);
            }
            return;
        }
        while m != 0 {
            moves.push(m.trailing_zeros() as u8);
            m &= m - 1;
        }
    }

    #[inline]
    fn play(&self, s: &mut OthelloState, mv: u8) {
        if mv != PASS {
            let sq = mv as u32;
            let f = self.geo.flips(s.own, s.opp, sq);
            // The mover's colour takes the square; every flipped disc changes colour.
            s.key ^= zobrist::key(s.side.index() * 64 + sq as usize);
            let mut b = f;
            while b != 0 {
                s.key ^= Self::flip_key(b.trailing_zeros());
                b &= b - 1;
            }
            s.own |= f | (1 << sq);
            s.opp &= !f;
        }
        std::mem::swap(&mut s.own, &mut s.opp);
        s.side = s.side.other();
        s.key ^= zobrist::key(zobrist::SIDE);
    }

    #[inline]
    fn outcome(&self, s: &OthelloState) -> Option<Outcome> {
        if self.geo.moves(s.own, s.opp) != 0 || self.geo.moves(s.opp, s.own) != 0 {
            return None;
        }
        Some(match s.own.count_ones().cmp(&s.opp.count_ones()) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Less => Outcome::Loss,
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn key(&self, s: &OthelloState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &OthelloState) -> u64 {
        let (black, white) = Self::colours(s);
        let mut k = 0;
        for (colour, mut b) in [(0usize, black), (1, white)] {
            while b != 0 {
                k ^= zobrist::key(colour * 64 + b.trailing_zeros() as usize);
                b &= b - 1;
            }
        }
        if s.side == Side::Second {
            k ^= zobrist::key(zobrist::SIDE);
        }
        k
    }

    #[inline]
    fn count_moves(&self, s: &OthelloState) -> u64 {
        match self.geo.moves(s.own, s.opp).count_ones() {
            0 => u64::from(self.geo.moves(s.opp, s.own) != 0),
            n => n as u64,
        }
    }

    #[inline]
    fn count_leaf_moves(&self, s: &OthelloState) -> u64 {
        self.count_moves(s)
    }

    fn parse_move(&self, s: &OthelloState, text: &str) -> Result<u8, GameError> {
        self.parse_move_text(s, text)
    }

    fn format_move(&self, _s: &OthelloState, mv: u8) -> String {
        text::move_name(mv)
    }

    fn parse_position(&self, text: &str) -> Result<OthelloState, GameError> {
        self.parse_position_text(text)
    }

    fn format_position(&self, s: &OthelloState) -> String {
        self.format_position_text(s)
    }

    fn display(&self, s: &OthelloState) -> String {
        self.display_text(s)
    }
}

impl Capabilities for Othello {}

impl Knowledge for Othello {
    type Eval = OthelloEval;

    const EVALUATIONS: &'static [&'static str] = eval::NAMES;

    // A smaller exploration constant, and playouts guided by the corner rule (`decisive_random_move` below; docs/mcts.md,
    // "Othello's and Oware's settings").
    const MCTS_DEFAULTS: &'static str = "c=0.5,decisive=true";

    // ---- Knowledge ----

    fn evaluation(&self, name: &str) -> Result<OthelloEval, GameError> {
        OthelloEval::named(self, name)
    }

    fn move_key(&self, mv: u8) -> usize {
        mv as usize
    }

    /// Positions with at most [`PROBE_EMPTIES`] empty squares are solved exactly (win, draw or loss) by the endgame
    /// solver, without a table; the plies to the end are at most twice the empties (a move or a pass each).
    fn endgame(&self, s: &OthelloState) -> Option<(Outcome, u32)> {
        let empties = self.empties(s);
        if empties > PROBE_EMPTIES {
            return None;
        }
        let v = EndgameSolver::without_table().solve_window(&self.geo, s.own, s.opp, -1, 1);
        let o = match v.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        Some((o, 2 * empties))
    }

    /// Othello's guided playout move (MCTS's `decisive=true`, docs/mcts.md): Othello has no cheap "win at once", so the
    /// guidance is the classic corner rule: a corner when one is legal, else a move off the X-squares of the empty
    /// corners (the diagonal neighbours that give the corner away) when there is one, else any move; uniformly at
    /// random within the class. A pass or the end of the game as [`Capabilities::random_move`].
    fn decisive_random_move<R: rand::Rng + ?Sized>(&self, s: &OthelloState, rng: &mut R) -> Option<u8> {
        let legal = self.geo.moves(s.own, s.opp);
        if legal == 0 {
            return self.random_move(s, rng);
        }
        let corners = legal & self.geo.corners;
        let pick = if corners != 0 {
            corners
        } else {
            let (x_squares, _) = eval::danger_squares(&self.geo, self.geo.board & !(s.own | s.opp));
            match legal & !x_squares {
                0 => legal,
                safe => safe,
            }
        };
        Some(playout::random_bit(pick, rng) as u8)
    }
}

impl Interop for Othello {
    /// 60 placements, and a pass at most before each of them and at the end (two passes in a row end the game).
    fn max_game_length(&self) -> Option<u32> {
        Some(121)
    }

    /// OpenSpiel's numbering: the square `row * 8 + column` (row 0 at the top, as the notation's row 1), pass 64.
    fn num_distinct_actions(&self) -> Option<u32> {
        Some(65)
    }

    fn action_id(&self, _s: &OthelloState, mv: u8) -> Option<u32> {
        Some(mv as u32)
    }

    /// `[3, size, size]`: black's discs (`x`, the first player), white's, the empty squares; row 0 is row 1 (the top).
    fn observation_shape(&self) -> Vec<usize> {
        let n = self.size() as usize;
        vec![3, n, n]
    }

    fn observation_tensor(&self, s: &OthelloState, _player: Side, out: &mut [f32]) {
        let (black, white) = Othello::colours(s);
        let n = self.size() as usize;
        for r in 0..n {
            for c in 0..n {
                let bit = 1u64 << (r * 8 + c);
                let plane = if black & bit != 0 {
                    0
                } else if white & bit != 0 {
                    1
                } else {
                    2
                };
                out[(plane * n + r) * n + c] = 1.0;
            }
        }
    }

    fn board_view(&self, s: &OthelloState) -> Option<crate::game::BoardView> {
        Some(self.view(s))
    }

    /// The sides as the game's own text names them: Black moves first.
    fn player_name(&self, player: Side) -> Option<&'static str> {
        Some(if player == Side::First { "Black" } else { "White" })
    }
}
