//! `plateau players [GAME]`: every registered player and algorithm, what it is, the games it plays and its
//! parameters (defaults, values accepted, meaning); with a game, only the players of that game.

use clap::Args;

use crate::games::AnyGame;
use crate::players::listing;

#[derive(Args, Debug)]
pub struct PlayersArgs {
    /// Only the players of this game, with their parameters on it (`breakthrough`, `pig`, ...).
    game: Option<String>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

pub fn run(a: PlayersArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let game = a.game.as_deref().map(AnyGame::parse).transpose()?;
    let report = listing::report(game.as_ref());
    if a.json {
        out.json(serde_json::to_value(&report)?);
    } else {
        print!("{}", listing::text(&report));
    }
    Ok(())
}
