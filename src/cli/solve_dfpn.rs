//! `plateau solve GAME --method dfpn`: the generic df-pn solver ([`crate::solve::dfpn`]) for every game of the
//! registry (weak: win, draw or loss; score 1, 0 or -1).

use anyhow::bail;
use serde_json::json;

use crate::game::{Game, Outcome};
use crate::games::AnyGame;
use crate::games::with_game;
use crate::solve::dfpn::Dfpn;

/// The position and table size of one df-pn solve.
pub struct DfpnArgs {
    pub position: Option<String>,
    pub moves: Option<String>,
    pub mib: usize,
}

pub fn run(any: AnyGame, a: &DfpnArgs, max_nodes: Option<u64>, as_json: bool) -> anyhow::Result<()> {
    with_game!(&any, g => single(g, a, max_nodes, as_json))
}

fn single<G: Game>(g: &G, a: &DfpnArgs, max_nodes: Option<u64>, as_json: bool) -> anyhow::Result<()> {
    let state = super::resolve_position(g, a.position.as_deref(), a.moves.as_deref())?;
    if let Some(o) = g.outcome(&state) {
        bail!("the game is over in this position ({o:?} for the side to move): there is nothing to solve");
    }
    // Deep games recurse deeply: run on a thread with a large stack.
    let r = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(scope, || Dfpn::<G>::new(a.mib, max_nodes).with_stack(1 << 30).solve(g, &state))
            .map(|h| h.join())
    });
    let r = match r {
        Ok(Ok(r)) => r,
        _ => bail!("the df-pn thread could not run"),
    };
    let Some(outcome) = r.outcome else {
        bail!("not solved within --max-nodes ({} nodes)", r.nodes);
    };
    let (word, score) = match outcome {
        Outcome::Win => ("win", 1),
        Outcome::Loss => ("loss", -1),
        _ => ("draw", 0),
    };
    let best = r.best_move.map(|m| g.format_move(&state, m));
    if as_json {
        super::print_json(&json!({
            "game": g.spec(), "position": g.format_position(&state), "weak": true, "method": "dfpn",
            "result": word, "winner_text": super::winner_words(g, g.side_to_move(&state), word), "proven": true,
            "score": score, "best_move": best, "nodes": r.nodes, "runs": r.runs,
            "seconds": r.seconds,
        }));
    } else {
        println!("{}", g.display(&state));
        println!("result     {word}: {} (proven)", super::winner_words(g, g.side_to_move(&state), word));
        println!("score      {score}");
        println!("best move  {}", best.unwrap_or_else(|| "-".into()));
        println!("nodes      {}  ({} df-pn run{})", r.nodes, r.runs, if r.runs > 1 { "s" } else { "" });
        println!("seconds    {:.6}", r.seconds);
    }
    Ok(())
}
