//! The arena: matches between two players, with statistics that say how sure the result is.
//!
//! ```text
//! match(A, B, N games):
//!     game i uses opening i/2; A moves first in even games, B in odd ones (each opening with both colours)
//!     --resume: the games of this match already in the record file are counted (the SPRT in the file's order)
//!     K workers take the next game number not yet played, build their own players, play, send the record back
//!     the main thread appends each record to the record file at once, updates W/L/D, Elo +- 95%, the SPRT,
//!     and the progress bar; an SPRT decision stops the workers from starting new games
//! game:
//!     from the opening position, ask the side to move for a move within the time control;
//!     a failure (crash, timeout, illegal move) or a move past the time limit (+ margin) loses the game;
//!     the game ends by the rules, by adjudication (Breakthrough's won races), or as a draw at the ply limit
//! ```
//!
//! Modules: [`stats`] (Elo, error, SPRT), [`openings`], [`player`] (built-in and external players),
//! [`record`] (game records), [`resume`] (`--resume`: the record file's games counted, the missing ones played),
//! [`spec`] (the typed way in: [`spec::MatchSpec`] to [`spec::MatchReport`], the flags match and tournament share),
//! [`tally`] (running totals), [`turns`] (chance and simultaneous nodes), [`referee`] and [`observed`] (hidden
//! information; external engines on simultaneous and hidden games).

pub mod external;
pub(crate) mod game_stats;
pub mod match_jobs;
pub(crate) mod observed;
pub mod openings;
pub mod player;
pub mod record;
pub mod referee;
pub mod resume;
pub mod spec;
pub mod spsa;
pub(crate) mod spsa_checkpoint;
pub mod spsa_jobs;
pub(crate) mod spsa_spec;
pub mod stats;
pub mod tally;
pub mod text;
pub mod turns;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::game::{FullGame, GameError, Outcome, Side};
use crate::players::{Context, Player, PositionText, View};
use crate::search::{Limits, TimeControl};
use openings::{Opening, Openings};
use record::{GameRecord, RecordFile};
use stats::{Sprt, SprtStatus};
use tally::Tally;

/// Everything that defines a match.
#[derive(Clone, Debug)]
pub struct MatchConfig<G: FullGame> {
    /// Player strings A and B.
    pub players: [String; 2],
    pub games: usize,
    /// The time control of both players (a fixed time per move or a clock, never [`TimeControl::Infinite`]); `None`:
    /// each player's own limits.
    pub limit: Option<TimeControl>,
    pub concurrency: usize,
    pub openings: Openings<G>,
    pub sprt: Option<Sprt>,
    pub record: Option<PathBuf>,
    pub adjudicate: bool,
    /// Games longer than this many plies are drawn.
    pub max_plies: usize,
    /// Tolerance over the time limit before a move counts as a time forfeit.
    pub margin: Duration,
    pub progress: bool,
    /// The match's seed: every random thing of game `i` comes from it and `i`: the random opening, the chance draws,
    /// and the players' random choices (each player is re-seeded before each game: [`crate::game::seed`]).
    pub seed: u64,
    /// A moves first in every game (each game its own opening) instead of colours alternating.
    pub fixed_colours: bool,
}

/// The results of the games in which one player moved first (the course's "N games (A,B), N games (B,A)").
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ColourSplit {
    /// Who moved first in these games: `A` or `B`.
    pub first: String,
    pub games: u64,
    pub wins_a: u64,
    pub wins_b: u64,
    pub draws: u64,
}

/// Game lengths in plies, the opening's included.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Lengths {
    pub min: u64,
    pub max: u64,
    pub mean: f64,
}

/// What a match produced.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MatchSummary {
    pub game: String,
    pub player_a: String,
    pub(crate) player_b: String,
    /// What A and B play under: their own limits and the match's time control together (`depth 2, movetime 100ms
    /// (whichever stops first)`).
    pub limits_a: String,
    pub(crate) limits_b: String,
    pub time_control: String,
    pub games: u64,
    pub wins_a: u64,
    pub wins_b: u64,
    pub draws: u64,
    /// A's score in `[0, 1]`.
    pub score: f64,
    /// A's Elo advantage (`null` at 0% or 100%).
    pub elo: Option<f64>,
    /// Half-width of the 95% interval (`null` when unbounded).
    pub elo_error: Option<f64>,
    pub sprt: Option<SprtStatus>,
    /// True when the SPRT stopped the match before N games.
    pub stopped_early: bool,
    /// Games lost by a failure or a time forfeit, with the reason: `game 3: uci(x) lost: engine crashed ...`.
    pub failures: Vec<String>,
    /// Games adjudicated (won races).
    pub(crate) adjudicated: u64,
    /// Longest move of A and of B in milliseconds.
    pub max_move_ms: [u64; 2],
    /// Mean move time of A and of B in milliseconds, over every move of the match (openings excluded).
    pub mean_move_ms: [f64; 2],
    /// Moves timed for A and for B.
    pub moves_timed: [u64; 2],
    /// Games lost on time: a move over the limit plus the margin, or an external engine that did not answer in time
    /// (by either player; the reasons are in `failures`).
    pub time_forfeits: u64,
    pub seconds: f64,
    /// The openings: `start`, `2 random plies (seed 1)`, `file (N openings)`.
    pub openings: String,
    /// Whether A moved first in every game.
    pub fixed_colours: bool,
    /// Results split by who moved first: games with A first, then games with B first.
    pub by_colour: [ColourSplit; 2],
    /// Game lengths in plies.
    pub length: Lengths,
    /// Games read back from the record file by `--resume` (counted above; 0 without it).
    pub resumed_games: u64,
}

/// Describe a time control for records: `movetime 100ms`, `10000ms+100ms`, `players' own limits`.
pub(crate) fn describe_limit(limit: &Option<TimeControl>) -> String {
    match limit {
        None => "players' own limits".into(),
        Some(tc) => tc.to_string(),
    }
}

/// The time control of the flags `--movetime` and `--tc` (`None`: each player's own limits); both given is an error.
/// The one reading of these flags: `match`, `tournament`, `stats` and `spsa`.
pub(crate) fn time_limit(movetime: Option<&str>, tc: Option<&str>) -> Result<Option<TimeControl>, String> {
    match (movetime, tc) {
        (Some(_), Some(_)) => Err("give --movetime or --tc, not both".into()),
        (Some(m), None) => {
            Ok(Some(TimeControl::MoveTime(crate::spec::parse_duration(m).map_err(|e| format!("--movetime: {e}"))?)))
        }
        (None, Some(tc)) => Ok(Some(parse_tc(tc)?)),
        (None, None) => Ok(None),
    }
}

/// Parse `10s+0.1s` (or `10s`) into the same clock for both players.
pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let (base, inc) = match text.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (text, None),
    };
    let base = crate::spec::parse_duration(base).map_err(|e| format!("--tc: {e}"))?;
    let inc = inc.map(crate::spec::parse_duration).transpose().map_err(|e| format!("--tc: {e}"))?.unwrap_or_default();
    if base.is_zero() {
        return Err("--tc: the base time must be positive (e.g. 10s+0.1s)".into());
    }
    Ok(TimeControl::clock(base, inc))
}

/// Play one game between `players[0]` (the first player's side, White) and `players[1]`. `a_first` only labels the
/// record; `seed` seeds the chance draws of games with chance ([`turns`]) and, with `round` and the seat, each
/// player's random choices ([`Player::reseed`]). `watch` is shown the game so far (the opening's position and the
/// moves since) each time a player is asked to move (both at once at a simultaneous node): the one way to follow a
/// game while it is played (the tournament's live board, [`crate::tournament::live`]), the players left as they are.
#[allow(clippy::too_many_arguments)]
pub fn play_game<G: FullGame>(
    game: &G,
    opening: &Opening<G>,
    players: [&mut dyn Player<G>; 2],
    limit: Option<TimeControl>,
    margin: Duration,
    adjudicate: bool,
    max_plies: usize,
    round: usize,
    a_first: bool,
    seed: u64,
    watch: &mut dyn FnMut(PositionText<'_>),
) -> GameRecord {
    let names = [players[0].name(), players[1].name()];
    let mut rec = GameRecord {
        round,
        game: game.spec(),
        first: names[0].clone(),
        second: names[1].clone(),
        a_first,
        time_control: describe_limit(&limit),
        opening: opening.describe(),
        fen: opening.fen.clone(),
        moves: opening.move_text.clone(),
        winner: None,
        termination: "normal".into(),
        max_move_ms: [0, 0],
        total_move_ms: [0, 0],
        moves_timed: [0, 0],
        move_ms: Vec::new(),
        final_position: None,
    };
    let [p0, p1] = players;
    let mut ps: [&mut dyn Player<G>; 2] = [p0, p1];
    for (i, p) in ps.iter_mut().enumerate() {
        // Every random choice of the game comes from the match's seed, the game's number and the seat.
        p.reseed(crate::game::seed::derive(&[seed, round as u64, i as u64]));
        if let Err(e) = p.new_game(game) {
            rec.winner = Some(if i == 0 { Side::Second } else { Side::First });
            rec.termination = format!("{} lost: {e}", names[i]);
            return rec;
        }
    }
    // Which seat (0 = moved first) a player index in the record's max_move_ms (A, B) is.
    let ab = |seat: usize| if a_first { seat } else { 1 - seat };
    let mut state = opening.position(game);
    let mut clock = match limit {
        Some(TimeControl::Clock { time, .. }) => time,
        _ => [Duration::ZERO; 2],
    };
    // Seat 0 plays the first player's side (White), seat 1 the second's, whoever moves first after the opening.
    let seat_of = |p: Side| p.index();
    let mut plies = 0;
    let mut rng = turns::chance_rng(seed, round);
    // With hidden information the players see only their observations (referee.rs).
    let mut referee = None;
    if G::KIND.hidden {
        match referee::Referee::start(game, &state, &mut ps) {
            Ok(r) => referee = Some(r),
            Err((seat, e)) => {
                rec.winner = Some(if seat == 0 { Side::Second } else { Side::First });
                rec.termination = format!("{} lost: {e}", names[seat]);
                return rec;
            }
        }
    }
    loop {
        if let Some(r) = referee.as_mut()
            && let Err((seat, e)) = r.tell(game, &state, &mut ps)
        {
            rec.winner = Some(if seat == 0 { Side::Second } else { Side::First });
            rec.termination = format!("{} lost: {e}", names[seat]);
            return rec;
        }
        let stm = game.side_to_move(&state);
        let seat = seat_of(stm);
        let winner_if = |o: Outcome| -> Option<Side> {
            match o {
                Outcome::Win => Some(stm),
                Outcome::Loss => Some(stm.other()),
                Outcome::Draw => None,
                Outcome::Value(v) if v > 0 => Some(stm),
                Outcome::Value(v) if v < 0 => Some(stm.other()),
                Outcome::Value(_) => None,
            }
        };
        if let Some(o) = game.outcome(&state) {
            rec.winner = winner_if(o);
            return rec;
        }
        if !G::KIND.is_classic() {
            let moves = rec.moves.clone();
            let pos = PositionText { fen: opening.fen.as_deref(), moves: &moves };
            if matches!(game.turn(&state), crate::game::Turn::Simultaneous) {
                watch(pos);
            }
            let timing = turns::Timing { limit, clock: &mut clock, margin, pos };
            match turns::step(game, &mut state, &mut ps, &names, &mut rng, timing, &mut rec) {
                turns::Step::Player => {}
                turns::Step::Played => {
                    plies += 1;
                    continue;
                }
                turns::Step::Over => return rec,
            }
        }
        if adjudicate && let Some((o, why)) = game.adjudicate(&state) {
            rec.winner = winner_if(o);
            rec.termination = why.into();
            return rec;
        }
        if plies >= max_plies {
            rec.termination = format!("move limit ({max_plies} plies)");
            return rec;
        }
        // Clocks are indexed by side, as the protocols' wtime/btime.
        let (move_limit, allowed) = match limit {
            None | Some(TimeControl::Infinite) => (limit, None),
            Some(TimeControl::MoveTime(t)) => (limit, Some(t)),
            Some(TimeControl::Clock { inc, moves_to_go, .. }) => {
                (Some(TimeControl::Clock { time: clock, inc, moves_to_go }), Some(clock[seat]))
            }
        };
        let hard = allowed.map_or(Duration::from_secs(3600), |a| a + margin);
        let pos = PositionText { fen: opening.fen.as_deref(), moves: &rec.moves };
        watch(pos);
        let t0 = Instant::now();
        let r = if G::KIND.hidden {
            let mut legal = crate::game::MoveList::new();
            game.generate_moves(&state, &mut legal);
            let text: Vec<String> = legal.iter().map(|&m| game.format_move(&state, m)).collect();
            let cx = Context {
                view: View::Observed { legal: &legal, text: &text },
                side: stm,
                history: pos,
                limits: move_limit.map(Limits::time),
                hard,
                stop: None,
                progress: None,
            };
            match ps[seat].choose(game, cx).map(|c| c.mv) {
                Ok(m) if !legal.contains(&m) => Err("chose a move that is not legal on the board it sees".into()),
                other => other,
            }
        } else {
            let cx = Context {
                view: View::Position(&state),
                side: stm,
                history: pos,
                limits: move_limit.map(Limits::time),
                hard,
                stop: None,
                progress: None,
            };
            ps[seat].choose(game, cx).map(|c| c.mv)
        };
        let elapsed = t0.elapsed();
        let ms = elapsed.as_millis() as u64;
        rec.max_move_ms[ab(seat)] = rec.max_move_ms[ab(seat)].max(ms);
        rec.total_move_ms[ab(seat)] += ms;
        rec.moves_timed[ab(seat)] += 1;
        rec.move_ms.push(ms);
        let loser = if seat == 0 { Side::Second } else { Side::First };
        let m = match r {
            Ok(m) => m,
            Err(e) => {
                rec.winner = Some(loser);
                rec.termination = format!("{} lost: {e}", names[seat]);
                return rec;
            }
        };
        if let Some(a) = allowed
            && elapsed > a + margin
        {
            rec.winner = Some(loser);
            rec.termination =
                format!("{} lost: time forfeit (move took {ms} ms, {} ms allowed)", names[seat], a.as_millis());
            return rec;
        }
        if let Some(TimeControl::Clock { inc, .. }) = limit {
            clock[seat] = clock[seat].saturating_sub(elapsed) + inc[seat];
        }
        rec.moves.push(game.format_move(&state, m));
        game.play(&mut state, m);
        plies += 1;
    }
}

/// Check that both player strings build (without starting external engines) and can play under `limit`.
/// Build both players once to check them; their names and what each plays under (`plays_under`).
pub(crate) fn check_players<G: FullGame>(
    players: &[String; 2],
    limit: &Option<TimeControl>,
) -> Result<([String; 2], [String; 2]), GameError> {
    let a = player::build::<G>(&players[0])?;
    let b = player::build::<G>(&players[1])?;
    let limits = limit.map(Limits::time);
    for p in [&a, &b] {
        p.check_limits(limits).map_err(GameError::new)?;
    }
    Ok(([a.name(), b.name()], [a.plays_under(limits), b.plays_under(limits)]))
}

/// Run a match. `on_record` sees every finished game (in the order they finish).
pub fn run_match<G: FullGame>(
    game: &G,
    cfg: &MatchConfig<G>,
    on_record: impl FnMut(&GameRecord),
) -> Result<MatchSummary, String> {
    play_match(game, cfg, &[], on_record)
}

/// Play the games of the match that `done` (games already played, read back from the record file by
/// [`resume::resume_match`], in the file's order) does not hold, and sum up both. The SPRT counts `done` first, in
/// its order; when that decides it, nothing is played. `on_record` sees the games played now.
pub(crate) fn play_match<G: FullGame>(
    game: &G,
    cfg: &MatchConfig<G>,
    done: &[GameRecord],
    mut on_record: impl FnMut(&GameRecord),
) -> Result<MatchSummary, String> {
    let (names, under) = check_players::<G>(&cfg.players, &cfg.limit).map_err(|e| e.to_string())?;
    if cfg.limit == Some(TimeControl::Infinite) {
        return Err("a match needs a time limit: --movetime, --tc, or the players' own limits".into());
    }
    let mut tally = Tally::default();
    for rec in done {
        tally.add(rec, cfg.sprt.as_ref());
    }
    // The game numbers (0-based) still to play, in order.
    let todo: Vec<usize> = if tally.decided.is_some() {
        Vec::new()
    } else {
        let played: std::collections::HashSet<usize> = done.iter().map(|r| r.round).collect();
        (0..cfg.games).filter(|i| !played.contains(&(i + 1))).collect()
    };
    let mut file = cfg.record.as_deref().map(|p| RecordFile::open(p, resume::match_tags(cfg))).transpose()?;
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let bar = if cfg.progress { ProgressBar::new(cfg.games as u64) } else { ProgressBar::hidden() };
    if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_position(done.len() as u64);
    bar.set_message(tally.progress());
    let mut write_error: Option<String> = None;
    let workers = if todo.is_empty() { 0 } else { cfg.concurrency.clamp(1, todo.len()) };
    std::thread::scope(|scope| {
        // A worker sends its game with an acknowledgement channel and waits until the game is counted, so that an
        // SPRT decision stops it at once (with one worker, no game starts after the deciding one).
        let (tx, rx) = sync_channel::<Result<(GameRecord, SyncSender<()>), String>>(0);
        for w in 0..workers {
            let tx = tx.clone();
            let (next, stop, todo) = (&next, &stop, &todo);
            // A worker the system cannot start (thread or memory limit): the match goes on with the workers it has
            // (a warning says so), and is an error only when none starts.
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                let built =
                    player::build::<G>(&cfg.players[0]).and_then(|a| Ok((a, player::build::<G>(&cfg.players[1])?)));
                let (mut a, mut b) = match built {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = tx.send(Err(e.to_string()));
                        return;
                    }
                };
                let (ack_tx, ack_rx) = sync_channel::<()>(1);
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Some(&i) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else { break };
                    let rec = play_numbered(game, cfg, a.as_mut(), b.as_mut(), i);
                    if tx.send(Ok((rec, ack_tx.clone()))).is_err() || ack_rx.recv().is_err() {
                        break;
                    }
                }
            });
            if let Err(e) = spawned {
                if w == 0 {
                    write_error = Some(format!("cannot start a thread to play the games ({e})"));
                } else {
                    eprintln!("warning: match: started {w} of {workers} concurrent games ({e}); playing with those");
                }
                break;
            }
        }
        drop(tx);
        for msg in rx {
            let (rec, ack) = match msg {
                Ok(r) => r,
                Err(e) => {
                    write_error.get_or_insert(e);
                    stop.store(true, Ordering::SeqCst);
                    continue;
                }
            };
            if let Some(f) = file.as_mut()
                && let Err(e) = f.append(&rec)
            {
                write_error.get_or_insert(e);
                stop.store(true, Ordering::SeqCst);
            }
            let decides = tally.add(&rec, cfg.sprt.as_ref());
            on_record(&rec);
            if decides {
                stop.store(true, Ordering::SeqCst);
            }
            bar.set_message(tally.progress());
            bar.inc(1);
            let _ = ack.send(());
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }
    Ok(summarize(game, cfg, &names, &under, &tally, done.len() as u64, start.elapsed().as_secs_f64()))
}

/// Game `i` (0-based: number `i + 1`) of the match `cfg` between A (`a`) and B (`b`): its opening and colours from
/// its number, as [`run_match`] plays it (the job-level match, [`match_jobs`], plays the very same games).
pub(crate) fn play_numbered<G: FullGame>(
    game: &G,
    cfg: &MatchConfig<G>,
    a: &mut dyn Player<G>,
    b: &mut dyn Player<G>,
    i: usize,
) -> GameRecord {
    let opening = cfg.openings.get(game, if cfg.fixed_colours { i } else { i / 2 });
    let a_first = cfg.fixed_colours || i.is_multiple_of(2);
    let seats: [&mut dyn Player<G>; 2] = if a_first { [a, b] } else { [b, a] };
    let mut rec = play_game(
        game,
        &opening,
        seats,
        cfg.limit,
        cfg.margin,
        cfg.adjudicate,
        cfg.max_plies,
        i + 1,
        a_first,
        cfg.seed,
        &mut |_| {},
    );
    if G::KIND.hidden {
        rec.final_position = turns::final_position(game, &opening, &rec.moves);
    }
    rec
}

/// The summary of a match after the games `tally` counts (`resumed` of them read back from the record file).
pub(crate) fn summarize<G: FullGame>(
    game: &G,
    cfg: &MatchConfig<G>,
    names: &[String; 2],
    under: &[String; 2],
    tally: &Tally,
    resumed: u64,
    seconds: f64,
) -> MatchSummary {
    let wdl = tally.wdl;
    let stopped_early = tally.decided.is_some() && (wdl.games() as usize) < cfg.games;
    // A decided test reports the status that decided it (its LLR crossed a bound there).
    let sprt = tally.decided.clone().or_else(|| cfg.sprt.as_ref().map(|s| s.status(&wdl)));
    MatchSummary {
        game: game.spec(),
        player_a: names[0].clone(),
        player_b: names[1].clone(),
        limits_a: under[0].clone(),
        limits_b: under[1].clone(),
        time_control: describe_limit(&cfg.limit),
        games: wdl.games(),
        wins_a: wdl.wins,
        wins_b: wdl.losses,
        draws: wdl.draws,
        score: wdl.score(),
        elo: wdl.elo(),
        elo_error: wdl.elo_error(),
        sprt,
        stopped_early,
        failures: tally.failures.clone(),
        adjudicated: tally.adjudicated,
        max_move_ms: tally.max_ms,
        mean_move_ms: tally.mean_move_ms(),
        moves_timed: tally.timed,
        time_forfeits: tally.time_forfeits,
        seconds,
        openings: cfg.openings.describe(),
        fixed_colours: cfg.fixed_colours,
        by_colour: tally.by_colour.clone(),
        length: tally.length(),
        resumed_games: resumed,
    }
}
