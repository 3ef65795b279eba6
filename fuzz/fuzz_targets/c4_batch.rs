//! Connect Four batch files (`solve connect_four --batch FILE`: `moves [score]` per line), parsed as `solve` reads
//! them, on the standard board and on the board of the first line's game string: no panic, and every accepted line's
//! moves give the same position when parsed again and when played with the game's own move parser.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plateau::game::{Capabilities, Game};
use plateau::games::AnyGame;
use plateau::games::connect_four::{Position, Standard};
use plateau::solve::batch::lines_of;
use plateau::solve::connect4::parse_batch;

fuzz_target!(|data: &[u8]| {
    let text = plateau_fuzz::text(data);
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let lines = lines_of(rest, None);
    if let Ok(jobs) = parse_batch(&Standard, "batch", &lines) {
        for j in &jobs {
            assert_eq!(Position::from_moves(&Standard, &j.moves).ok(), Some(j.position), "line {}", j.line);
        }
    }
    let Ok(AnyGame::ConnectFour(board)) = AnyGame::parse(first) else { return };
    if let Ok(jobs) = parse_batch(&board, "batch", &lines) {
        for j in &jobs {
            let played = board.play_moves(&board.start(), &j.moves);
            assert!(
                played.is_ok(),
                "line {} '{}' is a batch position but not a move list: {:?}",
                j.line,
                j.moves,
                played
            );
        }
    }
});
