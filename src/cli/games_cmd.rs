//! `plateau games`: the list of games with their parameters and defaults.

use clap::Args;

use crate::games::{Listed, catalogue};

#[derive(Args, Debug)]
pub struct GamesArgs {
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

pub fn run(a: GamesArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let games = catalogue();
    if a.json {
        out.json(serde_json::json!({ "games": games }));
        return Ok(());
    }
    for Listed { info: g, kind } in games {
        let aliases = if g.aliases.is_empty() { String::new() } else { format!(" (also: {})", g.aliases.join(", ")) };
        let kind = if kind.is_classic() { String::new() } else { format!(" [{}]", kind.describe()) };
        println!("{}{}: {}{}", g.name, aliases, g.description, kind);
        for p in g.parameters {
            println!("    {:<16} default {:<6} {}", p.name, p.default, p.description);
        }
    }
    Ok(())
}
