//! The interop methods of `Game` (the Python bindings' actions and tensors) and `cli::run_json`.
//!
//! Along random games of every game with a numbering: every legal move has its own action below
//! `num_distinct_actions`, and the same move keeps its number (OpenSpiel's numbering is checked against pyspiel itself
//! in `python/tests/test_openspiel_agreement.py`); every tensor has the declared size and puts each board cell in
//! exactly one plane.

use std::collections::HashSet;

use plateau::game::Interop;
use plateau::game::{FullGame, Game, MoveList, Side, Turn};
use plateau::games::{AnyGame, GameVisitor};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

struct Check;

impl GameVisitor for Check {
    type Out = usize;
    fn visit<G: FullGame>(self, g: &G) -> usize {
        let n = g.num_distinct_actions().expect("the games checked here number their moves");
        let shape = g.observation_shape();
        let size: usize = shape.iter().product();
        let mut rng = SmallRng::seed_from_u64(5);
        let mut positions = 0;
        for _ in 0..30 {
            let mut s = g.start();
            while !g.is_terminal(&s) {
                let mut moves = MoveList::new();
                g.generate_moves(&s, &mut moves);
                let ids: HashSet<u32> = moves.iter().map(|&m| g.action_id(&s, m).expect("a numbered move")).collect();
                assert_eq!(
                    ids.len(),
                    moves.len(),
                    "{}: two moves share an action in {}",
                    g.spec(),
                    g.format_position(&s)
                );
                // Chance outcomes are numbered below their count (OpenSpiel's `max_chance_outcomes`), moves below `n`.
                let bound = if g.turn(&s) == Turn::Chance { moves.len() as u32 } else { n };
                assert!(ids.iter().all(|&a| a < bound), "{}: an action beyond {bound}", g.spec());
                for p in [Side::First, Side::Second] {
                    let mut t = vec![0.0f32; size];
                    g.observation_tensor(&s, p, &mut t);
                    if shape.len() == 3 {
                        let cells = shape[1] * shape[2];
                        for c in 0..cells {
                            let sum: f32 = (0..3).map(|plane| t[plane * cells + c]).sum();
                            assert_eq!(sum, 1.0, "{}: cell {c} in {}", g.spec(), g.format_position(&s));
                        }
                    } else if shape.len() == 2 {
                        for row in t.chunks(shape[1]) {
                            assert_eq!(row.iter().sum::<f32>(), 1.0, "{}: one-hot rows", g.spec());
                        }
                    } else {
                        assert!((t.iter().sum::<f32>() - 1.0).abs() < 1e-4, "{}: seeds add up to all", g.spec());
                    }
                }
                let m = moves[rng.random_range(0..moves.len())];
                g.play(&mut s, m);
                positions += 1;
            }
        }
        positions
    }
}

#[test]
fn numbered_games_give_distinct_stable_actions_and_full_tensors() {
    for text in [
        "breakthrough",
        "breakthrough(rows=6,columns=5)",
        "tic_tac_toe",
        "connect_four",
        "othello",
        "oware",
        "pig(target=20)",
    ] {
        let positions = AnyGame::parse(text).expect("a game").visit(Check);
        assert!(positions > 100, "{text}: {positions} positions");
    }
}

#[test]
fn breakthrough_actions_are_openspiels() {
    // OpenSpiel's 6x5 first moves (its player 0 from the top: a5a4 = 62, a5b4 = 64, e5e4 = 110), mirrored.
    let g = plateau::games::Breakthrough::new(6, 5, 2, false, false).expect("a board");
    let s = g.start();
    let id = |text: &str| g.action_id(&s, g.parse_move(&s, text).expect("legal")).expect("numbered");
    assert_eq!((id("a2a3"), id("a2b3"), id("e2e3")), (62, 64, 110));
}

#[test]
fn marbles_tensor_is_the_pile_and_the_side() {
    let g = plateau::games::marbles::Marbles { n: 5, k: 3, misere: false };
    let mut s = g.start();
    let two = g.parse_move(&s, "2").expect("legal");
    g.play(&mut s, two);
    let mut t = vec![0.0f32; 12];
    g.observation_tensor(&s, Side::First, &mut t);
    assert_eq!(t, [0., 0., 0., 1., 0., 0., 0., 1., 0., 0., 0., 0.]);
}

#[test]
fn games_without_numbering_number_by_list_index() {
    struct Unnumbered;
    impl GameVisitor for Unnumbered {
        type Out = bool;
        fn visit<G: FullGame>(self, g: &G) -> bool {
            g.num_distinct_actions().is_none()
        }
    }
    for text in ["chess", "backgammon", "marbles"] {
        assert!(AnyGame::parse(text).expect("a game").visit(Unnumbered), "{text}");
    }
}

#[test]
fn run_json_returns_the_documents_and_one_line_errors() {
    let docs =
        plateau::cli::run_json(&["perft".into(), "tic_tac_toe".into(), "--depth".into(), "2".into(), "--json".into()])
            .expect("perft runs");
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0]["nodes"], 72);
    let e =
        plateau::cli::run_json(&["perft".into(), "nosuchgame".into(), "--depth".into(), "1".into(), "--json".into()])
            .unwrap_err();
    assert!(e.starts_with("unknown game 'nosuchgame'") && !e.contains('\n'), "{e}");
    let e = plateau::cli::run_json(&["nosuchcommand".into()]).unwrap_err();
    assert!(e.contains("nosuchcommand") && !e.contains('\n'), "{e}");
}

/// Random games from the start: how long the longest lasted (a joint move one action) and the largest return.
struct Bounds;

impl GameVisitor for Bounds {
    type Out = (Option<u32>, f64, u32, f64);
    fn visit<G: FullGame>(self, g: &G) -> (Option<u32>, f64, u32, f64) {
        let mut rng = SmallRng::seed_from_u64(11);
        let (mut longest, mut largest) = (0u32, 0.0f64);
        for _ in 0..300 {
            let mut s = g.start();
            let mut plies = 0u32;
            while !g.is_terminal(&s) {
                if g.turn(&s) == Turn::Simultaneous {
                    let pick = |p: Side, rng: &mut SmallRng| {
                        let mut moves = MoveList::new();
                        g.player_moves(&s, p, &mut moves);
                        moves[rng.random_range(0..moves.len())]
                    };
                    let (a, b) = (pick(Side::First, &mut rng), pick(Side::Second, &mut rng));
                    g.play_joint(&mut s, a, b);
                } else {
                    let m = g.random_move(&s, &mut rng).expect("a move in a live position");
                    g.play(&mut s, m);
                }
                plies += 1;
            }
            longest = longest.max(plies);
            let o = g.outcome_for(&s, Side::First).expect("a finished game");
            largest = largest.max(g.returns_value(o).abs());
        }
        (g.max_game_length(), g.max_utility(), longest, largest)
    }
}

#[test]
fn no_random_game_outlasts_max_game_length_or_outscores_max_utility() {
    for (text, length) in [
        ("tic_tac_toe", Some(9)),
        ("phantom_tic_tac_toe", Some(17)),
        ("connect_four", Some(42)),
        ("qubic(size=3)", Some(27)),
        ("othello", Some(121)),
        ("breakthrough(rows=5,columns=3)", Some(48)),
        ("breakthrough(rows=5,columns=3,information=imperfect)", Some(48)),
        ("matching_pennies(rounds=3)", Some(3)),
        ("tree(text=A(B(C=7 D=-9) E=3))", Some(2)),
        ("random_tree(width=3,depth=4,model=incremental)", Some(4)),
        ("chance_tree(width=2,depth=5)", Some(5)),
        ("backgammon(gammons=true)", None),
        ("oware(houses=3,seeds=2)", None),
        ("pig(target=20)", None),
        ("marbles", None),
    ] {
        let (declared, max_utility, longest, largest) = AnyGame::parse(text).expect("a game").visit(Bounds);
        assert_eq!(declared, length, "{text}");
        if let Some(n) = declared {
            assert!(longest <= n, "{text}: a game of {longest} actions, max_game_length {n}");
        }
        assert!(largest <= max_utility, "{text}: a return of {largest}, max_utility {max_utility}");
        assert!(largest >= 1.0, "{text}: no decisive game in 300");
    }
}
