//! Ratings by maximum likelihood: the Bradley-Terry (logistic Elo) model that BayesElo and Ordo fit, draws counted as
//! half a win for each side, with 95% intervals from the observed information matrix and the likelihood of
//! superiority between two players.
//!
//! ```text
//! model      P(i scores against j) = p_ij = 1 / (1 + exp(-(t_i - t_j))),  Elo r_i = k t_i,  k = 400 / ln 10
//! data       n_ij games between i and j, s_ij points of i in them (win 1, draw 1/2)
//! likelihood L(t) = sum_{i<j} s_ij ln p_ij + s_ji ln p_ji                 (a draw: half a win and half a loss)
//! fit        Newton's method on t_1..t_{m-1} with t_0 = 0 (L is concave): g_i = sum_j (s_ij - n_ij p_ij),
//!            I_ii = sum_j n_ij p_ij p_ji, I_ij = -n_ij p_ij p_ji (observed = expected information); a step that
//!            lowers L is halved; stop when no t moves by 1e-12
//! exists     when the players are connected and no group of them scored 0 against the rest (every player reaches
//!            every other by "scored something against"); otherwise one virtual draw is added between every two
//!            players who played (the idea of BayesElo's prior), and the report says so (`virtual_draws`)
//! anchor     r_i = ELO_a + k (t_i - t_a) with --anchor a=ELO_a, else r_i = k (t_i - mean t)  (mean 0)
//! interval   C = I^-1 (on t_1..t_{m-1}); a rating c.t has variance c' C c; 95%: r_i +- 1.96 k sqrt(var)
//!            (the anchor's own interval is 0: the others' are relative to it)
//! LOS(i, j)  = Phi((r_i - r_j) / (k sqrt(var(t_i - t_j))))     the normal approximation of the posterior
//! two players: r_1 - r_0 = 400 log10(s / (1 - s)) with s the score of player 1, the match's Elo
//! ```

use crate::arena::stats::Z95;

/// Elo per unit of the logistic parameter.
pub const K: f64 = 400.0 / std::f64::consts::LN_10;

/// The fitted ratings of `n` players (in the entries' order).
#[derive(Clone, Debug)]
pub struct Fit {
    /// Elo of each player (`None` for a player without a game).
    pub elo: Vec<Option<f64>>,
    /// Half-width of the 95% interval of each rating.
    pub error: Vec<Option<f64>>,
    /// Virtual draws added between every two players who played (0, or 1 when the plain maximum does not exist).
    pub virtual_draws: u32,
    /// Whether the anchor was used (it is not while the anchored player has no game).
    pub(crate) anchored: bool,
    /// Newton iterations.
    pub iterations: u32,
    /// Each player's place among the fitted ones (`None`: no game).
    index: Vec<Option<usize>>,
    /// Covariance of (t_1..t_{m-1}) with t_0 = 0, fitted players' order.
    cov: Vec<Vec<f64>>,
}

impl Fit {
    /// The variance of `sum c_p t_p` (c over the fitted players; t_0 = 0 is fixed).
    fn variance(&self, c: &[f64]) -> f64 {
        let m = c.len();
        let mut v = 0.0;
        for p in 1..m {
            for q in 1..m {
                v += c[p] * c[q] * self.cov[p - 1][q - 1];
            }
        }
        v.max(0.0)
    }

    /// The likelihood that player `i` is stronger than player `j` (`None` when either has no game).
    pub fn los(&self, i: usize, j: usize) -> Option<f64> {
        let (a, b) = (self.index[i]?, self.index[j]?);
        let mut c = vec![0.0; self.cov.len() + 1];
        c[a] += 1.0;
        c[b] -= 1.0;
        let sd = K * self.variance(&c).sqrt();
        let diff = self.elo[i]? - self.elo[j]?;
        Some(if sd > 0.0 { normal_cdf(diff / sd) } else { 0.5 })
    }
}

/// One game for the fit: the players (indices) and the first one's score (1, 1/2 or 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    pub a: usize,
    pub b: usize,
    pub score_a: f64,
}

/// Fit the ratings of `n` players to `games`, anchored at `anchor` (a player and its Elo) or with mean 0.
pub fn fit(n: usize, games: &[Scored], anchor: Option<(usize, f64)>) -> Fit {
    let mut count = vec![vec![0.0f64; n]; n];
    let mut points = vec![vec![0.0f64; n]; n];
    for g in games {
        if g.a == g.b || g.a >= n || g.b >= n {
            continue;
        }
        count[g.a][g.b] += 1.0;
        count[g.b][g.a] += 1.0;
        points[g.a][g.b] += g.score_a;
        points[g.b][g.a] += 1.0 - g.score_a;
    }
    let played: Vec<usize> = (0..n).filter(|&i| count[i].iter().any(|&c| c > 0.0)).collect();
    let mut index = vec![None; n];
    for (k, &i) in played.iter().enumerate() {
        index[i] = Some(k);
    }
    let m = played.len();
    let mut nn = vec![vec![0.0; m]; m];
    let mut ss = vec![vec![0.0; m]; m];
    for (p, &i) in played.iter().enumerate() {
        for (q, &j) in played.iter().enumerate() {
            nn[p][q] = count[i][j];
            ss[p][q] = points[i][j];
        }
    }
    let mut virtual_draws = 0;
    if m > 1 && !strongly_connected(&ss) {
        virtual_draws = 1;
        for p in 0..m {
            for q in 0..m {
                if p != q {
                    nn[p][q] += 1.0;
                    ss[p][q] += 0.5;
                }
            }
        }
    }
    let (t, cov, iterations) = newton(&nn, &ss);
    let anchored = anchor.is_some_and(|(a, _)| a < n && index[a].is_some());
    let (base, c0): (f64, Vec<f64>) = match anchor {
        Some((a, elo)) if anchored => {
            let ka = index[a].unwrap_or(0);
            let mut c = vec![0.0; m];
            c[ka] = -1.0;
            (elo - K * t[ka], c)
        }
        _ => (-K * t.iter().sum::<f64>() / m.max(1) as f64, vec![-1.0 / m.max(1) as f64; m]),
    };
    let mut out = Fit {
        elo: vec![None; n],
        error: vec![None; n],
        virtual_draws,
        anchored,
        iterations,
        index: index.clone(),
        cov,
    };
    for (p, &i) in played.iter().enumerate() {
        out.elo[i] = Some(base + K * t[p] + 0.0);
        let mut c = c0.clone();
        c[p] += 1.0;
        out.error[i] = Some(Z95 * K * out.variance(&c).sqrt());
    }
    out
}

/// Whether every player reaches every other through "scored something against" (so no rating is infinite).
fn strongly_connected(ss: &[Vec<f64>]) -> bool {
    let m = ss.len();
    let reach = |forward: bool| {
        let mut seen = vec![false; m];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(p) = stack.pop() {
            for q in 0..m {
                let edge = if forward { ss[p][q] > 0.0 } else { ss[q][p] > 0.0 };
                if edge && !seen[q] {
                    seen[q] = true;
                    stack.push(q);
                }
            }
        }
        seen.iter().all(|&s| s)
    };
    reach(true) && reach(false)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn log_likelihood(t: &[f64], ss: &[Vec<f64>]) -> f64 {
    let mut l = 0.0;
    for p in 0..t.len() {
        for q in 0..t.len() {
            if p != q && ss[p][q] > 0.0 {
                l += ss[p][q] * sigmoid(t[p] - t[q]).ln();
            }
        }
    }
    l
}

/// Maximise the likelihood; returns t (t_0 = 0), the covariance of t_1.. and the iterations.
fn newton(nn: &[Vec<f64>], ss: &[Vec<f64>]) -> (Vec<f64>, Vec<Vec<f64>>, u32) {
    let m = nn.len();
    let mut t = vec![0.0; m];
    if m < 2 {
        return (t, Vec::new(), 0);
    }
    let info = |t: &[f64]| {
        let mut h = vec![vec![0.0; m - 1]; m - 1];
        let mut g = vec![0.0; m - 1];
        for p in 0..m {
            for q in 0..m {
                if p == q || nn[p][q] == 0.0 {
                    continue;
                }
                let pr = sigmoid(t[p] - t[q]);
                let w = nn[p][q] * pr * (1.0 - pr);
                if p > 0 {
                    g[p - 1] += ss[p][q] - nn[p][q] * pr;
                    h[p - 1][p - 1] += w;
                    if q > 0 {
                        h[p - 1][q - 1] -= w;
                    }
                }
            }
        }
        (g, h)
    };
    let mut iterations = 0;
    for _ in 0..200 {
        iterations += 1;
        let (g, h) = info(&t);
        let Some(step) = solve(&h, &g) else { break };
        let before = log_likelihood(&t, ss);
        let mut scale = 1.0;
        let mut next = t.clone();
        for _ in 0..60 {
            for p in 1..m {
                next[p] = t[p] + scale * step[p - 1];
            }
            if log_likelihood(&next, ss) >= before - 1e-12 {
                break;
            }
            scale /= 2.0;
        }
        let moved = (1..m).map(|p| (next[p] - t[p]).abs()).fold(0.0, f64::max);
        t = next;
        if moved < 1e-12 {
            break;
        }
    }
    let (_, h) = info(&t);
    let cov = invert(&h).unwrap_or_else(|| vec![vec![f64::INFINITY; m - 1]; m - 1]);
    (t, cov, iterations)
}

/// Solve `a x = b` by Gaussian elimination with partial pivoting (`None` when `a` is singular).
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a.iter().zip(b).map(|(row, &v)| row.iter().copied().chain([v]).collect()).collect();
    for c in 0..n {
        let pivot = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[pivot][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, pivot);
        let pivot_row = m[c].clone();
        for r in 0..n {
            if r != c {
                let f = m[r][c] / m[c][c];
                if f != 0.0 {
                    for (x, &y) in m[r].iter_mut().zip(&pivot_row).skip(c) {
                        *x -= f * y;
                    }
                }
            }
        }
    }
    Some((0..n).map(|r| m[r][n] / m[r][r]).collect())
}

/// The inverse of `a` (`None` when singular).
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut cols = Vec::with_capacity(n);
    for c in 0..n {
        let mut e = vec![0.0; n];
        e[c] = 1.0;
        cols.push(solve(a, &e)?);
    }
    Some((0..n).map(|r| (0..n).map(|c| cols[c][r]).collect()).collect())
}

/// The standard normal distribution function (through `erfc`, Numerical Recipes' Chebyshev fit: relative error
/// below 1.2e-7).
pub(crate) fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_distribution_function_at_known_points() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_963_984_540_054) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_253_931_457).abs() < 1e-6);
    }

    #[test]
    fn a_perfect_score_adds_virtual_draws_and_stays_finite() {
        let games = [Scored { a: 0, b: 1, score_a: 1.0 }, Scored { a: 1, b: 0, score_a: 0.0 }];
        let f = fit(2, &games, None);
        assert_eq!(f.virtual_draws, 1);
        // 2.5 of 3 points: 400 log10(5).
        let d = f.elo[0].unwrap() - f.elo[1].unwrap();
        assert!((d - 400.0 * 5f64.log10()).abs() < 1e-6, "{d}");
        assert!(f.los(0, 1).unwrap() > 0.5);
    }
}
