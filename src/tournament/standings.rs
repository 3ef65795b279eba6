//! Standings from a tournament's results: the crosstable (the score of each pair), the ratings with their 95%
//! intervals and the likelihood of superiority over the next player in the ranking ([`super::ratings`]), and the
//! failures of each player (games lost by a crash, an illegal move, garbage or a time loss).
//!
//! Any list of [`GameResult`]s makes standings: a finished tournament's, a running one's, or one fed by another
//! driver.

use super::ratings::{self, Scored};
use super::results::GameResult;

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Standing {
    /// 1-based place: by rating, then points (players without a game last).
    pub rank: usize,
    pub name: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Wins plus half the draws.
    pub points: f64,
    /// Points per game in `[0, 1]` (0.5 without games).
    pub score: f64,
    /// Maximum-likelihood Elo (`null` without a game).
    pub elo: Option<f64>,
    /// Half-width of the 95% interval of `elo`.
    pub elo_error: Option<f64>,
    /// Likelihood of superiority over the next player in the ranking (`null` for the last).
    pub los_next: Option<f64>,
    /// Games this player lost by a failure.
    pub failures: u64,
}

/// The games between two players (`a` listed before `b` in the entries).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PairScore {
    pub a: String,
    pub b: String,
    pub games: u64,
    pub wins_a: u64,
    pub wins_b: u64,
    pub draws: u64,
    /// A's points (B's are `games - points_a`).
    pub points_a: f64,
}

/// A game lost by a failure.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Failure {
    pub player: String,
    /// The game's id.
    pub game: usize,
    pub reason: String,
}

/// How the ratings were computed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RatingMethod {
    /// `maximum likelihood (Bradley-Terry, logistic Elo), draws as half points; 95% intervals from the observed
    /// information`.
    pub method: String,
    /// The anchored player and its Elo, or `null` (ratings average 0).
    pub anchor: Option<(String, f64)>,
    /// Virtual draws added between every two players (0, or 1 when the plain maximum does not exist).
    pub virtual_draws: u32,
}

/// What the results add up to.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Standings {
    pub standings: Vec<Standing>,
    /// Every pair that met, in the entries' order.
    pub crosstable: Vec<PairScore>,
    pub failures: Vec<Failure>,
    pub rating: RatingMethod,
}

/// The method's words in reports.
pub const METHOD: &str = "maximum likelihood (Bradley-Terry, logistic Elo), draws as half points; 95% intervals from \
the observed information; LOS by the normal approximation";

/// The standings of the players `names` after `results` (games naming other players are ignored); `anchor`: a
/// player's index and its Elo.
pub fn standings(names: &[String], results: &[GameResult], anchor: Option<(usize, f64)>) -> Standings {
    let n = names.len();
    let index = |name: &str| names.iter().position(|x| x == name);
    let mut scored = Vec::new();
    let mut pairs: Vec<PairScore> = Vec::new();
    let mut pair_of = std::collections::HashMap::new();
    let mut wdl = vec![[0u64; 3]; n];
    let mut failed = vec![0u64; n];
    let mut failures = Vec::new();
    for r in results {
        let (Some(w), Some(b)) = (index(&r.white), index(&r.black)) else { continue };
        if w == b {
            continue;
        }
        let s = r.white_score();
        scored.push(Scored { a: w, b, score_a: s });
        let (lo, hi) = (w.min(b), w.max(b));
        let k = *pair_of.entry((lo, hi)).or_insert_with(|| {
            pairs.push(PairScore {
                a: names[lo].clone(),
                b: names[hi].clone(),
                games: 0,
                wins_a: 0,
                wins_b: 0,
                draws: 0,
                points_a: 0.0,
            });
            pairs.len() - 1
        });
        let p = &mut pairs[k];
        p.games += 1;
        let s_lo = if lo == w { s } else { 1.0 - s };
        p.points_a += s_lo;
        match s_lo {
            1.0 => p.wins_a += 1,
            0.0 => p.wins_b += 1,
            _ => p.draws += 1,
        }
        for (who, score) in [(w, s), (b, 1.0 - s)] {
            wdl[who][if score == 1.0 {
                0
            } else if score == 0.0 {
                2
            } else {
                1
            }] += 1;
        }
        if let Some((player, reason)) = r.failure()
            && let Some(i) = index(&player)
        {
            failed[i] += 1;
            failures.push(Failure { player, game: r.id, reason });
        }
    }
    pairs.sort_by_key(|p| (index(&p.a), index(&p.b)));
    failures.sort_by_key(|x| (index(&x.player), x.game));
    let fit = ratings::fit(n, &scored, anchor);
    let mut rows: Vec<Standing> = (0..n)
        .map(|i| {
            let [w, d, l] = wdl[i];
            let games = w + d + l;
            let points = w as f64 + 0.5 * d as f64;
            Standing {
                rank: 0,
                name: names[i].clone(),
                games,
                wins: w,
                draws: d,
                losses: l,
                points,
                score: if games == 0 { 0.5 } else { points / games as f64 },
                elo: fit.elo[i],
                elo_error: fit.error[i],
                los_next: None,
                failures: failed[i],
            }
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| {
        let key = |i: usize| (rows[i].elo.is_some(), rows[i].elo.unwrap_or(0.0), rows[i].points);
        let (kx, ky) = (key(x), key(y));
        ky.0.cmp(&kx.0).then(ky.1.total_cmp(&kx.1)).then(ky.2.total_cmp(&kx.2)).then(x.cmp(&y))
    });
    for w in order.windows(2) {
        rows[w[0]].los_next = fit.los(w[0], w[1]);
    }
    let mut ranked = Vec::with_capacity(n);
    for (k, &i) in order.iter().enumerate() {
        let mut r = rows[i].clone();
        r.rank = k + 1;
        ranked.push(r);
    }
    let anchor = anchor.filter(|_| fit.anchored).map(|(a, elo)| (names[a].clone(), elo));
    Standings {
        standings: ranked,
        crosstable: pairs,
        failures,
        rating: RatingMethod { method: METHOD.into(), anchor, virtual_draws: fit.virtual_draws },
    }
}

/// The crosstable as text: one row per player in ranking order, its points against each other player (`.` where
/// they did not meet, `x` on the diagonal).
pub(crate) fn crosstable_text(s: &Standings) -> String {
    let names: Vec<&str> = s.standings.iter().map(|r| r.name.as_str()).collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(4).clamp(4, 24);
    let short = |n: &str| n.chars().take(width).collect::<String>();
    let mut out = format!("{:>3} {:<width$}", "", "");
    for k in 0..names.len() {
        out += &format!(" {:>6}", k + 1);
    }
    out.push('\n');
    for (k, a) in names.iter().enumerate() {
        out += &format!("{:>3} {:<width$}", k + 1, short(a));
        for (m, b) in names.iter().enumerate() {
            let cell = if k == m {
                "x".to_string()
            } else {
                match s.crosstable.iter().find(|p| (p.a == *a && p.b == *b) || (p.a == *b && p.b == *a)) {
                    Some(p) => {
                        let pts = if p.a == *a { p.points_a } else { p.games as f64 - p.points_a };
                        format!("{pts}/{}", p.games)
                    }
                    None => ".".into(),
                }
            };
            out += &format!(" {cell:>6}");
        }
        out.push('\n');
    }
    out
}
