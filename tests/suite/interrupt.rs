//! Ctrl-C (SIGINT) and SIGTERM in the middle of the long jobs (issue 43, point 4): each keeps what it did, says so in
//! one line, ends with 128 + the signal's number (130, 143), and the same command (with `--resume` where the job has
//! it) finishes with the result of a run never interrupted. The real binary, killed mid-run: each test waits until the
//! job is at work (its first line or file), not for a fixed time.

use crate::common::{BIN, json, stderr, stdout, tmpdir};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Start `plateau args`, its stderr to `log` (read while it runs), its stdout to nowhere.
fn spawn(args: &[&str], log: &Path) -> Child {
    Command::new(BIN)
        .args(args)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .expect("the binary runs")
}

/// Wait until `ready()` holds, the child still running (so that the signal lands in the middle of the work).
#[track_caller]
fn wait_for(child: &mut Child, what: &str, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(child.try_wait().unwrap().is_none(), "the job ended before {what}");
        assert!(start.elapsed() < Duration::from_secs(300), "no {what} after 300 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Send `sig` and wait: the exit code and the job's stderr.
fn interrupt(mut child: Child, sig: i32, log: &Path) -> (Option<i32>, String) {
    // SAFETY: a signal to our own child, whose id is valid until it is waited for (below).
    assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
    let status = child.wait().unwrap();
    (status.code(), std::fs::read_to_string(log).unwrap())
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

fn run(args: &[&str]) -> Output {
    let o = Command::new(BIN).args(args).output().expect("the binary runs");
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o
}

/// The last line of `err` says the job was interrupted by `name` and where its work is.
#[track_caller]
fn says_saved(err: &str, name: &str, needle: &str) {
    let last = err.trim_end().lines().last().unwrap_or("");
    assert!(last.contains(&format!("interrupted ({name})")) && last.contains(needle), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn an_interrupted_breakthrough_solve_saves_its_table_and_the_same_command_finishes_it() {
    // Issue 43, point 5: the solve with --table ended at once on Ctrl-C (rc -2) or SIGTERM (143) without its table.
    let d = tmpdir("bt");
    let game = "breakthrough(rows=5,columns=5)";
    let (table, whole) = (d.join("t.tbl"), d.join("whole.tbl"));
    let args = |t: &PathBuf| -> Vec<String> {
        ["solve", game, "--weak", "--json", "--table", t.to_str().unwrap()].map(String::from).to_vec()
    };
    // Without --json for the runs interrupted: their progress lines say when the solve is at work.
    let quiet = |a: &[String]| -> Vec<String> { a.iter().filter(|w| *w != "--json").cloned().collect() };
    // The run never interrupted, alongside (its own table).
    let reference = Command::new(BIN).args(args(&whole)).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let log = d.join("log");
    let a = args(&table);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let cut = quiet(&args(&table));
    let cut: Vec<&str> = cut.iter().map(String::as_str).collect();
    for (sig, name, code) in [(libc::SIGINT, "SIGINT", 130), (libc::SIGTERM, "SIGTERM", 143)] {
        let mut child = spawn(&cut, &log);
        wait_for(&mut child, "the solve's first line", || std::fs::read_to_string(&log).unwrap().contains("memory:"));
        let (rc, err) = interrupt(child, sig, &log);
        assert_eq!(rc, Some(code), "{err}");
        says_saved(&err, name, "the df-pn table is saved in");
        assert!(table.exists(), "the table is written");
    }
    let resumed = json(&run(&a));
    assert!(resumed["earlier_nodes"].as_u64().unwrap() > 0, "the table of the interrupted runs was read: {resumed}");
    let reference = reference.wait_with_output().unwrap();
    assert!(reference.status.success());
    let reference = json(&reference);
    assert_eq!(resumed["result"], reference["result"], "{resumed}\n{reference}");
    assert_eq!(resumed["winning_moves"], reference["winning_moves"]);
}

#[test]
fn an_interrupted_self_play_keeps_its_games_and_resumes_to_the_same_data() {
    let d = tmpdir("tune");
    let (data, whole, log) = (d.join("data.txt"), d.join("whole.txt"), d.join("log"));
    let args = |f: &Path| -> Vec<String> {
        let f = f.to_str().unwrap();
        ["tune", "breakthrough(rows=5,columns=5)", "--eval", "pst", "--games", "100", "--nodes", "200", "--epochs", "1"]
            .into_iter()
            .chain(["--seed", "5", "--save-data", f])
            .map(String::from)
            .collect()
    };
    let a = args(&data);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let mut child = spawn(&a, &log);
    // The header line, then the positions of the first game.
    wait_for(&mut child, "the first game", || lines(&data) > 5);
    let (rc, err) = interrupt(child, libc::SIGTERM, &log);
    assert_eq!(rc, Some(143), "{err}");
    says_saved(&err, "SIGTERM", "the same command goes on from them");
    let kept = lines(&data);
    run(&a);
    assert!(lines(&data) > kept);
    let w = args(&whole);
    run(&w.iter().map(String::as_str).collect::<Vec<_>>());
    let text = |p: &Path| std::fs::read_to_string(p).unwrap();
    assert!(text(&data) == text(&whole), "the resumed data equals the data of a run in one go");
}

#[test]
fn an_interrupted_spsa_run_resumes_from_its_checkpoint_to_the_same_parameters() {
    let d = tmpdir("spsa");
    let (out, whole, log) = (d.join("p.txt"), d.join("whole.txt"), d.join("log"));
    let args = |f: &Path| -> Vec<String> {
        ["spsa", "--engine", "engine(nodes=100)", "--params", "rfp_margin,futility_margin", "--iterations", "20"]
            .into_iter()
            .chain(["--out", f.to_str().unwrap()])
            .map(String::from)
            .collect()
    };
    let a = args(&out);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let checkpoint = d.join("p.txt.checkpoint");
    let mut child = spawn(&a, &log);
    wait_for(&mut child, "the first checkpoint", || checkpoint.exists());
    let (rc, err) = interrupt(child, libc::SIGINT, &log);
    assert_eq!(rc, Some(130), "{err}");
    says_saved(&err, "SIGINT", "--resume goes on");
    assert!(!out.exists(), "interrupted: no parameters file yet");
    let mut resumed = a.clone();
    resumed.push("--resume");
    run(&resumed);
    let w = args(&whole);
    run(&w.iter().map(String::as_str).collect::<Vec<_>>());
    let text = |p: &Path| std::fs::read_to_string(p).unwrap();
    assert_eq!(text(&out), text(&whole), "the resumed run tunes to the parameters of a run in one go");
}

#[test]
fn an_interrupted_match_keeps_its_games_and_resume_plays_the_rest() {
    let d = tmpdir("match");
    let (record, whole, log) = (d.join("r.pgn"), d.join("whole.pgn"), d.join("log"));
    let args = |f: &Path| -> Vec<String> {
        ["match", "breakthrough(rows=5,columns=4)", "--player", "random", "--player", "random", "--games", "20000"]
            .into_iter()
            .chain(["--seed", "2", "--record", f.to_str().unwrap()])
            .map(String::from)
            .collect()
    };
    let a = args(&record);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let mut child = spawn(&a, &log);
    wait_for(&mut child, "the first game", || std::fs::metadata(&record).is_ok_and(|m| m.len() > 0));
    let (rc, err) = interrupt(child, libc::SIGINT, &log);
    assert_eq!(rc, Some(130), "{err}");
    says_saved(&err, "SIGINT", "--resume plays the rest");
    let mut resumed = a.clone();
    resumed.push("--resume");
    let out = run(&resumed);
    let w = args(&whole);
    let reference = run(&w.iter().map(String::as_str).collect::<Vec<_>>());
    let score = |o: &Output| {
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        text.lines().find(|l| l.starts_with("games ")).unwrap_or("").to_string()
    };
    assert!(score(&out).starts_with("games 20000 "), "{}", stdout(&out));
    assert_eq!(score(&out), score(&reference), "the resumed match ends with the score of a match in one go");
}
