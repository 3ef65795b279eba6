//! Breakthrough with imperfect information: `breakthrough(information=imperfect)`, any board size.
//!
//! The rules (the course's variant made exact; `docs/breakthrough-variants.md`):
//! - the board, the pieces and the moves of Breakthrough; White (the first player) moves first; reaching the far row
//!   or capturing every enemy piece wins;
//! - each player sees only its own pieces. On its turn a player names a move that is legal on the board it sees: one
//!   of its pieces one square forward, straight onto a square without an own piece (and not known to hold an enemy
//!   piece, see below), or diagonally onto a square without an own piece;
//! - a diagonal move is always played: it captures when an enemy piece stands on the target, and the mover is **not**
//!   told whether it captured;
//! - a straight move onto a square that holds an enemy piece is **cancelled**: nothing moves, the referee announces
//!   the cancelled move to both players (the mover learns which move and so that an enemy piece stands on the
//!   target; the opponent learns only that a move of the mover was cancelled), and **the mover moves again**, as after
//!   an illegal try in Kriegspiel or a failed try in phantom tic-tac-toe. The squares found this way are *known* to
//!   the mover until its turn ends: it cannot try a straight move onto them again (a diagonal move onto one is a
//!   known capture);
//! - a player whose piece was captured sees it disappear: the referee tells it on which square;
//! - when the game ends the referee shows the whole board.
//!
//! Why the mover keeps its turn: every turn then ends with a real move, which advances a piece, so a game lasts at
//! most as long as a Breakthrough game plus the cancelled tries (each turn has at most one try per piece, since a
//! found square cannot be tried again): the game is finite and has no draw, as Breakthrough. Losing the turn instead
//! would give a player a free pass (push into a piece it knows is there), which Breakthrough does not have, and two
//! players pushing into each other would never end.
//!
//! What each player is told after each step (the referee's last message to it, part of its observation):
//! `-` nothing yet; `+a2b3` your move was played (captured or not, you are not told); `!a2a3` your move was cancelled
//! (a3 holds an enemy piece), move again; `*` the opponent moved; `*b3` the opponent moved and captured your piece on
//! b3; `?2` a move of the opponent was cancelled, the 2nd in this turn, it moves again. Every step changes both
//! players' messages, so each player sees every step (the number of steps is public).
//!
//! State ([`DarkState`]): the true board (a Breakthrough [`BtState`]), the squares the side to move has found this
//! turn, the referee's last message to each player, and the key (the board's Zobrist key mixed with the rest).
//! Position text (the referee's full state): Breakthrough's position text, then the found squares (`-` or `a3,c4`),
//! then the messages to White and to Black: `pppp/pppp/4/4/PPPP/PPPP w - - -` is the start of
//! `rows=6,columns=4`.

mod last_seen;
mod sample;
mod text;

use rand::Rng;

use super::eval::BtEval;
use super::{Breakthrough, BtMove, BtState};
use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{Evaluator, Game, GameError, Kind, MoveClass, MoveList, Outcome, Side, err};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

/// The registry entry. The game string is `breakthrough(information=imperfect,...)` (the registry routes it here).
pub fn info() -> GameInfo {
    let p = |name, default, description| GameParam { name, default, description };
    GameInfo {
        name: "breakthrough_imperfect",
        aliases: &["dark_breakthrough"],
        description: "Breakthrough with imperfect information, written breakthrough(information=imperfect): each player \
sees only its own pieces; a straight move onto an enemy piece is cancelled and the mover moves again",
        parameters: vec![
            p("information", "imperfect", "imperfect: each player sees only its own pieces"),
            p("rows", "8", "board height; rows > 2*piece_rows and rows*columns <= 64"),
            p("columns", "8", "board width, at least 2"),
            p("piece_rows", "2", "rows of pieces each side starts with"),
        ],
    }
}

/// The referee's last message to a player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum News {
    /// Nothing yet (the start).
    Start,
    /// Your move was played (whether it captured is not said).
    Played(BtMove),
    /// Your straight move was cancelled: an enemy piece stands on its target; move again.
    Cancelled(BtMove),
    /// The opponent moved; `Some(square)`: it captured your piece there.
    OpponentMoved(Option<u8>),
    /// A move of the opponent was cancelled, the n-th of its turn; it moves again.
    OpponentCancelled(u8),
}

impl News {
    fn code(self) -> u64 {
        let mv = |m: BtMove| (m.from as u64) << 8 | m.to as u64;
        match self {
            News::Start => 0,
            News::Played(m) => 1 << 20 | mv(m),
            News::Cancelled(m) => 2 << 20 | mv(m),
            News::OpponentMoved(None) => 3 << 20,
            News::OpponentMoved(Some(sq)) => 4 << 20 | sq as u64,
            News::OpponentCancelled(n) => 5 << 20 | n as u64,
        }
    }
}

/// A position: the true board, the squares the side to move found this turn, the messages, the key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DarkState {
    /// The true board; its side to move is the game's.
    pub board: BtState,
    /// Enemy pieces the side to move found by its cancelled moves this turn.
    pub found: u64,
    /// The referee's last message to White (`said[0]`) and to Black.
    pub said: [News; 2],
    pub key: u64,
}

/// The rules: a Breakthrough board (neither misère nor forced captures).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DarkBreakthrough {
    pub bt: Breakthrough,
}

fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The key of what the board's key does not cover.
fn extra_key(found: u64, said: [News; 2]) -> u64 {
    if found == 0 && said == [News::Start; 2] {
        return 0;
    }
    mix(found ^ 0x5EED) ^ mix(said[0].code() ^ 0xA11CE) ^ mix(said[1].code() ^ 0xB0B)
}

impl DarkBreakthrough {
    /// Build from a parsed game string: `information=imperfect` and Breakthrough's board parameters.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        match spec.text("information").as_deref() {
            Some("imperfect") | None => {}
            Some(other) => {
                return err(format!("breakthrough: information={other}: expected perfect (the default) or imperfect"));
            }
        }
        let rows = spec.int("rows", 8, 3, 64)? as u32;
        let columns = spec.int("columns", 8, 2, 64)? as u32;
        let piece_rows = spec.int("piece_rows", 2, 1, 31)? as u32;
        for key in ["misere", "forced_captures"] {
            if spec.has(key) {
                return err(format!(
                    "breakthrough(information=imperfect): {key} is not available with imperfect information"
                ));
            }
        }
        spec.finish()?;
        Ok(DarkBreakthrough { bt: Breakthrough::new(rows, columns, piece_rows, false, false)? })
    }

    /// The pieces of `p`.
    pub fn pieces(s: &DarkState, p: Side) -> u64 {
        match p {
            Side::First => s.board.white,
            Side::Second => s.board.black,
        }
    }

    /// The board the side to move sees: its pieces, and the enemy pieces it found this turn.
    fn view(s: &DarkState) -> BtState {
        let own = Self::pieces(s, s.board.stm);
        let (white, black) = if s.board.stm == Side::First { (own, s.found) } else { (s.found, own) };
        BtState { white, black, key: 0, stm: s.board.stm }
    }

    /// Whether `m` is a straight move.
    pub fn is_straight(&self, m: BtMove) -> bool {
        m.from % self.bt.columns as u8 == m.to % self.bt.columns as u8
    }

    fn set_extras(&self, s: &mut DarkState) {
        s.key = s.board.key ^ extra_key(s.found, s.said);
    }
}

impl Game for DarkBreakthrough {
    type State = DarkState;

    type Move = BtMove;

    fn spec(&self) -> String {
        let plain = self.bt.spec();
        match plain.strip_prefix("breakthrough(") {
            Some(rest) => format!("breakthrough(information=imperfect,{rest}"),
            None => "breakthrough(information=imperfect)".into(),
        }
    }

    fn start(&self) -> DarkState {
        let board = self.bt.start();
        let mut s = DarkState { board, found: 0, said: [News::Start; 2], key: 0 };
        self.set_extras(&mut s);
        s
    }

    fn side_to_move(&self, s: &DarkState) -> Side {
        s.board.stm
    }

    fn generate_moves(&self, s: &DarkState, moves: &mut MoveList<BtMove>) {
        moves.clear();
        if self.is_terminal(s) {
            return;
        }
        let view = Self::view(s);
        let (f, l, r) = self.bt.targets(&view, view.stm);
        let (df, dl, dr) = self.bt.deltas(view.stm);
        for (set, d) in [(l, dl), (r, dr), (f, df)] {
            let mut b = set;
            while b != 0 {
                let to = b.trailing_zeros();
                b &= b - 1;
                moves.push(BtMove { from: (to as i32 + d) as u8, to: to as u8 });
            }
        }
    }

    fn play(&self, s: &mut DarkState, m: BtMove) {
        let (me, them) = (s.board.stm, s.board.stm.other());
        let target = 1u64 << m.to;
        if self.is_straight(m) && Self::pieces(s, them) & target != 0 {
            s.found |= target;
            let n = match s.said[them.index()] {
                News::OpponentCancelled(n) => n.saturating_add(1),
                _ => 1,
            };
            s.said[me.index()] = News::Cancelled(m);
            s.said[them.index()] = News::OpponentCancelled(n);
        } else {
            let captured = Self::pieces(s, them) & target != 0;
            self.bt.play(&mut s.board, m);
            s.found = 0;
            s.said[me.index()] = News::Played(m);
            s.said[them.index()] = News::OpponentMoved(captured.then_some(m.to));
        }
        self.set_extras(s);
    }

    fn outcome(&self, s: &DarkState) -> Option<Outcome> {
        let me = s.board.stm;
        let (own, opp) = (Self::pieces(s, me), Self::pieces(s, me.other()));
        if opp & self.bt.goal_row(me.other()) != 0 || own == 0 {
            return Some(Outcome::Loss);
        }
        if own & self.bt.goal_row(me) != 0 || opp == 0 {
            return Some(Outcome::Win);
        }
        None
    }

    fn key(&self, s: &DarkState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &DarkState) -> u64 {
        self.bt.compute_key(&s.board) ^ extra_key(s.found, s.said)
    }

    fn parse_move(&self, s: &DarkState, text: &str) -> Result<BtMove, GameError> {
        text::parse_move(self, s, text)
    }

    fn format_move(&self, _s: &DarkState, m: BtMove) -> String {
        format!("{}{}", self.bt.square_name(m.from as u32), self.bt.square_name(m.to as u32))
    }

    fn parse_position(&self, text: &str) -> Result<DarkState, GameError> {
        let mut s = text::parse_position(self, text)?;
        s.key = self.compute_key(&s);
        Ok(s)
    }

    fn format_position(&self, s: &DarkState) -> String {
        text::format_position(self, s)
    }

    fn display(&self, s: &DarkState) -> String {
        text::display(self, s)
    }
}

impl Capabilities for DarkBreakthrough {
    const KIND: Kind = Kind { chance: false, simultaneous: false, hidden: true };

    fn observation(&self, s: &DarkState, player: Side) -> String {
        let mut out = String::new();
        text::write_observation(self, s, player, &mut out);
        out
    }

    fn write_observation(&self, s: &DarkState, player: Side, out: &mut String) {
        text::write_observation(self, s, player, out);
    }

    fn resample<R: Rng + ?Sized>(&self, s: &DarkState, player: Side, rng: &mut R) -> DarkState {
        let mut t = sample::resample(self, s, player, rng);
        t.board.key = self.bt.compute_key(&t.board);
        self.set_extras(&mut t);
        t
    }

    /// The own pieces as told, the enemy pieces where last seen (`last_seen.rs`).
    fn last_seen(&self, guess: &DarkState, player: Side, observation: &str) -> Option<DarkState> {
        last_seen::last_seen(self, guess, player, observation)
    }
}

impl Knowledge for DarkBreakthrough {
    type Eval = DarkEval;

    const EVALUATIONS: &'static [&'static str] = super::eval::NAMES;

    /// On a full (determinized) board: a diagonal move onto an enemy piece captures; a move onto the goal row wins.
    fn has_tactics(&self) -> bool {
        true
    }

    fn move_class(&self, s: &DarkState, m: BtMove) -> MoveClass {
        if self.bt.goal_row(s.board.stm) & (1u64 << m.to) != 0 {
            MoveClass::Win
        } else if !self.is_straight(m) && Self::pieces(s, s.board.stm.other()) & (1u64 << m.to) != 0 {
            MoveClass::Capture
        } else {
            MoveClass::Quiet
        }
    }

    fn check_evaluation(name: &str) -> Result<(), GameError> {
        super::eval::check_name(name)
    }

    fn evaluation(&self, name: &str) -> Result<DarkEval, GameError> {
        Ok(DarkEval(BtEval::named(&self.bt, name)?))
    }
}

impl Interop for DarkBreakthrough {
    fn player_name(&self, player: Side) -> Option<&'static str> {
        self.bt.player_name(player)
    }

    /// Breakthrough's bound: every move takes a piece one row forward (a cancelled move is not played).
    fn max_game_length(&self) -> Option<u32> {
        self.bt.max_game_length()
    }

    /// `[3, rows, columns]` as Breakthrough's (White's pieces, Black's, the other squares; row 0 rank 1), of what
    /// `player` knows: all its own pieces, and of the opponent's only those it found this turn by a cancelled move
    /// (while it is to move). The referee's messages are not in it, nor the board shown at the end.
    fn observation_shape(&self) -> Vec<usize> {
        self.bt.observation_shape()
    }

    fn observation_tensor(&self, s: &DarkState, player: Side, out: &mut [f32]) {
        let found = if s.board.stm == player { s.found } else { 0 };
        let (white, black) = match player {
            Side::First => (s.board.white, found & s.board.black),
            Side::Second => (found & s.board.white, s.board.black),
        };
        self.bt.board_planes(white, black, out);
    }
}

/// Breakthrough's evaluation of the true board (what a search of a determinized board scores).
#[derive(Clone, Debug, Default)]
pub struct DarkEval(pub BtEval);

impl Evaluator<DarkBreakthrough> for DarkEval {
    type Carry = ();

    fn evaluate(&self, g: &DarkBreakthrough, s: &DarkState) -> i32 {
        self.0.evaluate(&g.bt, &s.board)
    }
}
