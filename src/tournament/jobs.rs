//! The job-level tournament for drivers that play the games elsewhere (the Ray cluster driver of the Python package,
//! `python -m plateau.cluster tournament`): one tournament behind an object without the game's type, with its plan
//! (the settings' fingerprint, the games with their ids and seeds, the tasks), the play of one task, its files and its
//! standings. `plateau tournament` runs the very same steps in one process ([`super::run_tournament`]).
//!
//! ```text
//! load(game, config)  = prepare (players checked, the schedule's games with stable ids)
//! plan()              = {tournament: id, settings, games: [{id, round, white, black, opening, seed}], tasks}
//! task                = one game pair: a round's opening played with both colours by two players (games 2k-1, 2k
//!                       of the schedule); task k
//! play(ids)           = each game played as `plateau tournament` plays it (super::play_job: deterministic from the
//!                       job and the seed, wherever it runs), its result line and its record block as the files hold
//!                       them
//! open_files(resume)  = super::results::TournamentFiles (resume: read back and repaired, another tournament refused)
//! summary(results)    = super::summary: crosstable, ratings, LOS, failures
//! ```

use super::results::{GameResult, Settings, TournamentFiles};
use super::schedule::GameJob;
use super::{Prepared, TournamentConfig, TournamentSummary, play_job, prepare, record_tags};
use crate::game::FullGame;

/// One game of the plan.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlannedGame {
    /// The game's stable id (its place in the schedule; the record's `[Round]`).
    pub id: usize,
    pub round: usize,
    pub white: String,
    pub black: String,
    /// The opening's number (0-based).
    pub opening: usize,
    /// The tournament's seed: the game's chance draws use `(seed, id)`, its random opening `(seed, opening)`.
    pub seed: u64,
}

/// One task: a game pair (the same opening with both colours).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Task {
    /// 1-based.
    pub task: usize,
    pub round: usize,
    /// The two players, in the entries' order.
    pub a: String,
    pub b: String,
    /// The ids of its games (two; one when the schedule has a game alone).
    pub games: Vec<usize>,
}

/// What a tournament will play.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Plan {
    /// The settings' fingerprint (the results file's header, the records' `[Tournament]`).
    pub tournament: String,
    pub settings: Settings,
    pub games: Vec<PlannedGame>,
    pub tasks: Vec<Task>,
}

/// One game played: its results line and its record block, as the tournament's files hold them.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PlayedGame {
    pub result: GameResult,
    /// The record file's block of the game (PGN-style, with the tournament's tags).
    pub record: String,
}

/// A tournament's jobs, whatever its game.
pub trait TournamentJobs: Send + Sync {
    /// The settings' fingerprint.
    fn id(&self) -> String;
    /// The tournament's plan: its settings and schedule.
    fn plan(&self) -> Plan;
    /// Play the games `ids` (each as `plateau tournament` plays it). An id not in the schedule is an error.
    fn play(&self, ids: &[usize]) -> Result<Vec<PlayedGame>, String>;
    /// The tournament's results and record files (`--results`, `--record`), opened for this run.
    fn open_files(&self, resume: bool) -> Result<TournamentFiles, String>;
    /// Check that `r` is a result of one of this tournament's games (id, round, players, a result).
    fn check(&self, r: &GameResult) -> Result<(), String>;
    /// The summary after `results` (`resumed` of them read back from the files, `seconds` of this run).
    fn summary(&self, results: Vec<GameResult>, resumed: u64, seconds: f64) -> TournamentSummary;
}

/// A tournament of game `G` checked and scheduled.
pub struct Loaded<G: FullGame> {
    game: G,
    cfg: TournamentConfig<G>,
    prepared: Prepared,
}

/// Check the tournament (as `plateau tournament` does before its first game) and keep it for its jobs.
pub fn load<G: FullGame>(game: G, cfg: TournamentConfig<G>) -> Result<Loaded<G>, String> {
    let prepared = prepare(&game, &cfg)?;
    Ok(Loaded { game, cfg, prepared })
}

/// The tasks of `jobs`: each two games in a row of the same round between the same two players (the schedule's
/// both colours of one opening) make one task.
pub fn tasks(jobs: &[GameJob], names: &[String]) -> Vec<Task> {
    let mut out: Vec<Task> = Vec::new();
    let mut k = 0;
    while k < jobs.len() {
        let j = jobs[k];
        let pair = |x: &GameJob| (x.white.min(x.black), x.white.max(x.black));
        let both = jobs.get(k + 1).filter(|n| n.round == j.round && pair(n) == pair(&j) && n.white != j.white);
        let (a, b) = pair(&j);
        let mut games = vec![j.id];
        if let Some(n) = both {
            games.push(n.id);
        }
        k += games.len();
        out.push(Task { task: out.len() + 1, round: j.round, a: names[a].clone(), b: names[b].clone(), games });
    }
    out
}

impl<G: FullGame> Loaded<G> {
    fn job(&self, id: usize) -> Result<&GameJob, String> {
        self.prepared.jobs.get(id.wrapping_sub(1)).filter(|j| j.id == id).ok_or_else(|| {
            format!("game {id} is not in the tournament's schedule (games 1 to {})", self.prepared.jobs.len())
        })
    }
}

impl<G: FullGame> TournamentJobs for Loaded<G> {
    fn id(&self) -> String {
        self.prepared.id()
    }

    fn plan(&self) -> Plan {
        let p = &self.prepared;
        let games = p
            .jobs
            .iter()
            .map(|j| PlannedGame {
                id: j.id,
                round: j.round,
                white: p.names[j.white].clone(),
                black: p.names[j.black].clone(),
                opening: j.opening,
                seed: self.cfg.seed,
            })
            .collect();
        Plan { tournament: p.id(), settings: p.settings.clone(), games, tasks: tasks(&p.jobs, &p.names) }
    }

    fn play(&self, ids: &[usize]) -> Result<Vec<PlayedGame>, String> {
        let jobs = ids.iter().map(|&id| self.job(id).copied()).collect::<Result<Vec<_>, _>>()?;
        let p = &self.prepared;
        Ok(jobs
            .iter()
            .map(|job| {
                let rec = play_job(&self.game, &self.cfg, p, job);
                let record = rec.to_pgn_with(&record_tags(&self.cfg, p, job));
                PlayedGame { result: GameResult::from_record(job, &rec, &p.names), record }
            })
            .collect())
    }

    fn open_files(&self, resume: bool) -> Result<TournamentFiles, String> {
        let p = &self.prepared;
        TournamentFiles::open(
            self.cfg.results.as_deref(),
            self.cfg.record.as_deref(),
            resume,
            &p.settings,
            &p.jobs,
            self.cfg.anchor.as_ref(),
        )
    }

    fn check(&self, r: &GameResult) -> Result<(), String> {
        let job = self.job(r.id)?;
        let names = &self.prepared.names;
        if job.round != r.round || names[job.white] != r.white || names[job.black] != r.black {
            return Err(format!(
                "game {} is not this tournament's (round {}, {} - {})",
                r.id, r.round, r.white, r.black
            ));
        }
        if !["1-0", "0-1", "1/2-1/2"].contains(&r.result.as_str()) {
            return Err(format!("game {}: result '{}'", r.id, r.result));
        }
        Ok(())
    }

    fn summary(&self, results: Vec<GameResult>, resumed: u64, seconds: f64) -> TournamentSummary {
        super::summary(&self.prepared, results, resumed, seconds)
    }
}
