//! MCTS through the commands: `plateau tree` draws the top of its tree, `plateau search --json` gives the root moves'
//! statistics, `plateau compare` runs it at each depth like any algorithm.

use crate::common::{json, plateau};

#[test]
fn tree_draws_the_most_visited_nodes_of_an_mcts_search() {
    let out = plateau(&["tree", "tic_tac_toe", "--algo", "mcts(playouts=500,seed=1)", "--json", "--max-nodes", "30"]);
    let doc = json(&out);
    assert_eq!(doc["playouts"], 500);
    let tree = doc["tree"].as_array().unwrap();
    assert_eq!(tree.len(), 30);
    assert_eq!(tree[0]["visits"], 500);
    assert!(tree[0]["parent"].is_null());
    // Drawn most visited first: a child never has more visits than its parent, and the root's drawn children are
    // the nine moves (each visited at least once).
    for n in &tree[1..] {
        let p = n["parent"].as_u64().unwrap() as usize;
        assert!(n["visits"].as_u64() <= tree[p]["visits"].as_u64());
        assert_eq!(n["ply"].as_u64().unwrap(), tree[p]["ply"].as_u64().unwrap() + 1);
    }
    assert_eq!(tree.iter().filter(|n| n["parent"] == 0).count(), 9);
    // Text: the title then the indented tree.
    let out = plateau(&["tree", "tic_tac_toe", "--algo", "mcts(playouts=200,seed=1)", "--max-nodes", "5"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("root  visits 200"), "{text}");
    assert_eq!(text.lines().count(), 6, "{text}");
    let out = plateau(&["tree", "tic_tac_toe", "--algo", "mcts(playouts=200)", "--svg", "/dev/null"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--svg draws the catalogue's searches") && err.trim().lines().count() == 1, "{err}");
}

#[test]
fn search_json_gives_the_root_moves_and_compare_runs_mcts() {
    let doc = json(&plateau(&["search", "connect_four", "--algo", "mcts(playouts=700,seed=2)", "--json"]));
    let root = doc["root_moves"].as_array().unwrap();
    assert_eq!(root.len(), 7);
    let visits: u64 = root.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
    assert_eq!(visits, 700);
    assert_eq!(root[0]["move"], doc["best_move"]);
    assert!(root.iter().all(|m| (0.0..=1.0).contains(&m["mean"].as_f64().unwrap())));
    assert_eq!(doc["leaves"], 700);
    let doc = json(&plateau(&[
        "compare",
        "tic_tac_toe",
        "--algos",
        "alphabeta,mcts(playouts=300,seed=3)",
        "--depths",
        "2,9",
        "--json",
    ]));
    let rows = doc["rows"].as_array().unwrap();
    let mcts: Vec<_> = rows.iter().filter(|r| r["algo"] == "mcts(playouts=300,seed=3)").collect();
    assert_eq!(mcts.len(), 2);
    for r in mcts {
        // `depth` limits the tree's growth: depth 2 expands the root and its children only.
        let d = r["depth"].as_u64().unwrap();
        let nodes = r["nodes"].as_u64().unwrap();
        if d == 2 {
            assert!(nodes <= 1 + 9 + 9 * 8, "{r}");
        }
        assert!(nodes > 9 && r["leaves"].as_u64().unwrap() <= 300, "{r}");
    }
}
