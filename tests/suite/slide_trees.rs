//! The slides' own trees (`data/trees/`, format in docs/course.md): the alpha-beta walk-through A..V of `004_*`
//! reproduces the slide's cuts, and SSS* with the course's OPEN list reproduces the table of `001_*`.

use crate::common::{json, plateau};
use std::process::Output;

const ALPHABETA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/trees/alphabeta_004.txt");
const SSS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/trees/sss_001.txt");

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The visited nodes (named by their move, i.e. their label) and the cut branches `(below, cut)` of one search.
fn visits(game: &str, algo: &str) -> (i64, Vec<String>, Vec<(String, String)>) {
    let v = json(&plateau(&["tree", game, "--algo", algo, "--json"]));
    let tree = v["tree"].as_array().unwrap();
    let name = |n: &serde_json::Value| n["move"].as_str().unwrap().to_string();
    let seen: Vec<String> = tree.iter().filter(|n| n["parent"].is_u64()).map(name).collect();
    let mut cuts = Vec::new();
    for n in tree {
        let below = if n["parent"].is_u64() { name(n) } else { "A".to_string() };
        for m in n["pruned_moves"].as_array().unwrap() {
            cuts.push((below.clone(), m.as_str().unwrap().to_string()));
        }
    }
    (v["value"].as_i64().unwrap(), seen, cuts)
}

#[test]
fn alphabeta_walkthrough_cuts_h_then_tuv() {
    // The slide's scenario: D E visited, beta cut on H below F, K L N O visited, R S, alpha cut on T (U V) below P.
    let game = format!("tree(file={ALPHABETA})");
    let (value, seen, cuts) = visits(&game, "alphabeta(depth=3)");
    assert_eq!(value, 5);
    assert_eq!(seen.join(" "), "B C D E F G I J K L M N O P Q R S");
    assert_eq!(cuts, vec![("F".into(), "H".into()), ("P".into(), "T".into())]);
    // H, U and V are never read: whatever their values, the same cuts and value.
    for (h, u, w) in [(-50, 50, 50), (100, -7, 3), (2, 4, 5)] {
        let text =
            format!("tree(text=A(B(C(D=2 E=1) F(G=6 H={h})) I(J(K=8 L=3) M(N=5 O=2)) P(Q(R=3 S=4) T(U={u} V={w}))))");
        let (v2, seen2, cuts2) = visits(&text, "alphabeta(depth=3)");
        assert_eq!((v2, &seen2, &cuts2), (value, &seen, &cuts), "H={h} U={u} V={w}");
    }
    // The text output names the cuts.
    let out = stdout(&plateau(&["tree", &game, "--algo", "alphabeta(depth=3)"]));
    assert!(out.contains("never looked at: H (below F), T (below P)"), "{out}");
    // Minimax reads every leaf.
    let (mm, seen_mm, cuts_mm) = visits(&game, "minimax(depth=3)");
    assert_eq!((mm, seen_mm.len(), cuts_mm.len()), (5, 21, 0));
    // `tree` alone is this tree.
    assert_eq!(visits("tree", "alphabeta(depth=3)"), (value, seen, cuts));
}

/// The first 14 lines of the slide's table, as we read them. Two misprints of the extracted text are corrected:
/// line 5 has `<c,v,∞>` twice where the lines around it have `<c,v,∞> <d,v,∞>`, and line 6 `<l,f,∞>` where l was
/// just solved with 9 (line 5) and stays `<l,f,9>` in line 8 on.
const SLIDE_TABLE: [&str; 14] = [
    "<a,v,∞>",
    "<b,v,∞> <c,v,∞> <d,v,∞>",
    "<e,v,∞> <c,v,∞> <d,v,∞>",
    "<l,v,∞> <m,v,∞> <c,v,∞> <d,v,∞>",
    "<m,v,∞> <c,v,∞> <d,v,∞> <l,f,9>",
    "<c,v,∞> <d,v,∞> <l,f,9> <m,f,3>",
    "<h,v,∞> <d,v,∞> <l,f,9> <m,f,3>",
    "<r,v,∞> <s,v,∞> <d,v,∞> <l,f,9> <m,f,3>",
    "<s,v,∞> <d,v,∞> <l,f,9> <r,f,3> <m,f,3>",
    "<d,v,∞> <l,f,9> <r,f,3> <m,f,3> <s,f,2>",
    "<j,v,∞> <l,f,9> <r,f,3> <m,f,3> <s,f,2>",
    "<v,v,∞> <w,v,∞> <l,f,9> <r,f,3> <m,f,3> <s,f,2>",
    "<w,v,∞> <l,f,9> <v,f,3> <r,f,3> <m,f,3> <s,f,2>",
    "<l,f,9> <w,f,8> <v,f,3> <r,f,3> <m,f,3> <s,f,2>",
];

#[test]
fn sss_open_list_is_the_slides_table() {
    let game = format!("tree(file={SSS})");
    let out = stdout(&plateau(&["tree", &game, "--algo", "sss(depth=3,ties=newest)", "--trace"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(&lines[..14], &SLIDE_TABLE[..], "{out}");
    // The list ends with the root solved, at the tree's minimax value.
    let last = lines.iter().rposition(|l| l.starts_with('<')).unwrap();
    assert_eq!(lines[last], "<a,f,6>");
    // Stockman's rule (ties to the leftmost node) differs from the course's list at line 9 (r and m, both 3).
    let left = stdout(&plateau(&["tree", &game, "--algo", "sss(depth=3)", "--trace"]));
    let left: Vec<&str> = left.lines().collect();
    assert_eq!(&left[..8], &SLIDE_TABLE[..8]);
    assert_eq!(left[8], "<s,v,∞> <d,v,∞> <l,f,9> <m,f,3> <r,f,3>");
    // JSON carries the same lines.
    let v = json(&plateau(&["tree", &game, "--algo", "sss(depth=3,ties=newest)", "--trace", "--json"]));
    assert_eq!(v["open_lists"][13].as_str(), Some(SLIDE_TABLE[13]));
    assert_eq!(v["value"].as_i64(), Some(6));
}

#[test]
fn sss_reads_no_leaf_that_alphabeta_cuts_on_the_slide_trees() {
    for file in [ALPHABETA, SSS] {
        let game = format!("tree(file={file})");
        let leaves = |algo: &str| -> Vec<String> {
            let v = json(&plateau(&["tree", &game, "--algo", algo, "--json"]));
            v["tree"].as_array().unwrap().iter().filter(|n| n["leaf"] == true).map(|n| n["move"].to_string()).collect()
        };
        let ab = leaves("alphabeta(depth=3)");
        for algo in ["sss(depth=3)", "sss(depth=3,ties=newest)"] {
            let ss = leaves(algo);
            assert!(ss.iter().all(|l| ab.contains(l)), "{file} {algo}: {ss:?} not within alpha-beta's {ab:?}");
        }
    }
}

#[test]
fn bad_trees_and_trace_misuse_are_one_line_errors() {
    for (args, says) in [
        (vec!["tree", "tree(text=A(B C=1))", "--algo", "alphabeta(depth=2)"], "a leaf needs a value"),
        (vec!["tree", "tree(file=/no/such/tree.txt)", "--algo", "alphabeta"], "/no/such/tree.txt"),
        (vec!["tree", "tree", "--algo", "alphabeta(depth=3)", "--trace"], "--trace"),
        (vec!["search", "tree", "--algo", "sss(ties=random)"], "ties=random"),
    ] {
        let out = plateau(&args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says) && err.trim().lines().count() == 1, "{args:?}: {err}");
    }
}
