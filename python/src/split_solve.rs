//! `plateau._plateau.SplitSolve`: the job-level split solve (`plateau::solve::run::split_jobs`: Breakthrough's groups
//! of root moves, or Qubic's orbits of the loser's answers after the first move; the library chooses by the game's
//! solver) for the Ray cluster driver (`plateau/cluster/solve.py`): its groups, one group solved alone (a job), the
//! results file of `plateau solve --split --results FILE` read back and appended to, the summary. Documents cross as
//! JSON.
//!
//! ```text
//! SplitSolve("breakthrough(rows=5,columns=4)", '{"split": true, "results": "jobs.jsonl"}')   checked as solve does
//! SplitSolve("qubic(size=3)", '{"split": true, "results": "q3.jobs", "proof": "q3.proof", "check": true}')
//! plan_json()              {root, [first_move,] groups: [[move, mirrors...]]}
//! solve_group(move)        the group's job lines (JSON), as --split writes them
//! open() -> [move]         the results file read back: the first moves of the groups it decides
//! add(lines) -> bool       a finished group's job lines appended at once; whether the root is decided now
//! decided                  whether the solve is over (every group decided; a win with --first-win-only)
//! summary_json(seconds)    plateau solve --split --json's summary (Qubic's: the proof merged and checked)
//! ```

use plateau::solve::request::Request;
use plateau::solve::run::split_jobs::{JobSplit, load};
use pyo3::prelude::*;

use crate::guard;
use crate::jobs::{from_json, json, released};

/// A split solve of `plateau solve`'s options, its groups solved wherever the caller likes.
#[pyclass(module = "plateau", name = "SplitSolve", frozen)]
pub struct PySplitSolve {
    jobs: Box<dyn JobSplit>,
}

#[pymethods]
impl PySplitSolve {
    /// Check the game and the request (a JSON object of `plateau.solve()`'s keywords); `ValueError` with one line.
    #[new]
    fn new(py: Python<'_>, game: String, request_json: String) -> PyResult<PySplitSolve> {
        let jobs = released(py, || load(&game, Request::from_json(from_json(&request_json, "not a JSON object")?)?))?;
        Ok(PySplitSolve { jobs })
    }
    #[getter]
    fn decided(&self) -> bool {
        self.jobs.decided()
    }
    /// The plan as JSON.
    fn plan_json(&self) -> PyResult<String> {
        guard(|| json(self.jobs.plan()))
    }
    /// Solve the group of `mv` alone (the interpreter released meanwhile): its job lines.
    fn solve_group(&self, py: Python<'_>, mv: String) -> PyResult<Vec<String>> {
        released(py, || self.jobs.solve_group(&mv))
    }
    /// Read the results file back and open it for appending: the first moves of the groups it decides.
    fn open(&self) -> PyResult<Vec<String>> {
        guard(|| self.jobs.open())
    }
    /// Append a finished group's job lines; whether the root is decided now.
    fn add(&self, lines: Vec<String>) -> PyResult<bool> {
        guard(|| self.jobs.add(&lines))
    }
    /// The summary as `plateau solve --split --json` prints it (Qubic's merges the jobs' proofs and checks the
    /// merged one: the interpreter released meanwhile).
    fn summary_json(&self, py: Python<'_>, seconds: f64) -> PyResult<String> {
        released(py, || self.jobs.summary_json(seconds))
    }
}
