//! The page's game data beyond the board's cells: backgammon's tray (bar, borne-off checkers, dice, mover) and the
//! clocks of a game under a time control (`time_control` of `POST /api/games`): time spent and the increment added, a
//! human's flag falling while it thinks (the game over on time, no move taken then, an undo giving the time back),
//! the engine playing on its clock, bad time controls refused in one line.

use std::time::Duration;

use crate::server::{call, json_of};
use axum::http::StatusCode;
use plateau::server::{Config, router};
use serde_json::{Value, json};

async fn new_game(app: &axum::Router, body: Value) -> (u64, Value) {
    let (s, st) = json_of(app, "POST", "/api/games", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    (st["id"].as_u64().unwrap(), st)
}

#[tokio::test]
async fn backgammon_sends_its_bar_trays_and_dice() {
    let app = router(Config::default());
    let (id, st) = new_game(&app, json!({"game": "backgammon", "players": ["human", "human"]})).await;
    let tray = &st["board"]["tray"];
    assert_eq!(tray["bar"], json!([0, 0]), "{st}");
    assert_eq!(tray["off"], json!([0, 0]));
    // The opening roll is drawn at once: two different dice, the higher's owner to move.
    let dice: Vec<u64> = tray["dice"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap()).collect();
    assert_eq!(dice.len(), 2, "{tray}");
    assert!(dice[0] > dice[1] && dice.iter().all(|d| (1..=6).contains(d)));
    assert_eq!(tray["rolled"], json!(dice));
    assert_eq!(tray["mover"], st["to_move"]);
    // Fifteen checkers a side on the points.
    for side in [0, 1] {
        let n: u64 = st["board"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["owner"] == side)
            .map(|c| c["piece"].as_str().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(n, 15, "side {side}");
    }
    // Other boards have no tray.
    let (_, bt) = new_game(&app, json!({"game": "breakthrough", "players": ["human", "human"]})).await;
    assert!(bt["board"].get("tray").is_none(), "{}", bt["board"]);
    let _ = id;
}

#[tokio::test]
async fn a_human_flag_falls_and_an_undo_gives_the_time_back() {
    let app = router(Config::default());
    let game = "breakthrough(rows=5,columns=5)";
    let body = json!({"game": game, "players": ["human", "human"], "time_control": "1s+0.5s"});
    let (id, st) = new_game(&app, body).await;
    let uri = |p: &str| format!("/api/games/{id}{p}");
    assert_eq!(st["clock"]["time_control"], "1s+500ms", "{st}");
    assert_eq!(st["clock"]["running"], 0);
    assert_eq!(st["clock"]["flag"], Value::Null);
    // A quick move: the first player's time taken, its increment added (more than the second's whole second).
    let (s, st) = json_of(&app, "POST", &uri("/move"), Some(json!({"move": "a2a3"}))).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    let left = st["clock"]["left_ms"][0].as_i64().unwrap();
    assert!(left > 1000 && left <= 1500, "{st}");
    assert_eq!(st["clock"]["running"], 1);
    // The second player thinks too long: its flag falls, the game is over on time.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (_, st) = json_of(&app, "GET", &uri(""), None).await;
    assert_eq!(st["turn"], "over", "{st}");
    assert_eq!(st["clock"]["flag"], 1);
    assert_eq!(st["clock"]["left_ms"][1], 0);
    assert_eq!(st["result"]["winner"], 0);
    assert_eq!(st["result"]["on_time"], true);
    assert!(st["result"]["text"].as_str().unwrap().contains("on time"), "{st}");
    assert_eq!(st["legal"], json!([]));
    let (s, v) = json_of(&app, "POST", &uri("/move"), Some(json!({"move": "a4a3"}))).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    let (_, rec) = call(&app, "GET", &uri("/record"), None).await;
    assert!(rec.contains("time forfeit") && rec.contains("1-0"), "{rec}");
    // An undo takes back the first player's move and its time: its clock as before the move, running again.
    let (s, st) = json_of(&app, "POST", &uri("/undo"), None).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    assert_eq!(st["clock"]["flag"], Value::Null, "{st}");
    assert_eq!(st["result"], Value::Null);
    assert_eq!(st["clock"]["running"], 0);
    assert!(st["clock"]["left_ms"][0].as_i64().unwrap() > 900, "{st}");
    assert_eq!(st["clock"]["left_ms"][1], 1000);
}

#[tokio::test]
async fn the_engine_plays_on_its_clock() {
    let app = router(Config::default());
    let game = "breakthrough(rows=5,columns=5)";
    let body = json!({"game": game, "players": ["engine", "human"], "time_control": "3s+0s"});
    let (id, _) = new_game(&app, body).await;
    let (s, events) = call(&app, "GET", &format!("/api/games/{id}/think"), None).await;
    assert_eq!(s, StatusCode::OK);
    let done = events.split("event: done\ndata: ").nth(1).expect("a done event");
    let st: Value = serde_json::from_str(done.lines().next().unwrap()).unwrap();
    // Its real thinking time taken from its 3 s: some, not all.
    let left = st["clock"]["left_ms"][0].as_i64().unwrap();
    let spent = st["move_ms"][0].as_i64().unwrap();
    assert!(left > 0 && left < 3000 && left + spent == 3000, "{st}");
    assert_eq!(st["clock"]["running"], 1);
    assert_eq!(st["result"], Value::Null);
}

#[tokio::test]
async fn bad_time_controls_are_refused_in_one_line() {
    let app = router(Config::default());
    for (tc, words) in [("fast", "time_control 'fast'"), ("0s+1s", "positive"), ("5m+x", "time_control")] {
        let body = json!({"game": "breakthrough", "players": ["human", "human"], "time_control": tc});
        let (s, v) = json_of(&app, "POST", "/api/games", Some(body)).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{tc}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(!e.contains('\n') && e.contains(words), "{tc}: {e}");
    }
    let body = json!({"game": "matching_pennies", "players": ["human", "smmcts"], "time_control": "1m"});
    let (s, v) = json_of(&app, "POST", "/api/games", Some(body)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("simultaneous"), "{v}");
}
