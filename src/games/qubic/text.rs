//! Qubic's notations: cells (`2b3`: layer 2, file b, rank 3), the position text (layers from layer 1 up separated by
//! `|`, each ranks from the top down as tic-tac-toe writes them) and the terminal drawing (the layers side by side).

use super::{Qubic, QubicState};
use crate::game::{Game, GameError, Outcome, Side, err};
use crate::games::board_text::{self, RankWords};

/// The name of a cell: layer, file, rank (`1a1` .. `4d4`).
pub(crate) fn cell_name(n: u32, cell: u32) -> String {
    let (layer, rank, file) = (cell / (n * n), cell / n % n, cell % n);
    format!("{}{}{}", layer + 1, (b'a' + file as u8) as char, rank + 1)
}

fn letter(side: Side) -> char {
    if side == Side::First { 'X' } else { 'O' }
}

/// A move: an empty cell named layer, file, rank.
pub fn parse_move(g: &Qubic, s: &QubicState, text: &str) -> Result<u8, GameError> {
    let t = text.trim();
    let n = g.n;
    let last_file = (b'a' + n as u8 - 1) as char;
    let shape =
        || format!("'{t}': expected a cell 1a1..{n}{last_file}{n} (layer 1-{n}, file a-{last_file}, rank 1-{n})");
    let b = t.as_bytes();
    if b.len() != 3 {
        return Err(GameError::new(shape()));
    }
    let (layer, file, rank) =
        (b[0].wrapping_sub(b'1'), b[1].to_ascii_lowercase().wrapping_sub(b'a'), b[2].wrapping_sub(b'1'));
    if layer as u32 >= n || file as u32 >= n || rank as u32 >= n {
        return Err(GameError::new(shape()));
    }
    let cell = layer as u32 * n * n + rank as u32 * n + file as u32;
    if g.outcome(s).is_some() {
        return err("the game is over: no move is legal");
    }
    if (s.x | s.o) >> cell & 1 == 1 {
        let who = if s.x >> cell & 1 == 1 { 'X' } else { 'O' };
        return err(format!("illegal move {t}: cell {} is taken by {who}", cell_name(n, cell)));
    }
    Ok(cell as u8)
}

pub fn format_position(g: &Qubic, s: &QubicState) -> String {
    let n = g.n;
    let layers: Vec<String> = (0..n)
        .map(|layer| {
            board_text::write_ranks(n, n, |rank, file| {
                let cell = layer * n * n + rank * n + file;
                if s.x >> cell & 1 == 1 {
                    Some('X')
                } else if s.o >> cell & 1 == 1 {
                    Some('O')
                } else {
                    None
                }
            })
        })
        .collect();
    format!("{} {}", layers.join("|"), letter(s.stm).to_ascii_lowercase())
}

pub fn parse_position(g: &Qubic, text: &str) -> Result<QubicState, GameError> {
    let n = g.n;
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or_else(|| {
        GameError::new(format!("empty position: expected {n} layers separated by '|' (each {n} ranks from the top separated by '/'), then x or o"))
    })?;
    let side =
        fields.next().ok_or_else(|| GameError::new("position: missing side to move (x or o) after the board"))?;
    if let Some(extra) = fields.next() {
        return err(format!("position: unexpected '{extra}' after the side to move"));
    }
    let layers: Vec<&str> = board.split('|').collect();
    if layers.len() != n as usize {
        return err(format!(
            "position: {} layers given, the cube has {n} (layers from layer 1 up separated by '|')",
            layers.len()
        ));
    }
    let words = RankWords { unit: "rank", symbol: "symbol", expected: "X, O, '.' or a digit" };
    let (mut x, mut o) = (0u64, 0u64);
    for (layer, text) in layers.iter().enumerate() {
        let text = text.replace('.', "1");
        board_text::read_ranks(&text, n, n, &words, |ch, rank, file| {
            let bit = 1u64 << (layer as u32 * n * n + rank * n + file);
            match ch {
                'X' | 'x' => x |= bit,
                'O' | 'o' => o |= bit,
                _ => return false,
            }
            true
        })
        .map_err(|e| GameError::new(format!("layer {}: {e}", layer + 1)))?;
    }
    let stm = match side {
        "x" | "X" => Side::First,
        "o" | "O" => Side::Second,
        _ => return err(format!("position: side to move '{side}': expected x or o")),
    };
    let (nx, no) = (x.count_ones(), o.count_ones());
    let expected = if stm == Side::First { no } else { no + 1 };
    if nx != expected {
        return err(format!(
            "position: impossible counts: {nx} X and {no} O with {} to move (X moves first: X must equal O with x to move, O + 1 with o to move)",
            letter(stm)
        ));
    }
    let s = QubicState { x, o, stm, key: 0 };
    let (own, opp) = s.own_opp();
    if g.has_line(own) {
        return err(format!(
            "position: impossible: {} has a line but is to move (the game ended a move earlier)",
            letter(stm)
        ));
    }
    if g.has_line(opp) && !(0..64).any(|c| opp >> c & 1 == 1 && !g.has_line(opp & !(1 << c))) {
        return err(format!(
            "position: impossible: no single last move of {} made all its lines (the game would have ended earlier)",
            letter(stm.other())
        ));
    }
    let mut s = s;
    s.key = g.compute_key(&s);
    Ok(s)
}

/// The layers side by side, layer 1 on the left, then who is to move or the result.
pub fn display(g: &Qubic, s: &QubicState) -> String {
    let n = g.n;
    let files: String = (0..n).map(|f| format!(" {}", (b'a' + f as u8) as char)).collect();
    let mut out = String::from("  ");
    for layer in 0..n {
        out += &format!(" {:<width$}", format!("layer {}", layer + 1), width = 2 * n as usize + 3);
    }
    out = out.trim_end().to_string() + "\n";
    for rank in (0..n).rev() {
        out += &format!("{} ", rank + 1);
        for layer in 0..n {
            for file in 0..n {
                let cell = layer * n * n + rank * n + file;
                out.push(' ');
                out.push(if s.x >> cell & 1 == 1 {
                    'X'
                } else if s.o >> cell & 1 == 1 {
                    'O'
                } else {
                    '.'
                });
            }
            if layer + 1 < n {
                out += "   ";
            }
        }
        out.push('\n');
    }
    out += "  ";
    for layer in 0..n {
        out += &files;
        if layer + 1 < n {
            out += "   ";
        }
    }
    out.push('\n');
    match g.outcome(s) {
        None => out += &format!("{} to move", letter(s.stm)),
        Some(Outcome::Loss) => out += &format!("game over: {} wins", letter(s.stm.other())),
        Some(Outcome::Win) => out += &format!("game over: {} wins", letter(s.stm)),
        Some(_) => out += "game over: a draw",
    }
    out
}
