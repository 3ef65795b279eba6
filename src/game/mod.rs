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
//! rules ([`Evaluator`]); a game names its evaluations with [`Knowledge::Eval`] and [`Knowledge::EVALUATIONS`].
//!
//! A game is one lean core trait and three extension traits, each with defaults a simple game keeps:
//!
//! ```text
//! trait          what                                                         a deterministic alternating game writes
//! Game           the rules: start, moves, play, outcome, keys, notation       the 15 required items
//! Capabilities   chance, simultaneous moves, hidden information (turn)        impl Capabilities for G {}
//! Knowledge      its evaluations, threats, forced replies, null move, ...     impl Knowledge for G { type Eval = E; }
//! Interop        names, board picture, OpenSpiel actions and tensors          impl Interop for G {}
//! FullGame       all four (blanket impl): what the registry and tools need    nothing
//! ```
//!
//! Callers ask for what they use: perft and the rules' helpers need [`Game`], random playouts and move lists with
//! joint moves [`Capabilities`], the searches (which evaluate) [`Knowledge`], the Python bindings [`Interop`]; the
//! registry's tools take a [`FullGame`]. Forwarding wrappers ([`alternated::Alternated`]) forward each trait apart.
//! `docs/architecture.md` ("Adding a game") shows the smallest complete game; `games/tic_tac_toe.rs` is one.

pub mod alternated;
pub mod capabilities;
pub mod interop;
pub mod knowledge;
pub(crate) mod named_eval;
pub mod perft;
pub mod player;
pub mod playout;
pub mod revisit;
pub mod score;
pub mod seed;
pub mod turn;
pub mod view;
pub mod zobrist;

use std::fmt::Debug;
use std::hash::Hash;

use arrayvec::ArrayVec;

pub use capabilities::Capabilities;
pub use interop::Interop;
pub(crate) use knowledge::MOVE_KEYS;
pub use knowledge::{Forced, Knowledge, MoveClass, Tactics};
pub(crate) use named_eval::NamedEval;
pub use named_eval::{GivenEval, SearchEval};
pub use perft::perft;
pub(crate) use player::winner_words;
pub use player::{GameError, Outcome, Side, err, one_line};
pub(crate) use score::describe_score;
pub use score::{Evaluator, Term, WIN_SCORE, WIN_THRESHOLD, outcome_score};
pub use turn::{ChanceList, Kind, Turn};
pub(crate) use turn::{line_words, sample_outcome};
pub(crate) use view::{BoardView, Cell, Layout, Tray};

/// Largest number of legal moves any game may produce in one position.
pub const MAX_MOVES: usize = 256;

/// Fixed-capacity move list: lives on the stack, no allocation per node.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// The rules of one game, with its parameters: what every game writes (the extension traits add the rest, see the
/// module documentation).
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// A position. Small and `Copy`: copy-make is the way to go back.
    type State: Copy + Debug + PartialEq + Eq + Hash + Send + Sync + 'static;

    /// A move, valid in the state it was generated from.
    type Move: Copy + Debug + PartialEq + Eq + Hash + Send + Sync + 'static;

    /// The canonical game string (`breakthrough(rows=6,columns=5)`), with non-default parameters only.
    fn spec(&self) -> String;

    /// The start position.
    fn start(&self) -> Self::State;

    /// Who moves in this state; in a state where no single player moves (chance, simultaneous, terminal), the player
    /// whose point of view [`Game::outcome`] takes.
    fn side_to_move(&self, state: &Self::State) -> Side;

    /// Legal moves of a non-terminal state, appended to `moves` (cleared first). A terminal state has none. At a chance
    /// node, the outcomes (as [`Capabilities::chance_outcomes`] without the probabilities); at a simultaneous node, none (see
    /// [`Capabilities::player_moves`]).
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

    /// Split a `--moves` argument into move words. Games with compact notations (Connect Four digit strings) override it.
    fn split_moves(&self, text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }
}

/// A game with all its traits: the rules, capabilities, knowledge and interop. The registry's games are, and so is
/// every `G` that implements the four (a blanket impl): a bound `G: FullGame` is for tools that use all of them.
pub trait FullGame: Game + Capabilities + Knowledge + Interop {}

impl<G: Game + Capabilities + Knowledge + Interop> FullGame for G {}

/// `game`'s evaluation `name` for a search about to start. The name was checked when the player string was read
/// ([`Knowledge::check_evaluation`]); if the evaluation cannot be built now (a network file deleted since), the search
/// goes on with the game's `simple` evaluation and says so on stderr, once per player and board.
pub(crate) fn evaluation_or_simple<G: Knowledge>(game: &G, name: &str) -> G::Eval {
    game.evaluation(name).unwrap_or_else(|e| {
        eprintln!("warning: {e}; searching with the simple evaluation");
        G::Eval::default()
    })
}

/// `name` is one of `names` (a game's [`Knowledge::EVALUATIONS`]), or the error every player string gives.
pub(crate) fn known_evaluation(names: &[&str], name: &str) -> Result<(), GameError> {
    if names.contains(&name) {
        Ok(())
    } else {
        err(format!("eval={name}: this game's evaluations are {}", names.join(", ")))
    }
}

/// The state of `game` at `position` (its position text; none, `start` or `startpos`: the start) after `moves`
/// (space-separated, or the game's compact notation): what `--position` and `--moves` name on every surface.
pub(crate) fn position_at<G: Capabilities>(
    game: &G,
    position: Option<&str>,
    moves: Option<&str>,
) -> Result<G::State, GameError> {
    let mut state = match position.map(str::trim) {
        None | Some("start") | Some("startpos") => game.start(),
        Some("") => return err("empty position text (write `start` for the start position)"),
        Some(text) => game.parse_position(text)?,
    };
    if let Some(moves) = moves {
        let words = game.split_moves(moves);
        state = game.play_moves(&state, &words.join(" "))?;
    }
    Ok(state)
}
