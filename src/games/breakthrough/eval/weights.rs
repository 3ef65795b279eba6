//! The weights of the Breakthrough evaluation, one (middle game, end game) pair per feature of
//! [`super::features::Feature`]. Written by `plateau tune` (see `docs/engine.md`); edit by re-running it.
//! Tuned on 16882 positions, K = 0.1870, error 0.247689 -> 0.240362.

/// Middle-game weights (phase 256 = all pieces on the board).
pub(crate) const MG: [i32; super::features::N_FEATURES] =
    [100, 60, 70, 14, -25, 1, -41, -52, -17, -23, 62, -3, 1500, 22, 5, 27];
/// End-game weights (phase 0 = no piece left).
pub(crate) const EG: [i32; super::features::N_FEATURES] =
    [110, 100, 82, 69, -2, -55, 7, -5, -45, -19, 38, 34, 1500, 16, 7, 25];

/// The hand-set weights the tuning started from (`engine(eval=hand)`).
pub(crate) const HAND_MG: [i32; super::features::N_FEATURES] =
    [100, 60, 30, 15, 6, 0, 10, -5, 8, -30, 20, 15, 1500, 10, 4, 2];
/// The hand-set end-game weights.
pub(crate) const HAND_EG: [i32; super::features::N_FEATURES] =
    [120, 100, 60, 35, 15, 0, 0, 0, 8, -30, 20, 25, 1500, 10, 4, 2];
