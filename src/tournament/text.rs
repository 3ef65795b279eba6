//! The text of a tournament: its summary as `plateau tournament` prints it ([`summary_text`]: the standings with
//! their ratings, the crosstable, the failures) and `--verbose`'s line of a finished game ([`game_line`]), shared by
//! the command line and the Python bindings' cluster driver.

use super::standings::crosstable_text;
use super::{GameResult, TournamentSummary};

/// `writeln!` into a String (cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

/// `--verbose`'s line of a finished game.
pub fn game_line(r: &GameResult) -> String {
    format!("game {:>5}  {} - {}  {}  {} plies  {}", r.id, r.white, r.black, r.result, r.plies, r.termination)
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
