//! A tournament's files: the results file (one JSON line per finished game after a header naming the tournament) and
//! the record file (the arena's PGN-style blocks, with the tournament's tags), and how `--resume` reads them back.
//!
//! ```text
//! results file   {"plateau_tournament":1,"id":"3f2a...","settings":{game, players, schedule, openings, ...}}
//!                {"id":1,"round":1,"white":"a","black":"b","result":"1-0","termination":"normal","plies":41}
//!                ...                      one line per finished game, written and flushed when the game ends
//! record file    the game's block ([Round] = the game id) + [Tournament "3f2a..."] [TournamentRound "1"]
//!                [Pairing "a - b"] [Seed] [Openings] ...; written before the game's results line
//! resume(FILES):
//!     results file missing or empty: start from scratch
//!     its header must be this tournament's (same settings): otherwise a one-line error, nothing changed
//!     every whole line must be a result of one of the schedule's games (id, round, players), each id once;
//!         otherwise a one-line error, nothing changed
//!     a last line cut short (no line break) is cut off: that game is played again
//!     record file: every whole game must carry this tournament's [Tournament] id, else a one-line error and
//!         nothing changed; the blocks of games the results file does not hold (written just before a crash) and a
//!         block cut short are cut off, so that every game is in both files exactly once
//!     only once both files are checked is either rewritten (crate::files::replace, atomically)
//! ```
//!
//! The results file decides which games are done: a game is finished once its line is whole.

use std::collections::HashSet;
use std::fs::File;
use std::io::Write;
use std::path::Path;

use super::entries::Entry;
use super::schedule::GameJob;
use crate::arena::record::{EVENT, GameRecord, read_games, read_record_to_continue};
use crate::game::Side;

/// Everything that decides a tournament's games; two runs with the same settings are the same tournament.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    pub game: String,
    pub players: Vec<Entry>,
    pub schedule: String,
    pub games: usize,
    pub openings: String,
    pub time_control: String,
    pub seed: u64,
    pub adjudicate: bool,
    pub max_plies: usize,
    pub(crate) margin_ms: u64,
}

impl Settings {
    /// The tournament's id: 16 hex digits of a 64-bit FNV-1a hash of the settings as JSON.
    pub fn id(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        format!("{h:016x}")
    }

    /// Why `other` (a file's) is not these settings, in words (`None` when equal).
    fn difference(&self, other: &Settings) -> Option<String> {
        let mine = serde_json::to_value(self).ok()?;
        let theirs = serde_json::to_value(other).ok()?;
        let names = |s: &Settings| s.players.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(", ");
        // The game and the players first: they say best which tournament a file is.
        let mut keys: Vec<&String> = mine.as_object()?.keys().collect();
        keys.sort_by_key(|k| (k.as_str() != "game", k.as_str() != "players"));
        for key in keys {
            let (value, old) = (&mine[key.as_str()], theirs.get(key.as_str()));
            if old == Some(value) {
                continue;
            }
            if key == "players" {
                if names(self) != names(other) {
                    return Some(format!("its players are {} where this one has {}", names(other), names(self)));
                }
                let e = self.players.iter().zip(&other.players).find(|(a, b)| a != b).map(|(a, _)| a.name.clone());
                return Some(format!("player {} has another string or clock there", e.unwrap_or_default()));
            }
            let show = |v: Option<&serde_json::Value>| v.map_or("nothing".into(), |v| v.to_string());
            return Some(format!("its {key} is {} where this one has {}", show(old), show(Some(value))));
        }
        None
    }
}

/// The results file's first line.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Header {
    pub(super) plateau_tournament: u32,
    pub(super) id: String,
    pub(super) settings: Settings,
    /// `--anchor` of the run that last opened the file, for the ratings of a view of the file (`plateau serve
    /// --tournament`). Not a setting: the same games with another anchor are the same tournament.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) anchor: Option<Anchor>,
}

/// The ratings' anchor kept in the results file's header: `player` rated `elo`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Anchor {
    pub player: String,
    pub elo: f64,
}

impl Header {
    pub(super) fn new(settings: &Settings, anchor: Option<&(String, f64)>) -> Header {
        Header {
            plateau_tournament: 1,
            id: settings.id(),
            settings: settings.clone(),
            anchor: anchor.map(|(player, elo)| Anchor { player: player.clone(), elo: *elo }),
        }
    }

    /// The header's line, its line break included.
    fn line(&self) -> Result<String, String> {
        Ok(serde_json::to_string(self).map_err(|e| e.to_string())? + "\n")
    }
}

/// One finished game, as the results file keeps it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameResult {
    /// The game's id in the schedule.
    pub id: usize,
    pub round: usize,
    /// The entries' names: who moved first (White) and second.
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// `normal`, `won race`, `move limit (N plies)`, or `NAME lost: REASON` (a crash, an illegal move, a time loss).
    pub termination: String,
    /// Plies played, the opening's included.
    pub plies: usize,
}

impl GameResult {
    /// The result of `job` from its record.
    pub(crate) fn from_record(job: &GameJob, rec: &GameRecord, names: &[String]) -> GameResult {
        GameResult {
            id: job.id,
            round: job.round,
            white: names[job.white].clone(),
            black: names[job.black].clone(),
            result: rec.result_text().to_string(),
            termination: rec.termination.clone(),
            plies: rec.moves.len(),
        }
    }

    /// White's score: 1, 1/2 or 0.
    pub(crate) fn white_score(&self) -> f64 {
        match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        }
    }

    /// The player who lost by a failure (a crash, an illegal move, garbage, a time loss) and the reason.
    pub fn failure(&self) -> Option<(String, String)> {
        let loser = match self.result.as_str() {
            "1-0" => &self.black,
            "0-1" => &self.white,
            _ => return None,
        };
        let reason = self.termination.strip_prefix(loser.as_str())?.strip_prefix(" lost: ")?;
        Some((loser.clone(), reason.to_string()))
    }

    /// The winner's side, or `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        match self.result.as_str() {
            "1-0" => Some(Side::First),
            "0-1" => Some(Side::Second),
            _ => None,
        }
    }
}

/// An open results file: one line per finished game, flushed at once.
pub(crate) struct ResultsFile {
    file: File,
}

impl ResultsFile {
    /// Open `path` to append results, writing the header first when it is empty.
    pub(super) fn open(path: &Path, header: &Header) -> Result<ResultsFile, String> {
        let mut file = crate::files::append(path, "results file")?;
        let len = file.metadata().map_err(|e| format!("results file {}: {e}", path.display()))?.len();
        if len == 0 {
            let line = header.line()?;
            file.write_all(line.as_bytes())
                .and_then(|_| file.flush())
                .map_err(|e| format!("cannot write results file {}: {e}", path.display()))?;
        }
        Ok(ResultsFile { file })
    }

    /// Append one result (a whole line, flushed to the operating system).
    pub(crate) fn append(&mut self, r: &GameResult) -> Result<(), String> {
        let line = serde_json::to_string(r).map_err(|e| e.to_string())? + "\n";
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("cannot write the results file: {e}"))
    }
}

/// The record file: the arena's blocks with the tournament's tags.
pub(crate) struct RecordWriter {
    file: File,
}

impl RecordWriter {
    pub fn open(path: &Path) -> Result<RecordWriter, String> {
        Ok(RecordWriter { file: crate::files::append(path, "record file")? })
    }
    /// Append a game's block as [`GameRecord::to_pgn_with`] wrote it.
    pub(crate) fn append_text(&mut self, block: &str) -> Result<(), String> {
        self.file
            .write_all(block.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("cannot write the record file: {e}"))
    }
}

/// A tournament's files opened for a run (`plateau tournament`, or another driver such as the Ray cluster's): the
/// games they already hold and the writers of the next ones.
pub struct TournamentFiles {
    /// The games the results file held (with `resume`), in file order.
    pub done: Vec<GameResult>,
    results: Option<ResultsFile>,
    record: Option<RecordWriter>,
    written: HashSet<usize>,
}

impl TournamentFiles {
    /// Open the results and record files of the tournament `settings` with its `jobs` (the results file's header
    /// keeps `anchor`, the ratings' anchor). With `resume` the files are read back and repaired (see the module
    /// documentation: another tournament's files are refused, nothing changed); without, a file holding anything is
    /// refused.
    pub fn open(
        results: Option<&Path>,
        record: Option<&Path>,
        resume: bool,
        settings: &Settings,
        jobs: &[GameJob],
        anchor: Option<&(String, f64)>,
    ) -> Result<TournamentFiles, String> {
        if let (Some(r), Some(g)) = (results, record) {
            crate::files::distinct_outputs(&[("--results", r), ("--record", g)])?;
        }
        let header = Header::new(settings, anchor);
        let mut done = Vec::new();
        if resume {
            let results = results.ok_or_else(|| {
                "--resume needs --results FILE (the results of the tournament to continue)".to_string()
            })?;
            let (kept, repair) = resume_results(results, &header, jobs)?;
            done = kept;
            let mut repairs = vec![(results, "results file", repair)];
            if let Some(path) = record {
                let ids: HashSet<usize> = done.iter().map(|r| r.id).collect();
                repairs.push((path, "record file", resume_record(path, &settings.id(), &settings.game, &ids)?));
            }
            // Both files are this tournament's: only now is either changed.
            for (path, what, repair) in repairs {
                if let Some((bytes, why)) = repair {
                    crate::files::replace(path, &bytes, what)?;
                    eprintln!("note: {why}");
                }
            }
        } else {
            if let Some(path) = results {
                check_fresh(path, "results file", "--results")?;
            }
            if let Some(path) = record {
                check_fresh(path, "record file", "--record")?;
            }
        }
        let results = results.map(|path| ResultsFile::open(path, &header)).transpose()?;
        let record = record.map(RecordWriter::open).transpose()?;
        let written = done.iter().map(|r| r.id).collect();
        Ok(TournamentFiles { done, results, record, written })
    }

    /// Whether game `id` is in the files (read back, or written in this run).
    pub fn holds(&self, id: usize) -> bool {
        self.written.contains(&id)
    }

    /// Write one finished game: its record block (as [`GameRecord::to_pgn_with`] wrote it), then its results
    /// line, each flushed at once. A game the files already hold is not written again (`Ok(false)`): a task run
    /// twice (a retried task whose first run finished) leaves every game in the files once.
    pub fn write(&mut self, result: &GameResult, record_block: &str) -> Result<bool, String> {
        if self.written.contains(&result.id) {
            return Ok(false);
        }
        if let Some(f) = self.record.as_mut() {
            f.append_text(record_block)?;
        }
        if let Some(f) = self.results.as_mut() {
            f.append(result)?;
        }
        self.written.insert(result.id);
        Ok(true)
    }
}

/// The text of `path` (empty when missing); `what` names it.
fn file_text(path: &Path, what: &str) -> Result<String, String> {
    crate::files::check_output(path, what)?;
    match std::fs::read(path) {
        Ok(b) => {
            String::from_utf8(b).map_err(|_| format!("{what} {} is not text: nothing was changed", path.display()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(format!("cannot read {what} {}: {e}", path.display())),
    }
}

/// Without `--resume`: a file that already holds something is refused (it is never overwritten or appended to).
pub(crate) fn check_fresh(path: &Path, what: &str, flag: &str) -> Result<(), String> {
    crate::files::check_output(path, what)?;
    match std::fs::metadata(path) {
        Ok(m) if m.len() > 0 => Err(format!(
            "{what} {} is not empty: give --resume to continue its tournament, or another {flag} file",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// A file's text to write back once every file of the tournament is checked (nothing is changed before), and the
/// note that says why.
pub(crate) type Repair = Option<(Vec<u8>, String)>;

/// The results the results file already holds (see the module documentation), and its repair when a line was cut
/// short or its header has another anchor than `mine`'s (the caller writes it).
pub(super) fn resume_results(
    path: &Path,
    mine: &Header,
    jobs: &[GameJob],
) -> Result<(Vec<GameResult>, Repair), String> {
    let settings = &mine.settings;
    let shown = path.display();
    let text = file_text(path, "results file")?;
    if text.is_empty() {
        return Ok((Vec::new(), None));
    }
    let names: Vec<&str> = settings.players.iter().map(|e| e.name.as_str()).collect();
    let not_ours = |why: String| format!("results file {shown}: {why}: nothing was changed");
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if !first.ends_with('\n') {
        // Cut short in its header: only a start of this tournament's own header may be cut off.
        if !mine.line()?.starts_with(first) {
            return Err(not_ours("not a results file of plateau tournament".into()));
        }
        return Ok((Vec::new(), Some((Vec::new(), format!("results file {shown}: its header cut short was removed")))));
    }
    let header: Header = serde_json::from_str(first.trim())
        .map_err(|_| not_ours("not a results file of plateau tournament (its first line is no header)".into()))?;
    if let Some(why) = settings.difference(&header.settings) {
        return Err(not_ours(format!("another tournament ({why}); resume with the first run's options")));
    }
    let mut done = Vec::new();
    let mut seen = HashSet::new();
    let mut end = first.len();
    for (n, line) in lines.enumerate() {
        if !line.ends_with('\n') {
            break;
        }
        let lineno = n + 2;
        let r: GameResult = serde_json::from_str(line.trim())
            .map_err(|e| not_ours(format!("line {lineno} is not a game's result ({e})")))?;
        let job = jobs.get(r.id.wrapping_sub(1)).filter(|j| j.id == r.id);
        let fits = job.is_some_and(|j| {
            j.round == r.round
                && names.get(j.white) == Some(&r.white.as_str())
                && names.get(j.black) == Some(&r.black.as_str())
        });
        if !fits {
            return Err(not_ours(format!("line {lineno}: game {} is not this tournament's", r.id)));
        }
        if !["1-0", "0-1", "1/2-1/2"].contains(&r.result.as_str()) {
            return Err(not_ours(format!("line {lineno}: result '{}'", r.result)));
        }
        if !seen.insert(r.id) {
            return Err(not_ours(format!("line {lineno}: game {} is there twice", r.id)));
        }
        done.push(r);
        end += line.len();
    }
    let mut whys = Vec::new();
    if end < text.len() {
        whys.push(format!("results file {shown}: a line cut short at its end was removed (that game is played again)"));
    }
    let mut head = first.to_string();
    if header.anchor != mine.anchor {
        head = mine.line()?;
        let anchor = mine.anchor.as_ref().map_or("none (mean 0)".to_string(), |a| format!("{} = {}", a.player, a.elo));
        whys.push(format!("results file {shown}: the ratings' anchor it keeps is now {anchor}"));
    }
    let repair =
        (!whys.is_empty()).then(|| ([head.as_bytes(), &text.as_bytes()[first.len()..end]].concat(), whys.join("; ")));
    Ok((done, repair))
}

/// Make the record file hold exactly the games of `done` (ids) of tournament `id`: the blocks of other games of this
/// tournament (played but not in the results file) and a block cut short are cut off. A block of anything else is
/// a one-line error, and the file is left as it was. Returns the repair (the caller writes it).
pub(crate) fn resume_record(path: &Path, id: &str, game: &str, done: &HashSet<usize>) -> Result<Repair, String> {
    let shown = path.display();
    let text = file_text(path, "record file")?;
    if text.is_empty() {
        return Ok(None);
    }
    let (games, end) = read_record_to_continue(&text, game).map_err(|e| format!("record file {shown}: {e}"))?;
    for g in &games {
        if g.tag("Tournament") != Some(id) {
            return Err(format!(
                "record file {shown}: game {} is not from this tournament ([Tournament] {}): nothing was changed",
                g.round,
                g.tag("Tournament").map_or("missing".to_string(), |t| format!("\"{t}\""))
            ));
        }
    }
    // The blocks, each from its [Event] line.
    let kept_text = &text[..end];
    let mut starts: Vec<usize> = kept_text.match_indices(EVENT).map(|(i, _)| i).collect();
    starts.retain(|&i| i == 0 || kept_text.as_bytes()[i - 1] == b'\n');
    starts.push(kept_text.len());
    let mut out = String::new();
    let mut kept = HashSet::new();
    let mut dropped = 0;
    for w in starts.windows(2) {
        let block = &kept_text[w[0]..w[1]];
        match read_games(block).ok().and_then(|g| g.into_iter().next()) {
            Some(g) if done.contains(&g.round) && kept.insert(g.round) => {
                out += block.trim_end();
                out += "\n\n";
            }
            _ => dropped += 1,
        }
    }
    let cut = dropped > 0 || !text[end..].trim().is_empty();
    Ok(cut.then(|| {
        let why = format!(
            "record file {shown}: {dropped} game(s) not in the results file and any game cut short removed (played again)"
        );
        (out.into_bytes(), why)
    }))
}
