//! UGI, the universal game interface of cutegames: UCI with `ugi`/`ugiok`, `uginewgame`, clocks named
//! `p1time`/`p2time`/`p1inc`/`p2inc`, and `query gameover|p1turn|result` answered by `response ...`.
//!
//! ```text
//! > ugi                          < id name ... / option ... / ugiok
//! > setoption name Game value connect_four      (any game string; default: the game given on the command line)
//! > isready                      < readyok
//! > uginewgame
//! > position startpos moves 4 4
//! > query p1turn                 < response true
//! > go p1time 10000 p2time 10000 p1inc 100 p2inc 100
//! < info depth .. score cp .. nodes .. pv ..
//! < bestmove 3
//! > query result                 < response none | p1win | p2win | draw
//! ```
//!
//! It works for every game of the registry, in the game's own move and position notation.

use std::io::BufRead;

use super::Dialect;
use super::session::{Out, Settings, run};

/// The lines answering `ugi`.
pub fn handshake(game: &str, settings: &Settings) -> Vec<String> {
    vec![
        format!("id name plateau {}", env!("CARGO_PKG_VERSION")),
        "id author the plateau developers".into(),
        format!("option name Game type string default {game}"),
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
        "ugiok".into(),
    ]
}

/// `plateau ugi`: the UGI loop on the given input and output.
pub(crate) fn run_ugi(game: &str, player: Option<&str>, input: &mut dyn BufRead, out: Out) -> Result<(), String> {
    run(Dialect::Ugi, game, player, input, out)
}
