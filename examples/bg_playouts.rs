//! Random backgammon playouts from the start: how many per second (`docs/backgammon.md`).
//!
//! ```text
//! cargo run --release --example bg_playouts -- [GAMES] [SEED]
//! ```
//!
//! Each playout plays uniformly random moves (one per distinct result of the roll, a double in two decisions) and
//! dice drawn by their probabilities, from the opening roll to the end. `scripts/backgammon_playouts.sh` runs it next
//! to OpenSpiel's random playouts.

use std::time::Instant;

use plateau::game::{Game, Outcome, Side};
use plateau::games::Backgammon;
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let g = Backgammon::default();
    let mut rng = SmallRng::seed_from_u64(seed);
    let start = g.start();
    let (mut steps, mut wins) = (0u64, 0u64);
    let t = Instant::now();
    for _ in 0..games {
        let (o, n) = plateau::game::playout::random_playout_for(&g, &start, Side::First, &mut rng);
        steps += n as u64;
        wins += (o == Outcome::Win) as u64;
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "plateau backgammon: {games} random playouts in {dt:.3} s = {:.1} playouts/s ({:.1} steps per game, X won {:.1}%)",
        games as f64 / dt,
        steps as f64 / games as f64,
        100.0 * wins as f64 / games as f64
    );
}
