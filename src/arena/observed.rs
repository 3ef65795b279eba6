//! External engines (UGI) on games with simultaneous moves or hidden information: the arena's side of the referee
//! lines (`docs/protocols.md`, "Simultaneous moves and hidden information"; the engine's side is
//! `protocol/observed.rs`).
//!
//! ```text
//! simultaneous node   > position startpos|fen TEXT moves FIRST/SECOND ...     (the public game: joint moves)
//!                     > side p1|p2                                            (which half the engine chooses)
//!                     > go ...                         < bestmove HALF        (both engines are asked at once)
//! hidden information  > position startpos|fen TEXT     > side p1|p2          (the public start, once per game)
//!                     > observation LINE|LINE|...      (each time the engine's observation changes, from the start's)
//!                     > legal MOVE MOVE ...            > go ...              < bestmove MOVE
//! ```
//! A hidden-information engine never receives a move of the game or the referee's state: only its observations
//! (`Capabilities::observation`, its lines joined by `|`) and the moves legal on the board it sees.

use std::time::Duration;

use super::external::{External, position_line};
use super::player::PositionText;
use crate::game::{FullGame, MoveList, Side};
use crate::protocol::observed::{encode_observation, side_word};
use crate::search::TimeControl;

/// A failure ends the engine's process (a fresh one starts next game).
fn or_kill<T>(ext: &mut External, r: Result<T, String>) -> Result<T, String> {
    if r.is_err() {
        ext.kill();
    }
    r
}

/// A simultaneous node: the public game, the engine's side, `go`; the answer is `player`'s half.
pub(crate) fn think_half<G: FullGame>(
    ext: &mut External,
    game: &G,
    state: &G::State,
    player: Side,
    pos: &PositionText,
    limit: Option<TimeControl>,
    hard: Duration,
) -> Result<G::Move, String> {
    let lines = [position_line(pos), format!("side {}", side_word(player))];
    let r = ext.ask(&lines, limit, hard);
    let text = or_kill(ext, r)?;
    let mut moves = MoveList::new();
    game.player_moves(state, player, &mut moves);
    let found = moves.iter().copied().find(|&m| game.format_move(state, m) == text.trim());
    let r = found.ok_or_else(|| format!("illegal move '{text}' from the engine: not a legal half of {player:?}"));
    or_kill(ext, r)
}

/// Hidden information, a game starts: the public start, the engine's side and its first observation.
pub fn start<G: FullGame>(ext: &mut External, game: &G, start: &G::State, player: Side) -> Result<(), String> {
    let position = if *start == game.start() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", game.format_position(start))
    };
    let seen = encode_observation(&game.observation(start, player));
    let r = seen.and_then(|seen| {
        ext.send(&position)?;
        ext.send(&format!("side {}", side_word(player)))?;
        ext.send(&format!("observation {seen}"))
    });
    or_kill(ext, r)
}

/// Hidden information: the engine's new observation.
pub fn observe<G: FullGame>(ext: &mut External, game: &G, observation: &str) -> Result<(), String> {
    let _ = game;
    let r = encode_observation(observation).and_then(|seen| ext.send(&format!("observation {seen}")));
    or_kill(ext, r)
}

/// Hidden information, the engine's turn: the moves legal on the board it sees, `go`; the answer must be one of them.
pub fn choose<M: Copy>(
    ext: &mut External,
    legal: &[M],
    legal_text: &[String],
    limit: Option<TimeControl>,
    hard: Duration,
) -> Result<M, String> {
    let r = ext.ask(&[format!("legal {}", legal_text.join(" "))], limit, hard);
    let text = or_kill(ext, r)?;
    let i = legal_text.iter().position(|t| *t == text.trim());
    let r = i.map(|i| legal[i]).ok_or_else(|| {
        format!("illegal move '{text}' from the engine: not one of the moves legal on the board it sees")
    });
    or_kill(ext, r)
}
