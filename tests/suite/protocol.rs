//! The `plateau uci` / `plateau ugi` loops, driven over pipes like a GUI would.

use crate::common::BIN;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// A running engine: send lines, wait for lines with a given prefix.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start plateau");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, rx }
    }
    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }
    /// Every line up to and including the first that starts with `prefix` (a generous guard against hangs).
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let l = self
                .rx
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no '{prefix}' line; got {seen:?}"));
            let done = l.starts_with(prefix);
            seen.push(l);
            if done {
                return seen;
            }
        }
    }
    fn last(&mut self, prefix: &str) -> String {
        self.until(prefix).pop().unwrap()
    }
    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

fn bestmove(line: &str) -> String {
    line.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn uci_handshake_and_search() {
    let mut e = Engine::start(&["uci", "--player", "alphabeta"]);
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name plateau")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("option name UCI_Variant type combo") && l.contains("var breakthrough"))
    );
    assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin")));
    assert!(lines.iter().any(|l| l.starts_with("option name Threads type spin")));
    e.send("setoption name UCI_Variant value breakthrough");
    e.send("setoption name Threads value 1");
    e.send("setoption name Hash value 16");
    e.send("isready");
    e.last("readyok");
    e.send("ucinewgame");
    e.send("position startpos moves a2a3 h7h6");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let info = lines.iter().find(|l| l.starts_with("info depth")).expect("an info line");
    for field in [" score cp ", " nodes ", " nps ", " pv "] {
        assert!(info.contains(field), "{info}");
    }
    let m = bestmove(lines.last().unwrap());
    // The reply is a White move: from rank 1..3 in this position.
    assert!(["1", "2", "3"].contains(&&m[1..2]), "{m}");
    e.quit();
}

#[test]
fn uci_clocks_fen_and_mate_scores() {
    let mut e = Engine::start(&["uci", "--player", "alphabeta"]);
    e.send("uci");
    e.until("uciok");
    // Fairy-Stockfish writes FENs with trailing fields.
    e.send("position fen pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1");
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    assert!(e.last("bestmove").len() > 9);
    e.send("position fen pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1");
    e.send("go nodes 500");
    e.last("bestmove");
    // White to move wins at once with a7b8 (or a7a8): mate in 1.
    e.send("position fen 1p6/P7/8/8/8/8/7p/8 w");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.contains("score mate 1")), "{lines:?}");
    assert!(["a7a8", "a7b8"].contains(&bestmove(lines.last().unwrap()).as_str()));
    e.quit();
}

#[test]
fn bad_input_gets_an_error_line_and_the_engine_stays_alive() {
    let mut e = Engine::start(&["uci", "--player", "alphabeta"]);
    e.send("uci");
    e.until("uciok");
    for bad in [
        "frobnicate",
        "position fen this-is-not-a-fen w",
        "position fen pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP x",
        "position fen 9/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w",
        "position startpos moves a2a3 a2a4",
        "position startpos moves e2e5",
        "position",
        "go depth banana",
        "go sideways",
        "setoption name UCI_Variant value chesss",
        "setoption name Hash value lots",
        "setoption name NoSuchOption value 1",
        "setoption",
    ] {
        e.send(bad);
        let l = e.last("info string error");
        assert!(l.len() > "info string error ".len(), "{bad}: {l}");
        e.send("isready");
        e.last("readyok");
    }
    // Bytes that are not UTF-8.
    e.stdin.write_all(b"\xff\xfe garbage\n").unwrap();
    e.last("info string error");
    e.send("isready");
    e.last("readyok");
    // An illegal move keeps the moves before it: after a2a3 it is Black's turn.
    e.send("position startpos moves a2a3 a2a4");
    e.last("info string error");
    e.send("go depth 2");
    let m = bestmove(&e.last("bestmove"));
    assert!(["6", "7"].contains(&&m[1..2]), "{m}");
    // A game that is over: bestmove (none).
    e.send("position fen P7/8/8/8/8/8/p7/8 b");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.quit();
}

#[test]
fn stop_ends_an_infinite_search() {
    let mut e = Engine::start(&["uci", "--player", "alphabeta"]);
    e.send("uci");
    e.until("uciok");
    e.send("position startpos");
    e.send("go infinite");
    e.send("isready");
    e.last("readyok");
    // Commands other than stop/isready/quit are refused while searching.
    e.send("position startpos moves a2a3");
    e.last("info string error");
    std::thread::sleep(Duration::from_millis(50));
    e.send("stop");
    let m = bestmove(&e.last("bestmove"));
    assert!(["1", "2"].contains(&&m[1..2]), "{m}");
    // And the engine goes on.
    e.send("go depth 1");
    e.last("bestmove");
    e.send("go infinite");
    e.quit();
}

#[test]
fn ugi_handshake_queries_and_other_boards() {
    let mut e = Engine::start(&["ugi", "breakthrough(rows=5,columns=4,piece_rows=1)", "--player", "alphabeta"]);
    e.send("ugi");
    let lines = e.until("ugiok");
    assert!(lines.iter().any(|l| l.starts_with("option name Game")), "{lines:?}");
    e.send("isready");
    e.last("readyok");
    e.send("uginewgame");
    e.send("position startpos");
    e.send("query p1turn");
    assert_eq!(e.last("response"), "response true");
    e.send("query gameover");
    assert_eq!(e.last("response"), "response false");
    e.send("query result");
    assert_eq!(e.last("response"), "response none");
    e.send("go p1time 1000 p2time 1000 p1inc 10 p2inc 10");
    let m = bestmove(&e.last("bestmove"));
    e.send(&format!("position startpos moves {m}"));
    e.send("query p1turn");
    assert_eq!(e.last("response"), "response false");
    // White reached the top row: p1 won.
    e.send("position fen P3/4/4/p3/4 b");
    e.send("query result");
    assert_eq!(e.last("response"), "response p1win");
    e.send("query gameover");
    assert_eq!(e.last("response"), "response true");
    e.send("query colour");
    e.last("info string error");
    e.send("setoption name Game value breakthrough");
    e.send("position startpos moves a2a3");
    e.send("go depth 2");
    e.last("bestmove");
    e.quit();
}

#[test]
fn the_engine_reports_every_iteration() {
    let mut e = Engine::start(&["uci", "--player", "engine"]);
    e.send("uci");
    e.until("uciok");
    e.send("setoption name Hash value 1");
    e.send("position startpos moves a2a3 h7h6");
    e.send("go depth 5");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    let depth = |l: &str| l.split_whitespace().nth(2).unwrap().parse::<u32>().unwrap();
    // One line per completed iteration (1..=5, the engine may stop early only on a proven result), then the final one.
    let per_iteration: Vec<u32> = infos.iter().filter(|l| l.contains(" seldepth ")).map(|l| depth(l)).collect();
    assert_eq!(per_iteration, vec![1, 2, 3, 4, 5], "{lines:?}");
    for l in infos.iter().filter(|l| l.contains(" seldepth ")) {
        for field in [" score cp ", " nodes ", " nps ", " time ", " hashfull ", " pv "] {
            assert!(l.contains(field), "{field} missing: {l}");
        }
    }
    // bestmove is the first move of the last reported principal variation.
    let last = infos.last().unwrap();
    let pv_first = last.split(" pv ").nth(1).unwrap().split_whitespace().next().unwrap();
    assert_eq!(bestmove(lines.last().unwrap()), pv_first);
    // On a clock the engine answers too (the clock reaches its own time plan).
    e.send("go wtime 2000 btime 2000 winc 20 binc 20");
    e.last("bestmove");
    e.send("go nodes 3000");
    e.last("bestmove");
    e.quit();
}

#[test]
fn ponder_waits_for_ponderhit_or_stop() {
    for player in ["alphabeta", "engine"] {
        let mut e = Engine::start(&["uci", "--player", player]);
        e.send("uci");
        e.until("uciok");
        e.send("position startpos moves a2a3");
        // Even a depth-1 ponder search keeps its answer until ponderhit.
        e.send("go ponder depth 1");
        std::thread::sleep(Duration::from_millis(100));
        e.send("isready");
        let lines = e.until("readyok");
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{player}: {lines:?}");
        e.send("ponderhit");
        let m = bestmove(&e.last("bestmove"));
        assert!(["7", "8"].contains(&&m[1..2]), "{m}");
        e.send("go ponder");
        e.send("stop");
        e.last("bestmove");
        e.quit();
    }
}

#[test]
fn ugi_bad_input_gets_an_error_line_and_the_engine_stays_alive() {
    let mut e = Engine::start(&["ugi", "--player", "engine"]);
    e.send("ugi");
    e.until("ugiok");
    for bad in [
        "frobnicate",
        "uci_is_not_ugi",
        "position fen this-is-not-a-fen w",
        "position fen pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP x",
        "position fen 8/8/8 w",
        "position startpos moves a2a3 a2a4",
        "position startpos moves a2a3 b7b6 zz",
        "position sideways",
        "go p1time soon",
        "go depth 0",
        "query",
        "query colour",
        "setoption name Game value chesss",
        "setoption name Hash value -3",
        "setoption name Threads value 0",
        "setoption name Player value alphabeta(dpth=3)",
        "setoption name NoSuchOption value 1",
        "setoption value 3",
    ] {
        e.send(bad);
        let l = e.last("info string error");
        assert!(l.len() > "info string error ".len(), "{bad}: {l}");
        e.send("isready");
        e.last("readyok");
    }
    // Still the same engine, still playing: after a2a3 b7b6 (the legal prefix) it is White's turn.
    e.send("position startpos moves a2a3 b7b6 zz");
    e.last("info string error");
    e.send("query p1turn");
    assert_eq!(e.last("response"), "response true");
    e.send("go p1time 1000 p2time 1000");
    let m = bestmove(&e.last("bestmove"));
    assert!(["1", "2", "3"].contains(&&m[1..2]), "{m}");
    // A search in progress refuses other commands with an error and still answers stop.
    e.send("go infinite");
    e.send("position startpos");
    e.last("info string error");
    e.send("stop");
    e.last("bestmove");
    e.quit();
}
