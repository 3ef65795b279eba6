//! Phantom tic-tac-toe, the tiny game with hidden information (and turns that do not alternate):
//!
//! - perft derived by hand (in the comments) and checked deeper against a naive array-based implementation written
//!   here, from the start and from a position with found marks;
//! - the referee's texts of the documentation, and one-line errors for impossible positions and illegal tries;
//! - observations unchanged by what a player cannot see; resampling that keeps the observation, reaches only states
//!   reachable from the start (all of them are listed) and is not always the true state;
//! - the property checks of `plateau::check` on random playouts (observations and resampling included), and proptest.

use std::collections::{HashMap, HashSet};

use plateau::check::check_playouts;
use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome, Side, perft};
use plateau::games::phantom_tic_tac_toe::{PhantomState, PhantomTicTacToe};

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn one_line(e: impl std::fmt::Display) -> String {
    let t = e.to_string();
    assert!(!t.is_empty() && !t.contains('\n'), "not one line: {t:?}");
    t
}

/// A naive phantom tic-tac-toe: a 9-cell board (0 empty, 1 X, 2 O), what each player knows, and whose turn it is.
#[derive(Clone)]
struct Naive {
    board: [u8; 9],
    known: [[bool; 9]; 2],
    turn: usize,
}

const NAIVE_LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

fn naive_perft(n: &Naive, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let line = NAIVE_LINES.iter().any(|l| n.board[l[0]] != 0 && l.iter().all(|&i| n.board[i] == n.board[l[0]]));
    if line || n.board.iter().all(|&c| c != 0) {
        return 0;
    }
    let mut total = 0;
    for sq in 0..9 {
        if n.known[n.turn][sq] {
            continue;
        }
        let mut c = n.clone();
        c.known[n.turn][sq] = true;
        if c.board[sq] == 0 {
            c.board[sq] = n.turn as u8 + 1;
            c.turn = 1 - n.turn;
        }
        total += naive_perft(&c, depth - 1);
    }
    total
}

/// Depth 1: X may name any of the 9 squares. Depth 2: each is placed (the board is empty) and O, who knows nothing,
/// may name any of the 9: 81. Depth 3: in 9 of those O named X's square: the try failed and O names one of the 8
/// others (9 * 8); in the 72 others O placed and X, knowing only its mark, names one of 8 (72 * 8): 648.
/// Depth 4: after O's failure (9 * 8 paths) O's 8 names are empty squares and X then has 8 choices (9 * 8 * 8 = 576);
/// after O's placement (72 paths) X's 8 names hit O's mark once (X then names one of 7) and empty squares 7 times
/// (O then names one of its 8 unknown squares): 72 * (7 + 7 * 8) = 4536; in all 5112.
/// Depth 5, the same way (no line is possible before X's third mark, at ply 5): 4032 after O's first failure, and
/// after O's placement 4032 (X failed then placed, O names one of 8), 7056 (X placed, O failed: O names one of 7)
/// and 21168 (X placed, O placed: X names one of 7): 36288.
#[test]
fn phantom_perft_by_hand_and_against_a_naive_implementation() {
    let g = PhantomTicTacToe;
    let by_hand = [1, 9, 81, 648, 5112, 36288];
    for (d, &n) in by_hand.iter().enumerate() {
        assert_eq!(perft(&g, &g.start(), d as u32), n, "depth {d}");
    }
    let naive = Naive { board: [0; 9], known: [[false; 9]; 2], turn: 0 };
    for d in 0..=7 {
        assert_eq!(perft(&g, &g.start(), d), naive_perft(&naive, d), "depth {d}");
    }
    // From a position with hidden marks and a found one: X to move after X b2, O's failed b2, O a1, X's failed a1.
    let s = g.play_moves(&g.start(), "b2 b2 a1 a1").unwrap();
    let mut n = naive.clone();
    n.board[4] = 1;
    n.board[0] = 2;
    n.known = [[false; 9]; 2];
    for (p, sq) in [(0, 4), (0, 0), (1, 4), (1, 0)] {
        n.known[p][sq] = true;
    }
    assert_eq!(g.format_position(&s), "3/1x1/o2 x !a1 +a1");
    for d in 0..=5 {
        assert_eq!(perft(&g, &s, d), naive_perft(&n, d), "from b2 b2 a1 a1, depth {d}");
    }
}

#[test]
fn phantom_referee_texts_of_the_documentation() {
    let g = PhantomTicTacToe;
    let mut s = g.start();
    assert_eq!(g.format_position(&s), "3/3/3 x - -");
    let mut texts = Vec::new();
    for m in ["b2", "b2", "a1"] {
        s = g.play_moves(&s, m).unwrap();
        texts.push(g.format_position(&s));
    }
    assert_eq!(texts, ["3/1X1/3 o +b2 *", "3/1x1/3 o +b2 !b2", "3/1x1/O2 x * +a1"]);
    for t in &texts {
        assert_eq!(g.format_position(&g.parse_position(t).unwrap()), *t);
    }
    // X's view after O's a1: its mark on b2, nothing of O's, and that O moved.
    let view = g.observation(&s, Side::First);
    assert!(view.contains("O placed a mark") && view.contains("your move (X)"), "{view}");
    assert!(view.contains("2  . X .\n1  . . .\n"), "{view}");
    // O's view: its a1 and X's b2, which it found.
    let view = g.observation(&s, Side::Second);
    assert!(view.contains("your mark went on a1") && view.contains("X to move"), "{view}");
    assert!(view.contains("2  . X .\n1  O . .\n"), "{view}");
    // The referee's drawing shows everything.
    assert!(g.display(&s).contains("2  . x .\n1  O . .\n"), "{}", g.display(&s));
}

#[test]
fn phantom_impossible_positions_and_illegal_moves_are_one_line_errors() {
    let g = PhantomTicTacToe;
    for bad in [
        "3/3/3 x - * ",
        "3/1X1/3 x - -",
        "3/1x1/3 o +b2 *",
        "3/1X1/3 o +a1 *",
        "3/1X1/3 o +b2 !b2",
        "XXX/OO1/3 x * +b2",
        "XXX/OXO/OXO o +c3 *",
        "XXX/OXO/OXO o +b3 !a2",
        "3/3/3 x -",
        "3/3/4 x - -",
        "3/3/3 z - -",
        "3/3/3 x - ?a1",
    ] {
        one_line(g.parse_position(bad).expect_err(bad));
    }
    // Finished games: X completed rank 3 with c3; X completed rank 3 and file b with b3 (not with c3, above).
    for text in ["XXX/OO1/3 o +c3 *", "XXX/OXO/OXO o +b3 *"] {
        let s = g.parse_position(text).unwrap();
        assert_eq!(g.outcome_for(&s, Side::First), Some(Outcome::Win), "{text}");
        assert_eq!(g.format_position(&s), text);
    }
    let s = g.play_moves(&g.start(), "b2 b2").unwrap();
    let e = one_line(g.parse_move(&s, "b2").expect_err("found"));
    assert!(e.contains("you already found X's mark on b2"), "{e}");
    let s = g.play_moves(&g.start(), "b2 a1").unwrap();
    let e = one_line(g.parse_move(&s, "b2").expect_err("own"));
    assert!(e.contains("already your mark"), "{e}");
    one_line(g.parse_move(&s, "d1").expect_err("off the board"));
}

/// Every state reachable from the start, by a search over all tries.
fn reachable(g: &PhantomTicTacToe) -> HashSet<PhantomState> {
    let mut seen = HashSet::from([g.start()]);
    let mut stack = vec![g.start()];
    let mut moves = MoveList::new();
    while let Some(s) = stack.pop() {
        g.generate_moves(&s, &mut moves);
        for &m in &moves {
            let mut c = s;
            g.play(&mut c, m);
            if seen.insert(c) {
                stack.push(c);
            }
        }
    }
    seen
}

#[test]
fn phantom_resampling_keeps_the_view_reaches_only_reachable_states_and_varies() {
    let g = PhantomTicTacToe;
    let all = reachable(&g);
    // Distinct referee states (marks, finds, side to move, last messages) reachable from the start.
    assert_eq!(all.len(), 2_474_131);
    let mut rng = SmallRng::seed_from_u64(11);
    let mut differs = 0;
    let mut draws = 0;
    for _ in 0..300 {
        let mut s = g.start();
        while !g.is_terminal(&s) {
            for p in [Side::First, Side::Second] {
                let t = g.resample(&s, p, &mut rng);
                assert!(
                    all.contains(&t),
                    "resample for {p:?} of {} gave {}",
                    g.format_position(&s),
                    g.format_position(&t)
                );
                assert_eq!(g.observation(&t, p), g.observation(&s, p));
                draws += 1;
                differs += (t != s) as u32;
            }
            let m = g.random_move(&s, &mut rng).unwrap();
            g.play(&mut s, m);
        }
        assert_eq!(g.resample(&s, Side::First, &mut rng), s, "a finished game has nothing hidden");
    }
    // 5210 of 6234 here.
    assert!(differs * 3 > draws * 2, "{differs} of {draws} resamples differ from the true state");
    // X to move after b2 a1: O's a1 is anywhere among the 8 squares X does not hold, uniformly.
    let s = g.play_moves(&g.start(), "b2 a1").unwrap();
    let mut squares: HashMap<u16, u32> = HashMap::new();
    for _ in 0..4000 {
        *squares.entry(g.resample(&s, Side::First, &mut rng).marks[1]).or_default() += 1;
    }
    assert_eq!(squares.len(), 8);
    assert!(squares.values().all(|&n| (400..600).contains(&n)), "{squares:?}");
}

#[test]
fn phantom_observations_ignore_what_a_player_cannot_see() {
    let g = PhantomTicTacToe;
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..500 {
        let mut s = g.start();
        while !g.is_terminal(&s) {
            let (p, q) = (g.side_to_move(&s), g.side_to_move(&s).other());
            let m = g.random_move(&s, &mut rng).unwrap();
            let mut c = s;
            g.play(&mut c, m);
            let failed = g.side_to_move(&c) == p;
            if failed {
                // A failed try: the opponent sees nothing; the mover learns the square.
                assert_eq!(g.observation(&c, q), g.observation(&s, q));
                assert_ne!(g.observation(&c, p), g.observation(&s, p));
            } else if !g.is_terminal(&c) {
                // A placement: the opponent learns only that a mark was placed, whatever the square: every other
                // placement it could not tell apart gives the same view.
                let view = g.observation(&c, q);
                let mut moves = MoveList::new();
                g.generate_moves(&s, &mut moves);
                for &other in &moves {
                    let mut d = s;
                    g.play(&mut d, other);
                    let unseen = s.marks[q.index()] & (1 << other) == 0;
                    if unseen && !g.is_terminal(&d) && g.side_to_move(&d) == q {
                        assert_eq!(g.observation(&d, q), view);
                    }
                }
            }
            s = c;
        }
    }
}

#[test]
fn phantom_playouts() {
    let g = PhantomTicTacToe;
    let mut cands = Vec::new();
    for f in ['a', 'b', 'c', 'd'] {
        for r in 0..=4 {
            cands.push(format!("{f}{r}"));
        }
    }
    check_playouts(&g, &g.start(), 1, 300, &cands, 17).expect("phantom tic-tac-toe properties");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn phantom_any_seed(seed in any::<u64>()) {
        let g = PhantomTicTacToe;
        let cands: Vec<String> = ["a1", "b2", "c3", "d4"].map(String::from).to_vec();
        check_playouts(&g, &g.start(), seed, 4, &cands, 17).map_err(TestCaseError::fail)?;
        // A random sequence of tries: the length is bounded by 9 marks plus 8 finds.
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut s = g.start();
        let mut plies = 0;
        while !g.is_terminal(&s) {
            let mut moves = MoveList::new();
            g.generate_moves(&s, &mut moves);
            g.play(&mut s, moves[rng.random_range(0..moves.len())]);
            plies += 1;
        }
        prop_assert!(plies <= 17);
    }
}
