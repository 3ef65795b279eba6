//! Who plays a side of a game on the page: a human clicking, or a player (built-in or external) built from its player
//! string, with the limits the page adds to its own.

use std::sync::{Arc, Mutex};

use super::{ApiError, Config};
use crate::game::FullGame;
use crate::players::Player;
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
