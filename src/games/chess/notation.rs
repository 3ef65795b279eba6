//! Chess notation: moves in UCI long algebraic notation, positions in FEN, and the text drawing.
//!
//! A move is written from-to with a lowercase promotion letter: `e2e4`, `e7e8q`, `e1g1` (castling is the king's
//! two-square move, as in standard UCI; cozy-chess encodes it internally as the king taking its own rook, `e1h1`).
//! A position is a FEN of six fields; the last two (halfmove clock, fullmove number) may be left out (`0 1`).
//! Castling rights must be standard (king on e1/e8, rooks on the a and h files): Chess960 is not played here.

use cozy_chess::{Board, Color, FenParseError, File, Move, Piece, Rank, Square};

use super::{Chess, ChessState};
use crate::game::{BoardView, GameError, Layout, Side, err, view};

/// The move as UCI writes it: castling as the king's two-square move.
#[inline]
pub(crate) fn uci_parts(b: &Board, m: Move) -> (Square, Square, Option<Piece>) {
    if b.colors(b.side_to_move()).has(m.to) {
        // The king takes its own rook: castling.
        let file = if m.to.file() > m.from.file() { File::G } else { File::C };
        (m.from, Square::new(file, m.from.rank()), None)
    } else {
        (m.from, m.to, m.promotion)
    }
}

/// The UCI text of a legal move of `b`.
pub(crate) fn format_uci(b: &Board, m: Move) -> String {
    let (from, to, promotion) = uci_parts(b, m);
    match promotion {
        Some(p) => format!("{from}{to}{}", char::from(p)),
        None => format!("{from}{to}"),
    }
}

/// The input as an error line quotes it: trimmed, at most 100 characters.
fn shown(text: &str) -> String {
    let t = text.trim();
    if t.chars().count() > 100 { format!("{}...", t.chars().take(100).collect::<String>()) } else { t.to_string() }
}

/// A FEN number: ASCII digits without a leading zero (`0` itself is fine), at most `max`.
fn fen_number(text: &str, what: &str, min: u32, max: u32) -> Result<u32, String> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    if !digits || (text.len() > 1 && text.starts_with('0')) {
        return Err(format!("bad {what} '{text}' (a whole number written without sign or leading zero)"));
    }
    match text.parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("bad {what} '{text}' (expected {min} to {max})")),
    }
}

/// The six fields of a FEN checked against the standard's syntax, where cozy-chess is lenient: the pieces field is
/// exactly 8 ranks of 8 squares, empty squares counted by one digit 1-8 (never two digits in a row, never 0 or 9);
/// the side to move `w` or `b`; castling `-` or some of `KQkq` in that order, each once; the en passant square `-`
/// or a square; the halfmove clock 0-100 (a game here ends at 100) and 0 when an en passant square is given (a pawn
/// just moved); the fullmove number 1-65535; numbers without a leading zero (`01` is refused).
pub(crate) fn check_fen_fields(f: &[&str]) -> Result<(), String> {
    let ranks: Vec<&str> = f[0].split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("the pieces field has {} ranks; expected 8, separated by '/'", ranks.len()));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let (mut squares, mut after_digit) = (0u32, false);
        for c in rank.chars() {
            match c {
                '1'..='8' if after_digit => {
                    return Err(format!("rank {}: two digits in a row ('{rank}'); write one digit", 8 - i));
                }
                '1'..='8' => {
                    squares += c as u32 - '0' as u32;
                    after_digit = true;
                }
                'P' | 'N' | 'B' | 'R' | 'Q' | 'K' | 'p' | 'n' | 'b' | 'r' | 'q' | 'k' => {
                    squares += 1;
                    after_digit = false;
                }
                _ => {
                    return Err(format!(
                        "rank {}: unknown character {c:?} in '{rank}' (pieces PNBRQK/pnbrqk, digits 1-8)",
                        8 - i
                    ));
                }
            }
        }
        if squares != 8 {
            return Err(format!("rank {} ('{rank}') has {squares} squares; expected 8", 8 - i));
        }
    }
    if f[1] != "w" && f[1] != "b" {
        return Err(format!("bad side to move '{}' (expected w or b)", f[1]));
    }
    let castling = f[2];
    let in_order = "KQkq".chars().filter(|c| castling.contains(*c)).collect::<String>();
    if castling != "-" && (castling.is_empty() || in_order != castling) {
        return Err(format!("bad castling rights '{castling}' (expected - or some of KQkq, in that order, each once)"));
    }
    let halfmove = fen_number(f[4], "halfmove clock", 0, 100)?;
    fen_number(f[5], "fullmove number", 1, 65535)?;
    if f[3] != "-" && halfmove != 0 {
        return Err(format!(
            "en passant square {} with halfmove clock {halfmove}: a pawn just moved two squares, so the clock is 0",
            f[3]
        ));
    }
    Ok(())
}

impl Chess {
    /// Parse a UCI move; it must be legal in `s`.
    pub(super) fn read_move(&self, s: &ChessState, text: &str) -> Result<Move, GameError> {
        let t = text.trim();
        let shape = || GameError::new(format!("'{t}': expected a move in UCI notation such as e2e4 or e7e8q"));
        if !t.is_ascii() || !(4..=5).contains(&t.len()) {
            return Err(shape());
        }
        let from: Square = t[0..2].parse().map_err(|_| shape())?;
        let to: Square = t[2..4].parse().map_err(|_| shape())?;
        let promotion = match t[4..].to_ascii_lowercase().as_str() {
            "" => None,
            "q" => Some(Piece::Queen),
            "r" => Some(Piece::Rook),
            "b" => Some(Piece::Bishop),
            "n" => Some(Piece::Knight),
            other => return err(format!("'{t}': bad promotion '{other}' (expected q, r, b or n)")),
        };
        let b = s.board.get();
        if crate::game::Game::is_terminal(self, s) {
            return err("the game is over: no move is legal");
        }
        let mut found = None;
        b.generate_moves(|pm| {
            found = pm.into_iter().find(|&m| uci_parts(b, m) == (from, to, promotion));
            found.is_some()
        });
        if let Some(m) = found {
            return Ok(m);
        }
        let side = if b.side_to_move() == Color::White { "White" } else { "Black" };
        if !b.colors(b.side_to_move()).has(from) {
            return err(format!("illegal move {t}: no {side} piece on {from}"));
        }
        let mut here = Vec::new();
        b.generate_moves_for(from.bitboard(), |pm| {
            here.extend(pm.into_iter().map(|m| format_uci(b, m)));
            false
        });
        if here.is_empty() {
            err(format!("illegal move {t}: the piece on {from} has no legal move"))
        } else {
            err(format!("illegal move {t} (from {from}: {})", here.join(" ")))
        }
    }

    /// Parse a FEN (both clocks may be left out, as in EPD), checked field by field against the standard (PGN
    /// specification 16.1) before cozy-chess reads it: [`check_fen_fields`].
    pub(super) fn read_position(&self, text: &str) -> Result<Board, GameError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let fen = match words.len() {
            4 => format!("{} 0 1", words.join(" ")),
            6 => words.join(" "),
            n => {
                let why = if n == 5 {
                    "5 fields; the halfmove clock and the fullmove number go together: give both or neither".to_string()
                } else {
                    format!(
                        "{n} fields; expected 6 (pieces, side to move, castling, en passant, halfmove clock, fullmove \
                         number; the last two may be left out together)"
                    )
                };
                return err(format!("bad FEN '{}': {why}", shown(text)));
            }
        };
        let fields: Vec<&str> = fen.split(' ').collect();
        check_fen_fields(&fields).map_err(|why| GameError::new(format!("bad FEN '{}': {why}", shown(text))))?;
        let board = Board::from_fen(&fen, false).map_err(|e| {
            let why = match e {
                FenParseError::InvalidBoard => {
                    "bad pieces field (8 ranks of PNBRQK/pnbrqk and digits from rank 8 down, one king a side, at most 8 \
                     pawns and 16 pieces a side, no pawn on rank 1 or 8, the side not to move not in check)"
                }
                FenParseError::InvalidSideToMove => "bad side to move (expected w or b)",
                FenParseError::InvalidCastlingRights => {
                    "bad castling rights (expected - or some of KQkq, each with its king and rook on their squares)"
                }
                FenParseError::InvalidEnPassant => {
                    "bad en passant square (expected - or the square a pawn just passed over in a double step)"
                }
                FenParseError::InvalidHalfMoveClock => "bad halfmove clock (expected 0 to 100)",
                FenParseError::InvalidFullmoveNumber => "bad fullmove number (expected 1 to 65535)",
                FenParseError::MissingField | FenParseError::TooManyFields => "expected 6 fields",
            };
            GameError::new(format!("bad FEN '{}': {why}", shown(text)))
        })?;
        for color in [Color::White, Color::Black] {
            let rights = board.castle_rights(color);
            let king = board.king(color);
            let home = Square::new(File::E, Rank::First.relative_to(color));
            let standard = rights.short.is_none_or(|f| f == File::H) && rights.long.is_none_or(|f| f == File::A);
            if (rights.short.is_some() || rights.long.is_some()) && (king != home || !standard) {
                return err(format!(
                    "bad FEN '{}': castling rights need the king on e1/e8 and the rooks on the a and h files \
                     (standard chess; Chess960 is not supported)",
                    shown(text)
                ));
            }
        }
        Ok(board)
    }

    /// The board as text, rank 8 at the top, then the side to move.
    /// [`Interop::board_view`](crate::game::Interop::board_view): the pieces as Unicode glyphs, rank 1 at the bottom.
    pub(super) fn view(&self, s: &ChessState) -> BoardView {
        let b = s.board.get();
        BoardView::from_fn(Layout::Grid, 8, 8, ["white", "black"], |row, col| {
            let sq = Square::new(File::index(col as usize), Rank::index(row as usize));
            let name = sq.to_string();
            match (b.piece_on(sq), b.color_on(sq)) {
                (Some(p), Some(c)) => {
                    let glyph = match p {
                        Piece::Pawn => "\u{265F}",
                        Piece::Knight => "\u{265E}",
                        Piece::Bishop => "\u{265D}",
                        Piece::Rook => "\u{265C}",
                        Piece::Queen => "\u{265B}",
                        Piece::King => "\u{265A}",
                    };
                    let owner = if c == Color::White { Side::First } else { Side::Second };
                    view::cell(name, glyph, Some(owner))
                }
                _ => view::cell(name, "", None),
            }
        })
    }

    pub(super) fn draw(&self, s: &ChessState) -> String {
        let b = s.board.get();
        let mut out = String::new();
        for rank in Rank::ALL.iter().rev() {
            out += &format!("{:>3} ", *rank as usize + 1);
            for file in File::ALL {
                let sq = Square::new(file, *rank);
                let ch = match (b.piece_on(sq), b.color_on(sq)) {
                    (Some(p), Some(Color::White)) => char::from(p).to_ascii_uppercase(),
                    (Some(p), _) => char::from(p),
                    _ => '.',
                };
                out.push(ch);
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out += "    a b c d e f g h\n";
        let side = if b.side_to_move() == Color::White { "White (upper case)" } else { "Black (lower case)" };
        out += &format!("{side} to move");
        out
    }
}
