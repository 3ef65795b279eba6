//! A student's own engine against plateau (docs/write-an-engine.md): the example engines of `examples/engines/` play
//! short matches over UCI and UGI, the dialogue is the documented one (the full game string is sent), and a match
//! that cannot be played is refused before it starts.
//!
//! Needs `python3` and `gcc` (`.ci/run` installs gcc); a missing tool fails the test with a message saying so.

use crate::common::{json, plateau};
use std::path::PathBuf;
use std::process::Command;

fn example(name: &str) -> String {
    format!("{}/examples/engines/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("plateau_own_{}_{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn require(tool: &str) {
    let ok = Command::new(tool).arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    assert!(ok, "this test needs `{tool}` (install it: apt-get install {tool}; .ci/run does)");
}

/// A clean match: every game played to its end, no failure, no illegal move.
fn clean_match(v: &serde_json::Value, games: u64) {
    assert_eq!(v["games"], games);
    assert_eq!(v["failures"].as_array().unwrap().len(), 0, "failures: {}", v["failures"]);
    assert_eq!(v["time_forfeits"], 0);
}

#[test]
fn the_python_engine_plays_plateau_over_uci_and_ugi() {
    require("python3");
    let log = temp("uci.log");
    let cmd = format!("uci(cmd=env RANDOM_ENGINE_LOG={} python3 {})", log.display(), example("random_engine.py"));
    let game = "breakthrough(rows=6,columns=5)";
    let v = json(&plateau(&[
        "match",
        game,
        "--player",
        &cmd,
        "--player",
        "alphabeta(depth=1)",
        "--games",
        "4",
        "--movetime",
        "500ms",
        "--json",
    ]));
    clean_match(&v, 4);
    // The dialogue of docs/write-an-engine.md: the full game string, then position and go per move.
    let t = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = t.lines().collect();
    for want in [
        "> uci",
        "< uciok",
        "> setoption name UCI_Variant value breakthrough(rows=6,columns=5)",
        "> isready",
        "< readyok",
        "> ucinewgame",
        "> go movetime 500",
        "> quit",
    ] {
        assert!(lines.contains(&want), "missing '{want}' in the dialogue:\n{t}");
    }
    assert!(lines.iter().any(|l| l.starts_with("> position startpos moves ")), "{t}");
    assert!(lines.iter().any(|l| l.starts_with("< bestmove ")), "{t}");
    // UGI with a clock.
    let log = temp("ugi.log");
    let cmd = format!("ugi(cmd=env RANDOM_ENGINE_LOG={} python3 {})", log.display(), example("random_engine.py"));
    let v = json(&plateau(&[
        "match", game, "--player", "random", "--player", &cmd, "--games", "2", "--tc", "5s+0.1s", "--json",
    ]));
    clean_match(&v, 2);
    let t = std::fs::read_to_string(&log).unwrap();
    assert!(t.contains("> setoption name Game value breakthrough(rows=6,columns=5)"), "{t}");
    assert!(t.contains("> uginewgame") && t.contains("> go p1time "), "{t}");
    // The default board is plain `breakthrough`, the name Fairy-Stockfish knows.
    let log = temp("default.log");
    let cmd = format!("uci(cmd=env RANDOM_ENGINE_LOG={} python3 {})", log.display(), example("random_engine.py"));
    let v = json(&plateau(&[
        "match",
        "breakthrough",
        "--player",
        &cmd,
        "--player",
        "random",
        "--games",
        "1",
        "--movetime",
        "200ms",
        "--json",
    ]));
    clean_match(&v, 1);
    assert!(std::fs::read_to_string(&log).unwrap().contains("> setoption name UCI_Variant value breakthrough\n"));
}

#[test]
fn the_c_engine_compiles_and_plays() {
    require("gcc");
    let bin = temp("random_engine");
    let out = Command::new("gcc")
        .args(["-O2", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&bin)
        .arg(example("random_engine.c"))
        .output()
        .unwrap();
    assert!(out.status.success(), "gcc: {}", String::from_utf8_lossy(&out.stderr));
    for (game, dialect) in [
        ("breakthrough(rows=6,columns=5)", "uci"),
        ("breakthrough", "ugi"),
        ("breakthrough(rows=5,columns=4,piece_rows=1,forced_captures=true)", "uci"),
    ] {
        let cmd = format!("{dialect}(cmd={})", bin.display());
        let v = json(&plateau(&[
            "match",
            game,
            "--player",
            &cmd,
            "--player",
            "random",
            "--games",
            "4",
            "--movetime",
            "200ms",
            "--json",
        ]));
        clean_match(&v, 4);
    }
    let _ = std::fs::remove_file(&bin);
}

#[test]
fn a_match_that_cannot_be_played_is_refused_up_front() {
    let cmd = format!("uci(cmd=python3 {})", example("random_engine.py"));
    let t0 = std::time::Instant::now();
    let out = plateau(&["match", "breakthrough", "--player", &cmd, "--player", "random", "--games", "10"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a limit") && err.contains("--movetime"), "{err}");
    assert!(t0.elapsed().as_secs() < 5, "refused before playing");
    // The player's own limit is enough.
    let cmd = format!("uci(cmd=python3 {},depth=1)", example("random_engine.py"));
    let v = json(&plateau(&[
        "match",
        "breakthrough(rows=5,columns=4,piece_rows=1)",
        "--player",
        &cmd,
        "--player",
        "random",
        "--games",
        "2",
        "--json",
    ]));
    clean_match(&v, 2);
}

#[test]
fn the_python_dark_engine_plays_the_hidden_variant_from_the_referee_lines() {
    require("python3");
    let log = temp("dark.log");
    let cmd = format!("ugi(cmd=env DARK_ENGINE_LOG={} python3 {})", log.display(), example("dark_engine.py"));
    let game = "breakthrough(information=imperfect,rows=6,columns=5)";
    let v = json(&plateau(&[
        "match",
        game,
        "--player",
        &cmd,
        "--player",
        "random",
        "--games",
        "6",
        "--movetime",
        "500ms",
        "--random-plies",
        "0",
        "--json",
    ]));
    clean_match(&v, 6);
    // It advances its front piece and takes where it believes enemy pieces stand: it beats random.
    assert!(v["wins_a"].as_u64().unwrap() >= 4, "dark_engine.py won {} of 6 against random", v["wins_a"]);
    // The dialogue of docs/write-an-engine.md: the public start, its side, observations and legal moves, never a
    // move of the game.
    let t = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = t.lines().collect();
    for want in [
        "> ugi",
        "< ugiok",
        &format!("> setoption name Game value {game}"),
        "> position startpos",
        "> side p1",
        "> side p2",
    ] {
        assert!(lines.contains(&want), "missing '{want}' in the dialogue:\n{t}");
    }
    for prefix in
        ["> observation White's view", "> observation Black's view", "> legal ", "> go movetime 500", "< bestmove "]
    {
        assert!(lines.iter().any(|l| l.starts_with(prefix)), "no line '{prefix}...' in the dialogue:\n{t}");
    }
    assert!(!lines.iter().any(|l| l.starts_with("> position") && l.contains(" moves ")), "{t}");
}

#[test]
fn the_greedy_engine_written_from_the_page_plays_every_variant_and_beats_random() {
    require("python3");
    // UCI with its own movetime= and no match limit: the engine is asked `go movetime 100`, alphabeta searches 2 plies.
    let log = temp("greedy_uci.log");
    let cmd = format!(
        "uci(cmd=env GREEDY_ENGINE_LOG={} python3 {},movetime=100ms)",
        log.display(),
        example("greedy_engine.py")
    );
    let v = json(&plateau(&[
        "match",
        "breakthrough(rows=6,columns=5)",
        "--player",
        &cmd,
        "--player",
        "alphabeta(depth=2)",
        "--games",
        "4",
        "--json",
    ]));
    clean_match(&v, 4);
    let t = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = t.lines().collect();
    for want in [
        "> uci",
        "< option name UCI_Variant type combo default breakthrough var breakthrough",
        "< uciok",
        "> setoption name UCI_Variant value breakthrough(rows=6,columns=5)",
        "> ucinewgame",
        "> go movetime 100",
        "> quit",
    ] {
        assert!(lines.contains(&want), "missing '{want}' in the dialogue:\n{t}");
    }
    // One process for the whole match: one handshake, a new game per game.
    assert_eq!(lines.iter().filter(|l| **l == "> uci").count(), 1, "{t}");
    assert_eq!(lines.iter().filter(|l| **l == "> ucinewgame").count(), 4, "{t}");
    // UGI on the 8x8 board with a clock: one ply ahead is enough to beat random.
    let cmd = format!("ugi(cmd=python3 {})", example("greedy_engine.py"));
    let v = json(&plateau(&[
        "match",
        "breakthrough",
        "--player",
        &cmd,
        "--player",
        "random",
        "--games",
        "6",
        "--tc",
        "10s+0.1s",
        "--json",
    ]));
    clean_match(&v, 6);
    assert!(v["wins_a"].as_u64().unwrap() >= 5, "greedy_engine.py won {} of 6 against random", v["wins_a"]);
    // The variants of the page's rules: no illegal move under misère or forced captures.
    for game in [
        "breakthrough(rows=5,columns=4,piece_rows=1,misere=true)",
        "breakthrough(rows=6,columns=4,forced_captures=true)",
    ] {
        let v = json(&plateau(&[
            "match",
            game,
            "--player",
            &cmd,
            "--player",
            "random",
            "--games",
            "6",
            "--movetime",
            "300ms",
            "--json",
        ]));
        clean_match(&v, 6);
    }
}
