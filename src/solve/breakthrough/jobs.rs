//! The job lines of a split solve ([`super::Solver::split`]): one [`Job`] per df-pn run on a root move, written as a
//! JSON line by the callers, and read back from a results file ([`decided_moves`]) so that a later run takes the
//! decided moves as known.

/// One job of a split solve ([`super::Solver::split`]): a root move (with the moves that lead to the same position up
/// to mirror symmetry) after one df-pn run on the position it leads to.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Job {
    /// The root: game string and position text (`breakthrough(rows=6,columns=5) ppppp/ppppp/5/5/PPPPP/PPPPP w`).
    pub root: String,
    /// Round of the schedule (the budget doubles every round), 0-based; `None` when the result came from elsewhere.
    pub round: Option<u32>,
    #[serde(rename = "move")]
    pub mv: String,
    /// Other root moves reaching the mirror image of the same position (they share the result).
    pub mirrors: Vec<String>,
    /// `"win"` or `"loss"` for the side to move at the root when it plays this move; `None` while open.
    pub result: Option<String>,
    /// Expansions of this job and of all jobs on this move so far.
    pub job_nodes: u64,
    pub(crate) move_nodes: u64,
    /// The position after the move: its (pn, dn) from the opponent's point of view (the side to move there).
    pub pn: u32,
    pub dn: u32,
    /// All expansions of the solver so far and the seconds since it started.
    pub(crate) total_nodes: u64,
    pub seconds: f64,
}

/// The decided root moves recorded in a file of [`Job`] lines (JSON, one per line, as [`super::Solver::split`]'s
/// callers write them): every move named by a decided job on `root` (as its move or a mirror) with the result for the
/// root's side to move (`true` = win). Lines that are not decided jobs on `root` ([`Job::root`]) are skipped.
pub(crate) fn decided_moves(text: &str, root: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for job in text.lines().filter_map(|l| serde_json::from_str::<Job>(l).ok()).filter(|j| j.root == root) {
        let win = match job.result.as_deref() {
            Some("win") => true,
            Some("loss") => false,
            _ => continue,
        };
        for m in std::iter::once(job.mv).chain(job.mirrors) {
            out.push((m, win));
        }
    }
    out
}
