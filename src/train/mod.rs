//! Learning evaluations from games: the fitting code sits above the engine that plays the games it learns from.
//!
//! - [`texel`]: Texel-style tuning of the Breakthrough feature weights (`tuned`, games/breakthrough/eval/features.rs)
//!   from engine self-play games (`plateau tune`);
//! - [`pst_fit`]: the self-play data generator and the fit of the piece-square-table evaluation (`pst`,
//!   games/breakthrough/eval/pst.rs; `plateau tune --eval pst`);
//! - [`ntuple_fit`]: the fit of the 2x3 pattern table of the `nt` evaluation (`plateau tune --eval nt`);
//! - [`bg_fit`]: the logistic fit of backgammon's evaluation weights (`tuned`, games/backgammon/eval.rs) from
//!   self-play results (`plateau tune backgammon`);
//! - [`datagen`]: self-play data written game by game to a file, resumed after an interruption (`--save-data`);
//!   [`datagen_jobs`]: the same data in chunks of games played elsewhere (the Ray cluster driver);
//! - [`nnue_fit`]: the training of the `nnue` network (`plateau tune --eval nnue`).
//!
//! The evaluations themselves live with their game (`games/breakthrough/eval/`), so the engine and every tool use
//! them without this module.

pub mod bg_fit;
pub mod datagen;
pub mod datagen_jobs;
pub mod nnue_fit;
pub mod ntuple_fit;
pub mod pst_fit;
pub mod texel;
