//! Heuristic evaluations and the search's score scale: wins and losses by their distance, heuristic values well inside.

use super::{Game, Outcome};

/// A heuristic evaluation: a score from the side to move's point of view, higher is better, well inside
/// `(-WIN_SCORE/2, WIN_SCORE/2)`.
///
/// An evaluation may also carry something from a position to its children so that a child costs less than a
/// position evaluated from scratch (an NNUE's accumulators): the engine's search keeps one [`Evaluator::Carry`] per
/// ply, sets the root's with [`Evaluator::carry`], each child's with [`Evaluator::carry_move`] from its parent's, and
/// asks [`Evaluator::evaluate_carried`]. Evaluations that carry nothing say `type Carry = ();` and keep the defaults.
pub trait Evaluator<G: Game>: Send + Sync {
    /// What a position's evaluation carries to its children (`()`: nothing).
    type Carry: Clone + Default + Send;

    /// The value of the non-terminal `state` for its side to move.
    fn evaluate(&self, game: &G, state: &G::State) -> i32;

    /// The carry of `state`, computed from scratch.
    #[inline]
    fn carry(&self, game: &G, state: &G::State, out: &mut Self::Carry) {
        let _ = (game, state, out);
    }

    /// The carry of the position after `m` in `state`, from `parent` (the carry of `state`); `state` is the position
    /// before the move.
    #[inline]
    fn carry_move(&self, game: &G, state: &G::State, m: G::Move, parent: &Self::Carry, child: &mut Self::Carry) {
        let _ = (game, state, m, parent, child);
    }

    /// [`Evaluator::evaluate`] given the carry of `state` (the same value, faster where the carry helps).
    #[inline]
    fn evaluate_carried(&self, game: &G, state: &G::State, carry: &Self::Carry) -> i32 {
        let _ = carry;
        self.evaluate(game, state)
    }

    /// The value's named terms, for `plateau eval`: each term's feature (usually own minus opponent's) and what it adds
    /// to the value, from the side to move's point of view. Their values add up to [`Evaluator::evaluate`]'s (up to
    /// the rounding of a phase blend). Empty where the evaluation is not a sum of named terms.
    fn terms(&self, game: &G, state: &G::State) -> Vec<Term> {
        let _ = (game, state);
        Vec::new()
    }
}

/// One named term of an evaluation (see [`Evaluator::terms`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Term {
    pub name: String,
    /// The term's feature: a count or a difference of counts (own minus opponent's).
    pub feature: i32,
    /// What the term adds to the value (its weight times the feature).
    pub value: i32,
}

impl Term {
    /// A term named `name`: the feature's count and its contribution to the score.
    pub fn new(name: impl Into<String>, feature: i32, value: i32) -> Term {
        Term { name: name.into(), feature, value }
    }
}

/// The phase blend of one feature: `(mg * f * phase + eg * f * (256 - phase)) / 256`.
pub(crate) fn blend(mg: i32, eg: i32, feature: i32, phase: i32) -> i32 {
    ((mg as i64 * feature as i64 * phase as i64 + eg as i64 * feature as i64 * (256 - phase) as i64) / 256) as i32
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
pub(crate) fn describe_score(score: i32) -> String {
    if score >= WIN_THRESHOLD {
        format!("win in {}", WIN_SCORE - score)
    } else if score <= -WIN_THRESHOLD {
        format!("loss in {}", WIN_SCORE + score)
    } else {
        score.to_string()
    }
}
