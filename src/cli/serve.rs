//! `plateau serve`: the local web page and its JSON API (`src/server/`, `docs/server.md`).

use clap::Args;

use crate::server::{Config, serve};

#[derive(Args, Debug)]
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
    /// Games kept at once.
    #[arg(long, default_value_t = 256)]
    max_games: usize,
}

pub fn run(a: ServeArgs) -> anyhow::Result<()> {
    if a.max_games == 0 || a.max_games > 100_000 {
        anyhow::bail!("--max-games must be 1..=100000");
    }
    let config = Config { allow_external: a.allow_external, max_games: a.max_games, ..Config::default() };
    serve(&a.host, a.port, config)
}
