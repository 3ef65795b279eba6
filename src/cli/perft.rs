//! `plateau perft`: exact move-path enumeration, bulk-counted at the last ply, optionally split per root move
//! (`--divide`) and across threads (`--threads`).

use std::time::Instant;

use anyhow::Context;
use clap::Args;
use rayon::prelude::*;

use crate::game::Game;
use crate::game::perft::{perft_unique, unique_bytes_per_position};
use crate::game::{FullGame, MoveList, Side, Turn, perft};
use crate::games::with_game;

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pos: super::PositionArgs,
    /// Plies to look ahead.
    #[arg(long, short)]
    depth: u32,
    /// Print the count below each legal move.
    #[arg(long)]
    divide: bool,
    /// Worker threads (1 = single-threaded).
    #[arg(long, default_value_t = 1, value_parser = super::parse_threads)]
    threads: usize,
    /// Also count the distinct positions at each ply (deduplicated by the game's key) next to the move paths, and the
    /// transposition ratio.
    #[arg(long, conflicts_with_all = ["divide", "threads"])]
    unique: bool,
    /// Memory ceiling of `--unique` in MiB: past it the count stops with an error.
    #[arg(long, default_value_t = 1024)]
    mem: usize,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

/// perft split per root move, each subtree counted on the thread pool when `threads > 1`.
pub(crate) fn perft_divide<G: FullGame>(game: &G, state: &G::State, depth: u32, threads: usize) -> Vec<(String, u64)> {
    if depth == 0 || game.is_terminal(state) {
        return Vec::new();
    }
    if G::KIND.simultaneous && game.turn(state) == Turn::Simultaneous {
        return divide_joint(game, state, depth);
    }
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let work = |m: &G::Move| {
        let mut child = *state;
        game.play(&mut child, *m);
        (game.format_move(state, *m), perft(game, &child, depth - 1))
    };
    if threads > 1 { moves.par_iter().map(work).collect() } else { moves.iter().map(work).collect() }
}

/// perft on `threads` threads: the tree is split two plies down so that the work balances.
pub(crate) fn perft_parallel<G: FullGame>(game: &G, state: &G::State, depth: u32) -> u64 {
    // A simultaneous game's tree is split by joint moves, which the split below does not list.
    if depth < 3 || game.is_terminal(state) || G::KIND.simultaneous {
        return perft(game, state, depth);
    }
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let mut seconds = Vec::new();
    for &m in &moves {
        let mut child = *state;
        game.play(&mut child, m);
        seconds.push(child);
    }
    seconds.par_iter().map(|c| perft(game, c, depth - 1)).sum()
}

/// perft split per joint move `FIRST/SECOND` at a simultaneous node.
fn divide_joint<G: FullGame>(game: &G, state: &G::State, depth: u32) -> Vec<(String, u64)> {
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    game.player_moves(state, Side::First, &mut a);
    game.player_moves(state, Side::Second, &mut b);
    let mut out = Vec::new();
    for &x in &a {
        for &y in &b {
            let mut child = *state;
            game.play_joint(&mut child, x, y);
            let text = format!("{}/{}", game.format_move(state, x), game.format_move(state, y));
            out.push((text, perft(game, &child, depth - 1)));
        }
    }
    out
}

pub fn run(a: PerftArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let any = a.pos.game()?;
    if a.threads == 0 {
        anyhow::bail!("--threads must be at least 1");
    }
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(a.threads).build().context("cannot start the thread pool")?;
    with_game!(&any, g => {
        let state = super::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
        if a.unique {
            return run_unique(g, &state, &a, out);
        }
        let t0 = Instant::now();
        let (nodes, divide) = pool.install(|| {
            if a.divide {
                let d = perft_divide(g, &state, a.depth, a.threads);
                (d.iter().map(|x| x.1).sum::<u64>(), Some(d))
            } else if a.threads > 1 {
                (perft_parallel(g, &state, a.depth), None)
            } else {
                (perft(g, &state, a.depth), None)
            }
        });
        let secs = t0.elapsed().as_secs_f64();
        let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
        if a.json {
            let mut v = serde_json::json!({
                "game": g.spec(), "position": g.format_position(&state),
                "depth": a.depth, "nodes": nodes, "seconds": secs, "nps": nps.round(), "threads": a.threads,
            });
            if let Some(d) = &divide {
                v["divide"] = d.iter().map(|(m, n)| serde_json::json!({"move": m, "nodes": n})).collect();
            }
            out.json(v);
        } else {
            if let Some(d) = &divide {
                for (m, n) in d {
                    println!("{m}: {n}");
                }
                println!();
            }
            println!("perft({}) = {} in {:.3} s ({:.0} positions/s)", a.depth, nodes, secs, nps);
        }
        Ok(())
    })
}

/// `--unique`: paths and distinct positions per ply; the transposition ratio is paths per distinct position, and the
/// share of paths that reach a position another path also reaches is `1 - positions / paths`.
fn run_unique<G: FullGame>(g: &G, state: &G::State, a: &PerftArgs, out: &mut super::Out) -> anyhow::Result<()> {
    if a.mem == 0 {
        anyhow::bail!("--mem must be at least 1 (MiB)");
    }
    let max_positions = a.mem.saturating_mul(1 << 20) / unique_bytes_per_position::<G>();
    let t0 = Instant::now();
    let plies = perft_unique(g, state, a.depth, max_positions).map_err(anyhow::Error::msg)?;
    let secs = t0.elapsed().as_secs_f64();
    let ratio =
        |p: &crate::game::perft::UniquePly| if p.positions == 0 { 0.0 } else { p.paths as f64 / p.positions as f64 };
    let again =
        |p: &crate::game::perft::UniquePly| if p.paths == 0 { 0.0 } else { 1.0 - p.positions as f64 / p.paths as f64 };
    let last = plies.last().copied();
    if a.json {
        let rows: Vec<serde_json::Value> = plies
            .iter()
            .map(|p| {
                serde_json::json!({"ply": p.ply, "paths": p.paths, "positions": p.positions,
                "transposition_ratio": ratio(p), "transposed_share": again(p)})
            })
            .collect();
        out.json(serde_json::json!({
            "game": g.spec(), "position": g.format_position(state), "depth": a.depth,
            "nodes": last.map_or(1, |p| p.paths), "positions": last.map_or(1, |p| p.positions),
            "plies": rows, "seconds": secs,
        }));
    } else {
        println!("{:>4} {:>16} {:>16} {:>12} {:>16}", "ply", "move paths", "positions", "paths/pos", "transposed");
        for p in &plies {
            println!("{:>4} {:>16} {:>16} {:>12.3} {:>15.1}%", p.ply, p.paths, p.positions, ratio(p), 100.0 * again(p));
        }
        println!("({:.3} s; transposed: the share of move paths that reach a position another path reaches too)", secs);
    }
    Ok(())
}
