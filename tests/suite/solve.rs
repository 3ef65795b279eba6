//! Solving: the Connect Four solver against Pascal Pons's benchmark files (a sample here; every position in the
//! ignored test `all_benchmark_positions`), brute-force cross-checks on small boards, the generic solver on known
//! results (tic-tac-toe, marbles, small Breakthrough boards), and the `plateau solve` command line.
//!
//! The benchmark files are read from `$CARGO_MANIFEST_DIR/tests/data/benchmarks/connect4/`: copies of the project's
//! shared benchmark set, AGPL-3.0 data not covered by this crate's licence (see the README there).
//!
//! Every position of the six files (6000, about an hour on one core):
//! `cargo test --release --test suite -- --ignored solve::all_benchmark_positions --nocapture`

use std::path::PathBuf;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::common::plateau_text;
use plateau::game::{Capabilities, Interop, Knowledge};
use plateau::game::{Evaluator, Game, GameError, MoveList, Outcome, Side, err, zobrist};
use plateau::games::Breakthrough;
use plateau::games::ConnectFour;
use plateau::games::connect_four::{Position, Shape, Standard};
use plateau::solve::connect4::{self, Solver};
use plateau::solve::generic::GenericSolver;
use plateau::spec::Spec;

// ---------------------------------------------------------------------------------------------------------------
// Connect Four: benchmark files

const FILES: [&str; 6] = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"];

/// The committed benchmark files; a missing file fails the test that reads it (`read_benchmark`).
fn benchmark_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/benchmarks/connect4")
}

/// (line number, moves, expected score) of every line of a benchmark file.
fn read_benchmark(name: &str) -> Vec<(usize, String, i32)> {
    let path = benchmark_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let rows: Vec<(usize, String, i32)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let (m, s) = l.split_once(' ').unwrap_or_else(|| panic!("{name} line {}: '{l}'", i + 1));
            (i + 1, m.to_string(), s.trim().parse().unwrap_or_else(|_| panic!("{name} line {}: '{l}'", i + 1)))
        })
        .collect();
    assert_eq!(rows.len(), 1000, "{name} should have 1000 positions");
    rows
}

/// The sample solved in the normal test run: the first 50 lines of the four easier files; for Begin-Medium and
/// Begin-Hard, the positions that our solver settled with the fewest nodes in a `plateau solve c4 --batch FILE
/// --json` run (Begin-Hard: among its first 100 lines), so that the whole sample runs in seconds. The expected scores
/// are always read from the files.
fn sample_lines(name: &str) -> Vec<usize> {
    match name {
        // The first 50 lines: fast enough in these sets.
        "Test_L3_R1" | "Test_L2_R1" | "Test_L2_R2" | "Test_L1_R1" => (1..=50).collect(),
        other => SAMPLES
            .iter()
            .find(|(n, _)| *n == other)
            .map(|(_, lines)| lines.to_vec())
            .unwrap_or_else(|| panic!("no sample for {other}")),
    }
}

const SAMPLES: [(&str, &[usize]); 2] = [("Test_L1_R2", &SAMPLE_L1_R2), ("Test_L1_R3", &SAMPLE_L1_R3)];

include!("../data/c4_samples.rs");

fn check_file(name: &str, lines: &[usize]) {
    let rows = read_benchmark(name);
    let mut solver = Solver::with_table(Standard, 20);
    let mut bad = Vec::new();
    for &n in lines {
        let (line, moves, expected) = &rows[n - 1];
        let p = Position::from_moves(&Standard, moves).unwrap_or_else(|e| panic!("{name} line {line}: {e}"));
        let s = solver.solve(&p, false);
        if s.score != *expected {
            bad.push(format!("{name} line {line} {moves}: expected {expected}, got {}", s.score));
        }
        let weak = solver.solve(&p, true);
        if weak.score != expected.signum() {
            bad.push(format!("{name} line {line} {moves}: weak: expected {}, got {}", expected.signum(), weak.score));
        }
    }
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn benchmark_sample_end_easy() {
    check_file("Test_L3_R1", &sample_lines("Test_L3_R1"));
}

#[test]
fn benchmark_sample_middle_easy() {
    check_file("Test_L2_R1", &sample_lines("Test_L2_R1"));
}

#[test]
fn benchmark_sample_middle_medium() {
    check_file("Test_L2_R2", &sample_lines("Test_L2_R2"));
}

#[test]
fn benchmark_sample_begin_easy() {
    check_file("Test_L1_R1", &sample_lines("Test_L1_R1"));
}

#[test]
fn benchmark_sample_begin_medium() {
    check_file("Test_L1_R2", &sample_lines("Test_L1_R2"));
}

#[test]
fn benchmark_sample_begin_hard() {
    check_file("Test_L1_R3", &sample_lines("Test_L1_R3"));
}

/// All 6000 positions (slow: run with `--release`, see the module documentation).
#[test]
#[ignore]
fn all_benchmark_positions() {
    for name in FILES {
        let start = std::time::Instant::now();
        check_file(name, &(1..=1000).collect::<Vec<_>>());
        eprintln!("{name}: 1000 positions, {:.1} s", start.elapsed().as_secs_f64());
    }
}

/// The claimeven bound (on by default) keeps every score and saves nodes: the first 100 lines of Middle-Medium and
/// the Begin-Medium sample, solved with the bound off and on (`--nocapture` prints the node totals and the seconds,
/// in this build's profile).
#[test]
fn claimeven_keeps_every_score_and_saves_nodes() {
    let (nodes, cpu) = switch_off_on(&medium_rows(), 20, |s, on| s.set_claimeven(on));
    eprintln!("claimeven off, on: nodes {nodes:?}, CPU seconds {cpu:?}");
    assert!(nodes[1] < nodes[0], "the claimeven bound saves nodes: {nodes:?}");
}

/// The rows of the switch comparisons: the first 100 Middle-Medium positions and the Begin-Medium sample.
fn medium_rows() -> Vec<(String, i32)> {
    let medium = read_benchmark("Test_L1_R2");
    let mut rows = first_rows("Test_L2_R2", 100);
    rows.extend(sample_lines("Test_L1_R2").iter().map(|&n| (medium[n - 1].1.clone(), medium[n - 1].2)));
    rows
}

/// CPU seconds of the calling thread (Linux's per-thread clock): the measure of the switch comparisons below,
/// whatever else shares the machine.
fn thread_cpu() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// The first `n` lines of a benchmark file as (moves, expected score).
fn first_rows(name: &str, n: usize) -> Vec<(String, i32)> {
    read_benchmark(name).into_iter().take(n).map(|(_, moves, score)| (moves, score)).collect()
}

/// Solves `rows` twice in this process with a table of `2^log2` entries, first after `set(solver, false)`, then after
/// `set(solver, true)`, asserting every score both ways; returns the node totals and the thread's CPU seconds
/// [off, on].
fn switch_off_on(rows: &[(String, i32)], log2: u32, set: impl Fn(&mut Solver<Standard>, bool)) -> ([u64; 2], [f64; 2]) {
    let mut nodes = [0u64; 2];
    let mut seconds = [0f64; 2];
    for on in [false, true] {
        let mut solver = Solver::with_table(Standard, log2);
        set(&mut solver, on);
        let start = thread_cpu();
        for (moves, expected) in rows {
            let p = Position::from_moves(&Standard, moves).unwrap();
            let s = solver.solve(&p, false);
            assert_eq!(s.score, *expected, "{moves} (switch {on})");
            nodes[on as usize] += s.nodes;
        }
        seconds[on as usize] = thread_cpu() - start;
    }
    (nodes, seconds)
}

/// The static pre-check of children and the forced replies played through (both on by default) keep every score
/// and save nodes: the first 100 Middle-Medium positions and the Begin-Medium sample, both off then both on.
#[test]
fn precheck_and_forced_replies_keep_every_score_and_save_nodes() {
    let (nodes, cpu) = switch_off_on(&medium_rows(), 20, |s, on| {
        s.set_precheck(on);
        s.set_forced_through(on);
    });
    eprintln!("pre-check and forced replies off, on: nodes {nodes:?}, CPU seconds {cpu:?}");
    assert!(nodes[1] < nodes[0], "the pre-check and the forced replies save nodes: {nodes:?}");
}

/// The bound after the pre-check, the ordering by threats and the forced chains (all on by default) keep every score
/// and save nodes: the first 100 Middle-Medium positions and the Begin-Medium sample, all three off then on.
#[test]
fn later_win_bound_ordering_and_chains_keep_every_score_and_save_nodes() {
    let (nodes, cpu) = switch_off_on(&medium_rows(), 20, |s, on| {
        s.set_later_win_bound(on);
        s.set_threat_ordering(on);
        s.set_forced_chains(on);
    });
    eprintln!("later-win bound, ordering, chains off, on: nodes {nodes:?}, CPU seconds {cpu:?}");
    assert!(nodes[1] < nodes[0], "the three save nodes: {nodes:?}");
}

/// Sets the switches named in `names` (comma-separated: noprecheck, noforced, mirror, noclaimeven, nochains,
/// nolaterwin, noordering, probes;
/// the others keep their defaults).
fn set_switches(s: &mut Solver<Standard>, names: &str) {
    for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        match name {
            "noprecheck" => s.set_precheck(false),
            "noforced" => s.set_forced_through(false),
            "mirror" => s.set_symmetry_below(64),
            "noclaimeven" => s.set_claimeven(false),
            "nochains" => s.set_forced_chains(false),
            "nolaterwin" => s.set_later_win_bound(false),
            "noordering" => s.set_threat_ordering(false),
            "probes" => s.set_guided_probes(true),
            "noprobes" => s.set_guided_probes(false),
            "noprefetch" => s.set_prefetch(false),
            // etcN: transposition cut-offs at nodes with fewer than cells - N stones (default 12).
            other => match other.strip_prefix("etc").and_then(|n| n.parse::<u32>().ok()) {
                Some(n) => s.set_etc_below(Standard.cells() - n),
                None => panic!("unknown switch '{other}'"),
            },
        }
    }
}

/// Measures two sets of switches against each other (`C4_OFF`, `C4_ON`: comma-separated names, see `set_switches`;
/// `C4_FILES`: `file:n` items, default the first 100 Middle-Medium, 20 Begin-Medium and 6 Begin-Hard positions;
/// `empty:1` is the empty board), default table (128 MiB), in one process. A measuring tool, run by hand
/// (docs/solving.md, "Speed against Steininger's solver"):
/// `C4_OFF=noprecheck,noforced C4_ON= cargo test --test suite -- --ignored solve::measure_switches --nocapture`
#[test]
#[ignore]
fn measure_switches() {
    let off = std::env::var("C4_OFF").unwrap_or_default();
    let on = std::env::var("C4_ON").expect("C4_ON: the switches to measure (comma-separated, may be empty)");
    let files = std::env::var("C4_FILES").unwrap_or_else(|_| "Test_L2_R2:100,Test_L1_R2:20,Test_L1_R3:6".into());
    for item in files.split(',') {
        let (file, n) = item.split_once(':').expect("C4_FILES items are file:n (empty:1: the empty board)");
        let n: usize = n.parse().expect("C4_FILES: n is a number");
        let rows = if file == "empty" { vec![(String::new(), 1)] } else { first_rows(file, n) };
        let (nodes, cpu) = switch_off_on(&rows, 23, |s, which| set_switches(s, if which { &on } else { &off }));
        eprintln!(
            "[{off}] -> [{on}]: {file} first {n}: nodes {} -> {} ({:+.1}%), CPU {:.2} s -> {:.2} s ({:+.1}%)",
            nodes[0],
            nodes[1],
            100.0 * (nodes[1] as f64 / nodes[0] as f64 - 1.0),
            cpu[0],
            cpu[1],
            100.0 * (cpu[1] / cpu[0] - 1.0)
        );
    }
}

/// The empty 7x6 board scores +1 (the first player wins with the last stone of the board, `solved.json`) and only
/// the centre column keeps it. With the claimeven bound, 731 M nodes and 108 s of CPU with a 128 MiB table (before
/// it, 1.18e9 nodes and 210 to 235 s with 4 GiB; docs/solving.md) on this project's machine:
/// `cargo test --release --test suite -- --ignored solve::empty_board --nocapture`
#[test]
#[ignore]
fn empty_board_scores_plus_one() {
    let mut solver = Solver::with_table(Standard, 28);
    let s = solver.solve(&Position::from_moves(&Standard, "").unwrap(), false);
    eprintln!("empty 7x6 board: score {}, best column {:?}, {} nodes", s.score, s.best_move.map(|c| c + 1), s.nodes);
    assert_eq!(s.score, 1);
    assert_eq!(s.best_move, Some(3));
}

#[test]
fn tutorial_examples_and_best_moves() {
    let mut solver = Solver::with_table(Standard, 20);
    let p = Position::from_moves(&Standard, "4455").unwrap();
    let s = solver.solve(&p, false);
    assert_eq!(s.score, 18);
    // Columns 3 and 6 both complete four at once.
    assert!(matches!(s.best_move, Some(2) | Some(5)), "{:?}", s.best_move);
    let p = Position::from_moves(&Standard, "44455554221").unwrap();
    assert_eq!(solver.solve(&p, false).score, -15);
}

// ---------------------------------------------------------------------------------------------------------------
// Connect Four: brute force on small boards

/// Pons's score by plain negamax over every move (no pruning, no table): only for small boards.
fn brute_force<S: Shape>(g: &S, p: &Position) -> i32 {
    let cells = g.cells() as i32;
    if p.can_win_next(g) {
        return (cells + 1 - p.plies as i32) / 2;
    }
    if p.plies as i32 >= cells {
        return 0;
    }
    let mut best = -1000;
    for c in 0..g.columns() {
        if p.can_play(g, c) {
            let mut child = *p;
            child.play_column(g, c);
            best = best.max(-brute_force(g, &child));
        }
    }
    best
}

fn random_position<S: Shape>(g: &S, stones: u32, rng: &mut SmallRng) -> Option<Position> {
    let mut p = Position::empty();
    for _ in 0..stones {
        let cols: Vec<u32> = (0..g.columns()).filter(|&c| p.can_play(g, c) && !p.is_winning_column(g, c)).collect();
        if cols.is_empty() {
            return None;
        }
        p.play_column(g, cols[rng.random_range(0..cols.len())]);
    }
    Some(p)
}

fn cross_check(g: ConnectFour, min_stones: u32, count: usize, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut solver = Solver::with_table(g, 16);
    let mut checked = 0;
    let mut signs = [0usize; 3];
    while checked < count {
        let stones = rng.random_range(min_stones..g.cells() - 1);
        let Some(p) = random_position(&g, stones, &mut rng) else { continue };
        let want = brute_force(&g, &p);
        let s = solver.solve(&p, false);
        assert_eq!(s.score, want, "{}x{} position {:?}", g.columns(), g.rows(), p);
        assert_eq!(solver.solve(&p, true).score, want.signum(), "weak {:?}", p);
        // The best move keeps the score: the child is worth -score (or the move wins at once).
        let c = s.best_move.expect("a move");
        assert!(p.can_play(&g, c));
        if !p.is_winning_column(&g, c) {
            let mut child = p;
            child.play_column(&g, c);
            assert_eq!(-brute_force(&g, &child), want, "best move {c} of {:?}", p);
        }
        signs[(want.signum() + 1) as usize] += 1;
        checked += 1;
    }
    assert!(signs.iter().filter(|&&n| n > 0).count() >= 2, "varied results: {signs:?}");
}

#[test]
fn small_boards_match_brute_force() {
    // (rows, columns)
    cross_check(connect4::board(4, 4).unwrap(), 2, 150, 1);
    cross_check(connect4::board(4, 5).unwrap(), 8, 100, 2);
    cross_check(connect4::board(5, 4).unwrap(), 8, 100, 3);
    cross_check(connect4::board(6, 7).unwrap(), 30, 60, 4);
}

#[test]
fn runtime_geometry_agrees_with_the_compile_time_one() {
    let mut rng = SmallRng::seed_from_u64(9);
    let mut a = Solver::with_table(Standard, 16);
    let mut b = Solver::with_table(ConnectFour::default(), 16);
    for _ in 0..40 {
        let Some(p) = random_position(&Standard, rng.random_range(18..30), &mut rng) else { continue };
        let (x, y) = (a.solve(&p, false), b.solve(&p, false));
        assert_eq!((x.score, x.nodes), (y.score, y.nodes));
    }
}

#[test]
fn board_limits() {
    // (rows, columns)
    assert!(connect4::board(6, 7).is_ok());
    assert!(connect4::board(7, 8).is_ok());
    assert!(connect4::board(7, 9).is_err(), "9 x 8 bits > 64");
    assert!(connect4::board(6, 0).is_err());
}

// ---------------------------------------------------------------------------------------------------------------
// Generic solver: small games defined here (the registry's own tic-tac-toe and marbles live in other branches)

/// No heuristic.
#[derive(Clone, Copy, Debug, Default)]
struct Zero;

/// Take 1..=k marbles from n; taking the last one wins (loses if misère).
#[derive(Clone, Debug)]
struct Marbles {
    n: u32,
    k: u32,
    misere: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Heap {
    left: u32,
    second: bool,
}

impl Evaluator<Marbles> for Zero {
    type Carry = ();

    fn evaluate(&self, _: &Marbles, _: &Heap) -> i32 {
        0
    }
}

impl Game for Marbles {
    type State = Heap;

    type Move = u32;

    fn spec(&self) -> String {
        format!("marbles(n={},k={},misere={})", self.n, self.k, self.misere)
    }

    fn start(&self) -> Heap {
        Heap { left: self.n, second: false }
    }

    fn side_to_move(&self, s: &Heap) -> Side {
        if s.second { Side::Second } else { Side::First }
    }

    fn generate_moves(&self, s: &Heap, moves: &mut MoveList<u32>) {
        moves.clear();
        if s.left > 0 {
            moves.extend(1..=self.k.min(s.left));
        }
    }

    fn play(&self, s: &mut Heap, mv: u32) {
        s.left -= mv;
        s.second = !s.second;
    }

    fn outcome(&self, s: &Heap) -> Option<Outcome> {
        // The previous player took the last marble.
        (s.left == 0).then_some(if self.misere { Outcome::Win } else { Outcome::Loss })
    }

    fn key(&self, s: &Heap) -> u64 {
        self.compute_key(s)
    }

    fn compute_key(&self, s: &Heap) -> u64 {
        zobrist::key(s.left as usize % 1000) ^ if s.second { zobrist::key(zobrist::SIDE) } else { 0 }
    }

    fn parse_move(&self, s: &Heap, text: &str) -> Result<u32, GameError> {
        match text.parse::<u32>() {
            Ok(m) if m >= 1 && m <= self.k.min(s.left) => Ok(m),
            _ => err(format!("'{text}' is not a legal take")),
        }
    }

    fn format_move(&self, _: &Heap, mv: u32) -> String {
        mv.to_string()
    }

    fn parse_position(&self, text: &str) -> Result<Heap, GameError> {
        text.parse().map(|left| Heap { left, second: false }).map_err(|_| GameError::new("a number"))
    }

    fn format_position(&self, s: &Heap) -> String {
        s.left.to_string()
    }

    fn display(&self, s: &Heap) -> String {
        s.left.to_string()
    }
}

impl Capabilities for Marbles {}

impl Knowledge for Marbles {
    type Eval = Zero;
}

impl Interop for Marbles {}

/// Tic-tac-toe on 9-bit boards.
#[derive(Clone, Debug)]
struct TicTacToe;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Ttt {
    /// Stones of the side to move, of the other side.
    mine: u16,
    theirs: u16,
}

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

impl Evaluator<TicTacToe> for Zero {
    type Carry = ();

    fn evaluate(&self, _: &TicTacToe, _: &Ttt) -> i32 {
        0
    }
}

impl Game for TicTacToe {
    type State = Ttt;

    type Move = u8;

    fn spec(&self) -> String {
        "tic_tac_toe".into()
    }

    fn start(&self) -> Ttt {
        Ttt { mine: 0, theirs: 0 }
    }

    fn side_to_move(&self, s: &Ttt) -> Side {
        if (s.mine | s.theirs).count_ones().is_multiple_of(2) { Side::First } else { Side::Second }
    }

    fn generate_moves(&self, s: &Ttt, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.outcome(s).is_none() {
            moves.extend((0..9u8).filter(|&i| (s.mine | s.theirs) & (1 << i) == 0));
        }
    }

    fn play(&self, s: &mut Ttt, mv: u8) {
        *s = Ttt { mine: s.theirs, theirs: s.mine | (1 << mv) };
    }

    fn outcome(&self, s: &Ttt) -> Option<Outcome> {
        if LINES.iter().any(|&l| l & !s.theirs == 0) {
            Some(Outcome::Loss)
        } else if (s.mine | s.theirs) == 0o777 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn key(&self, s: &Ttt) -> u64 {
        self.compute_key(s)
    }

    fn compute_key(&self, s: &Ttt) -> u64 {
        (0..9).fold(0, |k, i| {
            k ^ if s.mine & (1 << i) != 0 { zobrist::key(i) } else { 0 }
                ^ if s.theirs & (1 << i) != 0 { zobrist::key(9 + i) } else { 0 }
        })
    }

    fn parse_move(&self, _: &Ttt, text: &str) -> Result<u8, GameError> {
        text.parse().map_err(|_| GameError::new("0..8"))
    }

    fn format_move(&self, _: &Ttt, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_position(&self, _: &str) -> Result<Ttt, GameError> {
        err("not supported")
    }

    fn format_position(&self, s: &Ttt) -> String {
        format!("{:?}", s)
    }

    fn display(&self, s: &Ttt) -> String {
        format!("{:?}", s)
    }
}

impl Capabilities for TicTacToe {}

impl Knowledge for TicTacToe {
    type Eval = Zero;
}

impl Interop for TicTacToe {}

#[test]
fn tic_tac_toe_is_a_draw() {
    let g = TicTacToe;
    for weak in [false, true] {
        let r = GenericSolver::new(4, weak).solve(&g, &g.start());
        assert_eq!(r.outcome, Outcome::Draw, "weak={weak}");
        assert!(r.best_move.is_some());
    }
    // X in a corner, O on an edge next to it: X wins (strong: in 5 more plies at best).
    let mut s = g.start();
    g.play(&mut s, 0);
    g.play(&mut s, 1);
    let r = GenericSolver::new(4, false).solve(&g, &s);
    assert_eq!(r.outcome, Outcome::Win);
    assert_eq!(r.plies, Some(5));
}

#[test]
fn marbles_loses_exactly_on_multiples() {
    for k in 1..=5 {
        for n in 1..=40 {
            for misere in [false, true] {
                let g = Marbles { n, k, misere };
                let r = GenericSolver::new(1, false).solve(&g, &g.start());
                let loses = if misere { n % (k + 1) == 1 } else { n % (k + 1) == 0 };
                assert_eq!(r.outcome, if loses { Outcome::Loss } else { Outcome::Win }, "{}", g.spec());
                let w = GenericSolver::new(1, true).solve(&g, &g.start());
                assert_eq!(w.outcome, r.outcome, "weak {}", g.spec());
                if !loses && !misere {
                    // The winning take leaves a multiple of k+1.
                    assert_eq!((n - r.best_move.unwrap()) % (k + 1), 0, "{}", g.spec());
                    // The winner takes at most k each turn: the game lasts at least ceil(n/k) plies.
                    assert!(r.plies.unwrap() >= n.div_ceil(k));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Breakthrough (tests/data/reference/solved.json)

fn bt(text: &str) -> Breakthrough {
    Breakthrough::from_spec(&Spec::parse(text).unwrap()).unwrap()
}

/// The first moves that win, by solving every child.
fn winning_first_moves(g: &Breakthrough) -> Vec<String> {
    let s = g.start();
    let mut moves = MoveList::new();
    g.generate_moves(&s, &mut moves);
    let mut out = Vec::new();
    for &m in &moves {
        let mut c = s;
        g.play(&mut c, m);
        if g.outcome(&c) == Some(Outcome::Loss) || GenericSolver::new(16, true).solve(g, &c).outcome == Outcome::Loss {
            out.push(g.format_move(&s, m));
        }
    }
    out.sort();
    out
}

#[test]
fn breakthrough_small_boards_one_row() {
    for (spec, result) in [
        ("breakthrough(rows=4,columns=3,piece_rows=1)", Outcome::Win),
        ("breakthrough(rows=4,columns=4,piece_rows=1)", Outcome::Win),
        ("breakthrough(rows=5,columns=4,piece_rows=1)", Outcome::Win),
    ] {
        let g = bt(spec);
        let weak = GenericSolver::new(16, true).solve(&g, &g.start());
        assert_eq!(weak.outcome, result, "{spec}");
        let strong = GenericSolver::new(16, false).solve(&g, &g.start());
        assert_eq!(strong.outcome, result, "{spec} strong");
        assert_eq!(strong.plies.unwrap() % 2, 1, "a first-player win ends on an odd ply");
    }
    assert_eq!(winning_first_moves(&bt("breakthrough(rows=4,columns=4,piece_rows=1)")), vec!["a1a2", "d1d2"]);
}

/// 5x4 with two rows: the first player loses (about 10 s in release).
/// `cargo test --release --test suite -- --ignored solve::breakthrough_5x4`
#[test]
#[ignore]
fn breakthrough_5x4_two_rows() {
    let g = bt("breakthrough(rows=5,columns=4)");
    assert_eq!(GenericSolver::new(256, true).solve(&g, &g.start()).outcome, Outcome::Loss);
}

// ---------------------------------------------------------------------------------------------------------------
// Command line

fn temp_file(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("plateau-solve-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn cli_single_position() {
    for game in ["connect_four", "connect4", "c4", "connect_four(rows=6,columns=7)"] {
        let (ok, out, err) = plateau_text(&["solve", game, "--moves", "4455", "--json", "--tt", "16mb"]);
        assert!(ok, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["result"], "win");
        assert_eq!(v["score"], 18);
        assert!(v["best_move"] == "3" || v["best_move"] == "6", "{v}");
        assert!(v["nodes"].as_u64().is_some() && v["seconds"].as_f64().is_some());
    }
    let (ok, out, _) =
        plateau_text(&["solve", "c4", "--moves", "4 4 4 5 5 5 5 4 2 2 1", "--json", "--weak", "--tt", "16mb"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["result"].as_str(), v["score"].as_i64()), (Some("loss"), Some(-1)));
    let (ok, out, err) = plateau_text(&["solve", "c4", "--position", "44", "--moves", "5 5", "--json", "--tt", "16mb"]);
    assert!(ok, "{err}");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&out).unwrap()["score"], 18);
    let (ok, out, err) =
        plateau_text(&["solve", "breakthrough(rows=4,columns=3,piece_rows=1)", "--json", "--tt", "16mb"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["result"], "win");
    assert!(v["score"].as_i64().unwrap() > 0 && v["best_move"].is_string());
}

#[test]
fn cli_batch_reports_mismatches_and_means() {
    let f = temp_file("ok", "# comment\n4455 18\n\n44455554221 -15\n3344 \n");
    let (ok, out, err) = plateau_text(&["solve", "c4", "--batch", f.to_str().unwrap(), "--json", "--tt", "16mb"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["positions"], 3);
    assert_eq!(v["mismatches"], 0);
    assert!(v["mean_seconds"].as_f64().is_some() && v["mean_nodes"].as_f64().is_some());
    let results = v["results"].as_array().unwrap();
    assert_eq!(
        results.iter().map(|r| r["position"].as_str().unwrap()).collect::<Vec<_>>(),
        ["4455", "44455554221", "3344"]
    );
    assert_eq!(results[1]["score"], -15);
    for key in ["result", "score", "best_move", "nodes", "seconds"] {
        assert!(results.iter().all(|r| r.get(key).is_some()), "{key}");
    }

    let f = temp_file("wrong", "4455 17\n");
    let (ok, out, err) = plateau_text(&["solve", "c4", "--batch", f.to_str().unwrap(), "--json", "--tt", "16mb"]);
    assert!(!ok, "a mismatch fails the command");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["mismatches"], 1);
    assert!(err.contains("line 1"), "{err}");

    for (text, needle) in [
        ("4455 18\n448 1\n", "line 2"),
        ("4455 x\n", "line 1"),
        ("4455667 0\n", "four in a row"),
        ("12 3 4\n", "line 1"),
    ] {
        let f = temp_file("bad", text);
        let (ok, _, err) = plateau_text(&["solve", "c4", "--batch", f.to_str().unwrap(), "--tt", "16mb"]);
        assert!(!ok && err.contains(needle), "{text:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "one-line error: {err}");
    }
}

#[test]
fn cli_generic_batch() {
    // solved.json: 4x3 with one row is a first-player win; the expected score is the last word of a line.
    let f = temp_file("bt", "ppp/3/3/PPP w 1\nppp/3/3/PPP w\n");
    let game = "breakthrough(rows=4,columns=3,piece_rows=1)";
    let (ok, out, err) =
        plateau_text(&["solve", game, "--batch", f.to_str().unwrap(), "--weak", "--json", "--tt", "16mb"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["positions"].as_u64(), v["mismatches"].as_u64()), (Some(2), Some(0)));
    assert!(v["results"].as_array().unwrap().iter().all(|r| r["result"] == "win"));
    let f = temp_file("btbad", "ppp/3/3/PPP w 1\nppp/3/PPP w\n");
    let (ok, _, err) = plateau_text(&["solve", game, "--batch", f.to_str().unwrap(), "--tt", "16mb"]);
    assert!(!ok && err.contains("line 2"), "{err}");
}

#[test]
fn cli_rejects_bad_games_and_positions() {
    for args in [
        vec!["solve", "c4", "--moves", "4449"],
        vec!["solve", "c4(rows=9,columns=9)"],
        vec!["solve", "c4(depth=3)"],
        vec!["solve", "connect_four", "--moves", "4455667"],
        vec!["solve", "nosuchgame"],
    ] {
        let (ok, _, err) = plateau_text(&args);
        assert!(!ok && err.starts_with("error:"), "{args:?}: {err}");
    }
}
