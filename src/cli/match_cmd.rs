//! `plateau match`: N games between two players, W/L/D, Elo with its 95% error, SPRT, game records.

use clap::Args;

use crate::arena::MatchSummary;
use crate::arena::record::GameRecord;
use crate::arena::spec::{MatchProgress, MatchSpec, game_line, run_match_spec};

#[derive(Args, Debug)]
#[command(after_help = crate::players::listing::help())]
pub struct MatchArgs {
    #[command(flatten)]
    spec: MatchSpec,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Print one line per finished game on stderr.
    #[arg(long)]
    verbose: bool,
}

pub fn run(a: MatchArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let verbose = a.verbose;
    let mut show = |r: &GameRecord| {
        if verbose {
            eprintln!("{}", game_line(r));
        }
    };
    if let Some(rec) = &a.spec.play.record {
        // Each game is appended and flushed when it ends: a signal keeps them all (docs/reliability.md).
        crate::limits::exit_on_interrupt(&format!(
            "the finished games are in {}; the same command with --resume plays the rest",
            rec.display()
        ));
    }
    let summary = run_match_spec(&a.spec, MatchProgress { progress_bar: !verbose, on_game: &mut show })
        .map_err(anyhow::Error::msg)?;
    if a.json {
        out.json(serde_json::to_value(&summary)?);
    } else {
        print_summary(&summary);
    }
    Ok(())
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
