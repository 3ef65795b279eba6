//! `plateau serve`: the local web page (play, watch the engine think, the course's trees and tables, replays) and
//! its JSON API under `/api/` (documented in `docs/server.md`).
//!
//! ```text
//! GET  /                       the page (index.html, style.css, app.js and js/*.js: embedded in the binary, assets.rs)
//! /api/...                     api.rs: one handler per endpoint, each returning Result<_, ApiError>
//!   games                      session.rs: a game in play, behind the object-safe `Table` (one `Session<G>` per game);
//!                              seat.rs: who plays a side; clock.rs: the clocks under a time control
//!   games/{id}/think           think.rs: the engine's search on a blocking thread, its iterations streamed as SSE
//!   tree, compare, replay      analysis.rs: stateless analyses of a position (game string + moves)
//!   verdict                    verdict.rs (connect4.rs): the solvers' values of every move, streamed, cancellable
//!   tournaments[/{n}[/games/{g}]]  tournaments.rs: the operator's tournaments (--tournament), read from their files
//! ```
//!
//! Limits: request bodies of at most [`Config::max_body`] bytes, at most [`Config::max_games`] games at once (a new
//! game past that is a 503), a game left alone for [`Config::idle`] expires (its id then answers 404 "expired"; a game
//! whose engine is thinking never expires), every search under [`MAX_THINK`]; player strings that start a program
//! (`uci(...)`, `ugi(...)`) are refused unless `--allow-external`; no parameter of a request may name a file unless
//! the operator allowed that file (`--allow-file PATH`, [`Config::files`]); the only other files read are the
//! tournaments' the operator listed (`--tournament`, [`Config::tournaments`]), named in requests by their number. Bad input is a 4xx answer whose body is
//! `{"error": "one line"}`; a handler never panics on input.

mod analysis;
mod api;
mod assets;
mod clock;
mod connect4;
mod queue;
mod seat;
mod session;
mod think;
mod tournaments;
mod verdict;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::files::FileAccess;
use crate::game::GameError;
pub(crate) use session::Table;
pub use tournaments::TournamentSource;

/// Longest search the server runs for one move or analysis; a player's own limit may be shorter.
pub(crate) const MAX_THINK: Duration = Duration::from_secs(60);
/// A game not touched for this long expires (the default of `plateau serve --idle`).
pub(crate) const IDLE: Duration = Duration::from_secs(3600);
/// How many expired ids the server remembers, to answer "expired" rather than "no game".
const EXPIRED_KEPT: usize = 4096;

/// What the server allows.
#[derive(Clone, Debug)]
pub struct Config {
    /// Player strings that start another program (`uci(cmd=...)`, `ugi(cmd=...)`) are accepted.
    pub allow_external: bool,
    /// Games kept at once.
    pub max_games: usize,
    /// A game nobody touched (no request naming it) for this long expires, unless its engine is thinking.
    pub idle: Duration,
    /// Largest request body, in bytes.
    pub max_body: usize,
    /// Searches and analyses run at once (one per core by default); the others wait their turn (`queue.rs`).
    pub jobs: usize,
    /// Most jobs waiting for their turn; one more is refused with a 503.
    pub queue: usize,
    /// The files a request's game and player strings may name (`tree(file=...)`, `engine(book=...)`): none unless
    /// the operator lists them (`--allow-file PATH`). No request makes the server open any other file.
    pub files: FileAccess,
    /// The tournaments shown (`--tournament RESULTS[,RECORD]`): their files are read, never written, and only these.
    pub tournaments: Vec<TournamentSource>,
    /// `--seed N`: every random choice of a game (its players', its chance draws) comes from (N, the game's id, the
    /// seat), so that a server started again with the same seed replays its games; `None`: from the system.
    pub seed: Option<u64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            allow_external: false,
            max_games: 256,
            idle: IDLE,
            max_body: 256 * 1024,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            queue: 256,
            files: FileAccess::none(),
            tournaments: Vec::new(),
            seed: None,
        }
    }
}

/// A refused request: the status and a one-line message, sent as `{"error": message}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }
    pub(crate) fn not_found(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::NOT_FOUND, message: message.into() }
    }
    pub(crate) fn conflict(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::CONFLICT, message: message.into() }
    }
    pub(crate) fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::FORBIDDEN, message: message.into() }
    }
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::SERVICE_UNAVAILABLE, message: message.into() }
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> Self {
        ApiError::bad(e.0)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let line = crate::game::one_line(self.message.trim_end());
        (self.status, Json(serde_json::json!({ "error": line }))).into_response()
    }
}

/// A game in the server's table.
pub(crate) type Shared = Arc<Mutex<Box<dyn Table>>>;

/// Lock a mutex even if a thread panicked while holding it (the data is a game position: still usable).
pub fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The server's state: its configuration and the games in play.
pub(crate) struct App {
    pub config: Config,
    games: Mutex<Games>,
    /// The line for the CPU: every search and analysis takes its turn.
    pub queue: Arc<queue::Queue>,
    tournaments: Vec<tournaments::Watched>,
}

#[derive(Default)]
struct Games {
    next: u64,
    map: HashMap<u64, (Shared, Instant)>,
    /// The latest expired ids (at most [`EXPIRED_KEPT`]), oldest first.
    expired: VecDeque<u64>,
}

/// A duration in words for the messages: `90 s`, `30 min`, `300 ms`.
pub(crate) fn duration_words(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(60_000) {
        format!("{} min", ms / 60_000)
    } else {
        format!("{} s", d.as_secs())
    }
}

impl App {
    pub fn new(config: Config) -> App {
        let queue = Arc::new(queue::Queue::new(config.jobs, config.queue));
        let tournaments = config.tournaments.iter().cloned().map(tournaments::Watched::new).collect();
        App { config, games: Mutex::new(Games { next: 1, ..Games::default() }), queue, tournaments }
    }

    /// Whether the game `shared`, last touched at `touched`, has expired: idle for [`Config::idle`] and not thinking
    /// (a game in use by another request right now is not idle).
    fn stale(&self, shared: &Shared, touched: Instant) -> bool {
        touched.elapsed() >= self.config.idle && shared.try_lock().is_ok_and(|t| !t.busy())
    }

    /// Drop the expired games, remembering their ids.
    fn sweep(&self, g: &mut Games) {
        let gone: Vec<u64> = g.map.iter().filter(|(_, (s, t))| self.stale(s, *t)).map(|(&id, _)| id).collect();
        for id in gone {
            g.map.remove(&id);
            g.expired.push_back(id);
        }
        while g.expired.len() > EXPIRED_KEPT {
            g.expired.pop_front();
        }
    }

    /// The id of the next game, taken now (its players are seeded from it before the game is kept): ids are never
    /// given twice, even when the game is then refused.
    pub(crate) fn next_id(&self) -> u64 {
        let mut g = lock(&self.games);
        let id = g.next;
        g.next += 1;
        id
    }

    /// Keep a new game as `id` (from [`App::next_id`], after dropping the expired ones); a 503 when
    /// [`Config::max_games`] are still in play.
    pub fn insert(&self, id: u64, table: Box<dyn Table>) -> Result<Shared, ApiError> {
        let mut g = lock(&self.games);
        self.sweep(&mut g);
        if g.map.len() >= self.config.max_games {
            return Err(ApiError::busy(format!(
                "too many games in play: the server keeps {} games at most (an idle game expires after {}); delete \
                 one (DELETE /api/games/ID) or try again later",
                self.config.max_games,
                duration_words(self.config.idle)
            )));
        }
        let shared: Shared = Arc::new(Mutex::new(table));
        g.map.insert(id, (shared.clone(), Instant::now()));
        Ok(shared)
    }

    /// The game `id` (and mark it used now); a 404 saying whether it expired.
    pub fn get(&self, id: u64) -> Result<Shared, ApiError> {
        let mut g = lock(&self.games);
        if let Some((shared, t)) = g.map.get(&id)
            && self.stale(shared, *t)
        {
            g.map.remove(&id);
            g.expired.push_back(id);
        }
        let expired = g.expired.contains(&id);
        match g.map.get_mut(&id) {
            Some((shared, t)) => {
                *t = Instant::now();
                Ok(shared.clone())
            }
            None if expired => Err(ApiError::not_found(format!(
                "game {id} expired: nobody touched it for {} (start a new one)",
                duration_words(self.config.idle)
            ))),
            None => Err(ApiError::not_found(format!("no game {id} (it ended or was deleted; start a new one)"))),
        }
    }

    /// Drop the game `id`, cancelling its search (its move is never played).
    pub fn remove(&self, id: u64) -> Result<(), ApiError> {
        match lock(&self.games).map.remove(&id) {
            Some((shared, _)) => {
                lock(&shared).cancel();
                Ok(())
            }
            None => Err(ApiError::not_found(format!("no game {id}"))),
        }
    }
}

/// The whole application: the page and the API, with the body-size limit.
pub fn router(config: Config) -> axum::Router {
    let max_body = config.max_body;
    api::routes(Arc::new(App::new(config))).layer(axum::extract::DefaultBodyLimit::max(max_body))
}

/// Serve on `host:port` until interrupted (Ctrl-C). Prints the address on stderr.
pub fn serve(host: &str, port: u16, config: Config) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {host}:{port}: {e}"))?;
        let addr = listener.local_addr()?;
        eprintln!("plateau serve: http://{addr}/ (Ctrl-C to stop)");
        axum::serve(listener, router(config))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}
