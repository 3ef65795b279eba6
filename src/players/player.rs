//! The one interface every surface plays through: [`Player`].
//!
//! ```text
//! build (players::build, or arena::player::build for external engines too)
//! setup(game)            once, outside any clock: tables, networks, books, an external engine's start
//! new_game(game)         before each game
//! observe_start/observe  hidden information only: what the referee lets this player see
//! choose(game, context)  one move: the view (a position, a half of a joint move, or the legal moves seen), the game
//!                        so far as text, the caller's limits (added to the player's own: the tighter stops), a stop
//!                        flag and a progress sink
//! ```
//!
//! A match, a tournament, the protocols, the web page and Python all call these and nothing else. Built-in players are
//! a [`Searcher`](crate::search::Searcher) behind [`Builtin`](super::builtin::Builtin); external engines are
//! `arena::external::External`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::game::{FullGame, Side};
use crate::search::{Limits, Reporter, RootMoveStats, SearchResult, Stats};

/// The position as text, for players that receive `position ... moves ...` (external engines).
#[derive(Clone, Copy, Debug, Default)]
pub struct PositionText<'a> {
    /// `None` for the start position.
    pub fen: Option<&'a str>,
    pub moves: &'a [String],
}

/// What the player sees of the game when it is asked.
#[derive(Clone, Copy, Debug)]
pub enum View<'a, G: FullGame> {
    /// The whole position (not terminal): the player moves for the side to move.
    Position(&'a G::State),
    /// A simultaneous node: the player chooses its side's half of the joint move without seeing the other's.
    Half(&'a G::State),
    /// Hidden information: the player knows the game from its observations alone and chooses among `legal` (the moves
    /// legal on the board it sees; `text`, the same moves written out).
    Observed { legal: &'a [G::Move], text: &'a [String] },
}

/// Everything a player is given to choose one move.
pub struct Context<'a, G: FullGame> {
    pub view: View<'a, G>,
    /// The side the player moves for.
    pub side: Side,
    /// The public game so far (start position and moves; joint moves as `FIRST/SECOND`).
    pub history: PositionText<'a>,
    /// The caller's limits for this move (a match's time control, a protocol's `go`, the web page's default): they
    /// add to the player's own `depth=`/`nodes=`/`time=` and the tighter stops the search. `None`: its own alone.
    pub limits: Option<Limits>,
    /// How long the caller waits at most (an external engine that has not answered by then loses the move).
    pub hard: Duration,
    /// Raised by the caller to stop the search early: the best move found so far is played.
    pub stop: Option<Arc<AtomicBool>>,
    /// Receives every completed iteration of the search, as it happens.
    pub progress: Option<Reporter<G::Move>>,
}

impl<'a, G: FullGame> Context<'a, G> {
    /// A context for the whole position `state`: the side to move, no history, no limit, no stop, no progress.
    pub fn position(game: &G, state: &'a G::State) -> Self {
        Context { view: View::Position(state), side: game.side_to_move(state), ..Context::bare() }
    }
}

impl<'a, G: FullGame> Context<'a, G> {
    /// `side`'s half of the joint move at the simultaneous node `state`.
    pub fn half(state: &'a G::State, side: Side) -> Self {
        Context { view: View::Half(state), side, ..Context::bare() }
    }

    /// Hidden information: `side` chooses among `legal` (written `text`) from its observations.
    pub(crate) fn observed(legal: &'a [G::Move], text: &'a [String], side: Side) -> Self {
        Context { view: View::Observed { legal, text }, side, ..Context::bare() }
    }

    /// Whatever `side` is asked in `state`: its half at a simultaneous node, the position otherwise.
    pub fn at(game: &G, state: &'a G::State, side: Side) -> Self {
        if G::KIND.simultaneous && game.turn(state) == crate::game::Turn::Simultaneous {
            Context::half(state, side)
        } else {
            Context { side, ..Context::position(game, state) }
        }
    }

    fn bare() -> Self {
        Context {
            view: View::Observed { legal: &[], text: &[] },
            side: Side::First,
            history: PositionText::default(),
            limits: None,
            hard: Duration::from_secs(3600),
            stop: None,
            progress: None,
        }
    }
}

/// The move chosen, with what the search knows of it.
#[derive(Clone, Debug)]
pub struct Choice<M> {
    pub mv: M,
    /// From the mover's point of view, on the score scale; `None` when the player does not say (external engines).
    pub value: Option<i32>,
    /// Depth of the last completed iteration (0 when not known).
    pub depth: u32,
    pub pv: Vec<M>,
    pub stats: Stats,
    pub seconds: f64,
}

impl<M> Choice<M> {
    /// A search's result as a choice; an error when it has no move.
    pub(crate) fn from_result(r: SearchResult<M>) -> Result<Choice<M>, String> {
        let mv = r.best_move.ok_or("the player returned no move")?;
        Ok(Choice { mv, value: Some(r.value), depth: r.depth, pv: r.pv, stats: r.stats, seconds: r.seconds })
    }

    /// A move and nothing more.
    pub fn bare(mv: M) -> Choice<M> {
        Choice { mv, value: None, depth: 0, pv: Vec::new(), stats: Stats::default(), seconds: 0.0 }
    }
}

/// Anyone who plays: a built-in algorithm, the engine, MCTS, a hidden-information player, an external engine.
pub trait Player<G: FullGame>: Send {
    /// The player string that rebuilds it.
    fn name(&self) -> String;
    /// What this player plays under when a caller adds `limits` (`None`: its own alone), in words: `depth 2,
    /// movetime 100ms (whichever stops first)`.
    fn plays_under(&self, limits: Option<Limits>) -> String {
        limits.map_or_else(|| "its own limits".into(), |l| l.describe())
    }
    /// Why this player cannot play under `limits` (checked before the first game), or `Ok`.
    fn check_limits(&self, limits: Option<Limits>) -> Result<(), String> {
        let _ = limits;
        Ok(())
    }
    /// Set up for games of `game`, outside any clock: what a player builds once (endgame tables, an evaluation, a
    /// book, an external engine's start). Callers call it before the first move and report its time; a player asked
    /// to move without it does it first.
    fn setup(&mut self, game: &G) -> Result<(), String> {
        let _ = game;
        Ok(())
    }
    /// Start a new game of `game` (forget the previous one: tables, history; an external engine is restarted if it
    /// died).
    fn new_game(&mut self, game: &G) -> Result<(), String>;
    /// Re-seed the player's random choices from `seed` (a match calls it before each game, with a seed derived from
    /// its `--seed` and the game's number: [`crate::game::seed`]). Players that draw nothing at random, and external
    /// engines (which cannot be told), ignore it.
    fn reseed(&mut self, seed: u64) {
        let _ = seed;
    }
    /// Hidden information: the game starts from `start`, a position both players know, and this player plays `side`;
    /// from then on it learns the game only from [`Player::observe`].
    fn observe_start(&mut self, game: &G, start: &G::State, side: Side) -> Result<(), String> {
        let _ = (game, start, side);
        Ok(())
    }
    /// Hidden information: the player's new observation ([`Capabilities::observation`], sent each time it changes).
    fn observe(&mut self, game: &G, observation: &str) -> Result<(), String> {
        let _ = (game, observation);
        Ok(())
    }
    /// Choose one move (see [`Context`]).
    fn choose(&mut self, game: &G, cx: Context<'_, G>) -> Result<Choice<G::Move>, String>;
    /// The root moves' statistics of the last choice, best first, for players that keep them (MCTS); empty otherwise.
    fn root_moves(&self) -> Vec<RootMoveStats<G::Move>> {
        Vec::new()
    }
}
