//! `plateau solve GAME --method retro [--db FILE]` (retrograde analysis, written to a database) and
//! `plateau solve GAME --db FILE` / `plateau search GAME --db FILE` (answers read from the database).

use std::path::Path;
use std::time::Instant;

use anyhow::bail;
use serde_json::json;

use crate::game::{Game, WIN_SCORE, describe_score};
use crate::games::AnyGame;
use crate::games::with_game;
use crate::solve::db::{self, Db};
use crate::solve::retro::{self, Options, Value};
use crate::solve::retro_resume::Checkpoint;
use crate::spec::parse_mib;

use super::PositionArgs;

/// Parse `--max-memory` (`512mb`, `2gb`) into bytes.
pub fn max_bytes(text: &str) -> anyhow::Result<u64> {
    let mib = parse_mib(text).map_err(|e| anyhow::anyhow!("--max-memory: {e}"))?;
    Ok((mib as u64) << 20)
}

/// `solve` with `--method retro` (build) or `--db` alone (query).
pub fn run(
    any: &AnyGame,
    pos: &PositionArgs,
    file: Option<&str>,
    build: bool,
    max_memory: &str,
    save_every: Option<f64>,
    json: bool,
) -> anyhow::Result<()> {
    let limit = max_bytes(max_memory)?;
    with_game!(&any, g => {
        let state = super::resolve_position(g, pos.position.as_deref(), pos.moves.as_deref())?;
        match (build, file) {
            (true, _) => build_db(g, &state, file, limit, save_every, json),
            (false, Some(f)) => query(g, &state, f, json),
            (false, None) => bail!("--db FILE is needed to read a database (or --method retro to build one)"),
        }
    })
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// Seconds between two checkpoints of a build with `--db` when `--save-every` is not given.
pub const SAVE_EVERY_DEFAULT: f64 = 300.0;

fn build_db<G: Game>(
    g: &G,
    state: &G::State,
    file: Option<&str>,
    limit: u64,
    save_every: Option<f64>,
    json: bool,
) -> anyhow::Result<()> {
    // Before the work: files plateau would refuse to write (a symbolic link, a device, a directory).
    if let Some(f) = file {
        crate::files::check_output(Path::new(f), "database").map_err(anyhow::Error::msg)?;
        crate::files::check_output(&Checkpoint::path_for(Path::new(f)), "retro checkpoint")
            .map_err(anyhow::Error::msg)?;
    }
    let cost = retro::cost::<G>();
    eprintln!(
        "retro: memory about {} bytes per position + {} per move; --max-memory {} allows about {} positions at 8 moves each",
        cost.per_position,
        cost.per_move,
        mb(limit),
        cost.positions_within(limit, 8)
    );
    // With a database file, the enumeration is kept in FILE.partial (on Ctrl-C, every --save-every seconds and when
    // complete) and the next run resumes from it; the checkpoint goes once the database is written.
    let checkpoint = file.map(|f| Checkpoint {
        path: Checkpoint::path_for(Path::new(f)),
        game: g.spec(),
        save_every: save_every.unwrap_or(SAVE_EVERY_DEFAULT),
        interrupt: Some(crate::limits::catch_interrupt()),
    });
    let sol = retro::analyse(g, state, &Options { max_bytes: limit, progress: true, checkpoint: checkpoint.clone() })?;
    let root = sol.get(sol.root_key).ok_or_else(|| anyhow::anyhow!("internal error: the root is not in the table"))?;
    let best = retro::best_moves(g, state, |k| sol.get(k)).map(|(_, b)| b).unwrap_or_default();
    let best: Vec<String> = best.iter().map(|&m| g.format_move(state, m)).collect();
    let written = Instant::now();
    let bytes = match file {
        Some(f) => Some(db::save(Path::new(f), &g.spec(), &sol)?),
        None => None,
    };
    let write_seconds = written.elapsed().as_secs_f64();
    if let Some(cp) = &checkpoint {
        let _ = std::fs::remove_file(&cp.path);
    }
    let plies = (root.0 != Value::Draw).then_some(root.1);
    if json {
        super::print_json(&json!({
            "game": g.spec(), "position": g.format_position(state), "method": "retro",
            "result": root.0.word(), "winner_text": super::winner_words(g, g.side_to_move(state), root.0.word()),
            "proven": true, "plies": plies, "best_moves": best,
            "positions": sol.len(), "moves": sol.moves, "wins": sol.wins, "draws": sol.draws, "losses": sol.losses,
            "max_distance": sol.max_distance, "memory_bytes": sol.peak_bytes, "db": file, "db_bytes": bytes,
            "seconds": sol.seconds, "write_seconds": write_seconds,
        }));
    } else {
        println!("{}", g.display(state));
        let winner = super::winner_words(g, g.side_to_move(state), root.0.word());
        println!("result        {}: {winner} (proven)", root.0.word());
        if let Some(p) = plies {
            println!("plies         {p}");
        }
        println!("best moves    {}", best.join(" "));
        println!(
            "positions     {}  (wins {}, draws {}, losses {} for the side to move)",
            sol.len(),
            sol.wins,
            sol.draws,
            sol.losses
        );
        println!("moves         {}", sol.moves);
        println!("max distance  {}", sol.max_distance);
        println!("memory        about {} (estimated peak)", mb(sol.peak_bytes));
        println!("seconds       {:.3}", sol.seconds);
        if let (Some(f), Some(b)) = (file, bytes) {
            println!(
                "database      {f}: {b} bytes ({:.1} per position), written in {write_seconds:.3} s",
                b as f64 / sol.len().max(1) as f64
            );
        }
    }
    Ok(())
}

fn open<G: Game>(g: &G, file: &str) -> anyhow::Result<Db> {
    Ok(Db::open_for(Path::new(file), &g.spec())?)
}

fn lookup<G: Game>(g: &G, d: &Db, state: &G::State) -> anyhow::Result<retro::Answer<G::Move>> {
    retro::best_moves(g, state, |k| d.probe(k)).ok_or_else(|| {
        anyhow::anyhow!(
            "{}: this position is not in the database (it holds the {} positions reachable from its root)",
            d.path().display(),
            d.len()
        )
    })
}

fn query<G: Game>(g: &G, state: &G::State, file: &str, json: bool) -> anyhow::Result<()> {
    let t = Instant::now();
    let d = open(g, file)?;
    let ((v, dist), best) = lookup(g, &d, state)?;
    let seconds = t.elapsed().as_secs_f64();
    let best: Vec<String> = best.iter().map(|&m| g.format_move(state, m)).collect();
    let plies = (v != Value::Draw).then_some(dist);
    let score = match v {
        Value::Win => dist as i32,
        Value::Loss => -(dist as i32),
        Value::Draw => 0,
    };
    if json {
        super::print_json(&json!({
            "game": g.spec(), "position": g.format_position(state), "method": "db", "db": file,
            "result": v.word(), "winner_text": super::winner_words(g, g.side_to_move(state), v.word()), "proven": true,
            "score": score, "plies": plies, "best_move": best.first(), "best_moves": best,
            "seconds": seconds,
        }));
    } else {
        println!("{}", g.display(state));
        println!("result      {}: {} (proven)", v.word(), super::winner_words(g, g.side_to_move(state), v.word()));
        match plies {
            Some(0) => println!("score       0 (the game is over: {} for the side to move)", v.word()),
            Some(p) => println!("score       {score} ({} in {p} plies)", v.word()),
            None => println!("score       0"),
        }
        println!("best moves  {}", best.join(" "));
        println!("database    {file} ({} positions)", d.len());
    }
    Ok(())
}

/// `plateau search GAME --db FILE`: the database's answer in the search command's format (value in search units,
/// the principal variation follows the first best move to the end).
pub fn search(pos: &PositionArgs, file: &str, json: bool) -> anyhow::Result<()> {
    let any = AnyGame::parse(&pos.game)?;
    with_game!(&any, g => {
        let t = Instant::now();
        let state = super::resolve_position(g, pos.position.as_deref(), pos.moves.as_deref())?;
        if g.is_terminal(&state) {
            bail!("the game is over in this position: there is nothing to search");
        }
        let d = open(g, file)?;
        let ((v, dist), _) = lookup(g, &d, &state)?;
        let value = match v {
            Value::Win => WIN_SCORE - dist as i32,
            Value::Loss => -WIN_SCORE + dist as i32,
            Value::Draw => 0,
        };
        let mut pv = Vec::new();
        let mut s = state;
        while let Some((_, b)) = retro::best_moves(g, &s, |k| d.probe(k)) {
            let Some(&m) = b.first() else { break };
            pv.push(g.format_move(&s, m));
            g.play(&mut s, m);
            if pv.len() > 1000 {
                break;
            }
        }
        let seconds = t.elapsed().as_secs_f64();
        if json {
            super::print_json(&json!({
                "game": g.spec(), "position": g.format_position(&state), "algo": format!("db({file})"),
                "best_move": pv.first(), "value": value, "value_text": describe_score(value), "depth": pv.len(),
                "nodes": 0, "pv": pv, "seconds": seconds,
            }));
        } else {
            println!("{}", g.display(&state));
            println!("algorithm  db({file})");
            println!("best move  {}", pv.first().cloned().unwrap_or_else(|| "-".into()));
            println!("value      {value} ({})", describe_score(value));
            println!("pv         {}", pv.join(" "));
            println!("seconds    {seconds:.3}");
        }
        Ok(())
    })
}
