//! Checkers notation: PDN square numbers (1..32) for moves, `11-15` for a step, `15x24` for a jump and `15x24x31` for
//! a multi-jump (every landing square); PDN's FEN tag for positions; the board drawn as text.
//!
//! Moves are also read with algebraic squares on this board (`c3-d4`, `c3d4`, `d4xf6xd8`: `a1` is square 29), and a
//! multi-jump by its two ends alone (`1x19` for `1x10x19`) when only one sequence joins them and the ends are not one
//! jump apart.
//!
//! Position text: `B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12` (the side to move, `B` or `W`,
//! then each side's squares, a `K` before a king; ranges `1-12` are read too), then optionally a space and the
//! number of plies played under the draw rule's count (`0` left out).

use super::geometry::{self, BOTTOM_ROW, TOP_ROW};
use super::movegen;
use super::{Checkers, CheckersMove, CheckersState};
use crate::game::{GameError, MoveList, Side, err};

/// The PDN number (1..32) of bit `i`.
pub fn square_name(i: u8) -> String {
    (i + 1).to_string()
}

/// The squares a move visits: its start, then each landing square.
pub(crate) fn path_squares(m: CheckersMove) -> Vec<u8> {
    let mut out = vec![m.from];
    if m.jumps == 0 {
        out.push(m.to);
        return out;
    }
    let mut sq = m.from as usize;
    for j in 0..m.jumps {
        let d = (m.path >> (2 * j as u32) & 3) as usize;
        sq = geometry::JUMP[sq][d] as usize;
        out.push(sq as u8);
    }
    out
}

/// `11-15`, `15x24`, `15x24x31`.
pub fn format_move(m: CheckersMove) -> String {
    let names: Vec<String> = path_squares(m).into_iter().map(square_name).collect();
    names.join(if m.jumps == 0 { "-" } else { "x" })
}

/// Read one square: a number 1..32 or a dark square's algebraic name.
fn parse_square(t: &str) -> Result<u8, GameError> {
    if let Ok(n) = t.parse::<u32>() {
        if t.starts_with('+') || (t.len() > 1 && t.starts_with('0')) || !(1..=32).contains(&n) {
            return err(format!("'{t}' is not a square: squares are numbered 1 to 32"));
        }
        return Ok((n - 1) as u8);
    }
    let b = t.as_bytes();
    if b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
        let sq = geometry::square_at((b'8' - b[1]) as isize, (b[0] - b'a') as isize);
        if sq == geometry::NONE {
            return err(format!("'{t}' is a light square: pieces stand on the dark ones"));
        }
        return Ok(sq);
    }
    err(format!("'{t}' is not a square (1 to 32, or a dark square a1..h8)"))
}

/// The squares a move text names, split at `-` (a step) or `x` (a jump), or algebraic names run together (`c3d4`,
/// either), and whether the text says it is a jump (`Some(true)`), a step (`Some(false)`) or does not say.
fn parse_squares(t: &str) -> Result<(Vec<u8>, Option<bool>), GameError> {
    let t = t.trim().to_ascii_lowercase();
    let (parts, jump): (Vec<&str>, Option<bool>) = if t.contains('x') {
        (t.split('x').collect(), Some(true))
    } else if t.contains('-') {
        (t.split('-').collect(), Some(false))
    } else if t.len() >= 4 && t.len().is_multiple_of(2) && t.as_bytes()[0].is_ascii_alphabetic() {
        ((0..t.len()).step_by(2).map(|i| &t[i..i + 2]).collect(), None)
    } else {
        (vec![t.as_str()], None)
    };
    if parts.len() < 2 || (jump == Some(false) && parts.len() != 2) {
        return err(format!("'{t}' is not a move: write a step 11-15, a jump 15x24, a multi-jump 15x24x31"));
    }
    Ok((parts.iter().map(|p| parse_square(p)).collect::<Result<_, _>>()?, jump))
}

pub fn parse_move(g: &Checkers, s: &CheckersState, t: &str) -> Result<CheckersMove, GameError> {
    let (squares, jump) = parse_squares(t)?;
    let mut moves = MoveList::new();
    crate::game::Game::generate_moves(g, s, &mut moves);
    let kind_fits = |m: &CheckersMove| jump.is_none_or(|j| j == (m.jumps > 0));
    let exact: Vec<CheckersMove> =
        moves.iter().copied().filter(|m| kind_fits(m) && path_squares(*m) == squares).collect();
    if let [m] = exact[..] {
        return Ok(m);
    }
    // A multi-jump by its two ends, when they are not one jump apart (that names the single jump).
    let one_jump_apart = squares.len() == 2 && geometry::JUMP[squares[0] as usize].contains(&squares[1]);
    if squares.len() == 2 && !one_jump_apart {
        let ends: Vec<CheckersMove> = moves
            .iter()
            .copied()
            .filter(|m| m.jumps > 1 && jump != Some(false) && m.from == squares[0] && m.to == squares[1])
            .collect();
        match ends[..] {
            [m] => return Ok(m),
            [] => {}
            _ => {
                let all: Vec<String> = ends.iter().map(|&m| format_move(m)).collect();
                return err(format!("'{t}' could be {}: write every square of the jump", all.join(" or ")));
            }
        }
    }
    let legal: Vec<String> = moves.iter().map(|&m| format_move(m)).collect();
    let why = if movegen::must_capture(s) { " (a capture is compulsory)" } else { "" };
    err(format!("'{t}' is not a legal move{why} (legal: {})", legal.join(" ")))
}

/// One side's squares for the FEN tag: `K` before a king, in square order.
fn side_list(bits: u32, kings: u32) -> String {
    let mut out = Vec::new();
    for i in 0..32u8 {
        if bits >> i & 1 == 1 {
            let k = if kings >> i & 1 == 1 { "K" } else { "" };
            out.push(format!("{k}{}", square_name(i)));
        }
    }
    out.join(",")
}

pub fn format_position(s: &CheckersState) -> String {
    let side = if s.stm == Side::First { 'B' } else { 'W' };
    let mut t = format!("{side}:W{}:B{}", side_list(s.white, s.kings), side_list(s.black, s.kings));
    if s.quiet > 0 {
        t.push_str(&format!(" {}", s.quiet));
    }
    t
}

/// One side's list after its colour letter: `K1,2,5-8`. Returns (pieces, kings).
fn parse_side_list(t: &str) -> Result<(u32, u32), GameError> {
    let (mut bits, mut kings) = (0u32, 0u32);
    for item in t.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (king, rest) = match item.strip_prefix(['K', 'k']) {
            Some(r) => (true, r),
            None => (false, item),
        };
        let (a, b) = match rest.split_once('-') {
            Some((a, b)) => (parse_square(a)?, parse_square(b)?),
            None => {
                let s = parse_square(rest)?;
                (s, s)
            }
        };
        if a > b {
            return err(format!("'{item}': a range runs upwards (5-8)"));
        }
        for sq in a..=b {
            if bits >> sq & 1 == 1 {
                return err(format!("square {} is listed twice", sq + 1));
            }
            bits |= 1 << sq;
            if king {
                kings |= 1 << sq;
            }
        }
    }
    Ok((bits, kings))
}

pub fn parse_position(g: &Checkers, t: &str) -> Result<CheckersState, GameError> {
    let t = t.trim().trim_end_matches('.');
    let (fen, quiet) = match t.split_once(char::is_whitespace) {
        Some((f, q)) => {
            let q = q.trim();
            match q.parse::<u16>() {
                Ok(n) if crate::spec::plain_integer(q) => (f, n),
                _ => return err(format!("'{q}': the draw-rule count after the position is a number of plies")),
            }
        }
        None => (t, 0),
    };
    let mut fields = fen.split(':');
    let stm = match fields.next().map(str::trim) {
        Some("B") | Some("b") => Side::First,
        Some("W") | Some("w") => Side::Second,
        _ => return err("a checkers position starts with the side to move, B or W: B:W21,...,32:B1,...,12"),
    };
    let (mut white, mut black, mut kings) = (None, None, 0u32);
    for f in fields {
        let f = f.trim();
        let (slot, rest) = match f.chars().next() {
            Some('W') | Some('w') => (&mut white, &f[1..]),
            Some('B') | Some('b') => (&mut black, &f[1..]),
            _ => return err(format!("'{f}': each side's list starts with W or B")),
        };
        if slot.is_some() {
            return err(format!("'{f}': that side is listed twice"));
        }
        let (bits, k) = parse_side_list(rest)?;
        *slot = Some(bits);
        kings |= k;
    }
    let (Some(white), Some(black)) = (white, black) else {
        return err("a checkers position lists both sides: B:W21,...,32:B1,...,12");
    };
    if white & black != 0 {
        return err(format!("square {} holds pieces of both sides", (white & black).trailing_zeros() + 1));
    }
    if black.count_ones() > 12 || white.count_ones() > 12 {
        return err("a side has at most 12 pieces");
    }
    if black & !kings & BOTTOM_ROW != 0 || white & !kings & TOP_ROW != 0 {
        return err("a man on the far row would have been crowned: write it as a king (K29)");
    }
    if quiet > g.draw_plies() {
        // At the limit the game is drawn (a finished game's position); past it no game goes.
        return err(format!("the draw-rule count is at most {} plies", g.draw_plies()));
    }
    let mut s = CheckersState { black, white, kings, stm, quiet, key: 0 };
    s.key = g.compute_key_of(&s);
    Ok(s)
}

/// The board from Black's side at the top: `b`/`w` men, `B`/`W` kings, `.` an empty dark square; the squares'
/// numbers beside it.
pub fn display(g: &Checkers, s: &CheckersState) -> String {
    let mut out = String::new();
    for r in 0..8 {
        out.push_str(&format!("{} ", 8 - r));
        let mut numbers = String::new();
        for c in 0..8 {
            let sq = geometry::square_at(r, c);
            if sq == geometry::NONE {
                out.push_str("  ");
                numbers.push_str("   ");
                continue;
            }
            let b = 1u32 << sq;
            let ch = match (s.black & b != 0, s.white & b != 0, s.kings & b != 0) {
                (true, _, false) => 'b',
                (true, _, true) => 'B',
                (_, true, false) => 'w',
                (_, true, true) => 'W',
                _ => '.',
            };
            out.push(ch);
            out.push(' ');
            numbers.push_str(&format!("{:>2} ", sq + 1));
        }
        out.push_str(&format!("   {}\n", numbers.trim_end()));
    }
    out.push_str("  a b c d e f g h\n");
    let who = if s.stm == Side::First { "Black" } else { "White" };
    out.push_str(&format!("{who} to move; {} of {} plies towards the draw rule\n", s.quiet, g.draw_plies()));
    out
}
