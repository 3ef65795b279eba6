//! Adjudication: ending games whose result is already certain.
//!
//! Breakthrough's won race (side to move S, the normal rules: not misère, captures not forced):
//!
//! ```text
//! S wins if some piece p of S, d rows from its goal row, has
//!   1. its file empty (of any piece) between it and the goal row, and
//!   2. no enemy piece e in front of it with |file(e) - file(p)| <= rows between them + 1, and
//!   3. d <= the distance of the enemy's most advanced piece to its own goal row.
//! ```
//!
//! Why it is sound: p walks straight ahead, one row per move. An enemy piece can only stop it by standing on the
//! square in front of it or diagonally in front of it; a piece that starts k rows ahead meets p after at most k/2 moves
//! and can change file by one per move, so it must start inside the cone of condition 2. No other enemy piece can
//! interact with p, and since S moves first and arrives in d moves, an enemy needing at least d moves arrives later.

use std::any::Any;

use crate::game::{Game, Outcome, Player};
use crate::games::Breakthrough;

/// An outcome for the side to move and the reason, when the game is decided; `None` when it goes on.
pub fn adjudicate<G: Game>(game: &G, state: &G::State) -> Option<(Outcome, &'static str)> {
    let bt = (game as &dyn Any).downcast_ref::<Breakthrough>()?;
    let s = (state as &dyn Any).downcast_ref::<<Breakthrough as Game>::State>()?;
    breakthrough_race(bt, s).then_some((Outcome::Win, "won race"))
}

/// Condition 1-3 above for the side to move.
pub fn breakthrough_race(g: &Breakthrough, s: &<Breakthrough as Game>::State) -> bool {
    if g.misere || g.forced_captures || g.outcome(s).is_some() {
        return false;
    }
    let (rows, cols) = (g.rows as i32, g.columns as i32);
    let up = s.stm == Player::First;
    let (own, opp) = if up { (s.white, s.black) } else { (s.black, s.white) };
    // Distance of a piece on `row` to its goal: own pieces towards the far row, enemy pieces the other way.
    let own_dist = |row: i32| if up { rows - 1 - row } else { row };
    let opp_dist = |row: i32| if up { row } else { rows - 1 - row };
    let squares = |bb: u64| (0..64).filter(move |i| bb & (1u64 << i) != 0).map(move |i| (i / cols, i % cols));
    let Some(opp_best) = squares(opp).map(|(r, _)| opp_dist(r)).min() else { return true };
    let occupied = own | opp;
    'pieces: for (r, c) in squares(own) {
        let d = own_dist(r);
        if d > opp_best || d <= 0 {
            continue;
        }
        for k in 1..=d {
            let rr = if up { r + k } else { r - k };
            if occupied & (1u64 << (rr * cols + c)) != 0 {
                continue 'pieces;
            }
        }
        for (er, ec) in squares(opp) {
            let ahead = if up { er - r } else { r - er };
            if ahead > 0 && (ec - c).abs() <= ahead + 1 {
                continue 'pieces;
            }
        }
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn races() {
        let g = Breakthrough::default();
        // White's a5 piece is free and 3 moves away; Black's best piece needs 3 moves too, and White moves first: won.
        let s = g.parse_position("8/8/8/P7/7p/8/8/7P w").unwrap();
        assert!(breakthrough_race(&g, &s));
        // The same for Black to move with a faster runner of its own: Black wins (h4 is 3 rows from rank 1).
        let s = g.parse_position("8/8/8/P7/7p/8/8/8 b").unwrap();
        assert!(breakthrough_race(&g, &s));
        // An enemy piece in the cone: not adjudicated.
        let s = g.parse_position("8/2p5/8/P7/8/8/8/7P w").unwrap();
        assert!(!breakthrough_race(&g, &s));
        // The start position is not a race.
        assert!(!breakthrough_race(&g, &g.start()));
        // Misère is never adjudicated.
        let m = Breakthrough::new(8, 8, 2, true, false).unwrap();
        let s = m.parse_position("8/8/8/P7/7p/8/8/7P w").unwrap();
        assert!(!breakthrough_race(&m, &s));
    }
}
