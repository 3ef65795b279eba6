//! The `compare` and `tree` commands, run as a user would.

use crate::common::plateau_text;

fn rows(json: &str) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(json).expect("one JSON document");
    v["rows"].as_array().expect("rows").clone()
}

/// The rows without their times.
fn counts(rows: &[serde_json::Value]) -> Vec<serde_json::Value> {
    rows.iter()
        .map(|r| {
            let mut r = r.clone();
            r.as_object_mut().unwrap().remove("seconds");
            r
        })
        .collect()
}

fn leaves(rows: &[serde_json::Value], algo: &str, depth: u64) -> u64 {
    rows.iter().find(|r| r["algo"] == algo && r["depth"] == depth).unwrap()["leaves"].as_u64().unwrap()
}

#[test]
fn compare_is_reproducible_and_ordered() {
    for game in ["breakthrough(rows=6,columns=5)", "random_tree(width=5,depth=5,seed=7,model=incremental)"] {
        let args = ["compare", game, "--algos", "minimax,alphabeta,negascout,mtdf,sss", "--depths", "1..4", "--json"];
        let (ok1, out1, err1) = plateau_text(&args);
        let (ok2, out2, _) = plateau_text(&args);
        assert!(ok1 && ok2, "{err1}");
        let (r1, r2) = (rows(&out1), rows(&out2));
        assert_eq!(r1.len(), 20);
        assert_eq!(counts(&r1), counts(&r2), "{game}: counts differ between two runs");
        for d in 1..=4 {
            let values: Vec<&serde_json::Value> = r1.iter().filter(|r| r["depth"] == d).map(|r| &r["value"]).collect();
            assert!(values.windows(2).all(|w| w[0] == w[1]), "{game} depth {d}: {values:?}");
            let (mm, ab, ss) = (leaves(&r1, "minimax", d), leaves(&r1, "alphabeta", d), leaves(&r1, "sss", d));
            assert!(mm >= ab && ab >= ss, "{game} depth {d}: {mm} {ab} {ss}");
        }
        for key in ["nodes", "leaves", "cutoffs", "researches", "tt_probes", "tt_hits", "seconds", "best_move"] {
            assert!(r1[0].get(key).is_some(), "missing {key}");
        }
    }
}

#[test]
fn compare_outputs_text_csv_and_svg() {
    let dir = std::env::temp_dir().join(format!("plateau-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("nodes.svg");
    let (ok, out, err) = plateau_text(&[
        "compare",
        "random_tree(width=3,depth=4)",
        "--algos",
        "alphabeta,pvs",
        "--depths",
        "1..3",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.lines().any(|l| l.trim_start().starts_with("depth") && l.contains("nodes") && l.contains("ms")),
        "{out}"
    );
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.starts_with("<svg") && chart.matches("<polyline").count() == 2);
    let (ok, out, _) =
        plateau_text(&["compare", "random_tree", "--algos", "minimax,sss", "--depths", "1..3", "--wide"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[1].contains("minimax") && lines[1].contains("sss") && lines[4].trim_start().starts_with("3 "));
    let (ok, out, _) = plateau_text(&["compare", "random_tree", "--algos", "sss", "--depths", "2", "--csv"]);
    assert!(ok);
    assert!(out.starts_with("algo,depth,value,best_move,nodes,leaves"));
    assert_eq!(out.lines().count(), 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_compare_input_is_a_one_line_error() {
    for args in [
        vec!["compare", "random_tree", "--algos", "nosuch"],
        vec!["compare", "random_tree", "--depths", "3..1"],
        vec!["compare", "random_tree(width=0)"],
        vec!["compare", "random_tree", "--algos", "random"],
    ] {
        let (ok, _, err) = plateau_text(&args);
        assert!(!ok, "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error:"), "{err}");
    }
}

#[test]
fn tree_draws_svg_and_dot_and_refuses_big_trees() {
    let dir = std::env::temp_dir().join(format!("plateau-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (svg, dot) = (dir.join("t.svg"), dir.join("t.dot"));
    for algo in ["alphabeta", "negascout", "mtdf", "sss", "scout", "alphabeta_minmax"] {
        let (ok, out, err) = plateau_text(&[
            "tree",
            "random_tree(width=3,depth=3,seed=2)",
            "--algo",
            algo,
            "--svg",
            svg.to_str().unwrap(),
            "--dot",
            dot.to_str().unwrap(),
            "--json",
        ]);
        assert!(ok, "{algo}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let n = v["tree"].as_array().unwrap().len() as u64;
        assert_eq!(n, v["nodes"].as_u64().unwrap(), "{algo}: one drawn node per visit");
        let pic = std::fs::read_to_string(&svg).unwrap();
        assert_eq!(pic.matches("class=\"node\"").count(), n as usize, "{algo}");
        let d = std::fs::read_to_string(&dot).unwrap();
        assert!(d.starts_with("digraph") && d.matches(" -> n").count() as u64 == n - v["passes"].as_u64().unwrap());
    }
    // Alpha-beta on the tree of the course's figure prunes, and marks it.
    let (_, out, _) = plateau_text(&["tree", "random_tree(width=3,depth=3,seed=2)", "--algo", "alphabeta", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["tree"].as_array().unwrap().iter().any(|n| n["pruned"].as_u64().unwrap() > 0));
    let (ok, _, err) = plateau_text(&["tree", "breakthrough", "--algo", "minimax", "--depth", "4"]);
    assert!(!ok && err.contains("too many to draw"), "{err}");
    let (ok, _, err) = plateau_text(&["tree", "random_tree", "--algo", "alphabeta(depth=2)", "--depth", "3"]);
    assert!(!ok && err.contains("depth once"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `tree` draws an algorithm only on the games it searches (as every other command): the minimax family on a game of
/// chance or of hidden information, and the chance algorithms on simultaneous moves, are refused in one line. They
/// used to be drawn: alpha-beta took Pig's die for a player, minimax looked through Phantom tic-tac-toe's hidden board.
#[test]
fn tree_refuses_an_algorithm_on_a_game_it_does_not_search() {
    use crate::common::refused;
    refused(&["tree", "pig", "--algo", "alphabeta", "--depth", "2"], "alphabeta cannot search a game with chance");
    refused(&["tree", "phantom_tic_tac_toe", "--algo", "minimax", "--depth", "2"], "with hidden information");
    refused(&["tree", "matching_pennies", "--algo", "expectimax", "--depth", "1"], "simultaneous moves");
    // The chance algorithms draw Pig, and the minimax family the games it searches.
    let (ok, out, err) = plateau_text(&["tree", "pig", "--algo", "expectimax", "--depth", "1"]);
    assert!(ok && out.contains("expectimax(depth=1) on pig"), "{out}{err}");
    let (ok, out, err) = plateau_text(&["tree", "tic_tac_toe", "--algo", "alphabeta", "--depth", "1"]);
    assert!(ok && out.contains("alphabeta(depth=1) on tic_tac_toe"), "{out}{err}");
}
