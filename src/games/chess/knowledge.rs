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
pub(crate) fn classify(b: &Board, m: Move) -> MoveClass {
    if is_noisy(b, m) { MoveClass::Capture } else { MoveClass::Quiet }
}

/// A capture (en passant included, castling excluded) or a promotion.
#[inline]
pub(crate) fn is_noisy(b: &Board, m: Move) -> bool {
    if m.promotion.is_some() || b.colors(!b.side_to_move()).has(m.to) {
        return true;
    }
    // En passant: a pawn changing file onto an empty square.
    b.piece_on(m.from) == Some(Piece::Pawn) && m.from.file() != m.to.file()
}

/// In check, every legal move is an answer to the check.
#[inline]
pub(crate) fn in_check(b: &Board) -> Forced {
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

/// Most valuable victim, then least valuable attacker, with a promotion counted as a victim: 0..=55 (higher first).
#[inline]
pub fn capture_order(b: &Board, m: Move) -> u32 {
    // Piece indices: pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5.
    let victim = match b.piece_on(m.to) {
        Some(p) if !b.colors(b.side_to_move()).has(m.to) => p as u32 + 1,
        None if m.from.file() != m.to.file() && b.piece_on(m.from) == Some(Piece::Pawn) => 1, // en passant
        _ => 0,
    };
    let promotion = m.promotion.map_or(0, |p| p as u32 + 1);
    let attacker = b.piece_on(m.from).map_or(5, |p| p as u32);
    5 * (victim + promotion).min(10) + (5 - attacker)
}
