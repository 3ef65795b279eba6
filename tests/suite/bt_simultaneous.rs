//! Breakthrough with simultaneous moves (`breakthrough(...,moves=simultaneous)`, rules in
//! `docs/breakthrough-variants.md`): the registry's routing, the property checks of `plateau::check` on random
//! playouts, every collision rule on hand-made boards, perft counted by hand, and proptest properties (a cancelled
//! move changes nothing but the count; a played pair moves exactly the two pieces; a lone piece is never captured).

use plateau::check::check_playouts;
use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome, Side, Turn, perft};
use plateau::games::breakthrough::BtMove;
use plateau::games::breakthrough::simultaneous::{REPEATS_TO_DRAW, SimBreakthrough, SimState, collision};
use plateau::games::{AnyGame, Breakthrough};

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn game(text: &str) -> SimBreakthrough {
    match AnyGame::parse(text) {
        Ok(AnyGame::BreakthroughSimultaneous(g)) => g,
        other => panic!("{text}: {other:?}"),
    }
}

fn pos(g: &SimBreakthrough, text: &str) -> SimState {
    g.parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn joint(g: &SimBreakthrough, s: &SimState, text: &str) -> SimState {
    let (a, b) = g.parse_joint(s, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut c = *s;
    g.play_joint(&mut c, a, b);
    c
}

fn small() -> SimBreakthrough {
    game("breakthrough(rows=4,columns=3,piece_rows=1,moves=simultaneous)")
}

#[test]
fn the_registry_sends_moves_simultaneous_here_and_the_spec_parses_back() {
    for text in [
        "breakthrough(moves=simultaneous)",
        "breakthrough(rows=5,columns=5,moves=simultaneous)",
        "bt(moves=simultaneous,rows=6,columns=4,misere=true)",
        "breakthrough_simultaneous(rows=3,columns=3,piece_rows=1)",
    ] {
        let any = AnyGame::parse(text).unwrap();
        assert!(any.kind().simultaneous && !any.kind().hidden, "{text}");
        let AnyGame::BreakthroughSimultaneous(g) = any else { panic!("{text}") };
        let again = game(&g.spec());
        assert_eq!(again, g, "{text} -> {}", g.spec());
        assert!(g.spec().starts_with("breakthrough") && g.spec().contains("moves=simultaneous"), "{}", g.spec());
    }
    assert_eq!(game("breakthrough(moves=simultaneous)").spec(), "breakthrough(moves=simultaneous)");
    assert!(matches!(AnyGame::parse("breakthrough(rows=6)"), Ok(AnyGame::Breakthrough(_))));
    // The key's default value names the ordinary game.
    assert!(matches!(AnyGame::parse("breakthrough(moves=alternating)"), Ok(AnyGame::Breakthrough(_))));
    for bad in ["breakthrough(moves=sideways)", "breakthrough(moves=simultaneous,rows=2)", "breakthrough(moves=)"] {
        let e = AnyGame::parse(bad).unwrap_err().to_string();
        assert!(!e.contains('\n') && !e.is_empty(), "{bad}: {e}");
    }
}

#[test]
fn random_playouts_pass_the_property_checks() {
    let sizes = [
        "breakthrough(rows=3,columns=3,piece_rows=1,moves=simultaneous)",
        "breakthrough(rows=5,columns=5,moves=simultaneous)",
        "breakthrough(rows=6,columns=4,moves=simultaneous,misere=true)",
        "breakthrough(rows=5,columns=4,moves=simultaneous,forced_captures=true)",
        "breakthrough(moves=simultaneous)",
    ];
    for text in sizes {
        let g = game(text);
        let cands = ["a1a2", "a2a3", "b2c3", "zz", "a1"].map(String::from);
        check_playouts(&g, &g.start(), 7, 20, &cands, 400).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

#[test]
fn perft_counts_each_pair_once() {
    // 3x3, one row each: White's pieces a1 b1 c1 have 2 + 3 + 2 moves, Black's the same: 7 * 7 pairs.
    let g = game("breakthrough(rows=3,columns=3,piece_rows=1,moves=simultaneous)");
    assert_eq!(perft(&g, &g.start(), 1), 49);
    // 8x8: 22 moves each in alternating Breakthrough's start.
    let g = game("breakthrough(moves=simultaneous)");
    assert_eq!(perft(&g, &g.start(), 1), 22 * 22);
    // Depth 2 from the start of 8x8 equals the sum over the pairs of the product of both sides' move counts there.
    let mut expect = 0;
    let s = g.start();
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    g.player_moves(&s, Side::First, &mut a);
    g.player_moves(&s, Side::Second, &mut b);
    for &x in &a {
        for &y in &b {
            let mut c = s;
            g.play_joint(&mut c, x, y);
            let (mut p, mut q) = (MoveList::new(), MoveList::new());
            g.player_moves(&c, Side::First, &mut p);
            g.player_moves(&c, Side::Second, &mut q);
            expect += (p.len() * q.len()) as u64;
        }
    }
    assert_eq!(perft(&g, &s, 2), expect);
}

#[test]
fn both_moves_to_the_same_square_are_cancelled_and_announced() {
    let g = small();
    // White b1, Black b3 (and a4, c4 far away): both can go to b2.
    let s = pos(&g, "p1p/1p1/3/1P1");
    let t = joint(&g, &s, "b1b2/b3b2");
    assert_eq!((t.white, t.black), (s.white, s.black), "nobody moves");
    assert_eq!(t.repeats, 1);
    assert_eq!(g.format_position(&t), "p1p/1p1/3/1P1 1 b1b2/b3b2");
    assert_eq!(g.parse_position(&g.format_position(&t)).unwrap(), t);
    let seen = g.observation(&t, Side::Second);
    assert!(seen.contains("cancelled: b1b2/b3b2") && seen.contains("same square"), "{seen}");
    assert_eq!(seen, g.observation(&t, Side::First), "nothing is hidden");
    assert!(g.display(&t).contains("cancelled"));
    assert_eq!(g.outcome(&t), None);
    // A second cancelled turn in a row: the board stands for the third time, a draw.
    let u = joint(&g, &t, "b1a2/b3a2");
    assert_eq!(u.repeats, REPEATS_TO_DRAW);
    assert_eq!(g.outcome(&u), Some(Outcome::Draw));
    assert!(g.observation(&u, Side::First).contains("twice in a row"));
    // A played turn in between starts the count again.
    let v = joint(&g, &joint(&g, &t, "b1c2/b3a2"), "c2c3/a2a1");
    assert_eq!(v.repeats, 0);
    assert_eq!(g.key(&v), g.compute_key(&v));
}

#[test]
fn pieces_that_would_swap_squares_are_cancelled_but_crossing_diagonals_are_not() {
    let g = small();
    // White b2 and Black c3 can capture each other.
    let s = pos(&g, "p2/2p/1P1/P2");
    let t = joint(&g, &s, "b2c3/c3b2");
    assert_eq!((t.white, t.black, t.repeats), (s.white, s.black, 1));
    assert!(g.announcement(&t).unwrap().contains("swap"));
    // White b2 to c3 and Black c3 to ... the pieces on b3/c2 in an X: White b2c3, Black b3c2 land on different
    // squares; they only cross between squares, and both are played.
    let s = pos(&g, "3/1p1/1P1/3");
    let t = joint(&g, &s, "b2c3/b3c2");
    assert_eq!(g.format_position(&t), "3/2P/2p/3");
    assert_eq!(collision(BtMove { from: 4, to: 8 }, BtMove { from: 7, to: 5 }), None);
}

#[test]
fn a_capture_of_a_piece_that_moves_away_captures_nothing() {
    let g = small();
    // White b2 captures towards c3 while Black's c3 steps down to c2: Black's piece escapes, White lands on c3.
    let s = pos(&g, "p2/2p/1P1/P2");
    let t = joint(&g, &s, "b2c3/c3c2");
    assert_eq!(g.format_position(&t), "p2/2P/2p/P2");
    assert_eq!(t.white.count_ones(), 2);
    assert_eq!(t.black.count_ones(), 2);
}

#[test]
fn captures_of_pieces_that_stay_happen_on_both_sides() {
    let g = game("breakthrough(rows=5,columns=4,moves=simultaneous)");
    // White a2 takes b3; Black d4 takes c3 (a White piece that does not move).
    let s = pos(&g, "4/3p/1pP1/P3/4");
    let t = joint(&g, &s, "a2b3/d4c3");
    assert_eq!(g.format_position(&t), "4/4/1Pp1/4/4");
    assert_eq!(g.outcome(&t), None);
}

#[test]
fn arrivals_decide_and_arriving_together_is_a_draw() {
    let g = small();
    let s = pos(&g, "3/P1p/3/3");
    assert_eq!(g.outcome(&joint(&g, &s, "a3a4/c3c2")), Some(Outcome::Win));
    assert_eq!(g.outcome(&joint(&g, &s, "a3b4/c3b2")), Some(Outcome::Win));
    let s = pos(&g, "3/P2/2p/3");
    assert_eq!(g.outcome(&joint(&g, &s, "a3b4/c2c1")), Some(Outcome::Draw));
    let u = joint(&g, &s, "a3a4/c2c1");
    assert_eq!(g.outcome_for(&u, Side::Second), Some(Outcome::Draw));
    assert_eq!(g.outcome(&joint(&g, &s, "a3b4/c2b1")), Some(Outcome::Draw));
    let both = joint(&g, &pos(&g, "3/1P1/2p/3"), "b3b4/c2c1");
    assert_eq!(g.outcome(&both), Some(Outcome::Draw));
    let black = joint(&g, &pos(&g, "3/3/1Pp/3"), "b2b3/c2c1");
    assert_eq!(g.outcome(&black), Some(Outcome::Loss));
    // Misère: the side that arrives loses.
    let m = game("breakthrough(rows=4,columns=3,piece_rows=1,moves=simultaneous,misere=true)");
    let s = pos(&m, "3/P1p/3/3");
    assert_eq!(m.outcome(&joint(&m, &s, "a3a4/c3c2")), Some(Outcome::Loss));
    // A side without pieces (a position given by hand) has lost.
    assert_eq!(g.outcome(&pos(&g, "3/3/1P1/3")), Some(Outcome::Win));
    assert_eq!(g.outcome(&pos(&g, "3/1p1/3/3")), Some(Outcome::Loss));
    assert_eq!(g.turn(&g.start()), Turn::Simultaneous);
}

#[test]
fn bad_input_is_a_one_line_error() {
    let g = small();
    let s = g.start();
    for bad in ["a1a2", "a1a2/", "a1a2/a1a2", "a1a3/c4c3", "x/y", "a1a2/c4c3/b1b2"] {
        let e = g.play_moves(&s, bad).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{bad}: {e}");
    }
    for bad in ["ppp/3/3/PPP w", "ppp/3/3/PPP 1", "ppp/3/3/PPP 3 a1a2/a4a3", "ppp/3/3/PPP 1 a1a2/c4c3", "pppp/3/3/PPP"]
    {
        let e = g.parse_position(bad).unwrap_err().to_string();
        assert!(!e.contains('\n') && !e.is_empty(), "{bad}: {e}");
    }
    assert!(g.parse_position("ppp/3/3/PPP 1 a1a2/c4c3").unwrap_err().to_string().contains("does not collide"));
}

/// A random position reached by random pairs from the start of a random small board.
fn random_state(seed: u64) -> (SimBreakthrough, SimState) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let sizes = [(4, 3, 1), (5, 4, 2), (5, 5, 2), (6, 4, 2), (4, 4, 1)];
    let (rows, columns, piece_rows) = sizes[rng.random_range(0..sizes.len())];
    let g = game(&format!("breakthrough(rows={rows},columns={columns},piece_rows={piece_rows},moves=simultaneous)"));
    let mut s = g.start();
    for _ in 0..rng.random_range(0..12) {
        if g.is_terminal(&s) {
            break;
        }
        plateau::game::playout::random_step(&g, &mut s, &mut rng);
    }
    (g, s)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// A cancelled pair changes nothing on the board; a played pair moves exactly the two pieces, each as it would
    /// in alternating Breakthrough, and removes only enemy pieces that stayed on the arrival squares.
    #[test]
    fn pairs_do_what_the_rules_say(seed in any::<u64>()) {
        let (g, s) = random_state(seed);
        prop_assume!(!g.is_terminal(&s));
        let (mut a, mut b) = (MoveList::new(), MoveList::new());
        g.player_moves(&s, Side::First, &mut a);
        g.player_moves(&s, Side::Second, &mut b);
        let base: &Breakthrough = &g.base;
        for &x in &a {
            for &y in &b {
                let mut t = s;
                g.play_joint(&mut t, x, y);
                prop_assert_eq!(g.key(&t), g.compute_key(&t));
                if collision(x, y).is_some() {
                    prop_assert_eq!((t.white, t.black, t.repeats), (s.white, s.black, s.repeats + 1));
                    continue;
                }
                prop_assert_eq!(t.repeats, 0);
                // Each side's pieces: as if it had played alone, minus what the other captured.
                let mut alone_w = SimBreakthrough::view(&s, Side::First);
                base.play(&mut alone_w, x);
                let mut alone_b = SimBreakthrough::view(&s, Side::Second);
                base.play(&mut alone_b, y);
                let bit = |sq: u8| 1u64 << sq;
                let captured_w = bit(y.to) & s.white & !bit(x.from);
                let captured_b = bit(x.to) & s.black & !bit(y.from);
                prop_assert_eq!(t.white, alone_w.white & !captured_w);
                prop_assert_eq!(t.black, alone_b.black & !captured_b);
                prop_assert_eq!(t.white & t.black, 0);
            }
        }
    }

    /// A side's last piece is never captured: it must move, and a piece that moves leaves the square it could be
    /// captured on (or its move is cancelled with the capture).
    #[test]
    fn a_lone_piece_is_never_captured(seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let (g, mut s) = random_state(seed);
        for _ in 0..40 {
            if g.is_terminal(&s) {
                break;
            }
            let lone = [s.white.count_ones() == 1, s.black.count_ones() == 1];
            plateau::game::playout::random_step(&g, &mut s, &mut rng);
            prop_assert!(!lone[0] || s.white != 0);
            prop_assert!(!lone[1] || s.black != 0);
        }
    }
}
