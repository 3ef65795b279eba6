//! The last few empty squares (2 to [`FEW`]), solved without move generation and without the table.
//!
//! ```text
//! few(own, opp, empties, α, β):                -- the node is counted by the caller
//!     for each empty square, those in quadrants with an odd number of empties first (parity), ascending:
//!         no opponent disc next to it, or its flips f = 0: not a move, next square
//!                                                       -- a flip test instead of generating the moves
//!         child with one empty left: last(child)        -- the last square, no list at all; on 8x8 its flips
//!                                                          counted from the mover's discs alone (last_flip.rs)
//!         otherwise: -few(child, empties - square, -β, -max(α, best))
//!         fail-soft cut at β
//!     no square flipped anything: the same loop for the opponent (a pass, one more node), negated;
//!     neither side can move: the final score
//! ```
//!
//! With at most four empties, trying each empty square's flips costs less than generating the moves of the eight
//! directions; the tree searched (and so the node count) is the general search's, in the same order.

use super::EndgameSolver;
use super::final_score;
use super::last_flip;
use crate::games::othello::bits::{AROUND, Geometry};

/// Up to this many empties: [`EndgameSolver::few`].
pub(super) const FEW: u32 = 4;

/// The squares of the quadrants holding an odd number of the `empty` squares.
#[inline]
pub(super) fn odd_quadrants(geo: &Geometry, empty: u64) -> u64 {
    geo.quadrants.iter().filter(|&&q| !(empty & q).count_ones().is_multiple_of(2)).fold(0, |a, q| a | q)
}

impl EndgameSolver {
    /// The value of a position with 2 to [`FEW`] empty squares (`empty`), fail-soft within (`alpha`, `beta`).
    pub(super) fn few(&mut self, geo: &Geometry, own: u64, opp: u64, empty: u64, alpha: i32, beta: i32) -> i32 {
        // Two empties are tried in ascending order whatever the parity (both in odd quadrants, or both in one even
        // quadrant): no need to count the quadrants.
        let rest = empty & (empty - 1);
        let odd = if rest & (rest - 1) == 0 { empty } else { odd_quadrants(geo, empty) };
        if let Some(v) = self.few_moves(geo, own, opp, empty, odd, alpha, beta) {
            return v;
        }
        match self.few_moves(geo, opp, own, empty, odd, -beta, -alpha) {
            Some(v) => {
                self.nodes += 1;
                -v
            }
            None => final_score(geo, own, opp),
        }
    }

    /// The best value over the side to move's moves among `empty` (parity order), or `None` when it has no move.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn few_moves(
        &mut self,
        geo: &Geometry,
        own: u64,
        opp: u64,
        empty: u64,
        odd: u64,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let mut best = None;
        for part in [empty & odd, empty & !odd] {
            let mut m = part;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                if AROUND[sq as usize] & opp == 0 {
                    continue; // no opponent disc next to it: nothing to flip
                }
                let f = geo.flips(own, opp, sq);
                if f == 0 {
                    continue;
                }
                let (o, p) = (opp & !f, own | f | (1 << sq));
                let rest = empty & !(1 << sq);
                self.nodes += 1;
                let v = if rest & (rest - 1) == 0 {
                    -self.last(geo, o, p, rest.trailing_zeros())
                } else {
                    let a = best.map_or(alpha, |b: i32| alpha.max(b));
                    -self.few(geo, o, p, rest, -beta, -a)
                };
                if best.is_none_or(|b| v > b) {
                    best = Some(v);
                    if v >= beta {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// One empty square `sq`: the side to move plays it if it can, else the opponent, else nobody.
    pub(super) fn last(&mut self, geo: &Geometry, own: u64, opp: u64, sq: u32) -> i32 {
        if geo.size == 8 {
            return self.last_full(own, sq);
        }
        let f = geo.flips(own, opp, sq);
        if f != 0 {
            return final_score(geo, own | f | (1 << sq), opp & !f);
        }
        let g = geo.flips(opp, own, sq);
        if g != 0 {
            self.nodes += 1;
            return -final_score(geo, opp | g | (1 << sq), own & !g);
        }
        final_score(geo, own, opp)
    }

    /// [`Self::last`] on 8x8, where every square but `sq` holds a disc: the flips counted from the mover's discs
    /// alone ([`last_flip::count`]), the score from the counts (the board is full after a move).
    #[inline]
    fn last_full(&mut self, own: u64, sq: u32) -> i32 {
        let mine = own.count_ones() as i32;
        let n = last_flip::count(sq, own);
        if n > 0 {
            return 2 * (mine + n + 1) - 64;
        }
        let m = last_flip::count(sq, !own & !(1u64 << sq));
        if m > 0 {
            self.nodes += 1;
            return 2 * (mine - m) - 64;
        }
        // Nobody can play it: the empty square goes to the winner (63 discs: no draw).
        if 2 * mine > 63 { 2 * mine - 62 } else { 2 * mine - 64 }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{EndgameSolver, final_score};
    use crate::games::othello::bits::Geometry;
    use proptest::prelude::*;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// Plain negamax over every move, passes included: the reference.
    fn negamax(geo: &Geometry, own: u64, opp: u64) -> i32 {
        let moves = geo.moves(own, opp);
        if moves == 0 {
            return if geo.moves(opp, own) == 0 { final_score(geo, own, opp) } else { -negamax(geo, opp, own) };
        }
        let mut best = -100;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let (o, p) = geo.play(own, opp, sq);
            best = best.max(-negamax(geo, o, p));
        }
        best
    }

    /// A position with `empties` empty squares reached by random moves from the start (`None`: the game ended).
    fn random_position(geo: &Geometry, seed: u64, empties: u32) -> Option<(u64, u64)> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let (mut own, mut opp) = geo.start();
        while (geo.board & !(own | opp)).count_ones() > empties {
            let moves = geo.moves(own, opp);
            if moves == 0 {
                if geo.moves(opp, own) == 0 {
                    return None;
                }
            } else {
                let pick = rng.random_range(0..moves.count_ones());
                let mut m = moves;
                for _ in 0..pick {
                    m &= m - 1;
                }
                let sq = m.trailing_zeros();
                let f = geo.flips(own, opp, sq);
                (own, opp) = (own | f | (1 << sq), opp & !f);
            }
            (own, opp) = (opp, own);
        }
        Some((own, opp))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// The last-squares code (and the search above it), table-less and with a table, on every window, agrees
        /// with plain negamax: exact inside the window, a correct bound outside (fail-soft).
        #[test]
        fn few_empties_agree_with_plain_negamax(seed in any::<u64>(), empties in 2u32..=6, six in any::<bool>(),
                                                 lo in -66i32..66, width in 1i32..40) {
            let geo = Geometry::new(if six { 6 } else { 8 });
            if let Some((own, opp)) = random_position(&geo, seed, empties) {
                let want = negamax(&geo, own, opp);
                let (alpha, beta) = (lo, (lo + width).min(66));
                for mut solver in [EndgameSolver::without_table(), EndgameSolver::new(1)] {
                    let got = solver.solve_window(&geo, own, opp, alpha, beta);
                    if got <= alpha {
                        prop_assert!(want <= got, "{want} > fail-low {got} in ({alpha}, {beta})");
                    } else if got >= beta {
                        prop_assert!(want >= got, "{want} < fail-high {got} in ({alpha}, {beta})");
                    } else {
                        prop_assert_eq!(got, want);
                    }
                    prop_assert_eq!(solver.solve_window(&geo, own, opp, -65, 65), want);
                }
            }
        }
    }
}
