//! `plateau tournament`: many players, round robin or gauntlet, standings with maximum-likelihood ratings
//! (`src/tournament/`, `docs/tournament.md`). The flags are [`TournamentCommand`]'s (the games' own shared with
//! `match`); the tournament is [`run_tournament_spec`]'s; this file prints it, or hands it to the Ray cluster.

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
        return run_on_ray(address);
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

/// `plateau tournament --ray ADDRESS ARGS`: `python3 -m plateau.cluster tournament ARGS --address ADDRESS` (the
/// interpreter of `$PLATEAU_PYTHON`, default `python3`), its exit code passed on.
fn run_on_ray(address: &str) -> anyhow::Result<()> {
    let mut words = Vec::new();
    let mut found = false;
    let mut args = std::env::args().skip_while(|w| w != "tournament").skip(1);
    while let Some(w) = args.next() {
        if w == "--ray" {
            found = true;
            args.next();
        } else if w.starts_with("--ray=") {
            found = true;
        } else {
            words.push(w);
        }
    }
    if !found {
        // Called with other words than the process's (the Python bindings' `run`): the cluster driver is Python's.
        anyhow::bail!(
            "--ray works on the command line only; from Python use python -m plateau.cluster (docs/cluster.md)"
        );
    }
    let python = std::env::var("PLATEAU_PYTHON").unwrap_or_else(|_| "python3".into());
    let status = std::process::Command::new(&python)
        .args(["-m", "plateau.cluster", "tournament"])
        .args(&words)
        .args(["--address", address])
        .status()
        .map_err(|e| anyhow::anyhow!("--ray: cannot run {python} -m plateau.cluster ({e}); install the plateau Python package with ray (docs/cluster.md)"))?;
    if !status.success() {
        std::process::exit(status.code().unwrap_or(1));
    }
    Ok(())
}
