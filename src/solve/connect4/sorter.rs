//! Move ordering for the Connect Four solver: the columns' base order (centre first) and the sorter that ranks a
//! node's moves by score, ties kept in the order they were added.

use super::MAX_WIDTH;

/// The columns of a board of `width` columns, centre first, then alternately one further left and one further right:
/// 3 2 4 1 5 0 6 on 7 columns, 3 2 4 1 5 0 on 6.
pub(super) fn centre_first(width: u32) -> [u32; MAX_WIDTH] {
    let mut order = [0u32; MAX_WIDTH];
    let w = width as i32;
    for (i, o) in order.iter_mut().enumerate().take(width as usize) {
        let i = i as i32;
        *o = (w / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2) as u32;
    }
    order
}

/// At most [`MAX_WIDTH`] one-bit moves, kept sorted by decreasing score as they are added (insertion sort, stable:
/// a move goes after the moves already there with the same score, so ties keep the order of addition).
pub(super) struct MoveSorter {
    entries: [(u64, i32); MAX_WIDTH],
    count: usize,
}

impl MoveSorter {
    #[inline(always)]
    pub(super) fn new() -> MoveSorter {
        MoveSorter { entries: [(0, 0); MAX_WIDTH], count: 0 }
    }

    /// Add a move with its score.
    #[inline(always)]
    pub(super) fn add(&mut self, mv: u64, score: i32) {
        let mut i = self.count;
        while i > 0 && self.entries[i - 1].1 < score {
            self.entries[i] = self.entries[i - 1];
            i -= 1;
        }
        self.entries[i] = (mv, score);
        self.count += 1;
    }

    /// The moves, best first.
    #[inline(always)]
    pub(super) fn moves(&self) -> impl Iterator<Item = u64> + '_ {
        self.entries[..self.count].iter().map(|&(mv, _)| mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_first_then_outwards() {
        assert_eq!(centre_first(7)[..7], [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(centre_first(6)[..6], [3, 2, 4, 1, 5, 0]);
        assert_eq!(centre_first(1)[..1], [0]);
    }

    #[test]
    fn sorted_by_score_ties_in_order_of_addition() {
        let mut s = MoveSorter::new();
        for (mv, score) in [(1, 2), (2, 5), (4, 2), (8, i32::MAX), (16, 5), (32, 0)] {
            s.add(mv, score);
        }
        assert_eq!(s.moves().collect::<Vec<_>>(), [8, 2, 16, 1, 4, 32]);
    }
}
