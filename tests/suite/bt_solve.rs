//! The Breakthrough solver and race tables: the reference values (`tests/data/reference/solved.json`), agreement
//! with plain exhaustive minimax on random positions (normal rules, misère, forced captures), and race tables against
//! an independent direct search of the region game and against minimax on whole positions.
//!
//! The slow references (5x5 with two rows: second player wins in 26 plies; every entry again with race tables) are
//! ignored in the normal run: `cargo test --test suite bt_solve:: -- --ignored` (2.6 minutes in the test profile on the loaded
//! 2-core machine, 48 s of CPU).

use std::collections::HashMap;
use std::path::PathBuf;

use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome};
use plateau::games::breakthrough::race::{NO_WIN, RaceTable};
use plateau::games::breakthrough::{BtMove, BtState};
use plateau::games::{AnyGame, Breakthrough};
use plateau::solve::breakthrough::{Job, SolveOptions, Solver, solve, solve_split};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

const WIN: i32 = 1_000_000;

fn bt(text: &str) -> Breakthrough {
    match AnyGame::parse(text).unwrap() {
        AnyGame::Breakthrough(g) => g,
        _ => panic!("{text} is not breakthrough"),
    }
}

fn small_options() -> SolveOptions {
    SolveOptions { tt_mib: 8, distance_tt_mib: 8, ..SolveOptions::default() }
}

/// Plain minimax over the whole game (memoised on the position): `WIN - plies` for a win of the side to move (the
/// fastest), `-(WIN - plies)` for a loss (the slowest).
fn minimax(g: &Breakthrough, s: &BtState, memo: &mut HashMap<(u64, u64, bool), i32>) -> i32 {
    if let Some(o) = g.outcome(s) {
        return if o == Outcome::Win { WIN } else { -WIN };
    }
    let k = (s.white, s.black, s.stm == plateau::game::Side::First);
    if let Some(&v) = memo.get(&k) {
        return v;
    }
    let mut list = MoveList::new();
    g.generate_moves(s, &mut list);
    let mut best = i32::MIN;
    for &m in &list {
        let mut c = *s;
        g.play(&mut c, m);
        let cv = minimax(g, &c, memo);
        best = best.max(if cv > 0 { -(cv - 1) } else { -cv - 1 });
    }
    memo.insert(k, best);
    best
}

fn random_position(g: &Breakthrough, rng: &mut SmallRng, min_plies: u32, max_plies: u32) -> Option<BtState> {
    let mut s = g.start();
    let n = rng.random_range(min_plies..=max_plies);
    for _ in 0..n {
        let m = g.random_move(&s, rng)?;
        g.play(&mut s, m);
    }
    if g.outcome(&s).is_some() { None } else { Some(s) }
}

fn reference_entries() -> Vec<(String, String)> {
    // The committed copy of the project's shared reference file (see `tests/data/reference/README.md`).
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference/solved.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["game"].as_str().unwrap().starts_with("breakthrough"))
        .map(|e| (e["game"].as_str().unwrap().to_string(), e["result"].as_str().unwrap().to_string()))
        .collect()
}

/// Check one reference entry; `distance` also checks a "wins in N plies" figure when the entry gives one.
fn check_reference(game_text: &str, result: &str, options: &SolveOptions) {
    let g = bt(game_text);
    let s = g.start();
    let sol = solve(&g, &s, options).unwrap();
    let expected = if result.starts_with("first player wins") {
        "win"
    } else if result.starts_with("first player loses") {
        "loss"
    } else {
        panic!("{game_text}: unrecognised reference result '{result}'")
    };
    assert_eq!(sol.result.as_deref(), Some(expected), "{game_text}: {result}");
    // "only a1a2 and d1d2 win": exactly these winning first moves.
    if let Some(rest) = result.split("only ").nth(1) {
        let mut want: Vec<String> =
            rest.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| w.len() == 4).map(String::from).collect();
        let mut got = sol.winning_moves.clone();
        want.sort();
        got.sort();
        assert!(!want.is_empty());
        assert_eq!(got, want, "{game_text}: winning first moves");
    }
    if expected == "loss" {
        assert!(sol.winning_moves.is_empty());
    } else {
        assert!(!sol.winning_moves.is_empty());
    }
    // "wins in 26 plies"
    if options.distance {
        let words: Vec<&str> = result.split_whitespace().collect();
        if let Some(i) = words.iter().position(|w| *w == "plies") {
            let n: u32 = words[i - 1].parse().unwrap();
            assert_eq!(sol.plies, Some(n), "{game_text}: distance");
        }
    }
}

#[test]
fn reference_values_small_boards() {
    let entries = reference_entries();
    let fast = [
        "breakthrough(rows=4,columns=3,piece_rows=1)",
        "breakthrough(rows=4,columns=4,piece_rows=1)",
        "breakthrough(rows=5,columns=4,piece_rows=1)",
        "breakthrough(rows=5,columns=4)",
    ];
    for name in fast {
        let (game, result) = entries.iter().find(|(g, _)| g == name).unwrap_or_else(|| panic!("{name} missing"));
        check_reference(game, result, &SolveOptions { tt_mib: 32, ..SolveOptions::default() });
    }
}

/// 5x5 with two rows: a loss for the first player, in 26 plies: `cargo test --test suite -- --ignored bt_solve::reference_5x5`.
#[test]
#[ignore]
fn reference_5x5_two_rows_with_distance() {
    let entries = reference_entries();
    let name = "breakthrough(rows=5,columns=5)";
    let (game, result) = entries.iter().find(|(g, _)| g == name).unwrap();
    let o = SolveOptions { tt_mib: 512, distance: true, distance_tt_mib: 512, race_rows: 3, ..SolveOptions::default() };
    check_reference(game, result, &o);
}

/// Five rows by six columns with two rows of pieces (the other reading of "6x5"): a second-player win, found both with
/// every improvement (race tables, threat sequences, mirror symmetry) and with none of them; not a reference value,
/// this solver's own result (24M df-pn expansions without the improvements):
/// `cargo test --release --test suite -- --ignored bt_solve::five_rows_six_columns`.
#[test]
#[ignore]
fn five_rows_six_columns_two_rows_is_a_second_player_win() {
    let g = bt("breakthrough(rows=5,columns=6)");
    let s = g.start();
    let full = SolveOptions { tt_mib: 1024, race_rows: 3, ..SolveOptions::default() };
    let plain =
        SolveOptions { tt_mib: 1024, race_rows: 0, threat_depth: 0, symmetry: false, ..SolveOptions::default() };
    for o in [full, plain] {
        let sol = solve(&g, &s, &o).unwrap();
        assert_eq!(sol.result.as_deref(), Some("loss"));
        assert!(sol.winning_moves.is_empty());
    }
}

/// Every reference entry again, with race tables: `cargo test --test suite -- --ignored bt_solve::reference_all`.
#[test]
#[ignore]
fn reference_all_with_race_tables() {
    for (game, result) in reference_entries() {
        let rows = bt(&game).rows;
        let o = SolveOptions { tt_mib: 512, race_rows: 3.min(rows - 1), ..SolveOptions::default() };
        check_reference(&game, &result, &o);
    }
}

/// The start positions of the reference boards with fewer than 5 columns (the quick ones).
fn small_reference_starts() -> Vec<(Breakthrough, BtState)> {
    let boards = reference_entries().into_iter().filter(|(g, _)| !g.contains("columns=5")).map(|(g, _)| bt(&g));
    boards
        .map(|g| {
            let s = g.start();
            (g, s)
        })
        .collect()
}

/// The job-level split solve agrees with the plain solve on the reference boards and on random positions of 5x4
/// (two rows), reports one decided job per group of mirrored root moves, and takes results given from elsewhere as
/// they are.
#[test]
fn split_agrees_with_solve() {
    let mut cases = small_reference_starts();
    let g = bt("breakthrough(rows=5,columns=4)");
    let mut rng = SmallRng::seed_from_u64(77);
    for _ in 0..40 {
        if let Some(s) = random_position(&g, &mut rng, 2, 10) {
            cases.push((g.clone(), s));
        }
    }
    let mut losses = 0;
    for (g, s) in &cases {
        let plain = solve(g, s, &small_options()).unwrap();
        let mut jobs: Vec<Job> = Vec::new();
        let first = ["b1b2".to_string()];
        let first_win = SolveOptions { all_winning_moves: false, ..small_options() };
        let split =
            solve_split(g, s, &first_win, &first, 500, &mut |_| None, &mut |j: &Job| jobs.push(j.clone())).unwrap();
        assert_eq!(split.result, plain.result, "{}", g.display(s));
        // With every winning move asked for: exactly the plain solve's winning moves, nothing left undecided.
        let all = solve_split(g, s, &small_options(), &first, 500, &mut |_| None, &mut |_| {}).unwrap();
        assert_eq!(all.result, plain.result, "{}", g.display(s));
        let (mut got, mut want) = (all.winning_moves.clone(), plain.winning_moves.clone());
        got.sort();
        want.sort();
        assert_eq!(got, want, "{}", g.display(s));
        assert!(all.undecided_moves.is_empty());
        if split.result.as_deref() == Some("loss") && g.outcome(s).is_none() {
            losses += 1;
            // Every root move decided, each group once.
            let mut list = MoveList::new();
            g.generate_moves(s, &mut list);
            let decided: Vec<&Job> = jobs.iter().filter(|j| j.result.as_deref() == Some("loss")).collect();
            let covered: usize = decided.iter().map(|j| 1 + j.mirrors.len()).sum();
            assert_eq!(covered, list.len(), "{}", g.display(s));
        } else if split.result.as_deref() == Some("win") {
            let w = &split.winning_moves[0];
            assert!(plain.winning_moves.contains(w), "{w} is not a winning move of {}", g.display(s));
            assert_eq!(jobs.last().unwrap().result.as_deref(), Some("win"));
        }
    }
    assert!(losses >= 3, "only {losses} lost positions among the cases");
    // A result from elsewhere is taken as it is (here a wrong one, to see that it is used without a search).
    let g = bt("breakthrough(rows=4,columns=4,piece_rows=1)");
    let mut jobs: Vec<Job> = Vec::new();
    let sol = solve_split(&g, &g.start(), &small_options(), &[], 500, &mut |m| Some(m == "b1b2"), &mut |j: &Job| {
        jobs.push(j.clone())
    })
    .unwrap();
    // b1b2 and its mirror image c1c2 (one job), and nothing else.
    assert_eq!(sol.winning_moves, ["b1b2", "c1c2"]);
    assert!(jobs.iter().all(|j| j.round.is_none() && j.job_nodes == 0));
}

/// A df-pn table saved when a solve stops unsolved and read back by the next run: the second run finishes with the
/// right value and less work than a solve from scratch, also from a table of another size; a table written for
/// another game or key scheme, or damaged, is refused with a clear error.
#[test]
fn table_file_carries_work_across_runs() {
    let dir = std::env::temp_dir().join(format!("plateau-bt-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("5x4.dfpn");
    let g = bt("breakthrough(rows=5,columns=4)");
    let s = g.start();
    let scratch = solve(&g, &s, &small_options()).unwrap();
    assert_eq!(scratch.result.as_deref(), Some("loss"));
    let with_file = |mib: usize, max: Option<u64>| SolveOptions {
        tt_mib: mib,
        max_nodes: max,
        table_file: Some(path.clone()),
        ..small_options()
    };
    let first = solve(&g, &s, &with_file(8, Some(scratch.nodes / 2))).unwrap();
    assert_eq!(first.result, None, "stopped half way");
    assert_eq!(first.earlier_nodes, 0);
    assert!(path.exists());
    let second = solve(&g, &s, &with_file(8, None)).unwrap();
    assert_eq!(second.result.as_deref(), Some("loss"));
    assert_eq!(second.earlier_nodes, first.nodes);
    assert!(
        second.nodes < scratch.nodes,
        "{} expansions after the table, {} from scratch",
        second.nodes,
        scratch.nodes
    );
    // The table now holds the proof: a third run, into a table of another size, is at least as quick.
    let third = solve(&g, &s, &with_file(16, None)).unwrap();
    assert_eq!(third.result.as_deref(), Some("loss"));
    assert_eq!(third.earlier_nodes, first.nodes + second.nodes);
    assert!(third.nodes <= second.nodes);
    // Refused: another game, another key scheme (no symmetry), a damaged file; the file is not overwritten then.
    let other = bt("breakthrough(rows=5,columns=4,piece_rows=1)");
    let e = solve(&other, &other.start(), &with_file(8, None)).unwrap_err();
    assert!(e.contains("the table is for breakthrough(rows=5,columns=4)"), "{e}");
    let e = solve(&g, &s, &SolveOptions { symmetry: false, ..with_file(8, None) }).unwrap_err();
    assert!(e.contains("mirror symmetry"), "{e}");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let e = solve(&g, &s, &with_file(8, None)).unwrap_err();
    assert!(e.contains("truncated"), "{e}");
    assert_eq!(std::fs::read(&path).unwrap().len(), bytes.len() / 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every proof the solver finds, with all its knowledge (rules, race tables, threat sequences, mirror symmetry), holds
/// when walked with the rules alone to the end of the game ([`plateau::solve::proof_check`]): the reference boards and
/// 16 random positions of 5x4 with two rows, wins and losses alike. (5x4 with two rows from the start: 56,478 df-pn
/// expansions, a proof tree of 1,361,301 + 476,426 positions to the end of the game.)
#[test]
fn proofs_hold_under_the_independent_check() {
    let mut cases = small_reference_starts();
    let mut rng = SmallRng::seed_from_u64(91);
    for text in ["breakthrough(rows=5,columns=4)"] {
        let g = bt(text);
        let mut n = 0;
        while n < 16 {
            if let Some(s) = random_position(&g, &mut rng, 4, 12) {
                cases.push((g.clone(), s));
                n += 1;
            }
        }
    }
    let (mut wins, mut losses) = (0, 0);
    for (g, s) in &cases {
        for race_rows in [0, 3] {
            let o = SolveOptions { race_rows, check_proof: true, ..small_options() };
            let sol = solve(g, s, &o).unwrap();
            let check = sol.proof_check.expect("a decided position is checked");
            let pos = g.format_position(s);
            assert!(check.verified, "{} {pos}: {:?}", g.spec(), check.failed_line);
            if sol.result.as_deref() == Some("win") {
                wins += 1;
            } else {
                losses += 1;
            }
        }
    }
    assert!(wins >= 4 && losses >= 4, "{wins} wins, {losses} losses");
}

fn agree_with_minimax(game_text: &str, positions: usize, min_plies: u32, max_plies: u32, race_rows: u32, seed: u64) {
    let g = bt(game_text);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut memo = HashMap::new();
    let mut checked = 0;
    let mut wins = 0;
    let mut tries = 0;
    while checked < positions {
        tries += 1;
        assert!(tries < positions * 50, "{game_text}: too few live random positions");
        let Some(s) = random_position(&g, &mut rng, min_plies, max_plies) else { continue };
        let o = SolveOptions { distance: race_rows == 0, race_rows, ..small_options() };
        let sol = solve(&g, &s, &o).unwrap();
        let want = minimax(&g, &s, &mut memo);
        let pos = g.format_position(&s);
        let result = if want > 0 { "win" } else { "loss" };
        assert_eq!(sol.result.as_deref(), Some(result), "{game_text} {pos}");
        if race_rows == 0 {
            assert_eq!(sol.plies, Some((WIN - want.abs()) as u32), "{game_text} {pos}: distance");
            // The best move reaches that distance.
            let m = g.parse_move(&s, sol.best_move.as_deref().unwrap()).unwrap();
            let mut c = s;
            g.play(&mut c, m);
            let cv = minimax(&g, &c, &mut memo);
            assert_eq!(if cv > 0 { -(cv - 1) } else { -cv - 1 }, want, "{game_text} {pos}: best move");
        }
        // Exactly the winning moves.
        let mut list = MoveList::new();
        g.generate_moves(&s, &mut list);
        let mut expected: Vec<String> = list
            .iter()
            .filter(|&&m: &&BtMove| {
                let mut c = s;
                g.play(&mut c, m);
                minimax(&g, &c, &mut memo) < 0
            })
            .map(|&m| g.format_move(&s, m))
            .collect();
        let mut got = sol.winning_moves.clone();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{game_text} {pos}: winning moves");
        wins += (want > 0) as usize;
        checked += 1;
    }
    assert!(wins > 0 && wins < positions, "{game_text}: both results should occur ({wins}/{positions} wins)");
}

#[test]
fn agrees_with_minimax_4x3_and_4x4() {
    agree_with_minimax("breakthrough(rows=4,columns=3,piece_rows=1)", 40, 0, 6, 0, 1);
    agree_with_minimax("breakthrough(rows=4,columns=4,piece_rows=1)", 40, 0, 8, 0, 2);
}

#[test]
fn agrees_with_minimax_5x4() {
    agree_with_minimax("breakthrough(rows=5,columns=4,piece_rows=1)", 40, 2, 10, 0, 3);
    agree_with_minimax("breakthrough(rows=5,columns=3)", 20, 8, 14, 0, 4);
    agree_with_minimax("breakthrough(rows=5,columns=4)", 12, 16, 22, 0, 5);
}

#[test]
fn agrees_with_minimax_variants() {
    for (i, v) in ["misere=true", "forced_captures=true", "misere=true,forced_captures=true"].iter().enumerate() {
        agree_with_minimax(&format!("breakthrough(rows=4,columns=4,piece_rows=1,{v})"), 30, 0, 8, 0, 10 + i as u64);
        agree_with_minimax(&format!("breakthrough(rows=5,columns=4,piece_rows=1,{v})"), 30, 4, 10, 0, 20 + i as u64);
    }
}

#[test]
fn agrees_with_minimax_with_race_tables() {
    agree_with_minimax("breakthrough(rows=5,columns=4,piece_rows=1)", 40, 2, 10, 3, 6);
    agree_with_minimax("breakthrough(rows=5,columns=4)", 10, 16, 20, 3, 7);
    agree_with_minimax("breakthrough(rows=6,columns=3,piece_rows=1)", 40, 4, 10, 3, 8);
}

/// Every verdict of the knowledge rules (game over, win in 1, loss in 2, win in 3, the defended runner of rule 5, the
/// threat sequences of rule 6), on random positions of several boards, against minimax of the whole game; each rule
/// must fire several times.
#[test]
fn knowledge_rules_agree_with_minimax() {
    let mut fired: HashMap<&'static str, usize> = HashMap::new();
    for (game_text, positions, min_plies, max_plies, seed) in [
        ("breakthrough(rows=5,columns=4)", 400, 16, 26, 40),
        ("breakthrough(rows=5,columns=3)", 2000, 4, 16, 41),
        ("breakthrough(rows=6,columns=3,piece_rows=1)", 2000, 2, 14, 42),
        ("breakthrough(rows=4,columns=4,piece_rows=1)", 600, 0, 8, 43),
    ] {
        let g = bt(game_text);
        let solver = Solver::new(&g, &small_options(), None);
        // Without rule 5, rule 6 (threat sequences, which include the defended runner) decides those positions too.
        let threats_only = Solver::new(&g, &SolveOptions { runner_rule: false, ..small_options() }, None);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut memo = HashMap::new();
        for _ in 0..positions {
            let Some(s) = random_position(&g, &mut rng, min_plies, max_plies) else { continue };
            for solver in [&solver, &threats_only] {
                let Some((verdict, rule)) = solver.rule_verdict(&s) else { continue };
                let want = if minimax(&g, &s, &mut memo) > 0 { Outcome::Win } else { Outcome::Loss };
                assert_eq!(verdict, want, "{game_text} {}: rule {rule}", g.format_position(&s));
                *fired.entry(rule).or_insert(0) += 1;
            }
        }
    }
    eprintln!("rules fired: {fired:?}");
    for rule in ["win in 1", "loss in 2", "win in 3", "defended runner", "threat sequence"] {
        let n = fired.get(rule).copied().unwrap_or(0);
        assert!(n >= 25, "rule {rule} fired only {n} times: {fired:?}");
    }
}

/// The race tables' own verdicts, on many positions, against minimax of the whole game.
#[test]
fn race_verdicts_are_sound() {
    for (game_text, rows) in
        [("breakthrough(rows=6,columns=3,piece_rows=1)", 3), ("breakthrough(rows=5,columns=4,piece_rows=1)", 3)]
    {
        let g = bt(game_text);
        let table = RaceTable::build(g.columns, rows).unwrap();
        let solver = Solver::new(&g, &small_options(), Some(table));
        let mut rng = SmallRng::seed_from_u64(9);
        let mut memo = HashMap::new();
        let (mut wins, mut losses) = (0, 0);
        for _ in 0..2000 {
            let Some(s) = random_position(&g, &mut rng, 4, 12) else { continue };
            let Some(v) = solver.race_verdict(&s) else { continue };
            let want = minimax(&g, &s, &mut memo);
            let pos = g.format_position(&s);
            match v {
                Outcome::Win => {
                    assert!(want > 0, "{game_text} {pos}: race table says win");
                    wins += 1;
                }
                _ => {
                    assert!(want < 0, "{game_text} {pos}: race table says loss");
                    losses += 1;
                }
            }
        }
        assert!(wins > 20 && losses > 20, "{game_text}: the tables should speak often ({wins} wins, {losses} losses)");
    }
}

/// An independent direct search of the region game, on cells (row, column) rather than bitboards:
/// attacker to move = moves the attacker needs to reach row 0 (255 = never), defender may pass or leave.
fn region_attacker(cells: &mut Vec<u8>, rows: usize, cols: usize) -> u8 {
    // 0 empty, 1 attacker, 2 defender; cell index r * cols + c, row 0 = the attacker's goal.
    if (0..cols).any(|c| cells[cols + c] == 1) {
        return 1;
    }
    let mut best = NO_WIN;
    for r in 2..rows {
        for c in 0..cols {
            if cells[r * cols + c] != 1 {
                continue;
            }
            for dc in [-1i32, 0, 1] {
                let nc = c as i32 + dc;
                if nc < 0 || nc >= cols as i32 {
                    continue;
                }
                let to = (r - 1) * cols + nc as usize;
                let ok = if dc == 0 { cells[to] == 0 } else { cells[to] != 1 };
                if !ok {
                    continue;
                }
                let saved = cells[to];
                cells[r * cols + c] = 0;
                cells[to] = 1;
                let v = region_defender(cells, rows, cols);
                cells[to] = saved;
                cells[r * cols + c] = 1;
                if v != NO_WIN {
                    best = best.min(v + 1);
                }
            }
        }
    }
    best
}

fn region_defender(cells: &mut Vec<u8>, rows: usize, cols: usize) -> u8 {
    let mut worst = region_attacker(cells, rows, cols);
    for r in 0..rows {
        for c in 0..cols {
            if worst == NO_WIN || cells[r * cols + c] != 2 {
                continue;
            }
            if r == rows - 1 {
                cells[r * cols + c] = 0;
                worst = worst.max(region_attacker(cells, rows, cols));
                cells[r * cols + c] = 2;
                continue;
            }
            for dc in [-1i32, 0, 1] {
                let nc = c as i32 + dc;
                if nc < 0 || nc >= cols as i32 {
                    continue;
                }
                let to = (r + 1) * cols + nc as usize;
                let ok = if dc == 0 { cells[to] == 0 } else { cells[to] != 2 };
                if !ok {
                    continue;
                }
                let saved = cells[to];
                cells[r * cols + c] = 0;
                cells[to] = 2;
                worst = worst.max(region_attacker(cells, rows, cols));
                cells[to] = saved;
                cells[r * cols + c] = 2;
            }
        }
    }
    worst
}

#[test]
fn race_table_matches_direct_region_search() {
    for (cols, rows) in [(3u32, 2u32), (3, 3), (4, 3)] {
        let t = RaceTable::build(cols, rows).unwrap();
        assert_eq!(t.bytes() as u64, 2 * RaceTable::entries(cols, rows));
        let mut rng = SmallRng::seed_from_u64(cols as u64 * 10 + rows as u64);
        let (mut finite, mut infinite) = (0, 0);
        for _ in 0..400 {
            let mut cells = vec![0u8; (rows * cols) as usize];
            let (mut a, mut d) = (0u64, 0u64);
            for (i, cell) in cells.iter_mut().enumerate() {
                let r = rng.random_range(0..10);
                let v = if r < 2 && i >= cols as usize {
                    1
                } else if r < 4 {
                    2
                } else {
                    0
                };
                *cell = v;
                if v == 1 {
                    a |= 1 << i;
                } else if v == 2 {
                    d |= 1 << i;
                }
            }
            assert_eq!(t.decode(t.index(a, d) as u64), (a, d));
            let want_a = region_attacker(&mut cells, rows as usize, cols as usize);
            let want_d = region_defender(&mut cells, rows as usize, cols as usize);
            assert_eq!(t.attacker_to_move(a, d), want_a, "{rows}x{cols} a={a:b} d={d:b}");
            assert_eq!(t.defender_to_move(a, d), want_d, "{rows}x{cols} a={a:b} d={d:b}");
            if want_a == NO_WIN {
                infinite += 1;
            } else {
                finite += 1;
            }
        }
        assert!(finite > 20 && infinite > 20, "{rows}x{cols}: {finite} finite, {infinite} infinite");
    }
}

#[test]
fn bad_race_table_size_is_an_error() {
    let g = bt("breakthrough(rows=5,columns=4)");
    let e = solve(&g, &g.start(), &SolveOptions { race_rows: 5, ..small_options() }).unwrap_err();
    assert!(e.contains("race table"), "{e}");
    assert!(RaceTable::build(8, 8).is_err());
}
