//! The job-level match (`plateau::arena::match_jobs`, for the Ray driver): its game pairs played in any order and added
//! one by one make the record file and the summary of `plateau match` with the same words (the same games, the
//! same SPRT decision), `plateau match --resume` continues its file, and a retried game or another match's game adds
//! nothing.

use std::path::Path;
use std::time::Duration;

use crate::common::{BIN, json, plateau, tmpdir};
use plateau::arena::MatchConfig;
use plateau::arena::match_jobs::{MatchJobs, load, load_words, tasks};
use plateau::arena::openings::Openings;
use plateau::arena::record::read_games;
use plateau::arena::stats::Sprt;
use plateau::games::Breakthrough;

const A: &str = "alphabeta(depth=1)";
const B: &str = "random(seed=3)";

fn config(games: usize, sprt: Option<&str>, record: &Path) -> MatchConfig<Breakthrough> {
    MatchConfig {
        players: [A.to_string(), B.to_string()],
        games,
        limit: None,
        concurrency: 1,
        openings: Openings::Random { plies: 2, seed: 4 },
        sprt: sprt.map(|s| Sprt::parse(s).unwrap()),
        record: Some(record.to_path_buf()),
        adjudicate: true,
        max_plies: 1000,
        margin: Duration::from_millis(100),
        progress: false,
        seed: 4,
        fixed_colours: false,
    }
}

/// Each game of a record file: (number, result, termination, moves), by number.
fn games_of(path: &Path) -> Vec<(usize, String, String, Vec<String>)> {
    let mut g: Vec<_> = read_games(&std::fs::read_to_string(path).unwrap())
        .unwrap()
        .into_iter()
        .map(|g| (g.round, g.result.clone(), g.termination.clone(), g.moves.clone()))
        .collect();
    g.sort_by_key(|x| x.0);
    g
}

#[test]
fn the_tasks_are_game_pairs() {
    let t = tasks(5);
    assert_eq!(t.iter().map(|t| t.games.clone()).collect::<Vec<_>>(), vec![vec![1, 2], vec![3, 4], vec![5]]);
    assert_eq!(t.iter().map(|t| t.task).collect::<Vec<_>>(), vec![1, 2, 3]);
}

#[test]
fn pairs_played_in_any_order_make_plateau_matchs_games_and_summary() {
    let dir = tmpdir("match-jobs");
    let (one, two) = (dir.join("one.pgn"), dir.join("two.pgn"));
    let cli = json(&plateau(&[
        "match",
        "breakthrough",
        "--player",
        A,
        "--player",
        B,
        "--games",
        "6",
        "--seed",
        "4",
        "--record",
        one.to_str().unwrap(),
        "--json",
    ]));
    let m = load(Breakthrough::default(), config(6, None, &two)).unwrap();
    assert_eq!(m.open().unwrap(), Vec::<usize>::new());
    let plan = m.plan();
    for task in plan.tasks.iter().rev() {
        for block in m.play(&task.games).unwrap() {
            assert!(m.add(&block).unwrap().written);
            // A retried task's result adds nothing.
            assert!(!m.add(&block).unwrap().written);
        }
    }
    assert_eq!(games_of(&one), games_of(&two));
    let s = serde_json::to_value(m.summary(1.0)).unwrap();
    for key in ["games", "wins_a", "wins_b", "draws", "score", "elo", "by_colour", "length", "failures", "player_a"] {
        assert_eq!(s[key], cli[key], "{key}");
    }
    // plateau match --resume continues the driver's file: nothing left to play.
    let again = json(&plateau(&[
        "match",
        "breakthrough",
        "--player",
        A,
        "--player",
        B,
        "--games",
        "6",
        "--seed",
        "4",
        "--record",
        two.to_str().unwrap(),
        "--resume",
        "--json",
    ]));
    assert_eq!((again["resumed_games"].as_u64(), again["wins_a"].clone()), (Some(6), cli["wins_a"].clone()));
    // A driver opened again reads the six games back; another match's game and a game past --games are refused.
    let m = load(Breakthrough::default(), config(6, None, &two)).unwrap();
    assert_eq!(m.open().unwrap().len(), 6);
    let other = load(Breakthrough::default(), MatchConfig { seed: 5, ..config(8, None, &dir.join("x.pgn")) }).unwrap();
    let e = m.add(&other.play(&[1]).unwrap()[0]).unwrap_err();
    assert!(e.contains("not from this match") && !e.contains('\n'), "{e}");
    assert!(m.play(&[7]).unwrap_err().contains("not in the match"));
    assert!(m.add("garbage").is_err());
}

#[test]
fn the_sprt_decides_after_the_same_game_as_plateau_match() {
    let dir = tmpdir("match-jobs-sprt");
    let (one, two) = (dir.join("one.pgn"), dir.join("two.pgn"));
    let sprt = "elo0=0,elo1=200,alpha=0.1,beta=0.1";
    let cli = json(&plateau(&[
        "match",
        "breakthrough",
        "--player",
        A,
        "--player",
        B,
        "--games",
        "40",
        "--seed",
        "4",
        "--sprt",
        sprt,
        "--record",
        one.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(cli["stopped_early"], true, "{cli}");
    let m = load(Breakthrough::default(), config(40, Some(sprt), &two)).unwrap();
    m.open().unwrap();
    'tasks: for task in m.plan().tasks {
        for block in m.play(&task.games).unwrap() {
            if m.add(&block).unwrap().decided {
                break 'tasks;
            }
        }
    }
    assert!(m.decided());
    let s = serde_json::to_value(m.summary(1.0)).unwrap();
    for key in ["games", "wins_a", "wins_b", "draws", "sprt", "stopped_early"] {
        assert_eq!(s[key], cli[key], "{key}");
    }
    assert_eq!(games_of(&one), games_of(&two));
}

#[test]
fn the_words_of_plateau_match_load_the_same_match_and_bad_words_are_one_line() {
    let dir = tmpdir("match-jobs-words");
    let rec = dir.join("w.pgn");
    let words: Vec<String> = ["breakthrough", "--player", A, "--player", B, "--games", "4", "--seed", "4", "--json"]
        .iter()
        .map(|w| w.to_string())
        .chain(["--record".to_string(), rec.display().to_string()])
        .collect();
    let loaded = load_words(&words).unwrap();
    assert!(loaded.json && !loaded.verbose);
    let m = load(Breakthrough::default(), config(4, None, &dir.join("c.pgn"))).unwrap();
    assert_eq!(loaded.jobs.play(&[1, 2]).unwrap(), m.play(&[1, 2]).unwrap());
    for (bad, says) in [
        (vec!["breakthrough", "--player", A], "exactly two players"),
        (vec!["breakthrough", "--player", A, "--player", B, "--ray", "auto"], "--address"),
        (vec!["breakthrough", "--player", A, "--player", B, "--sprt", "elo0=x"], "elo0"),
        (vec!["nosuchgame", "--player", A, "--player", B], "nosuchgame"),
        (vec!["breakthrough", "--player", A, "--player", B, "--bogus"], "--bogus"),
    ] {
        let words: Vec<String> = bad.iter().map(|w| w.to_string()).collect();
        let e = load_words(&words).err().expect("refused");
        assert!(e.contains(says) && !e.contains('\n'), "{bad:?}: {e}");
    }
}

#[test]
fn plateau_match_ray_hands_its_other_words_to_the_cluster_driver() {
    let dir = tmpdir("match-jobs-ray");
    // A stand-in for python3 that writes the words it was given.
    let fake = dir.join("fake-python");
    std::fs::write(&fake, format!("#!/bin/sh\necho \"$@\" > {}\n", dir.join("words.txt").display())).unwrap();
    let mut perms = std::fs::metadata(&fake).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&fake, perms).unwrap();
    let out = std::process::Command::new(BIN)
        .env("PLATEAU_PYTHON", &fake)
        .args(["match", "breakthrough", "--player", A, "--ray", "auto", "--player", B, "--record", "r.pgn"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let words = std::fs::read_to_string(dir.join("words.txt")).unwrap();
    assert_eq!(
        words.trim(),
        format!("-m plateau.cluster match breakthrough --player {A} --player {B} --record r.pgn --address auto")
    );
    // No interpreter: one line that says what to install.
    let out = std::process::Command::new(BIN)
        .env("PLATEAU_PYTHON", dir.join("no-such-python"))
        .args(["match", "--player", A, "--player", B, "--ray", "local"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("--ray: cannot run") && err.trim_end().lines().count() == 1, "{err}");
}
