//! `plateau solve oware ... --method retro [--db DIR] [--db-seeds N]` (build the endgame databases, levels 0..=N, in
//! DIR or in memory) and `plateau solve oware ... --db DIR` (the value of a position from them). See `docs/oware.md`.
//!
//! Without `--db-seeds`, a build goes up to the seeds on the board of the position: the whole game for small boards
//! (`oware(houses=3,seeds=2)`), which is then solved completely.

use std::path::Path;

use anyhow::bail;
use serde_json::json;

use crate::game::Game;
use crate::games::oware::db::{MAX_LEVEL, Tables};
use crate::games::oware::{Oware, OwareState};

use super::PositionArgs;

pub fn run(
    g: &Oware,
    pos: &PositionArgs,
    dir: Option<&str>,
    build: bool,
    seeds: Option<usize>,
    json: bool,
) -> anyhow::Result<()> {
    let state = super::resolve_position(g, pos.position.as_deref(), pos.moves.as_deref())?;
    let on_board = g.board_seeds(&state) as usize;
    let dir = dir.map(Path::new);
    if let Some(d) = dir
        && build
    {
        std::fs::create_dir_all(d).map_err(|e| anyhow::anyhow!("{}: {e}", d.display()))?;
    }
    let top = match (build, seeds) {
        (_, Some(n)) if n > MAX_LEVEL.min(g.total()) => {
            bail!("--db-seeds {n}: at most {} seeds for {}", MAX_LEVEL.min(g.total()), g.spec())
        }
        (_, Some(n)) => n,
        (true, None) => on_board,
        (false, None) => {
            let Some(d) = dir else { bail!("--db DIR is needed to read the Oware databases") };
            let present = (0..=MAX_LEVEL).take_while(|&n| crate::games::oware::db::level_path(d, g.houses, n).exists());
            match present.last() {
                Some(n) => n,
                None => bail!(
                    "{}: no Oware database level for {} houses (build with --method retro)",
                    d.display(),
                    g.houses
                ),
            }
        }
    };
    if !build && dir.is_none() {
        bail!("--db DIR is needed to read the Oware databases (or --method retro to build them)");
    }
    let start = std::time::Instant::now();
    let (t, reports) = Tables::build(g.houses, top, dir, build).map_err(|e| anyhow::anyhow!("oware database: {e}"))?;
    let seconds = start.elapsed().as_secs_f64();
    let built: u64 = reports.iter().filter(|r| r.built).map(|r| r.positions).sum();
    let answer = answer(g, &t, &state);
    if json {
        super::print_json(&json!({
            "game": g.spec(), "position": g.format_position(&state), "db_seeds": top, "positions": t.positions(),
            "built_positions": built, "seconds": seconds,
            "positions_per_second": if seconds > 0.0 { built as f64 / seconds } else { 0.0 },
            "levels": reports,
            "seeds_on_board": on_board,
            "value": answer.as_ref().map(|a| a.0), "final_difference": answer.as_ref().map(|a| a.1),
            "best_moves": answer.as_ref().map(|a| a.2.clone()),
            "move_values": answer.as_ref().map(|a| a.3.iter().map(|(m, v)| json!({"move": m, "value": v})).collect::<Vec<_>>()),
        }));
        return Ok(());
    }
    if build {
        println!("{:>6} {:>14} {:>10} {:>14}", "seeds", "positions", "seconds", "positions/s");
        for r in &reports {
            let rate = if r.seconds > 0.0 { format!("{:.0}", r.positions as f64 / r.seconds) } else { "-".into() };
            let secs = if r.built { format!("{:.3}", r.seconds) } else { "(file)".into() };
            println!("{:>6} {:>14} {:>10} {:>14}", r.seeds, r.positions, secs, rate);
        }
        println!("total  {} positions, {built} built in {seconds:.3} s", t.positions());
    }
    match answer {
        Some((v, fin, best, all)) => {
            println!("position   {}", g.format_position(&state));
            println!("value      {v:+} (seeds from the board, side to move minus opponent, database rules)");
            println!("final      {fin:+} (with the stores)");
            println!("best moves {}", if best.is_empty() { "-".into() } else { best.join(" ") });
            let each: Vec<String> = all.iter().map(|(m, v)| format!("{m} {v:+}")).collect();
            println!("moves      {}", each.join(", "));
        }
        None => println!(
            "position   {} has {on_board} seeds on the board: not in the databases (levels 0..={top}) or over",
            g.format_position(&state)
        ),
    }
    Ok(())
}

type Answer = (i32, i32, Vec<String>, Vec<(String, i32)>);

/// The position's database value, final difference, best moves and the value of every move.
fn answer(g: &Oware, t: &Tables, s: &OwareState) -> Option<Answer> {
    if g.is_terminal(s) {
        return None;
    }
    let v = t.probe(g, s)?;
    let stores = s.stores[s.stm.index()] as i32 - s.stores[s.stm.other().index()] as i32;
    let all: Vec<(String, i32)> = t.move_values(g, s).into_iter().map(|(m, x)| (g.format_move(s, m), x)).collect();
    let best = all.iter().filter(|(_, x)| *x == v).map(|(m, _)| m.clone()).collect();
    Some((v, stores + v, best, all))
}
