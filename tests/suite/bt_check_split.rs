//! The split proof check of Breakthrough (`plateau solve --check-split`, `plateau::solve::breakthrough::check_plan`
//! and `run_check_job`): its verdict equals the whole check's (`--check`) on small boards, for true and false claims
//! and at several split depths; a false claim fails with the line where it broke; the results file resumes (also cut
//! in the middle of a line) and a file of another plan is refused untouched.

use plateau::game::{Game, MoveList};
use plateau::games::breakthrough::BtState;
use plateau::games::{AnyGame, Breakthrough};
use plateau::solve::breakthrough::{
    CheckPlan, SolveOptions, check_plan, plan_from_choices, play_line, run_check_job, solve,
};

use crate::common::*;

fn bt(text: &str) -> Breakthrough {
    match AnyGame::parse(text).unwrap() {
        AnyGame::Breakthrough(g) => g,
        _ => panic!("{text} is not breakthrough"),
    }
}

fn options() -> SolveOptions {
    SolveOptions { tt_mib: 8, check_memo_mib: 4, race_rows: 0, ..SolveOptions::default() }
}

/// The whole check's verdict on the claim (`win`: the side to move at `s` wins): one df-pn solve and `--check`.
fn whole(g: &Breakthrough, s: &BtState, win: bool) -> bool {
    let sol = solve(g, s, &SolveOptions { check_proof: true, all_winning_moves: false, ..options() }).unwrap();
    let claimed = if win { "win" } else { "loss" };
    sol.result.as_deref() == Some(claimed) && sol.proof_check.is_some_and(|c| c.verified)
}

/// The split check's verdict: the plan, then every job; the failed lines.
fn split(g: &Breakthrough, s: &BtState, win: bool, depth: u32) -> (bool, CheckPlan, Vec<String>) {
    let plan = check_plan(g, s, win, depth, &options()).unwrap();
    // The plan follows from its own choices by the rules.
    assert_eq!(plan_from_choices(g, s, &plan).unwrap(), plan);
    let mut failed = plan.failures.clone();
    for id in &plan.jobs {
        let job = run_check_job(g, s, id, &options()).unwrap();
        assert_eq!(&job.job, id);
        if !job.verified {
            let line = job.failed_line.clone().expect("a failed job names its line");
            assert!(line.starts_with(id.as_str()), "{line} from {id}");
            failed.push(line);
        }
    }
    (failed.is_empty(), plan, failed)
}

/// Every line of the plan is legal from the root by the rules, and every job is a position where the winner moves.
fn lines_are_legal(g: &Breakthrough, s: &BtState, plan: &CheckPlan, win: bool) {
    for id in &plan.jobs {
        let p = play_line(g, s, id).unwrap();
        assert_eq!(g.side_to_move(&p) == g.side_to_move(s), win, "job {id}");
        assert!(g.outcome(&p).is_none(), "job {id}");
    }
}

/// On small boards the split check's verdict equals the whole check's, at split depths 0 to 2, for true claims
/// (4x4 and 5x4 with one row: first-player wins; after a1a2 on 4x4, Black loses) and false ones (5x4 with two
/// rows is a first-player loss; after b1b2 on 4x4, Black wins: solved.json); a false claim names a failed line that
/// starts with a job or a split line.
#[test]
fn split_verdict_equals_the_whole_check() {
    let cases: [(&str, &str, bool, bool); 5] = [
        ("breakthrough(rows=4,columns=4,piece_rows=1)", "", true, true),
        ("breakthrough(rows=5,columns=4,piece_rows=1)", "", true, true),
        ("breakthrough(rows=4,columns=4,piece_rows=1)", "a1a2", false, true),
        ("breakthrough(rows=4,columns=4,piece_rows=1)", "b1b2", false, false),
        ("breakthrough(rows=5,columns=4)", "", true, false),
    ];
    for (text, moves, win, holds) in cases {
        let g = bt(text);
        let s = play_line(&g, &g.start(), moves).unwrap();
        assert_eq!(whole(&g, &s, win), holds, "{text} after '{moves}'");
        for depth in if win { 0..=2 } else { 1..=2 } {
            let (verified, plan, failed) = split(&g, &s, win, depth);
            assert_eq!(verified, holds, "{text} after '{moves}' depth {depth}: {failed:?}");
            lines_are_legal(&g, &s, &plan, win);
            if depth > 0 && holds {
                // Below the root the split levels make several jobs, all of them holding.
                assert!(plan.jobs.len() > 1, "{text} depth {depth}");
            }
            if !holds {
                let line = &failed[0];
                // The failed line is legal from the root.
                play_line(&g, &s, line).unwrap();
            }
        }
    }
    // A loss claim needs at least one move of the loser expanded.
    let g = bt("breakthrough(rows=4,columns=4,piece_rows=1)");
    let s = play_line(&g, &g.start(), "a1a2").unwrap();
    assert!(check_plan(&g, &s, false, 0, &options()).unwrap_err().contains("--split-depth 0"));
}

/// At depth 1 a loss claim has one job per legal move of the loser (none of them ends the game on 4x4 after
/// a1a2), named by that move.
#[test]
fn depth_one_jobs_are_the_losers_moves() {
    let g = bt("breakthrough(rows=4,columns=4,piece_rows=1)");
    let s = play_line(&g, &g.start(), "a1a2").unwrap();
    let plan = check_plan(&g, &s, false, 1, &options()).unwrap();
    let mut list = MoveList::new();
    g.generate_moves(&s, &mut list);
    let moves: Vec<String> = list.iter().map(|&m| g.format_move(&s, m)).collect();
    assert_eq!(plan.jobs, moves);
    assert!(plan.choices.is_empty() && plan.failures.is_empty());
    // A recorded plan whose job list was edited is not the one its choices give.
    let mut edited = plan.clone();
    edited.jobs.pop();
    assert_ne!(plan_from_choices(&g, &s, &edited).unwrap(), edited);
}

const G44: &str = "breakthrough(rows=4,columns=4,piece_rows=1)";

fn run(file: &str, moves: &str, depth: &str) -> std::process::Output {
    plateau(&[
        "solve",
        G44,
        "--check-split",
        "--results",
        file,
        "--moves",
        moves,
        "--split-depth",
        depth,
        "--tt",
        "8mb",
        "--check-memo",
        "4mb",
        "--json",
    ])
}

/// The command: the verdict and its fields; the same command again runs nothing; a file cut in the middle of a line
/// resumes (the cut line's job is run again, the others not); a file of another plan, or not a results file, is
/// refused untouched; a false claim exits with one error line naming where it failed.
#[test]
fn command_resumes_and_refuses_another_plan() {
    let dir = tmpdir("resume");
    let file = dir.join("check.jsonl");
    let f = file.to_str().unwrap();
    let out = run(f, "a1a2", "1");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let summary: serde_json::Value = serde_json::from_str(&text[text.find("{\n").unwrap()..]).unwrap();
    assert_eq!(summary["verdict"], "verified");
    assert_eq!(summary["claim"], "loss");
    let jobs = summary["jobs"].as_u64().unwrap();
    assert!(jobs >= 4);
    assert_eq!(summary["jobs_verified"].as_u64(), Some(jobs));
    assert_eq!(summary["jobs_this_run"].as_u64(), Some(jobs));
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written.lines().count() as u64, jobs + 1);
    assert!(written.starts_with("{\"check_plan\":"));
    // Again: nothing to run, the same verdict.
    let again = run(f, "a1a2", "1");
    let t = stdout(&again);
    let s2: serde_json::Value = serde_json::from_str(&t[t.find("{\n").unwrap()..]).unwrap();
    assert_eq!((s2["verdict"].as_str(), s2["jobs_this_run"].as_u64()), (Some("verified"), Some(0)));
    // Cut in the middle of the last line: that job runs again, and the file is whole again.
    let cut = &written[..written.len() - 20];
    std::fs::write(&file, cut).unwrap();
    let resumed = run(f, "a1a2", "1");
    let t = stdout(&resumed);
    let s3: serde_json::Value = serde_json::from_str(&t[t.find("{\n").unwrap()..]).unwrap();
    assert_eq!((s3["verdict"].as_str(), s3["jobs_this_run"].as_u64()), (Some("verified"), Some(1)));
    let rewritten = std::fs::read_to_string(&file).unwrap();
    assert_eq!(rewritten.lines().count(), written.lines().count());
    assert!(rewritten.lines().all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()));
    // Another plan (another depth, another root), and a file that is not a results file: refused, untouched.
    for (moves, depth, needle) in [("a1a2", "2", "another plan"), ("d1d2", "1", "another plan")] {
        let out = run(f, moves, depth);
        let e = one_line_error(&out);
        assert!(e.contains(needle), "{e}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), rewritten);
    }
    let other = dir.join("other.jsonl");
    std::fs::write(&other, "{\"root\": 1}\n").unwrap();
    let e = one_line_error(&run(other.to_str().unwrap(), "a1a2", "1"));
    assert!(e.contains("not the plan"), "{e}");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "{\"root\": 1}\n");
    // A false claim: after b1b2 Black wins (solved.json); the command fails with the line.
    let wrong = dir.join("wrong.jsonl");
    let e = one_line_error(&run(wrong.to_str().unwrap(), "b1b2", "1"));
    assert!(e.contains("NOT confirmed") && e.contains("failed after the moves"), "{e}");
    refused(&["solve", G44, "--check-split"], "--results");
    refused(&["solve", G44, "--split-depth", "2"], "--check-split");
    refused(&["solve", G44, "--check-split", "--results", f, "--check"], "--check");
    std::fs::remove_dir_all(&dir).unwrap();
}
