//! Qubic's split solve (`plateau solve "qubic(size=3)" --split --results FILE`): the first move, one job per answer of
//! O up to the symmetries that fix the position, each job proven with a table and a proof of its own; the jobs'
//! proofs mapped by the symmetries and merged into one proof of the start, checked with the rules alone; a run
//! stopped by the limits goes on from its results file and tables; bad requests refused in one line.

use crate::common::{json, one_line_error, plateau, tmpdir};

fn lines(file: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(file).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn the_small_cube_split_into_jobs_is_proven_and_the_merged_proof_checks() {
    let dir = tmpdir("qsplit");
    let results = dir.join("q3.jobs").display().to_string();
    let proof = dir.join("q3.proof").display().to_string();
    let args = ["solve", "qubic(size=3)", "--split", "--results", &results, "--proof", &proof, "--check", "--json"];
    let v = json(&plateau(&args));
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["method"], "qubic-pns-split", "{v}");
    // The evaluation's first move is the centre, which all 48 symmetries fix: O's 26 answers fall into 3 orbits
    // (8 corners, 12 edges, 6 face centres).
    assert_eq!(v["first_move"], "2b2", "{v}");
    assert_eq!(v["stabiliser"], 48, "{v}");
    assert_eq!(v["answers"], 26, "{v}");
    assert_eq!(v["jobs"], 3, "{v}");
    assert_eq!(v["proven_jobs"], 3, "{v}");
    assert_eq!(v["jobs_run"], 3, "{v}");
    let jobs = lines(&results);
    assert_eq!(jobs.len(), 3);
    let mut covered = 0;
    for j in &jobs {
        assert_eq!(j["result"], "win", "{j}");
        let own = j["proof_file"].as_str().unwrap();
        assert!(std::path::Path::new(own).exists(), "{j}");
        assert!(std::path::Path::new(j["table_file"].as_str().unwrap()).exists(), "{j}");
        covered += 1 + j["mirrors"].as_array().unwrap().len();
        // Each job's own proof checks alone, rooted at the position after its answer.
        let c = json(&plateau(&["solve", "qubic(size=3)", "--check-proof", own, "--json"]));
        assert_eq!(c["check"]["verified"], true, "{c}");
    }
    assert_eq!(covered, 26);
    // The merged proof: rooted at the start, every answer of O walked by the checker with the rules alone.
    assert_eq!(v["proof_check"]["verified"], true, "{v}");
    let c = json(&plateau(&["solve", "qubic(size=3)", "--check-proof", &proof, "--json"]));
    assert_eq!(c["check"]["verified"], true, "{c}");
    assert_eq!(c["root"], "3/3/3|3/3/3|3/3/3 x", "{c}");
    assert_eq!(c["positions"], v["proof_positions"], "{c}");
    // More positions than any one job's proof: the mirrors' images are there too.
    let largest = jobs.iter().map(|j| j["proof_positions"].as_u64().unwrap()).max().unwrap();
    assert!(v["proof_positions"].as_u64().unwrap() > largest, "{v}");
    // Run again: every job is done, none runs, the proof is merged again from the jobs' files.
    let again = json(&plateau(&args));
    assert_eq!(again["result"], "win", "{again}");
    assert_eq!(again["jobs_run"], 0, "{again}");
    assert_eq!(again["proof_positions"], v["proof_positions"], "{again}");
    assert_eq!(lines(&results).len(), 3, "no line added");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stopped_split_goes_on_from_its_files_and_a_losing_first_move_is_found() {
    let dir = tmpdir("qsplit_resume");
    let results = dir.join("corner.jobs").display().to_string();
    let proof = dir.join("corner.proof").display().to_string();
    let base = ["solve", "qubic(size=3)", "--split", "--split-first", "1a1", "--results", &results, "--json"];
    // Each job stopped after one expansion: a line per job, its table saved.
    let first = json(&plateau(&[&base[..], &["--max-nodes", "1"]].concat()));
    assert_eq!(first["first_move"], "1a1", "{first}");
    // A corner is fixed by the 6 symmetries that permute the axes: the 26 other cells fall into 9 orbits (a cell's
    // coordinates as a multiset of {0, 1, 2}, the corner's own (0, 0, 0) left out).
    assert_eq!(first["stabiliser"], 6, "{first}");
    assert_eq!(first["answers"], 26, "{first}");
    assert_eq!(first["jobs"], 9, "{first}");
    let after_first = lines(&results);
    assert_eq!(after_first.len(), 9);
    // The threat sequences prove 8 jobs at their first expansion; O's answer in the centre is left open.
    let open: Vec<&serde_json::Value> = after_first.iter().filter(|j| j["result"] == "unknown").collect();
    assert_eq!(open.len(), 1, "{first}");
    assert_eq!(open[0]["answer"], "2b2", "{first}");
    assert!(std::path::Path::new(open[0]["table_file"].as_str().unwrap()).exists());
    assert_eq!(first["result"], "unknown", "{first}");
    assert_eq!(first["undecided_jobs"], serde_json::json!(["2b2"]), "{first}");
    // The same command without the limit: only the open job runs, from its table, and it is disproven: after a
    // corner, O in the centre holds (3x3x3 has no draw: O wins), so the corner does not win and no proof is written.
    let second = json(&plateau(&[&base[..], &["--proof", &proof, "--check"]].concat()));
    assert_eq!(second["jobs_run"], 1, "{second}");
    assert_eq!(second["result"], "first-move-fails", "{second}");
    assert_eq!(second["failed_jobs"], serde_json::json!(["2b2"]), "{second}");
    assert_eq!(second["proven_jobs"], 8, "{second}");
    assert!(second["score"].is_null(), "{second}");
    assert!(second["proof_file"].is_null() && !std::path::Path::new(&proof).exists(), "{second}");
    let all = lines(&results);
    assert_eq!(all.len(), 10);
    assert_eq!(all[9]["result"], "no-win");
    assert_eq!(all[9]["earlier_nodes"], 1, "the table of the first run read back");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_split_requests_are_refused_in_one_line() {
    let dir = tmpdir("qsplit_bad");
    let results = dir.join("r.jobs").display().to_string();
    let q = "qubic(size=3)";
    let e = one_line_error(&plateau(&["solve", q, "--split", "--json"]));
    assert!(e.contains("--results"), "{e}");
    let e = one_line_error(&plateau(&["solve", q, "--split", "--results", &results, "--table", "t", "--json"]));
    assert!(e.contains("--table"), "{e}");
    let e = one_line_error(&plateau(&["solve", q, "--split", "--results", &results, "--split-first", "9z9"]));
    assert!(e.contains("--split-first"), "{e}");
    let e = one_line_error(&plateau(&["solve", q, "--results", &results, "--json"]));
    assert!(e.contains("--split"), "{e}");
    let e = one_line_error(&plateau(&["solve", q, "--split", "--results", &results, "--check", "--json"]));
    assert!(e.contains("--proof"), "{e}");
    // A results file with a line that is not a job line is refused untouched.
    std::fs::write(&results, "not a job\n").unwrap();
    let e = one_line_error(&plateau(&["solve", q, "--split", "--results", &results, "--json"]));
    assert!(e.contains("line 1"), "{e}");
    assert_eq!(std::fs::read_to_string(&results).unwrap(), "not a job\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_big_cube_splits_after_a_corner_into_orbits_that_cover_every_answer() {
    let dir = tmpdir("qsplit4");
    let results = dir.join("q4.jobs").display().to_string();
    // One expansion a job: the plan and a line per job, nothing proven.
    let args = ["solve", "qubic", "--split", "--results", &results, "--max-nodes", "1", "--tt", "16mb", "--json"];
    let v = json(&plateau(&args));
    assert_eq!(v["first_move"], "1a1", "{v}");
    assert_eq!(v["answers"], 63, "{v}");
    let stabiliser = v["stabiliser"].as_u64().unwrap();
    assert!(stabiliser > 1 && 192 % stabiliser == 0, "a subgroup of the 192 symmetries: {v}");
    let jobs = lines(&results);
    assert_eq!(jobs.len() as u64, v["jobs"].as_u64().unwrap());
    let mut answers: Vec<String> = Vec::new();
    for j in &jobs {
        answers.push(j["answer"].as_str().unwrap().to_string());
        answers.extend(j["mirrors"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()));
        // An orbit is no larger than the stabiliser.
        assert!((j["mirrors"].as_array().unwrap().len() as u64) < stabiliser, "{j}");
    }
    answers.sort();
    answers.dedup();
    assert_eq!(answers.len(), 63, "every answer in exactly one job");
    assert!(!answers.contains(&"1a1".to_string()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_job_solved_by_a_command_of_its_own_is_taken_up_by_the_split() {
    let dir = tmpdir("qsplit_own");
    let results = dir.join("own.jobs").display().to_string();
    // The job of the corner answer after the centre, run alone on "another machine": its table beside FILE.
    let table = format!("{results}.1a1.table");
    let alone = json(&plateau(&["solve", "qubic(size=3)", "--moves", "2b2 1a1", "--table", &table, "--json"]));
    assert_eq!(alone["result"], "win", "{alone}");
    let proof = dir.join("own.proof").display().to_string();
    let args = ["solve", "qubic(size=3)", "--split", "--results", &results, "--proof", &proof, "--check", "--json"];
    let v = json(&plateau(&args));
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["proof_check"]["verified"], true, "{v}");
    let corner = lines(&results).into_iter().find(|j| j["answer"] == "1a1").unwrap();
    // Proven from that table: the expansions behind it are counted as the job's earlier ones.
    assert_eq!(corner["result"], "win", "{corner}");
    assert_eq!(corner["earlier_nodes"], alone["nodes"], "{corner}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_job_proven_by_a_split_of_its_own_is_taken_up_from_its_proof_file() {
    let dir = tmpdir("qsplit_sub");
    let results = dir.join("q.jobs").display().to_string();
    // The corner answer's job after the centre, split in turn (X's move there, O's answers as jobs of their own),
    // its merged proof written where the root's split looks for the job's proof.
    let job_proof = format!("{results}.1a1.proof");
    let sub = dir.join("sub.jobs").display().to_string();
    let s = json(&plateau(&[
        "solve",
        "qubic(size=3)",
        "--moves",
        "2b2 1a1",
        "--split",
        "--results",
        &sub,
        "--proof",
        &job_proof,
        "--check",
        "--json",
    ]));
    assert_eq!(s["result"], "win", "{s}");
    assert!(s["jobs"].as_u64().unwrap() > 1, "{s}");
    let proof = dir.join("root.proof").display().to_string();
    let args = ["solve", "qubic(size=3)", "--split", "--results", &results, "--proof", &proof, "--check", "--json"];
    let v = json(&plateau(&args));
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["proof_check"]["verified"], true, "{v}");
    let jobs = lines(&results);
    let corner = jobs.iter().find(|j| j["answer"] == "1a1").unwrap();
    // Taken up from the file after the check: no search, no table of its own.
    assert_eq!(corner["result"], "win", "{corner}");
    assert_eq!(corner["proof_given"], true, "{corner}");
    assert_eq!(corner["nodes"], 0, "{corner}");
    assert_eq!(corner["proof_positions"], s["proof_positions"], "{corner}");
    assert!(!std::path::Path::new(&format!("{results}.1a1.table")).exists());
    // The other jobs were searched here, and say so by leaving the field out.
    assert!(jobs.iter().filter(|j| j["answer"] != "1a1").all(|j| j.get("proof_given").is_none() && j["nodes"] != 0));
    // A proof of another position under a job's name is refused in one line, naming both positions.
    let other = jobs.iter().find(|j| j["answer"] != "1a1").unwrap()["answer"].as_str().unwrap().to_string();
    let results2 = dir.join("q2.jobs").display().to_string();
    std::fs::copy(&job_proof, format!("{results2}.{other}.proof")).unwrap();
    let e = one_line_error(&plateau(&["solve", "qubic(size=3)", "--split", "--results", &results2, "--json"]));
    assert!(e.contains(&format!("not job {other}'s position")) && e.contains("move it away"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
