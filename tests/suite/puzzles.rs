//! Single-agent search: known optimal lengths (the examples of docs/puzzles.md, Korf's instances), agreement of every
//! optimal algorithm with BFS on random small instances, and one-line errors on bad input.

use std::sync::{Arc, OnceLock};

use crate::common::plateau_text;
use plateau::game::Capabilities;
use plateau::game::{Game, Side};
use plateau::games::breakthrough::Breakthrough;
use plateau::puzzle::grid::Grid;
use plateau::puzzle::number::NumberPuzzle;
use plateau::puzzle::pdb::{self, PatternDb};
use plateau::puzzle::race::{self, Race};
use plateau::puzzle::sliding::{self, Sliding, SlidingHeuristic};
use plateau::puzzle::{self, Algorithm, Outcome, Problem, SearchBounds, bfs, korf};
use proptest::prelude::*;

/// Solve with every algorithm; check that each path replays to a goal with the reported cost, that the optimal
/// algorithms find `expected` moves, and that DLS finds a path within the optimal length but none within one less.
fn check_all<P: Problem>(p: &P, expected: Option<u32>) {
    check_all_but_long_idastar(p, expected, u32::MAX);
}

/// The same, skipping IDA* when the optimum exceeds `ida_max`: without a table, IDA* is exponential on spaces full
/// of transpositions under a weak heuristic (the number puzzle), which is a property of the algorithm, not a bug.
fn check_all_but_long_idastar<P: Problem>(p: &P, expected: Option<u32>, ida_max: u32) {
    let limits = SearchBounds { depth: 200, max_states: 2_000_000 };
    for algo in Algorithm::ALL {
        if algo == Algorithm::IdaStar && expected.is_some_and(|e| e > ida_max) {
            continue;
        }
        let l = if algo == Algorithm::Dls { SearchBounds { depth: expected.unwrap_or(60), ..limits } } else { limits };
        let r = puzzle::solve(p, algo, l);
        match (&r.outcome, expected) {
            (Outcome::Found { path, cost }, Some(e)) => {
                let (states, c) = puzzle::replay(p, path).expect("the path is legal");
                assert!(p.is_goal(states.last().unwrap()), "{algo:?} path does not end at a goal");
                assert_eq!(c, *cost, "{algo:?} reported cost");
                // DLS runs with the optimal length as its limit: any path it finds is that long too.
                assert_eq!(path.len() as u32, e, "{algo:?} length from {:?}", p.start());
            }
            (Outcome::NoPath, None) => {}
            // IDA* keeps no table: on an unsolvable cyclic space it can only stop at its bound.
            (Outcome::LimitReached(_), None) if matches!(algo, Algorithm::IdaStar | Algorithm::Dls) => {}
            (o, e) => panic!("{algo:?}: {o:?}, expected {e:?}"),
        }
    }
    if let Some(e) = expected
        && e > 0
    {
        let r = puzzle::solve(p, Algorithm::Dls, SearchBounds { depth: e - 1, ..limits });
        assert!(r.path().is_none(), "DLS found a path shorter than the optimum");
    }
}

// ---------------------------------------------------------------------------------------------------------- grids

const MAZE_CORRIDOR: &str = "#####\n#@.$#\n#####\n";
const MAZE_WALL: &str = "#######\n#@..#$#\n#.#.#.#\n#.....#\n#######\n";
const MAZE_SNAKE: &str = "##########\n#@.......#\n########.#\n#$.......#\n##########\n";
const MAZE_OPEN: &str = "......\n.@....\n......\n....$.\n";
const MAZE_CLOSED: &str = "#####\n#@#$#\n#####\n";

#[test]
fn grid_examples_of_the_docs() {
    for (text, expected) in [
        (MAZE_CORRIDOR, Some(2)),
        (MAZE_WALL, Some(8)),
        (MAZE_SNAKE, Some(16)),
        (MAZE_OPEN, Some(5)),
        (MAZE_CLOSED, None),
    ] {
        let g = Grid::parse(text).unwrap();
        assert_eq!(g.goal_reachable(), expected.is_some());
        check_all(&g, expected);
    }
    let g = Grid::parse(MAZE_CORRIDOR).unwrap();
    let r = puzzle::solve(&g, Algorithm::AStar, SearchBounds::default());
    assert_eq!(puzzle::format_path(&g, r.path().unwrap()), "rr");
}

#[test]
fn malformed_grids_are_refused() {
    for (text, what) in [
        ("", "empty"),
        ("#@#\n#$\n", "equally long"),
        ("#@x$#\n", "unexpected 'x'"),
        ("#..$#\n", "no start"),
        ("#@..#\n", "no goal"),
        ("#@.@$\n", "second start"),
    ] {
        let e = Grid::parse(text).unwrap_err();
        assert!(e.contains(what), "{text:?}: {e}");
        assert!(!e.contains('\n'));
    }
}

// ----------------------------------------------------------------------------------------------------- numbers

#[test]
fn number_examples_of_the_docs() {
    for (s, t, len) in [(1, 2, 4), (2, 3, 2), (5, 2, 1), (1, 0, 1), (3, 3, 0), (7, 100, 9)] {
        check_all(&NumberPuzzle::new(s, t).unwrap(), Some(len));
    }
    let p = NumberPuzzle::new(1, 2).unwrap();
    let r = puzzle::solve(&p, Algorithm::Bfs, SearchBounds::default());
    assert_eq!(puzzle::format_path(&p, r.path().unwrap()), "ffgg");
    assert!(NumberPuzzle::new(0, 5).is_err());
    assert!(NumberPuzzle::new(0, 0).is_ok());
}

// ------------------------------------------------------------------------------------------------ sliding tiles

#[test]
fn sliding_input_is_checked() {
    assert!(sliding::parse_tiles("1 2 3").is_err());
    assert!(sliding::parse_tiles("0 1 2 3 4 5 6 7 7").is_err());
    assert!(sliding::parse_tiles("0 1 2 3 4 5 6 7 x").is_err());
    let swapped = sliding::parse_tiles("0 2 1 3 4 5 6 7 8").unwrap();
    assert!(!sliding::is_solvable(&swapped));
    assert!(Sliding::new(&swapped, SlidingHeuristic::Manhattan).unwrap_err().contains("unsolvable"));
    for inst in korf::instances() {
        assert!(sliding::is_solvable(&inst.tiles), "Korf instance {} is solvable", inst.id);
    }
}

#[test]
fn korf_data_is_complete() {
    let all = korf::instances();
    assert_eq!(all.len(), 100);
    assert_eq!(all.iter().map(|i| i.korf_generated).sum::<u64>(), korf::KORF_TOTAL_GENERATED);
    assert_eq!(all.iter().map(|i| i.optimal_length).sum::<u32>(), 5305);
}

/// The easy instances (Korf's IDA* generated fewer than a million nodes): optimal lengths as published, and the node
/// counts of IDA* with the Manhattan distance exactly as Korf published them.
#[test]
fn korf_easy_instances_with_manhattan() {
    let all = korf::instances();
    let easy: Vec<_> = all.iter().filter(|i| i.korf_generated < 1_000_000).collect();
    assert!(easy.len() >= 4);
    for inst in easy {
        let p = Sliding::new(&inst.tiles, SlidingHeuristic::Manhattan).unwrap();
        let r = puzzle::solve(&p, Algorithm::IdaStar, SearchBounds::default());
        assert_eq!(r.path().map(|p| p.len() as u32), Some(inst.optimal_length), "instance {}", inst.id);
        if inst.id == 42 {
            // The one easy instance whose count differs, in one decimal digit (877823 here, 877023 in the data): most
            // likely a transcription error, since every other count matches exactly (see docs/puzzles.md).
            assert_eq!(digits_differing(r.stats.generated, inst.korf_generated), 1, "instance 42");
        } else {
            assert_eq!(r.stats.generated, inst.korf_generated, "instance {} generated", inst.id);
        }
        let (states, _) = puzzle::replay(&p, r.path().unwrap()).unwrap();
        assert!(p.is_goal(states.last().unwrap()));
    }
}

/// The 5-5-5 databases, built once for all the tests of this file.
fn db555() -> Arc<PatternDb> {
    static DB: OnceLock<Arc<PatternDb>> = OnceLock::new();
    DB.get_or_init(|| Arc::new(PatternDb::build(4, &pdb::partition_555()).unwrap())).clone()
}

fn digits_differing(a: u64, b: u64) -> usize {
    let (a, b) = (a.to_string(), b.to_string());
    if a.len() != b.len() {
        return usize::MAX;
    }
    a.chars().zip(b.chars()).filter(|(x, y)| x != y).count()
}

/// A sample of instances with the 5-5-5 pattern database (quick to build): published lengths.
#[test]
fn korf_sample_with_pattern_database() {
    let db = db555();
    let all = korf::instances();
    for id in [1, 9, 12, 42, 55, 79, 97] {
        let inst = &all[id - 1];
        let p = Sliding::new(&inst.tiles, SlidingHeuristic::Pdb(db.clone())).unwrap();
        assert!(p.heuristic(&p.start()) <= inst.optimal_length);
        let r = puzzle::solve(&p, Algorithm::IdaStar, SearchBounds::default());
        assert_eq!(r.path().map(|p| p.len() as u32), Some(inst.optimal_length), "instance {id}");
    }
}

/// All 100 instances with IDA* and the 6-6-3 pattern database (about a minute in the test profile).
/// Run with `cargo test --release --test suite puzzles::korf_all -- --ignored`.
#[test]
#[ignore]
fn korf_all_100_with_pattern_database() {
    let db = Arc::new(PatternDb::build(4, &pdb::default_partition(4)).unwrap());
    for inst in korf::instances() {
        let p = Sliding::new(&inst.tiles, SlidingHeuristic::Pdb(db.clone())).unwrap();
        let r = puzzle::solve(&p, Algorithm::IdaStar, SearchBounds::default());
        assert_eq!(r.path().map(|p| p.len() as u32), Some(inst.optimal_length), "instance {}", inst.id);
    }
}

/// The pattern database never overestimates, and is exact on states one move from the goal.
#[test]
fn pattern_database_is_admissible_on_the_8_puzzle() {
    let db = Arc::new(PatternDb::build(3, &pdb::default_partition(3)).unwrap());
    let mut rng_state = 12345u64;
    for _ in 0..30 {
        let tiles = scramble(3, 30, &mut rng_state);
        let p = Sliding::new(&tiles, SlidingHeuristic::Pdb(db.clone())).unwrap();
        let b = puzzle::solve(
            &Sliding::new(&tiles, SlidingHeuristic::Zero).unwrap(),
            Algorithm::Bfs,
            SearchBounds::default(),
        );
        assert!(p.heuristic(&p.start()) <= b.cost().unwrap());
        let a = puzzle::solve(&p, Algorithm::AStar, SearchBounds::default());
        assert_eq!(a.cost(), b.cost());
    }
}

/// The heuristic values carried along a path (incremental Manhattan, incremental pattern-database parts with the
/// mirrored state) equal the values computed from scratch.
#[test]
fn incremental_heuristics_match_recomputation() {
    let db = db555();
    let inst = &korf::instances()[0];
    for h in [SlidingHeuristic::Manhattan, SlidingHeuristic::Pdb(db.clone())] {
        let p = Sliding::new(&inst.tiles, h).unwrap();
        let mut s = p.start();
        let mut seed = 99u64;
        let mut acts = puzzle::ActionList::new();
        for _ in 0..300 {
            p.actions(&s, &mut acts);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s = p.apply(&s, acts[(seed % acts.len() as u64) as usize]).0;
            assert_eq!(p.heuristic(&s), p.compute_h(&s));
            let fresh = Sliding::new(&p.tiles(&s), SlidingHeuristic::Pdb(db.clone())).unwrap();
            assert_eq!(fresh.start().parts, db.parts(s.pos));
        }
    }
    let goal = Sliding::new(&(0..16).collect::<Vec<u8>>(), SlidingHeuristic::Pdb(db)).unwrap();
    assert_eq!(goal.heuristic(&goal.start()), 0);
}

/// A random walk of the blank from the goal (xorshift, so that the test is deterministic).
fn scramble(width: u32, steps: u32, seed: &mut u64) -> Vec<u8> {
    let n = (width * width) as usize;
    let mut tiles: Vec<u8> = (0..n as u8).collect();
    let mut blank = 0usize;
    for _ in 0..steps {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let w = width as usize;
        let mut options = Vec::new();
        if blank >= w {
            options.push(blank - w);
        }
        if blank + w < n {
            options.push(blank + w);
        }
        if !blank.is_multiple_of(w) {
            options.push(blank - 1);
        }
        if blank % w + 1 < w {
            options.push(blank + 1);
        }
        let to = options[(*seed % options.len() as u64) as usize];
        tiles.swap(blank, to);
        blank = to;
    }
    tiles
}

// -------------------------------------------------------------------------------------------------------- races

fn small_race(spec: &str, moves: &str) -> Race {
    let g = Breakthrough::from_spec(&plateau::spec::Spec::parse(spec).unwrap()).unwrap();
    let s = g.play_moves(&g.start(), moves).unwrap();
    Race::new(&g, &s, s.stm).unwrap()
}

/// 2x3 board, one row of pieces each (worked by hand in docs/puzzles.md): White needs 2 moves; 4 positions after one
/// ply; the census by hand.
#[test]
fn race_on_the_smallest_board() {
    let r = small_race("breakthrough(rows=3,columns=2,piece_rows=1)", "");
    check_all(&r, Some(2));
    let c = race::census(&r, 1000).unwrap();
    assert_eq!(c.layers[..2], [1, 4]);
    assert_eq!(bfs::layer_sizes(&r, 5, true, 1000).unwrap()[..2], [1, 4]);
    assert_eq!(c, race::Census { layers: vec![1, 4, 5, 2], win_distance: vec![6, 5, 1], no_win: 0 });
}

#[test]
fn race_moves_are_the_games_moves() {
    let r = small_race("breakthrough(rows=6,columns=5)", "a2a3 b5b4 c2c3 b4a3");
    let mut s = r.start();
    let mut acts = puzzle::ActionList::new();
    for _ in 0..6 {
        r.actions(&s, &mut acts);
        let mut mine: Vec<_> = acts.to_vec();
        let mut theirs: Vec<_> = race::game_moves(&r, &s).to_vec();
        mine.sort();
        theirs.sort();
        assert_eq!(mine, theirs);
        s = r.apply(&s, acts[0]).0;
    }
    assert_eq!(r.side, Side::First);
}

// ----------------------------------------------------------------------------------------- random small instances

fn random_grid(w: usize, h: usize, walls: &[bool], start: usize, goal: usize) -> String {
    let mut out = String::new();
    for r in 0..h {
        for c in 0..w {
            let i = r * w + c;
            out.push(if i == start {
                '@'
            } else if i == goal {
                '$'
            } else if walls[i] {
                '#'
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

fn bfs_length<P: Problem>(p: &P) -> Option<u32> {
    let r = puzzle::solve(p, Algorithm::Bfs, SearchBounds::default());
    match r.outcome {
        Outcome::Found { path, .. } => Some(path.len() as u32),
        Outcome::NoPath => None,
        Outcome::LimitReached(m) => panic!("{m}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn grids_agree_with_bfs(w in 2usize..8, h in 1usize..7, walls in prop::collection::vec(prop::bool::weighted(0.3), 49),
                            a in 0usize..49, b in 0usize..49) {
        let n = w * h;
        let (start, goal) = (a % n, b % n);
        prop_assume!(start != goal);
        let g = Grid::parse(&random_grid(w, h, &walls, start, goal)).unwrap();
        let expected = bfs_length(&g);
        prop_assert_eq!(expected.is_some(), g.goal_reachable());
        if expected.is_some() {
            check_all(&g, expected);
        } else {
            // Without a path, the algorithms with tables prove it.
            for algo in [Algorithm::AStar, Algorithm::Ids] {
                prop_assert_eq!(puzzle::solve(&g, algo, SearchBounds::default()).outcome, Outcome::NoPath);
            }
        }
    }

    #[test]
    fn numbers_agree_with_bfs(s in 1u64..100, t in 0u64..100) {
        let p = NumberPuzzle::new(s, t).unwrap();
        check_all_but_long_idastar(&p, bfs_length(&p), 14);
    }

    #[test]
    fn eight_puzzles_agree_with_bfs(seed in 1u64..u64::MAX, steps in 0u32..24) {
        let mut seed = seed;
        let tiles = scramble(3, steps, &mut seed);
        let p = Sliding::new(&tiles, SlidingHeuristic::Manhattan).unwrap();
        check_all(&p, bfs_length(&p));
    }

    #[test]
    fn races_agree_with_bfs(seed in 0u64..1000, plies in 0usize..6) {
        // A few random moves from the start of a small board, then a race for the side to move.
        let g = Breakthrough::from_spec(&plateau::spec::Spec::parse("breakthrough(rows=5,columns=4,piece_rows=1)").unwrap()).unwrap();
        let mut s = g.start();
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..plies {
            if g.is_terminal(&s) { break; }
            let mut moves = plateau::game::MoveList::new();
            g.generate_moves(&s, &mut moves);
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            g.play(&mut s, moves[(x % moves.len() as u64) as usize]);
        }
        prop_assume!(!g.is_terminal(&s));
        let r = Race::new(&g, &s, s.stm).unwrap();
        check_all(&r, bfs_length(&r));
    }
}

// ----------------------------------------------------------------------------------------------------------- CLI

#[test]
fn cli_json_fields() {
    let (ok, out, _) = plateau_text(&["puzzle", "number", "--from", "1", "--to", "2", "--algo", "idastar", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["solution"], "ffgg");
    assert_eq!(v["length"], 4);
    for field in ["expanded", "generated", "seconds"] {
        assert!(v[field].is_number(), "{field}");
    }
    let dir = std::env::temp_dir().join(format!("plateau-puzzle-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("maze.txt");
    std::fs::write(&file, MAZE_WALL).unwrap();
    let (ok, out, _) = plateau_text(&["puzzle", "grid", "--file", file.to_str().unwrap(), "--algo", "bfs", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["length"], 8);
    std::fs::write(&file, MAZE_CLOSED).unwrap();
    let (ok, out, _) =
        plateau_text(&["puzzle", "grid", "--file", file.to_str().unwrap(), "--algo", "idastar", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "no_path");
    let (ok, out, _) = plateau_text(&[
        "puzzle",
        "sliding",
        "--tiles",
        "8 7 5 3 0 1 4 2 6",
        "--heuristic",
        "pdb",
        "--algo",
        "astar",
        "--json",
    ]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["length"], 22);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_errors_are_one_line() {
    for args in [
        &["puzzle", "number", "--from", "0", "--to", "3"][..],
        &["puzzle", "sliding", "--tiles", "0 2 1 3 4 5 6 7 8"],
        &["puzzle", "sliding", "--tiles", "1 2 3"],
        &["puzzle", "sliding", "--korf", "101"],
        &["puzzle", "grid", "--file", "/nonexistent/maze.txt"],
        &["puzzle", "number", "--from", "1", "--to", "2", "--algo", "dijkstra"],
        &["puzzle", "race", "tic_tac_toe"],
    ] {
        let (ok, out, err) = plateau_text(args);
        assert!(!ok, "{args:?} should fail");
        assert!(out.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}
