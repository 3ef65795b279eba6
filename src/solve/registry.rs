//! The one registry of solvers: every `--method` of `plateau solve`, the games each applies to, which is the default
//! for each game, the options each reads, what its score means, and the function that runs it.
//!
//! ```text
//! registry::solve(any game, Request, Progress)
//!     target(game): the one match on the game (Connect Four, Breakthrough, Othello, Oware, Pig, simultaneous moves,
//!                   another deterministic game of perfect information, or none of these)
//!     choose: --method by name, else by alias among the solvers that apply (table order: `dfpn` is the Breakthrough
//!             solver on Breakthrough, the generic df-pn elsewhere), else the game's default
//!             -> unknown or inapplicable method: one line listing the solvers for this game
//!     refuse every option given that the chosen solver does not read (one line, nothing silently ignored)
//!     run it (solve/run/*.rs) -> a typed, serialisable report (solve/report.rs) that every surface prints
//! ```
//!
//! Adding a solver: its code in `src/solve/`, a run function in `src/solve/run/` that turns a [`Request`] into a
//! [`SolveReport`] variant, one entry in [`SOLVERS`] and one arm in [`solve`]'s dispatch; `docs/solving.md`'s table is
//! [`markdown_table`], checked by the test `docs_table_is_the_registry` below.

use serde::Serialize;

use crate::games::{AnyGame, with_game};

use super::report::SolveReport;
use super::request::{Flag, Progress, Request};
use super::run;

/// What a game is, for the solvers: the one place that looks at which game it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    ConnectFour,
    Breakthrough,
    Othello,
    Oware,
    /// Checkers (English draughts): its endgame databases.
    Checkers,
    /// Pig, a dice game (value iteration).
    Pig,
    /// Qubic (3D tic-tac-toe): df-pn with threat-space search.
    Qubic,
    /// A game with simultaneous moves and without hidden information (backward induction with linear programming).
    Simultaneous,
    /// Any other deterministic game of perfect information with alternating moves.
    Classic,
    /// A game no solver takes (hidden information, chance other than Pig's).
    Unsolvable,
}

impl Target {
    /// Every target, in the order of the documentation.
    pub const ALL: [Target; 10] = [
        Target::ConnectFour,
        Target::Breakthrough,
        Target::Othello,
        Target::Oware,
        Target::Checkers,
        Target::Pig,
        Target::Qubic,
        Target::Simultaneous,
        Target::Classic,
        Target::Unsolvable,
    ];

    /// The name of the target in the documentation's table.
    pub fn describe(self) -> &'static str {
        match self {
            Target::ConnectFour => "Connect Four",
            Target::Breakthrough => "Breakthrough",
            Target::Othello => "Othello",
            Target::Oware => "Oware",
            Target::Checkers => "checkers",
            Target::Pig => "Pig",
            Target::Qubic => "Qubic",
            Target::Simultaneous => "simultaneous moves",
            Target::Classic => "other deterministic games",
            Target::Unsolvable => "none",
        }
    }
}

/// The solvers' view of `game`.
pub fn target(game: &AnyGame) -> Target {
    let kind = game.kind();
    match game {
        AnyGame::ConnectFour(_) => Target::ConnectFour,
        AnyGame::Breakthrough(_) if kind.is_classic() => Target::Breakthrough,
        AnyGame::Othello(_) => Target::Othello,
        AnyGame::Oware(_) => Target::Oware,
        AnyGame::Checkers(_) => Target::Checkers,
        AnyGame::Pig(_) => Target::Pig,
        AnyGame::Qubic(_) => Target::Qubic,
        _ if kind.simultaneous && !kind.hidden => Target::Simultaneous,
        _ if kind.is_classic() => Target::Classic,
        _ => Target::Unsolvable,
    }
}

/// One entry of the registry.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SolverInfo {
    /// The `--method` value.
    pub name: &'static str,
    /// Other `--method` spellings, for the games this solver applies to (an alias names the first solver of
    /// [`SOLVERS`] that applies to the game and has it).
    pub aliases: &'static [&'static str],
    /// The games it solves.
    pub games: &'static [Target],
    /// The games it is the default for (no `--method`).
    pub default_for: &'static [Target],
    /// The options it reads besides the position, `--method` and `--json`.
    pub options: &'static [Flag],
    /// What its `score` (or value) means.
    pub score: &'static str,
    /// What it is, in a few words (also the name in error messages).
    pub summary: &'static str,
}

impl SolverInfo {
    /// Whether the solver solves the target `t`.
    pub fn applies(&self, t: Target) -> bool {
        self.games.contains(&t)
    }

    fn named(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}

use Flag::*;
use Target::*;

/// Every solver. The order matters for aliases only (the first that applies wins).
pub const SOLVERS: &[SolverInfo] = &[
    SolverInfo {
        name: "connect4",
        aliases: &["alphabeta"],
        games: &[ConnectFour],
        default_for: &[ConnectFour],
        options: &[Batch, First, Weak, Tt],
        score: "Pascal Pons's: rows*columns/2 + 1 - s for a win with the winner's s-th stone, its opposite for a loss, 0 for a draw (--weak: 1, 0, -1)",
        summary: "the Connect Four solver (bitboards, Pons's design)",
    },
    SolverInfo {
        name: "othello-endgame",
        aliases: &["alphabeta"],
        games: &[Othello],
        default_for: &[Othello],
        options: &[Batch, First, Weak, Analyze, Tt, Table, SaveEvery, MaxSeconds],
        score: "the final disc difference for the side to move, the empties to the winner (--weak: 1, 0, -1)",
        summary: "the Othello endgame solver (MTD(f), exact)",
    },
    SolverInfo {
        name: "breakthrough-dfpn",
        aliases: &["dfpn"],
        games: &[Breakthrough],
        default_for: &[Breakthrough],
        options: &[
            Weak,
            Tt,
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
            CheckSplit,
            SplitDepth,
        ],
        score: "plies to the end under perfect play, positive for a win, negative for a loss (--weak, --split: 1 or -1)",
        summary: "the Breakthrough df-pn solver with game knowledge",
    },
    SolverInfo {
        name: "qubic-pns",
        aliases: &["dfpn", "pns"],
        games: &[Qubic],
        default_for: &[Qubic],
        options: &[
            Tt, MaxNodes, MaxSeconds, Table, SaveEvery, Proof, Check, CheckMemo, CheckProof, Split, SplitFirst, Results,
        ],
        score: "1 for a win of the side to move (proven), -1 when disproven (a draw or a loss: the search proves wins only)",
        summary: "df-pn with threat-space search and symmetry, through the game's knowledge; the proof saved and checked",
    },
    SolverInfo {
        name: "alphabeta",
        aliases: &[],
        games: &[Breakthrough, Oware, Checkers, Qubic, Classic],
        default_for: &[Oware, Checkers, Classic],
        options: &[Batch, First, Weak, Analyze, Tt],
        score: "plies to the end under perfect play, positive for a win, negative for a loss, 0 for a draw (--weak: 1, 0, -1)",
        summary: "the generic alpha-beta solver",
    },
    SolverInfo {
        name: "dfpn-generic",
        aliases: &["dfpn"],
        games: &[ConnectFour, Breakthrough, Othello, Oware, Checkers, Qubic, Classic],
        default_for: &[],
        options: &[Weak, Tt, MaxNodes],
        score: "1 for a win, 0 for a draw, -1 for a loss (always weak)",
        summary: "the generic df-pn",
    },
    SolverInfo {
        name: "retro",
        aliases: &[],
        games: &[ConnectFour, Breakthrough, Othello, Qubic, Classic],
        default_for: &[],
        options: &[Db, MaxMemory, SaveEvery],
        score: "win, draw or loss with the plies to the end (read from --db: plies, positive for a win, negative for a loss)",
        summary: "the retrograde analysis (--method retro, --db)",
    },
    SolverInfo {
        name: "oware-db",
        aliases: &["retro"],
        games: &[Oware],
        default_for: &[],
        options: &[Db, DbSeeds],
        score: "the seeds still on the board that the side to move gets minus the opponent's (final: with the stores)",
        summary: "the Oware endgame databases (--method retro, --db DIR)",
    },
    SolverInfo {
        name: "checkers-db",
        aliases: &["retro"],
        games: &[Checkers],
        default_for: &[],
        options: &[Db, DbPieces],
        score: "win, draw or loss for the side to move with the plies to the end under perfect play (without the draw rule)",
        summary: "the checkers endgame databases (--method retro, --db DIR)",
    },
    SolverInfo {
        name: "pig",
        aliases: &[],
        games: &[Pig],
        default_for: &[Pig],
        options: &[],
        score: "the winning probability of the side to move under optimal play",
        summary: "value iteration for Pig",
    },
    SolverInfo {
        name: "simultaneous",
        aliases: &[],
        games: &[Simultaneous],
        default_for: &[Simultaneous],
        options: &[],
        score: "the first player's expected result (win 1, draw 0, loss -1) when both play optimal mixed strategies",
        summary: "backward induction with linear programming",
    },
];

/// The names of the solvers for games of `t`.
pub fn names_for(t: Target) -> Vec<&'static str> {
    SOLVERS.iter().filter(|s| s.applies(t)).map(|s| s.name).collect()
}

/// The solver `--method name` names on `t`, if any applies.
pub fn find(name: &str, t: Target) -> Option<&'static SolverInfo> {
    let applies = || SOLVERS.iter().filter(move |s| s.applies(t));
    applies().find(|s| s.name == name).or_else(|| applies().find(|s| s.named(name)))
}

/// The solver for `game` and `req`: `--method`, else the default (with `--db` alone: the database's reader; on
/// Breakthrough with `--batch` or `--analyze`: the generic alpha-beta solver, which reads them).
pub fn choose(game: &AnyGame, spec: &str, req: &Request) -> Result<&'static SolverInfo, String> {
    let t = target(game);
    let list = || names_for(t).join(", ");
    if t == Unsolvable {
        return Err(format!(
            "solve: {spec} has {}; the solvers need a deterministic game of perfect information (or Pig, or simultaneous moves without hidden information)",
            game.kind().describe()
        ));
    }
    let name = match req.method.as_deref() {
        Some(m) => m,
        None if req.db.is_some() && find("retro", t).is_some() => "retro",
        None if t == Breakthrough && (req.batch.is_some() || req.analyze) => "alphabeta",
        None => match SOLVERS.iter().find(|s| s.default_for.contains(&t)) {
            Some(s) => s.name,
            None => return Err(format!("solve: no default solver for {spec} (solvers for this game: {})", list())),
        },
    };
    if let Some(s) = find(name, t) {
        return Ok(s);
    }
    let known = SOLVERS.iter().any(|s| s.named(name));
    let why = match t {
        Simultaneous => format!(
            "{spec} has simultaneous moves: it is solved by backward induction with linear programming, which takes no --method but `simultaneous`"
        ),
        _ if known => format!("--method {name} does not apply to {spec}"),
        _ => format!("unknown --method '{name}'"),
    };
    Err(format!("solve: {why} (solvers for this game: {})", list()))
}

/// Refuse every option of `req` that `solver` does not read: an option that does not apply is an error, not
/// silently ignored.
pub(crate) fn check_options(solver: &SolverInfo, req: &Request) -> Result<(), String> {
    match req.given().into_iter().find(|f| !solver.options.contains(f)) {
        Some(f) => Err(format!(
            "{} does not apply to {} ({}; its options: {}; see plateau solve --help)",
            f.name(),
            solver.summary,
            solver.name,
            if solver.options.is_empty() {
                "none".to_string()
            } else {
                solver.options.iter().map(|o| o.name()).collect::<Vec<_>>().join(" ")
            }
        )),
        None => Ok(()),
    }
}

/// Solve `req` on `game` (`spec`: the game string as given, for messages) with the solver the registry chooses.
pub fn solve(game: &AnyGame, spec: &str, req: &Request, progress: &mut dyn Progress) -> anyhow::Result<SolveReport> {
    let solver = choose(game, spec, req).map_err(anyhow::Error::msg)?;
    check_options(solver, req).map_err(anyhow::Error::msg)?;
    req.check_values().map_err(anyhow::Error::msg)?;
    Ok(match (solver.name, game) {
        ("connect4", AnyGame::ConnectFour(g)) => run::classic::connect4(g, req, progress)?,
        ("othello-endgame", AnyGame::Othello(g)) => run::othello::solve(g, req, progress)?,
        ("breakthrough-dfpn", AnyGame::Breakthrough(g)) => run::breakthrough::solve(g, req, progress)?,
        ("oware-db", AnyGame::Oware(g)) => run::oware::solve(g, req)?,
        ("checkers-db", AnyGame::Checkers(g)) => run::checkers::solve(g, req)?,
        ("pig", AnyGame::Pig(g)) => run::chance::pig(g, req)?,
        ("qubic-pns", AnyGame::Qubic(g)) => run::threats::solve(g, req, progress)?,
        ("alphabeta", any) => with_game!(any, g => run::classic::alphabeta(g, req, progress))?,
        ("dfpn-generic", any) => with_game!(any, g => run::classic::dfpn(g, req))?,
        ("retro", any) => with_game!(any, g => run::retro::solve(g, req, progress))?,
        ("simultaneous", any) => with_game!(any, g => run::chance::simultaneous(g, req))?,
        (name, _) => anyhow::bail!("internal error: solver {name} has no run function for {spec}"),
    })
}

/// The solvers, one line each (`plateau solve --help`).
pub(crate) fn help_text() -> String {
    let mut out = String::from("Solvers (--method; an alias names the first solver of the list that applies):\n");
    for s in SOLVERS {
        let games: Vec<&str> = s.games.iter().map(|t| t.describe()).collect();
        let default: Vec<&str> = s.default_for.iter().map(|t| t.describe()).collect();
        let aliases = if s.aliases.is_empty() { String::new() } else { format!(" (alias {})", s.aliases.join(", ")) };
        let default = if default.is_empty() { String::new() } else { format!("; default for {}", default.join(", ")) };
        out.push_str(&format!("  {}{aliases}: {}; {}{default}\n", s.name, s.summary, games.join(", ")));
    }
    out
}

/// The table of the solvers in `docs/solving.md` (between its `solvers-table` markers), generated from [`SOLVERS`]:
/// a test fails when the page and the registry differ.
#[cfg(test)]
pub(crate) fn markdown_table() -> String {
    let mut out = String::from("| `--method` | solver | aliases | games | default for | options | score |\n");
    out.push_str("|---|---|---|---|---|---|---|\n");
    let join = |v: Vec<String>| if v.is_empty() { "-".to_string() } else { v.join(", ") };
    for s in SOLVERS {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            s.name,
            s.summary,
            join(s.aliases.iter().map(|a| format!("`{a}`")).collect()),
            join(s.games.iter().map(|t| t.describe().to_string()).collect()),
            join(s.default_for.iter().map(|t| t.describe().to_string()).collect()),
            join(s.options.iter().map(|o| format!("`{}`", o.name())).collect()),
            s.score
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_table_is_the_registry() {
        let page = include_str!("../../docs/solving.md");
        let (start, end) =
            ("<!-- solvers-table: generated by solve::registry::markdown_table -->\n", "<!-- /solvers-table -->");
        let from = page.find(start).expect("docs/solving.md has the solvers-table marker") + start.len();
        let to = page[from..].find(end).expect("docs/solving.md has the end marker") + from;
        assert_eq!(
            page[from..to],
            markdown_table(),
            "docs/solving.md's table differs from the registry: paste markdown_table()"
        );
    }

    #[test]
    fn every_solvable_game_has_one_default_and_aliases_resolve() {
        for t in Target::ALL {
            let defaults = SOLVERS.iter().filter(|s| s.default_for.contains(&t)).count();
            assert_eq!(defaults, usize::from(t != Target::Unsolvable), "{t:?}");
            for s in SOLVERS.iter().filter(|s| s.default_for.contains(&t)) {
                assert!(s.applies(t), "{} is the default for {t:?} but does not apply", s.name);
            }
        }
        assert_eq!(find("dfpn", Target::Breakthrough).map(|s| s.name), Some("breakthrough-dfpn"));
        assert_eq!(find("dfpn", Target::Classic).map(|s| s.name), Some("dfpn-generic"));
        assert_eq!(find("alphabeta", Target::ConnectFour).map(|s| s.name), Some("connect4"));
        assert_eq!(find("alphabeta", Target::Othello).map(|s| s.name), Some("othello-endgame"));
        assert_eq!(find("alphabeta", Target::Breakthrough).map(|s| s.name), Some("alphabeta"));
        assert_eq!(find("retro", Target::Oware).map(|s| s.name), Some("oware-db"));
        assert_eq!(find("retro", Target::Checkers).map(|s| s.name), Some("checkers-db"));
        assert_eq!(find("retro", Target::Classic).map(|s| s.name), Some("retro"));
        assert!(find("connect4", Target::Classic).is_none());
        assert!(names_for(Target::Unsolvable).is_empty());
        assert_eq!(find("dfpn", Target::Qubic).map(|s| s.name), Some("qubic-pns"));
        assert_eq!(find("alphabeta", Target::Qubic).map(|s| s.name), Some("alphabeta"));
    }
}
