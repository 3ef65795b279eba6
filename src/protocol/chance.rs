//! Games of chance over the protocols: the outcomes are moves of a chance player, announced by whoever referees.
//!
//! ```text
//! > setoption name Game value backgammon
//! > position startpos moves x:3-1 8/5,6/5 6-6      (the referee's rolls and the players' moves, in playing order)
//! > go movetime 100
//! < bestmove 24/18(2)
//! > position startpos moves x:3-1 8/5,6/5 6-6 24/18(2) 13/7(2) 2-1
//! ```
//!
//! The engine never draws: a chance node's outcome (a roll `3-1`, the opening `x:3-1`, Pig's face `4`) is the next
//! word of `position ... moves`, written as the game writes it, and `go` at a chance node answers an error line and
//! `bestmove (none)`. One more rule for every game: a move is one word, so a move whose text has spaces (backgammon's
//! `24/18 13/11`) travels with commas in their place (`24/18,13/11`), in both directions.

use crate::game::{FullGame, GameError, Kind, Turn};

/// Whether the protocols carry games of this kind: sequential games of perfect information, with or without chance.
pub fn carries(kind: Kind) -> bool {
    !kind.simultaneous && !kind.hidden
}

/// A move's text as one protocol word: spaces become commas.
pub(crate) fn move_word(text: &str) -> String {
    text.replace(' ', ",")
}

/// A protocol word as a move of `state`: the game's own notation, else (for a word with commas) the text with spaces
/// in their place.
pub(crate) fn parse_word<G: FullGame>(game: &G, state: &G::State, word: &str) -> Result<G::Move, GameError> {
    match game.parse_move(state, word) {
        Ok(m) => Ok(m),
        Err(e) if word.contains(',') => game.parse_move(state, &word.replace(',', " ")).map_err(|_| e),
        Err(e) => Err(e),
    }
}

/// Why `go` cannot search `state`, when it is a chance node: the referee draws, the engine does not.
pub(crate) fn go_refusal<G: FullGame>(game: &G, state: &G::State) -> Option<String> {
    if !G::KIND.chance || game.turn(state) != Turn::Chance {
        return None;
    }
    let mut outcomes = crate::game::ChanceList::new();
    game.chance_outcomes(state, &mut outcomes);
    let words: Vec<String> = outcomes.iter().take(6).map(|&(m, _)| move_word(&game.format_move(state, m))).collect();
    let more = if outcomes.len() > words.len() { ", ..." } else { "" };
    Some(format!(
        "go: a chance node (the dice are drawn by the referee, not the engine): send its outcome as the next move of \
         'position ... moves' ({}{more})",
        words.join(", ")
    ))
}
