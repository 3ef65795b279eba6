//! `plateau solve GAME --check-split --results FILE`: the split proof check of a Breakthrough claim
//! ([`crate::solve::breakthrough::CheckPlan`]) with its results file, for the command (the jobs one after another)
//! and for the Ray driver of the Python package (`python -m plateau.cluster check`, one task per job).
//!
//! ```text
//! load(game, request)  the request checked; the root and the claim (the side to move wins; with --moves, the side
//!                      that played the last of them wins)
//! open()               the results file: its plan read back when it has one (refused untouched unless it is this
//!                      request's (game, position, claim, depth) and re-derives by the rules from its choices) and its
//!                      job lines (a last line cut short is dropped); the choices file FILE.choices
//!                      ([`super::check_choices`]): the choices known and the jobs finished before the plan was
//!                      complete; without a plan, the expansion with the choices known
//! needed()             the lines whose winner's choice is still to be made (empty once the plan is complete)
//! choose(line)         that choice: a df-pn solve of its position (one solver kept from one choice to the next)
//! add_choice(choice)   appended to FILE.choices at once; the expansion run again; no choice needed: the plan is
//!                      written as the results file's first line, followed by the jobs FILE.choices holds (under the
//!                      plan's id for their position)
//! pending()            the jobs known and without a line, in the plan's order
//! run_job(id)          one job (solve + check): a CheckJob
//! add(job)             its line appended at once (flushed): to FILE once the plan is complete, else to FILE.choices
//! summary(seconds)     the verdict: verified iff no failure in the plan and every job verified
//! ```

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use super::breakthrough::race_rows;
use super::check_choices::{Root, Sidecar, path_of as side_path, read_whole_lines};
use crate::game::Game;
use crate::games::breakthrough::BtState;
use crate::games::{AnyGame, Breakthrough};
use crate::solve::breakthrough::{
    CheckJob, CheckPlan, Choice, Expansion, Proposer, SolveOptions, expand_known, plan_from_choices, play_line,
    run_check_job,
};
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
    /// The whole plan (the results file's first line), once every choice is known.
    plan: Option<CheckPlan>,
    file: Option<std::fs::File>,
    /// The plan's jobs with a line in the results file, by id.
    done: HashMap<String, CheckJob>,
    /// The choices file, the choices known, the jobs it holds (finished before the plan was complete) by position.
    side: Option<Sidecar>,
    choices: Vec<Choice>,
    early: HashMap<BtState, CheckJob>,
    /// While the plan is not complete: the expansion with the choices known.
    partial: Option<Expansion>,
    /// Jobs and choices made by this run.
    ran: u64,
    chose: u64,
}

/// A split check, its request checked.
pub struct CheckSplit {
    /// The game, leaked once per check so that the proposer's solver (kept from one choice to the next) can borrow it.
    g: &'static Breakthrough,
    state: BtState,
    win: bool,
    depth: u32,
    results: String,
    options: SolveOptions,
    run: Mutex<Run>,
    proposer: Mutex<Option<Proposer<'static>>>,
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
    let g: &'static Breakthrough = Box::leak(Box::new(g));
    Ok(CheckSplit {
        g,
        state,
        win,
        depth,
        results,
        options,
        run: Mutex::new(Run::default()),
        proposer: Mutex::new(None),
    })
}

impl CheckSplit {
    fn lock(&self) -> std::sync::MutexGuard<'_, Run> {
        self.run.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The whole plan (after [`Self::open`], once every choice is known).
    pub fn plan(&self) -> Option<CheckPlan> {
        self.lock().plan.clone()
    }

    fn root(&self) -> Root {
        Root {
            game: self.g.spec(),
            position: self.g.format_position(&self.state),
            claim: if self.win { "win" } else { "loss" }.to_string(),
            split_depth: self.depth,
        }
    }

    /// Read the results file and its choices file (module comment); the jobs done (their ids: the plan's when it is
    /// complete, else the lines they were run for).
    pub fn open(&self) -> Result<Vec<String>, String> {
        let f = self.results.as_str();
        let path = Path::new(f);
        crate::files::check_output(path, "--results")?;
        // Checked before anything is written: the file's plan, then its job lines, then the choices file.
        let (text, cut) = read_whole_lines(path).map_err(|e| format!("--results {f}: {e}"))?;
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
        let (side, choices, side_jobs) = Sidecar::open(&side_path(f), self.root())?;
        let mut early = HashMap::new();
        for j in side_jobs {
            early.entry(play_line(self.g, &self.state, &j.job)?).or_insert(j);
        }
        if let Some(keep) = cut {
            let file = std::fs::OpenOptions::new().write(true).open(path).map_err(|e| format!("--results {f}: {e}"))?;
            file.set_len(keep as u64).map_err(|e| format!("--results {f}: could not drop its cut last line: {e}"))?;
        }
        let mut run = self.lock();
        *run = Run { side: Some(side), choices, early, done, ..Run::default() };
        match plan {
            Some(p) => {
                run.file = Some(crate::files::append(path, "--results")?);
                run.plan = Some(p);
                self.take_early(&mut run)?;
            }
            None => self.expand(&mut run)?,
        }
        Ok(match &run.plan {
            Some(p) => p.jobs.iter().filter(|j| run.done.contains_key(*j)).cloned().collect(),
            None => run.early.values().map(|j| j.job.clone()).collect(),
        })
    }

    /// The expansion with the choices known; the plan written when it is complete.
    fn expand(&self, run: &mut Run) -> Result<(), String> {
        let e = expand_known(self.g, &self.state, self.win, self.depth, &run.choices)?;
        if !e.needed.is_empty() {
            run.partial = Some(e);
            return Ok(());
        }
        let f = self.results.as_str();
        let mut file = crate::files::append(Path::new(f), "--results")?;
        let line = serde_json::to_string(&Header { check_plan: e.plan.clone() }).map_err(|e| e.to_string())?;
        file.set_len(0).map_err(|e| format!("--results {f}: {e}"))?;
        file.write_all(format!("{line}\n").as_bytes())
            .and_then(|_| file.sync_all())
            .map_err(|e| format!("--results {f}: could not write the plan: {e}"))?;
        run.file = Some(file);
        run.plan = Some(e.plan);
        run.partial = None;
        self.take_early(run)
    }

    /// The jobs of the choices file that are jobs of the whole plan (the same position), appended to the results
    /// file under the plan's ids (each job's work depends on its position only).
    fn take_early(&self, run: &mut Run) -> Result<(), String> {
        let Some(plan) = run.plan.clone() else { return Ok(()) };
        for id in &plan.jobs {
            if run.done.contains_key(id) {
                continue;
            }
            let s = play_line(self.g, &self.state, id)?;
            if let Some(j) = run.early.get(&s).map(|j| retarget(j, id)) {
                Self::write_job(run, &j)?;
            }
        }
        Ok(())
    }

    fn write_job(run: &mut Run, job: &CheckJob) -> Result<(), String> {
        let line = serde_json::to_string(job).map_err(|e| e.to_string())? + "\n";
        let file = run.file.as_mut().ok_or("open the results file first")?;
        file.write_all(line.as_bytes())
            .and_then(|_| file.flush())
            .map_err(|e| format!("--results: could not append a job: {e}"))?;
        run.done.insert(job.job.clone(), job.clone());
        Ok(())
    }

    /// `recorded` if it is this request's plan and follows from its choices by the rules.
    fn same_plan(&self, recorded: CheckPlan) -> Result<CheckPlan, String> {
        let root = self.root();
        if recorded.game != root.game
            || recorded.position != root.position
            || recorded.claim != root.claim
            || recorded.split_depth != root.split_depth
        {
            return Err(format!(
                "a file of another plan ({} {} claim {} depth {}; this run: {} {} claim {} depth {})",
                recorded.game,
                recorded.position,
                recorded.claim,
                recorded.split_depth,
                root.game,
                root.position,
                root.claim,
                root.split_depth
            ));
        }
        let derived = plan_from_choices(self.g, &self.state, &recorded)?;
        if derived != recorded {
            return Err("its plan is not the one its recorded choices give by the rules".into());
        }
        Ok(recorded)
    }

    /// The lines whose winner's choice is still to be made, in the expansion's order (empty once the plan is
    /// complete, or before [`Self::open`]).
    pub fn needed(&self) -> Vec<String> {
        self.lock().partial.as_ref().map_or(Vec::new(), |e| e.needed.clone())
    }

    /// The jobs known and without a line, in the plan's order (while the plan is not complete: those below the
    /// choices known, which the rest of the plan cannot change but by a transposition); empty before [`Self::open`].
    pub fn pending(&self) -> Vec<String> {
        let run = self.lock();
        if let Some(p) = &run.plan {
            return p.jobs.iter().filter(|j| !run.done.contains_key(*j)).cloned().collect();
        }
        let Some(e) = &run.partial else { return Vec::new() };
        e.plan
            .jobs
            .iter()
            .filter(|j| play_line(self.g, &self.state, j).is_ok_and(|s| !run.early.contains_key(&s)))
            .cloned()
            .collect()
    }

    /// The position after `line` (moves from the root), as text: what a choice or a job is about (two lines to the same
    /// position are the same work).
    pub fn position_of(&self, line: &str) -> Result<String, String> {
        Ok(self.g.format_position(&play_line(self.g, &self.state, line)?))
    }

    /// The winner's choice after `line`: a df-pn solve of its position (needs no [`Self::open`]: what a worker runs;
    /// one solver kept from one choice to the next).
    pub fn choose(&self, line: &str) -> Result<Choice, String> {
        let mut proposer = self.proposer.lock().unwrap_or_else(|p| p.into_inner());
        if proposer.is_none() {
            *proposer = Some(Proposer::new(self.g, &self.options)?);
        }
        proposer.as_mut().ok_or("no proposer")?.choose(&self.state, line)
    }

    /// Record a choice at once (appended to the choices file); the plan written when it is complete. Whether the
    /// verdict is reached now. A choice already known, or made after the plan was complete, changes nothing.
    pub fn add_choice(&self, choice: &Choice) -> Result<bool, String> {
        let mut run = self.lock();
        if run.plan.is_none() && !run.choices.iter().any(|c| c.line == choice.line) {
            let s = play_line(self.g, &self.state, &choice.line)?;
            if let Some(m) = &choice.mv {
                self.g.parse_move(&s, m).map_err(|e| format!("the choice after '{}': {e}", choice.line))?;
            }
            run.side.as_mut().ok_or("open the results file first")?.append(choice)?;
            run.choices.push(choice.clone());
            run.chose += 1;
            self.expand(&mut run)?;
        }
        Ok(Self::decided(&run))
    }

    /// One job: the solve and the check of its position (needs no [`Self::open`]: what a worker runs).
    pub fn run_job(&self, id: &str) -> Result<CheckJob, String> {
        run_check_job(self.g, &self.state, id, &self.options)
    }

    /// Record a finished job at once: in the results file once the plan is complete (under the plan's id for its
    /// position), else in the choices file. Whether the verdict is reached now.
    pub fn add(&self, job: &CheckJob) -> Result<bool, String> {
        let mut run = self.lock();
        let s = play_line(self.g, &self.state, &job.job)?;
        let Some(plan) = run.plan.clone() else {
            if !run.early.contains_key(&s) {
                run.side.as_mut().ok_or("open the results file first")?.append(job)?;
                run.early.insert(s, job.clone());
                run.ran += 1;
            }
            return Ok(Self::decided(&run));
        };
        let id = if plan.jobs.contains(&job.job) {
            job.job.clone()
        } else {
            let same = plan.jobs.iter().find(|j| play_line(self.g, &self.state, j).is_ok_and(|p| p == s));
            same.cloned().ok_or_else(|| format!("a job of another plan ('{}')", job.job))?
        };
        if !run.done.contains_key(&id) {
            Self::write_job(&mut run, &retarget(job, &id))?;
            run.ran += 1;
        }
        Ok(Self::decided(&run))
    }

    fn decided(run: &Run) -> bool {
        match (&run.plan, &run.partial) {
            (Some(plan), _) => {
                !plan.failures.is_empty()
                    || run.done.values().any(|j| !j.verified)
                    || plan.jobs.iter().all(|j| run.done.contains_key(j))
            }
            (None, Some(e)) => !e.plan.failures.is_empty() || run.early.values().any(|j| !j.verified),
            (None, None) => false,
        }
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
        let plan = run.plan.as_ref().or(run.partial.as_ref().map(|e| &e.plan)).unwrap_or(&empty);
        let jobs: Vec<&CheckJob> = match &run.plan {
            Some(p) => p.jobs.iter().filter_map(|j| run.done.get(j)).collect(),
            None => run.early.values().collect(),
        };
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
            choices: run.choices.len().max(plan.choices.len()),
            choices_this_run: run.chose,
            plan_complete: run.plan.is_some(),
            choices_needed: run.partial.as_ref().map_or(0, |e| e.needed.len()),
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

/// `job` under the id `id` (a job of the same position): its failed line's start replaced too.
fn retarget(job: &CheckJob, id: &str) -> CheckJob {
    let failed_line = job.failed_line.as_ref().map(|l| match l.strip_prefix(job.job.as_str()) {
        Some(rest) => format!("{id}{rest}"),
        None => l.clone(),
    });
    CheckJob { job: id.to_string(), failed_line, ..job.clone() }
}

/// The command: the plan's missing choices one after another (one solver, its table kept), then its jobs one after
/// another, each line on `progress`, until the verdict; nothing new started after `--max-seconds`. Ctrl-C or SIGTERM
/// stops it at the next choice or job (the one under way is dropped when its solve stops, kept when it was in its
/// proof check), everything finished kept: an error saying so (the command then exits 130 or 143).
pub fn run(g: &Breakthrough, req: &Request, progress: &mut dyn Progress) -> Result<CheckSplitReport, String> {
    let start = Instant::now();
    let mut c = load(&g.spec(), req)?;
    c.options.interrupt = Some(crate::limits::catch_interrupt());
    let interrupted = || crate::limits::interrupt_exit_code().is_some();
    if !req.quiet {
        progress.note(&format!(
            "memory per job: df-pn table {} MiB + proof check memo {} MiB",
            c.options.tt_mib, c.options.check_memo_mib
        ));
    }
    let done = c.open()?;
    let deadline = req.max_seconds.unwrap_or(f64::INFINITY);
    let out_of_time = || start.elapsed().as_secs_f64() >= deadline;
    let mut decided = c.summary(0.0).verdict == "failed";
    if !req.quiet && c.plan().is_none() {
        let known = c.lock().choices.len();
        progress
            .note(&format!("split check: the plan's choices ({known} known before, kept in {}.choices)", c.results));
    }
    while !decided && !interrupted() && !out_of_time() {
        let Some(line) = c.needed().into_iter().next() else { break };
        let choice = match c.choose(&line) {
            Err(_) if interrupted() => break,
            r => r?,
        };
        decided = c.add_choice(&choice)?;
        if !req.quiet {
            progress.note(&format!("choice after '{line}': {}", choice.mv.as_deref().unwrap_or("none")));
        }
    }
    if !req.quiet && !decided && c.plan().is_some() {
        let total = c.plan().map_or(0, |p| p.jobs.len());
        progress.note(&format!("split check: {} jobs, {} done before", total, done.len()));
    }
    for id in if decided { Vec::new() } else { c.pending() } {
        if c.plan().is_none() || interrupted() || out_of_time() {
            break;
        }
        let job = match c.run_job(&id) {
            Err(_) if interrupted() => break,
            r => r?,
        };
        let decided = c.add(&job)?;
        progress.check_job(&job);
        if decided {
            break;
        }
    }
    let report = c.summary(start.elapsed().as_secs_f64());
    if interrupted() {
        let plan = if report.plan_complete {
            format!("{} of {} jobs done", report.jobs_done, report.jobs)
        } else {
            format!(
                "{} choices made, {} still needed before the plan is complete",
                report.choices, report.choices_needed
            )
        };
        return Err(format!(
            "interrupted ({}): {plan}; they are kept in {} and {}.choices: the same command goes on from there",
            crate::limits::interrupt_name(),
            c.results,
            c.results
        ));
    }
    Ok(report)
}
