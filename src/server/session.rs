//! A game in play on the page: the rules, the positions since the start, the two seats (a human clicking, a built-in
//! player, an external engine) and the record. `Session<G>` is generic; the server keeps it behind the object-safe
//! [`Table`], built once per game by `with_game!`, so every handler reaches the game only through strings and JSON.
//!
//! ```text
//! play(text)   a human's move (at a simultaneous node: the pair A/B, or the human's half and the engine's other)
//! think()      the engine's move as a Job run on a blocking thread (think.rs), then finish(token, move) plays it
//! undo()       back to the last position where a human was to move (chance draws undone with their move); while the
//!              engine thinks, its search is cancelled first (stop flag set, its move never played: cancel())
//! chance       drawn at once after every move with the session's generator, recorded like moves
//! ```
//!
//! Hidden information: while the game goes on, everything that leaves a session of a game with hidden information
//! is what the viewing side observes ([`Session::viewer`]): the board as its observation, its own moves, a `?` for
//! each step of the other side that changed what it observes (a step it cannot notice is not listed), no principal
//! variation or score of the other side's search, a record of that view, no undo (taking back a try would tell what
//! the try met). The whole game is shown once it is over.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde_json::{Value, json};

use super::clock::Clock;
use super::seat::Seat;
use super::think::{Job, Sink, Watch};
use super::{ApiError, Config};
use crate::game::{FullGame, MoveList, Outcome, Side, Turn};
use crate::players::PositionText;
use crate::search::Limits;

mod view;

/// What the handlers do with a game, whatever its type.
pub(crate) trait Table: Send {
    /// The whole state for the page (see `docs/server.md`).
    fn state(&self, id: u64) -> Value;
    /// Play a human's move written in the game's notation. At a simultaneous node the other seat may search for its
    /// half: `stop` ends that search (the server's ceiling, the client gone), its best half so far played.
    fn play(&mut self, text: &str, stop: &Arc<AtomicBool>) -> Result<(), ApiError>;
    /// Take back moves until a human is to move again.
    fn undo(&mut self) -> Result<(), ApiError>;
    /// The game record in the arena's format (`[Result "*"]` while the game goes on).
    fn record(&self) -> String;
    /// The search of the player to move, to run away from the lock; the game is busy until [`Table::finish`].
    fn think(&mut self) -> Result<Job, ApiError>;
    /// The end of the [`Job`] `token`: its move played (true), or nothing when the search was cancelled meanwhile
    /// (false); an error when the player failed. The game is no longer busy with it.
    fn finish(&mut self, token: u64, found: Result<String, String>, ms: u64) -> Result<bool, ApiError>;
    /// Ask a running search to stop (it plays its best move so far).
    fn stop(&self);
    /// Cancel a running search: it stops and its move is never played; the game is idle at once.
    fn cancel(&mut self);
    /// Whether a search runs.
    fn busy(&self) -> bool;
    /// The pages watching the running search, to join them.
    fn watching(&self) -> Option<Watch>;
}

/// A search in progress: its token (see [`Job::token`]), its stop flag and its watchers.
struct Running {
    token: u64,
    stop: Arc<AtomicBool>,
    watch: Watch,
}

/// One game on the page.
pub(crate) struct Session<G: FullGame> {
    game: G,
    /// The start position's text when it is not the game's start.
    start_text: Option<String>,
    /// `states[0]` is the start; `states[k]` the position after `moves[k - 1]`.
    states: Vec<G::State>,
    moves: Vec<String>,
    /// Whether each step was a chance draw.
    chance: Vec<bool>,
    move_ms: Vec<u64>,
    /// The engine's value of each move (its last iteration), from the first player's view; None for a human's move,
    /// a chance draw, or a player that reports no value.
    move_value: Vec<Option<i64>>,
    /// When the current position began: a human's thinking time is counted from it.
    since: std::time::Instant,
    seats: [Seat<G>; 2],
    names: [String; 2],
    /// The search running now.
    busy: Option<Running>,
    /// The token of the latest search started.
    searches: u64,
    rng: SmallRng,
    /// The clocks under a time control (`time_control` of a new game), or none: no time limit but the players' own.
    clock: Option<Clock>,
}

impl<G: FullGame> Session<G> {
    /// A new game `id` of `game` from `position` (the start when `None`) between `players` (first, second). With
    /// [`Config::seed`], the players and the chance draws are seeded from (seed, id, seat) as a match seeds its games
    /// ([`crate::game::seed`]; seat 2: the chance draws). `time_control`: `BASE+INCREMENT` for clocks ([`Clock`]).
    pub fn create(
        game: &G,
        position: Option<&str>,
        players: &[String; 2],
        time_control: Option<&str>,
        config: &Config,
        id: u64,
    ) -> Result<Box<dyn Table>, ApiError> {
        let clock = time_control.map(str::trim).filter(|t| !t.is_empty()).map(Clock::parse).transpose()?;
        if clock.is_some() && G::KIND.simultaneous {
            return Err(ApiError::bad("time_control: not for a game of simultaneous moves (both sides move at once)"));
        }
        let seed = |seat: u64| config.seed.map(|s| crate::game::seed::derive(&[s, id, seat]));
        let start = match position.map(str::trim) {
            None | Some("") | Some("start") => game.start(),
            Some(text) => game.parse_position(text)?,
        };
        let seats =
            [Seat::build(game, &players[0], config, seed(0))?, Seat::build(game, &players[1], config, seed(1))?];
        let mut s = Session {
            game: game.clone(),
            start_text: position.map(str::trim).filter(|p| !p.is_empty() && *p != "start").map(str::to_string),
            states: vec![start],
            moves: Vec::new(),
            chance: Vec::new(),
            move_ms: Vec::new(),
            move_value: Vec::new(),
            since: std::time::Instant::now(),
            seats,
            names: players.clone(),
            busy: None,
            searches: 0,
            rng: match seed(2) {
                Some(s) => SmallRng::seed_from_u64(s),
                None => SmallRng::from_rng(&mut rand::rng()),
            },
            clock,
        };
        s.draw_chance();
        Ok(Box::new(s))
    }

    fn current(&self) -> G::State {
        *self.states.last().expect("the start is always there")
    }

    fn push(&mut self, text: String, state: G::State, chance: bool, ms: u64) {
        self.moves.push(text);
        self.states.push(state);
        self.chance.push(chance);
        self.move_ms.push(ms);
        self.move_value.push(None);
        self.since = std::time::Instant::now();
    }

    /// Draw chance outcomes until a player acts (or the game ends).
    fn draw_chance(&mut self) {
        for _ in 0..1000 {
            let s = self.current();
            if !G::KIND.chance || self.game.is_terminal(&s) || self.game.turn(&s) != Turn::Chance {
                return;
            }
            let Some(m) = self.game.random_move(&s, &mut self.rng) else { return };
            let mut next = s;
            self.game.play(&mut next, m);
            if let Some(c) = &mut self.clock {
                c.spend(None, 0, self.moves.len());
            }
            self.push(self.game.format_move(&s, m), next, true, 0);
        }
    }

    /// The player to move, if the game goes on and one player is to move.
    fn mover(&self) -> Option<Side> {
        match self.game.turn(&self.current()) {
            Turn::Player(p) if !self.game.is_terminal(&self.current()) => Some(p),
            _ => None,
        }
    }

    /// The side whose flag fell (under a clock): the game is over, that side lost on time. A human's falls while it
    /// thinks; an engine's when its move comes too late (its clock counts its real thinking time, not a wait for a
    /// free core).
    fn flag(&self) -> Option<Side> {
        let human = self.mover().filter(|&p| self.is_human(p));
        self.clock.as_ref().and_then(|c| c.fallen(human, self.since))
    }

    fn is_human(&self, p: Side) -> bool {
        matches!(self.seats[p.index()], Seat::Human)
    }

    /// Parse and play `text` at the current position (a joint move `A/B` at a simultaneous node).
    fn apply(&mut self, text: &str, ms: u64) -> Result<(), ApiError> {
        let s = self.current();
        let mut next = s;
        let written = if G::KIND.simultaneous && self.game.turn(&s) == Turn::Simultaneous {
            let (a, b) = self.game.parse_joint(&s, text)?;
            self.game.play_joint(&mut next, a, b);
            format!("{}/{}", self.game.format_move(&s, a), self.game.format_move(&s, b))
        } else {
            let m = self.game.parse_move(&s, text.trim())?;
            self.game.play(&mut next, m);
            self.game.format_move(&s, m)
        };
        // Under a clock, a move that comes after its side's time ran out is not played: the flag fell first.
        let mover = match self.game.turn(&s) {
            Turn::Player(p) => Some(p),
            _ => None,
        };
        let len = self.moves.len();
        if let Some(c) = &mut self.clock
            && !c.spend(mover, ms, len)
        {
            return Ok(());
        }
        self.push(written, next, false, ms);
        self.draw_chance();
        Ok(())
    }

    /// `player`'s half at a simultaneous node, chosen by its (non-human) seat, stopped by `stop`.
    fn half(&self, player: Side, stop: &Arc<AtomicBool>) -> Result<String, ApiError> {
        let history = PositionText { fen: self.start_text.as_deref(), moves: &self.moves };
        self.seats[player.index()].half(&self.game, &self.current(), player, history, stop)
    }

    fn check_idle(&self) -> Result<(), ApiError> {
        match self.busy {
            Some(_) => Err(ApiError::conflict("the engine is thinking: wait for its move (or stop it)")),
            None => Ok(()),
        }
    }

    /// Undo the last player move and the chance draws after it.
    fn undo_step(&mut self) {
        while self.chance.last() == Some(&true) {
            self.pop();
        }
        self.pop();
    }

    fn pop(&mut self) {
        if self.moves.pop().is_some() {
            if let Some(c) = &mut self.clock {
                c.undo(self.moves.len());
            }
            self.states.pop();
            self.chance.pop();
            self.move_ms.pop();
            self.move_value.pop();
            self.since = std::time::Instant::now();
        }
    }

    /// The result for the page: the winner (0, 1 or none) and the words.
    fn result(&self, s: &G::State) -> Value {
        if let Some(loser) = self.flag() {
            let winner = loser.other();
            let name = |p: Side| {
                self.game.player_name(p).unwrap_or(if p == Side::First {
                    "the first player"
                } else {
                    "the second player"
                })
            };
            let text = format!("{} wins on time ({}'s time ran out)", name(winner), name(loser));
            return json!({ "winner": winner.index(), "text": text, "on_time": true });
        }
        let Some(o) = self.game.outcome_for(s, Side::First) else { return Value::Null };
        let winner = match o {
            Outcome::Win => Some(Side::First),
            Outcome::Loss => Some(Side::Second),
            Outcome::Draw => None,
            Outcome::Value(v) => (v != 0).then_some(if v > 0 { Side::First } else { Side::Second }),
        };
        let text = match winner {
            Some(p) => {
                let rank = if p == Side::First { "the first player" } else { "the second player" };
                format!("{} wins", self.game.player_name(p).unwrap_or(rank))
            }
            None => "a draw".to_string(),
        };
        json!({ "winner": winner.map(Side::index), "text": text })
    }

    /// The moves a human may click here: `{move, from, to}`.
    fn legal(&self, s: &G::State) -> Vec<Value> {
        let mut moves = MoveList::new();
        let entry = |m: G::Move, text: String| {
            let (from, to) = self.game.move_cells(s, m);
            json!({ "move": text, "from": from, "to": to })
        };
        match self.game.turn(s) {
            Turn::Player(p) if self.is_human(p) => {
                self.game.generate_moves(s, &mut moves);
                moves.iter().map(|&m| entry(m, self.game.format_move(s, m))).collect()
            }
            Turn::Simultaneous => {
                let humans: Vec<Side> = [Side::First, Side::Second].into_iter().filter(|&p| self.is_human(p)).collect();
                let halves = |p: Side| {
                    let mut l = MoveList::new();
                    self.game.player_moves(s, p, &mut l);
                    l
                };
                match humans.as_slice() {
                    [p] => halves(*p).iter().map(|&m| entry(m, self.game.format_move(s, m))).collect(),
                    [_, _] => {
                        let (a, b) = (halves(Side::First), halves(Side::Second));
                        let pair = |x, y| format!("{}/{}", self.game.format_move(s, x), self.game.format_move(s, y));
                        a.iter().flat_map(|&x| b.iter().map(move |&y| json!({ "move": pair(x, y) }))).collect()
                    }
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }
}

impl<G: FullGame> Table for Session<G> {
    fn state(&self, id: u64) -> Value {
        let s = self.current();
        let over = self.game.is_terminal(&s) || self.flag().is_some();
        let (turn, to_move) = match self.game.turn(&s) {
            _ if over => ("over", None),
            Turn::Player(p) => ("player", Some(p.index())),
            Turn::Chance => ("chance", None),
            Turn::Simultaneous => ("simultaneous", None),
        };
        let human_to_move = !over
            && match self.game.turn(&s) {
                Turn::Player(p) => self.is_human(p),
                Turn::Simultaneous => self.is_human(Side::First) || self.is_human(Side::Second),
                Turn::Chance => false,
            };
        // With hidden information the page shows what a human seat sees, never the whole state.
        let viewer = self.viewer();
        let (board, display) = if G::KIND.hidden {
            (None, self.game.observation(&s, viewer))
        } else {
            (self.game.board_view(&s), self.game.display(&s))
        };
        let last = self.moves.len().checked_sub(1).filter(|&i| !G::KIND.hidden && !self.chance[i]).and_then(|i| {
            let before = self.states[i];
            let mut moves = MoveList::new();
            self.game.generate_moves(&before, &mut moves);
            let m = moves.iter().copied().find(|&m| self.game.format_move(&before, m) == self.moves[i])?;
            let (from, to) = self.game.move_cells(&before, m);
            Some(json!({ "from": from, "to": to }))
        });
        let (moves, chance, timed) = self.shown_moves();
        let steps = self.visible_steps();
        let movers: Vec<Option<usize>> = steps
            .iter()
            .map(|&(i, _)| match self.game.turn(&self.states[i]) {
                Turn::Player(p) if !self.chance[i] => Some(p.index()),
                _ => None,
            })
            .collect();
        let values: Vec<Option<i64>> = steps.iter().map(|&(i, _)| self.move_value[i]).collect();
        json!({
            "id": id,
            "game": self.game.spec(),
            "kind": G::KIND,
            "players": self.names,
            "humans": [self.is_human(Side::First), self.is_human(Side::Second)],
            "player_names": [self.game.player_name(Side::First), self.game.player_name(Side::Second)],
            "start": self.start_text,
            "moves": moves,
            "chance": chance,
            "movers": movers,
            "move_ms": timed,
            "values": values,
            "thinking_ms": if over { 0 } else { self.since.elapsed().as_millis() as u64 },
            "ply": moves.len(),
            "position": if G::KIND.hidden { Value::Null } else { json!(self.game.format_position(&s)) },
            "display": display,
            "board": board,
            "turn": turn,
            "to_move": to_move,
            "human_to_move": human_to_move,
            "legal": if over { Vec::new() } else { self.legal(&s) },
            "clock": self.clock.as_ref().map(|c| c.json(self.mover(), self.since, self.flag())),
            "last": last,
            "result": self.result(&s),
            "busy": self.busy.is_some(),
        })
    }

    fn play(&mut self, text: &str, stop: &Arc<AtomicBool>) -> Result<(), ApiError> {
        self.check_idle()?;
        let s = self.current();
        if self.game.is_terminal(&s) || self.flag().is_some() {
            return Err(ApiError::conflict("the game is over"));
        }
        match self.game.turn(&s) {
            Turn::Player(p) if !self.is_human(p) => {
                Err(ApiError::conflict(format!("it is {}'s turn: ask it to move (GET think)", self.names[p.index()])))
            }
            Turn::Simultaneous if !text.contains('/') => {
                // The human's half; the other seat chooses its own without seeing it.
                let (human, other) = match (self.is_human(Side::First), self.is_human(Side::Second)) {
                    (true, false) => (Side::First, Side::Second),
                    (false, true) => (Side::Second, Side::First),
                    _ => return Err(ApiError::bad("both players move at once here: write the pair as FIRST/SECOND")),
                };
                let theirs = self.half(other, stop)?;
                let pair = if human == Side::First { format!("{text}/{theirs}") } else { format!("{theirs}/{text}") };
                self.apply(&pair, 0)
            }
            // A human's move: the time since the position began.
            _ => self.apply(text, self.since.elapsed().as_millis() as u64),
        }
    }

    fn undo(&mut self) -> Result<(), ApiError> {
        if self.secret() {
            return Err(ApiError::conflict(
                "no undo in a game with hidden information while it goes on: taking back a try would tell what it met",
            ));
        }
        if !self.chance.contains(&false) {
            return Err(ApiError::conflict("nothing to undo"));
        }
        // The engine thinking about the position taken back: its search is cancelled, its move never played.
        self.cancel();
        self.undo_step();
        let any_human = self.is_human(Side::First) || self.is_human(Side::Second);
        while any_human && self.chance.contains(&false) {
            match self.game.turn(&self.current()) {
                Turn::Player(p) if !self.is_human(p) => self.undo_step(),
                _ => break,
            }
        }
        self.draw_chance();
        Ok(())
    }

    fn record(&self) -> String {
        self.record_text()
    }

    fn think(&mut self) -> Result<Job, ApiError> {
        self.check_idle()?;
        let s = self.current();
        if self.game.is_terminal(&s) || self.flag().is_some() {
            return Err(ApiError::conflict("the game is over"));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.clone();
        let run: Box<dyn FnOnce(Sink) -> Result<String, String> + Send> = match self.game.turn(&s) {
            Turn::Player(p) => match &self.seats[p.index()] {
                Seat::Human => return Err(ApiError::conflict("a human is to move: play a move")),
                Seat::Player(player, limits) => {
                    // Under a clock, a player given no limit of its own plays on its time left.
                    let limits = match (&self.clock, limits) {
                        (Some(c), Some(_)) => Some(Limits::time(c.control(p, self.since))),
                        _ => *limits,
                    };
                    let (player, stop) = (player.clone(), stop.clone());
                    // The other side's plans (its principal variation, its score) are not the viewer's to see.
                    let private = self.secret() && p != self.viewer();
                    let (fen, moves) = (self.start_text.clone(), self.moves.clone());
                    Box::new(move |sink| {
                        let sink = if private { super::think::redacted(sink) } else { sink };
                        let history = PositionText { fen: fen.as_deref(), moves: &moves };
                        super::think::search(&game, &s, &player, history, limits, stop, sink)
                    })
                }
            },
            Turn::Simultaneous if self.is_human(Side::First) || self.is_human(Side::Second) => {
                return Err(ApiError::conflict("a human is to move: play your half"));
            }
            Turn::Simultaneous => {
                // Both halves on the job's thread, under its place in the queue, its ceiling and its stop flag.
                let (seats, stop) = (self.seats.clone(), stop.clone());
                let (fen, moves) = (self.start_text.clone(), self.moves.clone());
                Box::new(move |_sink| {
                    let history = || PositionText { fen: fen.as_deref(), moves: &moves };
                    let half = |p: Side| seats[p.index()].half(&game, &s, p, history(), &stop).map_err(|e| e.message);
                    Ok(format!("{}/{}", half(Side::First)?, half(Side::Second)?))
                })
            }
            Turn::Chance => return Err(ApiError::conflict("chance is to move")),
        };
        self.searches += 1;
        let (token, watch) = (self.searches, Watch::default());
        self.busy = Some(Running { token, stop: stop.clone(), watch: watch.clone() });
        Ok(Job { token, stop, watch, run })
    }

    fn finish(&mut self, token: u64, found: Result<String, String>, ms: u64) -> Result<bool, ApiError> {
        if self.busy.as_ref().is_none_or(|r| r.token != token) {
            // Cancelled (an undo, a deletion): the game has moved on without this search.
            return Ok(false);
        }
        // The search's last reported value, for the side that moved (the page's evaluation graph).
        let value = self.busy.as_ref().and_then(|r| r.watch.last_value());
        let mover = self.game.turn(&self.current());
        self.busy = None;
        let secret = self.secret();
        let text = found.map_err(|e| {
            // A failing player's message may name its move or what it believes: not with hidden information.
            let e = if secret { "it returned no move".to_string() } else { e };
            ApiError::conflict(format!("the player failed: {e}"))
        })?;
        let k = self.moves.len();
        self.apply(&text, ms)?;
        if let (Some(v), Turn::Player(p)) = (value, mover) {
            self.move_value[k] = Some(if p == Side::First { v } else { -v });
        }
        Ok(true)
    }

    fn stop(&self) {
        if let Some(r) = &self.busy {
            r.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    fn cancel(&mut self) {
        if let Some(r) = self.busy.take() {
            r.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    fn busy(&self) -> bool {
        self.busy.is_some()
    }

    fn watching(&self) -> Option<Watch> {
        self.busy.as_ref().map(|r| r.watch.clone())
    }
}
