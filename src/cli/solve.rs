//! `plateau solve`: the exact value of a position, or of every position of a batch file.
//!
//! Connect Four (`connect_four`, `connect4`, `c4`, with `rows`/`columns`) goes to the specialised solver
//! ([`crate::solve::connect4`]), whose score is Pascal Pons's; every other game goes through the registry to the generic
//! alpha-beta solver ([`crate::solve::generic`]), whose score is the number of plies to the end (positive for a win,
//! negative for a loss, 0 for a draw).
//!
//! Othello goes to its exact endgame solver ([`crate::games::othello::endgame`]), whose score is the final disc
//! difference (the empties to the winner).
//! Pig (a game of chance) goes to value iteration ([`crate::solve::pig`]): the winning chances of the side to move.
//!
//! `--batch FILE`: one position per line, optionally followed by the expected score (`position expected`); empty lines
//! and lines starting with `#` are skipped ([`crate::solve::batch`]). Connect Four positions are move sequences
//! (`4453`); for other games the position is the game's position text, and the expected score, if any, is the last
//! word.
//!
//! This file parses the flags, calls the solvers and prints.

use anyhow::bail;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::game::Game;
use crate::games::AnyGame;
use crate::games::connect_four::ConnectFour;
use crate::games::with_game;
use crate::solve::batch::{self, Entry, Report};
use crate::solve::connect4;
use crate::solve::generic::GenericSolver;
use crate::spec::parse_table_mib;

mod breakthrough;
mod othello;
mod pig;
mod simultaneous;

#[derive(Args, Debug)]
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
    /// Transposition table size (`128mb`, `1gb`).
    #[arg(long, default_value = "128mb")]
    tt: String,
    /// The solving method. Breakthrough: `dfpn` (default) is the dedicated proof-number solver with game knowledge
    /// (then an exact distance pass unless `--weak`), `dfpn-generic` the generic df-pn. Other games: `alphabeta`
    /// (default) is the generic alpha-beta solver, `dfpn` the generic df-pn (weak: win/draw/loss). Every game:
    /// `retro`, retrograde analysis of every position reachable from the position (written to `--db FILE` when given).
    #[arg(long, value_parser = ["dfpn", "alphabeta", "dfpn-generic", "retro"])]
    method: Option<String>,
    /// Retrograde database: written by `--method retro`, read otherwise (value, distance, best moves).
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
    /// Oware, `--method retro`: build the endgame databases of every board with up to N seeds (default: the seeds on
    /// the board of the position), into `--db DIR` (resumable) or in memory.
    #[arg(long, value_name = "N")]
    db_seeds: Option<usize>,
    /// Retrograde analysis: stop with an error rather than use more memory than this (`512mb`, `2gb`).
    #[arg(long, default_value = "2gb")]
    max_memory: String,
    /// Breakthrough df-pn: rows of the race endgame table used as an oracle (0, 2 or 3; default 3, or the most the
    /// board takes: fewer rows than the board's).
    #[arg(long)]
    race_rows: Option<u32>,
    /// Breakthrough df-pn: stop unsolved after this many expansions.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Breakthrough df-pn, Othello (one position): stop unsolved after this many seconds (Othello: with the bounds
    /// proven so far).
    #[arg(long, value_name = "S", value_parser = super::parse_seconds)]
    max_seconds: Option<f64>,
    /// Breakthrough df-pn, weak: solve the root move by move (job-level), each root move (up to mirror symmetry) in
    /// turn with a budget of `--budget` expansions that doubles every round, one JSON line per job on stdout.
    #[arg(long)]
    split: bool,
    /// `--split`: the first round's budget per root move, in df-pn expansions.
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    budget: u64,
    /// `--split`: root moves to decide before the others, comma-separated (`a2a3,c2c3`).
    #[arg(long, value_name = "MOVES")]
    split_first: Option<String>,
    /// `--split`: append every job to FILE (JSON lines) and take the moves it already decides as decided, so that
    /// runs started later, or at the same time on other moves, go on from it.
    #[arg(long, value_name = "FILE")]
    results: Option<String>,
    /// Breakthrough df-pn: read the proof-number table from FILE when it exists and save it there when the solve
    /// ends (also unsolved), so that a long solve goes on across runs; the table's game and key scheme must match.
    /// Othello: the endgame table is read from FILE (created with the size of `--tt` when absent) and written back
    /// at the end and every `--save-every` (default 600 s), so that what any solve proved serves the next ones, and a
    /// stopped or killed solve goes on from it.
    #[arg(long, value_name = "FILE")]
    table: Option<String>,
    /// `--table` with `--split`: also save the table between jobs, at most every S seconds. Othello with `--table`:
    /// save the table every S seconds during the solve (default 600). `--method retro --db
    /// FILE`: save the enumeration to `FILE.partial` every S seconds (default 300), so that a killed build resumes.
    #[arg(long, value_name = "S", value_parser = super::parse_seconds)]
    save_every: Option<f64>,
    /// Breakthrough df-pn: stop at the first winning move found instead of deciding every first move.
    #[arg(long)]
    first_win_only: bool,
    /// Breakthrough df-pn (not --split): check the proof by walking it with the rules alone to the end of the game
    /// (the solver only proposes the winning moves); field `proof_check`.
    #[arg(long)]
    check: bool,
    /// Memory of the check's memo of checked positions (`256mb`, `4gb`): a cache, so more only saves walking.
    #[arg(long, default_value = "256mb", value_name = "SIZE")]
    check_memo: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

pub fn run(a: SolveArgs) -> anyhow::Result<()> {
    // The game string is parsed once, by the registry; the parsed game is passed on.
    let any = AnyGame::parse(&a.pos.game)?;
    if let AnyGame::Pig(g) = &any {
        return pig::run(g, &a.pos, a.json);
    }
    if any.kind().simultaneous && !any.kind().hidden {
        if a.method.is_some() || a.batch.is_some() || a.db.is_some() {
            bail!(
                "solve: {} has simultaneous moves: it is solved by backward induction with linear programming, \
which takes no --method, --batch or --db",
                a.pos.game
            );
        }
        return with_game!(&any, g => simultaneous::run(g, &a.pos, a.json));
    }
    if !any.kind().is_classic() {
        bail!(
            "solve: {} has {}; the solvers need a deterministic game of perfect information",
            a.pos.game,
            any.kind().describe()
        );
    }
    let retro = a.method.as_deref() == Some("retro");
    if let AnyGame::Oware(g) = &any
        && (retro || a.db.is_some())
    {
        return super::solve_oware::run(g, &a.pos, a.db.as_deref(), retro, a.db_seeds, a.json);
    }
    if retro || a.db.is_some() {
        let takes: &[&str] = if retro && a.db.is_some() { &["--save-every"] } else { &[] };
        refuse_unused(&a, "the retrograde database (--method retro, --db)", takes)?;
        if a.save_every.is_some_and(|s| s.is_nan() || s < 0.0) {
            bail!("--save-every must be a number of seconds >= 0");
        }
        return super::solve_db::run(&any, &a.pos, a.db.as_deref(), retro, &a.max_memory, a.save_every, a.json);
    }
    let mib = parse_table_mib(&a.tt).map_err(|e| anyhow::anyhow!("--tt: {e}"))?;
    let is_breakthrough = matches!(any, AnyGame::Breakthrough(_));
    let method = a.method.as_deref().unwrap_or(if is_breakthrough { "dfpn" } else { "alphabeta" });
    if method == "dfpn-generic" || (method == "dfpn" && !is_breakthrough) {
        refuse_unused(&a, "the generic df-pn", &["--max-nodes"])?;
        let o = super::solve_dfpn::DfpnArgs { position: a.pos.position.clone(), moves: a.pos.moves.clone(), mib };
        return super::solve_dfpn::run(any, &o, a.max_nodes, a.json);
    }
    if let AnyGame::ConnectFour(g) = &any {
        refuse_unused(&a, "the Connect Four solver", &[])?;
        let board = connect4::board(g.rows, g.columns).map_err(anyhow::Error::msg)?;
        let log2 = connect4::table_log2(mib);
        return match &a.batch {
            Some(file) => c4_batch(&a, &board, log2, file),
            None => c4_single(&a, &board, log2),
        };
    }
    if let AnyGame::Othello(g) = &any
        && method == "alphabeta"
    {
        let takes: &[&str] = if a.batch.is_some() {
            &["--table", "--save-every"]
        } else {
            &["--table", "--save-every", "--max-seconds"]
        };
        if a.save_every.is_some() && a.table.is_none() {
            bail!("--save-every needs --table");
        }
        refuse_unused(&a, "the Othello endgame solver", takes)?;
        return match &a.batch {
            Some(file) => othello::run_batch(&a, g, mib, file),
            None => othello::single(&a, g, mib),
        };
    }
    if a.split && !(matches!(any, AnyGame::Breakthrough(_)) && a.batch.is_none() && !a.analyze && method == "dfpn") {
        bail!("--split is for one Breakthrough position with --method dfpn (no --batch, no --analyze)");
    }
    let bt_dfpn = matches!(any, AnyGame::Breakthrough(_)) && a.batch.is_none() && !a.analyze && method == "dfpn";
    if (a.table.is_some() || a.first_win_only || a.check) && !bt_dfpn {
        bail!("--table, --first-win-only and --check are for one Breakthrough position with --method dfpn");
    }
    if a.check && a.split {
        bail!("--check checks the proof of a plain solve (not --split)");
    }
    if a.save_every.is_some() && !(a.table.is_some() && a.split) {
        bail!("--save-every needs --table and --split");
    }
    if a.save_every.is_some_and(|s| s.is_nan() || s < 0.0) {
        bail!("--save-every must be a number of seconds >= 0");
    }
    if let AnyGame::Breakthrough(g) = &any
        && bt_dfpn
    {
        return if a.split { breakthrough::split(&a, g, mib) } else { breakthrough::single(&a, g, mib) };
    }
    refuse_unused(&a, "the generic alpha-beta solver", &[])?;
    with_game!(&any, g => {
        match &a.batch {
            Some(file) => generic_batch(&a, g, mib, file),
            None => generic_single(&a, g, mib),
        }
    })
}

/// Refuse the flags of the Breakthrough df-pn solver that `solver` does not read (all but `takes`): an option that
/// does not apply is an error, not silently ignored.
fn refuse_unused(a: &SolveArgs, solver: &str, takes: &[&str]) -> anyhow::Result<()> {
    let given = [
        ("--max-nodes", a.max_nodes.is_some()),
        ("--max-seconds", a.max_seconds.is_some()),
        ("--race-rows", a.race_rows.is_some()),
        ("--split", a.split),
        ("--split-first", a.split_first.is_some()),
        ("--results", a.results.is_some()),
        ("--table", a.table.is_some()),
        ("--save-every", a.save_every.is_some()),
        ("--first-win-only", a.first_win_only),
        ("--check", a.check),
    ];
    match given.iter().find(|(flag, on)| *on && !takes.contains(flag)) {
        Some((flag, _)) => bail!("{flag} does not apply to {solver} (see plateau solve --help)"),
        None => Ok(()),
    }
}

fn c4_single(a: &SolveArgs, board: &ConnectFour, table_log2: u32) -> anyhow::Result<()> {
    let (p, r) = connect4::solve_one(board, table_log2, a.pos.position.as_deref(), a.pos.moves.as_deref(), a.weak)
        .map_err(anyhow::Error::msg)?;
    let result = connect4::result_word(r.score);
    let best = r.best_move.map(|c| (c + 1).to_string());
    let stm = if p.plies % 2 == 0 { crate::game::Side::First } else { crate::game::Side::Second };
    let winner = super::winner_words(board, stm, result);
    if a.json {
        super::print_json(&json!({
            "game": format!("connect_four(rows={},columns={})", board.rows, board.columns),
            "moves": p.plies, "weak": a.weak, "result": result, "winner_text": winner, "proven": true, "score": r.score,
            "best_move": best,
            "nodes": r.nodes, "seconds": r.seconds,
            "best_move_nodes": r.best_move_nodes, "best_move_seconds": r.best_move_seconds,
        }));
    } else {
        println!("result     {result}: {winner} (proven)");
        println!("score      {}", r.score);
        println!("best move  {}", best.unwrap_or_else(|| "-".into()));
        println!("nodes      {}  (+{} to find the best move)", r.nodes, r.best_move_nodes);
        println!("seconds    {:.6}  (+{:.6})", r.seconds, r.best_move_seconds);
    }
    Ok(())
}

fn c4_batch(a: &SolveArgs, board: &ConnectFour, table_log2: u32, file: &str) -> anyhow::Result<()> {
    let lines = batch::read_lines(file, a.first).map_err(anyhow::Error::msg)?;
    // Parse everything first: a malformed line is an error before any work.
    let jobs = connect4::parse_batch(board, file, &lines).map_err(anyhow::Error::msg)?;
    let bar = progress(jobs.len());
    let report = connect4::solve_batch(board, table_log2, &jobs, a.weak, |e| entry_done(&bar, e));
    bar.finish_and_clear();
    print_report(a.json, file, &report)
}

fn progress(n: usize) -> ProgressBar {
    let bar = ProgressBar::new(n as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} [{elapsed_precise} < {eta_precise}] {msg}") {
        bar.set_style(style);
    }
    bar
}

/// After each position of a batch: say a mismatch, advance the bar.
fn entry_done(bar: &ProgressBar, e: &Entry) {
    if e.mismatch() {
        let (n, pos, want) = (e.line, &e.position, e.expected.unwrap_or(0));
        bar.suspend(|| eprintln!("mismatch line {n}: {pos}: expected {want}, got {}", e.score));
    }
    bar.inc(1);
}

/// Print a batch's report; an error when some score differs from the expected one.
fn print_report(as_json: bool, file: &str, report: &Report) -> anyhow::Result<()> {
    let positions = report.entries.len();
    let mismatches = report.mismatches().count();
    let (mean_seconds, mean_nodes) = (report.mean_seconds, report.mean_nodes);
    let extra = match report.mean_best_move {
        Some((nodes, seconds)) => json!({"mean_best_move_seconds": seconds, "mean_best_move_nodes": nodes}),
        None => json!({}),
    };
    if as_json {
        let mismatched: Vec<_> = report
            .mismatches()
            .map(|e| json!({"line": e.line, "position": e.position, "expected": e.expected, "score": e.score}))
            .collect();
        let results: Vec<_> = report.entries.iter().map(entry_json).collect();
        let mut doc = json!({
            "file": file, "positions": positions, "mismatches": mismatches,
            "mismatched": mismatched, "mean_seconds": mean_seconds, "mean_nodes": mean_nodes,
        });
        if let (Some(d), serde_json::Value::Object(e)) = (doc.as_object_mut(), extra) {
            d.extend(e);
            d.insert("results".into(), serde_json::Value::Array(results));
        }
        super::print_json(&doc);
    } else {
        println!("file          {file}");
        println!("positions     {positions}");
        println!("mismatches    {mismatches}");
        println!("mean seconds  {mean_seconds:.6}");
        println!("mean nodes    {mean_nodes:.1}");
        if let serde_json::Value::Object(e) = extra {
            for (k, v) in e {
                println!("{k}  {v}");
            }
        }
    }
    if mismatches > 0 {
        bail!("{mismatches} of {positions} positions do not have the expected score");
    }
    Ok(())
}

fn entry_json(e: &Entry) -> serde_json::Value {
    let mut v = json!({
        "line": e.line, "position": e.position, "result": e.result, "score": e.score, "expected": e.expected,
        "best_move": e.best_move, "nodes": e.nodes, "seconds": e.seconds,
    });
    if let Some((nodes, seconds)) = e.best_move_cost {
        v["best_move_nodes"] = json!(nodes);
        v["best_move_seconds"] = json!(seconds);
    }
    v
}

fn generic_single<G: Game>(a: &SolveArgs, g: &G, mib: usize) -> anyhow::Result<()> {
    let state = super::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
    if let Some(o) = g.outcome(&state) {
        bail!("the game is over in this position ({o:?} for the side to move): there is nothing to solve");
    }
    let mut solver = GenericSolver::<G>::new(mib, a.weak);
    let r = solver.solve(g, &state);
    if r.too_deep {
        bail!(
            "{}: the game goes deeper than the {} plies the generic solver can follow (its stack); use --method dfpn, or --method retro for a game whose positions fit in memory",
            g.spec(),
            crate::solve::generic::max_ply::<G>()
        );
    }
    let (word, score) = r.word_and_score(a.weak);
    let best = r.best_move.map(|m| g.format_move(&state, m));
    let analysis: Vec<_> = if a.analyze { solver.analyze(g, &state) } else { Vec::new() };
    if a.json {
        let mut doc = json!({
            "game": g.spec(), "position": g.format_position(&state), "weak": a.weak, "result": word,
            "winner_text": super::winner_words(g, g.side_to_move(&state), word), "proven": true, "score": score,
            "plies": r.plies, "best_move": best, "nodes": r.nodes, "seconds": r.seconds,
        });
        if a.analyze {
            let moves = analysis.iter().map(|m| {
                json!({"move": g.format_move(&state, m.mv), "result": m.result, "score": m.score, "nodes": m.nodes})
            });
            doc["moves"] = serde_json::Value::Array(moves.collect());
        }
        super::print_json(&doc);
    } else {
        for m in &analysis {
            println!("move {:<8} {:<5} {}", g.format_move(&state, m.mv), m.result, m.score);
        }
        println!("{}", g.display(&state));
        println!("result     {word}: {} (proven)", super::winner_words(g, g.side_to_move(&state), word));
        match r.plies {
            Some(p) => println!("score      {score} ({word} in {p} plies)"),
            None => println!("score      {score}"),
        }
        println!("best move  {}", best.unwrap_or_else(|| "-".into()));
        println!("nodes      {}", r.nodes);
        println!("seconds    {:.6}", r.seconds);
    }
    Ok(())
}

fn generic_batch<G: Game>(a: &SolveArgs, g: &G, mib: usize, file: &str) -> anyhow::Result<()> {
    let lines = batch::read_lines(file, a.first).map_err(anyhow::Error::msg)?;
    let jobs = batch::parse_positions(g, file, &lines).map_err(anyhow::Error::msg)?;
    let bar = progress(jobs.len());
    let report = batch::solve_positions(g, &jobs, mib, a.weak, |e| entry_done(&bar, e));
    bar.finish_and_clear();
    print_report(a.json, file, &report)
}
