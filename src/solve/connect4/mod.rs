//! A strong Connect Four solver in the style of Pascal Pons's tutorial solver, with a few additions, on the game's
//! own board ([`crate::games::connect_four`]: [`Position`](crate::games::connect_four::Position) and its helpers, any
//! [`Shape`](crate::games::connect_four::Shape)).
//!
//! # Score (Pons's convention)
//! A win with the winner's `s`-th stone scores `(W*H)/2 + 1 - s` for the winner and the negation for the loser; a
//! draw scores 0. A side that can win at once scores `(W*H + 1 - n)/2` (`n` stones played).
//!
//! # Files
//! - `search.rs`: the [`Solver`]: negamax with alpha-beta, the null-window probes, the best move (pseudo-code there);
//! - `search/switches.rs`: the solver's switches (each idea of the search, measured off and on);
//! - `sorter.rs`: move ordering (centre first, then by threats created);
//! - `claimeven.rs`: an upper bound from the second player's follow-up strategy (boards with an even number of rows);
//! - `table.rs`: the transposition table (both bounds and the cut-off move per position, generations, huge pages);
//! - `batch.rs`: what `plateau solve` runs: one position given as moves, or a batch file of them, timed;
//! - this file: the board sizes the solver takes, the table size for a memory budget, the result word.

mod batch;
mod claimeven;
mod search;
mod sorter;
mod table;

pub use batch::{Job, parse_batch};
pub(crate) use batch::{solve_batch, solve_one};
pub use search::{Solution, Solver};

use crate::games::connect_four::ConnectFour;

/// Largest supported width (a column number fits in 4 bits of a table entry).
pub(crate) const MAX_WIDTH: usize = 15;

/// The board of `rows` x `columns` if the solver takes it: `1 <= columns <= 15`, `rows >= 1` and
/// `columns * (rows + 1) <= 64`.
pub fn board(rows: u32, columns: u32) -> Result<ConnectFour, String> {
    if columns == 0 || rows == 0 || columns as usize > MAX_WIDTH || columns * (rows + 1) > 64 {
        return Err(format!(
            "connect_four board {columns}x{rows} (columns x rows) is not supported: need 1 <= columns <= {MAX_WIDTH}, \
             rows >= 1 and columns*(rows+1) <= 64"
        ));
    }
    ConnectFour::new(rows, columns).map_err(|e| e.to_string())
}

/// The number of table entries (log2) that fit in `mib` MiB (16 bytes per entry; at least 1 MiB).
pub(crate) fn table_log2(mib: usize) -> u32 {
    let entries = (mib.max(1) as u64) << 16;
    63 - entries.leading_zeros()
}

/// Result word for a score.
pub(crate) fn result_word(score: i32) -> &'static str {
    match score.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect_four::{Position, Shape, Standard};

    fn pos(s: &str) -> Position {
        Position::from_moves(&Standard, s).unwrap()
    }

    #[test]
    fn tutorial_examples() {
        let mut s = Solver::with_table(ConnectFour::default(), 20);
        assert_eq!(s.solve(&pos("4455"), false).score, 18);
        assert_eq!(s.solve(&pos("44455554221"), false).score, -15);
    }

    #[test]
    fn parse_errors_name_the_move() {
        let g = ConnectFour::default();
        let e = |s: &str| Position::from_moves(&g, s).unwrap_err().to_string();
        assert!(e("448").contains("move 3 '8'"));
        assert!(e("4444444").contains("move 7 '4': column 4 is full"));
        assert!(e("4455667").contains("four in a row"));
        assert!(e("44556671").contains("move 8 '1': the game is already over"));
        assert!(Position::from_moves(&g, "4x").is_err());
        assert_eq!(Position::from_moves(&g, "4 4 5").unwrap(), pos("445"));
    }

    #[test]
    fn mirror_is_an_involution_and_keys_match() {
        let g = Standard;
        let p = pos("1123");
        let q = pos("7765");
        assert_eq!(g.mirror(p.key()), q.key());
        assert_eq!(g.mirror(g.mirror(p.key())), p.key());
        assert_eq!(p.symmetric_key(&g), q.symmetric_key(&g));
    }

    #[test]
    fn board_limits_and_table_sizes() {
        assert!(board(6, 7).is_ok());
        assert!(board(7, 8).is_ok());
        assert!(board(8, 9).unwrap_err().contains("9x8 (columns x rows) is not supported"));
        assert!(board(1, 16).is_err(), "16 columns do not fit in a table entry");
        assert!(board(6, 0).is_err());
        assert_eq!(table_log2(128), 23);
        assert_eq!(table_log2(0), 16);
        assert_eq!(table_log2(100), 22);
    }
}
