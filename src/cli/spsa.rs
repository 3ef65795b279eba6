//! `plateau spsa`: tune the engine's search constants by SPSA over game pairs (`arena/spsa.rs`); the result is a
//! parameters file for `engine(params=FILE)`. `plateau engine-params`: the tunables, their defaults and ranges.

use std::path::PathBuf;

use clap::Args;

use crate::arena::spsa;
pub(crate) use crate::arena::spsa_spec::SpsaArgs;
use crate::engine::tunables::{PARAMS, SearchParams};
use crate::game::FullGame;
use crate::games::AnyGame;
use crate::games::with_game;

pub fn run(a: SpsaArgs) -> anyhow::Result<()> {
    if let Some(address) = &a.ray {
        return super::ray::run_on_ray("spsa", address);
    }
    let run = a.prepare().map_err(anyhow::Error::msg)?;
    if let Some(path) = &run.checkpoint.path {
        // The checkpoint is renamed into place after every iteration: a signal keeps the last one.
        crate::limits::exit_on_interrupt(&format!(
            "{} holds the last finished iteration; the same command with --resume goes on",
            path.display()
        ));
    }
    let names = run.cfg.names.clone();
    let (tuned, reached) = with_game!(&run.game, g => {
        spsa::run_with(g, &run.cfg, &run.checkpoint, |p| eprintln!("{}", p.line(&names)))
            .map_err(anyhow::Error::msg)?
    });
    match a.finish(&tuned, reached).map_err(anyhow::Error::msg)? {
        Some(line) => println!("{line}"),
        None => print!("{}", a.output_text(&tuned)),
    }
    Ok(())
}

#[derive(Args, Debug)]
pub struct EngineParamsArgs {
    /// Show the engine's values for this game (its own defaults where it has some: Breakthrough 8x8).
    #[arg(long)]
    game: Option<String>,
    /// With --game: the evaluation the engine uses (default: the game's first).
    #[arg(long)]
    eval: Option<String>,
    /// Show the values of this parameters file (over the game's, with --game) next to the defaults.
    #[arg(long)]
    file: Option<PathBuf>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run_params(a: EngineParamsArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let mut values = match &a.game {
        Some(text) => {
            let any = AnyGame::parse(text)?;
            if let Some(name) = &a.eval {
                with_game!(&any, g => check_eval(g, name))?;
            }
            with_game!(&any, g => SearchParams::for_game(g, a.eval.as_deref()))
        }
        None if a.eval.is_some() => anyhow::bail!("--eval needs --game (the evaluation of which game)"),
        None => SearchParams::default(),
    };
    if let Some(path) = &a.file {
        let text = crate::files::read_text(path, crate::files::MAX_TEXT, "spsa:").map_err(anyhow::Error::msg)?;
        values.read_text(&text, &path.display().to_string())?;
    }
    if a.json {
        let rows: Vec<serde_json::Value> = PARAMS
            .iter()
            .map(|i| {
                let mut v = serde_json::to_value(i).unwrap_or_default();
                v["value"] = values.get(i.name).into();
                v
            })
            .collect();
        out.json(serde_json::Value::Array(rows));
        return Ok(());
    }
    println!("{:<18} {:>6} {:>7} {:>6} {:>6} {:>5}  meaning", "name", "value", "default", "min", "max", "step");
    for i in PARAMS {
        let v = values.get(i.name).unwrap_or(i.default);
        println!("{:<18} {:>6} {:>7} {:>6} {:>6} {:>5}  {}", i.name, v, i.default, i.min, i.max, i.step, i.doc);
    }
    Ok(())
}

/// Whether `name` is one of `game`'s evaluations.
fn check_eval<G: FullGame>(_game: &G, name: &str) -> anyhow::Result<()> {
    G::check_evaluation(name).map_err(|e| anyhow::anyhow!("--eval: {e}"))
}
