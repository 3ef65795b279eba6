//! The weights of the `pst` Breakthrough evaluation (eval/pst.rs), written by
//! `plateau tune --eval pst --data d2.txt --data f1.txt --epochs 600 --threads 2 --l2 0 --out src/games/breakthrough/eval/pst_weights.rs`.
//! 213318 positions (191903 training, 21415 validation), K = 0.4404, lambda = 0.5; validation error 0.078649 -> 0.068700 (hand evaluation: 0.078647).

use super::pst::N;

/// Middle-game weights (phase 256 = all pieces on the board): the table by rows to the goal (edge file
/// first), then the other features.
#[rustfmt::skip]
pub(crate) const MG: [i32; N] = [
    239, 228, 252, 91, // 1 row(s) from the goal
    209, 198, 222, 61, // 2 row(s) from the goal
    146, 140, 132, 101, // 3 row(s) from the goal
    118, 126, 128, 136, // 4 row(s) from the goal
    84, 113, 114, 120, // 5 row(s) from the goal
    82, 93, 95, 94, // 6 row(s) from the goal
    57, 95, 140, 69, // 7 row(s) from the goal
    -5, // defended
    -20, // own_hanging
    104, // opp_hanging
    -15, // own_weak
    100, // opp_weak
    10, // adv_defended
    1500, // runner_race
    0, // runners
    14, // tempo
    0, // phalanx
    1, // mobility
    1, // holes
    0, // blocked
];

/// End-game weights (phase 0 = no piece left).
#[rustfmt::skip]
pub(crate) const EG: [i32; N] = [
    410, 523, 485, 642, // 1 row(s) from the goal
    370, 483, 445, 602, // 2 row(s) from the goal
    200, 265, 324, 361, // 3 row(s) from the goal
    138, 72, 135, 118, // 4 row(s) from the goal
    72, 80, 33, 59, // 5 row(s) from the goal
    9, 151, 127, 135, // 6 row(s) from the goal
    66, 149, 77, 162, // 7 row(s) from the goal
    -27, // defended
    51, // own_hanging
    214, // opp_hanging
    -258, // own_weak
    157, // opp_weak
    8, // adv_defended
    1500, // runner_race
    0, // runners
    27, // tempo
    24, // phalanx
    6, // mobility
    19, // holes
    0, // blocked
];
