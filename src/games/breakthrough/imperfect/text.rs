//! Breakthrough with imperfect information as text: moves, the position text (the referee's full state), the
//! referee's drawing and each player's observation.

use std::fmt::Write;

use super::{DarkBreakthrough, DarkState, News};
use crate::game::{Game, GameError, MoveList, Outcome, Side, err};
use crate::games::breakthrough::BtMove;

fn side_name(p: Side) -> &'static str {
    if p == Side::First { "White" } else { "Black" }
}

/// Read one square (`a1`, file then rank) at the start of `t`; returns it and the rest.
fn square<'a>(g: &DarkBreakthrough, t: &'a str) -> Result<(u8, &'a str), GameError> {
    let b = t.as_bytes();
    let digits = b.iter().skip(1).take_while(|c| c.is_ascii_digit()).count();
    if b.is_empty() || !b[0].is_ascii_alphabetic() || digits == 0 {
        return err(format!("'{t}': expected a square such as a2"));
    }
    let col = (b[0].to_ascii_lowercase() - b'a') as u32;
    let row: u32 = t[1..1 + digits].parse().map_err(|_| GameError::new(format!("'{t}': bad rank")))?;
    if col >= g.bt.columns || row < 1 || row > g.bt.rows {
        return err(format!("square {} is off the {}x{} board", &t[..1 + digits], g.bt.rows, g.bt.columns));
    }
    Ok((((row - 1) * g.bt.columns + col) as u8, &t[1 + digits..]))
}

/// One square's name and nothing after it.
pub(super) fn read_square(g: &DarkBreakthrough, t: &str) -> Option<u8> {
    match square(g, t) {
        Ok((sq, "")) => Some(sq),
        _ => None,
    }
}

pub(super) fn read_move(g: &DarkBreakthrough, t: &str) -> Result<BtMove, GameError> {
    let (from, rest) = square(g, t)?;
    let rest = rest.strip_prefix(['x', 'X', '-']).unwrap_or(rest);
    let (to, rest) = square(g, rest)?;
    if !rest.is_empty() {
        return err(format!("'{t}': unexpected '{rest}' after the move (expected from-to such as a2a3)"));
    }
    Ok(BtMove { from, to })
}

/// Parse a move; it must be legal on the board the side to move sees.
pub fn parse_move(g: &DarkBreakthrough, s: &DarkState, text: &str) -> Result<BtMove, GameError> {
    let t = text.trim();
    let m = read_move(g, t)?;
    if g.is_terminal(s) {
        return err("the game is over: no move is legal");
    }
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    if moves.contains(&m) {
        return Ok(m);
    }
    let side = side_name(s.board.stm);
    if DarkBreakthrough::pieces(s, s.board.stm) & (1u64 << m.from) == 0 {
        return err(format!("illegal move {t}: no {side} piece on {}", g.bt.square_name(m.from as u32)));
    }
    if s.found & (1u64 << m.to) != 0 {
        return err(format!(
            "illegal move {t}: your straight move onto {} was cancelled this turn (an enemy piece is there)",
            g.bt.square_name(m.to as u32)
        ));
    }
    err(format!(
        "illegal move {t}: {side} pieces move one square forward, straight or diagonally, onto a square without an own piece"
    ))
}

fn squares(g: &DarkBreakthrough, mut b: u64) -> String {
    let mut names = Vec::new();
    while b != 0 {
        names.push(g.bt.square_name(b.trailing_zeros()));
        b &= b - 1;
    }
    if names.is_empty() { "-".into() } else { names.join(",") }
}

fn news_token(g: &DarkBreakthrough, n: News) -> String {
    let mv = |m: BtMove| format!("{}{}", g.bt.square_name(m.from as u32), g.bt.square_name(m.to as u32));
    match n {
        News::Start => "-".into(),
        News::Played(m) => format!("+{}", mv(m)),
        News::Cancelled(m) => format!("!{}", mv(m)),
        News::OpponentMoved(None) => "*".into(),
        News::OpponentMoved(Some(sq)) => format!("*{}", g.bt.square_name(sq as u32)),
        News::OpponentCancelled(k) => format!("?{k}"),
    }
}

fn parse_news(g: &DarkBreakthrough, t: &str, who: &str) -> Result<News, GameError> {
    let bad = |e: GameError| {
        GameError::new(format!(
            "position: message to {who} '{t}': {e}; expected - (nothing yet), +MOVE (played), !MOVE (cancelled), * or \
*SQUARE (the opponent moved, capturing there), ?N (the opponent's N-th cancelled move)"
        ))
    };
    Ok(match t {
        "-" => News::Start,
        "*" => News::OpponentMoved(None),
        _ if t.starts_with('+') => News::Played(read_move(g, &t[1..]).map_err(bad)?),
        _ if t.starts_with('!') => News::Cancelled(read_move(g, &t[1..]).map_err(bad)?),
        _ if t.starts_with('*') => {
            let (sq, rest) = square(g, &t[1..]).map_err(bad)?;
            if !rest.is_empty() {
                return Err(bad(GameError::new("trailing text")));
            }
            News::OpponentMoved(Some(sq))
        }
        _ if t.starts_with('?') => match t[1..].parse::<u8>() {
            Ok(k) if k > 0 => News::OpponentCancelled(k),
            _ => return Err(bad(GameError::new("expected a count from 1"))),
        },
        _ => return Err(bad(GameError::new("unknown message"))),
    })
}

/// The position text: Breakthrough's, the found squares, the messages to White and to Black.
pub fn format_position(g: &DarkBreakthrough, s: &DarkState) -> String {
    format!(
        "{} {} {} {}",
        g.bt.format_position(&s.board),
        squares(g, s.found),
        news_token(g, s.said[0]),
        news_token(g, s.said[1])
    )
}

/// Parse and check a position text (the key is set by the caller).
pub fn parse_position(g: &DarkBreakthrough, text: &str) -> Result<DarkState, GameError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 5 {
        return err(format!(
            "position '{}': {} fields; expected Breakthrough's position (ranks and side to move), the squares the side \
to move found this turn (- or a3,c4), then the referee's last message to White and to Black",
            text.trim(),
            fields.len()
        ));
    }
    let board = g.bt.parse_position(&format!("{} {}", fields[0], fields[1]))?;
    let mut found = 0u64;
    if fields[2] != "-" {
        for name in fields[2].split(',') {
            let (sq, rest) = square(g, name)?;
            if !rest.is_empty() {
                return err(format!("position: found square '{name}': expected a square such as a3"));
            }
            found |= 1u64 << sq;
        }
    }
    let said = [parse_news(g, fields[3], "White")?, parse_news(g, fields[4], "Black")?];
    let s = DarkState { board, found, said, key: 0 };
    check(g, &s)?;
    Ok(s)
}

/// The consistency rules a reachable state keeps.
fn check(g: &DarkBreakthrough, s: &DarkState) -> Result<(), GameError> {
    let (p, q) = (s.board.stm, s.board.stm.other());
    let (own, opp) = (DarkBreakthrough::pieces(s, p), DarkBreakthrough::pieces(s, q));
    if s.found & !opp != 0 {
        return err("position: a found square does not hold a piece of the opponent of the side to move");
    }
    let ahead = match p {
        Side::First => own << g.bt.columns,
        Side::Second => own >> g.bt.columns,
    };
    if s.found & !ahead != 0 {
        return err("position: a found square is not straight ahead of a piece of the side to move");
    }
    let start = s.said == [News::Start; 2];
    if start != (s.said[0] == News::Start || s.said[1] == News::Start) {
        return err("position: '-' (nothing said yet) is for both players at the start, or for neither");
    }
    if !start {
        let to_mover = matches!(s.said[p.index()], News::Cancelled(_) | News::OpponentMoved(_));
        let to_other = matches!(s.said[q.index()], News::Played(_) | News::OpponentCancelled(_));
        if !to_mover || !to_other {
            return err(
                "position: the side to move last heard * / *SQUARE / !MOVE, the other side +MOVE or ?N (messages \
describe the last step)",
            );
        }
        let cancelled = matches!(s.said[p.index()], News::Cancelled(_));
        if cancelled != (s.found != 0) || cancelled != matches!(s.said[q.index()], News::OpponentCancelled(_)) {
            return err("position: a cancelled move (!MOVE, ?N) goes with found squares, and only then");
        }
    }
    Ok(())
}

/// The board with one character per square (`cell(bit)`), top rank first, and the files.
/// `n` in decimal, right-aligned in `width` characters (the formatting machinery is slow for the tracker's loop).
fn push_number(out: &mut String, n: u32, width: usize) {
    let mut digits = [0u8; 10];
    let (mut k, mut v) = (0, n);
    loop {
        digits[k] = b'0' + (v % 10) as u8;
        k += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(k)));
    out.extend(digits[..k].iter().rev().map(|&d| d as char));
}

/// A square's name (`a1`) written into `out`.
fn write_square(g: &DarkBreakthrough, sq: u32, out: &mut String) {
    out.push((b'a' + (sq % g.bt.columns) as u8) as char);
    push_number(out, sq / g.bt.columns + 1, 0);
}

/// The board drawn into `out`, rank 1 at the bottom, `cell` giving each square's character.
fn write_board(g: &DarkBreakthrough, out: &mut String, cell: impl Fn(u64) -> char) {
    for row in (0..g.bt.rows).rev() {
        push_number(out, row + 1, 3);
        for c in 0..g.bt.columns {
            out.push(' ');
            out.push(cell(1u64 << (row * g.bt.columns + c)));
        }
        out.push('\n');
    }
    out.push_str("   ");
    for c in 0..g.bt.columns {
        out.push(' ');
        out.push((b'a' + c as u8) as char);
    }
    out.push('\n');
}

/// What a message says to its player, written into `out`.
fn write_message(g: &DarkBreakthrough, n: News, out: &mut String) {
    let mv = |m: BtMove, out: &mut String| {
        write_square(g, m.from as u32, out);
        write_square(g, m.to as u32, out);
    };
    match n {
        News::Start => out.push_str("the game starts"),
        News::Played(m) => {
            out.push_str("your move ");
            mv(m, out);
            out.push_str(" was played");
        }
        News::Cancelled(m) => {
            out.push_str("your move ");
            mv(m, out);
            out.push_str(" was cancelled: an enemy piece stands on ");
            write_square(g, m.to as u32, out);
            out.push_str("; move again");
        }
        News::OpponentMoved(None) => out.push_str("the opponent moved"),
        News::OpponentMoved(Some(sq)) => {
            out.push_str("the opponent moved and captured your piece on ");
            write_square(g, sq as u32, out);
        }
        News::OpponentCancelled(k) => {
            let _ = write!(out, "a move of the opponent was cancelled ({k} this turn); it moves again");
        }
    }
}

/// What a message says to its player.
fn message(g: &DarkBreakthrough, n: News) -> String {
    let mut out = String::new();
    write_message(g, n, &mut out);
    out
}

fn result(g: &DarkBreakthrough, s: &DarkState) -> Option<String> {
    let winner = match g.outcome(s)? {
        Outcome::Win => s.board.stm,
        _ => s.board.stm.other(),
    };
    Some(format!("{} wins", side_name(winner)))
}

/// The referee's drawing: every piece (P White, p Black), the found squares, the messages.
pub fn display(g: &DarkBreakthrough, s: &DarkState) -> String {
    let mut out = g.bt.display(&s.board);
    // The last line of Breakthrough's drawing says who moves; the referee's lines replace it.
    if let Some(cut) = out.rfind('\n') {
        out.truncate(cut + 1);
    }
    out += &format!(
        "(the referee's view) found this turn: {}; to White: {}; to Black: {}\n",
        squares(g, s.found),
        message(g, s.said[0]),
        message(g, s.said[1])
    );
    match result(g, s) {
        Some(r) => out + &format!("game over: {r}"),
        None => out + &format!("{} to move", side_name(s.board.stm)),
    }
}

/// What `p` sees: its pieces, the enemy pieces it found this turn (when it is to move), the referee's last message
/// and whose turn it is; at the end, the whole board. Written into `out` (cleared first) without allocating once
/// `out` has grown: the belief tracker compares many thousands of observations a move.
pub(crate) fn write_observation(g: &DarkBreakthrough, s: &DarkState, p: Side, out: &mut String) {
    out.clear();
    if g.is_terminal(s) {
        let _ = writeln!(out, "{}'s view: the game is over, the referee shows the whole board", side_name(p));
        out.push_str(&display(g, s));
        return;
    }
    let (me, them) = if p == Side::First { ('P', 'p') } else { ('p', 'P') };
    let own = DarkBreakthrough::pieces(s, p);
    let found = if s.board.stm == p { s.found } else { 0 };
    out.push_str(side_name(p));
    out.push_str("'s view (");
    out.push_str(side_name(p.other()));
    out.push_str("'s pieces are not shown)\n");
    write_board(g, out, |bit| {
        if own & bit != 0 {
            me
        } else if found & bit != 0 {
            them
        } else {
            '.'
        }
    });
    out.push_str("you have ");
    push_number(out, own.count_ones(), 0);
    out.push_str(" piece(s); referee: ");
    write_message(g, s.said[p.index()], out);
    out.push('\n');
    if s.board.stm == p {
        out.push_str("your move (");
        out.push_str(side_name(p));
        out.push(')');
    } else {
        out.push_str(side_name(p.other()));
        out.push_str(" to move");
    }
}
