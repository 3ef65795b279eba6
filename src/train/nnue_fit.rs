//! Training of the `nnue` evaluation (`plateau tune --eval nnue`, games/breakthrough/eval/nnue.rs): the float network
//! the integer one quantizes, fitted by minibatch Adam on labelled positions (the records of `pst_fit.rs`).
//!
//! ```text
//! data:   records (position, result r, search value v, game); games with game % 10 == 0 for validation
//! label:  K_v := argmin mean (r - σ(K_v v / 100))² per data file;   y := λ r + (1 - λ) σ(K_v v / 100)
//! net:    a_P = b1 + Σ W1[f] over P's features;  h_P = clamp(a_P, 0, 1);  o = W2[..H] h_stm + W2[H..] h_other + b2
//! residual (--residual): o := K pst(s) / 100 + o, the network learns what `pst` misses (K as under scale)
//! loss:   mean (σ(o) - y)²                       -- exact gradients by hand (backpropagation through the clamp)
//! fit:    Adam (β1 0.9, β2 0.999), minibatches of 256 positions in a seeded shuffled order, `epochs` passes;
//!         W1 and b1 kept in [-1.9, 1.9], W2 in [-1.95, 1.95] so that the i16 accumulators cannot overflow;
//!         early stopping: after every epoch the validation error is measured and the network of the best epoch kept
//! scale:  K := argmin mean (y - σ(K pst(s) / 100))² on the training positions; engine units per logit = 100 / K,
//!         so the network's values are on the `pst` scale the search's margins were tuned for
//! quantize: W1, b1 x QA (255); W2 x QB (64); b2 x QA QB; rounded to the nearest
//! ```

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng, rngs::StdRng};

use crate::game::{Evaluator, Side};
use crate::games::Breakthrough;
use crate::games::breakthrough::BtState;
use crate::games::breakthrough::eval::PstEvaluator;
use crate::games::breakthrough::eval::nnue::{HIDDEN, INPUTS, NnueWeights, QA, QB, feature};

use super::pst_fit::{Record, golden, sigmoid, value_prob};

/// The float network.
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

/// The options of a fit.
#[derive(Clone, Debug)]
pub struct NnueOptions {
    pub lambda: f64,
    pub epochs: usize,
    pub lr: f64,
    pub seed: u64,
    /// Print the errors every this many epochs (0: never).
    pub report_every: usize,
    /// Keep only quiet positions ([`quiet`]).
    pub quiet: bool,
    /// Train a residual network: its logit is added to `pst`'s (`K pst / 100`), so it learns what `pst` misses.
    pub residual: bool,
}

/// Whether nothing is about to happen on the board: neither side can capture, and neither has a piece on the row
/// next to its goal (a threat). The quiescence search reads the evaluation at such positions.
pub fn quiet(g: &Breakthrough, s: &BtState) -> bool {
    let (w, b) = (s.white, s.black);
    g.attacks(Side::First, w) & b == 0
        && g.attacks(Side::Second, b) & w == 0
        && w & g.pre_goal_row(Side::First) == 0
        && b & g.pre_goal_row(Side::Second) == 0
}

/// What a fit reports.
#[derive(Clone, Debug, serde::Serialize)]
pub struct NnueFit {
    pub positions: usize,
    pub train: usize,
    pub validation: usize,
    pub k_value: Vec<f64>,
    pub k_pst: f64,
    pub scale: i32,
    pub pst_validation_error: f64,
    pub train_error_after: f64,
    pub validation_error_after: f64,
    /// Validation error of the quantized network (its values turned back into win probabilities with K).
    pub quantized_validation_error: f64,
    /// The epoch whose network was kept (the lowest validation error).
    pub best_epoch: usize,
    pub curve: Vec<(usize, f64, f64)>,
}

struct Sample {
    /// Active features of the side to move's perspective, then of the other's.
    f: [Vec<u16>; 2],
    y: f32,
    /// The logit the network's output is added to: `K pst / 100` for a residual network, else 0.
    base: f32,
}

fn features(s: &BtState) -> [Vec<u16>; 2] {
    [s.stm, s.stm.other()].map(|persp| {
        let mut v = Vec::with_capacity(32);
        for (owner, mut bits) in [(Side::First, s.white), (Side::Second, s.black)] {
            while bits != 0 {
                let sq = bits.trailing_zeros();
                bits &= bits - 1;
                v.push(feature(persp, owner, sq) as u16);
            }
        }
        v
    })
}

impl FloatNet {
    fn new(seed: u64) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut r = |a: f32| rng.random_range(-a..a);
        FloatNet {
            w1: (0..INPUTS * HIDDEN).map(|_| r(0.08)).collect(),
            b1: (0..HIDDEN).map(|_| 0.3 + r(0.1)).collect(),
            w2: (0..2 * HIDDEN).map(|_| r(0.2)).collect(),
            b2: 0.0,
        }
    }

    /// Hidden pre-activations of both perspectives, and the output logit.
    fn forward(&self, f: &[Vec<u16>; 2], a: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let mut o = self.b2;
        for p in 0..2 {
            a[p].copy_from_slice(&self.b1);
            for &i in &f[p] {
                let row = &self.w1[i as usize * HIDDEN..(i as usize + 1) * HIDDEN];
                a[p].iter_mut().zip(row).for_each(|(x, w)| *x += w);
            }
            o += a[p]
                .iter()
                .zip(&self.w2[p * HIDDEN..(p + 1) * HIDDEN])
                .map(|(x, w)| x.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        o
    }

    fn error(&self, set: &[Sample]) -> f64 {
        let mut a = [[0f32; HIDDEN]; 2];
        let e: f64 =
            set.iter().map(|s| (sigmoid((s.base + self.forward(&s.f, &mut a)) as f64) - s.y as f64).powi(2)).sum();
        e / set.len().max(1) as f64
    }

    fn quantize(&self, scale: i32, residual: bool) -> NnueWeights {
        let q = |x: f32, m: i32| (x * m as f32).round() as i16;
        let mut w = NnueWeights::zero();
        for (i, row) in w.w1.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = q(self.w1[i * HIDDEN + j], QA);
            }
        }
        w.b1.iter_mut().zip(&self.b1).for_each(|(x, f)| *x = q(*f, QA));
        w.w2.iter_mut().zip(&self.w2).for_each(|(x, f)| *x = q(*f, QB));
        w.b2 = (self.b2 * (QA * QB) as f32).round() as i32;
        w.scale = scale;
        w.residual = residual;
        w
    }
}

/// Adam's moments of one parameter vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Self {
        Adam { m: vec![0.0; n], v: vec![0.0; n] }
    }

    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32, t: i32, bound: f32) {
        let (b1, b2) = (0.9f32, 0.999f32);
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for i in 0..w.len() {
            if g[i] == 0.0 && self.m[i] == 0.0 {
                continue;
            }
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g[i] * g[i];
            let upd = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
            w[i] = (w[i] - upd).clamp(-bound, bound);
        }
    }
}

/// Fit the network on `files` (each file its own `K_v`); the quantized weights and the report.
pub fn fit(g: &Breakthrough, files: &[Vec<Record>], o: &NnueOptions) -> (NnueFit, NnueWeights) {
    let mut train = Vec::new();
    let mut valid = Vec::new();
    let mut k_value = Vec::new();
    let mut states: Vec<(BtState, f32, bool)> = Vec::new();
    for recs in files {
        let kv = golden(|k| {
            recs.iter().map(|r| (r.result as f64 - value_prob(r.value, k)).powi(2)).sum::<f64>()
                / recs.len().max(1) as f64
        });
        k_value.push(kv);
        for r in recs.iter().filter(|r| !o.quiet || quiet(g, &r.state)) {
            let y = (o.lambda * r.result as f64 + (1.0 - o.lambda) * value_prob(r.value, kv)) as f32;
            states.push((r.state, y, r.game % 10 == 0));
        }
    }
    let pst = PstEvaluator::new(g);
    let train_states: Vec<&(BtState, f32, bool)> = states.iter().filter(|s| !s.2).collect();
    let k_pst = golden(|k| {
        train_states
            .iter()
            .map(|(s, y, _)| (*y as f64 - sigmoid(k * pst.evaluate(g, s) as f64 / 100.0)).powi(2))
            .sum::<f64>()
            / train_states.len().max(1) as f64
    });
    let pst_validation_error = {
        let v: Vec<_> = states.iter().filter(|s| s.2).collect();
        v.iter().map(|(s, y, _)| (*y as f64 - sigmoid(k_pst * pst.evaluate(g, s) as f64 / 100.0)).powi(2)).sum::<f64>()
            / v.len().max(1) as f64
    };
    for (s, y, is_valid) in &states {
        let base = if o.residual { (k_pst * pst.evaluate(g, s) as f64 / 100.0) as f32 } else { 0.0 };
        let sample = Sample { f: features(s), y: *y, base };
        if *is_valid { valid.push(sample) } else { train.push(sample) }
    }
    let mut net = FloatNet::new(o.seed);
    let mut opt = [Adam::new(net.w1.len()), Adam::new(HIDDEN), Adam::new(2 * HIDDEN), Adam::new(1)];
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = StdRng::seed_from_u64(o.seed ^ 0x5eed);
    let (mut g1, mut gb1, mut g2) = (vec![0f32; INPUTS * HIDDEN], vec![0f32; HIDDEN], vec![0f32; 2 * HIDDEN]);
    let mut t = 0;
    let mut curve = Vec::new();
    let mut a = [[0f32; HIDDEN]; 2];
    let mut best = (f64::INFINITY, 0usize, net.clone());
    for epoch in 1..=o.epochs {
        order.shuffle(&mut rng);
        for batch in order.chunks(256) {
            g1.iter_mut().for_each(|x| *x = 0.0);
            gb1.iter_mut().for_each(|x| *x = 0.0);
            g2.iter_mut().for_each(|x| *x = 0.0);
            let mut gb2 = 0f32;
            let n = batch.len() as f32;
            for &i in batch {
                let s = &train[i];
                let out = s.base + net.forward(&s.f, &mut a);
                let p = 1.0 / (1.0 + (-out).exp());
                let d = 2.0 * (p - s.y) * p * (1.0 - p) / n;
                gb2 += d;
                for side in 0..2 {
                    for j in 0..HIDDEN {
                        let x = a[side][j];
                        g2[side * HIDDEN + j] += d * x.clamp(0.0, 1.0);
                        if x > 0.0 && x < 1.0 {
                            let dh = d * net.w2[side * HIDDEN + j];
                            gb1[j] += dh;
                            for &f in &s.f[side] {
                                g1[f as usize * HIDDEN + j] += dh;
                            }
                        }
                    }
                }
            }
            t += 1;
            let lr = o.lr as f32;
            opt[0].step(&mut net.w1, &g1, lr, t, 1.9);
            opt[1].step(&mut net.b1, &gb1, lr, t, 1.9);
            opt[2].step(&mut net.w2, &g2, lr, t, 1.95);
            let mut b2 = [net.b2];
            opt[3].step(&mut b2, &[gb2], lr, t, 30.0);
            net.b2 = b2[0];
        }
        let va = if valid.is_empty() { net.error(&train) } else { net.error(&valid) };
        if va < best.0 {
            best = (va, epoch, net.clone());
        }
        if o.report_every > 0 && (epoch % o.report_every == 0 || epoch == o.epochs) {
            let tr = net.error(&train);
            eprintln!("epoch {epoch:>5}: training error {tr:.6}, validation error {va:.6}");
            curve.push((epoch, tr, va));
        }
    }
    let (_, best_epoch, net) = best;
    let scale = (100.0 / k_pst).round().max(1.0) as i32;
    let weights = net.quantize(scale, o.residual);
    let q = crate::games::breakthrough::eval::nnue::NnueEvaluator::with_weights(g, weights.clone());
    let quantized_validation_error = match &q {
        Some(e) => {
            let v: Vec<_> = states.iter().filter(|s| s.2).collect();
            v.iter()
                .map(|(s, y, _)| (*y as f64 - sigmoid(k_pst * e.evaluate(g, s) as f64 / 100.0)).powi(2))
                .sum::<f64>()
                / v.len().max(1) as f64
        }
        None => f64::NAN,
    };
    let fit = NnueFit {
        positions: states.len(),
        train: train.len(),
        validation: valid.len(),
        k_value,
        k_pst,
        scale,
        pst_validation_error,
        train_error_after: net.error(&train),
        validation_error_after: net.error(&valid),
        quantized_validation_error,
        best_epoch,
        curve,
    };
    (fit, weights)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::train::pst_fit::{data_options, generate};

    #[test]
    fn the_fit_learns_and_quantizes_faithfully() {
        let g = Breakthrough::default();
        let recs = generate(&g, &data_options(300, "pst"), 40, 4, 5, 1, |_| {}).unwrap();
        assert!(recs.len() > 500, "{} positions", recs.len());
        let o =
            NnueOptions { lambda: 0.5, epochs: 30, lr: 0.01, seed: 1, report_every: 0, quiet: false, residual: false };
        let (f, w) = fit(&g, std::slice::from_ref(&recs), &o);
        // Better than a constant guess of 1/2 on the positions it saw, and the integer network close to the float one.
        assert!(f.train_error_after < 0.2, "{f:?}");
        assert!((f.quantized_validation_error - f.validation_error_after).abs() < 0.01, "{f:?}");
        let e = crate::games::breakthrough::eval::nnue::NnueEvaluator::with_weights(&g, w).unwrap();
        let _ = e.evaluate(&g, &g.start());
        // The residual network on quiet positions: fewer positions, pst inside the value, quantized as faithfully.
        let o = NnueOptions { quiet: true, residual: true, ..o };
        let (r, w) = fit(&g, &[recs], &o);
        assert!(r.positions < f.positions && r.positions > 0, "{r:?}");
        assert!(w.residual && (r.quantized_validation_error - r.validation_error_after).abs() < 0.01, "{r:?}");
    }
}
