//! `plateau._plateau.Match`: the job-level match (`plateau::arena::match_jobs`) from `plateau match`'s very words, for
//! the Ray cluster driver (`plateau/cluster/match.py`): its plan, the play of one task (a game pair), the record file
//! read back and appended to game by game, the SPRT, the summary. Documents cross as JSON text.
//!
//! ```text
//! Match(["breakthrough", "--player", "random", "--player", ...])   parsed and checked as the command does
//! plan_json()                    {games: N, tasks: [{task, games: [1, 2]}]}
//! play(ids) -> [block]           each game's record block as the record file holds it
//! open() -> [n]                  the record file (--record, required) read back as --resume reads it: its games
//! add(block) -> {written, decided, line}   one finished game checked, appended to the record file (flushed), counted
//! decided                        whether the SPRT has concluded
//! summary_json(seconds), summary_text(seconds)   as `plateau match --json` / prints it
//! ```

use plateau::arena::match_jobs::{LoadedMatch, load_words};
use plateau::arena::text::summary_text;
use pyo3::prelude::*;

use crate::guard;
use crate::jobs::{json, released};

/// A match of `plateau match`'s words, its game pairs played wherever the caller likes.
#[pyclass(module = "plateau", name = "Match", frozen)]
pub struct PyMatch {
    loaded: LoadedMatch,
}

#[pymethods]
impl PyMatch {
    /// Parse and check `plateau match`'s words (after `match`); `ValueError` with the command's line.
    #[new]
    fn new(py: Python<'_>, args: Vec<String>) -> PyResult<PyMatch> {
        let loaded = released(py, || load_words(&args))?;
        Ok(PyMatch { loaded })
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
    fn decided(&self) -> bool {
        self.loaded.jobs.decided()
    }
    /// The plan as JSON.
    fn plan_json(&self) -> PyResult<String> {
        guard(|| json(&self.loaded.jobs.plan()))
    }
    /// Play the games `ids` (numbers from 1; the interpreter released meanwhile): their record blocks.
    fn play(&self, py: Python<'_>, ids: Vec<usize>) -> PyResult<Vec<String>> {
        released(py, || self.loaded.jobs.play(&ids))
    }
    /// Read the record file back (as `--resume` does) and open it for appending: the numbers of the games it holds.
    fn open(&self, py: Python<'_>) -> PyResult<Vec<usize>> {
        released(py, || self.loaded.jobs.open())
    }
    /// Add one finished game (its record block): `{written, decided, line}` as JSON.
    fn add(&self, block: &str) -> PyResult<String> {
        guard(|| json(&self.loaded.jobs.add(block)?))
    }
    /// The summary as `plateau match --json` prints it.
    fn summary_json(&self, seconds: f64) -> PyResult<String> {
        guard(|| json(&self.loaded.jobs.summary(seconds)))
    }
    /// The summary as `plateau match` prints it.
    fn summary_text(&self, seconds: f64) -> PyResult<String> {
        guard(|| Ok(summary_text(&self.loaded.jobs.summary(seconds))))
    }
}
