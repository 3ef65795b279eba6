//! `plateau solve` on Othello with its exact endgame solver ([`crate::games::othello::endgame`]): the final disc
//! difference under perfect play for the side to move (the empties going to the winner), or only win, draw or loss
//! with `--weak` (score 1, 0 or -1); `--batch FILE` takes lines `position [expected_score]` (plateau's position text
//! or the FFO/Edax form), `--analyze` the exact value of every move. `--table FILE` keeps the table in a file from run
//! to run, `--max-seconds` stops a single position's solve with the bounds it proved.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::bail;
use serde_json::json;

use crate::game::{Game, MoveList};
use crate::games::othello::{Bounds, EndgameSolver, Limits, Othello, OthelloState};
use crate::solve::batch::{self, Entry, Report};

use super::SolveArgs;

fn word(score: i32) -> &'static str {
    match score.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    }
}

/// One position.
pub(super) fn single(a: &SolveArgs, g: &Othello, mib: usize) -> anyhow::Result<()> {
    let state = crate::cli::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
    if let Some(o) = g.outcome(&state) {
        bail!("the game is over in this position ({o:?} for the side to move): there is nothing to solve");
    }
    let mut solver = solver(a, g, mib)?;
    let start = Instant::now();
    let limits = Limits {
        deadline: a.max_seconds.map(|s| start + Duration::from_secs_f64(s)),
        // With a table file, Ctrl-C / SIGTERM stop the solve, which reports its bounds (a second one ends the process).
        interrupt: a.table.is_some().then(crate::limits::catch_interrupt),
    };
    // Each pass of MTD(f) narrows the bounds; said on stderr once the solve has taken a second.
    let mut on_pass = |b: &Bounds| {
        let seconds = start.elapsed().as_secs_f64();
        if seconds >= 1.0 {
            let best = b.best.map(|m| format!(", best move {}", g.format_move(&state, m))).unwrap_or_default();
            eprintln!("score in [{}, {}]{best} ({} nodes, {seconds:.1} s)", b.lower, b.upper, b.nodes);
        }
    };
    let outcome = solver.solve_until(&g.geo, state.own, state.opp, a.weak, limits, &mut on_pass);
    let seconds = start.elapsed().as_secs_f64();
    if let Some(e) = solver.save_error() {
        bail!("{e} (the solve stopped)");
    }
    solver.save().map_err(anyhow::Error::msg)?;
    let r = match outcome {
        Ok(r) => r,
        Err(b) => {
            let why = if seconds >= a.max_seconds.unwrap_or(f64::INFINITY) { "--max-seconds" } else { "an interrupt" };
            let best = match b.best {
                Some(m) if b.lower > -64 => {
                    format!(", best move so far {} (scores at least {})", g.format_move(&state, m), b.lower)
                }
                _ => String::new(),
            };
            let kept = a
                .table
                .as_ref()
                .map(|f| format!("; {f} keeps what was proven: the same command goes on from it"))
                .unwrap_or_default();
            bail!(
                "not solved: stopped by {why} after {} nodes, {seconds:.1} s: the score is between {} and {}{best}{kept}",
                b.nodes,
                b.lower,
                b.upper
            );
        }
    };
    let best = r.best.map(|m| g.format_move(&state, m));
    let analysis = if a.analyze { analyze(g, &state, &mut solver, a.weak, limits)? } else { Vec::new() };
    solver.save().map_err(anyhow::Error::msg)?;
    if a.json {
        let mut doc = json!({
            "game": g.spec(), "position": g.format_position(&state), "weak": a.weak, "result": word(r.score),
            "score": r.score, "empties": g.empties(&state), "best_move": best, "nodes": r.nodes, "seconds": seconds,
        });
        if a.analyze {
            let moves = analysis.iter().map(|(m, s, n)| json!({"move": m, "result": word(*s), "score": s, "nodes": n}));
            doc["moves"] = serde_json::Value::Array(moves.collect());
        }
        super::super::print_json(&doc);
    } else {
        for (m, s, _) in &analysis {
            println!("move {m:<8} {:<5} {s}", word(*s));
        }
        println!("{}", g.display(&state));
        println!("result     {}", word(r.score));
        println!("score      {} (final disc difference for the side to move, empties to the winner)", r.score);
        println!("best move  {}", best.unwrap_or_else(|| "-".into()));
        println!("nodes      {}", r.nodes);
        println!("seconds    {seconds:.6}");
    }
    Ok(())
}

/// The solver of `--tt` and `--table`.
fn solver(a: &SolveArgs, g: &Othello, mib: usize) -> anyhow::Result<EndgameSolver> {
    match &a.table {
        Some(f) => {
            let every = Duration::from_secs_f64(a.save_every.unwrap_or(600.0));
            EndgameSolver::with_file(&g.geo, Path::new(f), mib, Some(every)).map_err(anyhow::Error::msg)
        }
        None => Ok(EndgameSolver::new(mib)),
    }
}

/// The exact value of every legal move: (move, score for the side to move, nodes); an error when `limits` stop it.
fn analyze(
    g: &Othello,
    s: &OthelloState,
    solver: &mut EndgameSolver,
    weak: bool,
    limits: Limits,
) -> anyhow::Result<Vec<(String, i32, u64)>> {
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        let mut c = *s;
        g.play(&mut c, m);
        let name = g.format_move(s, m);
        let (score, nodes) = if g.is_terminal(&c) {
            let v = -g.final_score(&c);
            (if weak { v.signum() } else { v }, 0)
        } else {
            match solver.solve_until(&g.geo, c.own, c.opp, weak, limits, &mut |_| {}) {
                Ok(r) => (-r.score, r.nodes),
                Err(b) => bail!(
                    "--analyze not finished: stopped while solving move {name}, whose score is between {} and {}",
                    -b.upper,
                    -b.lower
                ),
            }
        };
        out.push((name, score, nodes));
    }
    Ok(out)
}

/// A batch file: every position solved, compared with its expected score.
pub(super) fn run_batch(a: &SolveArgs, g: &Othello, mib: usize, file: &str) -> anyhow::Result<()> {
    let lines = batch::read_lines(file, a.first).map_err(anyhow::Error::msg)?;
    let jobs = batch::parse_positions(g, file, &lines).map_err(anyhow::Error::msg)?;
    let bar = super::progress(jobs.len());
    let mut solver = solver(a, g, mib)?;
    let mut entries = Vec::with_capacity(jobs.len());
    for (n, state, expected) in &jobs {
        // Each position from an empty table (node counts that do not depend on the order), unless the table is a
        // file: then it keeps everything.
        solver.clear();
        let start = std::time::Instant::now();
        let r = solver.solve(&g.geo, state.own, state.opp, a.weak);
        let e = Entry {
            line: *n,
            position: g.format_position(state),
            result: word(r.score),
            score: r.score,
            expected: batch::expected_score(*expected, a.weak),
            best_move: r.best.map(|m| g.format_move(state, m)),
            nodes: r.nodes,
            seconds: start.elapsed().as_secs_f64(),
            best_move_cost: None,
        };
        super::entry_done(&bar, &e);
        entries.push(e);
    }
    bar.finish_and_clear();
    solver.save().map_err(anyhow::Error::msg)?;
    super::print_report(a.json, file, &Report::new(entries, false))
}
