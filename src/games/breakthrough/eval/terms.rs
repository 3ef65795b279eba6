//! The named terms of Breakthrough's evaluations (`plateau eval`), from the side to move's point of view: each feature
//! (own minus opponent's unless named `own_` or `opp_`) and what it adds to the value after the phase blend.

use crate::game::{Side, Term, score::blend};
use crate::games::breakthrough::{Breakthrough, BtState};

use super::{BtEvaluator, NtEvaluator, PstEvaluator, features, pst};

/// `simple`: 100 per piece (material) and `4a^2` for a piece `a` rows from its home row (advancement).
pub fn simple(g: &Breakthrough, s: &BtState) -> Vec<Term> {
    let (mut pieces, mut advance) = (0i32, 0i32);
    for (sign, side, mut b) in [(1, Side::First, s.white), (-1, Side::Second, s.black)] {
        while b != 0 {
            let sq = b.trailing_zeros();
            b &= b - 1;
            let row = sq / g.columns;
            let adv = if side == Side::First { row } else { g.rows - 1 - row };
            pieces += sign;
            advance += sign * (adv * adv) as i32;
        }
    }
    let me = if s.stm == Side::First { 1 } else { -1 };
    vec![
        Term::new("material (100 per piece)", me * pieces, me * 100 * pieces),
        Term::new("advancement (4 a^2)", me * advance, me * 4 * advance),
    ]
}

/// `tuned` and `hand`: the features of [`features`], blended by phase.
pub(crate) fn features(e: &BtEvaluator, g: &Breakthrough, s: &BtState) -> Vec<Term> {
    let x = e.features(g, s);
    (0..features::N_FEATURES)
        .map(|i| Term::new(features::NAMES[i], x.f[i], blend(e.mg[i], e.eg[i], x.f[i], x.phase)))
        .collect()
}

/// `pst`: the table entries the position uses, then the other features.
pub fn pst(e: &PstEvaluator, g: &Breakthrough, s: &BtState) -> Vec<Term> {
    let x = e.features(g, s);
    (0..pst::N)
        .filter(|&i| i >= pst::PST_N || x.f[i] != 0)
        .map(|i| Term::new(pst::name(i), x.f[i] as i32, blend(e.mg[i], e.eg[i], x.f[i] as i32, x.phase)))
        .collect()
}

/// `nt`: the `pst` terms and the pattern table's sum.
pub fn nt(e: &NtEvaluator, g: &Breakthrough, s: &BtState) -> Vec<Term> {
    let mut out = pst(&e.pst, g, s);
    let listed: i32 = out.iter().map(|t| t.value).sum();
    out.push(Term::new("patterns (2x3 windows)", 0, e.evaluate(g, s) - listed));
    out
}

#[cfg(test)]
mod tests {
    use super::super::BtEval;
    use super::*;
    use crate::game::Capabilities;
    use crate::game::{Evaluator, Game};

    #[test]
    fn terms_add_up_to_the_value() {
        for game in [Breakthrough::default(), Breakthrough::new(6, 5, 2, false, false).unwrap()] {
            let mut s = game.start();
            let mut rng = rand::rng();
            for _ in 0..12 {
                for name in super::super::NAMES {
                    let e = BtEval::named(&game, name).unwrap();
                    let sum: i32 = e.terms(&game, &s).iter().map(|t| t.value).sum();
                    let v = e.evaluate(&game, &s);
                    assert!((sum - v).abs() <= 40, "{name}: terms {sum} vs value {v}");
                    if *name == "simple" {
                        assert_eq!(sum, v, "{name}");
                    }
                }
                match game.random_move(&s, &mut rng) {
                    Some(m) => game.play(&mut s, m),
                    None => break,
                }
            }
        }
    }
}
