//! The page's analyses of a position, each a stateless request (game string, optional start position, moves):
//!
//! ```text
//! tree      the tree one catalogue algorithm explores at a small depth (search/trace_draw.rs, as `plateau tree`)
//! compare   nodes, leaves, cut-offs and time per algorithm and depth (as `plateau compare`, with a node budget)
//! verdict   (verdict.rs) the exact value where a solver applies, every move's cell as it is decided
//! replay    a match record (the arena's format) read back, every position of every game ready to draw
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

use super::ApiError;
use crate::arena::record::read_games;
use crate::files::FileAccess;
use crate::game::{FullGame, Game};
use crate::games::{AnyGame, with_game};
use crate::search::Limits;
use crate::search::catalogue::{self, Traced};
use crate::search::trace::Recorder;
use crate::search::trace_draw::draw_nodes;
use crate::spec::Spec;

/// Deepest tree drawn, largest tree recorded.
pub const TREE_MAX_DEPTH: u32 = 8;
pub const TREE_MAX_NODES: usize = 2000;
/// Compare: at most this many algorithms and depths, each cell stopped after this many nodes.
pub const COMPARE_MAX_ALGOS: usize = 8;
pub const COMPARE_MAX_DEPTH: u32 = 12;
pub const COMPARE_NODE_BUDGET: u64 = 2_000_000;
/// Compare: the whole table stops after this long (players with their own budget, `mcts(playouts=...)`, are held by
/// it), and as soon as the page that asked for it goes away.
pub const COMPARE_SECONDS: u64 = 30;
/// Replay: games and moves per game read from one record.
pub const REPLAY_MAX_GAMES: usize = 500;
pub const REPLAY_MAX_MOVES: usize = 2000;

/// The position of an analysis request.
#[derive(serde::Deserialize)]
pub struct At {
    pub game: String,
    #[serde(default)]
    pub position: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
}

pub(super) fn resolve<G: FullGame>(g: &G, at: &At) -> Result<G::State, ApiError> {
    let mut s = match at.position.as_deref().map(str::trim) {
        None | Some("") | Some("start") => g.start(),
        Some(t) => g.parse_position(t)?,
    };
    for (i, m) in at.moves.iter().enumerate() {
        s = g.play_moves(&s, m).map_err(|e| ApiError::bad(format!("move {} '{m}': {e}", i + 1)))?;
    }
    Ok(s)
}

#[derive(serde::Deserialize)]
pub struct TreeRequest {
    #[serde(flatten)]
    pub at: At,
    pub algo: String,
    #[serde(default)]
    pub depth: Option<u32>,
    #[serde(default)]
    pub max_nodes: Option<usize>,
}

/// The explored tree: `{algo, value, best_move, nodes, leaves, cutoffs, researches, roots, tree: [node]}`.
pub fn tree(r: &TreeRequest, files: &FileAccess) -> Result<Value, ApiError> {
    let any = AnyGame::parse_with(&r.at.game, files)?;
    let spec = Spec::parse_with(&r.algo, files)?;
    if catalogue::canonical(&spec.name).is_none() {
        let names: Vec<&str> = catalogue::NAMES.iter().map(|(n, _)| *n).collect();
        return Err(ApiError::bad(format!(
            "'{}' is not an algorithm of the catalogue ({})",
            spec.name,
            names.join(", ")
        )));
    }
    // As for a player: minimax on dice or simultaneous moves would draw a meaningless tree.
    if let Some(info) = crate::players::find(&spec.name).filter(|p| !p.plays(any.kind())) {
        return Err(ApiError::bad(format!(
            "{} cannot search a game with {} (algorithms for this game: {})",
            info.name,
            any.kind().describe(),
            crate::players::names_for(any.kind()).join(", ")
        )));
    }
    if spec.has("time") || spec.has("nodes") {
        return Err(ApiError::bad("a tree is drawn for a fixed-depth search (no time or nodes limit)"));
    }
    let depth = match (r.depth, spec.has("depth")) {
        (Some(_), true) => return Err(ApiError::bad("give the depth once: in the algorithm string or as depth")),
        (d, _) => d.unwrap_or(catalogue::DEFAULT_DEPTH.min(3)),
    };
    if depth == 0 || depth > TREE_MAX_DEPTH {
        return Err(ApiError::bad(format!("depth {depth}: a drawn tree is 1 to {TREE_MAX_DEPTH} plies deep")));
    }
    let text = match (spec.has("depth"), r.algo.find('(')) {
        (true, _) => r.algo.clone(),
        (false, Some(i)) => format!("{}(depth={depth},{}", spec.name, &r.algo[i + 1..]),
        (false, None) => format!("{}(depth={depth})", spec.name),
    };
    let spec = Spec::parse_with(&text, files)?;
    let max_nodes = r.max_nodes.unwrap_or(400);
    if !(1..=TREE_MAX_NODES).contains(&max_nodes) {
        return Err(ApiError::bad(format!("max_nodes {max_nodes}: a drawn tree has 1 to {TREE_MAX_NODES} nodes")));
    }
    with_game!(&any, g => {
        let state = resolve(g, &r.at)?;
        if g.is_terminal(&state) {
            return Err(ApiError::bad("the game is over in this position: there is nothing to search"));
        }
        let mut rec = Recorder::new(max_nodes);
        let built = catalogue::build(&spec, Traced { game: g, state: &state, tracer: &mut rec })?;
        spec.finish()?;
        let Some((name, result)) = built else { return Err(ApiError::bad(format!("unknown algorithm '{}'", spec.name))) };
        if rec.overflow {
            return Err(ApiError::bad(format!(
                "the search explored more than {max_nodes} nodes: too many to draw (use a smaller depth)"
            )));
        }
        let nodes = draw_nodes(g, &rec);
        Ok(json!({
            "game": g.spec(), "position": g.format_position(&state), "algo": name, "depth": depth,
            "value": result.value, "best_move": result.best_move.map(|m| g.format_move(&state, m)),
            "nodes": result.stats.nodes, "leaves": result.stats.leaves, "cutoffs": result.stats.cutoffs,
            "researches": result.stats.researches, "roots": rec.roots, "tree": nodes,
        }))
    })
}

#[derive(serde::Deserialize)]
pub struct CompareRequest {
    #[serde(flatten)]
    pub at: At,
    pub algos: Vec<String>,
    pub depths: Vec<u32>,
}

/// The course's table: `{rows: [{algo, depth, value, best_move, nodes, leaves, cutoffs, researches, seconds,
/// stopped}], cut_short}`; `stopped` when the cell reached the node budget or was stopped; `cut_short` when `stop` was
/// set (the ceiling of [`COMPARE_SECONDS`], or the client went away) and the cells after it were not searched.
pub fn compare(r: &CompareRequest, files: &FileAccess, stop: Arc<AtomicBool>) -> Result<Value, ApiError> {
    if r.algos.is_empty() || r.algos.len() > COMPARE_MAX_ALGOS {
        return Err(ApiError::bad(format!("give 1 to {COMPARE_MAX_ALGOS} algorithms")));
    }
    if r.depths.is_empty() || r.depths.len() > COMPARE_MAX_DEPTH as usize {
        return Err(ApiError::bad(format!("give 1 to {COMPARE_MAX_DEPTH} depths")));
    }
    if let Some(d) = r.depths.iter().find(|&&d| d == 0 || d > COMPARE_MAX_DEPTH) {
        return Err(ApiError::bad(format!("depth {d}: the table takes depths 1 to {COMPARE_MAX_DEPTH}")));
    }
    let any = AnyGame::parse_with(&r.at.game, files)?;
    with_game!(&any, g => compare_in(g, r, files, &stop))
}

fn compare_in<G: FullGame>(
    g: &G,
    r: &CompareRequest,
    files: &FileAccess,
    stop: &Arc<AtomicBool>,
) -> Result<Value, ApiError> {
    let state = resolve(g, &r.at)?;
    if g.is_terminal(&state) {
        return Err(ApiError::bad("the game is over in this position: there is nothing to search"));
    }
    for a in &r.algos {
        if Spec::parse_with(a, files)?.name == "random" {
            return Err(ApiError::bad("'random' does not search"));
        }
        crate::players::searcher_with::<G>(a, files)?;
    }
    let mut rows = Vec::new();
    for &depth in &r.depths {
        for a in &r.algos {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let mut s = crate::players::searcher_with::<G>(a, files)?;
            s.set_limits(Limits { depth: Some(depth), time: None, nodes: Some(COMPARE_NODE_BUDGET) });
            s.set_stop(stop.clone());
            let res = s.search(g, &state);
            let stopped = res.stats.nodes >= COMPARE_NODE_BUDGET || stop.load(Ordering::Relaxed);
            rows.push(json!({
                "algo": a, "depth": depth, "value": res.value, "score": crate::game::describe_score(res.value),
                "best_move": res.best_move.map(|m| g.format_move(&state, m)), "nodes": res.stats.nodes,
                "leaves": res.stats.leaves, "cutoffs": res.stats.cutoffs, "researches": res.stats.researches,
                "seconds": res.seconds, "stopped": stopped,
            }));
        }
    }
    let cut_short = rows.len() < r.depths.len() * r.algos.len();
    Ok(json!({ "game": g.spec(), "position": g.format_position(&state), "rows": rows, "cut_short": cut_short }))
}

/// Every game of a record, each position ready to draw: `{games: [{round, game, result, termination, moves,
/// positions: [{position, display, board}]}]}`.
pub fn replay(text: &str, files: &FileAccess) -> Result<Value, ApiError> {
    let games = read_games(text).map_err(ApiError::bad)?;
    if games.is_empty() {
        return Err(ApiError::bad(
            "no finished game in this record (the arena's format: [Tag \"value\"] lines, then moves)",
        ));
    }
    replay_games(&games, files)
}

/// [`replay`] of games already read (a tournament's game in progress: result `*`).
pub fn replay_games(games: &[crate::arena::record::ReadGame], files: &FileAccess) -> Result<Value, ApiError> {
    if games.len() > REPLAY_MAX_GAMES {
        return Err(ApiError::bad(format!("{} games: at most {REPLAY_MAX_GAMES} in one replay", games.len())));
    }
    let mut out = Vec::new();
    for rg in games {
        if rg.moves.len() > REPLAY_MAX_MOVES {
            return Err(ApiError::bad(format!("game {}: more than {REPLAY_MAX_MOVES} moves", rg.round)));
        }
        let any = AnyGame::parse_with(&rg.game, files).map_err(|e| ApiError::bad(format!("game {}: {e}", rg.round)))?;
        let positions = with_game!(&any, g => positions(g, rg))?;
        out.push(json!({
            "round": rg.round, "game": rg.game, "result": rg.result, "termination": rg.termination,
            "moves": rg.moves, "positions": positions,
        }));
    }
    Ok(json!({ "games": out }))
}

/// The positions of one recorded game, from its start.
fn positions<G: FullGame>(g: &G, rg: &crate::arena::record::ReadGame) -> Result<Vec<Value>, ApiError> {
    let at = At { game: rg.game.clone(), position: rg.fen.clone(), moves: Vec::new() };
    let mut s = resolve(g, &at).map_err(|e| ApiError::bad(format!("game {}: {}", rg.round, e.message)))?;
    let shown = |s: &G::State| {
        if G::KIND.hidden {
            json!({ "position": Value::Null, "display": "(hidden information)", "board": Value::Null })
        } else {
            json!({ "position": g.format_position(s), "display": g.display(s), "board": g.board_view(s) })
        }
    };
    let mut out = vec![shown(&s)];
    for (i, m) in rg.moves.iter().enumerate() {
        s = g.play_moves(&s, m).map_err(|e| ApiError::bad(format!("game {} move {} '{m}': {e}", rg.round, i + 1)))?;
        out.push(shown(&s));
    }
    Ok(out)
}
