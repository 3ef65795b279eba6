//! Qubic's split solve as jobs (`plateau::solve::run::split_jobs::load`, what the Ray driver `python -m plateau.cluster
//! solve qubic --split` runs through `_plateau.SplitSolve`): the library chooses the split by the game's solver; the
//! jobs run one at a time wherever the caller likes, their lines continue the results file of `plateau solve qubic
//! --split --results FILE` and the command continues theirs; the summary merges the jobs' proofs and checks the merged
//! proof with the rules alone; what the command refuses is refused in one line.

use plateau::solve::request::Request;
use plateau::solve::run::split_jobs::{JobSplit, load};

use crate::common::{json, plateau, tmpdir};

const Q3: &str = "qubic(size=3)";

fn request(v: serde_json::Value) -> Request {
    Request::from_json(v).unwrap()
}

fn jobs(results: &str, extra: serde_json::Value) -> Result<Box<dyn JobSplit>, String> {
    let mut v = serde_json::json!({"split": true, "results": results, "quiet": true});
    v.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    load(Q3, request(v))
}

fn lines(file: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(file).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn the_jobs_run_one_at_a_time_continue_the_commands_file_and_the_merged_proof_checks() {
    let dir = tmpdir("qjobs");
    let results = dir.join("q3.jobs").display().to_string();
    let proof = dir.join("q3.proof").display().to_string();
    let s = jobs(&results, serde_json::json!({"proof": proof, "check": true})).unwrap();
    // The plan of `plateau solve qubic(size=3) --split`: the centre, O's 26 answers in 3 orbits.
    let plan = serde_json::to_value(s.plan()).unwrap();
    assert_eq!(plan["first_move"], "2b2", "{plan}");
    assert_eq!(plan["root"], "qubic(size=3) 3/3/3|3/3/3|3/3/3 x", "{plan}");
    let groups = plan["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 3, "{plan}");
    assert_eq!(groups.iter().map(|g| g.as_array().unwrap().len()).sum::<usize>(), 26, "{plan}");
    assert!(s.open().unwrap().is_empty());
    assert!(!s.decided());
    // One job, run as a worker runs it (by any answer of its orbit), its line appended by the driver's side.
    let first = groups[0][0].as_str().unwrap();
    let mirror = groups[0].as_array().unwrap().last().unwrap().as_str().unwrap();
    let got = s.solve_group(mirror).unwrap();
    assert_eq!(got.len(), 1);
    let line: serde_json::Value = serde_json::from_str(&got[0]).unwrap();
    assert_eq!(line["answer"], first, "{line}");
    assert_eq!(line["result"], "win", "{line}");
    assert!(std::path::Path::new(line["proof_file"].as_str().unwrap()).exists(), "{line}");
    assert!(!s.add(&got).unwrap(), "two jobs left");
    assert_eq!(lines(&results).len(), 1);
    // Not all proven: the summary says so, and merges nothing.
    let part: serde_json::Value = serde_json::from_str(&s.summary_json(1.0).unwrap()).unwrap();
    assert_eq!(part["result"], "unknown", "{part}");
    assert_eq!(part["proven_jobs"], 1, "{part}");
    assert_eq!(part["jobs_run"], 1, "{part}");
    assert!(part["proof_file"].is_null(), "{part}");
    // The command goes on from the jobs' file: it runs the two jobs left and checks the merged proof.
    let args = ["solve", Q3, "--split", "--results", &results, "--proof", &proof, "--check", "--json"];
    let cli = json(&plateau(&args));
    assert_eq!(cli["result"], "win", "{cli}");
    assert_eq!(cli["jobs_run"], 2, "{cli}");
    assert_eq!(cli["proof_check"]["verified"], true, "{cli}");
    // And the jobs go on from the command's file: every job decided, none to run; the summary merges the proof and
    // the independent checker walks it.
    let again = jobs(&results, serde_json::json!({"proof": proof, "check": true})).unwrap();
    assert_eq!(again.open().unwrap().len(), 3);
    assert!(again.decided());
    let done: serde_json::Value = serde_json::from_str(&again.summary_json(0.5).unwrap()).unwrap();
    assert_eq!(done["result"], "win", "{done}");
    assert_eq!(done["jobs_run"], 0, "{done}");
    assert_eq!(done["seconds"], 0.5, "{done}");
    assert_eq!(done["proof_positions"], cli["proof_positions"], "{done}");
    assert_eq!(done["proof_check"]["verified"], true, "{done}");
    assert_eq!(done["proof_check"]["or_positions"], cli["proof_check"]["or_positions"], "{done}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_disproven_job_decides_the_split_and_open_jobs_go_on_from_their_tables() {
    let dir = tmpdir("qjobs_corner");
    let results = dir.join("corner.jobs").display().to_string();
    // After the corner 1a1, O's answer in the centre refutes it (3x3x3 has no draw: O wins); one expansion a job
    // leaves that job open with its table saved.
    let s = jobs(&results, serde_json::json!({"split_first": "1a1", "max_nodes": 1})).unwrap();
    s.open().unwrap();
    let centre = s.solve_group("2b2").unwrap();
    let line: serde_json::Value = serde_json::from_str(&centre[0]).unwrap();
    assert_eq!(line["result"], "unknown", "{line}");
    assert_eq!(line["nodes"], 1, "{line}");
    assert!(std::path::Path::new(line["table_file"].as_str().unwrap()).exists(), "{line}");
    assert!(!s.add(&centre).unwrap());
    // Without the limit, the same job goes on from its table to the disproof, which decides the root.
    let t = jobs(&results, serde_json::json!({"split_first": "1a1"})).unwrap();
    assert!(t.open().unwrap().is_empty(), "an unknown line decides nothing");
    let refuted = t.solve_group("2b2").unwrap();
    let line: serde_json::Value = serde_json::from_str(&refuted[0]).unwrap();
    assert_eq!(line["result"], "no-win", "{line}");
    assert_eq!(line["earlier_nodes"], 1, "{line}");
    assert!(t.add(&refuted).unwrap(), "a job disproven decides the split");
    let doc: serde_json::Value = serde_json::from_str(&t.summary_json(0.0).unwrap()).unwrap();
    assert_eq!(doc["result"], "first-move-fails", "{doc}");
    assert_eq!(doc["failed_jobs"], serde_json::json!(["2b2"]), "{doc}");
    // The command reads the same file: the first move fails, no job run.
    let cli = json(&plateau(&["solve", Q3, "--split", "--split-first", "1a1", "--results", &results, "--json"]));
    assert_eq!(cli["result"], "first-move-fails", "{cli}");
    assert_eq!(cli["jobs_run"], 0, "{cli}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_the_split_jobs_cannot_do_is_refused_in_one_line() {
    let dir = tmpdir("qjobs_bad");
    let results = dir.join("r.jobs").display().to_string();
    let refused = |extra: serde_json::Value, words: &str| {
        let e = jobs(&results, extra).err().expect("refused");
        assert!(e.contains(words) && !e.contains('\n'), "{words}: {e}");
    };
    refused(serde_json::json!({"table": "t"}), "--table");
    refused(serde_json::json!({"budget": 10}), "--budget");
    refused(serde_json::json!({"check": true}), "--proof");
    refused(serde_json::json!({"check_memo": "8mb", "proof": "p"}), "--check");
    refused(serde_json::json!({"split_first": "9z9"}), "--split-first");
    refused(serde_json::json!({"split": false}), "--split");
    let e = load(Q3, request(serde_json::json!({"split": true}))).err().unwrap();
    assert!(e.contains("--results"), "{e}");
    let e = load("connect_four", request(serde_json::json!({"split": true, "results": results}))).err().unwrap();
    assert!(e.contains("split") && !e.contains('\n'), "{e}");
    let s = jobs(&results, serde_json::json!({})).unwrap();
    let e = s.solve_group("9z9").err().unwrap();
    assert!(e.contains("9z9"), "{e}");
    // A line of another split (another first move) is not appended; nor is anything before the file is opened.
    let other = jobs(&results, serde_json::json!({"split_first": "1a1", "max_nodes": 1})).unwrap();
    let line = other.solve_group("2b2").unwrap();
    assert!(s.add(&line).is_err());
    s.open().unwrap();
    let e = s.add(&line).err().unwrap();
    assert!(e.contains("another split"), "{e}");
    assert!(s.add(&["not json".to_string()]).err().unwrap().contains("not a job line"));
    assert_eq!(std::fs::read_to_string(&results).unwrap(), "", "nothing appended");
    // A results file with a line that is not a job line is refused untouched.
    std::fs::write(&results, "not a job\n").unwrap();
    let e = jobs(&results, serde_json::json!({})).unwrap().open().err().unwrap();
    assert!(e.contains("line 1"), "{e}");
    assert_eq!(std::fs::read_to_string(&results).unwrap(), "not a job\n");
    let _ = std::fs::remove_dir_all(&dir);
}
