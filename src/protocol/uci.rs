//! UCI as Fairy-Stockfish speaks it for variants.
//!
//! ```text
//! > uci
//! < id name plateau ... / id author ... / option ... / uciok
//! > setoption name UCI_Variant value breakthrough
//! > isready                      < readyok
//! > ucinewgame
//! > position startpos moves a2a3 b7b6      (or: position fen pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1)
//! > go movetime 100 | wtime W btime B winc I binc J | depth D | nodes N | infinite
//! < info depth .. score cp N|mate N nodes .. nps .. time .. pv ..
//! < bestmove a2a3
//! > stop / quit
//! ```
//!
//! `UCI_Variant` takes any game string of the registry (`breakthrough`, and the other games with their own move
//! notation); Fairy-Stockfish shares our notation for Breakthrough only. Besides the standard `Hash` and `Threads`,
//! the option `Player` picks the algorithm string (`engine`, `alphabeta`, `mcts(playouts=1000)`, ...).

use std::io::BufRead;

use super::Dialect;
use super::session::{Out, Settings, run};
use crate::games::catalogue;

/// The lines answering `uci`.
pub fn handshake(game: &str, settings: &Settings) -> Vec<String> {
    let default = game.split('(').next().unwrap_or(game).to_string();
    // The variants the protocol can carry: deterministic games of perfect information.
    let mut vars: Vec<String> =
        catalogue().iter().filter(|g| g.kind.is_classic()).map(|g| g.info.name.to_string()).collect();
    if !vars.contains(&default) {
        vars.insert(0, default.clone());
    }
    let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
    vec![
        format!("id name plateau {}", env!("CARGO_PKG_VERSION")),
        "id author the plateau developers".into(),
        String::new(),
        format!("option name UCI_Variant type combo default {default}{vars}"),
        format!(
            "option name Hash type spin default {} min 1 max {}",
            settings.hash_mb.unwrap_or(16),
            super::max_hash_mb()
        ),
        format!(
            "option name Threads type spin default {} min 1 max {}",
            settings.threads.unwrap_or(1),
            crate::limits::MAX_THREADS
        ),
        format!("option name Player type string default {}", settings.player),
        "uciok".into(),
    ]
}

/// `plateau uci`: the UCI loop on the given input and output.
pub(crate) fn run_uci(game: &str, player: Option<&str>, input: &mut dyn BufRead, out: Out) -> Result<(), String> {
    run(Dialect::Uci, game, player, input, out)
}
