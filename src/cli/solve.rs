//! `plateau solve`: the exact value of a position, or of every position of a batch file.
//!
//! The solver is chosen by the registry ([`crate::solve::registry`]: `--method`, else the game's default), which also
//! refuses the options that solver does not read and runs it into a typed report ([`crate::solve::report`]); this file
//! parses the flags, shows the progress (a bar for a batch, lines on stderr, the jobs of `--split` on stdout) and
//! prints the report ([`print`]: text, or the report as one JSON document with `--json`).

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::games::AnyGame;
use crate::solve::batch::Entry;
use crate::solve::breakthrough::{CheckJob, Job};
use crate::solve::registry;
use crate::solve::request::{Progress, Request};

mod print;

#[derive(Args, Debug)]
#[command(after_help = crate::solve::registry::help_text())]
pub struct SolveArgs {
    #[command(flatten)]
    pos: super::PositionArgs,
    /// Solve every position of FILE (`position [expected_score]` per line) and report mismatches and means.
    #[arg(long, value_name = "FILE")]
    batch: Option<String>,
    /// Only the first N positions of the batch file.
    #[arg(long, value_name = "N")]
    first: Option<usize>,
    /// Weak solve: win/draw/loss only (score -1, 0 or 1).
    #[arg(long)]
    weak: bool,
    /// Also solve every legal move (the value of each move for the side to move).
    #[arg(long)]
    analyze: bool,
    /// Transposition table size (`128mb`, `1gb`; default 128mb).
    #[arg(long, value_name = "SIZE")]
    tt: Option<String>,
    /// The solver (the list below; an unknown one lists those for the game): `connect4`, `othello-endgame`,
    /// `breakthrough-dfpn` (alias `dfpn` on Breakthrough), `alphabeta` (the generic alpha-beta solver; on Connect Four
    /// and Othello, their own solvers), `dfpn-generic` (alias `dfpn` on other games), `retro` (retrograde analysis
    /// of every position reachable from the position, written to `--db FILE` when given; on Oware, `oware-db`; on checkers, `checkers-db`), `pig`,
    /// `simultaneous`, `qubic-pns` (alias `dfpn` on Qubic). Default: the game's own solver, else `alphabeta`. An option the solver does not read is refused.
    #[arg(long, value_name = "SOLVER")]
    method: Option<String>,
    /// Retrograde database: written by `--method retro`, read otherwise (value, distance, best moves).
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
    /// Oware, `--method retro`: build the endgame databases of every board with up to N seeds (default: the seeds on
    /// the board of the position), into `--db DIR` (resumable) or in memory.
    #[arg(long, value_name = "N")]
    db_seeds: Option<usize>,
    /// Checkers, `--method retro`: build the endgame databases of every position with up to N pieces (default: the
    /// pieces on the board of the position; at most 6), into `--db DIR` (resumable) or in memory; with `--db DIR`
    /// alone, read them up to N pieces.
    #[arg(long, value_name = "N")]
    db_pieces: Option<usize>,
    /// Retrograde analysis: stop with an error rather than use more memory than this (`512mb`, `2gb`; default 2gb).
    #[arg(long, value_name = "SIZE")]
    max_memory: Option<String>,
    /// Breakthrough df-pn: rows of the race endgame table used as an oracle (0, 2 or 3; default 3, or the most the
    /// board takes: fewer rows than the board's).
    #[arg(long)]
    race_rows: Option<u32>,
    /// Breakthrough df-pn, Qubic (`qubic-pns`; with `--split`, each job): stop unsolved after this many expansions.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Breakthrough df-pn, Qubic (with `--split`, each job), Othello (one position): stop unsolved after this many
    /// seconds (Othello: with the bounds proven so far).
    #[arg(long, value_name = "S", value_parser = super::parse_seconds)]
    max_seconds: Option<f64>,
    /// Breakthrough df-pn, weak: solve the root move by move (job-level), each root move (up to mirror symmetry) in
    /// turn with a budget of `--budget` expansions that doubles every round, one JSON line per job on stdout.
    /// Qubic (`qubic-pns`): the first move (`--split-first`), then a job per answer up to symmetry, each with its own
    /// table and proof beside `--results FILE`; the proofs merged into `--proof FILE`.
    #[arg(long)]
    split: bool,
    /// `--split`: the first round's budget per root move, in df-pn expansions (default 20000000).
    #[arg(long, value_name = "N")]
    budget: Option<u64>,
    /// `--split`: root moves to decide before the others, comma-separated (`a2a3,c2c3`); Qubic: the first move.
    #[arg(long, value_name = "MOVES")]
    split_first: Option<String>,
    /// `--split`: append every job to FILE (JSON lines) and take the moves it already decides as decided, so that
    /// runs started later, or at the same time on other moves, go on from it.
    #[arg(long, value_name = "FILE")]
    results: Option<String>,
    /// Breakthrough df-pn: read the proof-number table from FILE when it exists and save it there when the solve
    /// ends (also unsolved), so that a long solve goes on across runs; the table's game and key scheme must match.
    /// Qubic (`qubic-pns`): the same, also saved every `--save-every` (default 600 s) and on Ctrl-C or SIGTERM.
    /// Othello: the endgame table is read from FILE (created with the size of `--tt` when absent) and written back
    /// at the end and every `--save-every` (default 600 s), so that what any solve proved serves the next ones, and a
    /// stopped or killed solve goes on from it.
    #[arg(long, value_name = "FILE")]
    table: Option<String>,
    /// `--table` with `--split`: also save the table between jobs, at most every S seconds. Qubic and Othello with
    /// `--table`: save the table every S seconds during the solve (default 600). `--method retro --db FILE`: save
    /// the enumeration to `FILE.partial` every S seconds (default 300), so that a killed build resumes.
    #[arg(long, value_name = "S", value_parser = super::parse_seconds)]
    save_every: Option<f64>,
    /// Breakthrough df-pn: stop at the first winning move found instead of deciding every first move.
    #[arg(long)]
    first_win_only: bool,
    /// Breakthrough df-pn (not --split): check the proof by walking it with the rules alone to the end of the game
    /// (the solver only proposes the winning moves); field `proof_check`.
    #[arg(long)]
    check: bool,
    /// `--check`: memory of the memo of checked positions (`256mb`, `4gb`; default 256mb): a cache, so more only
    /// saves walking.
    #[arg(long, value_name = "SIZE")]
    check_memo: Option<String>,
    /// `qubic-pns`: write the proof of a proven win to FILE (one line per position where the winner moves: the
    /// position and its winning move; docs/solving.md).
    #[arg(long, value_name = "FILE")]
    proof: Option<String>,
    /// `qubic-pns`: do not solve; check the proof FILE (written by `--proof`) with the rules alone, every answer of
    /// the loser followed (field `proof_check`); a proof that does not hold ends with an error naming where it broke.
    #[arg(long, value_name = "FILE")]
    check_proof: Option<String>,
    /// Breakthrough df-pn: the split proof check of the claim (the side to move wins; with --moves, the side that
    /// played the last of them wins): the split levels expanded by the rules, then one job per position reached
    /// (a df-pn solve and the proof check of it), one JSON line per job on stdout and in `--results FILE`
    /// (required; a restart resumes from it).
    #[arg(long)]
    check_split: bool,
    /// `--check-split`: the loser's moves expanded by the rules before the jobs (default 2).
    #[arg(long, value_name = "D")]
    split_depth: Option<u32>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

pub fn run(a: SolveArgs, out: &mut super::Out) -> anyhow::Result<()> {
    // The game string is parsed once, by the game registry; the parsed game is passed on.
    let any = AnyGame::parse(&a.pos.game)?;
    let req = request(&a);
    let mut progress = Shown { bar: None };
    let report = registry::solve(&any, &a.pos.game, &req, &mut progress)?;
    if a.json {
        out.json(serde_json::to_value(&report)?);
    } else {
        print::text(&report);
    }
    match report.failure() {
        Some(e) => Err(anyhow::Error::msg(e)),
        None => Ok(()),
    }
}

/// The flags as the registry's request.
fn request(a: &SolveArgs) -> Request {
    Request {
        position: a.pos.position.clone(),
        moves: a.pos.moves.clone(),
        method: a.method.clone(),
        batch: a.batch.clone(),
        first: a.first,
        weak: a.weak,
        analyze: a.analyze,
        tt: a.tt.clone(),
        db: a.db.clone(),
        db_seeds: a.db_seeds,
        db_pieces: a.db_pieces,
        max_memory: a.max_memory.clone(),
        race_rows: a.race_rows,
        max_nodes: a.max_nodes,
        max_seconds: a.max_seconds,
        split: a.split,
        budget: a.budget,
        split_first: a.split_first.clone(),
        results: a.results.clone(),
        table: a.table.clone(),
        save_every: a.save_every,
        first_win_only: a.first_win_only,
        check: a.check,
        check_memo: a.check_memo.clone(),
        proof: a.proof.clone(),
        check_proof: a.check_proof.clone(),
        check_split: a.check_split,
        split_depth: a.split_depth,
        quiet: a.json,
    }
}

/// Progress on the terminal: a bar on stderr for a batch (each mismatch said above it), notes on stderr, the jobs of
/// `--split` as JSON lines on stdout.
struct Shown {
    bar: Option<ProgressBar>,
}

impl Progress for Shown {
    fn note(&mut self, line: &str) {
        eprintln!("{line}");
    }

    fn batch_start(&mut self, positions: usize) {
        let bar = ProgressBar::new(positions as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} [{elapsed_precise} < {eta_precise}] {msg}")
        {
            bar.set_style(style);
        }
        self.bar = Some(bar);
    }

    fn entry(&mut self, e: &Entry) {
        let Some(bar) = &self.bar else { return };
        if e.mismatch() {
            let (n, pos, want) = (e.line, &e.position, e.expected.unwrap_or(0));
            bar.suspend(|| eprintln!("mismatch line {n}: {pos}: expected {want}, got {}", e.score));
        }
        bar.inc(1);
    }

    fn batch_end(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn job(&mut self, job: &Job) {
        println!("{}", serde_json::to_string(job).expect("a job serialises"));
    }

    fn check_job(&mut self, job: &CheckJob) {
        println!("{}", serde_json::to_string(job).expect("a job serialises"));
    }
}
