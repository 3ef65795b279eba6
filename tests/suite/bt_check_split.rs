//! The split proof check of Breakthrough (`plateau solve --check-split`, `plateau::solve::breakthrough::check_plan`
//! and `run_check_job`): its verdict equals the whole check's (`--check`) on small boards, for true and false claims
//! and at several split depths; a false claim fails with the line where it broke; the results file resumes (also cut
//! in the middle of a line) and a file of another plan is refused untouched.

use plateau::game::{Game, MoveList};
use plateau::games::breakthrough::BtState;
use plateau::games::{AnyGame, Breakthrough};
use plateau::solve::breakthrough::{
    CheckPlan, Choice, SolveOptions, check_plan, expand_known, plan_from_choices, play_line, run_check_job, solve,
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

/// The expansion with the choices known so far (`expand_known`): with none, a win claim below the root needs the
/// root's choice and knows no job; the choices added one at a time, the LAST needed one first (the order a cluster
/// may finish them in), it ends with the plan made in one go; every job known on the way is a job of that plan (the
/// same position), so jobs can start before the plan is complete.
#[test]
fn choices_added_in_any_order_give_the_plan_made_in_one_go() {
    for (text, moves, win) in [
        ("breakthrough(rows=4,columns=4,piece_rows=1)", "", true),
        ("breakthrough(rows=5,columns=4,piece_rows=1)", "", true),
        ("breakthrough(rows=4,columns=4,piece_rows=1)", "a1a2", false),
    ] {
        let g = bt(text);
        let s = play_line(&g, &g.start(), moves).unwrap();
        let whole = check_plan(&g, &s, win, 2, &options()).unwrap();
        assert!(!whole.choices.is_empty(), "{text}");
        let position = |line: &str| play_line(&g, &s, line).unwrap();
        let final_jobs: Vec<BtState> = whole.jobs.iter().map(|j| position(j)).collect();
        let first = expand_known(&g, &s, win, 2, &[]).unwrap();
        assert!(!first.needed.is_empty(), "{text}");
        if win {
            assert_eq!((first.needed.clone(), first.plan.jobs.len()), (vec![String::new()], 0), "{text}");
        }
        let mut known = Vec::new();
        let mut steps = 0;
        loop {
            let e = expand_known(&g, &s, win, 2, &known).unwrap();
            for j in &e.plan.jobs {
                assert!(final_jobs.contains(&position(j)), "{text}: job {j} known early is not in the plan");
            }
            let Some(line) = e.needed.last() else {
                assert_eq!(e.plan, whole, "{text}");
                break;
            };
            // The choice the one-go plan made for that position.
            let p = position(line);
            let made = whole.choices.iter().find(|c| position(&c.line) == p).expect("a needed choice is in the plan");
            known.push(Choice { line: line.clone(), mv: made.mv.clone() });
            steps += 1;
            assert!(steps <= whole.choices.len(), "{text}: more choices asked than the plan has");
        }
        // A recorded choice on an illegal line is an error, not a panic.
        let bad = [Choice { line: "z9z9".into(), mv: None }];
        assert!(expand_known(&g, &s, win, 2, &bad).is_err());
    }
}

fn run_depth2(file: &str, moves: &str) -> std::process::Output {
    plateau(&[
        "solve",
        "breakthrough(rows=5,columns=4,piece_rows=1)",
        "--check-split",
        "--results",
        file,
        "--moves",
        moves,
        "--split-depth",
        "2",
        "--tt",
        "8mb",
        "--check-memo",
        "4mb",
        "--json",
    ])
}

fn summary_of(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    let t = stdout(out);
    serde_json::from_str(&t[t.find("{\n").unwrap()..]).unwrap()
}

/// The plan's choices are kept as they are made (FILE.choices): a run stopped mid-plan (its choices file cut after a
/// few choices, in the middle of a line, the results file not written yet) resumes with the choices it has, makes
/// only the others, and ends with the very plan and verdict of a run in one go; a job finished before the plan was
/// complete (the cluster's) is taken into the results file and not run again; a choices file of another plan is
/// refused untouched.
#[test]
fn a_run_stopped_mid_plan_resumes_its_choices() {
    let dir = tmpdir("choices");
    let one = dir.join("one.jsonl");
    let s1 = summary_of(&run_depth2(one.to_str().unwrap(), ""));
    assert_eq!((s1["verdict"].as_str(), s1["plan_complete"].as_bool()), (Some("verified"), Some(true)));
    let choices = s1["choices"].as_u64().unwrap() as usize;
    assert!(choices >= 3, "{s1}");
    assert_eq!(s1["choices_this_run"].as_u64(), Some(choices as u64));
    let side = std::fs::read_to_string(dir.join("one.jsonl.choices")).unwrap();
    let side_lines: Vec<&str> = side.lines().collect();
    assert_eq!(side_lines.len(), choices + 1, "{side}");
    assert!(side_lines[0].starts_with("{\"check_choices\":"));
    let plan1 = std::fs::read_to_string(&one).unwrap().lines().next().unwrap().to_string();

    // Stopped after two choices, the third line cut; no results file yet.
    let two = dir.join("two.jsonl");
    // And a job of the expansion with those two choices, finished before the plan was complete.
    let g = bt("breakthrough(rows=5,columns=4,piece_rows=1)");
    let root = g.start();
    let known: Vec<Choice> = side_lines[1..3].iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let e = expand_known(&g, &root, true, 2, &known).unwrap();
    assert!(!e.needed.is_empty());
    let early = e.plan.jobs.first().expect("two choices already make a job").clone();
    let job = run_check_job(&g, &root, &early, &options()).unwrap();
    // Its line goes before the cut line (a run drops the cut line, then appends).
    let side2 = format!(
        "{}\n{}\n{}\n{}\n{}",
        side_lines[0],
        side_lines[1],
        side_lines[2],
        serde_json::to_string(&job).unwrap(),
        &side_lines[3][..10]
    );
    std::fs::write(dir.join("two.jsonl.choices"), side2).unwrap();
    let s2 = summary_of(&run_depth2(two.to_str().unwrap(), ""));
    assert_eq!(s2["verdict"], "verified");
    assert_eq!(s2["choices_this_run"].as_u64(), Some(choices as u64 - 2), "{s2}");
    assert_eq!(s2["jobs_this_run"].as_u64(), Some(s1["jobs"].as_u64().unwrap() - 1), "{s2}");
    let results2 = std::fs::read_to_string(&two).unwrap();
    assert_eq!(results2.lines().next().unwrap(), plan1, "the same plan");
    assert_eq!(results2.lines().count(), s1["jobs"].as_u64().unwrap() as usize + 1);
    for key in ["jobs", "jobs_verified", "choices"] {
        assert_eq!(s1[key], s2[key], "{key}");
    }
    // The same job lines but for their seconds (and for the job taken from the choices file, run here with the
    // library's options rather than the command's).
    let jobs_of = |text: &str| -> Vec<serde_json::Value> {
        let mut v: Vec<serde_json::Value> = text.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect();
        for j in &mut v {
            j.as_object_mut().unwrap().retain(|k, _| !k.contains("seconds"));
        }
        v.retain(|j| j["job"] != early.as_str());
        v.sort_by_key(|j| j["job"].as_str().unwrap().to_string());
        v
    };
    assert_eq!(jobs_of(&std::fs::read_to_string(&one).unwrap()), jobs_of(&results2));
    // The same command again: nothing to do.
    let s3 = summary_of(&run_depth2(two.to_str().unwrap(), ""));
    assert_eq!((s3["choices_this_run"].as_u64(), s3["jobs_this_run"].as_u64()), (Some(0), Some(0)));

    // A choices file of another plan (another root), with no results file: refused, untouched.
    let three = dir.join("three.jsonl");
    std::fs::copy(dir.join("one.jsonl.choices"), dir.join("three.jsonl.choices")).unwrap();
    let e = one_line_error(&run_depth2(three.to_str().unwrap(), "a1a2"));
    assert!(e.contains("another plan") && e.contains("untouched"), "{e}");
    assert_eq!(std::fs::read_to_string(dir.join("three.jsonl.choices")).unwrap(), side);
    assert!(!three.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
