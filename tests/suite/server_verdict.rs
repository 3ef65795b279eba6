//! `POST /api/verdict` (`src/server/verdict.rs`, `connect4.rs`): Connect Four's mirror symmetry, every move's cell
//! filled with what the solver proved (Breakthrough's win/loss and distance of each move), the progress streamed line
//! by line, the ceiling, and the solver stopped when its client goes away.

use std::time::{Duration, Instant};

use crate::server::{call, json_of};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use plateau::server::{Config, router};
use serde_json::{Value, json};
use tower::ServiceExt;

fn cell<'a>(v: &'a Value, mv: &str) -> &'a Value {
    v["moves"].as_array().unwrap().iter().find(|c| c["move"] == mv).unwrap_or_else(|| panic!("no cell {mv}: {v}"))
}

/// After `4` the position is its own mirror image: column 5 has column 3's score (the book holds 3 only), whatever
/// else the short ceiling leaves unknown; every unknown cell says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connect_four_columns_take_their_mirror_image_s_score() {
    let app = router(Config::default());
    let body = json!({"game": "connect_four", "moves": ["4"], "seconds": 2});
    let (s, v) = json_of(&app, "POST", "/api/verdict", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["symmetric"], true, "{v}");
    let (three, five) = (cell(&v, "3"), cell(&v, "5"));
    assert_eq!((three["score"].as_i64(), &three["source"]), (Some(-2), &json!("book")), "{v}");
    assert_eq!((&five["score"], &five["result"], &five["plies"]), (&three["score"], &three["result"], &three["plies"]));
    assert_eq!((&five["source"], &five["mirror_of"]), (&json!("mirror"), &json!("3")), "{v}");
    for c in v["moves"].as_array().unwrap() {
        match c["result"].as_str().unwrap() {
            "unknown" => assert!(c["why"] == "stopped" || c["why"] == "budget", "{c}"),
            "win" | "loss" => assert!(c["plies"].as_u64().is_some_and(|p| p > 0), "{c}"),
            r => panic!("{r}: {c}"),
        }
    }
    // `4 4 4 4 3 3 5 5` is its own mirror image too: columns 2 and 6 both win at once, in 1 ply.
    let body = json!({"game": "connect_four", "moves": ["4", "4", "4", "4", "3", "3", "5", "5"]});
    let (s, v) = json_of(&app, "POST", "/api/verdict", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["symmetric"], true);
    for c in ["2", "6"] {
        assert_eq!((&cell(&v, c)["result"], &cell(&v, c)["plies"]), (&json!("win"), &json!(1)), "{v}");
    }
    // A position that is not symmetric: no mirror cells.
    let body = json!({"game": "connect_four", "moves": ["4", "3"], "seconds": 2});
    let (s, v) = json_of(&app, "POST", "/api/verdict", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["symmetric"], false);
    assert!(v["moves"].as_array().unwrap().iter().all(|c| c["source"] != "mirror"), "{v}");
}

/// A small Breakthrough board: every move's cell holds the solver's win or loss and its exact distance, mirror moves
/// share their twin's, and the position's value is the best cell's (the fastest win).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakthrough_fills_every_move_s_cell_with_its_distance() {
    let app = router(Config::default());
    let body = json!({"game": "breakthrough(rows=5,columns=4,piece_rows=1)"});
    let (s, v) = json_of(&app, "POST", "/api/verdict", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let cells = v["moves"].as_array().unwrap();
    assert_eq!(cells.len(), 10, "{v}");
    assert_eq!((&v["decided"], &v["stopped"]), (&json!(10), &json!(false)), "{v}");
    for c in cells {
        assert!(c["result"] == "win" || c["result"] == "loss", "{c}");
        let plies = c["plies"].as_u64().unwrap_or_else(|| panic!("no distance: {c}"));
        // The mover wins on its own plies (odd), loses on the opponent's (even).
        assert_eq!(plies % 2 == 1, c["result"] == "win", "{c}");
        if c["source"] == "mirror" {
            let twin = cell(&v, c["mirror_of"].as_str().unwrap());
            assert_eq!((&twin["result"], &twin["plies"]), (&c["result"], &c["plies"]), "{c}");
        }
    }
    assert_eq!(v["result"], "win", "{v}");
    let fastest = cells.iter().filter(|c| c["result"] == "win").filter_map(|c| c["plies"].as_u64()).min();
    assert_eq!(v["plies"].as_u64(), fastest, "{v}");
    assert_eq!(cell(&v, v["best_move"].as_str().unwrap())["plies"].as_u64(), fastest);
    let winning: Vec<&Value> = cells.iter().filter(|c| c["result"] == "win").map(|c| &c["move"]).collect();
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), winning.len(), "{v}");
}

/// The stream: one JSON line per event, each decided cell as a `move` line with its count, the verdict last.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_progress_is_streamed_cell_by_cell() {
    let app = router(Config::default());
    let body = json!({"game": "breakthrough(rows=5,columns=4,piece_rows=1)", "stream": true});
    let (s, text) = call(&app, "POST", "/api/verdict", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{text}");
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    let last = lines.last().unwrap();
    assert_eq!(last["event"], "verdict", "{text}");
    let moves: Vec<&Value> = lines.iter().filter(|l| l["event"] == "move").collect();
    // The ten proofs, then the ten distances.
    assert_eq!(moves.len(), 20, "{text}");
    assert!(moves.iter().all(|m| m["total"] == 10 && m["cell"]["result"] != "unknown"), "{text}");
    assert_eq!(moves[9]["done"], 10);
    assert!(lines.iter().any(|l| l["event"] == "stage"), "{text}");
    assert_eq!(last["verdict"]["decided"], 10);
}

/// The ceiling: Breakthrough 8x8 is not solved in a second; the answer comes soon after, every cell unknown because
/// it was stopped. Out of range is refused in one line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verdict_stops_at_its_ceiling() {
    let app = router(Config::default());
    let t0 = Instant::now();
    let (s, v) = json_of(&app, "POST", "/api/verdict", Some(json!({"game": "breakthrough", "seconds": 1}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(t0.elapsed() < Duration::from_secs(15), "{:?}", t0.elapsed());
    assert_eq!((&v["stopped"], &v["result"]), (&json!(true), &Value::Null), "{v}");
    let cells = v["moves"].as_array().unwrap();
    assert_eq!(cells.len(), 22);
    assert!(cells.iter().all(|c| c["result"] == "unknown" && c["why"] == "stopped"), "{v}");
    for n in [0, 121] {
        let (s, v) = json_of(&app, "POST", "/api/verdict", Some(json!({"game": "tic_tac_toe", "seconds": n}))).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains("1 to 120 seconds"), "{v}");
    }
}

/// The ceiling counts from the verdict's turn in the queue, as a search's clock does: behind another 2-second
/// verdict holding the one place, a 2-second verdict still gets its 2 seconds (it was stopped at once when its turn
/// came, its ceiling spent waiting).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verdict_s_ceiling_starts_at_its_turn() {
    let app = router(Config { jobs: 1, ..Config::default() });
    let ask = || {
        let app = app.clone();
        tokio::spawn(async move {
            let t0 = Instant::now();
            let answer =
                json_of(&app, "POST", "/api/verdict", Some(json!({"game": "breakthrough", "seconds": 2}))).await;
            (answer, t0.elapsed())
        })
    };
    let first = ask();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let second = ask();
    for (n, task) in [first, second].into_iter().enumerate() {
        let ((s, v), took) = task.await.unwrap();
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["stopped"], true, "{v}");
        // Lower bounds only: a loaded machine makes both later, never earlier.
        let least = if n == 0 { 1.9 } else { 3.5 };
        assert!(took.as_secs_f64() >= least, "verdict {n} answered after {took:?}");
    }
}

/// With one place for the CPU, a verdict whose client leaves (a plain request, then a stream closed after its first
/// line) stops at once: the next request gets the place long before the 30 s ceiling.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verdict_stops_when_its_client_goes_away() {
    let app = router(Config { jobs: 1, ..Config::default() });
    let asked = {
        let app = app.clone();
        tokio::spawn(async move { json_of(&app, "POST", "/api/verdict", Some(json!({"game": "breakthrough"}))).await })
    };
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert!(!asked.is_finished(), "the verdict answered before its client left");
    asked.abort();
    let tree = json!({"game": "tic_tac_toe", "algo": "minimax", "depth": 1});
    let t0 = Instant::now();
    let (s, v) = json_of(&app, "POST", "/api/tree", Some(tree.clone())).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(t0.elapsed() < Duration::from_secs(10), "the next request waited {:?}", t0.elapsed());

    // The stream: read its first line, then close it.
    let req = Request::builder()
        .method("POST")
        .uri("/api/verdict")
        .header("content-type", "application/json")
        .body(Body::from(json!({"game": "breakthrough", "stream": true}).to_string()))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let mut body = res.into_body();
    let first = body.frame().await.expect("a first line").unwrap().into_data().unwrap();
    assert!(String::from_utf8_lossy(&first).contains("\"event\""), "{first:?}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    drop(body);
    let t0 = Instant::now();
    let (s, v) = json_of(&app, "POST", "/api/tree", Some(tree)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(t0.elapsed() < Duration::from_secs(10), "the next request waited {:?}", t0.elapsed());
}
