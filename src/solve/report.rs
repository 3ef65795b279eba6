//! What a solve returns: one typed report per kind of solver ([`SolveReport`]), serialised as the JSON document of
//! `plateau solve --json` (field for field) and printed as text by the command line. Fields marked `serde(skip)` are
//! for the text only (the board drawn, counts shown beside a value).

use serde::Serialize;

use super::proof_check::ProofCheck;
pub(crate) use super::proof_file::ProofFileCheck;
pub(crate) use super::threats::split::ThreatsSplitReport;

/// The report of one `plateau solve`, by solver.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum SolveReport {
    /// `connect4`, one position.
    Connect4(Connect4Report),
    /// `alphabeta`, one position.
    AlphaBeta(AlphaBetaReport),
    /// `connect4`, `alphabeta`, `othello-endgame` on a `--batch` file.
    Batch(BatchReport),
    /// `othello-endgame`, one position.
    Othello(OthelloReport),
    /// `dfpn-generic`.
    Dfpn(DfpnReport),
    /// `breakthrough-dfpn`, one position.
    Breakthrough(BreakthroughReport),
    /// `breakthrough-dfpn --split`.
    Split(SplitReport),
    /// `breakthrough-dfpn --check-split`.
    CheckSplit(CheckSplitReport),
    /// `retro` building (`--method retro`).
    RetroBuild(RetroBuildReport),
    /// `retro` reading a database (`--db FILE` alone).
    RetroQuery(RetroQueryReport),
    /// `oware-db`.
    Oware(OwareReport),
    /// `checkers-db`.
    CheckersDb(CheckersDbReport),
    /// `pig`.
    Pig(PigReport),
    /// `simultaneous`.
    Simultaneous(SimultaneousReport),
    /// `qubic-pns`, one position.
    Threats(ThreatsReport),
    /// `qubic-pns --check-proof FILE`.
    ProofFile(ProofFileCheck),
    /// `qubic-pns --split`.
    ThreatsSplit(ThreatsSplitReport),
}

impl SolveReport {
    /// The error the run ends with after its report is shown (a batch whose scores are not all the expected ones).
    pub fn failure(&self) -> Option<String> {
        match self {
            SolveReport::Batch(b) if b.mismatches > 0 => {
                Some(format!("{} of {} positions do not have the expected score", b.mismatches, b.positions))
            }
            SolveReport::CheckSplit(c) if c.verdict == "failed" => Some(format!(
                "the claim '{}' is NOT confirmed by the split proof check: it failed after the moves '{}'",
                c.claim,
                c.failures.first().map_or("", |s| s.as_str())
            )),
            _ => None,
        }
    }
}

/// The value of one move (`--analyze`).
#[derive(Clone, Debug, Serialize)]
pub struct MoveValue {
    #[serde(rename = "move")]
    pub mv: String,
    pub result: &'static str,
    pub score: i32,
    pub nodes: u64,
}

#[derive(Clone, Debug, Serialize)]
/// What `--method connect4` returns.
pub struct Connect4Report {
    pub game: String,
    /// Stones on the board.
    pub moves: u32,
    pub weak: bool,
    pub result: &'static str,
    pub winner_text: String,
    pub proven: bool,
    pub score: i32,
    pub best_move: Option<String>,
    pub nodes: u64,
    pub seconds: f64,
    pub best_move_nodes: u64,
    pub(crate) best_move_seconds: f64,
}

#[derive(Clone, Debug, Serialize)]
/// What `--method alphabeta` (the generic solver) returns.
pub struct AlphaBetaReport {
    pub game: String,
    pub position: String,
    pub weak: bool,
    pub result: &'static str,
    pub winner_text: String,
    pub proven: bool,
    pub score: i32,
    pub plies: Option<u32>,
    pub best_move: Option<String>,
    pub nodes: u64,
    pub seconds: f64,
    /// `--analyze`: every legal move's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveValue>>,
    #[serde(skip)]
    pub display: String,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Mismatch {
    pub line: usize,
    pub position: String,
    pub expected: Option<i32>,
    pub score: i32,
}

#[derive(Clone, Debug, Serialize)]
/// What a batch of positions (`--batch`) returns.
pub struct BatchReport {
    pub file: String,
    pub positions: usize,
    pub mismatches: usize,
    pub(crate) mismatched: Vec<Mismatch>,
    pub mean_seconds: f64,
    pub mean_nodes: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mean_best_move_nodes: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mean_best_move_seconds: Option<f64>,
    pub results: Vec<super::batch::Entry>,
}

impl BatchReport {
    /// The report of the batch file `file`.
    pub fn new(file: &str, report: &super::batch::Report) -> BatchReport {
        let e = &report.entries;
        BatchReport {
            file: file.to_string(),
            positions: e.len(),
            mismatches: report.mismatches().count(),
            mismatched: report
                .mismatches()
                .map(|e| Mismatch { line: e.line, position: e.position.clone(), expected: e.expected, score: e.score })
                .collect(),
            mean_seconds: report.mean_seconds,
            mean_nodes: report.mean_nodes,
            mean_best_move_nodes: report.mean_best_move.map(|(nodes, _)| nodes),
            mean_best_move_seconds: report.mean_best_move.map(|(_, seconds)| seconds),
            results: e.clone(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
/// What `--method othello` returns.
pub struct OthelloReport {
    pub game: String,
    pub position: String,
    pub weak: bool,
    pub result: &'static str,
    pub score: i32,
    pub empties: u32,
    pub best_move: Option<String>,
    pub nodes: u64,
    pub seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveValue>>,
    #[serde(skip)]
    pub display: String,
}

#[derive(Clone, Debug, Serialize)]
/// What `--method dfpn` returns.
pub struct DfpnReport {
    pub game: String,
    pub position: String,
    pub weak: bool,
    pub method: &'static str,
    pub result: &'static str,
    pub winner_text: String,
    pub proven: bool,
    pub score: i32,
    pub best_move: Option<String>,
    pub nodes: u64,
    pub runs: u32,
    pub seconds: f64,
    #[serde(skip)]
    pub display: String,
}

/// `qubic-pns`: df-pn with threat-space search ([`super::threats`]).
#[derive(Clone, Debug, Serialize)]
pub struct ThreatsReport {
    pub game: String,
    pub position: String,
    pub method: &'static str,
    /// `win`, or `no-win` (disproven: a draw or a loss for the side to move).
    pub result: &'static str,
    pub winner_text: String,
    pub proven: bool,
    pub score: i32,
    pub best_move: Option<String>,
    /// df-pn expansions in this run, and in the runs behind `--table`.
    pub nodes: u64,
    pub earlier_nodes: u64,
    /// Threat-space searches, the positions they visited, and those that found a winning sequence.
    pub(crate) tss_calls: u64,
    pub(crate) tss_nodes: u64,
    pub(crate) tss_wins: u64,
    /// Table entries in use at the end, and those read from `--table`.
    pub(crate) table_entries: u64,
    pub table_read: u64,
    /// The proof: positions where the winner moves and cannot win at once (one line each in `--proof`), and the
    /// file written with its size.
    pub proof_positions: Option<u64>,
    pub(crate) proof_file: Option<String>,
    pub(crate) proof_bytes: Option<u64>,
    /// `--check`: the proof file walked with the rules alone.
    pub proof_check: Option<ProofCheck>,
    pub seconds: f64,
    #[serde(skip)]
    pub display: String,
}

#[derive(Clone, Debug, Serialize)]
/// What `--method breakthrough-dfpn` returns.
pub struct BreakthroughReport {
    pub game: String,
    pub position: String,
    pub weak: bool,
    pub method: &'static str,
    pub result: String,
    pub winner_text: String,
    pub proven: bool,
    pub score: i32,
    pub plies: Option<u32>,
    pub best_move: Option<String>,
    pub winning_moves: Vec<String>,
    pub nodes: u64,
    pub distance_nodes: u64,
    pub earlier_nodes: u64,
    pub proof_check: Option<ProofCheck>,
    pub seconds: f64,
    #[serde(skip)]
    pub display: String,
}

#[derive(Clone, Debug, Serialize)]
/// What a split Breakthrough solve returns.
pub struct SplitReport {
    pub game: String,
    pub position: String,
    pub weak: bool,
    pub method: &'static str,
    /// `win`, `loss`, or `unknown` when some first move is undecided.
    pub result: String,
    /// 1, -1, or none when undecided.
    pub score: Option<i32>,
    pub best_move: Option<String>,
    pub winning_moves: Vec<String>,
    pub undecided_moves: Vec<String>,
    pub nodes: u64,
    pub earlier_nodes: u64,
    pub seconds: f64,
    pub root_pn: u32,
    pub root_dn: u32,
}

/// `--check-split`: the verdict of the split proof check so far ([`super::run::check_split`]).
#[derive(Clone, Debug, Serialize)]
pub struct CheckSplitReport {
    pub game: String,
    pub position: String,
    /// The claim for the side to move at the root (`win`, `loss`) and the loser's moves expanded before the jobs.
    pub claim: String,
    pub(crate) split_depth: u32,
    /// `verified` (no failure in the plan, every job verified), `failed`, or `unfinished`.
    pub verdict: String,
    pub verified: bool,
    /// Jobs in the plan, with a line in the results file, verified, and done by this run.
    pub jobs: usize,
    pub(crate) jobs_done: usize,
    pub jobs_verified: usize,
    pub jobs_this_run: u64,
    /// The winner's moves chosen at the split levels (so far, while the plan is not complete), and by this run.
    pub choices: usize,
    pub choices_this_run: u64,
    /// Whether every choice of the plan is known (the results file holds the plan); while it is not, `jobs` counts
    /// the jobs known so far and `choices_needed` the positions whose choice is still to be made.
    pub plan_complete: bool,
    pub choices_needed: usize,
    /// Lines (moves from the root) where the claim failed: in the plan, or in a job's check.
    pub failures: Vec<String>,
    /// Totals over the jobs done: df-pn expansions, the checks' positions (winner, loser to move).
    pub(crate) solve_nodes: u64,
    pub or_positions: u64,
    pub and_positions: u64,
    /// CPU seconds per job done (median, max, sum; jobs whose line has them).
    pub(crate) job_cpu_seconds_median: Option<f64>,
    pub(crate) job_cpu_seconds_max: Option<f64>,
    pub(crate) job_cpu_seconds_total: f64,
    /// Seconds per job done (wall clock: median, max, sum), and of this run.
    pub(crate) job_seconds_median: Option<f64>,
    pub(crate) job_seconds_max: Option<f64>,
    pub(crate) job_seconds_total: f64,
    pub seconds: f64,
}

#[derive(Clone, Debug, Serialize)]
/// What building a retrograde database returns.
pub struct RetroBuildReport {
    pub game: String,
    pub position: String,
    pub method: &'static str,
    pub result: &'static str,
    pub winner_text: String,
    pub proven: bool,
    pub plies: Option<u32>,
    pub best_moves: Vec<String>,
    pub positions: usize,
    pub moves: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub(crate) max_distance: u32,
    pub(crate) memory_bytes: u64,
    pub db: Option<String>,
    pub(crate) db_bytes: Option<u64>,
    pub seconds: f64,
    pub(crate) write_seconds: f64,
    #[serde(skip)]
    pub display: String,
}

#[derive(Clone, Debug, Serialize)]
/// What a query of a retrograde database returns.
pub struct RetroQueryReport {
    pub game: String,
    pub position: String,
    pub method: &'static str,
    pub db: String,
    pub result: &'static str,
    pub winner_text: String,
    pub proven: bool,
    pub score: i32,
    pub plies: Option<u32>,
    pub best_move: Option<String>,
    pub best_moves: Vec<String>,
    pub seconds: f64,
    /// Positions in the database.
    #[serde(skip)]
    pub(crate) db_positions: usize,
    #[serde(skip)]
    pub display: String,
}

/// The value of one move from the Oware databases.
#[derive(Clone, Debug, Serialize)]
pub struct OwareMoveValue {
    #[serde(rename = "move")]
    pub mv: String,
    pub value: i32,
}

#[derive(Clone, Debug, Serialize)]
/// What the Oware solver and its databases return.
pub struct OwareReport {
    pub game: String,
    pub position: String,
    pub(crate) db_seeds: usize,
    pub positions: u64,
    pub built_positions: u64,
    pub seconds: f64,
    pub(crate) positions_per_second: f64,
    pub levels: Vec<crate::games::oware::db::LevelReport>,
    pub(crate) seeds_on_board: usize,
    /// The database value (seeds from the board, side to move minus opponent); none when not in the databases.
    pub value: Option<i32>,
    /// The value with the stores.
    pub(crate) final_difference: Option<i32>,
    pub best_moves: Option<Vec<String>>,
    pub move_values: Option<Vec<OwareMoveValue>>,
    /// Whether the databases were built (`--method retro`), not only read.
    #[serde(skip)]
    pub built: bool,
}

/// The value of one move from the checkers databases.
#[derive(Clone, Debug, Serialize)]
pub struct CheckersMoveValue {
    #[serde(rename = "move")]
    pub mv: String,
    pub result: &'static str,
    pub plies: Option<u32>,
}

#[derive(Clone, Debug, Serialize)]
/// What the checkers endgame databases return.
pub struct CheckersDbReport {
    pub game: String,
    pub position: String,
    pub db_pieces: usize,
    /// Positions over all piece counts (placements: each with either side to move).
    pub positions: u64,
    pub built_positions: u64,
    pub seconds: f64,
    pub(crate) positions_per_second: f64,
    /// Per piece count: positions (Schaeffer's counts), wins, draws and losses for the side to move, seconds.
    pub pieces: Vec<crate::games::checkers::db::PieceReport>,
    pub(crate) pieces_on_board: usize,
    /// `win`, `draw` or `loss` for the side to move; none when the position is not in the databases.
    pub result: Option<&'static str>,
    /// Plies to the end under perfect play (win or loss).
    pub plies: Option<u32>,
    pub best_moves: Option<Vec<String>>,
    pub move_values: Option<Vec<CheckersMoveValue>>,
    /// Whether the databases were built (`--method retro`), not only read.
    #[serde(skip)]
    pub built: bool,
}

#[derive(Clone, Debug, Serialize)]
/// What `--method pig` returns.
pub struct PigReport {
    pub game: String,
    pub position: String,
    pub result: &'static str,
    pub win_probability: f64,
    pub best_move: Option<String>,
    pub hold_at: Vec<Vec<u32>>,
    pub sweeps: u64,
    pub seconds: f64,
    /// The turn total at which the side to move holds from this score.
    #[serde(skip)]
    pub(crate) hold_here: u32,
}

/// One move of a mixed strategy.
#[derive(Clone, Debug, Serialize)]
pub struct Weighted {
    #[serde(rename = "move")]
    pub mv: String,
    pub probability: f64,
}

#[derive(Clone, Debug, Serialize)]
/// What the simultaneous-move solver returns.
pub struct SimultaneousReport {
    pub game: String,
    pub position: String,
    pub result: &'static str,
    pub value: f64,
    pub strategy_first: Vec<Weighted>,
    pub strategy_second: Vec<Weighted>,
    pub states: usize,
    pub mixed_nodes: u64,
    pub seconds: f64,
    /// The players' names (`first`, `second` in games without names).
    #[serde(skip)]
    pub names: [String; 2],
}
