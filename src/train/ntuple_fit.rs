//! The logistic fit of the n-tuple evaluation (`plateau tune --eval nt`, evaluator in games/breakthrough/eval/ntuple.rs).
//!
//! ```text
//! data:   the records of train/pst_fit.rs (position, game result r, search value v, game number; `--data FILE[,FILE]`)
//!         games with i % 10 == 0 are the validation set, the others the training set
//! label:  K_v := argmin mean (r - σ(K_v v / 100))²,   y := λ r + (1 - λ) σ(K_v v / 100)      (as train.rs; one K_v
//!         per data file: files played with different evaluations have search values on different scales)
//! start:  w0 = the committed pst weights, every pattern weight 0 (so the start is exactly eval=pst)
//! scale:  K := argmin mean over training positions (y - σ(K · eval_w0(s) / 100))²: pst's own scale on these labels
//! model:  eval_w(s) = Σ_i (mg_i p + eg_i (1 - p)) f_i(s) + Σ_windows (T_mg[e] p + T_eg[e] (1 - p)),  p = phase / 256
//!         (f = pst features, e = the table entry of a window; sparse: 42 entries per 8x8 position)
//! fit:    E(w) = mean over training positions (y - σ(K · eval_w(s) / 100))² + l2 · |T|²   (pattern weights only)
//!         full-batch Adam (train::texel::Adam) on the pattern weights, and on the pst weights with `--fit-pst`
//!         (runner count and runner race stay fixed, as in train.rs); gradients summed in chunk order, so the fit
//!         does not depend on the thread count
//! report: E on training and validation positions before (= pst) and after, weights rounded (pst to i32, table
//!         to i16)
//! ```

use rayon::prelude::*;

use crate::games::Breakthrough;

use super::pst_fit::{Record, golden, sigmoid, value_prob};
use crate::games::breakthrough::eval::ntuple::{MAX_WINDOWS, NtEvaluator, NtWeights};
use crate::games::breakthrough::eval::pst::{self, Features, N};

/// A set of samples, structure of arrays: pst features, labels, and `windows` table entries per sample.
struct Set {
    x: Vec<Features>,
    y: Vec<f64>,
    e: Vec<u32>,
    windows: usize,
}

impl Set {
    fn new(windows: usize) -> Set {
        Set { x: Vec::new(), y: Vec::new(), e: Vec::new(), windows }
    }

    fn len(&self) -> usize {
        self.y.len()
    }
}

/// Weight layout: pst mg (N), pst eg (N), then the table as (mg, eg) pairs.
const T0: usize = 2 * N;

#[inline]
fn eval_w(w: &[f64], x: &Features, e: &[u32]) -> f64 {
    let p = x.phase as f64 / 256.0;
    let (mut mg, mut eg) = (0.0, 0.0);
    for i in 0..N {
        let f = x.f[i] as f64;
        mg += w[i] * f;
        eg += w[N + i] * f;
    }
    for &j in e {
        let j = T0 + 2 * j as usize;
        mg += w[j];
        eg += w[j + 1];
    }
    mg * p + eg * (1.0 - p)
}

fn mse(w: &[f64], k: f64, s: &Set) -> f64 {
    (0..s.len())
        .into_par_iter()
        .with_min_len(4096)
        .map(|i| (s.y[i] - sigmoid(k * eval_w(w, &s.x[i], &s.e[i * s.windows..(i + 1) * s.windows]) / 100.0)).powi(2))
        .sum::<f64>()
        / s.len().max(1) as f64
}

/// What a fit reports.
#[derive(Clone, Debug, serde::Serialize)]
pub struct NtFit {
    pub positions: usize,
    pub train: usize,
    pub validation: usize,
    /// `K_v` of each data file.
    pub k_value: Vec<f64>,
    pub lambda: f64,
    pub k: f64,
    pub epochs: usize,
    pub lr: f64,
    pub l2: f64,
    pub fit_pst: bool,
    /// Errors of the starting weights (= the pst evaluation).
    pub train_error_before: f64,
    pub validation_error_before: f64,
    pub train_error_after: f64,
    pub validation_error_after: f64,
    /// Table entries (mg or eg) that are not zero after the fit.
    pub nonzero_entries: usize,
    /// Table entries in all.
    pub entries: usize,
    /// Validation error every `report_every` epochs (epoch, training error, validation error), when asked.
    pub curve: Vec<(usize, f64, f64)>,
}

/// Options of a fit.
#[derive(Clone, Debug)]
pub struct NtOptions {
    pub lambda: f64,
    pub epochs: usize,
    pub lr: f64,
    /// L2 penalty on the pattern weights (towards 0).
    pub l2: f64,
    /// Fit the pst weights too.
    pub fit_pst: bool,
    /// Record the errors every this many epochs (0: never).
    pub report_every: usize,
}

/// Fit the pattern weights (and the pst weights with `fit_pst`) on `files` (the records of each data file),
/// starting from `start` (whose board must be `g`'s). `None` when `start` does not fit the board.
pub fn fit(g: &Breakthrough, files: &[Vec<Record>], start: &NtWeights, o: &NtOptions) -> Option<(NtFit, NtWeights)> {
    let ev = NtEvaluator::with_weights(g, start)?;
    let windows = ev.layout().windows();
    let mut train = Set::new(windows);
    let mut valid = Set::new(windows);
    let mut buf = [0u32; MAX_WINDOWS];
    let mut k_value = Vec::new();
    for records in files {
        let kv = golden(|k| {
            records.iter().map(|r| (r.result as f64 - value_prob(r.value, k)).powi(2)).sum::<f64>()
                / records.len().max(1) as f64
        });
        k_value.push(kv);
        for r in records {
            let set = if r.game % 10 == 0 { &mut valid } else { &mut train };
            set.y.push(o.lambda * r.result as f64 + (1.0 - o.lambda) * value_prob(r.value, kv));
            set.x.push(ev.pst.features(g, &r.state));
            let n = ev.entries(&r.state, &mut buf);
            set.e.extend_from_slice(&buf[..n]);
        }
    }
    let mut w: Vec<f64> = start.pst_mg.iter().chain(start.pst_eg.iter()).map(|&x| x as f64).collect();
    w.extend(start.table.iter().flat_map(|[m, e]| [*m as f64, *e as f64]));
    let k = golden(|k| mse(&w, k, &train));
    let train_error_before = mse(&w, k, &train);
    let validation_error_before = mse(&w, k, &valid);
    let mut adam = super::texel::Adam::new(w.len(), o.lr);
    let n = train.len().max(1) as f64;
    let mut curve = Vec::new();
    let chunk = 4096;
    for t in 1..=o.epochs {
        let grad = (0..train.len().div_ceil(chunk))
            .into_par_iter()
            .map(|c| {
                let mut grad = vec![0.0; w.len()];
                for i in c * chunk..((c + 1) * chunk).min(train.len()) {
                    let (x, e) = (&train.x[i], &train.e[i * windows..(i + 1) * windows]);
                    let p = sigmoid(k * eval_w(&w, x, e) / 100.0);
                    let common = -2.0 * (train.y[i] - p) * p * (1.0 - p) * k / 100.0;
                    let ph = x.phase as f64 / 256.0;
                    let (gm, ge) = (common * ph, common * (1.0 - ph));
                    if o.fit_pst {
                        for j in 0..N {
                            let f = x.f[j] as f64;
                            if f != 0.0 {
                                grad[j] += gm * f;
                                grad[N + j] += ge * f;
                            }
                        }
                    }
                    for &j in e {
                        let j = T0 + 2 * j as usize;
                        grad[j] += gm;
                        grad[j + 1] += ge;
                    }
                }
                grad
            })
            .collect::<Vec<_>>()
            // Summed in chunk order: the fit does not depend on the thread count.
            .into_iter()
            .fold(vec![0.0; w.len()], |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            });
        if o.fit_pst {
            for i in 0..T0 {
                if i % N == pst::RUNNERS || i % N == pst::RUNNER_RACE {
                    continue;
                }
                adam.update(&mut w[i], i, grad[i] / n, t);
            }
        }
        for i in T0..w.len() {
            let gi = grad[i] / n + 2.0 * o.l2 * w[i];
            adam.update(&mut w[i], i, gi, t);
        }
        if o.report_every > 0 && (t % o.report_every == 0 || t == o.epochs) {
            curve.push((t, mse(&w, k, &train), mse(&w, k, &valid)));
        }
    }
    let mut out = start.clone();
    for i in 0..N {
        out.pst_mg[i] = w[i].round() as i32;
        out.pst_eg[i] = w[N + i].round() as i32;
    }
    for (j, e) in out.table.iter_mut().enumerate() {
        let q = |v: f64| v.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        *e = [q(w[T0 + 2 * j]), q(w[T0 + 2 * j + 1])];
    }
    let mut wr: Vec<f64> = out.pst_mg.iter().chain(out.pst_eg.iter()).map(|&x| x as f64).collect();
    wr.extend(out.table.iter().flat_map(|[m, e]| [*m as f64, *e as f64]));
    let f = NtFit {
        positions: train.len() + valid.len(),
        train: train.len(),
        validation: valid.len(),
        k_value,
        lambda: o.lambda,
        k,
        epochs: o.epochs,
        lr: o.lr,
        l2: o.l2,
        fit_pst: o.fit_pst,
        train_error_before,
        validation_error_before,
        train_error_after: mse(&wr, k, &train),
        validation_error_after: mse(&wr, k, &valid),
        nonzero_entries: out.table.iter().filter(|e| **e != [0, 0]).count(),
        entries: out.table.len(),
        curve,
    };
    Some((f, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::pst_fit::{data_options, generate};

    #[test]
    fn the_fit_reduces_the_validation_error() {
        let g = Breakthrough::default();
        let recs = generate(&g, &data_options(300, "pst"), 60, 2, 1, 2, |_| {}).unwrap();
        assert!(recs.len() > 300, "{}", recs.len());
        let start = NtWeights::zero(&g).unwrap();
        let o = NtOptions { lambda: 0.5, epochs: 60, lr: 2.0, l2: 1e-6, fit_pst: false, report_every: 20 };
        let files = [recs];
        let (f, w) = fit(&g, &files, &start, &o).unwrap();
        assert!(f.validation > 0 && f.train > f.validation);
        assert!(f.train_error_after < f.train_error_before, "{f:?}");
        assert!(f.validation_error_after < f.validation_error_before, "{f:?}");
        assert_eq!(f.curve.len(), 3);
        assert!(f.nonzero_entries > 0 && w.pst_mg == start.pst_mg, "pst weights stay without --fit-pst");
        // The fitted weights load into an evaluator and round-trip through the file format.
        assert!(NtEvaluator::with_weights(&g, &w).is_some());
        assert_eq!(NtWeights::from_bytes(&w.to_bytes()).unwrap(), w);
        // The wrong board is refused.
        assert!(fit(&Breakthrough::new(6, 5, 2, false, false).unwrap(), &files, &start, &o).is_none());
    }
}
