//! The split solve of the threat solver (`plateau solve qubic --split --results FILE`): the winner's first move (given,
//! or the one the game's evaluation likes best), then one job per answer of the loser up to the symmetries that fix
//! the position after that move; each job proves "the winner, to move, wins here" with [`super::solve`] on a table
//! and a proof file of its own (so each job resumes, and runs wherever its files are); the results file holds one JSON
//! line per job run. When every job is proven, the jobs' proofs, mapped by the symmetries to every answer of their
//! orbit, are merged with the first move into one proof file of the root, which the independent checker walks with the
//! rules alone (a mapping gone wrong makes the check fail, never pass).
//!
//! ```text
//! plan(root, first)  P = root + first;  stabiliser = {k : symmetric(P, k) = P}  (Knowledge::symmetric)
//!                    the legal answers at P in orbits under the stabiliser; a job per orbit (its first answer)
//! job(answer)        super::solve(P + answer) with --table FILE.ANSWER.table, the proof in FILE.ANSWER.proof
//!                    -> one line appended to the results file (win, no-win, or unknown when stopped by the limits)
//! resume             the results file read back: a job whose line says win (its proof file there) is done
//! merge              (root, first) + for every answer r = σ(a): σ(every entry of a's proof), first come first kept
//! ```
//! A merged entry comes from some job's proof, where its move wins; Qubic's positions only gain stones along a line,
//! so such entries, mixed from several proofs, still make a proof (by induction on the empty cells), and the checker
//! confirms it.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::game::{Evaluator, FullGame, Game, MoveList};
use crate::solve::proof_check::ProofCheck;
use crate::solve::proof_file;

use super::Options;

/// What the split solve is told.
#[derive(Clone, Debug)]
pub struct SplitOptions {
    /// Each job's solve (its limits, table size, interrupt); the table and proof files are the job's own.
    pub solve: Options,
    /// The results file: one line per job run; the jobs' files are named after it.
    pub results: PathBuf,
    /// The winner's first move (text), else the one the game's evaluation likes best.
    pub first: Option<String>,
    /// The merged proof of the root, written when every job is proven.
    pub proof_file: Option<PathBuf>,
    /// The memo of the checker (MiB) that walks a job's proof made elsewhere before taking it up.
    pub check_memo_mib: usize,
}

/// One line of the results file: a job run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobLine {
    /// The split's root: the game string and the position.
    pub root: String,
    pub first_move: String,
    /// The loser's answer solved by this job, and the other answers of its orbit (proven by symmetry).
    pub answer: String,
    pub mirrors: Vec<String>,
    /// `win` (proven), `no-win` (disproven: the first move does not win) or `unknown` (stopped by the limits).
    pub result: String,
    /// df-pn expansions of this run, and in the runs behind its table.
    pub nodes: u64,
    pub earlier_nodes: u64,
    pub root_pn: u32,
    pub root_dn: u32,
    pub table_file: String,
    /// The job's proof (when proven) and its stored positions.
    pub proof_file: Option<String>,
    pub proof_positions: Option<u64>,
    pub seconds: f64,
    /// CPU seconds of the job's thread (`/proc/thread-self/stat`), when readable.
    pub cpu_seconds: Option<f64>,
    /// The job's proof file was there before it ran (made elsewhere: the job split in turn, another machine) and the
    /// independent checker verified it for the job's position: taken up without a search.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub proof_given: bool,
}

/// The split solve's report (`plateau solve qubic --split --json`).
#[derive(Clone, Debug, Serialize)]
pub struct ThreatsSplitReport {
    pub game: String,
    pub position: String,
    pub method: &'static str,
    /// `win` (every job proven), `first-move-fails` (a job disproven) or `unknown` (jobs left undecided).
    pub result: &'static str,
    pub score: Option<i32>,
    pub first_move: String,
    /// The symmetries that fix the position after the first move, the loser's answers there, and the jobs (orbits).
    pub stabiliser: usize,
    pub answers: usize,
    pub jobs: usize,
    pub proven_jobs: usize,
    /// The jobs (their answers) disproven, and left undecided.
    pub failed_jobs: Vec<String>,
    pub undecided_jobs: Vec<String>,
    /// Jobs run now, their expansions; and the expansions of every job's latest line, earlier runs included.
    pub jobs_run: usize,
    pub nodes: u64,
    pub total_nodes: u64,
    pub results_file: String,
    pub proof_file: Option<String>,
    pub proof_positions: Option<u64>,
    pub proof_bytes: Option<u64>,
    /// The independent check of the merged proof (`--check`).
    pub proof_check: Option<ProofCheck>,
    pub seconds: f64,
}

/// One job of the plan: an answer of the loser and its orbit, each member with the symmetry that maps the job's
/// answer to it.
struct PlanJob<M> {
    answer: M,
    members: Vec<(M, usize)>,
}

/// The jobs after the first move.
struct Plan<G: FullGame> {
    first: G::Move,
    after: G::State,
    stabiliser: Vec<usize>,
    jobs: Vec<PlanJob<G::Move>>,
}

fn legal<G: FullGame>(g: &G, s: &G::State) -> Vec<G::Move> {
    let mut list = MoveList::new();
    g.generate_moves(s, &mut list);
    list.iter().copied().collect()
}

/// The winner's first move: `given`, else the move whose position the game's default evaluation rates worst for
/// the loser (the first such in the generated order).
fn first_move<G: FullGame>(g: &G, root: &G::State, given: Option<&str>) -> Result<G::Move, String> {
    if let Some(text) = given {
        return g.parse_move(root, text.trim()).map_err(|e| format!("--split-first: {e}"));
    }
    let eval = G::Eval::default();
    let mut best: Option<(i32, G::Move)> = None;
    for m in legal(g, root) {
        let mut s = *root;
        g.play(&mut s, m);
        let v = if g.outcome(&s).is_some() { i32::MIN } else { eval.evaluate(g, &s) };
        if best.is_none_or(|(b, _)| v < b) {
            best = Some((v, m));
        }
    }
    best.map(|(_, m)| m).ok_or_else(|| "no legal move at the root".to_string())
}

fn plan<G: FullGame>(g: &G, root: &G::State, given: Option<&str>) -> Result<Plan<G>, String> {
    let first = first_move(g, root, given)?;
    let mut after = *root;
    g.play(&mut after, first);
    if g.outcome(&after).is_some() {
        return Err(format!(
            "{} ends the game at once: nothing to split (solve without --split)",
            g.format_move(root, first)
        ));
    }
    let stabiliser: Vec<usize> = (0..g.symmetry_count()).filter(|&k| g.symmetric(&after, k) == after).collect();
    let mut seen: HashSet<G::Move> = HashSet::new();
    let mut jobs = Vec::new();
    for answer in legal(g, &after) {
        if seen.contains(&answer) {
            continue;
        }
        let mut members: Vec<(G::Move, usize)> = Vec::new();
        for &k in &stabiliser {
            let image = g.symmetric_move(&after, answer, k);
            if seen.insert(image) {
                members.push((image, k));
            }
        }
        jobs.push(PlanJob { answer, members });
    }
    Ok(Plan { first, after, stabiliser, jobs })
}

/// A job's file: the results file's name, the answer (letters, digits, `-` and `_` kept), and `ext`.
fn job_file(results: &Path, answer: &str, ext: &str) -> PathBuf {
    let safe: String = answer.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let mut name = results.as_os_str().to_owned();
    name.push(format!(".{safe}.{ext}"));
    PathBuf::from(name)
}

/// The results file read back (missing: empty): its job lines; a line that is not one refuses the file untouched.
fn read_results(path: &Path) -> Result<Vec<JobLine>, String> {
    let name = path.display();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("--results {name}: {e}")),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(format!("--results {name}: its last line is cut short"));
    }
    let mut lines = Vec::new();
    for (i, l) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let job = serde_json::from_str::<JobLine>(l)
            .map_err(|_| format!("--results {name}: line {} is not a job line of a Qubic split solve", i + 1))?;
        lines.push(job);
    }
    Ok(lines)
}

/// A split solve of one root: its plan, its files and the options of its jobs. [`solve`] runs its jobs one after
/// the other; a driver that runs them elsewhere (`crate::solve::run::threats_jobs`, the Ray cluster's) uses the same
/// pieces: [`Split::run_job`] for one job, [`Split::latest`] for the results file, [`Split::report`] at the end.
pub struct Split<G: FullGame> {
    g: G,
    root: G::State,
    plan: Plan<G>,
    root_text: String,
    first_text: String,
    options: SplitOptions,
}

/// A job run: its line, or stopped by `stop` (its table saved, no line) after some expansions.
pub enum JobRun {
    Line(Box<JobLine>),
    Interrupted(u64),
}

impl<G: FullGame> Split<G> {
    /// The plan of `root` (not over) after the first move; the results file must be writable.
    pub fn new(g: &G, root: &G::State, options: &SplitOptions) -> Result<Split<G>, String> {
        let plan = plan(g, root, options.first.as_deref())?;
        crate::files::check_output(&options.results, "--results")?;
        Ok(Split {
            root_text: format!("{} {}", g.spec(), g.format_position(root)),
            first_text: g.format_move(root, plan.first),
            g: g.clone(),
            root: *root,
            plan,
            options: options.clone(),
        })
    }

    /// The split's root (the game string and the position) and the first move, as the job lines give them.
    pub fn root_text(&self) -> &str {
        &self.root_text
    }
    pub fn first_text(&self) -> &str {
        &self.first_text
    }
    /// The results file (the jobs' files are named after it).
    pub fn results(&self) -> &Path {
        &self.options.results
    }

    /// Each job's answer and the other answers of its orbit (text), in the plan's order.
    pub fn jobs(&self) -> Vec<(String, Vec<String>)> {
        self.plan
            .jobs
            .iter()
            .map(|j| (self.g.format_move(&self.plan.after, j.answer), mirrors(&self.g, &self.plan, j)))
            .collect()
    }

    /// The line that says what the plan is.
    pub fn plan_line(&self) -> String {
        format!(
            "split: first move {}; {} symmetries fix the position after it; {} answers in {} jobs",
            self.first_text,
            self.plan.stabiliser.len(),
            self.plan.jobs.iter().map(|j| j.members.len()).sum::<usize>(),
            self.plan.jobs.len()
        )
    }

    /// The results file read back (a line that is not a job line refuses it): the latest line of each job of this
    /// split (lines of another root or first move are left out).
    pub fn latest(&self) -> Result<HashMap<String, JobLine>, String> {
        let mut latest = HashMap::new();
        for j in read_results(&self.options.results)? {
            if j.root == self.root_text && j.first_move == self.first_text {
                latest.insert(j.answer.clone(), j);
            }
        }
        Ok(latest)
    }

    /// Whether the job of `answer` is decided by its latest line: `Some(true)` proven (and its proof file there),
    /// `Some(false)` disproven (the first move does not win), `None` to run.
    pub fn decided(&self, answer: &str, latest: Option<&JobLine>) -> Option<bool> {
        match latest {
            Some(j) if j.result == "win" && job_file(&self.options.results, answer, "proof").exists() => Some(true),
            Some(j) if j.result == "no-win" => Some(false),
            _ => None,
        }
    }

    /// The job of `answer` run on its table (read when it exists, saved at the end), its proof written when proven:
    /// its line, or [`JobRun::Interrupted`] when `stop` says so before it is decided.
    pub fn run_job(&self, answer: &str, stop: &dyn Fn() -> bool) -> Result<JobRun, String> {
        let (g, plan) = (&self.g, &self.plan);
        let job = plan
            .jobs
            .iter()
            .find(|j| g.format_move(&plan.after, j.answer) == answer)
            .ok_or_else(|| format!("'{answer}' is not a job of this split (the jobs: {})", self.job_names()))?;
        let mut state = plan.after;
        g.play(&mut state, job.answer);
        let table = job_file(&self.options.results, answer, "table");
        let proof = job_file(&self.options.results, answer, "proof");
        let mut line = JobLine {
            root: self.root_text.clone(),
            first_move: self.first_text.clone(),
            answer: answer.to_string(),
            mirrors: mirrors(g, plan, job),
            result: "no-win".into(),
            nodes: 0,
            earlier_nodes: 0,
            root_pn: super::search::INF,
            root_dn: 0,
            table_file: table.display().to_string(),
            proof_file: None,
            proof_positions: None,
            seconds: 0.0,
            cpu_seconds: Some(0.0),
            proof_given: false,
        };
        // The loser's answer ends the game: it won or drew, so the first move does not win.
        if g.outcome(&state).is_some() {
            return Ok(JobRun::Line(Box::new(line)));
        }
        if proof.exists() {
            return self.take_up(&state, answer, &proof, line).map(|l| JobRun::Line(Box::new(l)));
        }
        let job_options =
            Options { table_file: Some(table), proof_file: Some(proof.clone()), ..self.options.solve.clone() };
        let cpu = crate::solve::thread_cpu_seconds();
        let r = super::solve(g, &state, &job_options, &mut |_| {})?;
        if r.win.is_none() && stop() {
            return Ok(JobRun::Interrupted(r.nodes));
        }
        line.result = match r.win {
            Some(true) => "win",
            Some(false) => "no-win",
            None => "unknown",
        }
        .into();
        line.nodes = r.nodes;
        line.earlier_nodes = r.earlier_nodes;
        line.root_pn = r.root_pn;
        line.root_dn = r.root_dn;
        line.proof_file = (r.win == Some(true)).then(|| proof.display().to_string());
        line.proof_positions = r.proof_positions;
        line.seconds = r.seconds;
        line.cpu_seconds = cpu.zip(crate::solve::thread_cpu_seconds()).map(|(a, b)| b - a);
        Ok(JobRun::Line(Box::new(line)))
    }

    /// The job's proof file, made elsewhere (the job split in turn: `--moves "FIRST ANSWER" --split --proof
    /// FILE.ANSWER.proof`; another machine), walked by the independent checker with the rules alone: the job is
    /// proven when it holds for the job's position; a file that proves another position or does not hold is refused.
    fn take_up(&self, state: &G::State, answer: &str, proof: &Path, mut line: JobLine) -> Result<JobLine, String> {
        let (cpu, start) = (crate::solve::thread_cpu_seconds(), std::time::Instant::now());
        // Its root first: a file of another position is refused before any walk.
        let file = proof_file::read(&self.g, proof)?;
        if file.root != *state {
            return Err(format!(
                "{}: this file proves {}, not job {answer}'s position {}: move it away and the job is solved here",
                proof.display(),
                self.g.format_position(&file.root),
                self.g.format_position(state)
            ));
        }
        let c = proof_file::walk(&self.g, proof, &file, self.options.check_memo_mib, start, &mut |_| {});
        if !c.check.verified {
            return Err(format!(
                "{}: job {answer}'s proof file does NOT hold (it breaks after the moves '{}'): move it away and the job \
                 is solved here",
                proof.display(),
                c.check.failed_line.as_deref().unwrap_or("")
            ));
        }
        line.result = "win".into();
        line.root_pn = 0;
        line.root_dn = super::search::INF;
        line.proof_file = Some(proof.display().to_string());
        line.proof_positions = Some(c.positions);
        line.proof_given = true;
        line.seconds = start.elapsed().as_secs_f64();
        line.cpu_seconds = cpu.zip(crate::solve::thread_cpu_seconds()).map(|(a, b)| b - a);
        Ok(line)
    }

    fn job_names(&self) -> String {
        self.jobs().into_iter().map(|(a, _)| a).collect::<Vec<_>>().join(" ")
    }

    /// The report from the latest line of each job (`jobs_run` and `nodes`: this run's); when every job is proven
    /// and a proof file is asked for, the jobs' proofs merged into it (not checked here: `proof_check` is `None`).
    pub fn report(
        &self,
        latest: &HashMap<String, JobLine>,
        jobs_run: usize,
        nodes: u64,
    ) -> Result<ThreatsSplitReport, String> {
        let (g, plan) = (&self.g, &self.plan);
        let answers_of = |want: &dyn Fn(Option<&JobLine>) -> bool| -> Vec<String> {
            plan.jobs.iter().map(|j| g.format_move(&plan.after, j.answer)).filter(|a| want(latest.get(a))).collect()
        };
        let failed_jobs = answers_of(&|l| l.is_some_and(|l| l.result == "no-win"));
        let undecided_jobs = answers_of(&|l| l.is_none_or(|l| l.result == "unknown"));
        let proven_jobs = plan.jobs.len() - failed_jobs.len() - undecided_jobs.len();
        let result = if !failed_jobs.is_empty() {
            "first-move-fails"
        } else if undecided_jobs.is_empty() {
            "win"
        } else {
            "unknown"
        };
        let mut report = ThreatsSplitReport {
            game: g.spec(),
            position: g.format_position(&self.root),
            method: "qubic-pns-split",
            result,
            score: (result == "win").then_some(1),
            first_move: self.first_text.clone(),
            stabiliser: plan.stabiliser.len(),
            answers: plan.jobs.iter().map(|j| j.members.len()).sum(),
            jobs: plan.jobs.len(),
            proven_jobs,
            failed_jobs,
            undecided_jobs,
            jobs_run,
            nodes,
            total_nodes: latest.values().map(|j| j.nodes + j.earlier_nodes).sum(),
            results_file: self.options.results.display().to_string(),
            proof_file: None,
            proof_positions: None,
            proof_bytes: None,
            proof_check: None,
            seconds: 0.0,
        };
        if result == "win"
            && let Some(path) = &self.options.proof_file
        {
            let entries = merge(g, &self.root, plan, &self.options.results)?;
            report.proof_positions = Some(entries.len() as u64);
            report.proof_bytes = Some(proof_file::write(g, path, &self.root, &entries)?);
            report.proof_file = Some(path.display().to_string());
        }
        Ok(report)
    }
}

/// `line` appended to the results file `out` at once (flushed).
pub fn append_line(out: &mut std::fs::File, line: &JobLine) -> Result<(), String> {
    let text = serde_json::to_string(line).map_err(|e| e.to_string())? + "\n";
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| format!("--results: could not append a job: {e}"))
}

/// Run the split solve of `root` (not over): the jobs not yet proven in the results file, one after the other, then
/// the merged proof when every job is proven. `note` gets a line per job; `stop` says whether to stop (an interrupt:
/// the job under way saves its table and writes no line). An error is one line.
pub fn solve<G: FullGame>(
    g: &G,
    root: &G::State,
    options: &SplitOptions,
    note: &mut dyn FnMut(&str),
    stop: &dyn Fn() -> bool,
) -> Result<ThreatsSplitReport, String> {
    let start = std::time::Instant::now();
    let split = Split::new(g, root, options)?;
    let mut latest = split.latest()?;
    let mut out = crate::files::append(&options.results, "--results")?;
    note(&split.plan_line());
    let (mut nodes, mut jobs_run) = (0u64, 0usize);
    // A job disproven already (by another run, or a driver elsewhere): the first move fails, nothing to run.
    let jobs = split.jobs();
    let failed = jobs.iter().any(|(a, _)| split.decided(a, latest.get(a)) == Some(false));
    for (answer, _) in jobs.into_iter().filter(|_| !failed) {
        match split.decided(&answer, latest.get(&answer)) {
            Some(true) => continue,
            Some(false) => break,
            None => {}
        }
        if stop() {
            break;
        }
        let line = match split.run_job(&answer, stop)? {
            JobRun::Line(line) => *line,
            JobRun::Interrupted(n) => {
                nodes += n;
                note(&format!("job {answer}: interrupted after {n} expansions, its table saved"));
                break;
            }
        };
        nodes += line.nodes;
        jobs_run += 1;
        append_line(&mut out, &line)?;
        note(&format!(
            "job {answer} (+{} mirrors): {} in {} expansions ({:.1} s)",
            line.mirrors.len(),
            line.result,
            line.nodes,
            line.seconds
        ));
        let failed = line.result == "no-win";
        latest.insert(answer, line);
        if failed {
            break;
        }
    }
    let mut report = split.report(&latest, jobs_run, nodes)?;
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// A proof's entries: each position where the winner moves, and its winning move.
type Entries<G> = Vec<(<G as Game>::State, <G as Game>::Move)>;

/// The other answers of `job`'s orbit, as text.
fn mirrors<G: FullGame>(g: &G, plan: &Plan<G>, job: &PlanJob<G::Move>) -> Vec<String> {
    job.members.iter().skip(1).map(|&(m, _)| g.format_move(&plan.after, m)).collect()
}

/// The proof of the root: its first move, then every job's proof mapped to each answer of its orbit (an entry met
/// again is kept as first met).
fn merge<G: FullGame>(g: &G, root: &G::State, plan: &Plan<G>, results: &Path) -> Result<Entries<G>, String> {
    let mut entries = vec![(*root, plan.first)];
    let mut seen: HashSet<G::State> = HashSet::from([*root]);
    for job in &plan.jobs {
        let answer = g.format_move(&plan.after, job.answer);
        let file = proof_file::read(g, &job_file(results, &answer, "proof"))?;
        let mut state = plan.after;
        g.play(&mut state, job.answer);
        if file.root != state {
            return Err(format!(
                "the proof file of job {answer} proves another position ({})",
                g.format_position(&file.root)
            ));
        }
        for &(_, k) in &job.members {
            for s in &file.order {
                let image = g.symmetric(s, k);
                if seen.insert(image) {
                    entries.push((image, g.symmetric_move(s, file.moves[s], k)));
                }
            }
        }
    }
    Ok(entries)
}
