//! The games, and the registry that turns a game string into a game.
//!
//! Every tool is generic over [`Game`](crate::game::Game); the command line picks the concrete type at run time with
//! [`with_game!`](crate::with_game), which expands the generic code once per game.

pub mod board_text;
pub mod breakthrough;
pub mod connect_four;
pub mod marbles;
pub mod random_tree;
pub mod tic_tac_toe;

use crate::game::GameError;
use crate::spec::Spec;

pub use breakthrough::Breakthrough;
pub use connect_four::ConnectFour;
pub use marbles::Marbles;
pub use random_tree::RandomTree;
pub use tic_tac_toe::TicTacToe;

/// One parameter of a game, for `plateau games`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ParamInfo {
    pub name: &'static str,
    pub default: &'static str,
    pub description: &'static str,
}

/// A game's entry in the registry.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GameInfo {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub description: &'static str,
    pub parameters: Vec<ParamInfo>,
}

/// Every game, for `plateau games`.
pub fn catalogue() -> Vec<GameInfo> {
    let p = |name, default, description| ParamInfo { name, default, description };
    let mut games = vec![GameInfo {
        name: "breakthrough",
        aliases: &["bt"],
        description: "Breakthrough: pieces move one square forward (straight or diagonally), capture diagonally; reach the far row to win",
        parameters: vec![
            p("rows", "8", "board height; rows > 2*piece_rows and rows*columns <= 64"),
            p("columns", "8", "board width, at least 2"),
            p("piece_rows", "2", "rows of pieces each side starts with"),
            p("misere", "false", "reaching the far row loses"),
            p("forced_captures", "false", "a capture must be played when one exists"),
        ],
    }];
    games.extend([tic_tac_toe::info(), marbles::info(), connect_four::info(), random_tree::info()]);
    games
}

/// A game chosen at run time.
// Built once per command; boxing the larger rules objects would only change how `with_game!` names them.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum AnyGame {
    Breakthrough(Breakthrough),
    TicTacToe(TicTacToe),
    Marbles(Marbles),
    ConnectFour(ConnectFour),
    RandomTree(RandomTree),
}

impl AnyGame {
    /// Parse a game string such as `breakthrough(rows=6,columns=5)`.
    pub fn parse(text: &str) -> Result<AnyGame, GameError> {
        let spec = Spec::parse(text)?;
        match spec.name.as_str() {
            "breakthrough" | "bt" => Ok(AnyGame::Breakthrough(Breakthrough::from_spec(&spec)?)),
            "tic_tac_toe" | "tictactoe" | "ttt" => Ok(AnyGame::TicTacToe(TicTacToe::from_spec(&spec)?)),
            "marbles" => Ok(AnyGame::Marbles(Marbles::from_spec(&spec)?)),
            "connect_four" | "connect4" | "c4" => Ok(AnyGame::ConnectFour(ConnectFour::from_spec(&spec)?)),
            "random_tree" | "tree" => Ok(AnyGame::RandomTree(RandomTree::from_spec(&spec)?)),
            other => {
                let names: Vec<&str> = catalogue().iter().map(|g| g.name).collect();
                Err(GameError::new(format!("unknown game '{other}' (known games: {})", names.join(", "))))
            }
        }
    }
}

/// Run generic code on the concrete game inside an [`AnyGame`]: `with_game!(any, g => perft(g, ...))`.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::games::AnyGame::Breakthrough($g) => $body,
            $crate::games::AnyGame::TicTacToe($g) => $body,
            $crate::games::AnyGame::Marbles($g) => $body,
            $crate::games::AnyGame::ConnectFour($g) => $body,
            $crate::games::AnyGame::RandomTree($g) => $body,
        }
    };
}
