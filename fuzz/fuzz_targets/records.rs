//! Match record files (`arena::record`): any text read with `read_games` and `read_results` (no panic), and a record
//! built from the input's fields (line 1 game, 2 FEN (empty: none), 3 termination, 4 move words, 5 a result digit)
//! written with `to_pgn` then read back to the same fields.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plateau::arena::record::{GameRecord, read_games, read_results};
use plateau::game::Side;

/// A word a game notation could write as a move: no result, no move number, no tag bracket.
fn plausible_move(w: &str) -> bool {
    !["1-0", "0-1", "1/2-1/2", "*"].contains(&w)
        && !(w.ends_with('.') && w[..w.len() - 1].chars().all(|c| c.is_ascii_digit()))
        && !w.starts_with('[')
}

fuzz_target!(|data: &[u8]| {
    let text = plateau_fuzz::text(data);
    let _ = read_games(&text);
    let _ = read_results(&text);
    let f = plateau_fuzz::fields(&text, 5);
    let one_line = |s: &str| !s.contains(['\n', '\r']);
    let moves: Vec<String> = f[3].split_whitespace().map(str::to_string).collect();
    if !moves.iter().all(|m| plausible_move(m)) || !f[..3].iter().all(|s| one_line(s)) {
        return;
    }
    let winner = match f[4].bytes().next().unwrap_or(0) % 3 {
        0 => None,
        1 => Some(Side::First),
        _ => Some(Side::Second),
    };
    let r = GameRecord {
        round: f[4].len(),
        game: f[0].to_string(),
        first: "a".into(),
        second: "b".into(),
        a_first: true,
        time_control: "movetime 1ms".into(),
        opening: String::new(),
        fen: (!f[1].is_empty()).then(|| f[1].to_string()),
        moves,
        winner,
        termination: f[2].to_string(),
        max_move_ms: [0, 0],
        total_move_ms: [0, 0],
        moves_timed: [0, 0],
        move_ms: Vec::new(),
        final_position: None,
    };
    let pgn = r.to_pgn();
    let back = match read_games(&pgn) {
        Ok(b) => b,
        Err(e) => panic!("a written record does not read back: {e}\n{pgn}"),
    };
    assert_eq!(back.len(), 1, "one game written, {} read:\n{pgn}", back.len());
    let g = &back[0];
    assert_eq!(g.round, r.round);
    assert_eq!((&g.game, &g.fen, &g.termination), (&r.game, &r.fen, &r.termination), "tags differ:\n{pgn}");
    assert_eq!(g.moves, r.moves, "moves differ:\n{pgn}");
    assert_eq!(g.result, r.result_text());
    assert_eq!(read_results(&pgn), vec![(r.round, r.result_text().to_string(), r.termination.clone())], "{pgn}");
});
