//! Qubic's evaluation, from the side to move's point of view: every line still open for a side (no enemy stone on it)
//! counts by how many of its cells that side still lacks (16, 4, 1 points when one, two, three are missing), and the
//! opponent's open lines count against; the side to move gets a small bonus for the tempo. The 16 cells on 7 lines (the
//! 8 corners and the 8 centre cells) are the strong ones, which the line count already favours.

use super::{Qubic, QubicState};
use crate::game::Evaluator;

/// Points for an open line missing 1, 2 or 3 stones (index: the number missing; a line with no stone counts 0).
const WEIGHTS: [i32; 4] = [0, 16, 4, 1];
/// The side to move's bonus (it moves first on the lines both hold).
const TEMPO: i32 = 2;

/// The open-lines evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct QubicEval;

impl Evaluator<Qubic> for QubicEval {
    type Carry = ();

    fn evaluate(&self, g: &Qubic, s: &QubicState) -> i32 {
        let (own, opp) = s.own_opp();
        let n = g.n;
        let points = |stones: u32| if stones == 0 { 0 } else { WEIGHTS[(n - stones).min(3) as usize] };
        let mut score = TEMPO;
        for &l in g.lines() {
            let (mine, theirs) = ((l & own).count_ones(), (l & opp).count_ones());
            if theirs == 0 {
                score += points(mine);
            } else if mine == 0 {
                score -= points(theirs);
            }
        }
        score
    }
}
