//! The weights of the `pst` Breakthrough evaluation (eval/pst.rs), written by
//! `plateau tune --eval pst --data /work/targets/eval/data/d1.txt --epochs 600 --threads 2 --l2 0 --out /work/targets/eval/data/w_0.rs`.
//! 116389 positions (104775 training, 11614 validation), K = 1.9502, lambda = 0.5; validation error 0.088789 -> 0.072781 (hand evaluation: 0.088801).

use super::pst::N;

/// Middle-game weights (phase 256 = all pieces on the board): the table by rows to the goal (edge file
/// first), then the other features.
#[rustfmt::skip]
pub const MG: [i32; N] = [
    155, 160, 160, 160, // 1 row(s) from the goal
    135, 97, 152, 128, // 2 row(s) from the goal
    109, 88, 112, 88, // 3 row(s) from the goal
    95, 89, 98, 122, // 4 row(s) from the goal
    64, 77, 85, 91, // 5 row(s) from the goal
    48, 50, 76, 73, // 6 row(s) from the goal
    36, 105, 98, 68, // 7 row(s) from the goal
    -2, // defended
    -50, // own_hanging
    107, // opp_hanging
    -53, // own_weak
    107, // opp_weak
    -2, // adv_defended
    1012, // runner_race
    -472, // runners
    17, // tempo
    1, // phalanx
    -2, // mobility
    -2, // holes
    0, // blocked
];

/// End-game weights (phase 0 = no piece left).
#[rustfmt::skip]
pub const EG: [i32; N] = [
    220, 220, 220, 220, // 1 row(s) from the goal
    416, 430, 373, 528, // 2 row(s) from the goal
    360, 296, 289, 360, // 3 row(s) from the goal
    9, 30, 72, 33, // 4 row(s) from the goal
    -121, 31, 0, -14, // 5 row(s) from the goal
    0, -11, -2, -6, // 6 row(s) from the goal
    -60, -77, -7, 5, // 7 row(s) from the goal
    -80, // defended
    7, // own_hanging
    243, // opp_hanging
    -124, // own_weak
    347, // opp_weak
    71, // adv_defended
    888, // runner_race
    -584, // runners
    22, // tempo
    53, // phalanx
    -28, // mobility
    8, // holes
    0, // blocked
];
