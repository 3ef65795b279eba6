//! `plateau eval`: the static evaluation of a position (no search), with its named terms.

use clap::Args;

use crate::game::Knowledge;
use crate::game::{Evaluator, FullGame, Game, Outcome, Side};
use crate::games::with_game;

#[derive(Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    pos: super::PositionArgs,
    /// The evaluation's name (`plateau eval GAME --list` lists them); default: the game's `simple` evaluation, the
    /// one the course's algorithms use.
    #[arg(long)]
    eval: Option<String>,
    /// List the game's evaluations instead.
    #[arg(long)]
    list: bool,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

fn side(p: Side) -> &'static str {
    match p {
        Side::First => "first player",
        Side::Second => "second player",
    }
}

pub fn run(a: EvalArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let any = a.pos.game()?;
    with_game!(&any, g => {
        let names = evaluations(g);
        if a.list {
            if a.json {
                out.json(serde_json::json!({"game": g.spec(), "evaluations": names}));
            } else {
                println!("{}: {} (engine default first; the course's algorithms use simple)", g.spec(), names.join(", "));
            }
            return Ok(());
        }
        let state = super::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
        let name = a.eval.as_deref().unwrap_or("simple");
        let e = g.evaluation(name)?;
        let value = e.evaluate(g, &state);
        let terms = e.terms(g, &state);
        let stm = g.side_to_move(&state);
        let over = g.outcome(&state).map(|o| match o {
            Outcome::Win => format!("the game is over: the {} has won", side(stm)),
            Outcome::Loss => format!("the game is over: the {} has won", side(stm.other())),
            Outcome::Draw => "the game is over: draw".to_string(),
            Outcome::Value(v) => format!("the game is over: leaf value {v}"),
        });
        if a.json {
            out.json(serde_json::json!({
                "game": g.spec(), "position": g.format_position(&state), "evaluation": name,
                "side_to_move": side(stm), "value": value, "terms": terms, "game_over": over,
                "heuristic": true,
            }));
        } else {
            println!("{}", g.display(&state));
            println!("evaluation {name}, {} to move (values from its point of view; heuristic, no search)", side(stm));
            if let Some(o) = &over {
                println!("{o} (the evaluation below ignores it)");
            }
            let width = terms.iter().map(|t| t.name.len()).max().unwrap_or(0).max(5);
            for t in &terms {
                println!("  {:<width$} {:>6} -> {:>7}", t.name, t.feature, t.value);
            }
            if terms.is_empty() {
                println!("  (this evaluation is not split into named terms)");
            } else {
                let sum: i32 = terms.iter().map(|t| t.value).sum();
                if sum != value {
                    println!("  {:<width$} {:>6}    {:>7}", "(rounding of the phase blend)", "", value - sum);
                }
            }
            println!("value {value}");
        }
        Ok(())
    })
}

/// The game's evaluations by name (see `Knowledge::EVALUATIONS`).
fn evaluations<G: FullGame>(_g: &G) -> Vec<&'static str> {
    G::EVALUATIONS.to_vec()
}
