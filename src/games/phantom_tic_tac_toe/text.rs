//! Phantom tic-tac-toe as text: the position text (the referee's full state), the drawing of the full board, and each
//! player's observation.

use super::{PhantomState, PhantomTicTacToe, Said, letter};
use crate::game::{Game, GameError, Outcome, Side, err};
use crate::games::board_text;
use crate::games::tic_tac_toe::{TicTacToe, has_line};

/// `a1`..`c3` (either case) as a square index.
pub(crate) fn parse_square(t: &str) -> Option<u8> {
    let b = t.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let file = b[0].to_ascii_lowercase();
    if !(b'a'..=b'c').contains(&file) || !(b'1'..=b'3').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 3 + (file - b'a'))
}

fn name(sq: u8) -> String {
    TicTacToe::square_name(sq as u32)
}

fn said_token(said: Said) -> String {
    match said {
        Said::Nothing => "-".into(),
        Said::OpponentMoved => "*".into(),
        Said::Placed(sq) => format!("+{}", name(sq)),
        Said::Taken(sq) => format!("!{}", name(sq)),
    }
}

fn parse_said(t: &str, who: char) -> Result<Said, GameError> {
    let bad = || {
        GameError::new(format!(
            "position: referee's message to {who} '{t}': expected - (nothing yet), * (the opponent placed a mark), \
+SQUARE (placed) or !SQUARE (failed try)"
        ))
    };
    match t {
        "-" => Ok(Said::Nothing),
        "*" => Ok(Said::OpponentMoved),
        _ if t.starts_with('+') => parse_square(&t[1..]).map(Said::Placed).ok_or_else(bad),
        _ if t.starts_with('!') => parse_square(&t[1..]).map(Said::Taken).ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// The position text (see the module documentation of `phantom_tic_tac_toe`).
pub fn format_position(s: &PhantomState) -> String {
    let mut out = board_text::write_ranks(3, 3, |rank, col| {
        let bit = 1u16 << (rank * 3 + col);
        if s.marks[0] & bit != 0 {
            Some(if s.found[1] & bit != 0 { 'x' } else { 'X' })
        } else if s.marks[1] & bit != 0 {
            Some(if s.found[0] & bit != 0 { 'o' } else { 'O' })
        } else {
            None
        }
    });
    let side = if s.stm == Side::First { 'x' } else { 'o' };
    out += &format!(" {side} {} {}", said_token(s.said[0]), said_token(s.said[1]));
    out
}

/// Parse and check a position text; the key is left at 0 for the caller.
pub fn parse_position(text: &str) -> Result<PhantomState, GameError> {
    const SHAPE: &str = "expected three rows from the top separated by '/' (X/O: a mark the opponent has not found, \
x/o: found, digits or '.' for empty squares), the side to move (x or o), then the referee's last message to X and to O";
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 4 {
        return err(format!("position '{}': {} fields; {SHAPE}", text.trim(), fields.len()));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 3 {
        return err(format!("position: {} rows given, the board has 3; {SHAPE}", rows.len()));
    }
    let (mut marks, mut found) = ([0u16; 2], [0u16; 2]);
    for (i, row) in rows.iter().enumerate() {
        let rank = 2 - i as u32;
        let mut col = 0u32;
        for ch in row.chars() {
            let bit = |col: u32| 1u16 << (rank * 3 + col);
            if col >= 3 {
                return err(format!("position: rank {} '{row}' is longer than 3 squares", rank + 1));
            }
            match ch {
                '1'..='3' => col += ch as u32 - '0' as u32,
                '.' => col += 1,
                'X' | 'x' | 'O' | 'o' => {
                    let owner = if ch.eq_ignore_ascii_case(&'x') { 0 } else { 1 };
                    marks[owner] |= bit(col);
                    if ch.is_ascii_lowercase() {
                        found[1 - owner] |= bit(col);
                    }
                    col += 1;
                }
                _ => return err(format!("position: unknown symbol '{ch}' on rank {}; {SHAPE}", rank + 1)),
            }
        }
        if col != 3 {
            return err(format!("position: rank {} '{row}' covers {col} squares, expected 3", rank + 1));
        }
    }
    let stm = match fields[1] {
        "x" | "X" => Side::First,
        "o" | "O" => Side::Second,
        other => return err(format!("position: side to move '{other}': expected x or o")),
    };
    let said = [parse_said(fields[2], 'X')?, parse_said(fields[3], 'O')?];
    let s = PhantomState { marks, found, stm, said, key: 0 };
    check(&s)?;
    Ok(s)
}

/// The consistency rules of a reachable state.
fn check(s: &PhantomState) -> Result<(), GameError> {
    let (nx, no) = (s.marks[0].count_ones(), s.marks[1].count_ones());
    let expected = if s.stm == Side::First { no } else { no + 1 };
    if nx != expected {
        return err(format!(
            "position: impossible counts: {nx} X and {no} O with {} to move (X must equal O with x to move, O + 1 \
with o to move)",
            letter(s.stm)
        ));
    }
    let (p, q) = (s.stm, s.stm.other());
    if has_line(s.marks[p.index()]) {
        return err(format!("position: impossible: {} has three in a row but is to move", letter(p)));
    }
    for who in [Side::First, Side::Second] {
        let w = letter(who);
        match s.said[who.index()] {
            Said::Nothing if nx > 0 => {
                return err(format!(
                    "position: the referee has told {w} something once X has moved ('-' is the start)"
                ));
            }
            Said::Nothing => {}
            _ if nx == 0 => return err(format!("position: at the start the referee has told {w} nothing ('-')")),
            Said::Placed(sq) if s.marks[who.index()] & (1 << sq) == 0 || who == p => {
                return err(format!(
                    "position: +{} for {w}: only the player who just placed a mark there (not the side to move) hears it",
                    name(sq)
                ));
            }
            Said::Taken(sq) if s.found[who.index()] & (1 << sq) == 0 || who != p => {
                return err(format!(
                    "position: !{} for {w}: only the side to move, after finding the opponent's mark there, hears it",
                    name(sq)
                ));
            }
            Said::OpponentMoved if who != p => {
                return err(format!("position: * for {w}: only the side to move hears that the opponent moved"));
            }
            _ => {}
        }
    }
    if let Said::Placed(last) = s.said[q.index()]
        && s.said[p.index()] == Said::OpponentMoved
        && s.found[p.index()] & (1 << last) != 0
    {
        return err(format!(
            "position: impossible: {} found {}'s last mark {} without trying since it was placed",
            letter(p),
            letter(q),
            name(last)
        ));
    }
    let over = has_line(s.marks[q.index()]) || (s.marks[0] | s.marks[1]) == crate::games::tic_tac_toe::FULL;
    if over && s.said[p.index()] != Said::OpponentMoved {
        return err("position: impossible: the game ended with the last mark, so the side to move has heard only '*'");
    }
    if has_line(s.marks[q.index()]) {
        let Said::Placed(last) = s.said[q.index()] else { unreachable!("checked above: the side not to move heard +") };
        if has_line(s.marks[q.index()] & !(1 << last)) {
            return err(format!(
                "position: impossible: {} had three in a row before its last mark {} (the game would have ended)",
                letter(q),
                name(last)
            ));
        }
    }
    Ok(())
}

/// The board with one character per square, top rank first, and the file letters.
fn board(cell: impl Fn(u16) -> char) -> String {
    let mut out = String::new();
    for rank in (0..3).rev() {
        out += &format!("{} ", rank + 1);
        for col in 0..3 {
            out.push(' ');
            out.push(cell(1u16 << (rank * 3 + col)));
        }
        out.push('\n');
    }
    out + "   a b c\n"
}

/// What the referee's message says to `p`.
fn message(s: &PhantomState, p: Side) -> String {
    let q = letter(p.other());
    match s.said[p.index()] {
        Said::Nothing => "the game starts".into(),
        Said::OpponentMoved => format!("{q} placed a mark"),
        Said::Placed(sq) => format!("your mark went on {}", name(sq)),
        Said::Taken(sq) => format!("{} is {q}'s: move again", name(sq)),
    }
}

fn result(g: &PhantomTicTacToe, s: &PhantomState) -> Option<String> {
    Some(match g.outcome(s)? {
        Outcome::Loss => format!("{} wins", letter(s.stm.other())),
        Outcome::Win => format!("{} wins", letter(s.stm)),
        _ => "draw".into(),
    })
}

/// The referee's drawing: every mark, lower case when the opponent has found it.
pub fn display(g: &PhantomTicTacToe, s: &PhantomState) -> String {
    let mut out = board(|bit| {
        if s.marks[0] & bit != 0 {
            if s.found[1] & bit != 0 { 'x' } else { 'X' }
        } else if s.marks[1] & bit != 0 {
            if s.found[0] & bit != 0 { 'o' } else { 'O' }
        } else {
            '.'
        }
    });
    out += "(the referee's view: upper case = not found by the opponent, lower case = found)\n";
    out += &format!("referee to X: {}; to O: {}\n", message(s, Side::First), message(s, Side::Second));
    match result(g, s) {
        Some(r) => out + &format!("game over: {r}"),
        None => out + &format!("{} to move", letter(s.stm)),
    }
}

/// What `p` sees: its marks, the opponent marks it found, the referee's last message to it and whose turn it is; at
/// the end, the whole board.
pub fn observation(g: &PhantomTicTacToe, s: &PhantomState, p: Side) -> String {
    let (me, them) = (letter(p), letter(p.other()));
    if g.is_terminal(s) {
        return format!("{me}'s view: the game is over, the referee shows the whole board\n{}", display(g, s));
    }
    let (own, found) = (s.marks[p.index()], s.found[p.index()]);
    let mut out = format!("{me}'s view ({them}'s marks you have not found are not shown)\n");
    out += &board(|bit| {
        if own & bit != 0 {
            me
        } else if found & bit != 0 {
            them
        } else {
            '.'
        }
    });
    let n_them = s.marks[p.other().index()].count_ones();
    out += &format!(
        "you ({me}) have {} mark(s); {them} has {n_them}, {} found\nreferee: {}\n",
        own.count_ones(),
        found.count_ones(),
        message(s, p)
    );
    if s.stm == p { out + &format!("your move ({me})") } else { out + &format!("{them} to move") }
}
