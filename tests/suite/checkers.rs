//! Checkers (English draughts): perft from the start against Aart Bik's published figures, the rules against a naive
//! implementation written here (an 8 x 8 array of pieces, moves found by walking the board, no bits) on random
//! positions from playouts and on random placements with kings, the generic property checks, notation and position
//! text, malformed input, the draw rules, and the engine against `random`.

use std::collections::BTreeSet;

use plateau::check::check_playouts;
use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome, Side, perft};
use plateau::games::checkers::{Checkers, CheckersState, DrawRule};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::common::{json, one_line_error, plateau, stdout};

// ---- The naive rules ----

const EMPTY: u8 = 0;
const BLACK_MAN: u8 = 1;
const WHITE_MAN: u8 = 2;
const BLACK_KING: u8 = 3;
const WHITE_KING: u8 = 4;

/// A position as a person sets it up: 64 cells (row 0 at the top, Black's side), whose turn (1 Black, 2 White), and
/// the plies counted towards the draw rule.
#[derive(Clone)]
struct Naive {
    board: [u8; 64],
    turn: u8,
    quiet: u32,
    /// Plies without a capture (`only_captures`) or without a capture or a man move after which the game is drawn.
    limit: u32,
    only_captures: bool,
}

/// A move: the squares visited (PDN numbers) and the captured squares.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct NaiveMove {
    path: Vec<(usize, usize)>,
    captured: Vec<(usize, usize)>,
}

/// The PDN number of a dark cell: four to a row from the top left.
fn pdn(r: usize, c: usize) -> u32 {
    (r * 4 + c / 2 + 1) as u32
}

impl Naive {
    fn owner(p: u8) -> u8 {
        match p {
            BLACK_MAN | BLACK_KING => 1,
            WHITE_MAN | WHITE_KING => 2,
            _ => 0,
        }
    }

    fn directions(p: u8) -> Vec<(i32, i32)> {
        match p {
            BLACK_MAN => vec![(1, -1), (1, 1)],
            WHITE_MAN => vec![(-1, -1), (-1, 1)],
            _ => vec![(-1, -1), (-1, 1), (1, -1), (1, 1)],
        }
    }

    fn at(&self, r: i32, c: i32) -> Option<u8> {
        if (0..8).contains(&r) && (0..8).contains(&c) { Some(self.board[(r * 8 + c) as usize]) } else { None }
    }

    fn crowns(p: u8, r: usize) -> bool {
        (p == BLACK_MAN && r == 7) || (p == WHITE_MAN && r == 0)
    }

    /// Continue a jump of piece `p` standing at the end of `m.path` on `board`.
    fn jumps(&self, board: &mut [u8; 64], p: u8, m: NaiveMove, out: &mut Vec<NaiveMove>) {
        let (r, c) = *m.path.last().unwrap();
        let mut more = false;
        for (dr, dc) in Naive::directions(p) {
            let (mr, mc) = (r as i32 + dr, c as i32 + dc);
            let (lr, lc) = (r as i32 + 2 * dr, c as i32 + 2 * dc);
            if !(0..8).contains(&lr) || !(0..8).contains(&lc) {
                continue;
            }
            let mid = board[(mr * 8 + mc) as usize];
            if Naive::owner(mid) != 3 - self.turn || board[(lr * 8 + lc) as usize] != EMPTY {
                continue;
            }
            more = true;
            let mut next = m.clone();
            next.path.push((lr as usize, lc as usize));
            next.captured.push((mr as usize, mc as usize));
            if Naive::crowns(p, lr as usize) {
                out.push(next);
                continue;
            }
            board[(mr * 8 + mc) as usize] = EMPTY;
            board[r * 8 + c] = EMPTY;
            board[(lr * 8 + lc) as usize] = p;
            self.jumps(board, p, next, out);
            board[(lr * 8 + lc) as usize] = EMPTY;
            board[r * 8 + c] = p;
            board[(mr * 8 + mc) as usize] = mid;
        }
        if !more && m.path.len() > 1 {
            out.push(m);
        }
    }

    fn moves(&self) -> Vec<NaiveMove> {
        if self.quiet >= self.limit {
            return Vec::new();
        }
        let mut captures = Vec::new();
        let mut steps = Vec::new();
        for r in 0..8 {
            for c in 0..8 {
                let p = self.board[r * 8 + c];
                if Naive::owner(p) != self.turn {
                    continue;
                }
                let mut board = self.board;
                self.jumps(&mut board, p, NaiveMove { path: vec![(r, c)], captured: vec![] }, &mut captures);
                for (dr, dc) in Naive::directions(p) {
                    if self.at(r as i32 + dr, c as i32 + dc) == Some(EMPTY) {
                        let to = ((r as i32 + dr) as usize, (c as i32 + dc) as usize);
                        steps.push(NaiveMove { path: vec![(r, c), to], captured: vec![] });
                    }
                }
            }
        }
        if captures.is_empty() {
            return steps;
        }
        // One move per start, end and set of captured pieces.
        let mut seen = BTreeSet::new();
        captures.retain(|m| {
            let mut caps = m.captured.clone();
            caps.sort();
            seen.insert((m.path[0], *m.path.last().unwrap(), caps))
        });
        captures
    }

    fn play(&self, m: &NaiveMove) -> Naive {
        let mut n = self.clone();
        let (fr, fc) = m.path[0];
        let (tr, tc) = *m.path.last().unwrap();
        let mut p = n.board[fr * 8 + fc];
        let man = p == BLACK_MAN || p == WHITE_MAN;
        n.board[fr * 8 + fc] = EMPTY;
        for &(r, c) in &m.captured {
            n.board[r * 8 + c] = EMPTY;
        }
        if Naive::crowns(p, tr) {
            p += 2;
        }
        n.board[tr * 8 + tc] = p;
        let reset = !m.captured.is_empty() || (man && !self.only_captures);
        n.quiet = if reset { 0 } else { self.quiet + 1 };
        n.turn = 3 - self.turn;
        n
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves().iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }

    /// The moves as (start, end, captured) in PDN numbers.
    fn move_set(&self) -> BTreeSet<(u32, u32, BTreeSet<u32>)> {
        self.moves()
            .iter()
            .map(|m| {
                let (a, b) = (m.path[0], *m.path.last().unwrap());
                (pdn(a.0, a.1), pdn(b.0, b.1), m.captured.iter().map(|&(r, c)| pdn(r, c)).collect())
            })
            .collect()
    }
}

/// The naive position of a state: bit `i` of the bitboards is PDN square `i + 1` (the documented layout).
fn naive_of(g: &Checkers, s: &CheckersState) -> Naive {
    let mut board = [EMPTY; 64];
    for r in 0..8 {
        for c in 0..8 {
            if (r + c) % 2 == 1 {
                let bit = 1u32 << (pdn(r, c) - 1);
                board[r * 8 + c] = match (s.black & bit != 0, s.white & bit != 0, s.kings & bit != 0) {
                    (true, _, false) => BLACK_MAN,
                    (true, _, true) => BLACK_KING,
                    (_, true, false) => WHITE_MAN,
                    (_, true, true) => WHITE_KING,
                    _ => EMPTY,
                };
            }
        }
    }
    let (limit, only_captures) = match g.rule {
        DrawRule::Standard => (80, false),
        DrawRule::OpenSpiel => (40, true),
    };
    Naive { board, turn: if s.stm == Side::First { 1 } else { 2 }, quiet: s.quiet as u32, limit, only_captures }
}

fn our_move_set(g: &Checkers, s: &CheckersState) -> BTreeSet<(u32, u32, BTreeSet<u32>)> {
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    moves
        .iter()
        .map(|m| {
            let caps = (0..32).filter(|i| m.captured >> i & 1 == 1).map(|i| i + 1).collect();
            (m.from as u32 + 1, m.to as u32 + 1, caps)
        })
        .collect()
}

/// A position `plies` random moves into a game (fewer if it ends).
fn random_game_position(g: &Checkers, rng: &mut SmallRng, plies: usize) -> CheckersState {
    let mut s = g.start();
    let mut moves = MoveList::new();
    for _ in 0..plies {
        g.generate_moves(&s, &mut moves);
        if moves.is_empty() {
            break;
        }
        g.play(&mut s, moves[rng.random_range(0..moves.len())]);
    }
    s
}

/// A random placement written as PDN FEN: each square empty or holding a man or a king of either side (men on the
/// far row become kings), at most 12 a side; then read by the game's parser.
fn random_placement(g: &Checkers, rng: &mut SmallRng) -> CheckersState {
    let density = rng.random_range(0.15..0.6);
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for sq in 1..=32u32 {
        if !rng.random_bool(density) {
            continue;
        }
        let king = rng.random_bool(0.35);
        if rng.random_bool(0.5) {
            if black.len() < 12 {
                let king = king || sq >= 29;
                black.push(format!("{}{sq}", if king { "K" } else { "" }));
            }
        } else if white.len() < 12 {
            let king = king || sq <= 4;
            white.push(format!("{}{sq}", if king { "K" } else { "" }));
        }
    }
    let side = if rng.random_bool(0.5) { "B" } else { "W" };
    let fen = format!("{side}:W{}:B{}", white.join(","), black.join(","));
    g.parse_position(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

// ---- Perft ----

/// Aart Bik's perft for English checkers from the start (depths 1..11).
const BIK: [u64; 11] = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128];

#[test]
fn perft_from_the_start_equals_the_published_figures() {
    let g = Checkers::default();
    // Depth 9 is 0.3 s in the dev build (`plateau perft checkers -d 9`).
    for depth in 1..=9 {
        assert_eq!(perft(&g, &g.start(), depth), BIK[depth as usize - 1], "depth {depth}");
    }
}

/// Depths 10 and 11: 1.5 s and 7 s in the dev build (measured with `plateau perft checkers -d 11` on a busy machine):
/// `cargo test --test suite checkers::perft_from_the_start_deep -- --ignored`.
#[test]
#[ignore]
fn perft_from_the_start_deep() {
    let g = Checkers::default();
    for depth in 10..=11 {
        assert_eq!(perft(&g, &g.start(), depth), BIK[depth as usize - 1], "depth {depth}");
    }
}

#[test]
fn the_naive_rules_give_the_published_figures_too() {
    let g = Checkers::default();
    let naive = naive_of(&g, &g.start());
    for depth in 1..=5 {
        assert_eq!(naive.perft(depth), BIK[depth as usize - 1], "naive depth {depth}");
    }
}

#[test]
fn moves_and_perft_equal_the_naive_rules_on_random_game_positions() {
    let mut rng = SmallRng::seed_from_u64(5);
    for rule in [DrawRule::Standard, DrawRule::OpenSpiel] {
        let g = Checkers { rule };
        for i in 0..120 {
            let s = random_game_position(&g, &mut rng, 10 + i % 90);
            let naive = naive_of(&g, &s);
            let text = g.format_position(&s);
            assert_eq!(our_move_set(&g, &s), naive.move_set(), "{text}");
            if i % 4 == 0 {
                assert_eq!(perft(&g, &s, 3), naive.perft(3), "{text}");
            }
        }
    }
}

#[test]
fn moves_and_perft_equal_the_naive_rules_on_random_placements_with_kings() {
    let mut rng = SmallRng::seed_from_u64(9);
    let g = Checkers::default();
    let mut multi_jumps = 0;
    for i in 0..400 {
        let s = random_placement(&g, &mut rng);
        let naive = naive_of(&g, &s);
        let text = g.format_position(&s);
        let ours = our_move_set(&g, &s);
        multi_jumps += ours.iter().filter(|m| m.2.len() > 1).count();
        assert_eq!(ours, naive.move_set(), "{text}");
        if i % 8 == 0 {
            assert_eq!(perft(&g, &s, 3), naive.perft(3), "{text}");
        }
    }
    assert!(multi_jumps > 50, "the placements exercise multi-jumps ({multi_jumps})");
}

#[test]
fn outcomes_equal_the_naive_rules_on_random_games() {
    let mut rng = SmallRng::seed_from_u64(13);
    for rule in [DrawRule::Standard, DrawRule::OpenSpiel] {
        let g = Checkers { rule };
        let (mut wins, mut draws) = (0, 0);
        for _ in 0..60 {
            let mut s = g.start();
            loop {
                let naive = naive_of(&g, &s);
                let expected = if naive.quiet >= naive.limit {
                    Some(Outcome::Draw)
                } else if naive.moves().is_empty() {
                    Some(Outcome::Loss)
                } else {
                    None
                };
                assert_eq!(g.outcome(&s), expected, "{}", g.format_position(&s));
                match g.random_move(&s, &mut rng) {
                    Some(m) => g.play(&mut s, m),
                    None => break,
                }
            }
            if g.outcome(&s) == Some(Outcome::Draw) { draws += 1 } else { wins += 1 }
        }
        assert!(wins > 0 && draws > 0, "{rule:?}: {wins} decided, {draws} drawn");
    }
}

#[test]
fn property_checks_on_random_playouts() {
    // Every step `a-b` and single jump `axb` on the board as candidate texts.
    let mut names = Vec::new();
    for a in 0..32usize {
        for b in 0..32usize {
            let (ra, ca) = plateau::games::checkers::geometry::row_col(a);
            let (rb, cb) = plateau::games::checkers::geometry::row_col(b);
            let (dr, dc) = (ra.abs_diff(rb), ca.abs_diff(cb));
            if dr == 1 && dc == 1 {
                names.push(format!("{}-{}", a + 1, b + 1));
            } else if dr == 2 && dc == 2 {
                names.push(format!("{}x{}", a + 1, b + 1));
            }
        }
    }
    for rule in [DrawRule::Standard, DrawRule::OpenSpiel] {
        let g = Checkers { rule };
        check_playouts(&g, &g.start(), 3, 30, &names, 5000).expect("checkers properties");
    }
}

// ---- Notation ----

#[test]
fn notation_round_trips_and_bad_input_is_refused() {
    let g = Checkers::default();
    let start = g.start();
    assert_eq!(g.format_position(&start), "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    assert_eq!(g.parse_position("B:W21-32:B1-12").unwrap(), start);
    assert_eq!(g.parse_position(" b:b1-12:w21-32. ").unwrap(), start);
    // The same step in every spelling: PDN numbers and algebraic squares (11 is f6, 15 is e5).
    for t in ["11-15", "f6-e5", "f6e5", "F6E5"] {
        assert_eq!(g.format_move(&start, g.parse_move(&start, t).unwrap()), "11-15", "{t}");
    }
    // A multi-jump: Black's man on 1 jumps White's men on 6 and 15: 1x10x19, compulsory.
    let s = g.parse_position("B:W6,15,K30:B1").unwrap();
    let m = g.parse_move(&s, "1x10x19").unwrap();
    assert_eq!((m.jumps, m.captured.count_ones()), (2, 2));
    assert_eq!(g.parse_move(&s, "1x19").unwrap(), m, "a multi-jump by its ends");
    assert_eq!(g.parse_move(&s, "b8xd6xf4").unwrap(), m, "in algebraic squares");
    let after = {
        let mut a = s;
        g.play(&mut a, m);
        a
    };
    assert_eq!(g.format_position(&after), "W:WK30:B19");
    for (bad, says) in [
        ("1x10", "not a legal move (a capture is compulsory)"),
        ("1-5", "not a legal move"),
        ("33-37", "squares are numbered 1 to 32"),
        ("a1i9", "not a square"),
        ("a2-b3", "light square"),
        ("15", "not a move"),
        ("", "not a move"),
        ("01-05", "numbered 1 to 32"),
    ] {
        let e = g.parse_move(&s, bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
        assert!(!e.contains('\n'), "{bad}: one line");
    }
    for (bad, says) in [
        ("X:W21:B1", "side to move"),
        ("B:W21", "both sides"),
        ("B:W21:B21", "both sides"),
        ("B:W1-13:B20", "at most 12"),
        ("B:W21:B30", "crowned"),
        ("W:W1:B20", "crowned"),
        ("B:W21,21:B1", "listed twice"),
        ("B:W21:B8-5", "runs upwards"),
        ("B:W21:B1 81", "at most 80"),
        ("B:W21:B1 x", "number of plies"),
        ("B:W21:B1:W22", "listed twice"),
    ] {
        let e = g.parse_position(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    // The count survives the text.
    let s = g.parse_position("W:WK1:BK32 17").unwrap();
    assert_eq!(s.quiet, 17);
    assert_eq!(g.parse_position(&g.format_position(&s)).unwrap(), s);
}

#[test]
fn the_draw_rules_count_what_they_say() {
    let standard = Checkers::default();
    let openspiel = Checkers { rule: DrawRule::OpenSpiel };
    // Kings shuffling: both rules count; a man's step resets the standard count only.
    for (g, man_step_resets) in [(&standard, true), (&openspiel, false)] {
        let s = g.parse_position("B:WK30,22:BK1,9 5").unwrap();
        let king = g.play_moves(&s, "1-5").unwrap();
        assert_eq!(king.quiet, 6);
        let man = g.play_moves(&s, "9-13").unwrap();
        assert_eq!(man.quiet, if man_step_resets { 0 } else { 6 });
        let last = g.parse_position(&format!("B:WK30:BK1 {}", g.draw_plies() - 1)).unwrap();
        let drawn = g.play_moves(&last, "1-5").unwrap();
        assert_eq!(g.outcome(&drawn), Some(Outcome::Draw));
        assert_eq!(g.count_moves(&drawn), 0);
    }
    // No move left: a loss for the side to move (Black's man on 4 is blocked by White's 8, which 11 covers).
    let s = standard.parse_position("B:W8,11:B4").unwrap();
    assert_eq!(standard.outcome(&s), Some(Outcome::Loss));
    assert_eq!(standard.outcome(&standard.parse_position("B:W8:B4").unwrap()), None, "4x11 is open");
}

// ---- Play ----

#[test]
fn the_command_line_knows_checkers() {
    let out = stdout(&plateau(&["perft", "checkers", "--depth", "5"]));
    assert!(out.contains("7361"), "{out}");
    let out = stdout(&plateau(&["perft", "checkers(rule=openspiel)", "--depth", "4", "--moves", "11-15 23-19"]));
    assert!(out.contains("perft(4)"), "{out}");
    let e = one_line_error(&plateau(&["perft", "checkers(rule=polish)", "--depth", "1"]));
    assert!(e.contains("expected standard or openspiel"), "{e}");
    let e = one_line_error(&plateau(&["perft", "checkers", "--depth", "1", "--moves", "11-17"]));
    assert!(e.contains("'11-17' is not a legal move"), "{e}");
    let out = stdout(&plateau(&["search", "checkers", "--algo", "engine(depth=4)", "--moves", "11-15 24-19"]));
    // 15x24 is Black's only move (a capture is compulsory).
    assert!(out.contains("best move  15x24"), "{out}");
}

#[test]
fn the_engine_beats_random() {
    let v = json(&plateau(&[
        "match",
        "checkers",
        "--player",
        "engine(depth=3)",
        "--player",
        "random",
        "--games",
        "4",
        "--seed",
        "1",
        "--json",
    ]));
    assert_eq!(v["wins_a"], 4, "{v}");
}
