//! Board geometry shared by the Breakthrough evaluations (`breakthrough.rs`, `pst.rs`): file masks for the diagonal
//! shifts, the rows to the goal of every square and the forward cone that decides whether a piece is an unstoppable
//! runner, for any board size (rows * columns <= 64), computed once per board.
//!
//! ```text
//! square sq = row * columns + column; First moves up (row + 1), Second down
//! attacks(p)   = ((p & not_first_file) << (c - 1)) | ((p & not_last_file) << (c + 1))      (First; Second: >>)
//! cone[side][sq] = squares dr >= 1 rows ahead with |dc| <= dr / 2 + 1: a piece whose cone holds no enemy cannot be
//!                  stopped (every enemy that could intercept it is inside)
//! ```

use crate::game::Side;
use crate::games::breakthrough::Breakthrough;

/// Per-board tables of the Breakthrough evaluations.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub(crate) not_first_file: u64,
    pub(crate) not_last_file: u64,
    /// Forward cone of each square for each side.
    pub(crate) cone: [[u64; 64]; 2],
    /// Rows to the goal from each square for each side.
    pub(crate) to_goal: [[u8; 64]; 2],
    pub columns: u32,
}

impl Geometry {
    pub fn new(g: &Breakthrough) -> Self {
        let (rows, cols) = (g.rows, g.columns);
        let mut cone = [[0u64; 64]; 2];
        let mut to_goal = [[0u8; 64]; 2];
        for side in [Side::First, Side::Second] {
            let si = side.index();
            for sq in 0..rows * cols {
                let (r, c) = (sq / cols, sq % cols);
                to_goal[si][sq as usize] = (if side == Side::First { rows - 1 - r } else { r }) as u8;
                let mut m = 0u64;
                for sq2 in 0..rows * cols {
                    let (r2, c2) = (sq2 / cols, sq2 % cols);
                    let dr = if side == Side::First { r2 as i32 - r as i32 } else { r as i32 - r2 as i32 };
                    let dc = (c2 as i32 - c as i32).abs();
                    if dr >= 1 && dc <= dr / 2 + 1 {
                        m |= 1u64 << sq2;
                    }
                }
                cone[si][sq as usize] = m;
            }
        }
        let board = g.board_mask();
        Geometry {
            not_first_file: board & !g.file_mask(0),
            not_last_file: board & !g.file_mask(cols - 1),
            cone,
            to_goal,
            columns: cols,
        }
    }

    /// Squares attacked by `side`'s pieces `p` towards the left and towards the right (diagonally forward).
    #[inline(always)]
    pub(crate) fn attacks2(&self, p: u64, side: Side) -> (u64, u64) {
        let c = self.columns;
        match side {
            Side::First => ((p & self.not_first_file) << (c - 1), (p & self.not_last_file) << (c + 1)),
            Side::Second => ((p & self.not_first_file) >> (c + 1), (p & self.not_last_file) >> (c - 1)),
        }
    }

    /// Squares attacked by `side`'s pieces `p`.
    #[inline(always)]
    pub(crate) fn attacks(&self, p: u64, side: Side) -> u64 {
        let (l, r) = self.attacks2(p, side);
        l | r
    }

    /// The squares right in front of `side`'s pieces `p`.
    #[inline(always)]
    pub fn ahead(&self, p: u64, side: Side) -> u64 {
        match side {
            Side::First => p << self.columns,
            Side::Second => p >> self.columns,
        }
    }

    /// Pieces of `p` with a neighbour of `p` on the same row.
    #[inline(always)]
    pub(crate) fn phalanx(&self, p: u64) -> u32 {
        (p & (((p & self.not_first_file) >> 1) | ((p & self.not_last_file) << 1))).count_ones()
    }

    /// The unstoppable runners of `side` among `own` against `opp`: their count and the rows to the goal of the
    /// nearest one (`u32::MAX` without one).
    #[inline(always)]
    pub fn runners(&self, own: u64, opp: u64, side: Side) -> (u32, u32) {
        let si = side.index();
        let mut best = u32::MAX;
        let mut n = 0;
        let mut b = own;
        while b != 0 {
            let sq = b.trailing_zeros() as usize;
            b &= b - 1;
            if let Some(rows) = self.runner(si, sq, opp) {
                n += 1;
                best = best.min(rows);
            }
        }
        (n, best)
    }

    /// The rows to the goal of the piece of side `si` (its index) on `sq` when it is an unstoppable runner against
    /// `opp` (no enemy in its forward cone), else `None`.
    #[inline(always)]
    pub(crate) fn runner(&self, si: usize, sq: usize, opp: u64) -> Option<u32> {
        (self.cone[si][sq] & opp == 0).then(|| self.to_goal[si][sq] as u32)
    }
}
