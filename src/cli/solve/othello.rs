//! `plateau solve` on Othello with its exact endgame solver ([`crate::games::othello::endgame`]): the final disc
//! difference under perfect play for the side to move (the empties going to the winner), or only win, draw or loss
//! with `--weak` (score 1, 0 or -1); `--batch FILE` takes lines `position [expected_score]` (plateau's position text
//! or the FFO/Edax form), `--analyze` the exact value of every move.

use anyhow::bail;
use serde_json::json;

use crate::game::{Game, MoveList};
use crate::games::othello::{EndgameSolver, Othello, OthelloState};
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
    let mut solver = EndgameSolver::new(mib);
    let start = std::time::Instant::now();
    let r = solver.solve(&g.geo, state.own, state.opp, a.weak);
    let seconds = start.elapsed().as_secs_f64();
    let best = r.best.map(|m| g.format_move(&state, m));
    let analysis = if a.analyze { analyze(g, &state, &mut solver, a.weak) } else { Vec::new() };
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

/// The exact value of every legal move: (move, score for the side to move, nodes).
fn analyze(g: &Othello, s: &OthelloState, solver: &mut EndgameSolver, weak: bool) -> Vec<(String, i32, u64)> {
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = *s;
            g.play(&mut c, m);
            let (score, nodes) = if g.is_terminal(&c) {
                let v = -g.final_score(&c);
                (if weak { v.signum() } else { v }, 0)
            } else {
                let r = solver.solve(&g.geo, c.own, c.opp, weak);
                (-r.score, r.nodes)
            };
            (g.format_move(s, m), score, nodes)
        })
        .collect()
}

/// A batch file: every position solved, compared with its expected score.
pub(super) fn run_batch(a: &SolveArgs, g: &Othello, mib: usize, file: &str) -> anyhow::Result<()> {
    let lines = batch::read_lines(file, a.first).map_err(anyhow::Error::msg)?;
    let jobs = batch::parse_positions(g, file, &lines).map_err(anyhow::Error::msg)?;
    let bar = super::progress(jobs.len());
    let mut solver = EndgameSolver::new(mib);
    let mut entries = Vec::with_capacity(jobs.len());
    for (n, state, expected) in &jobs {
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
    super::print_report(a.json, file, &Report::new(entries, false))
}
