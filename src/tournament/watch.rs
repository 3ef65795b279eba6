//! A tournament seen from its files while it runs or after (the view of `plateau serve --tournament`): the results
//! file (header and one line per finished game), its live file (the games in progress, [`super::live`]) and its
//! record file (a finished game's moves, to replay). Nothing is played or built here: player strings are shown, never
//! run, and no path comes from anywhere but the caller.
//!
//! ```text
//! view(results)      results file read (bounded, files::MAX_TEXT): no file yet or a header cut short = waiting;
//!                    a last line cut short (being written) is left for the next read; any other line that is not
//!                    a game's result of this tournament is a one-line error naming the line (never its text)
//!                    standings = standings::standings(players, results, the header's anchor: the last run's
//!                    --anchor): what plateau tournament --json prints; playing = the live file's games not yet in
//!                    the results, when the file is this tournament's and was rewritten less than live::STALE ago
//!                    (running = so)
//! record_block(id)   the record file's block of game id of this tournament (bounded read), for the replay
//! ```

use std::collections::HashSet;
use std::path::Path;

use super::live::{self, LiveFile, LiveGame};
use super::results::{GameResult, Header};
use super::standings::{self, Standings};
use crate::arena::record::{EVENT, read_games};
use crate::files::{MAX_TEXT, read_if_any};

/// A player as the results file names it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ViewPlayer {
    pub name: String,
    pub player: String,
}

/// What a tournament's files say now.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TournamentView {
    /// The tournament's id (`null` until its results file has a header).
    pub tournament: Option<String>,
    pub game: String,
    pub schedule: String,
    pub time_control: String,
    pub openings: String,
    pub players: Vec<ViewPlayer>,
    /// Games in the schedule.
    pub games: u64,
    /// Games in the results file.
    pub finished: u64,
    /// Whether the tournament's live file is fresh (`plateau tournament` is playing it now).
    pub running: bool,
    /// The games in progress with their moves so far (empty when not running).
    pub playing: Vec<LiveGame>,
    /// Every finished game, in the results file's order.
    pub results: Vec<GameResult>,
    #[serde(flatten)]
    pub standings: Standings,
}

/// The view of the tournament of `results` (its live file beside it), at `now_ms` (milliseconds since 1970).
/// Errors are one line and never quote the files.
pub fn view(results: &Path, now_ms: u64) -> Result<TournamentView, String> {
    let waiting = || TournamentView {
        tournament: None,
        game: String::new(),
        schedule: String::new(),
        time_control: String::new(),
        openings: String::new(),
        players: Vec::new(),
        games: 0,
        finished: 0,
        running: false,
        playing: Vec::new(),
        results: Vec::new(),
        standings: standings::standings(&[], &[], None),
    };
    let Some(bytes) = read_if_any(results, MAX_TEXT, "results file")? else { return Ok(waiting()) };
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.split_inclusive('\n');
    let Some(first) = lines.next().filter(|l| l.ends_with('\n')) else { return Ok(waiting()) };
    let header: Header = serde_json::from_str(first.trim())
        .ok()
        .filter(|h: &Header| h.plateau_tournament == 1)
        .ok_or("not a results file of plateau tournament (its first line is no header)")?;
    let s = &header.settings;
    let names: Vec<String> = s.players.iter().map(|e| e.name.clone()).collect();
    let mut done = Vec::new();
    let mut seen = HashSet::new();
    for (n, line) in lines.enumerate() {
        if !line.ends_with('\n') {
            break;
        }
        let bad = |why: &str| format!("line {}: {why}", n + 2);
        let r: GameResult = serde_json::from_str(line.trim()).map_err(|_| bad("not a game's result"))?;
        if r.id == 0 || r.id > s.games || !names.contains(&r.white) || !names.contains(&r.black) {
            return Err(bad(&format!("game {} is not this tournament's", r.id)));
        }
        if !seen.insert(r.id) {
            return Err(bad(&format!("game {} is there twice", r.id)));
        }
        done.push(r);
    }
    let anchor = header.anchor.as_ref().and_then(|a| Some((names.iter().position(|n| *n == a.player)?, a.elo)));
    let live = read_if_any(&live::live_path(results), live::MAX_LIVE, "live file")
        .ok()
        .flatten()
        .and_then(|b| serde_json::from_slice::<LiveFile>(&b).ok())
        .filter(|l| l.tournament == header.id && now_ms.saturating_sub(l.updated_ms) < live::STALE.as_millis() as u64);
    let running = live.is_some();
    let playing = live.map_or(Vec::new(), |l| l.playing.into_iter().filter(|g| !seen.contains(&g.id)).collect());
    Ok(TournamentView {
        tournament: Some(header.id.clone()),
        game: s.game.clone(),
        schedule: s.schedule.clone(),
        time_control: s.time_control.clone(),
        openings: s.openings.clone(),
        players: s.players.iter().map(|e| ViewPlayer { name: e.name.clone(), player: e.player.clone() }).collect(),
        games: s.games as u64,
        finished: done.len() as u64,
        running,
        playing,
        standings: standings::standings(&names, &done, anchor),
        results: done,
    })
}

/// The block of game `id` of tournament `tournament` in the record file `record` (`None`: not there, or not yet).
pub fn record_block(record: &Path, tournament: &str, id: usize) -> Result<Option<String>, String> {
    let Some(bytes) = read_if_any(record, MAX_TEXT, "record file")? else { return Ok(None) };
    let text = String::from_utf8_lossy(&bytes);
    let round = format!("\n[Round \"{id}\"]");
    let mut starts: Vec<usize> = text.match_indices(EVENT).map(|(i, _)| i).collect();
    starts.retain(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n');
    starts.push(text.len());
    for w in starts.windows(2) {
        let block = &text[w[0]..w[1]];
        if !block.contains(&round) {
            continue;
        }
        let Some(g) = read_games(block).ok().and_then(|g| g.into_iter().next()) else { continue };
        if g.round == id && g.tag("Tournament") == Some(tournament) {
            return Ok(Some(block.to_string()));
        }
    }
    Ok(None)
}
