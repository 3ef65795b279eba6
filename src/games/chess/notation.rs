//! Chess notation: moves in UCI long algebraic notation, positions in FEN, and the text drawing.
//!
//! A move is written from-to with a lowercase promotion letter: `e2e4`, `e7e8q`, `e1g1` (castling is the king's
//! two-square move, as in standard UCI; cozy-chess encodes it internally as the king taking its own rook, `e1h1`).
//! A position is a FEN of six fields; the last two (halfmove clock, fullmove number) may be left out (`0 1`).
//! Castling rights must be standard (king on e1/e8, rooks on the a and h files): Chess960 is not played here.

use cozy_chess::{Board, Color, FenParseError, File, Move, Piece, Rank, Square};

use super::{Chess, ChessState};
use crate::game::{BoardView, GameError, Layout, Player, err, view};

/// The move as UCI writes it: castling as the king's two-square move.
#[inline]
pub fn uci_parts(b: &Board, m: Move) -> (Square, Square, Option<Piece>) {
    if b.colors(b.side_to_move()).has(m.to) {
        // The king takes its own rook: castling.
        let file = if m.to.file() > m.from.file() { File::G } else { File::C };
        (m.from, Square::new(file, m.from.rank()), None)
    } else {
        (m.from, m.to, m.promotion)
    }
}

/// The UCI text of a legal move of `b`.
pub fn format_uci(b: &Board, m: Move) -> String {
    let (from, to, promotion) = uci_parts(b, m);
    match promotion {
        Some(p) => format!("{from}{to}{}", char::from(p)),
        None => format!("{from}{to}"),
    }
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

    /// Parse a FEN (the clocks may be left out).
    pub(super) fn read_position(&self, text: &str) -> Result<Board, GameError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let fen = match words.len() {
            4 => format!("{} 0 1", words.join(" ")),
            5 => format!("{} 1", words.join(" ")),
            6 => words.join(" "),
            n => {
                return err(format!(
                    "bad FEN '{}': {n} fields; expected 6 (pieces, side to move, castling, en passant, halfmove clock, \
                     fullmove number; the last two may be left out)",
                    text.trim()
                ));
            }
        };
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
            GameError::new(format!("bad FEN '{}': {why}", text.trim()))
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
                    text.trim()
                ));
            }
        }
        Ok(board)
    }

    /// The board as text, rank 8 at the top, then the side to move.
    /// [`Game::board_view`](crate::game::Game::board_view): the pieces as Unicode glyphs, rank 1 at the bottom.
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
                    let owner = if c == Color::White { Player::First } else { Player::Second };
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
