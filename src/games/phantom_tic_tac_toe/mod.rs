//! Phantom tic-tac-toe, the smallest game with hidden information: `phantom_tic_tac_toe`.
//!
//! Rules (the usual phantom rules, as in OpenSpiel's `phantom_ttt` with nothing revealed about the opponent's tries):
//! - tic-tac-toe on squares `a1`..`c3`, X (the first player) then O; three in a row wins, a full board is a draw;
//! - each player sees only its own marks: on its turn a player names any square *not known to it* (neither its own
//!   mark nor an opponent mark it has found);
//! - if the square is empty the mark goes there and the turn passes; if the opponent holds it the try fails, the
//!   square is revealed to the mover (now a *found* mark) and the same player moves again (turns do not alternate);
//! - the referee tells each player only what concerns it: its own try placed (`+c3`) or failed (`!b2`), or that the
//!   opponent placed a mark somewhere (`*`); a player never learns the opponent's failed tries;
//! - when the game ends the referee reveals the whole board to both.
//!
//! The legal moves of the mover are the squares not known to it, so the first move has 9, and O's first also 9 (it
//! may try X's square). perft: 9, 81, 648, 5112, 36288 at depths 1 to 5 (see `tests/suite/tiny_phantom.rs` for the
//! reasoning).
//! Every ply places a mark or finds one, so a game lasts at most 9 + 8 plies.
//!
//! State ([`PhantomState`], indexed by [`Player::index`]): `marks[p]` (9-bit board of p's marks, square = row * 3 +
//! column as in [`tic_tac_toe`](super::tic_tac_toe)), `found[p]` (the opponent's marks p has found, a subset of
//! `marks[other]`), the side to move, `said[p]` (the referee's last message to p, [`Said`]) and the Zobrist key:
//! `Z[9p + sq]` per mark, `Z[18 + 9p + sq]` per found mark, `Z[36 + 20p + code(said[p])]`, `Z[SIDE]` when O is to
//! move, all updated by `play` with a few XORs.
//!
//! Position text (the referee's full state, hidden parts included): the board as in tic-tac-toe, rows from the top
//! separated by `/`, digits for empty squares, with `X`/`O` for a mark the opponent has not found and `x`/`o` for a mark
//! the opponent has found; then the side to move (`x` or `o`); then the referee's last message to X and to O: `-`
//! (nothing yet), `+c3` (your mark went on c3), `!b2` (your try b2 failed: the opponent holds it), `*` (the opponent
//! placed a mark). The start is `3/3/3 x - -`; after `b2` (X placed) `3/1X1/3 o +b2 *`; after O's try `b2` (failed)
//! `3/1x1/3 o +b2 !b2`; after O's `a1` `3/1x1/O2 x * +a1`.
//!
//! [`Capabilities::observation`] is a player's view ([`text`]); [`Capabilities::resample`] draws a state the player cannot tell from
//! the true one ([`sample`]).

mod sample;
mod text;

use rand::Rng;

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{Evaluator, Game, GameError, Kind, MoveList, Outcome, Side, err, zobrist};
use crate::games::GameInfo;
use crate::games::tic_tac_toe::{FULL, TicTacToe, has_line};
use crate::spec::Spec;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    GameInfo {
        name: "phantom_tic_tac_toe",
        aliases: &["phantom_ttt", "phantom"],
        description: "phantom tic-tac-toe: each player sees only its own marks; a try on an opponent's square fails, \
reveals it, and the same player moves again",
        parameters: vec![],
    }
}

/// The rules (no parameters).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PhantomTicTacToe;

/// The referee's last message to a player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Said {
    /// Nothing yet (the start).
    Nothing,
    /// The opponent placed a mark (where is not said).
    OpponentMoved,
    /// The player's own mark went on this square.
    Placed(u8),
    /// The player's try on this square failed: the opponent holds it (now found).
    Taken(u8),
}

impl Said {
    /// 0..20, for the Zobrist key.
    fn code(self) -> usize {
        match self {
            Said::Nothing => 0,
            Said::OpponentMoved => 1,
            Said::Placed(sq) => 2 + sq as usize,
            Said::Taken(sq) => 11 + sq as usize,
        }
    }
}

/// A position: both players' marks, what each has found of the other's, the side to move, the referee's last message
/// to each, and the Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PhantomState {
    /// The marks of X (`marks[0]`) and O (`marks[1]`).
    pub marks: [u16; 2],
    /// `found[p]`: the opponent's marks p has found (a subset of `marks[1 - p]`).
    pub found: [u16; 2],
    pub stm: Side,
    pub said: [Said; 2],
    pub key: u64,
}

fn zmark(p: Side, sq: u8) -> u64 {
    zobrist::key(9 * p.index() + sq as usize)
}

fn zfound(p: Side, sq: u8) -> u64 {
    zobrist::key(18 + 9 * p.index() + sq as usize)
}

fn zsaid(p: Side, said: Said) -> u64 {
    zobrist::key(36 + 20 * p.index() + said.code())
}

/// `X` or `O`.
pub fn letter(p: Side) -> char {
    match p {
        Side::First => 'X',
        Side::Second => 'O',
    }
}

impl PhantomTicTacToe {
    /// Build from a parsed game string (no parameters are accepted).
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        spec.finish()?;
        Ok(PhantomTicTacToe)
    }

    /// The squares `p` knows: its own marks and the opponent marks it has found.
    pub fn known(s: &PhantomState, p: Side) -> u16 {
        s.marks[p.index()] | s.found[p.index()]
    }

    /// Set the referee's message to `p`, keeping the key.
    fn say(s: &mut PhantomState, p: Side, said: Said) {
        s.key ^= zsaid(p, s.said[p.index()]) ^ zsaid(p, said);
        s.said[p.index()] = said;
    }
}

impl Game for PhantomTicTacToe {
    type State = PhantomState;

    type Move = u8;

    fn spec(&self) -> String {
        "phantom_tic_tac_toe".into()
    }

    fn start(&self) -> PhantomState {
        let mut s = PhantomState { marks: [0; 2], found: [0; 2], stm: Side::First, said: [Said::Nothing; 2], key: 0 };
        s.key = self.compute_key(&s);
        s
    }

    fn side_to_move(&self, s: &PhantomState) -> Side {
        s.stm
    }

    fn generate_moves(&self, s: &PhantomState, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.is_terminal(s) {
            return;
        }
        let mut b = FULL & !Self::known(s, s.stm);
        while b != 0 {
            moves.push(b.trailing_zeros() as u8);
            b &= b - 1;
        }
    }

    fn count_moves(&self, s: &PhantomState) -> u64 {
        (FULL & !Self::known(s, s.stm)).count_ones() as u64
    }

    fn play(&self, s: &mut PhantomState, m: u8) {
        let (p, q) = (s.stm, s.stm.other());
        let bit = 1u16 << m;
        if s.marks[q.index()] & bit != 0 {
            // A failed try: the square is revealed to the mover, who moves again.
            s.found[p.index()] |= bit;
            s.key ^= zfound(p, m);
            Self::say(s, p, Said::Taken(m));
        } else {
            s.marks[p.index()] |= bit;
            s.key ^= zmark(p, m) ^ zobrist::key(zobrist::SIDE);
            Self::say(s, p, Said::Placed(m));
            Self::say(s, q, Said::OpponentMoved);
            s.stm = q;
        }
    }

    fn outcome(&self, s: &PhantomState) -> Option<Outcome> {
        let (own, opp) = (s.marks[s.stm.index()], s.marks[s.stm.other().index()]);
        if has_line(opp) {
            Some(Outcome::Loss)
        } else if has_line(own) {
            // Only in positions given by hand, which the parser refuses.
            Some(Outcome::Win)
        } else if own | opp == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn key(&self, s: &PhantomState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &PhantomState) -> u64 {
        let mut k = 0;
        for p in [Side::First, Side::Second] {
            for sq in 0..9u8 {
                if s.marks[p.index()] & (1 << sq) != 0 {
                    k ^= zmark(p, sq);
                }
                if s.found[p.index()] & (1 << sq) != 0 {
                    k ^= zfound(p, sq);
                }
            }
            k ^= zsaid(p, s.said[p.index()]);
        }
        if s.stm == Side::Second {
            k ^= zobrist::key(zobrist::SIDE);
        }
        k
    }

    fn parse_move(&self, s: &PhantomState, text: &str) -> Result<u8, GameError> {
        let t = text.trim();
        let sq = text::parse_square(t)
            .ok_or_else(|| GameError::new(format!("'{t}': expected a square a1..c3 (file a-c, then rank 1-3)")))?;
        if self.is_terminal(s) {
            return err("the game is over: no move is legal");
        }
        let (p, bit) = (s.stm, 1u16 << sq);
        let name = TicTacToe::square_name(sq as u32);
        if s.marks[p.index()] & bit != 0 {
            return err(format!("illegal move {t}: {name} is already your mark ({})", letter(p)));
        }
        if s.found[p.index()] & bit != 0 {
            return err(format!("illegal move {t}: you already found {}'s mark on {name}", letter(p.other())));
        }
        Ok(sq)
    }

    fn format_move(&self, _s: &PhantomState, m: u8) -> String {
        TicTacToe::square_name(m as u32)
    }

    fn parse_position(&self, text: &str) -> Result<PhantomState, GameError> {
        let mut s = text::parse_position(text)?;
        s.key = self.compute_key(&s);
        Ok(s)
    }

    fn format_position(&self, s: &PhantomState) -> String {
        text::format_position(s)
    }

    fn display(&self, s: &PhantomState) -> String {
        text::display(self, s)
    }
}

impl Capabilities for PhantomTicTacToe {
    const KIND: Kind = Kind { chance: false, simultaneous: false, hidden: true };

    fn observation(&self, s: &PhantomState, player: Side) -> String {
        text::observation(self, s, player)
    }

    fn resample<R: Rng + ?Sized>(&self, s: &PhantomState, player: Side, rng: &mut R) -> PhantomState {
        let mut t = sample::resample(self, s, player, rng);
        t.key = self.compute_key(&t);
        t
    }
}

impl Knowledge for PhantomTicTacToe {
    type Eval = PhantomEval;
}

impl Interop for PhantomTicTacToe {
    /// Nine placements and at most four failed attempts by each player before the ninth (a failed attempt reveals an
    /// opponent's mark, which is not tried again; the ninth placement is the first player's): 17, as OpenSpiel's.
    fn max_game_length(&self) -> Option<u32> {
        Some(17)
    }

    fn num_distinct_actions(&self) -> Option<u32> {
        Some(9)
    }

    /// OpenSpiel's `phantom_ttt` numbering (tic-tac-toe's): `row * 3 + column`, row 0 at the top.
    fn action_id(&self, _s: &PhantomState, m: u8) -> Option<u32> {
        Some((2 - m as u32 / 3) * 3 + m as u32 % 3)
    }

    /// `[27]`, OpenSpiel's `phantom_ttt` tensor (`obstype=reveal-nothing`): the player's own view of the nine cells
    /// (its marks and the opponent marks it has found), as three planes of nine cells: empty, O, X; cell `row * 3 +
    /// column`, row 0 at the top. The view only: the board shown at the end of the game is not in it (as in OpenSpiel).
    fn observation_shape(&self) -> Vec<usize> {
        vec![27]
    }

    fn observation_tensor(&self, s: &PhantomState, player: Side, out: &mut [f32]) {
        let (own, found) = (s.marks[player.index()], s.found[player.index()]);
        // The planes of X and O: OpenSpiel's cell states are empty 0, nought 1, cross 2.
        let (own_plane, their_plane) = if player == Side::First { (2, 1) } else { (1, 2) };
        for sq in 0..9u32 {
            let cell = ((2 - sq / 3) * 3 + sq % 3) as usize;
            let plane = if own >> sq & 1 == 1 {
                own_plane
            } else if found >> sq & 1 == 1 {
                their_plane
            } else {
                0
            };
            out[plane * 9 + cell] = 1.0;
        }
    }
}

/// The evaluation: 0 (no player that uses an evaluation plays games with hidden information yet).
#[derive(Clone, Copy, Debug, Default)]
pub struct PhantomEval;

impl Evaluator<PhantomTicTacToe> for PhantomEval {
    type Carry = ();

    fn evaluate(&self, _g: &PhantomTicTacToe, _s: &PhantomState) -> i32 {
        0
    }
}
