//! `plateau search`: one search from a position with any algorithm string.

use clap::Args;

use crate::game::Game;
use crate::games::with_game;
use crate::search::summary::SearchReport;
use crate::search::{Limits, TimeControl};
use crate::spec::parse_duration;

#[derive(Args, Debug)]
pub struct SearchArgs {
    #[command(flatten)]
    pos: super::PositionArgs,
    /// The algorithm string, e.g. `alphabeta(depth=6)`.
    #[arg(long, default_value = "alphabeta(depth=5)")]
    algo: String,
    /// Override the algorithm's depth (0 to 200, as `depth=` in a player string).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=crate::limits::MAX_DEPTH as i64))]
    depth: Option<u32>,
    /// Override the algorithm's time limit (`100ms`, `1.5s`).
    #[arg(long)]
    time: Option<String>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Answer from a retrograde database (`plateau solve GAME --method retro --db FILE`) instead of searching.
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
}

pub fn run(a: SearchArgs, out: &mut super::Out) -> anyhow::Result<()> {
    if let Some(file) = &a.db {
        return super::solve_db::search(&a.pos, file, a.json, out);
    }
    let any = a.pos.game()?;
    with_game!(&any, g => {
        let state = super::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
        if g.is_terminal(&state) {
            anyhow::bail!("the game is over in this position: there is nothing to search");
        }
        let mut searcher = crate::players::searcher::<_>(&a.algo)?;
        if let Some(d) = a.depth {
            check_depth(g, &a.algo, d)?;
        }
        if a.depth.is_some() || a.time.is_some() {
            let time = a.time.as_deref().map(parse_duration).transpose().map_err(|e| anyhow::anyhow!("--time: {e}"))?;
            searcher.set_limits(Limits { depth: a.depth, time: time.map(TimeControl::MoveTime), nodes: None });
        }
        // The player's setup (endgame tables, evaluation) is done first, outside the search's time.
        let t0 = std::time::Instant::now();
        searcher.prepare(g);
        let setup = t0.elapsed().as_secs_f64();
        let r = searcher.search(g, &state);
        let report = SearchReport::new(g, &state, &searcher.name(), &r)
            .with_root_moves(g, &state, &searcher.root_moves());
        let report = SearchReport { setup_seconds: Some(setup), ..report };
        if a.json {
            out.json(serde_json::to_value(&report)?);
        } else {
            println!("{}", g.display(&state));
            println!("algorithm  {}", report.algo);
            println!("best move  {}", report.best_move.as_deref().unwrap_or("-"));
            match &report.winner_text {
                Some(w) => println!("value      {} ({}, proven: {w})", r.value, report.value_text),
                None => println!("value      {} (heuristic: depth-limited, side to move's view)", r.value),
            }
            println!("depth      {}", r.depth);
            println!("pv         {}", report.pv.join(" "));
            println!("nodes      {}  leaves {}  cutoffs {}  re-searches {}  tt {}/{}",
                r.stats.nodes, r.stats.leaves, r.stats.cutoffs, r.stats.researches, r.stats.tt_hits, r.stats.tt_probes);
            println!("seconds    {:.3}", r.seconds);
            if setup >= 0.001 {
                println!("setup      {setup:.3} s before the search (tables, evaluation)");
            }
            if !report.root_moves.is_empty() {
                let shown: Vec<String> = report.root_moves.iter().take(8)
                    .map(|m| format!("{} {} ({:.3})", m.mv, m.visits, m.mean)).collect();
                println!("root       {}", shown.join(", "));
            }
        }
        Ok(())
    })
}

/// `--depth D` in the range of the algorithm's own `depth=` (the engine searches at least one ply: `--depth 0` ran
/// as 1 while `engine(depth=0)` is refused).
fn check_depth<G: crate::game::FullGame>(_g: &G, algo: &str, d: u32) -> anyhow::Result<()> {
    let name = crate::spec::Spec::parse(algo)?.name;
    crate::players::searcher::<G>(&format!("{name}(depth={d})")).map_err(|e| anyhow::anyhow!("--depth {d}: {e}"))?;
    Ok(())
}
