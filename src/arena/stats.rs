//! Match statistics: Elo difference with its 95% confidence interval, and the sequential probability ratio test.
//!
//! ```text
//! score s  = (W + D/2) / N                          (per-game results x in {1, 1/2, 0})
//! Elo(s)   = -400 log10(1/s - 1)                    (logistic model)
//! var      = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N   (variance of one game's result)
//! 95%      : s +- 1.959964 sqrt(var/N), converted to Elo; the error is half the width of that interval
//! SPRT     : H0 Elo = elo0 against H1 Elo = elo1, with s0 = score(elo0), s1 = score(elo1),
//!            LLR = N (s1 - s0) (2s - s0 - s1) / (2 var)    (normal approximation of the trinomial GSPRT)
//!            stop for H1 when LLR >= ln((1-beta)/alpha), for H0 when LLR <= ln(beta/(1-alpha))
//! ```
//!
//! When a result kind (win, draw, loss) has not happened yet its count is taken as 1/2 in the variance of the SPRT, so
//! that a run of identical results does not give an infinite ratio after one game.

/// Two-sided 95% quantile of the normal distribution.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws from the first player's (A's) point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Wdl {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Wdl {
    /// The number of games: wins, draws and losses together.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }
    /// Score in `[0, 1]` (0.5 when no game has been played).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 { 0.5 } else { (self.wins as f64 + 0.5 * self.draws as f64) / n as f64 }
    }
    /// Variance of one game's result around the mean score.
    pub fn variance(&self) -> f64 {
        variance(self.wins as f64, self.draws as f64, self.losses as f64)
    }
    /// Elo difference (`None` at 0% or 100%, where it is infinite).
    pub fn elo(&self) -> Option<f64> {
        if self.games() == 0 { None } else { elo_from_score(self.score()) }
    }
    /// Half-width of the 95% interval in Elo (`None` while the interval touches 0% or 100%).
    pub fn elo_error(&self) -> Option<f64> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let s = self.score();
        let half = Z95 * (self.variance() / n as f64).sqrt();
        let lo = elo_from_score(s - half)?;
        let hi = elo_from_score(s + half)?;
        Some((hi - lo) / 2.0)
    }
}

fn variance(w: f64, d: f64, l: f64) -> f64 {
    let n = w + d + l;
    if n == 0.0 {
        return 0.0;
    }
    let s = (w + 0.5 * d) / n;
    (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n
}

/// The logistic Elo difference for a score; `None` outside `(0, 1)`.
pub fn elo_from_score(s: f64) -> Option<f64> {
    // `+ 0.0` turns -0 (at 50%) into 0.
    if s <= 0.0 || s >= 1.0 || !s.is_finite() { None } else { Some(-400.0 * (1.0 / s - 1.0).log10() + 0.0) }
}

/// The expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// The state of an SPRT after some games.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SprtStatus {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub llr: f64,
    /// The games the LLR counts (at a decision: the games then; games in flight end after it and count in the
    /// match's totals only).
    pub games: u64,
    pub lower: f64,
    pub upper: f64,
    /// `H0` (elo0 accepted), `H1` (elo1 accepted) or `continue`.
    pub result: String,
}

impl Sprt {
    /// Parse `elo0=0,elo1=10,alpha=0.05,beta=0.05` (any order; alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt { elo0: f64::NAN, elo1: f64::NAN, alpha: 0.05, beta: 0.05 };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| format!("--sprt: '{part}' should be key=value"))?;
            let x: f64 = v.trim().parse().map_err(|_| format!("--sprt: {k}='{v}' is not a number"))?;
            match k.trim() {
                "elo0" => s.elo0 = x,
                "elo1" => s.elo1 = x,
                "alpha" => s.alpha = x,
                "beta" => s.beta = x,
                other => return Err(format!("--sprt: unknown key '{other}' (accepted: elo0, elo1, alpha, beta)")),
            }
        }
        if !s.elo0.is_finite() || !s.elo1.is_finite() {
            return Err("--sprt: elo0 and elo1 are required, e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05".into());
        }
        if s.elo1 <= s.elo0 {
            return Err("--sprt: elo1 must be larger than elo0".into());
        }
        if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
            return Err("--sprt: alpha and beta must be between 0 and 0.5".into());
        }
        Ok(s)
    }

    /// `ln(beta / (1 - alpha))`: accept H0 at or below.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }
    /// `ln((1 - beta) / alpha)`: accept H1 at or above.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio after these games.
    pub fn llr(&self, r: &Wdl) -> f64 {
        let n = r.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let reg = |x: u64| if x == 0 { 0.5 } else { x as f64 };
        let var = if r.wins == 0 || r.draws == 0 || r.losses == 0 {
            variance(reg(r.wins), reg(r.draws), reg(r.losses))
        } else {
            r.variance()
        };
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * r.score() - s0 - s1) / (2.0 * var)
    }

    /// Whether the test has accepted H1, accepted H0 or goes on, after the results `r`.
    pub fn status(&self, r: &Wdl) -> SprtStatus {
        let llr = self.llr(r);
        let result = if llr >= self.upper() {
            "H1"
        } else if llr <= self.lower() {
            "H0"
        } else {
            "continue"
        };
        SprtStatus {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            llr,
            games: r.games(),
            lower: self.lower(),
            upper: self.upper(),
            result: result.into(),
        }
    }
}
