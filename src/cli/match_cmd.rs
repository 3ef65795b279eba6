//! `plateau match`: N games between two players, W/L/D, Elo with its 95% error, SPRT, game records.

use clap::Args;

use crate::arena::record::GameRecord;
use crate::arena::spec::{MatchCommand, MatchProgress, game_line, run_match_spec};
use crate::arena::text::summary_text;

#[derive(Args, Debug)]
#[command(after_help = crate::players::listing::help())]
pub struct MatchArgs {
    #[command(flatten)]
    command: MatchCommand,
}

pub fn run(a: MatchArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let MatchCommand { spec, json, verbose, ray } = a.command;
    if let Some(address) = &ray {
        return super::ray::run_on_ray("match", address);
    }
    let mut show = |r: &GameRecord| {
        if verbose {
            eprintln!("{}", game_line(r));
        }
    };
    if let Some(rec) = &spec.play.record {
        // Each game is appended and flushed when it ends: a signal keeps them all (docs/reliability.md).
        crate::limits::exit_on_interrupt(&format!(
            "the finished games are in {}; the same command with --resume plays the rest",
            rec.display()
        ));
    }
    let summary = run_match_spec(&spec, MatchProgress { progress_bar: !verbose, on_game: &mut show })
        .map_err(anyhow::Error::msg)?;
    if json {
        out.json(serde_json::to_value(&summary)?);
    } else {
        print!("{}", summary_text(&summary));
    }
    Ok(())
}
