//! The game model shared by every game, search algorithm and tool.
//!
//! A game is split in two parts:
//! - a *rules object* implementing [`Game`] (the parameters: board size, variants, precomputed masks), cheap to share;
//! - a small `Copy` *state* ([`Game::State`]) holding a position: bitboards, side to move, incremental Zobrist key.
//!
//! Play is *copy-make*: [`Game::play`] mutates a state in place, and a caller that wants to go back keeps the copy it
//! had (states are 16 to 32 bytes, so a copy is cheaper than recording and reverting a move; see
//! `docs/architecture.md`). "Undo" in the tools is a stack of states.
//!
//! Values are always seen from the side to move ([`Outcome`]), the negamax convention. Evaluation is separate from the
//! rules ([`Evaluator`]); a game names its default evaluator with [`Game::Eval`] and may have others.
//!
//! Chance nodes (dice games, expectimax) are not modelled yet. The plan is an extra trait for games whose states can be
//! chance nodes (`chance_outcomes(state) -> [(probability, outcome)]`), so that deterministic games pay nothing.

use std::fmt::Debug;
use std::hash::Hash;

use arrayvec::ArrayVec;
use rand::{Rng, RngExt};

/// Largest number of legal moves any game may produce in one position.
pub const MAX_MOVES: usize = 256;

/// Fixed-capacity move list: lives on the stack, no allocation per node.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// The two players. `First` moves first (White in Breakthrough, X in tic-tac-toe).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    First,
    Second,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended, from the point of view of the side to move in the final position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
    /// A numeric final value (synthetic game trees, whose leaves carry numbers rather than results).
    Value(i32),
}

impl Outcome {
    /// The same outcome seen by the other player.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Value(v) => Outcome::Value(-v),
        }
    }
}

/// A user-facing error about a game: malformed or illegal input. The message is one line that says what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GameError(pub String);

impl GameError {
    pub fn new(msg: impl Into<String>) -> Self {
        GameError(msg.into())
    }
}

/// Shorthand used by parsers.
pub fn err<T>(msg: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::new(msg))
}

/// The rules of one game, with its parameters.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// A position. Small and `Copy`: copy-make is the way to go back.
    type State: Copy + Debug + PartialEq + Eq + Hash + Send + Sync + 'static;
    /// A move, valid in the state it was generated from.
    type Move: Copy + Debug + PartialEq + Eq + Hash + Send + Sync + 'static;
    /// The default heuristic evaluation of this game.
    type Eval: Evaluator<Self> + Default + Clone + Send + Sync + 'static;

    /// The canonical game string (`breakthrough(rows=6,columns=5)`), with non-default parameters only.
    fn spec(&self) -> String;
    /// The start position.
    fn start(&self) -> Self::State;
    /// Who moves in this state.
    fn side_to_move(&self, state: &Self::State) -> Player;
    /// Legal moves of a non-terminal state, appended to `moves` (cleared first). A terminal state has none.
    fn generate_moves(&self, state: &Self::State, moves: &mut MoveList<Self::Move>);
    /// Play a legal move in place.
    fn play(&self, state: &mut Self::State, mv: Self::Move);
    /// `Some(outcome)` for a finished game (from the side to move's point of view), `None` while it goes on.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;
    /// The 64-bit Zobrist key, maintained incrementally by `play`.
    fn key(&self, state: &Self::State) -> u64;
    /// The same key computed from scratch (tests compare the two).
    fn compute_key(&self, state: &Self::State) -> u64;

    /// Parse a move in this game's notation; it must be legal in `state`.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, GameError>;
    /// Write a move in this game's canonical notation.
    fn format_move(&self, state: &Self::State, mv: Self::Move) -> String;
    /// Parse a position in this game's position text.
    fn parse_position(&self, text: &str) -> Result<Self::State, GameError>;
    /// Write a position as text; `parse_position` reads it back to the same state.
    fn format_position(&self, state: &Self::State) -> String;
    /// A human-readable drawing of the board.
    fn display(&self, state: &Self::State) -> String;

    /// Number of legal moves of a non-terminal state (callers check [`Game::outcome`] first); games override it with a
    /// bulk count (perft's last ply).
    fn count_moves(&self, state: &Self::State) -> u64 {
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        moves.len() as u64
    }

    /// perft's last ply: the number of legal moves, or 0 when the game is over. Games override it to test for the end
    /// and count the moves in one pass.
    fn count_leaf_moves(&self, state: &Self::State) -> u64 {
        if self.is_terminal(state) { 0 } else { self.count_moves(state) }
    }

    /// True when the game is over.
    fn is_terminal(&self, state: &Self::State) -> bool {
        self.outcome(state).is_some()
    }

    /// A uniformly random legal move, `None` in a terminal state.
    fn random_move<R: Rng + ?Sized>(&self, state: &Self::State, rng: &mut R) -> Option<Self::Move> {
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        if moves.is_empty() { None } else { Some(moves[rng.random_range(0..moves.len())]) }
    }

    /// Play uniformly random moves to the end. Returns the outcome seen by the side to move in `state`, and the
    /// number of plies played.
    fn random_playout<R: Rng + ?Sized>(&self, state: &Self::State, rng: &mut R) -> (Outcome, u32) {
        let mut s = *state;
        let mut plies = 0u32;
        loop {
            if let Some(o) = self.outcome(&s) {
                return (if plies.is_multiple_of(2) { o } else { o.flip() }, plies);
            }
            match self.random_move(&s, rng) {
                Some(m) => {
                    self.play(&mut s, m);
                    plies += 1;
                }
                // A state with no move must report an outcome; treat a violation as a loss for the stuck side.
                None => {
                    let o = Outcome::Loss;
                    return (if plies.is_multiple_of(2) { o } else { o.flip() }, plies);
                }
            }
        }
    }

    /// Parse a space-separated move list and play it from `state`; the error names the first bad move.
    fn play_moves(&self, state: &Self::State, text: &str) -> Result<Self::State, GameError> {
        let mut s = *state;
        for (i, word) in text.split_whitespace().enumerate() {
            if self.is_terminal(&s) {
                return err(format!("move {} '{}': the game is already over", i + 1, word));
            }
            let m =
                self.parse_move(&s, word).map_err(|e| GameError::new(format!("move {} '{}': {}", i + 1, word, e)))?;
            self.play(&mut s, m);
        }
        Ok(s)
    }

    /// Split a `--moves` argument into move words. Games with compact notations (Connect Four digit strings) override it.
    fn split_moves(&self, text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }
}

/// A heuristic evaluation: a score from the side to move's point of view, higher is better, well inside
/// `(-WIN_SCORE/2, WIN_SCORE/2)`.
pub trait Evaluator<G: Game>: Send + Sync {
    fn evaluate(&self, game: &G, state: &G::State) -> i32;
}

/// Score of a won game at the root; a win in `n` plies scores `WIN_SCORE - n`.
pub const WIN_SCORE: i32 = 1_000_000;
/// Scores at or beyond this magnitude are proven wins or losses.
pub const WIN_THRESHOLD: i32 = WIN_SCORE - 10_000;

/// The search value of a terminal state reached `ply` plies below the root, from its side to move's point of view.
/// Faster wins score higher, slower losses score higher.
pub fn outcome_score(outcome: Outcome, ply: u32) -> i32 {
    match outcome {
        Outcome::Win => WIN_SCORE - ply as i32,
        Outcome::Loss => -WIN_SCORE + ply as i32,
        Outcome::Draw => 0,
        Outcome::Value(v) => v,
    }
}

/// Human text for a score: `win in 7`, `loss in 4`, or the number.
pub fn describe_score(score: i32) -> String {
    if score >= WIN_THRESHOLD {
        format!("win in {}", WIN_SCORE - score)
    } else if score <= -WIN_THRESHOLD {
        format!("loss in {}", WIN_SCORE + score)
    } else {
        score.to_string()
    }
}

/// perft: the number of positions exactly `depth` plies ahead; a game that ends earlier adds nothing.
/// The last ply is bulk-counted with [`Game::count_moves`].
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return game.count_leaf_moves(state);
    }
    if game.is_terminal(state) {
        return 0;
    }
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let mut total = 0;
    for &m in &moves {
        let mut child = *state;
        game.play(&mut child, m);
        total += perft(game, &child, depth - 1);
    }
    total
}

/// Zobrist keys: a fixed pseudo-random table, the same in every run (splitmix64 from a constant seed).
pub mod zobrist {
    /// Number of keys available to games.
    pub const KEYS: usize = 1024;

    const fn splitmix(mut x: u64) -> u64 {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    }

    const fn build() -> [u64; KEYS] {
        let mut t = [0u64; KEYS];
        let mut i = 0;
        while i < KEYS {
            t[i] = splitmix(0x005E_ED0F_F1A7_EA00 ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
            i += 1;
        }
        t
    }

    /// The table.
    pub static TABLE: [u64; KEYS] = build();

    /// Key number `i`.
    #[inline(always)]
    pub fn key(i: usize) -> u64 {
        TABLE[i]
    }

    /// The key for "second player to move".
    pub const SIDE: usize = KEYS - 1;
}
