//! The second Breakthrough evaluation (`engine(eval=pst)`): a full piece-square table plus safety and race features,
//! every weight fitted at once by `plateau tune --eval pst` (eval/train.rs), blended by phase.
//!
//! ```text
//! features f_i(s), side to move's view (own minus opponent's unless noted):
//!   pst[d][c]    pieces d rows from their goal (d = 1..7, 7 = 7 or more) on folded file c (0 = edge file .. 3 = 4th
//!                file or nearer the centre); the table holds material, advancement, home row and edge files at once
//!   defended     pieces attacked by a piece of their own side
//!   own_hanging  side to move's pieces attacked and not defended (side to move only: it moves first)
//!   opp_hanging  the opponent's attacked and undefended pieces
//!   own_weak     side to move's pieces attacked twice and defended once
//!   opp_weak     the opponent's
//!   adv_defended defended pieces 3 or fewer rows from the goal
//!   runner_race  +1 if the side to move's nearest unstoppable runner arrives first (it moves first), -1 if the
//!                opponent's does, 0 without runners
//!   runners      unstoppable runners (forward cone free of enemies)
//!   tempo        1
//!   phalanx      pieces with a neighbour on the same row
//!   mobility     move count
//!   holes        empty squares of the own 2nd and 3rd rows not attacked by an own piece (entry points)
//!   blocked      pieces with an enemy piece right in front
//! phase = 256 * pieces / starting pieces
//! eval  = (sum_i mg_i f_i * phase + sum_i eg_i f_i * (256 - phase)) / 256
//! ```
//!
//! The runner cone is the one of [`super::geometry`] (shared with [`super::features`]): rows ahead `dr >= 1`,
//! files `|dc| <= dr / 2 + 1`.

use crate::game::Side;
use crate::games::breakthrough::{Breakthrough, BtState};

use super::geometry::Geometry;
use super::pst_weights;

/// Rows-to-goal buckets of the table (1..=7).
pub(crate) const PST_ROWS: usize = 7;
/// Folded-file buckets of the table (0 = edge).
pub(crate) const PST_FILES: usize = 4;
/// Entries of the table.
pub(crate) const PST_N: usize = PST_ROWS * PST_FILES;

/// Index of the first non-table feature, in weight order after the table.
pub(crate) const DEFENDED: usize = PST_N;
pub(crate) const OWN_HANGING: usize = PST_N + 1;
pub(crate) const OPP_HANGING: usize = PST_N + 2;
pub(crate) const OWN_WEAK: usize = PST_N + 3;
pub(crate) const OPP_WEAK: usize = PST_N + 4;
pub(crate) const ADV_DEFENDED: usize = PST_N + 5;
pub(crate) const RUNNER_RACE: usize = PST_N + 6;
pub(crate) const RUNNERS: usize = PST_N + 7;
pub(crate) const TEMPO: usize = PST_N + 8;
pub(crate) const PHALANX: usize = PST_N + 9;
pub(crate) const MOBILITY: usize = PST_N + 10;
pub(crate) const HOLES: usize = PST_N + 11;
pub(crate) const BLOCKED: usize = PST_N + 12;

/// Number of features.
pub const N: usize = PST_N + 13;

/// Names of the non-table features (the table entries are `pst_d{d}_f{c}`).
pub(crate) const EXTRA_NAMES: [&str; N - PST_N] = [
    "defended",
    "own_hanging",
    "opp_hanging",
    "own_weak",
    "opp_weak",
    "adv_defended",
    "runner_race",
    "runners",
    "tempo",
    "phalanx",
    "mobility",
    "holes",
    "blocked",
];

/// The name of feature `i`.
pub fn name(i: usize) -> String {
    if i < PST_N {
        format!("pst_d{}_f{}", i / PST_FILES + 1, i % PST_FILES)
    } else {
        EXTRA_NAMES[i - PST_N].to_string()
    }
}

/// A position's feature vector and phase (0..=256).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Features {
    pub f: [i16; N],
    pub phase: i32,
}

/// The evaluation with its weights and the masks of one board.
#[derive(Clone, Debug)]
pub struct PstEvaluator {
    pub(crate) mg: [i32; N],
    pub(crate) eg: [i32; N],
    /// `cell[side][sq]`: the table entry of a `side` piece on `sq`.
    cell: [[u8; 64]; 2],
    /// `near[side]`: squares 3 or fewer rows from `side`'s goal.
    near: [u64; 2],
    /// `guard[side]`: the 2nd and 3rd rows from `side`'s home row.
    guard: [u64; 2],
    geo: Geometry,
    board: u64,
    start_pieces: i32,
}

impl PstEvaluator {
    /// The evaluation for board `g` with the built-in weights (eval/pst_weights.rs).
    pub fn new(g: &Breakthrough) -> Self {
        Self::with_weights(g, pst_weights::MG, pst_weights::EG)
    }

    /// The evaluation for board `g` with the given weights (the tuner).
    pub(crate) fn with_weights(g: &Breakthrough, mg: [i32; N], eg: [i32; N]) -> Self {
        let (rows, cols) = (g.rows, g.columns);
        let geo = Geometry::new(g);
        let mut cell = [[0u8; 64]; 2];
        let mut near = [0u64; 2];
        for side in [Side::First, Side::Second] {
            let si = side.index();
            for sq in 0..rows * cols {
                let c = sq % cols;
                let d = geo.to_goal[si][sq as usize] as u32;
                let fold = c.min(cols - 1 - c).min(PST_FILES as u32 - 1) as usize;
                let dr = (d as usize).clamp(1, PST_ROWS) - 1;
                cell[si][sq as usize] = (dr * PST_FILES + fold) as u8;
                if (1..=3).contains(&d) {
                    near[si] |= 1u64 << sq;
                }
            }
        }
        let guard =
            [g.row_mask(1.min(rows - 1)) | g.row_mask(2.min(rows - 1)), g.row_mask(rows - 2) | g.row_mask(rows - 3)];
        let board = g.board_mask();
        PstEvaluator { mg, eg, cell, near, guard, geo, board, start_pieces: (2 * g.piece_rows * cols) as i32 }
    }

    /// The feature vector of `s`, from the side to move's point of view.
    #[inline]
    pub(crate) fn features(&self, g: &Breakthrough, s: &BtState) -> Features {
        let me = s.stm;
        let them = me.other();
        let (mi, ti) = (me.index(), them.index());
        let (own, opp) = Breakthrough::own_opp(s);
        let mut f = [0i16; N];
        let pc = |x: u64| x.count_ones() as i16;
        // One pass over each side's pieces: its table cell, and whether it is a runner (`Geometry::runner`, as
        // `Geometry::runners` counts them), so that the pieces are walked once.
        let geo = &self.geo;
        let (mut n_own, mut r_own) = (0i16, u32::MAX);
        let mut b = own;
        while b != 0 {
            let sq = b.trailing_zeros() as usize;
            b &= b - 1;
            f[self.cell[mi][sq] as usize] += 1;
            if let Some(rows) = geo.runner(mi, sq, opp) {
                n_own += 1;
                r_own = r_own.min(rows);
            }
        }
        let (mut n_opp, mut r_opp) = (0i16, u32::MAX);
        let mut b = opp;
        while b != 0 {
            let sq = b.trailing_zeros() as usize;
            b &= b - 1;
            f[self.cell[ti][sq] as usize] -= 1;
            if let Some(rows) = geo.runner(ti, sq, own) {
                n_opp += 1;
                r_opp = r_opp.min(rows);
            }
        }
        let (ol, or) = self.geo.attacks2(own, me);
        let (tl, tr) = self.geo.attacks2(opp, them);
        let (own_att, opp_att) = (ol | or, tl | tr);
        let (own_att2, opp_att2) = (ol & or, tl & tr);
        let own_def = own & own_att;
        let opp_def = opp & opp_att;
        f[DEFENDED] = pc(own_def) - pc(opp_def);
        f[OWN_HANGING] = pc(own & opp_att & !own_def);
        f[OPP_HANGING] = pc(opp & own_att & !opp_def);
        f[OWN_WEAK] = pc(own & opp_att2 & own_att & !own_att2);
        f[OPP_WEAK] = pc(opp & own_att2 & opp_att & !opp_att2);
        f[ADV_DEFENDED] = pc(own_def & self.near[mi]) - pc(opp_def & self.near[ti]);
        f[RUNNER_RACE] = if r_own <= r_opp && r_own != u32::MAX {
            1
        } else if r_opp < r_own {
            -1
        } else {
            0
        };
        f[RUNNERS] = n_own - n_opp;
        f[TEMPO] = 1;
        f[PHALANX] = self.geo.phalanx(own) as i16 - self.geo.phalanx(opp) as i16;
        let (a, bb, c) = g.targets(s, me);
        let (d, e, h) = g.targets(s, them);
        f[MOBILITY] = pc(a) + pc(bb) + pc(c) - pc(d) - pc(e) - pc(h);
        let empty = self.board & !(own | opp);
        f[HOLES] = pc(empty & self.guard[mi] & !own_att) - pc(empty & self.guard[ti] & !opp_att);
        f[BLOCKED] = pc(self.geo.ahead(own, me) & opp) - pc(self.geo.ahead(opp, them) & own);
        let phase = (256 * (own.count_ones() + opp.count_ones()) as i32 / self.start_pieces.max(1)).clamp(0, 256);
        Features { f, phase }
    }

    /// The blended score of a feature vector.
    #[inline]
    pub fn score(&self, x: &Features) -> i32 {
        let mut mg = 0i32;
        let mut eg = 0i32;
        for i in 0..N {
            mg += self.mg[i] * x.f[i] as i32;
            eg += self.eg[i] * x.f[i] as i32;
        }
        ((mg as i64 * x.phase as i64 + eg as i64 * (256 - x.phase) as i64) / 256) as i32
    }

    /// The evaluation of `s` from the side to move's point of view.
    #[inline]
    pub fn evaluate(&self, g: &Breakthrough, s: &BtState) -> i32 {
        self.score(&self.features(g, s)).clamp(-400_000, 400_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn start_is_balanced_and_mirror_symmetric() {
        let g = Breakthrough::default();
        let e = PstEvaluator::new(&g);
        let s = g.start();
        let x = e.features(&g, &s);
        assert_eq!(x.phase, 256);
        assert!(x.f[..TEMPO].iter().all(|&v| v == 0), "{:?}", x.f);
        assert_eq!(e.evaluate(&g, &s), e.mg[TEMPO]);
        // Colours swapped and board flipped: the side to move sees the same features.
        let p = g.parse_position("pp1ppppp/2pp2pp/8/3P4/8/8/PPP1PPPP/PPPPPPPP b").unwrap();
        let q = g.parse_position("pppppppp/ppp1pppp/8/8/3p4/8/2PP2PP/PP1PPPPP w").unwrap();
        assert_eq!(e.features(&g, &p), e.features(&g, &q));
        // Left-right mirror: same features too (the table folds the files).
        let r = g.parse_position("ppppp1pp/pp2pp2/8/4P3/8/8/PPPP1PPP/PPPPPPPP b").unwrap();
        assert_eq!(e.features(&g, &p), e.features(&g, &r));
    }

    #[test]
    fn safety_features() {
        let g = Breakthrough::default();
        let e = PstEvaluator::new(&g);
        // White d4 attacked by c5 and e5, defended by c3 only; White to move.
        let s = g.parse_position("8/8/8/2p1p3/3P4/2P5/8/8 w").unwrap();
        let x = e.features(&g, &s);
        assert_eq!(x.f[OWN_WEAK], 1);
        assert_eq!(x.f[OWN_HANGING], 0);
        assert_eq!(x.f[OPP_HANGING], 2, "c5 and e5 are attacked by d4 and undefended");
        let s = g.parse_position("8/8/8/3p4/3P4/8/8/8 w").unwrap();
        assert_eq!(e.features(&g, &s).f[BLOCKED], 0, "both blocked");
        let s = g.parse_position("8/8/8/3p4/3P4/8/8/P7 w").unwrap();
        assert_eq!(e.features(&g, &s).f[HOLES], -1, "White's a1 covers b2, Black has no cover at all");
    }

    /// The runner terms, computed in the pass over the pieces, equal `Geometry::runners` on the positions of random
    /// games of three board sizes.
    #[test]
    fn runner_terms_equal_the_geometry_s_runners() {
        use crate::game::{Game, MoveList};
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(5);
        let mut seen = 0;
        for g in [
            Breakthrough::default(),
            Breakthrough::new(6, 5, 2, false, false).unwrap(),
            Breakthrough::new(5, 7, 1, false, false).unwrap(),
        ] {
            let e = PstEvaluator::new(&g);
            for _ in 0..30 {
                let mut s = g.start();
                while !g.is_terminal(&s) {
                    let (own, opp) = Breakthrough::own_opp(&s);
                    let (n_own, r_own) = e.geo.runners(own, opp, s.stm);
                    let (n_opp, r_opp) = e.geo.runners(opp, own, s.stm.other());
                    let x = e.features(&g, &s);
                    assert_eq!(x.f[RUNNERS], n_own as i16 - n_opp as i16);
                    let race = if r_own <= r_opp && r_own != u32::MAX { 1 } else { -i16::from(r_opp < r_own) };
                    assert_eq!(x.f[RUNNER_RACE], race);
                    seen += usize::from(n_own + n_opp > 0);
                    let mut moves = MoveList::new();
                    g.generate_moves(&s, &mut moves);
                    let m = moves[rng.random_range(0..moves.len())];
                    g.play(&mut s, m);
                }
            }
        }
        assert!(seen > 100, "only {seen} positions with a runner");
    }
}
