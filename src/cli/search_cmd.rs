//! `plateau search`: one search from a position with any algorithm string.

use clap::Args;

use crate::game::{Game, describe_score};
use crate::games::with_game;
use crate::search::{Limits, SearchResult, TimeControl};
use crate::spec::parse_duration;

#[derive(Args, Debug)]
pub struct SearchArgs {
    #[command(flatten)]
    pos: super::PositionArgs,
    /// The algorithm string, e.g. `alphabeta(depth=6)`.
    #[arg(long, default_value = "alphabeta(depth=5)")]
    algo: String,
    /// Override the algorithm's depth (0 to 200, as `depth=` in a player string).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=200))]
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

pub fn run(a: SearchArgs) -> anyhow::Result<()> {
    if let Some(file) = &a.db {
        return super::solve_db::search(&a.pos, file, a.json);
    }
    let any = a.pos.game()?;
    with_game!(&any, g => {
        let state = super::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
        if g.is_terminal(&state) {
            anyhow::bail!("the game is over in this position: there is nothing to search");
        }
        let mut searcher = crate::players::searcher::<_>(&a.algo)?;
        if a.depth.is_some() || a.time.is_some() {
            let time = a.time.as_deref().map(parse_duration).transpose().map_err(|e| anyhow::anyhow!("--time: {e}"))?;
            searcher.set_limits(Limits { depth: a.depth, time: time.map(TimeControl::MoveTime), nodes: None });
        }
        // The player's setup (endgame tables, evaluation) is done first, outside the search's time.
        let t0 = std::time::Instant::now();
        searcher.prepare(g);
        let setup = t0.elapsed().as_secs_f64();
        let r = searcher.search(g, &state);
        let best = r.best_move.map(|m| g.format_move(&state, m));
        if a.json {
            let mut doc = search_json(g, &state, &searcher.name(), &r);
            doc["setup_seconds"] = serde_json::json!(setup);
            // Searchers that keep statistics per root move (MCTS): visits, mean reward for the side to move, proof.
            let root: Vec<serde_json::Value> = searcher
                .root_moves()
                .iter()
                .map(|m| serde_json::json!({
                    "move": g.format_move(&state, m.mv), "visits": m.visits, "mean": m.mean, "proven": m.proven,
                }))
                .collect();
            if !root.is_empty() {
                doc["root_moves"] = serde_json::json!(root);
            }
            super::print_json(&doc);
        } else {
            let pv = crate::game::line_words(g, &state, &r.pv);
            let winner = winner_text(g, &state, r.value);
            println!("{}", g.display(&state));
            println!("algorithm  {}", searcher.name());
            println!("best move  {}", best.unwrap_or_else(|| "-".into()));
            match &winner {
                Some(w) => println!("value      {} ({}, proven: {w})", r.value, describe_score(r.value)),
                None => println!("value      {} (heuristic: depth-limited, side to move's view)", r.value),
            }
            println!("depth      {}", r.depth);
            println!("pv         {}", pv.join(" "));
            println!("nodes      {}  leaves {}  cutoffs {}  re-searches {}  tt {}/{}",
                r.stats.nodes, r.stats.leaves, r.stats.cutoffs, r.stats.researches, r.stats.tt_hits, r.stats.tt_probes);
            println!("seconds    {:.3}", r.seconds);
            if setup >= 0.001 {
                println!("setup      {setup:.3} s before the search (tables, evaluation)");
            }
            let root = searcher.root_moves();
            if !root.is_empty() {
                let shown: Vec<String> = root.iter().take(8).map(|m| {
                    format!("{} {} ({:.3})", g.format_move(&state, m.mv), m.visits, m.mean)
                }).collect();
                println!("root       {}", shown.join(", "));
            }
        }
        Ok(())
    })
}

/// The document `plateau search --json` prints for the result `r` of the player named `algo` searching `state`.
pub fn search_json<G: Game>(g: &G, state: &G::State, algo: &str, r: &SearchResult<G::Move>) -> serde_json::Value {
    let proven = r.value.abs() >= crate::game::WIN_THRESHOLD;
    let mut doc = serde_json::json!({
        "proven": proven, "value_kind": if proven { "proven" } else { "heuristic" },
        "winner_text": winner_text(g, state, r.value),
        "game": g.spec(), "position": g.format_position(state), "algo": algo,
        "best_move": r.best_move.map(|m| g.format_move(state, m)), "value": r.value,
        "value_text": describe_score(r.value), "depth": r.depth,
        "nodes": r.stats.nodes, "leaves": r.stats.leaves, "cutoffs": r.stats.cutoffs,
        "researches": r.stats.researches, "tt_probes": r.stats.tt_probes, "tt_hits": r.stats.tt_hits,
        "pv": crate::game::line_words(g, state, &r.pv), "seconds": r.seconds,
    });
    // The terms of the game's default evaluation at the searched position, when the game names them.
    let terms = default_terms(g, state);
    if !terms.is_empty() {
        doc["eval_terms"] = serde_json::json!(terms);
    }
    doc
}

/// Who wins, in words, when the value is a proven win or loss for the side to move.
fn winner_text<G: Game>(g: &G, state: &G::State, value: i32) -> Option<String> {
    if value >= crate::game::WIN_THRESHOLD {
        Some(super::winner_words(g, g.side_to_move(state), "win"))
    } else if value <= -crate::game::WIN_THRESHOLD {
        Some(super::winner_words(g, g.side_to_move(state), "loss"))
    } else {
        None
    }
}

/// The named terms of the game's default evaluation in `state` (empty where it is not split into terms).
fn default_terms<G: crate::game::Game>(game: &G, state: &G::State) -> Vec<crate::game::Term> {
    crate::game::Evaluator::terms(&G::Eval::default(), game, state)
}
