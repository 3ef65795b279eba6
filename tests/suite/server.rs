//! The web server's API, in process (tower's `oneshot` on the router): every endpoint, and the bad inputs the server
//! must answer with a one-line 4xx (unknown game, illegal move, huge body, a player that starts a program).

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use plateau::server::{Config, router};
use serde_json::{Value, json};
use tower::ServiceExt;

fn app() -> Router {
    router(Config { max_games: 4, ..Config::default() })
}

/// One request to the router: its status and body text (shared with `server_sessions`).
pub(crate) async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, String) {
    let req = Request::builder().method(method).uri(uri);
    let req = match body {
        Some(b) => req.header("content-type", "application/json").body(Body::from(b.to_string())),
        None => req.body(Body::empty()),
    }
    .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// One request whose answer is JSON.
pub(crate) async fn json_of(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let (status, text) = call(app, method, uri, body).await;
    (status, serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}")))
}

/// A refusal: the status and a one-line error.
async fn refused(app: &Router, method: &str, uri: &str, body: Option<Value>, status: StatusCode, words: &str) {
    let (s, v) = json_of(app, method, uri, body).await;
    assert_eq!(s, status, "{uri}: {v}");
    let e = v["error"].as_str().unwrap_or_else(|| panic!("no error field: {v}"));
    assert!(!e.contains('\n') && e.contains(words), "{uri}: '{e}' lacks '{words}'");
}

const BT5: &str = "breakthrough(rows=5,columns=5)";

#[tokio::test]
async fn page_and_game_list() {
    let app = app();
    let (s, html) = call(&app, "GET", "/", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(html.contains("app.js") && html.contains("style.css"));
    // The scripts the page lists (js/NAME.js, then app.js), each served.
    let scripts: Vec<String> =
        html.split("<script src=\"").skip(1).filter_map(|t| t.split('"').next()).map(|t| format!("/{t}")).collect();
    assert!(scripts.len() > 5 && scripts.iter().any(|s| s == "/js/board.js"), "{scripts:?}");
    for asset in scripts.iter().map(String::as_str).chain(["/app.js", "/style.css"]) {
        let (s, text) = call(&app, "GET", asset, None).await;
        assert_eq!(s, StatusCode::OK);
        assert!(text.len() > 100, "{asset} is empty");
    }
    refused(&app, "GET", "/js/nothing.js", None, StatusCode::NOT_FOUND, "no script").await;
    let (s, v) = json_of(&app, "GET", "/api/games", None).await;
    assert_eq!(s, StatusCode::OK);
    let games = v["games"].as_array().unwrap();
    let find = |name: &str| games.iter().find(|g| g["name"] == name).unwrap_or_else(|| panic!("{name} missing"));
    assert_eq!(find("breakthrough")["board"], "grid");
    assert_eq!(find("connect_four")["board"], "columns");
    assert_eq!(find("oware")["board"], "pits");
    assert_eq!(find("backgammon")["board"], "points");
    assert!(find("breakthrough")["parameters"].as_array().unwrap().iter().any(|p| p["name"] == "rows"));
    assert!(find("breakthrough")["players"].as_array().unwrap().iter().any(|p| p == "engine"));
    refused(&app, "GET", "/api/nothing", None, StatusCode::NOT_FOUND, "no such endpoint").await;
    // Found by the http_api fuzz target: paths outside /api/ and wrong methods answered with an empty body.
    refused(&app, "POST", "/ap%89/games/1/move", None, StatusCode::NOT_FOUND, "no such endpoint").await;
    refused(&app, "DELETE", "/api/tree", None, StatusCode::METHOD_NOT_ALLOWED, "does not take that method").await;
}

#[tokio::test]
async fn a_game_played_undone_and_recorded() {
    let app = app();
    let (s, st) =
        json_of(&app, "POST", "/api/games", Some(json!({"game": BT5, "players": ["human", "alphabeta(depth=2)"]})))
            .await;
    assert_eq!(s, StatusCode::OK, "{st}");
    let id = st["id"].as_u64().unwrap();
    assert_eq!(st["board"]["cells"].as_array().unwrap().len(), 25);
    assert_eq!(st["turn"], "player");
    assert_eq!(st["human_to_move"], true);
    // a2a3 goes from a2 (row 4 from the top, cell 15) to a3 (cell 10).
    let a2a3 = st["legal"].as_array().unwrap().iter().find(|m| m["move"] == "a2a3").unwrap().clone();
    assert_eq!((a2a3["from"].as_u64(), a2a3["to"].as_u64()), (Some(15), Some(10)));

    let uri = |what: &str| format!("/api/games/{id}{what}");
    let (s, st) = json_of(&app, "POST", &uri("/move"), Some(json!({"move": "a2a3"}))).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    assert_eq!(st["moves"], json!(["a2a3"]));
    assert_eq!(st["human_to_move"], false);
    assert_eq!(st["last"], json!({"from": 15, "to": 10}));
    // Not the human's turn now; an illegal move; a move that is not one.
    refused(&app, "POST", &uri("/move"), Some(json!({"move": "b2b3"})), StatusCode::CONFLICT, "turn").await;

    // The engine's move, streamed: info lines then the new state.
    let (s, events) = call(&app, "GET", &uri("/think"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(events.contains("event: info") && events.contains("\"pv\""), "{events}");
    let done = events.split("event: done\ndata: ").nth(1).expect("a done event");
    let st: Value = serde_json::from_str(done.lines().next().unwrap()).unwrap();
    assert_eq!(st["moves"].as_array().unwrap().len(), 2);
    assert_eq!(st["human_to_move"], true);
    refused(&app, "GET", &uri("/think"), None, StatusCode::CONFLICT, "human is to move").await;
    refused(&app, "POST", &uri("/move"), Some(json!({"move": "a3a5"})), StatusCode::BAD_REQUEST, "a3a5").await;
    refused(&app, "POST", &uri("/move"), Some(json!({"move": "zz"})), StatusCode::BAD_REQUEST, "zz").await;

    let (s, rec) = call(&app, "GET", &uri("/record"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(rec.contains("[Game \"breakthrough(rows=5,columns=5)\"]") && rec.contains("1. a2a3"), "{rec}");
    assert!(rec.contains("[Result \"*\"]"), "{rec}");
    let read = plateau::arena::record::read_games(&rec).unwrap();
    assert_eq!(read[0].moves.len(), 2);

    // Undo takes back the engine's move and the human's: the human is to move at the start again.
    let (s, st) = json_of(&app, "POST", &uri("/undo"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(st["ply"], 0);
    refused(&app, "POST", &uri("/undo"), None, StatusCode::CONFLICT, "nothing to undo").await;
    let (s, _) = json_of(&app, "POST", &uri("/stop"), None).await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = json_of(&app, "DELETE", &uri(""), None).await;
    assert_eq!(s, StatusCode::OK);
    refused(&app, "GET", &uri(""), None, StatusCode::NOT_FOUND, "no game").await;
}

#[tokio::test]
async fn engines_play_a_game_to_its_end() {
    let app = app();
    let players = ["alphabeta(depth=1)", "random"];
    let (_, st) = json_of(&app, "POST", "/api/games", Some(json!({"game": "tic_tac_toe", "players": players}))).await;
    let id = st["id"].as_u64().unwrap();
    let mut last = st;
    for _ in 0..9 {
        if last["turn"] == "over" {
            break;
        }
        let (_, events) = call(&app, "GET", &format!("/api/games/{id}/think"), None).await;
        let done = events.split("event: done\ndata: ").nth(1).unwrap_or_else(|| panic!("{events}"));
        last = serde_json::from_str(done.lines().next().unwrap()).unwrap();
    }
    assert_eq!(last["turn"], "over");
    assert!(last["result"]["text"].as_str().unwrap().len() > 3);
    let (_, rec) = call(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    assert!(!rec.contains("[Result \"*\"]"), "{rec}");
    // The record replays: every position of the game, ready to draw.
    let (s, r) = json_of(&app, "POST", "/api/replay", Some(json!({ "record": rec }))).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let g = &r["games"][0];
    assert_eq!(g["positions"].as_array().unwrap().len(), g["moves"].as_array().unwrap().len() + 1);
    assert_eq!(g["positions"][0]["board"]["layout"], "grid");
    refused(
        &app,
        "POST",
        "/api/replay",
        Some(json!({"record": "nonsense"})),
        StatusCode::BAD_REQUEST,
        "no finished game",
    )
    .await;
}

#[tokio::test]
async fn chance_and_simultaneous_games_are_playable() {
    let app = app();
    // Backgammon: the opening roll is drawn at once, the human's moves are listed.
    let (s, st) =
        json_of(&app, "POST", "/api/games", Some(json!({"game": "backgammon", "players": ["human", "random"]}))).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    assert!(!st["moves"].as_array().unwrap().is_empty(), "the opening roll: {st}");
    assert_eq!(st["board"]["layout"], "points");
    // Matching pennies: the human's half, the other seat chooses its own.
    let (s, st) =
        json_of(&app, "POST", "/api/games", Some(json!({"game": "matching_pennies", "players": ["human", "random"]})))
            .await;
    assert_eq!(s, StatusCode::OK, "{st}");
    let id = st["id"].as_u64().unwrap();
    let half = st["legal"][0]["move"].as_str().unwrap().to_string();
    let (s, st) = json_of(&app, "POST", &format!("/api/games/{id}/move"), Some(json!({ "move": half }))).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    assert!(st["moves"][0].as_str().unwrap().contains('/'));
}

#[tokio::test]
async fn tree_compare_and_verdicts() {
    let app = app();
    let (s, t) =
        json_of(&app, "POST", "/api/tree", Some(json!({"game": "tic_tac_toe", "algo": "alphabeta", "depth": 2}))).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let nodes = t["tree"].as_array().unwrap();
    assert_eq!(nodes.len() as u64, t["nodes"].as_u64().unwrap());
    assert!(nodes.iter().any(|n| n["cutoff"] == true), "alpha-beta cuts at depth 2");
    assert!(nodes[1]["move"].as_str().unwrap().len() == 2);
    refused(
        &app,
        "POST",
        "/api/tree",
        Some(json!({"game": "tic_tac_toe", "algo": "engine"})),
        StatusCode::BAD_REQUEST,
        "catalogue",
    )
    .await;
    refused(
        &app,
        "POST",
        "/api/tree",
        Some(json!({"game": BT5, "algo": "minimax", "depth": 6, "max_nodes": 50})),
        StatusCode::BAD_REQUEST,
        "too many",
    )
    .await;
    // Past the documented ceiling (or 0) is refused, not clamped (issue 43: 2001 answered 200).
    for n in [0, 2001] {
        let body = json!({"game": "tic_tac_toe", "algo": "alphabeta", "depth": 2, "max_nodes": n});
        refused(&app, "POST", "/api/tree", Some(body), StatusCode::BAD_REQUEST, "a drawn tree has 1 to 2000 nodes")
            .await;
    }
    // An algorithm that cannot search the game is refused as a player would be, not drawn as a one-node tree.
    for game in ["matching_pennies", "pig"] {
        let body = json!({"game": game, "algo": "alphabeta", "depth": 2});
        refused(&app, "POST", "/api/tree", Some(body), StatusCode::BAD_REQUEST, "alphabeta cannot search a game").await;
    }
    let (s, t) = json_of(&app, "POST", "/api/tree", Some(json!({"game": "pig", "algo": "star1", "depth": 2}))).await;
    assert_eq!(s, StatusCode::OK, "{t}");

    let req = json!({"game": BT5, "algos": ["alphabeta", "minimax"], "depths": [1, 2]});
    let (s, c) = json_of(&app, "POST", "/api/compare", Some(req)).await;
    assert_eq!(s, StatusCode::OK, "{c}");
    let rows = c["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    // Same value, alpha-beta never more nodes than minimax.
    for d in 0..2 {
        assert_eq!(rows[2 * d]["value"], rows[2 * d + 1]["value"]);
        assert!(rows[2 * d]["nodes"].as_u64() <= rows[2 * d + 1]["nodes"].as_u64());
    }
    refused(
        &app,
        "POST",
        "/api/compare",
        Some(json!({"game": BT5, "algos": ["random"], "depths": [1]})),
        StatusCode::BAD_REQUEST,
        "does not search",
    )
    .await;

    // Connect Four: Pons's score of every column, after 8 stones (all solved).
    let moves: Vec<&str> = "4 4 4 4 3 3 5 5".split(' ').collect();
    let (s, v) = json_of(&app, "POST", "/api/verdict", Some(json!({"game": "connect_four", "moves": moves}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let cols = v["moves"].as_array().unwrap();
    assert_eq!(cols.len(), 7);
    // X has 3-4-5 on the bottom row: 2 and 6 win at once, with (42 + 1 - 8) / 2 = 17.
    let score = |c: &str| cols.iter().find(|m| m["move"] == c).unwrap()["score"].as_i64().unwrap();
    assert_eq!((score("2"), score("6")), (17, 17));
    assert_eq!(v["result"], "win");
    // The empty board: every column scored as Pons's solver scores it (-2 -1 0 1 0 -1 -2: only the centre wins),
    // all seven from the embedded exact start book (books/connect-four-7x6-start.book), so at once.
    let (s, v) = json_of(&app, "POST", "/api/verdict", Some(json!({"game": "connect_four"}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let cols = v["moves"].as_array().unwrap();
    assert_eq!(cols.len(), 7);
    let reference = [-2, -1, 0, 1, 0, -1, -2];
    let mut seen = [false; 7];
    for m in cols {
        let c = m["move"].as_str().and_then(|t| t.parse::<usize>().ok()).expect("a column number") - 1;
        assert!(!seen[c], "column {} twice: {v}", c + 1);
        seen[c] = true;
        assert_eq!((m["score"].as_i64(), &m["source"]), (Some(reference[c]), &json!("book")), "column {}", c + 1);
    }
    assert_eq!((&v["result"], &v["score"], &v["best_move"]), (&json!("win"), &json!(1), &json!("4")), "{v}");
    assert_eq!((&v["unknown_moves"], &v["nodes"]), (&json!(0), &json!(0)), "{v}");
    // Breakthrough on a small board: the dedicated solver with distances.
    let (s, v) =
        json_of(&app, "POST", "/api/verdict", Some(json!({"game": "breakthrough(rows=4,columns=3,piece_rows=1)"})))
            .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["result"] == "win" || v["result"] == "loss", "{v}");
    assert!(v["plies"].as_u64().is_some(), "{v}");
    // The generic df-pn recurses as deep as the game: Othello 4x4 (a loss for black, -10) and a small Oware crashed
    // the server on a 2 MiB thread before the verdict ran on a large stack.
    let (s, v) = json_of(&app, "POST", "/api/verdict", Some(json!({"game": "othello(size=4)"}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"], "loss", "{v}");
    let (s, v) = json_of(&app, "POST", "/api/verdict", Some(json!({"game": "oware(houses=2,seeds=2)"}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["best_move"], "A", "{v}");
    refused(&app, "POST", "/api/verdict", Some(json!({"game": "pig"})), StatusCode::BAD_REQUEST, "no solver").await;
}

#[tokio::test]
async fn bad_input_is_refused_in_one_line() {
    let app = app();
    let new = |game: &str, a: &str, b: &str| Some(json!({"game": game, "players": [a, b]}));
    refused(&app, "POST", "/api/games", new("nope", "human", "human"), StatusCode::BAD_REQUEST, "unknown game").await;
    refused(&app, "POST", "/api/games", new(BT5, "human", "nobody"), StatusCode::BAD_REQUEST, "unknown algorithm")
        .await;
    refused(&app, "POST", "/api/games", new("pig", "human", "alphabeta"), StatusCode::BAD_REQUEST, "cannot play").await;
    refused(
        &app,
        "POST",
        "/api/games",
        new(BT5, "uci(cmd=/bin/sh)", "human"),
        StatusCode::FORBIDDEN,
        "--allow-external",
    )
    .await;
    refused(
        &app,
        "POST",
        "/api/games",
        new(BT5, "human", "ugi(cmd=rm -rf x)"),
        StatusCode::FORBIDDEN,
        "--allow-external",
    )
    .await;
    refused(&app, "POST", "/api/games", Some(json!({"game": BT5})), StatusCode::UNPROCESSABLE_ENTITY, "players").await;
    let (s, _) = call(&app, "POST", "/api/games", Some(json!("not an object"))).await;
    assert!(s.is_client_error());
    // A body over the cap (256 KiB) is refused before it is read.
    let huge = json!({"record": "x".repeat(1 << 20)});
    let (s, _) = call(&app, "POST", "/api/replay", Some(huge)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    refused(&app, "GET", "/api/games/999", None, StatusCode::NOT_FOUND, "no game 999").await;
    // A game id that is not a number (found by the http_api fuzz target): the same one-line JSON 400 on every route.
    for (method, uri) in [
        ("GET", "/api/games/abc"),
        ("DELETE", "/api/games/-1"),
        ("POST", "/api/games/s1/undo"),
        ("POST", "/api/games/1.5/stop"),
        ("GET", "/api/games/99999999999999999999999/think"),
        ("GET", "/api/games/%C3%A9/record"),
    ] {
        refused(&app, method, uri, None, StatusCode::BAD_REQUEST, "bad game id").await;
    }
    refused(&app, "POST", "/api/games/x/move", Some(json!({"move": "a2a3"})), StatusCode::BAD_REQUEST, "bad game id")
        .await;
    // Body rejections are one-line JSON too: no content type, broken JSON, a field of the wrong type.
    let (s, text) = call(&app, "POST", "/api/tree", None).await;
    assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    assert!(v["error"].as_str().is_some_and(|e| !e.contains('\n')), "{v}");
    let req = axum::http::Request::builder()
        .method("POST")
        .uri("/api/replay")
        .header("content-type", "application/json")
        .body(Body::from("{\"record\": "))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(v["error"].as_str().is_some_and(|e| !e.contains('\n')), "{v}");
    refused(&app, "POST", "/api/replay", Some(json!({"record": 5})), StatusCode::UNPROCESSABLE_ENTITY, "record").await;
    // The game table is capped (4 here): the fifth game waits for a deletion.
    for _ in 0..4 {
        let (s, _) = call(&app, "POST", "/api/games", new("tic_tac_toe", "human", "human")).await;
        assert_eq!(s, StatusCode::OK);
    }
    refused(
        &app,
        "POST",
        "/api/games",
        new("tic_tac_toe", "human", "human"),
        StatusCode::SERVICE_UNAVAILABLE,
        "too many",
    )
    .await;
}

#[tokio::test]
async fn external_engines_run_when_allowed() {
    let app = router(Config { allow_external: true, ..Config::default() });
    // A program that is not an engine: the game is created (the process starts) or refused with a message; never a
    // panic or a 5xx.
    let (s, v) =
        json_of(&app, "POST", "/api/games", Some(json!({"game": BT5, "players": ["human", "uci(cmd=/bin/false)"]})))
            .await;
    assert!(s.is_success() || s.is_client_error(), "{s}: {v}");
}

#[tokio::test]
async fn backgammon_bad_input_is_refused_in_one_line() {
    let app = app();
    const START: &str = "x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5";
    let at =
        |position: String| Some(json!({"game": "backgammon", "players": ["human", "human"], "position": position}));
    // Positions: malformed, impossible dice, too many checkers, a point held by both sides.
    for (position, words) in [
        ("garbage".to_string(), "position"),
        (format!("{START} x71"), "impossible dice"),
        ("x=24:9,13:9 o=24:2,13:5,8:3,6:5 x".to_string(), "15"),
        ("x=24:2,13:5,8:3,6:5 o=1:2,13:5,8:3,6:5 x".to_string(), "both"),
    ] {
        refused(&app, "POST", "/api/games", at(position), StatusCode::BAD_REQUEST, words).await;
    }
    // Moves: X plays 3-1; an illegal move, a malformed one, three checkers for two dice.
    let (s, st) = json_of(&app, "POST", "/api/games", at(format!("{START} x31"))).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    let id = st["id"].as_u64().unwrap();
    let uri = format!("/api/games/{id}/move");
    for (mv, words) in [("24/18", "24/18"), ("bar/", "bar/"), ("13/10 6/5 6/5", "6/5"), ("", "")] {
        refused(&app, "POST", &uri, Some(json!({ "move": mv })), StatusCode::BAD_REQUEST, words).await;
    }
    // The game goes on after the errors: a legal move is played.
    let (s, st) = json_of(&app, "POST", &uri, Some(json!({"move": "13/10 6/5"}))).await;
    assert_eq!(s, StatusCode::OK, "{st}");
    // Compare and tree requests with bad backgammon moves or positions.
    let bad_moves = json!({"game": "backgammon", "moves": ["x:7-1"], "algos": ["expectimax"], "depths": [1]});
    refused(&app, "POST", "/api/compare", Some(bad_moves), StatusCode::BAD_REQUEST, "7-1").await;
    let bad_pos = json!({"game": "backgammon", "position": "x=1 o=2 x", "algos": ["expectimax"], "depths": [1]});
    refused(&app, "POST", "/api/compare", Some(bad_pos), StatusCode::BAD_REQUEST, "POINT:COUNT").await;
}

/// A file of secret words, in a fresh folder, for the sandbox tests.
fn secret_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("plateau-sandbox-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    f
}

/// Every endpoint that reads a game or player string, with `game` and `player` in it.
fn string_requests(game: &str, player: &str) -> Vec<(&'static str, Value)> {
    let record = format!(
        "[Round \"1\"]\n[Game \"{game}\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Termination \"normal\"]\n\n1-0\n"
    );
    vec![
        ("/api/games", json!({"game": game, "players": ["human", "random"]})),
        ("/api/games", json!({"game": BT5, "players": ["human", player]})),
        ("/api/games", json!({"game": BT5, "players": [format!("pns(fallback={player})"), "human"]})),
        ("/api/tree", json!({"game": game, "algo": "alphabeta", "depth": 2})),
        // The catalogue reads only `eval=` of these.
        (
            "/api/tree",
            json!({"game": BT5, "algo": player.replace("engine(params", "alphabeta(eval=nnue:").replace("engine(book", "alphabeta(eval=nnue:").replace("engine(db", "alphabeta(eval=nnue:").replace("engine", "alphabeta").replace("mcts", "alphabeta"), "depth": 1}),
        ),
        ("/api/compare", json!({"game": game, "algos": ["alphabeta"], "depths": [1]})),
        ("/api/compare", json!({"game": BT5, "algos": [player], "depths": [1]})),
        ("/api/verdict", json!({"game": game})),
        ("/api/replay", json!({"record": record})),
    ]
}

#[tokio::test]
async fn no_request_makes_the_server_read_a_file() {
    // issue 43: `tree(file=/etc/passwd)` answered with the file's first words; `engine(params=FILE)` quoted its line.
    let app = app();
    let secret = secret_file("secret.txt", "(3 (1 4) root:x:0:0:secret_words 5)\n");
    let s = secret.display().to_string();
    let missing = secret.with_file_name("missing.txt").display().to_string();
    for (file, exists) in [(s.as_str(), true), (missing.as_str(), false), ("/etc/passwd", true)] {
        let players = [
            format!("engine(params={file})"),
            format!("engine(book={file})"),
            format!("engine(eval=nnue:{file})"),
            format!("engine(db={file})"),
            format!("mcts(eval=nnue:{file})"),
        ];
        for player in &players {
            for (uri, body) in string_requests(&format!("tree(file={file})"), player) {
                let (status, text) = call(&app, "POST", uri, Some(body.clone())).await;
                assert_eq!(status, StatusCode::BAD_REQUEST, "{uri} {body}: {text}");
                assert!(text.contains("not allowed"), "{uri} {body}: {text}");
                assert!(!text.contains("secret_words") && !text.contains("root:"), "{uri}: {text}");
                assert!(!text.contains("No such file") && !text.contains("os error"), "exists={exists}: {text}");
            }
        }
    }
    std::fs::remove_dir_all(secret.parent().unwrap()).unwrap();
}

#[tokio::test]
async fn the_operator_allows_files_one_by_one() {
    let tree = secret_file("tree.txt", "(3 (1 4) 5)\n");
    let other = secret_file("other.txt", "(3 (1 4) 5)\n");
    let files = plateau::files::FileAccess::only(std::slice::from_ref(&tree)).unwrap();
    let app = router(Config { max_games: 4, files, ..Config::default() });
    let game = |f: &std::path::Path| format!("tree(file={})", f.display());
    let (s, v) =
        json_of(&app, "POST", "/api/tree", Some(json!({"game": game(&tree), "algo": "minimax", "depth": 2}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["value"], 5, "the tree of the file: max(3, min(1, 4), 5) {v}");
    let body = json!({"game": game(&other), "algo": "minimax", "depth": 2});
    refused(&app, "POST", "/api/tree", Some(body), StatusCode::BAD_REQUEST, "not allowed").await;
    std::fs::remove_dir_all(tree.parent().unwrap()).unwrap();
    std::fs::remove_dir_all(other.parent().unwrap()).unwrap();
}

/// The `data:` lines of the events named `name` in a server-sent event stream.
pub(crate) fn events(text: &str, name: &str) -> Vec<Value> {
    text.split("\n\n")
        .filter(|block| block.lines().any(|l| l == format!("event: {name}")))
        .filter_map(|block| block.lines().find_map(|l| l.strip_prefix("data: ")))
        .map(|d| serde_json::from_str(d).unwrap_or_else(|_| panic!("not JSON: {d}")))
        .collect()
}

/// Play a whole game of a hidden-information game through the API (the human plays its first legal move), keeping
/// every answer; then check that none carried a step of the other side before the end.
/// `directed`: the two sides' moves never share a text (Breakthrough: each side moves its own way), so no answer
/// may contain an engine's move as a word; in phantom tic-tac-toe both sides name the same squares.
async fn hidden_game_leaks_nothing(game: &str, engine: &str, human_first: bool, directed: bool) {
    let app = app();
    let players = if human_first { ["human", engine] } else { [engine, "human"] };
    let (s, mut state) = json_of(&app, "POST", "/api/games", Some(json!({"game": game, "players": players}))).await;
    assert_eq!(s, StatusCode::OK, "{state}");
    let id = state["id"].as_u64().unwrap();
    let mut seen: Vec<(String, String)> = Vec::new(); // (what, text) of every answer while the game went on
    let mut mine: Vec<String> = Vec::new();
    for _ in 0..400 {
        if state["turn"] == "over" {
            break;
        }
        assert!(state["position"].is_null() && state["board"].is_null() && state["last"].is_null(), "{state}");
        // Every listed step is one of the human's moves, in order, or a `?`.
        let shown: Vec<String> =
            state["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        let own: Vec<&String> = shown.iter().filter(|m| *m != "?").collect();
        assert_eq!(own, mine.iter().collect::<Vec<_>>(), "{game}: {shown:?}");
        let (_, record) = call(&app, "GET", &format!("/api/games/{id}/record"), None).await;
        seen.push(("record".into(), record));
        refused(&app, "POST", &format!("/api/games/{id}/undo"), None, StatusCode::CONFLICT, "hidden information").await;
        if state["human_to_move"] == true {
            let mv = state["legal"][0]["move"].as_str().unwrap().to_string();
            let (s, next) = json_of(&app, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": mv}))).await;
            assert_eq!(s, StatusCode::OK, "{next}");
            mine.push(mv);
            state = next;
        } else {
            let (s, text) = call(&app, "GET", &format!("/api/games/{id}/think"), None).await;
            assert_eq!(s, StatusCode::OK, "{text}");
            for info in events(&text, "info") {
                for key in ["pv", "value", "score"] {
                    assert!(info.get(key).is_none(), "{game}: the engine's {key} reached the page: {info}");
                }
            }
            let done = events(&text, "done");
            assert_eq!(done.len(), 1, "{text}");
            state = done[0].clone();
            if state["turn"] != "over" {
                seen.push(("think".into(), text));
            }
        }
        if state["turn"] != "over" {
            seen.push(("state".into(), state.to_string()));
        }
    }
    assert_eq!(state["turn"], "over", "{game}: the game ended");
    // Once over, the whole game: every step written, the engine's among them.
    let all: Vec<String> = state["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
    assert!(all.iter().all(|m| m != "?"), "{all:?}");
    let (_, record) = call(&app, "GET", &format!("/api/games/{id}/record"), None).await;
    assert!(all.len() > mine.len(), "{game}: the engine moved: {all:?}");
    assert!(all.iter().all(|m| record.contains(m.as_str())), "the final record holds every move: {record}");
    if !directed {
        return;
    }
    let theirs: Vec<&String> = all.iter().filter(|m| !mine.contains(m)).collect();
    // Before the end, no answer named one of the engine's moves. (Its moves go the other way on the board, so
    // they are never the human's; squares alone may appear in the human's own observation.)
    for (what, text) in &seen {
        let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphanumeric()).collect();
        for m in &theirs {
            assert!(!words.contains(&m.as_str()), "{game}: the {what} named the engine's move {m}: {text}");
        }
    }
}

#[tokio::test]
async fn hidden_information_never_leaves_the_server() {
    // issue 40: the `moves` field, the think stream's principal variation and the record gave Black's moves away.
    let dark = "breakthrough(information=imperfect,rows=5,columns=4,piece_rows=1)";
    hidden_game_leaks_nothing(dark, "ismcts(playouts=300)", true, true).await;
    hidden_game_leaks_nothing(dark, "determinize(samples=4,depth=2)", false, true).await;
    hidden_game_leaks_nothing("phantom_tic_tac_toe", "ismcts(playouts=300)", true, false).await;
    hidden_game_leaks_nothing("phantom_tic_tac_toe", "determinize(samples=4,depth=2)", false, false).await;
}
