//! Solve a Breakthrough position with the dedicated solver until `plateau solve` lands.
//!
//! ```text
//! cargo run --release --example bt_solve -- "breakthrough(rows=6,columns=5)" [--moves "a2a3 ..."] [--position TEXT]
//!     [--tt MiB] [--race ROWS] [--distance] [--first-win-only] [--max-nodes N] [--max-seconds S] [--table FILE] [--check] [--check-memo MiB]
//!     [--progress SECONDS] [--unit-init] [--no-runner-rule] [--no-symmetry] [--threat-depth N] [--json]
//! ```
//!
//! The job-level split solve is `plateau solve GAME --split` (`src/cli/solve.rs`).

use plateau::game::Capabilities;
use plateau::game::Game;
use plateau::games::AnyGame;
use plateau::solve::breakthrough::{SolveOptions, solve};

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut spec = None;
    let mut moves = None;
    let mut position = None;
    let mut json = false;
    let mut o = SolveOptions::default();
    let mut i = 0;
    let value = |i: usize| args.get(i + 1).cloned().ok_or_else(|| format!("{} needs a value", args[i]));
    let number = |i: usize| -> Result<u64, String> {
        let v = value(i)?;
        v.parse().map_err(|_| format!("{}: '{v}' is not a number", args[i]))
    };
    while i < args.len() {
        match args[i].as_str() {
            "--moves" => moves = Some(value(i)?),
            "--position" => position = Some(value(i)?),
            "--tt" => o.tt_mib = number(i)? as usize,
            "--check-memo" => o.check_memo_mib = number(i)? as usize,
            "--distance-tt" => o.distance_tt_mib = number(i)? as usize,
            "--race" => o.race_rows = number(i)? as u32,
            "--max-nodes" => o.max_nodes = Some(number(i)?),
            "--progress" => o.progress_seconds = number(i)?,
            "--threat-depth" => o.threat_depth = number(i)? as u32,
            "--max-seconds" => o.max_seconds = Some(number(i)? as f64),
            "--table" => o.table_file = Some(value(i)?.into()),
            "--unit-init" => {
                o.material_init = false;
                i += 1;
                continue;
            }
            "--no-symmetry" => {
                o.symmetry = false;
                i += 1;
                continue;
            }
            "--no-runner-rule" => {
                o.runner_rule = false;
                i += 1;
                continue;
            }
            "--distance" => {
                o.distance = true;
                i += 1;
                continue;
            }
            "--check" => {
                o.check_proof = true;
                i += 1;
                continue;
            }
            "--first-win-only" => {
                o.all_winning_moves = false;
                i += 1;
                continue;
            }
            "--json" => {
                json = true;
                i += 1;
                continue;
            }
            a if a.starts_with("--") => return Err(format!("unknown option {a}")),
            a => {
                spec = Some(a.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let spec = spec.unwrap_or_else(|| "breakthrough(rows=5,columns=4,piece_rows=1)".to_string());
    let game = match AnyGame::parse(&spec).map_err(|e| e.to_string())? {
        AnyGame::Breakthrough(g) => g,
        _ => return Err(format!("{spec}: this solver is for breakthrough only")),
    };
    let mut state = match &position {
        Some(p) => game.parse_position(p).map_err(|e| e.to_string())?,
        None => game.start(),
    };
    if let Some(m) = &moves {
        state = game.play_moves(&state, m).map_err(|e| e.to_string())?;
    }
    let sol = solve(&game, &state, &o)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&sol).map_err(|e| e.to_string())?);
    } else {
        println!("{}", game.display(&state));
        println!("result: {}", sol.result.as_deref().unwrap_or("unknown (node budget exhausted)"));
        if let Some(p) = sol.plies {
            println!("plies to the end: {p}");
        }
        println!("winning moves: {}", sol.winning_moves.join(" "));
        if let Some(b) = &sol.best_move {
            println!("best move: {b}");
        }
        println!(
            "nodes: {} (distance pass: {}), seconds: {:.3} (race table: {:.3}), root pn/dn: {}/{}",
            sol.nodes, sol.distance_nodes, sol.seconds, sol.race_table_seconds, sol.root_pn, sol.root_dn
        );
    }
    Ok(())
}
