//! The engine's move with its thinking streamed live, as server-sent events:
//!
//! ```text
//! GET /api/games/{id}/think
//!   lock the game: Table::think() -> Job (the player, the position, a fresh stop flag); the game is busy
//!   blocking thread: job.run(sink)   every completed iteration -> event "info" {depth, value, score, nodes, nps, pv}
//!   lock the game: Table::finish()   the move played -> event "done" {the new state}   (or event "error" {error})
//! ```
//!
//! The search stops (and plays its best move so far) when `POST /api/games/{id}/stop` sets the flag, when the page
//! goes away (the stream is closed), or after [`MAX_THINK`](super::MAX_THINK).

use std::convert::Infallible;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::response::sse::{Event, KeepAlive, Sse};
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tokio_stream::Stream;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

use super::{ApiError, MAX_THINK, Shared, lock};
use crate::game::{Game, describe_score};
use crate::players::{Context, Player, PositionText, View};
use crate::search::{Iteration, Limits, Reporter};

/// Where a search's iterations go, as JSON.
pub type Sink = Arc<dyn Fn(Value) + Send + Sync>;

/// A search taken out of a game, to run without holding its lock.
pub struct Job {
    /// The ply it answers (the game's move count when it started).
    pub ply: usize,
    pub stop: Arc<AtomicBool>,
    pub run: Box<dyn FnOnce(Sink) -> Result<String, String> + Send>,
}

/// One iteration as the page shows it.
fn iteration<G: Game>(game: &G, state: &G::State, it: &Iteration<G::Move>) -> Value {
    let pv = crate::game::line_words(game, state, &it.pv);
    let seconds = it.elapsed.as_secs_f64();
    json!({
        "depth": it.depth, "seldepth": it.seldepth, "value": it.value, "score": describe_score(it.value),
        "nodes": it.nodes, "nps": if seconds > 0.0 { (it.nodes as f64 / seconds) as u64 } else { 0 },
        "seconds": seconds, "pv": pv,
    })
}

/// Ask `player` for its move in `state` (the game so far: `history`) under `limits` (added to its own), with `stop`,
/// every iteration into `sink`; the move found, written.
pub fn search<G: Game>(
    game: &G,
    state: &G::State,
    player: &Mutex<Box<dyn Player<G>>>,
    history: PositionText,
    limits: Option<Limits>,
    stop: Arc<AtomicBool>,
    sink: Sink,
) -> Result<String, String> {
    let mut p = lock(player);
    let (g, s) = (game.clone(), *state);
    let reported = Arc::new(AtomicBool::new(false));
    let (seen, report) = (reported.clone(), sink.clone());
    let progress: Reporter<G::Move> = Arc::new(move |it: &Iteration<G::Move>| {
        seen.store(true, Ordering::Relaxed);
        report(iteration(&g, &s, it))
    });
    let cx = Context {
        view: View::Position(state),
        side: game.side_to_move(state),
        history,
        limits,
        hard: MAX_THINK,
        stop: Some(stop),
        progress: Some(progress),
    };
    let c = p.choose(game, cx)?;
    // A player that reports no iteration (a fixed-depth catalogue search) shows its final result as one, when it has
    // one (an external engine gives a move only).
    if !reported.load(Ordering::Relaxed)
        && let Some(value) = c.value
    {
        let elapsed = std::time::Duration::from_secs_f64(c.seconds.max(0.0));
        let it = Iteration {
            depth: c.depth,
            seldepth: None,
            value,
            nodes: c.stats.nodes,
            elapsed,
            hashfull: None,
            pv: c.pv,
        };
        sink(iteration(game, state, &it));
    }
    Ok(game.format_move(state, c.mv))
}

/// `sink` without what would tell the other side's plans: the principal variation, the value and the score of each
/// iteration (depth, nodes and time stay, so the page still shows that the search runs).
pub fn redacted(sink: Sink) -> Sink {
    Arc::new(move |mut v: Value| {
        if let Some(o) = v.as_object_mut() {
            for key in ["pv", "value", "score", "seldepth"] {
                o.remove(key);
            }
        }
        sink(v)
    })
}

fn event(name: &str, data: &Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// Start the search of game `id` and stream it.
pub fn stream(shared: Shared, id: u64) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let job = lock(&shared).think()?;
    let (tx, rx) = unbounded_channel::<Event>();
    let stop = job.stop.clone();
    let watchdog = stop.clone();
    tokio::spawn(async move {
        tokio::time::sleep(MAX_THINK).await;
        watchdog.store(true, Ordering::Relaxed);
    });
    // The sender sits in a cell the job's end empties, so the stream ends even if the searcher kept the sink.
    let cell: Arc<Mutex<Option<UnboundedSender<Event>>>> = Arc::new(Mutex::new(Some(tx)));
    let (sink_cell, sink_stop) = (cell.clone(), stop.clone());
    let sink: Sink = Arc::new(move |v: Value| {
        let gone = match lock(&sink_cell).as_ref() {
            Some(tx) => tx.send(event("info", &v)).is_err(),
            None => true,
        };
        if gone {
            // Nobody watches any more: play the best move so far.
            sink_stop.store(true, Ordering::Relaxed);
        }
    });
    tokio::task::spawn_blocking(move || {
        let t0 = Instant::now();
        let found = std::panic::catch_unwind(AssertUnwindSafe(|| (job.run)(sink)))
            .unwrap_or_else(|_| Err("the search failed (a bug: please report the position)".to_string()));
        let ms = t0.elapsed().as_millis() as u64;
        let last = {
            let mut table = lock(&shared);
            match table.finish(job.ply, found, ms) {
                Ok(()) => event("done", &table.state(id)),
                Err(e) => event("error", &json!({ "error": e.message })),
            }
        };
        if let Some(tx) = lock(&cell).take() {
            let _ = tx.send(last);
        }
    });
    let events = UnboundedReceiverStream::new(rx).map(Ok::<_, Infallible>);
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}
