//! plateau: a toolkit for two-player board-game AI. Its modules, by layer (each imports only its own layer or those
//! below; `docs/architecture.md`):
//!
//! **Game model and games**
//! - [`game`]: the game model (the `Game` trait, small `Copy` states, fixed-capacity move lists, outcomes, Zobrist keys);
//! - [`games`]: the games and the registry that maps game strings to them;
//! - [`spec`]: `NAME(key=value,...)` strings (games, players, algorithms) and durations, sizes, usage errors;
//! - [`files`]: the files a user names, who may name them and their bounded, atomic reading and writing;
//! - [`limits`]: every ceiling on what a user gives (threads, games, plies, tables, memory) and interrupts;
//! - [`check`]: the property checks every game passes on random playouts.
//!
//! **Search**
//! - [`search`]: adversarial search algorithms, limits and time controls, statistics, the course's catalogue.
//!
//! **Evaluation, engine, solvers, puzzles, books**
//! - [`engine`]: the strongest player, with each game's evaluations and knowledge;
//! - [`solve`]: exact solvers, their registry and typed `SolveReport` (under `plateau solve`, Python's `solve()`);
//! - [`puzzle`]: single-agent search (mazes, sliding tiles, races);
//! - [`book`]: opening books;
//! - [`mcts`]: Monte Carlo tree search as a player;
//! - [`hidden`]: players of games with hidden information.
//!
//! **Players**
//! - [`players`]: the one player interface and the registry of player strings;
//! - [`train`]: fitting evaluations from self-play games.
//!
//! **Arena, tournament, protocols, server**
//! - [`arena`]: matches (the typed `arena::spec::run_match_spec` under `plateau match` and Python's `match()`), Elo,
//!   SPRT, records, SPSA;
//! - [`tournament`]: tournaments of many players (`tournament::spec`: the typed way in), ratings, results files;
//! - [`protocol`]: the UCI and UGI engine protocols;
//! - `server`: `plateau serve`, the web page and its JSON API (the `server` feature, on by default).
//!
//! **Command line**
//! - [`cli`]: the `plateau` command line (parses flags, calls the library, prints); [`run_command_words`] runs one
//!   command and returns its JSON documents (Python's `plateau.run()`).

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
#[cfg(feature = "server")]
pub mod server;
pub mod solve;
pub mod spec;
pub mod tournament;
pub mod train;

/// Run one `plateau` command given as its words without the program name (`["perft", "tic_tac_toe", "--depth", "2",
/// "--json"]`) and return the JSON documents it hands over instead of printing them: Python's `plateau.run()`. It
/// goes through the command line's own parser and dispatcher ([`cli::run_json`]); the typed APIs under each command
/// are in the library modules (`arena::spec`, `tournament::spec`, `solve::registry`, `search::summary`). An error is
/// the command line's one line (without `error: `).
pub fn run_command_words(words: &[String]) -> Result<Vec<serde_json::Value>, String> {
    cli::run_json(words)
}
