//! `plateau._plateau.Spsa`: the job-level SPSA run (`plateau::arena::spsa_jobs`) from `plateau spsa`'s very words,
//! for the Ray cluster driver (`plateau/cluster/spsa.py`): its plan, each iteration's job (θ+ and θ-), the play of
//! one task (a game pair of the iteration), the update applied in iteration order with the checkpoint written, the
//! parameters file at the end. Documents cross as JSON text.
//!
//! ```text
//! Spsa(["breakthrough", "--engine", ..., "--out", FILE])   parsed and checked as the command does
//! plan_json()                  {run, iterations, last, pairs, names, tasks: [{task, games: [1, 2]}]}
//! open_json()                  FILE.checkpoint read back (always resumed): {checkpoint, iteration, iterations, ...}
//! next_json()                  the next iteration's job {iteration, plus, minus}, or "null" at the end
//! play(job_json, ids) -> text  the games `ids` of that iteration: [{game, score, plies, termination}]
//! apply(job_json, games_json)  the iteration applied, the checkpoint written: {iteration, theta, result, total, line}
//! finish_json()                --out written (when finished): {iteration, iterations, theta, params, line}
//! ```

use plateau::arena::spsa_jobs::{GameOutcome, SpsaJob, SpsaJobs, load_words};
use pyo3::prelude::*;

use crate::guard;

/// An SPSA run of `plateau spsa`'s words, each iteration's game pairs played wherever the caller likes.
#[pyclass(module = "plateau", name = "Spsa", frozen)]
pub struct PySpsa {
    jobs: Box<dyn SpsaJobs>,
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| e.to_string())
}

fn job(text: &str) -> Result<SpsaJob, String> {
    serde_json::from_str(text).map_err(|e| format!("spsa: not a job ({e})"))
}

#[pymethods]
impl PySpsa {
    /// Parse and check `plateau spsa`'s words (after `spsa`); `ValueError` with the command's line.
    #[new]
    fn new(py: Python<'_>, args: Vec<String>) -> PyResult<PySpsa> {
        let jobs = py.detach(|| guard(|| load_words(&args)))?;
        Ok(PySpsa { jobs })
    }
    /// The plan as JSON.
    fn plan_json(&self) -> PyResult<String> {
        guard(|| json(&self.jobs.plan()))
    }
    /// Read the checkpoint back (another run's refused untouched): where the run is, as JSON.
    fn open_json(&self) -> PyResult<String> {
        guard(|| json(&self.jobs.open()?))
    }
    /// The next iteration's job as JSON (`null` once the run has reached its last iteration).
    fn next_json(&self) -> PyResult<String> {
        guard(|| json(&self.jobs.next()))
    }
    /// Play the games `ids` of the job's iteration (the interpreter released meanwhile): their outcomes as JSON.
    fn play(&self, py: Python<'_>, job_json: &str, ids: Vec<usize>) -> PyResult<String> {
        py.detach(|| guard(|| json(&self.jobs.play(&job(job_json)?, &ids)?)))
    }
    /// Apply the job's iteration from all its games' outcomes (a JSON list); the checkpoint is written.
    fn apply(&self, job_json: &str, games_json: &str) -> PyResult<String> {
        guard(|| {
            let games: Vec<GameOutcome> =
                serde_json::from_str(games_json).map_err(|e| format!("spsa: not a list of games ({e})"))?;
            json(&self.jobs.apply(&job(job_json)?, &games)?)
        })
    }
    /// θ rounded: the parameters file written to `--out` when the run is finished; the command's line, as JSON.
    fn finish_json(&self) -> PyResult<String> {
        guard(|| json(&self.jobs.finish()?))
    }
}
