//! Qubic solved with a checked proof (`--method qubic-pns`): the 3x3x3 cube proven a first-player win by df-pn with
//! threat-space search, the proof saved (`--proof`) and checked from the file with the rules alone (`--check`,
//! `--check-proof`); damaged proof files refused or failing with the line where they break; the table saved when
//! the search is stopped and read back by the next run; threat sequences and symmetry keys through the game's traits.

use plateau::game::{Capabilities, Game, Knowledge, MoveList};
use plateau::games::qubic::{Qubic, geometry};
use plateau::solve::threats::tss;

use crate::common::{json, one_line_error, plateau, tmpdir};

fn solve_with_proof(dir: &std::path::Path) -> (serde_json::Value, String) {
    let proof = dir.join("qubic3.proof").display().to_string();
    let v = json(&plateau(&["solve", "qubic(size=3)", "--proof", &proof, "--check", "--json"]));
    (v, proof)
}

#[test]
fn the_small_cube_is_proven_and_its_saved_proof_checks() {
    let dir = tmpdir("proven");
    let (v, proof) = solve_with_proof(&dir);
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["method"], "qubic-pns", "{v}");
    assert!(v["nodes"].as_u64().unwrap() > 0, "{v}");
    let positions = v["proof_positions"].as_u64().unwrap();
    assert!(positions > 0, "{v}");
    assert_eq!(v["proof_check"]["verified"], true, "{v}");
    // The check walked every answer of O: more positions where O moves than stored ones, down to ends of the game.
    assert!(v["proof_check"]["and_positions"].as_u64().unwrap() >= positions, "{v}");
    assert!(v["proof_check"]["terminal_positions"].as_u64().unwrap() > 0, "{v}");
    let text = std::fs::read_to_string(&proof).unwrap();
    assert_eq!(text.lines().count() as u64, positions + 4, "header, game, root, entries, end");
    assert!(text.ends_with(&format!("end {positions}\n")));
    // The file alone, checked by another run.
    let c = json(&plateau(&["solve", "qubic(size=3)", "--check-proof", &proof, "--json"]));
    assert_eq!(c["check"]["verified"], true, "{c}");
    assert_eq!(c["positions"].as_u64(), Some(positions));
    assert_eq!(c["root"], "3/3/3|3/3/3|3/3/3 x", "{c}");
    // The first stored move is the best move reported.
    let first = text.lines().nth(3).unwrap();
    assert_eq!(first.rsplit('\t').next().unwrap(), v["best_move"].as_str().unwrap(), "{first}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_proofs_are_refused_or_fail_where_they_break() {
    let dir = tmpdir("damaged");
    let (_, proof) = solve_with_proof(&dir);
    let text = std::fs::read_to_string(&proof).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let write = |name: &str, lines: &[String]| {
        let p = dir.join(name);
        std::fs::write(&p, lines.join("\n") + "\n").unwrap();
        p.display().to_string()
    };
    let check = |file: &str| one_line_error(&plateau(&["solve", "qubic(size=3)", "--check-proof", file, "--json"]));
    let owned: Vec<String> = lines.iter().map(|l| l.to_string()).collect();

    // Cut short: no end line.
    let cut = write("cut.proof", &owned[..owned.len() - 2]);
    let e = check(&cut);
    assert!(e.contains("cut short"), "{e}");

    // The root's winning move changed to another empty cell: O's answers to it are not in the file.
    let g = Qubic::new(3);
    let (pos, mv) = lines[3].rsplit_once('\t').unwrap();
    let s = g.parse_position(pos).unwrap();
    let mut legal = MoveList::new();
    g.generate_moves(&s, &mut legal);
    let other = legal.iter().map(|&m| g.format_move(&s, m)).find(|m| m != mv).unwrap();
    let mut changed = owned.clone();
    changed[3] = format!("{pos}\t{other}");
    let e = check(&write("changed.proof", &changed));
    assert!(e.contains("does NOT hold") && e.contains(&other), "{e}");

    // One stored position left out (the count fixed): the check reaches it and fails there.
    if lines.len() > 6 {
        let mut fewer: Vec<String> = owned.clone();
        fewer.remove(4);
        let n = fewer.len();
        fewer[n - 1] = format!("end {}", n - 4);
        let e = check(&write("fewer.proof", &fewer));
        assert!(e.contains("does NOT hold"), "{e}");
    }

    // A move that is not legal there, a wrong count, another game, not a proof: refused with the line.
    let mut occupied = owned.clone();
    let (pos4, _) = lines[4].rsplit_once('\t').unwrap();
    let s4 = g.parse_position(pos4).unwrap();
    let full: Vec<String> = (0..27u8).filter(|c| (s4.x | s4.o) >> c & 1 == 1).map(|c| g.format_move(&s4, c)).collect();
    occupied[4] = format!("{pos4}\t{}", full[0]);
    let e = check(&write("occupied.proof", &occupied));
    assert!(e.contains("line 5"), "{e}");
    let mut count = owned.clone();
    let n = count.len();
    count[n - 1] = "end 1".into();
    let e = check(&write("count.proof", &count));
    assert!(e.contains(&format!("line {n}")), "{e}");
    let e = one_line_error(&plateau(&["solve", "qubic", "--check-proof", &proof, "--json"]));
    assert!(e.contains("qubic(size=3)"), "{e}");
    let e = check(&write("junk.proof", &["hello".to_string()]));
    assert!(e.contains("not a plateau proof"), "{e}");
    let e = check(&dir.join("missing.proof").display().to_string());
    assert!(e.contains("missing.proof"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stopped_solve_saves_its_table_and_the_next_run_goes_on() {
    let dir = tmpdir("resume");
    let table = dir.join("qubic3.table").display().to_string();
    let e = one_line_error(&plateau(&["solve", "qubic(size=3)", "--table", &table, "--max-nodes", "3", "--json"]));
    assert!(e.contains("not solved") && e.contains("table is saved"), "{e}");
    assert!(std::path::Path::new(&table).exists());
    let v = json(&plateau(&["solve", "qubic(size=3)", "--table", &table, "--json"]));
    assert_eq!(v["result"], "win", "{v}");
    assert!(v["table_read"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["earlier_nodes"].as_u64(), Some(3), "{v}");
    // Another game's table is refused in one line.
    let e = one_line_error(&plateau(&["solve", "qubic", "--table", &table, "--max-nodes", "1", "--json"]));
    assert!(e.contains("--table"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn options_that_do_not_fit_are_refused() {
    for (args, needle) in [
        (&["--check"][..], "--proof"),
        (&["--check-memo", "64mb"][..], "--check"),
        (&["--save-every", "5"][..], "--table"),
        (&["--check-proof", "x.proof", "--tt", "16mb"][..], "--tt"),
        (&["--race-rows", "2"][..], "--race-rows"),
    ] {
        let mut all = vec!["solve", "qubic(size=3)", "--json"];
        all.extend_from_slice(args);
        let e = one_line_error(&plateau(&all));
        assert!(e.contains(needle), "{args:?}: {e}");
    }
    // The other solvers still take Qubic.
    let v = json(&plateau(&["solve", "qubic(size=3)", "--method", "alphabeta", "--weak", "--json"]));
    assert_eq!(v["result"], "win", "{v}");
}

/// Threat sequences through the traits: X's pairs 1b1 1c1 (rank 1) and 1a2 1a3 (file a) meet at the empty 1a1, a
/// double threat; with one pair only, a threat is met by the block and nothing wins.
#[test]
fn threat_space_search_finds_a_double_threat_and_not_a_false_one() {
    let g = Qubic::new(4);
    let s = g.play_moves(&g.start(), "1b1 4d4 1c1 4c3 1a2 2d1 1a3 3b4").unwrap();
    let limits = tss::Limits { depth: 4, budget: 10_000 };
    let (m, nodes) = tss::find(&g, &s, limits);
    assert!(nodes > 0);
    assert_eq!(m.map(|m| g.format_move(&s, m)), Some("1a1".to_string()));
    // No sequence of depth 0, none at the start, none with a single pair.
    assert_eq!(tss::find(&g, &s, tss::Limits { depth: 0, budget: 10_000 }).0, None);
    assert_eq!(tss::find(&g, &g.start(), limits).0, None);
    let lone = g.play_moves(&g.start(), "1b1 4d4 1c1 4c3").unwrap();
    assert_eq!(tss::find(&g, &lone, limits).0, None);
    // O holds 4b4 4c4 4d4 and is to move: a win at once is the sequence's first move.
    let forced = g.play_moves(&g.start(), "1b1 4d4 1c1 4c4 1a2 4b4 1a3").unwrap();
    assert_eq!(tss::find(&g, &forced, limits).0.map(|m| g.format_move(&forced, m)), Some("4a4".to_string()));
}

#[test]
fn symmetric_positions_share_a_symmetry_key() {
    let g = Qubic::new(4);
    let syms = geometry::symmetries(4);
    let s = g.play_moves(&g.start(), "1a1 2b3 4d2").unwrap();
    for map in syms.iter().step_by(13) {
        let mut t = s;
        t.x = geometry::apply(map, s.x);
        t.o = geometry::apply(map, s.o);
        t.key = g.compute_key(&t);
        assert_eq!(g.symmetry_key(&t), g.symmetry_key(&s));
    }
    let other = g.play_moves(&g.start(), "1a1 2b3 4d1").unwrap();
    assert_ne!(g.symmetry_key(&other), g.symmetry_key(&s));
}
