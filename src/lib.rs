//! plateau: a toolkit for two-player board-game AI.
//!
//! - [`game`]: the game model (rules object + small `Copy` states, fixed-capacity move lists, Zobrist keys);
//! - [`games`]: the games and the registry that maps game strings to them;
//! - [`search`]: adversarial search algorithms and their shared instrumentation;
//! - [`cli`]: the `plateau` command line.

pub mod arena;
pub mod book;
pub mod check;
pub mod cli;
pub mod engine;
pub mod files;
pub mod game;
pub mod games;
pub mod hidden;
pub mod limits;
pub mod mcts;
pub mod players;
pub mod protocol;
pub mod puzzle;
pub mod search;
pub mod server;
pub mod solve;
pub mod spec;
pub mod tournament;
pub mod train;
