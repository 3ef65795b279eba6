//! Every random thing from `--seed`: a seeded `stats` and a seeded `match` with players that draw at random (`random`,
//! `mcts`) give the same JSON twice and whatever the number of concurrent games; `stats` warns when two players that
//! draw nothing at random would repeat one game.

use crate::common::*;

/// The JSON without the fields that measure time (the only ones a seed does not fix).
fn without_timing(mut v: serde_json::Value) -> serde_json::Value {
    if let Some(o) = v.as_object_mut() {
        for k in ["seconds", "max_move_ms", "mean_move_ms"] {
            o.remove(k);
        }
    }
    v
}

const BT64: &str = "breakthrough(rows=6,columns=4)";

fn stats(seed: &str, concurrency: &str) -> serde_json::Value {
    json(&plateau(&[
        "stats",
        BT64,
        "--player",
        "random",
        "--player",
        "mcts(playouts=40)",
        "--games",
        "12",
        "--seed",
        seed,
        "--concurrency",
        concurrency,
        "--json",
    ]))
}

#[test]
fn a_seeded_stats_repeats_exactly() {
    let a = stats("7", "1");
    assert_eq!(a["games"], 12, "{a}");
    assert_eq!(a, stats("7", "1"), "same seed, same statistics");
    // The games do not depend on the order they finish in.
    assert_eq!(a, stats("7", "2"), "two games at a time");
    assert_ne!(a, stats("8", "1"), "another seed, other games");
}

#[test]
fn random_players_alone_repeat_with_their_seed() {
    let run = |seed: &str| {
        json(&plateau(&["stats", BT64, "--games", "30", "--seed", seed, "--json"]))["length"]["mean"].as_f64().unwrap()
    };
    let a = run("5");
    assert_eq!(a, run("5"));
}

fn matched(seed: &str) -> serde_json::Value {
    without_timing(json(&plateau(&[
        "match",
        "tic_tac_toe",
        "--player",
        "random",
        "--player",
        "mcts(playouts=30)",
        "--games",
        "8",
        "--random-plies",
        "0",
        "--seed",
        seed,
        "--json",
    ])))
}

#[test]
fn a_seeded_match_repeats_exactly() {
    let a = matched("3");
    assert_eq!(a["games"], 8, "{a}");
    assert_eq!(a, matched("3"));
    // Another seed changes the games (the lengths or results of 8 games between random and a weak MCTS).
    let others: Vec<serde_json::Value> = ["4", "5", "6"].iter().map(|s| matched(s)).collect();
    assert!(others.iter().any(|o| *o != a), "three other seeds all gave the same match");
}

#[test]
fn stats_warns_when_two_fixed_players_would_repeat_one_game() {
    let args = ["stats", "tic_tac_toe", "--player", "alphabeta(depth=1)", "--games", "3", "--json"];
    let out = plateau(&args);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let warning: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warning.len(), 1, "{err}");
    assert!(warning[0].contains("same game") && warning[0].contains("--random-plies"), "{err}");
    // Random opening plies, or a player that draws at random: no warning.
    for extra in [&["--random-plies", "2"][..], &["--player", "alphabeta(depth=1)", "--player", "random"][..]] {
        let mut a: Vec<&str> = vec!["stats", "tic_tac_toe", "--games", "3", "--json"];
        if extra[0] == "--random-plies" {
            a.extend(["--player", "alphabeta(depth=1)"]);
        }
        a.extend(extra);
        let e = stderr(&plateau(&a));
        assert!(!e.contains("warning:"), "{a:?}: {e}");
    }
}
