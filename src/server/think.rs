//! The engine's move with its thinking streamed live, as server-sent events:
//!
//! ```text
//! GET /api/games/{id}/think
//!   lock the game: Table::think() -> Job (the player, the position, a fresh stop flag, its Watch); the game is busy
//!   blocking thread: job.run(sink)   every completed iteration -> event "info" {depth, value, score, nodes, nps, pv}
//!   lock the game: Table::finish()   the move played -> event "done" {the new state}   (or event "error" {error})
//!                                    the search was cancelled (undo, delete) -> event "cancelled" {the state now}
//! GET /api/games/{id}/think while it runs (a reload, a second tab): joins the same search, its iterations so far first
//! ```
//!
//! The search stops (and plays its best move so far) when `POST /api/games/{id}/stop` sets the flag, when every page
//! watching it went away (their streams are closed: seen at its next iteration, or within 250 ms), or after
//! [`MAX_THINK`](super::MAX_THINK); it is cancelled (its move never played) by an undo or a deletion of its game.

use std::convert::Infallible;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::response::sse::{Event, KeepAlive, Sse};
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio_stream::Stream;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

use super::queue::{Place, Queue};
use super::{ApiError, MAX_THINK, Shared, lock};
use crate::game::{FullGame, describe_score};
use crate::players::{Context, Player, PositionText, View};
use crate::search::{Iteration, Limits, Reporter};

/// Where a search's iterations go, as JSON.
pub(crate) type Sink = Arc<dyn Fn(Value) + Send + Sync>;

/// Iterations kept for a page that joins a running search (the latest ones).
const SEEN_KEPT: usize = 256;

/// The pages watching one search: every iteration goes to each of them, and is kept for a page that joins later.
#[derive(Clone, Default)]
pub(crate) struct Watch(Arc<Mutex<Watchers>>);

#[derive(Default)]
struct Watchers {
    senders: Vec<UnboundedSender<Event>>,
    seen: Vec<Value>,
}

impl Watch {
    /// A new watcher: it receives the iterations so far at once, then the others as they come, then the end.
    pub fn attach(&self) -> UnboundedReceiver<Event> {
        let (tx, rx) = unbounded_channel();
        let mut w = lock(&self.0);
        for v in &w.seen {
            let _ = tx.send(event("info", v));
        }
        w.senders.push(tx);
        rx
    }

    /// Send an iteration to every watcher; false when none is left (every page went away).
    fn info(&self, v: Value) -> bool {
        let mut w = lock(&self.0);
        let e = event("info", &v);
        w.senders.retain(|tx| tx.send(e.clone()).is_ok());
        w.seen.push(v);
        if w.seen.len() > SEEN_KEPT {
            w.seen.remove(0);
        }
        !w.senders.is_empty()
    }

    /// Whether every page watching went away (their streams closed), seen without an iteration to send: a search that
    /// reports none for a long time (both halves of a simultaneous move, a long iteration) stops all the same.
    fn deserted(&self) -> bool {
        let mut w = lock(&self.0);
        w.senders.retain(|tx| !tx.is_closed());
        w.senders.is_empty()
    }

    /// The value of the latest iteration (None when none was reported, or its value was redacted).
    pub(crate) fn last_value(&self) -> Option<i64> {
        lock(&self.0).seen.last().and_then(|v| v["value"].as_i64())
    }

    /// Tell every watcher that the search waits for a free place in the server's queue (`ahead` jobs before it).
    fn queued(&self, ahead: usize) {
        let e = event("queued", &json!({ "ahead": ahead }));
        lock(&self.0).senders.retain(|tx| tx.send(e.clone()).is_ok());
    }

    /// The last event to every watcher; their streams end.
    fn end(&self, name: &str, data: &Value) {
        let e = event(name, data);
        for tx in std::mem::take(&mut lock(&self.0).senders) {
            let _ = tx.send(e.clone());
        }
    }
}

/// A search taken out of a game, to run without holding its lock.
pub struct Job {
    /// Which search of its game this is: [`Table::finish`](super::Table::finish) plays its move only if the game still
    /// waits for it (no undo or deletion cancelled it meanwhile).
    pub(crate) token: u64,
    pub stop: Arc<AtomicBool>,
    pub(crate) watch: Watch,
    pub run: Box<dyn FnOnce(Sink) -> Result<String, String> + Send>,
}

/// One iteration as the page shows it.
fn iteration<G: FullGame>(game: &G, state: &G::State, it: &Iteration<G::Move>) -> Value {
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
pub fn search<G: FullGame>(
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
pub(crate) fn redacted(sink: Sink) -> Sink {
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

/// The events of `rx` as a server-sent event stream.
fn sse(rx: UnboundedReceiver<Event>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    Sse::new(UnboundedReceiverStream::new(rx).map(Ok::<_, Infallible>)).keep_alive(KeepAlive::default())
}

/// Start the search of game `id` when its turn in `queue` comes, and stream it; while a search runs, join it.
pub fn stream(
    shared: Shared,
    id: u64,
    queue: &Queue,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>> + use<>>, ApiError> {
    let mut table = lock(&shared);
    if let Some(watch) = table.watching() {
        return Ok(sse(watch.attach()));
    }
    // A full queue refuses before the game is taken: it stays idle.
    let ticket = queue.enter()?;
    let job = table.think()?;
    drop(table);
    let rx = job.watch.attach();
    if ticket.waits() {
        job.watch.queued(ticket.ahead);
    }
    let stop = job.stop.clone();
    let (watchdog, watched) = (stop.clone(), job.watch.clone());
    let (watch, sink_stop) = (job.watch.clone(), stop.clone());
    let sink: Sink = Arc::new(move |v: Value| {
        if !watch.info(v) {
            // Nobody watches any more: play the best move so far.
            sink_stop.store(true, Ordering::Relaxed);
        }
    });
    tokio::spawn(async move {
        // The search's clock and the server's ceiling start when its turn comes, not while it waits.
        let place = ticket.turn().await.ok();
        tokio::spawn(async move {
            // The ceiling, or every page gone (looked at 4 times a second; the search's end leaves no page either).
            let t0 = Instant::now();
            while t0.elapsed() < MAX_THINK && !watched.deserted() {
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            }
            watchdog.store(true, Ordering::Relaxed);
        });
        run(job, sink, shared, id, place);
    });
    Ok(sse(rx))
}

/// Run `job` on a blocking thread, holding its place in the queue; its end to every watcher.
fn run(job: Job, sink: Sink, shared: Shared, id: u64, place: Option<Place>) {
    tokio::task::spawn_blocking(move || {
        let _place = place;
        let t0 = Instant::now();
        let found = std::panic::catch_unwind(AssertUnwindSafe(|| (job.run)(sink)))
            .unwrap_or_else(|_| Err("the search failed (a bug: please report the position)".to_string()));
        let ms = t0.elapsed().as_millis() as u64;
        // Under the game's lock: a page joining now either gets this end or finds the game idle.
        let mut table = lock(&shared);
        match table.finish(job.token, found, ms) {
            Ok(true) => job.watch.end("done", &table.state(id)),
            Ok(false) => job.watch.end("cancelled", &table.state(id)),
            Err(e) => job.watch.end("error", &json!({ "error": e.message })),
        }
    });
}
