//! `plateau.solve()` and `plateau.match()`: the typed library functions under `plateau solve` and `plateau match`
//! (`solve::registry::solve`, `arena::spec::run_match_spec`), their specs read from the keywords as JSON objects of
//! the specs' field names, their reports returned as the commands' `--json` documents (JSON strings).

use pyo3::prelude::*;

use crate::jobs::{json, released};

/// `plateau.solve()`'s progress: notes on stderr, the jobs of `split=True` as JSON lines on stdout (as the command).
struct SolveLines;

impl plateau::solve::request::Progress for SolveLines {
    fn note(&mut self, line: &str) {
        eprintln!("{line}");
    }
    fn job(&mut self, job: &plateau::solve::breakthrough::Job) {
        if let Ok(line) = serde_json::to_string(job) {
            println!("{line}");
        }
    }
}

/// `plateau.solve()`: the solve of `game` (a game string) with `request` (a JSON object of
/// `plateau::solve::request::Request`'s fields) by the solver registry's `solve`, the function under `plateau solve`;
/// its `SolveReport` as `plateau solve --json`'s document (a JSON string). A batch with mismatches is an error, as
/// the command's exit code says.
#[pyfunction]
pub fn solve_json(py: Python<'_>, game: &str, request: &str) -> PyResult<String> {
    use plateau::solve::{registry, request::Request};
    released(py, || {
        let req = Request::from_json(serde_json::from_str(request).map_err(|e| format!("solve options: {e}"))?)?;
        let any = plateau::games::AnyGame::parse(game).map_err(|e| e.to_string())?;
        let report = registry::solve(&any, game, &req, &mut SolveLines).map_err(|e| format!("{e:#}"))?;
        if let Some(e) = report.failure() {
            return Err(e);
        }
        json(&report)
    })
}

/// `plateau.match()`: the match of `spec` (a JSON object of `plateau::arena::spec::MatchSpec`'s fields, as
/// `MatchSpec::from_json` reads them) played by `run_match_spec`, the function under `plateau match`; its report as
/// `plateau match --json`'s document (a JSON string). `verbose`: one line per finished game on stderr.
#[pyfunction]
#[pyo3(signature = (spec, verbose=false))]
pub fn match_json(py: Python<'_>, spec: &str, verbose: bool) -> PyResult<String> {
    use plateau::arena::spec::{MatchProgress, MatchSpec, game_line, run_match_spec};
    released(py, || {
        let value = serde_json::from_str(spec).map_err(|e| format!("match options: {e}"))?;
        let spec = MatchSpec::from_json(value)?;
        let mut show = |r: &plateau::arena::record::GameRecord| {
            if verbose {
                eprintln!("{}", game_line(r));
            }
        };
        let report = run_match_spec(&spec, MatchProgress { progress_bar: !verbose, on_game: &mut show })?;
        json(&report)
    })
}
