//! `qubic-pns`: df-pn with threat-space search ([`crate::solve::threats`]) on one position, its proof written with
//! `--proof` and checked with `--check`; or `--check-proof FILE`, a saved proof checked with the rules alone; or
//! `--split --results FILE`, the root split into jobs ([`crate::solve::threats::split`]), their proofs merged.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::bail;

use crate::game::{FullGame, winner_words};
use crate::solve::proof_file;
use crate::solve::report::{SolveReport, ThreatsReport};
use crate::solve::request::{CHECK_MEMO_DEFAULT, Progress, Request};
use crate::solve::threats::split::{self, SplitOptions, ThreatsSplitReport};
use crate::solve::threats::{self, Options};
use crate::spec::parse_table_mib;

/// Solve, or check a proof file.
pub fn solve<G: FullGame>(g: &G, req: &Request, progress: &mut dyn Progress) -> anyhow::Result<SolveReport> {
    let memo = req.check_memo.as_deref().unwrap_or(CHECK_MEMO_DEFAULT);
    let memo_mib = parse_table_mib(memo).map_err(|e| anyhow::anyhow!("--check-memo: {e}"))?;
    if let Some(file) = &req.check_proof {
        return check_file(g, req, Path::new(file), memo_mib, progress);
    }
    if req.check_memo.is_some() && !req.check {
        bail!("--check-memo is the memory of --check: it needs --check");
    }
    if req.check && req.proof.is_none() {
        bail!("--check checks the proof file written: it needs --proof FILE");
    }
    if req.split {
        return split(g, req, memo_mib, progress);
    }
    for (flag, on) in [("--split-first", req.split_first.is_some()), ("--results", req.results.is_some())] {
        if on {
            bail!("{flag} is for --split");
        }
    }
    if req.save_every.is_some() && req.table.is_none() {
        bail!("--save-every is how often --table is saved: it needs --table FILE");
    }
    let mib = req.tt_mib().map_err(anyhow::Error::msg)?;
    let state = super::root(g, req)?;
    for (file, what) in [(&req.table, "df-pn table"), (&req.proof, "proof file")] {
        if let Some(f) = file {
            crate::files::check_output(Path::new(f), what).map_err(anyhow::Error::msg)?;
        }
    }
    let memo = if req.check { memo_mib } else { 0 };
    crate::limits::check_bytes("--tt and --check-memo: tables", ((mib + memo) as u64) << 20)
        .map_err(anyhow::Error::msg)?;
    let options = Options {
        tt_mib: mib,
        max_nodes: req.max_nodes,
        max_seconds: req.max_seconds,
        table_file: req.table.as_ref().map(Into::into),
        save_every: req.save_every.unwrap_or(600.0),
        proof_file: req.proof.as_ref().map(Into::into),
        // With a table file, Ctrl-C / SIGTERM stop the solve, which saves the table (a second one ends the process).
        interrupt: req.table.is_some().then(crate::limits::catch_interrupt),
        progress_seconds: if req.quiet { 0 } else { 10 },
        ..Options::default()
    };
    if !req.quiet {
        progress.note(&format!("memory: df-pn table {mib} MiB"));
    }
    let quiet = req.quiet;
    let mut note = |line: &str| {
        if !quiet {
            progress.note(line)
        }
    };
    let r = threats::solve(g, &state, &options, &mut note).map_err(anyhow::Error::msg)?;
    let Some(win) = r.win else {
        let saved =
            req.table.as_ref().map(|f| format!("; the table is saved in {f}: the same command goes on from it"));
        if crate::limits::interrupt_exit_code().is_some() {
            bail!(
                "interrupted ({}) after {} expansions (root pn {} dn {}){}",
                crate::limits::interrupt_name(),
                r.nodes,
                r.root_pn,
                r.root_dn,
                saved.unwrap_or_default()
            );
        }
        bail!(
            "not solved within --max-nodes / --max-seconds ({} expansions in {:.1} s; root pn {} dn {}{})",
            r.nodes,
            r.seconds,
            r.root_pn,
            r.root_dn,
            saved.unwrap_or_default()
        );
    };
    let proof_check = match (&req.proof, req.check && win) {
        (Some(file), true) => {
            let c = proof_file::check(g, Path::new(file), memo_mib, &mut |_| {}).map_err(anyhow::Error::msg)?;
            if !c.check.verified {
                bail!(
                    "the proof written to {file} did NOT hold under the independent check (it broke after the moves '{}')",
                    c.check.failed_line.as_deref().unwrap_or("")
                );
            }
            Some(c.check)
        }
        _ => None,
    };
    let word = if win { "win" } else { "no-win" };
    let winner_text = if win {
        winner_words(g, g.side_to_move(&state), "win")
    } else {
        "the side to move does not win (a draw or a loss)".to_string()
    };
    Ok(SolveReport::Threats(ThreatsReport {
        game: g.spec(),
        position: g.format_position(&state),
        method: "qubic-pns",
        result: word,
        winner_text,
        proven: true,
        score: if win { 1 } else { -1 },
        best_move: r.best_move,
        nodes: r.nodes,
        earlier_nodes: r.earlier_nodes,
        tss_calls: r.tss_calls,
        tss_nodes: r.tss_nodes,
        tss_wins: r.tss_wins,
        table_entries: r.table_entries,
        table_read: r.table_read,
        proof_positions: r.proof_positions,
        proof_file: req.proof.clone().filter(|_| win),
        proof_bytes: r.proof_bytes,
        proof_check,
        seconds: r.seconds,
        display: g.display(&state),
    }))
}

/// `--split --results FILE`: the jobs run one after the other (each resumable), the merged proof written with
/// `--proof` and checked with `--check`.
fn split<G: FullGame>(
    g: &G,
    req: &Request,
    memo_mib: usize,
    progress: &mut dyn Progress,
) -> anyhow::Result<SolveReport> {
    let interrupt = crate::limits::catch_interrupt();
    let (state, options) = split_request(g, req, memo_mib, Some(interrupt)).map_err(anyhow::Error::msg)?;
    let quiet = req.quiet;
    let mut note = |line: &str| {
        if !quiet {
            progress.note(line)
        }
    };
    let stop = || interrupt.load(std::sync::atomic::Ordering::Relaxed);
    let mut r = split::solve(g, &state, &options, &mut note, &stop).map_err(anyhow::Error::msg)?;
    if crate::limits::interrupt_exit_code().is_some() {
        bail!(
            "interrupted ({}) after {} expansions, {} of the {} jobs proven; the jobs done are in {} and the \
             job under way saved its table: the same command goes on from there",
            crate::limits::interrupt_name(),
            r.nodes,
            r.proven_jobs,
            r.jobs,
            options.results.display()
        );
    }
    check_merged(g, &mut r, req.check, memo_mib).map_err(anyhow::Error::msg)?;
    Ok(SolveReport::ThreatsSplit(r))
}

/// The split solve's root and options from `--split --results FILE`'s request (checked as the command checks it:
/// `--results` given, no `--table`, the proof file writable, the tables' memory); `interrupt` stops its jobs.
pub(crate) fn split_request<G: FullGame>(
    g: &G,
    req: &Request,
    memo_mib: usize,
    interrupt: Option<&'static AtomicBool>,
) -> Result<(G::State, SplitOptions), String> {
    let Some(results) = &req.results else {
        return Err(
            "--split needs --results FILE (one line per job; the jobs' tables and proofs are named after it)".into()
        );
    };
    if req.table.is_some() {
        return Err(
            "--table is not for --split: each job has a table of its own (FILE.ANSWER.table beside --results)".into()
        );
    }
    if req.check && req.proof.is_none() {
        return Err("--check checks the proof file written: it needs --proof FILE".into());
    }
    let mib = req.tt_mib()?;
    let state = super::root(g, req).map_err(|e| e.to_string())?;
    if let Some(f) = &req.proof {
        crate::files::check_output(Path::new(f), "proof file")?;
    }
    let memo = if req.check { memo_mib } else { 0 };
    crate::limits::check_bytes("--tt and --check-memo: tables", ((mib + memo) as u64) << 20)?;
    let options = SplitOptions {
        solve: Options {
            tt_mib: mib,
            max_nodes: req.max_nodes,
            max_seconds: req.max_seconds,
            save_every: req.save_every.unwrap_or(600.0),
            interrupt,
            ..Options::default()
        },
        results: results.into(),
        first: req.split_first.clone(),
        proof_file: req.proof.as_ref().map(Into::into),
        check_memo_mib: memo_mib,
    };
    Ok((state, options))
}

/// With `check`, the merged proof of a proven split (`r.proof_file`) walked by the independent checker with the rules
/// alone: `r.proof_check`; a proof that does not hold is an error.
pub(crate) fn check_merged<G: FullGame>(
    g: &G,
    r: &mut ThreatsSplitReport,
    check: bool,
    memo_mib: usize,
) -> Result<(), String> {
    if let (Some(file), true) = (&r.proof_file, check) {
        let c = proof_file::check(g, Path::new(file), memo_mib, &mut |_| {})?;
        if !c.check.verified {
            return Err(format!(
                "the merged proof written to {file} did NOT hold under the independent check (it broke after the moves '{}')",
                c.check.failed_line.as_deref().unwrap_or("")
            ));
        }
        r.proof_check = Some(c.check);
    }
    Ok(())
}

/// `--check-proof FILE`: the file's proof walked with the rules alone; the position, if given, must be its root.
fn check_file<G: FullGame>(
    g: &G,
    req: &Request,
    file: &Path,
    memo_mib: usize,
    progress: &mut dyn Progress,
) -> anyhow::Result<SolveReport> {
    for (flag, on) in [
        ("--proof", req.proof.is_some()),
        ("--check", req.check),
        ("--table", req.table.is_some()),
        ("--save-every", req.save_every.is_some()),
        ("--max-nodes", req.max_nodes.is_some()),
        ("--max-seconds", req.max_seconds.is_some()),
        ("--tt", req.tt.is_some()),
        ("--split", req.split),
        ("--split-first", req.split_first.is_some()),
        ("--results", req.results.is_some()),
    ] {
        if on {
            bail!("{flag} is for a solve: --check-proof only checks a proof file (with --check-memo)");
        }
    }
    crate::limits::check_bytes("--check-memo", (memo_mib as u64) << 20).map_err(anyhow::Error::msg)?;
    let quiet = req.quiet;
    let mut shown = |c: &crate::solve::proof_check::ProofCheck| {
        if !quiet {
            progress.note(&format!("checked {} positions where the winner moves", c.or_positions));
        }
    };
    let c = proof_file::check(g, file, memo_mib, &mut shown).map_err(anyhow::Error::msg)?;
    if req.position.is_some() || req.moves.is_some() {
        let asked = super::position(g, req)?;
        if g.format_position(&asked) != c.root {
            bail!("the proof file proves {}, not the position given ({})", c.root, g.format_position(&asked));
        }
    }
    if !c.check.verified {
        bail!(
            "the proof in {} does NOT hold: it breaks after the moves '{}' from its root (no stored move wins there)",
            file.display(),
            c.check.failed_line.as_deref().unwrap_or("")
        );
    }
    Ok(SolveReport::ProofFile(c))
}
