//! `plateau tournament`: many players, round robin or gauntlet, standings with maximum-likelihood ratings
//! (`src/tournament/`, `docs/tournament.md`).

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, Parser};

use crate::arena::openings::{Openings, parse_openings};
use crate::arena::parse_tc;
use crate::game::FullGame;
use crate::games::{AnyGame, with_game};
use crate::search::TimeControl;
use crate::spec::parse_duration;
use crate::tournament::jobs::{self, TournamentJobs};
use crate::tournament::standings::crosstable_text;
use crate::tournament::{Entry, GameResult, Schedule, TournamentConfig, TournamentSummary, entries, run_tournament};

/// `writeln!` into a String (cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// The game string.
    #[arg(default_value = "breakthrough")]
    game: String,
    /// A player, `NAME=SPEC` or a bare player string (named after it); repeat for each player.
    #[arg(long = "player", num_args = 1)]
    players: Vec<String>,
    /// A players file (TOML, or JSON when it ends in .json): per entry a name and a player string or an engine's
    /// cmd with its protocol and options, and an optional clock `tc`.
    #[arg(long = "players")]
    players_file: Option<PathBuf>,
    /// A folder of engines: each executable file is one player, named after the file.
    #[arg(long)]
    engines: Option<PathBuf>,
    /// The protocol of the --engines folder's engines: uci or ugi.
    #[arg(long, default_value = "uci")]
    engines_protocol: String,
    /// Rounds: each round every pair plays one opening with both colours (default 1, or the number of openings of
    /// --openings).
    #[arg(long, value_parser = super::parse_games)]
    rounds: Option<usize>,
    /// One player (by name) against the field instead of a round robin.
    #[arg(long)]
    gauntlet: Option<String>,
    /// Fixed time per move for every player (`100ms`, `1s`).
    #[arg(long, conflicts_with = "tc")]
    movetime: Option<String>,
    /// Clock for every player without its own: base+increment (`10s+0.1s`).
    #[arg(long)]
    tc: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = super::parse_threads)]
    concurrency: usize,
    /// Openings file: one position text or move list per line; round r plays line r (cycling).
    #[arg(long, conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Random plies played from the start to make each round's opening (default 2, or 0 for games with chance or
    /// simultaneous moves; 0 = start position only).
    #[arg(long)]
    random_plies: Option<u32>,
    /// Seed of every random thing: the random openings, the chance draws, and the moves of players that draw at
    /// random (`random`, `mcts`, ...): the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append every game to this file (PGN-style, as `match --record`).
    #[arg(long, visible_alias = "pgn")]
    record: Option<PathBuf>,
    /// Append one JSON line per finished game to this file (the file --resume continues).
    #[arg(long)]
    results: Option<PathBuf>,
    /// Continue the tournament of the --results file: play only the games it does not hold.
    #[arg(long)]
    resume: bool,
    /// Do not adjudicate won races.
    #[arg(long)]
    no_adjudicate: bool,
    /// Tolerance over the time limit before a move loses on time.
    #[arg(long, default_value = "100ms")]
    margin: String,
    /// Games longer than this many plies are drawn.
    #[arg(long, default_value_t = 1000, value_parser = super::parse_max_plies)]
    max_plies: usize,
    /// Anchor the ratings: `NAME=ELO` (default: the ratings average 0).
    #[arg(long)]
    anchor: Option<String>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Print one line per finished game on stderr.
    #[arg(long)]
    verbose: bool,
    /// Run the tournament on the Ray cluster at ADDRESS (`auto`, `ray://host:10001`, `local` for a fresh local
    /// one): runs `python3 -m plateau.cluster tournament` with the other flags (docs/cluster.md).
    #[arg(long, value_name = "ADDRESS")]
    ray: Option<String>,
}

/// The players of every source, in order: `--player`s, then the file's, then the folder's.
fn gather(a: &TournamentArgs) -> anyhow::Result<Vec<Entry>> {
    let mut out = Vec::new();
    for p in &a.players {
        out.push(Entry::from_arg(p).map_err(anyhow::Error::msg)?);
    }
    if let Some(path) = &a.players_file {
        out.extend(entries::read_players_file(path).map_err(anyhow::Error::msg)?);
    }
    if let Some(dir) = &a.engines {
        out.extend(entries::engines_in(dir, &a.engines_protocol).map_err(anyhow::Error::msg)?);
    }
    Ok(out)
}

fn parse_anchor(text: &str) -> anyhow::Result<(String, f64)> {
    let (name, elo) =
        text.rsplit_once('=').ok_or_else(|| anyhow::anyhow!("--anchor {text}: give NAME=ELO (e.g. random=0)"))?;
    let elo: f64 = elo.trim().parse().map_err(|_| anyhow::anyhow!("--anchor {text}: '{elo}' is not a number"))?;
    if !elo.is_finite() {
        anyhow::bail!("--anchor {text}: the Elo must be a finite number");
    }
    Ok((name.trim().to_string(), elo))
}

/// The settings of `a` that do not depend on the game.
struct Common {
    entries: Vec<Entry>,
    limit: Option<TimeControl>,
    margin: std::time::Duration,
    anchor: Option<(String, f64)>,
    gauntlet: Option<usize>,
    game: AnyGame,
}

fn common(a: &TournamentArgs) -> anyhow::Result<Common> {
    let entries = gather(a)?;
    if entries.is_empty() {
        anyhow::bail!("no players: give --player NAME=SPEC (twice or more), --players FILE or --engines DIR");
    }
    let limit = match (&a.movetime, &a.tc) {
        (Some(m), _) => Some(TimeControl::MoveTime(parse_duration(m).map_err(|e| anyhow::anyhow!("--movetime: {e}"))?)),
        (None, Some(tc)) => Some(parse_tc(tc).map_err(anyhow::Error::msg)?),
        (None, None) => None,
    };
    let margin = parse_duration(&a.margin).map_err(|e| anyhow::anyhow!("--margin: {e}"))?;
    let anchor = a.anchor.as_deref().map(parse_anchor).transpose()?;
    if a.resume && a.results.is_none() {
        anyhow::bail!("--resume needs --results FILE (the results of the tournament to continue)");
    }
    let gauntlet = match &a.gauntlet {
        Some(name) => Some(entries.iter().position(|e| &e.name == name).ok_or_else(|| {
            let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
            anyhow::anyhow!("--gauntlet {name}: no such player (players: {})", names.join(", "))
        })?),
        None => None,
    };
    Ok(Common { entries, limit, margin, anchor, gauntlet, game: AnyGame::parse(&a.game)? })
}

/// The tournament of the flags `a` on game `g`.
fn config<G: FullGame>(g: &G, a: &TournamentArgs, c: &Common, progress: bool) -> anyhow::Result<TournamentConfig<G>> {
    let openings = match (&a.openings, a.random_plies) {
        (Some(path), _) => {
            let text =
                crate::files::read_text(path, crate::files::MAX_TEXT, "openings file").map_err(anyhow::Error::msg)?;
            Openings::List(parse_openings(g, &text).map_err(anyhow::Error::msg)?)
        }
        (None, Some(0)) => Openings::Start,
        (None, p) => Openings::Random { plies: p.unwrap_or(default_plies(g)), seed: a.seed },
    };
    let rounds = a.rounds.unwrap_or(match &openings {
        Openings::List(list) => list.len(),
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
        concurrency: a.concurrency.max(1),
        openings,
        record: a.record.clone(),
        results: a.results.clone(),
        resume: a.resume,
        adjudicate: !a.no_adjudicate,
        max_plies: a.max_plies,
        margin: c.margin,
        progress,
        seed: a.seed,
        anchor: c.anchor.clone(),
    })
}

/// `plateau tournament`'s flags alone (the words after `tournament`), for [`load`].
#[derive(Parser, Debug)]
#[command(name = "plateau tournament")]
struct Standalone {
    #[command(flatten)]
    args: TournamentArgs,
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
    let parsed =
        Standalone::try_parse_from(std::iter::once("plateau tournament".to_string()).chain(words.iter().cloned()))
            .map_err(|e| crate::game::one_line(super::usage_line(&e).trim_start_matches("error: ")))?;
    let a = parsed.args;
    if a.ray.is_some() {
        return Err("--ray is plateau tournament's own flag (the cluster driver takes --address)".into());
    }
    let c = common(&a).map_err(|e| crate::game::one_line(&format!("{e:#}")))?;
    let jobs: Box<dyn TournamentJobs> = with_game!(&c.game, g => {
        let cfg = config(g, &a, &c, false).map_err(|e| crate::game::one_line(&format!("{e:#}")))?;
        // Some games are Copy, others only Clone.
        #[allow(clippy::clone_on_copy)]
        let owned = g.clone();
        Box::new(jobs::load(owned, cfg)?)
    });
    Ok(LoadedTournament { jobs, json: a.json, verbose: a.verbose, resume: a.resume, has_results: a.results.is_some() })
}

pub fn run(a: TournamentArgs) -> anyhow::Result<()> {
    if let Some(address) = &a.ray {
        return run_on_ray(address);
    }
    let c = common(&a)?;
    let verbose = a.verbose;
    let progress = !verbose && !a.json && std::io::stderr().is_terminal();
    let summary: TournamentSummary = with_game!(&c.game, g => {
        let cfg = config(g, &a, &c, progress)?;
        if let Some(results) = &a.results {
            // One line per finished game, flushed as it ends: a signal keeps them all (docs/reliability.md).
            crate::limits::exit_on_interrupt(&format!(
                "the finished games are in {}; the same command with --resume plays the rest",
                results.display()
            ));
        }
        let show = |r: &GameResult| {
            if verbose {
                eprintln!("{}", game_line(r));
            }
        };
        run_tournament(g, &cfg, show).map_err(anyhow::Error::msg)?
    });
    if a.json {
        super::print_json(&serde_json::to_value(&summary)?);
    } else {
        print!("{}", summary_text(&summary));
    }
    Ok(())
}

/// `--verbose`'s line of a finished game.
pub fn game_line(r: &GameResult) -> String {
    format!("game {:>5}  {} - {}  {}  {} plies  {}", r.id, r.white, r.black, r.result, r.plies, r.termination)
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

/// Random opening plies by default: 2, or none where the first plies are coin tosses or joint moves.
fn default_plies<G: FullGame>(_game: &G) -> u32 {
    if G::KIND.chance || G::KIND.simultaneous { 0 } else { 2 }
}

/// The summary as `plateau tournament` prints it.
pub fn summary_text(s: &TournamentSummary) -> String {
    let mut out = String::new();
    outln!(
        out,
        "{}: {} of {} players ({}); openings: {}",
        s.game,
        s.schedule,
        s.players.len(),
        s.time_control,
        s.openings
    );
    for p in s.players.iter().filter(|p| p.plays_under != s.time_control) {
        outln!(out, "  {} plays under: {}", p.name, p.plays_under);
    }
    outln!(
        out,
        "games {} of {} finished{}   ({:.1} s)",
        s.finished,
        s.games,
        if s.resumed_games > 0 {
            format!(", {} of them from the results file (--resume)", s.resumed_games)
        } else {
            String::new()
        },
        s.seconds
    );
    out.push('\n');
    outln!(
        out,
        "{:>4}  {:<24} {:>8} {:>7} {:>6} {:>7} {:>6} {:>6}  failures",
        "rank",
        "name",
        "elo",
        "+-95%",
        "games",
        "points",
        "score",
        "los"
    );
    for r in &s.standings.standings {
        let elo = r.elo.map_or("-".to_string(), |e| format!("{e:+.1}"));
        let err = r.elo_error.map_or("-".to_string(), |e| format!("{e:.1}"));
        let los = r.los_next.map_or(String::new(), |l| format!("{:.1}%", 100.0 * l));
        outln!(
            out,
            "{:>4}  {:<24} {:>8} {:>7} {:>6} {:>7} {:>5.1}% {:>6}  {}",
            r.rank,
            r.name,
            elo,
            err,
            r.games,
            r.points,
            100.0 * r.score,
            los,
            if r.failures > 0 { r.failures.to_string() } else { String::new() }
        );
    }
    let m = &s.standings.rating;
    let anchor = match &m.anchor {
        Some((name, elo)) => format!("anchored at {name} = {elo}"),
        None => "mean 0".into(),
    };
    outln!(
        out,
        "ratings: {}; {anchor}{}",
        m.method,
        if m.virtual_draws > 0 {
            format!("; {} virtual draw between every two players (some scores were perfect)", m.virtual_draws)
        } else {
            String::new()
        }
    );
    outln!(out, "los: likelihood that a player is stronger than the next one in the ranking");
    out.push('\n');
    outln!(out, "crosstable (points/games of the row against the column):");
    out += &crosstable_text(&s.standings);
    if !s.standings.failures.is_empty() {
        out.push('\n');
        outln!(out, "failures:");
        for f in &s.standings.failures {
            outln!(out, "  {}: game {}: {}", f.player, f.game, f.reason);
        }
    }
    out
}
