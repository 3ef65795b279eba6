//! Every tunable of the engine in one place: the switches of the player string (`engine(null=off,threads=2)`) and
//! the numeric search parameters.

use std::time::Duration;

use crate::game::GameError;
use crate::search::Limits;
use crate::spec::{Spec, parse_table_mib};

/// Deepest ply the search reaches (the PV and killer tables are this long).
pub(crate) const MAX_PLY: usize = 128;
/// Deepest iteration of iterative deepening.
pub(crate) const MAX_DEPTH: u32 = 100;
/// Default depth when no limit at all is given.
pub(crate) const DEFAULT_DEPTH: u32 = 6;

pub(crate) use super::tunables::{GivenParams, ONE_PLY};
/// The numeric search constants (depth costs, reductions, margins): runtime tunables, see `tunables.rs`.
pub use super::tunables::{PARAMS, SearchParams};

/// Default share of the move time after which no new iteration starts (percent; fixed time per move only): all of
/// it, since the time of a move cannot be saved for later and an unfinished iteration still counts (a root move
/// that beat the first one replaces it).
pub(crate) const SOFT_PERCENT: u32 = 100;

/// The engine's switches and sizes, parsed from the player string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub limits: Limits,
    /// Transposition table size in MiB (0 = no table).
    pub tt_mib: usize,
    pub threads: usize,
    pub null: bool,
    pub lmr: bool,
    pub aspiration: bool,
    pub quiescence: bool,
    pub extensions: bool,
    pub probe: bool,
    /// The final check that the chosen move does not lose deeper (part of the course's deep-win probe).
    pub check: bool,
    pub killers: bool,
    pub history: bool,
    /// The countermove heuristic: the quiet move that last refuted the previous move is tried after the killers.
    pub counter: bool,
    /// Game knowledge in the tree: immediate wins, forced replies to a threat to win.
    pub tactics: bool,
    /// The evaluation's name (`eval=NAME`, one of the game's [`Knowledge::EVALUATIONS`](crate::game::Game)); `None`: the
    /// game's first (for Breakthrough `pst`).
    pub eval: Option<String>,
    /// Time kept in reserve on every move (process and protocol latency).
    pub margin: Duration,
    /// Breakthrough race endgame tables (3 rows) probed at every node on boards of 5 columns or fewer (`race`,
    /// see `endgame.rs`).
    pub race: bool,
    /// A retrograde database probed at every node (`db=FILE`, see `probe_db.rs`).
    pub db: Option<super::probe_db::DbHandle>,
    /// Reverse futility pruning (static null move) near the horizon.
    pub rfp: bool,
    /// Futility pruning of quiet moves near the horizon.
    pub futility: bool,
    /// Late-move pruning (move-count based) near the horizon.
    pub lmp: bool,
    /// Logarithmic late-move reductions (depth x move number table) instead of the fixed 1 / 2 plies.
    pub lmr_log: bool,
    /// Internal iterative reduction (no table move: one ply less).
    pub iir: bool,
    /// Fixed time per move: no new iteration after this share of the time (percent).
    pub soft_pct: u32,
    /// The numeric search constants the search reads: the game's defaults with `given` over them, set by the engine
    /// when it meets a game ([`EngineOptions::params_for`]); the general defaults with `given` until then.
    pub params: SearchParams,
    /// The values the player string gave (`params=FILE`, `name=value`).
    pub given: GivenParams,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            limits: Limits::default(),
            tt_mib: 64,
            threads: 1,
            null: true,
            lmr: true,
            aspiration: true,
            quiescence: true,
            extensions: true,
            probe: false,
            check: false,
            killers: true,
            history: true,
            counter: true,
            tactics: true,
            eval: None,
            margin: Duration::from_millis(10),
            race: true,
            db: None,
            rfp: true,
            futility: true,
            lmp: false,
            lmr_log: true,
            iir: false,
            soft_pct: SOFT_PERCENT,
            params: SearchParams::default(),
            given: GivenParams::default(),
        }
    }
}

/// One on/off feature of the engine, declared once: its name in the player string, the field it sets and one line
/// of meaning. Parsing ([`EngineOptions::from_spec`]), writing back ([`EngineOptions::spec`]) and the players' table
/// (`plateau players engine`, [`crate::players::params`]) all read this list; the defaults are [`EngineOptions::default`]'s.
pub(crate) struct Switch {
    pub name: &'static str,
    pub get: fn(&EngineOptions) -> bool,
    pub set: fn(&mut EngineOptions, bool),
    pub(crate) meaning: &'static str,
}

impl Switch {
    /// The default, as a player string writes it.
    pub(crate) fn default_text(&self) -> &'static str {
        if (self.get)(&EngineOptions::default()) { "true" } else { "false" }
    }
}

macro_rules! switches {
    ($($name:literal => $field:ident: $meaning:literal,)*) => {
        &[$(Switch {
            name: $name,
            get: |o: &EngineOptions| o.$field,
            set: |o: &mut EngineOptions, v: bool| o.$field = v,
            meaning: $meaning,
        },)*]
    };
}

/// The engine's switches, in the order `plateau players engine` lists them.
pub(crate) const SWITCHES: &[Switch] = switches! {
    "null" => null: "null-move pruning",
    "lmr" => lmr: "late-move reductions",
    "asp" => aspiration: "aspiration windows around the previous iteration's value",
    "qs" => quiescence: "quiescence search of captures and threats at the horizon",
    "ext" => extensions: "extensions (fractional depth: forcing moves cost less)",
    "probe" => probe: "the course's deep-win probe before the search",
    "check" => check: "check that the chosen move does not lose deeper",
    "killers" => killers: "killer moves in the move ordering",
    "history" => history: "the history heuristic in the move ordering",
    "counter" => counter: "the countermove heuristic in the move ordering",
    "tactics" => tactics: "game knowledge in the tree: immediate wins, forced replies",
    "rfp" => rfp: "reverse futility pruning near the horizon",
    "futility" => futility: "futility pruning of quiet moves near the horizon",
    "lmp" => lmp: "late-move pruning near the horizon",
    "lmrlog" => lmr_log: "logarithmic late-move reductions (else 1 or 2 plies)",
    "iir" => iir: "internal iterative reduction (no table move: one ply less)",
    "race" => race: "Breakthrough race endgame tables on boards of 5 columns or fewer",
};

impl EngineOptions {
    /// Every pruning or depth-changing feature off: fixed-depth values equal plain minimax (tests).
    pub fn exact() -> EngineOptions {
        EngineOptions {
            null: false,
            lmr: false,
            quiescence: false,
            extensions: false,
            probe: false,
            check: false,
            tactics: false,
            race: false,
            rfp: false,
            futility: false,
            lmp: false,
            iir: false,
            ..EngineOptions::default()
        }
    }

    /// Read the options from `engine(...)`.
    pub fn from_spec(spec: &Spec) -> Result<EngineOptions, GameError> {
        let mut o = EngineOptions { limits: Limits::from_spec(spec)?, ..EngineOptions::default() };
        if let Some(v) = spec.text("tt") {
            o.tt_mib = match v.to_ascii_lowercase().as_str() {
                "off" | "none" | "false" => 0,
                _ => parse_table_mib(&v).map_err(|e| GameError::new(format!("engine: tt: {e}")))?,
            };
            if o.tt_mib > 65536 {
                return Err(GameError::new(format!("engine: tt={v}: at most 64gb")));
            }
        }
        o.threads = spec.int("threads", 1, 1, 256)? as usize;
        for switch in SWITCHES {
            let value = spec.bool(switch.name, (switch.get)(&o))?;
            (switch.set)(&mut o, value);
        }
        if let Some(v) = spec.eval("eval")? {
            // Checked against the game's evaluations when the engine is built for a game (`Engine::from_spec`).
            // A name with a colon carries a file (`nnue:FILE`): kept as given.
            o.eval = match v.to_ascii_lowercase().as_str() {
                "default" => None,
                _ if v.contains(':') => Some(v.clone()),
                name if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                    Some(name.to_string())
                }
                _ => return Err(GameError::new(format!("engine: eval={v}: expected the name of an evaluation"))),
            };
        }
        if let Some(m) = spec.duration("margin")? {
            o.margin = m;
        }
        if let Some(path) = spec.path("db")? {
            o.db = Some(super::probe_db::DbHandle::open(&path)?);
        }
        o.soft_pct = spec.int("soft", SOFT_PERCENT as i64, 10, 100)? as u32;
        o.given = GivenParams::from_spec(spec)?;
        o.params = o.given.over(&SearchParams::default());
        Ok(o)
    }

    /// The search constants for `game` evaluated with `eval`: its defaults (or the general ones, `params=general`),
    /// then the given values (the engine sets `params` to them when it meets a game).
    pub(crate) fn params_for<G: crate::game::FullGame>(&self, game: &G, eval: &str) -> SearchParams {
        self.given.resolve(game, Some(eval))
    }

    /// The player string that rebuilds these options (only what differs from the defaults).
    pub fn spec(&self) -> String {
        let mut p = self.limits.spec_params();
        let d = EngineOptions::default();
        if self.tt_mib != d.tt_mib {
            p.push(if self.tt_mib == 0 { "tt=off".to_string() } else { format!("tt={}mb", self.tt_mib) });
        }
        if self.threads != 1 {
            p.push(format!("threads={}", self.threads));
        }
        for switch in SWITCHES {
            let v = (switch.get)(self);
            if v != (switch.get)(&d) {
                p.push(format!("{}={}", switch.name, if v { "on" } else { "off" }));
            }
        }
        if let Some(name) = &self.eval {
            p.push(format!("eval={name}"));
        }
        if self.margin != d.margin {
            p.push(format!("margin={}ms", self.margin.as_millis()));
        }
        if let Some(h) = &self.db {
            p.push(format!("db={}", h.path()));
        }
        if self.soft_pct != d.soft_pct {
            p.push(format!("soft={}", self.soft_pct));
        }
        p.extend(self.given.spec_params());
        if p.is_empty() { "engine".into() } else { format!("engine({})", p.join(",")) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_write_back() {
        let s = Spec::parse("engine(time=1s,null=on,tt=16mb,threads=2,lmr=off,eval=simple)").unwrap();
        let o = EngineOptions::from_spec(&s).unwrap();
        s.finish().unwrap();
        assert!(o.null && !o.lmr && o.eval.as_deref() == Some("simple"));
        assert_eq!((o.tt_mib, o.threads), (16, 2));
        assert_eq!(o.spec(), "engine(time=1000ms,tt=16mb,threads=2,lmr=off,eval=simple)");
        let again = Spec::parse(&o.spec()).unwrap();
        assert_eq!(EngineOptions::from_spec(&again).unwrap(), o);
        assert_eq!(EngineOptions::default().spec(), "engine");
    }

    #[test]
    fn each_switch_sets_its_own_field_and_round_trips() {
        let names: std::collections::HashSet<_> = SWITCHES.iter().map(|s| s.name).collect();
        assert_eq!(names.len(), SWITCHES.len(), "a switch name listed twice");
        for switch in SWITCHES {
            let flipped = !(switch.get)(&EngineOptions::default());
            let text = format!("engine({}={})", switch.name, if flipped { "on" } else { "off" });
            let o = EngineOptions::from_spec(&Spec::parse(&text).unwrap()).unwrap();
            assert_eq!((switch.get)(&o), flipped, "{text}");
            for other in SWITCHES.iter().filter(|o| o.name != switch.name) {
                assert_eq!((other.get)(&o), (other.get)(&EngineOptions::default()), "{text} changed {}", other.name);
            }
            assert_eq!(o.spec(), text);
        }
    }

    #[test]
    fn bad_values_are_errors() {
        for bad in ["engine(threads=0)", "engine(null=maybe)", "engine(tt=lots)", "engine(eval=m@gic)"] {
            let s = Spec::parse(bad).unwrap();
            assert!(EngineOptions::from_spec(&s).is_err(), "{bad}");
        }
        for bad in ["engine(soft=5)", "engine(soft=101)", "engine(iir=2)"] {
            let s = Spec::parse(bad).unwrap();
            assert!(EngineOptions::from_spec(&s).is_err(), "{bad}");
        }
        let s = Spec::parse("engine(rfp=off,futility=off,lmp=on,lmrlog=off,iir=on,soft=75)").unwrap();
        let o = EngineOptions::from_spec(&s).unwrap();
        assert!(!o.rfp && !o.futility && o.lmp && !o.lmr_log && o.iir && o.soft_pct == 75);
        assert_eq!(o.spec(), "engine(rfp=off,futility=off,lmp=on,lmrlog=off,iir=on,soft=75)");
        let s = Spec::parse("engine(tt=off)").unwrap();
        assert_eq!(EngineOptions::from_spec(&s).unwrap().tt_mib, 0);
        let s = Spec::parse("engine(rfp_margin=120,lmr_log_div=200)").unwrap();
        let o = EngineOptions::from_spec(&s).unwrap();
        s.finish().unwrap();
        assert_eq!((o.params.rfp_margin, o.params.lmr_log_div), (120, 200));
        assert_eq!(o.spec(), "engine(lmr_log_div=200,rfp_margin=120)");
        assert_eq!(EngineOptions::from_spec(&Spec::parse(&o.spec()).unwrap()).unwrap(), o);
        for bad in ["engine(rfp_margin=1)", "engine(cost_quiet=x)"] {
            assert!(EngineOptions::from_spec(&Spec::parse(bad).unwrap()).is_err(), "{bad}");
        }
    }
}
