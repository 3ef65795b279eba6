//! Tests of the three small games: tic-tac-toe, marbles and Connect Four.
//!
//! - perft against `tests/data/reference/perft.json` (read at test time; a missing file is a failure);
//! - tic-tac-toe facts of `tests/data/reference/solved.json`, by a naive enumeration written here and by the `Game`
//!   implementation;
//! - marbles perft against a dynamic-programming count, and the known theory of who wins;
//! - perft from random positions against naive array-based implementations written here (tic-tac-toe, Connect Four of
//!   any size);
//! - the generic property checks of `plateau::check` on random playouts, for several sizes, and proptest over parameters;
//! - malformed and illegal input (moves, positions, parameters) through the library and through the binary.

use std::collections::HashSet;
use std::path::PathBuf;

use plateau::check::check_playouts;
use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome, Side, perft};
use plateau::games::connect_four::{C4State, ConnectFour, Shape};
use plateau::games::marbles::Marbles;
use plateau::games::tic_tac_toe::TicTacToe;
use plateau::games::{AnyGame, catalogue};

use crate::common::{plateau_stdin, stderr, stdout};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------------------------
// References

/// A reference file of `tests/data/reference/` (copies of the project's shared reference data, see the README there).
/// A missing or malformed file fails the test loudly.
fn reference(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The perft table of a game string at the start position, as (depth, nodes).
fn perft_table(game: &str) -> Vec<(u32, u64)> {
    let json = reference("perft.json");
    let entry = json["entries"]
        .as_array()
        .expect("perft.json: entries")
        .iter()
        .find(|e| e["game"] == game && e["position"] == "start")
        .unwrap_or_else(|| panic!("perft.json has no start entry for {game}"));
    let mut rows: Vec<(u32, u64)> = entry["perft"]
        .as_object()
        .expect("perft table")
        .iter()
        .map(|(d, n)| (d.parse().expect("depth"), n.as_u64().expect("count")))
        .collect();
    rows.sort();
    assert!(!rows.is_empty(), "empty perft table for {game}");
    rows
}

fn solved_entry(game: &str) -> Value {
    let json = reference("solved.json");
    json["entries"]
        .as_array()
        .expect("solved.json: entries")
        .iter()
        .find(|e| e["game"] == game)
        .unwrap_or_else(|| panic!("solved.json has no entry for {game}"))
        .clone()
}

// ---------------------------------------------------------------------------------------------------------------
// perft against the reference tables

#[test]
fn tic_tac_toe_perft_matches_reference() {
    let g = TicTacToe;
    let table = perft_table("tic_tac_toe");
    assert_eq!(table.iter().map(|r| r.0).collect::<Vec<_>>(), (1..=9).collect::<Vec<_>>());
    for (d, n) in table {
        assert_eq!(perft(&g, &g.start(), d), n, "tic_tac_toe perft({d})");
    }
    // The game always ends by ply 9.
    assert_eq!(perft(&g, &g.start(), 10), 0);
}

/// The board text of a finished game says who won, not whose turn it would be (what Python's `str(state)` prints).
#[test]
fn tic_tac_toe_display_says_the_game_is_over() {
    let g = TicTacToe;
    let won = g.play_moves(&g.start(), "a1 b1 a2 b2 a3").unwrap();
    assert!(g.display(&won).ends_with("game over: X wins"), "{}", g.display(&won));
    let drawn = g.play_moves(&g.start(), "b2 a1 a3 c1 b1 b3 c2 a2 c3").unwrap();
    assert!(g.display(&drawn).ends_with("game over: a draw"), "{}", g.display(&drawn));
    assert!(g.display(&g.start()).ends_with("X to move"));
}

#[test]
fn connect_four_perft_matches_reference() {
    let g = ConnectFour::default();
    let table = perft_table("connect_four");
    assert!(table.iter().any(|r| r.0 == 9), "the reference goes to depth 9");
    for (d, n) in table {
        // Depth 9 (39 million positions) takes about a second in the test profile.
        if d <= 9 {
            assert_eq!(perft(&g, &g.start(), d), n, "connect_four perft({d})");
        }
    }
}

#[test]
fn registry_parses_every_spelling() {
    for name in ["tic_tac_toe", "tictactoe", "ttt", "TicTacToe"] {
        assert!(matches!(AnyGame::parse(name), Ok(AnyGame::TicTacToe(_))), "{name}");
    }
    for name in ["connect_four", "connect4", "c4", "connect_four(rows=6,columns=7)"] {
        assert!(matches!(AnyGame::parse(name), Ok(AnyGame::ConnectFour(_))), "{name}");
    }
    match AnyGame::parse("marbles(n=10,k=2,misere=true)") {
        Ok(AnyGame::Marbles(m)) => {
            assert_eq!((m.n, m.k, m.misere), (10, 2, true));
            assert_eq!(m.spec(), "marbles(n=10,k=2,misere=true)");
        }
        other => panic!("marbles: {other:?}"),
    }
    match AnyGame::parse("c4(rows=4,columns=5)") {
        Ok(AnyGame::ConnectFour(c)) => assert_eq!(c.spec(), "connect_four(rows=4,columns=5)"),
        other => panic!("c4: {other:?}"),
    }
    let names: Vec<&str> = catalogue().iter().map(|g| g.info.name).collect();
    for n in ["tic_tac_toe", "marbles", "connect_four"] {
        assert!(names.contains(&n), "{n} missing from the catalogue");
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Tic-tac-toe facts

/// Naive tic-tac-toe on a `[u8; 9]` (0 empty, 1 X, 2 O), independent of the library.
fn naive_ttt_winner(b: &[u8; 9]) -> u8 {
    const L: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
    for l in L {
        if b[l[0]] != 0 && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]] {
            return b[l[0]];
        }
    }
    0
}

#[derive(Default, Debug, PartialEq, Eq)]
struct TttFacts {
    games: u64,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
    nodes: u64,
}

fn naive_ttt_walk(b: &mut [u8; 9], turn: u8, f: &mut TttFacts, seen: &mut HashSet<[u8; 9]>) {
    f.nodes += 1;
    seen.insert(*b);
    let w = naive_ttt_winner(b);
    if w != 0 || b.iter().all(|&c| c != 0) {
        f.games += 1;
        match w {
            1 => f.x_wins += 1,
            2 => f.o_wins += 1,
            _ => f.draws += 1,
        }
        return;
    }
    for i in 0..9 {
        if b[i] == 0 {
            b[i] = turn;
            naive_ttt_walk(b, 3 - turn, f, seen);
            b[i] = 0;
        }
    }
}

fn library_ttt_walk(g: &TicTacToe, s: &<TicTacToe as Game>::State, f: &mut TttFacts, seen: &mut HashSet<String>) {
    f.nodes += 1;
    seen.insert(g.format_position(s));
    if let Some(o) = g.outcome(s) {
        f.games += 1;
        // The outcome is from the side to move's view: a loss for the side to move is a win for the other.
        match (o, g.side_to_move(s)) {
            (Outcome::Draw, _) => f.draws += 1,
            (Outcome::Loss, Side::Second) | (Outcome::Win, Side::First) => f.x_wins += 1,
            (Outcome::Loss, Side::First) | (Outcome::Win, Side::Second) => f.o_wins += 1,
            (Outcome::Value(v), _) => panic!("tic-tac-toe has no numeric outcomes ({v})"),
        }
        return;
    }
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    for &m in &moves {
        let mut c = *s;
        g.play(&mut c, m);
        library_ttt_walk(g, &c, f, seen);
    }
}

#[test]
fn tic_tac_toe_facts_match_solved_json() {
    let e = solved_entry("tic_tac_toe");
    let facts = &e["facts"];
    let want = TttFacts {
        games: facts["complete_games"].as_u64().expect("complete_games"),
        x_wins: facts["x_wins"].as_u64().expect("x_wins"),
        o_wins: facts["o_wins"].as_u64().expect("o_wins"),
        draws: facts["draws"].as_u64().expect("draws"),
        nodes: facts["game_tree_nodes_including_root"].as_u64().expect("nodes"),
    };
    let distinct = facts["distinct_positions_including_empty"].as_u64().expect("distinct");

    let mut naive = TttFacts::default();
    let mut naive_seen = HashSet::new();
    naive_ttt_walk(&mut [0; 9], 1, &mut naive, &mut naive_seen);
    assert_eq!(naive, want, "naive enumeration");
    assert_eq!(naive_seen.len() as u64, distinct, "naive distinct positions");

    let g = TicTacToe;
    let mut lib = TttFacts::default();
    let mut lib_seen = HashSet::new();
    library_ttt_walk(&g, &g.start(), &mut lib, &mut lib_seen);
    assert_eq!(lib, want, "Game implementation");
    assert_eq!(lib_seen.len() as u64, distinct, "distinct position texts");

    // The tree nodes are also 1 + the sum of perft(1..=9).
    let total: u64 = 1 + (1..=9).map(|d| perft(&g, &g.start(), d)).sum::<u64>();
    assert_eq!(total, want.nodes);
    assert_eq!(e["result"], "draw");
    let r = plateau::players::searcher::<TicTacToe>("alphabeta(depth=9)").expect("algo").search(&g, &g.start());
    assert_eq!(r.value, 0, "tic-tac-toe is a draw");
}

// ---------------------------------------------------------------------------------------------------------------
// Marbles

/// Move paths of exactly `depth` plies from `left` marbles, by dynamic programming over "marbles left" (a different
/// method from the tree walk of `perft`): `ways[r]` = paths reaching `r` marbles left; a game at 0 stops.
fn marbles_dp(left: u32, k: u32, depth: u32) -> u64 {
    let mut ways = vec![0u64; left as usize + 1];
    ways[left as usize] = 1;
    for _ in 0..depth {
        let mut next = vec![0u64; left as usize + 1];
        for r in 1..=left as usize {
            if ways[r] == 0 {
                continue;
            }
            for t in 1..=(k as usize).min(r) {
                next[r - t] += ways[r];
            }
        }
        ways = next;
    }
    ways.iter().sum()
}

#[test]
fn marbles_perft_equals_dynamic_programming() {
    for (n, k) in [(21, 3), (1, 1), (5, 1), (7, 2), (10, 10), (12, 5), (30, 4), (4, 256)] {
        for misere in [false, true] {
            let g = Marbles::new(n, k, misere).expect("valid");
            for d in 0..=9 {
                assert_eq!(perft(&g, &g.start(), d), marbles_dp(n, k, d), "marbles({n},{k},{misere}) depth {d}");
            }
        }
    }
    // A value computed by hand: with 3 marbles and k=2, the paths of exactly 2 plies are 1+1 and 1+2, 2+1.
    assert_eq!(marbles_dp(3, 2, 2), 3);
}

/// Exact negamax value (true = the side to move wins) over the `Game` trait.
fn marbles_wins(g: &Marbles, s: &<Marbles as Game>::State, memo: &mut Vec<Option<bool>>) -> bool {
    if let Some(o) = g.outcome(s) {
        return o == Outcome::Win;
    }
    if let Some(v) = memo[s.left as usize] {
        return v;
    }
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    let win = moves.iter().any(|&m| {
        let mut c = *s;
        g.play(&mut c, m);
        !marbles_wins(g, &c, memo)
    });
    memo[s.left as usize] = Some(win);
    win
}

#[test]
fn marbles_theory_from_solved_json() {
    let e = solved_entry("marbles(n,k)");
    let text = e["result"].as_str().expect("result");
    assert!(text.contains("n % (k+1) == 0") && text.contains("== 1"), "{text}");
    for k in 1..=6 {
        for n in 1..=40 {
            for misere in [false, true] {
                let g = Marbles::new(n, k, misere).expect("valid");
                let mut memo = vec![None; n as usize + 1];
                let loses = !marbles_wins(&g, &g.start(), &mut memo);
                let theory = if misere { n % (k + 1) == 1 } else { n % (k + 1) == 0 };
                assert_eq!(loses, theory, "marbles(n={n},k={k},misere={misere})");
            }
        }
    }
    // The default search finds the theory's move: from 21 with k=3, take 1 (leaving 20, a multiple of 4).
    let g = Marbles::default();
    let r = plateau::players::searcher::<Marbles>("alphabeta(depth=4)").expect("algo").search(&g, &g.start());
    assert_eq!(r.best_move, Some(1));
}

// ---------------------------------------------------------------------------------------------------------------
// Naive Connect Four (a 2D array, gravity by scanning), independent of the library, for perft from any position.

#[derive(Clone)]
struct NaiveC4 {
    rows: usize,
    cols: usize,
    cells: Vec<u8>, // row-major from the bottom, 0 empty, 1 X, 2 O
    turn: u8,
}

impl NaiveC4 {
    fn four(&self, who: u8) -> bool {
        let at = |r: i64, c: i64| {
            r >= 0
                && c >= 0
                && (r as usize) < self.rows
                && (c as usize) < self.cols
                && self.cells[r as usize * self.cols + c as usize] == who
        };
        for r in 0..self.rows as i64 {
            for c in 0..self.cols as i64 {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    if (0..4).all(|i| at(r + dr * i, c + dc * i)) {
                        return true;
                    }
                }
            }
        }
        false
    }
    fn over(&self) -> bool {
        self.four(1) || self.four(2) || self.cells.iter().all(|&c| c != 0)
    }
    fn drop(&mut self, col: usize) -> bool {
        for r in 0..self.rows {
            if self.cells[r * self.cols + col] == 0 {
                self.cells[r * self.cols + col] = self.turn;
                self.turn = 3 - self.turn;
                return true;
            }
        }
        false
    }
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over() {
            return 0;
        }
        let mut n = 0;
        for c in 0..self.cols {
            let mut child = self.clone();
            if child.drop(c) {
                n += child.perft(depth - 1);
            }
        }
        n
    }
}

/// A random position `plies` random moves deep (stopping early if the game ends), as a state and a move string.
fn random_c4(g: &ConnectFour, rng: &mut SmallRng, plies: u32) -> (C4State, Vec<String>) {
    let mut s = g.start();
    let mut words = Vec::new();
    for _ in 0..plies {
        match g.random_move(&s, rng) {
            Some(m) => {
                words.push(g.format_move(&s, m));
                g.play(&mut s, m);
            }
            None => break,
        }
    }
    (s, words)
}

#[test]
fn connect_four_perft_from_random_positions_matches_naive() {
    let mut rng = SmallRng::seed_from_u64(4);
    for (rows, cols) in [(6, 7), (4, 4), (5, 4), (4, 5), (7, 8), (3, 9), (2, 12), (1, 5), (9, 6), (5, 10)] {
        let g = ConnectFour::new(rows, cols).expect("fits");
        for _ in 0..6 {
            let plies = rng.random_range(0..(rows * cols));
            let (s, words) = random_c4(&g, &mut rng, plies);
            let mut naive =
                NaiveC4 { rows: rows as usize, cols: cols as usize, cells: vec![0; (rows * cols) as usize], turn: 1 };
            for w in &words {
                assert!(naive.drop(w.parse::<usize>().expect("column") - 1));
            }
            // Through the position text too: the parsed state must count the same.
            let parsed = g.parse_position(&g.format_position(&s)).expect("own text parses");
            assert_eq!(parsed, s);
            let depth = if cols > 8 { 3 } else { 4 };
            for d in 0..=depth {
                assert_eq!(perft(&g, &s, d), naive.perft(d), "{rows}x{cols} after {} depth {d}", words.join(" "));
            }
            assert_eq!(g.is_terminal(&s), naive.over());
        }
    }
}

#[test]
fn connect_four_winning_cells_match_naive() {
    // `winning_cells(p, mask)`: the empty cells where one more disc of `p` makes four in a row.
    let mut rng = SmallRng::seed_from_u64(11);
    for (rows, cols) in [(6, 7), (4, 4), (7, 8), (3, 16), (15, 4), (5, 10), (1, 32), (31, 2)] {
        let g = ConnectFour::new(rows, cols).expect("fits");
        for _ in 0..40 {
            let plies = rng.random_range(0..(rows * cols));
            let (s, _) = random_c4(&g, &mut rng, plies);
            let (first, second) = ConnectFour::discs(&s);
            // (A side that already has four in a row would make "four" with any extra disc; such sides are skipped.)
            for p in [first, second].into_iter().filter(|&p| !g.has_four(p)) {
                let cells = g.winning_cells(p, s.pos.mask);
                for c in 0..cols {
                    for r in 0..rows {
                        let bit = 1u64 << (c * (rows + 1) + r);
                        let expect = s.pos.mask & bit == 0 && g.has_four(p | bit);
                        assert_eq!(cells & bit != 0, expect, "{rows}x{cols} {} cell {c},{r}", g.format_position(&s));
                    }
                }
                assert_eq!(cells & !g.board_mask(), 0);
            }
        }
    }
}

#[test]
fn tic_tac_toe_perft_from_every_position_matches_naive() {
    // Every reachable position (5478), perft at every depth to the end, against the naive array version.
    fn naive_perft(b: &mut [u8; 9], turn: u8, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        if naive_ttt_winner(b) != 0 || b.iter().all(|&c| c != 0) {
            return 0;
        }
        let mut n = 0;
        for i in 0..9 {
            if b[i] == 0 {
                b[i] = turn;
                n += naive_perft(b, 3 - turn, d - 1);
                b[i] = 0;
            }
        }
        n
    }
    let g = TicTacToe;
    let mut stack = vec![g.start()];
    let mut seen = HashSet::new();
    while let Some(s) = stack.pop() {
        if !seen.insert(s) {
            continue;
        }
        let mut b = [0u8; 9];
        for (i, cell) in b.iter_mut().enumerate() {
            *cell = if s.x >> i & 1 == 1 {
                1
            } else if s.o >> i & 1 == 1 {
                2
            } else {
                0
            };
        }
        let turn = if s.stm == Side::First { 1 } else { 2 };
        for d in 0..=3 {
            assert_eq!(perft(&g, &s, d), naive_perft(&mut b, turn, d), "{} depth {d}", g.format_position(&s));
        }
        let mut moves = MoveList::new();
        g.generate_moves(&s, &mut moves);
        for &m in &moves {
            let mut c = s;
            g.play(&mut c, m);
            stack.push(c);
        }
    }
    assert_eq!(seen.len(), 5478);
}

// ---------------------------------------------------------------------------------------------------------------
// Property checks on random playouts

fn texts(range: std::ops::RangeInclusive<u32>) -> Vec<String> {
    range.map(|i| i.to_string()).collect()
}

#[test]
fn tic_tac_toe_playouts() {
    let g = TicTacToe;
    let mut candidates = Vec::new();
    for f in ['a', 'b', 'c', 'd'] {
        for r in 0..=4 {
            candidates.push(format!("{f}{r}"));
        }
    }
    check_playouts(&g, &g.start(), 1, 300, &candidates, 9).expect("tic-tac-toe properties");
}

#[test]
fn marbles_playouts() {
    for (n, k, misere) in
        [(21, 3, false), (21, 3, true), (1, 1, false), (50, 7, true), (1000, 256, false), (9, 20, false)]
    {
        let g = Marbles::new(n, k, misere).expect("valid");
        check_playouts(&g, &g.start(), n as u64, 40, &texts(0..=k + 2), n as usize).expect("marbles properties");
    }
}

#[test]
fn connect_four_playouts() {
    for (rows, cols) in [(6, 7), (4, 4), (7, 8), (3, 16), (1, 32), (63, 1), (5, 10), (2, 3), (9, 6)] {
        let g = ConnectFour::new(rows, cols).expect("fits");
        let max = (rows * cols) as usize;
        check_playouts(&g, &g.start(), (rows * 100 + cols) as u64, 60, &texts(0..=cols + 1), max)
            .unwrap_or_else(|e| panic!("connect_four({rows}x{cols}): {e}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn connect_four_any_size((cols, rows) in (1u32..=32).prop_flat_map(|c| (Just(c), 1u32..=64 / c - 1)),
                             seed in any::<u64>()) {
        prop_assert!((rows + 1) * cols <= 64);
        let g = ConnectFour::new(rows, cols).expect("fits");
        check_playouts(&g, &g.start(), seed, 4, &texts(0..=cols + 1), (rows * cols) as usize)
            .map_err(|e| TestCaseError::fail(format!("{rows}x{cols}: {e}")))?;
    }

    #[test]
    fn connect_four_too_large_is_an_error((cols, rows) in (1u32..=40).prop_flat_map(|c| (Just(c), 64 / c..=100))) {
        prop_assert!((rows + 1) * cols > 64);
        let e = ConnectFour::new(rows, cols).expect_err("too large");
        prop_assert!(e.to_string().contains("at most 64"), "{}", e);
        let e = AnyGame::parse(&format!("connect_four(rows={rows},columns={cols})")).expect_err("too large");
        prop_assert!(!e.to_string().contains('\n'));
    }

    #[test]
    fn marbles_any_parameters(n in 1u32..=1000, k in 1u32..=256, misere in any::<bool>(), seed in any::<u64>()) {
        let g = Marbles::new(n, k, misere).expect("valid");
        check_playouts(&g, &g.start(), seed, 3, &texts(0..=3), n as usize)
            .map_err(|e| TestCaseError::fail(format!("marbles({n},{k},{misere}): {e}")))?;
        let d = 4;
        prop_assert_eq!(perft(&g, &g.start(), d), marbles_dp(n, k, d));
    }

    #[test]
    fn marbles_positions_round_trip(n in 1u32..=60, k in 1u32..=8, left in 0u32..=60, second in any::<bool>()) {
        let g = Marbles::new(n, k, false).expect("valid");
        let side = if second { 2 } else { 1 };
        let text = format!("{left} {side}");
        match g.parse_position(&text) {
            Ok(s) => {
                prop_assert!(left <= n);
                prop_assert_eq!(g.format_position(&s), text);
                prop_assert_eq!(g.key(&s), g.compute_key(&s));
                // The parser accepts exactly the positions some move sequence reaches.
                prop_assert!(marbles_reachable(n, k, left, second));
            }
            Err(e) => {
                prop_assert!(left > n || !marbles_reachable(n, k, left, second), "{}", e);
                prop_assert!(!e.to_string().contains('\n'));
            }
        }
    }
}

/// Whether `left` marbles with the given side to move can be reached, by exhaustive search over (left, side).
fn marbles_reachable(n: u32, k: u32, left: u32, second: bool) -> bool {
    if left > n {
        return false;
    }
    let mut seen = HashSet::new();
    let mut stack = vec![(n, false)];
    while let Some((l, sec)) = stack.pop() {
        if !seen.insert((l, sec)) {
            continue;
        }
        for t in 1..=k.min(l) {
            stack.push((l - t, !sec));
        }
    }
    seen.contains(&(left, second))
}

// ---------------------------------------------------------------------------------------------------------------
// Bad input through the library

fn one_line_error<T: std::fmt::Debug>(r: Result<T, plateau::game::GameError>, what: &str) -> String {
    let e = r.expect_err(what).to_string();
    assert!(!e.is_empty() && !e.contains('\n'), "{what}: '{e}' should be one line");
    e
}

#[test]
fn bad_parameters_are_errors() {
    for (spec, needle) in [
        ("marbles(n=0)", "1..=1000"),
        ("marbles(n=1001)", "1..=1000"),
        ("marbles(k=0)", "1..=256"),
        ("marbles(k=257)", "1..=256"),
        ("marbles(n=abc)", "whole number"),
        ("marbles(misere=perhaps)", "true or false"),
        ("marbles(m=3)", "accepted: k, misere, n"),
        ("tic_tac_toe(size=4)", "accepted: none"),
        ("connect_four(rows=8,columns=8)", "at most 64"),
        ("connect_four(rows=7,columns=9)", "at most 64"),
        ("connect_four(rows=0)", "out of range"),
        ("connect_four(columns=0)", "out of range"),
        ("connect_four(columns=33)", "out of range"),
        ("connect_four(depth=3)", "accepted: columns, rows"),
        ("connect5", "unknown game"),
    ] {
        let e = one_line_error(AnyGame::parse(spec), spec);
        assert!(e.contains(needle), "{spec}: '{e}' should contain '{needle}'");
    }
    // The largest boards that fit are accepted.
    for (r, c) in [(7, 8), (63, 1), (1, 32), (15, 4)] {
        assert!(ConnectFour::new(r, c).is_ok(), "{r}x{c}");
    }
}

#[test]
fn bad_moves_are_errors() {
    let t = TicTacToe;
    let s = t.play_moves(&t.start(), "b2").expect("legal");
    for bad in ["", "a", "a4", "d1", "a0", "b2", "aa", "a1a2", "11", "é1", "a１"] {
        one_line_error(t.parse_move(&s, bad), bad);
    }
    assert!(t.parse_move(&s, "b2").unwrap_err().to_string().contains("taken"));
    assert_eq!(t.parse_move(&s, "A1"), Ok(0), "upper-case files are accepted");
    let won = t.play_moves(&t.start(), "a1 a2 b1 b2 c1").expect("legal");
    assert_eq!(t.outcome(&won), Some(Outcome::Loss));
    one_line_error(t.parse_move(&won, "c3"), "after the end");
    one_line_error(t.play_moves(&won, "c3"), "after the end");

    let m = Marbles::new(5, 3, false).expect("valid");
    let s = m.start();
    for bad in ["", "0", "4", "-1", "+1", "x", "1.5", "99999999999999999999", "03", " "] {
        one_line_error(m.parse_move(&s, bad), bad);
    }
    let s2 = m.play_moves(&s, "3").expect("legal");
    assert!(m.parse_move(&s2, "3").unwrap_err().to_string().contains("2 left"));
    let end = m.play_moves(&s2, "2").expect("legal");
    one_line_error(m.parse_move(&end, "1"), "after the end");

    let c = ConnectFour::default();
    let s = c.start();
    for bad in ["", "0", "8", "-1", "x", "44", "04", "1.0", "99999999999999999999"] {
        one_line_error(c.parse_move(&s, bad), bad);
    }
    let full = c.play_moves(&s, "4 4 4 4 4 4").expect("legal");
    assert!(c.parse_move(&full, "4").unwrap_err().to_string().contains("full"));
    // The digit-string form and the spaced form play the same game.
    assert_eq!(c.split_moves("4453"), vec!["4", "4", "5", "3"]);
    assert_eq!(c.split_moves("4 4 5 3"), vec!["4", "4", "5", "3"]);
    assert_eq!(c.split_moves(" 44 53 "), vec!["4", "4", "5", "3"]);
    let wide = ConnectFour::new(5, 10).expect("fits");
    assert_eq!(wide.split_moves("10 1"), vec!["10", "1"]);
    assert!(wide.play_moves(&wide.start(), "10 1 10").is_ok());
}

#[test]
fn bad_positions_are_errors() {
    let t = TicTacToe;
    for (bad, needle) in [
        ("", "empty"),
        ("3/3/3", "missing side"),
        ("3/3 x", "2 rows"),
        ("3/3/3/3 x", "4 rows"),
        ("XXXX/3/3 o", "longer"),
        ("2/3/3 x", "covers 2"),
        ("4/3/3 x", "unknown symbol '4'"),
        ("3/1Q1/3 x", "unknown symbol 'Q'"),
        ("3/3/3 z", "expected x or o"),
        ("3/3/3 x extra", "unexpected"),
        ("XX1/3/3 x", "impossible counts"),
        ("X2/3/3 x", "impossible counts"),
        ("O2/3/3 o", "impossible counts"),
        ("XXX/OOO/3 x", "both"),
        ("XXX/OO1/O2 x", "but is to move"),
        ("OOO/XX1/X1X o", "but is to move"),
    ] {
        let e = one_line_error(t.parse_position(bad), bad);
        assert!(e.contains(needle), "'{bad}': '{e}' should contain '{needle}'");
    }
    // Accepted, with '.' for an empty square, and written back canonically.
    let s = t.parse_position("x../.o./... x").expect("valid");
    assert_eq!(t.format_position(&s), "X2/1O1/3 x");
    // A finished game: X completed two lines with one stone (a3 joins a3-b3-c3 and a1-a2-a3).
    let s = t.parse_position("XXX/XOO/XOO o").expect("valid");
    assert_eq!(t.outcome(&s), Some(Outcome::Loss));

    let c = ConnectFour::default();
    for (bad, needle) in [
        ("", "empty"),
        ("7/7/7/7/7/7", "missing side"),
        ("7/7/7/7/7 x", "5 rows"),
        ("7/7/7/7/7/8 x", "bad empty count"),
        ("7/7/7/7/7/XXXXXXXX o", "longer"),
        ("7/7/7/7/7/6 x", "covers 6"),
        ("7/7/7/7/7/3R3 o", "unknown symbol 'R'"),
        ("7/7/7/7/7/0X6 o", "bad empty count"),
        ("7/7/7/7/7/7 y", "expected x or o"),
        ("7/7/7/7/3X3/7 o", "floats"),
        ("7/7/7/7/7/3XX2 x", "impossible counts"),
        ("7/7/7/7/7/3XX2 o", "impossible counts"),
        ("7/7/7/7/OOOO3/XXXX3 x", "both"),
        ("7/7/7/7/OOO4/XXXX2O x", "but is to move"),
        ("7/7/6X/O5X/OOO1O1X/XXXXOOX o", "no single last disc"),
        ("7/7/7/7/X1X4/O1O4 x", "no order"),
        ("7/7/7/7/XX5/OO5 x", "no order"),
    ] {
        let e = one_line_error(c.parse_position(bad), bad);
        assert!(e.contains(needle), "'{bad}': '{e}' should contain '{needle}'");
    }
    let s = c.parse_position("7/7/7/7/OOO4/XXXX3 o").expect("X just won");
    assert_eq!(c.outcome(&s), Some(Outcome::Loss));
    let s = c.parse_position("......./7/7/7/3o3/2.xx2 O").expect("valid");
    assert_eq!(c.format_position(&s), "7/7/7/7/3O3/3XX2 o");
    assert_eq!(s, c.play_moves(&c.start(), "4 4 5").expect("legal"));

    let m = Marbles::default();
    for (bad, needle) in [
        ("", "empty"),
        ("21", "missing side"),
        ("22 1", "starts with n=21"),
        ("21 2", "impossible"),
        ("20 1", "impossible"),
        ("-1 1", "not a number"),
        ("x 1", "not a number"),
        ("21 3", "expected 1"),
        ("21 1 0", "unexpected"),
    ] {
        let e = one_line_error(m.parse_position(bad), bad);
        assert!(e.contains(needle), "'{bad}': '{e}' should contain '{needle}'");
    }
    let s = m.parse_position("0 2").expect("the first player took the last");
    assert_eq!(m.outcome(&s), Some(Outcome::Loss));
    let s = Marbles::new(2, 1, false).expect("valid").parse_position("0 1").expect("two plies of one");
    assert_eq!(s.left, 0);
    assert!(Marbles::new(2, 1, false).expect("valid").parse_position("0 2").is_err());
}

/// Every gravity-respecting filling of a small board, with either side to move, is accepted by the parser exactly
/// when some game from the start reaches it (the reachable set is enumerated through the `Game` trait).
fn positions_accepted_iff_reachable(rows: u32, cols: u32, sample_every: usize) {
    let g = ConnectFour::new(rows, cols).expect("fits");
    let mut reachable = HashSet::new();
    let mut stack = vec![g.start()];
    while let Some(s) = stack.pop() {
        if !reachable.insert(s) {
            continue;
        }
        let mut moves = MoveList::new();
        g.generate_moves(&s, &mut moves);
        for &m in &moves {
            let mut c = s;
            g.play(&mut c, m);
            stack.push(c);
        }
    }
    // Each column: a height h and h colour bits; enumerate all combinations as one mixed-radix number.
    let per_col: u64 = (0..=rows).map(|h| 1u64 << h).sum();
    let total = per_col.pow(cols);
    let (mut accepted, mut refused) = (0, 0);
    for code in (0..total).step_by(sample_every) {
        let mut cells = vec![vec!['.'; cols as usize]; rows as usize]; // [row from the bottom][column]
        let mut c = code;
        for col in 0..cols as usize {
            let mut v = c % per_col;
            c /= per_col;
            let mut h = 0;
            while v >= 1u64 << h {
                v -= 1u64 << h;
                h += 1;
            }
            for (r, row) in cells.iter_mut().enumerate().take(h) {
                row[col] = if v >> r & 1 == 1 { 'X' } else { 'O' };
            }
        }
        let board: Vec<String> = cells.iter().rev().map(|r| r.iter().collect()).collect();
        for side in ["x", "o"] {
            let text = format!("{} {side}", board.join("/"));
            match g.parse_position(&text) {
                Ok(s) => {
                    accepted += 1;
                    assert!(reachable.contains(&s), "{text} is accepted but no game reaches it");
                }
                Err(e) => {
                    refused += 1;
                    let first = cells.iter().flatten().filter(|&&ch| ch == 'X').count();
                    let second = cells.iter().flatten().filter(|&&ch| ch == 'O').count();
                    let stm_ok = (side == "x" && first == second) || (side == "o" && first == second + 1);
                    if stm_ok {
                        let mut bits = (0u64, 0u64);
                        for (r, row) in cells.iter().enumerate() {
                            for (col, ch) in row.iter().enumerate() {
                                let b = 1u64 << (col as u32 * (rows + 1) + r as u32);
                                match ch {
                                    'X' => bits.0 |= b,
                                    'O' => bits.1 |= b,
                                    _ => {}
                                }
                            }
                        }
                        let s = g.from_discs(bits.0, bits.1);
                        assert!(!reachable.contains(&s), "{text} is reachable but refused: {e}");
                    }
                }
            }
        }
    }
    assert!(accepted > 100 && refused > 100, "{accepted} accepted, {refused} refused");
}

#[test]
fn tic_tac_toe_parser_accepts_exactly_the_reachable_positions() {
    let g = TicTacToe;
    let mut reachable = HashSet::new();
    let mut stack = vec![g.start()];
    while let Some(s) = stack.pop() {
        if !reachable.insert(s) {
            continue;
        }
        let mut moves = MoveList::new();
        g.generate_moves(&s, &mut moves);
        for &m in &moves {
            let mut c = s;
            g.play(&mut c, m);
            stack.push(c);
        }
    }
    let mut accepted = 0;
    for code in 0..3u32.pow(9) {
        let mut cells = ['.'; 9]; // a3 b3 c3 a2 ... c1: the text order
        let mut c = code;
        for cell in cells.iter_mut() {
            *cell = ['.', 'X', 'O'][(c % 3) as usize];
            c /= 3;
        }
        let rows: Vec<String> = cells.chunks(3).map(|r| r.iter().collect()).collect();
        for side in ["x", "o"] {
            let text = format!("{} {side}", rows.join("/"));
            match g.parse_position(&text) {
                Ok(s) => {
                    accepted += 1;
                    assert!(reachable.contains(&s), "{text} is accepted but no game reaches it");
                }
                Err(e) => {
                    assert!(!e.to_string().contains('\n'));
                }
            }
        }
    }
    assert_eq!(accepted, reachable.len(), "every reachable position is accepted once");
}

#[test]
fn connect_four_parser_accepts_exactly_the_reachable_positions() {
    positions_accepted_iff_reachable(4, 3, 1);
    positions_accepted_iff_reachable(3, 4, 1);
    positions_accepted_iff_reachable(4, 4, 7);
}

/// The same on every filling of the 4x4 board and a sample of the 5x4 board (about a minute in release:
/// `cargo test --release --test suite games_small:: -- --ignored`).
#[test]
#[ignore]
fn connect_four_parser_exact_on_larger_boards() {
    positions_accepted_iff_reachable(4, 4, 1);
    positions_accepted_iff_reachable(5, 4, 13);
}

#[test]
fn connect_four_position_after_moves() {
    let c = ConnectFour::default();
    let s = c.play_moves(&c.start(), "4 4 5").expect("legal");
    assert_eq!(c.format_position(&s), "7/7/7/7/3O3/3XX2 o");
    assert_eq!(c.parse_position("7/7/7/7/3O3/3XX2 o"), Ok(s));
    // Vertical, horizontal and both diagonal wins are detected, as a loss for the side to move.
    for moves in ["4 5 4 5 4 5 4", "1 1 2 2 3 3 4", "1 2 2 3 4 3 3 4 4 5 4", "7 6 6 5 4 5 5 4 4 3 4"] {
        let s = c.play_moves(&c.start(), moves).expect("legal");
        assert_eq!(c.outcome(&s), Some(Outcome::Loss), "{moves}");
        assert!(c.is_terminal(&s));
    }
    // A full board without four in a row is a draw (on a board too small for any line).
    let tiny = ConnectFour::new(3, 3).expect("fits");
    let s = tiny.play_moves(&tiny.start(), &tiny.split_moves("123123123").join(" ")).expect("legal");
    assert_eq!(tiny.outcome(&s), Some(Outcome::Draw));
    assert_eq!(tiny.format_position(&s), "XOX/OXO/XOX o");
}

// ---------------------------------------------------------------------------------------------------------------
// Through the binary

/// `plateau ARGS` with `stdin` as its input (none: an empty one), as (exit code, stdout, stderr).
fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let out = plateau_stdin(args, stdin.unwrap_or(""));
    (out.status.code().unwrap_or(-1), stdout(&out), stderr(&out))
}

fn json_of(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

#[test]
fn binary_perft_and_search() {
    let (code, out, err) = run(&["perft", "tictactoe", "--depth", "9", "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_of(&out)["nodes"], 127872);

    let (code, a, err) = run(&["perft", "c4", "--moves", "4453", "--depth", "4", "--json"], None);
    assert_eq!(code, 0, "{err}");
    let (code, b, err) = run(&["perft", "connect4", "--moves", "4 4 5 3", "--depth", "4", "--json"], None);
    assert_eq!(code, 0, "{err}");
    let (a, b) = (json_of(&a), json_of(&b));
    assert_eq!(a["nodes"], b["nodes"]);
    assert_eq!(a["position"], "7/7/7/7/3O3/2OXX2 x");
    let c = ConnectFour::default();
    let s = c.play_moves(&c.start(), "4 4 5 3").expect("legal");
    assert_eq!(a["nodes"], perft(&c, &s, 4));

    let (code, out, err) =
        run(&["perft", "connect_four", "--position", "7/7/7/7/3O3/2OXX2 x", "--depth", "3", "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_of(&out)["nodes"], perft(&c, &s, 3));

    let (code, out, err) = run(&["perft", "marbles(n=10,k=3)", "--depth", "5", "--divide", "--json"], None);
    assert_eq!(code, 0, "{err}");
    let v = json_of(&out);
    assert_eq!(v["nodes"], marbles_dp(10, 3, 5));
    assert_eq!(v["divide"].as_array().map(|d| d.len()), Some(3));

    let (code, out, err) = run(&["perft", "c4", "--depth", "6", "--threads", "2", "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_of(&out)["nodes"], 117649);

    let (code, out, err) = run(&["search", "marbles", "--algo", "alphabeta(depth=6)", "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_of(&out)["best_move"], "1");
    let (code, out, err) = run(&["search", "ttt", "--moves", "a1 b2 c3", "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert!(json_of(&out)["best_move"].is_string());
    // X to win in one: a1 b1 a2 b2, X plays a3.
    let (code, out, err) = run(&["search", "ttt", "--moves", "a1 b1 a2 b2", "--json"], None);
    assert_eq!(code, 0, "{err}");
    let v = json_of(&out);
    assert_eq!(v["best_move"], "a3");
    assert_eq!(v["value_text"], "win in 1");
    let (code, out, err) = run(&["search", "c4", "--moves", "4453", "--algo", "alphabeta(depth=4)", "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert!(json_of(&out)["best_move"].is_string());

    let (code, out, err) = run(&["games", "--json"], None);
    assert_eq!(code, 0, "{err}");
    let v = json_of(&out);
    let games = v["games"].as_array().expect("games");
    for name in ["tic_tac_toe", "marbles", "connect_four"] {
        assert!(games.iter().any(|g| g["name"] == name), "{name} listed");
    }
}

#[test]
fn binary_errors_are_one_line() {
    for args in [
        &["perft", "marbles(n=0)", "--depth", "1"][..],
        &["perft", "marbles(k=1000)", "--depth", "1"],
        &["perft", "connect_four(rows=8,columns=8)", "--depth", "1"],
        &["perft", "connect_four(rows=6,columns=7,size=3)", "--depth", "1"],
        &["perft", "tic_tac_toe(n=4)", "--depth", "1"],
        &["perft", "c4", "--moves", "44444444", "--depth", "1"],
        &["perft", "c4", "--moves", "4 8", "--depth", "1"],
        &["perft", "c4", "--moves", "4x", "--depth", "1"],
        &["perft", "ttt", "--moves", "a1 a1", "--depth", "1"],
        &["perft", "ttt", "--moves", "a1 a2 b1 b2 c1 c2", "--depth", "1"],
        &["perft", "ttt", "--position", "XX1/3/3 x", "--depth", "1"],
        &["perft", "ttt", "--position", "3/3 x", "--depth", "1"],
        &["perft", "c4", "--position", "7/7/7/7/3X3/7 o", "--depth", "1"],
        &["perft", "c4", "--position", "7/7/7/7/7/3Z3 o", "--depth", "1"],
        &["perft", "marbles", "--moves", "4", "--depth", "1"],
        &["perft", "marbles", "--position", "30 1", "--depth", "1"],
        &["search", "ttt", "--moves", "a1 a2 b1 b2 c1"],
        &["search", "marbles(n=2)", "--moves", "2"],
    ] {
        let (code, out, err) = run(args, None);
        assert_ne!(code, 0, "{args:?} should fail: {out}");
        let err = err.trim();
        assert!(err.starts_with("error:"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line expected: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn binary_play_in_the_terminal() {
    // Two humans: an illegal move, a malformed one, the move list, an undo, then X wins along rank 1.
    let script = "a1\na1\nzz\nmoves\na2\nundo\na2\nb1\nb2\nc1\n";
    let (code, out, err) = run(&["play", "ttt", "--human", "both"], Some(script));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("taken"), "{out}");
    assert!(out.contains("expected a square"), "{out}");
    assert!(out.contains("8 legal moves"), "{out}");
    assert!(out.contains("game over: X wins"), "{out}");
    assert!(out.contains("X to move> ") && out.contains("O to move> "), "{out}");

    // Engine against engine ends in every game.
    for game in ["tic_tac_toe", "marbles(n=15,k=4)", "connect_four(rows=4,columns=5)", "marbles(n=9,misere=true)"] {
        let (code, out, err) = run(&["play", game, "--human", "none", "--engine", "alphabeta(depth=3)"], Some(""));
        assert_eq!(code, 0, "{game}: {err}");
        assert!(out.contains("game over"), "{game}: {out}");
    }

    // Connect Four against the engine: the human plays column 4 then quits.
    let (code, out, err) =
        run(&["play", "c4", "--human", "first", "--engine", "alphabeta(depth=2)"], Some("4\n9\nquit\n"));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("expected a column number 1..=7"), "{out}");
    assert!(out.contains("O (alphabeta(depth=2)) plays"), "{out}");
}
