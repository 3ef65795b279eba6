//! The tournaments the operator shows (`plateau serve --tournament RESULTS[,RECORD]`): their standings, games in
//! progress and finished games, read from the tournament's own files as `plateau tournament` writes them
//! ([`crate::tournament::watch`]).
//!
//! ```text
//! GET /api/tournaments              [{id, name, tournament, game, games, finished, running}]
//! GET /api/tournaments/{n}          the view of tournament n (1-based, in the order of --tournament)
//! GET /api/tournaments/{n}/games/{g}  game g of it replayed (as POST /api/replay answers, one game): finished,
//!                                     from the record file; in progress, its moves so far
//! ```
//!
//! Only the operator's paths are read: a request names a tournament by its number, never a path. Each view is kept
//! and read again only when the results or live file changed (size or time) or after [`FRESH`]; each read is bounded
//! (the files' own limits), and one tournament is read by one request at a time.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Value, json};

use super::{ApiError, analysis, lock};
use crate::arena::record::ReadGame;
use crate::files::FileAccess;
use crate::tournament::live::{live_path, now_ms};
use crate::tournament::watch::{self, TournamentView};

/// A view is read again after this long even if its files look the same (a live file going stale).
pub(crate) const FRESH: Duration = Duration::from_secs(1);

/// A tournament's files as the operator gave them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentSource {
    pub results: PathBuf,
    pub record: Option<PathBuf>,
}

impl TournamentSource {
    /// `RESULTS` or `RESULTS,RECORD` (`--tournament`'s value).
    pub fn parse(text: &str) -> Result<TournamentSource, String> {
        let (results, record) = match text.split_once(',') {
            Some((a, b)) => (a, Some(b)),
            None => (text, None),
        };
        if results.is_empty() || record.is_some_and(str::is_empty) {
            return Err(format!("--tournament {text}: give RESULTS_FILE or RESULTS_FILE,RECORD_FILE"));
        }
        let check = |p: &str, what: &str| {
            let path = PathBuf::from(p);
            match std::fs::metadata(&path) {
                Ok(m) if !m.is_file() => Err(format!("--tournament: {what} {p} is not a regular file")),
                _ => Ok(path),
            }
        };
        Ok(TournamentSource {
            results: check(results, "results file")?,
            record: record.map(|r| check(r, "record file")).transpose()?,
        })
    }

    /// The results file's name, shown in the list.
    fn name(&self) -> String {
        self.results.file_name().map_or_else(|| self.results.display().to_string(), |n| n.to_string_lossy().into())
    }
}

type Stamp = [Option<(u64, Option<SystemTime>)>; 2];

fn stamp_of(path: &Path) -> Option<(u64, Option<SystemTime>)> {
    std::fs::metadata(path).ok().map(|m| (m.len(), m.modified().ok()))
}

/// One watched tournament and its last view.
pub(crate) struct Watched {
    pub source: TournamentSource,
    last: Mutex<Option<(Stamp, Instant, Arc<TournamentView>)>>,
}

impl Watched {
    pub fn new(source: TournamentSource) -> Watched {
        Watched { source, last: Mutex::new(None) }
    }

    /// The view now (read again when the files changed).
    fn view(&self) -> Result<Arc<TournamentView>, String> {
        let mut last = lock(&self.last);
        let stamp = [stamp_of(&self.source.results), stamp_of(&live_path(&self.source.results))];
        if let Some((s, at, v)) = last.as_ref()
            && *s == stamp
            && at.elapsed() < FRESH
        {
            return Ok(v.clone());
        }
        let v = Arc::new(watch::view(&self.source.results, now_ms())?);
        *last = Some((stamp, Instant::now(), v.clone()));
        Ok(v)
    }
}

fn get(all: &[Watched], n: usize) -> Result<&Watched, ApiError> {
    n.checked_sub(1).and_then(|k| all.get(k)).ok_or_else(|| {
        ApiError::not_found(match all.len() {
            0 => "no tournament is shown: the server was started without --tournament".to_string(),
            k => format!("no tournament {n}: tournaments 1 to {k} (GET /api/tournaments)"),
        })
    })
}

fn failed(n: usize, e: String) -> ApiError {
    ApiError::bad(format!("tournament {n}: {e}"))
}

/// `GET /api/tournaments`.
pub fn list(all: &[Watched]) -> Value {
    let items: Vec<Value> = all
        .iter()
        .enumerate()
        .map(|(k, w)| {
            let mut item = json!({ "id": k + 1, "name": w.source.name() });
            match w.view() {
                Ok(v) => {
                    item["tournament"] = json!(v.tournament);
                    item["game"] = json!(v.game);
                    item["games"] = json!(v.games);
                    item["finished"] = json!(v.finished);
                    item["running"] = json!(v.running);
                }
                Err(e) => item["error"] = json!(crate::game::one_line(&e)),
            }
            item
        })
        .collect();
    json!({ "tournaments": items })
}

/// `GET /api/tournaments/{n}`.
pub fn one(all: &[Watched], n: usize) -> Result<Value, ApiError> {
    let w = get(all, n)?;
    let v = w.view().map_err(|e| failed(n, e))?;
    let mut out = serde_json::to_value(&*v).map_err(|e| failed(n, e.to_string()))?;
    out["id"] = json!(n);
    out["name"] = json!(w.source.name());
    out["replayable"] = json!(w.source.record.is_some());
    Ok(out)
}

/// `GET /api/tournaments/{n}/games/{g}`: game `g` replayed: in progress, its moves so far (the live file); finished,
/// from the record file.
pub fn game(all: &[Watched], n: usize, g: usize) -> Result<Value, ApiError> {
    let w = get(all, n)?;
    let v = w.view().map_err(|e| failed(n, e))?;
    let Some(id) = v.tournament.as_deref() else {
        return Err(ApiError::not_found(format!("tournament {n} has not started")));
    };
    if let Some(p) = v.playing.iter().find(|p| p.id == g) {
        // A game in progress: its moves so far from the live file.
        let rg = ReadGame {
            round: g,
            game: v.game.clone(),
            fen: p.fen.clone(),
            moves: p.moves.clone(),
            result: "*".into(),
            termination: "in progress".into(),
            tags: Vec::new(),
        };
        let mut out = analysis::replay_games(&[rg], &FileAccess::none())?;
        out["tournament"] = json!(n);
        out["id"] = json!(g);
        return Ok(out);
    }
    if !v.results.iter().any(|r| r.id == g) {
        return Err(ApiError::not_found(format!(
            "tournament {n}: game {g} is neither finished nor in progress (or not in the schedule)"
        )));
    }
    let Some(record) = &w.source.record else {
        return Err(ApiError::not_found(format!(
            "tournament {n} has no record file: the operator gives it as --tournament RESULTS,RECORD"
        )));
    };
    let block = watch::record_block(record, id, g)
        .map_err(|e| failed(n, e))?
        .ok_or_else(|| ApiError::not_found(format!("tournament {n}: game {g} is not in the record file")))?;
    let mut out = analysis::replay(&block, &FileAccess::none())?;
    out["tournament"] = json!(n);
    out["id"] = json!(g);
    Ok(out)
}
