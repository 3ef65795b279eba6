//! The draw rules cozy-chess leaves to its users, and the position key: threefold repetition (over the history of keys
//! the state keeps since the last irreversible move), the fifty-move rule, insufficient material.
//!
//! ```text
//! position key   the board's Zobrist hash (pieces, side to move, castling rights), with the en-passant file only
//!                when an en-passant capture is legal: FIDE's "same position" (cozy-chess records the file after
//!                every double step, capture possible or not)
//! repetition     the current key seen twice before among the positions since the last capture or pawn move
//!                (history: the high 32 bits of each key; same key implies same side to move)
//! fifty moves    halfmove clock >= 100 (checked after mate: a mate on the 100th half-move stands)
//! material       no pawn, rook or queen, and either no knight and all bishops on squares of one colour
//!                (K v K, K+B v K, K+B v K+B same colour), or one knight and no bishop (K+N v K)
//! ```
//! The draws are automatic, as in OpenSpiel (FIDE lets a player claim the first two).

use cozy_chess::{BitBoard, Board, Move, Piece, Rank, Square, get_pawn_attacks};

use super::ChessState;

/// Positions a state remembers: the halfmove clock never passes 100 before the game ends.
pub(crate) const HISTORY: usize = 100;

/// The position key of a board (see the module documentation).
pub(crate) fn position_key(b: &Board) -> u64 {
    match b.en_passant() {
        Some(file) if !en_passant_legal(b, file) => b.hash_without_ep(),
        _ => b.hash(),
    }
}

/// Whether the side to move can capture en passant on `file`.
fn en_passant_legal(b: &Board, file: cozy_chess::File) -> bool {
    let color = b.side_to_move();
    let to = Square::new(file, Rank::Sixth.relative_to(color));
    let attackers = get_pawn_attacks(to, !color) & b.colored_pieces(color, Piece::Pawn);
    attackers.into_iter().any(|from| b.is_legal(Move { from, to, promotion: None }))
}

/// The fingerprint a state keeps of a key.
#[inline(always)]
pub fn fingerprint(key: u64) -> u32 {
    (key >> 32) as u32
}

/// Record the position `key` that a move just left: cleared by an irreversible move (the new halfmove clock is 0).
#[inline(always)]
pub(crate) fn remember(s: &mut ChessState, key: u64, halfmove_clock: u8) {
    if halfmove_clock == 0 {
        s.seen = 0;
    } else if (s.seen as usize) < HISTORY {
        s.history[s.seen as usize] = fingerprint(key);
        s.seen += 1;
    }
}

/// The current position occurred twice before (a threefold repetition).
#[inline]
pub(crate) fn threefold(s: &ChessState) -> bool {
    let n = s.seen as usize;
    // A position can recur 4 plies later at the earliest; threefold needs 8 plies of history.
    if n < 8 {
        return false;
    }
    let fp = fingerprint(s.key);
    let mut count = 0;
    let mut i = n; // same side to move: the entries n-2, n-4, ...
    while i >= 2 {
        i -= 2;
        if s.history[i] == fp {
            count += 1;
            if count == 2 {
                return true;
            }
        }
    }
    false
}

/// How many times the current position has occurred (1 the first time), counting the remembered positions since the
/// last irreversible move (earlier ones cannot recur).
pub(crate) fn repetitions(s: &ChessState) -> usize {
    let fp = fingerprint(s.key);
    // Same side to move: the entries n-2, n-4, ...
    1 + (0..s.seen as usize).rev().skip(1).step_by(2).filter(|&i| s.history[i] == fp).count()
}

/// Neither side can ever mate (see the module documentation).
pub(crate) fn insufficient_material(b: &Board) -> bool {
    if !(b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen)).is_empty() {
        return false;
    }
    let knights = b.pieces(Piece::Knight).len();
    let bishops = b.pieces(Piece::Bishop);
    match knights {
        0 => (bishops & BitBoard::DARK_SQUARES).is_empty() || (bishops & BitBoard::LIGHT_SQUARES).is_empty(),
        1 => bishops.is_empty(),
        _ => false,
    }
}

/// A draw by rule in a position where the side to move has a legal move (or where mate was checked first).
#[inline]
pub(crate) fn drawn_by_rule(s: &ChessState) -> bool {
    let b = s.board.get();
    b.halfmove_clock() >= 100 || insufficient_material(b) || threefold(s)
}
