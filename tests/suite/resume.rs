//! Long runs that resume: `plateau match --record FILE --resume` plays only the games the file does not hold (and
//! ends as the uninterrupted match would have), the SPRT replays the recorded results first; `plateau spsa --out FILE
//! --resume` goes on from `FILE.checkpoint` to the same values as a run in one go.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::common::{BIN, json, one_line_error, tmpdir};
use plateau::arena::record::{read_games, read_results};

const GAME: &str = "breakthrough(rows=5,columns=5)";

/// A deterministic (node- and depth-limited) match of `games` games recorded to `rec`.
fn play(rec: &Path, players: [&str; 2], games: usize, extra: &[&str]) -> Output {
    Command::new(BIN)
        .args(["match", GAME, "--player", players[0], "--player", players[1], "--json", "--record"])
        .arg(rec)
        .args(["--games", &games.to_string()])
        .args(if extra.contains(&"--seed") { &[][..] } else { &["--seed", "3"][..] })
        .args(extra)
        .output()
        .unwrap()
}

/// The summary without what a run measures (times) or how it ran (`resumed_games`).
fn untimed(mut v: serde_json::Value) -> serde_json::Value {
    for k in ["seconds", "max_move_ms", "mean_move_ms", "resumed_games"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

/// The rounds, moves, results and terminations of a record file, in round order.
fn games_of(rec: &Path) -> Vec<(usize, Vec<String>, String, String)> {
    let mut g: Vec<_> = read_games(&std::fs::read_to_string(rec).unwrap())
        .unwrap()
        .into_iter()
        .map(|g| (g.round, g.moves, g.result, g.termination))
        .collect();
    g.sort_by_key(|x| x.0);
    g
}

/// One line on stderr, and a failure.
const PLAYERS: [&str; 2] = ["engine(nodes=300)", "alphabeta(depth=2)"];

#[test]
fn a_resumed_match_plays_the_games_of_an_uninterrupted_one() {
    let dir = tmpdir("match");
    let (whole, split, torn) = (dir.join("whole.pgn"), dir.join("split.pgn"), dir.join("torn.pgn"));
    let one_go = json(&play(&whole, PLAYERS, 8, &[]));
    assert_eq!((one_go["games"].as_u64(), one_go["resumed_games"].as_u64()), (Some(8), Some(0)));
    // 4 games, then the same match continued to 8.
    assert_eq!(json(&play(&split, PLAYERS, 4, &[]))["games"], 4);
    let resumed = json(&play(&split, PLAYERS, 8, &["--resume"]));
    assert_eq!(resumed["resumed_games"], 4);
    assert_eq!(games_of(&whole), games_of(&split));
    assert_eq!(read_results(&std::fs::read_to_string(&split).unwrap()).len(), 8);
    assert_eq!(untimed(one_go.clone()), untimed(resumed));
    // A file as a killed run with two games at a time leaves it: games 1, 2 and 4 whole (3 was in flight), game 5
    // cut short at the end. Resumed: 3, 5, 6, 7, 8 are played, the cut block is removed, the totals are the same.
    let text = std::fs::read_to_string(&whole).unwrap();
    let blocks: Vec<&str> = text.split("[Event ").filter(|b| !b.is_empty()).collect();
    assert_eq!(blocks.len(), 8);
    let keep = [0, 1, 3].map(|i| format!("[Event {}", blocks[i])).concat();
    std::fs::write(&torn, format!("{keep}[Event {}", &blocks[4][..blocks[4].len() / 2])).unwrap();
    let out = play(&torn, PLAYERS, 8, &["--resume", "--concurrency", "2"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cut short"), "{}", String::from_utf8_lossy(&out.stderr));
    let again = json(&out);
    assert_eq!(again["resumed_games"], 3);
    assert_eq!(games_of(&whole), games_of(&torn));
    assert_eq!(untimed(one_go.clone()), untimed(again));
    // A finished match resumed plays nothing and says so.
    let out = play(&split, PLAYERS, 8, &["--resume"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("already holds the 8 games"));
    assert_eq!(untimed(one_go), untimed(json(&out)));
    assert_eq!(games_of(&whole), games_of(&split));
    // A missing or empty file with --resume: the match starts from scratch.
    let fresh = dir.join("fresh.pgn");
    assert_eq!(json(&play(&fresh, PLAYERS, 2, &["--resume"]))["resumed_games"], 0);
    std::fs::write(&fresh, "").unwrap();
    assert_eq!(json(&play(&fresh, PLAYERS, 2, &["--resume"]))["games"], 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn files_of_other_matches_are_refused() {
    let dir = tmpdir("other");
    let rec = dir.join("m.pgn");
    json(&play(&rec, PLAYERS, 2, &[]));
    let before = std::fs::read_to_string(&rec).unwrap();
    let cases: [(&[&str], [&str; 2], &str); 6] = [
        (&["--resume", "--seed", "4"], PLAYERS, "not from this match"),
        (&["--resume"], ["engine(nodes=301)", PLAYERS[1]], "[White \"engine(nodes=300)\"]"),
        (&["--resume", "--movetime", "1s"], PLAYERS, "TimeControl"),
        (&["--resume", "--max-plies", "50"], PLAYERS, "MaxPlies"),
        (&["--resume", "--no-adjudicate"], PLAYERS, "Adjudicate"),
        (&["--resume", "--random-plies", "0"], PLAYERS, "[Opening "),
    ];
    for (extra, players, says) in cases {
        let err = one_line_error(&play(&rec, players, 4, extra));
        assert!(err.contains(says) && err.contains("m.pgn"), "{extra:?}: {err}");
    }
    let err = one_line_error(&play(&rec, PLAYERS, 1, &["--resume"]));
    assert!(err.contains("game 2, past --games 1"), "{err}");
    // Nothing refused touched the file.
    assert_eq!(std::fs::read_to_string(&rec).unwrap(), before);
    // A damaged file, a file with a game twice, --resume without --record.
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "[Event \"plateau match\"]\n[Round \"x\"]\n").unwrap();
    assert!(one_line_error(&play(&bad, PLAYERS, 4, &["--resume"])).contains("bad round"));
    std::fs::write(&bad, format!("{before}{before}")).unwrap();
    assert!(one_line_error(&play(&bad, PLAYERS, 4, &["--resume"])).contains("there twice"));
    std::fs::write(&bad, before.replace("[WhiteMaxMs", "[WhiteMax")).unwrap();
    assert!(one_line_error(&play(&bad, PLAYERS, 4, &["--resume"])).contains("no [WhiteMaxMs] tag"));
    let out = Command::new(BIN)
        .args(["match", GAME, "--player", "random", "--player", "random", "--resume"])
        .output()
        .unwrap();
    assert!(one_line_error(&out).contains("--resume needs --record"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_sprt_replays_the_recorded_results_first() {
    let dir = tmpdir("sprt");
    let (whole, split) = (dir.join("whole.pgn"), dir.join("split.pgn"));
    let players = ["alphabeta(depth=3)", "alphabeta(depth=1)"];
    let sprt = ["--sprt", "elo0=0,elo1=100,alpha=0.05,beta=0.05"];
    let one_go = json(&play(&whole, players, 60, &sprt));
    assert_eq!(one_go["stopped_early"], true, "{one_go}");
    let decided_at = one_go["sprt"]["games"].as_u64().unwrap();
    assert!(decided_at > 2, "{one_go}");
    // Stopped before the decision, then resumed: the test decides after the same game, with the same LLR.
    json(&play(&split, players, 2, &sprt));
    let resumed = json(&play(&split, players, 60, &[&sprt[..], &["--resume"]].concat()));
    assert_eq!(resumed["resumed_games"], 2);
    assert_eq!(untimed(one_go.clone()), untimed(resumed));
    assert_eq!(games_of(&whole), games_of(&split));
    // The file already decides it: nothing is played, the summary is the same.
    let out = play(&split, players, 60, &[&sprt[..], &["--resume"]].concat());
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.contains(&format!("already decides the SPRT (H1 after {decided_at} games")), "{err}");
    assert_eq!(untimed(one_go), untimed(json(&out)));
    assert_eq!(games_of(&whole), games_of(&split));
    std::fs::remove_dir_all(&dir).ok();
}

fn spsa(out: &Path, extra: &[&str]) -> Output {
    spsa_command(out, 6, extra).output().unwrap()
}

fn spsa_command(out: &Path, iterations: u32, extra: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(["spsa", "breakthrough(rows=6,columns=5)", "--engine", "engine(nodes=300,tt=1mb)"])
        .args(["--params", "rfp_margin,futility_margin,cost_capture"])
        .args(["--iterations", &iterations.to_string(), "--r-end", "0.05", "--out"])
        .arg(out)
        .args(if extra.contains(&"--seed") { &[][..] } else { &["--seed", "9"][..] })
        .args(extra);
    c
}

fn checkpoint(out: &Path) -> serde_json::Value {
    let path = format!("{}.checkpoint", out.display());
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn an_spsa_run_resumed_ends_with_the_values_of_a_run_in_one_go() {
    let dir = tmpdir("spsa");
    let (whole, split) = (dir.join("whole.txt"), dir.join("split.txt"));
    let ok = |o: Output| assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    ok(spsa(&whole, &[]));
    // Stopped after 3 of 6 iterations (no parameters file yet), then resumed to 6.
    let out = spsa(&split, &["--stop-after", "3"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("stopped after iteration 3 of 6"));
    assert!(!split.exists());
    assert_eq!(checkpoint(&split)["iteration"], 3);
    // Without --resume an unfinished run is not overwritten; with other settings it is not resumed.
    let err = one_line_error(&spsa(&split, &[]));
    assert!(err.contains("unfinished run (iteration 3 of 6)"), "{err}");
    let err = one_line_error(&spsa(&split, &["--resume", "--seed", "10"]));
    assert!(err.contains("its seed is `9`, this run's `10`"), "{err}");
    let out = spsa(&split, &["--resume"]);
    let log = String::from_utf8_lossy(&out.stderr).to_string();
    ok(out);
    assert!(log.contains("at iteration 3 of 6") && !log.contains("iteration     1"), "{log}");
    let (a, b) = (checkpoint(&whole), checkpoint(&split));
    assert_eq!(a["iteration"], 6);
    assert_eq!(a["theta_bits"], b["theta_bits"], "the same floats");
    assert_eq!(std::fs::read_to_string(&whole).unwrap(), std::fs::read_to_string(&split).unwrap());
    // The values moved (the test compares a real run, not the start values twice).
    let start: Vec<f64> = vec![90.0, 120.0, 3.0];
    assert_ne!(a["theta"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect::<Vec<_>>(), start);
    // --resume without --out.
    let out = Command::new(BIN).args(["spsa", GAME, "--resume"]).output().unwrap();
    assert!(one_line_error(&out).contains("need --out"));
    std::fs::remove_dir_all(&dir).ok();
}

/// Start `cmd`, wait until `ready()` holds, then kill the process (SIGKILL: it gets no chance to tidy up). False when
/// the process ended by itself first (the run was too short to be interrupted).
fn kill_when(mut cmd: Command, ready: impl Fn() -> bool) -> bool {
    let mut child = cmd.stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    while !ready() {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    true
}

#[test]
fn a_killed_match_keeps_its_games_and_resumes_to_the_same_match() {
    let dir = tmpdir("kill");
    let (whole, killed) = (dir.join("whole.pgn"), dir.join("killed.pgn"));
    let one_go = json(&play(&whole, PLAYERS, 40, &[]));
    // Two games at a time, killed once the file holds four games (one may be in flight, the last block cut).
    let mut cmd = Command::new(BIN);
    cmd.args(["match", GAME, "--player", PLAYERS[0], "--player", PLAYERS[1], "--record"]).arg(&killed).args([
        "--games",
        "40",
        "--seed",
        "3",
        "--concurrency",
        "2",
    ]);
    let held = || std::fs::read_to_string(&killed).map_or(0, |t| t.matches("[Event ").count());
    assert!(kill_when(cmd, || held() >= 4), "the match ended before it could be killed");
    let kept = held();
    assert!((4..40).contains(&kept), "{kept} games in the file at the kill");
    let resumed = json(&play(&killed, PLAYERS, 40, &["--resume"]));
    assert!(resumed["resumed_games"].as_u64().unwrap() >= 3, "{resumed}");
    assert_eq!(games_of(&whole), games_of(&killed));
    assert_eq!(untimed(one_go), untimed(resumed));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_killed_spsa_run_resumes_to_the_values_of_a_run_in_one_go() {
    let dir = tmpdir("spsa-kill");
    let (whole, killed) = (dir.join("whole.txt"), dir.join("killed.txt"));
    let ok = |o: Output| assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    ok(spsa_command(&whole, 40, &[]).output().unwrap());
    let reached = || {
        let text = std::fs::read_to_string(format!("{}.checkpoint", killed.display())).unwrap_or_default();
        serde_json::from_str::<serde_json::Value>(&text).ok().and_then(|v| v["iteration"].as_u64()).unwrap_or(0)
    };
    assert!(kill_when(spsa_command(&killed, 40, &[]), || reached() >= 2), "the run ended before it could be killed");
    let at = reached();
    assert!((2..40).contains(&at), "killed at iteration {at}");
    assert!(!killed.exists(), "no parameters file before the run ends");
    ok(spsa_command(&killed, 40, &["--resume"]).output().unwrap());
    assert_eq!(checkpoint(&whole)["theta_bits"], checkpoint(&killed)["theta_bits"], "the same floats");
    assert_eq!(std::fs::read_to_string(&whole).unwrap(), std::fs::read_to_string(&killed).unwrap());
    std::fs::remove_dir_all(&dir).ok();
}
