//! The weights of the Breakthrough evaluation, one (middle game, end game) pair per feature of
//! [`super::breakthrough::Feature`]. Written by `plateau tune` (see `docs/engine.md`); edit by re-running it.

/// Middle-game weights (phase 256 = all pieces on the board).
pub const MG: [i32; super::breakthrough::N_FEATURES] = [100, 60, 30, 15, 6, 0, 10, -5, 8, -30, 20, 15, 1500, 10, 4, 2];
/// End-game weights (phase 0 = no piece left).
pub const EG: [i32; super::breakthrough::N_FEATURES] = [120, 100, 60, 35, 15, 0, 0, 0, 8, -30, 20, 25, 1500, 10, 4, 2];

/// The hand-set weights the tuning started from (`engine(eval=hand)`).
pub const HAND_MG: [i32; super::breakthrough::N_FEATURES] =
    [100, 60, 30, 15, 6, 0, 10, -5, 8, -30, 20, 15, 1500, 10, 4, 2];
/// The hand-set end-game weights.
pub const HAND_EG: [i32; super::breakthrough::N_FEATURES] =
    [120, 100, 60, 35, 15, 0, 0, 0, 8, -30, 20, 25, 1500, 10, 4, 2];
