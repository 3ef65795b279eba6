//! `plateau._plateau.CheckSplit`: Breakthrough's split proof check (`plateau::solve::run::check_split`) for the Ray
//! cluster driver (`plateau/cluster/check.py`): its plan, one job run alone, the results file of
//! `plateau solve --check-split --results FILE` read back and appended to, the verdict. Documents cross as JSON.
//!
//! ```text
//! CheckSplit("breakthrough(rows=6,columns=5)", '{"check_split": true, "moves": "a2a3", "results": "f.jsonl"}')
//! open() -> [job]          the results file and its choices file (FILE.choices) read back; the jobs done
//! needed() -> [line]       the lines whose winner's choice is still to be made (empty: the plan is complete)
//! choose(line)             that choice made (a df-pn solve; no open needed: what a worker runs), its line (JSON)
//! add_choice(line) -> bool a choice recorded at once (the plan written once complete); whether the verdict is reached
//! complete()               whether the plan is complete
//! position(line)           the position after a line (what a choice or a job is about)
//! pending() -> [job]       the jobs known and without a line (all of the plan's once it is complete)
//! plan_json()              the plan (after open)
//! run_job(job)             one job (solve + check; no open needed: what a worker runs), its line (JSON)
//! add(line) -> bool        a finished job's line appended at once; whether the verdict is reached now
//! summary_json(seconds)    plateau solve --check-split --json's summary
//! ```

use plateau::solve::breakthrough::{CheckJob, Choice};
use plateau::solve::request::Request;
use plateau::solve::run::check_split::{CheckSplit, load};
use pyo3::prelude::*;

use crate::guard;

/// A split proof check of `plateau solve`'s options, its jobs run wherever the caller likes.
#[pyclass(module = "plateau", name = "CheckSplit", frozen)]
pub struct PyCheckSplit {
    check: CheckSplit,
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| e.to_string())
}

#[pymethods]
impl PyCheckSplit {
    /// Check the game and the request (a JSON object of `plateau.solve()`'s keywords); `ValueError` with one line.
    #[new]
    fn new(py: Python<'_>, game: String, request_json: String) -> PyResult<PyCheckSplit> {
        let check = py.detach(|| {
            guard(|| {
                let value = serde_json::from_str(&request_json).map_err(|e| format!("not a JSON object ({e})"))?;
                load(&game, &Request::from_json(value)?)
            })
        })?;
        Ok(PyCheckSplit { check })
    }
    /// Read the results file (making and writing the plan when it has none; the interpreter released meanwhile): the
    /// jobs done.
    fn open(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        py.detach(|| guard(|| self.check.open()))
    }
    fn pending(&self) -> Vec<String> {
        self.check.pending()
    }
    fn needed(&self) -> Vec<String> {
        self.check.needed()
    }
    /// The position after `line` (two lines to the same position are the same choice, the same job).
    fn position(&self, line: String) -> PyResult<String> {
        guard(|| self.check.position_of(&line))
    }
    fn complete(&self) -> bool {
        self.check.plan().is_some()
    }
    /// The winner's choice after `line` (the interpreter released meanwhile): its line.
    fn choose(&self, py: Python<'_>, line: String) -> PyResult<String> {
        py.detach(|| guard(|| json(&self.check.choose(&line)?)))
    }
    /// Record a choice's line; whether the verdict is reached now.
    fn add_choice(&self, line: String) -> PyResult<bool> {
        guard(|| {
            let choice: Choice = serde_json::from_str(&line).map_err(|e| format!("not a choice line ({e})"))?;
            self.check.add_choice(&choice)
        })
    }
    fn plan_json(&self) -> PyResult<String> {
        guard(|| json(&self.check.plan().ok_or("open the results file first")?))
    }
    /// Run job `job` (the interpreter released meanwhile): its line.
    fn run_job(&self, py: Python<'_>, job: String) -> PyResult<String> {
        py.detach(|| guard(|| json(&self.check.run_job(&job)?)))
    }
    /// Append a finished job's line; whether the verdict is reached now.
    fn add(&self, line: String) -> PyResult<bool> {
        guard(|| {
            let job: CheckJob = serde_json::from_str(&line).map_err(|e| format!("not a job line ({e})"))?;
            self.check.add(&job)
        })
    }
    fn summary_json(&self, seconds: f64) -> PyResult<String> {
        guard(|| json(&self.check.summary(seconds)))
    }
}
