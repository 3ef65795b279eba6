//! The weights of the Breakthrough evaluation, one (middle game, end game) pair per feature of
//! [`super::breakthrough::Feature`]. Written by `plateau tune` (see `docs/engine.md`); edit by re-running it.
//! Tuned on 22772 positions, K = 0.1959, error 0.247487 -> 0.238706.

/// Middle-game weights (phase 256 = all pieces on the board).
pub const MG: [i32; super::breakthrough::N_FEATURES] =
    [100, 60, 144, -132, -33, -26, 43, 37, 40, -108, 218, 17, 1202, -7, 12, 5];
/// End-game weights (phase 0 = no piece left).
pub const EG: [i32; super::breakthrough::N_FEATURES] =
    [278, 100, 358, 317, -39, -201, -235, -225, -126, 147, 425, -37, 1023, 56, 38, 15];

/// The hand-set weights the tuning started from (`engine(eval=hand)`).
pub const HAND_MG: [i32; super::breakthrough::N_FEATURES] =
    [100, 60, 30, 15, 6, 0, 10, -5, 8, -30, 20, 15, 1500, 10, 4, 2];
/// The hand-set end-game weights.
pub const HAND_EG: [i32; super::breakthrough::N_FEATURES] =
    [120, 100, 60, 35, 15, 0, 0, 0, 8, -30, 20, 25, 1500, 10, 4, 2];
