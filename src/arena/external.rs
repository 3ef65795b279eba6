//! External engines as match players: a program spoken to over UCI or UGI.
//!
//! The engine is a child process; a reader thread forwards its output lines through a channel, so the arena waits for
//! `bestmove` with a deadline. A process that exits, answers garbage or an illegal move, or misses the deadline makes
//! its player lose the game (the reason goes into the record); the process is killed and a fresh one is started for
//! the next game.
//!
//! Player strings: `uci(cmd=PATH [ARGS],variant=breakthrough,threads=1,hash=16,options=Name:Value;Name:Value)` and
//! `ugi(cmd=...,game=GAME_STRING)`; both also take `name=` (for records) and, for matches without a time control,
//! `movetime=`, `depth=` or `nodes=`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::game::{FullGame, GameError};
use crate::players::{Choice, Context, Player, PositionText, View};
use crate::protocol::Dialect;
use crate::search::{Limits, TimeControl};
use crate::spec::Spec;
struct Process {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<String>,
}

/// An external engine over UCI or UGI.
pub struct External {
    dialect: Dialect,
    cmd: Vec<String>,
    display: String,
    setoptions: Vec<(String, String)>,
    own: Limits,
    process: Option<Process>,
    /// The handshake failed (no `uciok`/`readyok` in time): later games fail at once with the same reason instead
    /// of waiting for a silent engine again.
    failed: Option<String>,
}

/// What the reader thread sends instead of a line that is not UTF-8 (then it stops).
const NOT_UTF8: &str = "\0not utf-8";

const HANDSHAKE: Duration = Duration::from_secs(20);

impl External {
    /// An external engine from its player string (`uci(cmd=...)` or `ugi(cmd=...)`).
    pub fn from_spec(dialect: Dialect, spec: &Spec) -> Result<Self, GameError> {
        let cmd_text =
            spec.text("cmd").ok_or_else(|| GameError::new(format!("{}: cmd=PATH is required", spec.name)))?;
        let cmd: Vec<String> = cmd_text.split_whitespace().map(str::to_string).collect();
        if cmd.is_empty() {
            return Err(GameError::new(format!("{}: cmd is empty", spec.name)));
        }
        let mut setoptions = Vec::new();
        match dialect {
            Dialect::Uci => {
                if let Some(v) = spec.text("variant") {
                    setoptions.push(("UCI_Variant".to_string(), v));
                }
            }
            Dialect::Ugi => {
                if let Some(v) = spec.text("game") {
                    setoptions.push(("Game".to_string(), v));
                }
            }
        }
        if let Some(t) = spec.count("threads")? {
            setoptions.push(("Threads".into(), t.to_string()));
        }
        if let Some(h) = spec.count("hash")? {
            setoptions.push(("Hash".into(), h.to_string()));
        }
        if let Some(opts) = spec.text("options") {
            for o in opts.split(';').filter(|o| !o.trim().is_empty()) {
                let (k, v) = o
                    .split_once(':')
                    .ok_or_else(|| GameError::new(format!("{}: options: '{o}' should be Name:Value", spec.name)))?;
                setoptions.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        let own = Limits {
            // The ranges of `go depth` and `go nodes` (what these limits become) and of every player's own.
            depth: match spec.has("depth") {
                true => Some(spec.int("depth", 1, 1, crate::limits::MAX_DEPTH as i64)? as u32),
                false => None,
            },
            time: spec.duration("movetime")?.map(TimeControl::MoveTime),
            nodes: spec
                .count("nodes")?
                .map(|n| crate::limits::check_nodes(&format!("{}: nodes={n}", spec.name), n))
                .transpose()
                .map_err(GameError::new)?,
        };
        let display = spec.text("name").unwrap_or_else(|| {
            let base = std::path::Path::new(&cmd[0]).file_name().map(|f| f.to_string_lossy().to_string());
            let last = cmd
                .iter()
                .skip(1)
                .find(|a| a.ends_with(".py") || a.ends_with(".sh"))
                .and_then(|a| std::path::Path::new(a).file_name().map(|f| f.to_string_lossy().to_string()));
            format!("{}({})", spec.name, last.or(base).unwrap_or_else(|| cmd[0].clone()))
        });
        spec.finish()?;
        Ok(External { dialect, cmd, display, setoptions, own, process: None, failed: None })
    }

    pub(super) fn send(&mut self, line: &str) -> Result<(), String> {
        let p = self.process.as_mut().ok_or("the engine is not running")?;
        writeln!(p.stdin, "{line}").and_then(|_| p.stdin.flush()).map_err(|e| self.crash_reason(&format!("write: {e}")))
    }

    /// Describe how the process ended (exit status when it has one).
    fn crash_reason(&mut self, what: &str) -> String {
        let status = self.process.as_mut().and_then(|p| {
            for _ in 0..20 {
                if let Ok(Some(st)) = p.child.try_wait() {
                    return Some(st);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            None
        });
        match status {
            Some(st) => format!("engine crashed ({what}; exited with {st})"),
            None => format!("engine crashed ({what})"),
        }
    }

    /// Wait for a line starting with `prefix` (other lines are skipped) until `deadline`.
    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let now = Instant::now();
            let left = deadline.saturating_duration_since(now);
            let p = self.process.as_ref().ok_or("the engine is not running")?;
            match p.rx.recv_timeout(left) {
                Ok(l) if l == NOT_UTF8 => {
                    return Err(
                        self.crash_reason(&format!("printed a line that is not UTF-8 while waiting for '{prefix}'"))
                    );
                }
                Ok(l) => {
                    if l.trim_start().starts_with(prefix) {
                        return Ok(l.trim().to_string());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("timed out: no '{prefix}' within {} ms", timeout.as_millis()));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crash_reason(&format!("output closed while waiting for '{prefix}'")));
                }
            }
        }
    }

    /// Without variant= (UCI) or game= (UGI): the full game string is sent (`breakthrough(rows=6,columns=5)`; the
    /// default board is plain `breakthrough`, as Fairy-Stockfish names it).
    fn set_game<G: FullGame>(&mut self, game: &G) {
        let key = if self.dialect == Dialect::Uci { "UCI_Variant" } else { "Game" };
        if !self.setoptions.iter().any(|(k, _)| k == key) {
            self.setoptions.insert(0, (key.into(), game.spec()));
        }
    }

    pub(super) fn start(&mut self) -> Result<(), String> {
        let mut child = Command::new(&self.cmd[0])
            .args(&self.cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", self.cmd.join(" ")))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        let reader = std::thread::Builder::new().spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = match String::from_utf8(std::mem::take(&mut bytes)) {
                    Ok(l) => l.trim_end_matches(['\n', '\r']).to_string(),
                    Err(_) => {
                        let _ = tx.send(NOT_UTF8.to_string());
                        break;
                    }
                };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("cannot start a thread to read '{}' ({e})", self.cmd.join(" ")));
        }
        self.process = Some(Process { child, stdin, rx });
        let (hello, ok) = match self.dialect {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Ugi => ("ugi", "ugiok"),
        };
        self.send(hello)?;
        if let Err(e) = self.wait_for(ok, HANDSHAKE) {
            if e.starts_with("timed out") {
                self.failed = Some(format!("handshake: {e}"));
            }
            return Err(e);
        }
        for (k, v) in self.setoptions.clone() {
            self.send(&format!("setoption name {k} value {v}"))?;
        }
        self.send("isready")?;
        self.wait_for("readyok", HANDSHAKE)?;
        Ok(())
    }

    pub(super) fn kill(&mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }

    fn think_inner(
        &mut self,
        pos: &PositionText,
        limit: Option<TimeControl>,
        hard: Duration,
    ) -> Result<String, String> {
        self.ask(&[position_line(pos)], limit, hard)
    }

    /// Send `lines`, then `go` with `limit` (or the player's own limits), and wait at most `hard` for `bestmove`:
    /// its move text.
    pub(super) fn ask(
        &mut self,
        lines: &[String],
        limit: Option<TimeControl>,
        hard: Duration,
    ) -> Result<String, String> {
        if self.process.is_none() {
            self.start()?;
        }
        for line in lines {
            self.send(line)?;
        }
        let go = match limit.or(self.own.time) {
            Some(TimeControl::MoveTime(t)) => format!("go movetime {}", t.as_millis()),
            Some(TimeControl::Clock { time, inc, moves_to_go }) => {
                let ms = |d: Duration| d.as_millis();
                let clocks = match self.dialect {
                    Dialect::Uci => format!(
                        "go wtime {} btime {} winc {} binc {}",
                        ms(time[0]),
                        ms(time[1]),
                        ms(inc[0]),
                        ms(inc[1])
                    ),
                    Dialect::Ugi => format!(
                        "go p1time {} p2time {} p1inc {} p2inc {}",
                        ms(time[0]),
                        ms(time[1]),
                        ms(inc[0]),
                        ms(inc[1])
                    ),
                };
                match moves_to_go {
                    Some(n) => format!("{clocks} movestogo {n}"),
                    None => clocks,
                }
            }
            Some(TimeControl::Infinite) => return Err("go infinite: nothing would stop the engine in a match".into()),
            None => {
                if let Some(d) = self.own.depth {
                    format!("go depth {d}")
                } else if let Some(n) = self.own.nodes {
                    format!("go nodes {n}")
                } else {
                    return Err("no time control: give the match --movetime/--tc or the player movetime=".into());
                }
            }
        };
        self.send(&go)?;
        let l = self.wait_for("bestmove", hard)?;
        let mv = l.split_whitespace().nth(1).ok_or_else(|| format!("malformed '{l}'"))?;
        Ok(mv.to_string())
    }
}

/// `position startpos [moves ...]` or `position fen TEXT [moves ...]`.
pub(super) fn position_line(pos: &PositionText) -> String {
    let mut line = match pos.fen {
        None => "position startpos".to_string(),
        Some(f) => format!("position fen {f}"),
    };
    if !pos.moves.is_empty() {
        line += " moves ";
        // One word a move: the chance outcomes among them are announced as moves (`protocol/chance.rs`).
        let words: Vec<String> = pos.moves.iter().map(|m| crate::protocol::chance::move_word(m)).collect();
        line += &words.join(" ");
    }
    line
}

impl Drop for External {
    fn drop(&mut self) {
        if self.process.is_some() {
            let _ = self.send("quit");
            if let Some(p) = self.process.as_mut() {
                for _ in 0..20 {
                    if let Ok(Some(_)) = p.child.try_wait() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
            self.kill();
        }
    }
}

impl<G: FullGame> Player<G> for External {
    fn name(&self) -> String {
        self.display.clone()
    }

    fn plays_under(&self, limits: Option<Limits>) -> String {
        match limits.and_then(|l| l.time) {
            Some(tc) => tc.to_string(),
            None => self.own.describe(),
        }
    }

    fn check_limits(&self, limits: Option<Limits>) -> Result<(), String> {
        // A program that is not there would lose every game "on a crash" and the match would read as a clean sweep.
        if !program_found(&self.cmd[0]) {
            return Err(format!(
                "{}: cannot start '{}': no such program (give its path, or a command on PATH)",
                self.display, self.cmd[0]
            ));
        }
        let own = self.own.time.is_some() || self.own.depth.is_some() || self.own.nodes.is_some();
        if limits.and_then(|l| l.time).is_none() && !own {
            return Err(format!(
                "{}: an external engine needs a limit: give the match --movetime or --tc, or the player movetime=, \
                 depth= or nodes=",
                self.display
            ));
        }
        Ok(())
    }

    /// The engine is started and its handshake done here, outside the clock.
    fn setup(&mut self, game: &G) -> Result<(), String> {
        self.set_game(game);
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.process.is_none()
            && let Err(e) = self.start()
        {
            self.kill();
            return Err(e);
        }
        Ok(())
    }

    fn new_game(&mut self, game: &G) -> Result<(), String> {
        Player::<G>::setup(self, game)?;
        let newgame = match self.dialect {
            Dialect::Uci => "ucinewgame",
            Dialect::Ugi => "uginewgame",
        };
        let r = self.send(newgame).and_then(|_| self.send("isready")).and_then(|_| self.wait_for("readyok", HANDSHAKE));
        if let Err(e) = r {
            self.kill();
            return Err(e);
        }
        Ok(())
    }

    // Games with simultaneous moves or hidden information over UGI: `observed.rs`.
    fn observe_start(&mut self, game: &G, start: &G::State, side: crate::game::Side) -> Result<(), String> {
        super::observed::start(self, game, start, side)
    }

    fn observe(&mut self, game: &G, observation: &str) -> Result<(), String> {
        super::observed::observe(self, game, observation)
    }

    fn choose(&mut self, game: &G, cx: Context<'_, G>) -> Result<Choice<G::Move>, String> {
        let limit = cx.limits.and_then(|l| l.time);
        let mv = match cx.view {
            View::Half(state) => super::observed::think_half(self, game, state, cx.side, &cx.history, limit, cx.hard)?,
            View::Observed { legal, text } => super::observed::choose(self, legal, text, limit, cx.hard)?,
            View::Position(state) => {
                let text = match self.think_inner(&cx.history, limit, cx.hard) {
                    Ok(t) => t,
                    Err(e) => {
                        self.kill();
                        return Err(e);
                    }
                };
                match crate::protocol::chance::parse_word(game, state, &text) {
                    Ok(m) => m,
                    Err(e) => {
                        // The engine's idea of the game differs from ours: start afresh next game.
                        self.kill();
                        return Err(format!("illegal move '{text}' from the engine: {e}"));
                    }
                }
            }
        };
        Ok(Choice::bare(mv))
    }
}

/// Whether `program` names an executable file: a path (with a `/`) directly, a bare name through `PATH`.
fn program_found(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &std::path::Path| p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    if program.contains('/') {
        return runnable(std::path::Path::new(program));
    }
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|dir| runnable(&dir.join(program))))
}
