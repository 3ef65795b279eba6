//! `plateau uci` and `plateau ugi`: the engine protocol loops on stdin/stdout.

use clap::Args;

use crate::protocol::session::{OUTPUT_CLOSED, Out};
use crate::protocol::{uci, ugi};

#[derive(Args, Debug)]
pub struct ProtocolArgs {
    /// The game played until the GUI sets `UCI_Variant` (UCI) or `Game` (UGI).
    #[arg(default_value = "breakthrough")]
    game: String,
    /// The player string (default: `engine` when available, else `alphabeta`); also the `Player` option.
    #[arg(long)]
    player: Option<String>,
}

pub(crate) fn run_uci(a: ProtocolArgs) -> anyhow::Result<()> {
    let out = Out::new(Box::new(std::io::stdout()));
    uci::run_uci(&a.game, a.player.as_deref(), &mut std::io::stdin().lock(), out).map_err(closed_or_message)
}

pub(crate) fn run_ugi(a: ProtocolArgs) -> anyhow::Result<()> {
    let out = Out::new(Box::new(std::io::stdout()));
    ugi::run_ugi(&a.game, a.player.as_deref(), &mut std::io::stdin().lock(), out).map_err(closed_or_message)
}

/// A closed output is a broken pipe (`cli::main` exits 141 quietly, as for every command); other errors as they are.
fn closed_or_message(e: String) -> anyhow::Error {
    if e == OUTPUT_CLOSED {
        anyhow::Error::new(std::io::Error::from_raw_os_error(libc::EPIPE))
    } else {
        anyhow::Error::msg(e)
    }
}
