//! Tournaments: many players, every game played by the arena ([`crate::arena::play_game`]), standings with
//! maximum-likelihood ratings. `plateau tournament` drives it; another driver (a web view, a cluster) can use the same
//! typed steps: [`prepare`] (players checked, the schedule's [`GameJob`]s with stable ids), [`play_job`] (one game,
//! deterministic from its job and the seed), [`GameResult::from_record`], [`standings::standings`].
//!
//! ```text
//! tournament(players, schedule, settings):
//!     check: at least two players, unique names, each player string builds and can play under its time control
//!     jobs = the schedule's games, ids 1..N (schedule.rs); settings (players, schedule, openings, time control,
//!            seed, adjudication, ply limit, margin) identify the tournament (results.rs: its id)
//!     --resume: the games the results file holds are done (results.rs); the record file keeps exactly those
//!     K workers take the next job not done, build its two players (named after their entries), play it with the
//!         arena (a broken engine loses that game with the reason, the tournament goes on) and send the record back
//!     the main thread appends the record's block to the record file, then the game's line to the results file
//!         (flushed at once), and moves the progress bar (ETA from the games played in this run)
//!     standings = crosstable, ratings (ratings.rs), LOS, failures per player, from every result
//! ```
//!
//! Modules: [`entries`] (players from the command line, a file, a folder of engines), [`schedule`], [`results`] (the
//! files and `--resume`), [`ratings`], [`standings`], [`spec`] (the typed way in: [`spec::TournamentSpec`] to the
//! summary, and [`spec::load`] of the command's words for another driver), [`text`] (the summary as printed).

pub mod entries;
pub mod jobs;
pub mod live;
pub mod ratings;
pub mod results;
pub mod schedule;
pub mod spec;
pub mod standings;
pub mod text;
pub mod watch;

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::arena::openings::Openings;
use crate::arena::player;
use crate::arena::record::GameRecord;
use crate::arena::{describe_limit, play_game, turns};
use crate::game::{FullGame, Side};
use crate::players::{Player, PositionText};
use crate::search::{Limits, TimeControl};
pub use entries::Entry;
use entries::Named;
pub use results::GameResult;
pub(crate) use results::Settings;
pub use results::TournamentFiles;
pub(crate) use schedule::GameJob;
pub use schedule::Schedule;
use standings::Standings;

/// Everything that defines a tournament run.
#[derive(Clone, Debug)]
pub struct TournamentConfig<G: FullGame> {
    pub entries: Vec<Entry>,
    pub schedule: Schedule,
    /// The time control of every player without a clock of its own (`None`: each player's own limits).
    pub limit: Option<TimeControl>,
    pub concurrency: usize,
    pub openings: Openings<G>,
    /// The record file (every game, PGN-style).
    pub record: Option<PathBuf>,
    /// The results file (one JSON line per finished game).
    pub results: Option<PathBuf>,
    /// Continue the tournament of the results file (and record file): play only the games they do not hold.
    pub resume: bool,
    pub adjudicate: bool,
    /// Games longer than this many plies are drawn.
    pub max_plies: usize,
    /// Tolerance over the time limit before a move counts as a time forfeit.
    pub margin: Duration,
    pub progress: bool,
    /// Seeds the random openings and the chance draws (game `id` uses `(seed, id)`).
    pub seed: u64,
    /// Ratings anchored at this player's Elo (`None`: mean 0).
    pub anchor: Option<(String, f64)>,
}

/// A player as the tournament runs it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PlayerInfo {
    pub name: String,
    pub player: String,
    /// What it plays under: its own limits with its time control (`depth 2, movetime 100ms (whichever stops
    /// first)`).
    pub(crate) plays_under: String,
}

/// What a tournament produced.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TournamentSummary {
    pub game: String,
    /// The tournament's id (a hash of its settings: the records' `[Tournament]` tag, the results file's header).
    pub tournament: String,
    /// `round robin, 2 rounds`, `gauntlet of alice, 1 round`.
    pub schedule: String,
    pub players: Vec<PlayerInfo>,
    pub time_control: String,
    pub openings: String,
    /// Games in the schedule.
    pub games: u64,
    /// Games finished (this run's and the resumed ones).
    pub finished: u64,
    /// Games read back from the results file by `--resume`.
    pub resumed_games: u64,
    pub seconds: f64,
    #[serde(flatten)]
    pub standings: Standings,
}

/// A tournament checked and scheduled.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub names: Vec<String>,
    pub jobs: Vec<GameJob>,
    pub settings: Settings,
    pub players: Vec<PlayerInfo>,
    /// Each entry's own clock, if any.
    clocks: Vec<Option<TimeControl>>,
    anchor: Option<(usize, f64)>,
}

impl Prepared {
    /// The tournament's id.
    pub fn id(&self) -> String {
        self.settings.id()
    }
}

/// Check the players and the settings, and make the schedule's jobs. Errors are one line.
pub(crate) fn prepare<G: FullGame>(game: &G, cfg: &TournamentConfig<G>) -> Result<Prepared, String> {
    let n = cfg.entries.len();
    if n < 2 {
        return Err(format!("a tournament needs at least two players ({n} given)"));
    }
    let names: Vec<String> = cfg.entries.iter().map(|e| e.name.clone()).collect();
    let mut seen = HashSet::new();
    for name in &names {
        if !seen.insert(name) {
            return Err(format!("two players are named {name}: give them names (NAME=SPEC, or name = in the file)"));
        }
    }
    if cfg.limit == Some(TimeControl::Infinite) {
        return Err("a tournament needs a time limit: --movetime, --tc, or the players' own limits".into());
    }
    let clocks = cfg.entries.iter().map(Entry::clock).collect::<Result<Vec<_>, _>>()?;
    if let Some(k) = clocks.iter().position(Option::is_some)
        && !matches!(cfg.limit, Some(TimeControl::Clock { .. }))
        && let Some(other) = clocks.iter().position(Option::is_none)
    {
        return Err(format!(
            "player {} has a clock of its own but {} has none: a per-player clock goes with --tc for the others",
            names[k], names[other]
        ));
    }
    let mut players = Vec::with_capacity(n);
    for (e, clock) in cfg.entries.iter().zip(&clocks) {
        let p = player::build::<G>(&e.player).map_err(|err| format!("player {}: {err}", e.name))?;
        let limit = clock.or(cfg.limit);
        p.check_limits(limit.map(Limits::time)).map_err(|err| format!("player {}: {err}", e.name))?;
        players.push(PlayerInfo {
            name: e.name.clone(),
            player: e.player.clone(),
            plays_under: p.plays_under(limit.map(Limits::time)),
        });
    }
    if let Schedule::Gauntlet { player, .. } = cfg.schedule
        && player >= n
    {
        return Err("the gauntlet's player is not among the players".into());
    }
    let anchor = match &cfg.anchor {
        Some((name, elo)) => {
            let i = names
                .iter()
                .position(|x| x == name)
                .ok_or_else(|| format!("--anchor {name}: no such player (players: {})", names.join(", ")))?;
            if !elo.is_finite() {
                return Err(format!("--anchor {name}: the Elo must be a finite number"));
            }
            Some((i, *elo))
        }
        None => None,
    };
    // A ceiling before the schedule is made (`--rounds` of any size used to overflow or exhaust the memory there).
    let games = cfg.schedule.pairs(n).len().checked_mul(2).and_then(|g| g.checked_mul(cfg.schedule.rounds()));
    if games.is_none_or(|g| g > crate::limits::MAX_GAMES) {
        return Err(format!(
            "{} rounds of {n} players are more than the {} games a tournament may have",
            cfg.schedule.rounds(),
            crate::limits::MAX_GAMES
        ));
    }
    let jobs = cfg.schedule.jobs(n);
    if jobs.is_empty() {
        return Err("the schedule has no game (--rounds 0?)".into());
    }
    let settings = Settings {
        game: game.spec(),
        players: cfg.entries.clone(),
        schedule: cfg.schedule.describe(&names),
        games: jobs.len(),
        openings: cfg.openings.describe(),
        time_control: describe_limit(&cfg.limit),
        seed: cfg.seed,
        adjudicate: cfg.adjudicate,
        max_plies: cfg.max_plies,
        margin_ms: cfg.margin.as_millis() as u64,
    };
    Ok(Prepared { names, jobs, settings, players, clocks, anchor })
}

/// The time control of a game: the tournament's, or the two players' clocks when either has its own.
pub(crate) fn game_limit(p: &Prepared, limit: Option<TimeControl>, job: &GameJob) -> Option<TimeControl> {
    let (w, b) = (p.clocks[job.white], p.clocks[job.black]);
    if w.is_none() && b.is_none() {
        return limit;
    }
    let side = |c: Option<TimeControl>| match c.or(limit) {
        Some(TimeControl::Clock { time, inc, .. }) => (time[0], inc[0]),
        _ => (Duration::ZERO, Duration::ZERO),
    };
    let ((tw, iw), (tb, ib)) = (side(w), side(b));
    Some(TimeControl::Clock { time: [tw, tb], inc: [iw, ib], moves_to_go: None })
}

/// The tags of a game's record block besides the game's own.
pub(crate) fn record_tags<G: FullGame>(
    cfg: &TournamentConfig<G>,
    p: &Prepared,
    job: &GameJob,
) -> Vec<(String, String)> {
    let tags = [
        ("Tournament", p.id()),
        ("TournamentRound", job.round.to_string()),
        ("Pairing", format!("{} - {}", p.names[job.white], p.names[job.black])),
        ("Seed", cfg.seed.to_string()),
        ("Openings", cfg.openings.describe()),
        ("Adjudicate", if cfg.adjudicate { "yes".into() } else { "no".into() }),
        ("MaxPlies", cfg.max_plies.to_string()),
    ];
    tags.into_iter().map(|(n, v)| (n.to_string(), v)).collect()
}

/// Play game `job`: its two players built afresh, its opening, its time control; deterministic for deterministic
/// players. A player that cannot be built loses the game (the reason in the termination).
pub(crate) fn play_job<G: FullGame>(game: &G, cfg: &TournamentConfig<G>, p: &Prepared, job: &GameJob) -> GameRecord {
    play_job_live(game, cfg, p, job, None)
}

/// [`play_job`], the game shown on `board` while it is played (its moves so far; it stays there once over).
pub(crate) fn play_job_live<G: FullGame>(
    game: &G,
    cfg: &TournamentConfig<G>,
    p: &Prepared,
    job: &GameJob,
    board: Option<&live::LiveBoard>,
) -> GameRecord {
    let opening = cfg.openings.get(game, job.opening);
    let limit = game_limit(p, cfg.limit, job);
    let build = |i: usize| -> Result<Named<G>, String> {
        let inner = player::build::<G>(&cfg.entries[i].player).map_err(|e| e.to_string())?;
        Ok(Named { name: p.names[i].clone(), inner })
    };
    let (mut white, mut black) = match (build(job.white), build(job.black)) {
        (Ok(w), Ok(b)) => (w, b),
        (Err(e), _) => return forfeit(game, job, p, Side::First, &e),
        (_, Err(e)) => return forfeit(game, job, p, Side::Second, &e),
    };
    if let Some(board) = board {
        board.start(job, &p.names);
    }
    // Each time a player is asked to move, the game's moves so far go to the board.
    let mut watch = |pos: PositionText<'_>| {
        if let Some(board) = board {
            board.moved(job.id, pos.fen, pos.moves);
        }
    };
    let seats: [&mut dyn Player<G>; 2] = [&mut white, &mut black];
    let (margin, adjudicate, max_plies, seed) = (cfg.margin, cfg.adjudicate, cfg.max_plies, cfg.seed);
    let mut rec =
        play_game(game, &opening, seats, limit, margin, adjudicate, max_plies, job.id, true, seed, &mut watch);
    if G::KIND.hidden {
        rec.final_position = turns::final_position(game, &opening, &rec.moves);
    }
    if let Some(TimeControl::Clock { time, inc, .. }) = limit
        && (time[0] != time[1] || inc[0] != inc[1])
    {
        rec.time_control = format!(
            "White {}ms+{}ms, Black {}ms+{}ms",
            time[0].as_millis(),
            inc[0].as_millis(),
            time[1].as_millis(),
            inc[1].as_millis()
        );
    }
    rec
}

/// The record of a game `loser` lost before it started (its player could not be built).
fn forfeit<G: FullGame>(game: &G, job: &GameJob, p: &Prepared, loser: Side, why: &str) -> GameRecord {
    let name = &p.names[if loser == Side::First { job.white } else { job.black }];
    GameRecord {
        round: job.id,
        game: game.spec(),
        first: p.names[job.white].clone(),
        second: p.names[job.black].clone(),
        a_first: true,
        time_control: p.settings.time_control.clone(),
        opening: "start".into(),
        fen: None,
        moves: Vec::new(),
        winner: Some(loser.other()),
        termination: format!("{name} lost: {}", crate::game::one_line(why)),
        max_move_ms: [0, 0],
        total_move_ms: [0, 0],
        moves_timed: [0, 0],
        move_ms: Vec::new(),
        final_position: None,
    }
}

/// Run a tournament. `on_game` sees every game finished in this run (in the order they finish).
pub fn run_tournament<G: FullGame>(
    game: &G,
    cfg: &TournamentConfig<G>,
    mut on_game: impl FnMut(&GameResult),
) -> Result<TournamentSummary, String> {
    let p = prepare(game, cfg)?;
    let mut files = TournamentFiles::open(
        cfg.results.as_deref(),
        cfg.record.as_deref(),
        cfg.resume,
        &p.settings,
        &p.jobs,
        cfg.anchor.as_ref(),
    )?;
    let mut done = std::mem::take(&mut files.done);
    let finished: HashSet<usize> = done.iter().map(|r| r.id).collect();
    let todo: Vec<GameJob> = p.jobs.iter().filter(|j| !finished.contains(&j.id)).copied().collect();
    let resumed = done.len() as u64;
    let start = Instant::now();
    let bar = if cfg.progress { ProgressBar::new(p.jobs.len() as u64) } else { ProgressBar::hidden() };
    if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  eta {eta}  {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_position(resumed);
    bar.reset_eta();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut error: Option<String> = None;
    let workers = if todo.is_empty() { 0 } else { cfg.concurrency.clamp(1, todo.len()) };
    // With a results file, the games in progress go to its live file (live.rs) while the tournament runs.
    let mut live = cfg.results.as_deref().filter(|_| !todo.is_empty()).map(|r| live::LiveWriter::new(r, p.id()));
    let board = live.as_ref().map(|l| l.board.clone());
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel::<(GameJob, GameRecord)>();
        for w in 0..workers {
            let tx = tx.clone();
            let (next, stop, todo, p, board) = (&next, &stop, &todo, &p, board.as_deref());
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                while !stop.load(Ordering::SeqCst) {
                    let Some(job) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else { break };
                    let rec = play_job_live(game, cfg, p, job, board);
                    if tx.send((*job, rec)).is_err() {
                        break;
                    }
                }
            });
            if let Err(e) = spawned {
                if w == 0 {
                    error = Some(format!("cannot start a thread to play the games ({e})"));
                } else {
                    eprintln!(
                        "warning: tournament: started {w} of {workers} concurrent games ({e}); playing with those"
                    );
                }
                break;
            }
        }
        drop(tx);
        loop {
            if let Some(l) = live.as_mut().filter(|_| error.is_none()) {
                l.tick();
            }
            let (job, rec) = match rx.recv_timeout(live::WRITE_EVERY) {
                Ok(got) => got,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            };
            if error.is_some() {
                continue;
            }
            let result = GameResult::from_record(&job, &rec, &p.names);
            if let Err(e) = files.write(&result, &rec.to_pgn_with(&record_tags(cfg, &p, &job))) {
                error = Some(e);
                stop.store(true, Ordering::SeqCst);
                continue;
            }
            if let Some(b) = &board {
                b.finish(job.id);
            }
            bar.set_message(format!("last: {} {} {}", result.white, result.result, result.black));
            bar.inc(1);
            on_game(&result);
            done.push(result);
        }
    });
    bar.finish_and_clear();
    if let Some(l) = live {
        l.end();
    }
    if let Some(e) = error {
        return Err(e);
    }
    Ok(summary(&p, done, resumed, start.elapsed().as_secs_f64()))
}

/// The summary of tournament `p` after `done` (any order; `resumed` of them read back from the results file).
pub fn summary(p: &Prepared, mut done: Vec<GameResult>, resumed: u64, seconds: f64) -> TournamentSummary {
    done.sort_by_key(|r| r.id);
    TournamentSummary {
        game: p.settings.game.clone(),
        tournament: p.id(),
        schedule: p.settings.schedule.clone(),
        players: p.players.clone(),
        time_control: p.settings.time_control.clone(),
        openings: p.settings.openings.clone(),
        games: p.jobs.len() as u64,
        finished: done.len() as u64,
        resumed_games: resumed,
        seconds,
        standings: standings::standings(&p.names, &done, p.anchor),
    }
}
