//! `plateau tournament`: many players, round robin or gauntlet, standings with maximum-likelihood ratings
//! (`src/tournament/`, `docs/tournament.md`). The flags are [`TournamentCommand`]'s (the games' own shared with
//! `match`); the tournament is [`run_tournament_spec`]'s; this file prints it, or hands it to the Ray cluster
//! (`ray.rs`).

use std::io::IsTerminal;

use clap::Args;

use crate::tournament::GameResult;
use crate::tournament::spec::{TournamentCommand, run_tournament_spec};
use crate::tournament::text::{game_line, summary_text};

#[derive(Args, Debug)]
pub struct TournamentArgs {
    #[command(flatten)]
    command: TournamentCommand,
}

pub fn run(a: TournamentArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let TournamentCommand { spec, json, verbose, ray } = a.command;
    if let Some(address) = &ray {
        return super::ray::run_on_ray("tournament", address);
    }
    let progress = !verbose && !json && std::io::stderr().is_terminal();
    if let Some(results) = &spec.results {
        // One line per finished game, flushed as it ends: a signal keeps them all (docs/reliability.md).
        crate::limits::exit_on_interrupt(&format!(
            "the finished games are in {}; the same command with --resume plays the rest",
            results.display()
        ));
    }
    let mut show = |r: &GameResult| {
        if verbose {
            eprintln!("{}", game_line(r));
        }
    };
    let summary = run_tournament_spec(&spec, progress, &mut show).map_err(anyhow::Error::msg)?;
    if json {
        out.json(serde_json::to_value(&summary)?);
    } else {
        print!("{}", summary_text(&summary));
    }
    Ok(())
}
