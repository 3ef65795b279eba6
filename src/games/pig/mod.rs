//! Pig, the dice game (Neller and Presser's subject): `pig(target=100,die=6)`.
//!
//! Rules (as OpenSpiel's `pig`): each player has a banked score, starting at 0. On a turn the player to move decides
//! to **roll** or to **hold**. A roll of 1 ends the turn and loses the turn total; any other face `f` adds `f` to the
//! turn total and the same player decides again. Holding banks the turn total and passes the turn (holding with a
//! turn total of 0 is legal: it only passes). The first player to bank `target` points wins. As in OpenSpiel, once
//! the banked score plus the turn total reaches the target, hold is the only legal move. OpenSpiel's `horizon` (a draw
//! after 1000 turns) is not modelled: random games end with probability 1.
//!
//! The model: a decision is a player's node (`roll`, `hold`); a roll leads to a chance node ([`Turn::Chance`]) whose
//! outcomes are the faces `1..=die`, each of probability `1/die`, and whose side to move is the roller. The same player
//! acts several times in a row, so results are read for a player (`outcome_for`), never by parity. A finished game has
//! the loser to move (`Outcome::Loss`).
//!
//! Notation: moves `roll` and `hold` (`r`, `h`, `stop` accepted), faces `1`..`die` (`roll 3` accepted). A position is
//! `A B T P`: the first player's score, the second's, the turn total and the player to move (`1` or `2`), followed by
//! `roll` while the die is in the air: `0 0 0 1` (the start), `12 30 5 2 roll`.
//!
//! Evaluation (`simple`, the only one): an estimate of the side to move's winning chances mapped linearly onto the
//! score scale, `(2 p - 1) · EVAL_SCALE`. With chance, only a positive *linear* transformation of the expected result
//! keeps expectimax's choices (the course's warning), so the estimate lives on the scale of won and lost games
//! (`WIN_SCORE`), not on the small heuristic scale of the deterministic games; it stays below `WIN_THRESHOLD` so that
//! an estimate is never reported as a proven win. `p` is a logistic function of the difference between the turns
//! each player still needs at the pace of a "hold at 20" player.
//!
//! State: both scores, the turn total, the player to move, whether the die is rolling, and a Zobrist-style key (a hash
//! of those fields, recomputed by `play` in constant time).

mod notation;

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{ChanceList, Evaluator, Game, GameError, Kind, MoveList, Outcome, Side, Turn, WIN_THRESHOLD, err};
use crate::games::random_tree::mix;
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

/// The largest target score.
pub(crate) const MAX_TARGET: u32 = 1000;
/// The largest die.
pub(crate) const MAX_DIE: u32 = 100;
/// The evaluation's scale: a certain win would be worth this much.
pub(crate) const EVAL_SCALE: f64 = (WIN_THRESHOLD - 1) as f64;

/// A move: roll or hold at a player's node, a face at a chance node.
pub(crate) type PigMove = u8;
/// Roll the die.
pub const ROLL: PigMove = 0;
/// Bank the turn total.
pub const HOLD: PigMove = 1;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    let p = |name, default, description| GameParam { name, default, description };
    GameInfo {
        name: "pig",
        aliases: &[],
        description: "the dice game Pig: roll or hold; a 1 loses the turn total; the first to bank the target wins",
        parameters: vec![
            p("target", "100", "the score to reach, 1..=1000"),
            p("die", "6", "faces of the die, 2..=100"),
        ],
    }
}

/// The rules: the target and the die.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pig {
    pub target: u32,
    pub die: u32,
}

/// A position (see the module doc).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PigState {
    pub scores: [u16; 2],
    pub(crate) turn_total: u16,
    /// 0: the first player to move, 1: the second.
    pub side: u8,
    pub(crate) rolling: bool,
    pub key: u64,
}

impl Default for Pig {
    fn default() -> Self {
        Pig { target: 100, die: 6 }
    }
}

impl Pig {
    /// Pig to `target` points with a die of `die` faces (checked).
    pub fn new(target: u32, die: u32) -> Result<Self, GameError> {
        if !(1..=MAX_TARGET).contains(&target) {
            return err(format!("pig: target={target}: expected 1..={MAX_TARGET}"));
        }
        if !(2..=MAX_DIE).contains(&die) {
            return err(format!("pig: die={die}: expected 2..={MAX_DIE}"));
        }
        Ok(Pig { target, die })
    }

    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let target = spec.int("target", 100, 1, MAX_TARGET as i64)? as u32;
        let die = spec.int("die", 6, 2, MAX_DIE as i64)? as u32;
        spec.finish()?;
        Pig::new(target, die)
    }

    /// The key of a position's fields.
    pub(crate) fn hash(s: &PigState) -> u64 {
        let packed = s.scores[0] as u64
            | (s.scores[1] as u64) << 16
            | (s.turn_total as u64) << 32
            | (s.side as u64) << 48
            | (s.rolling as u64) << 49;
        mix(packed, 0x0019_D1CE)
    }

    /// A position from its fields (the key computed).
    pub fn state(&self, scores: [u16; 2], turn_total: u16, side: u8, rolling: bool) -> PigState {
        let mut s = PigState { scores, turn_total, side, rolling, key: 0 };
        s.key = Self::hash(&s);
        s
    }

    /// Whether the game is over: someone banked the target.
    pub fn over(&self, s: &PigState) -> bool {
        s.scores.iter().any(|&x| x as u32 >= self.target)
    }

    /// Whether the player to move may only hold (the banked score plus the turn total reach the target).
    pub(crate) fn must_hold(&self, s: &PigState) -> bool {
        (s.scores[s.side as usize] + s.turn_total) as u32 >= self.target
    }

    /// The estimated winning chances of the side to move (see the module doc).
    pub fn estimate(&self, s: &PigState) -> f64 {
        // A "hold at 20" player banks about 8 points per turn with a six-sided die; other dice scale with the mean face.
        let pace = 8.0 * (self.die as f64 + 1.0) / 7.0;
        let me = s.scores[s.side as usize] as f64 + s.turn_total as f64;
        let them = s.scores[1 - s.side as usize] as f64;
        let left = |x: f64| ((self.target as f64 - x).max(0.0)) / pace;
        // Turns the opponent needs minus turns the mover needs; the mover's turn is under way (half a turn ahead).
        let lead = left(them) - left(me) + 0.5;
        1.0 / (1.0 + (-0.6 * lead).exp())
    }
}

impl Game for Pig {
    type State = PigState;

    type Move = PigMove;

    fn spec(&self) -> String {
        let mut p = Vec::new();
        if self.target != 100 {
            p.push(format!("target={}", self.target));
        }
        if self.die != 6 {
            p.push(format!("die={}", self.die));
        }
        if p.is_empty() { "pig".into() } else { format!("pig({})", p.join(",")) }
    }

    fn start(&self) -> PigState {
        self.state([0, 0], 0, 0, false)
    }

    fn side_to_move(&self, s: &PigState) -> Side {
        if s.side == 0 { Side::First } else { Side::Second }
    }

    fn generate_moves(&self, s: &PigState, moves: &mut MoveList<PigMove>) {
        moves.clear();
        if self.over(s) {
        } else if s.rolling {
            moves.extend((1..=self.die).map(|f| f as u8));
        } else if self.must_hold(s) {
            moves.push(HOLD);
        } else {
            moves.extend([ROLL, HOLD]);
        }
    }

    fn play(&self, s: &mut PigState, m: PigMove) {
        if s.rolling {
            s.rolling = false;
            if m == 1 {
                s.turn_total = 0;
                s.side ^= 1;
            } else {
                s.turn_total += m as u16;
            }
        } else if m == ROLL {
            s.rolling = true;
        } else {
            s.scores[s.side as usize] += s.turn_total;
            s.turn_total = 0;
            s.side ^= 1;
        }
        s.key = Self::hash(s);
    }

    fn outcome(&self, s: &PigState) -> Option<Outcome> {
        // The player who banked the target has just passed the turn: the side to move lost.
        self.over(s).then_some(Outcome::Loss)
    }

    fn key(&self, s: &PigState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &PigState) -> u64 {
        Self::hash(s)
    }

    fn parse_move(&self, s: &PigState, text: &str) -> Result<PigMove, GameError> {
        notation::parse_move(self, s, text)
    }

    fn format_move(&self, s: &PigState, m: PigMove) -> String {
        if s.rolling {
            m.to_string()
        } else if m == ROLL {
            "roll".into()
        } else {
            "hold".into()
        }
    }

    fn parse_position(&self, text: &str) -> Result<PigState, GameError> {
        notation::parse_position(self, text)
    }

    fn format_position(&self, s: &PigState) -> String {
        let roll = if s.rolling { " roll" } else { "" };
        format!("{} {} {} {}{roll}", s.scores[0], s.scores[1], s.turn_total, s.side + 1)
    }

    fn display(&self, s: &PigState) -> String {
        notation::display(self, s)
    }
}

impl Capabilities for Pig {
    const KIND: Kind = Kind { chance: true, simultaneous: false, hidden: false };

    fn turn(&self, s: &PigState) -> Turn {
        if s.rolling { Turn::Chance } else { Turn::Player(self.side_to_move(s)) }
    }

    fn chance_outcomes(&self, s: &PigState, outcomes: &mut ChanceList<PigMove>) {
        outcomes.clear();
        if s.rolling && !self.over(s) {
            let p = 1.0 / self.die as f64;
            outcomes.extend((1..=self.die).map(|f| (f as u8, p)));
        }
    }
}

impl Knowledge for Pig {
    type Eval = PigEval;
}

impl Interop for Pig {
    /// OpenSpiel's numbering: `roll` 0, `hold` 1 (OpenSpiel's `stop`); at a chance node the face `f` is `f - 1`
    /// (OpenSpiel's chance actions, below `die`, its `max_chance_outcomes`).
    fn num_distinct_actions(&self) -> Option<u32> {
        Some(2)
    }

    fn action_id(&self, s: &PigState, m: PigMove) -> Option<u32> {
        Some(if s.rolling { m as u32 - 1 } else { m as u32 })
    }

    /// `[3, target + 1]`, OpenSpiel's layout: one-hot rows of the turn total, the first player's banked score and the
    /// second's (each capped at `target`), the same for both observers.
    fn observation_shape(&self) -> Vec<usize> {
        vec![3, self.target as usize + 1]
    }

    fn observation_tensor(&self, s: &PigState, _player: Side, out: &mut [f32]) {
        let bins = self.target as usize + 1;
        for (row, v) in [s.turn_total, s.scores[0], s.scores[1]].into_iter().enumerate() {
            out[row * bins + (v as usize).min(bins - 1)] = 1.0;
        }
    }
}

/// The evaluation: the estimate of the winning chances on the score scale (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct PigEval;

impl Evaluator<Pig> for PigEval {
    type Carry = ();

    fn evaluate(&self, g: &Pig, s: &PigState) -> i32 {
        if let Some(o) = g.outcome(s) {
            return crate::game::outcome_score(o, 0);
        }
        ((2.0 * g.estimate(s) - 1.0) * EVAL_SCALE).round() as i32
    }
}
