//! `plateau solve`: the exact value of a position, or of every position of a batch file.
//!
//! Connect Four (`connect_four`, `connect4`, `c4`, with `rows`/`columns`) goes to the specialised solver
//! ([`crate::solve::connect4`]), whose score is Pascal Pons's; every other game goes through the registry to the generic
//! alpha-beta solver ([`crate::solve::generic`]), whose score is the number of plies to the end (positive for a win,
//! negative for a loss, 0 for a draw).
//!
//! `--batch FILE`: one position per line, optionally followed by the expected score (`position expected`); empty lines
//! and lines starting with `#` are skipped. Connect Four positions are move sequences (`4453`); for other games the
//! position is the game's position text, and the expected score, if any, is the last word.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::game::{Game, MoveList, Outcome};
use crate::games::AnyGame;
use crate::games::with_game;
use crate::solve::connect4::{self, Dims, Geometry, Position, Solver, Standard};
use crate::solve::generic::GenericSolver;
use crate::spec::{Spec, parse_mib};

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

/// Whether a game string names Connect Four; returns its geometry.
pub fn connect_four_geometry(text: &str) -> anyhow::Result<Option<Geometry>> {
    let spec = Spec::parse(text)?;
    if !matches!(spec.name.as_str(), "connect_four" | "connect4" | "c4" | "connectfour") {
        return Ok(None);
    }
    let rows = spec.int("rows", 6, 1, 63)? as u32;
    let columns = spec.int("columns", 7, 1, 64)? as u32;
    spec.finish()?;
    Ok(Some(Geometry::new(columns, rows).map_err(anyhow::Error::msg)?))
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
    if let Some(g) = connect_four_geometry(&a.pos.game)? {
        // 16 bytes per entry.
        let entries = (mib.max(1) as u64) << 16;
        let log2 = 63 - entries.leading_zeros();
        return if g == Geometry::standard() {
            c4_run(&a, Solver::with_table(Standard, log2))
        } else {
            c4_run(&a, Solver::with_table(g, log2))
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

fn c4_run<D: Dims>(a: &SolveArgs, mut solver: Solver<D>) -> anyhow::Result<()> {
    match &a.batch {
        Some(file) => c4_batch(a, &mut solver, file),
        None => c4_single(a, &mut solver),
    }
}

/// One solved Connect Four position, as printed.
struct C4Line {
    score: i32,
    best_move: Option<u32>,
    nodes: u64,
    seconds: f64,
    best_move_nodes: u64,
    best_move_seconds: f64,
}

fn c4_solve<D: Dims>(solver: &mut Solver<D>, p: &Position, weak: bool) -> C4Line {
    solver.reset();
    let t = Instant::now();
    let score = solver.score(p, weak);
    let seconds = t.elapsed().as_secs_f64();
    let nodes = solver.nodes;
    let t = Instant::now();
    let best_move = solver.best_move(p, score, weak);
    C4Line {
        score,
        best_move,
        nodes,
        seconds,
        best_move_nodes: solver.nodes - nodes,
        best_move_seconds: t.elapsed().as_secs_f64(),
    }
}

fn c4_position<D: Dims>(g: &D, a: &SolveArgs) -> anyhow::Result<Position> {
    // `--position` is a move sequence too (Connect Four positions are written as the moves that reach them).
    let text = format!("{} {}", a.pos.position.as_deref().unwrap_or(""), a.pos.moves.as_deref().unwrap_or(""));
    let text = text.trim();
    let text = if text == "start" || text == "startpos" { "" } else { text };
    // Up to 9 columns every move is one digit: the position and the moves, spaced or not, are one digit string.
    let joined: String = if g.width() <= 9 {
        text.chars().filter(|c| !c.is_whitespace() && *c != ',').collect()
    } else {
        text.to_string()
    };
    Position::from_moves(g, &joined).map_err(|e| anyhow::anyhow!("connect_four position: {e}"))
}

fn c4_single<D: Dims>(a: &SolveArgs, solver: &mut Solver<D>) -> anyhow::Result<()> {
    let g = *solver.geometry();
    let p = c4_position(&g, a)?;
    let r = c4_solve(solver, &p, a.weak);
    let result = connect4::result_word(r.score);
    let best = r.best_move.map(|c| (c + 1).to_string());
    if a.json {
        super::print_json(&json!({
            "game": format!("connect_four(rows={},columns={})", g.height(), g.width()),
            "moves": p.stones(), "weak": a.weak, "result": result, "score": r.score, "best_move": best,
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

/// The non-empty, non-comment lines of a batch file with their line numbers.
fn batch_lines(file: &str, first: Option<usize>) -> anyhow::Result<Vec<(usize, String)>> {
    let text = std::fs::read_to_string(Path::new(file)).with_context(|| format!("cannot read batch file {file}"))?;
    let mut out: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim().to_string()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if let Some(n) = first {
        out.truncate(n);
    }
    Ok(out)
}

fn progress(n: usize) -> ProgressBar {
    let bar = ProgressBar::new(n as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} [{elapsed_precise} < {eta_precise}] {msg}") {
        bar.set_style(style);
    }
    bar
}

fn c4_batch<D: Dims>(a: &SolveArgs, solver: &mut Solver<D>, file: &str) -> anyhow::Result<()> {
    let g = *solver.geometry();
    let lines = batch_lines(file, a.first)?;
    // Parse everything first: a malformed line is an error before any work.
    let mut jobs = Vec::with_capacity(lines.len());
    for (n, line) in &lines {
        let mut words = line.split_whitespace();
        let moves = words.next().unwrap_or("");
        let expected = match words.next() {
            None => None,
            Some(w) => Some(w.parse::<i32>().map_err(|_| {
                anyhow::anyhow!("{file} line {n}: expected score '{w}' is not a whole number (line: '{line}')")
            })?),
        };
        if words.next().is_some() {
            bail!("{file} line {n}: expected 'moves [score]', got '{line}'");
        }
        let p = Position::from_moves(&g, moves).map_err(|e| anyhow::anyhow!("{file} line {n}: '{moves}': {e}"))?;
        jobs.push((*n, moves.to_string(), p, expected));
    }
    let bar = progress(jobs.len());
    let mut results = Vec::with_capacity(jobs.len());
    let mut mismatches = Vec::new();
    let (mut sum_s, mut sum_n, mut sum_bs, mut sum_bn) = (0.0, 0u64, 0.0, 0u64);
    for (n, moves, p, expected) in &jobs {
        let r = c4_solve(solver, p, a.weak);
        let want = expected.map(|e| if a.weak { e.signum() } else { e });
        if want.is_some_and(|w| w != r.score) {
            mismatches.push(json!({"line": n, "position": moves, "expected": want, "score": r.score}));
            bar.suspend(|| eprintln!("mismatch line {n}: {moves}: expected {}, got {}", want.unwrap_or(0), r.score));
        }
        sum_s += r.seconds;
        sum_n += r.nodes;
        sum_bs += r.best_move_seconds;
        sum_bn += r.best_move_nodes;
        results.push(json!({
            "line": n, "position": moves, "result": connect4::result_word(r.score), "score": r.score,
            "expected": want, "best_move": r.best_move.map(|c| (c + 1).to_string()),
            "nodes": r.nodes, "seconds": r.seconds,
            "best_move_nodes": r.best_move_nodes, "best_move_seconds": r.best_move_seconds,
        }));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let count = jobs.len().max(1) as f64;
    summary(
        a.json,
        file,
        jobs.len(),
        &mismatches,
        sum_s / count,
        sum_n as f64 / count,
        results,
        || json!({"mean_best_move_seconds": sum_bs / count, "mean_best_move_nodes": sum_bn as f64 / count}),
    )
}

#[allow(clippy::too_many_arguments)]
fn summary(
    as_json: bool,
    file: &str,
    positions: usize,
    mismatches: &[serde_json::Value],
    mean_seconds: f64,
    mean_nodes: f64,
    results: Vec<serde_json::Value>,
    extra: impl Fn() -> serde_json::Value,
) -> anyhow::Result<()> {
    if as_json {
        let mut doc = json!({
            "file": file, "positions": positions, "mismatches": mismatches.len(),
            "mismatched": mismatches, "mean_seconds": mean_seconds, "mean_nodes": mean_nodes,
        });
        if let (Some(d), serde_json::Value::Object(e)) = (doc.as_object_mut(), extra()) {
            d.extend(e);
            d.insert("results".into(), serde_json::Value::Array(results));
        }
        super::print_json(&doc);
    } else {
        println!("file          {file}");
        println!("positions     {positions}");
        println!("mismatches    {}", mismatches.len());
        println!("mean seconds  {mean_seconds:.6}");
        println!("mean nodes    {mean_nodes:.1}");
        if let serde_json::Value::Object(e) = extra() {
            for (k, v) in e {
                println!("{k}  {v}");
            }
        }
    }
    if !mismatches.is_empty() {
        bail!("{} of {positions} positions do not have the expected score", mismatches.len());
    }
    Ok(())
}

/// Result word and score for a generic solve.
fn generic_words<M>(s: &crate::solve::Solved<M>, weak: bool) -> (&'static str, i32) {
    let sign = match s.outcome {
        Outcome::Win => 1,
        Outcome::Loss => -1,
        _ => 0,
    };
    let word = match sign {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    };
    if weak { (word, sign) } else { (word, sign * s.plies.unwrap_or(0) as i32) }
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
    let (word, score) = generic_words(&r, a.weak);
    let best = r.best_move.map(|m| g.format_move(&state, m));
    // Per move: the child's value, seen by the side to move here (one more ply to the end).
    let mut analysis = Vec::new();
    if a.analyze {
        let mut moves = MoveList::new();
        g.generate_moves(&state, &mut moves);
        for &m in &moves {
            let mut child = state;
            g.play(&mut child, m);
            let (word, score, nodes) = match g.outcome(&child) {
                Some(o) => {
                    let w = match o.flip() {
                        Outcome::Win => ("win", 1),
                        Outcome::Loss => ("loss", -1),
                        _ => ("draw", 0),
                    };
                    (w.0, w.1, 0)
                }
                None => {
                    let c = solver.solve(g, &child);
                    let (w, s) = generic_words(&c, a.weak);
                    let s = if a.weak { -s } else { -s + (-s).signum() };
                    let w = match w {
                        "win" => "loss",
                        "loss" => "win",
                        _ => "draw",
                    };
                    (w, s, c.nodes)
                }
            };
            analysis.push(json!({"move": g.format_move(&state, m), "result": word, "score": score, "nodes": nodes}));
        }
    }
    if a.json {
        let mut doc = json!({
            "game": g.spec(), "position": g.format_position(&state), "weak": a.weak, "result": word, "score": score,
            "plies": r.plies, "best_move": best, "nodes": r.nodes, "seconds": r.seconds,
        });
        if a.analyze {
            doc["moves"] = serde_json::Value::Array(analysis.clone());
        }
        super::print_json(&doc);
    } else {
        for m in &analysis {
            println!(
                "move {:<8} {:<5} {}",
                m["move"].as_str().unwrap_or(""),
                m["result"].as_str().unwrap_or(""),
                m["score"]
            );
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
    let lines = batch_lines(file, a.first)?;
    let mut jobs = Vec::with_capacity(lines.len());
    for (n, line) in &lines {
        // The whole line as a position, or the line without its last word (the expected score).
        let parsed = match g.parse_position(line) {
            Ok(s) => (s, None),
            Err(e) => match line.rsplit_once(char::is_whitespace) {
                Some((pos, score)) if score.parse::<i32>().is_ok() => {
                    let s = g.parse_position(pos.trim()).map_err(|e| anyhow::anyhow!("{file} line {n}: {e}"))?;
                    (s, score.parse::<i32>().ok())
                }
                _ => bail!("{file} line {n}: {e}"),
            },
        };
        if g.is_terminal(&parsed.0) {
            bail!("{file} line {n}: the game is over in this position");
        }
        jobs.push((*n, parsed.0, parsed.1));
    }
    let bar = progress(jobs.len());
    let mut solver = GenericSolver::<G>::new(mib, a.weak);
    let mut results = Vec::new();
    let mut mismatches = Vec::new();
    let (mut sum_s, mut sum_n) = (0.0, 0u64);
    for (n, state, expected) in &jobs {
        let r = solver.solve(g, state);
        let (word, score) = generic_words(&r, a.weak);
        let want = expected.map(|e| if a.weak { e.signum() } else { e });
        let text = g.format_position(state);
        if want.is_some_and(|w| w != score) {
            mismatches.push(json!({"line": n, "position": text, "expected": want, "score": score}));
            bar.suspend(|| eprintln!("mismatch line {n}: {text}: expected {}, got {score}", want.unwrap_or(0)));
        }
        sum_s += r.seconds;
        sum_n += r.nodes;
        results.push(json!({
            "line": n, "position": text, "result": word, "score": score, "expected": want,
            "best_move": r.best_move.map(|m| g.format_move(state, m)), "nodes": r.nodes, "seconds": r.seconds,
        }));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let count = jobs.len().max(1) as f64;
    summary(a.json, file, jobs.len(), &mismatches, sum_s / count, sum_n as f64 / count, results, || json!({}))
}
