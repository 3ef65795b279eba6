//! Backgammon's evaluation weights fitted to self-play results (the evaluation `tuned`), written by
//! `plateau tune backgammon` (`train/bg_fit.rs`; the match that accepted them: docs/backgammon.md):
//! `plateau tune backgammon --games 20000 --depth 1 --seed 1`

use super::eval::Weights;

pub(crate) const TUNED: Weights = Weights {
    pip: 4,
    off: 168,
    bar: -121,
    blot: -32,
    point: 30,
    home_point: 62,
    prime: 59,
    anchor: -193,
    on_roll: 58,
    squash: 600,
};
