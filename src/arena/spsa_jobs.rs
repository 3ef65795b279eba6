//! The job-level SPSA run for drivers that play the games elsewhere (a Ray cluster driver): `plateau spsa`'s run
//! behind an object without the game's type, each iteration's match split into tasks of one game pair, the play of a
//! task (on a worker), and the driver's side (the checkpoint read back, each iteration's update applied in order and
//! written at once, the parameters file at the end). `plateau spsa` does the very same in one process
//! ([`super::spsa::run_with`]): the same words give the same θ, and the two continue each other's checkpoint.
//!
//! ```text
//! plan()            = {run, iterations, last, pairs, names, tasks: [{task k, games: [2k-1, 2k]}]}  (each iteration
//!                     plays the same game numbers: its match of 2 × pairs games, a pair one opening both colours)
//! open()            = FILE.checkpoint of --out FILE (required) read back as `plateau spsa --resume` reads it (another
//!                     run's refused untouched): the iteration reached and θ
//! next()            = the next iteration's job {iteration k, plus, minus}: θ± of k drawn from the seed, k and θ
//!                     (None once `last`, the end or --stop-after, is reached)
//! play(job, games)  = each game played as `plateau spsa` plays it (iteration k's match: openings and seeds from the
//!                     seed and k, game i's from its number): engine(θ+)'s score in each
//! apply(job, games) = job must be the next iteration and `games` every game of its match once: r = wins of θ+ minus
//!                     wins of θ-, θ moved, the checkpoint rewritten (atomically) before anything else
//! finish()          = θ rounded: the parameters file written to --out as the command writes it, the command's line
//! load_words(w)     = the run of `plateau spsa`'s very words (after `spsa`)
//! ```
//!
//! SPSA is sequential in θ, and `plateau spsa` plays one iteration at a time (`--concurrency` plays that iteration's
//! games side by side): so does the driver, submitting the game pairs of one iteration as parallel tasks.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use super::match_jobs::{MatchTask, tasks};
use super::spsa::{Schedule, SpsaConfig, SpsaProgress, iteration_match, settings};
use super::spsa_checkpoint::{self as checkpoint, State};
use super::spsa_spec::{SpsaArgs, SpsaRun};
use super::{check_players, play_numbered, player};
use crate::game::{FullGame, one_line};
use crate::games::with_game;

/// What a run will play.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SpsaPlan {
    /// The run's fingerprint (its settings, as the checkpoint holds them): a worker that builds another run refuses.
    pub run: String,
    pub iterations: u32,
    /// The last iteration this run plays (`--stop-after`, or `iterations`).
    pub last: u32,
    pub pairs: usize,
    /// The tuned names, in θ's order.
    pub names: Vec<String>,
    /// The tasks of every iteration: its game pairs.
    pub tasks: Vec<MatchTask>,
}

/// One iteration's games to play: the values of engine A (θ+) and engine B (θ-).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SpsaJob {
    pub iteration: u32,
    pub plus: Vec<i32>,
    pub minus: Vec<i32>,
}

/// One game of an iteration played.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameOutcome {
    /// Its number in the iteration's match (1..=2 × pairs).
    pub game: usize,
    /// Engine A's (θ+) score: 1, 0.5 or 0.
    pub score: f64,
    pub plies: usize,
    pub termination: String,
}

/// The checkpoint read back.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Opened {
    pub checkpoint: String,
    /// The last iteration the checkpoint holds (0: none, no checkpoint yet).
    pub iteration: u32,
    pub iterations: u32,
    pub theta: Vec<f64>,
    pub total: f64,
}

/// An iteration applied: the progress and the command's line.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Applied {
    #[serde(flatten)]
    pub progress: SpsaProgress,
    pub line: String,
}

/// The end of the run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SpsaEnd {
    /// The iteration reached.
    pub iteration: u32,
    pub iterations: u32,
    pub theta: Vec<f64>,
    pub total: f64,
    /// The tuned values (`name=value`, every tunable).
    pub params: Vec<String>,
    /// The command's last line (`wrote FILE: ...`, or `stopped after iteration ...`).
    pub line: String,
}

/// An SPSA run's jobs, whatever its game.
pub trait SpsaJobs: Send + Sync {
    /// The run's plan: its settings and schedule.
    fn plan(&self) -> SpsaPlan;
    /// Read the checkpoint back (the driver always resumes from it).
    fn open(&self) -> Result<Opened, String>;
    /// The next iteration's job, `None` once the run has reached its last iteration.
    fn next(&self) -> Option<SpsaJob>;
    /// Play the games `games` (numbers 1..=2 × pairs) of `job`'s iteration.
    fn play(&self, job: &SpsaJob, games: &[usize]) -> Result<Vec<GameOutcome>, String>;
    /// Apply the next iteration: every game of its match once; the checkpoint written.
    fn apply(&self, job: &SpsaJob, games: &[GameOutcome]) -> Result<Applied, String>;
    /// θ rounded: `--out` written when the run is finished; the command's line.
    fn finish(&self) -> Result<SpsaEnd, String>;
}

/// A run of game `G`, checked.
pub struct Loaded<G: FullGame> {
    game: G,
    args: SpsaArgs,
    cfg: SpsaConfig,
    schedule: Schedule,
    path: PathBuf,
    last: u32,
    /// θ after the last iteration applied (the checkpoint's).
    state: Mutex<State>,
}

/// FNV-1a of the settings: a short, stable name of the run.
fn fingerprint(settings: &[(String, String)]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (k, v) in settings {
        for b in k.bytes().chain([0]).chain(v.bytes()).chain([0]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Check the run (as `plateau spsa` does before its first game) and keep it for its jobs.
pub fn load<G: FullGame>(game: G, args: SpsaArgs, run: SpsaRun) -> Result<Loaded<G>, String> {
    let SpsaRun { cfg, checkpoint, .. } = run;
    let schedule = Schedule::new(&cfg)?;
    let path = checkpoint.path.ok_or(
        "the cluster's spsa needs --out FILE (its checkpoint FILE.checkpoint is how a restarted driver resumes)",
    )?;
    let engine = [cfg.engine.clone(), cfg.engine.clone()];
    check_players::<G>(&engine, &cfg.limit).map_err(|e| one_line(&e.to_string()))?;
    if cfg.limit == Some(crate::search::TimeControl::Infinite) {
        return Err("a match needs a time limit: --movetime, --tc, or the players' own limits".into());
    }
    let last = checkpoint.stop_after.unwrap_or(cfg.iterations).min(cfg.iterations);
    let state = schedule.start_state(&cfg, settings(&game, &cfg));
    Ok(Loaded { game, args, cfg, schedule, path, last, state: Mutex::new(state) })
}

impl<G: FullGame> Loaded<G> {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn games(&self) -> usize {
        2 * self.cfg.pairs
    }
}

impl<G: FullGame> SpsaJobs for Loaded<G> {
    fn plan(&self) -> SpsaPlan {
        SpsaPlan {
            run: fingerprint(&self.lock().settings),
            iterations: self.cfg.iterations,
            last: self.last,
            pairs: self.cfg.pairs,
            names: self.cfg.names.clone(),
            tasks: tasks(self.games()),
        }
    }

    fn open(&self) -> Result<Opened, String> {
        let mut state = self.lock();
        if let Some(saved) = checkpoint::load(&self.path, &state.settings, true)? {
            *state = saved;
        }
        Ok(Opened {
            checkpoint: self.path.display().to_string(),
            iteration: state.iteration,
            iterations: self.cfg.iterations,
            theta: state.theta.clone(),
            total: state.total,
        })
    }

    fn next(&self) -> Option<SpsaJob> {
        let state = self.lock();
        let k = state.iteration + 1;
        (k <= self.last).then(|| {
            let step = self.schedule.step(&self.cfg, k, &state.theta);
            SpsaJob { iteration: k, plus: step.plus, minus: step.minus }
        })
    }

    fn play(&self, job: &SpsaJob, games: &[usize]) -> Result<Vec<GameOutcome>, String> {
        let n = self.cfg.names.len();
        if job.iteration == 0 || job.iteration > self.cfg.iterations || job.plus.len() != n || job.minus.len() != n {
            return Err(format!("spsa: iteration {} is not one of this run's", job.iteration));
        }
        if let Some(bad) = games.iter().find(|&&i| i == 0 || i > self.games()) {
            return Err(format!("spsa: game {bad} is not in an iteration (games 1 to {})", self.games()));
        }
        let mc = iteration_match::<G>(&self.cfg, job.iteration, &job.plus, &job.minus);
        let mut a = player::build::<G>(&mc.players[0]).map_err(|e| one_line(&e.to_string()))?;
        let mut b = player::build::<G>(&mc.players[1]).map_err(|e| one_line(&e.to_string()))?;
        Ok(games
            .iter()
            .map(|&i| {
                let rec = play_numbered(&self.game, &mc, a.as_mut(), b.as_mut(), i - 1);
                GameOutcome { game: i, score: rec.a_score(), plies: rec.moves.len(), termination: rec.termination }
            })
            .collect())
    }

    fn apply(&self, job: &SpsaJob, games: &[GameOutcome]) -> Result<Applied, String> {
        let mut state = self.lock();
        let k = state.iteration + 1;
        if job.iteration != k || k > self.last {
            return Err(format!(
                "spsa: iteration {} cannot be applied: the checkpoint is at iteration {} (of {})",
                job.iteration, state.iteration, self.last
            ));
        }
        let step = self.schedule.step(&self.cfg, k, &state.theta);
        if step.plus != job.plus || step.minus != job.minus {
            return Err(format!("spsa: iteration {k}'s games were played with other values than this run draws"));
        }
        let mut by_game = BTreeMap::new();
        for g in games {
            if by_game.insert(g.game, g.score).is_some() {
                return Err(format!("spsa: iteration {k}: game {} given twice", g.game));
            }
        }
        if !by_game.keys().copied().eq(1..=self.games()) {
            return Err(format!("spsa: iteration {k} needs its games 1 to {} once each", self.games()));
        }
        // As run_match counts them: A's wins minus B's.
        let wins_a = by_game.values().filter(|&&s| s == 1.0).count();
        let wins_b = by_game.values().filter(|&&s| s == 0.0).count();
        let r = wins_a as f64 - wins_b as f64;
        let mut next = state.clone();
        next.iteration = k;
        next.total += r;
        self.schedule.update(&mut next.theta, &step, r);
        checkpoint::save(&self.path, &mut next)?;
        *state = next;
        let progress = SpsaProgress { iteration: k, theta: state.theta.clone(), result: r, total: state.total };
        let line = progress.line(&self.cfg.names);
        Ok(Applied { progress, line })
    }

    fn finish(&self) -> Result<SpsaEnd, String> {
        let state = self.lock();
        let tuned = self.schedule.tuned(&self.cfg, &state.theta)?;
        let line = self.args.finish(&tuned, state.iteration)?.unwrap_or_default();
        Ok(SpsaEnd {
            iteration: state.iteration,
            iterations: self.cfg.iterations,
            theta: state.theta.clone(),
            total: state.total,
            params: tuned.spec_params(),
            line,
        })
    }
}

/// `plateau spsa`'s flags alone (the words after `spsa`), for [`load_words`].
#[derive(clap::Parser, Debug)]
#[command(name = "plateau spsa")]
struct Standalone {
    #[command(flatten)]
    args: SpsaArgs,
}

/// Parse and check `plateau spsa`'s words (after `spsa`) as the command does before its first game (`--out FILE`
/// required; `--resume` is implied, `--concurrency` not used). Errors are one line.
pub fn load_words(words: &[String]) -> Result<Box<dyn SpsaJobs>, String> {
    use clap::Parser;
    let parsed = Standalone::try_parse_from(std::iter::once("plateau spsa".to_string()).chain(words.iter().cloned()))
        .map_err(|e| one_line(crate::spec::usage_line(&e).trim_start_matches("error: ")))?;
    let args = parsed.args;
    if args.ray.is_some() {
        return Err("--ray is plateau spsa's own flag (the cluster driver takes --address)".into());
    }
    if args.out.is_none() {
        return Err(
            "the cluster's spsa needs --out FILE (its checkpoint FILE.checkpoint is how a restarted driver resumes)"
                .into(),
        );
    }
    let run = args.prepare().map_err(|e| one_line(&e))?;
    let jobs: Box<dyn SpsaJobs> = with_game!(&run.game.clone(), g => {
        // Some games are Copy, others only Clone.
        #[allow(clippy::clone_on_copy)]
        let owned = g.clone();
        Box::new(load(owned, args.clone(), run.clone())?)
    });
    Ok(jobs)
}
