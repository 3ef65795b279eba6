//! `plateau bench`: fixed positions, fixed depth; the last line is `N nodes M nps`.

use clap::Args;

use crate::engine::bench;
use crate::engine::params::EngineOptions;
use crate::spec::Spec;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth in plies.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    depth: u32,
    /// Engine options, as a player string (`engine(null=on)`); limits, threads and table size are fixed by the bench.
    #[arg(long, default_value = "engine")]
    engine: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

pub fn run(a: BenchArgs, out: &mut super::Out) -> anyhow::Result<()> {
    if a.depth == 0 || a.depth > 30 {
        anyhow::bail!("--depth {}: expected 1..=30", a.depth);
    }
    let spec = Spec::parse(&a.engine)?;
    if spec.name != "engine" {
        anyhow::bail!("--engine '{}': expected engine(...)", a.engine);
    }
    let opts = EngineOptions::from_spec(&spec)?;
    spec.finish()?;
    let json = a.json;
    let r = bench::run(a.depth, &opts, |l| {
        let line = format!("{:<32} {:<62} {:>5} {:>7} {:>10} nodes", l.game, l.position, l.best_move, l.value, l.nodes);
        if json { eprintln!("{line}") } else { println!("{line}") }
    })?;
    if json {
        out.json(serde_json::to_value(&r)?);
    } else {
        println!("{} nodes {} nps", r.nodes, r.nps);
    }
    Ok(())
}
