//! Backgammon's hand-made evaluation, bounded: always strictly inside `-EVAL_BOUND..EVAL_BOUND` (1000, the value of
//! one point in [`super::POINT`] units), from the side to move's point of view (at a roll, the player about to roll).
//!
//! ```text
//! raw = sum over features f of  w_f * (f(side to move) - f(opponent))        (+ on_roll for the player about to roll)
//! value = EVAL_BOUND * raw / (|raw| + squash)                                 (monotone, |value| < EVAL_BOUND)
//! ```
//!
//! Features of a side ([`features`]): its pip count (lower is better), borne-off checkers, checkers on the bar, and,
//! while the sides are in contact (some checker still has to pass an opposing one), blots, made points, made points in
//! the home board, the longest prime (consecutive made points) and anchors (made points in the opponent's home
//! board). In a pure race only the pips, the borne-off checkers and the roll count. The weights are [`Weights`]: hand
//! set in [`HAND`] (the evaluation `simple`), fitted to self-play results in [`TUNED`] (`tuned`, `tuned_weights.rs`,
//! written by `plateau tune backgammon`: `train/bg_fit.rs`).

use super::board::{BAR, Checkers, LOW_BITS, count, made, nibbles, occupied, pips};
use super::{Backgammon, BgState, phase};
use crate::game::Evaluator;

/// The evaluation's bound: every value is strictly between `-EVAL_BOUND` and `EVAL_BOUND`.
pub(crate) const EVAL_BOUND: i32 = 1000;

/// The weights of the features, in raw units (one pip of the pip count is worth `pip`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per pip of the opponent's pip count minus one's own.
    pub(crate) pip: i32,
    /// Per checker borne off.
    pub off: i32,
    /// Per checker on the bar (negative).
    pub bar: i32,
    /// Per blot while in contact (negative).
    pub blot: i32,
    /// Per made point outside the home board while in contact.
    pub point: i32,
    /// Per made point in the home board while in contact.
    pub(crate) home_point: i32,
    /// Per point of the longest prime beyond the first, while in contact.
    pub(crate) prime: i32,
    /// Per anchor (a made point in the opponent's home board) while in contact.
    pub anchor: i32,
    /// For the player about to roll (the tempo of a roll, about four pips).
    pub(crate) on_roll: i32,
    /// The raw value that maps to half the bound.
    pub(crate) squash: i32,
}

pub(crate) use super::tuned_weights::TUNED;

/// The number of weights that multiply a term (all but `squash`).
pub(crate) const N_TERMS: usize = 9;
/// Their names, in the order of [`Weights::terms`] and [`terms`].
pub(crate) const TERM_NAMES: [&str; N_TERMS] =
    ["pip", "off", "bar", "blot", "point", "home_point", "prime", "anchor", "on_roll"];

impl Weights {
    /// The weights of [`terms`], in the order of [`TERM_NAMES`].
    pub fn terms(&self) -> [i32; N_TERMS] {
        [self.pip, self.off, self.bar, self.blot, self.point, self.home_point, self.prime, self.anchor, self.on_roll]
    }

    /// Weights from [`Weights::terms`]'s order and a squash.
    pub(crate) fn from_terms(w: [i32; N_TERMS], squash: i32) -> Weights {
        let [pip, off, bar, blot, point, home_point, prime, anchor, on_roll] = w;
        Weights { pip, off, bar, blot, point, home_point, prime, anchor, on_roll, squash }
    }
}

/// The hand-set weights.
pub(crate) const HAND: Weights = Weights {
    pip: 10,
    off: 12,
    bar: -40,
    blot: -25,
    point: 15,
    home_point: 30,
    prime: 25,
    anchor: 25,
    on_roll: 40,
    squash: 600,
};

/// One side's feature values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Features {
    pub pips: i32,
    pub off: i32,
    pub bar: i32,
    pub(crate) blots: i32,
    pub points: i32,
    pub(crate) home_points: i32,
    pub(crate) prime: i32,
    pub(crate) anchors: i32,
}

/// The highest occupied nibble of a side (25 = the bar), 0 when all are off.
fn back(side: Checkers) -> usize {
    let occ = occupied(side) & !1;
    if occ == 0 { 0 } else { (127 - occ.leading_zeros() as usize) / 4 }
}

/// Whether some checker must still pass an opposing one.
pub(crate) fn contact(a: Checkers, b: Checkers) -> bool {
    back(a) + back(b) > 25
}

/// The longest run of consecutive bits among the nibbles' low bits of `mask` (points 1..24).
fn longest_run(mask: u128) -> i32 {
    let mut best = 0;
    let mut run = 0;
    for p in 1..=24 {
        if mask >> (4 * p) & 1 != 0 {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// The features of `side`.
pub(crate) fn features(side: Checkers) -> Features {
    let points = made(side) & nibbles(1, 24) & LOW_BITS;
    let singles = occupied(side) & !made(side) & nibbles(1, 24) & LOW_BITS;
    Features {
        pips: pips(side) as i32,
        off: count(side, 0) as i32,
        bar: count(side, BAR) as i32,
        blots: singles.count_ones() as i32,
        points: (points & !nibbles(1, 6)).count_ones() as i32,
        home_points: (points & nibbles(1, 6)).count_ones() as i32,
        prime: longest_run(points),
        anchors: (points & nibbles(19, 24)).count_ones() as i32,
    }
}

/// The raw score of `me` against `op` (before squashing; no roll bonus).
pub fn raw(w: &Weights, me: Checkers, op: Checkers) -> i32 {
    let (a, b) = (features(me), features(op));
    let mut r = w.pip * (b.pips - a.pips) + w.off * (a.off - b.off) + w.bar * (a.bar - b.bar);
    if contact(me, op) {
        r += w.blot * (a.blots - b.blots)
            + w.point * (a.points - b.points)
            + w.home_point * (a.home_points - b.home_points)
            + w.prime * ((a.prime - 1).max(0) - (b.prime - 1).max(0))
            + w.anchor * (a.anchors - b.anchors);
    }
    r
}

/// The terms the weights multiply, for the side to move of `s`: `raw + on_roll = Σ w_i · terms_i` (the feature
/// differences of [`raw`], zero without contact where [`raw`] leaves them out, and 1 for the player about to roll).
pub fn terms(s: &BgState) -> [i32; N_TERMS] {
    let p = s.pair();
    let (a, b) = (features(p.me), features(p.op));
    let c = contact(p.me, p.op) as i32;
    [
        b.pips - a.pips,
        a.off - b.off,
        a.bar - b.bar,
        c * (a.blots - b.blots),
        c * (a.points - b.points),
        c * (a.home_points - b.home_points),
        c * ((a.prime - 1).max(0) - (b.prime - 1).max(0)),
        c * (a.anchors - b.anchors),
        (s.phase <= phase::ROLL) as i32,
    ]
}

/// Map a raw score into `(-EVAL_BOUND, EVAL_BOUND)`.
pub(crate) fn squash(raw: i32, squash: i32) -> i32 {
    let r = raw as i64;
    (EVAL_BOUND as i64 * r / (r.abs() + squash.max(1) as i64)) as i32
}

/// The evaluation with its weights ([`HAND`] by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BgEval {
    pub weights: Weights,
}

impl Default for BgEval {
    fn default() -> Self {
        BgEval { weights: HAND }
    }
}

/// The evaluations' names: the engine's default first; `tuned` the fitted weights, `simple` the hand-set ones (the
/// catalogue's algorithms default to `simple`, the evaluation of every game).
pub const NAMES: &[&str] = &["tuned", "simple"];

impl BgEval {
    /// The evaluation named `name` (one of [`NAMES`]).
    pub fn named(name: &str) -> Option<BgEval> {
        match name {
            "simple" => Some(BgEval { weights: HAND }),
            "tuned" => Some(BgEval { weights: TUNED }),
            _ => None,
        }
    }
}

impl Evaluator<Backgammon> for BgEval {
    type Carry = ();

    fn evaluate(&self, _g: &Backgammon, s: &BgState) -> i32 {
        let p = s.pair();
        let mut r = raw(&self.weights, p.me, p.op);
        if s.phase <= phase::ROLL {
            r += self.weights.on_roll;
        }
        squash(r, self.weights.squash)
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{START, one};
    use super::*;
    use crate::game::Capabilities;
    use crate::game::Game;

    #[test]
    fn the_start_is_even_but_for_the_roll_and_values_stay_bounded() {
        let g = Backgammon::default();
        let s = g.parse_position("x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5 x").unwrap();
        assert_eq!(raw(&HAND, START, START), 0);
        assert!(BgEval::default().evaluate(&g, &s) > 0, "the player on roll is ahead");
        for r in [i32::MIN / 4, -100_000, -1, 0, 1, 100_000, i32::MAX / 4] {
            assert!(squash(r, HAND.squash).abs() < EVAL_BOUND);
        }
    }

    #[test]
    fn features_count_blots_points_primes_and_anchors() {
        // 2 on each of 8..3 (a six-prime), a blot on 20, 2 on 23 (an anchor), the rest off.
        let side = (3..=8).map(|p| 2 * one(p)).sum::<u128>() + one(20) + 2 * one(23);
        let f = features(side);
        assert_eq!((f.blots, f.points, f.home_points, f.prime, f.anchors), (1, 3, 4, 6, 1));
        assert!(contact(side, START));
        assert!(!contact(2 * one(3), 2 * one(4)));
        // Making the 5 point with 3-1 is better than the start.
        assert!(raw(&HAND, START - one(8) - one(6) + 2 * one(5), START) > 0);
    }

    #[test]
    fn the_terms_give_the_raw_score() {
        let g = Backgammon::default();
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(3);
        for _ in 0..20 {
            let mut s = g.start();
            while !g.is_terminal(&s) {
                for w in [HAND, TUNED] {
                    let p = s.pair();
                    let on_roll = if s.phase <= phase::ROLL { w.on_roll } else { 0 };
                    let dot: i32 = w.terms().iter().zip(terms(&s)).map(|(a, b)| a * b).sum();
                    assert_eq!(dot, raw(&w, p.me, p.op) + on_roll);
                }
                let m = g.random_move(&s, &mut rng).expect("a move");
                g.play(&mut s, m);
            }
        }
    }
}
