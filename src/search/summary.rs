//! The report of one search, as every surface gives it: `plateau search` (text and `--json`), Python's
//! `plateau.search`, and any caller of the library. One structure, built from the search's result; the field list is
//! documented in `docs/cli.md` (`search --json`).

use crate::game::{Evaluator, FullGame, Term, WIN_THRESHOLD, describe_score, line_words, winner_words};

use super::{RootMoveStats, SearchResult};

/// One search's result in words and numbers.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SearchReport {
    pub game: String,
    /// The searched position's text.
    pub position: String,
    /// The player string that searched.
    pub algo: String,
    /// `None` only in a terminal position.
    pub best_move: Option<String>,
    /// From the side to move's point of view; wins are `WIN_SCORE - plies`.
    pub value: i32,
    /// `win in 7`, `+35`, ...
    pub value_text: String,
    /// Whether the value is a proven win or loss.
    pub proven: bool,
    /// `proven` or `heuristic`.
    pub value_kind: &'static str,
    /// Who wins in words when proven: "White, the first player, wins".
    pub winner_text: Option<String>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub leaves: u64,
    pub cutoffs: u64,
    pub researches: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
    /// The principal variation, written.
    pub pv: Vec<String>,
    pub seconds: f64,
    /// The terms of the game's default evaluation at the position, where it names them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) eval_terms: Vec<Term>,
    /// The player's setup before the search (tables, evaluation), when measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) setup_seconds: Option<f64>,
    /// Per root move statistics of searchers that keep them (MCTS), best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub root_moves: Vec<RootMoveReport>,
}

/// One root move of an MCTS search.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RootMoveReport {
    #[serde(rename = "move")]
    pub mv: String,
    pub visits: u64,
    /// Mean reward for the side to move (0 a loss, 1 a win).
    pub mean: f64,
    /// The exact value once proven.
    pub proven: Option<i32>,
}

impl SearchReport {
    /// The report of `r`, the result of the player `algo` searching `state`.
    pub fn new<G: FullGame>(game: &G, state: &G::State, algo: &str, r: &SearchResult<G::Move>) -> SearchReport {
        let proven = r.value.abs() >= WIN_THRESHOLD;
        let stm = game.side_to_move(state);
        let winner_text = proven.then(|| winner_words(game, stm, if r.value > 0 { "win" } else { "loss" }));
        SearchReport {
            game: game.spec(),
            position: game.format_position(state),
            algo: algo.to_string(),
            best_move: r.best_move.map(|m| game.format_move(state, m)),
            value: r.value,
            value_text: describe_score(r.value),
            proven,
            value_kind: if proven { "proven" } else { "heuristic" },
            winner_text,
            depth: r.depth,
            nodes: r.stats.nodes,
            leaves: r.stats.leaves,
            cutoffs: r.stats.cutoffs,
            researches: r.stats.researches,
            tt_probes: r.stats.tt_probes,
            tt_hits: r.stats.tt_hits,
            pv: line_words(game, state, &r.pv),
            seconds: r.seconds,
            eval_terms: Evaluator::terms(&G::Eval::default(), game, state),
            setup_seconds: None,
            root_moves: Vec::new(),
        }
    }

    /// With the root moves' statistics (`root`, best first).
    pub(crate) fn with_root_moves<G: FullGame>(
        mut self,
        game: &G,
        state: &G::State,
        root: &[RootMoveStats<G::Move>],
    ) -> Self {
        self.root_moves = root
            .iter()
            .map(|m| RootMoveReport {
                mv: game.format_move(state, m.mv),
                visits: m.visits,
                mean: m.mean,
                proven: m.proven,
            })
            .collect();
        self
    }
}
