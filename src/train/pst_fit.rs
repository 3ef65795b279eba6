//! Training data and the logistic fit of the `pst` evaluation (`plateau tune --eval pst`).
//!
//! ```text
//! data:   N self-play games, engine(nodes=M) with the hand-set evaluation (--data-eval: another one), R random opening plies, game i seeded by
//!         (seed, i) so that the data does not depend on the number of threads; every quiet position after the opening
//!         (not a win in 1, no enemy threat to answer) is kept with
//!           r      the game's result for the side to move (1, 1/2, 0)
//!           v      the engine's search value there (side to move's view)
//!         games with i % 10 == 0 are the validation set, the others the training set
//! label:  K_v := argmin mean (r - σ(K_v v / 100))²               (how search values map to results)
//!         y   := λ r + (1 - λ) σ(K_v v / 100)                    (result blended with the deeper search's opinion)
//! scale:  K := argmin mean over training positions (y - σ(K · hand(s) / 100))²   (the hand evaluation's scale, so
//!         that the fitted weights come out in its units: a piece about 100)
//! fit:    E(w) = mean over training positions (y - σ(K · eval_w(s) / 100))² + l2 · |w - w0|²
//!         full-batch Adam on all middle- and end-game weights at once; eval_w is linear in w, the gradient exact;
//!         report E on training and validation positions before and after (and the hand evaluation's, K refitted);
//!         two weights are not fitted: the runner count stays at 0 (fitted freely it went strongly negative, two
//!         runners worse than one, an artefact next to the runner race) and the runner race at the hand value 1500
//!         (fitted, it fell to about 900-1000); the table entries 1 row from the goal (no quiet position has such a
//!         piece: it wins at once) are set to the 2-row entries plus the hand-set step between those rows
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rayon::prelude::*;

use crate::engine::Engine;
use crate::engine::params::EngineOptions;
use crate::game::{Capabilities, Knowledge};
use crate::game::{Forced, Game, Outcome, WIN_SCORE};
use crate::games::Breakthrough;
use crate::games::breakthrough::BtState;
use crate::search::{Limits, Searcher};

use crate::games::breakthrough::eval::features::BtEvaluator;
use crate::games::breakthrough::eval::pst::{self, Features, N, PstEvaluator};
use crate::games::breakthrough::eval::weights;

/// One recorded position.
#[derive(Clone, Copy, Debug)]
pub struct Record {
    pub state: BtState,
    /// Result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
    /// The search value for the side to move.
    pub value: i32,
    /// The game it comes from.
    pub game: u32,
}

/// The engine that plays the data games: `engine(nodes=M)` with the given evaluation (the hand-set one unless
/// `plateau tune --data-eval` says otherwise) and a small table.
pub fn data_options(nodes: u64, eval: &str) -> EngineOptions {
    EngineOptions {
        limits: Limits { nodes: Some(nodes), ..Limits::default() },
        tt_mib: 8,
        eval: Some(eval.to_string()),
        ..EngineOptions::default()
    }
}

/// Data game `game` of the run seeded by `seed`: its quiet positions after the opening, labelled.
pub(super) fn play_game(
    g: &Breakthrough,
    opts: &EngineOptions,
    random_plies: u32,
    seed: u64,
    game: u32,
) -> Vec<Record> {
    let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game as u64);
    let mut engines = [Engine::<Breakthrough>::new(opts.clone()), Engine::new(opts.clone())];
    let mut s = g.start();
    let mut kept: Vec<(BtState, usize, i32)> = Vec::new();
    let mut ply = 0usize;
    let (o, end) = loop {
        if let Some(o) = g.outcome(&s) {
            break (o, ply);
        }
        let m = if (ply as u32) < random_plies {
            g.random_move(&s, &mut rng)
        } else {
            let r = engines[ply % 2].search(g, &s);
            if g.forced(&s) == Forced::Free && !g.has_winning_move(&s) {
                kept.push((s, ply % 2, r.value));
            }
            r.best_move
        };
        let Some(m) = m else { break (Outcome::Loss, ply) };
        g.play(&mut s, m);
        ply += 1;
        if ply > 1000 {
            break (Outcome::Draw, ply);
        }
    };
    // The outcome is seen by the side to move at the end.
    let first = match (o, end % 2) {
        (Outcome::Win, 0) | (Outcome::Loss, 1) => 1.0,
        (Outcome::Draw, _) | (Outcome::Value(_), _) => 0.5,
        _ => 0.0,
    };
    kept.into_iter()
        .map(|(state, side, value)| Record { state, result: if side == 0 { first } else { 1.0 - first }, value, game })
        .collect()
}

/// Play `games` data games on `threads` threads (the records do not depend on the thread count).
pub fn generate(
    g: &Breakthrough,
    opts: &EngineOptions,
    games: u32,
    random_plies: u32,
    seed: u64,
    threads: usize,
    progress: impl Fn(usize) + Sync,
) -> anyhow::Result<Vec<Record>> {
    per_game(threads, games as usize, progress, |i| play_game(g, opts, random_plies, seed, i as u32))
}

/// `game(i)` for every `i < n` on `threads` threads, with `progress(games done)` after each; the records in game order.
fn per_game(
    threads: usize,
    n: usize,
    progress: impl Fn(usize) + Sync,
    game: impl Fn(usize) -> Vec<Record> + Sync,
) -> anyhow::Result<Vec<Record>> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build()?;
    let done = AtomicUsize::new(0);
    let per_game: Vec<Vec<Record>> = pool.install(|| {
        (0..n)
            .into_par_iter()
            .map(|i| {
                let r = game(i);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                r
            })
            .collect()
    });
    Ok(per_game.into_iter().flatten().collect())
}

/// Records from recorded games (e.g. `plateau match --record` against another engine): every quiet position of
/// each game (not a win in 1, no threat to answer), labelled with the game's result for its side to move and the
/// search value of `engine` with `opts` (node-limited: the labels do not depend on the machine). `games` holds
/// (start position, moves, result for the first player to move: 1, 1/2, 0); record numbers continue from `first_id`.
pub fn label_games(
    g: &Breakthrough,
    opts: &EngineOptions,
    games: &[LabelledGame],
    first_id: u32,
    threads: usize,
    progress: impl Fn(usize) + Sync,
) -> anyhow::Result<Vec<Record>> {
    per_game(threads, games.len(), progress, |i| label_game(g, opts, &games[i], first_id + i as u32))
}

/// The records of one recorded game (see [`label_games`]), numbered `id`.
pub fn label_game(g: &Breakthrough, opts: &EngineOptions, game: &LabelledGame, id: u32) -> Vec<Record> {
    let (start, moves, first) = game;
    let mut engine = Engine::<Breakthrough>::new(opts.clone());
    let mut s = *start;
    let mut out = Vec::new();
    for (ply, &m) in moves.iter().enumerate() {
        if g.outcome(&s).is_some() {
            break;
        }
        if g.forced(&s) == Forced::Free && !g.has_winning_move(&s) {
            let value = engine.search(g, &s).value;
            let result = if ply % 2 == 0 { *first } else { 1.0 - *first };
            out.push(Record { state: s, result, value, game: id });
        }
        g.play(&mut s, m);
    }
    out
}

/// A recorded game to label: its start, its moves, its result for the first player to move (1, 1/2, 0).
pub type LabelledGame = (BtState, Vec<crate::games::breakthrough::BtMove>, f32);

/// Records as text, one a line: `position<TAB>result<TAB>value<TAB>game`.
pub fn write_records(g: &Breakthrough, records: &[Record]) -> String {
    let mut out = String::new();
    for r in records {
        out += &format!("{}\t{}\t{}\t{}\n", g.format_position(&r.state), r.result, r.value, r.game);
    }
    out
}

/// Parse the text of [`write_records`] (lines starting with `#` are comments: `datagen.rs` writes its settings there).
pub fn read_records(g: &Breakthrough, text: &str) -> anyhow::Result<Vec<Record>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || anyhow::anyhow!("tune: data line {}: expected position<TAB>result<TAB>value<TAB>game", n + 1);
        let parts: Vec<&str> = line.split('\t').collect();
        if parts.len() != 4 {
            return Err(bad());
        }
        let state = g.parse_position(parts[0]).map_err(|e| anyhow::anyhow!("tune: data line {}: {e}", n + 1))?;
        let result: f32 = parts[1].parse().map_err(|_| bad())?;
        let value: i32 = parts[2].parse().map_err(|_| bad())?;
        let game: u32 = parts[3].parse().map_err(|_| bad())?;
        if !(0.0..=1.0).contains(&result) {
            return Err(bad());
        }
        out.push(Record { state, result, value, game });
    }
    Ok(out)
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Win probability of a search value with scale `k` (proven wins and losses are 1 and 0).
pub fn value_prob(v: i32, k: f64) -> f64 {
    if v.abs() >= WIN_SCORE - 10_000 { if v > 0 { 1.0 } else { 0.0 } } else { sigmoid(k * v as f64 / 100.0) }
}

/// `argmin_k mean (r - f(k, i))²` by golden-section search on [0.001, 10].
pub fn golden(err: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (0.001f64, 10.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if err(c) < err(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// A training sample: features, blended label, validation flag.
#[derive(Clone, Copy, Debug)]
struct Sample {
    x: Features,
    y: f64,
}

/// The linear evaluation with real weights `w` (mg then eg).
fn eval_w(w: &[f64], x: &Features) -> f64 {
    let p = x.phase as f64 / 256.0;
    let mut mg = 0.0;
    let mut eg = 0.0;
    for i in 0..N {
        let f = x.f[i] as f64;
        mg += w[i] * f;
        eg += w[N + i] * f;
    }
    mg * p + eg * (1.0 - p)
}

fn mse(w: &[f64], k: f64, s: &[Sample]) -> f64 {
    s.iter().map(|s| (s.y - sigmoid(k * eval_w(w, &s.x) / 100.0)).powi(2)).sum::<f64>() / s.len().max(1) as f64
}

/// The starting weights of the fit: material 100 (120 in the end game) plus the hand-set advancement, home row and
/// edge weights in the table, the hand-set weights of the features the two evaluations share.
pub fn initial_weights() -> ([i32; N], [i32; N]) {
    let (hm, he) = (weights::HAND_MG, weights::HAND_EG);
    let mut mg = [0; N];
    let mut eg = [0; N];
    for d in 1..=pst::PST_ROWS {
        for c in 0..pst::PST_FILES {
            let i = (d - 1) * pst::PST_FILES + c;
            let adv = |w: &[i32; 16]| if d <= 4 { w[d] } else { w[5] };
            mg[i] = hm[0] + adv(&hm) + if d == 7 { hm[6] } else { 0 } + if c == 0 { hm[7] } else { 0 };
            eg[i] = he[0] + adv(&he) + if d == 7 { he[6] } else { 0 } + if c == 0 { he[7] } else { 0 };
        }
    }
    // (pst feature, hand feature) pairs.
    let shared = [
        (pst::DEFENDED, 8),
        (pst::OWN_HANGING, 9),
        (pst::OPP_HANGING, 10),
        (pst::ADV_DEFENDED, 11),
        (pst::RUNNER_RACE, 12),
        (pst::TEMPO, 13),
        (pst::PHALANX, 14),
        (pst::MOBILITY, 15),
    ];
    for (p, h) in shared {
        mg[p] = hm[h];
        eg[p] = he[h];
    }
    (mg, eg)
}

/// What a fit reports.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Fit {
    pub positions: usize,
    pub train: usize,
    pub validation: usize,
    pub k_value: f64,
    pub lambda: f64,
    pub hand_k: f64,
    pub hand_validation_error: f64,
    pub train_error_before: f64,
    pub validation_error_before: f64,
    pub train_error_after: f64,
    pub validation_error_after: f64,
    pub mg: Vec<i32>,
    pub eg: Vec<i32>,
}

/// Fit the `pst` weights on `records` (label blend `lambda`, `epochs` Adam steps of rate `lr`, L2 pull `l2`).
pub fn fit(g: &Breakthrough, records: &[Record], lambda: f64, epochs: usize, lr: f64, l2: f64) -> Fit {
    let k_value = golden(|k| {
        records.iter().map(|r| (r.result as f64 - value_prob(r.value, k)).powi(2)).sum::<f64>()
            / records.len().max(1) as f64
    });
    let (mg0, eg0) = initial_weights();
    let e0 = PstEvaluator::with_weights(g, mg0, eg0);
    let mut train = Vec::new();
    let mut valid = Vec::new();
    let hand = BtEvaluator::with_weights(g, weights::HAND_MG, weights::HAND_EG);
    let mut hand_train: Vec<(f64, f64)> = Vec::new();
    let mut hand_valid: Vec<(f64, f64)> = Vec::new();
    for r in records {
        let y = lambda * r.result as f64 + (1.0 - lambda) * value_prob(r.value, k_value);
        let s = Sample { x: e0.features(g, &r.state), y };
        let h = (y, hand.evaluate(g, &r.state) as f64);
        if r.game % 10 == 0 {
            valid.push(s);
            hand_valid.push(h);
        } else {
            train.push(s);
            hand_train.push(h);
        }
    }
    let hand_err = |k: f64, set: &[(f64, f64)]| {
        set.iter().map(|(y, v)| (y - sigmoid(k * v / 100.0)).powi(2)).sum::<f64>() / set.len().max(1) as f64
    };
    // The scale of the hand evaluation on these labels: the fitted weights come out in the same units.
    let hand_k = golden(|k| hand_err(k, &hand_train));
    let mut w: Vec<f64> = mg0.iter().chain(eg0.iter()).map(|&x| x as f64).collect();
    let w0 = w.clone();
    let k = hand_k;
    let train_error_before = mse(&w, k, &train);
    let validation_error_before = mse(&w, k, &valid);
    let mut adam = super::texel::Adam::new(w.len(), lr);
    let n = train.len().max(1) as f64;
    for t in 1..=epochs {
        let grad = train
            .par_chunks(4096)
            .map(|chunk| {
                let mut grad = vec![0.0; 2 * N];
                for s in chunk {
                    let p = sigmoid(k * eval_w(&w, &s.x) / 100.0);
                    let common = -2.0 * (s.y - p) * p * (1.0 - p) * k / 100.0;
                    let ph = s.x.phase as f64 / 256.0;
                    for i in 0..N {
                        let f = s.x.f[i] as f64;
                        if f != 0.0 {
                            grad[i] += common * f * ph;
                            grad[N + i] += common * f * (1.0 - ph);
                        }
                    }
                }
                grad
            })
            .collect::<Vec<_>>()
            // Summed in chunk order: the fit does not depend on the thread count.
            .into_iter()
            .fold(vec![0.0; 2 * N], |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            });
        for i in 0..w.len() {
            if i % N == pst::RUNNERS || i % N == pst::RUNNER_RACE {
                continue;
            }
            let gi = grad[i] / n + 2.0 * l2 * (w[i] - w0[i]);
            adam.update(&mut w[i], i, gi, t);
        }
    }
    // A piece 1 row from the goal never stands in a quiet position (it wins at once): its entries got no data and
    // would stay below the 2-row ones. They become the 2-row entries plus the hand-set step between the two rows.
    for c in 0..pst::PST_FILES {
        let step_mg = (weights::HAND_MG[1] - weights::HAND_MG[2]) as f64;
        let step_eg = (weights::HAND_EG[1] - weights::HAND_EG[2]) as f64;
        w[c] = w[pst::PST_FILES + c] + step_mg;
        w[N + c] = w[N + pst::PST_FILES + c] + step_eg;
    }
    let wr: Vec<f64> = w.iter().map(|x| x.round()).collect();
    Fit {
        positions: records.len(),
        train: train.len(),
        validation: valid.len(),
        k_value,
        lambda,
        hand_k,
        hand_validation_error: hand_err(hand_k, &hand_valid),
        train_error_before,
        validation_error_before,
        train_error_after: mse(&wr, k, &train),
        validation_error_after: mse(&wr, k, &valid),
        mg: wr[..N].iter().map(|&x| x as i32).collect(),
        eg: wr[N..].iter().map(|&x| x as i32).collect(),
    }
}

/// The whole `games/breakthrough/eval/pst_weights.rs` for a fit; `command` is the command line that produced it.
pub fn weights_source(f: &Fit, command: &str) -> String {
    let table = |w: &[i32]| {
        let mut s = String::new();
        for d in 0..pst::PST_ROWS {
            let row: Vec<String> =
                w[d * pst::PST_FILES..(d + 1) * pst::PST_FILES].iter().map(|x| x.to_string()).collect();
            s += &format!("    {}, // {} row(s) from the goal\n", row.join(", "), d + 1);
        }
        let rest: Vec<String> = (pst::PST_N..N).map(|i| format!("    {}, // {}\n", w[i], pst::name(i))).collect();
        s + &rest.concat()
    };
    let mut out = String::new();
    out += "//! The weights of the `pst` Breakthrough evaluation (games/breakthrough/eval/pst.rs), written by\n";
    out += &format!("//! `{command}`.\n");
    out += &format!(
        "//! {} positions ({} training, {} validation), K = {:.4}, lambda = {}; validation error {:.6} -> {:.6} \
         (hand evaluation: {:.6}).\n\n",
        f.positions,
        f.train,
        f.validation,
        f.k_value,
        f.lambda,
        f.validation_error_before,
        f.validation_error_after,
        f.hand_validation_error
    );
    out += "use super::pst::N;\n\n";
    out += "/// Middle-game weights (phase 256 = all pieces on the board): the table by rows to the goal (edge file\n";
    out += "/// first), then the other features.\n";
    out += "#[rustfmt::skip]\n";
    out += &format!("pub const MG: [i32; N] = [\n{}];\n\n", table(&f.mg));
    out += "/// End-game weights (phase 0 = no piece left).\n";
    out += "#[rustfmt::skip]\n";
    out += &format!("pub const EG: [i32; N] = [\n{}];\n", table(&f.eg));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_round_trips_and_the_fit_lowers_the_error() {
        let g = Breakthrough::new(6, 5, 2, false, false).unwrap();
        let recs = generate(&g, &data_options(300, "hand"), 12, 2, 1, 2, |_| {}).unwrap();
        assert!(recs.len() > 50);
        // The same data whatever the thread count.
        let again = generate(&g, &data_options(300, "hand"), 12, 2, 1, 1, |_| {}).unwrap();
        assert_eq!(write_records(&g, &recs), write_records(&g, &again));
        let text = write_records(&g, &recs);
        let back = read_records(&g, &text).unwrap();
        assert_eq!(write_records(&g, &back), text);
        assert!(read_records(&g, "garbage").is_err());
        let f = fit(&g, &recs, 0.5, 40, 1.0, 0.0);
        assert!(f.train_error_after < f.train_error_before, "{} -> {}", f.train_error_before, f.train_error_after);
        assert!(f.k_value > 0.0);
        assert!(weights_source(&f, "plateau tune").contains("pub const EG"));
    }
}
