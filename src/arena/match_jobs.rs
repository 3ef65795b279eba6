//! The job-level match for drivers that play the games elsewhere (a Ray cluster driver): one match behind an object
//! without the game's type, split into tasks of one game pair, the play of a task (on a worker), and the driver's
//! side (the record file read back, each finished game checked, appended and counted, the SPRT, the summary).
//! `plateau match` plays the very same games in one process ([`super::run_match`], [`super::resume::resume_match`]).
//!
//! ```text
//! plan()          = {games: N, tasks: [{task k, games: [2k-1, 2k]}]}  (a game pair: one opening with both colours;
//!                   with fixed colours two games in a row)
//! play(ids)       = each game i played as plateau match plays it (super::play_numbered: opening, colours and seeds
//!                   from its number), its record block as the record file holds it (the match's tags)
//! open()          = the record file read back as --resume reads it (another match's file refused untouched, a block
//!                   cut short cut off); its games counted in the file's order (the SPRT too)
//! add(block)      = the block checked to be one of this match's games (as --resume checks them); a game the file
//!                   holds already adds nothing; else appended to the record file (flushed) and counted:
//!                   {written, decided}: decided once the SPRT concludes (the driver then stops submitting)
//! summary(secs)   = plateau match's summary (--json's document) of the games counted
//! load_words(w)   = the match of `plateau match`'s very words (after `match`), with --json and --verbose
//! ```

use std::collections::HashSet;
use std::io::Write;
use std::sync::Mutex;

use super::record::GameRecord;
use super::resume::{check_block, match_tags, read_back};
use super::spec::{MatchCommand, check_spec, game_line, match_config};
use super::tally::Tally;
use super::{MatchConfig, MatchSummary, check_players, play_numbered, player, summarize};
use crate::game::{FullGame, one_line};
use crate::games::{AnyGame, with_game};

/// One task: a game pair.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MatchTask {
    /// 1-based.
    pub task: usize,
    /// The game numbers (1-based; two, or one for the last game of an odd number).
    pub games: Vec<usize>,
}

/// What a match will play.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MatchPlan {
    pub games: usize,
    pub tasks: Vec<MatchTask>,
}

/// What adding a finished game did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Added {
    /// False: the record file held this game already (a retried task's second result), or the SPRT had concluded
    /// before it (as `plateau match` plays no game after the deciding one).
    pub written: bool,
    /// The SPRT concluded (with this game or before).
    pub decided: bool,
    /// `--verbose`'s line of the game.
    pub line: String,
}

/// A match's jobs, whatever its game.
pub trait MatchJobs: Send + Sync {
    /// The match's plan: its settings and game pairs.
    fn plan(&self) -> MatchPlan;
    /// Play the games `ids` (numbers 1..=N): their record blocks.
    fn play(&self, ids: &[usize]) -> Result<Vec<String>, String>;
    /// Read the record file back (required): the numbers of the games it holds, in its order.
    fn open(&self) -> Result<Vec<usize>, String>;
    /// Add one finished game (its record block).
    fn add(&self, block: &str) -> Result<Added, String>;
    /// Whether the SPRT has concluded.
    fn decided(&self) -> bool;
    /// The summary of the games counted, `seconds` of this run.
    fn summary(&self, seconds: f64) -> MatchSummary;
}

/// The driver's state: the record file, the games it holds, the totals.
struct Run {
    file: Option<std::fs::File>,
    held: HashSet<usize>,
    tally: Tally,
    resumed: u64,
}

/// A match of game `G`, checked.
pub struct Loaded<G: FullGame> {
    game: G,
    cfg: MatchConfig<G>,
    names: [String; 2],
    under: [String; 2],
    run: Mutex<Run>,
}

/// Check the match (as `plateau match` does before its first game) and keep it for its jobs.
pub fn load<G: FullGame>(game: G, cfg: MatchConfig<G>) -> Result<Loaded<G>, String> {
    let (names, under) = check_players::<G>(&cfg.players, &cfg.limit).map_err(|e| e.to_string())?;
    if cfg.limit == Some(crate::search::TimeControl::Infinite) {
        return Err("a match needs a time limit: --movetime, --tc, or the players' own limits".into());
    }
    let run = Run { file: None, held: HashSet::new(), tally: Tally::default(), resumed: 0 };
    Ok(Loaded { game, cfg, names, under, run: Mutex::new(run) })
}

/// The tasks of a match of `games` games: each two games in a row.
pub fn tasks(games: usize) -> Vec<MatchTask> {
    (1..=games)
        .step_by(2)
        .enumerate()
        .map(|(k, i)| MatchTask { task: k + 1, games: (i..=games.min(i + 1)).collect() })
        .collect()
}

impl<G: FullGame> Loaded<G> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Run> {
        self.run.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn count(&self, run: &mut Run, rec: &GameRecord) {
        run.held.insert(rec.round);
        run.tally.add(rec, self.cfg.sprt.as_ref());
    }
}

impl<G: FullGame> MatchJobs for Loaded<G> {
    fn plan(&self) -> MatchPlan {
        MatchPlan { games: self.cfg.games, tasks: tasks(self.cfg.games) }
    }

    fn play(&self, ids: &[usize]) -> Result<Vec<String>, String> {
        if let Some(bad) = ids.iter().find(|&&i| i == 0 || i > self.cfg.games) {
            return Err(format!("game {bad} is not in the match (games 1 to {})", self.cfg.games));
        }
        let mut a = player::build::<G>(&self.cfg.players[0]).map_err(|e| e.to_string())?;
        let mut b = player::build::<G>(&self.cfg.players[1]).map_err(|e| e.to_string())?;
        let tags = match_tags(&self.cfg);
        Ok(ids
            .iter()
            .map(|&n| play_numbered(&self.game, &self.cfg, a.as_mut(), b.as_mut(), n - 1).to_pgn_with(&tags))
            .collect())
    }

    fn open(&self) -> Result<Vec<usize>, String> {
        let path = self.cfg.record.as_deref().ok_or("the match's driver needs --record FILE (it resumes from it)")?;
        let done = read_back(&self.game, &self.cfg)?;
        // RecordFile::open adds the line break a block cut short lacked; blocks are appended as the worker wrote them.
        drop(super::record::RecordFile::open(path, Vec::new())?);
        let file = crate::files::append(path, "record file")?;
        let mut run = self.lock();
        *run = Run { file: Some(file), held: HashSet::new(), tally: Tally::default(), resumed: done.len() as u64 };
        for rec in &done {
            self.count(&mut run, rec);
        }
        Ok(done.iter().map(|r| r.round).collect())
    }

    fn add(&self, block: &str) -> Result<Added, String> {
        let rec = check_block(&self.game, &self.cfg, &self.names, block)?;
        let line = game_line(&rec);
        let mut run = self.lock();
        if run.held.contains(&rec.round) || run.tally.decided.is_some() {
            return Ok(Added { written: false, decided: run.tally.decided.is_some(), line });
        }
        let file = run.file.as_mut().ok_or("open the record file first")?;
        file.write_all(block.as_bytes())
            .and_then(|_| file.flush())
            .map_err(|e| format!("cannot write the record file: {e}"))?;
        self.count(&mut run, &rec);
        Ok(Added { written: true, decided: run.tally.decided.is_some(), line })
    }

    fn decided(&self) -> bool {
        self.lock().tally.decided.is_some()
    }

    fn summary(&self, seconds: f64) -> MatchSummary {
        let run = self.lock();
        summarize(&self.game, &self.cfg, &self.names, &self.under, &run.tally, run.resumed, seconds)
    }
}

/// `plateau match`'s flags alone (the words after `match`), for [`load_words`].
#[derive(clap::Parser, Debug)]
#[command(name = "plateau match")]
struct Standalone {
    #[command(flatten)]
    args: MatchCommand,
}

/// A match loaded from `plateau match`'s very words, for another driver of its jobs (the Ray cluster's, through the
/// Python bindings), with the flags that say how to report.
pub struct LoadedMatch {
    pub jobs: Box<dyn MatchJobs>,
    /// `--json`, `--verbose` as given.
    pub json: bool,
    pub verbose: bool,
}

/// Parse and check `plateau match`'s words (after `match`) as the command does before its first game. Errors are the
/// command's one line.
pub fn load_words(words: &[String]) -> Result<LoadedMatch, String> {
    let parsed: Standalone = crate::spec::parse_words("match", words)?;
    let MatchCommand { spec, json, verbose, ray } = parsed.args;
    if ray.is_some() {
        return Err("--ray is plateau match's own flag (the cluster driver takes --address)".into());
    }
    check_spec(&spec).map_err(|e| one_line(&e))?;
    let any = AnyGame::parse(&spec.game).map_err(|e| one_line(&e.to_string()))?;
    let jobs: Box<dyn MatchJobs> = with_game!(&any, g => {
        let cfg = match_config(&spec, g, false).map_err(|e| one_line(&e))?;
        // Some games are Copy, others only Clone.
        #[allow(clippy::clone_on_copy)]
        let owned = g.clone();
        Box::new(load(owned, cfg)?)
    });
    Ok(LoadedMatch { jobs, json, verbose })
}
