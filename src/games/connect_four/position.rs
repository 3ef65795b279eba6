//! A Connect Four position in Pascal Pons's encoding, and his helpers on it: what the rules, the solver
//! ([`crate::solve::connect4`]) and the book builder share.
//!
//! Playing in column `c` is `cur ^= mask; mask |= mask + bottom(c)`: adding the column's bottom bit to the column's
//! discs carries up to the first empty cell. `cur + mask` is a unique key (per column, the side to move's discs plus
//! a carry bit above the top disc), and it works column by column, so the key of the mirror image is the mirror of the
//! key.

use super::Shape;

/// Two bitboards and a disc count. Which player is to move follows from the count (the first player when it is even).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Position {
    /// The discs of the side to move.
    pub cur: u64,
    /// Every disc.
    pub mask: u64,
    /// Discs on the board (plies played).
    pub plies: u32,
}

impl Position {
    /// The empty board.
    pub fn empty() -> Position {
        Position { cur: 0, mask: 0, plies: 0 }
    }

    /// The discs of the player who made the last move (the opponent of the side to move).
    #[inline(always)]
    pub fn opponent(&self) -> u64 {
        self.cur ^ self.mask
    }

    /// The cell each non-full column would receive, all at once (Pons's `possible`).
    #[inline(always)]
    pub fn possible<S: Shape>(&self, g: &S) -> u64 {
        self.mask.wrapping_add(g.bottom_mask()) & g.board_mask()
    }

    /// Whether column `c` can take a disc.
    #[inline(always)]
    pub fn can_play<S: Shape>(&self, g: &S, c: u32) -> bool {
        self.mask & g.top_mask(c) == 0
    }

    /// The cell a disc dropped in column `c` lands on (the column must have room).
    #[inline(always)]
    pub(crate) fn drop_cell<S: Shape>(&self, g: &S, c: u32) -> u64 {
        self.mask.wrapping_add(g.bottom_cell(c)) & g.column_mask(c)
    }

    /// Play the move given as a one-bit board (a cell of [`Position::possible`]).
    #[inline(always)]
    pub fn play(&mut self, mv: u64) {
        self.cur ^= self.mask;
        self.mask |= mv;
        self.plies += 1;
    }

    /// Drop a disc in column `c` (which must have room).
    #[inline]
    pub fn play_column<S: Shape>(&mut self, g: &S, c: u32) {
        self.play(self.drop_cell(g, c));
    }

    /// Whether dropping a disc in column `c` completes four for the side to move.
    #[inline]
    pub fn is_winning_column<S: Shape>(&self, g: &S, c: u32) -> bool {
        g.winning_cells(self.cur, self.mask) & self.possible(g) & g.column_mask(c) != 0
    }

    /// Whether the side to move can win at once (Pons's `canWinNext`).
    #[inline(always)]
    pub fn can_win_next<S: Shape>(&self, g: &S) -> bool {
        g.winning_cells(self.cur, self.mask) & self.possible(g) != 0
    }

    /// The cells where the side to move would complete four after playing the one-bit move `mv` (its threats; Pons's
    /// move score is their number).
    #[inline(always)]
    pub(crate) fn threats_after<S: Shape>(&self, g: &S, mv: u64) -> u64 {
        g.winning_cells(self.cur | mv, self.mask) & !mv
    }

    /// The cells playable after the one-bit move `mv`.
    #[inline(always)]
    pub(crate) fn possible_after<S: Shape>(&self, g: &S, mv: u64) -> u64 {
        (self.mask | mv).wrapping_add(g.bottom_mask()) & g.board_mask()
    }

    /// The unique key `cur + mask` (Pons's `key`).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.cur.wrapping_add(self.mask)
    }

    /// The smaller of the key and its mirror image's key: the same for a position and its mirror image, which have
    /// the same value.
    #[inline]
    pub(crate) fn symmetric_key<S: Shape>(&self, g: &S) -> u64 {
        let k = self.key();
        k.min(g.mirror(k))
    }
}

/// The moves among the playable cells `possible` that do not lose at once against the opponent's threat cells `opp`
/// (Pons's `possibleNonLosingMoves`): if the opponent has one playable threat, only that block; if it has two, none
/// (0); never a cell right under an opponent's threat.
#[inline(always)]
pub(crate) fn safe_moves(mut possible: u64, opp: u64) -> u64 {
    let forced = possible & opp;
    if forced != 0 {
        if forced & (forced - 1) != 0 {
            return 0;
        }
        possible = forced;
    }
    possible & !(opp >> 1)
}
