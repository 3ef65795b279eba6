//! The typed way into a match: [`MatchSpec`] (what `plateau match`'s flags and Python's `plateau.match()` keywords
//! say), [`PlayFlags`] (the flags `match` and `tournament` share), and [`run_match_spec`], which does everything
//! `plateau match` does (players, time control, openings, SPRT, concurrency, record/resume, adjudication) and returns
//! the [`MatchReport`] whose JSON is `plateau match --json`'s document.
//!
//! The CLI flattens these structs into its arguments (so the flags, their defaults and their help are written once,
//! here), parses, calls [`run_match_spec`] and prints; the Python bindings deserialize the same spec from keyword
//! arguments and call the same function.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::openings::{Openings, parse_openings};
use super::record::GameRecord;
use super::resume::resume_match;
use super::stats::Sprt;
use super::{MatchConfig, MatchSummary, run_match};
use crate::game::FullGame;
use crate::games::{AnyGame, with_game};
use crate::search::TimeControl;
use crate::spec::parse_duration;

/// What a match produced: `plateau match --json`'s document.
pub(crate) type MatchReport = MatchSummary;

/// The flags of the games themselves, shared by `plateau match` and `plateau tournament` (same names, same help).
#[derive(clap::Args, Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayFlags {
    /// Fixed time per move for every player (`100ms`, `1s`).
    #[arg(long, conflicts_with = "tc")]
    #[serde(deserialize_with = "text::option")]
    pub movetime: Option<String>,
    /// Clock for every player (in a tournament: every player without its own): base+increment (`10s+0.1s`).
    #[arg(long)]
    #[serde(deserialize_with = "text::option")]
    pub tc: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = crate::limits::parse_threads)]
    pub concurrency: usize,
    /// Openings file: one position text or move list per line (a match plays each in turn, a tournament's round r
    /// plays line r, cycling).
    #[arg(long, conflicts_with = "random_plies")]
    pub openings: Option<PathBuf>,
    /// Random plies played from the start to make each opening (default 2, or 0 for games with chance or simultaneous
    /// moves; 0 = start position only).
    #[arg(long)]
    pub random_plies: Option<u32>,
    /// Seed of every random thing: the random openings, the chance draws, and the moves of players that draw at
    /// random (`random`, `mcts`, ...): the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Append every finished game to this file (PGN-style). An existing file is appended to.
    #[arg(long, visible_alias = "pgn")]
    #[serde(alias = "pgn")]
    pub record: Option<PathBuf>,
    /// Do not adjudicate won races.
    #[arg(long)]
    pub(crate) no_adjudicate: bool,
    /// Tolerance over the time limit before a move loses on time.
    #[arg(long, default_value = "100ms")]
    #[serde(deserialize_with = "text::plain")]
    pub margin: String,
    /// Games longer than this many plies are drawn.
    #[arg(long, default_value_t = 1000, value_parser = crate::limits::parse_max_plies)]
    pub max_plies: usize,
}

impl Default for PlayFlags {
    fn default() -> PlayFlags {
        PlayFlags {
            movetime: None,
            tc: None,
            concurrency: 1,
            openings: None,
            random_plies: None,
            seed: 1,
            record: None,
            no_adjudicate: false,
            margin: "100ms".into(),
            max_plies: 1000,
        }
    }
}

impl PlayFlags {
    /// The time control of `--movetime` or `--tc` (`None`: each player's own limits).
    pub fn limit(&self) -> Result<Option<TimeControl>, String> {
        super::time_limit(self.movetime.as_deref(), self.tc.as_deref())
    }

    /// `--margin` as a duration.
    pub fn margin(&self) -> Result<Duration, String> {
        parse_duration(&self.margin).map_err(|e| format!("--margin: {e}"))
    }

    /// The ranges the command line's parsers check, checked again for callers that build the flags themselves.
    pub fn check(&self) -> Result<(), String> {
        crate::limits::check_threads("concurrency", self.concurrency)?;
        crate::limits::check_count("plies", self.max_plies, 1, crate::limits::MAX_PLIES)?;
        if self.openings.is_some() && self.random_plies.is_some() {
            return Err("give --openings or --random-plies, not both".into());
        }
        if let (Some(o), Some(r)) = (&self.openings, &self.record) {
            // The games would be appended to the openings file.
            crate::files::distinct_outputs(&[("--openings", o), ("--record", r)])?;
        }
        Ok(())
    }

    /// The openings of these flags on `game`: the file's, the start position, or random plies (by default 2, or
    /// none where the first plies are coin tosses or joint moves that the players should play themselves).
    pub fn openings<G: FullGame>(&self, game: &G) -> Result<Openings<G>, String> {
        match (&self.openings, self.random_plies) {
            (Some(path), _) => {
                let text = crate::files::read_text(path, crate::files::MAX_TEXT, "--openings")?;
                Ok(Openings::List(parse_openings(game, &text)?))
            }
            (None, Some(0)) => Ok(Openings::Start),
            (None, p) => Ok(Openings::Random { plies: p.unwrap_or(default_plies(game)), seed: self.seed }),
        }
    }
}

/// Random opening plies by default: 2, or none where the first plies are coin tosses or joint moves.
pub(crate) fn default_plies<G: FullGame>(_game: &G) -> u32 {
    if G::KIND.chance || G::KIND.simultaneous { 0 } else { 2 }
}

/// Everything that defines `plateau match`: the game, the two players, the number of games and the shared flags.
#[derive(clap::Args, Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct MatchSpec {
    /// The game string.
    #[arg(default_value = "breakthrough")]
    pub game: String,
    /// A player string, given twice (A then B): `alphabeta(time=1s)`, `random`, `uci(cmd=PATH,variant=breakthrough)`,
    /// `ugi(cmd=...)`.
    #[arg(long = "player", num_args = 1)]
    pub players: Vec<String>,
    /// Number of games.
    #[arg(long, default_value_t = 10, value_parser = crate::limits::parse_games)]
    pub games: usize,
    #[command(flatten)]
    #[serde(flatten)]
    pub play: PlayFlags,
    /// Sequential test: `elo0=0,elo1=10,alpha=0.05,beta=0.05`; the match stops when it decides.
    #[arg(long)]
    #[serde(deserialize_with = "text::option")]
    pub sprt: Option<String>,
    /// Continue the match whose games the --record file holds: keep them, play only the missing game numbers (a
    /// missing or empty file: start from scratch).
    #[arg(long)]
    pub resume: bool,
    /// Player A moves first in every game (each game its own opening); default: colours alternate, each opening
    /// played once with each player first.
    #[arg(long)]
    pub fixed_colours: bool,
}

impl Default for MatchSpec {
    fn default() -> MatchSpec {
        MatchSpec {
            game: "breakthrough".into(),
            players: Vec::new(),
            games: 10,
            play: PlayFlags::default(),
            sprt: None,
            resume: false,
            fixed_colours: false,
        }
    }
}

impl MatchSpec {
    /// The spec of a JSON object of its field names (`{"game": ..., "players": [A, B], "movetime": "100ms", ...}`,
    /// any left out at its default; `pgn` is `record`'s other name, as the flag's): Python's `plateau.match()`
    /// keywords. An unknown name is refused in one line that lists the known ones.
    pub fn from_json(value: serde_json::Value) -> Result<MatchSpec, String> {
        let known = serde_json::to_value(MatchSpec::default()).map_err(|e| e.to_string())?;
        let (Some(given), Some(known)) = (value.as_object(), known.as_object()) else {
            return Err("a match spec is an object of its fields".into());
        };
        if let Some(unknown) = given.keys().find(|k| !known.contains_key(*k) && *k != "pgn") {
            let names: Vec<&str> = known.keys().map(String::as_str).collect();
            return Err(format!("unknown match option '{unknown}' (options: {})", names.join(", ")));
        }
        serde_json::from_value(value).map_err(|e| format!("match options: {e}"))
    }
}

/// `plateau match`'s arguments: the spec and how to report it.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct MatchCommand {
    #[command(flatten)]
    pub spec: MatchSpec,
    /// Print one JSON document.
    #[arg(long)]
    pub json: bool,
    /// Print one line per finished game on stderr.
    #[arg(long)]
    pub verbose: bool,
    /// Run the match on the Ray cluster at ADDRESS (`auto`, `ray://host:10001`, `local` for a fresh local one): runs
    /// `python3 -m plateau.cluster match` with the other flags (docs/cluster.md).
    #[arg(long, value_name = "ADDRESS")]
    pub ray: Option<String>,
}

/// `--verbose`'s line of a finished game of a match.
pub fn game_line(r: &GameRecord) -> String {
    format!(
        "game {:>4}  {} - {}  {}  {} plies  {}",
        r.round,
        r.first,
        r.second,
        r.result_text(),
        r.moves.len(),
        r.termination
    )
}

/// How a running match shows itself: `progress_bar` draws indicatif's bar on stderr, `on_game` sees every finished
/// game (in the order they finish).
pub struct MatchProgress<'a> {
    pub progress_bar: bool,
    pub on_game: &'a mut dyn FnMut(&GameRecord),
}

impl MatchProgress<'_> {
    /// No bar, no callback.
    pub fn quiet(f: &mut dyn FnMut(&GameRecord)) -> MatchProgress<'_> {
        MatchProgress { progress_bar: false, on_game: f }
    }
}

/// Play the match of `spec`: everything `plateau match` does, its report returned. Errors are one line.
pub fn run_match_spec(spec: &MatchSpec, progress: MatchProgress<'_>) -> Result<MatchReport, String> {
    check_spec(spec)?;
    let any = AnyGame::parse(&spec.game).map_err(|e| e.to_string())?;
    let MatchProgress { progress_bar, on_game } = progress;
    with_game!(&any, g => {
        let cfg = match_config(spec, g, progress_bar)?;
        if spec.resume { resume_match(g, &cfg, on_game) } else { run_match(g, &cfg, on_game) }
    })
}

/// The checks of `spec` that need no game (players, games, flags, `--resume`'s file).
pub(crate) fn check_spec(spec: &MatchSpec) -> Result<(), String> {
    if spec.players.len() != 2 {
        return Err(format!("give exactly two players: --player A --player B ({} given)", spec.players.len()));
    }
    crate::limits::check_count("games", spec.games, 1, crate::limits::MAX_GAMES)?;
    spec.play.check()?;
    spec.play.limit()?;
    spec.play.margin()?;
    spec.sprt.as_deref().map(Sprt::parse).transpose()?;
    if spec.resume && spec.play.record.is_none() {
        return Err("--resume needs --record FILE (the record of the match to continue)".into());
    }
    Ok(())
}

/// The match of `spec` on `g` (checked by [`check_spec`]): the configuration `plateau match` plays (the job-level
/// match of `match_jobs` plays the same).
pub(crate) fn match_config<G: FullGame>(spec: &MatchSpec, g: &G, progress_bar: bool) -> Result<MatchConfig<G>, String> {
    check_spec(spec)?;
    Ok(MatchConfig {
        players: [spec.players[0].clone(), spec.players[1].clone()],
        games: spec.games,
        limit: spec.play.limit()?,
        concurrency: spec.play.concurrency.max(1),
        openings: spec.play.openings(g)?,
        sprt: spec.sprt.as_deref().map(Sprt::parse).transpose()?,
        record: spec.play.record.clone(),
        adjudicate: !spec.play.no_adjudicate,
        max_plies: spec.play.max_plies,
        margin: spec.play.margin()?,
        progress: progress_bar,
        seed: spec.play.seed,
        fixed_colours: spec.fixed_colours,
    })
}

/// Lenient text fields for callers that build a spec from loosely typed values (Python keywords): a string, or a
/// number taken as its text (`movetime=1` is `"1"`).
mod text {
    use serde::{Deserialize, Deserializer};

    fn of(v: serde_json::Value) -> Result<String, String> {
        match v {
            serde_json::Value::String(s) => Ok(s),
            serde_json::Value::Number(n) => Ok(n.to_string()),
            other => Err(format!("expected a text, got {other}")),
        }
    }

    pub fn plain<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        of(serde_json::Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }

    pub fn option<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::Null => Ok(None),
            v => of(v).map(Some).map_err(serde::de::Error::custom),
        }
    }
}
