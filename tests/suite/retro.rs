//! Retrograde analysis and its database: values and distances against the alpha-beta solver
//! (`solve::generic`, strong mode) on every position of tic-tac-toe and of small boards, the reference values of
//! `tests/data/reference/solved.json`, the database file (round trip, truncated / corrupt / wrong-game files, a write
//! that fails midway), and the command line.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::common::plateau;
use plateau::game::{Capabilities, Game};
use plateau::game::{FullGame, MoveList, Outcome};
use plateau::games::{AnyGame, Breakthrough, ConnectFour, Marbles, TicTacToe};
use plateau::solve::db::{self, Db};
use plateau::solve::generic::GenericSolver;
use plateau::solve::retro::{self, RetroOptions, Solution, Value};
use plateau::spec::Spec;

fn game<G: FullGame>(text: &str, f: impl Fn(&Spec) -> Result<G, plateau::game::GameError>) -> G {
    f(&Spec::parse(text).unwrap()).unwrap()
}

fn bt(text: &str) -> Breakthrough {
    game(text, Breakthrough::from_spec)
}

/// Removes a file (and any temporary file of its writes) when dropped.
struct Cleanup(PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        for t in plateau::files::temporaries_of(&self.0) {
            let _ = std::fs::remove_file(t);
        }
    }
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plateau-retro-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Every position reachable from the start, by a separate traversal.
fn all_positions<G: FullGame>(g: &G) -> Vec<G::State> {
    let mut seen = HashSet::new();
    let mut stack = vec![g.start()];
    seen.insert(g.start());
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    while let Some(s) = stack.pop() {
        out.push(s);
        if g.is_terminal(&s) {
            continue;
        }
        g.generate_moves(&s, &mut moves);
        for &m in &moves {
            let mut c = s;
            g.play(&mut c, m);
            if seen.insert(c) {
                stack.push(c);
            }
        }
    }
    out
}

fn expected_by_alphabeta<G: FullGame>(g: &G, solver: &mut GenericSolver<G>, s: &G::State) -> (Value, u32) {
    match g.outcome(s) {
        Some(o) => (
            match o {
                Outcome::Win => Value::Win,
                Outcome::Loss => Value::Loss,
                _ => Value::Draw,
            },
            0,
        ),
        None => {
            let r = solver.solve(g, s);
            match r.outcome {
                Outcome::Win => (Value::Win, r.plies.unwrap()),
                Outcome::Loss => (Value::Loss, r.plies.unwrap()),
                _ => (Value::Draw, 0),
            }
        }
    }
}

/// The retrograde value of every position (or of `sample` random ones) equals the alpha-beta solver's.
fn compare_with_alphabeta<G: FullGame>(g: &G, sample: Option<usize>) -> Solution {
    let sol = retro::analyse(g, &g.start(), &RetroOptions::default()).unwrap();
    let mut positions = all_positions(g);
    assert_eq!(positions.len(), sol.len(), "{}: position count", g.spec());
    if let Some(k) = sample {
        let mut rng = SmallRng::seed_from_u64(7);
        for i in 0..k.min(positions.len()) {
            let j = rng.random_range(i..positions.len());
            positions.swap(i, j);
        }
        positions.truncate(k);
    }
    let mut solver = GenericSolver::<G>::new(4, false);
    for s in &positions {
        let want = expected_by_alphabeta(g, &mut solver, s);
        assert_eq!(sol.get(g.key(s)), Some(want), "{}: {}", g.spec(), g.format_position(s));
    }
    sol
}

#[test]
fn tic_tac_toe_every_position_equals_alphabeta() {
    let g = TicTacToe;
    let sol = compare_with_alphabeta(&g, None);
    assert_eq!(sol.len(), 5478, "solved.json: distinct_positions_including_empty");
    assert_eq!(sol.get(sol.root_key), Some((Value::Draw, 0)), "solved.json: tic-tac-toe is a draw");
}

#[test]
fn marbles_every_position_equals_alphabeta_and_the_rule() {
    for (n, k, misere) in [(21, 3, false), (30, 4, true), (17, 2, false)] {
        let text = format!("marbles(n={n},k={k},misere={misere})");
        let g = game(&text, Marbles::from_spec);
        let sol = compare_with_alphabeta(&g, None);
        let (v, _) = sol.get(sol.root_key).unwrap();
        // solved.json: the side to move loses exactly when n % (k+1) == 0 (misère: == 1).
        let loses = if misere { n % (k + 1) == 1 } else { n % (k + 1) == 0 };
        assert_eq!(v == Value::Loss, loses, "{text}");
    }
}

#[test]
fn small_boards_equal_alphabeta() {
    compare_with_alphabeta(&bt("breakthrough(rows=4,columns=3,piece_rows=1)"), None);
    compare_with_alphabeta(&bt("breakthrough(rows=4,columns=4,piece_rows=1)"), Some(400));
    compare_with_alphabeta(&bt("breakthrough(rows=4,columns=3,piece_rows=1,misere=true)"), None);
    compare_with_alphabeta(&game("connect_four(rows=3,columns=4)", ConnectFour::from_spec), Some(400));
    compare_with_alphabeta(&game("connect_four(rows=4,columns=4)", ConnectFour::from_spec), Some(150));
}

/// The reference (`solved.json`): 4x3 and 4x4 with one row, first player wins; 4x4: only a1a2 and d1d2 win.
#[test]
fn breakthrough_reference_values() {
    let g = bt("breakthrough(rows=4,columns=3,piece_rows=1)");
    let sol = retro::analyse(&g, &g.start(), &RetroOptions::default()).unwrap();
    assert_eq!(sol.get(sol.root_key).unwrap().0, Value::Win);

    let g = bt("breakthrough(rows=4,columns=4,piece_rows=1)");
    let sol = retro::analyse(&g, &g.start(), &RetroOptions::default()).unwrap();
    let start = g.start();
    let ((v, _), _) = retro::best_moves(&g, &start, |k| sol.get(k)).unwrap();
    assert_eq!(v, Value::Win);
    let mut winning = Vec::new();
    let mut moves = MoveList::new();
    g.generate_moves(&start, &mut moves);
    for &m in &moves {
        let mut c = start;
        g.play(&mut c, m);
        if sol.get(g.key(&c)).unwrap().0 == Value::Loss {
            winning.push(g.format_move(&start, m));
        }
    }
    winning.sort();
    assert_eq!(winning, ["a1a2", "d1d2"]);
}

/// 5x4 with one row (first player wins) and, slower, with two rows (first player loses).
#[test]
fn breakthrough_5x4_one_row_reference() {
    let g = bt("breakthrough(rows=5,columns=4,piece_rows=1)");
    let sol = retro::analyse(&g, &g.start(), &RetroOptions::default()).unwrap();
    assert_eq!(sol.get(sol.root_key).unwrap().0, Value::Win);
}

/// Every position (not a sample) of two larger boards: `cargo test --release --test suite -- --ignored retro::every_position`.
#[test]
#[ignore = "every position of Breakthrough 4x4 and Connect Four 3x4: minutes"]
fn every_position_of_larger_boards_equals_alphabeta() {
    compare_with_alphabeta(&bt("breakthrough(rows=4,columns=4,piece_rows=1)"), None);
    compare_with_alphabeta(&game("connect_four(rows=3,columns=4)", ConnectFour::from_spec), None);
}

#[test]
fn memory_bound_stops_cleanly() {
    let g = bt("breakthrough(rows=5,columns=4,piece_rows=1)");
    let e = retro::analyse(&g, &g.start(), &RetroOptions { max_bytes: 1 << 20, progress: false, checkpoint: None })
        .unwrap_err();
    assert!(matches!(e, retro::RetroError::Memory { .. }), "{e}");
    assert!(e.to_string().contains("--max-memory"));
}

#[test]
fn analysis_from_a_given_position() {
    let g = TicTacToe;
    let s = g.play_moves(&g.start(), "b2 a1").unwrap();
    let sol = retro::analyse(&g, &s, &RetroOptions::default()).unwrap();
    assert_eq!(sol.root_key, g.key(&s));
    let full = retro::analyse(&g, &g.start(), &RetroOptions::default()).unwrap();
    assert!(sol.len() < full.len());
    for (k, e) in sol.keys.iter().zip(&sol.entries) {
        assert_eq!(full.get(*k), retro::unpack(*e));
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The database file

fn ttt_solution() -> Solution {
    retro::analyse(&TicTacToe, &TicTacToe.start(), &RetroOptions::default()).unwrap()
}

#[test]
fn database_round_trip() {
    let sol = ttt_solution();
    let path = tmp("round_trip.db");
    let _cleanup = Cleanup(path.clone());
    let bytes = db::save(&path, "tic_tac_toe", &sol).unwrap();
    assert!(plateau::files::temporaries_of(&path).is_empty());
    let d = Db::open_for(&path, "tic_tac_toe").unwrap();
    assert_eq!(d.bytes() as u64, bytes);
    assert_eq!(d.len(), 5478);
    assert_eq!(d.root_key(), sol.root_key);
    for (k, e) in sol.keys.iter().zip(&sol.entries) {
        assert_eq!(d.probe(*k), retro::unpack(*e));
    }
    // Keys that are not there.
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..2000 {
        let k: u64 = rng.random();
        assert_eq!(d.probe(k), sol.get(k));
    }
    assert_eq!(d.probe(0), sol.get(0)); // the empty tic-tac-toe board has key 0
    assert_eq!(d.probe(u64::MAX), sol.get(u64::MAX));
}

#[test]
fn database_errors_are_one_line() {
    let sol = ttt_solution();
    let path = tmp("errors.db");
    let _cleanup = Cleanup(path.clone());
    db::save(&path, "tic_tac_toe", &sol).unwrap();
    let good = std::fs::read(&path).unwrap();

    let wrong = Db::open_for(&path, "marbles").unwrap_err().to_string();
    assert!(wrong.contains("is for 'tic_tac_toe', not 'marbles'"), "{wrong}");

    let check = |bytes: &[u8], what: &str| {
        let p = tmp("bad.db");
        let _cleanup = Cleanup(p.clone());
        std::fs::write(&p, bytes).unwrap();
        let e = Db::open(&p).unwrap_err().to_string();
        assert!(e.contains(what), "{e}");
        assert!(!e.contains('\n'), "{e}");
    };
    check(&good[..good.len() - 1], "truncated");
    check(&good[..20], "truncated");
    check(&[], "truncated");
    let mut bad = good.clone();
    bad[good.len() - 3] ^= 0x10;
    check(&bad, "checksum");
    let mut bad = good.clone();
    bad[100] ^= 1;
    check(&bad, "checksum");
    let mut bad = good.clone();
    bad[0] = b'X';
    check(&bad, "bad magic");
    let mut bad = good.clone();
    bad[8] = 9;
    check(&bad, "version");
    let mut bad = good.clone();
    bad[16] = 0xff; // the position count
    check(&bad, "truncated or corrupt");
    let e = Db::open(Path::new("/nonexistent/x.db")).unwrap_err().to_string();
    assert!(e.contains("cannot open"), "{e}");
}

#[test]
fn every_header_byte_is_checked() {
    let sol = ttt_solution();
    let path = tmp("header.db");
    let _cleanup = Cleanup(path.clone());
    db::save(&path, "tic_tac_toe", &sol).unwrap();
    let good = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8], what: &str| {
        let p = tmp(&format!("header-{}.db", what.replace(' ', "-")));
        let _cleanup = Cleanup(p.clone());
        std::fs::write(&p, bytes).unwrap();
        let e = Db::open(&p).unwrap_err().to_string();
        assert!(e.contains(what) && !e.contains('\n'), "{what}: {e}");
    };
    // Every byte of the header but the checksum's own: a flipped bit is caught (the root key, bytes 24-31, was left
    // out of version 1's checksum).
    for i in (0..32).chain(40..48) {
        let mut bad = good.clone();
        bad[i] ^= 0x04;
        let p = tmp("flip.db");
        let _cleanup = Cleanup(p.clone());
        std::fs::write(&p, &bad).unwrap();
        assert!(Db::open(&p).is_err(), "a flipped bit at byte {i} is accepted");
    }
    let mut bad = good.clone();
    bad[24] ^= 1;
    refused(&bad, "checksum");
    // The checks behind the checksum, on files given a matching checksum: order of the keys, entry codes, zeros.
    let n = sol.keys.len();
    let keys_at = good.len() - 10 * n;
    let mut bad = good.clone();
    bad[keys_at..keys_at + 16].rotate_left(8);
    db::seal(&mut bad);
    refused(&bad, "keys do not increase");
    let mut bad = good.clone();
    let entry = keys_at + 8 * n + 2 * 7;
    bad[entry] |= 3;
    db::seal(&mut bad);
    refused(&bad, "entry 7 holds no valid value");
    let mut bad = good.clone();
    bad[45] = 1;
    db::seal(&mut bad);
    refused(&bad, "reserved bytes");
    let mut old = good.clone();
    old[8] = 1;
    refused(&old, "version 1");
    let mut sealed = good.clone();
    db::seal(&mut sealed);
    assert_eq!(sealed, good, "seal gives the checksum the writer stored");
}

/// A writer that fails after `left` bytes.
struct FailAfter<W> {
    inner: W,
    left: usize,
}

impl<W: Write> Write for FailAfter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Err(std::io::Error::other("simulated failure (disk full)"));
        }
        let n = buf.len().min(self.left);
        self.left -= n;
        self.inner.write(&buf[..n])
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[test]
fn interrupted_write_leaves_no_file_and_keeps_the_old_one() {
    let sol = ttt_solution();
    let path = tmp("interrupted.db");
    let _cleanup = Cleanup(path.clone());
    let _ = std::fs::remove_file(&path);
    let e = db::save_with(&path, "tic_tac_toe", &sol, |f| FailAfter { inner: f, left: 30_000 }).unwrap_err();
    assert!(e.to_string().contains("simulated failure"), "{e}");
    assert!(!path.exists(), "no FILE after a failed write");
    assert!(plateau::files::temporaries_of(&path).is_empty(), "the temporary file is removed");

    // An existing database survives a failed rewrite.
    db::save(&path, "tic_tac_toe", &sol).unwrap();
    let before = std::fs::read(&path).unwrap();
    let small =
        retro::analyse(&TicTacToe, &TicTacToe.play_moves(&TicTacToe.start(), "a1").unwrap(), &RetroOptions::default())
            .unwrap();
    assert!(db::save_with(&path, "tic_tac_toe", &small, |f| FailAfter { inner: f, left: 100 }).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), before);
    Db::open(&path).unwrap();
}

// ---------------------------------------------------------------------------------------------------------------
// Command line

#[test]
fn command_line_build_query_search_engine() {
    let path = tmp("cli_ttt.db");
    let _cleanup = Cleanup(path.clone());
    let p = path.to_str().unwrap();
    let out = plateau(&["solve", "tic_tac_toe", "--method", "retro", "--db", p, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["positions"], 5478);
    assert_eq!(v["result"], "draw");
    assert_eq!((v["winner_text"].as_str(), v["proven"].as_bool()), (Some("neither player wins"), Some(true)));

    // X in a corner, O on an edge: X wins (a known losing reply for O).
    let out = plateau(&["solve", "tic_tac_toe", "--db", p, "--moves", "a1 b1", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"], "win");
    // The answer in the course's words: O moved last, X (the first player, to move) wins.
    assert_eq!(v["winner_text"], "X, the first player, wins");
    let g = TicTacToe;
    let s = g.play_moves(&g.start(), "a1 b1").unwrap();
    let want = GenericSolver::<TicTacToe>::new(1, false).solve(&g, &s);
    assert_eq!(v["plies"], want.plies.unwrap());
    assert!(!v["best_moves"].as_array().unwrap().is_empty());

    let out = plateau(&["search", "tic_tac_toe", "--db", p, "--moves", "a1 b1", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["value_text"], format!("win in {}", want.plies.unwrap()));

    // Wrong game: one line, non-zero exit.
    let out = plateau(&["solve", "marbles", "--db", p]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is for 'tic_tac_toe'") && err.trim().lines().count() == 1, "{err}");
}

#[test]
fn engine_probes_the_database() {
    let path = tmp("engine_marbles.db");
    let _cleanup = Cleanup(path.clone());
    let p = path.to_str().unwrap();
    let g = "marbles(n=40,k=3)";
    let out = plateau(&["solve", g, "--method", "retro", "--db", p]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // 40 is a loss for the side to move; 39 wins in one line of play by taking 3.
    let algo = format!("engine(depth=2,db={p})");
    let out = plateau(&["search", g, "--algo", &algo, "--moves", "1", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let any = AnyGame::parse(g).unwrap();
    let AnyGame::Marbles(m) = any else { panic!() };
    let s = m.play_moves(&m.start(), "1").unwrap();
    let want = GenericSolver::<Marbles>::new(1, false).solve(&m, &s);
    assert_eq!(v["value_text"], format!("win in {}", want.plies.unwrap()), "{v}");
    assert_eq!(v["best_move"], m.format_move(&s, want.best_move.unwrap()));
}
