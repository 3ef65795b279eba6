//! Texel-style tuning of the Breakthrough evaluation from engine self-play games.
//!
//! ```text
//! 1. play N games engine vs engine (node-limited, random opening plies from a seed);
//! 2. keep the quiet positions (no immediate win, no threat to answer) with the game's result r ∈ {0, 1} seen by the
//!    side to move, and their feature vectors;
//! 3. K := argmin_K  E(K) = mean (r - σ(K · eval / 100))²                 (a 1-D search, current weights)
//! 4. gradient descent (Adam) on the middle- and end-game weights, minimising E(K); the weights stay integers
//!    when written back (games/breakthrough/eval/weights.rs).
//! ```
//! The evaluation is linear in its weights (`eval = Σ_i (mg_i · phase + eg_i · (256 - phase)) / 256 · f_i`), so the
//! gradient is exact and cheap.

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::engine::Engine;
use crate::engine::params::EngineOptions;
use crate::game::{Capabilities, Knowledge};
use crate::game::{Forced, Game, Outcome};
use crate::games::Breakthrough;
use crate::search::{Limits, Searcher};

use crate::games::breakthrough::eval::features::{BtEvaluator, Features, N_FEATURES};
use crate::games::breakthrough::eval::weights;

/// One training position: its features and the result for the side to move (1 win, 0 loss).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub x: Features,
    pub result: f64,
}

/// Play `games` self-play games with `engine` options (a node limit per move) and collect samples.
pub fn self_play(
    g: &Breakthrough,
    opts: &EngineOptions,
    games: usize,
    random_plies: u32,
    seed: u64,
    mut progress: impl FnMut(usize),
) -> Vec<Sample> {
    let eval = BtEvaluator::new(g);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut samples = Vec::new();
    for gi in 0..games {
        let mut engines = [Engine::<Breakthrough>::new(opts.clone()), Engine::new(opts.clone())];
        let mut s = g.start();
        let mut positions: Vec<(Features, usize)> = Vec::new();
        let mut ply = 0usize;
        let result = loop {
            if let Some(o) = g.outcome(&s) {
                break (o, ply);
            }
            let side = ply % 2;
            let m = if (ply as u32) < random_plies {
                g.random_move(&s, &mut rng)
            } else {
                if g.forced(&s) == Forced::Free && !g.has_winning_move(&s) {
                    positions.push((eval.features(g, &s), side));
                }
                engines[side].search(g, &s).best_move
            };
            let Some(m) = m else { break (Outcome::Loss, ply) };
            g.play(&mut s, m);
            ply += 1;
            if ply > 1000 {
                break (Outcome::Draw, ply);
            }
        };
        // The outcome is seen by the side to move at the end (ply parity).
        let (o, end) = result;
        let first_side_result = match (o, end % 2) {
            (Outcome::Win, 0) | (Outcome::Loss, 1) => 1.0,
            (Outcome::Draw, _) | (Outcome::Value(_), _) => 0.5,
            _ => 0.0,
        };
        for (x, side) in positions {
            let r = if side == 0 { first_side_result } else { 1.0 - first_side_result };
            samples.push(Sample { x, result: r });
        }
        progress(gi + 1);
    }
    samples
}

/// The engine options used for self-play games: a node limit per move, one thread, a small table, the hand-set
/// weights (so that a tuning run does not depend on the previous one), the win probe and loss check on and the null
/// move off (the settings the committed weights were tuned with).
pub fn self_play_options(nodes: u64) -> EngineOptions {
    EngineOptions {
        limits: Limits { nodes: Some(nodes), ..Limits::default() },
        tt_mib: 8,
        eval: Some("hand".into()),
        probe: true,
        check: true,
        null: false,
        ..EngineOptions::default()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The linear evaluation with real weights `w` (mg then eg).
fn eval_f(w: &[f64], x: &Features) -> f64 {
    let p = x.phase as f64 / 256.0;
    let mut v = 0.0;
    for i in 0..N_FEATURES {
        v += (w[i] * p + w[N_FEATURES + i] * (1.0 - p)) * x.f[i] as f64;
    }
    v
}

/// Mean squared error of the predictions.
pub fn error(w: &[f64], k: f64, samples: &[Sample]) -> f64 {
    let n = samples.len().max(1) as f64;
    samples.iter().map(|s| (s.result - sigmoid(k * eval_f(w, &s.x) / 100.0)).powi(2)).sum::<f64>() / n
}

/// The scaling constant K that fits the current weights best (golden-section search on [0.01, 10]).
pub fn fit_k(w: &[f64], samples: &[Sample]) -> f64 {
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if error(w, c, samples) < error(w, d, samples) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// The result of a tuning run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Tuned {
    pub k: f64,
    pub error_before: f64,
    pub error_after: f64,
    pub mg: [i32; N_FEATURES],
    pub eg: [i32; N_FEATURES],
    pub samples: usize,
}

/// Adam (Kingma and Ba 2015): per-weight moment estimates, beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8; shared by the
/// two tuners (this one and `train.rs`).
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    lr: f64,
}

impl Adam {
    pub fn new(weights: usize, lr: f64) -> Adam {
        Adam { m: vec![0.0; weights], v: vec![0.0; weights], lr }
    }

    /// One step on weight `i` (value `w`) with gradient `g`, at step `t` (from 1).
    #[inline]
    pub fn update(&mut self, w: &mut f64, i: usize, g: f64, t: usize) {
        let (b1, b2, eps) = (0.9, 0.999, 1e-8);
        self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
        self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
        let mh = self.m[i] / (1.0 - f64::powi(b1, t as i32));
        let vh = self.v[i] / (1.0 - f64::powi(b2, t as i32));
        *w -= self.lr * mh / (vh.sqrt() + eps);
    }
}

/// Tune `mg`/`eg` on `samples` with `epochs` full-batch Adam steps, with an L2 penalty `l2 * (w - w0)^2` that keeps
/// the weights near where they started (self-play results are noisy). The middle-game material weight stays fixed
/// (the scale of the evaluation: a piece is 100).
pub fn tune(samples: &[Sample], mg: [i32; N_FEATURES], eg: [i32; N_FEATURES], epochs: usize, l2: f64) -> Tuned {
    let mut w: Vec<f64> = mg.iter().chain(eg.iter()).map(|&x| x as f64).collect();
    let w0 = w.clone();
    let k = fit_k(&w, samples);
    let error_before = error(&w, k, samples);
    let mut adam = Adam::new(w.len(), 2.0);
    let fixed = [crate::games::breakthrough::eval::features::Feature::Material as usize];
    for t in 1..=epochs {
        let mut grad = vec![0.0; w.len()];
        for s in samples {
            let e = eval_f(&w, &s.x);
            let p = sigmoid(k * e / 100.0);
            // d/dw (r - p)^2 = -2 (r - p) p (1 - p) k/100 de/dw
            let common = -2.0 * (s.result - p) * p * (1.0 - p) * k / 100.0;
            let ph = s.x.phase as f64 / 256.0;
            for i in 0..N_FEATURES {
                let f = s.x.f[i] as f64;
                if f != 0.0 {
                    grad[i] += common * f * ph;
                    grad[N_FEATURES + i] += common * f * (1.0 - ph);
                }
            }
        }
        let n = samples.len().max(1) as f64;
        for i in 0..w.len() {
            if fixed.contains(&i) {
                continue;
            }
            let g = grad[i] / n + 2.0 * l2 * (w[i] - w0[i]);
            adam.update(&mut w[i], i, g, t);
        }
    }
    let mut out_mg = [0; N_FEATURES];
    let mut out_eg = [0; N_FEATURES];
    for i in 0..N_FEATURES {
        out_mg[i] = w[i].round() as i32;
        out_eg[i] = w[N_FEATURES + i].round() as i32;
    }
    let wr: Vec<f64> = out_mg.iter().chain(out_eg.iter()).map(|&x| x as f64).collect();
    Tuned { k, error_before, error_after: error(&wr, k, samples), mg: out_mg, eg: out_eg, samples: samples.len() }
}

/// The whole `games/breakthrough/eval/weights.rs` with the tuned weights (the hand-set ones are kept as they are).
pub fn weights_source(t: &Tuned) -> String {
    let list = |w: &[i32]| w.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
    let mut out = String::new();
    out += "//! The weights of the Breakthrough evaluation, one (middle game, end game) pair per feature of\n";
    out +=
        "//! [`super::features::Feature`]. Written by `plateau tune` (see `docs/engine.md`); edit by re-running it.\n";
    out += &format!(
        "//! Tuned on {} positions, K = {:.4}, error {:.6} -> {:.6}.\n\n",
        t.samples, t.k, t.error_before, t.error_after
    );
    out += "/// Middle-game weights (phase 256 = all pieces on the board).\n";
    out += &format!("pub const MG: [i32; super::features::N_FEATURES] = [{}];\n", list(&t.mg));
    out += "/// End-game weights (phase 0 = no piece left).\n";
    out += &format!("pub const EG: [i32; super::features::N_FEATURES] = [{}];\n\n", list(&t.eg));
    out += "/// The hand-set weights the tuning started from (`engine(eval=hand)`).\n";
    out += &format!("pub const HAND_MG: [i32; super::features::N_FEATURES] = [{}];\n", list(&weights::HAND_MG));
    out += "/// The hand-set end-game weights.\n";
    out += &format!("pub const HAND_EG: [i32; super::features::N_FEATURES] = [{}];\n", list(&weights::HAND_EG));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_reduces_the_error_on_self_play() {
        let g = Breakthrough::new(6, 5, 2, false, false).unwrap();
        let samples = self_play(&g, &self_play_options(300), 6, 2, 1, |_| {});
        assert!(samples.len() > 50);
        let t = tune(&samples, weights::HAND_MG, weights::HAND_EG, 30, 1e-7);
        assert!(t.error_after <= t.error_before, "{} -> {}", t.error_before, t.error_after);
        assert!(t.k > 0.0);
        assert!(weights_source(&t).contains("pub const MG"));
    }
}
