//! What chess tells the engine without searching (see `game/knowledge.rs`):
//!
//! ```text
//! move_class   captures (en passant included) and promotions are Capture, the rest Quiet
//!              (quiescence searches them; the picker orders them first, by victim then attacker: capture_order)
//! forced       in check: Defend(king square); every legal move answers it, so the engine searches all of them,
//!              without stand pat in quiescence and with the forced-reply extension
//! null_move    pass, unless in check or the side to move has only its king and pawns (zugzwang is common there)
//! ```

use cozy_chess::{Board, Move, Piece};

use super::ChessState;
use crate::game::{Forced, MoveClass};

/// Capture or promotion (noisy), or quiet.
#[inline]
pub fn classify(b: &Board, m: Move) -> MoveClass {
    if is_noisy(b, m) { MoveClass::Capture } else { MoveClass::Quiet }
}

/// A capture (en passant included, castling excluded) or a promotion.
#[inline]
pub fn is_noisy(b: &Board, m: Move) -> bool {
    if m.promotion.is_some() || b.colors(!b.side_to_move()).has(m.to) {
        return true;
    }
    // En passant: a pawn changing file onto an empty square.
    b.piece_on(m.from) == Some(Piece::Pawn) && m.from.file() != m.to.file()
}

/// In check, every legal move is an answer to the check.
#[inline]
pub fn in_check(b: &Board) -> Forced {
    if b.checkers().is_empty() { Forced::Free } else { Forced::Defend(b.king(b.side_to_move()) as u32) }
}

/// The side to move passes (null-move pruning), when that is sound enough.
pub fn pass(s: &ChessState) -> Option<ChessState> {
    let b = s.board();
    let us = b.colors(b.side_to_move());
    let pieces = us & !(b.pieces(Piece::Pawn) | b.pieces(Piece::King));
    if pieces.is_empty() {
        return None; // king and pawns only: zugzwang is common
    }
    let passed = b.null_move()?; // None in check
    let mut t = ChessState::new(passed);
    // No repetition across a pass.
    t.seen = 0;
    Some(t)
}

/// Value of a piece for ordering captures (pawn 1 .. queen 9, king 0: it is never taken).
pub fn piece_value(p: Piece) -> i32 {
    match p {
        Piece::Pawn => 1,
        Piece::Knight | Piece::Bishop => 3,
        Piece::Rook => 5,
        Piece::Queen => 9,
        Piece::King => 0,
    }
}

/// Most valuable victim, then least valuable attacker: the order of noisy moves (higher first).
pub fn capture_order(b: &Board, m: Move) -> i32 {
    let victim = b.piece_on(m.to).filter(|_| !b.colors(b.side_to_move()).has(m.to)).map_or(1, piece_value);
    let attacker = b.piece_on(m.from).map_or(0, piece_value);
    let promotion = m.promotion.map_or(0, piece_value);
    8 * (victim + promotion) - attacker + 10
}
