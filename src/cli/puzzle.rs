//! `plateau puzzle`: single-agent search on grid mazes, the number puzzle, sliding-tile puzzles (and Korf's 100
//! instances) and Breakthrough races, with `--algo astar|bfs|dls|ids|idastar`.

use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, bail};
use clap::{Args, Subcommand};
use serde_json::{Value, json};

use crate::game::{Game, Side};
use crate::puzzle::grid::Grid;
use crate::puzzle::longest;
use crate::puzzle::number::NumberPuzzle;
use crate::puzzle::pdb::{self, PatternDb};
use crate::puzzle::race::{self, Race};
use crate::puzzle::sliding::{self, Sliding, SlidingHeuristic};
use crate::puzzle::{self, Algorithm, Outcome, Problem, SearchBounds, bfs, korf};

#[derive(Args, Debug)]
pub struct PuzzleArgs {
    #[command(subcommand)]
    domain: Domain,
}

#[derive(Subcommand, Debug)]
enum Domain {
    /// A grid maze from a file: `#` wall, `.` free, `@` start, `$` goal; the answer is a string of u/d/l/r.
    Grid(GridArgs),
    /// Reach --to from --from with f(x) = 3x and g(x) = x div 2; the answer is a string of f/g.
    Number(NumberArgs),
    /// A sliding-tile puzzle (3x3 or 4x4, 0 = blank, goal with the blank top left); the answer is the blank's moves.
    Sliding(SlidingArgs),
    /// Korf's 100 random 15-puzzle instances: solve them and compare with the published lengths and node counts.
    Korf(KorfArgs),
    /// A Breakthrough race: one side runs for the far row while the other passes.
    Race(RaceArgs),
}

/// Options shared by every domain.
#[derive(Args, Debug, Clone)]
struct SearchOpts {
    /// astar, bfs, dls, ids or idastar.
    #[arg(long, default_value = "astar")]
    algo: String,
    /// DLS: the depth limit (default 100 moves). IDS / IDA*: the largest depth or cost bound tried.
    #[arg(long)]
    limit: Option<u32>,
    /// A*, BFS, DLS, IDS: the largest number of states kept in the table.
    #[arg(long, default_value_t = 5_000_000, value_parser = parse_max_states)]
    max_states: usize,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

/// Bytes a stored state takes at least (its key in the hash table and its node: state, parent, action, cost).
const STATE_BYTES: u64 = 48;

/// `--max-states N`: 1 ..= 2^32 - 1 (nodes are numbered by `u32`), and `N` states must fit in the memory available.
fn parse_max_states(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().parse().map_err(|_| format!("'{text}' is not a number of states"))?;
    let n = crate::limits::check_count("states", n, 1, u32::MAX as usize)?;
    crate::limits::check_bytes(&format!("--max-states {n}: a table"), n as u64 * STATE_BYTES)?;
    Ok(n)
}

impl SearchOpts {
    fn algorithm(&self) -> anyhow::Result<Algorithm> {
        Algorithm::parse(&self.algo).map_err(|e| anyhow!("--algo: {e}"))
    }
    fn limits(&self, algo: Algorithm) -> SearchBounds {
        let default = SearchBounds::default();
        let depth = match (self.limit, algo) {
            (Some(l), _) => l,
            (None, Algorithm::Dls) => 100,
            (None, _) => default.depth,
        };
        SearchBounds { depth, max_states: self.max_states }
    }
}

#[derive(Args, Debug)]
struct GridArgs {
    /// The maze file.
    #[arg(long, required_unless_present = "longest")]
    file: Option<String>,
    /// Instead of a maze: the longest shortest path over every wall layout of an N x N grid (exhaustive, N <= 8).
    #[arg(long, value_name = "N", conflicts_with = "file")]
    longest: Option<u32>,
    #[command(flatten)]
    opts: SearchOpts,
}

#[derive(Args, Debug)]
struct NumberArgs {
    /// The start number s.
    #[arg(long)]
    from: u64,
    /// The target number t.
    #[arg(long)]
    to: u64,
    #[command(flatten)]
    opts: SearchOpts,
}

#[derive(Args, Debug)]
struct SlidingArgs {
    /// The tiles row by row, 0 = blank: 9 or 16 numbers separated by spaces or commas.
    #[arg(long, required_unless_present = "korf")]
    tiles: Option<String>,
    /// Instead of --tiles: Korf's instance number N (1..=100).
    #[arg(long)]
    korf: Option<u32>,
    /// manhattan, pdb (6-6-3 on the 15-puzzle, 4-4 on the 8-puzzle), pdb555 (15-puzzle) or none.
    #[arg(long, default_value = "manhattan")]
    heuristic: String,
    #[command(flatten)]
    opts: SearchOpts,
}

#[derive(Args, Debug)]
struct KorfArgs {
    /// Which instances: `all`, `1-100`, `1,5,9`, `1-10,20`.
    #[arg(long, default_value = "all")]
    instances: String,
    /// manhattan, pdb (6-6-3) or pdb555.
    #[arg(long, default_value = "manhattan")]
    heuristic: String,
    /// The algorithm (idastar or astar; the others cannot solve these).
    #[arg(long, default_value = "idastar")]
    algo: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct RaceArgs {
    /// The game string, e.g. `breakthrough(rows=5,columns=4,piece_rows=1)`.
    #[arg(default_value = "breakthrough")]
    game: String,
    /// The position (Breakthrough position text; `start` for the start position).
    #[arg(long)]
    position: Option<String>,
    /// Moves played from the position, space-separated.
    #[arg(long)]
    moves: Option<String>,
    /// The racing side: white or black (default: the side to move).
    #[arg(long)]
    side: Option<String>,
    /// Instead of a search: the number of positions reachable in exactly d plies, for d = 0..=D.
    #[arg(long)]
    layers: Option<u32>,
    /// Instead of a search: every reachable position, by layer and by distance to a win (small boards).
    #[arg(long)]
    census: bool,
    #[command(flatten)]
    opts: SearchOpts,
}

pub fn run(a: PuzzleArgs, out: &mut super::Out) -> anyhow::Result<()> {
    match a.domain {
        Domain::Grid(g) => run_grid(g, out),
        Domain::Number(n) => run_number(n, out),
        Domain::Sliding(s) => run_sliding(s, out),
        Domain::Korf(k) => run_korf(k, out),
        Domain::Race(r) => run_race(r, out),
    }
}

/// Run one search and print it; `extra` adds domain fields to the JSON, `show` draws the solution in text mode.
fn report<P: Problem>(
    p: &P,
    opts: &SearchOpts,
    mut extra: Value,
    show: impl Fn(&[P::Action]) -> Option<String>,
    out: &mut super::Out,
) -> anyhow::Result<()> {
    let algo = opts.algorithm()?;
    let t0 = Instant::now();
    let r = puzzle::solve(p, algo, opts.limits(algo));
    let seconds = t0.elapsed().as_secs_f64();
    let (status, solution, length, cost, message) = match &r.outcome {
        Outcome::Found { path, cost } => {
            ("found", Some(puzzle::format_path(p, path)), Some(path.len()), Some(*cost), None)
        }
        Outcome::NoPath => ("no_path", None, None, None, Some("no path: the goal cannot be reached".to_string())),
        Outcome::LimitReached(m) => ("limit", None, None, None, Some(format!("no path found: {m}"))),
    };
    if opts.json {
        let mut v = json!({
            "algo": algo.name(), "status": status, "solution": solution, "length": length, "cost": cost,
            "expanded": r.stats.expanded, "generated": r.stats.generated, "iterations": r.stats.iterations,
            "stored": r.stats.stored, "seconds": seconds, "optimal": algo.is_optimal(),
        });
        if let Some(m) = &message {
            v["message"] = json!(m);
        }
        if let (Value::Object(o), Value::Object(e)) = (&mut v, &mut extra) {
            o.append(e);
        }
        out.json(v);
    } else {
        match (&solution, &message) {
            (Some(s), _) => {
                println!("solution   {}", if s.is_empty() { "(already at the goal)" } else { s });
                println!("length     {} moves", length.unwrap_or(0));
                if let Some(path) = r.path()
                    && let Some(drawing) = show(path)
                {
                    println!("{drawing}");
                }
            }
            (None, Some(m)) => println!("{m}"),
            (None, None) => {}
        }
        println!("algorithm  {}", algo.name());
        println!(
            "expanded   {}\ngenerated  {}\niterations {}\nstored     {}",
            r.stats.expanded, r.stats.generated, r.stats.iterations, r.stats.stored
        );
        println!("seconds    {seconds:.3}");
    }
    Ok(())
}

fn run_grid(a: GridArgs, out: &mut super::Out) -> anyhow::Result<()> {
    if let Some(side) = a.longest {
        return run_longest(side, a.opts.json, out);
    }
    let file = a.file.as_deref().unwrap_or_default();
    let text = crate::files::read_text(std::path::Path::new(file), crate::files::MAX_TEXT, "--file")
        .map_err(anyhow::Error::msg)?;
    let grid = Grid::parse(&text).map_err(|e| anyhow!("{file}: {e}"))?;
    a.opts.algorithm()?;
    if !grid.goal_reachable() {
        // IDA* keeps no table and would search forever; every algorithm gets the same answer from a flood fill.
        let msg = "no path: no goal '$' can be reached from the start '@'";
        if a.opts.json {
            out.json(json!({
                "algo": a.opts.algo, "status": "no_path", "solution": null, "length": null, "expanded": 0,
                "generated": 0, "seconds": 0.0, "message": msg,
            }));
        } else {
            println!("{msg}");
        }
        return Ok(());
    }
    let extra = json!({"width": grid.width, "height": grid.height});
    report(&grid, &a.opts, extra, |path| Some(grid.draw_path(path)), out)
}

/// `puzzle grid --longest N`: the search over layouts, then the layout found solved by BFS as any maze is.
fn run_longest(side: u32, json_out: bool, out: &mut super::Out) -> anyhow::Result<()> {
    let l = longest::longest(side).map_err(|e| anyhow!(e))?;
    let layout = l.layout();
    let grid = Grid::parse(&layout).map_err(|e| anyhow!("the layout found: {e}"))?;
    let check = puzzle::solve(&grid, Algorithm::Bfs, Default::default());
    let solution = match &check.outcome {
        Outcome::Found { path, .. } if path.len() as u32 == l.length => puzzle::format_path(&grid, path),
        _ => bail!("internal error: BFS does not find a path of {} moves in the layout found", l.length),
    };
    if json_out {
        out.json(json!({
            "side": side, "length": l.length, "layout": layout, "solution": solution, "neighbourhood": 4,
            "nodes": l.nodes, "start_squares": l.starts, "seconds": l.seconds,
        }));
    } else {
        println!(
            "longest shortest path on a {side}x{side} grid: {} moves (4 neighbours, any walls, start, goal)",
            l.length
        );
        println!("{layout}");
        println!("solution   {solution}");
        println!("nodes      {}  ({} start squares up to symmetry)", l.nodes, l.starts);
        println!("seconds    {:.3}", l.seconds);
    }
    Ok(())
}

fn run_number(a: NumberArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let p = NumberPuzzle::new(a.from, a.to).map_err(|e| anyhow!(e))?;
    let extra = json!({"from": a.from, "to": a.to});
    report(
        &p,
        &a.opts,
        extra,
        |path| {
            let mut x = a.from;
            let mut out = x.to_string();
            for &m in path {
                x = p.apply(&x, m).0;
                out += &format!(" -> {x}");
            }
            Some(out)
        },
        out,
    )
}

/// Build the heuristic named on the command line for a board of `width`.
fn sliding_heuristic(name: &str, width: u32) -> anyhow::Result<(SlidingHeuristic, Value)> {
    let build = |groups: Vec<Vec<u8>>, label: &str| -> anyhow::Result<(SlidingHeuristic, Value)> {
        let t0 = Instant::now();
        let db = PatternDb::build(width, &groups).map_err(|e| anyhow!(e))?;
        let info = json!({
            "heuristic": label, "pdb_groups": groups, "pdb_bytes": db.bytes(),
            "pdb_build_seconds": t0.elapsed().as_secs_f64(),
        });
        Ok((SlidingHeuristic::Pdb(Arc::new(db)), info))
    };
    match name.trim().to_ascii_lowercase().as_str() {
        "manhattan" | "md" => Ok((SlidingHeuristic::Manhattan, json!({"heuristic": "manhattan"}))),
        "none" | "zero" => Ok((SlidingHeuristic::Zero, json!({"heuristic": "none"}))),
        "pdb" => build(pdb::default_partition(width), "pdb"),
        "pdb555" if width == 4 => build(pdb::partition_555(), "pdb555"),
        "pdb555" => bail!("--heuristic pdb555 is for the 15-puzzle"),
        other => bail!("unknown heuristic '{other}': expected manhattan, pdb, pdb555 or none"),
    }
}

fn run_sliding(a: SlidingArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let tiles = match (&a.tiles, a.korf) {
        (Some(_), Some(_)) => bail!("give either --tiles or --korf, not both"),
        (Some(t), None) => sliding::parse_tiles(t).map_err(|e| anyhow!(e))?,
        (None, Some(n)) => korf::instances()
            .into_iter()
            .find(|i| i.id == n)
            .map(|i| i.tiles)
            .ok_or_else(|| anyhow!("--korf {n}: Korf's instances are numbered 1 to 100"))?,
        (None, None) => bail!("give --tiles \"...\" or --korf N"),
    };
    a.opts.algorithm()?;
    let width = (tiles.len() as f64).sqrt().round() as u32;
    // Check the tiles before building a pattern database for them.
    Sliding::new(&tiles, SlidingHeuristic::Zero).map_err(|e| anyhow!(e))?;
    let (h, mut extra) = sliding_heuristic(&a.heuristic, width)?;
    let p = Sliding::new(&tiles, h).map_err(|e| anyhow!(e))?;
    extra["tiles"] = json!(tiles);
    extra["initial_h"] = json!(p.heuristic(&p.start()));
    report(&p, &a.opts, extra, |_| None, out)
}

/// CPU time used by this process so far (user + system; Linux), `None` elsewhere. The benchmarks report it next to
/// wall-clock time because the machine may be shared.
fn cpu_seconds() -> Option<f64> {
    crate::solve::cpu_seconds("/proc/self/stat")
}

/// Parse `all`, `1-100`, `1,5,9`, `1-10,20`.
fn parse_ids(text: &str) -> anyhow::Result<Vec<u32>> {
    if text.trim() == "all" {
        return Ok((1..=100).collect());
    }
    let mut ids = Vec::new();
    for part in text.split(',').map(str::trim) {
        let num = |s: &str| -> anyhow::Result<u32> {
            let v: u32 = s.trim().parse().map_err(|_| anyhow!("--instances: '{s}' is not a number"))?;
            if !(1..=100).contains(&v) {
                bail!("--instances: {v} is not between 1 and 100");
            }
            Ok(v)
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    bail!("--instances: the range {a}-{b} runs backwards (write {b}-{a})");
                }
                ids.extend(a..=b)
            }
            None => ids.push(num(part)?),
        }
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(twice) = ids.iter().find(|&&i| !seen.insert(i)) {
        bail!("--instances: instance {twice} is named twice");
    }
    Ok(ids)
}

fn run_korf(a: KorfArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let ids = parse_ids(&a.instances)?;
    let algo = Algorithm::parse(&a.algo).map_err(|e| anyhow!("--algo: {e}"))?;
    let all = korf::instances();
    let cpu_build0 = cpu_seconds();
    let (h, mut info) = sliding_heuristic(&a.heuristic, 4)?;
    if let (Some(c0), Some(c1)) = (cpu_build0, cpu_seconds()) {
        info["pdb_build_cpu_seconds"] = json!(c1 - c0);
    }
    let cpu0 = cpu_seconds();
    let t_all = Instant::now();
    let (mut total_gen, mut total_exp, mut korf_gen, mut mismatches) = (0u64, 0u64, 0u64, 0u32);
    let mut results = Vec::new();
    for id in ids {
        let inst = all.iter().find(|i| i.id == id).ok_or_else(|| anyhow!("instance {id} missing from the data"))?;
        let p = Sliding::new(&inst.tiles, h.clone()).map_err(|e| anyhow!("instance {id}: {e}"))?;
        let t0 = Instant::now();
        let r = puzzle::solve(&p, algo, SearchBounds::default());
        let secs = t0.elapsed().as_secs_f64();
        let len = r.path().map(|p| p.len() as u32);
        if len != Some(inst.optimal_length) {
            mismatches += 1;
        }
        total_gen += r.stats.generated;
        total_exp += r.stats.expanded;
        korf_gen += inst.korf_generated;
        eprintln!(
            "instance {id:3}: length {} (published {}), generated {} (Korf {}), {secs:.2} s",
            len.map_or("-".to_string(), |l| l.to_string()),
            inst.optimal_length,
            r.stats.generated,
            inst.korf_generated
        );
        results.push(json!({
            "id": id, "length": len, "optimal_length": inst.optimal_length, "expanded": r.stats.expanded,
            "generated": r.stats.generated, "korf_generated": inst.korf_generated, "seconds": secs,
        }));
    }
    let seconds = t_all.elapsed().as_secs_f64();
    let cpu = match (cpu0, cpu_seconds()) {
        (Some(c0), Some(c1)) => Some(c1 - c0),
        _ => None,
    };
    if a.json {
        let mut v = json!({
            "algo": algo.name(), "instances": results.len(), "mismatches": mismatches, "total_generated": total_gen,
            "total_expanded": total_exp, "korf_generated": korf_gen, "seconds": seconds, "cpu_seconds": cpu,
            "results": results,
        });
        if let (Value::Object(o), Value::Object(e)) = (&mut v, &mut info) {
            o.append(e);
        }
        out.json(v);
    } else {
        println!("instances         {}", results.len());
        println!("wrong lengths     {mismatches}");
        println!("generated (ours)  {total_gen}");
        println!("generated (Korf)  {korf_gen}");
        println!("expanded (ours)   {total_exp}");
        println!("heuristic         {info}");
        println!("seconds           {seconds:.2} (wall clock, search only)");
        if let Some(c) = cpu {
            println!("cpu seconds       {c:.2} (search only)");
        }
    }
    if mismatches > 0 {
        bail!("{mismatches} instance(s) solved with a length different from the published one");
    }
    Ok(())
}

fn run_race(a: RaceArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let crate::games::AnyGame::Breakthrough(game) = crate::games::AnyGame::parse(&a.game)? else {
        bail!("race: the game must be breakthrough(...), not '{}'", a.game);
    };
    let state = super::resolve_position(&game, a.position.as_deref(), a.moves.as_deref())?;
    let side = match a.side.as_deref().map(|s| s.trim().to_ascii_lowercase()) {
        None => state.stm,
        Some(s) if s == "white" || s == "w" => Side::First,
        Some(s) if s == "black" || s == "b" => Side::Second,
        Some(s) => bail!("--side '{s}': expected white or black"),
    };
    let race = Race::new(&game, &state, side).map_err(|e| anyhow!(e))?;
    let side_name = if side == Side::First { "white" } else { "black" };
    let base = json!({"game": game.spec(), "position": race.position_text(&race.start), "side": side_name});
    if a.census {
        let t0 = Instant::now();
        let c = race::census(&race, a.opts.max_states).map_err(|e| anyhow!(e))?;
        let seconds = t0.elapsed().as_secs_f64();
        if a.opts.json {
            let mut v = base;
            v["layers"] = json!(c.layers);
            v["win_distance"] = json!(c.win_distance);
            v["no_win"] = json!(c.no_win);
            v["positions"] = json!(c.layers.iter().sum::<u64>());
            v["seconds"] = json!(seconds);
            out.json(v);
        } else {
            println!("positions reachable in exactly d plies: {:?}", c.layers);
            println!("positions at distance d from a win:     {:?}", c.win_distance);
            println!("positions from which no win is possible: {}", c.no_win);
            println!("seconds {seconds:.3}");
        }
        return Ok(());
    }
    if let Some(d) = a.layers {
        let t0 = Instant::now();
        let sizes = bfs::layer_sizes(&race, d, true, a.opts.max_states).map_err(|e| anyhow!(e))?;
        let seconds = t0.elapsed().as_secs_f64();
        if a.opts.json {
            let mut v = base;
            v["layers"] = json!(sizes);
            v["seconds"] = json!(seconds);
            out.json(v);
        } else {
            for (i, n) in sizes.iter().enumerate() {
                println!("plies {i:3}: {n} positions");
            }
            println!("seconds {seconds:.3}");
        }
        return Ok(());
    }
    report(
        &race,
        &a.opts,
        base,
        |path| {
            let mut s = race.start();
            for &m in path {
                s = race.apply(&s, m).0;
            }
            Some(game_display(&race, &s))
        },
        out,
    )
}

fn game_display(race: &Race, s: &race::RaceState) -> String {
    race.game.display(&race.bt_state(s))
}
