//! `plateau serve`: the local web page and its JSON API (`src/server/`, `docs/server.md`).

use clap::Args;

#[cfg(feature = "server")]
use crate::files::FileAccess;
#[cfg(feature = "server")]
use crate::server::{Config, TournamentSource, serve};

#[derive(Args, Debug)]
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub struct ServeArgs {
    /// The address to listen on (127.0.0.1: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Accept player strings that start another program (`uci(cmd=...)`, `ugi(cmd=...)`).
    #[arg(long)]
    allow_external: bool,
    /// Games kept at once (a new game past that is refused with a 503).
    #[arg(long, default_value_t = 256)]
    max_games: usize,
    /// A game nobody touched for this long expires (`90s`, `30m`; a game whose engine thinks never does).
    #[arg(long, default_value = "60m", value_parser = parse_idle)]
    idle: std::time::Duration,
    /// A file that requests may name in a game or player string (`tree(file=PATH)`, `engine(book=PATH)`,
    /// `engine(params=PATH)`, `eval=nnue:PATH`); repeat for several. Without it, no request reaches a file.
    #[arg(long = "allow-file", value_name = "PATH")]
    allow_file: Vec<std::path::PathBuf>,
    /// Searches and analyses run at once (default: one per core); the others wait their turn, first come first
    /// served, and each search's clock starts when its turn comes.
    #[arg(long)]
    jobs: Option<usize>,
    /// Most searches and analyses waiting for their turn; one more is refused with a 503.
    #[arg(long, default_value_t = 256)]
    queue: usize,
    /// A tournament to show live on the page: its results file, and optionally its record file for the replays
    /// (`RESULTS,RECORD`: the files of `plateau tournament --results RESULTS --record RECORD`); repeat for several.
    /// They are only read.
    #[arg(long = "tournament", value_name = "RESULTS[,RECORD]")]
    tournament: Vec<String>,
    /// Seed every game's random choices (its players', its dice) from N, the game's id and the seat, so that a
    /// server started again with the same seed replays its games (default: from the system).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
}

fn parse_idle(text: &str) -> Result<std::time::Duration, String> {
    match crate::spec::parse_duration(text)? {
        d if d.is_zero() => Err("--idle must be more than 0 (examples: 90s, 30m)".into()),
        d => Ok(d),
    }
}

/// A library built without the `server` feature (the Python extension's) has no web server.
#[cfg(not(feature = "server"))]
pub fn run(_: ServeArgs) -> anyhow::Result<()> {
    anyhow::bail!(
        "this build of plateau has no web server (built without the `server` feature): run the plateau command"
    )
}

#[cfg(feature = "server")]
pub fn run(a: ServeArgs) -> anyhow::Result<()> {
    if a.max_games == 0 || a.max_games > 100_000 {
        anyhow::bail!("--max-games must be 1..=100000");
    }
    let files = FileAccess::only(&a.allow_file).map_err(anyhow::Error::msg)?;
    if a.jobs.is_some_and(|j| j == 0 || j > 1024) {
        anyhow::bail!("--jobs must be 1..=1024");
    }
    if a.queue > 100_000 {
        anyhow::bail!("--queue must be 0..=100000");
    }
    let defaults = Config::default();
    let tournaments = a
        .tournament
        .iter()
        .map(|t| TournamentSource::parse(t))
        .collect::<Result<Vec<_>, _>>()
        .map_err(anyhow::Error::msg)?;
    let config = Config {
        allow_external: a.allow_external,
        max_games: a.max_games,
        idle: a.idle,
        files,
        jobs: a.jobs.unwrap_or(defaults.jobs),
        queue: a.queue,
        tournaments,
        seed: a.seed,
        ..defaults
    };
    serve(&a.host, a.port, config)
}
