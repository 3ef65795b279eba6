//! Marbles, the take-away game (a one-pile Nim with a bound): `marbles(n=21,k=3,misere=false)`.
//!
//! A pile of `n` marbles; the players alternately take 1 to `k` marbles (never more than are left). Whoever takes the
//! last marble wins; in the misère variant whoever takes the last marble loses.
//!
//! The state is the number of marbles left and the side to move. Its Zobrist key is
//! `Z[left] ^ (Z[SIDE] if the second player is to move)`, updated by `play` as `key ^= Z[before] ^ Z[after] ^ Z[SIDE]`.
//!
//! A move is the number of marbles taken, written as that number (`3`). The position text is the number of marbles
//! left then the side to move, `1` (first player) or `2` (second player): the start of the default game is `21 1`.
//!
//! Theory (Bouton's analysis of subtraction games): the side to move loses exactly when `left % (k+1) == 0`
//! (misère: `== 1`). The default evaluator uses it as its heuristic, and the tests check it against the exact solver.

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{Evaluator, Game, GameError, MoveList, Outcome, Side, err, zobrist};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

/// Largest pile: the Zobrist table has one key per pile size.
pub(crate) const MAX_N: u32 = 1000;
/// Largest take: a move list holds at most 256 moves.
pub(crate) const MAX_K: u32 = 256;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    let p = |name, default, description| GameParam { name, default, description };
    GameInfo {
        name: "marbles",
        aliases: &[],
        description: "marbles (take-away): players take 1..=k marbles from a pile of n; taking the last one wins",
        parameters: vec![
            p("n", "21", "marbles in the pile at the start, 1..=1000"),
            p("k", "3", "most marbles one move may take, 1..=256"),
            p("misere", "false", "taking the last marble loses"),
        ],
    }
}

/// The rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marbles {
    pub n: u32,
    pub k: u32,
    pub misere: bool,
}

/// A position: marbles left, side to move, incremental Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MarblesState {
    pub left: u32,
    pub stm: Side,
    pub key: u64,
}

impl Default for Marbles {
    fn default() -> Self {
        Marbles { n: 21, k: 3, misere: false }
    }
}

fn side_digit(p: Side) -> char {
    match p {
        Side::First => '1',
        Side::Second => '2',
    }
}

impl Marbles {
    /// `n` marbles, take 1 to `k`; `misere`: who takes the last loses (checked).
    pub fn new(n: u32, k: u32, misere: bool) -> Result<Self, GameError> {
        if !(1..=MAX_N).contains(&n) {
            return err(format!("marbles: n={n}: the pile must hold 1..={MAX_N} marbles"));
        }
        if !(1..=MAX_K).contains(&k) {
            return err(format!("marbles: k={k}: a move takes 1..=k marbles with k in 1..={MAX_K}"));
        }
        Ok(Marbles { n, k, misere })
    }

    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let n = spec.int("n", 21, 1, MAX_N as i64)? as u32;
        let k = spec.int("k", 3, 1, MAX_K as i64)? as u32;
        let misere = spec.bool("misere", false)?;
        spec.finish()?;
        Marbles::new(n, k, misere)
    }

    /// The most marbles the side to move may take.
    #[inline(always)]
    pub(crate) fn max_take(&self, s: &MarblesState) -> u32 {
        self.k.min(s.left)
    }

    /// Whether the side to move loses with best play (the closed form of the theory).
    pub(crate) fn theory_loss(&self, left: u32) -> bool {
        let r = left % (self.k + 1);
        if self.misere { r == 1 } else { r == 0 }
    }

    /// Whether `left` marbles with `stm` to move can arise from the start: some number `p` of plies with the parity
    /// of `stm` took the `n - left` marbles, each ply taking 1..=k.
    pub fn reachable(&self, left: u32, stm: Side) -> bool {
        let taken = self.n - left;
        let min_plies = taken.div_ceil(self.k);
        (min_plies..=taken).any(|p| p % 2 == stm.index() as u32)
    }
}

impl Game for Marbles {
    type State = MarblesState;

    type Move = u32;

    fn spec(&self) -> String {
        let mut p = Vec::new();
        if self.n != 21 {
            p.push(format!("n={}", self.n));
        }
        if self.k != 3 {
            p.push(format!("k={}", self.k));
        }
        if self.misere {
            p.push("misere=true".to_string());
        }
        if p.is_empty() { "marbles".to_string() } else { format!("marbles({})", p.join(",")) }
    }

    fn start(&self) -> MarblesState {
        MarblesState { left: self.n, stm: Side::First, key: zobrist::key(self.n as usize) }
    }

    fn side_to_move(&self, s: &MarblesState) -> Side {
        s.stm
    }

    fn generate_moves(&self, s: &MarblesState, moves: &mut MoveList<u32>) {
        moves.clear();
        // Largest takes first: they end the game soonest, a useful order for searches.
        for t in (1..=self.max_take(s)).rev() {
            moves.push(t);
        }
    }

    #[inline]
    fn play(&self, s: &mut MarblesState, m: u32) {
        let before = s.left;
        s.left -= m;
        s.key ^= zobrist::key(before as usize) ^ zobrist::key(s.left as usize) ^ zobrist::key(zobrist::SIDE);
        s.stm = s.stm.other();
    }

    #[inline]
    fn outcome(&self, s: &MarblesState) -> Option<Outcome> {
        if s.left > 0 {
            None
        } else if self.misere {
            Some(Outcome::Win)
        } else {
            Some(Outcome::Loss)
        }
    }

    fn key(&self, s: &MarblesState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &MarblesState) -> u64 {
        let side = if s.stm == Side::Second { zobrist::key(zobrist::SIDE) } else { 0 };
        zobrist::key(s.left as usize) ^ side
    }

    #[inline]
    fn count_moves(&self, s: &MarblesState) -> u64 {
        self.max_take(s) as u64
    }

    fn parse_move(&self, s: &MarblesState, text: &str) -> Result<u32, GameError> {
        let t = text.trim();
        let max = self.max_take(s);
        if s.left == 0 {
            return err("the game is over: no marble is left");
        }
        let range = if max == 1 { "1".to_string() } else { format!("1..={max}") };
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return err(format!("'{t}': expected the number of marbles to take ({range})"));
        }
        if t.len() > 1 && t.starts_with('0') {
            return err(format!("'{t}': write the number of marbles without leading zeros ({range})"));
        }
        match t.parse::<u32>() {
            Ok(m) if m >= 1 && m <= max => Ok(m),
            Ok(0) => err(format!("illegal move {t}: take at least one marble ({range})")),
            _ => err(format!("illegal move {t}: take {range} marbles ({} left, at most {} per move)", s.left, self.k)),
        }
    }

    fn format_move(&self, _s: &MarblesState, m: u32) -> String {
        m.to_string()
    }

    fn parse_position(&self, text: &str) -> Result<MarblesState, GameError> {
        let mut fields = text.split_whitespace();
        let left = fields.next().ok_or_else(|| {
            GameError::new("empty position: expected the marbles left then the side to move, e.g. '21 1'")
        })?;
        let side = fields
            .next()
            .ok_or_else(|| GameError::new("position: missing side to move (1 or 2) after the marbles left"))?;
        if let Some(extra) = fields.next() {
            return err(format!("position: unexpected '{extra}' after the side to move"));
        }
        let left: u32 = match left.parse() {
            Ok(v) if left.bytes().all(|b| b.is_ascii_digit()) && (left == "0" || !left.starts_with('0')) => v,
            _ => return err(format!("position: '{left}' is not a number of marbles (0..={})", self.n)),
        };
        if left > self.n {
            return err(format!("position: {left} marbles left, but the game starts with n={}", self.n));
        }
        let stm = match side {
            "1" => Side::First,
            "2" => Side::Second,
            _ => return err(format!("position: side to move '{side}': expected 1 (first player) or 2 (second)")),
        };
        if !self.reachable(left, stm) {
            return err(format!(
                "position: impossible: {} marbles taken in 1..={} per move cannot leave player {} to move",
                self.n - left,
                self.k,
                side_digit(stm)
            ));
        }
        let mut s = MarblesState { left, stm, key: 0 };
        s.key = self.compute_key(&s);
        Ok(s)
    }

    fn format_position(&self, s: &MarblesState) -> String {
        format!("{} {}", s.left, side_digit(s.stm))
    }

    fn display(&self, s: &MarblesState) -> String {
        let mut out = String::new();
        let mut row = String::new();
        for i in 0..s.left {
            if i > 0 && i % 50 == 0 {
                out += row.trim_end();
                out.push('\n');
                row.clear();
            } else if i > 0 && i % 5 == 0 {
                row.push(' ');
            }
            row.push('o');
        }
        out += row.trim_end();
        if s.left > 0 {
            out.push('\n');
        }
        let rule = if self.misere { "taking the last loses" } else { "taking the last wins" };
        out += &format!(
            "{} of {} marbles left (take 1..={}, {rule}); player {} to move",
            s.left,
            self.n,
            self.k,
            side_digit(s.stm)
        );
        out
    }
}

// The extension traits (docs/architecture.md, "How to add a game"): a deterministic alternating game keeps every
// capability's default, names its evaluation, and here gives OpenSpiel's numbering of its moves.
impl Capabilities for Marbles {}

impl Knowledge for Marbles {
    type Eval = MarblesEval;
}

impl Interop for Marbles {
    /// `[2, n + 1]`: one-hot rows of the marbles left and of the side to move (0 the first player, 1 the second).
    fn observation_shape(&self) -> Vec<usize> {
        vec![2, self.n as usize + 1]
    }

    fn observation_tensor(&self, s: &MarblesState, _player: Side, out: &mut [f32]) {
        let row = self.n as usize + 1;
        out[(s.left as usize).min(row - 1)] = 1.0;
        out[row + s.stm.index()] = 1.0;
    }
}

/// The default evaluation: the closed-form theory as a heuristic, +100 when the side to move wins with best play and
/// -100 when it loses (see the module comment). It is exact on this game, so searches settle at any depth.
#[derive(Clone, Copy, Debug, Default)]
pub struct MarblesEval;

impl Evaluator<Marbles> for MarblesEval {
    type Carry = ();

    fn evaluate(&self, g: &Marbles, s: &MarblesState) -> i32 {
        if g.theory_loss(s.left) { -100 } else { 100 }
    }
}
