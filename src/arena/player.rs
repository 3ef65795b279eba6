//! The builder of every player a match, a tournament or the web page can seat: built-in players
//! ([`crate::players::build`]) and external engines over UCI or UGI (`uci(...)`, `ugi(...)`: [`External`]), all behind
//! the one interface [`Player`].

use super::external::External;
use crate::files::FileAccess;
use crate::game::{FullGame, GameError};
use crate::players::Player;
use crate::protocol::Dialect;
use crate::spec::Spec;

pub(crate) use crate::players::PositionText;

/// Build a player from its string: `uci(...)`, `ugi(...)`, or any built-in player.
pub fn build<G: FullGame>(text: &str) -> Result<Box<dyn Player<G>>, GameError> {
    build_with::<G>(text, &FileAccess::Any)
}

/// [`build`] for a surface whose strings may name only the files `files` allows (the web server's requests).
pub(crate) fn build_with<G: FullGame>(text: &str, files: &FileAccess) -> Result<Box<dyn Player<G>>, GameError> {
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
        _ => crate::players::build_with::<G>(text, files),
    }
}
