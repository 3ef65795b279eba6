//! The index of the checkers endgame databases: a material signature (the side to move's men and kings, the
//! opponent's men and kings) and a combinatorial index of every placement of that material.
//!
//! Positions are seen from the side to move, turned so that it moves down the board like Black: a position with
//! White to move is turned half a turn (bit `i` to bit `31 - i`, `u32::reverse_bits`) and its colours swapped. So one
//! table of a signature holds the positions of that material with either side to move, and the positions of all
//! signatures with `n` pieces are exactly the placements of `n` pieces, without the side to move: Schaeffer's counts
//! (1 piece: 120 = 28 + 32 + 28 + 32).
//!
//! ```text
//! own men   a subset of the 28 squares 1..28 (bits 0..27; never on its crowning row 29..32), colex rank r1
//! opp men   a subset of the 28 squares 5..32 (bits 4..31),                                   colex rank r2
//! own kings among the 32 - om - pm squares without a man, numbered in order,                colex rank r3
//! opp kings among the squares left,                                                          colex rank r4
//! index = ((r1 * C(28, pm) + r2) * C(32 - om - pm, ok) + r3) * C(32 - om - pm - ok, pk) + r4
//! ```
//!
//! The index is not perfect: the two sides' men may be given the same square (a hole, no position); the holes are a
//! small part of the table (none without men on both sides), and [`Sig::positions`] counts the others exactly.

/// `BIN[n][k]` = C(n, k) for n, k <= 32.
const BIN: [[u64; 33]; 33] = {
    let mut t = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k), 0 when k > n.
#[inline]
pub(crate) fn binomial(n: usize, k: usize) -> u64 {
    if k > n { 0 } else { BIN[n][k] }
}

/// A material signature, seen from the side to move (which moves down the board, like Black).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Sig {
    pub(crate) own_men: u8,
    pub own_kings: u8,
    pub(crate) opp_men: u8,
    pub(crate) opp_kings: u8,
}

/// The colex rank of the set bits of `b` (positions `p_0 < p_1 < ...`): the sum of C(p_i, i + 1).
#[inline]
fn colex(mut b: u64) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while b != 0 {
        r += BIN[b.trailing_zeros() as usize][i];
        b &= b - 1;
        i += 1;
    }
    r
}

/// The set of `k` positions whose colex rank is `r` (as bits).
#[inline]
fn uncolex(mut r: u64, k: usize) -> u64 {
    let mut b = 0u64;
    let mut p = 32usize;
    for i in (1..=k).rev() {
        p -= 1;
        while BIN[p][i] > r {
            p -= 1;
        }
        r -= BIN[p][i];
        b |= 1 << p;
    }
    b
}

/// `bits` (a subset of `free`) renumbered: the j-th square of `free` becomes position j.
#[inline]
fn compact(bits: u32, free: u32) -> u64 {
    let mut out = 0u64;
    let mut b = bits;
    while b != 0 {
        let sq = b.trailing_zeros();
        out |= 1 << (free & ((1u32 << sq) - 1)).count_ones();
        b &= b - 1;
    }
    out
}

/// The inverse of [`compact`].
#[inline]
fn expand(positions: u64, free: u32) -> u32 {
    let mut out = 0;
    let mut f = free;
    let mut j = 0;
    while f != 0 && positions >> j != 0 {
        let low = f & f.wrapping_neg();
        if positions >> j & 1 == 1 {
            out |= low;
        }
        f &= f - 1;
        j += 1;
    }
    out
}

impl Sig {
    /// The signature with these counts of men and kings.
    pub fn new(own_men: u8, own_kings: u8, opp_men: u8, opp_kings: u8) -> Sig {
        Sig { own_men, own_kings, opp_men, opp_kings }
    }

    /// The material of a position (`own` to move, moving down).
    pub fn of(own: u32, opp: u32, kings: u32) -> Sig {
        Sig {
            own_men: (own & !kings).count_ones() as u8,
            own_kings: (own & kings).count_ones() as u8,
            opp_men: (opp & !kings).count_ones() as u8,
            opp_kings: (opp & kings).count_ones() as u8,
        }
    }

    /// The number of pieces, men and kings of both sides.
    pub fn pieces(self) -> usize {
        (self.own_men + self.own_kings + self.opp_men + self.opp_kings) as usize
    }

    /// The number of men of both sides.
    pub fn men(self) -> usize {
        (self.own_men + self.opp_men) as usize
    }

    /// The same material with the other side to move.
    pub fn flipped(self) -> Sig {
        Sig { own_men: self.opp_men, own_kings: self.opp_kings, opp_men: self.own_men, opp_kings: self.own_kings }
    }

    /// Whether the material fits the board (the men on their 28 squares, everything on 32).
    pub fn fits(self) -> bool {
        self.own_men <= 28 && self.opp_men <= 28 && self.pieces() <= 32
    }

    /// The name in the files' names: `3-1-2-0` is 3 men and 1 king to move against 2 men.
    pub fn name(self) -> String {
        format!("{}-{}-{}-{}", self.own_men, self.own_kings, self.opp_men, self.opp_kings)
    }

    fn parts(self) -> [u64; 4] {
        let (om, ok, pm, pk) =
            (self.own_men as usize, self.own_kings as usize, self.opp_men as usize, self.opp_kings as usize);
        let free = 32 - om - pm;
        [binomial(28, om), binomial(28, pm), binomial(free, ok), binomial(free - ok, pk)]
    }

    /// Entries of the table (holes included).
    pub fn size(self) -> u64 {
        self.parts().iter().product()
    }

    /// Positions of the table (holes excluded): the placements of this material. With `j` own men on the 24 squares
    /// the opponent's men may use too, and the others on the 4 squares they may not, the opponent's men have
    /// `28 - j` squares.
    pub fn positions(self) -> u64 {
        let (om, pm) = (self.own_men as usize, self.opp_men as usize);
        let men: u64 = (0..=om).map(|j| binomial(24, j) * binomial(4, om - j) * binomial(28 - j, pm)).sum();
        let p = self.parts();
        men * p[2] * p[3]
    }

    /// The index of a position of this material (`own` to move, moving down; no own man on its crowning row, no
    /// opponent man on its own).
    #[inline]
    pub fn index(self, own: u32, opp: u32, kings: u32) -> u64 {
        let p = self.parts();
        let (own_men, opp_men) = (own & !kings, opp & !kings);
        let men = own_men | opp_men;
        let r1 = colex(own_men as u64);
        let r2 = colex((opp_men >> 4) as u64);
        let r3 = colex(compact(own & kings, !men));
        let r4 = colex(compact(opp & kings, !men & !(own & kings)));
        ((r1 * p[1] + r2) * p[2] + r3) * p[3] + r4
    }

    /// The position of index `i`, `(own, opp, kings)`; `None` for a hole.
    #[inline]
    pub fn position(self, i: u64) -> Option<(u32, u32, u32)> {
        let p = self.parts();
        let (r4, i) = (i % p[3], i / p[3]);
        let (r3, i) = (i % p[2], i / p[2]);
        let (r2, r1) = (i % p[1], i / p[1]);
        let own_men = uncolex(r1, self.own_men as usize) as u32;
        let opp_men = (uncolex(r2, self.opp_men as usize) as u32) << 4;
        if own_men & opp_men != 0 {
            return None;
        }
        let men = own_men | opp_men;
        let own_kings = expand(uncolex(r3, self.own_kings as usize), !men);
        let opp_kings = expand(uncolex(r4, self.opp_kings as usize), !men & !own_kings);
        Some((own_men | own_kings, opp_men | opp_kings, own_kings | opp_kings))
    }
}

/// The signatures with `n` pieces in all (one side may have none).
pub fn signatures(n: usize) -> Vec<Sig> {
    let mut out = Vec::new();
    for om in 0..=n {
        for ok in 0..=n - om {
            for pm in 0..=n - om - ok {
                let s = Sig::new(om as u8, ok as u8, pm as u8, (n - om - ok - pm) as u8);
                if s.fits() {
                    out.push(s);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::geometry::{BOTTOM_ROW, TOP_ROW};
    use super::*;

    /// The squares the side to move's men may stand on (not its crowning row).
    const OWN_MEN: u32 = !BOTTOM_ROW;
    /// The squares the opponent's men may stand on.
    const OPP_MEN: u32 = !TOP_ROW;

    #[test]
    fn index_is_a_bijection_onto_the_placements() {
        for n in 1..=3 {
            for s in signatures(n) {
                let mut valid = 0;
                for i in 0..s.size() {
                    if let Some((own, opp, kings)) = s.position(i) {
                        valid += 1;
                        assert_eq!(own & opp, 0);
                        assert_eq!(own & !kings & !OWN_MEN, 0);
                        assert_eq!(opp & !kings & !OPP_MEN, 0);
                        assert_eq!(Sig::of(own, opp, kings), s);
                        assert_eq!(s.index(own, opp, kings), i, "{s:?} {own:x} {opp:x} {kings:x}");
                    }
                }
                assert_eq!(valid, s.positions(), "{s:?}");
            }
        }
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(32, 16), 601_080_390);
        assert_eq!(binomial(28, 2), 378);
        assert_eq!(binomial(3, 5), 0);
    }
}
