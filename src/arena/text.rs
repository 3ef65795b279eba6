//! `plateau match`'s summary as text: what the command prints after the games (and the cluster driver of the Python
//! package, `python -m plateau.cluster match`, prints the same).

use std::fmt::Write;

use super::MatchSummary;

/// `writeln!` into a `String` (which cannot fail).
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

/// The summary as `plateau match` prints it.
pub fn summary_text(s: &MatchSummary) -> String {
    let mut out = String::new();
    say!(out, "{}: A = {} vs B = {} ({})", s.game, s.player_a, s.player_b, s.time_control);
    // What each plays under, when its own limits add to the match's time control.
    for (who, under) in [("A", &s.limits_a), ("B", &s.limits_b)] {
        if *under != s.time_control {
            say!(out, "{who} plays under: {under}");
        }
    }
    say!(
        out,
        "openings: {}; {}",
        s.openings,
        if s.fixed_colours { "A moves first in every game" } else { "colours alternate (each opening with both)" }
    );
    say!(
        out,
        "games {}  A wins {}  B wins {}  draws {}  score {:.1}%",
        s.games,
        s.wins_a,
        s.wins_b,
        s.draws,
        100.0 * s.score
    );
    if s.resumed_games > 0 {
        say!(
            out,
            "  of which {} from the record file (--resume), {} played now",
            s.resumed_games,
            s.games - s.resumed_games
        );
    }
    for c in s.by_colour.iter().filter(|c| c.games > 0) {
        say!(
            out,
            "  {} games with {} first: A wins {}  B wins {}  draws {}",
            c.games,
            c.first,
            c.wins_a,
            c.wins_b,
            c.draws
        );
    }
    say!(out, "game length: min {}  max {}  mean {:.1} plies", s.length.min, s.length.max, s.length.mean);
    match (s.elo, s.elo_error) {
        (Some(e), Some(err)) => say!(out, "elo {e:+.1} +- {err:.1} (95%)"),
        (Some(e), None) => say!(out, "elo {e:+.1} (error unbounded)"),
        (None, _) => say!(
            out,
            "elo {} (a {:.0}% score has no finite Elo)",
            if s.score > 0.5 { "+inf" } else { "-inf" },
            100.0 * s.score
        ),
    }
    if let Some(st) = &s.sprt {
        say!(
            out,
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
        say!(out, "adjudicated (won races): {}", s.adjudicated);
    }
    say!(out, "longest move: A {} ms, B {} ms   ({:.1} s)", s.max_move_ms[0], s.max_move_ms[1], s.seconds);
    say!(
        out,
        "mean move: A {:.1} ms over {} moves, B {:.1} ms over {} moves; time forfeits: {}",
        s.mean_move_ms[0],
        s.moves_timed[0],
        s.mean_move_ms[1],
        s.moves_timed[1],
        s.time_forfeits
    );
    for f in &s.failures {
        say!(out, "{f}");
    }
    out
}
