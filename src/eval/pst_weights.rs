//! The weights of the `pst` Breakthrough evaluation (eval/pst.rs), written by
//! `plateau tune --eval pst --data d1.txt --epochs 600 --threads 2 --l2 0 --out src/eval/pst_weights.rs`.
//! 116389 positions (104775 training, 11614 validation), K = 1.9502, lambda = 0.5; validation error 0.088789 -> 0.073035 (hand evaluation: 0.088801).

use super::pst::N;

/// Middle-game weights (phase 256 = all pieces on the board): the table by rows to the goal (edge file
/// first), then the other features.
#[rustfmt::skip]
pub const MG: [i32; N] = [
    166, 131, 184, 161, // 1 row(s) from the goal
    136, 101, 154, 131, // 2 row(s) from the goal
    108, 88, 113, 88, // 3 row(s) from the goal
    94, 88, 97, 121, // 4 row(s) from the goal
    63, 76, 84, 91, // 5 row(s) from the goal
    48, 51, 76, 73, // 6 row(s) from the goal
    35, 106, 97, 67, // 7 row(s) from the goal
    -2, // defended
    -50, // own_hanging
    108, // opp_hanging
    -54, // own_weak
    107, // opp_weak
    -2, // adv_defended
    1500, // runner_race
    0, // runners
    17, // tempo
    2, // phalanx
    -1, // mobility
    -1, // holes
    0, // blocked
];

/// End-game weights (phase 0 = no piece left).
#[rustfmt::skip]
pub const EG: [i32; N] = [
    443, 457, 407, 559, // 1 row(s) from the goal
    403, 417, 367, 519, // 2 row(s) from the goal
    366, 298, 286, 359, // 3 row(s) from the goal
    26, 38, 75, 38, // 4 row(s) from the goal
    -119, 34, 2, -10, // 5 row(s) from the goal
    -2, -12, -3, -6, // 6 row(s) from the goal
    -62, -80, -6, 8, // 7 row(s) from the goal
    -82, // defended
    9, // own_hanging
    241, // opp_hanging
    -121, // own_weak
    344, // opp_weak
    69, // adv_defended
    1500, // runner_race
    0, // runners
    20, // tempo
    53, // phalanx
    -30, // mobility
    5, // holes
    0, // blocked
];
