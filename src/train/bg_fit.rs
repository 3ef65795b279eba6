//! The self-play fit of backgammon's evaluation weights (`plateau tune backgammon`; the evaluation `tuned`).
//!
//! ```text
//! data:    N games of the engine against itself (engine(depth=D) with the hand-set weights), the dice of game i drawn
//!          from (seed, i); every position where a player is about to roll or to move (the opening roll excluded) is
//!          kept with its terms x (eval::terms: the feature differences, the roll) and the game's result for its side
//!          to move, r = 1 (won) or 0 (lost); games with i % 10 == 0 are the validation set, the others the training set
//! model:   P(win | x) = σ(β · x)
//! fit:     β := argmin over the training positions of the mean cross-entropy -(r ln p + (1 - r) ln(1 - p)),
//!          p = σ(β · x): logistic regression, Newton's method (the loss is convex; a 9 x 9 system per step)
//! weights: w = round(S β) and squash = 2 S, with S = 300: value = 1000 raw / (|raw| + 2 S) ≈ 1000 tanh(β · x / 2)
//!          = 1000 (2 P(win) - 1), the expected result of a single game in the evaluation's units
//! report:  the mean cross-entropy of the hand-set weights (β = k · HAND, the best k) and of the fitted ones, on the
//!          training and the validation positions
//! ```

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rayon::prelude::*;

use crate::game::Capabilities;
use crate::game::{ChanceList, Game, GameError, Turn, sample_outcome};
use crate::games::Backgammon;
use crate::games::backgammon::eval::{self, N_TERMS, Weights};
use crate::games::backgammon::phase;
use crate::spec::Spec;

/// The scale of the fitted weights: raw units per unit of the logit (a pip weighs about 10 of them).
pub const SCALE: f64 = 300.0;

/// One kept position: its terms and the result for its side to move.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub x: [i32; N_TERMS],
    pub won: bool,
    pub game: u32,
}

/// Play game `i` of the data set with `engine(depth=depth)` on both sides.
pub fn self_play_game(g: &Backgammon, depth: u32, seed: u64, i: u32) -> Result<Vec<Sample>, GameError> {
    let spec = Spec::parse(&format!("engine(depth={depth})"))?;
    let mut player = crate::engine::chance::build::<Backgammon>(&spec)?;
    let mut rng = SmallRng::seed_from_u64(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut s = g.start();
    let mut kept = Vec::new();
    let mut outcomes = ChanceList::new();
    for _ in 0..100_000 {
        if g.is_terminal(&s) {
            break;
        }
        if s.phase != phase::OPENING {
            kept.push((s.mover, eval::terms(&s)));
        }
        let m = match g.turn(&s) {
            Turn::Chance => {
                g.chance_outcomes(&s, &mut outcomes);
                sample_outcome(&outcomes, &mut rng)
            }
            _ => player.search(g, &s).best_move,
        };
        let Some(m) = m else { return Err(GameError::new("tune: a position without a move (a bug)")) };
        g.play(&mut s, m);
    }
    let Some(winner) = s.winner() else { return Err(GameError::new("tune: a self-play game did not end")) };
    Ok(kept.into_iter().map(|(mover, x)| Sample { x, won: mover as usize == winner, game: i }).collect())
}

/// The data set: `games` self-play games (on `threads` threads; the data does not depend on them).
pub fn self_play(g: &Backgammon, games: u32, depth: u32, seed: u64, threads: usize) -> Result<Vec<Sample>, GameError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| GameError::new(format!("tune: threads: {e}")))?;
    let per_game: Result<Vec<Vec<Sample>>, GameError> =
        pool.install(|| (0..games).into_par_iter().map(|i| self_play_game(g, depth, seed, i)).collect());
    Ok(per_game?.into_iter().flatten().collect())
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn dot(b: &[f64; N_TERMS], x: &[i32; N_TERMS]) -> f64 {
    b.iter().zip(x).map(|(b, &x)| b * x as f64).sum()
}

/// The mean cross-entropy of `beta` on `samples`.
pub fn loss(beta: &[f64; N_TERMS], samples: &[Sample]) -> f64 {
    let n = samples.len().max(1) as f64;
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(dot(beta, &s.x)).clamp(1e-12, 1.0 - 1e-12);
            if s.won { -p.ln() } else { -(1.0 - p).ln() }
        })
        .sum();
    sum / n
}

// Matrix code: indices read like the algebra.
#[allow(clippy::needless_range_loop)]
/// Solve `a x = b` (a symmetric positive definite: Gaussian elimination with partial pivoting).
fn solve(mut a: [[f64; N_TERMS]; N_TERMS], mut b: [f64; N_TERMS]) -> [f64; N_TERMS] {
    for c in 0..N_TERMS {
        let p = (c..N_TERMS).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs())).unwrap_or(c);
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..N_TERMS {
            let f = a[r][c] / a[c][c];
            for k in c..N_TERMS {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = [0.0; N_TERMS];
    for c in (0..N_TERMS).rev() {
        let rest: f64 = (c + 1..N_TERMS).map(|k| a[c][k] * x[k]).sum();
        x[c] = (b[c] - rest) / a[c][c];
    }
    x
}

#[allow(clippy::needless_range_loop)]
/// Logistic regression by Newton's method from `start`: `steps` steps (a tiny ridge keeps the system regular when a
/// term never varies).
pub fn fit(samples: &[Sample], start: [f64; N_TERMS], steps: usize) -> [f64; N_TERMS] {
    let mut beta = start;
    let n = samples.len().max(1) as f64;
    for _ in 0..steps {
        let mut grad = [0.0; N_TERMS];
        let mut hess = [[0.0; N_TERMS]; N_TERMS];
        for s in samples {
            let p = sigmoid(dot(&beta, &s.x));
            let (e, w) = (p - s.won as u8 as f64, p * (1.0 - p));
            for i in 0..N_TERMS {
                let xi = s.x[i] as f64;
                grad[i] += e * xi;
                for j in 0..N_TERMS {
                    hess[i][j] += w * xi * s.x[j] as f64;
                }
            }
        }
        for i in 0..N_TERMS {
            grad[i] /= n;
            for j in 0..N_TERMS {
                hess[i][j] /= n;
            }
            hess[i][i] += 1e-9;
        }
        let step = solve(hess, grad);
        for i in 0..N_TERMS {
            beta[i] -= step[i];
        }
    }
    beta
}

/// The hand-set weights as a logit model, `k · HAND`, with the `k` that fits `samples` best (a scan in steps of 2%).
pub fn scaled(w: &Weights, samples: &[Sample]) -> [f64; N_TERMS] {
    let base = w.terms().map(|x| x as f64 / SCALE);
    let at = |k: f64| base.map(|b| b * k);
    let best = (0..=200)
        .map(|i| 1.02f64.powi(i - 100))
        .min_by(|&a, &b| loss(&at(a), samples).total_cmp(&loss(&at(b), samples)));
    at(best.unwrap_or(1.0))
}

/// What `plateau tune backgammon` reports.
pub struct Fitted {
    pub weights: Weights,
    pub train: usize,
    pub validation: usize,
    /// Mean cross-entropy of the hand-set weights (best scale) and of the fitted ones: training, validation.
    pub hand_loss: [f64; 2],
    pub fitted_loss: [f64; 2],
}

/// Split by game (i % 10 == 0: validation), fit, round.
pub fn fit_weights(samples: &[Sample]) -> Fitted {
    let (validation, train): (Vec<Sample>, Vec<Sample>) = samples.iter().partition(|s| s.game % 10 == 0);
    let hand = scaled(&eval::HAND, &train);
    let beta = fit(&train, hand, 12);
    let weights = Weights::from_terms(beta.map(|b| (b * SCALE).round() as i32), (2.0 * SCALE) as i32);
    let rounded = weights.terms().map(|w| w as f64 / SCALE);
    Fitted {
        weights,
        train: train.len(),
        validation: validation.len(),
        hand_loss: [loss(&hand, &train), loss(&hand, &validation)],
        fitted_loss: [loss(&rounded, &train), loss(&rounded, &validation)],
    }
}

/// The whole `games/backgammon/tuned_weights.rs` for `w`, with the command that made it.
pub fn weights_source(w: &Weights, command: &str) -> String {
    let names = eval::TERM_NAMES;
    let mut fields: Vec<String> = names.iter().zip(w.terms()).map(|(n, v)| format!("    {n}: {v},")).collect();
    fields.push(format!("    squash: {},", w.squash));
    format!(
        "//! Backgammon's evaluation weights fitted to self-play results (the evaluation `tuned`), written by\n\
         //! `plateau tune backgammon` (`train/bg_fit.rs`; the match that accepted them: docs/backgammon.md):\n\
         //! `{command}`\n\nuse super::eval::Weights;\n\npub const TUNED: Weights = Weights {{\n{}\n}};\n",
        fields.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_recovers_the_weights_of_a_known_logistic_model() {
        // Positions drawn at random, results drawn from a known model: the fit finds it back.
        let truth = [0.03, 0.05, -0.1, -0.08, 0.05, 0.1, 0.08, 0.06, 0.12];
        let mut rng = SmallRng::seed_from_u64(1);
        let samples: Vec<Sample> = (0..40_000)
            .map(|i| {
                let x = std::array::from_fn(|k| {
                    rand::RngExt::random_range(&mut rng, if k == 0 { -60..=60 } else { -4..=4 }) * (k != 8) as i32
                        + (k == 8) as i32 * (i % 2)
                });
                let p = sigmoid(dot(&truth, &x));
                Sample { x, won: rand::RngExt::random::<f64>(&mut rng) < p, game: i as u32 }
            })
            .collect();
        let beta = fit(&samples, [0.0; N_TERMS], 12);
        // Within about 2.5 standard errors of each estimate (the roll term, a 0/1 feature, has the largest: ~0.02).
        for k in 0..N_TERMS {
            let tolerance = if k == 8 { 0.05 } else { 0.03 };
            assert!((beta[k] - truth[k]).abs() < tolerance, "term {k}: {} vs {}", beta[k], truth[k]);
        }
        assert!(loss(&beta, &samples) <= loss(&truth, &samples) + 1e-9);
    }

    #[test]
    fn self_play_labels_each_position_with_its_games_result() {
        let g = Backgammon::default();
        let samples = self_play_game(&g, 1, 5, 0).expect("a game");
        assert!(samples.len() > 20);
        // The side to move alternates between the players: both results appear.
        assert!(samples.iter().any(|s| s.won) && samples.iter().any(|s| !s.won));
        assert_eq!(self_play_game(&g, 1, 5, 0).expect("again").len(), samples.len(), "seeded");
    }
}
