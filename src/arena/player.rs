//! Match players: the interface a match plays through ([`ArenaPlayer`]), built-in searchers behind it ([`Builtin`]:
//! any player string, its own limits combined with the match's time control) and the builder of both kinds (external
//! engines over UCI or UGI are in `external.rs`).

use std::time::Duration;

use super::external::External;
use crate::game::{Game, GameError};
use crate::protocol::Dialect;
use crate::search::{Limits, Searcher, TimeControl};
use crate::spec::Spec;

/// The position as text, for engines that receive `position ... moves ...`.
pub struct PositionText<'a> {
    /// `None` for the start position.
    pub fen: Option<&'a str>,
    pub moves: &'a [String],
}

/// A player in a match.
pub trait ArenaPlayer<G: Game>: Send {
    fn name(&self) -> String;
    /// Prepare for a new game of `game` (an external engine is (re)started here).
    fn new_game(&mut self, game: &G) -> Result<(), String>;
    /// Choose a move in `state` (not terminal) within `limit`: a fixed time per move, or both players' clocks as they
    /// stand (`None`: the player's own limits). `hard` is how long the arena waits at most.
    fn think(
        &mut self,
        game: &G,
        state: &G::State,
        pos: &PositionText,
        limit: Option<TimeControl>,
        hard: Duration,
    ) -> Result<G::Move, String>;
    /// Choose `player`'s half of the joint move at a simultaneous node of `state`, without seeing the other's.
    fn think_as(&mut self, game: &G, state: &G::State, player: crate::game::Side) -> Result<G::Move, String> {
        let _ = (game, state, player);
        Err("this player cannot choose simultaneous moves".into())
    }
    /// [`ArenaPlayer::think_as`] within the match's time control (`limit` as in [`ArenaPlayer::think`], with the
    /// clocks as they stand; `hard`: how long the arena waits at most). `pos` is the public game so far (the joint
    /// moves). Players without time management keep the default, which ignores the time control.
    fn think_as_timed(
        &mut self,
        game: &G,
        state: &G::State,
        player: crate::game::Side,
        pos: &PositionText,
        limit: Option<TimeControl>,
        hard: Duration,
    ) -> Result<G::Move, String> {
        let _ = (pos, limit, hard);
        self.think_as(game, state, player)
    }
    /// Hidden information (`referee.rs`): the game starts from `start`, a position both players know, and this player
    /// plays `player`.
    fn observe_start(&mut self, game: &G, start: &G::State, player: crate::game::Side) -> Result<(), String> {
        let _ = (game, start, player);
        Ok(())
    }
    /// Hidden information: the player's new observation (sent each time it changes).
    fn observe(&mut self, game: &G, observation: &str) -> Result<(), String> {
        let _ = (game, observation);
        Ok(())
    }
    /// Hidden information: choose a move among `legal` (legal on the board the player sees; `legal_text` the same
    /// moves written out) from the observations alone, within `limit` as [`ArenaPlayer::think`].
    fn think_observed(
        &mut self,
        game: &G,
        legal: &[G::Move],
        legal_text: &[String],
        limit: Option<TimeControl>,
        hard: Duration,
    ) -> Result<G::Move, String> {
        let _ = (game, legal, legal_text, limit, hard);
        Err("this player cannot play from observations".into())
    }
    /// What this player plays under in a match with the time control `limit`, in words (`depth 2, movetime 100ms`).
    fn plays_under(&self, limit: &Option<TimeControl>) -> String {
        match limit {
            Some(tc) => tc.to_string(),
            None => "its own limits".into(),
        }
    }
    /// Why this player cannot play a match under `limit` (checked before the first game), or `Ok`.
    fn check_limit(&self, limit: &Option<TimeControl>) -> Result<(), String> {
        let _ = limit;
        Ok(())
    }
}

/// Build a player from its string: `uci(...)`, `ugi(...)`, or any built-in player.
pub fn build<G: Game>(text: &str) -> Result<Box<dyn ArenaPlayer<G>>, GameError> {
    build_with::<G>(text, &crate::files::FileAccess::Any)
}

/// [`build`] for a surface whose strings may name only the files `files` allows (the web server's requests).
pub fn build_with<G: Game>(text: &str, files: &crate::files::FileAccess) -> Result<Box<dyn ArenaPlayer<G>>, GameError> {
    let spec = Spec::parse_with(text, files)?;
    match spec.name.as_str() {
        "ugi" if crate::protocol::observed::carries(G::KIND) => Ok(Box::new(External::from_spec(Dialect::Ugi, &spec)?)),
        "uci" | "ugi" => {
            if !crate::protocol::chance::carries(G::KIND) {
                return Err(GameError::new(format!(
                    "{}: external engines cannot play a game with {} (UCI and UGI carry sequential games of perfect \
information, chance included, and UGI also games with simultaneous moves or hidden information (docs/protocols.md); \
players for this game: {})",
                    spec.name,
                    G::KIND.describe(),
                    crate::players::names_for(G::KIND).join(", ")
                )));
            }
            let dialect = if spec.name == "uci" { Dialect::Uci } else { Dialect::Ugi };
            Ok(Box::new(External::from_spec(dialect, &spec)?))
        }
        _ => {
            let searcher = crate::players::build_with::<G>(text, files)?;
            // Its own limits, kept to combine with a match's time control (`Limits::under`).
            let own = Limits::from_spec(&spec)?;
            Ok(Box::new(Builtin { name: searcher.name(), searcher, own }))
        }
    }
}

/// A built-in searcher.
pub struct Builtin<G: Game> {
    searcher: Box<dyn Searcher<G>>,
    /// The name before any time control was imposed (`set_limits` changes what `Searcher::name` says).
    name: String,
    /// The limits of its own string (`depth=`, `nodes=`, `time=`): a match's time control adds to them, it does not
    /// replace them.
    own: Limits,
}

impl<G: Game> Builtin<G> {
    /// Under the match's time control `limit` (if any), the limits of a move of `side`.
    fn limits(&self, limit: Option<TimeControl>, side: crate::game::Side) -> Option<Limits> {
        limit.map(|tc| self.own.under(tc, side))
    }
}

impl<G: Game> ArenaPlayer<G> for Builtin<G> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(&mut self, game: &G) -> Result<(), String> {
        self.searcher.prepare(game);
        self.searcher.new_game();
        Ok(())
    }
    fn plays_under(&self, limit: &Option<TimeControl>) -> String {
        match limit {
            None => self.own.describe(),
            Some(tc) if self.own == Limits::default() => tc.to_string(),
            Some(tc) => {
                format!("{} (whichever stops first)", self.own.under(*tc, crate::game::Side::First).describe())
            }
        }
    }
    fn think(
        &mut self,
        game: &G,
        state: &G::State,
        _pos: &PositionText,
        limit: Option<TimeControl>,
        _hard: Duration,
    ) -> Result<G::Move, String> {
        // The match's time control adds to the player's own limits (the searcher plans for the side to move).
        if let Some(l) = self.limits(limit, game.side_to_move(state)) {
            self.searcher.set_limits(l);
        }
        let r = self.searcher.search(game, state);
        r.best_move.ok_or_else(|| "the player returned no move".to_string())
    }
    fn think_as(&mut self, game: &G, state: &G::State, player: crate::game::Side) -> Result<G::Move, String> {
        let r = self.searcher.search_as(game, state, player);
        r.best_move.ok_or_else(|| "the player returned no move".to_string())
    }
    fn think_as_timed(
        &mut self,
        game: &G,
        state: &G::State,
        player: crate::game::Side,
        _pos: &PositionText,
        limit: Option<TimeControl>,
        _hard: Duration,
    ) -> Result<G::Move, String> {
        if let Some(l) = self.limits(limit, player) {
            self.searcher.set_limits(l);
        }
        self.think_as(game, state, player)
    }
    fn observe_start(&mut self, game: &G, start: &G::State, player: crate::game::Side) -> Result<(), String> {
        self.searcher.observe_start(game, start, player);
        Ok(())
    }
    fn observe(&mut self, game: &G, observation: &str) -> Result<(), String> {
        self.searcher.observe(game, observation);
        Ok(())
    }
    fn think_observed(
        &mut self,
        game: &G,
        legal: &[G::Move],
        _legal_text: &[String],
        limit: Option<TimeControl>,
        _hard: Duration,
    ) -> Result<G::Move, String> {
        // The side is not known here (the player learns the game from observations): the first player's clock is
        // used only to compare its own time per move with a clock's plan; the searcher plans for its own side.
        if let Some(l) = self.limits(limit, crate::game::Side::First) {
            self.searcher.set_limits(l);
        }
        let r = self.searcher.choose_observed(game, legal);
        r.best_move.ok_or_else(|| "the player returned no move".to_string())
    }
}
