//! `POST /api/verdict`: the exact value of a position and of every move where a solver decides it, each move's cell
//! reported as soon as it is decided, the whole stopped by a flag (the page's Cancel, the page leaving, the ceiling).
//!
//! ```text
//! Connect Four   Pons's score of every column (connect4.rs): the exact books, the position's mirror image, the solver
//! Breakthrough   the dedicated df-pn, root move by root move (job-level, mirror moves shared), then each move's exact
//!                distance by alpha-beta once every move is proven
//! other          generic df-pn on the position and on every move (win/draw/loss, no distance)
//! every cell     {move, result: "win"|"loss"|"draw"|"unknown", plies? (distance, from the position), source, ...}
//!                "unknown" with `why`: "budget" (the move's own budget ran out) or "stopped" (cancelled, ceiling)
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde_json::{Value, json};

use super::ApiError;
use super::analysis::{At, resolve};
use crate::files::FileAccess;
use crate::game::{FullGame, Game, MoveList, Outcome};
use crate::games::breakthrough::{Breakthrough, BtState};
use crate::games::{AnyGame, with_game};
use crate::solve::dfpn::Dfpn;

/// Generic df-pn: expansions per move and for the position.
pub const DFPN_BUDGET: u64 = 200_000;
/// Breakthrough: the first job's budget of expansions per root move (it doubles every round, job-level).
pub const BREAKTHROUGH_JOB_BUDGET: u64 = 20_000;
/// A verdict stops after this many seconds unless the request asks for another ceiling (1 to
/// [`VERDICT_MAX_SECONDS`]); what was proven by then is reported, the other cells "unknown".
pub const VERDICT_SECONDS: u64 = 30;
pub const VERDICT_MAX_SECONDS: u64 = 120;

/// A verdict request: the position, its ceiling in seconds, and whether its progress is streamed.
#[derive(serde::Deserialize)]
pub struct VerdictRequest {
    #[serde(flatten)]
    pub at: At,
    #[serde(default)]
    pub seconds: Option<u64>,
    #[serde(default)]
    pub stream: bool,
}

impl VerdictRequest {
    /// The ceiling asked for, checked.
    pub fn ceiling(&self) -> Result<u64, ApiError> {
        match self.seconds {
            None => Ok(VERDICT_SECONDS),
            Some(s) if (1..=VERDICT_MAX_SECONDS).contains(&s) => Ok(s),
            Some(s) => Err(ApiError::bad(format!("seconds {s}: a verdict takes 1 to {VERDICT_MAX_SECONDS} seconds"))),
        }
    }
}

/// Where a verdict reports each cell as it is decided, and where it looks whether it must stop.
pub struct Watch<'a> {
    pub stop: &'a Arc<AtomicBool>,
    pub progress: &'a (dyn Fn(Value) + Sync),
    pub t0: Instant,
}

impl Watch<'_> {
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// One move's cell decided (or given up): `done` of `total` cells known.
    pub fn cell(&self, cell: &Value, done: usize, total: usize) {
        (self.progress)(json!({
            "event": "move", "cell": cell, "done": done, "total": total, "seconds": self.t0.elapsed().as_secs_f64(),
        }));
    }

    /// The moves whose cells will be filled, before any is decided.
    pub fn moves(&self, moves: &[String]) {
        (self.progress)(json!({ "event": "moves", "moves": moves }));
    }

    /// What the solver does now, in a few words.
    pub fn stage(&self, words: &str) {
        (self.progress)(json!({ "event": "stage", "stage": words, "seconds": self.t0.elapsed().as_secs_f64() }));
    }
}

pub(super) fn outcome_word(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Loss => "loss",
        Outcome::Draw => "draw",
        Outcome::Value(v) if v > 0 => "win",
        Outcome::Value(v) if v < 0 => "loss",
        Outcome::Value(_) => "draw",
    }
}

/// An undecided cell: why it is not known.
pub(super) fn unknown_cell(mv: String, w: &Watch) -> Value {
    json!({ "move": mv, "result": "unknown", "why": if w.stopped() { "stopped" } else { "budget" } })
}

/// The exact value of the position for the side to move, and of each move, where a solver decides it before `stop`.
/// `{solver, result, best_move, plies?, moves: [cell], decided, stopped, nodes, seconds, ...}` (docs/server.md).
pub fn verdict(at: &At, files: &FileAccess, w: &Watch) -> Result<Value, ApiError> {
    let any = AnyGame::parse_with(&at.game, files)?;
    if !any.kind().is_classic() {
        return Err(ApiError::bad(format!("no solver for a game with {}", any.kind().describe())));
    }
    let listed = with_game!(&any, g => {
        let s = resolve(g, at)?;
        let mut list = MoveList::new();
        if !g.is_terminal(&s) {
            g.generate_moves(&s, &mut list);
        }
        list.iter().map(|&m| g.format_move(&s, m)).collect::<Vec<String>>()
    });
    w.moves(&listed);
    let mut v = match &any {
        AnyGame::ConnectFour(g) => super::connect4::verdict(g, at, w)?,
        AnyGame::Breakthrough(g) => breakthrough(g, &resolve(g, at)?, w)?,
        // df-pn recurses as deep as the game (Oware and Othello overflow a 2 MiB thread): a large stack, as the CLI's.
        other => on_large_stack(|| with_game!(other, g => per_move(g, &resolve(g, at)?, w)))?,
    };
    let cells = v["moves"].as_array().map_or(&[][..], |m| &m[..]);
    let decided = cells.iter().filter(|c| c["result"] != "unknown").count();
    v["decided"] = json!(decided);
    v["stopped"] = json!(w.stopped());
    v["seconds"] = json!(w.t0.elapsed().as_secs_f64());
    Ok(v)
}

/// Runs `f` on a thread with a 256 MiB stack (reserved, not committed) and waits for it.
fn on_large_stack<T: Send>(f: impl FnOnce() -> Result<T, ApiError> + Send) -> Result<T, ApiError> {
    std::thread::scope(|scope| {
        let h = std::thread::Builder::new().stack_size(256 << 20).spawn_scoped(scope, f);
        match h.map(|h| h.join()) {
            Ok(Ok(r)) => r,
            _ => Err(ApiError::bad("the solver's thread could not run")),
        }
    })
}

/// Generic df-pn on every move, then on the position (win/draw/loss for the side to move), within budgets.
fn per_move<G: FullGame>(g: &G, state: &G::State, w: &Watch) -> Result<Value, ApiError> {
    if g.is_terminal(state) {
        return Err(ApiError::bad("the game is over in this position"));
    }
    let mut moves = MoveList::new();
    g.generate_moves(state, &mut moves);
    let mut each = Vec::new();
    let mut nodes = 0;
    for &m in &moves {
        let mut c = *state;
        g.play(&mut c, m);
        let mv = g.format_move(state, m);
        // The child's value for its side to move, turned into the mover's.
        let (o, source) = match g.outcome_for(&c, g.side_to_move(state)) {
            Some(o) => (Some(o), "end"),
            None if w.stopped() => (None, "solver"),
            None => {
                let r = Dfpn::<G>::new(16, Some(DFPN_BUDGET)).with_stop(w.stop.clone()).solve(g, &c);
                nodes += r.nodes;
                let same = g.side_to_move(&c) == g.side_to_move(state);
                (r.outcome.map(|o| if same { o } else { o.flip() }), "solver")
            }
        };
        let cell = match o {
            Some(o) => json!({ "move": mv, "result": outcome_word(o), "source": source }),
            None => unknown_cell(mv, w),
        };
        w.cell(&cell, each.len() + 1, moves.len());
        each.push(cell);
    }
    // The position: the best of its moves when every one is known, else its own search.
    let word = |c: &Value| c["result"].as_str().unwrap_or("unknown").to_string();
    let rank = |r: &str| match r {
        "win" => 2,
        "draw" => 1,
        _ => 0,
    };
    let (result, best_move) = if each.iter().all(|c| c["result"] != "unknown") {
        let best = each.iter().max_by_key(|c| rank(&word(c))).expect("a position that is not over has a move");
        (Some(word(best)), Some(best["move"].clone()))
    } else if let Some(win) = each.iter().find(|c| c["result"] == "win") {
        (Some("win".to_string()), Some(win["move"].clone()))
    } else if w.stopped() {
        (None, None)
    } else {
        w.stage("solving the position");
        let root = Dfpn::<G>::new(32, Some(DFPN_BUDGET)).with_stop(w.stop.clone()).solve(g, state);
        nodes += root.nodes;
        (root.outcome.map(|o| outcome_word(o).to_string()), root.best_move.map(|m| json!(g.format_move(state, m))))
    };
    Ok(json!({
        "solver": "generic df-pn", "result": result, "best_move": best_move, "moves": each,
        "nodes": nodes, "budget": DFPN_BUDGET,
    }))
}

/// Breakthrough: the dedicated solver's job-level proof of every root move (a move and its mirror image share one
/// job), then, when all are proven, each move's exact distance.
fn breakthrough(g: &Breakthrough, state: &BtState, w: &Watch) -> Result<Value, ApiError> {
    if g.is_terminal(state) {
        return Err(ApiError::bad("the game is over in this position"));
    }
    let options = crate::solve::breakthrough::SolveOptions {
        tt_mib: 64,
        distance: true,
        distance_tt_mib: 64,
        all_winning_moves: true,
        stop: Some(w.stop.clone()),
        ..Default::default()
    };
    let mut solver = crate::solve::breakthrough::reusable(g, &options).map_err(ApiError::bad)?;
    let mut list = MoveList::new();
    g.generate_moves(state, &mut list);
    let total = list.len();
    let mut cells: Vec<Value> = list.iter().map(|&m| unknown_cell(g.format_move(state, m), w)).collect();
    let mut done = 0;
    w.stage("proving each move");
    let sol = {
        let mut report = |job: &crate::solve::breakthrough::Job| {
            let Some(r) = job.result.as_deref() else { return };
            for (k, mv) in std::iter::once(&job.mv).chain(&job.mirrors).enumerate() {
                if let Some(c) = cells.iter_mut().find(|c| c["move"] == *mv.as_str()) {
                    *c = json!({ "move": mv, "result": r, "source": if k == 0 { "solver" } else { "mirror" } });
                    if k > 0 {
                        c["mirror_of"] = json!(job.mv);
                    }
                    done += 1;
                    w.cell(c, done, total);
                }
            }
        };
        solver.split(state, &[], BREAKTHROUGH_JOB_BUDGET, &mut |_| None, &mut report)
    };
    for c in cells.iter_mut().filter(|c| c["result"] == "unknown") {
        c["why"] = json!(if w.stopped() { "stopped" } else { "budget" });
    }
    let mut v = json!({
        "solver": "breakthrough df-pn with distances", "result": sol.result, "best_move": sol.best_move,
        "winning_moves": sol.winning_moves, "nodes": sol.nodes, "plies": Value::Null,
    });
    if sol.result.is_some() && cells.iter().all(|c| c["result"] != "unknown") && !w.stopped() {
        w.stage("the distance of each move");
        // A mirror image's distance is its twin's.
        let mirrors: Vec<String> = cells
            .iter()
            .filter(|c| c["source"] == "mirror")
            .filter_map(|c| c["move"].as_str().map(String::from))
            .collect();
        let mut found = 0;
        let all = solver.move_distances(state, &mirrors, &mut |mv, plies| {
            for c in cells.iter_mut().filter(|c| c["move"] == mv || c["mirror_of"] == mv) {
                c["plies"] = json!(plies.unsigned_abs());
                found += 1;
                w.cell(c, found, total);
            }
        });
        if all {
            // The fastest win, else the slowest loss.
            let key = |c: &Value| {
                let p = c["plies"].as_i64().unwrap_or(0);
                if c["result"] == "win" { 1000 - p } else { p - 1000 }
            };
            if let Some(best) = cells.iter().max_by_key(|c| key(c)) {
                v["plies"] = best["plies"].clone();
                v["best_move"] = best["move"].clone();
            }
        }
    }
    v["moves"] = json!(cells);
    Ok(v)
}
