//! `plateau book` and `plateau solve --method dfpn` end to end: a tic-tac-toe book built, shown and used by the engine;
//! damaged books are one-line errors; df-pn on the known results.

use crate::common::{json, one_line_error, plateau};

#[test]
fn tic_tac_toe_book_build_show_and_use() {
    let dir = std::env::temp_dir().join(format!("plateau-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ttt.book");
    let f = file.to_str().unwrap();
    let args = ["book", "build", "ttt", "--out", f, "--depth", "2", "--player", "engine(depth=12)", "--margin", "0"];
    let v = json(&plateau(&[&args[..], &["--max-moves", "9", "--json"]].concat()));
    assert_eq!(v["game"], "tic_tac_toe");
    assert!(v["positions"].as_u64().unwrap() >= 9);
    assert!(plateau::files::temporaries_of(&file).is_empty());
    // After a corner only the centre keeps the draw.
    let v = json(&plateau(&["book", "show", f, "--moves", "a1", "--json"]));
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0]["move"], "b2");
    assert_eq!(moves[0]["score"], 0);
    // The engine plays the book move without searching (one node).
    let algo = format!("engine(book={f},book_seed=1)");
    let v = json(&plateau(&["search", "ttt", "--moves", "a1", "--algo", &algo, "--json"]));
    assert_eq!(v["best_move"], "b2");
    assert_eq!(v["nodes"], 1);
    // Damaged files: one-line errors, for `show` and for the engine.
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let bad = dir.join("bad.book");
    std::fs::write(&bad, &bytes).unwrap();
    let b = bad.to_str().unwrap();
    assert!(one_line_error(&plateau(&["book", "show", b])).contains("checksum"));
    let algo = format!("engine(book={b})");
    one_line_error(&plateau(&["search", "ttt", "--algo", &algo]));
    one_line_error(&plateau(&["book", "show", dir.join("missing.book").to_str().unwrap()]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dfpn_from_the_command_line() {
    let v = json(&plateau(&["solve", "ttt", "--method", "dfpn", "--json"]));
    assert_eq!((v["result"].as_str(), v["score"].as_i64(), v["runs"].as_u64()), (Some("draw"), Some(0), Some(2)));
    let v = json(&plateau(&["solve", "marbles(n=12,k=3)", "--method", "dfpn", "--json"]));
    assert_eq!(v["result"], "loss");
    let v = json(&plateau(&["solve", "marbles(n=13,k=3)", "--method", "dfpn", "--json"]));
    assert_eq!((v["result"].as_str(), v["best_move"].as_str()), (Some("win"), Some("1")));
    let g = "breakthrough(rows=4,columns=4,piece_rows=1)";
    let v = json(&plateau(&["solve", g, "--method", "dfpn-generic", "--json"]));
    assert_eq!(v["result"], "win");
    one_line_error(&plateau(&[
        "solve",
        "breakthrough(rows=5,columns=4,piece_rows=1)",
        "--method",
        "dfpn-generic",
        "--max-nodes",
        "10",
    ]));
}

/// `book build --exact` on a small Connect Four board: every entry proven, the solver's best first move among the
/// book's, the engine plays from it; `--exact` on another game is a one-line error.
#[test]
fn connect_four_exact_book() {
    let dir = std::env::temp_dir().join(format!("plateau-c4-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("c4.book");
    let f = file.to_str().unwrap();
    let g = "connect_four(rows=4,columns=5)";
    let v = json(&plateau(&["book", "build", g, "--exact", "--tt", "16mb", "--out", f, "--depth", "3", "--json"]));
    assert!(v["positions"].as_u64().unwrap() >= 2);
    let show = json(&plateau(&["book", "show", f, "--json"]));
    let moves = show["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| m["exact"] == true));
    let solved = json(&plateau(&["solve", g, "--json"]));
    let best = solved["best_move"].as_str().unwrap();
    assert!(moves.iter().any(|m| m["move"] == best), "{best} not in {moves:?}");
    // The solver's score and the book's agree in sign (win / draw / loss for the first player).
    let score = solved["score"].as_i64().unwrap();
    assert_eq!(moves[0]["score"].as_i64().unwrap().signum(), score.signum());
    let algo = format!("engine(book={f},book_seed=3)");
    let v = json(&plateau(&["search", g, "--algo", &algo, "--json"]));
    assert_eq!(v["nodes"], 1);
    assert!(moves.iter().any(|m| m["move"] == v["best_move"]));
    one_line_error(&plateau(&["book", "build", "no_such_game", "--exact", "--out", f]));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The committed exact Connect Four book agrees with `solved.json`: the first player wins only by starting in the
/// centre, with its 21st stone (Pons score +1: 41 plies), and every entry is proven.
#[test]
fn committed_connect_four_book_matches_the_reference() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/books/connect-four-7x6-exact.book");
    let v = json(&plateau(&["book", "show", file, "--json"]));
    assert_eq!(v["game"], "connect_four");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(moves[0]["move"], "4");
    assert_eq!(moves[0]["exact"], true);
    assert_eq!(moves[0]["score"].as_i64().unwrap(), 1_000_000 - 41);
    // After 4, Black's kept replies all lose.
    let v = json(&plateau(&["book", "show", file, "--moves", "4", "--json"]));
    let replies = v["moves"].as_array().unwrap();
    assert!(!replies.is_empty());
    assert!(replies.iter().all(|m| m["exact"] == true && m["score"].as_i64().unwrap() < 0));
}
