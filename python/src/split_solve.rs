//! `plateau._plateau.SplitSolve`: Breakthrough's job-level split solve (`plateau::solve::run::split_jobs`) for the Ray
//! cluster driver (`plateau/cluster/solve.py`): its groups of root moves, one group solved alone (a job), the results
//! file of `plateau solve --split --results FILE` read back and appended to, the summary. Documents cross as JSON.
//!
//! ```text
//! SplitSolve("breakthrough(rows=5,columns=4)", '{"split": true, "results": "jobs.jsonl"}')   checked as solve does
//! plan_json()              {root, groups: [[move, mirrors...]]}
//! solve_group(move)        the group's job lines (JSON), as --split writes them
//! open() -> [move]         the results file read back: the first moves of the groups it decides
//! add(lines) -> bool       a finished group's job lines appended at once; whether the root is decided now
//! decided                  whether the solve is over (every group decided; a win with --first-win-only)
//! summary_json(seconds)    plateau solve --split --json's summary
//! ```

use plateau::solve::breakthrough::Job;
use plateau::solve::request::Request;
use plateau::solve::run::split_jobs::{SplitJobs, load};
use pyo3::prelude::*;

use crate::guard;
use crate::jobs::{from_json, json, released};

/// A split solve of `plateau solve`'s options, its groups solved wherever the caller likes.
#[pyclass(module = "plateau", name = "SplitSolve", frozen)]
pub struct PySplitSolve {
    jobs: SplitJobs,
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
        released(py, || self.jobs.solve_group(&mv)?.iter().map(json).collect())
    }
    /// Read the results file back and open it for appending: the first moves of the groups it decides.
    fn open(&self) -> PyResult<Vec<String>> {
        guard(|| self.jobs.open())
    }
    /// Append a finished group's job lines; whether the root is decided now.
    fn add(&self, lines: Vec<String>) -> PyResult<bool> {
        guard(|| {
            let jobs = lines.iter().map(|l| from_json::<Job>(l, "not a job line")).collect::<Result<Vec<_>, _>>()?;
            self.jobs.add(&jobs)
        })
    }
    /// The summary as `plateau solve --split --json` prints it.
    fn summary_json(&self, seconds: f64) -> PyResult<String> {
        guard(|| json(&self.jobs.summary(seconds)))
    }
}
