//! The live tournament view of `plateau serve --tournament` (issue 39, point 2): the API's standings are the CLI's
//! `--json` ones, a results file growing mid-run is picked up, the live file of a running tournament shows its games
//! in progress and goes at the end, a finished game replays from the record file, and no request can name a path.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use axum::Router;
use axum::http::StatusCode;
use plateau::arena::record::read_games;
use plateau::server::{Config, TournamentSource, router};
use plateau::tournament::live::{LiveFile, LiveGame, live_path, now_ms};
use serde_json::Value;

use crate::server::{call, json_of};

const BIN: &str = env!("CARGO_BIN_EXE_plateau");
const BT5: &str = "breakthrough(rows=5,columns=5)";

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("plateau-tourweb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn app(sources: &[(&Path, Option<&Path>)]) -> Router {
    let tournaments = sources
        .iter()
        .map(|(r, p)| TournamentSource { results: r.to_path_buf(), record: p.map(Path::to_path_buf) })
        .collect();
    router(Config { tournaments, ..Config::default() })
}

/// A finished 4-player tournament's files and `--json` summary.
fn small_tournament(dir: &Path) -> (PathBuf, PathBuf, Value) {
    small_tournament_with(dir, &[])
}

/// [`small_tournament`] with more flags.
fn small_tournament_with(dir: &Path, more: &[&str]) -> (PathBuf, PathBuf, Value) {
    let (results, record) = (dir.join("t.jsonl"), dir.join("t.pgn"));
    let out = Command::new(BIN)
        .args(["tournament", BT5, "--player", "r=random", "--player", "a1=alphabeta(depth=1)"])
        .args(["--player", "a2=alphabeta(depth=2)", "--player", "m=mcts(playouts=20)", "--rounds", "2", "--json"])
        .args(more)
        .arg("--results")
        .arg(&results)
        .arg("--record")
        .arg(&record)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (results, record, serde_json::from_slice(&out.stdout).unwrap())
}

async fn refused(app: &Router, uri: &str, status: StatusCode, words: &str) -> String {
    let (s, v) = json_of(app, "GET", uri, None).await;
    assert_eq!(s, status, "{uri}: {v}");
    let e = v["error"].as_str().unwrap_or_else(|| panic!("no error field: {v}")).to_string();
    assert!(!e.contains('\n') && e.contains(words), "{uri}: '{e}' lacks '{words}'");
    e
}

#[tokio::test]
async fn the_view_is_the_cli_standings_and_a_finished_game_replays() {
    let dir = tmpdir("equal");
    let (results, record, cli) = small_tournament(&dir);
    assert!(!live_path(&results).exists(), "the live file stays after the end");
    let app = app(&[(&results, Some(&record))]);
    let (s, list) = json_of(&app, "GET", "/api/tournaments", None).await;
    assert_eq!(s, StatusCode::OK, "{list}");
    let item = &list["tournaments"][0];
    assert_eq!((item["id"].as_u64(), item["name"].as_str()), (Some(1), Some("t.jsonl")));
    assert_eq!(item["tournament"], cli["tournament"]);
    assert_eq!((item["finished"].as_u64(), item["games"].as_u64()), (Some(24), Some(24)));
    let (s, v) = json_of(&app, "GET", "/api/tournaments/1", None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    for key in ["standings", "crosstable", "failures", "rating", "games", "finished", "tournament", "game", "schedule"]
    {
        assert_eq!(v[key], cli[key], "{key} differs from plateau tournament --json");
    }
    assert_eq!((v["running"].as_bool(), v["playing"].as_array().map(Vec::len)), (Some(false), Some(0)));
    assert_eq!(v["results"].as_array().unwrap().len(), 24);
    assert_eq!(v["replayable"], true);
    // Game 5 replayed: the record file's moves, one position more than moves.
    let text = std::fs::read_to_string(&record).unwrap();
    let recorded = read_games(&text).unwrap().into_iter().find(|g| g.round == 5).unwrap();
    let (s, r) = json_of(&app, "GET", "/api/tournaments/1/games/5", None).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let g = &r["games"][0];
    assert_eq!(g["moves"], serde_json::json!(recorded.moves));
    assert_eq!(g["positions"].as_array().unwrap().len(), recorded.moves.len() + 1);
    assert_eq!(g["result"], recorded.result.as_str());
    refused(&app, "/api/tournaments/1/games/25", StatusCode::NOT_FOUND, "neither finished nor in progress").await;
    // Without the record file: no replay, said in one line.
    let bare = self::app(&[(&results, None)]);
    refused(&bare, "/api/tournaments/1/games/5", StatusCode::NOT_FOUND, "no record file").await;
}

#[tokio::test]
async fn the_anchor_is_kept_in_the_results_file_and_the_view_rates_with_it() {
    let dir = tmpdir("anchor");
    let (results, _, cli) = small_tournament_with(&dir, &["--anchor", "r=1000"]);
    assert_eq!(cli["rating"]["anchor"], serde_json::json!(["r", 1000.0]), "{}", cli["rating"]);
    let app = app(&[(&results, None)]);
    let (s, v) = json_of(&app, "GET", "/api/tournaments/1", None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["rating"], cli["rating"]);
    assert_eq!(v["standings"], cli["standings"]);
    let r = v["standings"].as_array().unwrap().iter().find(|row| row["name"] == "r").unwrap();
    assert_eq!(r["elo"].as_f64(), Some(1000.0), "{r}");
    // Resumed with another anchor: the header keeps the new one (the same tournament, the games untouched).
    let before = std::fs::read_to_string(&results).unwrap();
    let out = Command::new(BIN)
        .args(["tournament", BT5, "--player", "r=random", "--player", "a1=alphabeta(depth=1)"])
        .args(["--player", "a2=alphabeta(depth=2)", "--player", "m=mcts(playouts=20)", "--rounds", "2", "--json"])
        .args(["--anchor", "a2=500", "--resume", "--results"])
        .arg(&results)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let after = std::fs::read_to_string(&results).unwrap();
    assert_ne!(before.lines().next(), after.lines().next());
    assert_eq!(before.lines().skip(1).collect::<Vec<_>>(), after.lines().skip(1).collect::<Vec<_>>());
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (_, v) = json_of(&app, "GET", "/api/tournaments/1", None).await;
    assert_eq!(v["rating"]["anchor"], serde_json::json!(["a2", 500.0]));
    assert_eq!(v["standings"], again["standings"]);
    assert_eq!(v["tournament"], cli["tournament"], "another anchor is the same tournament");
}

#[tokio::test]
async fn a_growing_results_file_and_its_live_file_are_picked_up() {
    let dir = tmpdir("grow");
    let (full, _, cli) = small_tournament(&dir);
    let text = std::fs::read_to_string(&full).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let results = dir.join("growing.jsonl");
    let app = app(&[(&results, None)]);
    // No file yet: waiting, no error.
    let (s, v) = json_of(&app, "GET", "/api/tournaments/1", None).await;
    assert_eq!((s, v["tournament"].clone(), v["finished"].as_u64()), (StatusCode::OK, Value::Null, Some(0)));
    // The header and 5 games, then a line cut short (being written): 5 finished.
    std::fs::write(&results, format!("{}\n{}\n{}", lines[0], lines[1..6].join("\n"), &lines[6][..10])).unwrap();
    let (_, v) = json_of(&app, "GET", "/api/tournaments/1", None).await;
    assert_eq!(v["finished"].as_u64(), Some(5), "{v}");
    assert_eq!(v["tournament"], cli["tournament"]);
    let points: f64 = v["standings"].as_array().unwrap().iter().map(|r| r["points"].as_f64().unwrap()).sum();
    assert_eq!(points, 5.0);
    // A live file of this tournament: game 12 (not finished) in progress, game 2 (finished) left out.
    let id = cli["tournament"].as_str().unwrap().to_string();
    let game = |id: usize, moves: &[&str]| LiveGame {
        id,
        round: 1,
        white: "r".into(),
        black: "a1".into(),
        fen: None,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    };
    let live = |updated_ms: u64, tournament: &str| LiveFile {
        plateau_live: 1,
        tournament: tournament.into(),
        updated_ms,
        playing: vec![game(2, &[]), game(12, &["a2a3", "b4b3"])],
    };
    std::fs::write(live_path(&results), serde_json::to_vec(&live(now_ms(), &id)).unwrap()).unwrap();
    // The file grows by the rest of line 7 and 3 more games.
    std::fs::write(&results, format!("{}\n{}\n", lines[0], lines[1..10].join("\n"))).unwrap();
    let (_, v) = json_of(&app, "GET", "/api/tournaments/1", None).await;
    assert_eq!(v["finished"].as_u64(), Some(9), "{v}");
    assert_eq!(v["running"], true);
    let playing = v["playing"].as_array().unwrap();
    assert_eq!(playing.len(), 1, "{v}");
    assert_eq!((playing[0]["id"].as_u64(), playing[0]["moves"][1].as_str()), (Some(12), Some("b4b3")));
    // Game 12 in progress replays from its moves so far (no record file needed): 3 positions, result `*`.
    let (s, r) = json_of(&app, "GET", "/api/tournaments/1/games/12", None).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(
        (r["games"][0]["positions"].as_array().map(Vec::len), r["games"][0]["result"].as_str()),
        (Some(3), Some("*"))
    );
    refused(&app, "/api/tournaments/1/games/13", StatusCode::NOT_FOUND, "neither finished nor in progress").await;
    // A stale live file (a killed tournament) or another tournament's: not running, nothing in progress.
    for (when, whose) in [(now_ms() - 60_000, id.as_str()), (now_ms(), "0123456789abcdef")] {
        std::fs::write(live_path(&results), serde_json::to_vec(&live(when, whose)).unwrap()).unwrap();
        std::thread::sleep(Duration::from_millis(1100));
        let (_, v) = json_of(&app, "GET", "/api/tournaments/1", None).await;
        assert_eq!((v["running"].as_bool(), v["playing"].as_array().map(Vec::len)), (Some(false), Some(0)), "{v}");
    }
}

#[tokio::test]
async fn a_running_tournament_shows_its_games_in_progress() {
    let dir = tmpdir("running");
    let (results, record) = (dir.join("t.jsonl"), dir.join("t.pgn"));
    let mut child = Command::new(BIN)
        .args(["tournament", BT5, "--player", "a=mcts(playouts=30000)", "--player", "b=mcts(playouts=20000)"])
        .arg("--results")
        .arg(&results)
        .arg("--record")
        .arg(&record)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let app = app(&[(&results, Some(&record))]);
    let start = Instant::now();
    let mut seen = None;
    while seen.is_none() && start.elapsed() < Duration::from_secs(120) {
        let (_, v) = json_of(&app, "GET", "/api/tournaments/1", None).await;
        if v["running"] == true && v["playing"].as_array().is_some_and(|p| p.iter().any(|g| g["moves"][2].is_string()))
        {
            seen = Some(v);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = child.wait().unwrap();
    assert!(status.success());
    let v = seen.expect("the view never showed a game in progress with its moves");
    let g = &v["playing"][0];
    assert!(["a", "b"].contains(&g["white"].as_str().unwrap()), "{g}");
    assert!(!live_path(&results).exists(), "the live file stays after the end");
    std::thread::sleep(Duration::from_millis(1100));
    let (_, v) = json_of(&app, "GET", "/api/tournaments/1", None).await;
    assert_eq!((v["running"].as_bool(), v["finished"].as_u64()), (Some(false), Some(2)), "{v}");
}

#[tokio::test]
async fn no_request_names_a_path_and_errors_quote_no_file() {
    let dir = tmpdir("paths");
    let results = dir.join("bad.jsonl");
    std::fs::write(&results, "SECRET-WORD is not a header\n").unwrap();
    let app = app(&[(&results, None)]);
    let e = refused(&app, "/api/tournaments/1", StatusCode::BAD_REQUEST, "not a results file").await;
    assert!(!e.contains("SECRET"), "{e}");
    let (_, list) = json_of(&app, "GET", "/api/tournaments", None).await;
    assert!(list["tournaments"][0]["error"].as_str().is_some_and(|e| !e.contains("SECRET")), "{list}");
    for uri in ["/api/tournaments/..%2F..%2Fetc%2Fpasswd", "/api/tournaments/%2Fetc%2Fpasswd", "/api/tournaments/0"] {
        refused(&app, uri, StatusCode::BAD_REQUEST, "bad tournament number").await;
    }
    refused(&app, "/api/tournaments/1/games/x.pgn", StatusCode::BAD_REQUEST, "bad game id").await;
    refused(&app, "/api/tournaments/2", StatusCode::NOT_FOUND, "no tournament 2").await;
    let (s, _) = call(&app, "GET", "/api/tournaments/..%2Fbad.jsonl/games/1", None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let none = router(Config::default());
    refused(&none, "/api/tournaments/1", StatusCode::NOT_FOUND, "without --tournament").await;
    let (_, list) = json_of(&none, "GET", "/api/tournaments", None).await;
    assert_eq!(list["tournaments"], serde_json::json!([]));
    // The operator's path must be a file (or not there yet).
    let out = Command::new(BIN).args(["serve", "--port", "0", "--tournament"]).arg(&dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("not a regular file"), "{err}");
}
