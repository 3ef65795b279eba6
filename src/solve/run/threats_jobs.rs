//! Qubic's split solve as jobs, for drivers that run them elsewhere (the Ray driver of the Python package,
//! `python -m plateau.cluster solve qubic --split`, `docs/cluster.md`): the plan of `plateau solve qubic --split`
//! ([`crate::solve::threats::split`]), one job per orbit of the loser's answers, each job run alone on its own table
//! and proof files (`FILE.ANSWER.table`, `FILE.ANSWER.proof`), the results file of `--split --results FILE` (each
//! continues the other's), and at the end the command's report: the jobs' proofs merged into `--proof FILE` and
//! checked with `--check` by the independent checker.
//!
//! ```text
//! load(game, request)  = the request checked as `plateau solve qubic --split --results FILE` checks it
//! plan()               = {root, first_move, groups: [[answer, mirrors...]]}  (one group per job, in --split's order)
//! solve_group(answer)  = the job run alone (its table read when it exists, saved at the end and every --save-every
//!                        seconds; stopped by --max-nodes / --max-seconds): its line
//! open()               = the results file read back (every line a job line, else refused untouched): the decided
//!                        jobs (proven with their proof file there, or disproven); the file opened for appending
//! add(lines)           = a finished job's line appended at once (flushed); whether the root is decided now
//! summary(seconds)     = `plateau solve qubic --split --json`'s report (the proof merged and checked when proven)
//! ```
//!
//! The jobs' files are written where the job runs and read where the driver runs: the cluster shares the
//! filesystem of the results file (the merge says which proof file it misses).

use std::collections::HashMap;
use std::sync::Mutex;

use super::split_jobs::{JobSplit, SplitPlan};
use super::threats::{check_merged, split_request};
use crate::game::FullGame;
use crate::solve::request::{CHECK_MEMO_DEFAULT, Request};
use crate::solve::threats::split::{JobLine, JobRun, Split, append_line};
use crate::spec::parse_table_mib;

/// The driver's side: the results file, the latest line of each job, this run's jobs.
#[derive(Default)]
struct Run {
    file: Option<std::fs::File>,
    latest: HashMap<String, JobLine>,
    jobs_run: usize,
    nodes: u64,
}

/// A split solve of the threat solver, checked, its jobs run wherever the caller likes.
pub struct ThreatsJobs<G: FullGame> {
    g: G,
    split: Split<G>,
    plan: SplitPlan,
    check: bool,
    memo_mib: usize,
    run: Mutex<Run>,
}

/// Check `plateau solve GAME --split --results FILE`'s request (the threat solver's) as the command does.
pub fn load<G: FullGame>(g: &G, req: &Request) -> Result<ThreatsJobs<G>, String> {
    if !req.split {
        return Err("the cluster's solve is the split solve: give --split (and --results FILE)".into());
    }
    if req.results.is_none() {
        return Err("the cluster's split solve needs --results FILE (it resumes from it when restarted)".into());
    }
    let memo_mib = parse_table_mib(req.check_memo.as_deref().unwrap_or(CHECK_MEMO_DEFAULT))
        .map_err(|e| format!("--check-memo: {e}"))?;
    if req.check_memo.is_some() && !req.check {
        return Err("--check-memo is the memory of --check: it needs --check".into());
    }
    let (state, options) = split_request(g, req, memo_mib, None)?;
    let split = Split::new(g, &state, &options)?;
    let plan = SplitPlan {
        root: split.root_text().to_string(),
        first_move: Some(split.first_text().to_string()),
        groups: split.jobs().into_iter().map(|(a, m)| [vec![a], m].concat()).collect(),
    };
    Ok(ThreatsJobs { g: g.clone(), split, plan, check: req.check, memo_mib, run: Mutex::new(Run::default()) })
}

impl<G: FullGame> ThreatsJobs<G> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Run> {
        self.run.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The job of `answer` decided by `run`'s lines: `Some(true)` proven, `Some(false)` disproven.
    fn decided_job(&self, run: &Run, answer: &str) -> Option<bool> {
        self.split.decided(answer, run.latest.get(answer))
    }

    /// Whether the root is decided: a job disproven (the first move fails), or every job proven.
    fn root_decided(&self, run: &Run) -> bool {
        let jobs = || self.plan.groups.iter().map(|gr| self.decided_job(run, &gr[0]));
        jobs().any(|d| d == Some(false)) || jobs().all(|d| d == Some(true))
    }
}

impl<G: FullGame> JobSplit for ThreatsJobs<G> {
    fn plan(&self) -> &SplitPlan {
        &self.plan
    }

    fn solve_group(&self, answer: &str) -> Result<Vec<String>, String> {
        let answer = self
            .plan
            .groups
            .iter()
            .find(|gr| gr.iter().any(|m| m == answer))
            .map(|gr| gr[0].clone())
            .ok_or_else(|| format!("'{answer}' is not an answer of this split"))?;
        match self.split.run_job(&answer, &|| false)? {
            JobRun::Line(line) => Ok(vec![serde_json::to_string(&line).map_err(|e| e.to_string())?]),
            JobRun::Interrupted(n) => Err(format!("job {answer}: interrupted after {n} expansions, its table saved")),
        }
    }

    fn open(&self) -> Result<Vec<String>, String> {
        let latest = self.split.latest()?;
        let file = crate::files::append(self.split.results(), "--results")?;
        let mut run = self.lock();
        *run = Run { file: Some(file), latest, ..Run::default() };
        Ok(self
            .plan
            .groups
            .iter()
            .filter(|gr| self.decided_job(&run, &gr[0]).is_some())
            .map(|gr| gr[0].clone())
            .collect())
    }

    fn add(&self, lines: &[String]) -> Result<bool, String> {
        let jobs = lines
            .iter()
            .map(|l| serde_json::from_str::<JobLine>(l).map_err(|e| format!("not a job line ({e})")))
            .collect::<Result<Vec<_>, _>>()?;
        let mut run = self.lock();
        for j in &jobs {
            if j.root != self.plan.root
                || Some(&j.first_move) != self.plan.first_move.as_ref()
                || !self.plan.groups.iter().any(|gr| gr[0] == j.answer)
            {
                return Err(format!("a job of another split ({} {} {})", j.root, j.first_move, j.answer));
            }
        }
        for j in jobs {
            append_line(run.file.as_mut().ok_or("open the results file first")?, &j)?;
            run.jobs_run += 1;
            run.nodes += j.nodes;
            run.latest.insert(j.answer.clone(), j);
        }
        Ok(self.root_decided(&run))
    }

    fn decided(&self) -> bool {
        self.root_decided(&self.lock())
    }

    fn summary_json(&self, seconds: f64) -> Result<String, String> {
        let mut r = {
            let run = self.lock();
            self.split.report(&run.latest, run.jobs_run, run.nodes)?
        };
        check_merged(&self.g, &mut r, self.check, self.memo_mib)?;
        r.seconds = seconds;
        serde_json::to_string(&r).map_err(|e| e.to_string())
    }
}
