//! Batch files for `plateau solve --batch FILE`: one position per line, optionally followed by the expected score;
//! empty lines and lines starting with `#` are skipped. This file reads the lines, holds the report of a batch (one
//! entry per position, mismatches against the expected scores, means), and runs a batch with the generic solver
//! (positions written as the game's position text, the expected score as the last word). Connect Four batches (move
//! sequences, Pons's score) are in [`crate::solve::connect4`].

use crate::game::{FullGame, Game};
use crate::solve::generic::GenericSolver;

/// The non-empty, non-comment lines of a batch file (trimmed) with their line numbers; only the first `first` of them
/// when given.
pub(crate) fn read_lines(file: &str, first: Option<usize>) -> Result<Vec<(usize, String)>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read batch file {file}: {e}"))?;
    Ok(lines_of(&text, first))
}

/// The lines [`read_lines`] keeps of a batch file's text.
pub fn lines_of(text: &str, first: Option<usize>) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim().to_string()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if let Some(n) = first {
        out.truncate(n);
    }
    out
}

/// One solved position of a batch.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Entry {
    /// Line number in the file.
    pub line: usize,
    /// The position as reported: the moves as written (Connect Four), the game's position text (other games).
    pub position: String,
    /// `win`, `loss` or `draw`.
    pub result: &'static str,
    pub score: i32,
    /// The file's expected score (its sign in a weak solve), if any.
    pub expected: Option<i32>,
    pub best_move: Option<String>,
    pub nodes: u64,
    pub seconds: f64,
    /// Connect Four: what finding the best move cost after the score (`best_move_nodes`, `best_move_seconds`).
    #[serde(flatten)]
    pub(crate) best_move_cost: Option<BestMoveCost>,
}

/// What finding the best move cost after the score was known.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub(crate) struct BestMoveCost {
    #[serde(rename = "best_move_nodes")]
    pub nodes: u64,
    #[serde(rename = "best_move_seconds")]
    pub seconds: f64,
}

impl Entry {
    /// Whether the score differs from the expected one.
    pub fn mismatch(&self) -> bool {
        self.expected.is_some_and(|w| w != self.score)
    }
}

/// The expected score of a line as compared: its sign in a weak solve.
pub(crate) fn expected_score(expected: Option<i32>, weak: bool) -> Option<i32> {
    expected.map(|e| if weak { e.signum() } else { e })
}

/// A solved batch.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// In file order.
    pub entries: Vec<Entry>,
    pub mean_seconds: f64,
    pub mean_nodes: f64,
    /// Connect Four: the mean cost of finding the best move (nodes, seconds).
    pub(crate) mean_best_move: Option<(f64, f64)>,
}

impl Report {
    /// The report of `entries`, with the means of the best-move costs when `best_move_costs` (0 when there is no
    /// entry).
    pub fn new(entries: Vec<Entry>, best_move_costs: bool) -> Report {
        let count = entries.len().max(1) as f64;
        let (mut sum_s, mut sum_n, mut sum_bs, mut sum_bn) = (0.0, 0u64, 0.0, 0u64);
        for e in &entries {
            sum_s += e.seconds;
            sum_n += e.nodes;
            if let Some(cost) = e.best_move_cost {
                sum_bn += cost.nodes;
                sum_bs += cost.seconds;
            }
        }
        let mean_best_move = best_move_costs.then(|| (sum_bn as f64 / count, sum_bs / count));
        Report { entries, mean_seconds: sum_s / count, mean_nodes: sum_n as f64 / count, mean_best_move }
    }

    /// The entries whose score differs from the expected one.
    pub fn mismatches(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.mismatch())
    }
}

/// A position of a generic batch: line number, state, expected score.
pub(crate) type GenericJob<G> = (usize, <G as Game>::State, Option<i32>);

/// Parse the lines of a batch file for `g`: the whole line as a position, or the line without its last word, a whole
/// number (the expected score). Errors name the file and the line; a position where the game is over is one.
pub(crate) fn parse_positions<G: FullGame>(
    g: &G,
    file: &str,
    lines: &[(usize, String)],
) -> Result<Vec<GenericJob<G>>, String> {
    let mut jobs = Vec::with_capacity(lines.len());
    for (n, line) in lines {
        let parsed = match g.parse_position(line) {
            Ok(s) => (s, None),
            Err(e) => match line.rsplit_once(char::is_whitespace) {
                Some((pos, score)) if score.parse::<i32>().is_ok() => {
                    let s = g.parse_position(pos.trim()).map_err(|e| format!("{file} line {n}: {e}"))?;
                    (s, score.parse::<i32>().ok())
                }
                _ => return Err(format!("{file} line {n}: {e}")),
            },
        };
        if g.is_terminal(&parsed.0) {
            return Err(format!("{file} line {n}: the game is over in this position"));
        }
        jobs.push((*n, parsed.0, parsed.1));
    }
    Ok(jobs)
}

/// Solve every job with the generic solver (a table of `mib` MiB), calling `on_entry` after each.
pub(crate) fn solve_positions<G: FullGame>(
    g: &G,
    jobs: &[GenericJob<G>],
    mib: usize,
    weak: bool,
    mut on_entry: impl FnMut(&Entry),
) -> Report {
    let mut solver = GenericSolver::<G>::new(mib, weak);
    let mut entries = Vec::with_capacity(jobs.len());
    for (n, state, expected) in jobs {
        let r = solver.solve(g, state);
        // Deeper than the solver can follow: no value (see `generic::max_ply`).
        let (result, score) = if r.too_deep { ("too_deep", 0) } else { r.word_and_score(weak) };
        let entry = Entry {
            line: *n,
            position: g.format_position(state),
            result,
            score,
            expected: expected_score(*expected, weak),
            best_move: r.best_move.map(|m| g.format_move(state, m)),
            nodes: r.nodes,
            seconds: r.seconds,
            best_move_cost: None,
        };
        on_entry(&entry);
        entries.push(entry);
    }
    Report::new(entries, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;

    fn entry(line: usize, score: i32, expected: Option<i32>, nodes: u64, cost: Option<(u64, f64)>) -> Entry {
        let position = String::new();
        let (best_move, seconds) = (None, 0.5);
        let best_move_cost = cost.map(|(nodes, seconds)| BestMoveCost { nodes, seconds });
        Entry { line, position, result: "draw", score, expected, best_move, nodes, seconds, best_move_cost }
    }

    #[test]
    fn lines_skip_comments_and_blanks() {
        let f = std::env::temp_dir().join(format!("plateau-batch-{}", std::process::id()));
        std::fs::write(&f, "# head\n4455 18\n\n  3344  \n# tail\n12\n").unwrap();
        let name = f.to_str().unwrap();
        let all = read_lines(name, None).unwrap();
        assert_eq!(all, [(2, "4455 18".to_string()), (4, "3344".to_string()), (6, "12".to_string())]);
        assert_eq!(read_lines(name, Some(1)).unwrap().len(), 1);
        std::fs::remove_file(&f).unwrap();
        assert!(read_lines(name, None).unwrap_err().starts_with("cannot read batch file"));
    }

    #[test]
    fn report_means_and_mismatches() {
        let r = Report::new(
            vec![entry(1, 2, Some(2), 10, Some((4, 0.25))), entry(3, 1, Some(-1), 20, Some((0, 0.0)))],
            true,
        );
        assert_eq!((r.mean_nodes, r.mean_seconds, r.mean_best_move), (15.0, 0.5, Some((2.0, 0.125))));
        assert_eq!(r.mismatches().map(|e| e.line).collect::<Vec<_>>(), [3]);
        assert_eq!(Report::new(Vec::new(), false).mean_best_move, None);
        assert_eq!(expected_score(Some(-7), true), Some(-1));
        assert_eq!(expected_score(Some(-7), false), Some(-7));
    }

    #[test]
    fn generic_positions_with_and_without_expected_scores() {
        let g = TicTacToe;
        let start = g.format_position(&g.start());
        let lines = [(1, start.clone()), (2, format!("{start} 0"))];
        let jobs = parse_positions(&g, "F", &lines).unwrap();
        assert_eq!((jobs[0].2, jobs[1].2), (None, Some(0)));
        let r = solve_positions(&g, &jobs, 1, false, |_| {});
        assert!(r.entries.iter().all(|e| e.result == "draw" && !e.mismatch()));
        let bad = [(7, format!("{start} zz"))];
        assert!(parse_positions(&g, "F", &bad).unwrap_err().starts_with("F line 7: "));
    }
}
