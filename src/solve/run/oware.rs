//! `oware-db`: `--method retro [--db DIR] [--db-seeds N]` builds the Oware endgame databases (levels 0..=N, in DIR or
//! in memory), `--db DIR` alone reads them; both give the position's value from them ([`crate::games::oware::db`],
//! `docs/oware.md`). Without `--db-seeds`, a build goes up to the seeds on the board of the position: the whole game
//! for small boards (`oware(houses=3,seeds=2)`), which is then solved completely.

use std::path::Path;

use anyhow::bail;

use crate::game::Game;
use crate::games::oware::db::{MAX_LEVEL, Tables, level_path};
use crate::games::oware::{Oware, OwareState};
use crate::solve::report::{OwareMoveValue, OwareReport, SolveReport};
use crate::solve::request::Request;

/// Build (`--method` given) or read (`--db DIR` alone), then the position's value.
pub fn solve(g: &Oware, req: &Request) -> anyhow::Result<SolveReport> {
    let build = req.method.is_some();
    let state = super::position(g, req)?;
    let on_board = g.board_seeds(&state) as usize;
    let dir = req.db.as_deref().map(Path::new);
    if let Some(d) = dir
        && build
    {
        std::fs::create_dir_all(d).map_err(|e| anyhow::anyhow!("{}: {e}", d.display()))?;
    }
    let top = match (build, req.db_seeds) {
        (_, Some(n)) if n > MAX_LEVEL.min(g.total()) => {
            bail!("--db-seeds {n}: at most {} seeds for {}", MAX_LEVEL.min(g.total()), g.spec())
        }
        (_, Some(n)) => n,
        (true, None) => on_board,
        (false, None) => {
            let Some(d) = dir else { bail!("--db DIR is needed to read the Oware databases") };
            let present = (0..=MAX_LEVEL).take_while(|&n| level_path(d, g.houses, n).exists());
            match present.last() {
                Some(n) => n,
                None => bail!(
                    "{}: no Oware database level for {} houses (build with --method retro)",
                    d.display(),
                    g.houses
                ),
            }
        }
    };
    if !build && dir.is_none() {
        bail!("--db DIR is needed to read the Oware databases (or --method retro to build them)");
    }
    let start = std::time::Instant::now();
    // Building into DIR: Ctrl-C / SIGTERM drop the level under way and keep the complete ones (a second one ends the
    // process at once; the level files are written atomically, so that keeps them too).
    let stop = (build && dir.is_some()).then(crate::limits::catch_interrupt);
    let built =
        Tables::build_until(g.houses, top, dir, build, stop).map_err(|e| anyhow::anyhow!("oware database: {e}"))?;
    if let (Some(n), Some(d)) = (built.interrupted_at, dir) {
        let kept = if n == 0 { "no level is complete".to_string() } else { format!("levels 0 to {} are", n - 1) };
        bail!(
            "interrupted ({}) while building level {n} of {top} (dropped); {kept} in {}: the same command goes on \
             from level {n}",
            crate::limits::interrupt_name(),
            d.display()
        );
    }
    let (t, reports) = (built.tables, built.reports);
    let seconds = start.elapsed().as_secs_f64();
    let built: u64 = reports.iter().filter(|r| r.built).map(|r| r.positions).sum();
    let answer = answer(g, &t, &state);
    Ok(SolveReport::Oware(OwareReport {
        game: g.spec(),
        position: g.format_position(&state),
        db_seeds: top,
        positions: t.positions(),
        built_positions: built,
        seconds,
        positions_per_second: if seconds > 0.0 { built as f64 / seconds } else { 0.0 },
        levels: reports,
        seeds_on_board: on_board,
        value: answer.as_ref().map(|a| a.0),
        final_difference: answer.as_ref().map(|a| a.1),
        best_moves: answer.as_ref().map(|a| a.2.clone()),
        move_values: answer.map(|a| a.3),
        built: build,
    }))
}

type Answer = (i32, i32, Vec<String>, Vec<OwareMoveValue>);

/// The position's database value, final difference, best moves and the value of every move.
fn answer(g: &Oware, t: &Tables, s: &OwareState) -> Option<Answer> {
    if g.is_terminal(s) {
        return None;
    }
    let v = t.probe(g, s)?;
    let stores = s.stores[s.stm.index()] as i32 - s.stores[s.stm.other().index()] as i32;
    let all: Vec<OwareMoveValue> =
        t.move_values(g, s).into_iter().map(|(m, x)| OwareMoveValue { mv: g.format_move(s, m), value: x }).collect();
    let best = all.iter().filter(|m| m.value == v).map(|m| m.mv.clone()).collect();
    Some((v, stores + v, best, all))
}
