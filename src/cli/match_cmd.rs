//! `plateau match`: N games between two players, W/L/D, Elo with its 95% error, SPRT, game records.

use std::path::PathBuf;

use clap::Args;

use crate::arena::openings::{Openings, parse_openings};
use crate::arena::record::GameRecord;
use crate::arena::resume::resume_match;
use crate::arena::stats::Sprt;
use crate::arena::{MatchConfig, MatchSummary, parse_tc, run_match};
use crate::game::FullGame;
use crate::games::AnyGame;
use crate::games::with_game;
use crate::search::TimeControl;
use crate::spec::parse_duration;

#[derive(Args, Debug)]
#[command(after_help = crate::players::listing::help())]
pub struct MatchArgs {
    /// The game string.
    #[arg(default_value = "breakthrough")]
    game: String,
    /// A player string, given twice (A then B): `alphabeta(time=1s)`, `random`, `uci(cmd=PATH,variant=breakthrough)`,
    /// `ugi(cmd=...)`.
    #[arg(long = "player", num_args = 1)]
    players: Vec<String>,
    /// Number of games.
    #[arg(long, default_value_t = 10, value_parser = super::parse_games)]
    games: usize,
    /// Fixed time per move for both players (`100ms`, `1s`).
    #[arg(long, conflicts_with = "tc")]
    movetime: Option<String>,
    /// Clock for both players: base+increment (`10s+0.1s`).
    #[arg(long)]
    tc: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = super::parse_threads)]
    concurrency: usize,
    /// Openings file: one position text or move list per line.
    #[arg(long, conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Random plies played from the start to make each opening (default 2, or 0 for games with chance or simultaneous
    /// moves; 0 = start position only).
    #[arg(long)]
    random_plies: Option<u32>,
    /// Seed of every random thing: the random openings, the chance draws, and the moves of players that draw at
    /// random (`random`, `mcts`, ...): the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Sequential test: `elo0=0,elo1=10,alpha=0.05,beta=0.05`; the match stops when it decides.
    #[arg(long)]
    sprt: Option<String>,
    /// Append every finished game to this file (PGN-style). An existing file is appended to.
    #[arg(long, visible_alias = "pgn")]
    record: Option<PathBuf>,
    /// Continue the match whose games the --record file holds: keep them, play only the missing game numbers (a
    /// missing or empty file: start from scratch).
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
    /// Player A moves first in every game (each game its own opening); default: colours alternate, each opening
    /// played once with each player first.
    #[arg(long)]
    fixed_colours: bool,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Print one line per finished game on stderr.
    #[arg(long)]
    verbose: bool,
}

pub fn run(a: MatchArgs) -> anyhow::Result<()> {
    if a.players.len() != 2 {
        anyhow::bail!("give exactly two players: --player A --player B ({} given)", a.players.len());
    }
    let limit = match (&a.movetime, &a.tc) {
        (Some(m), _) => Some(TimeControl::MoveTime(parse_duration(m).map_err(|e| anyhow::anyhow!("--movetime: {e}"))?)),
        (None, Some(tc)) => Some(parse_tc(tc).map_err(anyhow::Error::msg)?),
        (None, None) => None,
    };
    let margin = parse_duration(&a.margin).map_err(|e| anyhow::anyhow!("--margin: {e}"))?;
    let sprt = a.sprt.as_deref().map(Sprt::parse).transpose().map_err(anyhow::Error::msg)?;
    if a.resume && a.record.is_none() {
        anyhow::bail!("--resume needs --record FILE (the record of the match to continue)");
    }
    let any = AnyGame::parse(&a.game)?;
    let verbose = a.verbose;
    let summary: MatchSummary = with_game!(&any, g => {
        let openings = match (&a.openings, a.random_plies) {
            (Some(path), _) => {
                let text = crate::files::read_text(path, crate::files::MAX_TEXT, "--openings")
                    .map_err(anyhow::Error::msg)?;
                Openings::List(parse_openings(g, &text).map_err(anyhow::Error::msg)?)
            }
            (None, Some(0)) => Openings::Start,
            (None, p) => {
                Openings::Random { plies: p.unwrap_or(default_plies(g)), seed: a.seed }
            }
        };
        let cfg = MatchConfig {
            players: [a.players[0].clone(), a.players[1].clone()],
            games: a.games,
            limit,
            concurrency: a.concurrency.max(1),
            openings,
            sprt,
            record: a.record.clone(),
            adjudicate: !a.no_adjudicate,
            max_plies: a.max_plies,
            margin,
            progress: !verbose,
            seed: a.seed,
            fixed_colours: a.fixed_colours,
        };
        let show = |r: &GameRecord| {
            if verbose {
                eprintln!(
                    "game {:>4}  {} - {}  {}  {} plies  {}",
                    r.round, r.first, r.second, r.result_text(), r.moves.len(), r.termination
                );
            }
        };
        if let Some(rec) = &cfg.record {
            // Each game is appended and flushed when it ends: a signal keeps them all (docs/reliability.md).
            crate::limits::exit_on_interrupt(&format!(
                "the finished games are in {}; the same command with --resume plays the rest",
                rec.display()
            ));
        }
        let summary = if a.resume { resume_match(g, &cfg, show) } else { run_match(g, &cfg, show) };
        summary.map_err(anyhow::Error::msg)?
    });
    if a.json {
        super::print_json(&serde_json::to_value(&summary)?);
    } else {
        print_summary(&summary);
    }
    Ok(())
}

/// Random opening plies by default: 2, or none where the first plies are coin tosses or joint moves that the
/// players should play themselves.
fn default_plies<G: FullGame>(_game: &G) -> u32 {
    if G::KIND.chance || G::KIND.simultaneous { 0 } else { 2 }
}

fn print_summary(s: &MatchSummary) {
    println!("{}: A = {} vs B = {} ({})", s.game, s.player_a, s.player_b, s.time_control);
    // What each plays under, when its own limits add to the match's time control.
    for (who, under) in [("A", &s.limits_a), ("B", &s.limits_b)] {
        if *under != s.time_control {
            println!("{who} plays under: {under}");
        }
    }
    println!(
        "openings: {}; {}",
        s.openings,
        if s.fixed_colours { "A moves first in every game" } else { "colours alternate (each opening with both)" }
    );
    println!(
        "games {}  A wins {}  B wins {}  draws {}  score {:.1}%",
        s.games,
        s.wins_a,
        s.wins_b,
        s.draws,
        100.0 * s.score
    );
    if s.resumed_games > 0 {
        println!(
            "  of which {} from the record file (--resume), {} played now",
            s.resumed_games,
            s.games - s.resumed_games
        );
    }
    for c in s.by_colour.iter().filter(|c| c.games > 0) {
        println!(
            "  {} games with {} first: A wins {}  B wins {}  draws {}",
            c.games, c.first, c.wins_a, c.wins_b, c.draws
        );
    }
    println!("game length: min {}  max {}  mean {:.1} plies", s.length.min, s.length.max, s.length.mean);
    match (s.elo, s.elo_error) {
        (Some(e), Some(err)) => println!("elo {e:+.1} +- {err:.1} (95%)"),
        (Some(e), None) => println!("elo {e:+.1} (error unbounded)"),
        (None, _) => println!(
            "elo {} (a {:.0}% score has no finite Elo)",
            if s.score > 0.5 { "+inf" } else { "-inf" },
            100.0 * s.score
        ),
    }
    if let Some(st) = &s.sprt {
        println!(
            "sprt elo0={} elo1={} alpha={} beta={}: llr {:.2} after {} games [{:.2}, {:.2}] -> {}{}",
            st.elo0,
            st.elo1,
            st.alpha,
            st.beta,
            st.llr,
            st.games,
            st.lower,
            st.upper,
            st.result,
            if s.stopped_early { " (stopped early)" } else { "" }
        );
    }
    if s.adjudicated > 0 {
        println!("adjudicated (won races): {}", s.adjudicated);
    }
    println!("longest move: A {} ms, B {} ms   ({:.1} s)", s.max_move_ms[0], s.max_move_ms[1], s.seconds);
    println!(
        "mean move: A {:.1} ms over {} moves, B {:.1} ms over {} moves; time forfeits: {}",
        s.mean_move_ms[0], s.moves_timed[0], s.mean_move_ms[1], s.moves_timed[1], s.time_forfeits
    );
    for f in &s.failures {
        println!("{f}");
    }
}
