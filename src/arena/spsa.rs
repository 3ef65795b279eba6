//! SPSA tuning of the engine's search constants by games (`plateau spsa`), after fishtest's tuner: every iteration
//! perturbs all the chosen tunables at once in random directions, plays the two engines against each other on a
//! game pair (one opening, both colours), and moves every tunable along its direction by the result.
//!
//! ```text
//! θ := start values (defaults, or a parameters file)                     -- reals, one per chosen tunable
//! N iterations, A = N/10, α = 0.602, γ = 0.101; per tunable i: c_end_i (its SPSA step), r_end
//!     c_i = c_end_i N^γ           a_i = r_end c_end_i² (A + N)^α
//! k0 := 0, or the iteration and θ of the checkpoint (`--resume`, same settings only)
//! for k = k0+1..N:
//!     c_k,i = c_i / k^γ           a_k,i = a_i / (A + k)^α
//!     Δ := random ±1 per tunable                                          -- drawn from a generator seeded by (seed, k)
//!     θ+ := clamp(θ + c_k Δ)      θ- := clamp(θ - c_k Δ)                  -- rounded to integers to play
//!     r := points of engine(θ+) - points of engine(θ-) over `pairs` game pairs (openings from the seed and k)
//!     θ_i := clamp(θ_i + a_k,i / c_k,i · r · Δ_i)
//!     checkpoint := (settings, k, θ as floats)                           -- written to a temporary file, renamed
//! output: θ rounded, as a parameters file (`engine(params=FILE)`)
//! ```
//! The games are the arena's (`run_match`), so every player option works: node limits (deterministic, independent of
//! the machine's load) or a time control.

use rand::{RngExt, SeedableRng, rngs::StdRng};

use crate::engine::tunables::{PARAMS, SearchParams, TunableInfo};
use crate::game::FullGame;
use crate::search::TimeControl;

use super::openings::Openings;
use super::spsa_checkpoint::{self as checkpoint, Checkpointing, State};
use super::{MatchConfig, describe_limit, run_match};

/// A tuning run.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The engine player string both sides start from (`engine(nodes=20000,tt=16mb)`), without the tuned names.
    pub engine: String,
    /// The tunables to move (names of [`PARAMS`]).
    pub names: Vec<String>,
    pub start: SearchParams,
    pub iterations: u32,
    /// Game pairs per iteration.
    pub pairs: usize,
    /// fishtest's `r_end`: the learning rate at the end, relative to the step squared.
    pub r_end: f64,
    pub limit: Option<TimeControl>,
    pub random_plies: u32,
    pub seed: u64,
    pub concurrency: usize,
}

/// The state after an iteration, for progress lines.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SpsaProgress {
    pub iteration: u32,
    /// Current values, in the order of `SpsaConfig::names`.
    pub theta: Vec<f64>,
    /// Points of θ+ minus points of θ- in this iteration.
    pub result: f64,
    /// Sum of the results so far (near 0 when the two sides are as strong).
    pub total: f64,
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// The player string of `engine` with `values` of `names` added.
pub(crate) fn with_values(engine: &str, names: &[String], values: &[i32]) -> String {
    let extra: Vec<String> = names.iter().zip(values).map(|(n, v)| format!("{n}={v}")).collect();
    if extra.is_empty() {
        return engine.to_string();
    }
    match engine.trim().strip_suffix(')') {
        Some(head) if head.ends_with('(') => format!("{head}{})", extra.join(",")),
        Some(head) => format!("{head},{})", extra.join(",")),
        None => format!("{}({})", engine.trim(), extra.join(",")),
    }
}

/// The descriptions of the chosen tunables, or a one-line error naming an unknown one.
pub fn chosen(names: &[String]) -> Result<Vec<&'static TunableInfo>, String> {
    names
        .iter()
        .map(|n| {
            PARAMS
                .iter()
                .find(|i| i.name == n)
                .ok_or_else(|| format!("unknown engine parameter `{n}` (`plateau engine-params` lists them)"))
        })
        .collect()
}

/// Run the tuner; `progress` sees every iteration. Returns the tuned parameters (the start values with the chosen
/// ones replaced by θ rounded).
pub fn run<G: FullGame>(
    game: &G,
    cfg: &SpsaConfig,
    progress: impl FnMut(&SpsaProgress),
) -> Result<SearchParams, String> {
    run_with(game, cfg, &Checkpointing::default(), progress).map(|(params, _)| params)
}

/// The gains of a run: the chosen tunables and fishtest's constants, from which each iteration's step follows.
#[derive(Clone, Debug)]
pub struct Schedule {
    pub infos: Vec<&'static TunableInfo>,
    c0: Vec<f64>,
    a0: Vec<f64>,
    big_a: f64,
}

/// One iteration's draw: the directions, the gains and the two sides' values (rounded, as they play).
#[derive(Clone, Debug)]
pub struct Step {
    pub iteration: u32,
    pub(crate) delta: Vec<f64>,
    ck: Vec<f64>,
    ak: Vec<f64>,
    /// θ+ and θ- rounded: the values of engine A and engine B.
    pub plus: Vec<i32>,
    pub minus: Vec<i32>,
}

impl Schedule {
    /// The schedule of `cfg`, or the one-line error of a run that cannot start.
    pub fn new(cfg: &SpsaConfig) -> Result<Schedule, String> {
        let infos = chosen(&cfg.names)?;
        if infos.is_empty() {
            return Err("spsa: no parameter to tune".into());
        }
        if cfg.iterations == 0 || cfg.pairs == 0 {
            return Err("spsa: at least one iteration of at least one game pair".into());
        }
        let n = cfg.iterations as f64;
        let big_a = n / 10.0;
        let c0 = infos.iter().map(|i| i.step as f64 * n.powf(GAMMA)).collect();
        let a0 = infos.iter().map(|i| cfg.r_end * (i.step as f64).powi(2) * (big_a + n).powf(ALPHA)).collect();
        Ok(Schedule { infos, c0, a0, big_a })
    }

    fn clamp(&self, i: usize, v: f64) -> f64 {
        v.clamp(self.infos[i].min as f64, self.infos[i].max as f64)
    }

    /// The start state: θ from the start values, iteration 0.
    pub(crate) fn start_state(&self, cfg: &SpsaConfig, settings: Vec<(String, String)>) -> State {
        State {
            settings,
            iteration: 0,
            theta: self.infos.iter().map(|i| cfg.start.get(i.name).expect("listed") as f64).collect(),
            theta_bits: Vec::new(),
            total: 0.0,
        }
    }

    /// Iteration `k`'s draw from θ after iteration `k - 1`.
    pub fn step(&self, cfg: &SpsaConfig, k: u32, theta: &[f64]) -> Step {
        let kf = k as f64;
        let ck: Vec<f64> = self.c0.iter().map(|c| c / kf.powf(GAMMA)).collect();
        let ak: Vec<f64> = self.a0.iter().map(|a| a / (self.big_a + kf).powf(ALPHA)).collect();
        // Each iteration's directions depend on the seed and k only, so that a resumed run draws the same ones.
        let mut rng = StdRng::seed_from_u64(cfg.seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let delta: Vec<f64> =
            (0..self.infos.len()).map(|_| if rng.random_range(0..2) == 0 { -1.0 } else { 1.0 }).collect();
        let side = |sign: f64| -> Vec<i32> {
            (0..self.infos.len()).map(|i| self.clamp(i, theta[i] + sign * ck[i] * delta[i]).round() as i32).collect()
        };
        let (plus, minus) = (side(1.0), side(-1.0));
        Step { iteration: k, delta, ck, ak, plus, minus }
    }

    /// θ moved by the iteration's result `r` (points of θ+ minus points of θ-).
    pub fn update(&self, theta: &mut [f64], step: &Step, r: f64) {
        for (i, t) in theta.iter_mut().enumerate() {
            *t = self.clamp(i, *t + step.ak[i] / step.ck[i] * r * step.delta[i]);
        }
    }

    /// The start values with the chosen ones replaced by θ rounded.
    pub fn tuned(&self, cfg: &SpsaConfig, theta: &[f64]) -> Result<SearchParams, String> {
        let mut out = cfg.start;
        for (i, info) in self.infos.iter().enumerate() {
            out.set(info.name, theta[i].round() as i64, "spsa").map_err(|e| e.to_string())?;
        }
        Ok(out)
    }
}

/// The match of iteration `k` between engine(θ+) (A) and engine(θ-) (B): `2 * pairs` games, openings and seeds from
/// the run's seed and `k` (played by [`run_match`] here, game pair by game pair on a cluster: `spsa_jobs`).
pub(crate) fn iteration_match<G: FullGame>(cfg: &SpsaConfig, k: u32, plus: &[i32], minus: &[i32]) -> MatchConfig<G> {
    MatchConfig {
        players: [with_values(&cfg.engine, &cfg.names, plus), with_values(&cfg.engine, &cfg.names, minus)],
        games: 2 * cfg.pairs,
        limit: cfg.limit,
        concurrency: cfg.concurrency.max(1),
        openings: if cfg.random_plies == 0 {
            Openings::Start
        } else {
            Openings::Random { plies: cfg.random_plies, seed: cfg.seed.wrapping_mul(1_000_003).wrapping_add(k as u64) }
        },
        sprt: None,
        record: None,
        adjudicate: true,
        max_plies: 1000,
        margin: std::time::Duration::from_millis(100),
        progress: false,
        seed: cfg.seed.wrapping_add(k as u64),
        fixed_colours: false,
    }
}

impl SpsaProgress {
    /// The command's line for this iteration (`names`: the tuned names).
    pub fn line(&self, names: &[String]) -> String {
        let values: Vec<String> = names.iter().zip(&self.theta).map(|(n, v)| format!("{n}={v:.1}")).collect();
        format!(
            "iteration {:>5}  result {:+}  total {:+}  {}",
            self.iteration,
            self.result,
            self.total,
            values.join(" ")
        )
    }
}

/// Run the tuner with a checkpoint (resumed from, written after every iteration) and possibly only up to an
/// iteration. Returns θ rounded into the parameters and the iteration reached.
pub(crate) fn run_with<G: FullGame>(
    game: &G,
    cfg: &SpsaConfig,
    cp: &Checkpointing,
    mut progress: impl FnMut(&SpsaProgress),
) -> Result<(SearchParams, u32), String> {
    let schedule = Schedule::new(cfg)?;
    let settings = settings(game, cfg);
    let mut state = schedule.start_state(cfg, settings.clone());
    if let Some(path) = &cp.path {
        if let Some(saved) = checkpoint::load(path, &settings, cp.resume)? {
            eprintln!("resuming {} at iteration {} of {}", path.display(), saved.iteration, cfg.iterations);
            state = saved;
        } else if cp.resume {
            eprintln!("no checkpoint {} yet: starting at iteration 1", path.display());
        }
    }
    let last = cp.stop_after.unwrap_or(cfg.iterations).min(cfg.iterations);
    let (mut theta, mut total) = (state.theta.clone(), state.total);
    for k in state.iteration + 1..=last {
        let step = schedule.step(cfg, k, &theta);
        let s = run_match(game, &iteration_match(cfg, k, &step.plus, &step.minus), |_| {})?;
        let r = s.wins_a as f64 - s.wins_b as f64;
        total += r;
        schedule.update(&mut theta, &step, r);
        if let Some(path) = &cp.path {
            state.iteration = k;
            state.theta.clone_from(&theta);
            state.total = total;
            checkpoint::save(path, &mut state)?;
        }
        progress(&SpsaProgress { iteration: k, theta: theta.clone(), result: r, total });
    }
    Ok((schedule.tuned(cfg, &theta)?, last.max(state.iteration)))
}

/// The settings that define a run (the concurrency does not: node-limited games do not depend on it).
pub fn settings<G: FullGame>(game: &G, cfg: &SpsaConfig) -> Vec<(String, String)> {
    let pairs = [
        ("game", game.spec()),
        ("engine", cfg.engine.clone()),
        ("params", cfg.names.join(",")),
        ("start", cfg.start.spec_params().join(",")),
        ("iterations", cfg.iterations.to_string()),
        ("pairs", cfg.pairs.to_string()),
        ("r_end", format!("{:?}", cfg.r_end)),
        ("time control", describe_limit(&cfg.limit)),
        ("random_plies", cfg.random_plies.to_string()),
        ("seed", cfg.seed.to_string()),
    ];
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_strings_get_the_values() {
        let names = vec!["rfp_margin".to_string(), "asp_delta".to_string()];
        assert_eq!(with_values("engine", &names, &[80, 30]), "engine(rfp_margin=80,asp_delta=30)");
        assert_eq!(with_values("engine()", &names, &[80, 30]), "engine(rfp_margin=80,asp_delta=30)");
        assert_eq!(with_values("engine(nodes=500)", &names, &[1, 2]), "engine(nodes=500,rfp_margin=1,asp_delta=2)");
        assert!(chosen(&["nope".to_string()]).unwrap_err().contains("unknown engine parameter `nope`"));
    }
}
