//! `plateau match ... --record FILE --resume`: continue an interrupted match. The games of this match already in the
//! record file are kept and counted; only the missing game numbers are played, each with the opening and colours its
//! number gives, so the resumed match plays exactly the games an uninterrupted one would have played.
//!
//! ```text
//! resume(match M, FILE):
//!     no FILE, or an empty one: play M from the start
//!     FILE a symbolic link, a device, a directory: a one-line error (crate::files::check_output)
//!     read every whole game of FILE; every line must belong to a game block, and what follows the last whole game
//!         must be a block of this game cut short (it starts as `[Event "plateau match"]` does): anything else is a
//!         one-line error and FILE is left byte for byte as it was (a text file is not "repaired")
//!     each game g must be one of M's: its number in 1..N, once; game, players by colour, time control, opening
//!         (FEN and moves) as M gives them for that number; the match tags (seed, openings, colours, adjudication,
//!         ply limit, margin) equal M's. Anything else: a one-line error, nothing played, the file untouched
//!     only then is the block cut short cut off the file (rewritten atomically: crate::files::replace); that game is
//!         played again
//!     the totals and the SPRT count the file's games first, in the file's order (the order they finished);
//!     an SPRT the file already decides: nothing is played
//!     play the missing numbers, appending to FILE
//! ```
//!
//! Files written before these tags existed (no `[Seed]`) are checked by game, players, time control and openings;
//! their move times are read back by replaying the moves (sequential games only).

use std::collections::HashSet;
use std::path::Path;

use crate::game::{FullGame, Side};

use super::openings::Opening;
use super::record::{GameRecord, ReadGame, read_record_to_continue};
use super::{MatchConfig, MatchSummary, check_players, describe_limit, play_match};

/// The tags every record block of a match carries besides the game's own: with [`Game`, the players by colour,
/// `TimeControl`, `Opening`/`FEN`] they identify the match (`--games` and `--sprt` do not: a resumed match may be
/// longer, or tested with other bounds).
pub(crate) fn match_tags<G: FullGame>(cfg: &MatchConfig<G>) -> Vec<(String, String)> {
    let tags = [
        ("Seed", cfg.seed.to_string()),
        ("Openings", cfg.openings.describe()),
        ("Colours", if cfg.fixed_colours { "A first".into() } else { "alternate".into() }),
        ("Adjudicate", if cfg.adjudicate { "yes".into() } else { "no".into() }),
        ("MaxPlies", cfg.max_plies.to_string()),
        ("Margin", format!("{:?}", cfg.margin)),
    ];
    tags.into_iter().map(|(n, v)| (n.to_string(), v)).collect()
}

/// Run `cfg` as the continuation of the match in its record file (`cfg.record`, required).
pub(crate) fn resume_match<G: FullGame>(
    game: &G,
    cfg: &MatchConfig<G>,
    on_record: impl FnMut(&GameRecord),
) -> Result<MatchSummary, String> {
    let done = read_back(game, cfg)?;
    let summary = play_match(game, cfg, &done, on_record)?;
    let played = summary.games - done.len() as u64;
    match &summary.sprt {
        Some(st) if played == 0 && st.result != "continue" && !done.is_empty() => eprintln!(
            "the record file already decides the SPRT ({} after {} games, llr {:.2}): no game played",
            st.result, st.games, st.llr
        ),
        _ if played == 0 && !done.is_empty() => {
            eprintln!("the record file already holds the {} games: no game played", done.len())
        }
        _ => {}
    }
    Ok(summary)
}

/// The games of the match `cfg` its record file (`cfg.record`, required) holds, checked (see the module
/// documentation), in the file's order; a block cut short at its end is cut off the file.
pub(crate) fn read_back<G: FullGame>(game: &G, cfg: &MatchConfig<G>) -> Result<Vec<GameRecord>, String> {
    let path = cfg.record.as_deref().ok_or("--resume needs --record FILE (the record of the match to continue)")?;
    let shown = path.display();
    crate::files::check_output(path, "record file")?;
    let text = match crate::files::read_if_any(path, crate::files::MAX_DATA, "record file")? {
        Some(bytes) => String::from_utf8(bytes).map_err(|_| format!("record file {shown} is not text (damaged?)"))?,
        None => String::new(),
    };
    let (games, end) = read_record_to_continue(&text, &game.spec()).map_err(|e| format!("record file {shown}: {e}"))?;
    let (names, _) = check_players::<G>(&cfg.players, &cfg.limit).map_err(|e| e.to_string())?;
    let mut seen = HashSet::new();
    let mut done = Vec::with_capacity(games.len());
    for g in &games {
        if !seen.insert(g.round) {
            return Err(format!(
                "record file {shown}: game {} is there twice (two runs appended to one file?); resume from a file \
                 with one run",
                g.round
            ));
        }
        done.push(recorded(game, cfg, &names, g).map_err(|e| format!("record file {shown}: {e}"))?);
    }
    if games.iter().any(|g| g.tag("Seed").is_none()) {
        eprintln!(
            "note: record file {shown} has games written before --resume existed: they are checked by game, players, \
             time control and openings only"
        );
    }
    if !text[end..].trim().is_empty() {
        cut_tail(path, &text[..end])?;
        eprintln!("note: record file {shown}: a game cut short at its end was removed (it is played again)");
    }
    Ok(done)
}

/// A record block (as a worker of the job-level match wrote it) read and checked as `--resume` checks the file's
/// games: game `n` of `cfg`'s match with its players, opening, time control and tags.
pub(crate) fn check_block<G: FullGame>(
    game: &G,
    cfg: &MatchConfig<G>,
    names: &[String; 2],
    block: &str,
) -> Result<GameRecord, String> {
    let (games, end) = read_record_to_continue(block, &game.spec())?;
    match games.as_slice() {
        [g] if block[end..].trim().is_empty() => recorded(game, cfg, names, g),
        _ => Err(format!("not one whole game's record block ({} games)", games.len())),
    }
}

/// Rewrite the file as `kept` (its text up to the end of its last whole game) and the blank line that separates
/// blocks, atomically ([`crate::files::replace`]: a failure leaves the file as it was).
fn cut_tail(path: &Path, kept: &str) -> Result<(), String> {
    let mut text = kept.to_string();
    if !text.is_empty() {
        text += if text.ends_with('\n') { "\n" } else { "\n\n" };
    }
    crate::files::replace(path, text.as_bytes(), "record file")
}

/// The record of game `g` of the file, checked to be game `g.round` of `cfg`'s match.
fn recorded<G: FullGame>(
    game: &G,
    cfg: &MatchConfig<G>,
    names: &[String; 2],
    g: &ReadGame,
) -> Result<GameRecord, String> {
    let n = g.round;
    if n == 0 {
        return Err("a game without a [Round] number".into());
    }
    if n > cfg.games {
        return Err(format!("it holds game {n}, past --games {}: give --games {n} or more", cfg.games));
    }
    let i = n - 1;
    let a_first = cfg.fixed_colours || i.is_multiple_of(2);
    let opening = cfg.openings.get(game, if cfg.fixed_colours { i } else { i / 2 });
    let (white, black) = if a_first { (&names[0], &names[1]) } else { (&names[1], &names[0]) };
    let mut expect = vec![
        ("Game".to_string(), game.spec()),
        ("White".to_string(), white.clone()),
        ("Black".to_string(), black.clone()),
        ("TimeControl".to_string(), describe_limit(&cfg.limit)),
        ("Opening".to_string(), opening.describe()),
    ];
    if g.tag("Seed").is_some() {
        expect.extend(match_tags(cfg));
    }
    let other = |name: &str, got: Option<&str>, want: &str| {
        let got = got.map_or("no such tag".to_string(), |v| format!("[{name} \"{v}\"]"));
        format!(
            "game {n} is not from this match: {got} where this match has \"{want}\" (resume with the first run's \
             options, or record to another file)"
        )
    };
    for (name, want) in &expect {
        if g.tag(name) != Some(want.as_str()) {
            return Err(other(name, g.tag(name), want));
        }
    }
    if g.fen != opening.fen {
        return Err(other("FEN", g.fen.as_deref(), opening.fen.as_deref().unwrap_or("the start position")));
    }
    let winner = match g.result.as_str() {
        "1-0" => Some(Side::First),
        "0-1" => Some(Side::Second),
        "1/2-1/2" => None,
        other => return Err(format!("game {n} has no result ({other})")),
    };
    let num = |name: &str| -> Result<u64, String> {
        let v = g.tag(name).ok_or_else(|| format!("game {n} has no [{name}] tag (damaged?)"))?;
        v.parse().map_err(|_| format!("game {n}: [{name} \"{v}\"] is not a number (damaged?)"))
    };
    let move_ms: Vec<u64> = match g.tag("MoveMs") {
        Some(list) => list
            .split_whitespace()
            .map(|w| w.parse().map_err(|_| format!("game {n}: [MoveMs] holds `{w}`, not a number (damaged?)")))
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    // Per colour (White, Black), then turned into A, B.
    let max = [num("WhiteMaxMs")?, num("BlackMaxMs")?];
    let (timed, total) = if g.tag("WhiteMoves").is_some() {
        ([num("WhiteMoves")?, num("BlackMoves")?], [num("WhiteTotalMs")?, num("BlackTotalMs")?])
    } else {
        times_by_replay(game, &opening, &g.moves, &move_ms).map_err(|e| format!("game {n}: {e}"))?
    };
    let ab = |v: [u64; 2]| if a_first { v } else { [v[1], v[0]] };
    Ok(GameRecord {
        round: n,
        game: g.game.clone(),
        first: white.clone(),
        second: black.clone(),
        a_first,
        time_control: describe_limit(&cfg.limit),
        opening: opening.describe(),
        fen: g.fen.clone(),
        moves: g.moves.clone(),
        winner,
        termination: g.termination.clone(),
        max_move_ms: ab(max),
        total_move_ms: ab(total),
        moves_timed: ab(timed),
        move_ms,
        final_position: g.tag("FinalPosition").map(str::to_string),
    })
}

/// Moves made and milliseconds spent by White and by Black, from a record without `[WhiteMoves]` (written before it
/// existed): each `MoveMs` entry after the opening is the side to move's, the last one possibly a move that lost.
fn times_by_replay<G: FullGame>(
    game: &G,
    opening: &Opening<G>,
    moves: &[String],
    move_ms: &[u64],
) -> Result<([u64; 2], [u64; 2]), String> {
    if !G::KIND.is_classic() {
        return Err("written before --resume existed, and this game's move times cannot be told apart by side".into());
    }
    let (mut timed, mut total) = ([0u64; 2], [0u64; 2]);
    let mut state = opening.position(game);
    for (j, &ms) in move_ms.iter().enumerate() {
        let seat = game.side_to_move(&state).index();
        timed[seat] += 1;
        total[seat] += ms;
        if let Some(m) = moves.get(opening.move_text.len() + j) {
            state = game.play_moves(&state, m).map_err(|e| format!("move {m}: {e}"))?;
        }
    }
    Ok((timed, total))
}
