//! `plateau bench`: the engine searches a fixed set of positions to a fixed depth, one thread, a fresh 16 MiB table
//! each; the total node count is the engine's signature (it changes exactly when the search or evaluation does).

use std::time::Instant;

use crate::game::{FullGame, GameError};
use crate::games::AnyGame;
use crate::games::with_game;
use crate::search::{Limits, Searcher};

use super::Engine;
use super::params::EngineOptions;

/// The bench positions: (game string, position text).
pub(crate) const POSITIONS: &[(&str, &str)] = &[
    ("breakthrough", "start"),
    ("breakthrough", "1pp1pppp/pp1pppp1/1p1p4/1p4Pp/4P3/1PP2P2/2PPP3/PPPPPPPP w"),
    ("breakthrough", "pppppppp/2pp1pp1/1p6/4Pp2/2p1p3/2P5/PP1PPP1P/P1PP1PPP b"),
    ("breakthrough", "2pp1ppp/ppp2ppp/p4p2/2PPp1p1/3PP1P1/p3P3/4PP2/PPPPPPPP w"),
    ("breakthrough", "pppppppp/4pp2/3p1pp1/4p3/1p1pP3/1P1P2PP/PP1PPPP1/1P1PP2P b"),
    ("breakthrough(rows=6,columns=5)", "start"),
    ("breakthrough(rows=5,columns=5)", "start"),
    ("connect_four", "start"),
];

/// Default bench depth (plies).
pub(crate) const DEFAULT_DEPTH: u32 = 8;

/// One searched position.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BenchLine {
    pub game: String,
    pub position: String,
    pub best_move: String,
    pub value: i32,
    pub nodes: u64,
    pub seconds: f64,
}

/// The whole run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BenchResult {
    pub depth: u32,
    pub lines: Vec<BenchLine>,
    pub nodes: u64,
    pub seconds: f64,
    pub nps: u64,
}

/// One position of the bench: the engine searches it alone, single-threaded, with a 16 MiB table.
fn bench_line<G: FullGame>(g: &G, pos: &str, depth: u32, opts: &EngineOptions) -> Result<BenchLine, GameError> {
    // The bench's games are all of the engine's kind; the test at compile time keeps the engine from being compiled
    // here for the games it does not play.
    if const { !G::KIND.is_classic() } {
        return Err(GameError::new(format!("{}: the bench's positions are of games the engine plays", g.spec())));
    }
    let state = if pos == "start" { g.start() } else { g.parse_position(pos)? };
    let o = EngineOptions {
        limits: Limits { depth: Some(depth), time: None, nodes: None },
        threads: 1,
        tt_mib: 16,
        ..opts.clone()
    };
    let mut e = Engine::new(o);
    let r = e.search(g, &state);
    Ok(BenchLine {
        game: g.spec(),
        position: g.format_position(&state),
        best_move: r.best_move.map_or("-".into(), |m| g.format_move(&state, m)),
        value: r.value,
        nodes: r.stats.nodes,
        seconds: r.seconds,
    })
}

/// Run the bench at `depth` with the engine options `opts` (limits and threads are overridden).
pub fn run(depth: u32, opts: &EngineOptions, mut progress: impl FnMut(&BenchLine)) -> Result<BenchResult, GameError> {
    let start = Instant::now();
    let mut lines = Vec::new();
    for &(game, pos) in POSITIONS {
        let any = AnyGame::parse(game)?;
        let line = with_game!(&any, g => bench_line(g, pos, depth, opts)?);
        progress(&line);
        lines.push(line);
    }
    let seconds = start.elapsed().as_secs_f64();
    let nodes = lines.iter().map(|l| l.nodes).sum();
    Ok(BenchResult { depth, lines, nodes, seconds, nps: (nodes as f64 / seconds.max(1e-9)) as u64 })
}
