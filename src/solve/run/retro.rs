//! `retro`: retrograde analysis of every position reachable from the position ([`crate::solve::retro`]), written to a
//! database with `--db FILE` (`--method retro`), or the answer read from a database (`--db FILE` alone); and the
//! database's answer in the search's terms (`plateau search GAME --db FILE`).

use std::path::Path;
use std::time::Instant;

use anyhow::bail;

use crate::game::{FullGame, WIN_SCORE, winner_words};
use crate::solve::db::{self, Db};
use crate::solve::report::{RetroBuildReport, RetroQueryReport, SolveReport};
use crate::solve::request::{MAX_MEMORY_DEFAULT, Progress, Request};
use crate::solve::retro::{self, RetroOptions, Value};
use crate::solve::retro_resume::Checkpoint;
use crate::spec::parse_mib;

/// Seconds between two checkpoints of a build with `--db` when `--save-every` is not given.
pub(crate) const SAVE_EVERY_DEFAULT: f64 = 300.0;

/// `--max-memory` (`512mb`, `2gb`) in bytes.
pub fn max_bytes(text: &str) -> anyhow::Result<u64> {
    let mib = parse_mib(text).map_err(|e| anyhow::anyhow!("--max-memory: {e}"))?;
    Ok((mib as u64) << 20)
}

/// Build (`--method retro` given) or read (`--db FILE` alone).
pub fn solve<G: FullGame>(g: &G, req: &Request, progress: &mut dyn Progress) -> anyhow::Result<SolveReport> {
    if const { !G::KIND.is_classic() } {
        return Err(super::not_for(g, "retro"));
    }
    let build = req.method.is_some();
    if !build {
        for (flag, on) in [("--max-memory", req.max_memory.is_some()), ("--save-every", req.save_every.is_some())] {
            if on {
                bail!("{flag} is for building a database (--method retro), not for reading one (--db alone)");
            }
        }
    }
    if req.save_every.is_some() && req.db.is_none() {
        bail!("--save-every saves a build with --db FILE: it needs --db");
    }
    let limit = max_bytes(req.max_memory.as_deref().unwrap_or(MAX_MEMORY_DEFAULT))?;
    let state = super::position(g, req)?;
    match (build, req.db.as_deref()) {
        (true, file) => build_db(g, &state, file, limit, req.save_every, progress),
        (false, Some(f)) => query(g, &state, f),
        (false, None) => bail!("--db FILE is needed to read a database (or --method retro to build one)"),
    }
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

fn build_db<G: FullGame>(
    g: &G,
    state: &G::State,
    file: Option<&str>,
    limit: u64,
    save_every: Option<f64>,
    progress: &mut dyn Progress,
) -> anyhow::Result<SolveReport> {
    // Before the work: files plateau would refuse to write (a symbolic link, a device, a directory).
    if let Some(f) = file {
        crate::files::check_output(Path::new(f), "database").map_err(anyhow::Error::msg)?;
        crate::files::check_output(&Checkpoint::path_for(Path::new(f)), "retro checkpoint")
            .map_err(anyhow::Error::msg)?;
    }
    let cost = retro::cost::<G>();
    progress.note(&format!(
        "retro: memory about {} bytes per position + {} per move; --max-memory {} allows about {} positions at 8 moves each",
        cost.per_position,
        cost.per_move,
        mb(limit),
        cost.positions_within(limit, 8)
    ));
    // With a database file, the enumeration is kept in FILE.partial (on Ctrl-C, every --save-every seconds and when
    // complete) and the next run resumes from it; the checkpoint goes once the database is written.
    let checkpoint = file.map(|f| Checkpoint {
        path: Checkpoint::path_for(Path::new(f)),
        game: g.spec(),
        save_every: save_every.unwrap_or(SAVE_EVERY_DEFAULT),
        interrupt: Some(crate::limits::catch_interrupt()),
    });
    let sol =
        retro::analyse(g, state, &RetroOptions { max_bytes: limit, progress: true, checkpoint: checkpoint.clone() })?;
    let root = sol.get(sol.root_key).ok_or_else(|| anyhow::anyhow!("internal error: the root is not in the table"))?;
    let best = retro::best_moves(g, state, |k| sol.get(k)).map(|(_, b)| b).unwrap_or_default();
    let best: Vec<String> = best.iter().map(|&m| g.format_move(state, m)).collect();
    let written = Instant::now();
    let bytes = match file {
        Some(f) => Some(db::save(Path::new(f), &g.spec(), &sol)?),
        None => None,
    };
    let write_seconds = written.elapsed().as_secs_f64();
    if let Some(cp) = &checkpoint {
        let _ = std::fs::remove_file(&cp.path);
    }
    Ok(SolveReport::RetroBuild(RetroBuildReport {
        game: g.spec(),
        position: g.format_position(state),
        method: "retro",
        result: root.0.word(),
        winner_text: winner_words(g, g.side_to_move(state), root.0.word()),
        proven: true,
        plies: (root.0 != Value::Draw).then_some(root.1),
        best_moves: best,
        positions: sol.len(),
        moves: sol.moves,
        wins: sol.wins,
        draws: sol.draws,
        losses: sol.losses,
        max_distance: sol.max_distance,
        memory_bytes: sol.peak_bytes,
        db: file.map(str::to_string),
        db_bytes: bytes,
        seconds: sol.seconds,
        write_seconds,
        display: g.display(state),
    }))
}

fn open<G: FullGame>(g: &G, file: &str) -> anyhow::Result<Db> {
    Ok(Db::open_for(Path::new(file), &g.spec())?)
}

fn lookup<G: FullGame>(g: &G, d: &Db, state: &G::State) -> anyhow::Result<retro::Answer<G::Move>> {
    retro::best_moves(g, state, |k| d.probe(k)).ok_or_else(|| {
        anyhow::anyhow!(
            "{}: this position is not in the database (it holds the {} positions reachable from its root)",
            d.path().display(),
            d.len()
        )
    })
}

fn query<G: FullGame>(g: &G, state: &G::State, file: &str) -> anyhow::Result<SolveReport> {
    let t = Instant::now();
    let d = open(g, file)?;
    let ((v, dist), best) = lookup(g, &d, state)?;
    let seconds = t.elapsed().as_secs_f64();
    let best: Vec<String> = best.iter().map(|&m| g.format_move(state, m)).collect();
    let score = match v {
        Value::Win => dist as i32,
        Value::Loss => -(dist as i32),
        Value::Draw => 0,
    };
    Ok(SolveReport::RetroQuery(RetroQueryReport {
        game: g.spec(),
        position: g.format_position(state),
        method: "db",
        db: file.to_string(),
        result: v.word(),
        winner_text: winner_words(g, g.side_to_move(state), v.word()),
        proven: true,
        score,
        plies: (v != Value::Draw).then_some(dist),
        best_move: best.first().cloned(),
        best_moves: best,
        seconds,
        db_positions: d.len(),
        display: g.display(state),
    }))
}

/// `plateau search GAME --db FILE`: the database's answer in the search's terms.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SearchAnswer {
    pub game: String,
    pub position: String,
    pub algo: String,
    pub best_move: Option<String>,
    /// In search units ([`WIN_SCORE`] less the plies to the end for a win).
    pub value: i32,
    pub value_text: String,
    pub depth: usize,
    pub nodes: u64,
    /// The first best move of every position to the end.
    pub pv: Vec<String>,
    pub seconds: f64,
    #[serde(skip)]
    pub display: String,
}

/// The database's answer for `state` (the principal variation follows the first best move to the end).
pub fn search<G: FullGame>(g: &G, state: &G::State, file: &str) -> anyhow::Result<SearchAnswer> {
    if const { !G::KIND.is_classic() } {
        return Err(super::not_for(g, "retro"));
    }
    let t = Instant::now();
    if g.is_terminal(state) {
        bail!("the game is over in this position: there is nothing to search");
    }
    let d = open(g, file)?;
    let ((v, dist), _) = lookup(g, &d, state)?;
    let value = match v {
        Value::Win => WIN_SCORE - dist as i32,
        Value::Loss => -WIN_SCORE + dist as i32,
        Value::Draw => 0,
    };
    let mut pv = Vec::new();
    let mut s = *state;
    while let Some((_, b)) = retro::best_moves(g, &s, |k| d.probe(k)) {
        let Some(&m) = b.first() else { break };
        pv.push(g.format_move(&s, m));
        g.play(&mut s, m);
        if pv.len() > 1000 {
            break;
        }
    }
    Ok(SearchAnswer {
        game: g.spec(),
        position: g.format_position(state),
        algo: format!("db({file})"),
        best_move: pv.first().cloned(),
        value,
        value_text: crate::game::describe_score(value),
        depth: pv.len(),
        nodes: 0,
        pv,
        seconds: t.elapsed().as_secs_f64(),
        display: g.display(state),
    })
}
