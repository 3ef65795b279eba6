//! `plateau._plateau.Tournament`: the job-level tournament (`plateau::tournament::jobs`) from `plateau tournament`'s
//! very words, for the Ray cluster driver (`plateau/cluster/`): its plan, the play of one task (a game pair), its
//! files and its standings. Documents cross as JSON text (the Python half, `plateau/tournament.py`, decodes them).
//!
//! ```text
//! Tournament(["breakthrough", "--player", "a=random(seed=1)", ...])   parsed and checked as the command does
//! plan_json()                        {tournament, settings, games: [{id, round, white, black, opening, seed}], tasks}
//! play_json([7, 8])                  [{result: {id, round, white, black, result, termination, plies}, record}]
//! open_files(resume) -> done         the results and record files, read back (resume) or checked empty
//! write(result_json, record) -> bool one game appended to both files (false: the files hold it already)
//! summary_json(results_json, resumed, seconds), summary_text(...)   as `plateau tournament --json` / prints it
//! ```

use std::sync::Mutex;

use plateau::tournament::spec::{LoadedTournament, load};
use plateau::tournament::text::{game_line, summary_text};
use plateau::tournament::{GameResult, TournamentFiles, TournamentSummary};
use pyo3::prelude::*;

use crate::guard;
use crate::jobs::{from_json, json, released};

/// A tournament of `plateau tournament`'s words, its jobs played one task at a time wherever the caller likes.
#[pyclass(module = "plateau", name = "Tournament", frozen)]
pub struct PyTournament {
    loaded: LoadedTournament,
    files: Mutex<Option<TournamentFiles>>,
}

impl PyTournament {
    fn summary(&self, results_json: &str, resumed: u64, seconds: f64) -> Result<TournamentSummary, String> {
        let results: Vec<GameResult> = from_json(results_json, "not a list of game results")?;
        for r in &results {
            self.loaded.jobs.check(r)?;
        }
        Ok(self.loaded.jobs.summary(results, resumed, seconds))
    }
}

#[pymethods]
impl PyTournament {
    /// Parse and check `plateau tournament`'s words (after `tournament`); `ValueError` with the command's line.
    #[new]
    fn new(py: Python<'_>, args: Vec<String>) -> PyResult<PyTournament> {
        let loaded = released(py, || load(&args))?;
        Ok(PyTournament { loaded, files: Mutex::new(None) })
    }
    /// The settings' fingerprint (the results file's header id, the records' `[Tournament]`).
    #[getter]
    fn id(&self) -> String {
        self.loaded.jobs.id()
    }
    #[getter]
    fn json(&self) -> bool {
        self.loaded.json
    }
    #[getter]
    fn verbose(&self) -> bool {
        self.loaded.verbose
    }
    #[getter]
    fn has_results(&self) -> bool {
        self.loaded.has_results
    }
    /// The plan as JSON.
    fn plan_json(&self) -> PyResult<String> {
        guard(|| json(&self.loaded.jobs.plan()))
    }
    /// Play the games `ids` (the interpreter released meanwhile): a JSON list of `{result, record}`.
    fn play_json(&self, py: Python<'_>, ids: Vec<usize>) -> PyResult<String> {
        released(py, || json(&self.loaded.jobs.play(&ids)?))
    }
    /// Open the results and record files for this run: with `resume` they are read back and repaired (another
    /// tournament's refused, nothing changed); returns the results they hold (a JSON list).
    fn open_files(&self, resume: bool) -> PyResult<String> {
        guard(|| {
            let mut files = self.loaded.jobs.open_files(resume)?;
            let done = std::mem::take(&mut files.done);
            *self.files.lock().map_err(|_| "the files' lock is poisoned".to_string())? = Some(files);
            json(&done)
        })
    }
    /// Append one game (its result as JSON, its record block) to both files; `False` when they hold it already.
    fn write(&self, result_json: &str, record: &str) -> PyResult<bool> {
        guard(|| {
            let r: GameResult = from_json(result_json, "not a game result")?;
            self.loaded.jobs.check(&r)?;
            let mut files = self.files.lock().map_err(|_| "the files' lock is poisoned".to_string())?;
            files.as_mut().ok_or("open_files first")?.write(&r, record)
        })
    }
    /// The summary after `results_json` (a JSON list of results) as `plateau tournament --json` prints it.
    fn summary_json(&self, results_json: &str, resumed: u64, seconds: f64) -> PyResult<String> {
        guard(|| json(&self.summary(results_json, resumed, seconds)?))
    }
    /// The summary as `plateau tournament` prints it.
    fn summary_text(&self, results_json: &str, resumed: u64, seconds: f64) -> PyResult<String> {
        guard(|| Ok(summary_text(&self.summary(results_json, resumed, seconds)?)))
    }
    /// `--verbose`'s line of a finished game (a result as JSON).
    fn game_line(&self, result_json: &str) -> PyResult<String> {
        guard(|| {
            let r: GameResult = from_json(result_json, "not a game result")?;
            Ok(game_line(&r))
        })
    }
}
