//! What a solve is asked (a [`Request`]: the position, the method and every option, as typed values), the options by
//! name ([`Flag`], so that the registry can say which ones a solver reads), and where a solve reports its progress
//! ([`Progress`]: lines for stderr, a batch's entries, the jobs of a split solve).

use serde::{Deserialize, Serialize, Serializer};

use super::batch::Entry;
use super::breakthrough::{CheckJob, Job};

/// An option of `plateau solve` that some solvers read and others do not.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flag {
    Batch,
    First,
    Weak,
    Analyze,
    Tt,
    Db,
    DbSeeds,
    DbPieces,
    MaxMemory,
    RaceRows,
    MaxNodes,
    MaxSeconds,
    Split,
    Budget,
    SplitFirst,
    Results,
    Table,
    SaveEvery,
    FirstWinOnly,
    Check,
    CheckMemo,
    Proof,
    CheckProof,
    CheckSplit,
    SplitDepth,
}

impl Flag {
    /// Its spelling on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Flag::Batch => "--batch",
            Flag::First => "--first",
            Flag::Weak => "--weak",
            Flag::Analyze => "--analyze",
            Flag::Tt => "--tt",
            Flag::Db => "--db",
            Flag::DbSeeds => "--db-seeds",
            Flag::DbPieces => "--db-pieces",
            Flag::MaxMemory => "--max-memory",
            Flag::RaceRows => "--race-rows",
            Flag::MaxNodes => "--max-nodes",
            Flag::MaxSeconds => "--max-seconds",
            Flag::Split => "--split",
            Flag::Budget => "--budget",
            Flag::SplitFirst => "--split-first",
            Flag::Results => "--results",
            Flag::Table => "--table",
            Flag::SaveEvery => "--save-every",
            Flag::FirstWinOnly => "--first-win-only",
            Flag::Check => "--check",
            Flag::CheckMemo => "--check-memo",
            Flag::Proof => "--proof",
            Flag::CheckProof => "--check-proof",
            Flag::CheckSplit => "--check-split",
            Flag::SplitDepth => "--split-depth",
        }
    }
}

impl Serialize for Flag {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The table size when `--tt` is not given.
pub(crate) const TT_DEFAULT: &str = "128mb";
/// The memory limit of a retrograde analysis when `--max-memory` is not given.
pub(crate) const MAX_MEMORY_DEFAULT: &str = "2gb";
/// The proof check's memo when `--check-memo` is not given.
pub(crate) const CHECK_MEMO_DEFAULT: &str = "256mb";
/// The first round's budget per root move of `--split` when `--budget` is not given.
pub(crate) const BUDGET_DEFAULT: u64 = 20_000_000;

/// One solve: the position and every option, `None`/`false` when not given (the solver's default then). It reads
/// from a JSON object of its field names ([`Request::from_json`]: Python's `plateau.solve()` keywords).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Request {
    pub position: Option<String>,
    pub moves: Option<String>,
    /// `--method`: a solver's name or alias ([`super::registry::SOLVERS`]); `None`: the game's default.
    pub method: Option<String>,
    pub batch: Option<String>,
    pub first: Option<usize>,
    pub weak: bool,
    pub analyze: bool,
    pub tt: Option<String>,
    pub db: Option<String>,
    pub(crate) db_seeds: Option<usize>,
    pub db_pieces: Option<usize>,
    pub(crate) max_memory: Option<String>,
    pub race_rows: Option<u32>,
    pub max_nodes: Option<u64>,
    pub max_seconds: Option<f64>,
    pub split: bool,
    pub budget: Option<u64>,
    pub split_first: Option<String>,
    pub results: Option<String>,
    pub table: Option<String>,
    pub(crate) save_every: Option<f64>,
    pub(crate) first_win_only: bool,
    pub check: bool,
    pub(crate) check_memo: Option<String>,
    /// `--proof FILE`: the proof of a win written there (`qubic-pns`).
    pub proof: Option<String>,
    /// `--check-proof FILE`: check the proof file instead of solving (`qubic-pns`).
    pub check_proof: Option<String>,
    /// `--check-split`: the split proof check of Breakthrough ([`super::run::check_split`]).
    pub check_split: bool,
    /// `--split-depth D`: the loser's moves expanded by the rules before the jobs of `--check-split`.
    pub(crate) split_depth: Option<u32>,
    /// No progress lines on stderr (a JSON run).
    pub quiet: bool,
}

impl Request {
    /// The request of a JSON object of its field names (`{"moves": "4453", "weak": true, "tt": "64mb"}`, any left out
    /// unset); an unknown name or a value of the wrong type is refused in one line.
    pub fn from_json(value: serde_json::Value) -> Result<Request, String> {
        serde_json::from_value(value).map_err(|e| format!("solve options: {e}"))
    }

    /// The options given, in the order of [`Flag`].
    pub fn given(&self) -> Vec<Flag> {
        let on = [
            (Flag::Batch, self.batch.is_some()),
            (Flag::First, self.first.is_some()),
            (Flag::Weak, self.weak),
            (Flag::Analyze, self.analyze),
            (Flag::Tt, self.tt.is_some()),
            (Flag::Db, self.db.is_some()),
            (Flag::DbSeeds, self.db_seeds.is_some()),
            (Flag::DbPieces, self.db_pieces.is_some()),
            (Flag::MaxMemory, self.max_memory.is_some()),
            (Flag::RaceRows, self.race_rows.is_some()),
            (Flag::MaxNodes, self.max_nodes.is_some()),
            (Flag::MaxSeconds, self.max_seconds.is_some()),
            (Flag::Split, self.split),
            (Flag::Budget, self.budget.is_some()),
            (Flag::SplitFirst, self.split_first.is_some()),
            (Flag::Results, self.results.is_some()),
            (Flag::Table, self.table.is_some()),
            (Flag::SaveEvery, self.save_every.is_some()),
            (Flag::FirstWinOnly, self.first_win_only),
            (Flag::Check, self.check),
            (Flag::CheckMemo, self.check_memo.is_some()),
            (Flag::Proof, self.proof.is_some()),
            (Flag::CheckProof, self.check_proof.is_some()),
            (Flag::CheckSplit, self.check_split),
            (Flag::SplitDepth, self.split_depth.is_some()),
        ];
        on.into_iter().filter(|(_, given)| *given).map(|(f, _)| f).collect()
    }

    /// The checks of values that hold whatever the solver: ranges, and the options that only make sense with another.
    pub(crate) fn check_values(&self) -> Result<(), String> {
        if self.first.is_some() && self.batch.is_none() {
            return Err("--first N takes the first N positions of a --batch file: it needs --batch".into());
        }
        if self.first == Some(0) {
            return Err("--first must be at least 1".into());
        }
        if self.save_every.is_some_and(|s| s.is_nan() || s < 0.0) {
            return Err("--save-every must be a number of seconds >= 0".into());
        }
        if self.db.as_deref().is_some_and(|d| d.trim().is_empty()) {
            return Err("--db: an empty file name".into());
        }
        // The files a solve writes (and --check-proof's, which it reads while --proof would be written).
        let files = [
            ("--results", &self.results),
            ("--table", &self.table),
            ("--proof", &self.proof),
            ("--db", &self.db),
            ("--check-proof", &self.check_proof),
        ];
        let given: Vec<(&str, &std::path::Path)> =
            files.iter().filter_map(|(flag, p)| p.as_deref().map(|p| (*flag, std::path::Path::new(p)))).collect();
        crate::files::distinct_outputs(&given)?;
        Ok(())
    }

    /// `--tt` in MiB (default [`TT_DEFAULT`]).
    pub fn tt_mib(&self) -> Result<usize, String> {
        crate::spec::parse_table_mib(self.tt.as_deref().unwrap_or(TT_DEFAULT)).map_err(|e| format!("--tt: {e}"))
    }
}

/// Where a solve reports what it does while it runs. Every method does nothing by default.
pub trait Progress {
    /// A line for the user (stderr on the command line): memory planned, bounds proven so far.
    fn note(&mut self, line: &str) {
        let _ = line;
    }
    /// A batch of `positions` positions starts.
    fn batch_start(&mut self, positions: usize) {
        let _ = positions;
    }
    /// One position of a batch is solved.
    fn entry(&mut self, e: &Entry) {
        let _ = e;
    }
    /// The batch is over.
    fn batch_end(&mut self) {}
    /// One job of a split solve (`--split`) is done.
    fn job(&mut self, job: &Job) {
        let _ = job;
    }
    /// One job of a split proof check (`--check-split`) is done.
    fn check_job(&mut self, job: &CheckJob) {
        let _ = job;
    }
}
