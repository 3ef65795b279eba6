//! The job-level match (`plateau::arena::match_jobs`, for the Ray driver): its game pairs played in any order and added
//! one by one make the record file and the summary of `plateau match` with the same words (the same games, the
//! same SPRT decision), `plateau match --resume` continues its file, and a retried game or another match's game adds
//! nothing.

use std::path::Path;
use std::time::Duration;

use crate::common::{json, plateau, tmpdir};
use plateau::arena::MatchConfig;
use plateau::arena::match_jobs::{MatchJobs, load, tasks};
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
