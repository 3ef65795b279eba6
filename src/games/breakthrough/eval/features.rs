//! The Breakthrough evaluation: a weighted sum of integer features, blended between middle-game and end-game weights
//! by the number of pieces left (phase), from the side to move's point of view.
//!
//! ```text
//! features f_i(s) (own minus opponent's unless noted):
//!   material, pieces 1/2/3/4/5+ rows from the goal (advancement, a piece-square table by distance to the goal),
//!   pieces on the home row, pieces on an edge file, defended pieces, own attacked-undefended pieces (side to move's
//!   only), opponent's attacked-undefended pieces, defended pieces 3 or fewer rows from the goal, the unstoppable
//!   runner race (+1 won by the side to move, -1 lost), tempo (always 1), phalanx (a neighbour on the same row),
//!   mobility (move count)
//! phase  = 256 * pieces / starting pieces
//! eval   = (sum mg_i f_i * phase + sum eg_i f_i * (256 - phase)) / 256
//! ```
//!
//! A runner is a piece whose forward cone holds no enemy piece (rows ahead `dr >= 1`, files `|dc| <= dr / 2 + 1`):
//! no enemy can reach a square from which it captures the runner in time. The side whose nearest runner reaches the
//! goal first (the side to move wins ties, it moves first) wins the race.
//!
//! Every feature is computed on bitboards for any board size; the masks are built once per board.

use crate::game::Side;
use crate::games::breakthrough::{Breakthrough, BtState};

use super::geometry::Geometry;
use super::weights;

/// The features, in weight order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[expect(dead_code, reason = "Dist2..DistFar name weight slots, reached as `Dist1 as usize + k`")]
pub(crate) enum Feature {
    Material,
    Dist1,
    Dist2,
    Dist3,
    Dist4,
    DistFar,
    Home,
    Edge,
    Defended,
    OwnHanging,
    OppHanging,
    AdvancedDefended,
    Runner,
    Tempo,
    Phalanx,
    Mobility,
}

/// Number of features.
pub(crate) const N_FEATURES: usize = 16;

/// Feature names, for the tuner's output.
pub const NAMES: [&str; N_FEATURES] = [
    "material",
    "dist1",
    "dist2",
    "dist3",
    "dist4",
    "dist_far",
    "home",
    "edge",
    "defended",
    "own_hanging",
    "opp_hanging",
    "advanced_defended",
    "runner",
    "tempo",
    "phalanx",
    "mobility",
];

/// A position's feature vector and phase (0..=256).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Features {
    pub f: [i32; N_FEATURES],
    pub phase: i32,
}

/// The evaluation with its weights and the masks of one board.
#[derive(Clone, Debug)]
pub struct BtEvaluator {
    pub(crate) mg: [i32; N_FEATURES],
    pub(crate) eg: [i32; N_FEATURES],
    /// `dist[side][k]`: squares k+1 rows before `side`'s goal (k = 0..4; index 4 = 5 rows or more, home excluded).
    dist: [[u64; 5]; 2],
    home: [u64; 2],
    edge: u64,
    geo: Geometry,
    start_pieces: i32,
}

impl BtEvaluator {
    /// The evaluation for board `g` with the built-in weights.
    pub fn new(g: &Breakthrough) -> Self {
        Self::with_weights(g, weights::MG, weights::EG)
    }

    /// The evaluation for board `g` with the given weights (the tuner).
    pub(crate) fn with_weights(g: &Breakthrough, mg: [i32; N_FEATURES], eg: [i32; N_FEATURES]) -> Self {
        let (rows, cols) = (g.rows, g.columns);
        let geo = Geometry::new(g);
        let mut dist = [[0u64; 5]; 2];
        for side in [Side::First, Side::Second] {
            let si = side.index();
            for sq in 0..rows * cols {
                let d = geo.to_goal[si][sq as usize] as u32;
                if d >= 1 && d < rows - 1 {
                    dist[si][(d as usize - 1).min(4)] |= 1u64 << sq;
                }
            }
        }
        let home = [g.row_mask(0), g.row_mask(rows - 1)];
        let edge = g.file_mask(0) | g.file_mask(cols - 1);
        BtEvaluator { mg, eg, dist, home, edge, geo, start_pieces: (2 * g.piece_rows * cols) as i32 }
    }

    /// The feature vector of `s`, from the side to move's point of view.
    #[inline]
    pub(crate) fn features(&self, g: &Breakthrough, s: &BtState) -> Features {
        let me = s.stm;
        let them = me.other();
        let (own, opp) = Breakthrough::own_opp(s);
        let mut f = [0i32; N_FEATURES];
        let pc = |x: u64| x.count_ones() as i32;
        f[Feature::Material as usize] = pc(own) - pc(opp);
        for k in 0..5 {
            f[Feature::Dist1 as usize + k] = pc(own & self.dist[me.index()][k]) - pc(opp & self.dist[them.index()][k]);
        }
        f[Feature::Home as usize] = pc(own & self.home[me.index()]) - pc(opp & self.home[them.index()]);
        f[Feature::Edge as usize] = pc(own & self.edge) - pc(opp & self.edge);
        let own_att = self.geo.attacks(own, me);
        let opp_att = self.geo.attacks(opp, them);
        let own_def = own & own_att;
        let opp_def = opp & opp_att;
        f[Feature::Defended as usize] = pc(own_def) - pc(opp_def);
        f[Feature::OwnHanging as usize] = pc(own & opp_att & !own_def);
        f[Feature::OppHanging as usize] = pc(opp & own_att & !opp_def);
        let near_own = self.dist[me.index()][0] | self.dist[me.index()][1] | self.dist[me.index()][2];
        let near_opp = self.dist[them.index()][0] | self.dist[them.index()][1] | self.dist[them.index()][2];
        f[Feature::AdvancedDefended as usize] = pc(own_def & near_own) - pc(opp_def & near_opp);
        let r_own = self.geo.runners(own, opp, me).1;
        let r_opp = self.geo.runners(opp, own, them).1;
        f[Feature::Runner as usize] = if r_own <= r_opp && r_own != u32::MAX {
            1
        } else if r_opp < r_own {
            -1
        } else {
            0
        };
        f[Feature::Tempo as usize] = 1;
        f[Feature::Phalanx as usize] = self.geo.phalanx(own) as i32 - self.geo.phalanx(opp) as i32;
        let (a, b, c) = g.targets(s, me);
        let (d, e, h) = g.targets(s, them);
        f[Feature::Mobility as usize] = pc(a) + pc(b) + pc(c) - pc(d) - pc(e) - pc(h);
        let phase = (256 * (pc(own) + pc(opp)) / self.start_pieces.max(1)).clamp(0, 256);
        Features { f, phase }
    }

    /// The blended score of a feature vector.
    #[inline]
    pub fn score(&self, x: &Features) -> i32 {
        let mut mg = 0i64;
        let mut eg = 0i64;
        for i in 0..N_FEATURES {
            mg += self.mg[i] as i64 * x.f[i] as i64;
            eg += self.eg[i] as i64 * x.f[i] as i64;
        }
        ((mg * x.phase as i64 + eg * (256 - x.phase) as i64) / 256) as i32
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
    fn start_is_balanced_and_symmetric() {
        let g = Breakthrough::default();
        let e = BtEvaluator::new(&g);
        let s = g.start();
        let x = e.features(&g, &s);
        assert_eq!(x.phase, 256);
        assert_eq!(x.f[Feature::Material as usize], 0);
        assert_eq!(e.evaluate(&g, &s), e.mg[Feature::Tempo as usize]);
        // Mirror a position (swap colours and flip the board): the value seen by the side to move is the same.
        let p = g.parse_position("pp1ppppp/2pp2pp/8/3P4/8/8/PPP1PPPP/PPPPPPPP b").unwrap();
        let q = g.parse_position("pppppppp/ppp1pppp/8/8/3p4/8/2PP2PP/PP1PPPPP w").unwrap();
        assert_eq!(e.features(&g, &p), e.features(&g, &q));
    }

    #[test]
    fn runner_race() {
        let g = Breakthrough::default();
        let e = BtEvaluator::new(&g);
        // White e5 has a free path (no black piece in its cone); Black's pieces are far behind on the a/b files.
        let s = g.parse_position("8/8/8/4P3/8/8/pp6/8 w").unwrap();
        let x = e.features(&g, &s);
        // Black's a2 piece is 1 row from its goal and free too: Black wins the race even with White to move.
        assert_eq!(x.f[Feature::Runner as usize], -1);
        let s = g.parse_position("8/8/8/4P3/8/8/8/p7 w").unwrap();
        assert!(g.outcome(&s).is_some(), "black on a1 has already won");
        let s = g.parse_position("8/8/8/4P3/pp6/8/8/8 w").unwrap();
        assert_eq!(e.features(&g, &s).f[Feature::Runner as usize], 1, "3 rows each, White moves first");
        let s = g.parse_position("8/3p4/8/4P3/pp6/8/8/8 w").unwrap();
        assert_eq!(e.features(&g, &s).f[Feature::Runner as usize], -1, "d7 guards e5's path");
    }
}
