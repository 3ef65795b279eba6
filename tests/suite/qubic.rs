//! Qubic (3D tic-tac-toe, 4x4x4 and 3x3x3): the rules against a naive implementation written here (lines found as
//! sets of cells whose three coordinates each run constant, up or down, an independent derivation from the rules'
//! direction walk), perft from the start (the falling factorial until a line can be made) and from random positions,
//! the generic property checks on random playouts, the symmetries keeping perft and outcomes, notation round trips,
//! malformed input, the engine finding wins and blocks, and the solver's knowledge of a position and of all its
//! children at once (`tactics`, `child_tactics`) against the separate tests.

use std::collections::HashSet;

use plateau::check::check_playouts;
use plateau::game::Capabilities;
use plateau::game::{Game, Knowledge, MoveClass, MoveList, Outcome, Side, Tactics, perft};
use plateau::games::qubic::{Qubic, QubicState, geometry};
use plateau::players;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::common::{one_line_error, plateau, stdout};

/// Lines the naive way: for each axis a coordinate function constant `c`, `t` or `n-1-t`, not all constant; a line
/// and its reverse are the same set.
fn naive_lines(n: usize) -> Vec<Vec<usize>> {
    let mut funcs: Vec<Box<dyn Fn(usize) -> usize>> = Vec::new();
    for c in 0..n {
        funcs.push(Box::new(move |_| c));
    }
    funcs.push(Box::new(|t| t));
    funcs.push(Box::new(move |t| n - 1 - t));
    let mut set = HashSet::new();
    for fx in 0..funcs.len() {
        for fy in 0..funcs.len() {
            for fz in 0..funcs.len() {
                if fx < n && fy < n && fz < n {
                    continue;
                }
                let mut cells: Vec<usize> =
                    (0..n).map(|t| funcs[fz](t) * n * n + funcs[fy](t) * n + funcs[fx](t)).collect();
                cells.sort();
                set.insert(cells);
            }
        }
    }
    set.into_iter().collect()
}

/// A naive position: one byte per cell (0 empty, 1 X, 2 O) and whose turn.
#[derive(Clone)]
struct Naive {
    n: usize,
    cells: Vec<u8>,
    turn: u8,
    lines: std::rc::Rc<Vec<Vec<usize>>>,
}

impl Naive {
    fn won(&self, who: u8) -> bool {
        self.lines.iter().any(|l| l.iter().all(|&c| self.cells[c] == who))
    }
    fn over(&self) -> bool {
        self.won(1) || self.won(2) || self.cells.iter().all(|&c| c != 0)
    }
    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over() {
            return 0;
        }
        let mut total = 0;
        for c in 0..self.n * self.n * self.n {
            if self.cells[c] == 0 {
                self.cells[c] = self.turn;
                self.turn = 3 - self.turn;
                total += self.perft(depth - 1);
                self.turn = 3 - self.turn;
                self.cells[c] = 0;
            }
        }
        total
    }
}

fn naive_of(g: &Qubic, s: &QubicState, lines: &std::rc::Rc<Vec<Vec<usize>>>) -> Naive {
    let n = g.n as usize;
    let cells = (0..n * n * n)
        .map(|c| {
            if s.x >> c & 1 == 1 {
                1
            } else if s.o >> c & 1 == 1 {
                2
            } else {
                0
            }
        })
        .collect();
    Naive { n, cells, turn: if s.stm == Side::First { 1 } else { 2 }, lines: lines.clone() }
}

/// A random position `plies` moves into a game that has not ended.
fn random_position(g: &Qubic, rng: &mut SmallRng, plies: usize) -> QubicState {
    loop {
        let mut s = g.start();
        let mut moves = MoveList::new();
        for _ in 0..plies {
            g.generate_moves(&s, &mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            g.play(&mut s, m);
        }
        if g.outcome(&s).is_none() {
            return s;
        }
    }
}

#[test]
fn the_lines_are_the_naive_ones() {
    for n in [3u32, 4] {
        let ours: HashSet<u64> = geometry::lines(n).into_iter().collect();
        let naive: HashSet<u64> =
            naive_lines(n as usize).iter().map(|l| l.iter().fold(0u64, |m, &c| m | 1 << c)).collect();
        assert_eq!(ours, naive, "size {n}");
    }
    assert_eq!(naive_lines(4).len(), 76);
}

#[test]
fn perft_from_the_start_is_the_falling_factorial_until_a_line_can_be_made() {
    // Nobody can hold four in a row before X's fourth stone (ply 7 on 4x4x4; ply 5 on 3x3x3).
    let g = Qubic::new(4);
    for (depth, nodes) in [(1, 64u64), (2, 64 * 63), (3, 64 * 63 * 62)] {
        assert_eq!(perft(&g, &g.start(), depth), nodes, "qubic depth {depth}");
    }
    let g3 = Qubic::new(3);
    assert_eq!(perft(&g3, &g3.start(), 4), 27 * 26 * 25 * 24);
    // 3x3x3 at depth 6: the naive count (the games X won at ply 5 stop there).
    let lines = std::rc::Rc::new(naive_lines(3));
    let mut naive = naive_of(&g3, &g3.start(), &lines);
    let expected = naive.perft(6);
    assert!(expected < 27 * 26 * 25 * 24 * 23 * 22, "some games end at ply 5");
    assert_eq!(perft(&g3, &g3.start(), 6), expected);
}

#[test]
fn perft_from_random_positions_equals_the_naive_count() {
    let mut rng = SmallRng::seed_from_u64(7);
    for (n, plies, depth, count) in [(3u32, 8, 4, 12), (4, 20, 3, 8), (4, 30, 3, 8)] {
        let g = Qubic::new(n);
        let lines = std::rc::Rc::new(naive_lines(n as usize));
        for _ in 0..count {
            let s = random_position(&g, &mut rng, plies);
            let mut naive = naive_of(&g, &s, &lines);
            assert_eq!(perft(&g, &s, depth), naive.perft(depth), "{}", g.format_position(&s));
        }
    }
}

#[test]
fn outcomes_equal_the_naive_rules_on_random_games() {
    let mut rng = SmallRng::seed_from_u64(11);
    for n in [3u32, 4] {
        let g = Qubic::new(n);
        let lines = std::rc::Rc::new(naive_lines(n as usize));
        for _ in 0..200 {
            let mut s = g.start();
            let mut moves = MoveList::new();
            loop {
                let naive = naive_of(&g, &s, &lines);
                let mover = if s.stm == Side::First { 2 } else { 1 };
                let expected = if naive.won(mover) {
                    Some(Outcome::Loss)
                } else if naive.over() {
                    Some(Outcome::Draw)
                } else {
                    None
                };
                assert_eq!(g.outcome(&s), expected, "{}", g.format_position(&s));
                g.generate_moves(&s, &mut moves);
                if moves.is_empty() {
                    break;
                }
                g.play(&mut s, moves[rng.random_range(0..moves.len())]);
            }
        }
    }
}

/// The threats (`winning_cells`, computed by shifts of bitboards per direction) and the whole lines (`outcome`) equal
/// the naive rule over the naive lines, on arbitrary boards (not only positions a game reaches: any two disjoint
/// sets of cells, from nearly empty to nearly full; for `outcome`, those where the side to move has no line, the
/// others not being positions of the game).
#[test]
fn threats_and_lines_equal_the_naive_rule_on_arbitrary_boards() {
    let mut rng = SmallRng::seed_from_u64(17);
    for n in [3u32, 4] {
        let g = Qubic::new(n);
        let lines: Vec<u64> = naive_lines(n as usize).iter().map(|l| l.iter().fold(0u64, |m, &c| m | 1 << c)).collect();
        let cells = n * n * n;
        let mut positions = 0;
        for i in 0..4000 {
            let (mut own, mut opp) = (0u64, 0u64);
            let fill = 1 + i % (cells as usize - 1);
            for c in 0..cells {
                if rng.random_range(0..cells as usize) < fill {
                    if rng.random_range(0..2) == 0 { own |= 1 << c } else { opp |= 1 << c }
                }
            }
            let naive: u64 = lines
                .iter()
                .filter(|&&l| l & opp == 0 && (l & own).count_ones() == n - 1)
                .fold(0, |m, &l| m | l & !own);
            assert_eq!(g.winning_cells(own, opp), naive, "size {n}, own {own:#x}, opp {opp:#x}");
            // The side that just moved (O here, X to move) owns `opp`: a line of it ends the game.
            let s = QubicState { x: own, o: opp, stm: Side::First, key: 0 };
            let whole = |b: u64| lines.iter().any(|&l| l & !b == 0);
            if whole(own) {
                continue;
            }
            positions += 1;
            let expected = if whole(opp) {
                Some(Outcome::Loss)
            } else if own | opp == g.full() {
                Some(Outcome::Draw)
            } else {
                None
            };
            assert_eq!(g.outcome(&s), expected, "size {n}, own {own:#x}, opp {opp:#x}");
        }
        assert!(positions > 1000, "size {n}: {positions} boards were positions");
    }
}

/// `tactics` (over, a win in one, what the threats force, each test done once) equals `outcome`, `has_winning_move`
/// and `forced` asked in turn, and `child_tactics` (from the parent's threats, updated by each move) equals `tactics`
/// of every child, on arbitrary boards of both sizes where the side to move has no line (positions of the game);
/// `move_class` is the naive rule, `retain_threats` (bitboards) keeps the moves of class threat, `defences` the
/// moves that defend a cell.
#[test]
fn tactics_and_child_tactics_equal_the_separate_tests_on_arbitrary_boards() {
    let mut rng = SmallRng::seed_from_u64(29);
    for n in [3u32, 4] {
        let g = Qubic::new(n);
        let cells = n * n * n;
        let separate = |s: &QubicState| match g.outcome(s) {
            Some(o) => Tactics::Over(o),
            None if g.has_winning_move(s) => Tactics::WinInOne,
            None => Tactics::Forced(g.forced(s)),
        };
        let mut seen = HashSet::new();
        for i in 0..4000 {
            let (mut x, mut o) = (0u64, 0u64);
            let fill = 1 + i % (cells as usize - 1);
            for c in 0..cells {
                if rng.random_range(0..cells as usize) < fill {
                    if rng.random_range(0..2) == 0 { x |= 1 << c } else { o |= 1 << c }
                }
            }
            let stm = if i % 2 == 0 { Side::First } else { Side::Second };
            let s = QubicState { x, o, stm, key: 0 };
            let (own, _) = s.own_opp();
            if g.lines().iter().any(|&l| l & !own == 0) {
                continue;
            }
            let t = g.tactics(&s);
            assert_eq!(t, separate(&s), "size {n}: {}", g.format_position(&s));
            seen.insert(format!("{t:?}"));
            if g.outcome(&s).is_some() {
                continue;
            }
            let mut moves = MoveList::new();
            g.generate_moves(&s, &mut moves);
            let mut after = arrayvec::ArrayVec::new();
            g.child_tactics(&s, &moves, &mut after);
            assert_eq!(after.len(), moves.len());
            for (&m, &a) in moves.iter().zip(&after) {
                let mut c = s;
                g.play(&mut c, m);
                assert_eq!(a, separate(&c), "size {n}: {} after {}", g.format_position(&s), g.format_move(&s, m));
                seen.insert(format!("{a:?}"));
                // The class of the move by the naive rule: a whole line, else a line free of the opponent with one
                // cell missing.
                let (own, opp) = s.own_opp();
                let after = own | 1 << m;
                let through = || g.lines().iter().filter(|&&l| l >> m & 1 == 1);
                let naive = if through().any(|&l| l & !after == 0) {
                    MoveClass::Win
                } else if through().any(|&l| l & opp == 0 && (l & after).count_ones() == n - 1) {
                    MoveClass::Threat
                } else {
                    MoveClass::Quiet
                };
                assert_eq!(g.move_class(&s, m), naive, "size {n}: {} move {m}", g.format_position(&s));
            }
            // The threats at once (bitboards) are the moves of class Threat; the defences of a cell are the moves
            // that defend it.
            let mut threats = moves.clone();
            g.retain_threats(&s, &mut threats);
            let by_class: Vec<u8> =
                moves.iter().copied().filter(|&m| g.move_class(&s, m) == MoveClass::Threat).collect();
            assert_eq!(threats.to_vec(), by_class, "size {n}: {}", g.format_position(&s));
            let target = rng.random_range(0..cells);
            let mut defences = MoveList::new();
            g.defences(&s, target, &mut defences);
            let defending: Vec<u8> = moves.iter().copied().filter(|&m| g.defends(m, target)).collect();
            assert_eq!(defences.to_vec(), defending, "size {n}: {} target {target}", g.format_position(&s));
        }
        // Every kind of answer was met (a draw needs a full cube: not on arbitrary boards).
        for kind in ["Over(Loss)", "WinInOne", "Forced(Free)", "Forced(Lost)"] {
            assert!(seen.contains(kind), "size {n}: no {kind} among {seen:?}");
        }
        assert!(seen.iter().any(|k| k.starts_with("Forced(Defend")), "size {n}");
    }
}

#[test]
fn property_checks_on_random_playouts() {
    for n in [3u32, 4] {
        let g = Qubic::new(n);
        let names: Vec<String> = (0..n * n * n).map(|c| g.format_move(&g.start(), c as u8)).collect();
        check_playouts(&g, &g.start(), n as u64, 40, &names, (n * n * n) as usize).expect("qubic properties");
    }
}

#[test]
fn symmetries_keep_outcomes_threats_and_perft() {
    let g = Qubic::new(4);
    let maps = geometry::symmetries(4);
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..6 {
        let s = random_position(&g, &mut rng, 24);
        let base = perft(&g, &s, 2);
        for map in maps.iter().step_by(13) {
            let mut t = QubicState { x: geometry::apply(map, s.x), o: geometry::apply(map, s.o), stm: s.stm, key: 0 };
            t.key = g.compute_key(&t);
            assert_eq!(g.outcome(&t), g.outcome(&s));
            assert_eq!(perft(&g, &t, 2), base);
            let (own, opp) = s.own_opp();
            let (town, topp) = t.own_opp();
            assert_eq!(g.winning_cells(town, topp), geometry::apply(map, g.winning_cells(own, opp)));
        }
    }
}

#[test]
fn notation_round_trips_and_bad_input_is_refused() {
    let g = Qubic::new(4);
    let s = g.play_moves(&g.start(), "1a1 2b2 4d4 3c3").unwrap();
    let text = g.format_position(&s);
    assert_eq!(text, "4/4/4/X3|4/4/1O2/4|4/2O1/4/4|3X/4/4/4 x");
    assert_eq!(g.parse_position(&text).unwrap(), s);
    assert_eq!(g.parse_position("4/4/4/4|4/4/4/4|4/4/4/4|4/4/4/4 x").unwrap(), g.start());
    for (bad, says) in [
        ("5a1", "expected a cell 1a1..4d4"),
        ("1e1", "expected a cell"),
        ("1a", "expected a cell"),
        ("1a1", "taken by X"),
    ] {
        let e = g.parse_move(&s, bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    for (bad, says) in [
        ("4/4/4/4|4/4/4/4|4/4/4/4 x", "3 layers given"),
        ("4/4/4/X3|4/4/4/4|4/4/4/4|4/4/4/4 x", "impossible counts"),
        ("4/4/4/OOOO|4/4/4/XXX1|4/4/4/X3|4/4/4/3X o", "has a line but is to move"),
        ("4/4/4/4|4/4/4/4|4/4/4/4|4/4/4/4 z", "expected x or o"),
        ("4/4/4/4|4/4/4/4|4/4/4/4|4/4/4/5 x", "layer 4"),
    ] {
        let e = g.parse_position(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    assert!(Qubic::new(3).parse_move(&Qubic::new(3).start(), "3c3").is_ok());
}

#[test]
fn the_engine_wins_in_one_and_blocks() {
    let g = Qubic::new(4);
    // X holds 1a1 1b1 1c1 and must complete the row; O to block.
    let s = g.play_moves(&g.start(), "1a1 4d4 1b1 4c4 1c1").unwrap();
    let mut o = players::build::<Qubic>("alphabeta(depth=2)").unwrap();
    let choice = o.choose(&g, players::Context::position(&g, &s)).unwrap();
    assert_eq!(g.format_move(&s, choice.mv), "1d1", "O must block");
    let s = g.play_moves(&g.start(), "1a1 4d4 1b1 4c4 1c1 2b2").unwrap();
    let mut x = players::build::<Qubic>("engine(depth=3)").unwrap();
    let choice = x.choose(&g, players::Context::position(&g, &s)).unwrap();
    assert_eq!(g.format_move(&s, choice.mv), "1d1", "X completes its row");
}

#[test]
fn the_command_line_plays_and_refuses_bad_sizes() {
    let out = stdout(&plateau(&["perft", "qubic", "--depth", "2"]));
    assert!(out.contains("4032"), "{out}");
    let out = stdout(&plateau(&[
        "match",
        "qubic(size=3)",
        "--player",
        "engine(depth=2)",
        "--player",
        "random",
        "--games",
        "2",
        "--seed",
        "1",
    ]));
    assert!(out.contains("engine"), "{out}");
    let e = one_line_error(&plateau(&["perft", "qubic(size=5)", "--depth", "1"]));
    assert!(e.contains("size"), "{e}");
}

#[test]
fn the_solver_proves_the_small_cube_a_first_player_win() {
    // 3x3x3 tic-tac-toe is a well-known first-player win (the centre lies on 13 of the 49 lines).
    let v = crate::common::json(&plateau(&["solve", "qubic(size=3)", "--json"]));
    assert_eq!(v["result"], "win", "{v}");
}
