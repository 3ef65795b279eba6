//! Checkers move generation on the bitboards: simple moves one step diagonally (men forwards only, kings both ways)
//! and jumps, which are compulsory. A move is a whole turn: a multi-jump goes on while the jumping piece can jump
//! again, and a man that reaches the far row is crowned and stops there. Two jump sequences with the same start, end
//! and captured pieces (only a king's circuit can make them) are one move, as in the published perft counts.

use super::geometry::{BOTTOM_ROW, DOWN_LEFT, DOWN_RIGHT, JUMP, NEXT, NONE, TOP_ROW, UP_LEFT, UP_RIGHT};
use super::{CheckersMove, CheckersState};
use crate::game::{MoveList, Side};

const BLACK_MAN_DIRS: [usize; 2] = [DOWN_LEFT, DOWN_RIGHT];
const WHITE_MAN_DIRS: [usize; 2] = [UP_LEFT, UP_RIGHT];
const KING_DIRS: [usize; 4] = [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT];

/// The side to move's view of a position: its pieces, the opponent's, the empty squares.
struct Sides {
    own: u32,
    opp: u32,
    empty: u32,
    kings: u32,
    man_dirs: &'static [usize],
    crown_row: u32,
}

fn sides(s: &CheckersState) -> Sides {
    let (own, opp, man_dirs, crown_row): (u32, u32, &'static [usize], u32) = match s.stm {
        Side::First => (s.black, s.white, &BLACK_MAN_DIRS, BOTTOM_ROW),
        Side::Second => (s.white, s.black, &WHITE_MAN_DIRS, TOP_ROW),
    };
    Sides { own, opp, empty: !(s.black | s.white), kings: s.kings, man_dirs, crown_row }
}

impl Sides {
    fn dirs(&self, sq: usize) -> &'static [usize] {
        if self.kings >> sq & 1 == 1 { &KING_DIRS } else { self.man_dirs }
    }
}

#[inline(always)]
fn bit(sq: u8) -> u32 {
    1u32 << sq
}

/// Whether the piece on `sq` can jump in direction `d` over a piece of `opp` onto an empty square.
#[inline(always)]
fn can_jump(sq: usize, d: usize, opp: u32, empty: u32) -> bool {
    let (mid, land) = (NEXT[sq][d], JUMP[sq][d]);
    land != NONE && opp & bit(mid) != 0 && empty & bit(land) != 0
}

/// Every legal move of the side to move (none when it has none; the caller checks the draw rule).
pub(crate) fn generate(s: &CheckersState, out: &mut MoveList<CheckersMove>) {
    out.clear();
    let v = sides(s);
    let mut pieces = v.own;
    while pieces != 0 {
        let sq = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        let dirs = v.dirs(sq);
        if dirs.iter().any(|&d| can_jump(sq, d, v.opp, v.empty)) {
            let start = CheckersMove { from: sq as u8, to: sq as u8, jumps: 0, path: 0, captured: 0 };
            let king = v.kings >> sq & 1 == 1;
            extend(&v, start, king, dirs, v.opp, v.empty | 1 << sq, out);
        }
    }
    if !out.is_empty() {
        dedupe(out);
        return;
    }
    let mut pieces = v.own;
    while pieces != 0 {
        let sq = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        for &d in v.dirs(sq) {
            let to = NEXT[sq][d];
            if to != NONE && v.empty & bit(to) != 0 {
                out.push(CheckersMove { from: sq as u8, to, jumps: 0, path: 0, captured: 0 });
            }
        }
    }
}

/// Continue the jump sequence `m` (its piece on `m.to`): every continuation, or `m` itself when it cannot go on.
fn extend(
    v: &Sides,
    m: CheckersMove,
    king: bool,
    dirs: &'static [usize],
    opp: u32,
    empty: u32,
    out: &mut MoveList<CheckersMove>,
) {
    let sq = m.to as usize;
    let mut extended = false;
    for &d in dirs {
        if !can_jump(sq, d, opp, empty) {
            continue;
        }
        extended = true;
        let (mid, land) = (NEXT[sq][d], JUMP[sq][d]);
        let next = CheckersMove {
            from: m.from,
            to: land,
            jumps: m.jumps + 1,
            path: m.path | (d as u32) << (2 * m.jumps as u32),
            captured: m.captured | bit(mid),
        };
        if !king && bit(land) & v.crown_row != 0 {
            // Crowned: the move ends here.
            push(out, next);
        } else {
            extend(v, next, king, dirs, opp & !bit(mid), (empty | bit(m.to)) & !bit(land), out);
        }
    }
    if !extended && m.jumps > 0 {
        push(out, m);
    }
}

fn push(out: &mut MoveList<CheckersMove>, m: CheckersMove) {
    // A king's longest circuits cannot fill the list (at most 12 captures); refuse to overflow all the same.
    if !out.is_full() {
        out.push(m);
    }
}

/// Keep one jump sequence per (start, end, captured pieces).
fn dedupe(out: &mut MoveList<CheckersMove>) {
    if out.iter().all(|m| m.jumps < 4) {
        // Two sequences with the same ends and captures need a circuit, at least four jumps.
        return;
    }
    let mut i = 0;
    while i < out.len() {
        let m = out[i];
        if out[..i].iter().any(|o| o.from == m.from && o.to == m.to && o.captured == m.captured) {
            out.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Whether the side to move has a legal move (cheaper than generating them).
pub(crate) fn has_move(s: &CheckersState) -> bool {
    let v = sides(s);
    let mut pieces = v.own;
    while pieces != 0 {
        let sq = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        for &d in v.dirs(sq) {
            let to = NEXT[sq][d];
            if to != NONE && (v.empty & bit(to) != 0 || can_jump(sq, d, v.opp, v.empty)) {
                return true;
            }
        }
    }
    false
}

/// Whether the side to move must capture.
pub(crate) fn must_capture(s: &CheckersState) -> bool {
    let v = sides(s);
    let mut pieces = v.own;
    while pieces != 0 {
        let sq = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        if v.dirs(sq).iter().any(|&d| can_jump(sq, d, v.opp, v.empty)) {
            return true;
        }
    }
    false
}
