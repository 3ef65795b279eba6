//! The solver panel on Connect Four: Pons's score of every column, as his solver's page shows it, from any position
//! including the empty board.
//!
//! ```text
//! for each legal column m of the position P:
//!     if P+m is over                    score(m) := its exact value
//!     else if an exact book has (P, m)  score(m) := the book's proven value, converted back to Pons's score
//!       or (mirror(P), mirror(m))       (the books hold one of a position and its mirror image)
//!     else if P is its own mirror image score(m) := score(mirror(m)) when that column is already known
//!       and mirror(m) is known
//!     else                              score(m) := -solve(P+m) with the strong solver, at most C4_NODE_BUDGET nodes;
//!                                       "unknown" when the budget runs out or the verdict is stopped
//!     plies(m) := the distance to the end the score means (Pons's score counts the winner's stones)
//! the position's score: the best column's, when every column is known (else a lower bound: the best known column)
//! ```
//!
//! The book, end and mirror cells come first (at once), then the solver's, each reported as it is decided.
//!
//! The books are the exact ones built by the strong solver (`plateau book build connect_four --exact`, docs/book.md),
//! embedded in the binary: `connect-four-7x6-start.book` scores all seven first columns (the empty board takes the
//! solver minutes), `connect-four-7x6-exact.book` the lines of its depth-8 build. They apply to the 7x6 board only.

use std::sync::OnceLock;

use serde_json::{Value, json};

use super::ApiError;
use super::analysis::{At, resolve};
use super::verdict::{Watch, unknown_cell};
use crate::book::Book;
use crate::game::Capabilities;
use crate::game::{Game, MoveList, Outcome, WIN_SCORE};
use crate::games::ConnectFour;
use crate::games::connect_four::{Position, Shape, Standard};
use crate::solve::connect4::Solver;

/// Solver nodes per column before it is reported unknown (seconds in a release build; the verdict's ceiling and its
/// Cancel stop it sooner).
pub const C4_NODE_BUDGET: u64 = 20_000_000;

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

/// The score of `p` for its side to move, or None when the budget ran out or the verdict was stopped.
fn solve<S: Shape>(solver: &mut Solver<S>, p: &Position) -> (Option<i32>, u64) {
    solver.reset();
    solver.set_node_limit(Some(C4_NODE_BUDGET));
    let s = solver.score(p, false);
    (if solver.stopped() { None } else { Some(s) }, solver.nodes)
}

/// The plies to the end (from the position of `stones` stones, the move counted) of a move scored `score` by Pons's
/// rule (see [`book_to_pons`]): the win's last stone is the `cells + 2 - 2|score|`-th or the one before, whichever
/// the winner plays (an odd number of plies when the mover wins, even when the opponent does); None for a draw.
fn pons_plies(score: i32, stones: u32, cells: u32) -> Option<u32> {
    if score == 0 {
        return None;
    }
    let plies = cells as i32 + 2 - 2 * score.abs() - stones as i32;
    let odd = plies % 2 != 0;
    Some(if odd == (score > 0) { plies } else { plies - 1 }.max(1) as u32)
}

/// Every column's score; a column whose mirror image (in a symmetric position) is solved takes its score.
pub fn verdict(g: &ConnectFour, at: &At, w: &Watch) -> Result<Value, ApiError> {
    let board = crate::solve::connect4::board(g.rows, g.columns).map_err(ApiError::bad)?;
    let state = resolve(g, at)?;
    if g.is_terminal(&state) {
        return Err(ApiError::bad("the game is over in this position"));
    }
    let cells = board.cells();
    let stones = state.pos.plies;
    // The books hold a position or its mirror image: look up both (a move of the image is mirrored back).
    let image = g.mirror_state(&state);
    let symmetric = image.pos == state.pos;
    let mut booked = Vec::new();
    if board.is_standard() {
        for b in books() {
            booked.extend(b.moves(g, &state).into_iter().filter(|(_, e)| e.exact()));
            if !symmetric {
                let mirrored = b.moves(g, &image).into_iter().map(|(m, e)| (g.mirror_move(m), e));
                booked.extend(mirrored.filter(|(_, e)| e.exact()));
            }
        }
    }
    let mut standard = board.is_standard().then(|| Solver::with_table(Standard, 20));
    let mut other = (!board.is_standard()).then(|| Solver::with_table(board, 20));
    for s in standard.iter_mut() {
        s.set_stop(Some(w.stop.clone()));
    }
    for s in other.iter_mut() {
        s.set_stop(Some(w.stop.clone()));
    }
    let mut moves = MoveList::new();
    g.generate_moves(&state, &mut moves);
    // Book, end and mirror cells first (at once), then the solver's, centre first.
    let quick = |m: &u8| {
        let mut c = state;
        g.play(&mut c, *m);
        g.is_terminal(&c) || booked.iter().any(|(bm, _)| bm == m)
    };
    let mut order: Vec<u8> = moves.iter().copied().filter(quick).collect();
    order.extend(moves.iter().copied().filter(|m| !quick(m)));
    let (mut each, mut nodes): (Vec<(u8, Value)>, u64) = (Vec::new(), 0);
    for m in order {
        let mut c = state;
        g.play(&mut c, m);
        let twin = each.iter().find(|(t, e)| symmetric && g.mirror_move(m) == *t && e["score"].is_i64());
        let (score, source) = if let Some(o) = g.outcome_for(&c, g.side_to_move(&state)) {
            (Some(if o == Outcome::Win { (cells as i32 + 1 - stones as i32) / 2 } else { 0 }), "end")
        } else if let Some((_, e)) = booked.iter().find(|(bm, _)| *bm == m) {
            (Some(book_to_pons(e.score, stones, cells)), "book")
        } else if let Some((_, e)) = twin {
            (e["score"].as_i64().map(|s| s as i32), "mirror")
        } else if w.stopped() {
            (None, "solver")
        } else {
            let (s, n) = match (&mut standard, &mut other) {
                (Some(solver), _) => solve(solver, &c.pos),
                (_, Some(solver)) => solve(solver, &c.pos),
                _ => unreachable!("one solver is built"),
            };
            nodes += n;
            (s.map(|s| -s), "solver")
        };
        let mv = g.format_move(&state, m);
        let e = match score {
            None => {
                let mut e = unknown_cell(mv, w);
                e["budget"] = json!(C4_NODE_BUDGET);
                e
            }
            Some(s) => {
                let word = match s {
                    s if s > 0 => "win",
                    s if s < 0 => "loss",
                    _ => "draw",
                };
                let mut e = json!({ "move": mv, "result": word, "source": source, "score": s });
                if let Some(p) = pons_plies(s, stones, cells) {
                    e["plies"] = json!(p);
                }
                if source == "mirror" {
                    e["mirror_of"] = json!(g.format_move(&state, g.mirror_move(m)));
                }
                e
            }
        };
        w.cell(&e, each.len() + 1, moves.len());
        each.push((m, e));
    }
    // Board order, as Pons's page shows them.
    each.sort_by_key(|(m, _)| *m);
    let each: Vec<Value> = each.into_iter().map(|(_, e)| e).collect();
    let unknown = each.iter().filter(|e| e["result"] == "unknown").count();
    let best = each.iter().filter(|e| e["score"].is_i64()).max_by_key(|e| e["score"].as_i64()).cloned();
    let complete = unknown == 0;
    let field = |k: &str| if complete { best.as_ref().map(|b| b[k].clone()) } else { None };
    Ok(json!({
        "solver": "connect four (Pons)",
        "result": field("result"), "score": field("score"), "best_move": field("move"), "plies": field("plies"),
        "at_least": best.as_ref().map(|b| b["score"].clone()), "symmetric": symmetric,
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
