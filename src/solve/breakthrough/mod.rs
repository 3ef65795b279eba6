//! A dedicated Breakthrough solver: depth-first proof-number search (df-pn) on the bitboards, with Breakthrough
//! knowledge at every node, a bounded transposition table, optional race endgame tables as a leaf oracle, and an
//! exact distance-to-the-end pass by alpha-beta.
//!
//! Breakthrough has no draws and no cycles (every move advances a piece), so a weak solution is a win/loss proof.
//!
//! ```text
//! solve(position):  [race table]  ->  df-pn proof of the root (mid until solved or out of budget)
//!                   ->  the proofs of every first move (the winning moves)
//!                   ->  [exact distance by alpha-beta]  ->  [independent proof check]
//! ```
//!
//! The folder, one concern per file:
//! - this file: the public API: [`solve`], [`solve_split`], [`SolveOptions`], [`Solution`];
//! - `solver.rs`: the [`Solver`] (its tables and counters) and one solve of a root (proof, winning moves, distance);
//! - `rules.rs`: the knowledge rules at every node: the game's own (game over, win in 1, threats and the forced
//!   capture: [`crate::games::breakthrough::knowledge`]), then the solver's (win in 3 by a safe runner, the defended
//!   runner, threat sequences, race tables);
//! - `dfpn.rs`: the df-pn search (`mid`, [`Solver::prove`]), the initial proof and disproof numbers of new nodes, the
//!   winning moves proposed to the proof checker;
//! - `table.rs`: the bucketed df-pn table (keys shared with the mirror image) and the alpha-beta table;
//! - `file.rs`: the df-pn table saved to disk and read back (the format: [`super::table_file`]);
//! - `split.rs`: the job-level solve of the root moves ([`Solver::split`]);
//! - `check_jobs.rs`: the split proof check: its plan (the split levels by the rules) and its jobs ([`CheckJob`]);
//! - `jobs.rs`: the job lines of a split solve ([`Job`]) and the decided moves of a results file;
//! - `distance.rs`: the exact distance to the end by alpha-beta.

use std::path::PathBuf;
use std::time::Instant;

use super::proof_check::{self, ProofCheck};
use crate::games::breakthrough::race::RaceTable;
use crate::games::breakthrough::{Breakthrough, BtState};

mod check_jobs;
mod dfpn;
mod distance;
mod file;
mod jobs;
mod rules;
mod solver;
mod split;
mod table;

pub use check_jobs::{
    CheckJob, CheckPlan, Choice, Expansion, Proposer, expand_known, plan as check_plan, plan_from_choices, play_line,
    run_job as run_check_job,
};
pub use jobs::Job;
pub(crate) use jobs::decided_moves;
pub use solver::Solver;

/// Proof and disproof numbers at or above this are infinite.
pub(crate) const INF: u32 = 1 << 30;
/// Expansions allowed per df-pn run when the proof checker asks for a winning move the table no longer holds.
pub(crate) const HINT_BUDGET: u64 = 10_000_000;

/// What to solve and with how much memory.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Memory of the df-pn table in MiB.
    pub tt_mib: usize,
    /// Rows of the race endgame table used as an oracle (0 = none; 2 or 3 are useful).
    pub race_rows: u32,
    /// Also compute the exact distance to the end (alpha-beta after the proof).
    pub distance: bool,
    /// Memory of the distance table in MiB.
    pub distance_tt_mib: usize,
    /// Prove every root move, to list all winning first moves.
    pub all_winning_moves: bool,
    /// Stop (unsolved) after this many df-pn expansions.
    pub max_nodes: Option<u64>,
    /// Stop (unsolved) after this many seconds of wall time (checked every 65,536 expansions).
    pub max_seconds: Option<f64>,
    /// Progress lines on stderr every `progress_seconds` (0 = silent).
    pub progress_seconds: u64,
    /// Initialise new nodes' (pn, dn) from the material and runner balance instead of (1, 1).
    pub material_init: bool,
    /// Use knowledge rule 5 (the defended runner) in the proof search.
    pub runner_rule: bool,
    /// Share one df-pn table entry between a position and its left-right mirror image.
    pub symmetry: bool,
    /// Knowledge rule 6: search forcing sequences of up to this many runner moves onto the pre-goal row (0 or 1 = off).
    pub threat_depth: u32,
    /// Read the df-pn table from this file when it exists, and save it there when the solve ends (also when it stops
    /// unsolved), so that a long solve goes on across runs ([`super::table_file`]).
    pub table_file: Option<PathBuf>,
    /// Split solve with a `table_file`: also save the table between jobs, at most this often (seconds).
    pub save_every_seconds: Option<f64>,
    /// After a solve that decides the position, check the proof with [`super::proof_check`] (the rules alone walk
    /// the proof tree to the end of the game; this solver only proposes the winning moves).
    pub check_proof: bool,
    /// Memory of the proof check's memo of checked positions (MiB; [`proof_check`]).
    pub check_memo_mib: usize,
    /// Stop (unsolved, as `max_seconds` does) when this flag is raised: Ctrl-C with a `table_file`, which is saved.
    pub interrupt: Option<&'static std::sync::atomic::AtomicBool>,
    /// Stop (unsolved, as `max_seconds` does) when this flag is raised: a web page that cancels its request, or
    /// leaves. Looked at every 4,096 expansions (df-pn and the distance's alpha-beta).
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            tt_mib: 256,
            race_rows: 0,
            distance: false,
            distance_tt_mib: 256,
            all_winning_moves: true,
            max_nodes: None,
            max_seconds: None,
            progress_seconds: 0,
            material_init: true,
            runner_rule: true,
            symmetry: true,
            threat_depth: 3,
            table_file: None,
            save_every_seconds: None,
            check_proof: false,
            check_memo_mib: proof_check::DEFAULT_MEMO_MIB,
            interrupt: None,
            stop: None,
        }
    }
}

/// The answer.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Solution {
    /// Win or loss for the side to move; `None` when the node budget ran out first.
    pub result: Option<String>,
    /// Plies to the end under best play (fastest win, slowest loss), when the distance was asked for.
    pub plies: Option<u32>,
    /// Every winning first move (all of them when `all_winning_moves`, otherwise the one the proof found); possibly
    /// incomplete when the node budget ran out during those proofs.
    pub winning_moves: Vec<String>,
    /// The fastest win or slowest loss when the distance was computed, otherwise a winning move.
    pub best_move: Option<String>,
    /// df-pn node expansions (the root's proof and the winning-move proofs).
    pub nodes: u64,
    /// Alpha-beta nodes of the distance pass.
    pub distance_nodes: u64,
    pub seconds: f64,
    /// Seconds spent building the race table (included in `seconds`).
    pub race_table_seconds: f64,
    /// The root's proof and disproof numbers at the end (0 / ∞ when solved).
    pub root_pn: u32,
    pub root_dn: u32,
    /// Split solve ([`Solver::split`]): the root moves left undecided when it stopped (empty otherwise).
    pub undecided_moves: Vec<String>,
    /// Expansions of the earlier runs behind a table read from [`SolveOptions::table_file`] (not in `nodes`).
    pub earlier_nodes: u64,
    /// With [`SolveOptions::check_proof`] and a decided position: the independent check of the proof.
    pub proof_check: Option<ProofCheck>,
}

/// Solve `state` of `game`. Errors only on a bad option (a race table too large for the board) or a table file that
/// cannot be read or saved.
pub fn solve(game: &Breakthrough, state: &BtState, options: &SolveOptions) -> Result<Solution, String> {
    with_solver(game, options, |solver| {
        let mut sol = solver.run(state);
        if options.check_proof
            && let Some(r) = sol.result.as_deref()
        {
            let start = Instant::now();
            let every = options.progress_seconds as f64;
            let mut last = 0.0;
            if every > 0.0 {
                eprintln!("proof check: memo of {} MiB", options.check_memo_mib);
            }
            let mut progress = |c: &ProofCheck| {
                let t = start.elapsed().as_secs_f64();
                if every > 0.0 && t - last >= every {
                    last = t;
                    eprintln!(
                        "proof check: {t:.0} s, {} + {} positions, {} ends of the game, {} remembered",
                        c.or_positions, c.and_positions, c.terminal_positions, c.memo_stored
                    );
                }
            };
            let mut oracle = |s: &BtState| solver.winning_moves_hint(s);
            sol.proof_check = Some(proof_check::check_with_progress(
                game,
                state,
                r == "win",
                options.check_memo_mib,
                &mut oracle,
                &mut progress,
            ));
        }
        sol
    })
}

/// [`solve`] job by job: [`Solver::split`] with the race table of `options`. The distance is not computed.
pub fn solve_split(
    game: &Breakthrough,
    state: &BtState,
    options: &SolveOptions,
    first: &[String],
    budget: u64,
    known: &mut dyn FnMut(&str) -> Option<bool>,
    report: &mut dyn FnMut(&Job),
) -> Result<Solution, String> {
    with_solver(game, options, |solver| solver.split(state, first, budget, known, report))
}

/// A solver with the race table of `options`, given to `run`; the answer's times include the table's build.
fn with_solver(
    game: &Breakthrough,
    options: &SolveOptions,
    run: impl FnOnce(&mut Solver) -> Solution,
) -> Result<Solution, String> {
    let start = Instant::now();
    if let Some(path) = &options.table_file {
        // Before the work: a table file plateau would refuse to write (a symbolic link, a device, a directory).
        crate::files::check_output(path, "df-pn table")?;
    }
    let race = race_table(game, options)?;
    let race_seconds = race.as_ref().map_or(0.0, |r| r.build_seconds);
    let mut solver = Solver::new(game, options, race);
    if let Some(path) = options.table_file.as_deref().filter(|p| p.exists()) {
        solver.load_table(path)?;
    }
    let mut sol = run(&mut solver);
    if let Some(path) = &options.table_file {
        solver.save_table(path).map_err(|e| {
            format!(
                "{e} (the solve itself ended: result {}, {} expansions)",
                sol.result.as_deref().unwrap_or("open"),
                sol.nodes
            )
        })?;
    }
    sol.earlier_nodes = solver.earlier_nodes;
    sol.race_table_seconds = race_seconds;
    sol.seconds = start.elapsed().as_secs_f64();
    Ok(sol)
}

/// A solver kept for many positions, its tables with it (an opening book solves one position after another and
/// the positions share most of their proofs): the race table of `options` is built once.
pub(crate) fn reusable<'a>(game: &'a Breakthrough, options: &SolveOptions) -> Result<Solver<'a>, String> {
    Ok(Solver::new(game, options, race_table(game, options)?))
}

impl Solver<'_> {
    /// Solves `s` as [`solve`] does, keeping the tables for the next call (`nodes` and `distance_nodes` count since
    /// the solver was built).
    pub fn solve(&mut self, s: &BtState) -> Solution {
        self.run(s)
    }
}

/// The race table `options` ask for, if the game's rules allow one.
fn race_table(game: &Breakthrough, options: &SolveOptions) -> Result<Option<RaceTable>, String> {
    if options.race_rows == 0 || !game.standard() {
        return Ok(None);
    }
    if options.race_rows >= game.rows {
        return Err(format!("race table of {} rows on a board of {} rows", options.race_rows, game.rows));
    }
    Ok(Some(RaceTable::build(game.columns, options.race_rows)?))
}
