//! The solver panel on Connect Four: Pons's score of every column, as his solver's page shows it, from any position
//! including the empty board.
//!
//! ```text
//! for each legal column m of the position P:
//!     if P+m is over                    score(m) := its exact value
//!     else if an exact book has (P, m)  score(m) := the book's proven value, converted back to Pons's score
//!     else                              score(m) := -solve(P+m) with the strong solver, at most C4_NODE_BUDGET nodes;
//!                                       "unknown (budget)" when the budget runs out
//! the position's score: the best column's, when every column is known (else a lower bound: the best known column)
//! ```
//!
//! The books are the exact ones built by the strong solver (`plateau book build connect_four --exact`, docs/book.md),
//! embedded in the binary: `connect-four-7x6-start.book` scores all seven first columns (the empty board takes the
//! solver minutes), `connect-four-7x6-exact.book` the lines of its depth-8 build. They apply to the 7x6 board only.

use std::sync::OnceLock;

use serde_json::{Value, json};

use super::ApiError;
use super::analysis::{At, resolve};
use crate::book::Book;
use crate::game::Capabilities;
use crate::game::{Game, MoveList, Outcome, WIN_SCORE};
use crate::games::ConnectFour;
use crate::games::connect_four::{Position, Shape, Standard};
use crate::solve::connect4::Solver;

/// Solver nodes per column before it is reported unknown (a few seconds for all seven columns in a release build).
pub const C4_NODE_BUDGET: u64 = 3_000_000;

const BOOKS: [&[u8]; 2] = [
    include_bytes!("../../books/connect-four-7x6-start.book"),
    include_bytes!("../../books/connect-four-7x6-exact.book"),
];

fn books() -> &'static [Book] {
    static LOADED: OnceLock<Vec<Book>> = OnceLock::new();
    LOADED.get_or_init(|| BOOKS.iter().filter_map(|b| Book::from_bytes(b).ok()).collect())
}

/// A proven book value (the move's value for the side to move at a position of `stones` stones, `WIN_SCORE - plies`
/// with plies counted from that position) as Pons's score: a win whose last stone is the board's T-th scores
/// (cells + 2 - T) / 2 (the inverse of `book::build::pons_to_value`).
fn book_to_pons(value: i32, stones: u32, cells: u32) -> i32 {
    if value == 0 {
        return 0;
    }
    let plies = WIN_SCORE - value.abs();
    let end = stones as i32 + plies;
    let s = (cells as i32 + 2 - end) / 2;
    if value > 0 { s } else { -s }
}

/// The score of `p` for its side to move, or None when the budget ran out.
fn solve<S: Shape>(solver: &mut Solver<S>, p: &Position) -> (Option<i32>, u64) {
    solver.reset();
    solver.set_node_limit(Some(C4_NODE_BUDGET));
    let s = solver.score(p, false);
    (if solver.stopped() { None } else { Some(s) }, solver.nodes)
}

pub fn verdict(g: &ConnectFour, at: &At) -> Result<Value, ApiError> {
    let board = crate::solve::connect4::board(g.rows, g.columns).map_err(ApiError::bad)?;
    let state = resolve(g, at)?;
    if g.is_terminal(&state) {
        return Err(ApiError::bad("the game is over in this position"));
    }
    let cells = board.cells();
    let stones = state.pos.plies;
    let mut booked = Vec::new();
    if board.is_standard() {
        for b in books() {
            booked.extend(b.moves(g, &state).into_iter().filter(|(_, e)| e.exact()));
        }
    }
    let mut standard = board.is_standard().then(|| Solver::with_table(Standard, 20));
    let mut other = (!board.is_standard()).then(|| Solver::with_table(board, 20));
    let mut moves = MoveList::new();
    g.generate_moves(&state, &mut moves);
    let (mut each, mut nodes, mut unknown) = (Vec::new(), 0, 0);
    for &m in &moves {
        let mut c = state;
        g.play(&mut c, m);
        let (score, source) = if let Some(o) = g.outcome_for(&c, g.side_to_move(&state)) {
            (Some(if o == Outcome::Win { (cells as i32 + 1 - stones as i32) / 2 } else { 0 }), "end")
        } else if let Some((_, e)) = booked.iter().find(|(bm, _)| *bm == m) {
            (Some(book_to_pons(e.score, stones, cells)), "book")
        } else {
            let (s, n) = match (&mut standard, &mut other) {
                (Some(solver), _) => solve(solver, &c.pos),
                (_, Some(solver)) => solve(solver, &c.pos),
                _ => unreachable!("one solver is built"),
            };
            nodes += n;
            (s.map(|s| -s), "solver")
        };
        let word = match score {
            None => "unknown",
            Some(s) if s > 0 => "win",
            Some(s) if s < 0 => "loss",
            Some(_) => "draw",
        };
        unknown += usize::from(score.is_none());
        let mut e = json!({ "move": g.format_move(&state, m), "result": word, "source": source });
        if let Some(s) = score {
            e["score"] = json!(s);
        } else {
            e["budget"] = json!(C4_NODE_BUDGET);
        }
        each.push(e);
    }
    let best = each.iter().filter(|e| e["score"].is_i64()).max_by_key(|e| e["score"].as_i64()).cloned();
    let complete = unknown == 0;
    Ok(json!({
        "solver": "connect four (Pons)",
        "result": if complete { best.as_ref().map(|b| b["result"].clone()) } else { None },
        "score": if complete { best.as_ref().map(|b| b["score"].clone()) } else { None },
        "best_move": if complete { best.as_ref().map(|b| b["move"].clone()) } else { None },
        "at_least": best.as_ref().map(|b| b["score"].clone()),
        "unknown_moves": unknown, "moves": each, "nodes": nodes, "node_budget_per_move": C4_NODE_BUDGET,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search out of budget says so; with the budget it needs, the same solver gives the unlimited score.
    #[test]
    fn the_node_limit_stops_the_solver_and_reset_clears_it() {
        let board = crate::solve::connect4::board(6, 7).unwrap();
        let p = Position::from_moves(&board, "4444335").unwrap();
        let mut solver = Solver::with_table(Standard, 16);
        solver.set_node_limit(Some(100));
        solver.score(&Position::from_moves(&board, "").unwrap(), false);
        assert!(solver.stopped());
        solver.reset();
        solver.set_node_limit(None);
        let exact = solver.score(&p, false);
        assert!(!solver.stopped());
        let needed = solver.nodes;
        solver.reset();
        solver.set_node_limit(Some(needed));
        assert_eq!((solver.score(&p, false), solver.stopped()), (exact, false));
    }

    /// The conversion inverts `book::build::pons_to_value` on every score and position size of the 7x6 board.
    #[test]
    fn book_values_convert_back_to_pons_scores() {
        for stones in 0..41u32 {
            let max = (42 + 1 - stones as i32) / 2;
            for score in -max..=max {
                let v = crate::book::build::pons_to_value(score, stones, 42);
                assert_eq!(book_to_pons(v, stones, 42), score, "score {score} at {stones} stones");
                // The book stores it one ply earlier, as the parent's move (book::build::parent_score).
                if stones > 0 {
                    let parent = crate::book::build::parent_score(v);
                    assert_eq!(book_to_pons(parent, stones - 1, 42), -score, "parent of {score} at {stones}");
                }
            }
        }
    }
}
