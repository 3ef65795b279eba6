//! The `position` command's board: a position text (with other programs' trailing FEN fields) and the moves played
//! from it, shared by the sessions of every kind of game (`session.rs`, `observed.rs`).

use crate::game::{FullGame, GameError};

/// Parse a position text, tolerating the trailing FEN fields other programs write (`- - 0 1`, `0 1`).
pub(crate) fn parse_fen<G: FullGame>(game: &G, text: &str) -> Result<G::State, String> {
    match game.parse_position(text) {
        Ok(s) => Ok(s),
        Err(e) => {
            let words: Vec<&str> = text.split_whitespace().collect();
            if words.len() > 2 && words[2..].iter().all(|w| *w == "-" || w.parse::<u64>().is_ok()) {
                game.parse_position(&words[..2].join(" ")).map_err(|e| e.to_string())
            } else {
                Err(e.to_string())
            }
        }
    }
}

/// The position of a `position` command: the start or `fen`, then `moves` played one word at a time by `play_word`
/// (a move, a chance outcome, a joint move `A/B`). A bad `fen` is an error and no position; after a bad word the
/// position stands before it (as Stockfish does) and the second result says why.
pub fn replay<G: FullGame>(
    game: &G,
    fen: Option<&str>,
    moves: &[String],
    play_word: impl Fn(&mut G::State, &str) -> Result<(), GameError>,
) -> Result<(G::State, Result<(), String>), String> {
    let mut s = match fen {
        None => game.start(),
        Some(text) => parse_fen(game, text).map_err(|e| format!("bad position '{text}': {e}"))?,
    };
    for (i, m) in moves.iter().enumerate() {
        let played = if game.is_terminal(&s) {
            Err("the game is already over".to_string())
        } else {
            play_word(&mut s, m).map_err(|e| e.to_string())
        };
        if let Err(e) = played {
            return Ok((s, Err(format!("move {} '{m}': {e}; position kept before it", i + 1))));
        }
    }
    Ok((s, Ok(())))
}
