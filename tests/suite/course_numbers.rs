//! The slides' own numbers (docs/course.md, 0a to 3): alpha-beta's leaves on a perfectly ordered tree against Knuth
//! and Moore's formula at every depth, and the probability that random play meets a position again
//! (`stats --revisit`) against exact values.

use crate::common::{json, plateau, refused, stderr};

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn u(v: &serde_json::Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// `l^ceil(p/2) + l^floor(p/2) - 1`.
fn critical_leaves(l: u64, p: u32) -> u64 {
    l.pow(p.div_ceil(2)) + l.pow(p / 2) - 1
}

#[test]
fn alphabeta_reads_the_critical_tree_at_every_depth_of_a_best_ordered_tree_without_noise() {
    for (width, depth, seed) in [(10u64, 5u32, 1u64), (4, 6, 7), (3, 7, 2)] {
        let tree =
            format!("random_tree(width={width},depth={depth},seed={seed},model=incremental,ordering=best,noise=0)");
        let v = json(&plateau(&[
            "compare",
            &tree,
            "--algos",
            "minimax,alphabeta",
            "--depths",
            &format!("1..{depth}"),
            "--json",
        ]));
        let rows = v["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 2 * depth as usize);
        for p in 1..=depth {
            let row = |algo: &str| rows.iter().find(|r| r["algo"] == algo && u(&r["depth"]) == p as u64).unwrap();
            assert_eq!(u(&row("minimax")["leaves"]), width.pow(p), "{tree} minimax depth {p}");
            assert_eq!(u(&row("alphabeta")["leaves"]), critical_leaves(width, p), "{tree} alphabeta depth {p}");
            assert_eq!(row("minimax")["value"], row("alphabeta")["value"]);
        }
    }
    // With the default noise, shallower searches stop on noisy values: more than the formula below the tree's depth
    // (what docs/course.md 0a explains), exactly the formula at it.
    let v = json(&plateau(&[
        "compare",
        "random_tree(width=10,depth=6,model=incremental,ordering=best)",
        "--algos",
        "alphabeta",
        "--depths",
        "2,6",
        "--json",
    ]));
    assert!(u(&v["rows"][0]["leaves"]) > critical_leaves(10, 2));
    assert_eq!(u(&v["rows"][1]["leaves"]), critical_leaves(10, 6));
    // noise= is the incremental model's, and at most the range.
    refused(&["search", "random_tree(noise=0)"], "noise= is the incremental model's");
    refused(&["search", "random_tree(model=incremental,range=10,noise=11)"], "noise=11");
}

#[test]
fn revisit_estimates_the_exact_probability_on_tic_tac_toe() {
    // Two random walks of 3 plies end in the same position with probability 1/252 (252 positions, 2 paths each of
    // the 504); of 2 plies, 1/72.
    for (plies, exact) in [("3", 1.0 / 252.0), ("2", 1.0 / 72.0)] {
        let v = json(&plateau(&["stats", "tic_tac_toe", "--revisit", plies, "--games", "40000", "--json"]));
        assert_eq!((u(&v["walks"]), u(&v["pairs"])), (40000, 20000));
        assert!(f(&v["low"]) <= exact && exact <= f(&v["high"]), "{plies}: {exact} outside the interval {v}");
        assert!(f(&v["low"]) > 0.0 && f(&v["high"]) < 3.0 * exact, "a useful interval: {v}");
        let all = f(&v["all_pairs_probability"]);
        assert!((all - exact).abs() < 0.1 * exact, "{plies}: every-pair estimate {all} against {exact}");
        assert_eq!(u(&v["all_pairs"]), 40000 * 39999 / 2);
        assert_eq!(u(&v["met_before"]), 40000 - u(&v["distinct"]));
        assert_eq!(u(&v["ended_early"]), 0);
    }
}

#[test]
fn revisit_runs_on_the_full_board_repeats_with_its_seed_and_refuses_bad_input() {
    let run = |seed: &str| {
        json(&plateau(&["stats", "breakthrough", "--revisit", "10", "--games", "300000", "--seed", seed, "--json"]))
    };
    let (a, b) = (run("1"), run("1"));
    assert_eq!(a, b, "the same seed gives the same walks");
    let ttt = |seed: &str| {
        json(&plateau(&["stats", "tic_tac_toe", "--revisit", "3", "--games", "20000", "--seed", seed, "--json"]))
    };
    assert_ne!(ttt("1")["all_pairs_same"], ttt("2")["all_pairs_same"], "another seed, other walks");
    assert_eq!(a["game"], "breakthrough");
    // On 8x8 two walks of 10 plies rarely meet, but they do: some pairs among 300,000 walks, none ending early.
    assert!(u(&a["all_pairs_same"]) > 0 && f(&a["all_pairs_probability"]) < 1e-8, "{a}");
    assert_eq!(u(&a["ended_early"]), 0);
    assert!(f(&a["high"]) < 1e-4, "{a}");
    // Short games stop on their final position and say so.
    let v = json(&plateau(&[
        "stats",
        "breakthrough(rows=4,columns=3,piece_rows=1)",
        "--revisit",
        "30",
        "--games",
        "100",
        "--json",
    ]));
    assert_eq!(u(&v["ended_early"]), 100);
    refused(&["stats", "tic_tac_toe", "--revisit", "2", "--games", "1"], "at least 2 walks");
    refused(&["stats", "tic_tac_toe", "--revisit", "0"], "--revisit 0");
    let out = plateau(&["stats", "tic_tac_toe", "--revisit", "2", "--player", "random"]);
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(e.contains("--revisit") && e.contains("--player"), "{e}");
}
