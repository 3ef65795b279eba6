//! Backgammon: legal turns against OpenSpiel, perft, the property checks, rules by hand, notation and errors.
//!
//! - `tests/data/backgammon_openspiel.jsonl` (made by `scripts/backgammon_openspiel.py`, pyspiel not needed here): the
//!   30 opening rolls and every turn of 30 random OpenSpiel games; for each, the set of positions the whole turn can
//!   reach (a double's two decisions followed) must be the one OpenSpiel lists;
//! - perft with chance nodes counted as plies (the core's `perft`), perft(2) against the openings' data;
//! - random playouts: the property checks of `plateau::check`, 15 checkers per side, pips conserved but for bearing
//!   off and hits, both dice used when the rules say so, games that end;
//! - rules and notation by hand, and one-line errors for malformed positions, impossible dice and illegal moves.

use std::collections::BTreeSet;

use plateau::check::check_playouts;
use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome, Turn, perft};
use plateau::games::backgammon::board::{BAR, count, pips};
use plateau::games::backgammon::movegen::{PASS, steps};
use plateau::games::backgammon::{Backgammon, BgState, phase};
use plateau::spec::Spec;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn game(spec: &str) -> Backgammon {
    Backgammon::from_spec(&Spec::parse(spec).unwrap()).unwrap()
}

fn board_part(g: &Backgammon, s: &BgState) -> String {
    let text = g.format_position(s);
    let words: Vec<&str> = text.split_whitespace().collect();
    format!("{} {}", words[0], words[1])
}

/// Every position the rest of the turn can reach (a double's second decision followed).
fn turn_results(g: &Backgammon, s: &BgState, out: &mut BTreeSet<String>) {
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    for &m in &moves {
        let mut c = *s;
        g.play(&mut c, m);
        if !g.is_terminal(&c) && c.phase == phase::HALF {
            turn_results(g, &c, out);
        } else {
            out.insert(board_part(g, &c));
        }
    }
}

fn fnv1a(text: &str) -> String {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01B3);
    }
    format!("{h:016x}")
}

fn records() -> Vec<serde_json::Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/backgammon_openspiel.jsonl");
    let text = std::fs::read_to_string(path).expect("tests/data/backgammon_openspiel.jsonl");
    text.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn every_turn_reaches_the_positions_openspiel_lists() {
    let g = Backgammon::default();
    let recs = records();
    assert!(recs.len() > 2000, "{} records", recs.len());
    let mut doubles = 0;
    for (i, r) in recs.iter().enumerate() {
        let pos = r["position"].as_str().unwrap();
        let s = g.parse_position(pos).unwrap_or_else(|e| panic!("record {i}: {pos}: {e}"));
        doubles += (s.hi == s.lo) as usize;
        let mut mine = BTreeSet::new();
        turn_results(&g, &s, &mut mine);
        if let Some(list) = r["results"].as_array() {
            let theirs: BTreeSet<String> = list.iter().map(|v| v.as_str().unwrap().to_string()).collect();
            let extra: Vec<_> = mine.difference(&theirs).collect();
            let missing: Vec<_> = theirs.difference(&mine).collect();
            assert!(extra.is_empty() && missing.is_empty(), "record {i} {pos}: extra {extra:?}, missing {missing:?}");
        }
        let joined: Vec<&str> = mine.iter().map(String::as_str).collect();
        assert_eq!(mine.len() as u64, r["count"].as_u64().unwrap(), "record {i}: {pos}: number of results");
        assert_eq!(fnv1a(&joined.join("\n")), r["fnv"].as_str().unwrap(), "record {i}: {pos}: the set of results");
    }
    assert!(doubles > 200, "{doubles} doubles");
}

#[test]
fn perft_counts_rolls_and_decisions_as_plies() {
    let g = Backgammon::default();
    let s = g.start();
    assert_eq!(perft(&g, &s, 1), 30, "the opening rolls");
    // perft(2): the distinct first turns of the 30 opening rolls, as OpenSpiel counts them.
    let openings: u64 = records().iter().take(30).map(|r| r["count"].as_u64().unwrap()).sum();
    assert_eq!(perft(&g, &s, 2), openings);
    assert_eq!(perft(&g, &s, 2), 380);
    assert_eq!(perft(&g, &s, 3), 380 * 21, "21 rolls after every first turn");
    assert_eq!(perft(&g, &s, 4), 99_328);
}

fn total_pips(s: &BgState) -> [u32; 2] {
    [pips(s.sides[0]), pips(s.sides[1])]
}

fn checkers(side: u128) -> u32 {
    (0..26).map(|p| count(side, p)).sum()
}

/// Dice a move plays (its steps; a pass plays none).
fn dice_played(m: u32) -> usize {
    if m == PASS { 0 } else { steps(m).len() }
}

/// The most dice playable from `me`/`op` (counts per own point, 0 = off, 25 = bar) by brute force over every order:
/// an implementation of the movement rules independent of the generator's.
fn naive_most(me: [u32; 26], op: [u32; 26], dice: &[usize]) -> usize {
    let Some((&d, rest)) = dice.split_first() else { return 0 };
    let mut best = 0;
    for from in 1..=25 {
        if me[from] == 0 || (me[25] > 0 && from != 25) {
            continue;
        }
        let (mut a, mut b) = (me, op);
        if from > d {
            let to = from - d;
            if b[25 - to] >= 2 {
                continue;
            }
            if b[25 - to] == 1 {
                b[25 - to] = 0;
                b[25] += 1;
            }
            a[to] += 1;
        } else {
            let outside: u32 = a[7..=25].iter().sum();
            let higher: u32 = a[from + 1..=6].iter().sum();
            if outside > 0 || (from < d && higher > 0) {
                continue;
            }
            a[0] += 1;
        }
        a[from] -= 1;
        best = best.max(1 + naive_most(a, b, rest));
    }
    best
}

fn counts(side: u128) -> [u32; 26] {
    std::array::from_fn(|p| count(side, p))
}

#[test]
fn random_games_keep_fifteen_checkers_conserve_pips_use_the_dice_and_end() {
    let g = Backgammon::default();
    let mut rng = SmallRng::seed_from_u64(7);
    let (mut bear_offs, mut hits, mut partial) = (0, 0, 0);
    for _ in 0..150 {
        let mut s = g.start();
        let mut plies = 0;
        while !g.is_terminal(&s) {
            plies += 1;
            assert!(plies < 20_000, "a random game did not end");
            let m = g.random_move(&s, &mut rng).unwrap();
            let before = s;
            g.play(&mut s, m);
            assert_eq!(checkers(s.sides[0]), 15);
            assert_eq!(checkers(s.sides[1]), 15);
            if g.turn(&before) == Turn::Chance {
                assert_eq!(s.sides, before.sides);
                continue;
            }
            // The mover's pips drop by the dice played, less what bearing off with a larger die wastes; the
            // opponent's rise only by hits (a hit checker goes to the bar, 25 pips from home).
            let me = before.mover as usize;
            let (b, a) = (total_pips(&before), total_pips(&s));
            let moved: usize = steps(m).iter().map(|&(_, d)| d).sum();
            let off = count(s.sides[me], 0) - count(before.sides[me], 0);
            let hit = count(s.sides[1 - me], BAR) - count(before.sides[1 - me], BAR);
            if off == 0 {
                assert_eq!(b[me] - a[me], moved as u32, "{}", g.format_position(&before));
            } else {
                assert!(b[me] - a[me] <= moved as u32);
                bear_offs += 1;
            }
            if hit == 0 {
                assert_eq!(a[1 - me], b[1 - me]);
            } else {
                assert!(a[1 - me] > b[1 - me]);
                hits += 1;
            }
            // As many dice as the rules allow: the turn's dice (this decision's and, for a double's first half, the
            // ones it leaves for the second) against the brute force; a single die is the larger when it can be.
            if before.phase == phase::MOVE {
                let p = before.pair();
                let (hi, lo) = (before.hi as usize, before.lo as usize);
                let dice: Vec<usize> = if hi == lo { vec![hi; 4] } else { vec![hi, lo] };
                let mut most = naive_most(counts(p.me), counts(p.op), &dice);
                if hi != lo {
                    most = most.max(naive_most(counts(p.me), counts(p.op), &[lo, hi]));
                }
                let played = dice_played(m) + plateau::games::backgammon::movegen::left_after(m) as usize;
                assert_eq!(played, most, "{} {}", g.format_position(&before), g.format_move(&before, m));
                if hi != lo && played == 1 {
                    partial += 1;
                    let larger = naive_most(counts(p.me), counts(p.op), &[hi]) == 1;
                    assert_eq!(steps(m)[0].1, if larger { hi } else { lo }, "{}", g.format_position(&before));
                }
            }
        }
        assert!(matches!(g.outcome(&s), Some(Outcome::Value(-1000))), "the side to move after the last turn lost");
    }
    assert!(
        bear_offs > 100 && hits > 100 && partial > 5,
        "{bear_offs} bear-offs, {hits} hits, {partial} one-die turns"
    );
}

#[test]
fn the_property_checks_pass_on_random_games() {
    let g = Backgammon::default();
    // The check wants a candidate that parses to print back as itself: hits are optional on input (`bar/22` may
    // parse to `bar/22*`), so the candidates are texts that cannot hit (bearing off, passes, rolls).
    let candidates: Vec<String> =
        ["6/off", "6/off 5/off", "2/off(2)", "pass", "3-1", "x:3-1", "6-6"].map(String::from).to_vec();
    check_playouts(&g, &g.start(), 11, 20, &candidates, 50_000).unwrap();
    let gammons = game("backgammon(scoring=gammons)");
    check_playouts(&gammons, &gammons.start(), 12, 10, &candidates, 50_000).unwrap();
}

#[test]
fn gammons_and_backgammons_score_two_and_three_points() {
    let g = game("backgammon(scoring=gammons)");
    assert_eq!(g.spec(), "backgammon(gammons=true)");
    assert_eq!(game("backgammon(gammons=true)"), g);
    assert_eq!(game("backgammon(gammons=false)"), Backgammon::default());
    let single = Backgammon::default();
    // X bears off its last checker: O has borne off nothing.
    let s = g.parse_position("x=1:1 o=6:15 x21").unwrap();
    let after = g.play_moves(&s, "1/off").unwrap();
    assert_eq!(g.outcome(&after), Some(Outcome::Value(-2000)), "O, to move, is gammoned");
    assert_eq!(
        single.outcome(&single.play_moves(&single.parse_position("x=1:1 o=6:15 x21").unwrap(), "1/off").unwrap()),
        Some(Outcome::Value(-1000))
    );
    // O still has a checker in X's home board (O's 19..24): a backgammon.
    let s = g.parse_position("x=1:1 o=20:1,6:14 x21").unwrap();
    assert_eq!(g.outcome(&g.play_moves(&s, "1/off").unwrap()), Some(Outcome::Value(-3000)));
    // O bore one off: a single game.
    let s = g.parse_position("x=1:1 o=6:14 x21").unwrap();
    assert_eq!(g.outcome(&g.play_moves(&s, "1/off").unwrap()), Some(Outcome::Value(-1000)));
}

#[test]
fn openspiel_counted_hits_are_the_first_checkers() {
    // 5-5, X's two checkers on 8 can go to 3, where O has a blot (O's 22); nothing else moves (O holds X's 1 point).
    let g = Backgammon::default();
    let s = g.parse_position("x=8:2,6:13 o=24:2,22:1,13:12 x55").unwrap();
    let m = g.parse_move(&s, "8/3* 8/3").unwrap();
    // OpenSpiel writes it `8/3*(2)`: the first checker hits, the second lands on the point the first holds.
    assert_eq!(g.parse_move(&s, "8/3*(2)").unwrap(), m);
    assert_eq!(g.parse_move(&s, "8/3(2)").unwrap(), m);
    let mut after = s;
    g.play(&mut after, m);
    assert!(g.format_position(&after).contains("bar:1"), "O's blot is on the bar: {}", g.format_position(&after));
}

fn texts(g: &Backgammon, s: &BgState) -> Vec<String> {
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    moves.iter().map(|&m| g.format_move(s, m)).collect()
}

#[test]
fn rules_by_hand() {
    let g = Backgammon::default();
    // Entering: the bar first; with 6-5 the 6 enters hitting O's blot, the 5 neither enters nor plays after.
    let s = g.parse_position("x=bar:1,13:14 o=24:8,17:2,11:2,6:1,5:2 x65").unwrap();
    assert_eq!(texts(&g, &s), ["bar/19*"]);
    // The larger die when either can be played but not both (O holds X's 1 point).
    let s = g.parse_position("x=9:1 o=24:2,12:13 x62").unwrap();
    assert_eq!(texts(&g, &s), ["9/3"]);
    // Bearing off with a larger die from the highest point only.
    let s = g.parse_position("x=4:1,2:1 o=24:15 x65").unwrap();
    assert_eq!(texts(&g, &s), ["4/off 2/off"]);
    let s = g.parse_position("x=5:1,2:3 o=12:15 x61").unwrap();
    let t = texts(&g, &s);
    assert!(t.contains(&"5/off 2/1".to_string()) && t.contains(&"5/off".to_string()), "{t:?}");
    assert!(!t.iter().any(|m| m.contains("2/off")), "{t:?}");
    // Doubles: two decisions of two steps; the first only where four can be played.
    let s = g.parse_position("x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5 x66").unwrap();
    let first = texts(&g, &s);
    assert!(first.contains(&"24/18(2)".to_string()) && first.contains(&"13/7(2)".to_string()), "{first:?}");
    let half = g.play_moves(&s, "24/18(2)").unwrap();
    assert_eq!((half.phase, half.left, g.turn(&half)), (phase::HALF, 2, Turn::Player(plateau::game::Side::First)));
    let done = g.play_moves(&s, "24/18(2) 13/7(2)").unwrap();
    assert_eq!(g.format_position(&done), "x=18:2,13:3,8:3,7:2,6:5 o=24:2,13:5,8:3,6:5 o");
    // A pass: closed out on the bar.
    let s = g.parse_position("x=bar:1,13:14 o=6:2,5:2,4:2,3:2,2:2,1:2,24:3 x31").unwrap();
    assert_eq!(texts(&g, &s), ["pass"]);
    assert_eq!(g.parse_move(&s, "pass").unwrap(), PASS);
}

#[test]
fn notation_round_trips_and_accepts_the_usual_forms() {
    let g = Backgammon::default();
    let s = g.parse_position("x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5 x31").unwrap();
    let point = g.parse_move(&s, "8/5 6/5").unwrap();
    assert_eq!(g.parse_move(&s, "6/5 8/5").unwrap(), point);
    assert_eq!(g.parse_move(&s, "8/5, 6/5").unwrap(), point);
    assert_eq!(g.format_move(&s, point), "8/5 6/5");
    let run = g.parse_move(&s, "24/20").unwrap();
    assert_eq!(g.parse_move(&s, "24/21/20").unwrap(), run);
    assert_eq!(g.parse_move(&s, "24/23 23/20").unwrap(), run);
    // Hits are optional on input, and shown on output.
    let s = g.parse_position("x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:4,5:1 x64").unwrap();
    let hit = g.parse_move(&s, "24/20 24/18").unwrap();
    assert_eq!(g.format_move(&s, hit), "24/20* 24/18");
    assert_eq!(g.parse_move(&s, "24/20* 24/18").unwrap(), hit);
    // Positions, rolls and whole games through the text.
    let start = g.start();
    assert_eq!(g.format_position(&start), "x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5 opening");
    let s = g.play_moves(&start, "x:3-1 8/5 6/5 6-6 24/18(2) 13/7(2) 21 13/11 6/5").unwrap();
    assert_eq!(g.parse_position(&g.format_position(&s)).unwrap(), s);
    assert_eq!(g.split_moves("x:3-1 8/5 6/5 6-6 24/18(2) 13/7(2)"), ["x:3-1", "8/5 6/5", "6-6", "24/18(2) 13/7(2)"]);
    assert_eq!(g.format_move(&start, g.parse_move(&start, "o13").unwrap()), "o:3-1");
}

#[test]
fn bad_input_gets_one_line_errors() {
    let g = Backgammon::default();
    let s = g.parse_position("x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5 x31").unwrap();
    let start = g.start();
    let roll = g.parse_position("x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5 x").unwrap();
    let cases: Vec<(String, &str)> = vec![
        (g.parse_move(&s, "24/21").unwrap_err().0, "is not a legal move"),
        (g.parse_move(&s, "13/10").unwrap_err().0, "not a legal move"),
        (g.parse_move(&s, "24-18").unwrap_err().0, "expected checker moves"),
        (g.parse_move(&s, "5/8").unwrap_err().0, "higher point"),
        (g.parse_move(&s, "pass").unwrap_err().0, "a die can be played"),
        (g.parse_move(&s, "3-1").unwrap_err().0, "rolled already"),
        (g.parse_move(&roll, "7-1").unwrap_err().0, "impossible dice"),
        (g.parse_move(&roll, "0-1").unwrap_err().0, "impossible dice"),
        (g.parse_move(&roll, "24/18").unwrap_err().0, "a roll such as"),
        (g.parse_move(&start, "x:3-3").unwrap_err().0, "never a double"),
        (g.parse_move(&start, "3-1").unwrap_err().0, "who starts"),
        (g.parse_position("x=24:2 o=24:2").unwrap_err().0, "three words"),
        (g.parse_position("x=24:16 o=24:2 x").unwrap_err().0, "expected POINT:COUNT"),
        (g.parse_position("x=24:9,13:9 o=24:2 x").unwrap_err().0, "at most 15"),
        (g.parse_position("x=24:2 o=1:2 x").unwrap_err().0, "both players"),
        (g.parse_position("x=24:2 o=24:2 x71").unwrap_err().0, "impossible dice"),
        (g.parse_position("x=24:2 o=24:2 x31.2").unwrap_err().0, "only a double"),
        (g.parse_position("x=24:2 o=24:2 z").unwrap_err().0, "expected opening"),
        (g.parse_position("x=- o=- x").unwrap_err().0, "both players have borne off"),
        (
            g.parse_position("x=bar:1,13:2,6:2,5:2,4:2,3:2,2:2,1:2 o=bar:1,13:2,6:2,5:2,4:2,3:2,2:2,1:2 x")
                .unwrap_err()
                .0,
            "nobody could ever move",
        ),
        (g.play_moves(&start, "x:3-1 8/5 6/4").unwrap_err().0, "move 2"),
        (Backgammon::from_spec(&Spec::parse("backgammon(scoring=cube)").unwrap()).unwrap_err().0, "single or gammons"),
        (
            Backgammon::from_spec(&Spec::parse("backgammon(gammons=true,scoring=single)").unwrap()).unwrap_err().0,
            "disagree",
        ),
    ];
    for (msg, want) in cases {
        assert!(!msg.contains('\n') && msg.contains(want), "{msg:?} should say {want:?}");
    }
}

#[test]
fn random_turns_are_distinct_positions_whose_texts_parse_back() {
    let g = Backgammon::default();
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..30 {
        let mut s = g.start();
        while !g.is_terminal(&s) {
            if g.turn(&s) != Turn::Chance {
                let mut moves = MoveList::new();
                g.generate_moves(&s, &mut moves);
                let mut seen = BTreeSet::new();
                for &m in &moves {
                    let mut c = s;
                    g.play(&mut c, m);
                    assert!(seen.insert(g.format_position(&c)), "two moves reach one position");
                    let t = g.format_move(&s, m);
                    assert_eq!(g.parse_move(&s, &t), Ok(m), "{t} in {}", g.format_position(&s));
                }
            }
            let m = g.random_move(&s, &mut rng).unwrap();
            let _ = rng.random_range(0..2);
            g.play(&mut s, m);
        }
    }
}
