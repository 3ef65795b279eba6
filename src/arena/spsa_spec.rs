//! `plateau spsa`'s flags ([`SpsaArgs`], flattened by the command line) and what they make: the run
//! ([`SpsaRun`]: the tuner's settings, the checkpoint, the output), read the same way by the command and by the Ray
//! cluster's driver (`spsa_jobs`), and the parameters file written at the end.

use std::path::PathBuf;

use clap::Args;

use super::spsa::{self, SpsaConfig};
use super::spsa_checkpoint::Checkpointing;
use crate::engine::params::EngineOptions;
use crate::engine::tunables::{PARAMS, SearchParams};
use crate::games::{AnyGame, with_game};
use crate::spec::Spec;

/// `plateau spsa`'s arguments.
#[derive(Args, Debug, Clone)]
pub struct SpsaArgs {
    /// The game string.
    #[arg(default_value = "breakthrough")]
    pub game: String,
    /// The engine both sides start from, with its limits (`engine(nodes=20000,tt=16mb)`).
    #[arg(long, default_value = "engine(nodes=20000,tt=16mb)")]
    pub engine: String,
    /// Tunables to move, comma-separated (default: every one `plateau engine-params` lists).
    #[arg(long)]
    pub params: Option<String>,
    /// Start values: a parameters file (default: the defaults).
    #[arg(long)]
    pub start: Option<PathBuf>,
    #[arg(long, default_value_t = 100)]
    pub iterations: u32,
    /// Game pairs (one opening, both colours) per iteration.
    #[arg(long, default_value_t = 1)]
    pub pairs: usize,
    /// fishtest's r_end: the final learning rate relative to the step squared.
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
    /// Fixed time per move (default: the engine string's own limits).
    #[arg(long, conflicts_with = "tc")]
    pub movetime: Option<String>,
    /// Clock for both players: base+increment (`10s+0.1s`).
    #[arg(long)]
    pub tc: Option<String>,
    #[arg(long, default_value_t = 2)]
    pub random_plies: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 1, value_parser = crate::limits::parse_threads)]
    pub concurrency: usize,
    /// Write the tuned parameters file here (default: print it); the run's state goes to FILE.checkpoint after every
    /// iteration.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the run whose state FILE.checkpoint holds (the same options; none yet: start at iteration 1).
    #[arg(long)]
    pub resume: bool,
    /// Stop after this iteration, leaving FILE.checkpoint for a later --resume (a long run in slices).
    #[arg(long, value_name = "ITERATION")]
    pub(crate) stop_after: Option<u32>,
    /// Run the games on the Ray cluster at ADDRESS (`auto`, `HOST:6379`, `ray://HOST:10001`, `local` for a fresh
    /// local one): runs `python3 -m plateau.cluster spsa` with the other flags (docs/cluster.md).
    #[arg(long, value_name = "ADDRESS")]
    pub ray: Option<String>,
}

/// What `plateau spsa`'s flags make, checked before any game.
#[derive(Clone, Debug)]
pub struct SpsaRun {
    pub game: AnyGame,
    pub cfg: SpsaConfig,
    /// `FILE.checkpoint` of `--out FILE`.
    pub checkpoint: Checkpointing,
    pub out: Option<PathBuf>,
}

impl SpsaArgs {
    /// The run of these flags, or the one-line error the command gives before any game.
    pub(crate) fn prepare(&self) -> Result<SpsaRun, String> {
        let limit = super::time_limit(self.movetime.as_deref(), self.tc.as_deref())?;
        if !self.r_end.is_finite() || self.r_end <= 0.0 {
            return Err(format!("--r-end {}: expected a positive number", self.r_end));
        }
        // From the engine's values for this game and evaluation (Breakthrough 8x8's tuned ones unless the engine
        // string says `params=general`), then --start.
        let game = AnyGame::parse(&self.game).map_err(|e| e.to_string())?;
        let opts = EngineOptions::from_spec(&Spec::parse(&self.engine).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
        let mut start = with_game!(&game, g => opts.given.resolve(g, opts.eval.as_deref()));
        if let Some(path) = &self.start {
            let text = crate::files::read_text(path, crate::files::MAX_TEXT, "spsa:")?;
            start.read_text(&text, &path.display().to_string()).map_err(|e| e.to_string())?;
        }
        let names: Vec<String> = match &self.params {
            Some(list) => list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
            None => PARAMS.iter().map(|i| i.name.to_string()).collect(),
        };
        spsa::chosen(&names)?;
        let cfg = SpsaConfig {
            engine: self.engine.clone(),
            names,
            start,
            iterations: self.iterations,
            pairs: self.pairs,
            r_end: self.r_end,
            limit,
            random_plies: self.random_plies,
            seed: self.seed,
            concurrency: self.concurrency,
        };
        let path = self.out.as_ref().map(|p| {
            let mut s = p.as_os_str().to_owned();
            s.push(".checkpoint");
            PathBuf::from(s)
        });
        if (self.resume || self.stop_after.is_some()) && path.is_none() {
            return Err("--resume and --stop-after need --out FILE (the run's state is kept in FILE.checkpoint)".into());
        }
        // Before any game: outputs plateau would refuse to write (a symbolic link, a device, a directory).
        if let (Some(out), Some(cp)) = (&self.out, &path) {
            crate::files::check_output(out, "spsa: --out")?;
            crate::files::check_output(cp, "spsa: the checkpoint")?;
        }
        let checkpoint = Checkpointing { path, resume: self.resume, stop_after: self.stop_after };
        Ok(SpsaRun { game, cfg, checkpoint, out: self.out.clone() })
    }

    /// The parameters file of the tuned values, with the command's words in its first line.
    pub(crate) fn output_text(&self, tuned: &SearchParams) -> String {
        format!(
            "# plateau spsa {} --engine \"{}\" --iterations {} --pairs {} --seed {}\n{}",
            self.game,
            self.engine,
            self.iterations,
            self.pairs,
            self.seed,
            tuned.to_text()
        )
    }

    /// The end of a run that reached iteration `reached`: the line the command prints, after writing `--out` when the
    /// run is finished (`None` without `--out`: the caller prints [`SpsaArgs::output_text`]).
    pub fn finish(&self, tuned: &SearchParams, reached: u32) -> Result<Option<String>, String> {
        if reached < self.iterations {
            let path = match &self.out {
                Some(p) => format!("{}.checkpoint", p.display()),
                None => "the checkpoint".into(),
            };
            return Ok(Some(format!(
                "stopped after iteration {reached} of {}; {path} holds the state: add --resume to go on",
                self.iterations
            )));
        }
        match &self.out {
            Some(path) => {
                crate::files::replace(path, self.output_text(tuned).as_bytes(), "spsa: --out")?;
                Ok(Some(format!("wrote {}: {}", path.display(), tuned.spec_params().join(" "))))
            }
            None => Ok(None),
        }
    }
}
