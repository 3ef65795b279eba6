//! The job-level split solve for drivers that run its jobs elsewhere (the Ray driver of the Python package,
//! `python -m plateau.cluster solve`, `docs/cluster.md`): [`load`] chooses the solver as `plateau solve` does and
//! gives its split as a [`JobSplit`]: Breakthrough's here, Qubic's (the threat solver's) in [`super::threats_jobs`].
//!
//! Breakthrough's: the root moves of a Breakthrough position grouped as
//! `plateau solve --split` groups them (a move with the moves that reach its mirror image), one job per group, the
//! job lines and the results file of `--split --results FILE` (each continues the other's), and the summary.
//!
//! ```text
//! load(game, request)  = the request checked as `plateau solve GAME --split --results FILE` checks it
//! plan()               = {root, groups: [[move, mirrors...]]}  (in --split's order: --split-first's groups first)
//! solve_group(move)    = the group of `move` solved alone as --split solves it (df-pn rounds of a doubling budget
//!                        from --budget, on a table of its own) until decided or --max-seconds: its job lines
//! open()               = the results file read back (every line a job line, else refused untouched): the decided
//!                        groups; the file opened for appending
//! add(jobs)            = a finished group's job lines appended at once (flushed)
//! summary(seconds)     = `plateau solve --split --json`'s summary from the decided groups
//! ```
//!
//! Deterministic: a group's df-pn runs depend only on the position, the budget and the table's size, so a job retried
//! on another worker gives the same result.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use super::breakthrough::race_rows;
use super::root;
use crate::game::{Game, MoveList};
use crate::games::breakthrough::BtState;
use crate::games::{AnyGame, Breakthrough};
use crate::solve::breakthrough::{INF, Job, SolveOptions, decided_moves, reusable, solve_split};
use crate::solve::registry::{check_options, choose};
use crate::solve::report::SplitReport;
use crate::solve::request::{BUDGET_DEFAULT, Request};

/// What the split solve will do: its root and the groups of moves (one job each).
#[derive(Clone, Debug, serde::Serialize)]
pub struct SplitPlan {
    /// The jobs' `root` (game string and position text).
    pub root: String,
    /// The winner's first move before the groups (Qubic's split: the groups are the loser's answers to it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_move: Option<String>,
    /// Each group: its first move (the job's name: Breakthrough's `move`, Qubic's `answer`) then its mirrors.
    pub groups: Vec<Vec<String>>,
}

/// A split solve whose jobs a driver runs wherever it likes, the job lines crossing as JSON text (the lines of the
/// results file of `plateau solve GAME --split --results FILE`, which each continues).
pub trait JobSplit: Send + Sync {
    /// The plan: the groups, one job each, in `--split`'s order.
    fn plan(&self) -> &SplitPlan;
    /// The job of the group of `mv` (any of its moves) run alone: its job lines (what a worker runs; no `open`).
    fn solve_group(&self, mv: &str) -> Result<Vec<String>, String>;
    /// The results file read back (a line that is not a job line refuses it untouched) and opened for appending: the
    /// first moves of the groups it decides.
    fn open(&self) -> Result<Vec<String>, String>;
    /// A finished job's lines appended at once; whether the root is decided now.
    fn add(&self, lines: &[String]) -> Result<bool, String>;
    /// Whether the solve is over.
    fn decided(&self) -> bool;
    /// The summary as `plateau solve GAME --split --json` prints it.
    fn summary_json(&self, seconds: f64) -> Result<String, String>;
}

/// Check `plateau solve GAME --split --results FILE`'s request as the command does before its first job, with the
/// solver the registry chooses (Breakthrough's df-pn, or the threat solver of Qubic): its split.
pub fn load(game: &str, req: Request) -> Result<Box<dyn JobSplit>, String> {
    let any = AnyGame::parse(game).map_err(|e| e.to_string())?;
    let solver = choose(&any, game, &req)?;
    check_options(solver, &req)?;
    req.check_values()?;
    match (solver.name, any) {
        ("breakthrough-dfpn", AnyGame::Breakthrough(g)) => Ok(Box::new(load_breakthrough(g, req)?)),
        ("qubic-pns", AnyGame::Qubic(g)) => Ok(Box::new(super::threats_jobs::load(&g, &req)?)),
        (name, _) => Err(format!(
            "the cluster's solve is a split solve (Breakthrough's df-pn, Qubic's qubic-pns); {name} on {game} has none"
        )),
    }
}

/// The driver's side: the results file and the groups decided.
#[derive(Default)]
struct Run {
    file: Option<std::fs::File>,
    /// A group's first move -> win for the root's side to move.
    decided: HashMap<String, bool>,
    /// A group's first move -> (pn, dn) of its last job.
    last: HashMap<String, (u32, u32)>,
    nodes: u64,
}

/// A split solve of a Breakthrough position, checked.
pub struct SplitJobs {
    g: Breakthrough,
    req: Request,
    state: BtState,
    plan: SplitPlan,
    run: Mutex<Run>,
}

/// Breakthrough's split (its solver chosen and its options checked by [`load`]).
fn load_breakthrough(g: Breakthrough, req: Request) -> Result<SplitJobs, String> {
    if !req.split {
        return Err("the cluster's solve is the split solve: give --split (and --results FILE)".into());
    }
    if req.results.is_none() {
        return Err("the cluster's split solve needs --results FILE (it resumes from it when restarted)".into());
    }
    for (flag, on) in [
        ("--check", req.check),
        ("--check-memo", req.check_memo.is_some()),
        ("--max-nodes", req.max_nodes.is_some()),
        ("--table", req.table.is_some()),
        ("--save-every", req.save_every.is_some()),
    ] {
        if on {
            return Err(format!("{flag} is not for the cluster's split solve (each job has a table of its own)"));
        }
    }
    if req.budget == Some(0) {
        return Err("--budget must be at least 1".into());
    }
    req.tt_mib()?;
    let state = root(&g, &req).map_err(|e| e.to_string())?;
    let groups = groups(&g, &state, &req)?;
    let plan = SplitPlan { root: format!("{} {}", g.spec(), g.format_position(&state)), first_move: None, groups };
    Ok(SplitJobs { g, req, state, plan, run: Mutex::new(Run::default()) })
}

/// The groups of root moves in `--split`'s order (`--split-first`'s first, else as generated).
fn groups(g: &Breakthrough, state: &BtState, req: &Request) -> Result<Vec<Vec<String>>, String> {
    let solver = reusable(g, &SolveOptions { tt_mib: 1, race_rows: 0, ..Default::default() })?;
    let mut groups = solver.root_groups(state);
    let legal: Vec<String> = {
        let mut list = MoveList::new();
        g.generate_moves(state, &mut list);
        list.iter().map(|&m| g.format_move(state, m)).collect()
    };
    let first: Vec<String> = req
        .split_first
        .as_deref()
        .unwrap_or("")
        .split([',', ' '])
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect();
    if let Some(bad) = first.iter().find(|m| !legal.contains(m)) {
        return Err(format!("--split-first: '{bad}' is not a legal move here (legal: {})", legal.join(" ")));
    }
    groups.sort_by_key(|gr| first.iter().position(|f| gr.contains(f)).unwrap_or(usize::MAX));
    Ok(groups)
}

impl SplitJobs {
    fn lock(&self) -> std::sync::MutexGuard<'_, Run> {
        self.run.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The solve's plan.
    pub fn plan(&self) -> &SplitPlan {
        &self.plan
    }

    /// The group of `mv` (any of its moves) solved alone: its job lines (rounds 0, 1, ... until decided, or until
    /// `--max-seconds`).
    pub fn solve_group(&self, mv: &str) -> Result<Vec<Job>, String> {
        let group = self
            .plan
            .groups
            .iter()
            .find(|gr| gr.iter().any(|m| m == mv))
            .ok_or_else(|| format!("'{mv}' is not a root move here"))?;
        let options = SolveOptions {
            tt_mib: self.req.tt_mib()?,
            race_rows: race_rows(&self.req, &self.g),
            all_winning_moves: true,
            max_seconds: self.req.max_seconds,
            progress_seconds: 0,
            ..Default::default()
        };
        let budget = self.req.budget.unwrap_or(BUDGET_DEFAULT);
        // The other groups are none of this job's business: taken as decided, and their lines dropped.
        let mut known = |m: &str| if group.iter().any(|x| x == m) { None } else { Some(false) };
        let mut jobs = Vec::new();
        let mut report = |j: &Job| {
            if j.round.is_some() && group.contains(&j.mv) {
                jobs.push(j.clone());
            }
        };
        solve_split(&self.g, &self.state, &options, &[group[0].clone()], budget, &mut known, &mut report)?;
        Ok(jobs)
    }

    /// Read the results file back (a missing file is empty; a line that is not a job line refuses it untouched) and
    /// open it for appending: the first moves of the groups it decides.
    pub fn open(&self) -> Result<Vec<String>, String> {
        let f = self.req.results.as_deref().ok_or("--results FILE is required")?;
        crate::files::check_output(Path::new(f), "--results")?;
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("--results {f}: {e}")),
        };
        if let Some((i, _)) =
            text.lines().enumerate().find(|(_, l)| !l.trim().is_empty() && serde_json::from_str::<Job>(l).is_err())
        {
            return Err(format!("--results {f}: line {} is not a job line written by --split", i + 1));
        }
        if !text.is_empty() && !text.ends_with('\n') {
            return Err(format!("--results {f}: its last line is cut short"));
        }
        let known: HashMap<String, bool> = decided_moves(&text, &self.plan.root).into_iter().collect();
        let file = crate::files::append(Path::new(f), "--results")?;
        let mut run = self.lock();
        *run = Run { file: Some(file), ..Run::default() };
        for gr in &self.plan.groups {
            if let Some(&win) = gr.iter().find_map(|m| known.get(m)) {
                run.decided.insert(gr[0].clone(), win);
            }
        }
        Ok(self.plan.groups.iter().filter(|gr| run.decided.contains_key(&gr[0])).map(|gr| gr[0].clone()).collect())
    }

    /// Append a finished group's job lines (as [`Self::solve_group`] made them) to the results file at once. Returns
    /// whether the root is decided now (a winning move found, or every group lost).
    pub fn add(&self, jobs: &[Job]) -> Result<bool, String> {
        let mut run = self.lock();
        let mut text = String::new();
        for j in jobs {
            if j.root != self.plan.root || !self.plan.groups.iter().any(|gr| gr[0] == j.mv) {
                return Err(format!("a job of another solve ({} {})", j.root, j.mv));
            }
            text.push_str(&serde_json::to_string(j).map_err(|e| e.to_string())?);
            text.push('\n');
        }
        let file = run.file.as_mut().ok_or("open the results file first")?;
        file.write_all(text.as_bytes())
            .and_then(|_| file.flush())
            .map_err(|e| format!("--results: could not append a job: {e}"))?;
        for j in jobs {
            run.nodes += j.job_nodes;
            run.last.insert(j.mv.clone(), (j.pn, j.dn));
            match j.result.as_deref() {
                Some("win") => run.decided.insert(j.mv.clone(), true),
                Some("loss") => run.decided.insert(j.mv.clone(), false),
                _ => None,
            };
        }
        Ok(self.root_decided(&run))
    }

    fn root_decided(&self, run: &Run) -> bool {
        run.decided.values().any(|&w| w) || self.plan.groups.iter().all(|gr| run.decided.get(&gr[0]) == Some(&false))
    }

    /// Whether the root is decided (with `--first-win-only`, a winning move is enough).
    pub fn decided(&self) -> bool {
        let run = self.lock();
        if self.req.first_win_only {
            self.root_decided(&run)
        } else {
            self.plan.groups.iter().all(|gr| run.decided.contains_key(&gr[0]))
        }
    }

    /// `plateau solve --split --json`'s summary from the decided groups (`nodes`: the expansions of this run's jobs;
    /// `root_pn`/`root_dn` of an undecided root from the groups' last jobs).
    pub fn summary(&self, seconds: f64) -> SplitReport {
        let run = self.lock();
        let groups = &self.plan.groups;
        let won: Vec<String> =
            groups.iter().filter(|gr| run.decided.get(&gr[0]) == Some(&true)).flat_map(|gr| gr.clone()).collect();
        let all_lost = groups.iter().all(|gr| run.decided.get(&gr[0]) == Some(&false));
        let child = |gr: &Vec<String>| match run.decided.get(&gr[0]) {
            Some(true) => (INF, 0),
            Some(false) => (0, INF),
            None => run.last.get(&gr[0]).copied().unwrap_or((1, 1)),
        };
        let (root_pn, root_dn) = if !won.is_empty() {
            (0, INF)
        } else if all_lost {
            (INF, 0)
        } else {
            let pn = groups.iter().map(|gr| child(gr).1).min().unwrap_or(INF);
            let dn = groups.iter().map(|gr| child(gr).0 as u64).sum::<u64>().min(INF as u64 - 1) as u32;
            (pn, dn)
        };
        let result = if !won.is_empty() {
            "win"
        } else if all_lost {
            "loss"
        } else {
            "unknown"
        };
        SplitReport {
            game: self.g.spec(),
            position: self.g.format_position(&self.state),
            weak: true,
            method: "dfpn-split",
            result: result.to_string(),
            score: match result {
                "win" => Some(1),
                "loss" => Some(-1),
                _ => None,
            },
            best_move: won.first().cloned(),
            winning_moves: won,
            undecided_moves: groups
                .iter()
                .filter(|gr| !run.decided.contains_key(&gr[0]))
                .flat_map(|gr| gr.clone())
                .collect(),
            nodes: run.nodes,
            earlier_nodes: 0,
            seconds,
            root_pn,
            root_dn,
        }
    }
}

impl JobSplit for SplitJobs {
    fn plan(&self) -> &SplitPlan {
        SplitJobs::plan(self)
    }
    fn solve_group(&self, mv: &str) -> Result<Vec<String>, String> {
        SplitJobs::solve_group(self, mv)?.iter().map(|j| serde_json::to_string(j).map_err(|e| e.to_string())).collect()
    }
    fn open(&self) -> Result<Vec<String>, String> {
        SplitJobs::open(self)
    }
    fn add(&self, lines: &[String]) -> Result<bool, String> {
        let jobs = lines
            .iter()
            .map(|l| serde_json::from_str::<Job>(l).map_err(|e| format!("not a job line ({e})")))
            .collect::<Result<Vec<_>, _>>()?;
        SplitJobs::add(self, &jobs)
    }
    fn decided(&self) -> bool {
        SplitJobs::decided(self)
    }
    fn summary_json(&self, seconds: f64) -> Result<String, String> {
        serde_json::to_string(&self.summary(seconds)).map_err(|e| e.to_string())
    }
}
