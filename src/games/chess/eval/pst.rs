//! `eval=pst`: PeSTO's tapered piece-square tables ([`pesto_tables`](super::pesto_tables)).
//!
//! ```text
//! mg = Σ over White pieces (MG_VALUE[p] + MG_TABLE[p][sq ^ 56]) - Σ over Black pieces (MG_VALUE[p] + MG_TABLE[p][sq])
//! eg = the same with the endgame values and tables
//! phase = min(24, Σ PHASE[p] over every piece)            (24: all minor and major pieces on the board)
//! f = (mg * phase + eg * (24 - phase)) / 24               from White's side; negated when Black moves
//! ```

use cozy_chess::{Board, Color, Piece};

use super::pesto_tables::{EG_TABLE, EG_VALUE, MG_TABLE, MG_VALUE, PHASE};

/// The tapered value from the side to move's point of view.
#[inline]
pub fn evaluate(b: &Board) -> i32 {
    let (mut mg, mut eg, mut phase) = (0, 0, 0);
    for piece in Piece::ALL {
        let p = piece as usize;
        for sq in b.colored_pieces(Color::White, piece) {
            let i = sq as usize ^ 56;
            mg += MG_VALUE[p] + MG_TABLE[p][i];
            eg += EG_VALUE[p] + EG_TABLE[p][i];
            phase += PHASE[p];
        }
        for sq in b.colored_pieces(Color::Black, piece) {
            let i = sq as usize;
            mg -= MG_VALUE[p] + MG_TABLE[p][i];
            eg -= EG_VALUE[p] + EG_TABLE[p][i];
            phase += PHASE[p];
        }
    }
    let phase = phase.min(24);
    let v = (mg * phase + eg * (24 - phase)) / 24;
    if b.side_to_move() == Color::White { v } else { -v }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_start_and_material_sign() {
        assert_eq!(evaluate(&Board::default()), 0);
        let up = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false).unwrap();
        assert!(evaluate(&up) > 800);
        let mirrored = Board::from_fen("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", false).unwrap();
        assert_eq!(evaluate(&mirrored), evaluate(&up));
    }

    #[test]
    fn knights_prefer_the_centre() {
        let rim = Board::from_fen("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", false).unwrap();
        let centre = Board::from_fen("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", false).unwrap();
        assert!(evaluate(&centre) > evaluate(&rim));
    }
}
