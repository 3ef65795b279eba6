//! The race endgame tables as the engine uses them (`engine(race=on)`, `solve/race.rs` `verdict`): every verdict is
//! checked against the strong solution of retrograde analysis (`solve/retro.rs`), value and distance bound.

use std::collections::HashSet;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use plateau::game::{Game, MoveList, WIN_THRESHOLD};
use plateau::games::Breakthrough;
use plateau::games::breakthrough::race::{Race, RaceTable};
use plateau::players::searcher as from_spec;
use plateau::solve::retro::{self, RetroOptions, Value};
use plateau::spec::Spec;

fn bt(text: &str) -> Breakthrough {
    Breakthrough::from_spec(&Spec::parse(text).unwrap()).unwrap()
}

/// Positions of random playouts (the start excluded), without repeats.
fn playout_positions(g: &Breakthrough, games: usize, seed: u64) -> Vec<<Breakthrough as Game>::State> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    for _ in 0..games {
        let mut s = g.start();
        while !g.is_terminal(&s) {
            g.generate_moves(&s, &mut moves);
            g.play(&mut s, moves[rng.random_range(0..moves.len())]);
            if !g.is_terminal(&s) && seen.insert(s) {
                out.push(s);
            }
        }
    }
    out
}

/// Every verdict of the 3-row table on positions of `g` agrees with retrograde analysis: the same winner, and the
/// exact distance within the verdict's bound. Returns (verdicts, positions).
fn check_verdicts(text: &str, games: usize) -> (usize, usize) {
    let g = bt(text);
    let sol = retro::analyse(&g, &g.start(), &RetroOptions::default()).unwrap();
    let table = RaceTable::build(g.columns, 3).unwrap();
    let positions = playout_positions(&g, games, 7);
    let mut verdicts = 0;
    for s in &positions {
        let Some(v) = table.verdict(&g, s) else { continue };
        verdicts += 1;
        let (value, distance) = sol.get(g.key(s)).expect("a reachable position is in the analysis");
        match v {
            Race::Win(bound) => {
                assert!(value == Value::Win && distance <= bound, "{text}: {s:?}: {v:?} vs {value:?} {distance}")
            }
            Race::Loss(bound) => {
                assert!(value == Value::Loss && distance <= bound, "{text}: {s:?}: {v:?} vs {value:?} {distance}")
            }
        }
    }
    (verdicts, positions.len())
}

#[test]
fn race_verdicts_agree_with_retrograde_analysis() {
    for (text, games) in [
        ("breakthrough(rows=4,columns=4,piece_rows=1)", 3000),
        ("breakthrough(rows=5,columns=4,piece_rows=1)", 2000),
        ("breakthrough(rows=5,columns=3,piece_rows=2)", 2000),
    ] {
        let (verdicts, positions) = check_verdicts(text, games);
        // The tables must actually say something on these boards (else the check above proves nothing).
        assert!(verdicts * 20 > positions, "{text}: only {verdicts} verdicts on {positions} positions");
    }
}

#[test]
fn engine_with_race_tables_agrees_with_retrograde_analysis() {
    let g = bt("breakthrough(rows=5,columns=4,piece_rows=1)");
    let sol = retro::analyse(&g, &g.start(), &RetroOptions::default()).unwrap();
    let positions = playout_positions(&g, 40, 11);
    let (mut proven_on, mut proven_off) = (0, 0);
    for s in positions.iter().step_by(3) {
        let (value, _) = sol.get(g.key(s)).unwrap();
        for (race, proven) in [("on", &mut proven_on), ("off", &mut proven_off)] {
            let r = from_spec(&format!("engine(depth=4,race={race})")).unwrap().search(&g, s);
            if r.value.abs() >= WIN_THRESHOLD {
                *proven += 1;
                let expect = if r.value > 0 { Value::Win } else { Value::Loss };
                assert_eq!(value, expect, "race={race}: {s:?}: engine {} vs {value:?}", r.value);
            }
        }
    }
    assert!(proven_on > proven_off, "race=on proved {proven_on} positions, race=off {proven_off}");
}
