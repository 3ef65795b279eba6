//! Othello's evaluations, chosen by name (`engine(eval=NAME)`):
//!
//! | name | what |
//! |---|---|
//! | `phase` (the default, also the course's algorithms' one) | strategic squares early, disc count late, blended smoothly by the number of empty squares |
//! | `simple` | the disc difference |
//!
//! `phase`, from the side to move's point of view, in tenths of a disc, with `e` the empty squares and `E` the empty
//! squares of the start (`size*size - 4`):
//!
//! ```text
//! early = 30 corners - 15 X-squares - 5 C-squares (next to an empty corner) + 8 mobility - 4 frontier + 12 stable
//! late  = 10 discs + 30 corners + 12 stable + 3 mobility
//! value = (early * e + late * (E - e)) / E
//! ```
//!
//! each term a difference (own minus opponent's): corners held, X-squares (diagonal neighbours of a corner) and
//! C-squares (edge neighbours) held while their corner is empty, legal moves, frontier discs (next to an empty square),
//! stable discs (see `stable.rs`), discs. The course's advice: take strategic squares early, count discs late, and
//! make the transition smooth so that the horizon moves smoothly.

use crate::game::{Evaluator, GameError, err};

use super::bits::{Geometry, square};
use super::stable::{frontier, stable};
use super::{Othello, OthelloState};

/// The names of the evaluations, the engine's default first.
pub const NAMES: &[&str] = &["phase", "simple"];

/// One of Othello's evaluations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OthelloEval {
    /// Strategic squares early, disc count late.
    #[default]
    Phase,
    /// The disc difference.
    Simple,
}

impl OthelloEval {
    /// The evaluation `name` for the board of `g`, or an error naming the accepted ones.
    pub fn named(g: &Othello, name: &str) -> Result<OthelloEval, GameError> {
        match name {
            "phase" => Ok(OthelloEval::Phase),
            "simple" => Ok(OthelloEval::Simple),
            other => {
                err(format!("{}: no evaluation '{other}' (known: {})", crate::game::Game::spec(g), NAMES.join(", ")))
            }
        }
    }
}

/// The X-squares and C-squares of the corners that are empty.
pub(crate) fn danger_squares(geo: &Geometry, empty: u64) -> (u64, u64) {
    let m = geo.size - 1;
    let (mut x, mut c) = (0u64, 0u64);
    for (r, col, dr, dc) in [(0, 0, 1i32, 1i32), (0, m, 1, -1), (m, 0, -1, 1), (m, m, -1, -1)] {
        if empty & (1 << square(r, col)) == 0 {
            continue;
        }
        let at = |a: i32, b: i32| 1u64 << square((r as i32 + a) as u32, (col as i32 + b) as u32);
        x |= at(dr, dc);
        c |= at(dr, 0) | at(0, dc);
    }
    (x, c)
}

/// The terms of `phase` for the side to move (own minus opponent), for tests and `search --json` readers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    pub(crate) corners: i32,
    pub(crate) x_squares: i32,
    pub(crate) c_squares: i32,
    pub(crate) mobility: i32,
    pub frontier: i32,
    pub stable: i32,
    pub discs: i32,
    pub empties: i32,
}

/// The evaluation's terms of `s`.
pub fn terms(g: &Othello, s: &OthelloState) -> Terms {
    let geo = &g.geo;
    let (own, opp) = (s.own, s.opp);
    let empty = geo.board & !(own | opp);
    let diff = |a: u64, b: u64| a.count_ones() as i32 - b.count_ones() as i32;
    let (x, c) = danger_squares(geo, empty);
    Terms {
        corners: diff(own & geo.corners, opp & geo.corners),
        x_squares: diff(own & x, opp & x),
        c_squares: diff(own & c, opp & c),
        mobility: diff(geo.moves(own, opp), geo.moves(opp, own)),
        frontier: diff(frontier(geo, own, opp), frontier(geo, opp, own)),
        stable: diff(stable(geo, own, opp), stable(geo, opp, own)),
        discs: diff(own, opp),
        empties: empty.count_ones() as i32,
    }
}

impl Evaluator<Othello> for OthelloEval {
    type Carry = ();

    fn evaluate(&self, g: &Othello, s: &OthelloState) -> i32 {
        match self {
            OthelloEval::Simple => 10 * (s.own.count_ones() as i32 - s.opp.count_ones() as i32),
            OthelloEval::Phase => {
                let t = terms(g, s);
                let early = 30 * t.corners - 15 * t.x_squares - 5 * t.c_squares + 8 * t.mobility - 4 * t.frontier
                    + 12 * t.stable;
                let late = 10 * t.discs + 30 * t.corners + 12 * t.stable + 3 * t.mobility;
                let total = g.geo.board.count_ones() as i32 - 4;
                let e = t.empties.min(total);
                (early * e + late * (total - e)) / total
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn start_is_balanced_and_corners_count() {
        let g = Othello::default();
        let s = g.start();
        assert_eq!(OthelloEval::Phase.evaluate(&g, &s), 0);
        let t = "x......./......../......../...ox.../...xo.../......../......../........ x";
        let s = g.parse_position(t).unwrap();
        assert_eq!(terms(&g, &s).corners, 1);
        assert!(OthelloEval::Phase.evaluate(&g, &s) > 0);
        let x_square = "......../.x....../......../...ox.../...xo.../......../......../........ x";
        assert!(OthelloEval::Phase.evaluate(&g, &g.parse_position(x_square).unwrap()) < 0);
        assert!(OthelloEval::named(&g, "nope").unwrap_err().0.contains("phase, simple"));
    }
}
