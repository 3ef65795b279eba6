//! Backgammon without the doubling cube: `backgammon`, `backgammon(gammons=true)` (also `scoring=single|gammons`).
//!
//! Rules: each side has 15 checkers and moves them from its 24 point towards its 1 point, then off the board. A roll
//! of two dice moves checkers by each die (four times for a double); a checker may not land on a point the opponent
//! holds with two or more checkers, and landing on a single opposing checker (a blot) hits it to the bar. A side with a
//! checker on the bar must enter it into the opponent's home board (die `d` lands on its own point `25 - d`) before
//! moving anything else. Once all its checkers are in its home board (points 1..6) a side bears off: a die equal to a
//! point's number bears a checker off from it, a larger die bears off from the highest occupied point only. Both dice
//! must be played when possible, else the larger when either can be played, else the one that can; a double plays as
//! many of its four steps as possible; a side that can play nothing passes. The first to bear off all 15 wins: one
//! point, or with `gammons=true` two (a gammon: the loser bore off nothing) or three (a backgammon: the loser also
//! has a checker on the bar or in the winner's home board).
//!
//! Chance and turns (the model of `docs/architecture.md`): the game starts at a chance node, the opening roll, with 30
//! outcomes of probability 1/30: who starts and a non-double roll (each player rolls one die, the higher one starts and
//! plays both dice, ties rolled again; OpenSpiel's convention). Later each turn starts at a chance node with the 21
//! distinct rolls (a double 1/36, another roll 2/36), whose side to move is the player about to play. A move is a whole
//! turn (every checker step of the roll, distinct results only), except a double, which is two decisions of the same
//! player: two steps, then the other two (or as many as can be played). The core's move lists hold 256 moves: a
//! non-double has at most 255 distinct results, a whole double can have thousands (random games reach over 400).
//!
//! Notation (`notation.rs`): moves in the mover's own numbering, `24/18 13/11`, `bar/22`, `6/off`, `8/2*`, `13/11(2)`,
//! `24/18*/13`, `pass`; rolls `3-1` (`31` accepted), the opening roll `x:3-1` (X starts). Positions
//! `x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5 opening` (see `docs/backgammon.md`).
//!
//! State: one [`board::Checkers`] per player (26 four-bit counters), the mover, the phase, the dice and the incremental
//! Zobrist key: 48 bytes, copied to play.

pub mod board;
pub mod eval;
pub mod movegen;
pub mod notation;
pub mod tensor;
pub(crate) mod tuned_weights;

use board::{BAR, CHECKERS, Checkers, Pair, count, nibbles};
use movegen::{BgMove, CHANCE};

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{ChanceList, Game, GameError, Kind, MoveList, Outcome, Side, Turn, err, zobrist};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

pub(crate) use eval::BgEval;

/// The search value of one point (a single game) when `gammons=true` gives numeric outcomes; the evaluation uses
/// the same unit.
pub const POINT: i32 = 1000;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    GameInfo {
        name: "backgammon",
        aliases: &["bg"],
        description: "backgammon without the doubling cube: dice as chance nodes, a move is a whole turn (a double: \
two decisions of two steps)",
        parameters: vec![
            GameParam {
                name: "gammons",
                default: "false",
                description: "true: a win scores 1, 2 (gammon) or 3 (backgammon) points; false: a win is a win",
            },
            GameParam { name: "scoring", default: "single", description: "the same choice by name: single or gammons" },
        ],
    }
}

/// The phases of a turn.
pub mod phase {
    /// The opening roll (chance: who starts and with which dice).
    pub(crate) const OPENING: u8 = 0;
    /// The mover rolls (chance).
    pub const ROLL: u8 = 1;
    /// The mover plays the dice (a double: its first two steps).
    pub const MOVE: u8 = 2;
    /// The mover plays the rest of a double.
    pub const HALF: u8 = 3;
}

/// The rules: the scoring.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Backgammon {
    /// Gammons and backgammons count 2 and 3 points (numeric outcomes, [`POINT`] per point).
    pub gammons: bool,
}

/// A position (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BgState {
    /// X's and O's checkers, each in its own numbering.
    pub sides: [Checkers; 2],
    pub key: u64,
    /// The player who moves, or rolls next (0 = X, the first player; 1 = O).
    pub mover: u8,
    pub phase: u8,
    /// The dice, `hi >= lo` (0 while rolling).
    pub hi: u8,
    pub lo: u8,
    /// Dice of a double still to play in the phase [`phase::HALF`].
    pub left: u8,
}

impl BgState {
    /// The mover's side and the opponent's.
    #[inline(always)]
    pub fn pair(&self) -> Pair {
        Pair { me: self.sides[self.mover as usize], op: self.sides[1 - self.mover as usize] }
    }

    /// The winner, when a side has borne off all its checkers.
    pub fn winner(&self) -> Option<usize> {
        (0..2).find(|&p| count(self.sides[p], 0) == CHECKERS)
    }
}

/// The key of everything but the checkers.
fn turn_key(s: &BgState) -> u64 {
    let base = board::TURN_KEYS;
    let mut k = zobrist::key(base + 1 + s.phase as usize) ^ zobrist::key(base + 41 + s.left as usize);
    if s.mover == 1 {
        k ^= zobrist::key(base);
    }
    if s.hi != 0 {
        k ^= zobrist::key(base + 5 + (s.hi as usize - 1) * 6 + s.lo as usize - 1);
    }
    k
}

fn player_of(i: u8) -> Side {
    if i == 0 { Side::First } else { Side::Second }
}

impl Backgammon {
    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let gammons = spec.bool("gammons", false)?;
        let scoring = match spec.text("scoring").as_deref() {
            None => gammons,
            Some("single") => false,
            Some("gammons") => true,
            Some(other) => {
                return err(format!("backgammon: scoring={other}: expected single or gammons"));
            }
        };
        if spec.has("gammons") && scoring != gammons {
            return err("backgammon: gammons= and scoring= disagree (scoring=gammons is gammons=true)");
        }
        spec.finish()?;
        let gammons = scoring;
        Ok(Backgammon { gammons })
    }

    /// A state from its parts, with its key computed (the position parser and the tests).
    pub fn make_state(&self, sides: [Checkers; 2], mover: u8, phase: u8, hi: u8, lo: u8, left: u8) -> BgState {
        let mut s = BgState { sides, key: 0, mover, phase, hi, lo, left };
        s.key = self.compute_key(&s);
        s
    }

    /// The points the winner scores: 1, or 2 for a gammon and 3 for a backgammon with `gammons=true`.
    pub fn points(&self, s: &BgState, winner: usize) -> i32 {
        let loser = s.sides[1 - winner];
        if !self.gammons || count(loser, 0) != 0 {
            return 1;
        }
        // The winner's home board is the loser's points 19..24.
        if count(loser, BAR) != 0 || loser & nibbles(19, 24) != 0 { 3 } else { 2 }
    }

    /// Set the turn's fields and fold the change into the key.
    fn set_turn(&self, s: &mut BgState, mover: u8, phase: u8, hi: u8, lo: u8, left: u8) {
        s.key ^= turn_key(s);
        (s.mover, s.phase, s.hi, s.lo, s.left) = (mover, phase, hi, lo, left);
        s.key ^= turn_key(s);
    }
}

impl Game for Backgammon {
    type State = BgState;

    type Move = BgMove;

    fn spec(&self) -> String {
        if self.gammons { "backgammon(gammons=true)".into() } else { "backgammon".into() }
    }

    fn start(&self) -> BgState {
        self.make_state([board::START, board::START], 0, phase::OPENING, 0, 0, 0)
    }

    fn side_to_move(&self, s: &BgState) -> Side {
        player_of(s.mover)
    }

    fn generate_moves(&self, s: &BgState, moves: &mut MoveList<BgMove>) {
        moves.clear();
        if s.winner().is_some() {
            return;
        }
        match s.phase {
            phase::OPENING | phase::ROLL => {
                let mut outcomes = ChanceList::new();
                self.chance_outcomes(s, &mut outcomes);
                moves.extend(outcomes.iter().map(|&(m, _)| m));
            }
            _ => {
                let left = if s.phase == phase::HALF { Some(s.left) } else { None };
                movegen::generate(s.pair(), s.hi as usize, s.lo as usize, left, moves);
            }
        }
    }

    fn play(&self, s: &mut BgState, m: BgMove) {
        if m & CHANCE != 0 {
            let (hi, lo, starter) = movegen::roll_parts(m);
            let mover = if s.phase == phase::OPENING { starter } else { s.mover };
            self.set_turn(s, mover, phase::MOVE, hi, lo, 0);
            return;
        }
        let me = s.mover as usize;
        let before = s.pair();
        let mut after = before;
        movegen::apply(&mut after, m);
        s.key ^= board::side_key_delta(me, before.me, after.me) ^ board::side_key_delta(1 - me, before.op, after.op);
        s.sides[me] = after.me;
        s.sides[1 - me] = after.op;
        let left = movegen::left_after(m);
        if s.phase == phase::MOVE && left > 0 {
            self.set_turn(s, s.mover, phase::HALF, s.hi, s.lo, left);
        } else {
            self.set_turn(s, 1 - s.mover, phase::ROLL, 0, 0, 0);
        }
    }

    fn outcome(&self, s: &BgState) -> Option<Outcome> {
        let w = s.winner()?;
        let won = w == s.mover as usize;
        // Numeric outcomes on the evaluation's scale (one point = POINT, the evaluation strictly inside), so that the
        // chance searches average values of one scale and prune with a tight bound (`value_bound`).
        let v = if self.gammons { self.points(s, w) * POINT } else { POINT };
        Some(Outcome::Value(if won { v } else { -v }))
    }

    fn key(&self, s: &BgState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &BgState) -> u64 {
        board::side_key(0, s.sides[0]) ^ board::side_key(1, s.sides[1]) ^ turn_key(s)
    }

    fn parse_move(&self, s: &BgState, text: &str) -> Result<BgMove, GameError> {
        notation::parse_move(self, s, text)
    }

    fn format_move(&self, s: &BgState, m: BgMove) -> String {
        notation::format_move(s, m)
    }

    fn parse_position(&self, text: &str) -> Result<BgState, GameError> {
        notation::parse_position(self, text)
    }

    fn format_position(&self, s: &BgState) -> String {
        notation::format_position(s)
    }

    fn display(&self, s: &BgState) -> String {
        notation::display(self, s)
    }

    fn split_moves(&self, text: &str) -> Vec<String> {
        notation::split_moves(text)
    }
}

impl Capabilities for Backgammon {
    const KIND: Kind = Kind { chance: true, simultaneous: false, hidden: false };

    fn turn(&self, s: &BgState) -> Turn {
        if s.phase <= phase::ROLL { Turn::Chance } else { Turn::Player(player_of(s.mover)) }
    }

    fn chance_outcomes(&self, s: &BgState, outcomes: &mut ChanceList<BgMove>) {
        outcomes.clear();
        if s.winner().is_some() {
            return;
        }
        match s.phase {
            phase::OPENING => {
                for starter in 0..2 {
                    for hi in 2..=6 {
                        for lo in 1..hi {
                            outcomes.push((movegen::roll(hi, lo, starter), 1.0 / 30.0));
                        }
                    }
                }
            }
            phase::ROLL => {
                for hi in 1..=6 {
                    for lo in 1..=hi {
                        let p = if hi == lo { 1.0 / 36.0 } else { 2.0 / 36.0 };
                        outcomes.push((movegen::roll(hi, lo, 0), p));
                    }
                }
            }
            _ => {}
        }
    }

    fn value_bound(&self) -> i32 {
        if self.gammons { 3 * POINT } else { POINT }
    }

    fn play_moves(&self, state: &BgState, text: &str) -> Result<BgState, GameError> {
        notation::play_moves(self, state, text)
    }
}

impl Knowledge for Backgammon {
    type Eval = BgEval;

    const EVALUATIONS: &'static [&'static str] = eval::NAMES;

    fn evaluation(&self, name: &str) -> Result<BgEval, GameError> {
        BgEval::named(name).ok_or_else(|| {
            GameError::new(format!("{}: no evaluation '{name}' (known: {})", self.spec(), eval::NAMES.join(", ")))
        })
    }
}

impl Interop for Backgammon {
    /// `[200]`, OpenSpiel's layout ([`tensor`]), from the observer's side.
    fn observation_shape(&self) -> Vec<usize> {
        vec![tensor::SIZE]
    }

    fn observation_tensor(&self, s: &BgState, player: Side, out: &mut [f32]) {
        tensor::observe(s, player.index(), out)
    }

    /// OpenSpiel's `returns()`: the points won or lost (1; with `gammons=true` 2 for a gammon, 3 for a backgammon, as
    /// OpenSpiel's `scoring_type=full_scoring`), not the evaluation's scale.
    fn returns_value(&self, o: Outcome) -> f64 {
        match o {
            Outcome::Value(v) => v as f64 / POINT as f64,
            Outcome::Win => 1.0,
            Outcome::Loss => -1.0,
            Outcome::Draw => 0.0,
        }
    }

    fn board_view(&self, s: &BgState) -> Option<crate::game::BoardView> {
        Some(notation::view(s))
    }
}
