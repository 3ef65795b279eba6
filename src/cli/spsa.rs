//! `plateau spsa`: tune the engine's search constants by SPSA over game pairs (`arena/spsa.rs`); the result is a
//! parameters file for `engine(params=FILE)`. `plateau engine-params`: the tunables, their defaults and ranges.

use std::path::PathBuf;

use clap::Args;

use crate::arena::spsa::{self, SpsaConfig};
use crate::arena::spsa_checkpoint::Checkpointing;
use crate::engine::params::EngineOptions;
use crate::engine::tunables::{PARAMS, SearchParams};
use crate::game::FullGame;
use crate::games::AnyGame;
use crate::games::with_game;

use crate::spec::Spec;

#[derive(Args, Debug)]
pub struct SpsaArgs {
    /// The game string.
    #[arg(default_value = "breakthrough")]
    game: String,
    /// The engine both sides start from, with its limits (`engine(nodes=20000,tt=16mb)`).
    #[arg(long, default_value = "engine(nodes=20000,tt=16mb)")]
    engine: String,
    /// Tunables to move, comma-separated (default: every one `plateau engine-params` lists).
    #[arg(long)]
    params: Option<String>,
    /// Start values: a parameters file (default: the defaults).
    #[arg(long)]
    start: Option<PathBuf>,
    #[arg(long, default_value_t = 100)]
    iterations: u32,
    /// Game pairs (one opening, both colours) per iteration.
    #[arg(long, default_value_t = 1)]
    pairs: usize,
    /// fishtest's r_end: the final learning rate relative to the step squared.
    #[arg(long, default_value_t = 0.002)]
    r_end: f64,
    /// Fixed time per move (default: the engine string's own limits).
    #[arg(long, conflicts_with = "tc")]
    movetime: Option<String>,
    /// Clock for both players: base+increment (`10s+0.1s`).
    #[arg(long)]
    tc: Option<String>,
    #[arg(long, default_value_t = 2)]
    random_plies: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 1, value_parser = super::parse_threads)]
    concurrency: usize,
    /// Write the tuned parameters file here (default: print it); the run's state goes to FILE.checkpoint after every
    /// iteration.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the run whose state FILE.checkpoint holds (the same options; none yet: start at iteration 1).
    #[arg(long)]
    resume: bool,
    /// Stop after this iteration, leaving FILE.checkpoint for a later --resume (a long run in slices).
    #[arg(long, value_name = "ITERATION")]
    stop_after: Option<u32>,
}

pub fn run(a: SpsaArgs) -> anyhow::Result<()> {
    let limit = crate::arena::time_limit(a.movetime.as_deref(), a.tc.as_deref()).map_err(anyhow::Error::msg)?;
    if !a.r_end.is_finite() || a.r_end <= 0.0 {
        anyhow::bail!("--r-end {}: expected a positive number", a.r_end);
    }
    // From the engine's values for this game and evaluation (Breakthrough 8x8's tuned ones unless the engine string
    // says `params=general`), then --start.
    let any = AnyGame::parse(&a.game)?;
    let opts = EngineOptions::from_spec(&Spec::parse(&a.engine)?)?;
    let mut start = with_game!(&any, g => opts.given.resolve(g, opts.eval.as_deref()));
    if let Some(path) = &a.start {
        let text = crate::files::read_text(path, crate::files::MAX_TEXT, "spsa:").map_err(anyhow::Error::msg)?;
        start.read_text(&text, &path.display().to_string())?;
    }
    let names: Vec<String> = match &a.params {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
        None => PARAMS.iter().map(|i| i.name.to_string()).collect(),
    };
    spsa::chosen(&names).map_err(anyhow::Error::msg)?;
    let cfg = SpsaConfig {
        engine: a.engine.clone(),
        names: names.clone(),
        start,
        iterations: a.iterations,
        pairs: a.pairs,
        r_end: a.r_end,
        limit,
        random_plies: a.random_plies,
        seed: a.seed,
        concurrency: a.concurrency,
    };
    let checkpoint = a.out.as_ref().map(|p| {
        let mut s = p.as_os_str().to_owned();
        s.push(".checkpoint");
        PathBuf::from(s)
    });
    if (a.resume || a.stop_after.is_some()) && checkpoint.is_none() {
        anyhow::bail!("--resume and --stop-after need --out FILE (the run's state is kept in FILE.checkpoint)");
    }
    // Before any game: outputs plateau would refuse to write (a symbolic link, a device, a directory).
    if let (Some(out), Some(cp)) = (&a.out, &checkpoint) {
        crate::files::check_output(out, "spsa: --out").map_err(anyhow::Error::msg)?;
        crate::files::check_output(cp, "spsa: the checkpoint").map_err(anyhow::Error::msg)?;
    }
    let cp = Checkpointing { path: checkpoint.clone(), resume: a.resume, stop_after: a.stop_after };
    if let Some(path) = &checkpoint {
        // The checkpoint is renamed into place after every iteration: a signal keeps the last one.
        crate::limits::exit_on_interrupt(&format!(
            "{} holds the last finished iteration; the same command with --resume goes on",
            path.display()
        ));
    }
    let (tuned, reached) = with_game!(&any, g => {
        spsa::run_with(g, &cfg, &cp, |p| {
            let values: Vec<String> = names.iter().zip(&p.theta).map(|(n, v)| format!("{n}={v:.1}")).collect();
            eprintln!("iteration {:>5}  result {:+}  total {:+}  {}", p.iteration, p.result, p.total, values.join(" "));
        })
        .map_err(anyhow::Error::msg)?
    });
    if reached < a.iterations {
        let path = checkpoint.as_ref().expect("--stop-after needs --out").display();
        println!(
            "stopped after iteration {reached} of {}; {path} holds the state: add --resume to go on",
            a.iterations
        );
        return Ok(());
    }
    let text = format!(
        "# plateau spsa {} --engine \"{}\" --iterations {} --pairs {} --seed {}\n{}",
        a.game,
        a.engine,
        a.iterations,
        a.pairs,
        a.seed,
        tuned.to_text()
    );
    match &a.out {
        Some(path) => {
            crate::files::replace(path, text.as_bytes(), "spsa: --out").map_err(anyhow::Error::msg)?;
            println!("wrote {}: {}", path.display(), tuned.spec_params().join(" "));
        }
        None => print!("{text}"),
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

pub fn run_params(a: EngineParamsArgs, out: &mut super::Out) -> anyhow::Result<()> {
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
