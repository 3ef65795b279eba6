//! The parameters of `mcts(...)`, read from the player string, checked, and written back by [`Params::spec`].

use crate::game::{FullGame, GameError};
use crate::spec::Spec;

/// Playouts per move when the string gives no limit at all (no `playouts`, `time` or `nodes`).
pub(crate) const DEFAULT_PLAYOUTS: u64 = 10_000;
/// Default exploration constant (rewards in [0, 1]; OpenSpiel's `uct_c = 2` on rewards in [-1, 1] is the same).
pub(crate) const DEFAULT_C: f64 = 1.0;
/// Default size of the tree.
pub(crate) const DEFAULT_MEM_MIB: usize = 64;
/// Default scale of the squashing of evaluations: `1 / (1 + exp(-v / scale))`.
pub(crate) const DEFAULT_SCALE: f64 = 200.0;

/// How several threads search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// One tree shared under a lock; a descent adds a virtual loss to its path until its playout is backed up.
    Tree,
    /// Independent trees whose root statistics are added up.
    Root,
}

/// Everything `mcts(...)` accepts besides `time`, `nodes` and `depth` (the [`crate::search::Limits`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Iterations per move (`None`: [`DEFAULT_PLAYOUTS`] unless a time or node limit is given).
    pub playouts: Option<u64>,
    /// Exploration constant of UCT.
    pub c: f64,
    /// MCTS-Solver: proven wins and losses backed up and never sampled again.
    pub solver: bool,
    /// Evaluation-cut playouts: after this many random plies, the evaluation (0: playouts to the end).
    pub cut: u32,
    /// Playouts play a move that wins at once, else one that stops the opponent's win at once, when the game sees
    /// them ([`Knowledge::decisive_random_move`]); else uniformly random moves.
    pub decisive: bool,
    /// Weight of the progressive bias `bias · h / (n + 1)` (0: off).
    pub bias: f64,
    /// Scale of the evaluation's squashing to a winning chance.
    pub(crate) scale: f64,
    /// RAVE equivalence parameter `k` in `β = sqrt(k / (3n + k))` (0: off).
    pub rave: f64,
    /// The game's evaluation used by `cut` and `bias` (`None`: its default, `simple`).
    pub eval: Option<String>,
    /// Tree size in MiB (per thread: the budget is shared).
    pub(crate) mem_mib: usize,
    /// Keep the subtree of the new position between moves.
    pub(crate) reuse: bool,
    /// Threads searching: one shared tree (tree parallelism with virtual loss) or one tree each (root parallelism).
    pub threads: usize,
    /// How the threads share the work (`parallel=tree|root`).
    pub parallel: Parallel,
    /// Transpositions: the mean reward of a move is its position's, over every path that reached it (UCT2 of Childs,
    /// Brodeur & Kocsis 2008); the exploration term keeps the edge's own count.
    pub tt: bool,
    /// GRAVE (Cazenave 2015): the AMAF statistics are those of the nearest ancestor of the same mover with at least
    /// this many visits (0: off; RAVE's own node otherwise). Needs `rave`.
    pub grave: u64,
    /// When the node pool is full, free the children of the least visited nodes (else the tree stops growing).
    pub recycle: bool,
    /// A child the game knows exactly ([`Knowledge::endgame`](crate::game::Knowledge::endgame): Othello's endgame
    /// solver at few empty squares, Oware's database) is a terminal node with that result.
    pub probe: bool,
    pub seed: Option<u64>,
    /// The tree grows at most this many plies below the root (`depth=`; unlimited by default).
    pub(crate) max_depth: u32,
    /// `defaults=none`: the game's settings ([`Knowledge::MCTS_DEFAULTS`], laid under the string by the player registry)
    /// were not used.
    pub plain: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            playouts: None,
            c: DEFAULT_C,
            solver: true,
            cut: 0,
            decisive: false,
            bias: 0.0,
            scale: DEFAULT_SCALE,
            rave: 0.0,
            eval: None,
            mem_mib: DEFAULT_MEM_MIB,
            reuse: true,
            threads: 1,
            parallel: Parallel::Tree,
            tt: false,
            grave: 0,
            recycle: true,
            probe: false,
            seed: None,
            max_depth: u32::MAX,
            plain: false,
        }
    }
}

/// `defaults=game` (the default) or `defaults=none`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum GameDefaults {
    Game,
    None,
}

/// Read `defaults=` of an `mcts(...)` string.
pub(crate) fn game_defaults(spec: &Spec) -> Result<GameDefaults, GameError> {
    match spec.text("defaults").as_deref() {
        None | Some("game") => Ok(GameDefaults::Game),
        Some("none") => Ok(GameDefaults::None),
        Some(other) => Err(GameError::new(format!(
            "{}: defaults={other}: expected game (the game's settings, the default) or none (plain UCT)",
            spec.name
        ))),
    }
}

/// `spec` with the game's settings for `mcts` ([`Knowledge::MCTS_DEFAULTS`]) where it gives none, unless `defaults=none`.
pub(crate) fn with_game_defaults<G: FullGame>(spec: Spec) -> Result<Spec, GameError> {
    match game_defaults(&spec)? {
        GameDefaults::Game => spec.with_defaults(G::MCTS_DEFAULTS),
        GameDefaults::None => Ok(spec),
    }
}

fn float(spec: &Spec, key: &str, default: f64, min: f64, max: f64) -> Result<f64, GameError> {
    let Some(text) = spec.text(key) else { return Ok(default) };
    let x: f64 = text.parse().map_err(|_| GameError::new(format!("{}: {key}={text} is not a number", spec.name)))?;
    if !x.is_finite() || x < min || x > max {
        return Err(GameError::new(format!("{}: {key}={text} is out of range {min}..={max}", spec.name)));
    }
    Ok(x)
}

impl Params {
    /// Read the parameters of `spec` for game `G` (the evaluation is checked against `G::EVALUATIONS`).
    pub fn from_spec<G: FullGame>(spec: &Spec) -> Result<Params, GameError> {
        let d = Params::default();
        let playouts = playouts(spec)?;
        let eval = spec.eval("eval")?;
        if let Some(name) = &eval {
            G::check_evaluation(name).map_err(|e| GameError::new(format!("{}: {e}", spec.name)))?;
        }
        let mem_mib = spec.mib("mem", d.mem_mib)?;
        if mem_mib == 0 {
            return Err(GameError::new(format!("{}: mem=0: the tree needs at least 1 MiB", spec.name)));
        }
        let parallel = match spec.text("parallel").as_deref() {
            None | Some("tree") => Parallel::Tree,
            Some("root") => Parallel::Root,
            Some(other) => {
                return Err(GameError::new(format!("{}: parallel={other}: expected tree or root", spec.name)));
            }
        };
        let rave = float(spec, "rave", 0.0, 0.0, 1e9)?;
        let grave = spec.count("grave")?.unwrap_or(0);
        if grave > 0 && rave == 0.0 {
            return Err(GameError::new(format!(
                "{}: grave={grave} needs rave=K (its equivalence parameter)",
                spec.name
            )));
        }
        Ok(Params {
            playouts,
            c: float(spec, "c", d.c, 0.0, 100.0)?,
            solver: spec.bool("solver", d.solver)?,
            cut: spec.int("cut", 0, 0, 10_000)? as u32,
            decisive: spec.bool("decisive", d.decisive)?,
            bias: float(spec, "bias", 0.0, 0.0, 1e6)?,
            scale: float(spec, "scale", d.scale, 1e-3, 1e9)?,
            rave,
            eval,
            mem_mib,
            reuse: spec.bool("reuse", d.reuse)?,
            threads: spec.int("threads", 1, 1, 256)? as usize,
            parallel,
            tt: spec.bool("tt", d.tt)?,
            grave,
            recycle: spec.bool("recycle", d.recycle)?,
            probe: spec.bool("probe", d.probe)?,
            seed: spec.count("seed")?,
            max_depth: d.max_depth,
            plain: game_defaults(spec)? == GameDefaults::None,
        })
    }

    /// The non-default parameters as `key=value` (the player string rebuilds them).
    pub fn spec(&self) -> Vec<String> {
        let d = Params::default();
        let mut p = Vec::new();
        if let Some(n) = self.playouts {
            p.push(format!("playouts={n}"));
        }
        if self.c != d.c {
            p.push(format!("c={}", self.c));
        }
        if !self.solver {
            p.push("solver=false".into());
        }
        if self.cut != 0 {
            p.push(format!("cut={}", self.cut));
        }
        if self.decisive {
            p.push("decisive=true".into());
        }
        if self.bias != 0.0 {
            p.push(format!("bias={}", self.bias));
        }
        if self.scale != d.scale {
            p.push(format!("scale={}", self.scale));
        }
        if self.rave != 0.0 {
            p.push(format!("rave={}", self.rave));
        }
        if let Some(e) = &self.eval {
            p.push(format!("eval={e}"));
        }
        if self.mem_mib != d.mem_mib {
            p.push(format!("mem={}", self.mem_mib));
        }
        if !self.reuse {
            p.push("reuse=false".into());
        }
        if self.threads != 1 {
            p.push(format!("threads={}", self.threads));
        }
        if self.parallel != d.parallel {
            p.push("parallel=root".into());
        }
        if self.tt {
            p.push("tt=true".into());
        }
        if self.grave != 0 {
            p.push(format!("grave={}", self.grave));
        }
        if !self.recycle {
            p.push("recycle=false".into());
        }
        if self.probe {
            p.push("probe=true".into());
        }
        if let Some(s) = self.seed {
            p.push(format!("seed={s}"));
        }
        p
    }
}

/// `playouts=` of a spec (`mcts`, `smmcts`, `ismcts`): at least 1 ([`crate::limits::check_playouts`]).
pub fn playouts(spec: &Spec) -> Result<Option<u64>, GameError> {
    spec.count("playouts")?
        .map(|n| crate::limits::check_playouts(&format!("{}: playouts={n}", spec.name), n))
        .transpose()
        .map_err(GameError::new)
}
