//! The tiny model games, one per capability of the game model: `coin_game` (chance), `matching_pennies` (simultaneous
//! moves), `phantom_tic_tac_toe` (hidden information, non-alternating turns).
//!
//! - perft with counts derived by hand (in the comments), and phantom tic-tac-toe deeper against a naive array-based
//!   implementation written here;
//! - the property checks of `plateau::check` on random playouts (chance probabilities, joint moves, observations and
//!   resampling included), and proptest over parameters and seeds;
//! - a tiny EXPECTIMAX written here from the course's slide: the coin game's values by hand, and the course's warning
//!   that only positive linear transformations of the leaves keep the choice;
//! - observations unchanged by what a player cannot see, resampling that keeps the observation, reaches only
//!   reachable states and is not always the true state; one-line errors.
//!
//! The binary (`match`, `play`, `perft`) on these games is tested in `tests/tiny_games_cli.rs`.

use std::collections::HashMap;

use plateau::check::check_playouts;
use plateau::game::{Capabilities, Game};
use plateau::game::{ChanceList, FullGame, MoveList, Outcome, Side, Turn, perft};
use plateau::games::coin_game::{CoinGame, CoinState};
use plateau::games::matching_pennies::MatchingPennies;
use plateau::games::phantom_tic_tac_toe::PhantomTicTacToe;
use plateau::games::{AnyGame, catalogue};
use plateau::spec::Spec;

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn coin(spec: &str) -> CoinGame {
    CoinGame::from_spec(&Spec::parse(spec).unwrap()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn pennies(rounds: u32) -> MatchingPennies {
    MatchingPennies::new(rounds).unwrap()
}

/// The canonical string of a parsed tiny game.
fn spec_of(g: &AnyGame) -> String {
    match g {
        AnyGame::CoinGame(g) => g.spec(),
        AnyGame::MatchingPennies(g) => g.spec(),
        AnyGame::PhantomTicTacToe(g) => g.spec(),
        other => panic!("not a tiny game: {other:?}"),
    }
}

fn one_line(e: impl std::fmt::Display) -> String {
    let t = e.to_string();
    assert!(!t.is_empty() && !t.contains('\n'), "not one line: {t:?}");
    t
}

// ---------------------------------------------------------------------------------------------------------------
// The registry

#[test]
fn the_three_games_are_registered_with_their_kinds() {
    let list = catalogue();
    let kind = |name: &str| list.iter().find(|g| g.info.name == name).unwrap_or_else(|| panic!("{name}")).kind;
    assert!(kind("coin_game").chance && !kind("coin_game").simultaneous && !kind("coin_game").hidden);
    assert!(kind("matching_pennies").simultaneous && !kind("matching_pennies").chance);
    assert!(kind("phantom_tic_tac_toe").hidden && !kind("phantom_tic_tac_toe").chance);
    for text in [
        "coin_game",
        "coin",
        "coin_game(leaves=1/2/3/4/5/6/7/8,p=0.25)",
        "matching_pennies",
        "matching_pennies(rounds=3)",
        "pennies",
        "phantom_tic_tac_toe",
        "phantom_ttt",
    ] {
        let g = AnyGame::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        // The canonical string parses back to the same game.
        let spec = spec_of(&g);
        assert_eq!(spec, spec_of(&AnyGame::parse(&spec).unwrap()));
    }
    for bad in [
        "coin_game(p=0)",
        "coin_game(p=1)",
        "coin_game(p=half)",
        "coin_game(leaves=1/2/3)",
        "coin_game(leaves=1/2/3/4/5/6/7/x)",
        "coin_game(leaves=1/2/3/4/5/6/7/200000)",
        "coin_game(depth=3)",
        "matching_pennies(rounds=0)",
        "matching_pennies(rounds=31)",
        "phantom_tic_tac_toe(size=4)",
    ] {
        let e = AnyGame::parse(bad).expect_err(bad);
        one_line(e);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The coin game (chance)

/// MAX has 2 moves (depth 1: 2); after each, the coin's 2 outcomes count as plies like moves (depth 2: 4); then MIN's
/// 2 moves (depth 3: 8). The leaves are at ply 3, so no path is 4 plies long (depth 4: 0, "a game that ends earlier
/// adds nothing"). The probabilities do not matter to perft.
#[test]
fn coin_game_perft() {
    for spec in ["coin_game", "coin_game(p=0.1)"] {
        let g = coin(spec);
        let counts: Vec<u64> = (0..=4).map(|d| perft(&g, &g.start(), d)).collect();
        assert_eq!(counts, [1, 2, 4, 8, 0], "{spec}");
    }
}

/// EXPECTIMAX for MAX, from the slide: the maximum at MAX, the minimum at MIN, the probability-weighted average of the
/// successors at a chance node, the leaf's value for MAX at a leaf.
fn expectimax(g: &CoinGame, s: &CoinState) -> f64 {
    if let Some(o) = g.outcome_for(s, Side::First) {
        let Outcome::Value(v) = o else { panic!("coin game leaves carry values") };
        return v as f64;
    }
    let child = |m| {
        let mut c = *s;
        g.play(&mut c, m);
        expectimax(g, &c)
    };
    match g.turn(s) {
        Turn::Chance => {
            let mut outcomes = ChanceList::new();
            g.chance_outcomes(s, &mut outcomes);
            outcomes.iter().map(|&(m, p)| p * child(m)).sum()
        }
        Turn::Player(p) => {
            let mut moves = MoveList::new();
            g.generate_moves(s, &mut moves);
            let values = moves.iter().map(|&m| child(m));
            if p == Side::First { values.fold(f64::MIN, f64::max) } else { values.fold(f64::MAX, f64::min) }
        }
        Turn::Simultaneous => unreachable!("the coin game has no simultaneous node"),
    }
}

/// The expectimax value of MAX's moves `l` and `r`.
fn root_values(spec: &str) -> (f64, f64) {
    let g = coin(spec);
    let v = |m: &str| expectimax(&g, &g.play_moves(&g.start(), m).unwrap());
    (v("l"), v("r"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn coin_game_expectimax_by_hand() {
    // The textbook tree: l = 0.5 min(2,4) + 0.5 min(7,4) = 3, r = 0.5 min(6,0) + 0.5 min(5,-2) = -1.
    let (l, r) = root_values("coin_game");
    assert!(close(l, 3.0) && close(r, -1.0), "{l} {r}");
    assert!(close(expectimax(&coin("coin_game"), &coin("coin_game").start()), 3.0));
    // A biased coin: l = 0.9 * 2 + 0.1 * 4 = 2.2, r = 0.9 * 0 + 0.1 * -2 = -0.2.
    let (l, r) = root_values("coin_game(p=0.9)");
    assert!(close(l, 2.2) && close(r, -0.2), "{l} {r}");
}

/// The course's warning ("le comportement est préservé seulement pour chaque transformation positive et linéaire de
/// EVAL"), on Russell & Norvig's figure: leaves 2 2 3 3 / 1 1 4 4 with heads at 0.9.
#[test]
fn only_positive_linear_transformations_keep_the_choice() {
    // l = 0.9 * 2 + 0.1 * 3 = 2.1 beats r = 0.9 * 1 + 0.1 * 4 = 1.3.
    let (l, r) = root_values("coin_game(leaves=2/2/3/3/1/1/4/4,p=0.9)");
    assert!(close(l, 2.1) && close(r, 1.3) && l > r, "{l} {r}");
    // The order-preserving 1 -> 1, 2 -> 20, 3 -> 30, 4 -> 400: l = 21, r = 40.9, MAX now plays r.
    let (l, r) = root_values("coin_game(leaves=20/20/30/30/1/1/400/400,p=0.9)");
    assert!(close(l, 21.0) && close(r, 40.9) && r > l, "{l} {r}");
    // A positive linear transformation, 3x + 5: l = 11.3, r = 8.9, still l.
    let (l, r) = root_values("coin_game(leaves=11/11/14/14/8/8/17/17,p=0.9)");
    assert!(close(l, 11.3) && close(r, 8.9) && l > r, "{l} {r}");
    // Minimax, which ignores the probabilities (the worst coin for MAX), is not changed by any order-preserving one.
}

#[test]
fn coin_game_chance_nodes_draw_by_their_probabilities() {
    let g = coin("coin_game(p=0.25)");
    let s = g.play_moves(&g.start(), "r").unwrap();
    assert_eq!(g.turn(&s), Turn::Chance);
    let mut outcomes = ChanceList::new();
    g.chance_outcomes(&s, &mut outcomes);
    let shown: Vec<(String, f64)> = outcomes.iter().map(|&(m, p)| (g.format_move(&s, m), p)).collect();
    assert_eq!(shown, [("h".to_string(), 0.25), ("t".to_string(), 0.75)]);
    let mut rng = SmallRng::seed_from_u64(5);
    let heads = (0..8000).filter(|_| g.format_move(&s, g.random_move(&s, &mut rng).unwrap()) == "h").count();
    assert!((1800..2200).contains(&heads), "{heads} heads in 8000 tosses at p = 0.25");
}

#[test]
fn coin_game_notation_positions_and_errors() {
    let g = coin("coin_game");
    let s = g.play_moves(&g.start(), "l h r").unwrap();
    assert_eq!(g.format_position(&s), "l.h.r");
    assert_eq!(g.outcome(&s), Some(Outcome::Value(4)));
    assert_eq!(g.side_to_move(&s), Side::First);
    assert_eq!(g.outcome_for(&s, Side::Second), Some(Outcome::Value(-4)));
    assert_eq!(g.parse_position("l.h.r").unwrap(), s);
    assert_eq!(g.parse_position("root").unwrap(), g.start());
    // Long forms on input.
    assert_eq!(g.play_moves(&g.start(), "left heads right").unwrap(), s);
    assert!(g.display(&s).contains("4 for MAX"), "{}", g.display(&s));
    for (moves, needle) in [("h", "MAX chooses here"), ("l l", "the coin is tossed here"), ("l h h", "MIN chooses")] {
        let e = one_line(g.play_moves(&g.start(), moves).expect_err(moves));
        assert!(e.contains(needle), "{moves}: {e}");
    }
    one_line(g.play_moves(&g.start(), "l h r l").expect_err("past a leaf"));
    for bad in ["l.x", "l.h.r.l", "h", "x"] {
        one_line(g.parse_position(bad).expect_err(bad));
    }
}

#[test]
fn coin_game_playouts() {
    for spec in ["coin_game", "coin_game(leaves=2/2/3/3/1/1/4/4,p=0.9)", "coin_game(p=0.01)"] {
        let g = coin(spec);
        let cands: Vec<String> = ["l", "r", "h", "t", "x", "lr"].map(String::from).to_vec();
        check_playouts(&g, &g.start(), 3, 100, &cands, 3).unwrap_or_else(|e| panic!("{spec}: {e}"));
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Matching pennies (simultaneous moves)

/// Every round is one joint move, 2 choices for each player: 4 joint moves per ply, so 4^d up to d = rounds and 0
/// beyond (the game is over): rounds=1: 4, 0; rounds=2: 4, 16, 0; rounds=3: 4, 16, 64, 0.
#[test]
fn matching_pennies_perft() {
    for (rounds, expected) in [(1, vec![1, 4, 0]), (2, vec![1, 4, 16, 0]), (3, vec![1, 4, 16, 64, 0])] {
        let g = pennies(rounds);
        let counts: Vec<u64> = (0..expected.len() as u32).map(|d| perft(&g, &g.start(), d)).collect();
        assert_eq!(counts, expected, "rounds={rounds}");
    }
    assert_eq!(perft(&pennies(10), &pennies(10).start(), 6), 4096);
}

/// All 16 games of two rounds: a round is matched in 2 of its 4 joint moves, so the sums +2, 0, -2 come 4, 8 and 4
/// times, and the values for the two players are opposite.
#[test]
fn matching_pennies_values_of_all_two_round_games() {
    let g = pennies(2);
    let mut values: HashMap<i32, u32> = HashMap::new();
    let words = ["h/h", "h/t", "t/h", "t/t"];
    for a in words {
        for b in words {
            let s = g.play_moves(&g.start(), &format!("{a} {b}")).unwrap();
            let Some(Outcome::Value(v)) = g.outcome_for(&s, Side::First) else { panic!("{a} {b}: not over") };
            assert_eq!(g.outcome_for(&s, Side::Second), Some(Outcome::Value(-v)));
            *values.entry(v).or_default() += 1;
        }
    }
    assert_eq!(values, HashMap::from([(2, 4), (0, 8), (-2, 4)]));
    let s = g.play_moves(&g.start(), "h/h t/h").unwrap();
    assert_eq!(g.format_position(&s), "1-1");
    assert_eq!(g.parse_position("1-1").unwrap(), s);
}

#[test]
fn matching_pennies_parse_joint_errors_are_one_clear_line() {
    let g = pennies(2);
    let s = g.start();
    assert_eq!(g.parse_joint(&s, "heads/T").unwrap(), (0, 1));
    for (bad, needle) in [
        ("h", "write the pair FIRST/SECOND"),
        ("", "write the pair"),
        ("x/t", "first player's choice 'x' is not h or t"),
        ("h/x", "second player's choice 'x' is not h or t"),
        ("h/t/t", "second player's choice 't/t'"),
    ] {
        let e = one_line(g.parse_joint(&s, bad).expect_err(bad));
        assert!(e.contains(needle), "{bad}: {e}");
    }
    // A single move is refused with the same advice; a finished game refuses everything.
    let e = one_line(g.parse_move(&s, "h").expect_err("single move"));
    assert!(e.contains("FIRST/SECOND"), "{e}");
    let over = g.play_moves(&s, "h/h h/h").unwrap();
    assert!(one_line(g.parse_joint(&over, "h/h").expect_err("over")).contains("over"));
    let e = one_line(g.play_moves(&s, "h/h h").expect_err("half a pair"));
    assert!(e.starts_with("move 2 'h'"), "{e}");
    for bad in ["3-0", "1", "a-b", "-1-0"] {
        one_line(g.parse_position(bad).expect_err(bad));
    }
}

#[test]
fn matching_pennies_random_play_is_fair() {
    let g = pennies(5);
    let mut rng = SmallRng::seed_from_u64(9);
    let mut total = 0i64;
    for _ in 0..4000 {
        let (o, steps) = g.random_playout(&g.start(), &mut rng);
        assert_eq!(steps, 5);
        let Outcome::Value(v) = o else { panic!("a value") };
        assert!(v.abs() <= 5 && v % 2 != 0, "{v}");
        total += v as i64;
    }
    // Mean 0, standard deviation of the mean sqrt(5 / 4000) ~ 0.035.
    assert!((total as f64 / 4000.0).abs() < 0.15, "mean {}", total as f64 / 4000.0);
}

// ---------------------------------------------------------------------------------------------------------------
// Random playouts of every tiny game end with outcomes consistent for both players

#[test]
fn random_playouts_give_opposite_outcomes_to_the_two_players() {
    fn both<G: FullGame>(g: &G, seed: u64) {
        for i in 0..200 {
            let a = g.random_playout(&g.start(), &mut SmallRng::seed_from_u64(seed + i));
            let b = plateau::game::playout::random_playout_for(
                g,
                &g.start(),
                Side::Second,
                &mut SmallRng::seed_from_u64(seed + i),
            );
            assert_eq!(a.1, b.1, "{}: the same seed plays the same game", g.spec());
            assert_eq!(a.0.flip(), b.0, "{}", g.spec());
        }
    }
    both(&coin("coin_game"), 1);
    both(&pennies(4), 2);
    both(&PhantomTicTacToe, 3);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn coin_game_any_parameters(leaves in proptest::array::uniform8(-100_000i32..=100_000),
                                p in 0.001f64..0.999, seed in any::<u64>()) {
        let l: Vec<String> = leaves.iter().map(i32::to_string).collect();
        let g = coin(&format!("coin_game(leaves={},p={p})", l.join("/")));
        prop_assert_eq!(spec_of(&AnyGame::parse(&g.spec()).unwrap()), g.spec());
        let cands: Vec<String> = ["l", "r", "h", "t"].map(String::from).to_vec();
        check_playouts(&g, &g.start(), seed, 4, &cands, 3).map_err(TestCaseError::fail)?;
        // The expectimax value is between the smallest and the largest leaf.
        let v = expectimax(&g, &g.start());
        prop_assert!(v >= *leaves.iter().min().unwrap() as f64 - 1e-6 && v <= *leaves.iter().max().unwrap() as f64 + 1e-6);
    }

    #[test]
    fn matching_pennies_any_rounds(rounds in 1u32..=30, seed in any::<u64>(), first in 0u32..=30, second in 0u32..=30) {
        let g = pennies(rounds);
        let cands: Vec<String> = ["h", "t", "h/t", "x"].map(String::from).to_vec();
        check_playouts(&g, &g.start(), seed, 3, &cands, rounds as usize).map_err(TestCaseError::fail)?;
        let text = format!("{first}-{second}");
        match g.parse_position(&text) {
            Ok(s) => {
                prop_assert!(first + second <= rounds);
                prop_assert_eq!(g.format_position(&s), text);
                prop_assert_eq!(g.key(&s), g.compute_key(&s));
            }
            Err(e) => {
                prop_assert!(first + second > rounds);
                one_line(e);
            }
        }
    }
}
