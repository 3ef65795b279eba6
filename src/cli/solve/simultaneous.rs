//! `plateau solve` on a game with simultaneous moves (`breakthrough(...,moves=simultaneous)`, `matching_pennies`):
//! backward induction with a matrix game solved by linear programming at every state ([`crate::solve::simultaneous`]);
//! the value for the first player and both players' optimal mixed strategies at the root.

use std::time::Instant;

use serde_json::json;

use crate::game::Game;
use crate::solve::simultaneous::SimSolver;

/// Probabilities below this are left out of the printed strategies (round-off of the LP).
const SHOWN: f64 = 1e-9;

pub fn run<G: Game>(g: &G, pos: &crate::cli::PositionArgs, json_out: bool) -> anyhow::Result<()> {
    let s = crate::cli::resolve_position(g, pos.position.as_deref(), pos.moves.as_deref())?;
    let start = Instant::now();
    let mut solver = SimSolver::new(g);
    let root = solver.root(&s).map_err(|e| anyhow::anyhow!("solve: {}: {e}", g.spec()))?;
    let seconds = start.elapsed().as_secs_f64();
    let strategy = |list: &[(G::Move, f64)]| -> Vec<(String, f64)> {
        list.iter().filter(|(_, p)| *p > SHOWN).map(|&(m, p)| (g.format_move(&s, m), p)).collect()
    };
    let (first, second) = (strategy(&root.first), strategy(&root.second));
    let pure = first.len() == 1 && second.len() == 1;
    let result = if root.value > 1.0 - 1e-9 {
        "win"
    } else if root.value < -1.0 + 1e-9 {
        "loss"
    } else if pure && root.value.abs() < 1e-9 {
        "draw"
    } else {
        "mixed"
    };
    if json_out {
        let list = |v: &[(String, f64)]| -> Vec<serde_json::Value> {
            v.iter().map(|(m, p)| json!({"move": m, "probability": p})).collect()
        };
        crate::cli::print_json(&json!({
            "game": g.spec(), "position": g.format_position(&s), "result": result, "value": root.value,
            "strategy_first": list(&first), "strategy_second": list(&second), "states": solver.states(),
            "mixed_nodes": solver.mixed_nodes, "seconds": seconds,
        }));
    } else {
        let name = |p| g.player_name(p).unwrap_or(if p == crate::game::Side::First { "first" } else { "second" });
        let show = |v: &[(String, f64)]| v.iter().map(|(m, p)| format!("{m} {p:.4}")).collect::<Vec<_>>().join(", ");
        println!("position     {}", g.format_position(&s));
        println!(
            "value        {:+.6}  (for {}: expected result, win 1, loss -1, both playing optimal mixed strategies)",
            root.value,
            name(crate::game::Side::First)
        );
        println!("result       {result}");
        println!("{:<12} {}", name(crate::game::Side::First), show(&first));
        println!("{:<12} {}", name(crate::game::Side::Second), show(&second));
        println!("states       {}  ({} needed the linear program)", solver.states(), solver.mixed_nodes);
        println!("seconds      {seconds:.3}");
    }
    Ok(())
}
