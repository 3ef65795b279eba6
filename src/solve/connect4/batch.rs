//! What `plateau solve` runs on Connect Four: one position given as moves, or a batch file of move sequences (Pons's
//! benchmark files: `moves [expected_score]` per line). Every solve starts from a cleared table and is timed, the
//! score search apart from the best-move search. The 6x7 board runs on the compile-time [`Standard`] shape.

use std::time::Instant;

use crate::games::connect_four::{ConnectFour, Position, Shape, Standard};
use crate::solve::batch::{BestMoveCost, Entry, Report, expected_score};

use super::{Solver, result_word};

/// A solve and what it cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Timed {
    /// Pons's score (weak: -1, 0 or 1).
    pub score: i32,
    /// Best column (0-based).
    pub best_move: Option<u32>,
    /// Nodes and seconds of the score search.
    pub nodes: u64,
    pub seconds: f64,
    /// Nodes and seconds of the best-move search after it.
    pub best_move_nodes: u64,
    pub(crate) best_move_seconds: f64,
}

impl<S: Shape> Solver<S> {
    /// [`Solver::solve`], timed.
    pub(crate) fn solve_timed(&mut self, p: &Position, weak: bool) -> Timed {
        self.reset();
        let t = Instant::now();
        let score = self.score(p, weak);
        let seconds = t.elapsed().as_secs_f64();
        let nodes = self.nodes;
        let t = Instant::now();
        let best_move = self.best_move(p, score, weak);
        Timed {
            score,
            best_move,
            nodes,
            seconds,
            best_move_nodes: self.nodes - nodes,
            best_move_seconds: t.elapsed().as_secs_f64(),
        }
    }
}

/// Run `job` with a solver of `2^table_log2` entries on `board`: on [`Standard`] for 6x7, so that every mask folds
/// into a constant.
fn with_solver<R>(
    board: &ConnectFour,
    table_log2: u32,
    job: impl FnOnce(&mut dyn FnMut(&Position, bool) -> Timed) -> R,
) -> R {
    if board.is_standard() {
        let mut solver = Solver::with_table(Standard, table_log2);
        job(&mut |p, weak| solver.solve_timed(p, weak))
    } else {
        let mut solver = Solver::with_table(*board, table_log2);
        job(&mut |p, weak| solver.solve_timed(p, weak))
    }
}

/// Solve the position reached by `position` then `moves` (both move sequences, `start` or empty for the empty
/// board; on boards of at most 9 columns they are one digit string, spaced or not).
pub(crate) fn solve_one(
    board: &ConnectFour,
    table_log2: u32,
    position: Option<&str>,
    moves: Option<&str>,
    weak: bool,
) -> Result<(Position, Timed), String> {
    let text = format!("{} {}", position.unwrap_or(""), moves.unwrap_or(""));
    let text = text.trim();
    let text = if text == "start" || text == "startpos" { "" } else { text };
    let joined: String = if board.columns <= 9 {
        text.chars().filter(|c| !c.is_whitespace() && *c != ',').collect()
    } else {
        text.to_string()
    };
    let p = Position::from_moves(board, &joined).map_err(|e| format!("connect_four position: {e}"))?;
    Ok((p, with_solver(board, table_log2, |solve| solve(&p, weak))))
}

/// A line of a batch file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub line: usize,
    /// The moves as written.
    pub moves: String,
    pub position: Position,
    pub expected: Option<i32>,
}

/// Parse the lines of a batch file (`moves [expected_score]`), all of them before any solving: a malformed line is an
/// error that names the file and the line.
pub fn parse_batch<S: Shape>(g: &S, file: &str, lines: &[(usize, String)]) -> Result<Vec<Job>, String> {
    let mut jobs = Vec::with_capacity(lines.len());
    for (n, line) in lines {
        let mut words = line.split_whitespace();
        let moves = words.next().unwrap_or("");
        let expected = match words.next() {
            None => None,
            Some(w) => Some(w.parse::<i32>().map_err(|_| {
                format!("{file} line {n}: expected score '{w}' is not a whole number (line: '{line}')")
            })?),
        };
        if words.next().is_some() {
            return Err(format!("{file} line {n}: expected 'moves [score]', got '{line}'"));
        }
        let position = Position::from_moves(g, moves).map_err(|e| format!("{file} line {n}: '{moves}': {e}"))?;
        jobs.push(Job { line: *n, moves: moves.to_string(), position, expected });
    }
    Ok(jobs)
}

/// Solve every job in turn on `board` (one table of `2^table_log2` entries, cleared before each), calling `on_entry`
/// after each.
pub(crate) fn solve_batch(
    board: &ConnectFour,
    table_log2: u32,
    jobs: &[Job],
    weak: bool,
    mut on_entry: impl FnMut(&Entry),
) -> Report {
    with_solver(board, table_log2, |solve| {
        let mut entries = Vec::with_capacity(jobs.len());
        for job in jobs {
            let r = solve(&job.position, weak);
            let entry = Entry {
                line: job.line,
                position: job.moves.clone(),
                result: result_word(r.score),
                score: r.score,
                expected: expected_score(job.expected, weak),
                best_move: r.best_move.map(|c| (c + 1).to_string()),
                nodes: r.nodes,
                seconds: r.seconds,
                best_move_cost: Some(BestMoveCost { nodes: r.best_move_nodes, seconds: r.best_move_seconds }),
            };
            on_entry(&entry);
            entries.push(entry);
        }
        Report::new(entries, true)
    })
}
