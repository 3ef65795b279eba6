//! Players: the one interface every surface plays through ([`player`]: [`Player`], [`Context`], [`Choice`]), the
//! built-in players behind it ([`builtin`]), and the one registry of player strings: every algorithm string a user can
//! give (`--algo`, `--player`, `--engine`, the protocols' player option), what each accepts and which kinds of game
//! each can play. (External engines over UCI/UGI are players too: `arena::player::build` adds them.)
//!
//! ```text
//! players::build::<G>("alphabeta(depth=6)")        a Player; players::searcher::<G>(...) the bare Searcher
//!     (a player's own depth=/nodes=/time= are kept to combine with a caller's limits: builtin.rs)
//!     parse the string once (Spec)
//!     find the entry by name or alias                     -> unknown name: the list of known ones
//!     check the game's kind against the entry's           -> alpha-beta on a dice game: a one-line refusal
//!     build: the course's catalogue (search/catalogue.rs), the random player, the engine
//!     refuse parameters nobody read (Spec::finish)
//! ```
//!
//! Another crate (the Python extension) builds its players with [`registered::build_for`] and
//! [`registered::searcher_for`]: the same players, compiled once in this crate instead of again in the caller's.
//!
//! Adding an algorithm: its file (in `search/` for the catalogue, with its line in `catalogue::build`), then one entry
//! in [`PLAYERS`] (or in `catalogue::NAMES` for a catalogue algorithm, which this registry lists).

pub mod builtin;
pub mod listing;
pub mod params;
pub mod player;
pub mod registered;

pub use builtin::build;
pub(crate) use builtin::build_with;
pub(crate) use player::{Choice, PositionText, View};
pub use player::{Context, Player};

use crate::engine::Engine;
use crate::engine::simultaneous::SimNaive;
use crate::files::FileAccess;
use crate::game::{FullGame, GameError, Kind};
use crate::hidden;
use crate::mcts::Mcts;
use crate::mcts::simultaneous::SmMcts;
use crate::search::random::RandomPlayer;
use crate::search::{Searcher, catalogue};
use crate::solve::pns_player::{self, PnsPlayer};
use crate::spec::Spec;

/// How a player is built.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Family {
    /// One of the course's algorithms behind the catalogue driver (`search/catalogue.rs`).
    Catalogue,
    /// The uniformly random player.
    Random,
    /// The engine: plateau's strongest configuration (`engine/`).
    Engine,
    /// Monte Carlo tree search (`mcts/`).
    Mcts,
    /// Proof-number search playing proven wins, another player otherwise (`solve/pns_player.rs`).
    Pns,
    /// Players of games with hidden information that track what they observed (`hidden/`).
    Hidden,
    /// Simultaneous-move MCTS (`mcts/simultaneous.rs`): games with simultaneous moves only.
    SmMcts,
    /// The naive baselines: the deterministic search on the board last seen (hidden information,
    /// `hidden/naive.rs`), or the engine on the alternating view of a simultaneous game (`engine/simultaneous.rs`).
    Naive,
}

/// One entry of the registry.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlayerInfo {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub(crate) family: Family,
    /// Parameters a protocol may add for its options (`tt=` for Hash, `threads=` for Threads).
    pub(crate) protocol_options: &'static [&'static str],
}

impl Family {
    /// Whether this family's players play games of `kind` (the catalogue per algorithm: [`catalogue::searches`]). A
    /// `const fn`: [`searcher_from`] tests it on `G::KIND` at compile time, so that no player is compiled for a game it
    /// cannot play.
    const fn plays(self, kind: Kind) -> bool {
        match self {
            Family::Random | Family::Catalogue => true,
            Family::Mcts => !kind.simultaneous && !kind.hidden,
            Family::Engine => kind.is_classic() || (kind.chance && !kind.simultaneous && !kind.hidden),
            Family::Pns => kind.is_classic(),
            Family::Hidden => kind.hidden && !kind.simultaneous,
            Family::SmMcts => kind.simultaneous && !kind.chance && !kind.hidden,
            Family::Naive => !kind.chance && kind.simultaneous != kind.hidden,
        }
    }
}

impl PlayerInfo {
    /// Whether this player can play games of `kind`.
    pub fn plays(&self, kind: Kind) -> bool {
        match self.family {
            Family::Catalogue => catalogue::searches(self.name, kind),
            family => family.plays(kind),
        }
    }

    /// What a game must be for this player, for the refusal message.
    fn needs(&self) -> &'static str {
        match self.family {
            Family::SmMcts => "a game with simultaneous moves (without chance or hidden information)",
            Family::Naive => "hidden information or simultaneous moves (one of them, without chance)",
            _ => "a deterministic game of perfect information",
        }
    }
}

/// The players besides the catalogue's algorithms.
pub const PLAYERS: &[PlayerInfo] = &[
    PlayerInfo { name: "random", aliases: &[], family: Family::Random, protocol_options: &[] },
    PlayerInfo { name: "engine", aliases: &[], family: Family::Engine, protocol_options: &["tt", "threads"] },
    PlayerInfo { name: "mcts", aliases: &["uct"], family: Family::Mcts, protocol_options: &["threads"] },
    PlayerInfo { name: "pns", aliases: &[], family: Family::Pns, protocol_options: &[] },
    PlayerInfo { name: "determinize", aliases: &["pimc"], family: Family::Hidden, protocol_options: &[] },
    PlayerInfo { name: "ismcts", aliases: &[], family: Family::Hidden, protocol_options: &[] },
    PlayerInfo { name: "naive", aliases: &[], family: Family::Naive, protocol_options: &[] },
    PlayerInfo { name: "smmcts", aliases: &["duct"], family: Family::SmMcts, protocol_options: &[] },
];

/// Names that stand for a registered player with some parameters set: (name, player, parameters). `ids` is the
/// course's iterative deepening: alpha-beta searched at depth 1, 2, ..., `depth`.
pub(crate) const PRESETS: &[(&str, &str, &str)] = &[("ids", "alphabeta", "id=true")];

/// Every player: the catalogue's algorithms (`catalogue::NAMES`) then [`PLAYERS`].
pub fn all() -> Vec<PlayerInfo> {
    catalogue::NAMES
        .iter()
        .map(|&(name, aliases)| PlayerInfo { name, aliases, family: Family::Catalogue, protocol_options: &[] })
        .chain(PLAYERS.iter().cloned())
        .collect()
}

/// The entry named `name` (or one of its aliases, or a preset's player).
pub fn find(name: &str) -> Option<PlayerInfo> {
    let name = PRESETS.iter().find(|(n, _, _)| *n == name).map_or(name, |(_, of, _)| of);
    all().into_iter().find(|p| p.name == name || p.aliases.contains(&name))
}

/// The names of the players that can play games of `kind`.
pub fn names_for(kind: Kind) -> Vec<&'static str> {
    all().into_iter().filter(|p| p.plays(kind)).map(|p| p.name).collect()
}

/// The searcher of a player string, such as `alphabeta(depth=6)` or `engine(time=1s)`: the algorithm alone, for tools
/// that inspect a search (trees, comparisons, books). To play, use [`build`].
pub fn searcher<G: FullGame>(text: &str) -> Result<Box<dyn Searcher<G>>, GameError> {
    searcher_with::<G>(text, &FileAccess::Any)
}

/// [`searcher`] for a surface whose strings may name only the files `files` allows (the web server's requests).
pub(crate) fn searcher_with<G: FullGame>(text: &str, files: &FileAccess) -> Result<Box<dyn Searcher<G>>, GameError> {
    searcher_from::<G>(Spec::parse_with(text, files)?, files).map(|(s, _)| s)
}

/// The parameters the parser of a player string asks for on game `G` (given or not), sorted: what
/// `plateau players` must list (`tests/suite/players.rs`).
pub fn asked_params<G: FullGame>(text: &str) -> Result<Vec<String>, GameError> {
    searcher_from::<G>(Spec::parse(text)?, &FileAccess::Any).map(|(_, spec)| spec.asked())
}

/// Build the searcher of `spec`, and return the spec as the parser read it.
fn searcher_from<G: FullGame>(mut spec: Spec, files: &FileAccess) -> Result<(Box<dyn Searcher<G>>, Spec), GameError> {
    if let Some((_, of, with)) = PRESETS.iter().find(|(n, _, _)| *n == spec.name) {
        spec = spec.with_defaults(with)?;
        spec.name = of.to_string();
    }
    let Some(info) = find(&spec.name) else {
        let names: Vec<&str> = all().iter().map(|p| p.name).collect();
        return Err(GameError::new(format!("unknown algorithm '{}' (known: {})", spec.name, names.join(", "))));
    };
    if info.family == Family::Hidden && !info.plays(G::KIND) {
        return Err(GameError::new(format!(
            "{} plays games with hidden information only, and this game has {} (players for this game: {})",
            info.name,
            G::KIND.describe(),
            names_for(G::KIND).join(", ")
        )));
    }
    let cannot = || {
        GameError::new(format!(
            "{} cannot play a game with {}: it needs {} (players for this game: {})",
            info.name,
            G::KIND.describe(),
            info.needs(),
            names_for(G::KIND).join(", ")
        ))
    };
    if !info.plays(G::KIND) {
        return Err(cannot());
    }
    // `mcts` plays each game with the game's settings for it unless told `defaults=none` (`Knowledge::MCTS_DEFAULTS`).
    let spec = if info.family == Family::Mcts { crate::mcts::params::with_game_defaults::<G>(spec)? } else { spec };
    // Each family's constructor sits behind `if const { Family::F.plays(G::KIND) }`: the test above already refused
    // every other game at run time, and at compile time the players of a family are then built (compiled) only for the
    // games of the kinds it plays (the hidden-information players for two games, not nineteen).
    let searcher: Box<dyn Searcher<G>> = match info.family {
        Family::Catalogue => match catalogue::build::<G, _>(&spec, catalogue::Boxed)? {
            Some(s) => s,
            None => return Err(GameError::new(format!("{}: not in the catalogue", info.name))),
        },
        Family::Random => Box::new(RandomPlayer::from_spec(&spec)?),
        Family::Engine => {
            if const { !Family::Engine.plays(G::KIND) } {
                return Err(cannot());
            }
            // Chance games have their own engine: iterative deepening over Star2 with a table (engine/chance.rs).
            if const { G::KIND.chance } {
                crate::engine::chance::build::<G>(&spec)?
            } else {
                Box::new(Engine::<G>::from_spec(&spec)?)
            }
        }
        Family::Mcts => {
            if const { !Family::Mcts.plays(G::KIND) } {
                return Err(cannot());
            }
            Box::new(Mcts::<G>::from_spec(&spec)?)
        }
        Family::Hidden => {
            if const { !Family::Hidden.plays(G::KIND) } {
                return Err(cannot());
            }
            match info.name {
                "determinize" => Box::new(hidden::determinize::Determinize::<G>::from_spec(&spec)?),
                _ => Box::new(hidden::ismcts::Ismcts::<G>::from_spec(&spec)?),
            }
        }
        Family::Naive => {
            if const { !Family::Naive.plays(G::KIND) } {
                return Err(cannot());
            }
            if const { G::KIND.simultaneous } {
                Box::new(SimNaive::<G>::from_spec(&spec)?)
            } else {
                Box::new(hidden::naive::Naive::<G>::from_spec(&spec)?)
            }
        }
        Family::SmMcts => {
            if const { !Family::SmMcts.plays(G::KIND) } {
                return Err(cannot());
            }
            Box::new(SmMcts::<G>::from_spec(&spec)?)
        }
        Family::Pns => {
            if const { !Family::Pns.plays(G::KIND) } {
                return Err(cannot());
            }
            let budget = spec.count("budget")?.unwrap_or(pns_player::DEFAULT_BUDGET).max(1);
            let tt = spec.mib("tt", pns_player::DEFAULT_TT_MIB)?.max(1);
            let fallback =
                searcher_with::<G>(&spec.text("fallback").unwrap_or_else(|| default_for::<G>().into()), files)
                    .map_err(|e| GameError::new(format!("pns: fallback: {e}")))?;
            Box::new(PnsPlayer::new(budget, tt, fallback))
        }
    };
    spec.finish()?;
    Ok((searcher, spec))
}

/// Whether the player string names a player whose moves are drawn at random (the random player, MCTS, the players of
/// hidden information and of simultaneous moves, the engine picking at random in a book, `pns` with such a fallback):
/// two players that draw nothing at random play the same game every time from the same position. `None` for a string
/// the registry does not know (an external engine, a bad string).
pub(crate) fn draws_at_random(text: &str) -> Option<bool> {
    let spec = Spec::parse(text).ok()?;
    let info = find(&spec.name)?;
    Some(match info.family {
        Family::Catalogue => false,
        Family::Random | Family::Mcts | Family::Hidden | Family::SmMcts | Family::Naive => true,
        Family::Engine => {
            let off = |v: &str| matches!(v.to_ascii_lowercase().as_str(), "off" | "none" | "false" | "0" | "no");
            spec.text("book").is_some_and(|b| !off(&b)) && !spec.text("book_random").is_some_and(|r| off(&r))
        }
        Family::Pns => match spec.text("fallback") {
            Some(f) => draws_at_random(&f)?,
            None => false,
        },
    })
}

/// The strongest general player of each kind of game, first that plays wins: the engine (classic and chance games),
/// ISMCTS (hidden information), simultaneous-move MCTS, and the random player, which plays everything.
pub(crate) const DEFAULTS: [&str; 4] = ["engine", "ismcts", "smmcts", "random"];

/// The default player for game `G` (of the protocols, of `plateau play`, of `pns`'s fallback): the first of
/// [`DEFAULTS`] that plays the game's kind.
pub fn default_for<G: FullGame>() -> &'static str {
    DEFAULTS.into_iter().find(|n| find(n).is_some_and(|p| p.plays(G::KIND))).unwrap_or("random")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Breakthrough, TicTacToe};

    #[test]
    fn every_name_builds_and_unknown_names_list_the_known_ones() {
        for p in all() {
            // Each player builds on a game of a kind it plays.
            let builds = |name: &str| match p.family {
                Family::Hidden | Family::Naive => build::<crate::games::PhantomTicTacToe>(name).is_ok(),
                Family::SmMcts => build::<crate::games::MatchingPennies>(name).is_ok(),
                _ => build::<TicTacToe>(name).is_ok(),
            };
            assert!(builds(p.name), "{}", p.name);
            for a in p.aliases {
                assert!(builds(a), "{a}");
            }
        }
        let e = build::<TicTacToe>("alphabot").err().unwrap().to_string();
        assert!(e.contains("unknown algorithm 'alphabot'") && e.contains("alphabeta") && e.contains("engine"), "{e}");
        let e = build::<TicTacToe>("alphabeta(dpeth=3)").err().unwrap().to_string();
        assert!(e.contains("dpeth"), "{e}");
    }

    #[test]
    fn the_default_player_is_the_strongest_that_plays_the_kind() {
        assert_eq!(default_for::<TicTacToe>(), "engine");
        assert_eq!(default_for::<crate::games::Pig>(), "engine");
        assert_eq!(default_for::<crate::games::PhantomTicTacToe>(), "ismcts");
        assert_eq!(default_for::<crate::games::MatchingPennies>(), "smmcts");
        assert!(build::<crate::games::PhantomTicTacToe>(default_for::<crate::games::PhantomTicTacToe>()).is_ok());
        assert!(build::<crate::games::MatchingPennies>(default_for::<crate::games::MatchingPennies>()).is_ok());
    }

    #[test]
    fn the_engine_checks_its_evaluation_against_the_game() {
        assert!(build::<Breakthrough>("engine(eval=nt)").is_ok());
        let e = build::<TicTacToe>("engine(eval=nt)").err().unwrap().to_string();
        assert!(e.contains("eval=nt") && e.contains("simple"), "{e}");
        assert!(build::<Breakthrough>("engine(eval=magic)").is_err());
    }
}
