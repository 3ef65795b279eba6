//! `plateau uci chess` as a chess GUI drives it: standard UCI without `UCI_Variant`, `position startpos|fen ... moves`,
//! `go`, and a legal `bestmove` (a mate in one found and scored as `mate 1`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use crate::common::BIN;
use plateau::game::Capabilities;
use plateau::game::Game;
use plateau::games::Chess;

#[test]
fn standard_uci_session() {
    let mut child = Command::new(BIN)
        .args(["uci", "chess"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start plateau");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |line: &str| {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    };
    let until = |prefix: &str| -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let l = rx.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|_| panic!("no '{prefix}': {seen:?}"));
            let done = l.starts_with(prefix);
            seen.push(l);
            if done {
                return seen;
            }
        }
    };
    let g = Chess;
    send("uci");
    let hello = until("uciok");
    assert!(hello.iter().any(|l| l.contains("UCI_Variant") && l.contains("default chess")), "{hello:?}");
    send("isready");
    until("readyok");
    send("ucinewgame");
    for (position, fen, moves) in [
        ("position startpos moves e2e4 e7e5 g1f3", "startpos", "e2e4 e7e5 g1f3"),
        (
            "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "e1g1",
        ),
    ] {
        send(position);
        send("go depth 3");
        let best = until("bestmove").pop().unwrap();
        let mv = best.split_whitespace().nth(1).unwrap().to_string();
        let s = g.play_moves(&g.parse_position(fen).unwrap(), moves).unwrap();
        assert!(g.parse_move(&s, &mv).is_ok(), "{position}: {best} is not legal");
    }
    send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    send("go depth 3");
    let lines = until("bestmove");
    assert_eq!(lines.last().unwrap().split_whitespace().nth(1), Some("a1a8"), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("score mate 1")), "{lines:?}");
    send("quit");
    assert!(child.wait().unwrap().success());
}
