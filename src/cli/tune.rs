//! `plateau tune`: Texel-style tuning of the Breakthrough evaluation from engine self-play games.

use std::io::Write;

use clap::Args;

use crate::eval::breakthrough::NAMES;
use crate::eval::{tune, weights};
use crate::games::AnyGame;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The Breakthrough board to play on.
    #[arg(default_value = "breakthrough")]
    game: String,
    /// Self-play games.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Engine nodes per move in the self-play games.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Random plies at the start of each game (opening variety).
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Gradient steps.
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// L2 penalty pulling the weights towards the hand-set ones.
    #[arg(long, default_value_t = 1e-7)]
    l2: f64,
    /// Write the new `eval/weights.rs` here (e.g. `src/eval/weights.rs`); otherwise print it.
    #[arg(long)]
    out: Option<String>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

pub fn run(a: TuneArgs) -> anyhow::Result<()> {
    let g = match AnyGame::parse(&a.game)? {
        AnyGame::Breakthrough(g) => g,
        #[allow(unreachable_patterns)]
        _ => anyhow::bail!("tune: only Breakthrough has a tunable evaluation"),
    };
    if g.misere || g.forced_captures {
        anyhow::bail!("tune: only standard Breakthrough rules are tuned (no misere, no forced_captures)");
    }
    if a.games == 0 || a.epochs == 0 {
        anyhow::bail!("tune: --games and --epochs must be at least 1");
    }
    let opts = tune::self_play_options(a.nodes.max(1));
    let samples = tune::self_play(&g, &opts, a.games, a.random_plies, a.seed, |n| {
        if n % 10 == 0 || n == a.games {
            eprint!("\rself-play: {n}/{} games", a.games);
            let _ = std::io::stderr().flush();
        }
    });
    eprintln!();
    if samples.is_empty() {
        anyhow::bail!("tune: the games gave no quiet positions");
    }
    let t = tune::tune(&samples, weights::HAND_MG, weights::HAND_EG, a.epochs, a.l2);
    let source = tune::weights_source(&t);
    if let Some(path) = &a.out {
        std::fs::write(path, &source).map_err(|e| anyhow::anyhow!("tune: cannot write {path}: {e}"))?;
    }
    if a.json {
        super::print_json(&serde_json::json!({
            "samples": t.samples, "k": t.k, "error_before": t.error_before, "error_after": t.error_after,
            "features": NAMES, "mg": t.mg, "eg": t.eg,
        }));
    } else {
        println!("{} positions from {} games, K = {:.4}", t.samples, a.games, t.k);
        println!("error {:.6} -> {:.6}", t.error_before, t.error_after);
        println!("{:<18} {:>6} {:>6}   {:>6} {:>6}", "feature", "mg", "", "eg", "");
        for (i, name) in NAMES.iter().enumerate() {
            println!(
                "{:<18} {:>6} -> {:>6}   {:>6} -> {:>6}",
                name,
                weights::HAND_MG[i],
                t.mg[i],
                weights::HAND_EG[i],
                t.eg[i]
            );
        }
        if a.out.is_none() {
            println!("\n{source}");
        }
    }
    Ok(())
}
