//! Chess's observation tensor in OpenSpiel's layout, `[20, 8, 8]`, the same for both observers:
//!
//! ```text
//! planes 0..12   one per piece: king, queen, rook, bishop, knight, pawn, each White's then Black's (1 on its squares)
//! plane 12       the empty squares
//! plane 13       repetitions of the position, (count - 1) / 2: 0 the first time, 0.5 the second, 1 the third
//! plane 14       1 when White is to move
//! plane 15       the halfmove clock / 101
//! planes 16..20  castling rights: White's queenside, White's kingside, Black's queenside, Black's kingside
//! ```
//! Plane cell `[rank][file]`: row 0 is rank 1, column 0 the a-file (cozy-chess's square index, `a1 = 0`, `h8 = 63`).

use cozy_chess::{Color, Piece};

use super::{ChessState, rules};

/// Planes, ranks, files.
pub(crate) const SHAPE: [usize; 3] = [20, 8, 8];

/// Fill `out` (zeroed, 20 * 64 numbers) with the observation of `s`.
pub fn observe(s: &ChessState, out: &mut [f32]) {
    let b = s.board();
    let mut plane = |index: usize, value: f32, squares: cozy_chess::BitBoard| {
        for sq in squares {
            out[index * 64 + sq as usize] = value;
        }
    };
    let pieces = [Piece::King, Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight, Piece::Pawn];
    for (i, piece) in pieces.into_iter().enumerate() {
        plane(2 * i, 1.0, b.colored_pieces(Color::White, piece));
        plane(2 * i + 1, 1.0, b.colored_pieces(Color::Black, piece));
    }
    plane(12, 1.0, !b.occupied());
    let all = cozy_chess::BitBoard::FULL;
    plane(13, (rules::repetitions(s) - 1) as f32 / 2.0, all);
    plane(14, if b.side_to_move() == Color::White { 1.0 } else { 0.0 }, all);
    plane(15, b.halfmove_clock() as f32 / 101.0, all);
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let rights = b.castle_rights(color);
        plane(16 + 2 * i, if rights.long.is_some() { 1.0 } else { 0.0 }, all);
        plane(17 + 2 * i, if rights.short.is_some() { 1.0 } else { 0.0 }, all);
    }
}
