//! The course's evaluation (Shannon's, as the slides give it), in centipawns:
//!
//! ```text
//! f = 200(K-k) + 9(Q-q) + 5(R-r) + 3(B+N-b-n) + (P-p) - (D-d + S-s + I-i)/2 + (M-m)/10
//!
//! K, Q, R, B, N, P   White's kings, queens, rooks, bishops, knights, pawns (lower case: Black's)
//! D                  doubled pawns: on each file, the pawns beyond the first
//! S                  blocked pawns: a piece of either side stands on the square in front
//! I                  isolated pawns: no pawn of the same side on a neighbouring file
//! M                  mobility: pseudo-legal moves (piece moves onto empty or enemy squares, pawn pushes and
//!                    captures; castling and en passant left out), counted for each side whoever is to move
//! ```
//!
//! Scaled by 100 so that every weight is an integer: a pawn is 100, the structure terms -50 each, a move of mobility
//! 10. The value is from the side to move's point of view (negated when Black moves).

use cozy_chess::{
    BitBoard, Board, Color, File, Piece, get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks,
    get_pawn_quiets, get_rook_moves,
};

use crate::game::Term;

/// The terms and their weights (per unit, in centipawns), in the formula's order.
pub(crate) const TERMS: [(&str, i32); 10] = [
    ("kings", 20000),
    ("queens", 900),
    ("rooks", 500),
    ("bishops", 300),
    ("knights", 300),
    ("pawns", 100),
    ("doubled", -50),
    ("blocked", -50),
    ("isolated", -50),
    ("mobility", 10),
];

/// The counts of the formula for one side, in [`TERMS`] order.
pub fn counts(b: &Board, c: Color) -> [i32; 10] {
    let own = b.colors(c);
    let n = |p: Piece| (own & b.pieces(p)).len() as i32;
    let pawns = own & b.pieces(Piece::Pawn);
    let (doubled, blocked, isolated) = pawn_structure(b, c, pawns);
    [
        n(Piece::King),
        n(Piece::Queen),
        n(Piece::Rook),
        n(Piece::Bishop),
        n(Piece::Knight),
        pawns.len() as i32,
        doubled,
        blocked,
        isolated,
        mobility(b, c),
    ]
}

/// Doubled, blocked and isolated pawns of side `c`.
pub(crate) fn pawn_structure(b: &Board, c: Color, pawns: BitBoard) -> (i32, i32, i32) {
    let mut doubled = 0;
    let mut isolated = 0;
    for file in File::ALL {
        let here = (pawns & file.bitboard()).len() as i32;
        if here > 1 {
            doubled += here - 1;
        }
        if here > 0 && (pawns & file.adjacent()).is_empty() {
            isolated += here;
        }
    }
    let ahead = match c {
        Color::White => BitBoard(pawns.0 << 8),
        Color::Black => BitBoard(pawns.0 >> 8),
    };
    let blocked = (ahead & b.occupied()).len() as i32;
    (doubled, blocked, isolated)
}

/// Pseudo-legal moves of side `c` (see the module documentation).
pub(crate) fn mobility(b: &Board, c: Color) -> i32 {
    let occ = b.occupied();
    let own = b.colors(c);
    let target = !own;
    let mut m = 0;
    for sq in own & b.pieces(Piece::Knight) {
        m += (get_knight_moves(sq) & target).len();
    }
    let diagonal = own & (b.pieces(Piece::Bishop) | b.pieces(Piece::Queen));
    for sq in diagonal {
        m += (get_bishop_moves(sq, occ) & target).len();
    }
    let straight = own & (b.pieces(Piece::Rook) | b.pieces(Piece::Queen));
    for sq in straight {
        m += (get_rook_moves(sq, occ) & target).len();
    }
    for sq in own & b.pieces(Piece::King) {
        m += (get_king_moves(sq) & target).len();
    }
    let enemy = b.colors(!c);
    for sq in own & b.pieces(Piece::Pawn) {
        m += (get_pawn_quiets(sq, c, occ) | (get_pawn_attacks(sq, c) & enemy)).len();
    }
    m as i32
}

/// The formula from White's point of view.
pub(crate) fn white_score(b: &Board) -> i32 {
    let (w, k) = (counts(b, Color::White), counts(b, Color::Black));
    TERMS.iter().zip(w.iter().zip(k.iter())).map(|((_, weight), (x, y))| weight * (x - y)).sum()
}

/// The formula from the side to move's point of view.
#[inline]
pub fn evaluate(b: &Board) -> i32 {
    let v = white_score(b);
    if b.side_to_move() == Color::White { v } else { -v }
}

/// The formula term by term, from the side to move's point of view (`plateau eval`, `plateau search --json`): each
/// term's feature is the side to move's count minus the opponent's (`Q-q` when White moves), its value the weight
/// times the feature; the values add up to [`evaluate`].
pub fn terms(b: &Board) -> Vec<Term> {
    let (w, k) = (counts(b, Color::White), counts(b, Color::Black));
    let sign = if b.side_to_move() == Color::White { 1 } else { -1 };
    TERMS
        .iter()
        .enumerate()
        .map(|(i, &(name, weight))| {
            let feature = sign * (w[i] - k[i]);
            Term::new(name, feature, weight * feature)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    #[test]
    fn terms_add_up_to_the_value_for_either_side_to_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let b = board(fen);
            let t = terms(&b);
            assert_eq!(t.len(), TERMS.len());
            assert_eq!(t.iter().map(|t| t.value).sum::<i32>(), evaluate(&b), "{fen}");
        }
        let b = board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1");
        let mobility = terms(&b).into_iter().find(|t| t.name == "mobility").unwrap();
        let (w, k) = (counts(&b, Color::White)[9], counts(&b, Color::Black)[9]);
        assert_eq!(mobility.feature, k - w, "Black to move: its mobility minus White's");
    }

    #[test]
    fn start_position_is_level_with_twenty_moves_each() {
        let b = Board::default();
        let w = counts(&b, Color::White);
        assert_eq!(w, [1, 1, 2, 2, 2, 8, 0, 0, 0, 20]);
        assert_eq!(w, counts(&b, Color::Black));
        assert_eq!(evaluate(&b), 0);
    }

    #[test]
    fn pawn_structure_counts() {
        // White: a2 a3 (doubled, both isolated, a2 blocked by a3), c4 (blocked by c5, isolated), e4 (isolated);
        // Black: c5 (blocked by c4, isolated).
        let b = board("4k3/8/8/2p5/2P1P3/P7/P7/4K3 w - - 0 1");
        let w = counts(&b, Color::White);
        assert_eq!((w[6], w[7], w[8]), (1, 2, 4));
        let k = counts(&b, Color::Black);
        assert_eq!((k[6], k[7], k[8]), (0, 1, 1));
        // Material: 4 pawns against 1 = 300; structure: -(1-0 + 2-1 + 4-1)/2 pawns = -250; mobility: 10 a move.
        let mob = 10 * (w[9] - k[9]);
        assert_eq!(white_score(&b), 300 - 250 + mob);
        assert_eq!(evaluate(&b), white_score(&b));
    }

    #[test]
    fn sign_follows_the_side_to_move() {
        let w = board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let b = board("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(evaluate(&w) > 800);
        assert_eq!(evaluate(&b), -evaluate(&w));
    }
}
