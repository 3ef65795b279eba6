//! Games of chance over UGI (`src/protocol/chance.rs`): dice outcomes are moves announced by the referee, moves with
//! spaces travel with commas, `go` at a chance node is refused; the arena drives `plateau ugi` on backgammon and Pig.

use crate::common::BIN;
use std::io::Write;
use std::process::{Command, Stdio};

/// The output lines of `plateau ugi GAME` fed `input` (commands before a `go` are handled before it starts).
fn ugi(game: &str, input: &str) -> Vec<String> {
    let mut child = Command::new(BIN)
        .args(["ugi", game])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("plateau runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("output");
    String::from_utf8(out.stdout).expect("utf-8").lines().map(str::to_string).collect()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string error")).collect()
}

#[test]
fn backgammon_rolls_are_moves_and_moves_are_words() {
    let lines = ugi("backgammon", "position startpos moves x:3-1 8/5,6/5 6-6\ngo depth 2\n");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let best = lines.iter().find_map(|l| l.strip_prefix("bestmove ")).expect("bestmove").to_string();
    assert!(best != "(none)" && !best.contains(' '), "{best}");
    // The answer is legal: the first half of O's 6-6 (a double is two decisions), from the position given.
    let lines = ugi("backgammon", &format!("position startpos moves x:3-1 8/5,6/5 6-6 {best}\nquery fen\n"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("response x=") && l.ends_with(" o66.2")), "{lines:?}");
}

#[test]
fn go_at_a_chance_node_and_bad_dice_are_one_line_errors() {
    for (game, input) in
        [("backgammon", "position startpos\ngo depth 2\n"), ("pig", "position startpos moves roll\ngo depth 2\n")]
    {
        let lines = ugi(game, input);
        let e = errors(&lines);
        assert_eq!(e.len(), 1, "{lines:?}");
        assert!(e[0].contains("chance node"), "{}", e[0]);
        assert!(lines.iter().any(|l| l == "bestmove (none)"), "{lines:?}");
    }
    for bad in ["x:7-1", "x:3-3", "3-1", "x:3-1 24/1", "x:3-1 8/5,6/5 6-6 bar/19"] {
        let lines = ugi("backgammon", &format!("position startpos moves {bad}\nisready\n"));
        let e = errors(&lines);
        assert_eq!(e.len(), 1, "{bad}: {lines:?}");
        assert!(e[0].contains("move "), "{}", e[0]);
        assert!(lines.iter().any(|l| l == "readyok"), "{lines:?}");
    }
    let lines = ugi("pig", "position startpos moves roll 7\nisready\n");
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
}

/// `plateau match GAME --player A --player B --games N`: (A's wins, B's wins, the whole output).
fn match_result(game: &str, a: &str, b: &str, games: u32) -> (u32, u32, String) {
    let out = Command::new(BIN)
        .args(["match", game, "--player", a, "--player", b, "--games", &games.to_string()])
        .output()
        .expect("plateau match runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    let line = text.lines().find(|l| l.starts_with(&format!("games {games} "))).expect("summary line").to_string();
    let count = |key: &str| -> u32 {
        let w: Vec<&str> = line.split_whitespace().collect();
        let i = w.windows(2).position(|p| p == [key, "wins"]).expect("wins") + 2;
        w[i].parse().expect("count")
    };
    (count("A"), count("B"), text)
}

#[test]
fn the_arena_drives_plateau_ugi_on_backgammon_and_pig() {
    let engine = |depth: u32| format!("ugi(cmd={BIN} ugi,depth={depth})");
    let (a, b, text) = match_result("backgammon", &engine(2), "random", 6);
    assert_eq!(a + b, 6, "{text}");
    assert!(a >= 5, "the external engine should beat random at backgammon: {text}");
    assert!(!text.contains("illegal") && !text.contains("forfeit: 1"), "{text}");
    let (a, b, text) = match_result("pig(target=30)", &engine(6), "random", 10);
    assert_eq!(a + b, 10, "{text}");
    assert!(a >= 7, "the external engine should beat random at Pig: {text}");
    // Against the same engine built in: both sides play real games (no crash, no illegal move).
    let (a, b, text) = match_result("backgammon", &engine(2), "engine(depth=2)", 4);
    assert_eq!(a + b, 4, "{text}");
}
