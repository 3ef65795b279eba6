//! The HTTP API of `plateau serve` in process: each input is a script of up to 8 requests sent one after the other
//! through the axum router (tower's `oneshot`, no socket) of a fresh server. Lines go by pairs: `METHOD PATH` then the
//! body (one line, usually JSON). Every answer must be a success, or a 4xx or the documented 503 (the game table is
//! full) whose body is `{"error": one line}`; any other 5xx (a handler's panic is caught and answered 500) fails the
//! run.
//! Left out: bodies with '/' (a player string may name a book or database file), and the endpoints whose work is
//! bounded by time budgets of seconds by design (`think`, which streams a whole search; `compare`; `verdict`).
#![no_main]

use std::sync::OnceLock;

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use plateau::server::{Config, router};
use tower::ServiceExt;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime"))
}

fuzz_target!(|data: &[u8]| {
    let text = plateau_fuzz::text(data);
    let lines: Vec<&str> = text.lines().collect();
    let mut requests = Vec::new();
    for pair in lines.chunks(2).take(8) {
        let head = pair[0];
        let body = pair.get(1).copied().unwrap_or("");
        let (method, path) = head.split_once(' ').unwrap_or(("GET", head));
        let method = match method {
            "POST" | "post" => "POST",
            "DELETE" | "delete" => "DELETE",
            _ => "GET",
        };
        let path = path.trim();
        if !path.starts_with('/') || ["think", "compare", "verdict"].iter().any(|w| path.contains(w)) {
            return;
        }
        if body.contains('/') {
            return;
        }
        requests.push((method, path.to_string(), body.to_string()));
    }
    let app = router(Config { max_games: 4, max_body: 4096, ..Config::default() });
    runtime().block_on(async move {
        for (method, path, body) in requests {
            let Ok(req) = Request::builder()
                .method(method)
                .uri(&path)
                .header("content-type", "application/json")
                .body(Body::from(body))
            else {
                continue; // not a URI: refused before the server
            };
            let res = app.clone().oneshot(req).await.expect("the router always answers");
            let status = res.status();
            let bytes = res.into_body().collect().await.expect("the body is read").to_bytes();
            let full = status == axum::http::StatusCode::SERVICE_UNAVAILABLE;
            assert!(!status.is_server_error() || full, "{method} {path}: {status} {}", String::from_utf8_lossy(&bytes));
            if status.is_client_error() || full {
                let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
                    panic!("{method} {path}: {status} not JSON: {}", String::from_utf8_lossy(&bytes))
                });
                let e = v["error"].as_str().unwrap_or_else(|| panic!("{method} {path}: no error field: {v}"));
                assert!(!e.contains('\n'), "{method} {path}: a multi-line error: {e}");
            }
        }
    });
});
