//! The `plateau` binary end to end: JSON outputs, one-line errors with a non-zero exit code, and a scripted game.

use crate::common::{json, plateau, plateau_stdin};

#[test]
fn perft_json_and_divide() {
    let v = json(&plateau(&["perft", "breakthrough", "--depth", "4", "--json"]));
    assert_eq!(v["nodes"], 256036);
    assert_eq!(v["depth"], 4);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    let v = json(&plateau(&["perft", "breakthrough", "--depth", "3", "--divide", "--json", "--threads", "2"]));
    assert_eq!(v["nodes"], 11132);
    let div = v["divide"].as_array().unwrap();
    assert_eq!(div.len(), 22);
    assert_eq!(div.iter().map(|d| d["nodes"].as_u64().unwrap()).sum::<u64>(), 11132);
    let v = json(&plateau(&["perft", "breakthrough(rows=6,columns=5)", "--depth", "5", "--threads", "2", "--json"]));
    assert_eq!(v["nodes"], 453608);
}

#[test]
fn perft_from_positions_and_moves() {
    // After a2a3 the reply count is Black's 22 moves; `--moves` and `--position` combine.
    let v = json(&plateau(&["perft", "breakthrough", "--moves", "a2a3", "--depth", "1", "--json"]));
    assert_eq!(v["nodes"], 22);
    let v = json(&plateau(&[
        "perft",
        "breakthrough",
        "--position",
        "8/8/8/3p4/4P3/8/8/8 w",
        "--moves",
        "e4d5",
        "--depth",
        "1",
        "--json",
    ]));
    // Black has no piece left: the game is over and adds nothing.
    assert_eq!(v["nodes"], 0);
}

#[test]
fn search_json() {
    let v = json(&plateau(&["search", "breakthrough(rows=6,columns=5)", "--algo", "alphabeta(depth=3)", "--json"]));
    for k in ["best_move", "value", "depth", "nodes", "leaves", "pv", "seconds"] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
    assert_eq!(v["depth"], 3);
    assert_eq!(v["pv"].as_array().unwrap().len(), 3);
    // A win in one is found and reported as such.
    let v = json(&plateau(&[
        "search",
        "breakthrough",
        "--position",
        "8/P7/8/8/8/8/7p/8 w",
        "--algo",
        "alphabeta(depth=2)",
        "--json",
    ]));
    assert_eq!(v["value_text"], "win in 1");
    assert!(v["best_move"].as_str().unwrap().starts_with("a7"));
}

#[test]
fn errors_are_one_line_with_nonzero_exit() {
    for args in [
        &["perft", "chess960", "--depth", "2"][..],
        &["perft", "breakthrough(rows=9)", "--depth", "2"],
        &["perft", "breakthrough(foo=1)", "--depth", "2"],
        &["perft", "breakthrough", "--moves", "a2a4", "--depth", "2"],
        &["perft", "breakthrough", "--moves", "a2a3 zz", "--depth", "2"],
        &["perft", "breakthrough", "--position", "8/8/8 w", "--depth", "2"],
        &["perft", "breakthrough", "--position", "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPX w", "--depth", "1"],
        &["search", "breakthrough", "--algo", "nosuchalgo"],
        &["search", "breakthrough", "--algo", "alphabeta(depth=x)"],
        &["search", "breakthrough", "--position", "P7/8/8/8/8/8/p7/8 b"],
        &["perft", "breakthrough", "--depth", "2", "--threads", "0"],
    ] {
        let out = plateau(args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn games_lists_parameters() {
    let v = json(&plateau(&["games", "--json"]));
    let games = v["games"].as_array().unwrap();
    let bt = games.iter().find(|g| g["name"] == "breakthrough").expect("breakthrough listed");
    let params: Vec<&str> = bt["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(params, ["rows", "columns", "piece_rows", "misere", "forced_captures"]);
}

#[test]
fn play_against_the_engine_with_bad_input_undo_and_moves() {
    let out = plateau_stdin(
        &["play", "breakthrough(rows=5,columns=4,piece_rows=1)", "--engine", "alphabeta(depth=2)"],
        "help\nmoves\nz9z9\na1a3\na1a2\nundo\nb1b2\nquit\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("10 legal moves"), "{text}");
    assert!(text.contains("off the 5x4 board"), "{text}");
    assert!(text.contains("illegal move a1a3"), "{text}");
    // The last move is marked on the board: a1a2 emptied a1 and filled a2.
    assert!(text.contains("  2[P]. . .") && text.contains("  1[.]P P P"), "{text}");
    // The engine answered a1a2 with a move and its figures.
    // In the game's own words, the value for people (no raw score beside it).
    assert!(text.contains("Black (alphabeta(depth=2)) plays"), "{text}");
    assert!(text.contains(" for Black  depth 2"), "{text}");
    assert!(text.contains("game abandoned"), "{text}");
    // After undo and b1b2 the board shows b2 occupied: the engine replied twice in all.
    assert_eq!(text.matches(" plays ").count(), 2, "{text}");
}

#[test]
fn engine_against_engine_finishes() {
    let out = plateau_stdin(
        &["play", "breakthrough(rows=5,columns=4,piece_rows=1)", "--human", "none", "--engine", "alphabeta(depth=2)"],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("game over: White wins") || text.contains("game over: Black wins"), "{text}");
    // Nothing said after the end that is no longer true: the last board does not say who is to move.
    let before_end = text.split("game over:").next().unwrap();
    let last_board = before_end.trim_end().rsplit(" plays ").next().unwrap();
    assert!(!last_board.contains("to move"), "{last_board}");
}

#[test]
fn play_ends_cleanly_at_end_of_input() {
    let out = plateau_stdin(&["play"], "");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("end of input"));
}

#[test]
fn solve_breakthrough_dfpn_agrees_with_generic_and_reference() {
    // solved.json: 4x4 with one row is a first-player win, and only a1a2 and d1d2 win.
    let g = "breakthrough(rows=4,columns=4,piece_rows=1)";
    let d = json(&plateau(&["solve", g, "--json"]));
    assert_eq!(d["result"], "win");
    let mut wins: Vec<&str> = d["winning_moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    wins.sort();
    assert_eq!(wins, ["a1a2", "d1d2"]);
    // The generic alpha-beta solver is an independent implementation: same exact score.
    let a = json(&plateau(&["solve", g, "--method", "alphabeta", "--json"]));
    assert_eq!(a["score"], d["score"]);
    // solved.json: 5x4 with two rows is a first-player loss.
    let d = json(&plateau(&["solve", "breakthrough(rows=5,columns=4)", "--weak", "--json"]));
    assert_eq!(d["result"], "loss");
    let out = plateau(&["solve", g, "--race-rows", "7"]);
    assert!(!out.status.success());
}

/// `solve --split`: job by job, one JSON line per job, the result file taken up by a second run, bad input refused.
#[test]
fn solve_breakthrough_split_resumes_from_its_results_file() {
    let dir = std::env::temp_dir().join(format!("plateau-split-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("jobs.jsonl");
    let _ = std::fs::remove_file(&file);
    let f = file.to_str().unwrap();
    // solved.json: 5x4 with two rows is a first-player loss.
    let g = "breakthrough(rows=5,columns=4)";
    let out = plateau(&["solve", g, "--split", "--budget", "2000", "--tt", "16mb", "--results", f, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let jobs: Vec<serde_json::Value> =
        text.lines().filter(|l| l.starts_with("{\"")).map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(!jobs.is_empty());
    assert!(jobs.iter().all(|j| j["root"].as_str().unwrap().starts_with(g)));
    let summary: serde_json::Value = serde_json::from_str(&text[text.rfind("\n{\n").unwrap()..]).unwrap();
    assert_eq!(summary["result"], "loss");
    assert_eq!(summary["score"], -1);
    // The file holds every job; a second run finds every root move decided and searches nothing.
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), jobs.len());
    let out = plateau(&["solve", g, "--split", "--tt", "16mb", "--results", f, "--json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let summary: serde_json::Value = serde_json::from_str(&text[text.rfind("\n{\n").unwrap()..]).unwrap();
    assert_eq!(summary["result"], "loss");
    assert_eq!(summary["nodes"], 0);
    // Another root does not take these results.
    let other = "breakthrough(rows=5,columns=4,piece_rows=1)";
    let out = plateau(&["solve", other, "--split", "--tt", "16mb", "--results", f, "--json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let summary: serde_json::Value = serde_json::from_str(&text[text.rfind("\n{\n").unwrap()..]).unwrap();
    assert_eq!(summary["result"], "win");
    assert!(summary["nodes"].as_u64().unwrap() > 0);
    // Bad input: an illegal priority move, a file that is not a results file, --split on another game.
    let out = plateau(&["solve", g, "--split", "--split-first", "a2a4"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("a2a4"));
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "not json\n").unwrap();
    let out = plateau(&["solve", g, "--split", "--results", bad.to_str().unwrap()]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("line 1"));
    let out = plateau(&["solve", "ttt", "--split"]);
    assert!(!out.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `solve --split --table FILE --save-every S`: the table saved between jobs and at the end, read back by the next
/// run (which reports the earlier expansions); every first move decided unless `--first-win-only`; bad input refused.
#[test]
fn solve_breakthrough_table_file() {
    let dir = std::env::temp_dir().join(format!("plateau-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("t.dfpn");
    let t = table.to_str().unwrap();
    let summary = |out: &std::process::Output| -> serde_json::Value {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        serde_json::from_str(&text[text.rfind("\n{\n").unwrap()..]).unwrap()
    };
    // 5x4 with one row: a first-player win with 8 of the 10 first moves (solved.json: a win).
    let g = "breakthrough(rows=5,columns=4,piece_rows=1)";
    let args = ["solve", g, "--split", "--budget", "500", "--tt", "16mb", "--table", t, "--save-every", "0", "--json"];
    let first = summary(&plateau(&args));
    assert_eq!(first["result"], "win");
    assert_eq!(first["winning_moves"].as_array().unwrap().len(), 8, "{first}");
    assert_eq!(first["undecided_moves"].as_array().unwrap().len(), 0);
    assert_eq!(first["earlier_nodes"], 0);
    assert!(table.exists());
    let again = summary(&plateau(&args));
    assert_eq!(again["result"], "win");
    assert_eq!(again["winning_moves"].as_array().unwrap().len(), 8);
    assert_eq!(again["earlier_nodes"], first["nodes"]);
    assert!(again["nodes"].as_u64().unwrap() < first["nodes"].as_u64().unwrap());
    let quick = summary(&plateau(&["solve", g, "--split", "--first-win-only", "--tt", "16mb", "--json"]));
    // One job decided the root: a move and its mirror image; the others are left undecided.
    assert_eq!(quick["winning_moves"].as_array().unwrap().len(), 2, "{quick}");
    assert!(!quick["undecided_moves"].as_array().unwrap().is_empty());
    // Bad input: a table of another game, a file that is not a table, --save-every without --table, --table elsewhere.
    let out = plateau(&["solve", "breakthrough(rows=5,columns=4)", "--table", t, "--tt", "16mb"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("the table is for"));
    let junk = dir.join("junk");
    std::fs::write(&junk, "junk").unwrap();
    let out = plateau(&["solve", g, "--table", junk.to_str().unwrap(), "--tt", "16mb"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("not a plateau df-pn table"));
    let out = plateau(&["solve", g, "--split", "--save-every", "5"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--save-every"));
    let out = plateau(&["solve", "ttt", "--table", t]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--table"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `solve --check`: the proof walked with the rules alone; refused where it does not apply.
#[test]
fn solve_breakthrough_check() {
    // solved.json: 5x4 with two rows is a first-player loss.
    let d = json(&plateau(&["solve", "breakthrough(rows=5,columns=4)", "--weak", "--check", "--json"]));
    assert_eq!(d["result"], "loss");
    assert_eq!(d["proof_check"]["verified"], true);
    assert!(d["proof_check"]["terminal_positions"].as_u64().unwrap() > 1000);
    assert_eq!(d["proof_check"]["memo_mib"], 256);
    let small = json(&plateau(&[
        "solve",
        "breakthrough(rows=5,columns=4)",
        "--weak",
        "--check",
        "--check-memo",
        "1mb",
        "--json",
    ]));
    assert_eq!(small["proof_check"]["verified"], true);
    assert_eq!(small["proof_check"]["memo_mib"], 1);
    // A smaller memo forgets more, so walks at least as many positions.
    let walked = |d: &serde_json::Value| {
        d["proof_check"]["or_positions"].as_u64().unwrap() + d["proof_check"]["and_positions"].as_u64().unwrap()
    };
    assert!(walked(&small) >= walked(&d));
    let out = plateau(&["solve", "breakthrough(rows=5,columns=4)", "--check", "--check-memo", "lots"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--check-memo"));
    let out = plateau(&["solve", "ttt", "--check"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--check"));
    let out = plateau(&["solve", "breakthrough(rows=5,columns=4)", "--split", "--check"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--check"));
}

/// The solver registry: every solver by its name on a game it applies to, the old spellings still working, an
/// unknown or inapplicable `--method` refused in one line that lists the game's solvers.
#[test]
fn solve_methods_from_the_registry() {
    let c4 = "connect_four(rows=4,columns=5)";
    for method in ["connect4", "alphabeta"] {
        let v = json(&plateau(&["solve", c4, "--moves", "3333", "--method", method, "--json"]));
        assert!(v["best_move_nodes"].is_u64(), "{method}: the Connect Four solver answers: {v}");
    }
    let g = "breakthrough(rows=4,columns=4,piece_rows=1)";
    for method in ["breakthrough-dfpn", "dfpn"] {
        let v = json(&plateau(&["solve", g, "--method", method, "--json"]));
        assert_eq!((v["method"].as_str(), v["result"].as_str()), (Some("dfpn"), Some("win")), "{method}");
        assert!(v["distance_nodes"].is_u64(), "{method}: the Breakthrough solver answers: {v}");
    }
    let v = json(&plateau(&["solve", g, "--method", "dfpn-generic", "--json"]));
    assert_eq!((v["result"].as_str(), v["runs"].is_u64()), (Some("win"), true));
    let v = json(&plateau(&["solve", "othello(size=4)", "--method", "othello-endgame", "--json"]));
    assert!(v["empties"].is_u64(), "{v}");
    let v = json(&plateau(&["solve", "matching_pennies", "--method", "simultaneous", "--json"]));
    assert_eq!(v["result"], "mixed");
    let v = json(&plateau(&["solve", "pig(target=10)", "--method", "pig", "--json"]));
    assert!(v["win_probability"].as_f64().is_some_and(|p| p > 0.5), "{v}");
    let v = json(&plateau(&["solve", "oware(houses=3,seeds=2)", "--method", "oware-db", "--json"]));
    assert!(v["value"].is_i64(), "{v}");
    let v = json(&plateau(&["solve", "tic_tac_toe", "--method", "alphabeta", "--json"]));
    assert_eq!((v["result"].as_str(), v["plies"].is_null()), (Some("draw"), true));
    for (args, needle) in [
        (
            &["solve", "tic_tac_toe", "--method", "nope"][..],
            "unknown --method 'nope' (solvers for this game: alphabeta, dfpn-generic, retro)",
        ),
        (&["solve", "tic_tac_toe", "--method", "connect4"], "--method connect4 does not apply to tic_tac_toe"),
        (&["solve", "othello(size=4)", "--method", "oware-db"], "othello-endgame, dfpn-generic, retro"),
        (&["solve", "oware(houses=3,seeds=2)", "--method", "pig"], "alphabeta, dfpn-generic, oware-db"),
    ] {
        let out = plateau(args);
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && e.trim_end().lines().count() == 1 && e.contains(needle), "{args:?}: {e}");
    }
    // The help lists every solver.
    let help = String::from_utf8_lossy(&plateau(&["solve", "--help"]).stdout).to_string();
    for name in plateau::solve::registry::SOLVERS.iter().map(|s| s.name) {
        assert!(help.contains(&format!("  {name}")), "{name} missing from the help");
    }
}
