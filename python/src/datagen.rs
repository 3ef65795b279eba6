//! `plateau._plateau.DataGen`: the self-play data of `plateau tune --save-data FILE` in chunks of games
//! (`plateau::train::datagen_jobs`), for the Ray cluster driver (`plateau/cluster/datagen.py`).
//!
//! ```text
//! DataGen('{"game": ..., "games": N, "nodes": M, "data_eval": "hand", "random_plies": 4, "seed": 1,
//!           "save_data": FILE}')       checked as plateau tune checks them
//! open() -> [game]                     the data file read back as --save-data resumes it: the games it holds
//! play(ids) -> text                    the records of games `ids`, as the file holds them
//! add(text) -> records                 a finished chunk appended at once
//! ```

use plateau::train::datagen_jobs::{DataJobs, DataRun, load};
use pyo3::prelude::*;

use crate::guard;
use crate::jobs::released;

/// A self-play data run, its games played in chunks wherever the caller likes.
#[pyclass(module = "plateau", name = "DataGen", frozen)]
pub struct PyDataGen {
    jobs: DataJobs,
}

#[pymethods]
impl PyDataGen {
    /// Check the settings (a JSON object); `ValueError` with one line.
    #[new]
    fn new(settings_json: &str) -> PyResult<PyDataGen> {
        let jobs = guard(|| {
            let run: DataRun =
                serde_json::from_str(settings_json).map_err(|e| format!("data generation settings: {e}"))?;
            load(run)
        })?;
        Ok(PyDataGen { jobs })
    }
    /// Read the data file back (as `--save-data` resumes it) and open it for appending: the games it holds.
    fn open(&self) -> PyResult<Vec<u32>> {
        guard(|| self.jobs.open())
    }
    /// Play the games `ids` (the interpreter released meanwhile): their records.
    fn play(&self, py: Python<'_>, ids: Vec<u32>) -> PyResult<String> {
        released(py, || self.jobs.play(&ids))
    }
    /// Append a finished chunk's records; their number.
    fn add(&self, text: &str) -> PyResult<usize> {
        guard(|| self.jobs.add(text))
    }
}
