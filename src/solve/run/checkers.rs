//! `checkers-db`: `--method retro [--db DIR] [--db-pieces N]` builds the checkers endgame databases (every position
//! with up to N pieces, in DIR or in memory), `--db DIR` alone reads them; both give the position's value from them
//! ([`crate::games::checkers::db`], `docs/checkers.md`). Without `--db-pieces`, a build goes up to the pieces on the
//! board of the position, a read up to the largest piece count complete in DIR. With DIR, Ctrl-C stops the build
//! between two steps (the tables done are saved; the same command goes on from there).

use std::path::Path;

use anyhow::bail;

use crate::game::Game;
use crate::games::checkers::db::{MAX_PIECES, Tables, complete};
use crate::games::checkers::{Checkers, CheckersState};
use crate::solve::report::{CheckersDbReport, CheckersMoveValue, SolveReport};
use crate::solve::request::Request;

/// Build (`--method` given) or read (`--db DIR` alone), then the position's value.
pub fn solve(g: &Checkers, req: &Request) -> anyhow::Result<SolveReport> {
    let build = req.method.is_some();
    let state = super::position(g, req)?;
    let on_board = (state.black | state.white).count_ones() as usize;
    let dir = req.db.as_deref().map(Path::new);
    if !build && dir.is_none() {
        bail!("--db DIR is needed to read the checkers databases (or --method retro to build them)");
    }
    let top = match (build, req.db_pieces) {
        (_, Some(0)) => bail!("--db-pieces 0: at least 1 piece"),
        (_, Some(n)) if n > MAX_PIECES => bail!("--db-pieces {n}: at most {MAX_PIECES} pieces"),
        (_, Some(n)) => n,
        (true, None) if on_board > MAX_PIECES => bail!(
            "the position has {on_board} pieces: the databases go up to {MAX_PIECES} (give --db-pieces N, and a \
             position with at most N pieces for its value)"
        ),
        (true, None) => on_board,
        (false, None) => {
            let d = dir.expect("checked above");
            match (1..=MAX_PIECES).take_while(|&n| complete(d, n)).last() {
                Some(n) => n,
                None => bail!("{}: no complete checkers database (build with --method retro)", d.display()),
            }
        }
    };
    if let Some(d) = dir {
        if build {
            std::fs::create_dir_all(d).map_err(|e| anyhow::anyhow!("{}: {e}", d.display()))?;
        } else if !complete(d, top) {
            bail!("{}: the checkers databases of up to {top} pieces are not all there", d.display());
        }
    }
    // With a directory the work is saved table by table: Ctrl-C stops between two steps and says so.
    let stop = (build && dir.is_some()).then(crate::limits::catch_interrupt);
    let start = std::time::Instant::now();
    let (t, pieces) = Tables::build(top, dir, build && !req.quiet, stop).map_err(|e| {
        if stop.is_some() && crate::limits::interrupt_exit_code().is_some() {
            anyhow::anyhow!("interrupted ({}): {e}", crate::limits::interrupt_name())
        } else {
            anyhow::anyhow!("checkers database: {e}")
        }
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let built: u64 = pieces.iter().filter(|r| r.built).map(|r| r.positions).sum();
    let (value, best, moves) = answer(g, &t, &state);
    Ok(SolveReport::CheckersDb(CheckersDbReport {
        game: g.spec(),
        position: g.format_position(&state),
        db_pieces: top,
        positions: pieces.iter().map(|r| r.positions).sum(),
        built_positions: built,
        seconds,
        positions_per_second: if seconds > 0.0 { built as f64 / seconds } else { 0.0 },
        pieces,
        pieces_on_board: on_board,
        result: value.map(|v| v.word()),
        plies: value.and_then(|v| v.plies()),
        best_moves: best,
        move_values: moves,
        built: build,
    }))
}

type Answer = (Option<crate::games::checkers::db::Value>, Option<Vec<String>>, Option<Vec<CheckersMoveValue>>);

/// The position's database value, its best moves and the value of every move.
fn answer(g: &Checkers, t: &Tables, s: &CheckersState) -> Answer {
    let Some(v) = t.probe(s) else { return (None, None, None) };
    let all = t.move_values(g, s);
    let best = Tables::best(&all).into_iter().map(|m| g.format_move(s, m)).collect();
    let each = all
        .iter()
        .map(|&(m, x)| CheckersMoveValue { mv: g.format_move(s, m), result: x.word(), plies: x.plies() })
        .collect();
    (Some(v), Some(best), Some(each))
}
