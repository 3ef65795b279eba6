//! `othello-endgame`: Othello's exact endgame solver ([`crate::games::othello::endgame`]): the final disc difference
//! under perfect play for the side to move (the empties going to the winner), or only win, draw or loss with `--weak`
//! (score 1, 0 or -1); `--batch FILE` takes lines `position [expected_score]` (plateau's position text or the
//! FFO/Edax form), `--analyze` the exact value of every move. `--table FILE` keeps the table in a file from run to run,
//! `--max-seconds` stops a single position's solve with the bounds it proved.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::bail;

use crate::game::{Game, MoveList};
use crate::games::othello::{Bounds, EndgameSolver, Othello, OthelloState, StopAt};
use crate::solve::batch::{self, Entry, Report};
use crate::solve::report::{BatchReport, MoveValue, OthelloReport, SolveReport};
use crate::solve::request::{Progress, Request};

fn word(score: i32) -> &'static str {
    match score.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    }
}

/// One position, or a batch file.
pub fn solve(g: &Othello, req: &Request, progress: &mut dyn Progress) -> anyhow::Result<SolveReport> {
    if req.save_every.is_some() && req.table.is_none() {
        bail!("--save-every needs --table");
    }
    let mib = req.tt_mib().map_err(anyhow::Error::msg)?;
    match &req.batch {
        Some(file) => {
            for (flag, on) in [("--max-seconds", req.max_seconds.is_some()), ("--analyze", req.analyze)] {
                if on {
                    bail!("{flag} does not apply to a --batch file of the Othello endgame solver (one position only)");
                }
            }
            run_batch(req, g, mib, file, progress)
        }
        None => single(req, g, mib, progress),
    }
}

fn single(req: &Request, g: &Othello, mib: usize, progress: &mut dyn Progress) -> anyhow::Result<SolveReport> {
    let state = super::root(g, req)?;
    let mut solver = solver(req, g, mib)?;
    let start = Instant::now();
    let limits = StopAt {
        deadline: req.max_seconds.map(|s| start + Duration::from_secs_f64(s)),
        // With a table file, Ctrl-C / SIGTERM stop the solve, which reports its bounds (a second one ends the process).
        interrupt: req.table.is_some().then(crate::limits::catch_interrupt),
    };
    // Each pass of MTD(f) narrows the bounds; said once the solve has taken a second.
    let mut on_pass = |b: &Bounds| {
        let seconds = start.elapsed().as_secs_f64();
        if seconds >= 1.0 {
            let best = b.best.map(|m| format!(", best move {}", g.format_move(&state, m))).unwrap_or_default();
            progress.note(&format!("score in [{}, {}]{best} ({} nodes, {seconds:.1} s)", b.lower, b.upper, b.nodes));
        }
    };
    let outcome = solver.solve_until(&g.geo, state.own, state.opp, req.weak, limits, &mut on_pass);
    let seconds = start.elapsed().as_secs_f64();
    if let Some(e) = solver.save_error() {
        bail!("{e} (the solve stopped)");
    }
    solver.save().map_err(anyhow::Error::msg)?;
    let r = match outcome {
        Ok(r) => r,
        Err(b) => {
            // Ctrl-C / SIGTERM (caught with a table file only) or --max-seconds.
            let why = match crate::limits::interrupt_exit_code() {
                Some(_) => format!("interrupted ({})", crate::limits::interrupt_name()),
                None => "stopped by --max-seconds".to_string(),
            };
            let best = match b.best {
                Some(m) if b.lower > -64 => {
                    format!(", best move so far {} (scores at least {})", g.format_move(&state, m), b.lower)
                }
                _ => String::new(),
            };
            let kept = req
                .table
                .as_ref()
                .map(|f| format!("; {f} keeps what was proven: the same command goes on from it"))
                .unwrap_or_default();
            bail!(
                "not solved: {why} after {} nodes, {seconds:.1} s: the score is between {} and {}{best}{kept}",
                b.nodes,
                b.lower,
                b.upper
            );
        }
    };
    let moves = if req.analyze { Some(analyze(g, &state, &mut solver, req.weak, limits)?) } else { None };
    solver.save().map_err(anyhow::Error::msg)?;
    Ok(SolveReport::Othello(OthelloReport {
        game: g.spec(),
        position: g.format_position(&state),
        weak: req.weak,
        result: word(r.score),
        score: r.score,
        empties: g.empties(&state),
        best_move: r.best.map(|m| g.format_move(&state, m)),
        nodes: r.nodes,
        seconds,
        moves,
        display: g.display(&state),
    }))
}

/// The solver of `--tt` and `--table`.
fn solver(req: &Request, g: &Othello, mib: usize) -> anyhow::Result<EndgameSolver> {
    match &req.table {
        Some(f) => {
            let every = Duration::from_secs_f64(req.save_every.unwrap_or(600.0));
            EndgameSolver::with_file(&g.geo, Path::new(f), mib, Some(every)).map_err(anyhow::Error::msg)
        }
        None => Ok(EndgameSolver::new(mib)),
    }
}

/// The exact value of every legal move; an error when `limits` stop it.
fn analyze(
    g: &Othello,
    s: &OthelloState,
    solver: &mut EndgameSolver,
    weak: bool,
    limits: StopAt,
) -> anyhow::Result<Vec<MoveValue>> {
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
        out.push(MoveValue { mv: name, result: word(score), score, nodes });
    }
    Ok(out)
}

/// A batch file: every position solved, compared with its expected score.
fn run_batch(
    req: &Request,
    g: &Othello,
    mib: usize,
    file: &str,
    progress: &mut dyn Progress,
) -> anyhow::Result<SolveReport> {
    let lines = batch::read_lines(file, req.first).map_err(anyhow::Error::msg)?;
    let jobs = batch::parse_positions(g, file, &lines).map_err(anyhow::Error::msg)?;
    progress.batch_start(jobs.len());
    let mut solver = solver(req, g, mib)?;
    let mut entries = Vec::with_capacity(jobs.len());
    for (n, state, expected) in &jobs {
        // Each position from an empty table (node counts that do not depend on the order), unless the table is a
        // file: then it keeps everything.
        solver.clear();
        let start = Instant::now();
        let r = solver.solve(&g.geo, state.own, state.opp, req.weak);
        let e = Entry {
            line: *n,
            position: g.format_position(state),
            result: word(r.score),
            score: r.score,
            expected: batch::expected_score(*expected, req.weak),
            best_move: r.best.map(|m| g.format_move(state, m)),
            nodes: r.nodes,
            seconds: start.elapsed().as_secs_f64(),
            best_move_cost: None,
        };
        progress.entry(&e);
        entries.push(e);
    }
    progress.batch_end();
    solver.save().map_err(anyhow::Error::msg)?;
    Ok(SolveReport::Batch(BatchReport::new(file, &Report::new(entries, false))))
}
