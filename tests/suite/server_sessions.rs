//! Games on the web server that survive: undo, stop and delete at any moment, also while the engine thinks (the search
//! is cancelled, the state stays consistent, every watching page gets the end of its stream), a game restored by its
//! id (a reload, a second tab joining the running search), and the bounds of the game table (full: a one-line 503;
//! an idle game expires: a 404 saying so; a game whose engine thinks does not).

use std::time::{Duration, Instant};

use crate::server::{call, events, json_of};
use axum::Router;
use axum::http::StatusCode;
use plateau::server::{Config, router};
use serde_json::{Value, json};

/// A think stream running in the background: its status, its whole text and how long it took, when awaited.
fn think(app: &Router, id: u64) -> tokio::task::JoinHandle<(StatusCode, String, Duration)> {
    let app = app.clone();
    tokio::spawn(async move {
        let t0 = Instant::now();
        let (s, text) = call(&app, "GET", &format!("/api/games/{id}/think"), None).await;
        (s, text, t0.elapsed())
    })
}

/// Wait until the game `id` says its engine thinks.
async fn until_busy(app: &Router, id: u64) {
    for _ in 0..100 {
        let (_, st) = json_of(app, "GET", &format!("/api/games/{id}"), None).await;
        if st["busy"] == true {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("game {id} never became busy");
}

const BT5: &str = "breakthrough(rows=5,columns=5)";
/// An engine that would think 5 s a move: every test below ends it much sooner.
const SLOW: &str = "engine(time=5s)";

async fn new_game(app: &Router, game: &str, players: [&str; 2]) -> (u64, Value) {
    let (s, st) = json_of(app, "POST", "/api/games", Some(json!({"game": game, "players": players}))).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    (st["id"].as_u64().unwrap(), st)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_stop_and_delete_while_the_engine_thinks() {
    let app = router(Config::default());
    let (id, _) = new_game(&app, BT5, ["human", SLOW]).await;
    let uri = |what: &str| format!("/api/games/{id}{what}");

    // Undo 300 ms into a 5 s search: the search is cancelled, the human's move taken back, the engine's never played.
    let (s, st) = json_of(&app, "POST", &uri("/move"), Some(json!({"move": "a2a3"}))).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    let watcher = think(&app, id);
    until_busy(&app, id).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (s, st) = json_of(&app, "POST", &uri("/undo"), None).await;
    assert_eq!(s, StatusCode::OK, "undo while thinking: {st}");
    assert_eq!((st["ply"].as_u64(), &st["busy"], &st["human_to_move"]), (Some(0), &json!(false), &json!(true)));
    let (s, text, took) = watcher.await.unwrap();
    assert_eq!(s, StatusCode::OK);
    let cancelled = events(&text, "cancelled");
    assert_eq!(cancelled.len(), 1, "the stream ends with 'cancelled': {text}");
    assert_eq!(cancelled[0]["ply"], 0, "{text}");
    assert!(events(&text, "done").is_empty(), "a cancelled search played: {text}");
    assert!(took < Duration::from_secs(4), "the cancelled search ran {took:?}");
    // Its move never arrives later either; the game goes on from the start.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (_, st) = json_of(&app, "GET", &uri(""), None).await;
    assert_eq!((st["ply"].as_u64(), &st["busy"]), (Some(0), &json!(false)), "{st}");

    // Stop: the engine plays its best move so far, at once, to every page watching (a second one joined).
    let (s, _) = json_of(&app, "POST", &uri("/move"), Some(json!({"move": "b2b3"}))).await;
    assert_eq!(s, StatusCode::OK);
    let first = think(&app, id);
    until_busy(&app, id).await;
    let second = think(&app, id);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (s, _) = json_of(&app, "POST", &uri("/stop"), None).await;
    assert_eq!(s, StatusCode::OK);
    for (k, watcher) in [first, second].into_iter().enumerate() {
        let (s, text, took) = watcher.await.unwrap();
        assert_eq!(s, StatusCode::OK);
        let done = events(&text, "done");
        assert_eq!(done.len(), 1, "watcher {k}: {text}");
        assert_eq!(done[0]["moves"].as_array().unwrap().len(), 2, "watcher {k}: {text}");
        assert_eq!(done[0]["human_to_move"], true);
        assert!(took < Duration::from_secs(4), "watcher {k}: stop took {took:?}");
    }

    // Delete while thinking: the watcher's stream ends (cancelled), the game is gone, a new game starts at once.
    let (s, _) = json_of(&app, "POST", &uri("/move"), Some(json!({"move": "c2c3"}))).await;
    assert_eq!(s, StatusCode::OK);
    let watcher = think(&app, id);
    until_busy(&app, id).await;
    let (s, _) = json_of(&app, "DELETE", &uri(""), None).await;
    assert_eq!(s, StatusCode::OK);
    let (_, text, took) = watcher.await.unwrap();
    assert_eq!(events(&text, "cancelled").len(), 1, "{text}");
    assert!(took < Duration::from_secs(4), "the deleted game's search ran {took:?}");
    let (s, _) = call(&app, "GET", &uri(""), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (other, st) = new_game(&app, BT5, ["human", SLOW]).await;
    assert!(other != id && st["ply"] == 0);

    // Nothing to undo (the engine moves first and thinks): refused, and its search goes on to its move.
    let (id, _) = new_game(&app, BT5, ["engine(time=300ms)", "human"]).await;
    let watcher = think(&app, id);
    until_busy(&app, id).await;
    let (s, v) = json_of(&app, "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    let (_, text, _) = watcher.await.unwrap();
    assert_eq!(events(&text, "done").len(), 1, "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_restored_by_its_id() {
    let app = router(Config::default());
    let (id, _) = new_game(&app, BT5, ["human", "alphabeta(depth=1)"]).await;
    let (_, played) = json_of(&app, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": "a2a3"}))).await;
    let (_, text, _) = think(&app, id).await.unwrap();
    let done = events(&text, "done").pop().expect("the engine's move");
    // A reload (or a second tab) reads the same game back: board, moves, status, whose turn.
    let (s, mut back) = json_of(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(s, StatusCode::OK);
    // The side to move's time on this move goes on between the two answers: the rest is the same.
    let mut done = done;
    assert!(back["thinking_ms"].as_u64() >= done["thinking_ms"].as_u64(), "{back}");
    (back["thinking_ms"], done["thinking_ms"]) = (json!(0), json!(0));
    assert_eq!(back, done);
    assert_eq!(back["moves"][0], played["moves"][0]);
    assert_eq!(back["moves"].as_array().unwrap().len(), 2);
    for key in ["board", "turn", "to_move", "human_to_move", "legal", "players", "game"] {
        assert!(!back[key].is_null(), "{key} missing: {back}");
    }

    // A page joining a running search gets its iterations so far, then its end.
    let (id, _) = new_game(&app, BT5, ["human", "engine(time=1s)"]).await;
    json_of(&app, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": "a2a3"}))).await;
    let first = think(&app, id);
    until_busy(&app, id).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (_, joined, _) = think(&app, id).await.unwrap();
    let (_, whole, _) = first.await.unwrap();
    assert!(!events(&joined, "info").is_empty(), "the joining page saw no iteration: {joined}");
    assert_eq!(events(&joined, "done"), events(&whole, "done"));

    // A game with hidden information comes back as the human's view only.
    let (id, _) = new_game(&app, "phantom_tic_tac_toe", ["human", "random"]).await;
    let (_, st) = json_of(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert!(st["position"].is_null() && st["board"].is_null(), "{st}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_table_is_bounded_and_idle_games_expire() {
    let idle = Duration::from_millis(1000);
    let app = router(Config { max_games: 2, idle, ..Config::default() });
    let (b, _) = new_game(&app, BT5, ["human", "engine(time=10s)"]).await;
    let (a, _) = new_game(&app, "tic_tac_toe", ["human", "human"]).await;
    // Full: a one-line 503 that names the limits.
    let (s, v) =
        json_of(&app, "POST", "/api/games", Some(json!({"game": "tic_tac_toe", "players": ["human", "human"]}))).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("too many") && e.contains("2 games") && e.contains("1 s") && !e.contains('\n'), "{e}");

    // Game b's engine thinks past the idle limit: it stays; game a, untouched, expires.
    json_of(&app, "POST", &format!("/api/games/{b}/move"), Some(json!({"move": "a2a3"}))).await;
    let watcher = think(&app, b);
    until_busy(&app, b).await;
    tokio::time::sleep(idle + Duration::from_millis(200)).await;
    let (s, v) = json_of(&app, "GET", &format!("/api/games/{a}"), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("expired") && e.contains("1 s"), "{e}");
    let (s, st) = json_of(&app, "GET", &format!("/api/games/{b}"), None).await;
    assert_eq!((s, &st["busy"]), (StatusCode::OK, &json!(true)), "{st}");
    // The expired game made room for a new one.
    new_game(&app, "tic_tac_toe", ["human", "human"]).await;
    json_of(&app, "POST", &format!("/api/games/{b}/stop"), None).await;
    let (_, text, _) = watcher.await.unwrap();
    assert_eq!(events(&text, "done").len(), 1, "{text}");
    // An id never given is not "expired".
    let (_, v) = json_of(&app, "GET", "/api/games/777", None).await;
    assert!(v["error"].as_str().unwrap().contains("no game 777"), "{v}");
}

/// Play game `id` to its end (both seats players) and give its moves.
async fn played_moves(app: &Router, id: u64) -> Vec<Value> {
    for _ in 0..200 {
        let (_, st) = json_of(app, "GET", &format!("/api/games/{id}"), None).await;
        if st["turn"] == "over" {
            return st["moves"].as_array().unwrap().clone();
        }
        let (s, text) = call(app, "GET", &format!("/api/games/{id}/think"), None).await;
        assert_eq!(s, StatusCode::OK, "{text}");
        assert_eq!(events(&text, "done").len(), 1, "{text}");
    }
    panic!("game {id} did not end in 200 moves");
}

/// issue 43: `plateau serve --seed N`: a game's random choices come from (N, the game's id, the seat), so two servers
/// started with the same seed play the same games; another seed, or another game of the same server, others.
#[tokio::test]
async fn the_same_seed_replays_the_same_games() {
    let server = |seed: u64| router(Config { seed: Some(seed), ..Config::default() });
    let mut games = Vec::new();
    for app in [server(7), server(7), server(8)] {
        let mut moves = Vec::new();
        for _ in 0..2 {
            let (id, _) = new_game(&app, BT5, ["random", "random"]).await;
            moves.push(played_moves(&app, id).await);
        }
        games.push(moves);
    }
    assert!(games[0][0].len() >= 8, "{:?}", games[0][0]);
    assert_eq!(games[0], games[1], "the same seed, the same games (ids 1 and 2)");
    assert_ne!(games[0][0], games[2][0], "another seed, another game");
    assert_ne!(games[0][0], games[0][1], "another game id, another game");
}

/// The evaluation graph's data and the thinking times: the engine's move carries the value of its last iteration
/// (from the first player's view: the negation of what the engine, second, reported), the human's none; every move
/// has its time, a human's counted from the position's start, and its mover.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_move_has_its_time_and_the_engine_s_value() {
    let app = router(Config::default());
    let body = json!({"game": "breakthrough(rows=5,columns=5)", "players": ["human", "alphabeta(depth=3)"]});
    let (s, st) = json_of(&app, "POST", "/api/games", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    let id = st["id"].as_u64().unwrap();
    assert_eq!((&st["values"], &st["move_ms"], &st["movers"]), (&json!([]), &json!([]), &json!([])), "{st}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (s, st) = json_of(&app, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": "c2c3"}))).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    assert!(st["move_ms"][0].as_u64().unwrap() >= 300, "the human's time: {st}");
    let (s, text, _) = think(&app, id).await.unwrap();
    assert_eq!(s, StatusCode::OK, "{text}");
    let last = events(&text, "info").last().cloned().expect("an iteration");
    let st = events(&text, "done").pop().expect("the move");
    assert_eq!(st["movers"], json!([0, 1]), "{st}");
    assert_eq!(st["values"][0], Value::Null, "{st}");
    assert_eq!(st["values"][1].as_i64(), last["value"].as_i64().map(|v| -v), "{st}");
    assert!(st["move_ms"][1].as_u64().is_some(), "{st}");
    // Undone, the two moves go with their values and times.
    let (s, st) = json_of(&app, "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    assert_eq!((&st["values"], &st["move_ms"]), (&json!([]), &json!([])), "{st}");
}
