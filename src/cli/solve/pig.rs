//! `plateau solve pig(...)`: value iteration ([`crate::solve::pig`]); the winning chances of the side to move under
//! optimal play, the optimal move, and the policy's "hold at" table.

use std::time::Instant;

use serde_json::json;

use crate::game::Game;
use crate::games::Pig;
use crate::solve::pig::PigSolution;

pub fn run(g: &Pig, pos: &crate::cli::PositionArgs, json_out: bool) -> anyhow::Result<()> {
    let s = crate::cli::resolve_position(g, pos.position.as_deref(), pos.moves.as_deref())?;
    let start = Instant::now();
    let sol = PigSolution::solve(g)?;
    let seconds = start.elapsed().as_secs_f64();
    let p = sol.value(&s);
    let result = if g.is_terminal(&s) || p < 0.5 {
        "loss"
    } else if p > 0.5 {
        "win"
    } else {
        "draw"
    };
    let (i, j, k) = (s.scores[s.side as usize] as u32, s.scores[1 - s.side as usize] as u32, s.turn_total as u32);
    let best = (!g.is_terminal(&s) && !s.rolling).then(|| g.format_move(&s, sol.best(i, j, k)));
    let t = g.target;
    let hold_at: Vec<Vec<u32>> = (0..t).map(|i| (0..t).map(|j| sol.hold_at(i, j)).collect()).collect();
    if json_out {
        crate::cli::print_json(&json!({
            "game": g.spec(), "position": g.format_position(&s), "result": result, "win_probability": p,
            "best_move": best, "hold_at": hold_at, "sweeps": sol.sweeps, "seconds": seconds,
        }));
    } else {
        println!("position         {}", g.format_position(&s));
        println!("win probability  {p:.6}  (side to move, optimal play on both sides)");
        println!("result           {result}  (the favoured side)");
        println!("best move        {}", best.unwrap_or_else(|| "-".into()));
        println!(
            "hold at          {}  (turn total at which the side to move holds, from this score)",
            hold_at[i.min(t - 1) as usize][j.min(t - 1) as usize]
        );
        println!("sweeps           {}", sol.sweeps);
        println!("seconds          {seconds:.3}");
    }
    Ok(())
}
