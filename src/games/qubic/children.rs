//! The knowledge of every child of a position at once ([`Knowledge::child_tactics`]), for the solvers that value all
//! the children of a node: the parent's threats, computed once, updated by each move, instead of the full tests of
//! [`Knowledge::tactics`] on each child; and the children's symmetry keys from the parent's images under the
//! symmetries (`symmetry_keys`).
//!
//! ```text
//! P moves at s (own, opp), the child c = s + m; "threats of A" = the empty cells where A completes a line
//!     c is over          <=>  own already holds a line, or m is a threat of P       (P completes a line with m)
//!                             else the cube is full after m: a draw
//!     O wins in one at c <=>  threats of O at s, minus m     (a stone of P kills only the lines through m, and a
//!                                                             threat of O on a line through m other than m needs m)
//!     what c forces O    :    threats of P at c = threats of P at s, minus m, plus the cells that the lines through
//!                             m, free of O, now miss alone
//! ```
//! Each is [`Knowledge::tactics`] of the child exactly (`tests/suite/qubic.rs` compares them on arbitrary boards).
//!
//! [`Knowledge::child_tactics`]: crate::game::Knowledge::child_tactics
//! [`Knowledge::tactics`]: crate::game::Knowledge::tactics

use arrayvec::ArrayVec;

use super::geometry::MAX_SYMMETRIES;
use super::{Qubic, QubicState, SYMMETRY_STONES, forced_by};
use crate::game::{Game, MAX_MOVES, Outcome, Side, Tactics};

/// [`Knowledge::tactics`](crate::game::Knowledge::tactics) of `s` after each of `moves` (empty cells), into `out`.
pub(super) fn tactics(q: &Qubic, s: &QubicState, moves: &[u8], out: &mut ArrayVec<Tactics, MAX_MOVES>) {
    out.clear();
    let (own, opp) = s.own_opp();
    let mine = q.winning_cells(own, opp);
    let theirs = q.winning_cells(opp, own);
    // Not a position of the game (the side to move has a line), but what `outcome` would say of every child.
    let own_line = q.has_line(own);
    for &m in moves {
        let bit = 1u64 << m;
        let after = own | bit;
        out.push(if own_line || mine & bit != 0 {
            Tactics::Over(Outcome::Loss)
        } else if after | opp == q.full {
            Tactics::Over(Outcome::Draw)
        } else if theirs & !bit != 0 {
            Tactics::WinInOne
        } else {
            Tactics::Forced(forced_by(mine & !bit | new_threats(q, after, opp, m)))
        });
    }
}

/// The cells where `after` (which holds `m`) completes a line through `m` free of `opp`: the threats the stone on
/// `m` makes.
#[inline]
pub(super) fn new_threats(q: &Qubic, after: u64, opp: u64, m: u8) -> u64 {
    let mut out = 0;
    for &l in &q.through[m as usize] {
        // One cell of the line missing (no population count: the x86-64 baseline has no instruction for it).
        let rest = l & !after;
        if l & opp == 0 && rest != 0 && rest & (rest - 1) == 0 {
            out |= rest;
        }
    }
    out
}

/// The images of the cells `bits` under every symmetry (`images[k]`: under symmetry `k`): the OR of the cells' rows.
#[inline]
fn images_of(q: &Qubic, bits: u64, images: &mut [u64]) {
    let count = images.len();
    images.fill(0);
    let mut b = bits;
    while b != 0 {
        let row = &q.images[b.trailing_zeros() as usize * count..][..count];
        images.iter_mut().zip(row).for_each(|(x, r)| *x |= r);
        b &= b - 1;
    }
}

/// The image of the cells `bits` under symmetry `k`.
#[inline]
fn image_under(q: &Qubic, bits: u64, k: usize) -> u64 {
    let count = q.symmetries.len();
    let mut image = 0;
    let mut b = bits;
    while b != 0 {
        image |= q.images[b.trailing_zeros() as usize * count + k];
        b &= b - 1;
    }
    image
}

/// The hash of an orbit: its least image (X's cells, then O's) and the side to move.
#[inline]
fn orbit_hash(stm: Side, least_x: u64, least_o: u64) -> u64 {
    let mut h = 0x243F_6A88_85A3_08D3u64 ^ stm.index() as u64;
    for w in [least_x, least_o] {
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
    h ^ h >> 31
}

/// The symmetry key of `s` by its least image under the symmetries ([`Knowledge::symmetry_key`] up to
/// [`SYMMETRY_STONES`] stones): the least (image of X, image of O), compared as one 128-bit number. X's images
/// under all the symmetries at once, their least; O's image only under the symmetries where X's is the least.
///
/// [`Knowledge::symmetry_key`]: crate::game::Knowledge::symmetry_key
pub(super) fn orbit_key(q: &Qubic, s: &QubicState) -> u64 {
    let mut xs = [0u64; MAX_SYMMETRIES];
    let xs = &mut xs[..q.symmetries.len()];
    images_of(q, s.x, xs);
    let least_x = xs.iter().copied().min().unwrap_or(s.x);
    let least_o = (0..xs.len()).filter(|&k| xs[k] == least_x).map(|k| image_under(q, s.o, k)).min();
    orbit_hash(s.stm, least_x, least_o.unwrap_or(s.o))
}

/// The symmetry key of `s` after each of `moves` (empty cells), into `out`: the children with more than
/// [`SYMMETRY_STONES`] stones by their Zobrist key, the others by their least image as [`orbit_key`] finds it, from
/// the parent's images under every symmetry with the child's stone added (its row of `images`). When X moves, X's
/// images are the parent's with the stone's; when O moves, X's least image and the symmetries that give it are the
/// parent's, and only O's images under those are needed.
pub(super) fn symmetry_keys(q: &Qubic, s: &QubicState, moves: &[u8], out: &mut ArrayVec<u64, MAX_MOVES>) {
    out.clear();
    let child_stm = s.stm.other();
    if (s.x | s.o).count_ones() + 1 > SYMMETRY_STONES {
        for &m in moves {
            let mut c = *s;
            q.play(&mut c, m);
            out.push(c.key);
        }
        return;
    }
    let count = q.symmetries.len();
    let (mut xs, mut os) = ([0u64; MAX_SYMMETRIES], [0u64; MAX_SYMMETRIES]);
    let (xs, os) = (&mut xs[..count], &mut os[..count]);
    images_of(q, s.x, xs);
    images_of(q, s.o, os);
    match s.stm {
        Side::First => {
            let mut child = [0u64; MAX_SYMMETRIES];
            let child = &mut child[..count];
            for &m in moves {
                let row = &q.images[m as usize * count..][..count];
                child.iter_mut().zip(xs.iter().zip(row)).for_each(|(c, (x, r))| *c = x | r);
                let least_x = child.iter().copied().min().unwrap_or(0);
                let least_o = (0..count).filter(|&k| child[k] == least_x).map(|k| os[k]).min().unwrap_or(0);
                out.push(orbit_hash(child_stm, least_x, least_o));
            }
        }
        Side::Second => {
            let least_x = xs.iter().copied().min().unwrap_or(0);
            let mut ties = [0u8; MAX_SYMMETRIES];
            let mut n = 0;
            for (k, &x) in xs.iter().enumerate() {
                if x == least_x {
                    ties[n] = k as u8;
                    n += 1;
                }
            }
            for &m in moves {
                let row = &q.images[m as usize * count..][..count];
                let least_o = ties[..n].iter().map(|&k| os[k as usize] | row[k as usize]).min().unwrap_or(0);
                out.push(orbit_hash(child_stm, least_x, least_o));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::geometry;
    use super::*;
    use crate::game::Knowledge;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// The symmetry key as it was first written (each symmetry applied to X cell by cell, O's image where X's ties),
    /// the reference for the one from the rows of `images`: a key changed would orphan every saved `--table` file.
    fn key_by_maps(g: &Qubic, s: &QubicState) -> u64 {
        if (s.x | s.o).count_ones() > SYMMETRY_STONES {
            return s.key;
        }
        let (mut least_x, mut least_o) = (s.x, s.o);
        for map in &g.symmetries {
            let x = geometry::apply(map, s.x);
            if x < least_x {
                (least_x, least_o) = (x, geometry::apply(map, s.o));
            } else if x == least_x {
                least_o = least_o.min(geometry::apply(map, s.o));
            }
        }
        let mut h = 0x243F_6A88_85A3_08D3u64 ^ s.stm.index() as u64;
        for w in [least_x, least_o] {
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
        h ^ h >> 31
    }

    /// A position of `stones` stones played on random empty cells, the sides in turn.
    fn random_position(g: &Qubic, rng: &mut SmallRng, stones: u32) -> QubicState {
        let cells = g.n * g.n * g.n;
        let mut s = g.start();
        while (s.x | s.o).count_ones() < stones {
            let c = rng.random_range(0..cells);
            if (s.x | s.o) >> c & 1 == 0 {
                g.play(&mut s, c as u8);
            }
        }
        s
    }

    /// The children's symmetry keys at once (from the parent's images) are each child's key, on positions of up to
    /// `SYMMETRY_STONES` stones (both sides to move; the last ones' children beyond it, by their Zobrist key).
    #[test]
    fn the_children_keys_are_each_childs_key() {
        let mut rng = SmallRng::seed_from_u64(11);
        for n in [3, 4] {
            let g = Qubic::new(n);
            let cells = n * n * n;
            for i in 0..400u32 {
                let stones = i % (SYMMETRY_STONES + 1);
                let s = random_position(&g, &mut rng, stones);
                let moves: Vec<u8> = (0..cells as u8).filter(|&c| (s.x | s.o) >> c & 1 == 0).collect();
                let mut keys = ArrayVec::new();
                g.child_symmetry_keys(&s, &moves, &mut keys);
                for (&m, &k) in moves.iter().zip(&keys) {
                    let mut c = s;
                    g.play(&mut c, m);
                    assert_eq!(k, key_by_maps(&g, &c), "size {n}: {} after {m}", g.format_position(&s));
                }
            }
        }
    }

    #[test]
    fn the_symmetry_key_is_the_one_computed_map_by_map() {
        let mut rng = SmallRng::seed_from_u64(5);
        for n in [3, 4] {
            let g = Qubic::new(n);
            for i in 0..3000u32 {
                let stones = i % (SYMMETRY_STONES + 1);
                let s = random_position(&g, &mut rng, stones);
                assert_eq!(g.symmetry_key(&s), key_by_maps(&g, &s), "size {n}: {}", g.format_position(&s));
            }
        }
    }
}
