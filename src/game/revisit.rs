//! How likely random play is to meet a position again: the positions that random walks of `d` plies from the start
//! end on, estimated by sampling (`plateau stats GAME --revisit D`, docs/course.md "Meeting a position again").
//!
//! ```text
//! walk i        : d uniformly random plies from the start (random_step: chance draws by their probability),
//!                 its generator seeded with derive([seed, i]); a game that ends sooner stops on its final position
//! pairs         : walks 2k and 2k+1 are one independent pair; p = P(two independent walks end in the same position)
//!                 p^ = same / pairs, with the 95% Wilson score interval
//!                 (p^ + z²/2n ± z sqrt(p^(1-p^)/n + z²/4n²)) / (1 + z²/n), z = 1.959964, n = pairs
//! all pairs     : the same p estimated from every pair of the N walks: sum over end positions of c(c-1)/2 (c: the
//!                 walks that end there) divided by N(N-1)/2; unbiased, far more precise when p is small, no interval
//! met before    : walks whose end position an earlier walk of the run ended on (N - distinct positions): the share of
//!                 games whose position at ply d a memory of the earlier games' positions would have held
//! ```
//!
//! Positions are told apart by the game's Zobrist key (`Game::key`), as `perft --unique` does. The walks are played in
//! parallel; the result does not depend on the order they finish in.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rayon::prelude::*;

use super::Capabilities;
use super::playout::random_step;
use super::seed::derive;

/// Two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Most plies a walk may take.
pub(crate) const MAX_REVISIT_DEPTH: u32 = 10_000;

/// What [`revisit`] measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RevisitReport {
    /// Plies of each walk.
    pub depth: u32,
    /// Random walks played.
    pub walks: u64,
    /// The seed of the walks.
    pub seed: u64,
    /// Walks whose game ended before `depth` plies (they stop on their final position).
    pub ended_early: u64,
    /// Independent pairs of walks (walks 2k and 2k+1).
    pub pairs: u64,
    /// Pairs whose two walks end in the same position.
    pub same: u64,
    /// `same / pairs`.
    pub probability: f64,
    /// The 95% Wilson score interval of `probability`.
    pub low: f64,
    pub high: f64,
    /// Distinct end positions over all the walks.
    pub distinct: u64,
    /// Walks ending on a position an earlier walk ended on (`walks - distinct`).
    pub met_before: u64,
    /// Pairs among all `walks * (walks - 1) / 2` whose walks end in the same position.
    pub all_pairs_same: u64,
    /// `walks * (walks - 1) / 2`.
    pub all_pairs: u64,
    /// `all_pairs_same / all_pairs`: the same probability from every pair of walks.
    pub all_pairs_probability: f64,
}

/// The 95% Wilson score interval of `k` successes in `n` trials (`(0, 1)` when `n` is 0).
pub(crate) fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z2) = (n as f64, k as f64 / n as f64, Z95 * Z95);
    let centre = p + z2 / (2.0 * n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let d = 1.0 + z2 / n;
    // At the edges the bound is exactly 0 (no success) or 1 (no failure), not a rounding residue.
    let low = if k == 0 { 0.0 } else { ((centre - half) / d).max(0.0) };
    let high = if k as f64 == n { 1.0 } else { ((centre + half) / d).min(1.0) };
    (low, high)
}

/// Play `walks` random walks of `depth` plies from the start and measure how often they end in the same position.
/// Refuses fewer than 2 walks and depths over [`MAX_REVISIT_DEPTH`].
pub fn revisit<G: Capabilities + Sync>(game: &G, depth: u32, walks: u64, seed: u64) -> Result<RevisitReport, String> {
    if walks < 2 {
        return Err(format!("--revisit needs at least 2 walks (--games 2 or more), {walks} given"));
    }
    if depth == 0 || depth > MAX_REVISIT_DEPTH {
        return Err(format!("--revisit {depth}: expected a depth in 1..={MAX_REVISIT_DEPTH} plies"));
    }
    let ends: Vec<(u64, bool)> = (0..walks)
        .into_par_iter()
        .map(|i| {
            let mut rng = SmallRng::seed_from_u64(derive(&[seed, i]));
            let mut state = game.start();
            let mut played = 0;
            while played < depth && random_step(game, &mut state, &mut rng) {
                played += 1;
            }
            (game.key(&state), played < depth)
        })
        .collect();
    let ended_early = ends.iter().filter(|e| e.1).count() as u64;
    let pairs = walks / 2;
    let same = (0..pairs as usize).filter(|&k| ends[2 * k].0 == ends[2 * k + 1].0).count() as u64;
    let mut keys: Vec<u64> = ends.iter().map(|e| e.0).collect();
    keys.sort_unstable();
    let (mut distinct, mut all_pairs_same) = (0u64, 0u64);
    for run in keys.chunk_by(|a, b| a == b) {
        let c = run.len() as u64;
        distinct += 1;
        all_pairs_same += c * (c - 1) / 2;
    }
    let all_pairs = walks * (walks - 1) / 2;
    let (low, high) = wilson(same, pairs);
    Ok(RevisitReport {
        depth,
        walks,
        seed,
        ended_early,
        pairs,
        same,
        probability: same as f64 / pairs as f64,
        low,
        high,
        distinct,
        met_before: walks - distinct,
        all_pairs_same,
        all_pairs,
        all_pairs_probability: all_pairs_same as f64 / all_pairs as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_known_interval_and_stays_in_bounds() {
        // 10 of 100: the textbook interval [0.0552, 0.1744].
        let (lo, hi) = wilson(10, 100);
        assert!((lo - 0.0552).abs() < 5e-4 && (hi - 0.1744).abs() < 5e-4, "{lo} {hi}");
        let (lo, hi) = wilson(0, 1000);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.003 && hi < 0.004, "{hi}");
        assert_eq!(wilson(5, 5).1, 1.0);
    }
}
