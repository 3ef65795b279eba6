//! `plateau search GAME --db FILE`: the answer of a retrograde database ([`crate::solve::run::retro::search`]) in the
//! search command's format (value in search units, the principal variation following the first best move to the
//! end). Building and reading databases with `plateau solve` goes through the solver registry (`cli/solve.rs`).

use crate::games::AnyGame;
use crate::games::with_game;

use super::PositionArgs;

pub fn search(pos: &PositionArgs, file: &str, json: bool, out: &mut super::Out) -> anyhow::Result<()> {
    let any = AnyGame::parse(&pos.game)?;
    let r = with_game!(&any, g => {
        let state = super::resolve_position(g, pos.position.as_deref(), pos.moves.as_deref())?;
        crate::solve::run::retro::search(g, &state, file)?
    });
    if json {
        out.json(serde_json::to_value(&r)?);
    } else {
        println!("{}", r.display);
        println!("algorithm  {}", r.algo);
        println!("best move  {}", r.best_move.as_deref().unwrap_or("-"));
        println!("value      {} ({})", r.value, r.value_text);
        println!("pv         {}", r.pv.join(" "));
        println!("seconds    {:.3}", r.seconds);
    }
    Ok(())
}
