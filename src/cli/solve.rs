//! `plateau solve`: the exact value of a position, or of every position of a batch file.
//!
//! Connect Four (`connect_four`, `connect4`, `c4`, with `rows`/`columns`) goes to the specialised solver
//! ([`crate::solve::connect4`]), whose score is Pascal Pons's; every other game goes through the registry to the generic
//! alpha-beta solver ([`crate::solve::generic`]), whose score is the number of plies to the end (positive for a win,
//! negative for a loss, 0 for a draw).
//!
//! `--batch FILE`: one position per line, optionally followed by the expected score (`position expected`); empty lines
//! and lines starting with `#` are skipped ([`crate::solve::batch`]). Connect Four positions are move sequences
//! (`4453`); for other games the position is the game's position text, and the expected score, if any, is the last
//! word.
//!
//! This file parses the flags, calls the solvers and prints.

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::game::{Game, MoveList};
use crate::games::AnyGame;
use crate::games::connect_four::ConnectFour;
use crate::solve::batch::{self, Entry, Report};
use crate::solve::connect4;
use crate::solve::generic::GenericSolver;
use crate::spec::{Spec, parse_mib};
use crate::with_game;

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
    /// Retrograde analysis: stop with an error rather than use more memory than this (`512mb`, `2gb`).
    #[arg(long, default_value = "2gb")]
    max_memory: String,
    /// Breakthrough df-pn: rows of the race endgame table used as an oracle (0, 2 or 3).
    #[arg(long, default_value_t = 3)]
    race_rows: u32,
    /// Breakthrough df-pn: stop unsolved after this many expansions.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Breakthrough df-pn: stop unsolved after this many seconds.
    #[arg(long, value_name = "S")]
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
    #[arg(long, value_name = "FILE")]
    table: Option<String>,
    /// `--table` with `--split`: also save the table between jobs, at most every S seconds.
    #[arg(long, value_name = "S")]
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

/// Whether a game string names Connect Four; returns its board, refused when the solver does not take it.
pub fn connect_four_board(text: &str) -> anyhow::Result<Option<ConnectFour>> {
    let spec = Spec::parse(text)?;
    if !matches!(spec.name.as_str(), "connect_four" | "connect4" | "c4" | "connectfour") {
        return Ok(None);
    }
    let rows = spec.int("rows", 6, 1, 63)? as u32;
    let columns = spec.int("columns", 7, 1, 64)? as u32;
    spec.finish()?;
    Ok(Some(connect4::board(rows, columns).map_err(anyhow::Error::msg)?))
}

pub fn run(a: SolveArgs) -> anyhow::Result<()> {
    let retro = a.method.as_deref() == Some("retro");
    if retro || a.db.is_some() {
        return super::solve_db::run(&a.pos, a.db.as_deref(), retro, &a.max_memory, a.json);
    }
    let mib = parse_mib(&a.tt).map_err(|e| anyhow::anyhow!("--tt: {e}"))?;
    let is_breakthrough = matches!(AnyGame::parse(&a.pos.game), Ok(AnyGame::Breakthrough(_)));
    let method = a.method.as_deref().unwrap_or(if is_breakthrough { "dfpn" } else { "alphabeta" });
    if method == "dfpn-generic" || (method == "dfpn" && !is_breakthrough) {
        let o = super::solve_dfpn::DfpnArgs { position: a.pos.position.clone(), moves: a.pos.moves.clone(), mib };
        return super::solve_dfpn::run(&a.pos.game, &o, a.max_nodes, a.json);
    }
    if let Some(board) = connect_four_board(&a.pos.game)? {
        let log2 = connect4::table_log2(mib);
        return match &a.batch {
            Some(file) => c4_batch(&a, &board, log2, file),
            None => c4_single(&a, &board, log2),
        };
    }
    let any = AnyGame::parse(&a.pos.game)?;
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
        return if a.split { breakthrough_split(&a, g, mib) } else { breakthrough_single(&a, g, mib) };
    }
    with_game!(&any, g => {
        match &a.batch {
            Some(file) => generic_batch(&a, g, mib, file),
            None => generic_single(&a, g, mib),
        }
    })
}

fn c4_single(a: &SolveArgs, board: &ConnectFour, table_log2: u32) -> anyhow::Result<()> {
    let (p, r) = connect4::solve_one(board, table_log2, a.pos.position.as_deref(), a.pos.moves.as_deref(), a.weak)
        .map_err(anyhow::Error::msg)?;
    let result = connect4::result_word(r.score);
    let best = r.best_move.map(|c| (c + 1).to_string());
    if a.json {
        super::print_json(&json!({
            "game": format!("connect_four(rows={},columns={})", board.rows, board.columns),
            "moves": p.plies, "weak": a.weak, "result": result, "score": r.score, "best_move": best,
            "nodes": r.nodes, "seconds": r.seconds,
            "best_move_nodes": r.best_move_nodes, "best_move_seconds": r.best_move_seconds,
        }));
    } else {
        println!("result     {result}");
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

/// The Breakthrough position to solve, refused when the game is over there or the race table size is not 0, 2 or 3.
fn breakthrough_root(
    a: &SolveArgs,
    g: &crate::games::Breakthrough,
) -> anyhow::Result<crate::games::breakthrough::BtState> {
    let state = super::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
    if let Some(o) = g.outcome(&state) {
        bail!("the game is over in this position ({o:?} for the side to move): there is nothing to solve");
    }
    if !matches!(a.race_rows, 0 | 2 | 3) {
        bail!("--race-rows must be 0, 2 or 3");
    }
    Ok(state)
}

/// Breakthrough by df-pn (`solve::breakthrough`), then the exact distance unless `--weak`.
fn breakthrough_single(a: &SolveArgs, g: &crate::games::Breakthrough, mib: usize) -> anyhow::Result<()> {
    let state = breakthrough_root(a, g)?;
    let options = crate::solve::breakthrough::Options {
        tt_mib: mib,
        race_rows: a.race_rows,
        distance: !a.weak,
        distance_tt_mib: mib,
        all_winning_moves: !a.first_win_only,
        max_nodes: a.max_nodes,
        max_seconds: a.max_seconds,
        progress_seconds: if a.json { 0 } else { 10 },
        table_file: a.table.as_ref().map(Into::into),
        check_proof: a.check,
        check_memo_mib: parse_mib(&a.check_memo).map_err(|e| anyhow::anyhow!("--check-memo: {e}"))?,
        ..Default::default()
    };
    if !a.json {
        let distance = if a.weak { String::new() } else { format!(" + distance table {mib} MiB") };
        let check = if a.check { format!(" + proof check memo {} MiB", options.check_memo_mib) } else { String::new() };
        eprintln!("memory: df-pn table {mib} MiB{distance}{check} (race tables: a few MiB)");
    }
    let r = crate::solve::breakthrough::solve(g, &state, &options).map_err(anyhow::Error::msg)?;
    if let Some(c) = r.proof_check.as_ref().filter(|c| !c.verified) {
        bail!(
            "the proof of '{}' did NOT hold under the independent check (it failed after the moves '{}'): {c:?}",
            r.result.as_deref().unwrap_or("?"),
            c.failed_line.as_deref().unwrap_or("")
        );
    }
    let Some(word) = r.result.clone() else {
        let saved = a.table.as_ref().map(|f| format!("; the table is saved in {f}")).unwrap_or_default();
        bail!(
            "not solved within --max-nodes / --max-seconds ({} expansions; root pn {} dn {}{saved})",
            r.nodes,
            r.root_pn,
            r.root_dn
        );
    };
    let sign = if word == "win" { 1 } else { -1 };
    let score = if a.weak { sign } else { sign * r.plies.unwrap_or(0) as i32 };
    if a.json {
        super::print_json(&json!({
            "game": g.spec(), "position": g.format_position(&state), "weak": a.weak, "method": "dfpn",
            "result": word, "score": score, "plies": r.plies, "best_move": r.best_move,
            "winning_moves": r.winning_moves, "nodes": r.nodes, "distance_nodes": r.distance_nodes,
            "earlier_nodes": r.earlier_nodes, "proof_check": r.proof_check,
            "seconds": r.seconds,
        }));
    } else {
        println!("{}", g.display(&state));
        println!("result         {word}");
        match r.plies {
            Some(p) => println!("score          {score} ({word} in {p} plies)"),
            None => println!("score          {score}"),
        }
        println!("best move      {}", r.best_move.clone().unwrap_or_else(|| "-".into()));
        println!("winning moves  {}", r.winning_moves.join(" "));
        println!("nodes          {} df-pn + {} distance", r.nodes, r.distance_nodes);
        if let Some(c) = &r.proof_check {
            println!(
                "proof check    holds: {} positions where the winner moves, {} where the loser does (every move), {} ends of the game",
                c.or_positions, c.and_positions, c.terminal_positions
            );
        }
        println!("seconds        {:.3}", r.seconds);
    }
    Ok(())
}

/// Breakthrough by df-pn, job by job ([`crate::solve::breakthrough::Solver::split`]): weak, one JSON line per job.
fn breakthrough_split(a: &SolveArgs, g: &crate::games::Breakthrough, mib: usize) -> anyhow::Result<()> {
    use crate::solve::breakthrough::{Job, decided_moves, solve_split};
    use std::io::Write;
    let state = breakthrough_root(a, g)?;
    let mut list = MoveList::new();
    g.generate_moves(&state, &mut list);
    let legal: Vec<String> = list.iter().map(|&m| g.format_move(&state, m)).collect();
    let first: Vec<String> = a
        .split_first
        .as_deref()
        .unwrap_or("")
        .split([',', ' '])
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect();
    if let Some(bad) = first.iter().find(|m| !legal.contains(m)) {
        bail!("--split-first: '{bad}' is not a legal move here (legal: {})", legal.join(" "));
    }
    if a.budget == 0 {
        bail!("--budget must be at least 1");
    }
    let mut out = match &a.results {
        Some(f) => {
            // Read it once now, so that a file that is not a results file is refused before any work.
            let text = match std::fs::read_to_string(f) {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
                Err(e) => bail!("--results {f}: {e}"),
            };
            if let Some((i, _)) = text.lines().enumerate().find(|(_, l)| {
                !l.trim().is_empty() && serde_json::from_str::<crate::solve::breakthrough::Job>(l).is_err()
            }) {
                bail!("--results {f}: line {} is not a job line written by --split", i + 1);
            }
            Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(f)
                    .with_context(|| format!("--results {f}"))?,
            )
        }
        None => None,
    };
    let options = crate::solve::breakthrough::Options {
        tt_mib: mib,
        race_rows: a.race_rows,
        all_winning_moves: !a.first_win_only,
        max_seconds: a.max_seconds,
        progress_seconds: if a.json { 0 } else { 60 },
        table_file: a.table.as_ref().map(Into::into),
        save_every_seconds: a.save_every,
        ..Default::default()
    };
    let file = a.results.clone();
    let root = format!("{} {}", g.spec(), g.format_position(&state));
    let mut known = |m: &str| {
        let text = std::fs::read_to_string(file.as_deref()?).ok()?;
        decided_moves(&text, &root).into_iter().find(|(name, _)| name == m).map(|(_, win)| win)
    };
    let mut write_error = None;
    let mut report = |job: &Job| {
        let line = serde_json::to_string(job).expect("a job serialises");
        println!("{line}");
        if let Some(f) = out.as_mut()
            && job.round.is_some()
            && let Err(e) = writeln!(f, "{line}").and_then(|_| f.flush())
        {
            write_error.get_or_insert(e);
        }
    };
    let r = solve_split(g, &state, &options, &first, a.budget, &mut known, &mut report).map_err(anyhow::Error::msg)?;
    if let Some(e) = write_error {
        bail!("--results: could not append a job: {e}");
    }
    let word = r.result.clone().unwrap_or_else(|| "unknown".into());
    let score = match r.result.as_deref() {
        Some("win") => json!(1),
        Some("loss") => json!(-1),
        _ => serde_json::Value::Null,
    };
    if a.json {
        super::print_json(&json!({
            "game": g.spec(), "position": g.format_position(&state), "weak": true, "method": "dfpn-split",
            "result": word, "score": score, "best_move": r.best_move, "winning_moves": r.winning_moves,
            "undecided_moves": r.undecided_moves, "nodes": r.nodes, "earlier_nodes": r.earlier_nodes,
            "seconds": r.seconds, "root_pn": r.root_pn, "root_dn": r.root_dn,
        }));
    } else {
        println!("result         {word}");
        println!("best move      {}", r.best_move.clone().unwrap_or_else(|| "-".into()));
        println!("winning moves  {}", r.winning_moves.join(" "));
        println!("undecided      {}", r.undecided_moves.join(" "));
        println!("nodes          {} df-pn (+ {} in earlier runs behind --table)", r.nodes, r.earlier_nodes);
        println!("seconds        {:.3}", r.seconds);
    }
    Ok(())
}

fn generic_single<G: Game>(a: &SolveArgs, g: &G, mib: usize) -> anyhow::Result<()> {
    let state = super::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
    if let Some(o) = g.outcome(&state) {
        bail!("the game is over in this position ({o:?} for the side to move): there is nothing to solve");
    }
    let mut solver = GenericSolver::<G>::new(mib, a.weak);
    let r = solver.solve(g, &state);
    let (word, score) = r.word_and_score(a.weak);
    let best = r.best_move.map(|m| g.format_move(&state, m));
    let analysis: Vec<_> = if a.analyze { solver.analyze(g, &state) } else { Vec::new() };
    if a.json {
        let mut doc = json!({
            "game": g.spec(), "position": g.format_position(&state), "weak": a.weak, "result": word, "score": score,
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
        println!("result     {word}");
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
