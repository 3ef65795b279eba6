//! Oware's move notation, position text and board drawing (see the module documentation of `oware`).

use super::{MAX_HOUSES, Oware, OwareState};
use crate::game::Capabilities;
use crate::game::{BoardView, Cell, Game, GameError, Layout, MoveList, Outcome, Side, err};

impl Oware {
    fn letters(&self, p: Side) -> String {
        let a = if p == Side::First { b'A' } else { b'a' };
        (0..self.houses as u8).map(|h| (a + h) as char).collect()
    }

    pub(super) fn parse_move_text(&self, s: &OwareState, text: &str) -> Result<u8, GameError> {
        let t = text.trim();
        if self.is_terminal(s) {
            return err("the game is over: no move is legal");
        }
        let mut moves = MoveList::new();
        self.generate_moves(s, &mut moves);
        let legal: Vec<String> = moves.iter().map(|&m| self.format_move(s, m)).collect();
        let mut chars = t.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return err(format!(
                "'{t}': expected the letter of a house ({}) (legal: {})",
                self.letters(s.stm),
                legal.join(" ")
            ));
        };
        let a = if s.stm == Side::First { 'A' } else { 'a' };
        let h = c as i32 - a as i32;
        if !(0..self.houses as i32).contains(&h) {
            return err(format!(
                "'{t}': no such house; the {} player's houses are {} (legal: {})",
                if s.stm == Side::First { "first" } else { "second" },
                self.letters(s.stm),
                legal.join(" ")
            ));
        }
        let h = h as u8;
        if !moves.contains(&h) {
            let why = if s.pits[self.base(s.stm) + h as usize] == 0 {
                "the house is empty"
            } else {
                "the opponent has no seed and this move does not reach it"
            };
            return err(format!("illegal move {}: {why} (legal: {})", self.format_move(s, h), legal.join(" ")));
        }
        Ok(h)
    }

    pub(super) fn parse_position_text(&self, text: &str) -> Result<OwareState, GameError> {
        let hint = "expected HOUSES/HOUSES STORE STORE SIDE, e.g. '4,4,4,4,4,4/4,4,4,4,4,4 0 0 1'";
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 4 {
            return err(format!("position '{}': {hint}", text.trim()));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 2 {
            return err(format!("position: '{}': two rows of houses separated by '/' ({hint})", fields[0]));
        }
        let mut pits = [0u8; 2 * MAX_HOUSES];
        let count = |t: &str, what: &str| -> Result<u32, GameError> {
            match t.trim().parse::<u32>() {
                Ok(v) if v <= self.total() as u32 && t.trim().bytes().all(|b| b.is_ascii_digit()) => Ok(v),
                _ => err(format!("position: {what} '{t}' is not a number of seeds in 0..={}", self.total())),
            }
        };
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<&str> = row.split(',').collect();
            if cells.len() != self.houses {
                return err(format!(
                    "position: the {} row has {} houses, this game has {} a side",
                    if r == 0 { "first" } else { "second" },
                    cells.len(),
                    self.houses
                ));
            }
            for (h, c) in cells.iter().enumerate() {
                pits[r * self.houses + h] = count(c, "house")? as u8;
            }
        }
        let stores = [count(fields[1], "store")?, count(fields[2], "store")?];
        let stm = match fields[3] {
            "1" => Side::First,
            "2" => Side::Second,
            x => return err(format!("position: side to move '{x}': expected 1 (first player) or 2 (second)")),
        };
        let board: u32 = pits.iter().map(|&x| x as u32).sum();
        let sum = board + stores[0] + stores[1];
        if sum != self.total() as u32 {
            return err(format!(
                "position: {board} seeds on the board and {} in the stores make {sum}, but {} has {} seeds",
                stores[0] + stores[1],
                self.spec(),
                self.total()
            ));
        }
        Ok(self.make_state(pits, [stores[0] as u8, stores[1] as u8], stm))
    }

    pub(super) fn format_position_text(&self, s: &OwareState) -> String {
        let row = |p: Side| {
            let b = self.base(p);
            s.pits[b..b + self.houses].iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
        };
        let side = if s.stm == Side::First { 1 } else { 2 };
        format!("{}/{} {} {} {side}", row(Side::First), row(Side::Second), s.stores[0], s.stores[1])
    }

    /// [`Interop::board_view`]: the houses as pits (seed counts), the second player's row on top, right to left; the
    /// stores in the notes.
    pub(super) fn view(&self, s: &OwareState) -> BoardView {
        let h = self.houses as u32;
        let mut v = BoardView::from_fn(Layout::Pits, 2, h, ["saddlebrown", "darkslateblue"], |row, c| {
            let (player, i, letter) = if row == 0 { (Side::First, c, b'A') } else { (Side::Second, h - 1 - c, b'a') };
            let seeds = s.pits[self.base(player) + i as usize];
            Cell { name: ((letter + i as u8) as char).to_string(), piece: seeds.to_string(), owner: Some(row as u8) }
        });
        v.notes.push(format!("stores: first player {}, second player {}", s.stores[0], s.stores[1]));
        v
    }

    /// The board as OpenSpiel draws it: the second player's row on top, right to left.
    pub(super) fn display_text(&self, s: &OwareState) -> String {
        let h = self.houses;
        let mut out = String::new();
        let mark = |p: Side| if s.stm == p && !self.is_terminal(s) { "  [to move]" } else { "" };
        out += &format!("second player store = {}{}\n", s.stores[1], mark(Side::Second));
        out += &(0..h).rev().map(|i| format!("{:>3}", (b'a' + i as u8) as char)).collect::<String>();
        out.push('\n');
        out += &(0..h).rev().map(|i| format!("{:>3}", s.pits[h + i])).collect::<String>();
        out.push('\n');
        out += &(0..h).map(|i| format!("{:>3}", s.pits[i])).collect::<String>();
        out.push('\n');
        out += &(0..h).map(|i| format!("{:>3}", (b'A' + i as u8) as char)).collect::<String>();
        out.push('\n');
        out += &format!("first player store = {}{}", s.stores[0], mark(Side::First));
        if let Some(Outcome::Value(d)) = self.outcome_for(s, Side::First) {
            out +=
                &format!("\ngame over: {} - {}, a difference of {d:+} for the first player", s.stores[0], s.stores[1]);
        }
        out
    }
}
