//! Whether a position text can arise in a game: some order of alternate moves from the empty board (X first, each
//! disc dropped onto the one below) builds it. [`Game::parse_position`](crate::game::Game::parse_position) refuses the
//! positions that cannot.

use super::ConnectFour;
use super::shape::shr;

/// Search steps [`ConnectFour::orderable`] may take before it accepts a position it could not decide.
pub(crate) const ORDER_BUDGET: u64 = 1 << 21;

impl ConnectFour {
    /// Whether some game (alternate moves from the empty board, X first) builds the discs `first` and `second`, whose
    /// last move is one of `last_discs` (top discs of the last mover). A depth-first search peels discs off the tops
    /// in reverse order, remembering the disc sets that failed, so each set of column heights is expanded at most once.
    /// After [`ORDER_BUDGET`] steps it gives up and accepts. The budget exceeds the 7^7 = 823,543 height combinations
    /// of the 6x7 board, so the answer is exact there and on every board with no more combinations.
    pub(crate) fn orderable(&self, first: u64, second: u64, last_discs: u64) -> bool {
        let mask = first | second;
        if mask == 0 {
            return true;
        }
        let mut failed = std::collections::HashSet::new();
        let mut budget = ORDER_BUDGET;
        let mut b = last_discs;
        while b != 0 {
            let bit = b & b.wrapping_neg();
            b ^= bit;
            match self.peel(first, second, mask ^ bit, &mut failed, &mut budget) {
                Some(true) | None => return true,
                Some(false) => {}
            }
        }
        false
    }

    /// One step of [`ConnectFour::orderable`]: can `mask` (discs of `first`/`second` still on the board) be built?
    /// `None` when the budget ran out.
    fn peel(
        &self,
        first: u64,
        second: u64,
        mask: u64,
        failed: &mut std::collections::HashSet<u64>,
        budget: &mut u64,
    ) -> Option<bool> {
        if mask == 0 {
            return Some(true);
        }
        if failed.contains(&mask) {
            return Some(false);
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        // With an odd number of discs, X (the first player) made the last move.
        let own = if mask.count_ones() % 2 == 1 { first } else { second };
        let mut tops = mask & !shr(mask, 1) & own;
        while tops != 0 {
            let bit = tops & tops.wrapping_neg();
            tops ^= bit;
            match self.peel(first, second, mask ^ bit, failed, budget) {
                Some(false) => {}
                other => return other,
            }
        }
        failed.insert(mask);
        Some(false)
    }
}
