//! Oware: the rules against OpenSpiel's `oware`, the property checks, errors, and the endgame databases against an
//! exhaustive minimax written here.
//!
//! - `tests/data/oware_openspiel.json` (made by `scripts/openspiel_oware.py` with OpenSpiel, an independent
//!   implementation): perft from the start of six board sizes; random games to the end with the legal moves and
//!   stores at every ply, the final stores, and perft(3) at a few plies;
//! - the generic property checks (`plateau::check`) on random playouts, seeds conserved, games end;
//! - malformed and illegal input;
//! - every board of the small levels: the database value equals a minimax over move sequences written here from the
//!   rules (its own sowing and capture), where a repetition of a board since the last capture ends the play with the
//!   remaining seeds split evenly (score 0), the database's cycle rule.

use std::path::PathBuf;

use plateau::check::check_playouts;
use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome, Side, perft};
use plateau::games::AnyGame;
use plateau::games::oware::db::Tables;
use plateau::games::oware::{Oware, OwareState};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde_json::Value;

fn reference() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/oware_openspiel.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

fn game(spec: &str) -> Oware {
    match AnyGame::parse(spec).expect("game string") {
        AnyGame::Oware(g) => g,
        other => panic!("{spec} is {other:?}"),
    }
}

#[test]
fn perft_from_the_start_matches_openspiel() {
    let r = reference();
    for entry in r["perft"].as_array().expect("perft") {
        let g = game(entry["game"].as_str().expect("game"));
        for (d, want) in entry["counts"].as_array().expect("counts").iter().enumerate() {
            assert_eq!(perft(&g, &g.start(), d as u32), want.as_u64().expect("count"), "{} depth {d}", g.spec());
        }
    }
}

fn legal_texts(g: &Oware, s: &OwareState) -> Vec<String> {
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    moves.iter().map(|&m| g.format_move(s, m)).collect()
}

#[test]
fn random_games_match_openspiel_move_by_move() {
    let r = reference();
    let games = r["games"].as_array().expect("games");
    assert!(games.len() >= 100);
    for (gi, entry) in games.iter().enumerate() {
        let g = game(entry["game"].as_str().expect("game"));
        let words: Vec<&str> = entry["moves"].as_str().expect("moves").split_whitespace().collect();
        let legal = entry["legal"].as_array().expect("legal");
        let stores = entry["stores"].as_array().expect("stores");
        let perfts = entry["perft3"].as_object().expect("perft3");
        let mut s = g.start();
        for (ply, word) in words.iter().enumerate() {
            let want: Vec<String> =
                legal[ply].as_array().expect("list").iter().map(|x| x.as_str().expect("move").to_string()).collect();
            assert_eq!(legal_texts(&g, &s), want, "game {gi} ply {ply}");
            let st: Vec<u64> = stores[ply].as_array().expect("stores").iter().map(|x| x.as_u64().expect("n")).collect();
            assert_eq!(vec![s.stores[0] as u64, s.stores[1] as u64], st, "game {gi} ply {ply}");
            if let Some(p) = perfts.get(&ply.to_string()) {
                assert_eq!(perft(&g, &s, 3), p.as_u64().expect("perft"), "game {gi} ply {ply} perft(3)");
            }
            let m = g.parse_move(&s, word).unwrap_or_else(|e| panic!("game {gi} ply {ply}: {e}"));
            g.play(&mut s, m);
        }
        assert!(g.is_terminal(&s), "game {gi}: OpenSpiel ended after {} plies", words.len());
        let fin: Vec<u64> =
            entry["final_stores"].as_array().expect("final").iter().map(|x| x.as_u64().expect("n")).collect();
        assert_eq!(vec![s.stores[0] as u64, s.stores[1] as u64], fin, "game {gi} final stores");
        let ret = entry["returns"][0].as_f64().expect("returns");
        let Some(Outcome::Value(v)) = g.outcome_for(&s, Side::First) else { panic!("game {gi}: no value") };
        assert_eq!((v.signum()) as f64, ret, "game {gi}: result for the first player");
    }
}

fn candidates() -> Vec<String> {
    let mut c: Vec<String> = ('A'..='I').chain('a'..='i').map(|x| x.to_string()).collect();
    c.extend(["", "1", "AB", "-"].iter().map(|s| s.to_string()));
    c
}

#[test]
fn property_checks_on_random_playouts() {
    for (h, k, games) in [(6, 4, 200), (3, 2, 200), (2, 3, 200), (1, 1, 20), (8, 12, 20), (5, 5, 60)] {
        let g = Oware::new(h, k).expect("rules");
        check_playouts(&g, &g.start(), (h * 100 + k) as u64, games, &candidates(), 5000)
            .unwrap_or_else(|e| panic!("{}: {e}", g.spec()));
    }
}

#[test]
fn seeds_are_conserved_and_games_end() {
    let mut rng = SmallRng::seed_from_u64(7);
    for (h, k) in [(6, 4), (4, 6), (3, 1), (2, 2)] {
        let g = Oware::new(h, k).expect("rules");
        for _ in 0..300 {
            let mut s = g.start();
            let mut plies = 0;
            while !g.is_terminal(&s) {
                let m = g.random_move(&s, &mut rng).expect("a move");
                let before = s.stores[s.stm.index()];
                g.play(&mut s, m);
                assert!(s.stores[s.stm.other().index()] >= before, "a store lost seeds");
                let total = g.board_seeds(&s) + s.stores[0] as u32 + s.stores[1] as u32;
                assert_eq!(total as usize, g.total(), "{}", g.format_position(&s));
                plies += 1;
                assert!(plies < 5000, "{}: no end", g.spec());
            }
            assert_eq!(g.board_seeds(&s), 0, "the end collects every seed");
            let Some(Outcome::Value(v)) = g.outcome(&s) else { panic!("no value") };
            let me = s.stores[s.stm.index()] as i32 - s.stores[s.stm.other().index()] as i32;
            assert_eq!(v, me);
        }
    }
}

#[test]
fn rules_by_example() {
    let g = Oware::default();
    // A house of 12 or more seeds skips its own house: 13 seeds from A go once round (11 houses) then into B and C.
    let s = g.parse_position("13,0,0,0,0,0/1,1,1,1,1,1 14 15 1").expect("position");
    let mut c = s;
    g.play(&mut c, 0);
    assert_eq!(g.format_position(&c).split(' ').next(), Some("0,2,2,1,1,1/2,2,2,2,2,2"));
    // Capture: F with 3 seeds ends on c (1 -> 2) after a (1->2) and b (1->2): a, b and c are captured.
    let s = g.parse_position("4,4,4,4,4,3/1,1,1,4,4,4 5 5 1").expect("position");
    let mut c = s;
    g.play(&mut c, 5);
    assert_eq!(g.format_position(&c), "4,4,4,4,4,0/0,0,0,4,4,4 11 5 2");
    // Grand slam: capturing every seed of the opponent captures nothing.
    let s = g.parse_position("1,0,0,0,0,3/1,1,1,0,0,0 19 22 1").expect("position");
    let mut c = s;
    g.play(&mut c, 5);
    assert_eq!(g.format_position(&c), "1,0,0,0,0,0/2,2,2,0,0,0 19 22 2");
    // Feeding: the opponent has no seed, only moves reaching it are legal.
    let s = g.parse_position("1,0,0,0,2,0/0,0,0,0,0,0 20 25 1").expect("position");
    assert!(g.is_terminal(&s), "more than half in a store ends the game");
    let s = g.parse_position("1,0,0,0,2,0/0,0,0,0,0,0 23 22 1").expect("position");
    assert_eq!(legal_texts(&g, &s), vec!["E"]);
    // No move can feed: the game ends and the mover takes its seeds.
    let s = g.parse_position("1,0,0,0,1,0/0,0,0,0,0,0 23 23 1").expect("position");
    assert!(g.is_terminal(&s));
    assert_eq!(g.outcome(&s), Some(Outcome::Value(2)));
}

#[test]
fn repetition_ends_the_game() {
    // One seed each: they chase each other round the board without capture until a position repeats.
    let g = Oware::new(2, 1).expect("rules");
    let mut s = g.parse_position("0,1/0,1 1 1 1").expect("position");
    let mut plies = 0;
    while !g.is_terminal(&s) {
        let mut moves = MoveList::new();
        g.generate_moves(&s, &mut moves);
        g.play(&mut s, moves[0]);
        plies += 1;
        assert!(plies < 100);
    }
    assert_eq!(g.board_seeds(&s), 0);
    assert_eq!(s.stores[0] + s.stores[1], 4);
}

#[test]
fn bad_input_is_a_one_line_error() {
    let g = Oware::default();
    let s = g.start();
    for (text, want) in [("G", "no such house"), ("a", "no such house"), ("AB", "letter of a house"), ("", "letter")] {
        let e = g.parse_move(&s, text).expect_err(text).to_string();
        assert!(e.contains(want) && !e.contains('\n'), "{text}: {e}");
    }
    let s = g.parse_position("0,4,4,4,4,4/4,4,4,4,4,4 4 0 1").expect("position");
    let e = g.parse_move(&s, "A").expect_err("empty").to_string();
    assert!(e.contains("empty"), "{e}");
    for (text, want) in [
        ("4,4,4,4,4,4/4,4,4,4,4,4 0 0", "expected"),
        ("4,4,4,4,4/4,4,4,4,4,4,4 0 0 1", "5 houses"),
        ("4,4,4,4,4,4/4,4,4,4,4,4 0 1 1", "make 49"),
        ("4,4,4,x,4,4/4,4,4,4,4,4 0 0 1", "not a number"),
        ("4,4,4,4,4,4/4,4,4,4,4,4 0 0 3", "side to move"),
        ("4,4,4,4,4,4 0 0 1", "two rows"),
    ] {
        let e = g.parse_position(text).expect_err(text).to_string();
        assert!(e.contains(want) && !e.contains('\n'), "{text}: {e}");
    }
    for spec in ["oware(houses=9)", "oware(seeds=0)", "oware(pits=6)"] {
        assert!(AnyGame::parse(spec).is_err(), "{spec}");
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The databases against an exhaustive minimax written here.

/// Minimax of the database's game on a board seen from the side to move (its houses `0..h`): the seeds the mover
/// gets from the board minus the opponent's; a board repeated since the last capture ends the play at 0.
fn minimax(h: usize, board: &[u8], path: &mut Vec<Vec<u8>>) -> i32 {
    let m = 2 * h;
    let opp: u32 = board[h..].iter().map(|&x| x as u32).sum();
    let mut best = i32::MIN;
    for house in 0..h {
        let k = board[house] as usize;
        if k == 0 || (opp == 0 && k < h - house) {
            continue;
        }
        let mut b = board.to_vec();
        b[house] = 0;
        let (mut pos, mut left) = (house, k);
        while left > 0 {
            pos = (pos + 1) % m;
            if pos != house {
                b[pos] += 1;
                left -= 1;
            }
        }
        let mut taken = 0u32;
        let mut i = pos;
        let mut cleared = Vec::new();
        while i >= h && (b[i] == 2 || b[i] == 3) {
            taken += b[i] as u32;
            cleared.push(i);
            i -= 1;
        }
        let opp_after: u32 = b[h..].iter().map(|&x| x as u32).sum();
        if taken == opp_after {
            taken = 0; // grand slam
        } else {
            for &c in &cleared {
                b[c] = 0;
            }
        }
        let child: Vec<u8> = b[h..].iter().chain(b[..h].iter()).copied().collect();
        let v = if taken > 0 {
            taken as i32 - minimax(h, &child, &mut vec![child.clone()])
        } else if path.contains(&child) {
            0
        } else {
            path.push(child.clone());
            let v = -minimax(h, &child, path);
            path.pop();
            v
        };
        best = best.max(v);
    }
    if best == i32::MIN {
        let mine: i32 = board[..h].iter().map(|&x| x as i32).sum();
        best = 2 * mine - board.iter().map(|&x| x as i32).sum::<i32>();
    }
    best
}

fn boards(m: usize, n: usize) -> Vec<Vec<u8>> {
    if m == 1 {
        return vec![vec![n as u8]];
    }
    let mut out = Vec::new();
    for c in 0..=n {
        for mut rest in boards(m - 1, n - c) {
            rest.insert(0, c as u8);
            out.push(rest);
        }
    }
    out
}

#[test]
fn database_values_equal_an_exhaustive_minimax() {
    for (h, max_n) in [(1, 6), (2, 5), (3, 3)] {
        let (t, _) = Tables::build(h, max_n, None, false).expect("build");
        let g = Oware::new(h, 12).expect("rules");
        let mut checked = 0;
        for n in 0..=max_n {
            for b in boards(2 * h, n) {
                let mut pits = [0u8; 16];
                pits[..2 * h].copy_from_slice(&b);
                let want = minimax(h, &b, &mut vec![b.clone()]);
                assert_eq!(t.value(&pits, n) as i32, want, "houses={h} board {b:?}");
                let a = (g.total() - n) / 2;
                let s = g.make_state(pits, [a as u8, (g.total() - n - a) as u8], Side::First);
                if g.board_seeds(&s) as usize == n {
                    // (a board where the mover is stuck is collected at once: not a position to probe)
                    assert_eq!(t.probe(&g, &s), Some(want));
                }
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked}");
    }
}

#[test]
fn database_files_resume_and_match_memory() {
    let dir = std::env::temp_dir().join(format!("plateau-oware-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let (mem, _) = Tables::build(3, 6, None, false).expect("memory");
    let (_, first) = Tables::build(3, 4, Some(&dir), false).expect("first run");
    assert!(first.iter().all(|r| r.built));
    let (disk, second) = Tables::build(3, 6, Some(&dir), false).expect("resumed");
    assert!(second[..=4].iter().all(|r| !r.built) && second[5..].iter().all(|r| r.built));
    for n in 0..=6 {
        for b in boards(6, n) {
            let mut pits = [0u8; 16];
            pits[..6].copy_from_slice(&b);
            assert_eq!(mem.value(&pits, n), disk.value(&pits, n));
        }
    }
    std::fs::write(dir.join("oware-h3-n2.db"), b"garbage").expect("write");
    assert!(Tables::build(3, 3, Some(&dir), false).is_err(), "a corrupt level is refused");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_truncated_and_old_database_levels_are_one_line_errors() {
    let dir = std::env::temp_dir().join(format!("plateau-oware-db-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    Tables::build(3, 3, Some(&dir), false).expect("built");
    let path = dir.join("oware-h3-n3.db");
    let good = std::fs::read(&path).expect("read");
    let refused = |bytes: &[u8], needle: &str| {
        std::fs::write(&path, bytes).expect("write");
        let e = Tables::build(3, 3, Some(&dir), false).map(|_| ()).expect_err("a bad level is refused").to_string();
        assert!(e.contains(needle) && e.contains("oware-h3-n3.db") && !e.contains('\n'), "{needle}: {e}");
    };
    // A flipped bit in a value, in the count of the header, in the reserved bytes; a cut file; a version 1 file.
    let mut bad = good.clone();
    *bad.last_mut().unwrap() ^= 1;
    refused(&bad, "checksum");
    let mut bad = good.clone();
    bad[24] ^= 1;
    refused(&bad, "wrong header");
    let mut bad = good.clone();
    bad[20] = 1;
    refused(&bad, "wrong header");
    refused(&good[..good.len() - 1], "truncated");
    refused(&good[..30], "wrong header");
    let mut old = good.clone();
    old[8] = 1;
    refused(&old, "version 1");
    std::fs::write(&path, &good).expect("write");
    assert!(Tables::build(3, 3, Some(&dir), false).is_ok(), "the good file still loads");
    let _ = std::fs::remove_dir_all(&dir);
}
