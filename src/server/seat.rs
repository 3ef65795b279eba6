//! Who plays a side of a game on the page: a human clicking, or a player (built-in or external) built from its player
//! string, with the limits the page adds to its own.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use super::{ApiError, Config, lock};
use crate::game::{FullGame, Side};
use crate::players::{Context, Player, PositionText};
use crate::search::{Limits, TimeControl};
use crate::spec::Spec;

/// Who plays a side: a human on the page, or a player (built-in or external) with the limits the page adds to its
/// own (a second per move for a player given no limit of its own).
pub(crate) enum Seat<G: FullGame> {
    Human,
    Player(Arc<Mutex<Box<dyn Player<G>>>>, Option<Limits>),
}

impl<G: FullGame> Seat<G> {
    /// The player of `text`; `seed`: its random choices' seed (before its game starts, as in a match).
    pub fn build(game: &G, text: &str, config: &Config, seed: Option<u64>) -> Result<Seat<G>, ApiError> {
        let spec = Spec::parse_with(text, &config.files)?;
        match spec.name.as_str() {
            "human" => {
                spec.finish()?;
                Ok(Seat::Human)
            }
            "uci" | "ugi" if !config.allow_external => Err(ApiError::forbidden(format!(
                "'{}' starts another program: refused (start the server with --allow-external to allow it)",
                spec.name
            ))),
            _ => {
                let mut p = crate::arena::player::build_with::<G>(text, &config.files)?;
                // A player given no limit of its own thinks a second per move.
                let own = ["depth", "time", "movetime", "nodes", "playouts", "budget"].iter().any(|k| spec.has(k));
                let limits = (!own).then(|| Limits::time(TimeControl::MoveTime(std::time::Duration::from_secs(1))));
                // Tables, evaluations and an external engine's start now, with the game, not in the first move's time.
                p.setup(game).map_err(ApiError::bad)?;
                if let Some(seed) = seed {
                    p.reseed(seed);
                }
                p.new_game(game).map_err(ApiError::bad)?;
                Ok(Seat::Player(Arc::new(Mutex::new(p)), limits))
            }
        }
    }
}

impl<G: FullGame> Clone for Seat<G> {
    fn clone(&self) -> Self {
        match self {
            Seat::Human => Seat::Human,
            Seat::Player(p, limits) => Seat::Player(p.clone(), *limits),
        }
    }
}

impl<G: FullGame> Seat<G> {
    /// This seat's half for `side` at the simultaneous node `s` (`history`: the game so far), its search stopped by
    /// `stop` (the server's ceiling, the client gone: its best half so far); a human's half is not the seat's to choose.
    pub fn half(
        &self,
        game: &G,
        s: &G::State,
        side: Side,
        history: PositionText,
        stop: &Arc<AtomicBool>,
    ) -> Result<String, ApiError> {
        let m = match self {
            Seat::Human => return Err(ApiError::conflict("a human chooses this half")),
            Seat::Player(p, limits) => {
                let stop = Some(stop.clone());
                let cx = Context { history, limits: *limits, hard: super::MAX_THINK, stop, ..Context::half(s, side) };
                lock(p).choose(game, cx).ok().map(|c| c.mv)
            }
        };
        m.map(|m| game.format_move(s, m)).ok_or_else(|| ApiError::conflict("the player found no move"))
    }
}
