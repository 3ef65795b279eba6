//! Move ordering for the Connect Four solver: the columns' base order (centre first), a move's score by the threats
//! it creates, and the sorter that ranks a node's moves by score, ties kept in the order they were added.

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

/// The ordering score of a move (the structure of Steininger's heuristic, `docs/solving.md`; integer weights ours):
/// `threats` are the cells where the mover would complete four after it, `theirs` the opponent's, `playable` the
/// cells playable after the move. A threat right above an opponent's threat is useless (the opponent completes its
/// four first when the column reaches it) and not counted. A useful threat right above a playable cell (it becomes
/// playable after one more stone in its column) counts 12, one two cells above a playable cell 5 more, every useful
/// threat 3 more, and the table's move 5.
#[inline(always)]
pub(super) fn threat_score(threats: u64, theirs: u64, playable: u64, board: u64, table_move: bool) -> i32 {
    let useful = threats & !(theirs << 1);
    let above = (playable << 1) & board;
    let next_turn = useful & above;
    let turn_after = useful & (above << 1);
    12 * next_turn.count_ones() as i32
        + 5 * turn_after.count_ones() as i32
        + 3 * useful.count_ones() as i32
        + if table_move { 5 } else { 0 }
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
    fn threat_score_weights_useful_threats_by_when_they_become_playable() {
        // One column of 6 cells (bits 0..5): playable cell 1.
        let board = 0b11_1111;
        let playable = 0b10;
        assert_eq!(threat_score(0b100, 0, playable, board, false), 12 + 3);
        assert_eq!(threat_score(0b1000, 0, playable, board, false), 5 + 3);
        assert_eq!(threat_score(0b10_0000, 0, playable, board, true), 3 + 5);
        // Right above an opponent's threat: useless.
        assert_eq!(threat_score(0b1000, 0b100, playable, board, false), 0);
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
