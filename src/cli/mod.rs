//! The `plateau` command line: one file per command. Each command parses its arguments, resolves the game with
//! [`AnyGame::parse`] and runs generic code through [`with_game!`](crate::games::with_game).
//!
//! Errors are one line on stderr (`error: ...`) and a non-zero exit code; with `--json`, results go to stdout as one
//! JSON document and progress to stderr.

mod bench;
mod book;
pub mod compare;
mod eval_cmd;
mod games_cmd;
mod match_cmd;
mod perft;
mod play;
mod play_summary;
mod players_cmd;
mod puzzle;
mod ray;
mod search_cmd;
mod serve;
mod solve;
mod solve_db;
mod spsa;
mod stats;
mod tournament;
mod tree;
mod tree_mcts;
mod tune;
mod uci;

use clap::{Args, Parser, Subcommand};

use crate::game::{FullGame, GameError};
use crate::games::AnyGame;

#[derive(Parser, Debug)]
#[command(
    name = "plateau",
    version,
    about = "Two-player board-game AI: games, search algorithms, solvers, arena",
    after_help = crate::players::listing::help()
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
/// The `plateau` subcommands, one variant each (`docs/cli.md`).
pub enum Command {
    /// List the games, their parameters and defaults.
    Games(games_cmd::GamesArgs),
    /// List the players and algorithms: what each is, the games it plays, its parameters and defaults.
    Players(players_cmd::PlayersArgs),
    /// Count the positions exactly D plies ahead.
    Perft(perft::PerftArgs),
    /// Run one search from a position.
    Search(search_cmd::SearchArgs),
    /// Play a game in the terminal against the engine (or watch two engines).
    Play(play::PlayArgs),
    /// The course's table: nodes, leaves and time per algorithm and depth.
    Compare(compare::CompareArgs),
    /// Draw the tree one search explored (small depths) as SVG and Graphviz DOT.
    Tree(tree::TreeArgs),
    /// Speak UCI (Fairy-Stockfish dialect) on stdin/stdout.
    Uci(uci::ProtocolArgs),
    /// Speak UGI (cutegames' universal game interface) on stdin/stdout.
    Ugi(uci::ProtocolArgs),
    /// Play a match between two players: W/L/D, Elo, SPRT, game records.
    Match(match_cmd::MatchArgs),
    /// A tournament of many players (round robin or gauntlet): crosstable, maximum-likelihood ratings, records.
    Tournament(tournament::TournamentArgs),
    /// Single-agent search: grid mazes, the number puzzle, sliding-tile puzzles, Breakthrough races.
    Puzzle(puzzle::PuzzleArgs),
    /// Search fixed positions to a fixed depth; the last line is `N nodes M nps`.
    Bench(bench::BenchArgs),
    /// Tune the Breakthrough evaluation from engine self-play games (Texel's method).
    Tune(tune::TuneArgs),
    /// Exact game-theoretic value of a position (or of every position of a batch file).
    Solve(solve::SolveArgs),
    /// Opening books: build one by deep searches, show its moves for a position.
    Book(book::BookArgs),
    /// Game lengths and branching factors over N games between two players (min, max, mean, histograms, phases).
    Stats(stats::StatsArgs),
    /// The static evaluation of a position (no search) and its named terms.
    Eval(eval_cmd::EvalArgs),
    /// The local web page: play, watch the engine think, trees, tables, replays (JSON API under /api/).
    Serve(serve::ServeArgs),
    /// Tune the engine's search constants by SPSA over game pairs; writes a parameters file.
    Spsa(spsa::SpsaArgs),
    /// The engine's tunable search constants: defaults, ranges, SPSA steps (`engine(params=FILE)`, `engine(NAME=V)`).
    EngineParams(spsa::EngineParamsArgs),
}

/// The position arguments shared by analysis commands.
#[derive(Args, Debug, Clone)]
pub(crate) struct PositionArgs {
    /// The game string, e.g. `breakthrough`, `breakthrough(rows=6,columns=5)`, `connect_four`.
    #[arg(default_value = "breakthrough")]
    pub game: String,
    /// A position in the game's position text (`start` for the start position).
    #[arg(long)]
    pub position: Option<String>,
    /// Moves played from the position (or from the start), space-separated.
    #[arg(long)]
    pub moves: Option<String>,
}

impl PositionArgs {
    pub fn game(&self) -> Result<AnyGame, GameError> {
        AnyGame::parse(&self.game)
    }
}

/// Resolve `--position` and `--moves` into a state of `game` ([`crate::game::position_at`]).
pub(crate) fn resolve_position<G: FullGame>(
    game: &G,
    position: Option<&str>,
    moves: Option<&str>,
) -> Result<G::State, GameError> {
    crate::game::position_at(game, position, moves)
}

pub(crate) use crate::limits::{parse_games, parse_max_plies, parse_seconds, parse_threads};

pub(crate) use crate::game::winner_words;

/// Where a command's JSON documents go, passed explicitly to every command that has `--json`: printed on stdout as
/// they come (the binary, [`Out::print`]), or kept for the caller ([`run_json`], [`Out::keep`]).
pub struct Out {
    kept: Option<Vec<serde_json::Value>>,
}

impl Out {
    /// Print each document on stdout (pretty JSON) when the command hands it over.
    pub fn print() -> Out {
        Out { kept: None }
    }

    /// Keep the documents for [`Out::into_documents`].
    pub fn keep() -> Out {
        Out { kept: Some(Vec::new()) }
    }

    /// One JSON document of the command.
    pub fn json(&mut self, v: serde_json::Value) {
        match &mut self.kept {
            Some(docs) => docs.push(v),
            None => println!("{}", serde_json::to_string_pretty(&v).unwrap_or_else(|_| "{}".into())),
        }
    }

    /// The documents kept (none when they were printed).
    pub(crate) fn into_documents(self) -> Vec<serde_json::Value> {
        self.kept.unwrap_or_default()
    }
}

/// Write a file the user named (`--svg FILE`, `--dot FILE`) atomically ([`crate::files::replace`]): on a full disk
/// the old file stays whole, and a symbolic link, a device or a directory is refused, untouched.
pub(crate) fn write_output(path: impl AsRef<std::path::Path>, bytes: &[u8], what: &str) -> anyhow::Result<()> {
    crate::files::replace(path.as_ref(), bytes, what).map_err(anyhow::Error::msg)
}

/// Run one command given as its words without the program name (`["solve", "tic_tac_toe", "--json"]`) and return the
/// JSON documents it hands over ([`Out`]) instead of printing them: `plateau.run()` of the Python bindings (through
/// [`crate::run_command_words`]). An error is the command line's one line (without `error: `).
pub fn run_json(args: &[String]) -> Result<Vec<serde_json::Value>, String> {
    let cli = Cli::try_parse_from(std::iter::once("plateau".to_string()).chain(args.iter().cloned()))
        .map_err(|e| crate::game::one_line(usage_line(&e).trim_start_matches("error: ")))?;
    let mut out = Out::keep();
    run_command(cli.command, &mut out).map_err(|e| crate::game::one_line(&format!("{e:#}")))?;
    Ok(out.into_documents())
}

pub(crate) use crate::spec::usage_line;

/// Exit code on a closed stdout (`plateau games | head -1`): 128 + SIGPIPE, what a Unix tool killed by the signal
/// reports, without a message.
pub(crate) const BROKEN_PIPE_EXIT: i32 = 141;

/// Whether a panic message or an error is a write to a closed pipe (`print!` panics with "failed printing to stdout:
/// Broken pipe (os error 32)").
fn is_broken_pipe(text: &str) -> bool {
    text.contains("Broken pipe (os error 32)")
}

/// Stdout closed early is the end of the command, quietly, for every command in one place: a `print!` into a closed
/// pipe panics in std (Rust ignores SIGPIPE), so the panic hook turns that one panic into a quiet exit, and an error
/// carrying a broken pipe does the same in [`main`]. Every other panic keeps the default report.
fn exit_quietly_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info.payload_as_str().unwrap_or("");
        if text.starts_with("failed printing to std") && is_broken_pipe(text) {
            std::process::exit(BROKEN_PIPE_EXIT);
        }
        default(info);
    }));
}

/// Entry point: returns the process exit code.
pub fn main() -> i32 {
    exit_quietly_on_broken_pipe();
    // A file-size limit (`ulimit -f`) makes a write fail (EFBIG) as a full disk does, rather than kill the process
    // midway: the write's temporary file is removed and the error is one line ([`crate::files::write_atomic`]).
    // SAFETY: setting a signal's disposition to "ignore" has no handler to run.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        // Help and version go to stdout as clap writes them; a usage error is one line on stderr (clap's first
        // line, without its usage block), exit code 2.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return 0;
        }
        Err(e) => {
            eprintln!("{}", usage_line(&e));
            return 2;
        }
    };
    let result = run_command(cli.command, &mut Out::print());
    // A command that caught Ctrl-C or SIGTERM (`limits::catch_interrupt`) stopped, saved its work and said so: it
    // ends with the shell's code for the signal (130, 143), whether it reports the stop as an error or not.
    let interrupted = crate::limits::interrupt_exit_code();
    match result {
        Ok(()) => interrupted.unwrap_or(0),
        Err(e) if is_broken_pipe(&e.root_cause().to_string()) => BROKEN_PIPE_EXIT,
        Err(e) => {
            eprintln!("error: {}", crate::game::one_line(&format!("{e:#}")));
            interrupted.unwrap_or(1)
        }
    }
}

/// Run one parsed command, its JSON documents handed to `out`.
fn run_command(command: Command, out: &mut Out) -> anyhow::Result<()> {
    match command {
        Command::Games(a) => games_cmd::run(a, out),
        Command::Players(a) => players_cmd::run(a, out),
        Command::Perft(a) => perft::run(a, out),
        Command::Search(a) => search_cmd::run(a, out),
        Command::Play(a) => play::run(a),
        Command::Compare(a) => compare::run(a, out),
        Command::Tree(a) => tree::run(a, out),
        Command::Uci(a) => uci::run_uci(a),
        Command::Ugi(a) => uci::run_ugi(a),
        Command::Match(a) => match_cmd::run(a, out),
        Command::Tournament(a) => tournament::run(a, out),
        Command::Puzzle(a) => puzzle::run(a, out),
        Command::Bench(a) => bench::run(a, out),
        Command::Tune(a) => tune::run(a, out),
        Command::Solve(a) => solve::run(a, out),
        Command::Book(a) => book::run(a, out),
        Command::Stats(a) => stats::run(a, out),
        Command::Eval(a) => eval_cmd::run(a, out),
        Command::Serve(a) => serve::run(a),
        Command::Spsa(a) => spsa::run(a),
        Command::EngineParams(a) => spsa::run_params(a, out),
    }
}
