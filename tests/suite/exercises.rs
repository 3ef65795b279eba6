//! The course's exercises as commands (docs/course.md): game statistics, distinct positions per ply, evaluations,
//! matches counted by colour. Each runs the binary on a small board.

use crate::common::{BIN, json, plateau};
use std::process::{Command, Output};

fn fails(out: &Output, needle: &str) {
    assert!(!out.status.success(), "should fail: {}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "error '{err}' should mention '{needle}'");
    assert_eq!(err.trim().lines().count(), 1, "one-line error: {err}");
}

fn u(v: &serde_json::Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// Every game of the registry, with a small board where the game has a size.
const GAMES: [&str; 8] = [
    "breakthrough(rows=5,columns=4,piece_rows=1)",
    "tic_tac_toe",
    "marbles(n=11)",
    "connect_four(rows=4,columns=5)",
    "random_tree(width=3,depth=4)",
    "coin_game",
    "matching_pennies",
    "phantom_tic_tac_toe",
];

#[test]
fn stats_lengths_and_branching_for_every_game() {
    for game in GAMES {
        let v = json(&plateau(&["stats", game, "--games", "12", "--json"]));
        assert_eq!(u(&v["games"]), 12, "{game}");
        let len = &v["length"];
        assert_eq!(u(&len["count"]), 12, "{game}");
        assert!(u(&len["min"]) <= u(&len["max"]), "{game}");
        let hist: u64 = v["length_histogram"].as_array().unwrap().iter().map(|b| u(&b["count"])).sum();
        assert_eq!(hist, 12, "{game}: the histogram holds every game");
        let by_result: u64 = v["length_by_result"].as_array().unwrap().iter().map(|s| u(&s["count"])).sum();
        assert_eq!(by_result, 12, "{game}");
        let b = &v["branching"];
        assert!(u(&b["min"]) >= 1 && u(&b["min"]) <= u(&b["max"]), "{game}");
        let phases: u64 = v["phases"].as_array().unwrap().iter().map(|p| u(&p["count"])).sum();
        assert_eq!(phases, u(&b["count"]), "{game}: every choice is in one phase");
    }
}

#[test]
fn stats_first_ply_branching_is_perft_1() {
    // Every game starts from the start position, so the choice before ply 1 is perft(1) in each game.
    let game = "breakthrough(rows=6,columns=5)";
    let svg = std::env::temp_dir().join(format!("plateau-exercises-{}.svg", std::process::id()));
    let svg_arg = svg.to_str().unwrap();
    let v = json(&plateau(&["stats", game, "--games", "20", "--player", "random", "--json", "--svg", svg_arg]));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let _ = std::fs::remove_file(&svg);
    let p1 = &v["by_ply"][0];
    assert_eq!(u(&p1["ply"]), 1);
    assert_eq!(u(&p1["games"]), 20);
    let perft = json(&plateau(&["perft", game, "--depth", "1", "--json"]));
    assert_eq!(u(&p1["min"]), u(&perft["nodes"]));
    assert_eq!(u(&p1["max"]), u(&perft["nodes"]));
    // A searching player against random, as the course asks ("contre random, contre IDS").
    let v = json(&plateau(&[
        "stats",
        game,
        "--games",
        "4",
        "--player",
        "alphabeta(depth=2)",
        "--player",
        "random",
        "--json",
    ]));
    assert_eq!(u(&v["games"]), 4);
    let first_wins = u(&v["length_by_result"][0]["count"]);
    assert!(first_wins >= 3, "alphabeta(depth=2) beats random as the first player: {first_wins} of 4");
}

#[test]
fn stats_errors_are_one_line() {
    fails(&plateau(&["stats", "tic_tac_toe", "--games", "0"]), "--games");
    fails(&plateau(&["stats", "tic_tac_toe", "--player", "a", "--player", "b", "--player", "c"]), "at most two");
    fails(&plateau(&["stats", "tic_tac_toe", "--player", "nosuch"]), "nosuch");
}

#[test]
fn perft_unique_counts_tic_tac_toe_positions() {
    // The distinct tic-tac-toe positions per ply (5478 in all with the empty board), and the move paths of perft.
    let v = json(&plateau(&["perft", "tic_tac_toe", "--depth", "9", "--unique", "--json"]));
    let rows = v["plies"].as_array().unwrap();
    let positions: Vec<u64> = rows.iter().map(|r| u(&r["positions"])).collect();
    assert_eq!(positions, [9, 72, 252, 756, 1260, 1520, 1140, 390, 78]);
    assert_eq!(1 + positions.iter().sum::<u64>(), 5478);
    let paths: Vec<u64> = rows.iter().map(|r| u(&r["paths"])).collect();
    assert_eq!(paths, [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]);
    assert_eq!(rows[2]["transposition_ratio"].as_f64().unwrap(), 2.0);
}

#[test]
fn perft_unique_paths_are_perft_for_every_game() {
    for game in GAMES {
        let v = json(&plateau(&["perft", game, "--depth", "4", "--unique", "--json"]));
        let rows = v["plies"].as_array().unwrap();
        for r in rows {
            let d = r["ply"].to_string();
            let p = json(&plateau(&["perft", game, "--depth", &d, "--json"]));
            assert_eq!(u(&r["paths"]), u(&p["nodes"]), "{game} ply {d}");
            assert!(u(&r["positions"]) <= u(&r["paths"]), "{game} ply {d}");
        }
    }
    // Breakthrough 8x8: the first transpositions come at ply 3 (a2a3 a7a6 b2b3 = b2b3 a7a6 a2a3).
    let v = json(&plateau(&["perft", "breakthrough", "--depth", "3", "--unique", "--json"]));
    assert_eq!(u(&v["plies"][1]["positions"]), 484);
    assert_eq!(u(&v["plies"][2]["positions"]), 5544);
}

#[test]
fn perft_unique_refuses_past_its_memory_ceiling() {
    fails(&plateau(&["perft", "breakthrough", "--depth", "6", "--unique", "--mem", "1"]), "--mem");
    fails(&plateau(&["perft", "breakthrough", "--depth", "2", "--unique", "--mem", "0"]), "--mem");
}

#[test]
fn match_results_by_colour_and_lengths() {
    let game = "breakthrough(rows=5,columns=4,piece_rows=1)";
    let v = json(&plateau(&[
        "match",
        game,
        "--player",
        "alphabeta(depth=2)",
        "--player",
        "random",
        "--games",
        "6",
        "--json",
    ]));
    let c = v["by_colour"].as_array().unwrap();
    assert_eq!((c[0]["first"].as_str(), c[1]["first"].as_str()), (Some("A"), Some("B")));
    assert_eq!((u(&c[0]["games"]), u(&c[1]["games"])), (3, 3));
    for k in ["wins_a", "wins_b", "draws"] {
        assert_eq!(u(&c[0][k]) + u(&c[1][k]), u(&v[k]), "{k} adds up");
    }
    assert_eq!(v["openings"], "2 random plies (seed 1)");
    assert!(u(&v["length"]["min"]) >= 2 && u(&v["length"]["min"]) <= u(&v["length"]["max"]));
    // Fixed colours: A moves first in every game.
    let v = json(&plateau(&[
        "match",
        game,
        "--player",
        "random",
        "--player",
        "random",
        "--games",
        "4",
        "--fixed-colours",
        "--json",
    ]));
    assert_eq!(u(&v["by_colour"][0]["games"]), 4);
    assert_eq!(u(&v["by_colour"][1]["games"]), 0);
    assert_eq!(v["fixed_colours"], true);
    let out = plateau(&["match", game, "--player", "random", "--player", "random", "--games", "2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("openings: 2 random plies"), "{text}");
    assert!(text.contains("games with A first"), "{text}");
    assert!(text.contains("game length: min"), "{text}");
}

#[test]
fn eval_prints_the_value_and_its_terms() {
    let moves = "a2a3 b7b6 b2b3";
    for name in ["simple", "pst", "nt", "tuned", "hand"] {
        let v = json(&plateau(&["eval", "breakthrough", "--moves", moves, "--eval", name, "--json"]));
        let terms = v["terms"].as_array().unwrap();
        assert!(!terms.is_empty(), "{name}");
        let sum: i64 = terms.iter().map(|t| t["value"].as_i64().unwrap()).sum();
        let value = v["value"].as_i64().unwrap();
        assert!((sum - value).abs() <= 40, "{name}: terms add up to {sum}, value {value}");
        // The static value is what a catalogue algorithm returns at depth 0 with the same evaluation.
        let s = json(&plateau(&[
            "search",
            "breakthrough",
            "--moves",
            moves,
            "--algo",
            &format!("alphabeta(depth=0,eval={name})"),
            "--json",
        ]));
        assert_eq!(s["value"].as_i64().unwrap(), value, "{name}");
    }
    // simple: 100 per piece and 4a^2 per piece a rows from home; no capture, so material is 0; White's a3 and b3 add
    // 2*(4-1) to a^2 and Black's b6 adds 4-1: seen by Black (to move), advancement -3, value -12.
    let v = json(&plateau(&["eval", "breakthrough", "--moves", moves, "--json"]));
    assert_eq!(v["value"], -12);
    assert_eq!(v["terms"][0]["value"], 0);
    assert_eq!(v["terms"][1]["feature"], -3);
    assert_eq!(v["side_to_move"], "second player");
    let v = json(&plateau(&["eval", "connect_four", "--moves", "4453", "--json"]));
    assert_eq!(v["terms"].as_array().unwrap().len(), 2);
    let v = json(&plateau(&["eval", "tic_tac_toe", "--list", "--json"]));
    assert_eq!(v["evaluations"], serde_json::json!(["simple"]));
    fails(&plateau(&["eval", "tic_tac_toe", "--eval", "pst"]), "simple");
}

#[test]
fn eval_is_accepted_by_every_catalogue_algorithm() {
    for algo in [
        "minimax",
        "negamax",
        "alphabeta",
        "alphabeta_failsoft",
        "palphabeta",
        "scout",
        "negascout",
        "pvs",
        "negacstar",
        "mtdf",
        "sss",
        "mtsss",
    ] {
        let spec = format!("{algo}(depth=2,eval=pst)");
        let v = json(&plateau(&["search", "breakthrough(rows=6,columns=5)", "--algo", &spec, "--json"]));
        assert_eq!(v["depth"], 2, "{spec}");
        fails(&plateau(&["search", "tic_tac_toe", "--algo", &format!("{algo}(eval=pst)")]), "eval=pst");
    }
    // Different evaluations, different values at depth 2 (both from the same position).
    let a = json(&plateau(&["search", "breakthrough", "--algo", "alphabeta(depth=2,eval=pst)", "--json"]));
    let b = json(&plateau(&["search", "breakthrough", "--algo", "alphabeta(depth=2,eval=tuned)", "--json"]));
    assert_ne!(a["value"], b["value"]);
    // The engine never silently searches depth 1 when asked for depth 0.
    fails(&plateau(&["search", "breakthrough", "--algo", "engine(depth=0)"]), "depth=0");
}

#[test]
fn answers_in_the_course_words() {
    // A solved loss says who wins.
    let v = json(&plateau(&["solve", "breakthrough(rows=5,columns=3,piece_rows=1)", "--moves", "a1a2", "--json"]));
    assert_eq!(v["result"], "loss");
    assert_eq!(v["winner_text"], "White, the first player, wins");
    assert_eq!(v["proven"], true);
    let out = plateau(&["solve", "breakthrough(rows=5,columns=3,piece_rows=1)", "--moves", "a1a2"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("loss: White, the first player, wins (proven)"));
    let v = json(&plateau(&["solve", "tic_tac_toe", "--json"]));
    assert_eq!(v["winner_text"], "neither player wins");
    let v = json(&plateau(&["solve", "marbles(n=8)", "--json"]));
    assert_eq!((v["result"].as_str(), v["winner_text"].as_str()), (Some("loss"), Some("The second player wins")));
    let v = json(&plateau(&["solve", "connect_four(rows=4,columns=5)", "--moves", "3", "--json"]));
    assert!(v["winner_text"].is_string());
    // A depth-limited value is heuristic; a win found by the search is proven and names the winner.
    let v = json(&plateau(&["search", "breakthrough", "--algo", "alphabeta(depth=2)", "--json"]));
    assert_eq!((v["value_kind"].as_str(), v["proven"].as_bool()), (Some("heuristic"), Some(false)));
    let v = json(&plateau(&[
        "search",
        "breakthrough",
        "--position",
        "8/P7/8/8/8/8/7p/8 b",
        "--algo",
        "alphabeta(depth=3)",
        "--json",
    ]));
    assert_eq!(v["value_kind"], "proven");
    assert_eq!(v["winner_text"], "Black, the second player, wins");
}

/// Split a shell line on spaces, keeping double-quoted words whole.
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// The `$ plateau ...` commands of a ```sh block, each with the lines of the ```text block written right after it
/// (blank lines apart; empty when there is none): the output those commands are checked against.
fn doc_blocks(doc: &str) -> Vec<(Vec<&str>, Vec<&str>)> {
    let lines: Vec<&str> = doc.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("```sh") {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        let mut commands = Vec::new();
        while j < lines.len() && !lines[j].starts_with("```") {
            if let Some(c) = lines[j].strip_prefix("$ plateau ") {
                commands.push(c);
            }
            j += 1;
        }
        let mut k = j + 1;
        while k < lines.len() && lines[k].trim().is_empty() {
            k += 1;
        }
        let mut quoted = Vec::new();
        if k < lines.len() && lines[k].starts_with("```text") {
            k += 1;
            while k < lines.len() && !lines[k].starts_with("```") {
                quoted.push(lines[k]);
                k += 1;
            }
        }
        if !commands.is_empty() {
            blocks.push((commands, quoted));
        }
        i = j + 1;
    }
    blocks
}

#[test]
fn every_command_of_docs_course_runs_and_gives_the_quoted_answers() {
    let root = env!("CARGO_MANIFEST_DIR");
    let doc = std::fs::read_to_string(format!("{root}/docs/course.md")).unwrap();
    let blocks = doc_blocks(&doc);
    let commands: Vec<&str> = blocks.iter().flat_map(|b| b.0.iter().copied()).collect();
    assert_eq!(commands.len(), doc.lines().filter(|l| l.starts_with("$ plateau ")).count(), "a $ line outside ```sh");
    assert!(commands.len() >= 25, "{} commands", commands.len());
    let mut outputs = String::new();
    let mut checked_lines = 0;
    for (block, quoted) in &blocks {
        let mut out_block = String::new();
        for c in block {
            let out = Command::new(BIN).args(shell_words(c)).current_dir(root).output().unwrap();
            assert!(out.status.success(), "plateau {c}: {}", String::from_utf8_lossy(&out.stderr));
            out_block += &String::from_utf8_lossy(&out.stdout);
        }
        // Every line the page shows after these commands is in their output (`...`: lines left out; tables are
        // written up to their time columns, so a line is checked as a part of an output line).
        for line in quoted.iter().map(|l| l.trim_end()).filter(|l| !l.is_empty() && *l != "...") {
            assert!(
                out_block.contains(line),
                "docs/course.md shows '{line}' after {block:?}, which printed:\n{out_block}"
            );
            checked_lines += 1;
        }
        outputs += &out_block;
    }
    assert!(checked_lines >= 40, "{checked_lines} lines of output checked");
    // The answers the page quotes.
    for answer in [
        "win: Black, the second player, wins (proven)",
        "best move      b4b3",
        "winning moves  a4a3 b4b3 d5d4 b4a3 d5c4 d6c5 a4b3 b4c3",
        "win: White, the first player, wins (proven)",
        "draw: neither player wins (proven)",
        "openings: 2 random plies (seed 1)",
        "10 games with A first",
        "mean branching factor by ply",
        "material (100 per piece)",
        "c6b5     loss in 22",
        "depth      3",
        "depth      6",
        "depth      4",
        "solution   ggfg",
    ] {
        assert!(outputs.contains(answer), "docs/course.md quotes '{answer}', which no command printed");
    }
    // Exercise 2: the first ply has 10 moves on 6x4; exercise 1: alphabeta wins most games against random.
    let v = json(&plateau(&["stats", "breakthrough(rows=6,columns=4)", "--games", "10", "--json"]));
    assert_eq!((u(&v["by_ply"][0]["min"]), u(&v["by_ply"][0]["max"])), (10, 10));
    let v = json(&plateau(&[
        "stats",
        "breakthrough(rows=6,columns=4)",
        "--player",
        "alphabeta(depth=3,id=true)",
        "--player",
        "random",
        "--games",
        "6",
        "--json",
    ]));
    assert!(u(&v["length_by_result"][0]["count"]) >= 4, "alphabeta(depth=3) wins most games against random");
}

#[test]
fn play_ends_with_a_summary_and_saves_the_record_on_request() {
    use std::io::Write;
    let record = std::env::temp_dir().join(format!("plateau_play_{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&record);
    let mut child = Command::new(BIN)
        .args(["play", "tic_tac_toe", "--human", "both", "--record", record.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"a1\nb1\na2\nb2\na3\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("result: 1-0, X, the first player, wins (human)"), "{text}");
    assert!(text.contains("moves (5): a1 b1 a2 b2 a3"), "{text}");
    let saved = std::fs::read_to_string(&record).unwrap();
    assert!(saved.contains("[Game \"tic_tac_toe\"]") && saved.contains("a1 b1 a2 b2 a3 1-0"), "{saved}");
    let _ = std::fs::remove_file(&record);
    // Against the engine: the summary names the engine when it wins, and the moves replay to the end.
    let mut child = Command::new(BIN)
        .args(["play", "marbles(n=5)", "--human", "second", "--engine", "alphabeta(depth=6)"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"1\n1\n1\n1\n1\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.starts_with("result: ")).unwrap_or_else(|| panic!("no summary: {text}"));
    assert!(line.contains("The first player wins (alphabeta(depth=6))"), "{line}");
    let moves = text.lines().find_map(|l| l.strip_prefix("moves (")).unwrap();
    let list = moves.split_once(": ").unwrap().1;
    let v = json(&plateau(&["perft", "marbles(n=5)", "--moves", list, "--depth", "1", "--json"]));
    assert_eq!(v["nodes"], 0, "the moves lead to the end of the game");
}

#[test]
fn a_tree_given_by_its_leaf_values_replays_the_textbook_examples() {
    // The classic two-ply example: MAX over three MIN nodes with leaves 3 12 8 | 2 4 6 | 14 5 2. Minimax reads the 9
    // leaves; alpha-beta cuts 4 and 6 after 2 (the second MIN node is at most 2 < 3) and reads 7; the value is 3.
    let tree = "random_tree(width=3,depth=2,values=3;12;8;2;4;6;14;5;2)";
    let m = json(&plateau(&["search", tree, "--algo", "minimax(depth=2)", "--json"]));
    let a = json(&plateau(&["search", tree, "--algo", "alphabeta(depth=2)", "--json"]));
    assert_eq!((m["value"].as_i64(), a["value"].as_i64()), (Some(3), Some(3)));
    assert_eq!((u(&m["leaves"]), u(&a["leaves"])), (9, 7));
    assert_eq!(a["best_move"], "1");
    // An odd depth: the values stay the root player's (MAX, MIN, MAX): max(min(max(3,5), max(6,9)), min(..)) = 5.
    let v = json(&plateau(&[
        "search",
        "random_tree(width=2,depth=3,values=3;5;6;9;1;2;0;-1)",
        "--algo",
        "sss(depth=3)",
        "--json",
    ]));
    assert_eq!(v["value"], 5);
    fails(&plateau(&["search", "random_tree(width=2,depth=3,values=3;5;6)", "--algo", "minimax"]), "8 leaves");
    fails(&plateau(&["search", "random_tree(width=2,depth=2,values=1;x;3;4)", "--algo", "minimax"]), "'x'");
}
