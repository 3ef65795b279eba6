//! The end of `plateau play`: who won (in the game's words), the moves played, and the record saved on request.

use std::io::Write;
use std::path::Path;

use crate::game::{FullGame, MoveList, Outcome, Side};

/// The move text that leads from `a` to `b` (a move, a chance outcome, or a joint move `x/y`), if any.
pub(crate) fn move_between<G: FullGame>(g: &G, a: &G::State, b: &G::State) -> Option<String> {
    let mut moves = MoveList::new();
    g.generate_moves(a, &mut moves);
    for &m in &moves {
        let mut t = *a;
        g.play(&mut t, m);
        if t == *b {
            return Some(g.format_move(a, m));
        }
    }
    let (mut x, mut y) = (MoveList::new(), MoveList::new());
    g.player_moves(a, Side::First, &mut x);
    g.player_moves(a, Side::Second, &mut y);
    for &m in &x {
        for &n in &y {
            let mut t = *a;
            g.play_joint(&mut t, m, n);
            if t == *b {
                return Some(format!("{}/{}", g.format_move(a, m), g.format_move(a, n)));
            }
        }
    }
    None
}

/// The moves of a game from its states.
pub(crate) fn moves_of_history<G: FullGame>(g: &G, history: &[G::State]) -> Vec<String> {
    history.windows(2).map(|w| move_between(g, &w[0], &w[1]).unwrap_or_else(|| "?".into())).collect()
}

/// Print the summary of a finished game and append it to `record` when asked (an abandoned game is not saved).
pub fn summary<G: FullGame>(
    g: &G,
    history: &[G::State],
    players: &[String; 2],
    record: Option<&Path>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let Some(last) = history.last() else { return Ok(()) };
    let Some(o) = g.outcome(last) else { return Ok(()) };
    let stm = g.side_to_move(last);
    let (winner, result) = match o {
        Outcome::Win => (Some(stm), if stm == Side::First { "1-0" } else { "0-1" }),
        Outcome::Loss => (Some(stm.other()), if stm == Side::First { "0-1" } else { "1-0" }),
        Outcome::Value(v) if v > 0 => (Some(stm), if stm == Side::First { "1-0" } else { "0-1" }),
        Outcome::Value(v) if v < 0 => (Some(stm.other()), if stm == Side::First { "0-1" } else { "1-0" }),
        _ => (None, "1/2-1/2"),
    };
    let who = |p: Side| players[p.index()].clone();
    let words = match winner {
        Some(w) => super::winner_words(g, stm, if w == stm { "win" } else { "loss" }),
        None => "neither player wins".into(),
    };
    let winner_who = winner.map(|w| format!(" ({})", who(w))).unwrap_or_default();
    let moves = moves_of_history(g, history);
    writeln!(out, "result: {result}, {words}{winner_who}")?;
    writeln!(out, "moves ({}): {}", moves.len(), moves.join(" "))?;
    if let Some(path) = record {
        let text = format!(
            "[Game \"{}\"]\n[First \"{}\"]\n[Second \"{}\"]\n[Result \"{result}\"]\n[Winner \"{words}\"]\n\n{} {result}\n\n",
            g.spec(),
            who(Side::First),
            who(Side::Second),
            moves.join(" ")
        );
        let mut f = crate::files::append(path, "--record").map_err(std::io::Error::other)?;
        f.write_all(text.as_bytes())?;
        writeln!(out, "game saved to {}", path.display())?;
    }
    Ok(())
}
