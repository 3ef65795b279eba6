//! Breakthrough: perft against the reference tables (`tests/data/reference/perft.json`), against an independent naive
//! implementation from random positions (every size and variant), property checks on random playouts, and input
//! errors.

use std::path::PathBuf;

use plateau::check::check_playouts;
use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome, Side, perft};
use plateau::games::{AnyGame, Breakthrough};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// The committed reference data (copies of the project's shared reference files, see `tests/data/reference/README.md`).
fn reference_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference")
}

fn bt(text: &str) -> Breakthrough {
    match AnyGame::parse(text).unwrap() {
        AnyGame::Breakthrough(g) => g,
        #[allow(unreachable_patterns)]
        _ => panic!("{text} is not breakthrough"),
    }
}

#[test]
fn perft_matches_shared_reference() {
    let path = reference_dir().join("perft.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reference file {}: {e}", path.display()));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut checked = 0;
    for entry in v["entries"].as_array().unwrap() {
        let game = entry["game"].as_str().unwrap();
        if !game.starts_with("breakthrough") {
            continue;
        }
        assert_eq!(entry["position"], "start");
        let g = bt(game);
        for (d, n) in entry["perft"].as_object().unwrap() {
            let d: u32 = d.parse().unwrap();
            let want = n.as_u64().unwrap();
            assert_eq!(perft(&g, &g.start(), d), want, "{game} perft({d})");
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} breakthrough perft values found in the reference");
}

/// An independent, deliberately naive Breakthrough: a grid of chars, moves found by looping over squares.
#[derive(Clone)]
struct Naive {
    rows: usize,
    cols: usize,
    misere: bool,
    forced: bool,
    grid: Vec<Vec<char>>, // grid[row][col], row 0 = rank 1
    white_to_move: bool,
}

impl Naive {
    fn from_fen(g: &Breakthrough, fen: &str) -> Naive {
        let (board, side) = fen.split_once(' ').unwrap();
        let mut grid = vec![vec!['.'; g.columns as usize]; g.rows as usize];
        for (i, rank) in board.split('/').enumerate() {
            let row = g.rows as usize - 1 - i;
            let mut col = 0;
            let mut num = String::new();
            for ch in rank.chars() {
                if ch.is_ascii_digit() {
                    num.push(ch);
                } else {
                    if !num.is_empty() {
                        col += num.parse::<usize>().unwrap();
                        num.clear();
                    }
                    grid[row][col] = ch;
                    col += 1;
                }
            }
        }
        Naive {
            rows: g.rows as usize,
            cols: g.columns as usize,
            misere: g.misere,
            forced: g.forced_captures,
            grid,
            white_to_move: side == "w",
        }
    }

    fn over(&self) -> bool {
        let white_home = self.grid[self.rows - 1].contains(&'P');
        let black_home = self.grid[0].contains(&'p');
        let whites = self.grid.iter().flatten().filter(|&&c| c == 'P').count();
        let blacks = self.grid.iter().flatten().filter(|&&c| c == 'p').count();
        white_home || black_home || whites == 0 || blacks == 0 || self.moves().is_empty()
    }

    fn moves(&self) -> Vec<(usize, usize, usize, usize)> {
        let (me, enemy, dir): (char, char, i64) = if self.white_to_move { ('P', 'p', 1) } else { ('p', 'P', -1) };
        let mut all = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                if self.grid[r][c] != me {
                    continue;
                }
                let nr = r as i64 + dir;
                if nr < 0 || nr >= self.rows as i64 {
                    continue;
                }
                for dc in [-1i64, 0, 1] {
                    let nc = c as i64 + dc;
                    if nc < 0 || nc >= self.cols as i64 {
                        continue;
                    }
                    let target = self.grid[nr as usize][nc as usize];
                    let ok = if dc == 0 { target == '.' } else { target != me };
                    if ok {
                        all.push((r, c, nr as usize, nc as usize));
                    }
                }
            }
        }
        if self.forced {
            let caps: Vec<_> = all.iter().copied().filter(|m| self.grid[m.2][m.3] == enemy).collect();
            if !caps.is_empty() {
                return caps;
            }
        }
        all
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over() {
            return 0;
        }
        let mut n = 0;
        for (r, c, nr, nc) in self.moves() {
            let mut child = self.clone();
            child.grid[nr][nc] = child.grid[r][c];
            child.grid[r][c] = '.';
            child.white_to_move = !child.white_to_move;
            n += child.perft(depth - 1);
        }
        n
    }

    /// Winner of a finished game: true = White.
    fn white_wins(&self) -> bool {
        let white_home = self.grid[self.rows - 1].contains(&'P');
        let black_home = self.grid[0].contains(&'p');
        if white_home {
            return !self.misere;
        }
        if black_home {
            return self.misere;
        }
        let blacks = self.grid.iter().flatten().filter(|&&c| c == 'p').count();
        let whites = self.grid.iter().flatten().filter(|&&c| c == 'P').count();
        if blacks == 0 {
            return true;
        }
        if whites == 0 {
            return false;
        }
        // No legal move: the side to move loses.
        !self.white_to_move
    }
}

const VARIANTS: &[&str] = &[
    "breakthrough",
    "breakthrough(misere=true)",
    "breakthrough(forced_captures=true)",
    "breakthrough(rows=6,columns=5)",
    "breakthrough(rows=5,columns=4,piece_rows=1,forced_captures=true,misere=true)",
    "breakthrough(rows=3,columns=2,piece_rows=1)",
    "breakthrough(rows=4,columns=16,piece_rows=1)",
    "breakthrough(rows=7,columns=9,piece_rows=3)",
    "breakthrough(rows=32,columns=2)",
    "breakthrough(rows=6,columns=10)",
];

/// Random positions from random playouts, perft against the naive implementation.
#[test]
fn perft_matches_naive_implementation_from_random_positions() {
    let mut rng = SmallRng::seed_from_u64(7);
    for v in VARIANTS {
        let g = bt(v);
        for _ in 0..12 {
            let mut s = g.start();
            let plies = rng.random_range(0..40);
            for _ in 0..plies {
                if g.is_terminal(&s) {
                    break;
                }
                let m = g.random_move(&s, &mut rng).unwrap();
                g.play(&mut s, m);
            }
            let fen = g.format_position(&s);
            let naive = Naive::from_fen(&g, &fen);
            assert_eq!(g.is_terminal(&s), naive.over(), "{v} {fen}: terminal test");
            if let Some(o) = g.outcome(&s) {
                let stm_white = g.side_to_move(&s) == Side::First;
                let white_wins = match o {
                    Outcome::Win => stm_white,
                    Outcome::Loss => !stm_white,
                    _ => panic!("breakthrough has no draws"),
                };
                assert_eq!(white_wins, naive.white_wins(), "{v} {fen}: winner");
            }
            for d in 1..=3 {
                assert_eq!(perft(&g, &s, d), naive.perft(d), "{v} {fen} perft({d})");
            }
        }
    }
}

/// Every square pair, written from-to: the candidates for "moves generated = moves accepted".
fn all_move_texts(g: &Breakthrough) -> Vec<String> {
    let mut v = Vec::new();
    for a in 0..g.squares() {
        for b in 0..g.squares() {
            if a != b {
                v.push(format!("{}{}", g.square_name(a), g.square_name(b)));
            }
        }
    }
    v
}

#[test]
fn random_playouts_keep_every_property() {
    for (i, v) in VARIANTS.iter().enumerate() {
        let g = bt(v);
        let cands = if g.squares() <= 40 { all_move_texts(&g) } else { Vec::new() };
        let games = if cands.is_empty() { 60 } else { 12 };
        check_playouts(
            &g,
            &g.start(),
            100 + i as u64,
            games,
            &cands,
            (2 * g.columns * g.piece_rows * (g.rows - 1)) as usize,
        )
        .unwrap_or_else(|e| panic!("{v}: {e}"));
    }
    // The full candidate check on the 8x8 board, a few games.
    let g = bt("breakthrough");
    check_playouts(&g, &g.start(), 5, 3, &all_move_texts(&g), 300).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Any legal board size and variant: random playouts keep the properties, and perft(2) agrees with the naive rules.
    #[test]
    fn any_board_size(rows in 3u32..=32, cols in 2u32..=26, pr in 1u32..=4, misere: bool, forced: bool, seed: u64) {
        prop_assume!(rows * cols <= 64 && rows > 2 * pr);
        let g = Breakthrough::new(rows, cols, pr, misere, forced).unwrap();
        let longest = (2 * cols * pr * (rows - 1)) as usize;
        check_playouts(&g, &g.start(), seed, 3, &[], longest).map_err(TestCaseError::fail)?;
        let naive = Naive::from_fen(&g, &g.format_position(&g.start()));
        prop_assert_eq!(perft(&g, &g.start(), 2), naive.perft(2));
    }

    /// Invalid sizes are errors, never panics.
    #[test]
    fn bad_sizes_are_errors(rows in 0i64..100, cols in 0i64..100, pr in 0i64..40) {
        let spec = format!("breakthrough(rows={rows},columns={cols},piece_rows={pr})");
        let ok = (2..=26).contains(&cols) && pr >= 1 && rows > 2 * pr && rows * cols <= 64;
        prop_assert_eq!(AnyGame::parse(&spec).is_ok(), ok, "{}", spec);
    }
}

#[test]
fn move_notations() {
    let g = bt("breakthrough");
    let s = g.start();
    let m = g.parse_move(&s, "a2a3").unwrap();
    for text in ["2a3a", "a2-a3", "A2A3", " a2a3 "] {
        assert_eq!(g.parse_move(&s, text).unwrap(), m, "{text}");
    }
    assert_eq!(g.format_move(&s, m), "a2a3");
    // Captures are written the same way; `x` is accepted.
    let s = g.parse_position("8/8/8/3p4/4P3/8/8/8 w").unwrap();
    let c = g.parse_move(&s, "e4xd5").unwrap();
    assert!(g.is_capture(&s, c));
    assert_eq!(g.format_move(&s, c), "e4d5");
    // Big boards: two-digit ranks.
    let g = bt("breakthrough(rows=16,columns=4)");
    let mut s = g.start();
    let m = g.parse_move(&s, "a2a3").unwrap();
    g.play(&mut s, m);
    assert!(g.parse_move(&s, "a15a14").is_ok());
    assert!(g.parse_move(&s, "15a14a").is_ok());
}

#[test]
fn illegal_and_malformed_moves_are_explained() {
    let g = bt("breakthrough");
    let s = g.start();
    for (text, want) in [
        ("a3a4", "no White piece on a3"),
        ("a2a4", "illegal move"),
        ("a1a2", "illegal move"),
        ("a7a6", "no White piece on a7"),
        ("i2i3", "off the 8x8 board"),
        ("a9a8", "off the 8x8 board"),
        ("a2", "expected a move"),
        ("zz", "expected a square"),
        ("", "expected a square"),
        ("a2a3q", "unexpected"),
        ("2a", "expected a move"),
        ("é2", "expected a square"),
    ] {
        let e = g.parse_move(&s, text).unwrap_err().to_string();
        assert!(e.contains(want), "{text}: {e}");
        assert!(!e.contains('\n'));
    }
    let g = bt("breakthrough(forced_captures=true)");
    let s = g.parse_position("8/8/8/3p4/4P3/8/8/8 w").unwrap();
    let e = g.parse_move(&s, "e4e5").unwrap_err().to_string();
    assert!(e.contains("captures are forced"), "{e}");
}

#[test]
fn positions_round_trip_and_bad_positions_are_errors() {
    let g = bt("breakthrough");
    assert_eq!(g.format_position(&g.start()), "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w");
    assert_eq!(g.parse_position("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w").unwrap(), g.start());
    assert_eq!(g.parse_position("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1").unwrap(), g.start());
    for (text, want) in [
        ("", "empty position"),
        ("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP", "missing side"),
        ("pppppppp/pppppppp/8/8/8/8/PPPPPPPP w", "7 ranks"),
        ("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPP w", "covers 7 columns"),
        ("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPPP w", "longer than 8"),
        ("pppppppp/pppppppp/9/8/8/8/PPPPPPPP/PPPPPPPP w", "bad empty count"),
        ("pppppppp/pppppppk/8/8/8/8/PPPPPPPP/PPPPPPPP w", "unknown piece 'k'"),
        ("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP x", "expected w or b"),
        ("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w extra", "unexpected"),
        ("P7/8/8/8/8/8/8/7p w", "goal row"),
        ("8/8/8/8/8/8/8/PPPPPPPP w", "no piece left"),
        ("pppppppp/8/8/8/8/8/8/p7 b", "goal row"),
    ] {
        let e = g.parse_position(text).unwrap_err().to_string();
        assert!(e.contains(want), "{text}: {e}");
    }
    // A position where White has just won is legal, and terminal.
    let s = g.parse_position("P7/8/8/8/8/8/p7/8 b").unwrap();
    assert_eq!(g.outcome(&s), Some(Outcome::Loss));
    let m = bt("breakthrough(misere=true)");
    let s = m.parse_position("P7/8/8/8/8/8/p7/8 b").unwrap();
    assert_eq!(m.outcome(&s), Some(Outcome::Win));
}

/// With at least two columns a side that has pieces always has a move: its most advanced piece has a diagonal square
/// that no own piece can occupy. Straight moves need an empty square, diagonal moves any non-own square.
#[test]
fn straight_blocked_diagonals_open() {
    let g = bt("breakthrough(rows=5,columns=2,piece_rows=1)");
    let s = g.parse_position("2/2/pp/PP/2 w").unwrap();
    let mut mv = MoveList::new();
    g.generate_moves(&s, &mut mv);
    let mut texts: Vec<String> = mv.iter().map(|m| g.format_move(&s, *m)).collect();
    texts.sort();
    assert_eq!(texts, vec!["a2b3", "b2a3"]);
    let s = g.parse_position("2/2/1p/pP/P1 w").unwrap();
    g.generate_moves(&s, &mut mv);
    let texts: Vec<String> = mv.iter().map(|m| g.format_move(&s, *m)).collect();
    assert_eq!(texts, vec!["b2a3"]);
}

#[test]
fn game_strings() {
    assert_eq!(bt("breakthrough").spec(), "breakthrough");
    assert_eq!(bt("bt(rows=6, columns=5)").spec(), "breakthrough(rows=6,columns=5)");
    assert_eq!(
        bt("breakthrough(misere=true,forced_captures=1)").spec(),
        "breakthrough(misere=true,forced_captures=true)"
    );
    for (bad, want) in [
        ("breakthrough(rows=9)", "at most 64"),
        ("breakthrough(columns=1)", "out of range"),
        ("breakthrough(rows=4)", "greater than 2*piece_rows"),
        ("breakthrough(size=4)", "unknown parameter 'size'"),
        ("breakthrough(misere=maybe)", "expected true or false"),
        ("breakthru", "unknown game"),
        ("breakthrough(rows=8", "missing ')'"),
    ] {
        let e = AnyGame::parse(bad).unwrap_err().to_string();
        assert!(e.contains(want), "{bad}: {e}");
    }
}
