//! The typed way into a tournament: [`TournamentSpec`] (what `plateau tournament`'s flags say, the games' own flags
//! shared with `match` through [`PlayFlags`]), [`run_tournament_spec`] (everything `plateau tournament` does before
//! printing), and [`load`]: the jobs of `plateau tournament`'s very words for another driver (the Ray cluster's,
//! through the Python bindings). The command line flattens [`TournamentCommand`] into its arguments and prints.

use std::path::PathBuf;

use clap::{Args, Parser};

use super::jobs::{self, TournamentJobs};
use super::{Entry, GameResult, Schedule, TournamentConfig, TournamentSummary, entries, run_tournament};
use crate::arena::spec::PlayFlags;
use crate::game::{FullGame, one_line};
use crate::games::{AnyGame, with_game};
use crate::search::TimeControl;

/// Everything that defines `plateau tournament`'s games: the players, the schedule, the games' flags, the files.
#[derive(Args, Debug, Clone)]
pub(crate) struct TournamentSpec {
    /// The game string.
    #[arg(default_value = "breakthrough")]
    pub game: String,
    /// A player, `NAME=SPEC` or a bare player string (named after it); repeat for each player.
    #[arg(long = "player", num_args = 1)]
    pub players: Vec<String>,
    /// A players file (TOML, or JSON when it ends in .json): per entry a name and a player string or an engine's
    /// cmd with its protocol and options, and an optional clock `tc`.
    #[arg(long = "players")]
    pub(crate) players_file: Option<PathBuf>,
    /// A folder of engines: each executable file is one player, named after the file.
    #[arg(long)]
    pub engines: Option<PathBuf>,
    /// The protocol of the --engines folder's engines: uci or ugi.
    #[arg(long, default_value = "uci")]
    pub(crate) engines_protocol: String,
    /// Rounds: each round every pair plays one opening with both colours (default 1, or the number of openings of
    /// --openings).
    #[arg(long, value_parser = crate::limits::parse_games)]
    pub rounds: Option<usize>,
    /// One player (by name) against the field instead of a round robin.
    #[arg(long)]
    pub gauntlet: Option<String>,
    #[command(flatten)]
    pub play: PlayFlags,
    /// Append one JSON line per finished game to this file (the file --resume continues).
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Continue the tournament of the --results file: play only the games it does not hold.
    #[arg(long)]
    pub resume: bool,
    /// Anchor the ratings: `NAME=ELO` (default: the ratings average 0).
    #[arg(long)]
    pub anchor: Option<String>,
}

/// `plateau tournament`'s arguments: the spec and how to report it.
#[derive(Args, Debug, Clone)]
pub(crate) struct TournamentCommand {
    #[command(flatten)]
    pub spec: TournamentSpec,
    /// Print one JSON document.
    #[arg(long)]
    pub json: bool,
    /// Print one line per finished game on stderr.
    #[arg(long)]
    pub verbose: bool,
    /// Run the tournament on the Ray cluster at ADDRESS (`auto`, `ray://host:10001`, `local` for a fresh local
    /// one): runs `python3 -m plateau.cluster tournament` with the other flags (docs/cluster.md).
    #[arg(long, value_name = "ADDRESS")]
    pub ray: Option<String>,
}

/// The players of every source, in order: `--player`s, then the file's, then the folder's.
fn gather(a: &TournamentSpec) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    for p in &a.players {
        out.push(Entry::from_arg(p)?);
    }
    if let Some(path) = &a.players_file {
        out.extend(entries::read_players_file(path)?);
    }
    if let Some(dir) = &a.engines {
        out.extend(entries::engines_in(dir, &a.engines_protocol)?);
    }
    Ok(out)
}

fn parse_anchor(text: &str) -> Result<(String, f64), String> {
    let (name, elo) = text.rsplit_once('=').ok_or_else(|| format!("--anchor {text}: give NAME=ELO (e.g. random=0)"))?;
    let elo: f64 = elo.trim().parse().map_err(|_| format!("--anchor {text}: '{elo}' is not a number"))?;
    if !elo.is_finite() {
        return Err(format!("--anchor {text}: the Elo must be a finite number"));
    }
    Ok((name.trim().to_string(), elo))
}

/// The settings of a spec that do not depend on the game, checked.
struct Common {
    entries: Vec<Entry>,
    limit: Option<TimeControl>,
    margin: std::time::Duration,
    anchor: Option<(String, f64)>,
    gauntlet: Option<usize>,
    game: AnyGame,
}

fn common(a: &TournamentSpec) -> Result<Common, String> {
    let entries = gather(a)?;
    if entries.is_empty() {
        return Err("no players: give --player NAME=SPEC (twice or more), --players FILE or --engines DIR".into());
    }
    a.play.check()?;
    let limit = a.play.limit()?;
    let margin = a.play.margin()?;
    let anchor = a.anchor.as_deref().map(parse_anchor).transpose()?;
    if a.resume && a.results.is_none() {
        return Err("--resume needs --results FILE (the results of the tournament to continue)".into());
    }
    let gauntlet = match &a.gauntlet {
        Some(name) => Some(entries.iter().position(|e| &e.name == name).ok_or_else(|| {
            let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
            format!("--gauntlet {name}: no such player (players: {})", names.join(", "))
        })?),
        None => None,
    };
    let game = AnyGame::parse(&a.game).map_err(|e| e.to_string())?;
    Ok(Common { entries, limit, margin, anchor, gauntlet, game })
}

/// The tournament of the spec `a` on game `g`.
fn config<G: FullGame>(g: &G, a: &TournamentSpec, c: &Common, progress: bool) -> Result<TournamentConfig<G>, String> {
    let openings = a.play.openings(g)?;
    let rounds = a.rounds.unwrap_or(match &openings {
        crate::arena::openings::Openings::List(list) => list.len(),
        _ => 1,
    });
    let schedule = match c.gauntlet {
        Some(player) => Schedule::Gauntlet { player, rounds },
        None => Schedule::RoundRobin { rounds },
    };
    Ok(TournamentConfig {
        entries: c.entries.clone(),
        schedule,
        limit: c.limit,
        concurrency: a.play.concurrency.max(1),
        openings,
        record: a.play.record.clone(),
        results: a.results.clone(),
        resume: a.resume,
        adjudicate: !a.play.no_adjudicate,
        max_plies: a.play.max_plies,
        margin: c.margin,
        progress,
        seed: a.play.seed,
        anchor: c.anchor.clone(),
    })
}

/// Play the tournament of `spec`: everything `plateau tournament` does before printing, its summary returned
/// (`plateau tournament --json`'s document). `progress_bar` draws indicatif's bar on stderr; `on_game` sees every
/// finished game. Errors are one line.
pub(crate) fn run_tournament_spec(
    spec: &TournamentSpec,
    progress_bar: bool,
    on_game: &mut dyn FnMut(&GameResult),
) -> Result<TournamentSummary, String> {
    let c = common(spec)?;
    with_game!(&c.game, g => {
        let cfg = config(g, spec, &c, progress_bar)?;
        run_tournament(g, &cfg, on_game)
    })
}

/// `plateau tournament`'s flags alone (the words after `tournament`), for [`load`].
#[derive(Parser, Debug)]
#[command(name = "plateau tournament")]
struct Standalone {
    #[command(flatten)]
    args: TournamentCommand,
}

/// A tournament loaded from `plateau tournament`'s very words (after `tournament`), for another driver of its jobs
/// (the Ray cluster's, through the Python bindings), with the flags that say how to report.
pub struct LoadedTournament {
    pub jobs: Box<dyn TournamentJobs>,
    /// `--json`, `--verbose`, `--resume` as given.
    pub json: bool,
    pub verbose: bool,
    pub resume: bool,
    /// Whether `--results FILE` was given.
    pub has_results: bool,
}

/// Parse and check `plateau tournament`'s words (after `tournament`) as the command does before its first game.
/// Errors are the command's one line.
pub fn load(words: &[String]) -> Result<LoadedTournament, String> {
    let parsed: Standalone = crate::spec::parse_words("tournament", words)?;
    let TournamentCommand { spec: a, json, verbose, ray } = parsed.args;
    if ray.is_some() {
        return Err("--ray is plateau tournament's own flag (the cluster driver takes --address)".into());
    }
    let c = common(&a).map_err(|e| one_line(&e))?;
    let jobs: Box<dyn TournamentJobs> = with_game!(&c.game, g => {
        let cfg = config(g, &a, &c, false).map_err(|e| one_line(&e))?;
        // Some games are Copy, others only Clone.
        #[allow(clippy::clone_on_copy)]
        let owned = g.clone();
        Box::new(jobs::load(owned, cfg)?)
    });
    Ok(LoadedTournament { jobs, json, verbose, resume: a.resume, has_results: a.results.is_some() })
}
