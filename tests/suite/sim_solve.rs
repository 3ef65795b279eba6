//! Exact values of simultaneous-move games (`plateau solve` on `breakthrough(...,moves=simultaneous)` and
//! `matching_pennies`): the solver (backward induction, a matrix game solved by linear programming at every state)
//! against an independent brute force written here, on the smallest boards: the same backward induction, but each
//! matrix game solved exactly by enumerating its square submatrices (Shapley and Snow's kernels: some optimal pair of
//! strategies equalises the payoffs on a square submatrix; every candidate is checked against every row and column).

use std::collections::HashMap;
use std::process::Command;

use crate::common::BIN;
use plateau::game::Game;
use plateau::game::{FullGame, MoveList, Side};
use plateau::games::AnyGame;
use plateau::games::breakthrough::simultaneous::SimBreakthrough;
use plateau::games::matching_pennies::MatchingPennies;
use plateau::solve::simultaneous::{SimSolver, payoff};
use rand::SeedableRng;
use rand::rngs::SmallRng;

const EPS: f64 = 1e-7;

fn game(text: &str) -> SimBreakthrough {
    match AnyGame::parse(text) {
        Ok(AnyGame::BreakthroughSimultaneous(g)) => g,
        other => panic!("{text}: {other:?}"),
    }
}

/// Solve `A x = b` (n x n, row-major) by Gaussian elimination with partial pivoting; `None` if singular.
fn linear_solve(mut a: Vec<f64>, mut b: Vec<f64>, n: usize) -> Option<Vec<f64>> {
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x * n + col].abs().total_cmp(&a[y * n + col].abs()))?;
        if a[pivot * n + col].abs() < 1e-12 {
            return None;
        }
        for k in 0..n {
            a.swap(col * n + k, pivot * n + k);
        }
        b.swap(col, pivot);
        for r in 0..n {
            if r != col {
                let f = a[r * n + col] / a[col * n + col];
                for k in 0..n {
                    a[r * n + k] -= f * a[col * n + k];
                }
                b[r] -= f * b[col];
            }
        }
    }
    Some((0..n).map(|i| b[i] / a[i * n + i]).collect())
}

/// The strategy on `support` (of size k) that makes the opponent indifferent over `against`, and the value:
/// sum_{i in support} x_i m(i, j) = v for j in against, sum x_i = 1.
fn equalise(m: &dyn Fn(usize, usize) -> f64, support: &[usize], against: &[usize]) -> Option<(Vec<f64>, f64)> {
    let k = support.len();
    let n = k + 1;
    let mut a = vec![0.0; n * n];
    let mut b = vec![0.0; n];
    for (r, &j) in against.iter().enumerate() {
        for (c, &i) in support.iter().enumerate() {
            a[r * n + c] = m(i, j);
        }
        a[r * n + k] = -1.0;
    }
    for c in 0..k {
        a[k * n + c] = 1.0;
    }
    b[k] = 1.0;
    let z = linear_solve(a, b, n)?;
    Some((z[..k].to_vec(), z[k]))
}

fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    (0u32..1 << n)
        .filter(|s| s.count_ones() as usize == k)
        .map(|s| (0..n).filter(|i| s >> i & 1 == 1).collect())
        .collect()
}

/// The value of the zero-sum matrix game `a` (rows x cols, payoffs to the row player) by kernel enumeration.
fn brute_value(a: &[f64], rows: usize, cols: usize) -> f64 {
    let at = |i: usize, j: usize| a[i * cols + j];
    let tr = |j: usize, i: usize| at(i, j);
    for k in 1..=rows.min(cols) {
        for r in subsets(rows, k) {
            for c in subsets(cols, k) {
                let Some((x, v)) = equalise(&at, &r, &c) else { continue };
                let Some((y, w)) = equalise(&tr, &c, &r) else { continue };
                if (v - w).abs() > EPS || x.iter().chain(&y).any(|&p| p < -EPS) {
                    continue;
                }
                let row_ok = (0..cols).all(|j| r.iter().zip(&x).map(|(&i, p)| p * at(i, j)).sum::<f64>() >= v - EPS);
                let col_ok = (0..rows).all(|i| c.iter().zip(&y).map(|(&j, q)| q * at(i, j)).sum::<f64>() <= v + EPS);
                if row_ok && col_ok {
                    return v;
                }
            }
        }
    }
    panic!("no kernel found: a {rows}x{cols} game always has one");
}

/// Backward induction with the brute-force matrix games, memoised by the whole state.
fn brute<G: FullGame>(g: &G, s: &G::State, memo: &mut HashMap<G::State, f64>) -> f64 {
    if let Some(v) = payoff(g, s) {
        return v;
    }
    if let Some(&v) = memo.get(s) {
        return v;
    }
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    g.player_moves(s, Side::First, &mut a);
    g.player_moves(s, Side::Second, &mut b);
    let mut m = Vec::new();
    for &x in &a {
        for &y in &b {
            let mut c = *s;
            g.play_joint(&mut c, x, y);
            m.push(brute(g, &c, memo));
        }
    }
    let v = brute_value(&m, a.len(), b.len());
    memo.insert(*s, v);
    v
}

#[test]
fn the_brute_force_matrix_solver_knows_small_games() {
    assert!(brute_value(&[1.0, -1.0, -1.0, 1.0], 2, 2).abs() < 1e-9);
    assert!((brute_value(&[3.0, -1.0, -2.0, 1.0], 2, 2) - 1.0 / 7.0).abs() < 1e-9);
    assert!(brute_value(&[0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0], 3, 3).abs() < 1e-9);
    assert_eq!(brute_value(&[1.0, 2.0, 3.0, 0.0, 5.0, -1.0], 2, 3), 1.0);
}

#[test]
fn matching_pennies_is_worth_zero_with_half_and_half() {
    for rounds in [1, 3] {
        let g = MatchingPennies::new(rounds).unwrap();
        let root = SimSolver::new(&g).root(&g.start()).unwrap();
        assert!(root.value.abs() < EPS, "{rounds} rounds: {}", root.value);
        for (_, p) in root.first.iter().chain(&root.second) {
            assert!((p - 0.5).abs() < 1e-6, "{rounds} rounds: {root:?}");
        }
        assert!(brute(&g, &g.start(), &mut HashMap::new()).abs() < EPS);
    }
}

/// The solver and the brute force agree at the root and at every position of the first two turns; the root
/// strategies guarantee the value.
fn agree(text: &str) -> f64 {
    let g = game(text);
    let mut solver = SimSolver::new(&g);
    let mut memo = HashMap::new();
    let s = g.start();
    let root = solver.root(&s).unwrap();
    let v = brute(&g, &s, &mut memo);
    assert!((root.value - v).abs() < 1e-6, "{text}: LP {} brute force {v}", root.value);
    let x: Vec<f64> = root.first.iter().map(|p| p.1).collect();
    let y: Vec<f64> = root.second.iter().map(|p| p.1).collect();
    assert!((root.matrix.guarantee(&x) - v).abs() < 1e-6, "{text}: the first player's strategy");
    assert!((root.matrix.swapped().guarantee(&y) + v).abs() < 1e-6, "{text}: the second player's strategy");
    let mut seen = 0;
    for (t, &w) in memo.iter().filter(|(t, _)| t.repeats == 0) {
        let lp = solver.value(t).unwrap();
        assert!((lp - w).abs() < 1e-6, "{text}: {}: LP {lp} brute force {w}", g.format_position(t));
        seen += 1;
        if seen > 2000 {
            break;
        }
    }
    v
}

#[test]
fn lp_and_brute_force_agree_on_the_smallest_boards() {
    let v = agree("breakthrough(rows=3,columns=3,piece_rows=1,moves=simultaneous)");
    assert!((-1.0..=1.0).contains(&v));
    agree("breakthrough(rows=4,columns=3,piece_rows=1,moves=simultaneous)");
    agree("breakthrough(rows=3,columns=2,piece_rows=1,moves=simultaneous)");
    // The board is symmetric: with the same pieces mirrored, the first player's value is minus the second's, so a
    // symmetric start is worth 0.
    assert!(v.abs() < 1e-6, "3x3: {v}");
}

/// A position of 5x3 whose root needs mixed strategies (found by `a_mixed_root_is_found_by_random_play`).
pub const MIXED_5X3: &str = "2p/p2/2P/2P/1P1";

#[test]
fn a_mixed_root_is_found_by_random_play_and_solved_exactly() {
    let g = game("breakthrough(rows=5,columns=3,piece_rows=1,moves=simultaneous)");
    let mut solver = SimSolver::new(&g);
    let mut rng = SmallRng::seed_from_u64(1);
    let mut found = None;
    'games: for _ in 0..200 {
        let mut s = g.start();
        while !g.is_terminal(&s) {
            let r = solver.root(&s).unwrap();
            if r.first.iter().filter(|p| p.1 > 1e-6).count() > 1 {
                found = Some(s);
                break 'games;
            }
            plateau::game::playout::random_step(&g, &mut s, &mut rng);
        }
    }
    let s = found.expect("no mixed root in 200 random games");
    println!("mixed root: {}", g.format_position(&s));
    let root = solver.root(&s).unwrap();
    let v = brute(&g, &s, &mut HashMap::new());
    assert!((root.value - v).abs() < 1e-6, "LP {} brute force {v}", root.value);
    assert!(solver.mixed_nodes > 0);
    let m = g.parse_position(MIXED_5X3.trim()).unwrap();
    let r = solver.root(&m).unwrap();
    assert!(r.first.iter().filter(|p| p.1 > 1e-6).count() > 1, "{MIXED_5X3}: {r:?}");
    assert!((r.value - brute(&g, &m, &mut HashMap::new())).abs() < 1e-6);
}

#[test]
fn plateau_solve_prints_the_value_and_both_strategies() {
    let out = Command::new(BIN).args(["solve", "matching_pennies(rounds=2)", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(j["value"].as_f64().unwrap().abs() < 1e-6, "{j}");
    assert_eq!(j["result"], "mixed");
    assert_eq!(j["strategy_first"].as_array().unwrap().len(), 2, "{j}");
    assert!((j["strategy_second"][0]["probability"].as_f64().unwrap() - 0.5).abs() < 1e-6, "{j}");
    let out = Command::new(BIN)
        .args(["solve", "breakthrough(rows=3,columns=3,piece_rows=1,moves=simultaneous)", "--moves", "a1a2/c3c2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("value") && text.contains("White"), "{text}");
}
