//! What a picture of the board needs, as data: the board's shape and what each cell holds. The web page
//! (`plateau serve`) draws every game from this alone, so a game that fills [`Interop::board_view`](super::Game) is drawn
//! without the page knowing it.
//!
//! ```text
//! layout   drawn as                                         cells, in order
//! grid     a square grid (Breakthrough, chess, Othello)     row-major from the top row down, left to right
//! columns  Connect Four: a grid played by columns           the same; a click anywhere in a column plays it
//! pits     mancala houses: two rows of pits                 the same (the second player's row on top)
//! points   backgammon: 24 points in two rows of 12          the same (points 13..24 on top, 12..1 below)
//! ```
//!
//! The coordinates drawn around the board ([`Coords`]) are the game's own: read from the cell names of a grid (files
//! under the bottom row, ranks beside the rows, as the notation writes them) or of the pits (the house letters of
//! each row), or set by the game (Connect Four's column numbers). `flip` says whether turning the board round makes
//! sense (not for Connect Four, whose discs fall down).
//!
//! A cell's `piece` is the text to draw (a chess glyph, a disc, a seed count), `owner` the player it belongs to
//! (0: first, 1: second), whose colour is `colours[owner]`. Moves name cells with [`Interop::move_cells`](super::Game):
//! the page highlights where a selected piece may go. A `points` board also has a [`Tray`] (bar, borne-off checkers,
//! dice).

use super::Side;

/// How the page lays the cells out.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    Grid,
    Columns,
    Pits,
    Points,
}

/// One cell of the board.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cell {
    /// The cell's name in the game's notation (`a1`, `4`), empty when moves do not name it.
    pub name: String,
    /// What to draw on it (empty: nothing).
    pub piece: String,
    /// Whose piece: 0 for the first player, 1 for the second, `None` for no one.
    pub owner: Option<u8>,
}

/// A picture of a position.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BoardView {
    pub layout: Layout,
    pub rows: u32,
    pub columns: u32,
    /// `rows * columns` cells, row-major from the top row down.
    pub cells: Vec<Cell>,
    /// The colours of the first and second players' pieces (CSS colour names).
    pub colours: [&'static str; 2],
    /// Short lines shown beside the board (captured seeds, dice, checkers off).
    pub notes: Vec<String>,
    /// The coordinates to write around the board.
    pub(crate) coords: Coords,
    /// Whether the page may turn the board round (false where the board has a fixed up, as Connect Four's).
    pub flip: bool,
    /// What lies beside the points of a `points` board (backgammon): the bar, the trays, the dice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tray: Option<Tray>,
}

/// Backgammon's board beside its points, for the page to draw and to build a move from clicks: the checkers on the bar
/// and borne off per player, the dice still to play, and whose numbering the moves use.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Tray {
    /// Checkers on the bar: the first player's, the second's.
    pub bar: [u32; 2],
    /// Checkers borne off: the first player's, the second's.
    pub off: [u32; 2],
    /// The dice still to play in this decision (a double's four, or the two left of its second half); empty while
    /// rolling.
    pub dice: Vec<u8>,
    /// The dice rolled this turn (`[hi, lo]`), empty while rolling.
    pub rolled: Vec<u8>,
    /// The player to move or to roll (0 or 1): moves are written in its numbering, its points 24 -> 1.
    pub mover: u8,
}

/// Labels around the board, in the game's notation: `left` beside each row (top row first), `bottom` under each
/// column and `top` above each column (left to right); an empty list draws nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Coords {
    pub left: Vec<String>,
    pub bottom: Vec<String>,
    pub top: Vec<String>,
}

impl BoardView {
    /// A board of `rows` x `columns` whose cell at (`row`, `column`), row 0 at the bottom, is `cell(row, column)`.
    pub fn from_fn(
        layout: Layout,
        rows: u32,
        columns: u32,
        colours: [&'static str; 2],
        mut cell: impl FnMut(u32, u32) -> Cell,
    ) -> BoardView {
        let mut cells = Vec::with_capacity((rows * columns) as usize);
        for row in (0..rows).rev() {
            for column in 0..columns {
                cells.push(cell(row, column));
            }
        }
        let mut v = BoardView {
            layout,
            rows,
            columns,
            cells,
            colours,
            notes: Vec::new(),
            coords: Coords::default(),
            flip: true,
            tray: None,
        };
        v.coords = v.coords_from_names();
        v
    }

    /// The coordinates the cell names give: on a grid whose names are letters then digits (`a1`, `h8`), the letters
    /// of the bottom row's cells under it and the digits of the first column's cells beside the rows; on pits, each
    /// row's names (Oware's `A`..`F` below, `f`..`a` above). Nothing when the names do not read so.
    fn coords_from_names(&self) -> Coords {
        let (rows, columns) = (self.rows as usize, self.columns as usize);
        if self.cells.len() != rows * columns || rows == 0 || columns == 0 {
            return Coords::default();
        }
        let row =
            |r: usize| -> Vec<String> { (0..columns).map(|c| self.cells[r * columns + c].name.clone()).collect() };
        match self.layout {
            Layout::Grid => {
                let split = |name: &str| {
                    let letters = name.chars().take_while(char::is_ascii_alphabetic).count();
                    let (file, rank) = name.split_at(letters);
                    (letters > 0 && !rank.is_empty() && rank.chars().all(|c| c.is_ascii_digit()))
                        .then(|| (file.to_string(), rank.to_string()))
                };
                let Some(parts) = self.cells.iter().map(|c| split(&c.name)).collect::<Option<Vec<_>>>() else {
                    return Coords::default();
                };
                Coords {
                    left: (0..rows).map(|r| parts[r * columns].1.clone()).collect(),
                    bottom: (0..columns).map(|c| parts[(rows - 1) * columns + c].0.clone()).collect(),
                    top: Vec::new(),
                }
            }
            Layout::Pits if self.cells.iter().all(|c| !c.name.is_empty()) => {
                Coords { left: Vec::new(), bottom: row(rows - 1), top: if rows > 1 { row(0) } else { Vec::new() } }
            }
            _ => Coords::default(),
        }
    }

    /// The index of the cell named `name`.
    pub fn find(&self, name: &str) -> Option<u32> {
        self.cells.iter().position(|c| !c.name.is_empty() && c.name == name).map(|i| i as u32)
    }

    /// The cells a move written `text` goes from and to, read from the cell names it starts with: `a2a3` is from a2 to
    /// a3, `b2` (a placement) only to b2, `e7e8q` from e7 to e8. Separators `-`, `x` and `/` between the two are
    /// skipped.
    pub(crate) fn cells_of_move(&self, text: &str) -> (Option<u32>, Option<u32>) {
        let Some((first, len)) = self.prefix(text) else { return (None, None) };
        let rest = text[len..].trim_start_matches(['-', 'x', '/']);
        match self.prefix(rest) {
            Some((second, _)) => (Some(first), Some(second)),
            None => (None, Some(first)),
        }
    }

    /// The longest cell name `text` starts with: its index and length.
    fn prefix(&self, text: &str) -> Option<(u32, usize)> {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.name.is_empty() && text.starts_with(c.name.as_str()))
            .max_by_key(|(_, c)| c.name.len())
            .map(|(i, c)| (i as u32, c.name.len()))
    }
}

/// A cell holding `piece` of `owner`, or an empty cell when `owner` is `None`.
pub fn cell(name: String, piece: &str, owner: Option<Side>) -> Cell {
    match owner {
        Some(p) => Cell { name, piece: piece.to_string(), owner: Some(p.index() as u8) },
        None => Cell { name, piece: String::new(), owner: None },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_name_their_cells() {
        let v = BoardView::from_fn(Layout::Grid, 2, 12, ["white", "black"], |r, c| Cell {
            name: format!("{}{}", (b'a' + c as u8) as char, r + 1),
            piece: String::new(),
            owner: None,
        });
        assert_eq!(v.cells.len(), 24);
        // Row-major from the top: a2 is cell 0, a1 cell 12.
        assert_eq!(v.find("a2"), Some(0));
        assert_eq!(v.find("a1"), Some(12));
        assert_eq!(v.cells_of_move("a1a2"), (Some(12), Some(0)));
        assert_eq!(v.cells_of_move("b1-c2"), (Some(13), Some(2)));
        assert_eq!(v.cells_of_move("b2"), (None, Some(1)));
        assert_eq!(v.cells_of_move("zz"), (None, None));
        // The longest name wins: l1 is not taken for l12.
        assert_eq!(v.cells_of_move("l1"), (None, Some(23)));
        // The coordinates come from the names: ranks top down beside the rows, files under the bottom row.
        assert_eq!(v.coords.left, ["2", "1"]);
        assert_eq!(v.coords.bottom[..3], ["a", "b", "c"]);
        assert!(v.coords.top.is_empty() && v.flip);
        // Names that are not letters then digits give no coordinates.
        let odd = BoardView::from_fn(Layout::Grid, 1, 2, ["white", "black"], |_, c| Cell {
            name: ["x", "y1"][c as usize].to_string(),
            piece: String::new(),
            owner: None,
        });
        assert_eq!(odd.coords, Coords::default());
        // Pits: each row's names (the top row as drawn, left to right).
        let pits = BoardView::from_fn(Layout::Pits, 2, 2, ["brown", "blue"], |r, c| Cell {
            name: if r == 0 { ["A", "B"][c as usize] } else { ["b", "a"][c as usize] }.to_string(),
            piece: "4".into(),
            owner: Some(r as u8),
        });
        assert_eq!(
            (pits.coords.bottom.clone(), pits.coords.top.clone()),
            (vec!["A".into(), "B".into()], vec!["b".into(), "a".into()])
        );
    }
}
