//! `plateau solve GAME --check-split --results FILE`: the split proof check of a Breakthrough claim
//! ([`crate::solve::breakthrough::CheckPlan`]) with its results file, for the command (the jobs one after another)
//! and for the Ray driver of the Python package (`python -m plateau.cluster check`, one task per job).
//!
//! ```text
//! load(game, request)  the request checked; the root and the claim (the side to move wins; with --moves, the side
//!                      that played the last of them wins)
//! open()               the results file: missing or empty -> the plan made (df-pn solves at the split levels) and
//!                      written as its first line {"check_plan": ...}; else its plan read back, refused untouched unless
//!                      it is this request's (game, position, claim, depth) and re-derives by the rules from its
//!                      choices; its job lines read (a last line cut short is dropped); the jobs done
//! pending()            the jobs without a line, in the plan's order
//! run_job(id)          one job (solve + check): a CheckJob
//! add(job)             its line appended at once (flushed)
//! summary(seconds)     the verdict: verified iff no failure in the plan and every job verified
//! ```

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use super::breakthrough::race_rows;
use crate::game::Game;
use crate::games::breakthrough::BtState;
use crate::games::{AnyGame, Breakthrough};
use crate::solve::breakthrough::{CheckJob, CheckPlan, SolveOptions, check_plan, plan_from_choices, run_check_job};
use crate::solve::report::CheckSplitReport;
use crate::solve::request::{CHECK_MEMO_DEFAULT, Progress, Request};
use crate::spec::parse_table_mib;

/// `--split-depth` when not given.
pub const SPLIT_DEPTH_DEFAULT: u32 = 2;

/// The first line of a results file.
#[derive(serde::Serialize, serde::Deserialize)]
struct Header {
    check_plan: CheckPlan,
}

#[derive(Default)]
struct Run {
    plan: Option<CheckPlan>,
    file: Option<std::fs::File>,
    done: HashMap<String, CheckJob>,
    /// Jobs done by this run.
    ran: u64,
}

/// A split check, its request checked.
pub struct CheckSplit {
    g: Breakthrough,
    state: BtState,
    win: bool,
    depth: u32,
    results: String,
    options: SolveOptions,
    run: Mutex<Run>,
}

/// Check `plateau solve GAME --check-split --results FILE`'s request.
pub fn load(game: &str, req: &Request) -> Result<CheckSplit, String> {
    let AnyGame::Breakthrough(g) = AnyGame::parse(game).map_err(|e| e.to_string())? else {
        return Err(format!("--check-split is Breakthrough's split proof check; {game} has none"));
    };
    if !req.check_split {
        return Err("give --check-split".into());
    }
    for (flag, on) in [
        ("--split", req.split),
        ("--check", req.check),
        ("--table", req.table.is_some()),
        ("--max-nodes", req.max_nodes.is_some()),
        ("--budget", req.budget.is_some()),
        ("--split-first", req.split_first.is_some()),
        ("--save-every", req.save_every.is_some()),
        ("--first-win-only", req.first_win_only),
    ] {
        if on {
            return Err(format!("{flag} is not for --check-split (each job solves and checks its own position)"));
        }
    }
    let results = req.results.clone().ok_or("--check-split needs --results FILE (it resumes from it)")?;
    if !matches!(req.race_rows, None | Some(0 | 2 | 3)) {
        return Err("--race-rows must be 0, 2 or 3".into());
    }
    if req.max_seconds.is_some_and(|s| s.is_nan() || s < 0.0) {
        return Err("--max-seconds must be a number of seconds >= 0".into());
    }
    let state = super::root(&g, req).map_err(|e| e.to_string())?;
    let memo = req.check_memo.as_deref().unwrap_or(CHECK_MEMO_DEFAULT);
    let options = SolveOptions {
        tt_mib: req.tt_mib()?,
        race_rows: race_rows(req, &g),
        check_memo_mib: parse_table_mib(memo).map_err(|e| format!("--check-memo: {e}"))?,
        ..Default::default()
    };
    let total = (options.tt_mib + options.check_memo_mib) as u64;
    crate::limits::check_bytes("--tt and --check-memo: tables", total << 20)?;
    let win = req.moves.as_deref().is_none_or(|m| m.split_whitespace().next().is_none());
    let depth = req.split_depth.unwrap_or(SPLIT_DEPTH_DEFAULT);
    if !win && depth == 0 {
        return Err("--split-depth 0 needs the winner to move at the root (here the claim is a loss)".into());
    }
    Ok(CheckSplit { g, state, win, depth, results, options, run: Mutex::new(Run::default()) })
}

impl CheckSplit {
    fn lock(&self) -> std::sync::MutexGuard<'_, Run> {
        self.run.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The plan (after [`Self::open`]).
    pub fn plan(&self) -> Option<CheckPlan> {
        self.lock().plan.clone()
    }

    /// Read the results file (module comment), making and writing the plan when the file has none; the jobs done.
    pub fn open(&self) -> Result<Vec<String>, String> {
        let f = self.results.as_str();
        let path = Path::new(f);
        crate::files::check_output(path, "--results")?;
        let mut text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("--results {f}: {e}")),
        };
        // Checked before anything is written: the file's plan, then its job lines.
        let mut cut = None;
        if !text.is_empty() && !text.ends_with('\n') {
            let keep = text.rfind('\n').map_or(0, |i| i + 1);
            cut = Some(keep);
            text.truncate(keep);
        }
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        let plan = match lines.next() {
            None => None,
            Some((_, first)) => {
                let h: Header = serde_json::from_str(first).map_err(|_| {
                    format!("--results {f}: its first line is not the plan of a --check-split run (left untouched)")
                })?;
                Some(self.same_plan(h.check_plan).map_err(|e| format!("--results {f}: {e} (left untouched)"))?)
            }
        };
        let mut done = HashMap::new();
        for (i, l) in lines {
            let job: CheckJob = serde_json::from_str(l)
                .map_err(|_| format!("--results {f}: line {} is not a job line of --check-split", i + 1))?;
            if !plan.as_ref().is_some_and(|p| p.jobs.contains(&job.job)) {
                return Err(format!("--results {f}: line {} is a job of another plan ('{}')", i + 1, job.job));
            }
            done.insert(job.job.clone(), job);
        }
        if let Some(keep) = cut {
            let file = std::fs::OpenOptions::new().write(true).open(path).map_err(|e| format!("--results {f}: {e}"))?;
            file.set_len(keep as u64).map_err(|e| format!("--results {f}: could not drop its cut last line: {e}"))?;
        }
        let plan = match plan {
            Some(p) => p,
            None => {
                let p = check_plan(&self.g, &self.state, self.win, self.depth, &self.options)?;
                let mut file = crate::files::append(path, "--results")?;
                let line = serde_json::to_string(&Header { check_plan: p.clone() }).map_err(|e| e.to_string())?;
                file.set_len(0).map_err(|e| format!("--results {f}: {e}"))?;
                file.write_all(format!("{line}\n").as_bytes())
                    .and_then(|_| file.sync_all())
                    .map_err(|e| format!("--results {f}: could not write the plan: {e}"))?;
                p
            }
        };
        let file = crate::files::append(path, "--results")?;
        let mut run = self.lock();
        let ids = plan.jobs.iter().filter(|j| done.contains_key(*j)).cloned().collect();
        *run = Run { plan: Some(plan), file: Some(file), done, ran: 0 };
        Ok(ids)
    }

    /// `recorded` if it is this request's plan and follows from its choices by the rules.
    fn same_plan(&self, recorded: CheckPlan) -> Result<CheckPlan, String> {
        let (game, position) = (self.g.spec(), self.g.format_position(&self.state));
        let claim = if self.win { "win" } else { "loss" };
        if recorded.game != game
            || recorded.position != position
            || recorded.claim != claim
            || recorded.split_depth != self.depth
        {
            return Err(format!(
                "a file of another plan ({} {} claim {} depth {}; this run: {game} {position} claim {claim} depth {})",
                recorded.game, recorded.position, recorded.claim, recorded.split_depth, self.depth
            ));
        }
        let derived = plan_from_choices(&self.g, &self.state, &recorded)?;
        if derived != recorded {
            return Err("its plan is not the one its recorded choices give by the rules".into());
        }
        Ok(recorded)
    }

    /// The jobs without a line, in the plan's order (empty before [`Self::open`]).
    pub fn pending(&self) -> Vec<String> {
        let run = self.lock();
        run.plan
            .as_ref()
            .map_or(Vec::new(), |p| p.jobs.iter().filter(|j| !run.done.contains_key(*j)).cloned().collect())
    }

    /// One job: the solve and the check of its position (needs no [`Self::open`]: what a worker runs).
    pub fn run_job(&self, id: &str) -> Result<CheckJob, String> {
        run_check_job(&self.g, &self.state, id, &self.options)
    }

    /// Append a finished job's line at once; whether the verdict is reached now (a failure, or every job done).
    pub fn add(&self, job: &CheckJob) -> Result<bool, String> {
        let mut run = self.lock();
        if !run.plan.as_ref().is_some_and(|p| p.jobs.contains(&job.job)) {
            return Err(format!("a job of another plan ('{}')", job.job));
        }
        if !run.done.contains_key(&job.job) {
            let line = serde_json::to_string(job).map_err(|e| e.to_string())? + "\n";
            let file = run.file.as_mut().ok_or("open the results file first")?;
            file.write_all(line.as_bytes())
                .and_then(|_| file.flush())
                .map_err(|e| format!("--results: could not append a job: {e}"))?;
            run.done.insert(job.job.clone(), job.clone());
            run.ran += 1;
        }
        Ok(Self::decided(&run))
    }

    fn decided(run: &Run) -> bool {
        let Some(plan) = &run.plan else { return false };
        !plan.failures.is_empty()
            || run.done.values().any(|j| !j.verified)
            || plan.jobs.iter().all(|j| run.done.contains_key(j))
    }

    /// The verdict so far.
    pub fn summary(&self, seconds: f64) -> CheckSplitReport {
        let run = self.lock();
        let empty = CheckPlan {
            game: self.g.spec(),
            position: self.g.format_position(&self.state),
            claim: if self.win { "win" } else { "loss" }.into(),
            split_depth: self.depth,
            choices: vec![],
            failures: vec![],
            jobs: vec![],
        };
        let plan = run.plan.as_ref().unwrap_or(&empty);
        let jobs: Vec<&CheckJob> = plan.jobs.iter().filter_map(|j| run.done.get(j)).collect();
        let mut failures = plan.failures.clone();
        failures.extend(jobs.iter().filter(|j| !j.verified).filter_map(|j| j.failed_line.clone()));
        let mut secs: Vec<f64> = jobs.iter().map(|j| j.seconds).collect();
        secs.sort_by(f64::total_cmp);
        let mut cpu: Vec<f64> = jobs.iter().filter_map(|j| j.cpu_seconds).collect();
        cpu.sort_by(f64::total_cmp);
        let verdict = if !failures.is_empty() {
            "failed"
        } else if run.plan.is_some() && jobs.len() == plan.jobs.len() {
            "verified"
        } else {
            "unfinished"
        };
        CheckSplitReport {
            game: plan.game.clone(),
            position: plan.position.clone(),
            claim: plan.claim.clone(),
            split_depth: plan.split_depth,
            verdict: verdict.into(),
            verified: verdict == "verified",
            jobs: plan.jobs.len(),
            jobs_done: jobs.len(),
            jobs_verified: jobs.iter().filter(|j| j.verified).count(),
            jobs_this_run: run.ran,
            choices: plan.choices.len(),
            failures,
            solve_nodes: jobs.iter().map(|j| j.solve_nodes).sum(),
            or_positions: jobs.iter().map(|j| j.or_positions).sum(),
            and_positions: jobs.iter().map(|j| j.and_positions).sum(),
            job_cpu_seconds_median: cpu.get(cpu.len() / 2).copied(),
            job_cpu_seconds_max: cpu.last().copied(),
            job_cpu_seconds_total: cpu.iter().sum(),
            job_seconds_median: secs.get(secs.len() / 2).copied(),
            job_seconds_max: secs.last().copied(),
            job_seconds_total: secs.iter().sum(),
            seconds,
        }
    }
}

/// The command: the jobs one after another (no job started after `--max-seconds`), each line on `progress`, until
/// the verdict.
pub fn run(g: &Breakthrough, req: &Request, progress: &mut dyn Progress) -> Result<CheckSplitReport, String> {
    let start = Instant::now();
    let c = load(&g.spec(), req)?;
    if !req.quiet {
        progress.note(&format!(
            "memory per job: df-pn table {} MiB + proof check memo {} MiB",
            c.options.tt_mib, c.options.check_memo_mib
        ));
    }
    let done = c.open()?;
    if !req.quiet {
        let total = c.plan().map_or(0, |p| p.jobs.len());
        progress.note(&format!("split check: {} jobs, {} done before", total, done.len()));
    }
    let deadline = req.max_seconds.unwrap_or(f64::INFINITY);
    for id in c.pending() {
        if start.elapsed().as_secs_f64() >= deadline {
            break;
        }
        let job = c.run_job(&id)?;
        let decided = c.add(&job)?;
        progress.check_job(&job);
        if decided {
            break;
        }
    }
    Ok(c.summary(start.elapsed().as_secs_f64()))
}
