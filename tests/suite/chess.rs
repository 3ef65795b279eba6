//! Chess: perft of the standard test positions (published counts re-checked with Stockfish and OpenSpiel,
//! `tests/data/chess/perft.json`), legal moves, perft and results against OpenSpiel on positions from random games
//! (`tests/data/chess/openspiel_positions.json`; both made by `scripts/chess_reference.py`), the property checks, the
//! draw rules, and input errors.

use std::path::PathBuf;

use plateau::check::check_playouts;
use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome, perft};
use plateau::games::Chess;
use proptest::prelude::*;

fn data(name: &str) -> serde_json::Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/chess").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reference file {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Perft counts up to this size run in the normal test run (the larger ones: `perft_standard_deep`, ignored).
const QUICK: u64 = 5_000_000;

fn check_standard_perft(limit: u64, at_least: usize) {
    let g = Chess;
    let v = data("perft.json");
    let mut checked = 0;
    for entry in v["entries"].as_array().unwrap() {
        let s = g.parse_position(entry["fen"].as_str().unwrap()).unwrap();
        for (d, n) in entry["perft"].as_object().unwrap() {
            let want = n.as_u64().unwrap();
            if want > limit {
                continue;
            }
            let d: u32 = d.parse().unwrap();
            assert_eq!(perft(&g, &s, d), want, "{} perft({d})", entry["name"]);
            checked += 1;
        }
    }
    assert!(checked >= at_least, "only {checked} perft values checked");
}

#[test]
fn perft_standard_positions() {
    check_standard_perft(QUICK, 30);
}

/// Every count of the table (about a minute in release: `cargo test --release --test suite chess:: -- --ignored`).
#[test]
#[ignore]
fn perft_standard_deep() {
    check_standard_perft(u64::MAX, 37);
}

#[test]
fn openspiel_positions_agree() {
    let g = Chess;
    let v = data("openspiel_positions.json");
    let positions = v["positions"].as_array().unwrap();
    assert!(positions.len() > 500);
    let (mut terminal, mut deep) = (0, 0);
    for p in positions {
        let fen = p["fen"].as_str().unwrap();
        let s = g.parse_position(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(g.format_position(&s), fen, "FEN round trip");
        let over = p["terminal"].as_bool().unwrap();
        assert_eq!(g.is_terminal(&s), over, "{fen}: terminal");
        if over {
            terminal += 1;
            let returns = p["returns"].as_array().unwrap();
            // OpenSpiel's chess numbers Black 0 and White 1.
            let mover = if s.board().side_to_move() == cozy_chess::Color::White { 1 } else { 0 };
            let want = match returns[mover].as_f64().unwrap() {
                x if x > 0.0 => Outcome::Win,
                x if x < 0.0 => Outcome::Loss,
                _ => Outcome::Draw,
            };
            assert_eq!(g.outcome(&s), Some(want), "{fen}: result");
            continue;
        }
        let mut moves = MoveList::new();
        g.generate_moves(&s, &mut moves);
        let mut ours: Vec<String> = moves.iter().map(|&m| g.format_move(&s, m)).collect();
        ours.sort();
        assert_eq!(ours.join(" "), p["moves"].as_str().unwrap(), "{fen}: legal moves");
        assert_eq!(perft(&g, &s, 2), p["perft2"].as_u64().unwrap(), "{fen}: perft(2)");
        if let Some(n) = p["perft3"].as_u64() {
            assert_eq!(perft(&g, &s, 3), n, "{fen}: perft(3)");
            deep += 1;
        }
    }
    assert!(terminal >= 20 && deep >= 100, "{terminal} terminal positions, {deep} perft(3)");
}

/// Every from-to text and the promotions to the last ranks, as `check_playouts` candidates.
fn candidates() -> Vec<String> {
    let squares: Vec<String> =
        (0..64).map(|i| format!("{}{}", (b'a' + (i % 8) as u8) as char, (b'1' + (i / 8) as u8) as char)).collect();
    let mut out = Vec::new();
    for a in &squares {
        for b in &squares {
            out.push(format!("{a}{b}"));
            if (a.ends_with('7') && b.ends_with('8')) || (a.ends_with('2') && b.ends_with('1')) {
                for p in ['q', 'r', 'b', 'n'] {
                    out.push(format!("{a}{b}{p}"));
                }
            }
        }
    }
    out
}

#[test]
fn random_playouts_keep_every_property() {
    let g = Chess;
    let all = candidates();
    check_playouts(&g, &g.start(), 1, 2, &all, 1000).unwrap();
    // Positions rich in castling, en passant and promotions, without candidates (cheaper), more games.
    for (i, fen) in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    ]
    .iter()
    .enumerate()
    {
        let s = g.parse_position(fen).unwrap();
        check_playouts(&g, &s, 10 + i as u64, 12, &[], 1000).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
}

fn after(fen: &str, moves: &str) -> plateau::games::chess::ChessState {
    let g = Chess;
    let s = g.parse_position(fen).unwrap();
    g.play_moves(&s, moves).unwrap_or_else(|e| panic!("{moves}: {e}"))
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn threefold_repetition_draws() {
    let g = Chess;
    let twice = after(START, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(g.outcome(&twice), None, "the start position seen twice");
    let thrice = after(START, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(g.outcome(&thrice), Some(Outcome::Draw));
    let mut moves = MoveList::new();
    g.generate_moves(&thrice, &mut moves);
    assert!(moves.is_empty());
    // A pawn move in between forgets the earlier positions.
    let reset = after(START, "g1f3 g8f6 f3g1 f6g8 e2e3 e7e6 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(g.outcome(&reset), None);
    // After 1. e4 (en passant not possible) the same placement with Black to move is the same position.
    let ep = after(START, "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1");
    assert_eq!(g.outcome(&ep), Some(Outcome::Draw));
}

#[test]
fn en_passant_counts_in_the_position_when_legal() {
    let g = Chess;
    // 1... d5 with a White pawn on e5: the capture e5d6 is legal, so the position after d7d5 differs from the same
    // placement later without the right.
    let s = after("rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "d7d5");
    let later = after("rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "d7d5 g1f3 g8f6 f3g1 f6g8");
    assert_ne!(g.key(&s), g.key(&later));
    assert_eq!(g.format_position(&s).split(' ').nth(3), Some("d6"));
}

#[test]
fn fifty_moves_draw_unless_mate() {
    let g = Chess;
    let s = after("4k3/8/8/8/8/8/R7/4K3 w - - 99 80", "a2a3");
    assert_eq!(g.outcome(&s), Some(Outcome::Draw));
    // A capture on the 100th half-move resets the clock.
    let s = after("4k3/8/8/8/8/8/r7/R3K3 w - - 99 80", "a1a2");
    assert_eq!(g.outcome(&s), None);
    // Mate on the 100th half-move stands.
    let s = after("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", "a1a8");
    assert_eq!(g.outcome(&s), Some(Outcome::Loss));
}

#[test]
fn mate_stalemate_and_material() {
    let g = Chess;
    let fools = after(START, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(g.outcome(&fools), Some(Outcome::Loss));
    let stalemate = g.parse_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(g.outcome(&stalemate), Some(Outcome::Draw));
    for (fen, dead) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", true),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true), // bishops on dark squares both
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false), // opposite colours: mates exist
        ("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false),
        ("4kn2/8/8/8/8/8/8/1N2K3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", false),
    ] {
        let s = g.parse_position(fen).unwrap();
        assert_eq!(g.outcome(&s) == Some(Outcome::Draw), dead, "{fen}");
        assert_eq!(perft(&g, &s, 1) == 0, dead, "{fen}");
    }
}

#[test]
fn castling_and_promotion_notation() {
    let g = Chess;
    let s = g.parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let m = g.parse_move(&s, "e1g1").unwrap();
    assert_eq!(g.format_move(&s, m), "e1g1");
    let mut t = s;
    g.play(&mut t, m);
    assert_eq!(g.format_position(&t), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    assert!(g.parse_move(&s, "e1h1").is_err(), "castling is the king's two-square move");
    let p = g.parse_position("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
    assert_eq!(g.format_move(&p, g.parse_move(&p, "a7a8n").unwrap()), "a7a8n");
    assert_eq!(g.format_move(&p, g.parse_move(&p, "a7a8Q").unwrap()), "a7a8q");
    assert!(g.parse_move(&p, "a7a8").is_err(), "a promotion names its piece");
}

#[test]
fn bad_input_is_one_line_errors() {
    let g = Chess;
    let s = g.start();
    for bad in ["", "e2", "e2e5", "e2e4x", "z9z9", "e7e8q", "é2e4", "e2e4e5e6"] {
        let e = g.parse_move(&s, bad).expect_err(bad);
        assert!(!e.0.contains('\n') && !e.0.is_empty(), "{bad}: {e}");
    }
    for bad in [
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1",
        "4k3/8/8/8/8/8/8/R3K2R w Kk - 0 1",
        "r3k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 101 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
        "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
    ] {
        let e = g.parse_position(bad).expect_err(bad);
        assert!(!e.0.contains('\n') && !e.0.is_empty(), "{bad}: {e}");
    }
    // The clocks may be left out.
    assert_eq!(
        g.format_position(&g.parse_position("4k3/8/8/8/8/8/8/4K3 b - -").unwrap()),
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
}

/// FENs checked against the standard (PGN specification 16.1), where cozy-chess alone was lenient (issue 21): the
/// clocks come in pairs, numbers have no leading zero or sign, ranks have exactly 8 squares written with single digits
/// 1-8, castling rights in the order KQkq, an en passant square only with a halfmove clock of 0.
#[test]
fn fens_follow_the_standard() {
    let g = Chess;
    for (bad, says) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 01", "give both or neither"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0", "give both or neither"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 01 1", "halfmove clock '01'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 01", "fullmove number '01'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - +1 1", "halfmove clock '+1'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 +3", "fullmove number '+3'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 65536", "expected 1 to 65535"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 101 1", "expected 0 to 100"),
        ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock '-1'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "expected 1 to 65535"),
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", "7 ranks"),
        ("4k3/8/8/8/8/8/8/44/4K3 w - - 0 1", "9 ranks"),
        ("4k3/8/8/8/8/8/8/4K21 w - - 0 1", "two digits in a row"),
        ("4k3/8/8/8/8/8/8/4K0003 w - - 0 1", "unknown character '0'"),
        ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", "has 7 squares"),
        ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", "has 9 squares"),
        ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", "unknown character 'X'"),
        ("4k3/8/8/8/8/8/8/4K3 W - - 0 1", "side to move 'W'"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w kqKQ - 0 1", "castling rights 'kqKQ'"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "castling rights 'KK'"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w K-q - 0 1", "castling rights 'K-q'"),
        ("4k3/8/8/8/4P3/8/8/4K3 b - e3 3 1", "halfmove clock 3"),
    ] {
        let e = g.parse_position(bad).expect_err(bad).0;
        assert!(!e.contains('\n') && e.contains(says), "{bad}: '{e}' lacks '{says}'");
    }
    for good in [
        "4k3/8/8/8/8/8/8/4K3 w - -",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 100 65535",
        "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 10 30",
        "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w   KQkq  -  0  1",
    ] {
        let s = g.parse_position(good).unwrap_or_else(|e| panic!("{good}: {e}"));
        // What plateau writes reads back to the same text.
        let text = g.format_position(&s);
        assert_eq!(g.format_position(&g.parse_position(&text).unwrap()), text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    /// Arbitrary text, and FEN-like text made of FEN characters, never panics the parsers.
    #[test]
    fn parsers_never_panic(text in "\\PC{0,40}", fenish in "[pnbrqkPNBRQK1-9/ ]{0,30} [wb] [KQkq-]{1,4} [a-h1-8-]{1,2} [0-9]{1,3} [0-9]{1,3}") {
        let g = Chess;
        let _ = g.parse_position(&text);
        let _ = g.parse_position(&fenish);
        let _ = g.parse_move(&g.start(), &text);
    }
}
