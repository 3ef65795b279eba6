//! `pig`: value iteration for Pig ([`crate::solve::pig`]): the winning chances of the side to move under optimal
//! play, the optimal move and the policy's "hold at" table; `simultaneous`: games with simultaneous moves by backward
//! induction with a matrix game solved by linear programming at every state ([`crate::solve::simultaneous`]): the
//! value for the first player and both players' optimal mixed strategies at the root.

use std::time::Instant;

use crate::game::Game;
use crate::game::{FullGame, Side};
use crate::games::Pig;
use crate::solve::pig::PigSolution;
use crate::solve::report::{PigReport, SimultaneousReport, SolveReport, Weighted};
use crate::solve::request::Request;
use crate::solve::simultaneous::SimSolver;

/// Probabilities below this are left out of the strategies (round-off of the LP).
const SHOWN: f64 = 1e-9;

/// `pig`.
pub fn pig(g: &Pig, req: &Request) -> anyhow::Result<SolveReport> {
    let s = super::position(g, req)?;
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
    Ok(SolveReport::Pig(PigReport {
        game: g.spec(),
        position: g.format_position(&s),
        result,
        win_probability: p,
        best_move: best,
        hold_here: hold_at[i.min(t - 1) as usize][j.min(t - 1) as usize],
        hold_at,
        sweeps: sol.sweeps,
        seconds,
    }))
}

/// `simultaneous`.
pub fn simultaneous<G: FullGame>(g: &G, req: &Request) -> anyhow::Result<SolveReport> {
    if const { !G::KIND.simultaneous || G::KIND.hidden } {
        return Err(super::not_for(g, "simultaneous"));
    }
    let s = super::position(g, req)?;
    let start = Instant::now();
    let mut solver = SimSolver::new(g);
    let root = solver.root(&s).map_err(|e| anyhow::anyhow!("solve: {}: {e}", g.spec()))?;
    let seconds = start.elapsed().as_secs_f64();
    let strategy = |list: &[(G::Move, f64)]| -> Vec<Weighted> {
        let shown = list.iter().filter(|(_, p)| *p > SHOWN);
        shown.map(|&(m, p)| Weighted { mv: g.format_move(&s, m), probability: p }).collect()
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
    let name = |p| g.player_name(p).unwrap_or(if p == Side::First { "first" } else { "second" }).to_string();
    Ok(SolveReport::Simultaneous(SimultaneousReport {
        game: g.spec(),
        position: g.format_position(&s),
        result,
        value: root.value,
        strategy_first: first,
        strategy_second: second,
        states: solver.states(),
        mixed_nodes: solver.mixed_nodes,
        seconds,
        names: [name(Side::First), name(Side::Second)],
    }))
}
