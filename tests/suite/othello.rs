//! Othello: perft against the published table and OpenSpiel, the property checks, rules details, the exact endgame
//! solver against a plain minimax and the FFO test positions, and bad input.
//!
//! - perft from the start against `tests/data/reference/perft.json` (depths 1-9, OpenSpiel and A. Bik's values) and
//!   the published depth 10 and 11 values, which count a finished game's two final passes (see `docs/othello.md`);
//! - `tests/data/othello/openspiel.json` (made by `scripts/othello_reference.py`): positions reached by OpenSpiel's
//!   moves, their text, legal moves and perft, and the results of whole games;
//! - `tests/data/othello/fforum-40-59.obf`, `fforum-20-39.obf`: Edax's copies of the FFO test positions #40-#59 and
//!   #20-#39 with their exact scores.

use std::path::PathBuf;
use std::process::Command;

use crate::common::BIN;
use plateau::check::check_playouts;
use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome, Side, perft};
use plateau::games::AnyGame;
use plateau::games::othello::{EndgameSolver, Othello, OthelloState, PASS};
use plateau::spec::Spec;
use serde_json::Value;

fn data(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

fn othello(text: &str) -> Othello {
    Othello::from_spec(&Spec::parse(text).unwrap()).unwrap()
}

#[test]
fn perft_matches_the_reference_table() {
    let g = Othello::default();
    let json: Value = serde_json::from_str(&data("reference/perft.json")).unwrap();
    let entry = json["entries"].as_array().unwrap().iter().find(|e| e["game"] == "othello").expect("othello entry");
    let table = entry["perft"].as_object().unwrap();
    assert!(table.len() >= 9);
    for (d, n) in table {
        assert_eq!(perft(&g, &g.start(), d.parse().unwrap()), n.as_u64().unwrap(), "depth {d}");
    }
}

/// Paths of exactly `depth` plies from `s` ending in a finished game.
fn finished(g: &Othello, s: &OthelloState, depth: u32) -> u64 {
    if g.is_terminal(s) {
        return u64::from(depth == 0);
    }
    if depth == 0 {
        return 0;
    }
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = *s;
            g.play(&mut c, m);
            finished(g, &c, depth - 1)
        })
        .sum()
}

/// The published values count the two passes that end a game as plies: a game over after `k` plies adds one path at
/// `k + 1` and one at `k + 2`. The shortest games last 9 plies, so only depths 10 and 11 differ from plateau's perft.
#[test]
fn perft_depth_10_matches_the_published_value_with_final_passes() {
    let g = Othello::default();
    let s = g.start();
    let ended_at_9 = finished(&g, &s, 9);
    assert!(ended_at_9 > 0);
    assert_eq!((1..9).map(|d| finished(&g, &s, d)).sum::<u64>(), 0, "no game ends before 9 plies");
    assert_eq!(perft(&g, &s, 10) + ended_at_9, 24_571_284);
}

#[test]
fn openspiel_positions_and_perft_match() {
    let g = Othello::default();
    let json: Value = serde_json::from_str(&data("othello/openspiel.json")).unwrap();
    let positions = json["positions"].as_array().unwrap();
    assert!(positions.len() >= 40);
    for p in positions {
        let s = g.play_moves(&g.start(), p["moves"].as_str().unwrap()).unwrap();
        assert_eq!(g.format_position(&s), p["position"].as_str().unwrap());
        assert_eq!(g.parse_position(p["position"].as_str().unwrap()).unwrap(), s);
        let mut moves = MoveList::new();
        g.generate_moves(&s, &mut moves);
        let mut names: Vec<String> = moves.iter().map(|&m| g.format_move(&s, m)).collect();
        names.sort();
        let want: Vec<String> = p["legal"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().into()).collect();
        assert_eq!(names, want, "{}", p["position"]);
        for (d, n) in p["perft"].as_object().unwrap() {
            assert_eq!(perft(&g, &s, d.parse().unwrap()), n.as_u64().unwrap(), "{} depth {d}", p["position"]);
        }
    }
    let mut passes = 0;
    for game in json["games"].as_array().unwrap() {
        let moves = game["moves"].as_str().unwrap();
        passes += moves.split_whitespace().filter(|&m| m == "pass").count();
        let s = g.play_moves(&g.start(), moves).unwrap();
        let want = match game["black_return"].as_f64().unwrap() {
            r if r > 0.0 => Outcome::Win,
            r if r < 0.0 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        assert_eq!(g.outcome_for(&s, Side::First), Some(want), "{moves}");
    }
    assert!(passes > 0, "the reference games include passes");
}

#[test]
fn property_checks_on_every_size() {
    let mut candidates: Vec<String> =
        (0..8).flat_map(|r| (0..8).map(move |c| format!("{}{}", (b'a' + c) as char, r + 1))).collect();
    candidates.extend(["pass".to_string(), "i1".into(), "a9".into(), "".into()]);
    for (size, games) in [(8, 30), (6, 60), (4, 200)] {
        let g = othello(&format!("othello(size={size})"));
        check_playouts(&g, &g.start(), size as u64, games, &candidates, 2 * size * size).expect("othello properties");
    }
}

/// The guided playout move (MCTS's `decisive=true`) on 8x8, along random games: always legal; a corner whenever one is
/// legal; otherwise never the X-square of an empty corner while another move is legal (the squares written out here,
/// not taken from the library).
#[test]
fn the_guided_playout_move_takes_corners_and_avoids_x_squares() {
    use plateau::game::Knowledge;
    use rand::{RngExt, SeedableRng};
    let g = Othello::default();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    // (corner, its X-square): a1 b2, h1 g2, a8 b7, h8 g7 (square = row * 8 + column, row 1 first).
    const PAIRS: [(u8, u8); 4] = [(0, 9), (7, 14), (56, 49), (63, 54)];
    let (mut corners_seen, mut avoided) = (0, 0);
    for _ in 0..40 {
        let mut s = g.start();
        while g.outcome(&s).is_none() {
            let mut legal = MoveList::new();
            g.generate_moves(&s, &mut legal);
            let (black, white) = Othello::colours(&s);
            let empty = |sq: u8| (black | white) & (1u64 << sq) == 0;
            let corner_legal = PAIRS.iter().any(|&(c, _)| legal.contains(&c));
            let risky = |m: u8| PAIRS.iter().any(|&(c, x)| m == x && empty(c));
            let safe_legal = legal.iter().any(|&m| !risky(m));
            for _ in 0..8 {
                let m = g.decisive_random_move(&s, &mut rng).expect("a move in a game not over");
                assert!(legal.contains(&m), "{m} not legal in {}", g.format_position(&s));
                if corner_legal {
                    assert!(PAIRS.iter().any(|&(c, _)| c == m), "a corner was legal in {}", g.format_position(&s));
                    corners_seen += 1;
                } else if safe_legal {
                    assert!(!risky(m), "{m}: an X-square of an empty corner in {}", g.format_position(&s));
                    avoided += legal.iter().any(|&m| risky(m)) as u32;
                }
            }
            g.play(&mut s, legal[rng.random_range(0..legal.len())]);
        }
        assert_eq!(g.decisive_random_move(&s, &mut rng), None, "the game is over");
    }
    assert!(corners_seen > 0 && avoided > 0, "both rules were exercised: {corners_seen} {avoided}");
}

#[test]
fn passes_are_moves_and_the_game_ends_when_nobody_can_move() {
    let g = Othello::default();
    // One empty square, h1: white cannot bracket from it, black can (h1 g2 f3 along the diagonal).
    let s = g.parse_position("xxxxxxx./xxxxxxox/xxxxxxxx/xxxoxxxx/xxxxoxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx o").unwrap();
    let mut moves = MoveList::new();
    g.generate_moves(&s, &mut moves);
    assert_eq!(moves.as_slice(), &[PASS]);
    assert_eq!(g.parse_move(&s, "pass").unwrap(), PASS);
    assert!(g.parse_move(&s, "h1").unwrap_err().0.contains("must pass"));
    let mut t = s;
    g.play(&mut t, PASS);
    assert_eq!(g.side_to_move(&t), Side::First);
    assert_eq!(g.key(&t), g.compute_key(&t));
    // A full board is over; the side with more discs wins, and the final score gives the empties to the winner.
    let full = g.parse_position("xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxoxxxx/xxxxoxxx/xxxxxxxx/xxxxxxxx/oooooooo o").unwrap();
    assert_eq!(g.outcome(&full), Some(Outcome::Loss));
    assert_eq!(g.final_score(&full), 10 - 54);
    let wiped = g.parse_position("......../......../......../...xx.../...xx.../......../......../........ o").unwrap();
    assert_eq!(g.outcome(&wiped), Some(Outcome::Loss));
    assert_eq!(g.final_score(&wiped), -64);
}

/// Plain negamax to the end, the empties to the winner.
fn minimax(g: &Othello, s: &OthelloState) -> i32 {
    if g.is_terminal(s) {
        return g.final_score(s);
    }
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = *s;
            g.play(&mut c, m);
            -minimax(g, &c)
        })
        .max()
        .unwrap()
}

#[test]
fn endgame_solver_equals_minimax() {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    let mut rng = SmallRng::seed_from_u64(40);
    for (size, empties) in [(8, 9), (6, 10), (4, 12)] {
        let g = othello(&format!("othello(size={size})"));
        let mut solver = EndgameSolver::new(4);
        let mut done = 0;
        while done < 12 {
            let mut s = g.start();
            while !g.is_terminal(&s) && g.empties(&s) > empties {
                let m = g.random_move(&s, &mut rng).unwrap();
                g.play(&mut s, m);
            }
            if g.is_terminal(&s) {
                continue;
            }
            let want = minimax(&g, &s);
            let got = solver.solve(&g.geo, s.own, s.opp, false);
            assert_eq!(got.score, want, "{}", g.format_position(&s));
            let best = got.best.unwrap();
            let mut c = s;
            g.play(&mut c, best);
            assert_eq!(-minimax(&g, &c), want, "best move {} of {}", g.format_move(&s, best), g.format_position(&s));
            let wld = EndgameSolver::without_table().solve(&g.geo, s.own, s.opp, true);
            assert_eq!(wld.score, want.signum());
            done += 1;
        }
    }
}

/// `(position, best score, best moves)` of FFO #40-#59.
fn ffo_positions() -> Vec<(String, i32, Vec<String>)> {
    ffo_file("othello/fforum-40-59.obf")
        .into_iter()
        .map(|(pos, scored)| {
            let (best, moves) = best_of(&scored);
            (pos, best, moves)
        })
        .collect()
}

/// The best score of a file's line and the moves that have it.
fn best_of(scored: &[(String, i32)]) -> (i32, Vec<String>) {
    let best = scored[0].1;
    (best, scored.iter().filter(|(_, v)| *v == best).map(|(m, _)| m.clone()).collect())
}

/// `(position, every move with its exact score)` of an FFO file: `POSITION SIDE; MOVE:+SCORE; ...`, best first.
fn ffo_file(name: &str) -> Vec<(String, Vec<(String, i32)>)> {
    data(name)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split(';').map(str::trim);
            let pos = parts.next().unwrap().to_string();
            let scored: Vec<(String, i32)> = parts
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (m, v) = p.split_once(':').unwrap();
                    (m.to_ascii_lowercase(), v.parse().unwrap())
                })
                .collect();
            (pos, scored)
        })
        .collect()
}

/// FFO #20-#22 (6, 15 and 17 empties): the exact score of every legal move, as Edax's file lists them (solved
/// after the move, from the opponent's side), and the solve of the position.
#[test]
fn ffo_20_to_22_every_move_scores_as_in_the_suite() {
    let g = Othello::default();
    let all = ffo_file("othello/fforum-20-39.obf");
    assert_eq!(all.len(), 20);
    let mut solver = EndgameSolver::new(64);
    for (pos, scored) in &all[..3] {
        let s = g.parse_position(pos).unwrap();
        let mut moves = MoveList::new();
        g.generate_moves(&s, &mut moves);
        assert_eq!(moves.len(), scored.len(), "{pos}");
        for &m in moves.iter() {
            let name = g.format_move(&s, m);
            let want = scored.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("{pos}: {name}")).1;
            let mut c = s;
            g.play(&mut c, m);
            assert_eq!(-solver.solve(&g.geo, c.own, c.opp, false).score, want, "{pos}: {name}");
        }
        let (best, best_moves) = best_of(scored);
        let r = solver.solve(&g.geo, s.own, s.opp, false);
        assert_eq!(r.score, best, "{pos}");
        assert!(best_moves.contains(&g.format_move(&s, r.best.unwrap())), "{pos}: {best_moves:?}");
    }
}

#[test]
fn ffo_40_exact_score_and_best_move() {
    let g = Othello::default();
    let positions = ffo_positions();
    assert_eq!(positions.len(), 20);
    let (pos, score, best) = &positions[0];
    let s = g.parse_position(pos).unwrap();
    assert_eq!(g.empties(&s), 20);
    let r = EndgameSolver::new(64).solve(&g.geo, s.own, s.opp, false);
    assert_eq!(r.score, *score);
    assert!(best.contains(&g.format_move(&s, r.best.unwrap())), "{best:?}");
}

/// FFO #41-#44 (22-23 empties): exact score and a best move of each. About 25 s of CPU in a release build, so
/// ignored in the normal suite: `cargo test --release --test suite -- --ignored othello::ffo_41_to_44`.
#[test]
#[ignore]
fn ffo_41_to_44_exact_scores_and_best_moves() {
    let g = Othello::default();
    let mut solver = EndgameSolver::new(256);
    for (pos, score, best) in &ffo_positions()[1..5] {
        let s = g.parse_position(pos).unwrap();
        solver.clear();
        let r = solver.solve(&g.geo, s.own, s.opp, false);
        assert_eq!(r.score, *score, "{pos}");
        assert!(best.contains(&g.format_move(&s, r.best.unwrap())), "{pos}: {best:?}");
    }
}

#[test]
fn solve_and_bad_input_through_the_binary() {
    let run = |args: &[&str]| Command::new(BIN).args(args).output().unwrap();
    let ffo = ffo_positions();
    // FFO #40 after eight moves (the first legal one each time) is a quick exact solve; check the JSON fields.
    let g = Othello::default();
    let mut s = g.parse_position(&ffo[0].0).unwrap();
    let pos = g.format_position(&s);
    let mut played = Vec::new();
    for _ in 0..8 {
        let mut moves = MoveList::new();
        g.generate_moves(&s, &mut moves);
        played.push(g.format_move(&s, moves[0]));
        g.play(&mut s, moves[0]);
    }
    let out = run(&["solve", "othello", "--position", &pos, "--moves", &played.join(" "), "--json", "--analyze"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let best = v["moves"].as_array().unwrap().iter().map(|m| m["score"].as_i64().unwrap()).max().unwrap();
    assert_eq!(v["score"].as_i64().unwrap(), best);
    assert!(v["best_move"].is_string() && v["nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["score"].as_i64().unwrap() as i32, EndgameSolver::new(1).solve(&g.geo, s.own, s.opp, false).score);
    for (args, want) in [
        (vec!["perft", "othello(size=5)", "--depth", "1"], "size=5"),
        (vec!["perft", "othello", "--moves", "d3 d3", "--depth", "1"], "taken"),
        (vec!["perft", "othello", "--position", "xx o", "--depth", "1"], "othello position"),
        (vec!["perft", "othello", "--moves", "pass", "--depth", "1"], "legal move"),
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(want) && err.trim().lines().count() == 1, "{args:?}: {err}");
    }
    assert!(matches!(AnyGame::parse("reversi(size=6)"), Ok(AnyGame::Othello(_))));
}

/// A solve stopped by its limits gives bounds that hold, and the same solver (its table kept) then finishes with the
/// exact value: a stopped search stores nothing wrong.
#[test]
fn a_stopped_solve_reports_bounds_and_the_table_stays_sound() {
    use plateau::games::othello::StopAt;
    use std::sync::atomic::AtomicBool;
    static STOP: AtomicBool = AtomicBool::new(true);
    let g = Othello::default();
    let (pos, score, best) = &ffo_positions()[0];
    let s = g.parse_position(pos).unwrap();
    let mut solver = EndgameSolver::new(64);
    let past = StopAt { deadline: Some(std::time::Instant::now()), interrupt: None };
    // The limits are looked at every 2^18 nodes: the first passes of MTD(f) may end before.
    let stopped = solver.solve_until(&g.geo, s.own, s.opp, false, past, &mut |_| {}).unwrap_err();
    assert!(stopped.lower <= *score && *score <= stopped.upper && stopped.lower < stopped.upper, "{stopped:?}");
    assert!(stopped.nodes > 0 && (stopped.lower == -64) == stopped.best.is_none(), "{stopped:?}");
    let asked = StopAt { deadline: None, interrupt: Some(&STOP) };
    assert!(solver.solve_until(&g.geo, s.own, s.opp, false, asked, &mut |_| {}).is_err());
    let mut seen = Vec::new();
    let r = solver.solve_until(&g.geo, s.own, s.opp, false, StopAt::default(), &mut |b| seen.push(*b)).unwrap();
    assert_eq!(r.score, *score);
    assert!(best.contains(&g.format_move(&s, r.best.unwrap())), "{best:?}");
    // Every pass of MTD(f) narrows bounds that hold, down to the value.
    assert!(seen.windows(2).all(|w| w[1].lower >= w[0].lower && w[1].upper <= w[0].upper), "{seen:?}");
    assert!(seen.iter().all(|b| b.lower <= *score && *score <= b.upper));
    assert_eq!((seen.last().unwrap().lower, seen.last().unwrap().upper), (*score, *score));
}

#[test]
fn a_table_file_keeps_a_stopped_solve_and_answers_the_next_one() {
    let run = |args: &[&str]| Command::new(BIN).args(args).output().unwrap();
    let dir = std::env::temp_dir().join(format!("plateau-othello-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("ffo40.tt");
    let table = table.to_str().unwrap();
    let (pos, score, best) = &ffo_positions()[0];
    let position = format!("--position={pos}");
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", "othello", position.as_str(), "--tt", "16mb", "--table", table];
        args.extend_from_slice(extra);
        run(&args)
    };
    // Stopped at once: an error that gives the bounds and says the file keeps the work.
    let out = solve(&["--max-seconds", "0"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("not solved: stopped by --max-seconds"), "{err}");
    assert!(err.contains("the score is between") && err.contains("keeps what was proven"), "{err}");
    assert_eq!(std::fs::metadata(table).unwrap().len(), 64 + (16 << 20) / 32 * 24);
    // Then solved, and solved again from the file alone: the root's value is in it, no node is searched.
    for again in [false, true] {
        let out = solve(&["--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["score"].as_i64().unwrap() as i32, *score);
        assert!(best.contains(&v["best_move"].as_str().unwrap().to_string()), "{v}");
        assert_eq!(v["nodes"].as_u64().unwrap() == 0, again, "{v}");
    }
    // A table of another board size, a file that is not a table, limits a batch does not take: one-line errors.
    let junk = dir.join("junk.tt");
    std::fs::write(&junk, "not a table at all, but long enough to hold a header of sixty-four bytes .....").unwrap();
    let batch = dir.join("batch.txt");
    std::fs::write(&batch, format!("{pos} {score}\n")).unwrap();
    let six = "....../....../..ox../..xo../....../...... x";
    for (args, want) in [
        (vec!["solve", "othello(size=6)", "--position", six, "--table", table], "not of the 6x6 one"),
        (
            vec!["solve", "othello", position.as_str(), "--table", junk.to_str().unwrap()],
            "not an Othello endgame table",
        ),
        (vec!["solve", "othello", "--batch", batch.to_str().unwrap(), "--max-seconds", "5"], "does not apply"),
        (vec!["solve", "othello", "--position", six, "--max-nodes", "5"], "does not apply"),
        (vec!["solve", "othello", "--position", six, "--save-every", "5"], "--save-every needs --table"),
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(want) && err.trim().lines().count() == 1, "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
