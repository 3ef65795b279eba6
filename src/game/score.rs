//! Heuristic evaluations and the search's score scale: wins and losses by their distance, heuristic values well inside.

use super::{Game, Outcome};

/// A heuristic evaluation: a score from the side to move's point of view, higher is better, well inside
/// `(-WIN_SCORE/2, WIN_SCORE/2)`.
pub trait Evaluator<G: Game>: Send + Sync {
    fn evaluate(&self, game: &G, state: &G::State) -> i32;
}

/// One named term of a game's `Default` evaluation, for display (`plateau search --json` lists them as `eval_terms`):
/// each player's count and the weight of one unit, so that the term adds `weight * (first - second)` from the first
/// player's point of view.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EvalTerm {
    pub name: &'static str,
    pub first: i32,
    pub second: i32,
    pub weight: i32,
}

/// Score of a won game at the root; a win in `n` plies scores `WIN_SCORE - n`.
pub const WIN_SCORE: i32 = 1_000_000;
/// Scores at or beyond this magnitude are proven wins or losses.
pub const WIN_THRESHOLD: i32 = WIN_SCORE - 10_000;

/// The search value of a terminal state reached `ply` plies below the root, from its side to move's point of view.
/// Faster wins score higher, slower losses score higher.
pub fn outcome_score(outcome: Outcome, ply: u32) -> i32 {
    match outcome {
        Outcome::Win => WIN_SCORE - ply as i32,
        Outcome::Loss => -WIN_SCORE + ply as i32,
        Outcome::Draw => 0,
        Outcome::Value(v) => v,
    }
}

/// Human text for a score: `win in 7`, `loss in 4`, or the number.
pub fn describe_score(score: i32) -> String {
    if score >= WIN_THRESHOLD {
        format!("win in {}", WIN_SCORE - score)
    } else if score <= -WIN_THRESHOLD {
        format!("loss in {}", WIN_SCORE + score)
    } else {
        score.to_string()
    }
}
