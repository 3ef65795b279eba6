//! `breakthrough-dfpn`: Breakthrough's dedicated df-pn solver ([`crate::solve::breakthrough`]) on one position (then
//! the exact distance unless `--weak`), or the root split into jobs (`--split`), or the split proof check
//! (`--check-split`, [`super::check_split`]).

use std::io::Write;
use std::path::Path;

use anyhow::bail;

use crate::game::{Game, MoveList, winner_words};
use crate::games::Breakthrough;
use crate::games::breakthrough::BtState;
use crate::solve::breakthrough::{Job, SolveOptions, decided_moves, solve_split};
use crate::solve::report::{BreakthroughReport, SolveReport, SplitReport};
use crate::solve::request::{BUDGET_DEFAULT, CHECK_MEMO_DEFAULT, Progress, Request};
use crate::spec::parse_table_mib;

/// One position, or `--split`.
pub fn solve(g: &Breakthrough, req: &Request, progress: &mut dyn Progress) -> anyhow::Result<SolveReport> {
    if req.check_split {
        let report = super::check_split::run(g, req, progress).map_err(anyhow::Error::msg)?;
        return Ok(SolveReport::CheckSplit(report));
    }
    if req.split_depth.is_some() {
        bail!("--split-depth is for --check-split");
    }
    if req.split {
        for (flag, on) in [("--check", req.check), ("--check-memo", req.check_memo.is_some())] {
            if on {
                bail!("{flag}: the proof check is for a plain solve (not --split)");
            }
        }
        if req.max_nodes.is_some() {
            bail!("--max-nodes does not apply to --split (its jobs have --budget)");
        }
        if req.save_every.is_some() && req.table.is_none() {
            bail!("--save-every needs --table and --split");
        }
        return split(req, g, progress);
    }
    for (flag, on) in [
        ("--budget", req.budget.is_some()),
        ("--split-first", req.split_first.is_some()),
        ("--results", req.results.is_some()),
    ] {
        if on {
            bail!("{flag} is for --split");
        }
    }
    if req.save_every.is_some() {
        bail!("--save-every needs --table and --split");
    }
    if req.check_memo.is_some() && !req.check {
        bail!("--check-memo is the memory of --check: it needs --check");
    }
    single(req, g, progress)
}

/// The position to solve, refused when the game is over there or the race table size is not 0, 2 or 3.
fn root(req: &Request, g: &Breakthrough) -> anyhow::Result<BtState> {
    let state = super::root(g, req)?;
    if !matches!(req.race_rows, None | Some(0 | 2 | 3)) {
        bail!("--race-rows must be 0, 2 or 3");
    }
    Ok(state)
}

/// `--race-rows`, or by default the largest of 3, 2, 0 that is fewer rows than the board's (so that every board the
/// game accepts solves with the defaults).
pub(crate) fn race_rows(req: &Request, g: &Breakthrough) -> u32 {
    req.race_rows.unwrap_or(match g.rows {
        r if r > 3 => 3,
        3 => 2,
        _ => 0,
    })
}

/// By df-pn, then the exact distance unless `--weak`.
fn single(req: &Request, g: &Breakthrough, progress: &mut dyn Progress) -> anyhow::Result<SolveReport> {
    let mib = req.tt_mib().map_err(anyhow::Error::msg)?;
    let state = root(req, g)?;
    if let Some(t) = &req.table {
        // Before the work (and the memory line): a table plateau would refuse to write.
        crate::files::check_output(Path::new(t), "df-pn table").map_err(anyhow::Error::msg)?;
    }
    let memo = req.check_memo.as_deref().unwrap_or(CHECK_MEMO_DEFAULT);
    let options = SolveOptions {
        tt_mib: mib,
        race_rows: race_rows(req, g),
        distance: !req.weak,
        distance_tt_mib: mib,
        all_winning_moves: !req.first_win_only,
        max_nodes: req.max_nodes,
        max_seconds: req.max_seconds,
        progress_seconds: if req.quiet { 0 } else { 10 },
        table_file: req.table.as_ref().map(Into::into),
        check_proof: req.check,
        check_memo_mib: parse_table_mib(memo).map_err(|e| anyhow::anyhow!("--check-memo: {e}"))?,
        // With a table file, Ctrl-C / SIGTERM stop the solve, which saves the table (a second one ends the process).
        interrupt: req.table.is_some().then(crate::limits::catch_interrupt),
        ..Default::default()
    };
    // The tables together must fit in the memory available (each was checked alone when parsed).
    let memo = if req.check { options.check_memo_mib } else { 0 };
    let total = mib as u64 * if req.weak { 1 } else { 2 } + memo as u64;
    crate::limits::check_bytes("--tt and --check-memo: tables", total << 20).map_err(anyhow::Error::msg)?;
    if !req.quiet {
        let distance = if req.weak { String::new() } else { format!(" + distance table {mib} MiB") };
        let check =
            if req.check { format!(" + proof check memo {} MiB", options.check_memo_mib) } else { String::new() };
        progress.note(&format!("memory: df-pn table {mib} MiB{distance}{check} (race tables: a few MiB)"));
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
        if let Some(f) = req.table.as_ref().filter(|_| crate::limits::interrupt_exit_code().is_some()) {
            bail!(
                "interrupted ({}) after {} expansions (root pn {} dn {}); the df-pn table is saved in {f}: the same \
                 command goes on from it",
                crate::limits::interrupt_name(),
                r.nodes,
                r.root_pn,
                r.root_dn
            );
        }
        let saved = req.table.as_ref().map(|f| format!("; the table is saved in {f}")).unwrap_or_default();
        bail!(
            "not solved within --max-nodes / --max-seconds ({} expansions; root pn {} dn {}{saved})",
            r.nodes,
            r.root_pn,
            r.root_dn
        );
    };
    let sign = if word == "win" { 1 } else { -1 };
    let score = if req.weak { sign } else { sign * r.plies.unwrap_or(0) as i32 };
    Ok(SolveReport::Breakthrough(BreakthroughReport {
        game: g.spec(),
        position: g.format_position(&state),
        weak: req.weak,
        method: "dfpn",
        winner_text: winner_words(g, g.side_to_move(&state), &word),
        result: word,
        proven: true,
        score,
        plies: r.plies,
        best_move: r.best_move,
        winning_moves: r.winning_moves,
        nodes: r.nodes,
        distance_nodes: r.distance_nodes,
        earlier_nodes: r.earlier_nodes,
        proof_check: r.proof_check,
        seconds: r.seconds,
        display: g.display(&state),
    }))
}

/// Job by job ([`crate::solve::breakthrough::Solver::split`]): weak, each job given to `progress` (and appended to
/// `--results`).
fn split(req: &Request, g: &Breakthrough, progress: &mut dyn Progress) -> anyhow::Result<SolveReport> {
    let mib = req.tt_mib().map_err(anyhow::Error::msg)?;
    let state = root(req, g)?;
    let mut list = MoveList::new();
    g.generate_moves(&state, &mut list);
    let legal: Vec<String> = list.iter().map(|&m| g.format_move(&state, m)).collect();
    let first: Vec<String> = req
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
    let budget = req.budget.unwrap_or(BUDGET_DEFAULT);
    if budget == 0 {
        bail!("--budget must be at least 1");
    }
    let mut out = match &req.results {
        Some(f) => {
            // Read it once now, so that a file that is not a results file is refused before any work (a symbolic
            // link or a device too).
            crate::files::check_output(Path::new(f), "--results").map_err(anyhow::Error::msg)?;
            let text = match std::fs::read_to_string(f) {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
                Err(e) => bail!("--results {f}: {e}"),
            };
            if let Some((i, _)) =
                text.lines().enumerate().find(|(_, l)| !l.trim().is_empty() && serde_json::from_str::<Job>(l).is_err())
            {
                bail!("--results {f}: line {} is not a job line written by --split", i + 1);
            }
            Some(crate::files::append(Path::new(f), "--results").map_err(anyhow::Error::msg)?)
        }
        None => None,
    };
    let options = SolveOptions {
        tt_mib: mib,
        race_rows: race_rows(req, g),
        all_winning_moves: !req.first_win_only,
        max_seconds: req.max_seconds,
        progress_seconds: if req.quiet { 0 } else { 60 },
        table_file: req.table.as_ref().map(Into::into),
        save_every_seconds: req.save_every,
        // With a table or a results file, Ctrl-C / SIGTERM stop the solve after the job under way (left out of the
        // results), and the table is saved (a second one ends the process).
        interrupt: (req.table.is_some() || req.results.is_some()).then(crate::limits::catch_interrupt),
        ..Default::default()
    };
    let file = req.results.clone();
    let root = format!("{} {}", g.spec(), g.format_position(&state));
    let mut known = |m: &str| {
        let text = std::fs::read_to_string(file.as_deref()?).ok()?;
        decided_moves(&text, &root).into_iter().find(|(name, _)| name == m).map(|(_, win)| win)
    };
    let mut write_error = None;
    let mut report = |job: &Job| {
        progress.job(job);
        if let Some(f) = out.as_mut()
            && job.round.is_some()
        {
            let line = serde_json::to_string(job).expect("a job serialises");
            if let Err(e) = writeln!(f, "{line}").and_then(|_| f.flush()) {
                write_error.get_or_insert(e);
            }
        }
    };
    let r = solve_split(g, &state, &options, &first, budget, &mut known, &mut report).map_err(anyhow::Error::msg)?;
    if let Some(e) = write_error {
        bail!("--results: could not append a job: {e}");
    }
    if crate::limits::interrupt_exit_code().is_some() {
        let groups = legal.len() - r.undecided_moves.len();
        let mut kept = Vec::new();
        if let Some(f) = &req.results {
            kept.push(format!("the jobs done are in {f}"));
        }
        if let Some(f) = &req.table {
            kept.push(format!("the df-pn table is saved in {f}"));
        }
        bail!(
            "interrupted ({}) after {} expansions, {groups} of the {} root moves decided; {}: the same command goes \
             on from there",
            crate::limits::interrupt_name(),
            r.nodes,
            legal.len(),
            kept.join(" and ")
        );
    }
    let score = match r.result.as_deref() {
        Some("win") => Some(1),
        Some("loss") => Some(-1),
        _ => None,
    };
    Ok(SolveReport::Split(SplitReport {
        game: g.spec(),
        position: g.format_position(&state),
        weak: true,
        method: "dfpn-split",
        result: r.result.clone().unwrap_or_else(|| "unknown".into()),
        score,
        best_move: r.best_move,
        winning_moves: r.winning_moves,
        undecided_moves: r.undecided_moves,
        nodes: r.nodes,
        earlier_nodes: r.earlier_nodes,
        seconds: r.seconds,
        root_pn: r.root_pn,
        root_dn: r.root_dn,
    }))
}
