//! The games, and the registry that turns a game string into a game.
//!
//! Every tool is generic over [`Game`](crate::game::Game); the command line picks the concrete type at run time with
//! [`with_game!`], which expands the generic code once per game.
//!
//! The registry is the one [`registry!`] line per game at the end of this file: it makes the [`AnyGame`] variant,
//! the `with_game!` arm and the [`GAMES`] entry (name, aliases, description, parameters, capabilities, constructor).
//! Adding a game: a new folder (or file) under `games/` with the rules, an `info()` and a `from_spec(&Spec)`, then one
//! line in `registry!`.

pub mod backgammon;
pub(crate) mod board_text;
pub mod breakthrough;
pub mod chance_tree;
pub mod checkers;
pub mod chess;
pub mod coin_game;
pub mod connect_four;
pub(crate) mod given_tree;
pub mod marbles;
pub mod matching_pennies;
pub mod othello;
pub mod oware;
pub mod phantom_tic_tac_toe;
pub mod pig;
pub mod qubic;
pub mod random_tree;
pub mod tic_tac_toe;
pub(crate) mod tree_path;

use crate::game::Capabilities;
use crate::game::{FullGame, GameError, Kind};
use crate::spec::Spec;

pub use backgammon::Backgammon;
pub use breakthrough::Breakthrough;
pub use breakthrough::imperfect::DarkBreakthrough;
pub use breakthrough::simultaneous::SimBreakthrough;
pub use chance_tree::ChanceTree;
pub use checkers::Checkers;
pub use chess::Chess;
pub use coin_game::CoinGame;
pub use connect_four::ConnectFour;
pub(crate) use given_tree::GivenTree;
pub use marbles::Marbles;
pub use matching_pennies::MatchingPennies;
pub use othello::Othello;
pub use oware::Oware;
pub use phantom_tic_tac_toe::PhantomTicTacToe;
pub use pig::Pig;
pub use qubic::Qubic;
pub use random_tree::RandomTree;
pub use tic_tac_toe::TicTacToe;

/// One parameter of a game, for `plateau games`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GameParam {
    pub name: &'static str,
    pub default: &'static str,
    pub(crate) description: &'static str,
}

/// A game's entry in the registry.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GameInfo {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub(crate) description: &'static str,
    pub parameters: Vec<GameParam>,
}

/// A registered game as `plateau games` lists it: its entry and the capabilities its model uses.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Listed {
    #[serde(flatten)]
    pub info: GameInfo,
    pub kind: Kind,
}

/// Variants written as a parameter of their base game but played by another type (another `Capabilities::KIND`):
/// (base game, key, the variant's value, the key's default value, the registered name that plays the variant). `breakthrough(information=imperfect)` is
/// played by `breakthrough_imperfect`, which reads (and accepts) the key again. A base game's aliases route too
/// (`bt(moves=simultaneous)`).
const VARIANTS: &[(&str, &str, &str, &str, &str)] = &[
    ("breakthrough", "information", "imperfect", "perfect", "breakthrough_imperfect"),
    ("breakthrough", "moves", "simultaneous", "alternating", "breakthrough_simultaneous"),
];

/// The registered name of a game or alias.
fn base_name(name: &str) -> Option<&'static str> {
    catalogue().into_iter().find(|g| g.info.name == name || g.info.aliases.contains(&name)).map(|g| g.info.name)
}

/// Send a variant's game string to the game that plays it ([`VARIANTS`]); the default value of a variant key
/// (`information=perfect`) is accepted and left to the base game.
fn route_variant(spec: &mut Spec) -> Result<(), GameError> {
    for &(base, key, value, default, target) in VARIANTS {
        if base_name(&spec.name) == Some(base) && spec.has(key) {
            match spec.text(key).as_deref() {
                Some(v) if v == value => {
                    spec.name = target.to_string();
                    return Ok(());
                }
                Some(v) if v == default => {}
                Some(v) => {
                    return Err(GameError::new(format!("{base}: {key}={v}: expected {value} or {default}")));
                }
                None => {}
            }
        }
    }
    Ok(())
}

/// Generic code to run on the concrete game inside an [`AnyGame`] from outside this crate, where [`with_game!`] is not
/// visible (the Python bindings, the fuzz targets): `any.visit(v)` calls `v.visit(game)` with the game's own type.
pub trait GameVisitor {
    /// What the visit returns.
    type Out;
    /// Run on the concrete game.
    fn visit<G: FullGame>(self, game: &G) -> Self::Out;
}

impl AnyGame {
    /// Run `visitor` on the concrete game.
    pub fn visit<V: GameVisitor>(&self, visitor: V) -> V::Out {
        with_game!(self, g => visitor.visit(g))
    }
}

/// Builds the registry from one `Variant: Type => info_function` line per game.
macro_rules! registry {
    ($d:tt $($variant:ident : $ty:ty => $info:path),* $(,)?) => {
        /// A game chosen at run time.
        // Built once per command; boxing the larger rules objects would only change how `with_game!` names them.
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug, Clone)]
        pub enum AnyGame {
            $($variant($ty),)*
        }

        /// Every game, in registry order, for `plateau games`.
        pub fn catalogue() -> Vec<Listed> {
            vec![$(Listed { info: $info(), kind: <$ty as Capabilities>::KIND },)*]
        }

        impl AnyGame {
            /// The capabilities the game's model uses (chance, simultaneous moves, hidden information).
            pub fn kind(&self) -> Kind {
                match self {
                    $(AnyGame::$variant(_) => <$ty as Capabilities>::KIND,)*
                }
            }

            /// Parse a game string such as `breakthrough(rows=6,columns=5)`: the one place game strings are read.
            pub fn parse(text: &str) -> Result<AnyGame, GameError> {
                AnyGame::parse_with(text, &crate::files::FileAccess::Any)
            }

            /// [`AnyGame::parse`] for a surface whose strings may name only the files `files` allows (the server).
            pub(crate) fn parse_with(text: &str, files: &crate::files::FileAccess) -> Result<AnyGame, GameError> {
                let mut spec = Spec::parse_with(text, files)?;
                route_variant(&mut spec)?;
                let name = spec.name.as_str();
                $(
                    let info = $info();
                    if info.name == name || info.aliases.contains(&name) {
                        return Ok(AnyGame::$variant(<$ty>::from_spec(&spec)?));
                    }
                )*
                let names: Vec<&str> = catalogue().iter().map(|g| g.info.name).collect();
                Err(GameError::new(format!("unknown game '{name}' (known games: {})", names.join(", "))))
            }
        }

        /// Run generic code on the concrete game inside an [`AnyGame`]: `with_game!(any, g => perft(g, ...))`.
        macro_rules! with_game {
            ($d any:expr, $d g:ident => $d body:expr) => {
                match $d any {
                    $($crate::games::AnyGame::$variant($d g) => $d body,)*
                }
            };
        }
        pub(crate) use with_game;
    };
}

registry! {
    $
    Breakthrough: Breakthrough => breakthrough::info,
    TicTacToe: TicTacToe => tic_tac_toe::info,
    Qubic: Qubic => qubic::info,
    Marbles: Marbles => marbles::info,
    ConnectFour: ConnectFour => connect_four::info,
    Othello: Othello => othello::info,
    Oware: Oware => oware::info,
    Chess: Chess => chess::info,
    Checkers: Checkers => checkers::info,
    RandomTree: RandomTree => random_tree::info,
    GivenTree: GivenTree => given_tree::info,
    CoinGame: CoinGame => coin_game::info,
    ChanceTree: ChanceTree => chance_tree::info,
    Pig: Pig => pig::info,
    MatchingPennies: MatchingPennies => matching_pennies::info,
    PhantomTicTacToe: PhantomTicTacToe => phantom_tic_tac_toe::info,
    Backgammon: Backgammon => backgammon::info,
    DarkBreakthrough: DarkBreakthrough => breakthrough::imperfect::info,
    BreakthroughSimultaneous: SimBreakthrough => breakthrough::simultaneous::info,
}
