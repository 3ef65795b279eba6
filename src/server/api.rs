//! The routes: one handler per endpoint (listed in `docs/server.md`). Every handler returns `Result<_, ApiError>`;
//! searches and solves run on blocking threads (`spawn_blocking`), never on the server's own.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::header;
use axum::http::request::Parts;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

use super::analysis::{self, CompareRequest, TreeRequest};
use super::session::Session;
use super::verdict::{self, VerdictRequest, Watch};
use super::{ApiError, App, assets, lock, think, tournaments};
use crate::games::{AnyGame, catalogue, with_game};

type Answer = Result<Json<Value>, ApiError>;

pub(crate) fn routes(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/js/{file}", get(assets::module))
        .route("/style.css", get(assets::style))
        .route("/api/games", get(list_games).post(new_game))
        .route("/api/games/{id}", get(get_game).delete(delete_game))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/think", get(think_move))
        .route("/api/games/{id}/stop", post(stop))
        .route("/api/games/{id}/record", get(record))
        .route("/api/players", get(players))
        .route("/api/tree", post(tree))
        .route("/api/compare", post(compare))
        .route("/api/verdict", post(verdict))
        .route("/api/replay", post(replay))
        .route("/api/tournaments", get(list_tournaments))
        .route("/api/tournaments/{n}", get(get_tournament))
        .route("/api/tournaments/{n}/games/{g}", get(tournament_game))
        .route("/api/{*rest}", get(unknown).post(unknown))
        // Every other path and method: the same one-line JSON error (axum's defaults answer with an empty body).
        .fallback(unknown)
        .method_not_allowed_fallback(not_allowed)
        .with_state(app)
}

/// A JSON body, or a one-line 4xx (the too-large body included: 413).
fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    b.map(|Json(t)| t).map_err(|e| {
        let status = e.status();
        ApiError { status, message: e.body_text().lines().next().unwrap_or("malformed request").to_string() }
    })
}

/// The `{id}` of a game's path: a whole number, else a one-line 400 (axum's own rejection is plain text).
struct GameId(u64);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let text = parts.uri.path().split('/').nth(3).unwrap_or("").to_string();
        match Path::<u64>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(GameId(id)),
            Err(e) => Err(ApiError {
                status: e.status(),
                message: format!(
                    "bad game id '{}': expected the whole number POST /api/games answered",
                    text.chars().take(40).collect::<String>()
                ),
            }),
        }
    }
}

/// A stop flag set when it is dropped: held by a handler, it stops the work it started when the client goes away
/// (axum drops the handler's future with the connection).
#[derive(Default)]
struct StopOnDrop(Arc<std::sync::atomic::AtomicBool>);

impl StopOnDrop {
    /// The ceiling of `secs` seconds, counted from the work's turn in the queue (as a search's clock is): the flag is
    /// set `secs` after the returned starter fires. A starter dropped unfired (the work never ran) arms nothing.
    fn ceiling_from_turn(&self, secs: u64) -> tokio::sync::oneshot::Sender<()> {
        let (start, started) = tokio::sync::oneshot::channel();
        let flag = self.0.clone();
        tokio::spawn(async move {
            if started.await.is_ok() {
                tokio::time::sleep(std::time::Duration::from_secs(secs)).await;
                flag.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        });
        start
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Run `f` on a blocking thread (searches, solves) when its turn in the server's queue comes, a panic being a 500
/// with one line.
async fn blocking<T: Send + 'static>(
    app: &App,
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let place = app.queue.enter()?.turn().await?;
    off_thread(move || {
        let _place = place;
        f()
    })
    .await
}

/// Run `f` on a blocking thread at once, without a turn in the queue (bounded file reads: the tournament views), a
/// panic being a 500 with one line.
async fn off_thread<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(move || std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)))
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or_else(|| {
            Err(ApiError {
                status: axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                message: "the request failed (a bug: please report it)".into(),
            })
        })
}

async fn unknown() -> ApiError {
    ApiError::not_found("no such endpoint (see docs/server.md)")
}

async fn not_allowed() -> ApiError {
    ApiError {
        status: axum::http::StatusCode::METHOD_NOT_ALLOWED,
        message: "this endpoint does not take that method (see docs/server.md)".into(),
    }
}

/// Every game of the registry: name, aliases, description, parameters, kind, the board's layout at its defaults and
/// the players that can play it.
async fn list_games() -> Answer {
    let games: Vec<Value> = catalogue()
        .into_iter()
        .map(|listed| {
            let layout = AnyGame::parse(listed.info.name)
                .ok()
                .and_then(
                    |any| with_game!(&any, g => crate::game::Interop::board_view(g, &crate::game::Game::start(g))),
                )
                .map(|v| v.layout);
            let mut v = json!(listed);
            v["board"] = json!(layout);
            v["players"] = json!(crate::players::names_for(listed.kind));
            v
        })
        .collect();
    Ok(Json(json!({ "games": games })))
}

#[derive(serde::Deserialize)]
struct NewGame {
    game: String,
    players: [String; 2],
    #[serde(default)]
    position: Option<String>,
    /// Clocks: `BASE+INCREMENT` (`5m+3s`), none by default.
    #[serde(default)]
    time_control: Option<String>,
}

async fn new_game(State(app): State<Arc<App>>, b: Result<Json<NewGame>, JsonRejection>) -> Answer {
    let r = body(b)?;
    let any = AnyGame::parse_with(&r.game, &app.config.files)?;
    let config = app.config.clone();
    let id = app.next_id();
    let table = blocking(
        &app,
        move || with_game!(&any, g => Session::create(g, r.position.as_deref(), &r.players, r.time_control.as_deref(), &config, id)),
    )
    .await?;
    let shared = app.insert(id, table)?;
    let state = lock(&shared).state(id);
    Ok(Json(state))
}

async fn get_game(State(app): State<Arc<App>>, GameId(id): GameId) -> Answer {
    let shared = app.get(id)?;
    let state = lock(&shared).state(id);
    Ok(Json(state))
}

async fn delete_game(State(app): State<Arc<App>>, GameId(id): GameId) -> Answer {
    app.remove(id)?;
    Ok(Json(json!({ "deleted": id })))
}

#[derive(serde::Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
}

async fn play(State(app): State<Arc<App>>, GameId(id): GameId, b: Result<Json<MoveRequest>, JsonRejection>) -> Answer {
    let r = body(b)?;
    let shared = app.get(id)?;
    // At a simultaneous node the other seat may search for its half: off the server's threads, stopped after
    // MAX_THINK from its turn or when the client goes away (this handler is dropped with the flag's guard).
    let stop = StopOnDrop::default();
    let (flag, ceiling) = (stop.0.clone(), stop.0.clone());
    let runtime = tokio::runtime::Handle::current();
    let answer = blocking(&app, move || {
        runtime.spawn(async move {
            tokio::time::sleep(super::MAX_THINK).await;
            ceiling.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let mut t = lock(&shared);
        t.play(&r.mv, &flag)?;
        Ok(Json(t.state(id)))
    })
    .await;
    drop(stop);
    answer
}

async fn undo(State(app): State<Arc<App>>, GameId(id): GameId) -> Answer {
    let shared = app.get(id)?;
    let mut t = lock(&shared);
    t.undo()?;
    Ok(Json(t.state(id)))
}

async fn think_move(State(app): State<Arc<App>>, GameId(id): GameId) -> Result<impl IntoResponse, ApiError> {
    think::stream(app.get(id)?, id, &app.queue)
}

async fn stop(State(app): State<Arc<App>>, GameId(id): GameId) -> Answer {
    let shared = app.get(id)?;
    lock(&shared).stop();
    Ok(Json(json!({ "stopped": id })))
}

async fn record(State(app): State<Arc<App>>, GameId(id): GameId) -> Result<impl IntoResponse, ApiError> {
    let shared = app.get(id)?;
    let text = lock(&shared).record();
    let disposition = format!("attachment; filename=\"plateau-game-{id}.pgn\"");
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, disposition)],
        text,
    ))
}

async fn tree(State(app): State<Arc<App>>, b: Result<Json<TreeRequest>, JsonRejection>) -> Answer {
    let r = body(b)?;
    let files = app.config.files.clone();
    blocking(&app, move || analysis::tree(&r, &files).map(Json)).await
}

async fn compare(State(app): State<Arc<App>>, b: Result<Json<CompareRequest>, JsonRejection>) -> Answer {
    let r = body(b)?;
    let files = app.config.files.clone();
    // Stopped after the ceiling, or when the client goes away (this handler is dropped with the flag's guard).
    let stop = StopOnDrop::default();
    let (flag, start) = (stop.0.clone(), stop.ceiling_from_turn(analysis::COMPARE_SECONDS));
    let answer = blocking(&app, move || {
        let _ = start.send(());
        analysis::compare(&r, &files, flag).map(Json)
    })
    .await;
    drop(stop);
    answer
}

/// `POST /api/verdict`: one JSON answer, or with `stream: true` one JSON line per event (`queued`, `stage`, `move`,
/// then `verdict` or `error`). Stopped after its ceiling, or when the client goes away (closes the stream or the
/// request: the flag's guard is dropped with it).
async fn verdict(
    State(app): State<Arc<App>>,
    b: Result<Json<VerdictRequest>, JsonRejection>,
) -> Result<axum::response::Response, ApiError> {
    let r = body(b)?;
    let ceiling = r.ceiling()?;
    let files = app.config.files.clone();
    let stop = StopOnDrop::default();
    let (flag, start) = (stop.0.clone(), stop.ceiling_from_turn(ceiling));
    if !r.stream {
        let answer = blocking(&app, move || {
            let _ = start.send(());
            let w = Watch { stop: &flag, progress: &|_| {}, t0: std::time::Instant::now() };
            verdict::verdict(&r.at, &files, &w).map(Json)
        })
        .await;
        drop(stop);
        return answer.map(IntoResponse::into_response);
    }
    // A full queue refuses before the stream starts (a 503 with one line, as without `stream`).
    let ticket = app.queue.enter()?;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let line = |v: Value| format!("{v}\n");
    if ticket.waits() {
        let _ = tx.send(line(json!({ "event": "queued", "ahead": ticket.ahead })));
    }
    tokio::spawn(async move {
        let out = match ticket.turn().await {
            Ok(place) => {
                let _ = start.send(());
                let sink = tx.clone();
                off_thread(move || {
                    let _place = place;
                    let progress = move |v: Value| {
                        let _ = sink.send(line(v));
                    };
                    let w = Watch { stop: &flag, progress: &progress, t0: std::time::Instant::now() };
                    verdict::verdict(&r.at, &files, &w)
                })
                .await
            }
            Err(e) => Err(e),
        };
        let last = match out {
            Ok(v) => json!({ "event": "verdict", "verdict": v }),
            Err(e) => json!({ "event": "error", "error": e.message }),
        };
        let _ = tx.send(line(last));
    });
    // The guard lives as long as the body: the client closing the stream drops it and stops the solver.
    let lines = tokio_stream::StreamExt::map(tokio_stream::wrappers::UnboundedReceiverStream::new(rx), move |l| {
        let _held = &stop;
        Ok::<_, std::convert::Infallible>(l)
    });
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], axum::body::Body::from_stream(lines)).into_response())
}

#[derive(serde::Deserialize)]
struct ReplayRequest {
    record: String,
}

async fn replay(State(app): State<Arc<App>>, b: Result<Json<ReplayRequest>, JsonRejection>) -> Answer {
    let r = body(b)?;
    let files = app.config.files.clone();
    blocking(&app, move || analysis::replay(&r.record, &files).map(Json)).await
}

#[derive(serde::Deserialize)]
struct PlayersQuery {
    game: Option<String>,
}

/// `GET /api/players[?game=]`: the list of `plateau players [GAME] --json`.
async fn players(
    State(app): State<Arc<App>>,
    q: Result<axum::extract::Query<PlayersQuery>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let q = q.map_err(|e| ApiError { status: e.status(), message: crate::game::one_line(&e.body_text()) })?;
    let game = match q.0.game.as_deref() {
        Some(text) => Some(AnyGame::parse_with(text, &app.config.files)?),
        None => None,
    };
    let report = crate::players::listing::report(game.as_ref());
    serde_json::to_value(report).map(Json).map_err(|e| ApiError::from(crate::game::GameError::new(e.to_string())))
}

/// A number in a tournament's path (`/api/tournaments/{n}/games/{g}`), else a one-line 400.
fn number(text: &str, what: &str) -> Result<usize, ApiError> {
    text.parse::<usize>().ok().filter(|&n| n > 0 && text.len() < 12).ok_or_else(|| {
        ApiError::bad(format!(
            "bad {what} '{}': expected a whole number from 1",
            text.chars().take(40).collect::<String>()
        ))
    })
}

async fn list_tournaments(State(app): State<Arc<App>>) -> Answer {
    off_thread(move || Ok(Json(tournaments::list(&app.tournaments)))).await
}

async fn get_tournament(State(app): State<Arc<App>>, Path(n): Path<String>) -> Answer {
    let n = number(&n, "tournament number")?;
    off_thread(move || tournaments::one(&app.tournaments, n).map(Json)).await
}

async fn tournament_game(State(app): State<Arc<App>>, Path((n, g)): Path<(String, String)>) -> Answer {
    let (n, g) = (number(&n, "tournament number")?, number(&g, "game id")?);
    off_thread(move || tournaments::game(&app.tournaments, n, g).map(Json)).await
}
