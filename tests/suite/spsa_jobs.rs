//! The job-level SPSA run (`plateau::arena::spsa_jobs`, for the Ray driver): its iterations' game pairs played in any
//! order and applied one iteration at a time make the very checkpoint and parameters file of `plateau spsa` with the
//! same words, `plateau spsa --resume` continues its checkpoint (and the other way round), and what would count an
//! iteration twice, or another run's checkpoint, is refused in one line.

use crate::common::{plateau, stderr, tmpdir};
use plateau::arena::spsa_jobs::{SpsaJobs, load_words};

const GAME: &str = "breakthrough(rows=5,columns=5)";

fn words(out: &str, more: &[&str]) -> Vec<String> {
    let base = [
        GAME,
        "--engine",
        "engine(nodes=300,tt=1mb)",
        "--params",
        "rfp_margin,futility_margin,cost_capture",
        "--iterations",
        "5",
        "--pairs",
        "2",
        "--r-end",
        "0.05",
        "--seed",
        "3",
        "--out",
        out,
    ];
    base.iter().chain(more).map(|s| s.to_string()).collect()
}

/// Play every remaining iteration as a driver does: the tasks of each iteration in reverse order, then applied.
fn drive(jobs: &dyn SpsaJobs) -> Vec<u32> {
    let plan = jobs.plan();
    assert_eq!(plan.tasks.iter().map(|t| t.games.clone()).collect::<Vec<_>>(), vec![vec![1, 2], vec![3, 4]]);
    let mut applied = Vec::new();
    while let Some(job) = jobs.next() {
        let mut games = Vec::new();
        for t in plan.tasks.iter().rev() {
            games.extend(jobs.play(&job, &t.games).unwrap());
        }
        assert!(games.iter().all(|g| [0.0, 0.5, 1.0].contains(&g.score) && g.plies > 0));
        // Applying the iteration with a game missing or twice counts nothing.
        assert!(jobs.apply(&job, &games[..3]).unwrap_err().contains("games 1 to 4 once each"));
        let twice = [&games[..], &games[..1]].concat();
        assert!(jobs.apply(&job, &twice).unwrap_err().contains("given twice"));
        let a = jobs.apply(&job, &games).unwrap();
        assert!(a.line.starts_with(&format!("iteration {:>5}", job.iteration)), "{}", a.line);
        // The same iteration again (a retried task's second answer) is refused: the checkpoint is past it.
        assert!(jobs.apply(&job, &games).unwrap_err().contains("cannot be applied"));
        applied.push(job.iteration);
    }
    applied
}

/// `plateau spsa WORDS`.
fn cli(words: &[String]) -> std::process::Output {
    let args: Vec<&str> = std::iter::once("spsa").chain(words.iter().map(String::as_str)).collect();
    plateau(&args)
}

fn checkpoint(out: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(format!("{}.checkpoint", out.display())).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn the_jobs_make_plateau_spsas_checkpoint_and_file_and_each_resumes_the_other() {
    let dir = tmpdir("spsa-jobs");
    let (one, two, three) = (dir.join("one.txt"), dir.join("two.txt"), dir.join("three.txt"));
    let o = cli(&words(one.to_str().unwrap(), &[]));
    assert!(o.status.success(), "{}", stderr(&o));

    // The whole run by jobs: the same checkpoint (θ's bits, the total) and the same parameters file.
    let jobs = load_words(&words(two.to_str().unwrap(), &[])).unwrap();
    assert_eq!(jobs.open().unwrap().iteration, 0);
    assert_eq!(drive(jobs.as_ref()), vec![1, 2, 3, 4, 5]);
    let end = jobs.finish().unwrap();
    assert!(end.line.starts_with(&format!("wrote {}", two.display())), "{}", end.line);
    assert_eq!(checkpoint(&two), checkpoint(&one));
    assert_eq!(std::fs::read_to_string(&two).unwrap(), std::fs::read_to_string(&one).unwrap());
    assert!(jobs.next().is_none());

    // Jobs up to iteration 2 (--stop-after), then plateau spsa --resume; and the command's slice resumed by jobs.
    let three_s = three.to_str().unwrap();
    let jobs = load_words(&words(three_s, &["--stop-after", "2"])).unwrap();
    jobs.open().unwrap();
    assert_eq!(drive(jobs.as_ref()), vec![1, 2]);
    assert!(jobs.finish().unwrap().line.starts_with("stopped after iteration 2 of 5"));
    let o = cli(&words(three_s, &["--resume"]));
    assert!(o.status.success() && stderr(&o).contains("at iteration 2 of 5"), "{}", stderr(&o));
    assert_eq!(checkpoint(&three), checkpoint(&one));
    std::fs::remove_file(&three).unwrap();
    std::fs::remove_file(format!("{three_s}.checkpoint")).unwrap();
    assert!(cli(&words(three_s, &["--stop-after", "3"])).status.success());
    let jobs = load_words(&words(three_s, &[])).unwrap();
    assert_eq!(jobs.open().unwrap().iteration, 3);
    assert_eq!(drive(jobs.as_ref()), vec![4, 5]);
    jobs.finish().unwrap();
    assert_eq!(checkpoint(&three), checkpoint(&one));
    assert_eq!(std::fs::read_to_string(&three).unwrap(), std::fs::read_to_string(&one).unwrap());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_jobs_refuse_another_runs_checkpoint_and_a_run_without_out() {
    let dir = tmpdir("spsa-jobs-refused");
    let out = dir.join("p.txt");
    let out_s = out.to_str().unwrap();
    assert!(cli(&words(out_s, &["--stop-after", "1"])).status.success());
    let path = format!("{out_s}.checkpoint");
    let before = std::fs::read(&path).unwrap();
    let mut other = words(out_s, &[]);
    let seed = other.iter().position(|w| w == "--seed").unwrap();
    other[seed + 1] = "4".into();
    let e = load_words(&other).unwrap().open().unwrap_err();
    assert!(e.contains("its seed is `3`, this run's `4`") && !e.contains('\n'), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let e = load_words(&words(out_s, &[])[..13]).err().expect("no --out");
    assert!(e.contains("needs --out FILE") && !e.contains('\n'), "{e}");
    let e = load_words(&words(out_s, &["--ray", "auto"])).err().expect("--ray");
    assert!(e.contains("--ray is plateau spsa's own flag"), "{e}");
    // A job of another iteration or size is refused on the worker.
    let jobs = load_words(&words(out_s, &[])).unwrap();
    jobs.open().unwrap();
    let mut job = jobs.next().unwrap();
    assert_eq!(job.iteration, 2);
    assert!(jobs.play(&job, &[5]).unwrap_err().contains("game 5 is not in an iteration"));
    job.plus.pop();
    assert!(jobs.play(&job, &[1]).unwrap_err().contains("not one of this run's"));
    std::fs::remove_dir_all(&dir).ok();
}
