//! The server's fair queue for the CPU (`src/server/queue.rs`): with one place, a second search waits its turn (its
//! page is told, its clock not started), a third past the queue's length is refused at once with a one-line 503
//! (the game stays playable), and analyses take their turn in the same line.

use std::time::{Duration, Instant};

use crate::server::{call, events, json_of};
use axum::Router;
use axum::http::StatusCode;
use plateau::server::{Config, router};
use serde_json::{Value, json};

const BT5: &str = "breakthrough(rows=5,columns=5)";

async fn engine_game(app: &Router) -> u64 {
    let body = json!({"game": BT5, "players": ["engine(time=5s)", "human"]});
    let (s, st) = json_of(app, "POST", "/api/games", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    st["id"].as_u64().unwrap()
}

fn think(app: &Router, id: u64) -> tokio::task::JoinHandle<(StatusCode, String, Instant)> {
    let app = app.clone();
    tokio::spawn(async move {
        let (s, text) = call(&app, "GET", &format!("/api/games/{id}/think"), None).await;
        (s, text, Instant::now())
    })
}

async fn busy(app: &Router, id: u64) -> bool {
    json_of(app, "GET", &format!("/api/games/{id}"), None).await.1["busy"] == true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_wait_their_turn_and_a_full_queue_refuses() {
    let app = router(Config { jobs: 1, queue: 1, ..Config::default() });
    let (a, b, c) = (engine_game(&app).await, engine_game(&app).await, engine_game(&app).await);

    let first = think(&app, a);
    for _ in 0..200 {
        if busy(&app, a).await {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let second = think(&app, b);
    for _ in 0..200 {
        if busy(&app, b).await {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(busy(&app, b).await, "the second search was not taken");

    // The line is full (one runs, one waits): a third search and an analysis are refused at once, in one line.
    let (s, text) = call(&app, "GET", &format!("/api/games/{c}/think"), None).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{text}");
    assert!(text.contains("the server is busy") && !text.contains('\n'), "{text}");
    assert!(!busy(&app, c).await, "a refused search left its game busy");
    let tree = json!({"game": "tic_tac_toe", "algo": "minimax", "depth": 2});
    let (s, v) = json_of(&app, "POST", "/api/tree", Some(tree.clone())).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");

    // The first is stopped: it plays, then the second runs (it was told it waited), then it is stopped in turn.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (s, _) = json_of(&app, "POST", &format!("/api/games/{a}/stop"), None).await;
    assert_eq!(s, StatusCode::OK);
    let (s, text_a, a_ended) = first.await.unwrap();
    assert_eq!((s, events(&text_a, "done").len()), (StatusCode::OK, 1), "{text_a}");
    assert!(events(&text_a, "queued").is_empty(), "the first search found a free place: {text_a}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (s, _) = json_of(&app, "POST", &format!("/api/games/{b}/stop"), None).await;
    assert_eq!(s, StatusCode::OK);
    let (s, text_b, b_ended) = second.await.unwrap();
    assert_eq!((s, events(&text_b, "done").len()), (StatusCode::OK, 1), "{text_b}");
    assert_eq!(events(&text_b, "queued"), vec![json!({"ahead": 0})], "{text_b}");
    let queued_at = text_b.find("event: queued").unwrap();
    assert!(text_b.find("event: info").is_none_or(|i| i > queued_at), "an iteration before its turn: {text_b}");
    assert!(b_ended > a_ended);
    // Its search ran after the first ended: it has iterations (its clock started with its turn, not before).
    assert!(!events(&text_b, "info").is_empty(), "{text_b}");

    // The line is free again: the analysis and the third game's search run.
    let (s, v): (StatusCode, Value) = json_of(&app, "POST", "/api/tree", Some(tree)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let third = think(&app, c);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (s, _) = json_of(&app, "POST", &format!("/api/games/{c}/stop"), None).await;
    assert_eq!(s, StatusCode::OK);
    let (s, text_c, _) = third.await.unwrap();
    assert_eq!((s, events(&text_c, "done").len()), (StatusCode::OK, 1), "{text_c}");
}

/// A table whose player has its own huge budget (`mcts(playouts=999999999)`, beyond the node budget of a cell) stops
/// when the client goes away: with one place, the next request gets it at once instead of waiting for the search.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compare_stops_when_its_client_goes_away() {
    let app = router(Config { jobs: 1, ..Config::default() });
    let req = json!({"game": BT5, "algos": ["mcts(playouts=999999999)"], "depths": [1]});
    let asked = {
        let app = app.clone();
        tokio::spawn(async move { json_of(&app, "POST", "/api/compare", Some(req)).await })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!asked.is_finished(), "the table answered before its client left");
    asked.abort();
    let t0 = Instant::now();
    let tree = json!({"game": "tic_tac_toe", "algo": "minimax", "depth": 1});
    let (s, v) = json_of(&app, "POST", "/api/tree", Some(tree)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Far below the table's 30 s ceiling: the search stopped with its client.
    assert!(t0.elapsed() < Duration::from_secs(10), "the next request waited {:?}", t0.elapsed());
}

/// A human's half at a simultaneous node makes the other seat search for its own: with its own huge budget
/// (`smmcts(playouts=999999999)`), that search stops when the client goes away (issue 43, point 2): the next request
/// gets the one place at once, and the game holds the joint move, the other half being the best found so far.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_other_half_stops_when_its_client_goes_away() {
    let app = router(Config { jobs: 1, ..Config::default() });
    let body = json!({"game": "breakthrough(rows=5,columns=5,moves=simultaneous)",
                      "players": ["human", "smmcts(playouts=999999999)"]});
    let (s, st) = json_of(&app, "POST", "/api/games", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    let id = st["id"].as_u64().unwrap();
    let half = st["legal"][0]["move"].as_str().unwrap().to_string();
    let asked = {
        let app = app.clone();
        tokio::spawn(async move {
            json_of(&app, "POST", &format!("/api/games/{id}/move"), Some(json!({ "move": half }))).await
        })
    };
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert!(!asked.is_finished(), "the other half was chosen before its client left");
    asked.abort();
    let t0 = Instant::now();
    let tree = json!({"game": "tic_tac_toe", "algo": "minimax", "depth": 1});
    let (s, v) = json_of(&app, "POST", "/api/tree", Some(tree)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Far below the search's 60 s ceiling: it stopped with its client.
    assert!(t0.elapsed() < Duration::from_secs(10), "the next request waited {:?}", t0.elapsed());
    let (s, st) = json_of(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    assert!(st["moves"][0].as_str().is_some_and(|m| m.contains('/')), "the joint move was played: {st}");
}

/// The engine's move whose only page goes away (its stream closed after the first event) stops: with one place, the
/// next request gets it at once. At a simultaneous node between two players, both halves are searched the same way
/// (they were searched inside the handler, outside the queue, without a ceiling or a stop).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_think_stream_closed_stops_its_search() {
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let app = router(Config { jobs: 1, ..Config::default() });
    for (game, players) in [
        (BT5, ["engine(time=50s)", "human"]),
        (
            "breakthrough(rows=5,columns=5,moves=simultaneous)",
            ["smmcts(playouts=999999999)", "smmcts(playouts=999999999)"],
        ),
    ] {
        let (s, st) = json_of(&app, "POST", "/api/games", Some(json!({"game": game, "players": players}))).await;
        assert_eq!(s, StatusCode::OK, "{st}");
        let id = st["id"].as_u64().unwrap();
        let req = Request::builder().uri(format!("/api/games/{id}/think")).body(Body::empty()).unwrap();
        let res = app.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let mut body = res.into_body();
        if players[1] == "human" {
            // The engine reports its iterations: the first one says it is at work.
            let first = body.frame().await.expect("a first event").unwrap().into_data().unwrap();
            assert!(String::from_utf8_lossy(&first).contains("event"), "{first:?}");
        } else {
            tokio::time::sleep(Duration::from_millis(700)).await;
        }
        assert!(busy(&app, id).await, "{game}: the search runs");
        drop(body);
        let t0 = Instant::now();
        let tree = json!({"game": "tic_tac_toe", "algo": "minimax", "depth": 1});
        let (s, v) = json_of(&app, "POST", "/api/tree", Some(tree)).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert!(t0.elapsed() < Duration::from_secs(10), "{game}: the next request waited {:?}", t0.elapsed());
    }
}
