//! The tournament endpoints of `plateau serve --tournament RESULTS,RECORD` in process (`/api/tournaments`,
//! `/api/tournaments/{n}`, `/api/tournaments/{n}/games/{g}`), through the axum router as `http_api` does: the
//! input's first section is a script of up to 8 requests (`METHOD PATH` lines), the next three the results file,
//! its live sidecar and the record file the server is shown (sections cut at lines `====`).
//! Asserted: every answer is a success or a 4xx whose body is `{"error": one line}` (no 5xx: a handler's panic is
//! answered 500); a tournament answered is the one listed, with as many results as it says are finished.
#![no_main]

use std::sync::OnceLock;

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use plateau::server::{Config, TournamentSource, router};
use plateau::tournament::live::live_path;
use tower::ServiceExt;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime"))
}

fuzz_target!(|data: &[u8]| {
    let text = plateau_fuzz::text(data);
    let parts = plateau_fuzz::sections(&text, 4);
    let mut requests = Vec::new();
    for line in parts[0].lines().take(8) {
        let (method, path) = line.split_once(' ').unwrap_or(("GET", line));
        let method = if method.eq_ignore_ascii_case("post") { "POST" } else { "GET" };
        let path = path.trim();
        if !path.starts_with("/api/tournaments") {
            return; // the other endpoints are http_api's
        }
        requests.push((method, path.to_string()));
    }
    let d = plateau_fuzz::scratch("tournament-api");
    let (results, record) = (d.join("results.jsonl"), d.join("games.pgn"));
    std::fs::write(&results, &parts[1]).expect("written");
    std::fs::write(live_path(&results), &parts[2]).expect("written");
    std::fs::write(&record, &parts[3]).expect("written");
    let source = TournamentSource { results, record: Some(record) };
    let app = router(Config { max_games: 4, max_body: 4096, tournaments: vec![source], ..Config::default() });
    runtime().block_on(async move {
        for (method, path) in requests {
            let Ok(req) = Request::builder().method(method).uri(&path).body(Body::empty()) else {
                continue; // not a URI: refused before the server
            };
            let res = app.clone().oneshot(req).await.expect("the router always answers");
            let status = res.status();
            let bytes = res.into_body().collect().await.expect("the body is read").to_bytes();
            let body = String::from_utf8_lossy(&bytes);
            assert!(!status.is_server_error(), "{method} {path}: {status} {body}");
            let v: serde_json::Value = match serde_json::from_slice(&bytes) {
                Ok(v) => v,
                Err(_) => panic!("{method} {path}: {status} not JSON: {body}"),
            };
            if status.is_client_error() {
                let e = v["error"].as_str().unwrap_or_else(|| panic!("{method} {path}: no error field: {v}"));
                assert!(!e.contains('\n'), "{method} {path}: a multi-line error: {e}");
            } else if let (Some(finished), Some(list)) = (v["finished"].as_u64(), v["results"].as_array()) {
                assert_eq!(finished, list.len() as u64, "{method} {path}: {v}");
            }
        }
    });
});
