//! `plateau solve` on Breakthrough with its dedicated df-pn solver ([`crate::solve::breakthrough`]): one position
//! (then the exact distance unless `--weak`), or the root split into jobs (`--split`).

use anyhow::bail;
use serde_json::json;

use crate::game::{Game, MoveList};
use crate::spec::parse_table_mib;

use super::SolveArgs;

/// The Breakthrough position to solve, refused when the game is over there or the race table size is not 0, 2 or 3.
fn root(a: &SolveArgs, g: &crate::games::Breakthrough) -> anyhow::Result<crate::games::breakthrough::BtState> {
    let state = crate::cli::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
    if let Some(o) = g.outcome(&state) {
        bail!("the game is over in this position ({o:?} for the side to move): there is nothing to solve");
    }
    if !matches!(a.race_rows, None | Some(0 | 2 | 3)) {
        bail!("--race-rows must be 0, 2 or 3");
    }
    Ok(state)
}

/// `--race-rows`, or by default the largest of 3, 2, 0 that is fewer rows than the board's (so that every board the
/// game accepts solves with the defaults).
fn race_rows(a: &SolveArgs, g: &crate::games::Breakthrough) -> u32 {
    a.race_rows.unwrap_or(match g.rows {
        r if r > 3 => 3,
        3 => 2,
        _ => 0,
    })
}

/// Breakthrough by df-pn (`solve::breakthrough`), then the exact distance unless `--weak`.
pub(super) fn single(a: &SolveArgs, g: &crate::games::Breakthrough, mib: usize) -> anyhow::Result<()> {
    let state = root(a, g)?;
    if let Some(t) = &a.table {
        // Before the work (and the memory line): a table plateau would refuse to write.
        crate::files::check_output(std::path::Path::new(t), "df-pn table").map_err(anyhow::Error::msg)?;
    }
    let options = crate::solve::breakthrough::Options {
        tt_mib: mib,
        race_rows: race_rows(a, g),
        distance: !a.weak,
        distance_tt_mib: mib,
        all_winning_moves: !a.first_win_only,
        max_nodes: a.max_nodes,
        max_seconds: a.max_seconds,
        progress_seconds: if a.json { 0 } else { 10 },
        table_file: a.table.as_ref().map(Into::into),
        check_proof: a.check,
        check_memo_mib: parse_table_mib(&a.check_memo).map_err(|e| anyhow::anyhow!("--check-memo: {e}"))?,
        ..Default::default()
    };
    // The tables together must fit in the memory available (each was checked alone when parsed).
    let memo = if a.check { options.check_memo_mib } else { 0 };
    let total = mib as u64 * if a.weak { 1 } else { 2 } + memo as u64;
    crate::limits::check_bytes("--tt and --check-memo: tables", total << 20).map_err(anyhow::Error::msg)?;
    if !a.json {
        let distance = if a.weak { String::new() } else { format!(" + distance table {mib} MiB") };
        let check = if a.check { format!(" + proof check memo {} MiB", options.check_memo_mib) } else { String::new() };
        eprintln!("memory: df-pn table {mib} MiB{distance}{check} (race tables: a few MiB)");
    }
    let r = crate::solve::breakthrough::solve(g, &state, &options).map_err(anyhow::Error::msg)?;
    if let Some(c) = r.proof_check.as_ref().filter(|c| !c.verified) {
        bail!(
            "the proof of '{}' did NOT hold under the independent check (it failed after the moves '{}'): {c:?}",
            r.result.as_deref().unwrap_or("?"),
            c.failed_line.as_deref().unwrap_or("")
        );
    }
    let Some(word) = r.result.clone() else {
        let saved = a.table.as_ref().map(|f| format!("; the table is saved in {f}")).unwrap_or_default();
        bail!(
            "not solved within --max-nodes / --max-seconds ({} expansions; root pn {} dn {}{saved})",
            r.nodes,
            r.root_pn,
            r.root_dn
        );
    };
    let sign = if word == "win" { 1 } else { -1 };
    let score = if a.weak { sign } else { sign * r.plies.unwrap_or(0) as i32 };
    if a.json {
        crate::cli::print_json(&json!({
            "game": g.spec(), "position": g.format_position(&state), "weak": a.weak, "method": "dfpn",
            "result": word, "winner_text": crate::cli::winner_words(g, g.side_to_move(&state), &word), "proven": true,
            "score": score, "plies": r.plies, "best_move": r.best_move,
            "winning_moves": r.winning_moves, "nodes": r.nodes, "distance_nodes": r.distance_nodes,
            "earlier_nodes": r.earlier_nodes, "proof_check": r.proof_check,
            "seconds": r.seconds,
        }));
    } else {
        println!("{}", g.display(&state));
        println!("result         {word}: {} (proven)", crate::cli::winner_words(g, g.side_to_move(&state), &word));
        match r.plies {
            Some(p) => println!("score          {score} ({word} in {p} plies)"),
            None => println!("score          {score}"),
        }
        println!("best move      {}", r.best_move.clone().unwrap_or_else(|| "-".into()));
        println!("winning moves  {}", r.winning_moves.join(" "));
        println!("nodes          {} df-pn + {} distance", r.nodes, r.distance_nodes);
        if let Some(c) = &r.proof_check {
            println!(
                "proof check    holds: {} positions where the winner moves, {} where the loser does (every move), {} ends of the game",
                c.or_positions, c.and_positions, c.terminal_positions
            );
        }
        println!("seconds        {:.3}", r.seconds);
    }
    Ok(())
}

/// Breakthrough by df-pn, job by job ([`crate::solve::breakthrough::Solver::split`]): weak, one JSON line per job.
pub(super) fn split(a: &SolveArgs, g: &crate::games::Breakthrough, mib: usize) -> anyhow::Result<()> {
    use crate::solve::breakthrough::{Job, decided_moves, solve_split};
    use std::io::Write;
    let state = root(a, g)?;
    let mut list = MoveList::new();
    g.generate_moves(&state, &mut list);
    let legal: Vec<String> = list.iter().map(|&m| g.format_move(&state, m)).collect();
    let first: Vec<String> = a
        .split_first
        .as_deref()
        .unwrap_or("")
        .split([',', ' '])
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect();
    if let Some(bad) = first.iter().find(|m| !legal.contains(m)) {
        bail!("--split-first: '{bad}' is not a legal move here (legal: {})", legal.join(" "));
    }
    if a.budget == 0 {
        bail!("--budget must be at least 1");
    }
    let mut out = match &a.results {
        Some(f) => {
            // Read it once now, so that a file that is not a results file is refused before any work (a symbolic
            // link or a device too).
            crate::files::check_output(std::path::Path::new(f), "--results").map_err(anyhow::Error::msg)?;
            let text = match std::fs::read_to_string(f) {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
                Err(e) => bail!("--results {f}: {e}"),
            };
            if let Some((i, _)) = text.lines().enumerate().find(|(_, l)| {
                !l.trim().is_empty() && serde_json::from_str::<crate::solve::breakthrough::Job>(l).is_err()
            }) {
                bail!("--results {f}: line {} is not a job line written by --split", i + 1);
            }
            Some(crate::files::append(std::path::Path::new(f), "--results").map_err(anyhow::Error::msg)?)
        }
        None => None,
    };
    let options = crate::solve::breakthrough::Options {
        tt_mib: mib,
        race_rows: race_rows(a, g),
        all_winning_moves: !a.first_win_only,
        max_seconds: a.max_seconds,
        progress_seconds: if a.json { 0 } else { 60 },
        table_file: a.table.as_ref().map(Into::into),
        save_every_seconds: a.save_every,
        // With a table file, Ctrl-C / SIGTERM stop the solve, which saves the table (a second one ends the process).
        interrupt: a.table.is_some().then(crate::limits::catch_interrupt),
        ..Default::default()
    };
    let file = a.results.clone();
    let root = format!("{} {}", g.spec(), g.format_position(&state));
    let mut known = |m: &str| {
        let text = std::fs::read_to_string(file.as_deref()?).ok()?;
        decided_moves(&text, &root).into_iter().find(|(name, _)| name == m).map(|(_, win)| win)
    };
    let mut write_error = None;
    let mut report = |job: &Job| {
        let line = serde_json::to_string(job).expect("a job serialises");
        println!("{line}");
        if let Some(f) = out.as_mut()
            && job.round.is_some()
            && let Err(e) = writeln!(f, "{line}").and_then(|_| f.flush())
        {
            write_error.get_or_insert(e);
        }
    };
    let r = solve_split(g, &state, &options, &first, a.budget, &mut known, &mut report).map_err(anyhow::Error::msg)?;
    if let Some(e) = write_error {
        bail!("--results: could not append a job: {e}");
    }
    let word = r.result.clone().unwrap_or_else(|| "unknown".into());
    let score = match r.result.as_deref() {
        Some("win") => json!(1),
        Some("loss") => json!(-1),
        _ => serde_json::Value::Null,
    };
    if a.json {
        crate::cli::print_json(&json!({
            "game": g.spec(), "position": g.format_position(&state), "weak": true, "method": "dfpn-split",
            "result": word, "score": score, "best_move": r.best_move, "winning_moves": r.winning_moves,
            "undecided_moves": r.undecided_moves, "nodes": r.nodes, "earlier_nodes": r.earlier_nodes,
            "seconds": r.seconds, "root_pn": r.root_pn, "root_dn": r.root_dn,
        }));
    } else {
        println!("result         {word}");
        println!("best move      {}", r.best_move.clone().unwrap_or_else(|| "-".into()));
        println!("winning moves  {}", r.winning_moves.join(" "));
        println!("undecided      {}", r.undecided_moves.join(" "));
        println!("nodes          {} df-pn (+ {} in earlier runs behind --table)", r.nodes, r.earlier_nodes);
        println!("seconds        {:.3}", r.seconds);
    }
    Ok(())
}
