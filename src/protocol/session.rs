//! The command loop shared by UCI and UGI, and the per-game engine state behind it.
//!
//! ```text
//! loop over input lines:
//!     split into words; dispatch on the first
//!     isready -> readyok (at once, even while searching)
//!     stop    -> set the stop flag, join the worker (which prints bestmove)
//!     quit    -> stop, join, return
//!     go      -> start a worker thread: search, (infinite: wait for stop), print info + bestmove
//!     other commands while a worker runs -> wait for it if it already answered, else refuse with an error line
//!     errors  -> "info string error ..." and go on
//! ```
//!
//! The game can change at run time (`UCI_Variant`, UGI's `Game` option), so the loop keeps a type-erased
//! [`SessionEngine`] built for the current game by [`with_game!`](crate::games::with_game).

pub(crate) use super::position::parse_fen;
pub use super::position::replay;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{Dialect, GoParams, format_score, parse_go, parse_position, parse_setoption};
use crate::game::{FullGame, Outcome, Side};
use crate::games::AnyGame;
use crate::games::with_game;
use crate::players::{Context, Player};
use crate::search::{Iteration, Reporter};
use crate::spec::Spec;

pub use super::out::Out;

/// Engine settings that survive a change of game.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The player string (`engine`, `alphabeta`, ...), rebuilt with `tt=` and `threads=` when Hash/Threads are set.
    pub player: String,
    pub(crate) hash_mb: Option<u64>,
    pub threads: Option<u64>,
}

/// The default player of `plateau uci`/`ugi` for game `G` (the engine where it plays).
pub fn default_player<G: FullGame>() -> String {
    crate::players::default_for::<G>().into()
}

fn default_player_of<G: FullGame>(_game: &G) -> String {
    default_player::<G>()
}

/// Build the player for `settings`: the player string, plus `tt=` / `threads=` for players that accept them.
pub(crate) fn build_player<G: FullGame>(settings: &Settings) -> Result<Box<dyn Player<G>>, String> {
    let base = Spec::parse(&settings.player).map_err(|e| e.to_string())?;
    // The registry says which protocol options the player takes: the player is built once.
    let accepts = crate::players::find(&base.name).map_or(&[][..], |p| p.protocol_options);
    let mut extra: Vec<String> = Vec::new();
    for (key, value) in
        [("tt", settings.hash_mb.map(|m| format!("{m}mb"))), ("threads", settings.threads.map(|t| t.to_string()))]
    {
        if let Some(value) = value
            && accepts.contains(&key)
            && !base.has(key)
        {
            extra.push(format!("{key}={value}"));
        }
    }
    crate::players::build::<G>(&with_params(&settings.player, &extra)).map_err(|e| e.to_string())
}

/// `NAME(a=1)` + `b=2` -> `NAME(a=1,b=2)`.
fn with_params(player: &str, params: &[String]) -> String {
    if params.is_empty() {
        return player.to_string();
    }
    let p = player.trim();
    match p.strip_suffix(')') {
        Some(head) if head.ends_with('(') => format!("{head}{})", params.join(",")),
        Some(head) => format!("{head},{})", params.join(",")),
        None => format!("{p}({})", params.join(",")),
    }
}

/// A type-erased engine for one game.
pub(crate) trait SessionEngine: Send {
    /// The game string.
    fn game_spec(&self) -> String;
    fn new_game(&mut self);
    /// Set the position; on an illegal move the position stops before it and the error is returned.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String>;
    /// Answer a UGI `query`.
    fn query(&self, what: &str) -> Result<String, String>;
    /// Start a search on a worker thread.
    fn go(&mut self, params: &GoParams, out: &Out) -> Result<(), String>;
    /// Whether a search is running and has not printed its `bestmove` yet.
    fn thinking(&self) -> bool;
    /// Whether a worker thread exists (finished or not).
    fn has_worker(&self) -> bool;
    /// Ask the running search to stop.
    fn stop(&self);
    /// Wait for the worker thread and take the player back.
    fn join(&mut self);
    /// Rebuild the player after a settings change.
    fn rebuild(&mut self, settings: &Settings) -> Result<(), String>;
    /// The referee lines of games with simultaneous moves or hidden information (`side`, `observation`, `legal`;
    /// `protocol/observed.rs`): `None` when `cmd` is not one of this engine's.
    fn referee_line(&mut self, cmd: &str, line: &str) -> Option<Result<(), String>> {
        let _ = (cmd, line);
        None
    }
}

struct Worker<G: FullGame> {
    handle: JoinHandle<Box<dyn Player<G>>>,
    answer: Arc<Answer>,
    out: Out,
}

/// Who prints `bestmove`: the search thread when it finishes, or, on `stop`, the command loop itself with the best
/// move of the last completed iteration (the first move of the last `info ... pv`), so that the answer does not wait
/// for the search thread to be scheduled on a loaded machine. The first one to answer wins; the other stays silent.
/// Searchers that report no iteration (the catalogue) are waited for.
#[derive(Default)]
struct Answer {
    answered: Mutex<bool>,
    /// The best move of the last completed iteration, once one was reported.
    latest: Mutex<Option<String>>,
}

impl Answer {
    fn is_answered(&self) -> bool {
        self.answered.lock().map(|a| *a).unwrap_or(true)
    }

    /// Print `info` (if any) and `bestmove MOVE` unless someone already answered.
    fn answer(&self, out: &Out, info: Option<&str>, best: &str) {
        let Ok(mut answered) = self.answered.lock() else { return };
        if *answered {
            return;
        }
        if let Some(info) = info {
            out.line(info);
        }
        out.line(&format!("bestmove {best}"));
        *answered = true;
    }
}

/// The `info` line of an iteration: `info depth D [seldepth S] score cp X|mate N nodes N nps N time MS [hashfull H]
/// pv ...`.
pub(crate) fn info_line<G: FullGame>(game: &G, state: &G::State, it: &Iteration<G::Move>) -> String {
    let ms = it.elapsed.as_millis() as u64;
    let nps = (it.nodes as f64 / it.elapsed.as_secs_f64().max(1e-3)) as u64;
    let mut line = format!("info depth {}", it.depth);
    if let Some(sd) = it.seldepth {
        line += &format!(" seldepth {sd}");
    }
    line += &format!(" score {} nodes {} nps {nps} time {ms}", format_score(it.value), it.nodes);
    if let Some(h) = it.hashfull {
        line += &format!(" hashfull {h}");
    }
    let pv: Vec<String> =
        crate::game::line_words(game, state, &it.pv).iter().map(|w| super::chance::move_word(w)).collect();
    if !pv.is_empty() {
        line += " pv ";
        line += &pv.join(" ");
    }
    line
}

/// The engine state for a game `G`.
pub(crate) struct GameEngine<G: FullGame> {
    game: G,
    state: G::State,
    player: Option<Box<dyn Player<G>>>,
    worker: Option<Worker<G>>,
    stop: Arc<AtomicBool>,
}

impl<G: FullGame> GameEngine<G> {
    pub fn new(game: G, settings: &Settings) -> Result<Self, String> {
        let mut player = build_player::<G>(settings)?;
        // Tables and evaluations are built here, when the game is set (before `readyok`), not in the first `go`.
        player.setup(&game)?;
        let state = game.start();
        Ok(GameEngine { game, state, player: Some(player), worker: None, stop: Arc::new(AtomicBool::new(false)) })
    }
}

impl<G: FullGame> SessionEngine for GameEngine<G> {
    fn game_spec(&self) -> String {
        self.game.spec()
    }

    fn new_game(&mut self) {
        if let Some(p) = self.player.as_mut() {
            // (A built-in player's new game does not fail: its setup was done when it was built.)
            let _ = p.new_game(&self.game);
        }
        self.state = self.game.start();
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
        let game = &self.game;
        let (s, result) = replay(game, fen, moves, |s, m| {
            let mv = super::chance::parse_word(game, s, m)?;
            game.play(s, mv);
            Ok(())
        })?;
        self.state = s;
        result
    }

    fn query(&self, what: &str) -> Result<String, String> {
        let s = &self.state;
        let outcome = self.game.outcome(s);
        let stm = self.game.side_to_move(s);
        match what {
            "gameover" => Ok(outcome.is_some().to_string()),
            "p1turn" => Ok((stm == Side::First).to_string()),
            "result" => Ok(match outcome {
                None => "none".into(),
                Some(Outcome::Draw) => "draw".into(),
                Some(o) => {
                    let stm_wins = match o {
                        Outcome::Value(0) => return Ok("draw".into()),
                        Outcome::Value(v) => v > 0,
                        o => o == Outcome::Win,
                    };
                    if stm_wins == (stm == Side::First) { "p1win".into() } else { "p2win".into() }
                }
            }),
            "fen" | "position" => Ok(self.game.format_position(s)),
            other => Err(format!("query: unknown question '{other}' (known: gameover, p1turn, result, fen)")),
        }
    }

    fn go(&mut self, params: &GoParams, out: &Out) -> Result<(), String> {
        if self.worker.is_some() {
            return Err("go: a search is already running (send stop first)".into());
        }
        let Some(player) = self.player.take() else {
            return Err("go: no player (set the Player option)".into());
        };
        let state = self.state;
        let game = self.game.clone();
        if game.is_terminal(&state) {
            self.player = Some(player);
            out.error("go: the game is over in this position");
            out.line("bestmove (none)");
            return Ok(());
        }
        if let Some(e) = super::chance::go_refusal(&game, &state) {
            self.player = Some(player);
            out.error(&e);
            out.line("bestmove (none)");
            return Ok(());
        }
        let infinite = params.unlimited();
        let limits = params.limits(game.side_to_move(&state));
        self.stop.store(false, Ordering::SeqCst);
        let answer = Arc::new(Answer::default());
        let start = Instant::now();
        let reporter: Reporter<G::Move> = {
            let (game, out, answer) = (game.clone(), out.clone(), answer.clone());
            Arc::new(move |it: &Iteration<G::Move>| {
                // Holding the lock: no `info` after `bestmove`.
                let Ok(answered) = answer.answered.lock() else { return };
                if *answered {
                    return;
                }
                if let Some(&m) = it.pv.first()
                    && let Ok(mut latest) = answer.latest.lock()
                {
                    *latest = Some(super::chance::move_word(&game.format_move(&state, m)));
                }
                out.line(&info_line(&game, &state, it));
                drop(answered);
            })
        };
        let stop = self.stop.clone();
        let answer2 = answer.clone();
        let worker_out = out.clone();
        // The player waits in a slot the thread takes it from: if the thread cannot start, it is taken back.
        let slot = Arc::new(Mutex::new(Some(player)));
        let slot2 = slot.clone();
        let flag = self.stop.clone();
        let spawned = std::thread::Builder::new().spawn(move || {
            let mut player = slot2.lock().ok().and_then(|mut s| s.take()).expect("the player waits in its slot");
            let cx = Context {
                limits: Some(limits),
                stop: Some(flag),
                progress: Some(reporter),
                ..Context::position(&game, &state)
            };
            let r = player.choose(&game, cx);
            if infinite {
                // `go infinite` / `go ponder`: the answer waits for stop (which unparks this thread).
                while !stop.load(Ordering::SeqCst) {
                    std::thread::park_timeout(Duration::from_millis(50));
                }
            }
            match r {
                Ok(c) => {
                    let it = c.value.map(|value| Iteration {
                        depth: c.depth,
                        seldepth: None,
                        value,
                        nodes: c.stats.nodes,
                        elapsed: start.elapsed(),
                        hashfull: None,
                        pv: c.pv.clone(),
                    });
                    let info = it.map(|it| info_line(&game, &state, &it));
                    let best = super::chance::move_word(&game.format_move(&state, c.mv));
                    answer2.answer(&worker_out, info.as_deref(), &best);
                }
                Err(e) => {
                    worker_out.error(&format!("go: {e}"));
                    answer2.answer(&worker_out, None, "(none)");
                }
            }
            player
        });
        match spawned {
            Ok(handle) => {
                self.worker = Some(Worker { handle, answer, out: out.clone() });
                Ok(())
            }
            Err(e) => {
                self.player = slot.lock().ok().and_then(|mut s| s.take());
                Err(format!("go: cannot start the search thread ({e})"))
            }
        }
    }

    fn thinking(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.answer.is_answered())
    }

    fn has_worker(&self) -> bool {
        self.worker.is_some()
    }

    fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(w) = &self.worker {
            w.handle.thread().unpark();
            // Answer now with the last completed iteration's move; without one, `join` waits for the search thread.
            let latest = w.answer.latest.lock().ok().and_then(|l| l.clone());
            if let Some(best) = latest {
                w.answer.answer(&w.out, None, &best);
            }
        }
    }

    fn join(&mut self) {
        if let Some(w) = self.worker.take() {
            // A searcher may clear the flag when its search starts: keep it raised until the worker is done.
            if self.stop.load(Ordering::SeqCst) {
                while !w.handle.is_finished() {
                    self.stop.store(true, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_micros(200));
                }
            }
            match w.handle.join() {
                Ok(p) => self.player = Some(p),
                Err(_) => self.player = None,
            }
        }
    }

    fn rebuild(&mut self, settings: &Settings) -> Result<(), String> {
        self.join();
        let mut player = build_player::<G>(settings)?;
        player.setup(&self.game)?;
        self.player = Some(player);
        Ok(())
    }
}

/// Build the engine for a game string.
pub(crate) fn engine_for(game: &str, settings: &Settings) -> Result<Box<dyn SessionEngine>, String> {
    engine_for_game(AnyGame::parse(game).map_err(|e| e.to_string())?, settings)
}

/// Build the engine for a parsed game.
pub(crate) fn engine_for_game(any: AnyGame, settings: &Settings) -> Result<Box<dyn SessionEngine>, String> {
    if super::observed::carries(any.kind()) {
        // UGI's referee lines (protocol/observed.rs).
        return with_game!(any, g => Ok(Box::new(super::observed::ObservedEngine::new(g, settings)?) as Box<dyn SessionEngine>));
    }
    if !super::chance::carries(any.kind()) {
        // UCI and UGI have no words for joint moves or private views (chance draws are moves: `chance.rs`).
        return Err(format!(
            "the engine protocols carry sequential games of perfect information (chance included); this game has {}",
            any.kind().describe()
        ));
    }
    with_game!(any, g => Ok(Box::new(GameEngine::new(g, settings)?) as Box<dyn SessionEngine>))
}

/// The error [`run`] ends with when its output was closed (the GUI went away): `plateau uci` exits as a closed
/// stdout ends every command (141).
pub(crate) const OUTPUT_CLOSED: &str = "the protocol's output was closed";

/// Run the protocol loop until `quit`, the end of the input, or a closed output ([`OUTPUT_CLOSED`]). The end of the input is a `quit`: a search still
/// running is stopped and answers (`bestmove`) before the loop returns, as `quit` does (no search thread is left
/// behind, no answer lost when a script is piped in).
pub fn run(
    dialect: Dialect,
    game: &str,
    player: Option<&str>,
    input: &mut dyn BufRead,
    out: Out,
) -> Result<(), String> {
    let any = AnyGame::parse(game).map_err(|e| e.to_string())?;
    let player = match player {
        Some(p) => p.to_string(),
        None => with_game!(&any, g => default_player_of(g)),
    };
    let mut settings = Settings { player, hash_mb: None, threads: None };
    let mut engine = engine_for_game(any, &settings)?;
    let mut line = String::new();
    loop {
        if out.is_closed() {
            engine.stop();
            engine.join();
            return Err(OUTPUT_CLOSED.to_string());
        }
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => {
                engine.stop();
                engine.join();
                break;
            }
            Ok(_) => {}
            // Invalid UTF-8 and similar: report and go on.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                out.error("input is not valid UTF-8");
                continue;
            }
            Err(_) => {
                engine.stop();
                engine.join();
                break;
            }
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        let args = &words[1..];
        match cmd {
            "isready" => {
                out.line("readyok");
                continue;
            }
            "stop" => {
                engine.stop();
                engine.join();
                continue;
            }
            "quit" => {
                engine.stop();
                engine.join();
                break;
            }
            // `go ponder` searches until `ponderhit` or `stop`; both answer at once with the best move so far.
            "ponderhit" => {
                engine.stop();
                engine.join();
                continue;
            }
            "debug" | "register" => continue,
            _ => {}
        }
        if engine.has_worker() {
            if engine.thinking() {
                out.error(&format!("'{cmd}' ignored while searching (send stop first)"));
                continue;
            }
            engine.join();
        }
        if let Some(r) = engine.referee_line(cmd, &line) {
            if let Err(e) = r {
                out.error(&e);
            }
            continue;
        }
        let r: Result<(), String> = match cmd {
            "uci" | "ugi" => {
                let text = match cmd {
                    "uci" => super::uci::handshake(&engine.game_spec(), &settings),
                    _ => super::ugi::handshake(&engine.game_spec(), &settings),
                };
                for l in text {
                    out.line(&l);
                }
                Ok(())
            }
            "ucinewgame" | "uginewgame" | "newgame" => {
                engine.new_game();
                Ok(())
            }
            "setoption" => parse_setoption(args)
                .and_then(|(name, value)| set_option(&name, &value, &mut settings, &mut engine, &out)),
            "position" => parse_position(args).and_then(|p| engine.set_position(p.fen.as_deref(), &p.moves)),
            "go" => parse_go(args).and_then(|g| engine.go(&g, &out)),
            "query" => match args {
                [what] => engine.query(what).map(|a| out.line(&format!("response {a}"))),
                _ => Err("query: expected one of gameover, p1turn, result".into()),
            },
            other => Err(format!(
                "unknown command '{other}' (known: {}, isready, setoption, position, go, stop, query, quit)",
                match dialect {
                    Dialect::Uci => "uci, ucinewgame",
                    Dialect::Ugi => "ugi, uginewgame",
                }
            )),
        };
        if let Err(e) = r {
            out.error(&e);
        }
    }
    Ok(())
}

/// Rebuild the player with the new settings; when that fails, `restore` the old setting and rebuild with it.
fn rebuild_or_restore(
    engine: &mut Box<dyn SessionEngine>,
    settings: &mut Settings,
    restore: impl FnOnce(&mut Settings),
    name: &str,
) -> Result<(), String> {
    engine.rebuild(settings).map_err(|e| {
        restore(settings);
        let _ = engine.rebuild(settings);
        format!("setoption {name}: {e}")
    })
}

fn set_option(
    name: &str,
    value: &str,
    settings: &mut Settings,
    engine: &mut Box<dyn SessionEngine>,
    out: &Out,
) -> Result<(), String> {
    let number = |min: u64, max: u64| -> Result<u64, String> {
        let x: u64 = value.trim().parse().map_err(|_| format!("setoption {name}: '{value}' is not a whole number"))?;
        if x < min || x > max {
            return Err(format!("setoption {name}: {x} is out of range {min}..={max}"));
        }
        Ok(x)
    };
    match name.to_ascii_lowercase().as_str() {
        "uci_variant" | "game" | "variant" => {
            let new = engine_for(value, settings)?;
            *engine = new;
            out.line(&format!("info string game {}", engine.game_spec()));
            Ok(())
        }
        // Out of range, or refused by the player: an error line, and the previous setting stays.
        "hash" => {
            let old = settings.hash_mb.replace(number(1, super::max_hash_mb())?);
            rebuild_or_restore(engine, settings, |s| s.hash_mb = old, name)
        }
        "threads" => {
            let old = settings.threads.replace(number(1, crate::limits::MAX_THREADS as u64)?);
            rebuild_or_restore(engine, settings, |s| s.threads = old, name)
        }
        "player" => {
            let old = std::mem::replace(&mut settings.player, value.trim().to_string());
            if let Err(e) = engine.rebuild(settings) {
                settings.player = old;
                let _ = engine.rebuild(settings);
                return Err(format!("setoption Player: {e}"));
            }
            Ok(())
        }
        // Options GUIs commonly send that change nothing here.
        "clear hash" | "ponder" | "uci_chess960" | "multipv" | "move overhead" | "uci_analysemode" => Ok(()),
        _ => Err(format!("setoption: unknown option '{name}'")),
    }
}
