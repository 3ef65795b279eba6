//! Matching pennies, the smallest game with simultaneous moves: `matching_pennies(rounds=1)`.
//!
//! In each round both players choose heads (`h`) or tails (`t`) at once, without seeing the other's choice. The first
//! player wins the round when the two choices match (`h/h`, `t/t`), the second player when they differ (`h/t`,
//! `t/h`). After `rounds` rounds the game ends; its value is the *sum* of the rounds: `Outcome::Value(w1 - w2)` for
//! the first player (`w1`, `w2` = rounds won by each), the opposite for the second, so the game is zero-sum and a match
//! counts a positive sum as a win of the first player. Neither choice is better than the other: the game's value is 0,
//! reached only by mixing h and t with probability 1/2 each (a pure strategy is exploited), which is why a
//! deterministic minimax player cannot play it.
//!
//! Every non-terminal state is a simultaneous node ([`Turn::Simultaneous`]): [`Game::generate_moves`] lists nothing,
//! [`Capabilities::player_moves`] gives each player `h` and `t`, [`Capabilities::play_joint`] resolves a pair. A joint move is written
//! `FIRST/SECOND`: `h/t` (`heads/tails` accepted). The side to move is always the first player: the point of view of
//! [`Game::outcome`].
//!
//! State: the rounds won by each player (the rounds played are their sum) and the Zobrist key
//! `Z[31 * w1 + w2]` (one key per score), updated by `play_joint` as `key ^= Z[before] ^ Z[after]`. The position text is
//! the score `w1-w2`: the start is `0-0`; after `h/h t/h` it is `1-1`.
//!
//! perft counts a joint move as one ply: 4 at depth 1, 16 at depth 2 (with `rounds` >= 2), 4^d up to `d = rounds` and
//! 0 beyond (the game is over).

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{Evaluator, Game, GameError, Kind, MoveList, Outcome, Side, Turn, err, zobrist};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

/// Most rounds (the Zobrist table has one key per score).
pub(crate) const MAX_ROUNDS: u32 = 30;

/// Heads.
pub(crate) const HEADS: u8 = 0;
/// Tails.
pub(crate) const TAILS: u8 = 1;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    GameInfo {
        name: "matching_pennies",
        aliases: &["pennies"],
        description: "matching pennies: both players choose h or t at once; the first wins the round if they match, \
the second otherwise; value = rounds won by the first minus rounds won by the second",
        parameters: vec![GameParam { name: "rounds", default: "1", description: "rounds played, 1..=30" }],
    }
}

/// The rules: the number of rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchingPennies {
    pub rounds: u32,
}

/// A position: rounds won by the first and by the second player, and the Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PenniesState {
    pub first: u8,
    pub second: u8,
    pub key: u64,
}

impl Default for MatchingPennies {
    fn default() -> Self {
        MatchingPennies { rounds: 1 }
    }
}

fn zkey(first: u8, second: u8) -> u64 {
    zobrist::key(31 * first as usize + second as usize)
}

/// `h`, `t`, `heads` or `tails` (any case).
fn parse_coin(text: &str) -> Option<u8> {
    match text.trim().to_ascii_lowercase().as_str() {
        "h" | "heads" => Some(HEADS),
        "t" | "tails" => Some(TAILS),
        _ => None,
    }
}

impl MatchingPennies {
    /// Matching pennies over `rounds` rounds (checked).
    pub fn new(rounds: u32) -> Result<Self, GameError> {
        if !(1..=MAX_ROUNDS).contains(&rounds) {
            return err(format!("matching_pennies: rounds={rounds}: expected 1..={MAX_ROUNDS}"));
        }
        Ok(MatchingPennies { rounds })
    }

    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let rounds = spec.int("rounds", 1, 1, MAX_ROUNDS as i64)? as u32;
        spec.finish()?;
        MatchingPennies::new(rounds)
    }

    /// Rounds played so far.
    pub fn played(s: &PenniesState) -> u32 {
        s.first as u32 + s.second as u32
    }
}

impl Game for MatchingPennies {
    type State = PenniesState;

    type Move = u8;

    fn spec(&self) -> String {
        if self.rounds == 1 { "matching_pennies".into() } else { format!("matching_pennies(rounds={})", self.rounds) }
    }

    fn start(&self) -> PenniesState {
        PenniesState { first: 0, second: 0, key: zkey(0, 0) }
    }

    fn side_to_move(&self, _s: &PenniesState) -> Side {
        Side::First
    }

    /// No single player moves here: both choose at once ([`Capabilities::player_moves`]).
    fn generate_moves(&self, _s: &PenniesState, moves: &mut MoveList<u8>) {
        moves.clear();
    }

    /// Never legal: no single move exists in this game (see [`Capabilities::play_joint`]).
    fn play(&self, _s: &mut PenniesState, _m: u8) {
        panic!("matching_pennies: both players move at once; play a pair with play_joint");
    }

    fn outcome(&self, s: &PenniesState) -> Option<Outcome> {
        (Self::played(s) >= self.rounds).then(|| Outcome::Value(s.first as i32 - s.second as i32))
    }

    fn key(&self, s: &PenniesState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &PenniesState) -> u64 {
        zkey(s.first, s.second)
    }

    fn parse_move(&self, s: &PenniesState, text: &str) -> Result<u8, GameError> {
        if self.is_terminal(s) {
            return err("the game is over: no move is legal");
        }
        err(format!("'{}': both players choose at once here: write the pair FIRST/SECOND, e.g. h/t", text.trim()))
    }

    fn format_move(&self, _s: &PenniesState, m: u8) -> String {
        if m == HEADS { "h".into() } else { "t".into() }
    }

    fn parse_position(&self, text: &str) -> Result<PenniesState, GameError> {
        let t = text.trim();
        let shape = || {
            GameError::new(format!(
                "position '{t}': expected the score FIRST-SECOND (rounds won by each player, e.g. 1-0)"
            ))
        };
        let (a, b) = t.split_once('-').ok_or_else(shape)?;
        let first: u32 = a.trim().parse().map_err(|_| shape())?;
        let second: u32 = b.trim().parse().map_err(|_| shape())?;
        if first + second > self.rounds {
            return err(format!("position '{t}': {} rounds played, the game has {}", first + second, self.rounds));
        }
        let (first, second) = (first as u8, second as u8);
        Ok(PenniesState { first, second, key: zkey(first, second) })
    }

    fn format_position(&self, s: &PenniesState) -> String {
        format!("{}-{}", s.first, s.second)
    }

    fn display(&self, s: &PenniesState) -> String {
        let played = Self::played(s);
        let mut out = format!(
            "{}\nscore: first player {}, second player {} (the first wins a round when the pennies match)\n",
            self.spec(),
            s.first,
            s.second
        );
        match self.outcome(s) {
            Some(Outcome::Value(v)) => {
                out += &format!("game over after {played} rounds: value {v} for the first player")
            }
            _ => out += &format!("round {} of {}: both players choose h or t at once", played + 1, self.rounds),
        }
        out
    }
}

impl Capabilities for MatchingPennies {
    const KIND: Kind = Kind { chance: false, simultaneous: true, hidden: false };

    fn turn(&self, _s: &PenniesState) -> Turn {
        Turn::Simultaneous
    }

    fn player_moves(&self, s: &PenniesState, _player: Side, moves: &mut MoveList<u8>) {
        moves.clear();
        if !self.is_terminal(s) {
            moves.extend([HEADS, TAILS]);
        }
    }

    fn play_joint(&self, s: &mut PenniesState, first: u8, second: u8) {
        debug_assert!(!self.is_terminal(s));
        let before = zkey(s.first, s.second);
        if first == second {
            s.first += 1;
        } else {
            s.second += 1;
        }
        s.key ^= before ^ zkey(s.first, s.second);
    }

    fn parse_joint(&self, s: &PenniesState, text: &str) -> Result<(u8, u8), GameError> {
        let t = text.trim();
        if self.is_terminal(s) {
            return err("the game is over: no move is legal");
        }
        let Some((a, b)) = t.split_once('/') else {
            return err(format!("'{t}': both players choose at once: write the pair FIRST/SECOND, e.g. h/t"));
        };
        let half = |word: &str, who: &str| {
            parse_coin(word)
                .ok_or_else(|| GameError::new(format!("'{t}': the {who}'s choice '{}' is not h or t", word.trim())))
        };
        Ok((half(a, "first player")?, half(b, "second player")?))
    }
}

impl Knowledge for MatchingPennies {
    type Eval = PenniesEval;
}

impl Interop for MatchingPennies {
    /// One joint move a round.
    fn max_game_length(&self) -> Option<u32> {
        Some(self.rounds)
    }

    /// Every round won.
    fn max_utility(&self) -> f64 {
        self.rounds as f64
    }

    /// `[2, rounds + 1]`: one-hot rows of the rounds won by the first player and by the second (the choices of a
    /// round are seen only through its result), the same for both players.
    fn observation_shape(&self) -> Vec<usize> {
        vec![2, self.rounds as usize + 1]
    }

    fn observation_tensor(&self, s: &PenniesState, _player: Side, out: &mut [f32]) {
        let row = self.rounds as usize + 1;
        out[s.first as usize] = 1.0;
        out[row + s.second as usize] = 1.0;
    }
}

/// The evaluation: the score so far (rounds won by the first player minus the second's), for the first player.
#[derive(Clone, Copy, Debug, Default)]
pub struct PenniesEval;

impl Evaluator<MatchingPennies> for PenniesEval {
    type Carry = ();

    fn evaluate(&self, _g: &MatchingPennies, s: &PenniesState) -> i32 {
        s.first as i32 - s.second as i32
    }
}
