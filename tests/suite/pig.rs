//! Pig: perft and random games against OpenSpiel's `pig` (`tests/data/pig_openspiel.json`, made by
//! `scripts/pig_openspiel.py`), the property checks, the notation and its errors, the solver against a value iteration
//! written here independently, and the chance searches equal to expectimax on Pig positions.

use std::collections::HashMap;

use plateau::check::check_playouts;
use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome, Side, perft};
use plateau::games::Pig;
use plateau::games::pig::{HOLD, PigState, ROLL};
use plateau::players;
use plateau::solve::pig::PigSolution;
use plateau::spec::Spec;

fn pig(spec: &str) -> Pig {
    Pig::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn reference() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pig_openspiel.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn legal(g: &Pig, s: &PigState) -> Vec<String> {
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    let mut v: Vec<String> = moves.iter().map(|&m| g.format_move(s, m)).collect();
    v.sort();
    v
}

#[test]
fn perft_and_random_games_agree_with_openspiel() {
    let data = reference();
    for cfg in data["configs"].as_array().unwrap() {
        let g = pig(cfg["game"].as_str().unwrap());
        for (d, want) in cfg["perft"].as_array().unwrap().iter().enumerate() {
            assert_eq!(perft(&g, &g.start(), d as u32 + 1), want.as_u64().unwrap(), "{} depth {}", g.spec(), d + 1);
        }
        for game in cfg["games"].as_array().unwrap() {
            let mut s = g.start();
            for step in game["steps"].as_array().unwrap() {
                let want: Vec<String> =
                    step["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
                assert_eq!(legal(&g, &s), want, "{} at {}", g.spec(), g.format_position(&s));
                let m = g.parse_move(&s, step["move"].as_str().unwrap()).unwrap();
                g.play(&mut s, m);
            }
            let first_wins = game["returns"][0].as_f64().unwrap() > 0.0;
            let want = if first_wins { Outcome::Win } else { Outcome::Loss };
            assert_eq!(g.outcome_for(&s, Side::First), Some(want), "{}", g.format_position(&s));
        }
    }
}

#[test]
fn passes_the_game_checks() {
    let cands: Vec<String> =
        ["roll", "hold", "0", "1", "2", "3", "4", "5", "6", "7"].iter().map(|s| s.to_string()).collect();
    for spec in ["pig(target=20)", "pig(target=30,die=4)", "pig(target=6,die=2)"] {
        let g = pig(spec);
        check_playouts(&g, &g.start(), 3, 30, &cands, 100_000).unwrap();
    }
}

#[test]
fn notation_round_trips_and_errors_are_one_line() {
    let g = pig("pig(target=50)");
    let s = g.play_moves(&g.start(), "roll 4 roll 6 hold roll 1").unwrap();
    assert_eq!(g.format_position(&s), "10 0 0 1");
    assert_eq!(g.parse_position("10 0 0 1").unwrap(), s);
    let r = g.play_moves(&s, "r").unwrap();
    assert_eq!(g.format_position(&r), "10 0 0 1 roll");
    assert_eq!(g.parse_position("10 0 0 1 roll").unwrap(), r);
    assert_eq!(g.parse_move(&r, "roll 3").unwrap(), 3);
    // At the target only hold is legal.
    let at = g.parse_position("45 10 5 1").unwrap();
    assert_eq!(legal(&g, &at), vec!["hold"]);
    let over = g.play_moves(&at, "hold").unwrap();
    assert_eq!(g.outcome_for(&over, Side::First), Some(Outcome::Win));
    assert!(g.is_terminal(&over));
    for (bad, why) in [
        ("10 0 0", "wrong number"),
        ("10 0 0 3", "1 or 2"),
        ("x 0 0 1", "not a number"),
        ("50 50 0 1", "both players"),
        ("45 0 12 1", "too large"),
        ("45 0 5 1 roll", "must hold"),
        ("60 0 0 1", "cannot be reached"),
    ] {
        let e = g.parse_position(bad).err().unwrap_or_else(|| panic!("{bad}")).to_string();
        assert!(e.contains(why) && !e.contains('\n'), "{bad}: {e}");
    }
    assert!(g.parse_move(&at, "roll").err().unwrap().to_string().contains("only legal move is hold"));
    assert!(g.parse_move(&r, "7").is_err() && g.parse_move(&r, "0").is_err() && g.parse_move(&s, "3").is_err());
    assert!(g.parse_move(&over, "hold").is_err());
    for bad in ["pig(target=0)", "pig(die=1)", "pig(die=101)", "pig(target=1001)", "pig(sides=6)"] {
        assert!(Pig::from_spec(&Spec::parse(bad).unwrap()).is_err(), "{bad}");
    }
}

/// Value iteration written independently: Jacobi sweeps over every state at once, states in a map keyed by
/// `(mine, theirs, turn total)`, until nothing moves.
fn naive_values(target: u32, die: u32) -> HashMap<(u32, u32, u32), f64> {
    let mut w: HashMap<(u32, u32, u32), f64> = HashMap::new();
    for i in 0..target {
        for j in 0..target {
            for k in 0..target - i {
                w.insert((i, j, k), 0.5);
            }
        }
    }
    let get = |w: &HashMap<(u32, u32, u32), f64>, i: u32, j: u32, k: u32| -> f64 {
        if i + k >= target { 1.0 } else { w[&(i, j, k)] }
    };
    loop {
        let mut next = w.clone();
        let mut change: f64 = 0.0;
        for (&(i, j, k), v) in next.iter_mut() {
            let hold = if i + k >= target { 1.0 } else { 1.0 - get(&w, j, i + k, 0) };
            let mut roll = 0.0;
            for face in 1..=die {
                roll += if face == 1 { 1.0 - get(&w, j, i, 0) } else { get(&w, i, j, k + face) };
            }
            let new = hold.max(roll / die as f64);
            change = change.max((new - *v).abs());
            *v = new;
        }
        w = next;
        if change < 1e-13 {
            return w;
        }
    }
}

#[test]
fn the_solver_matches_an_independent_value_iteration() {
    for (target, die) in [(10, 6), (16, 4), (7, 2), (20, 6)] {
        let g = Pig::new(target, die).unwrap();
        let sol = PigSolution::solve(&g).unwrap();
        let naive = naive_values(target, die);
        for (&(i, j, k), &v) in &naive {
            assert!(
                (sol.win(i, j, k) - v).abs() < 1e-9,
                "pig({target},{die}) W({i},{j},{k}) {} != {v}",
                sol.win(i, j, k)
            );
        }
        // The first player's chances, and a state while the die rolls (the average over the faces).
        assert!((sol.value(&g.start()) - naive[&(0, 0, 0)]).abs() < 1e-9);
        let r = g.play_moves(&g.start(), "roll").unwrap();
        assert!((sol.value(&r) - sol.roll(0, 0, 0)).abs() < 1e-12);
        assert!(sol.value(&g.start()) > 0.5, "the first player is favoured");
    }
}

#[test]
fn pig_to_100_first_player_wins_53_percent() {
    // Neller and Presser (2004): under optimal play the first player of Pig to 100 wins with probability 0.5306.
    let g = Pig::default();
    let sol = PigSolution::solve(&g).unwrap();
    let p = sol.value(&g.start());
    assert!((p - 0.5306).abs() < 5e-5, "{p}");
    assert_eq!(sol.best(0, 0, 0), ROLL);
    // Hold at 20, roughly, at the start; hold at once when the turn total wins.
    assert!((19..=25).contains(&sol.hold_at(0, 0)), "{}", sol.hold_at(0, 0));
    assert_eq!(sol.best(95, 90, 5), HOLD);
    assert!(PigSolution::solve(&Pig::new(151, 6).unwrap()).is_err());
}

#[test]
fn the_chance_searches_agree_on_pig() {
    let g = pig("pig(target=20)");
    for pos in ["0 0 0 1", "12 15 4 2", "18 3 0 1 roll", "10 17 0 2"] {
        let s = g.parse_position(pos).unwrap();
        for depth in 1..=6 {
            let values: Vec<i32> = ["expectimax", "star1", "star2", "star2(tt=1mb"]
                .iter()
                .map(|a| {
                    let text = format!("{a}{}depth={depth})", if a.contains('(') { "," } else { "(" });
                    players::searcher::<Pig>(&text).unwrap().search(&g, &s).value
                })
                .collect();
            assert!(values.iter().all(|&v| v == values[0]), "{pos} depth {depth}: {values:?}");
        }
    }
}

#[test]
fn the_engine_mostly_agrees_with_the_optimal_policy() {
    // Every decision of pig(target=30) with a turn total below 12, where roll and hold differ by more than 1% in
    // winning chances: the engine at depth 8 chooses the solver's move in at least 95% of them (all 520 when written).
    let g = pig("pig(target=30)");
    let sol = PigSolution::solve(&g).unwrap();
    let mut engine = players::searcher::<Pig>("engine(depth=8)").unwrap();
    let (mut agree, mut total) = (0, 0);
    for i in (0..30).step_by(3) {
        for j in (0..30).step_by(3) {
            for k in (0..12u32.min(30 - i)).step_by(2) {
                if (sol.roll(i, j, k) - sol.hold(i, j, k)).abs() < 0.01 {
                    continue;
                }
                let s = g.state([i as u16, j as u16], k as u16, 0, false);
                let m = engine.search(&g, &s).best_move.unwrap();
                total += 1;
                agree += (m == sol.best(i, j, k)) as u32;
            }
        }
    }
    println!("agreement {agree}/{total}");
    assert!(total > 200 && agree * 100 >= total * 95, "{agree}/{total}");
}
