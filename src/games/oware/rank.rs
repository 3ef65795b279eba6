//! A perfect index of the boards with `n` seeds on `m` houses (the compositions of `n` into `m` parts), in
//! lexicographic order: `rank(c) = sum over i of #{compositions with the prefix c[..i] and a smaller c[i]}`.
//! There are `C(n + m - 1, m - 1)` of them.

/// Ranking tables for `m` houses and up to `max_n` seeds.
#[derive(Clone, Debug)]
pub struct Ranker {
    pub m: usize,
    /// `ways[k][r]`: compositions of `r` seeds into `k` houses.
    ways: Vec<Vec<u64>>,
    /// `below[k][r][c]`: compositions of `r` into `k` houses whose first house holds fewer than `c`.
    below: Vec<Vec<Vec<u64>>>,
}

impl Ranker {
    /// A ranker of the positions of `m` houses holding up to `max_n` seeds in all.
    pub fn new(m: usize, max_n: usize) -> Ranker {
        let mut ways = vec![vec![0u64; max_n + 1]; m + 1];
        ways[0][0] = 1;
        for k in 1..=m {
            for r in 0..=max_n {
                ways[k][r] = (0..=r).map(|c| ways[k - 1][r - c]).fold(0u64, |a, b| a.saturating_add(b));
            }
        }
        let mut below = vec![vec![vec![0u64; max_n + 2]; max_n + 1]; m + 1];
        for k in 1..=m {
            for r in 0..=max_n {
                for c in 0..=r {
                    below[k][r][c + 1] = below[k][r][c].saturating_add(ways[k - 1][r - c]);
                }
            }
        }
        Ranker { m, ways, below }
    }

    /// Boards with `n` seeds.
    pub fn count(&self, n: usize) -> u64 {
        self.ways[self.m][n]
    }

    /// The index of `pits` (its `m` houses holding `n` seeds).
    #[inline]
    pub fn rank(&self, pits: &[u8], n: usize) -> u64 {
        let mut r = n;
        let mut idx = 0u64;
        for (i, &c) in pits[..self.m - 1].iter().enumerate() {
            let c = c as usize;
            idx += self.below[self.m - i][r][c];
            r -= c;
        }
        idx
    }

    /// The board of index `idx` among those with `n` seeds, into `pits[..m]`.
    pub fn unrank(&self, mut idx: u64, n: usize, pits: &mut [u8]) {
        let mut r = n;
        for (i, slot) in pits.iter_mut().enumerate().take(self.m - 1) {
            let k = self.m - i;
            let mut c = 0;
            while c < r && self.below[k][r][c + 1] <= idx {
                c += 1;
            }
            idx -= self.below[k][r][c];
            *slot = c as u8;
            r -= c;
        }
        pits[self.m - 1] = r as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_a_bijection_in_lexicographic_order() {
        let rk = Ranker::new(4, 6);
        for n in 0..=6 {
            let mut prev: Option<Vec<u8>> = None;
            for i in 0..rk.count(n) {
                let mut p = [0u8; 4];
                rk.unrank(i, n, &mut p);
                assert_eq!(p.iter().map(|&x| x as usize).sum::<usize>(), n);
                assert_eq!(rk.rank(&p, n), i);
                if let Some(q) = &prev {
                    assert!(q.as_slice() < &p[..], "{q:?} then {p:?}");
                }
                prev = Some(p.to_vec());
            }
        }
        assert_eq!(rk.count(6), 84); // C(9, 3)
    }
}
