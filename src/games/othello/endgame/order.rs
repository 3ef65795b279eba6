//! Move ordering of the endgame solver (from [`super::SHALLOW`] + 1 empties up).
//!
//! ```text
//! key(move), smallest first:
//!     fastest first: 16 (opponent's replies + its corner replies) - 8 (the move takes a corner)
//!                    + 2 (empties next to our discs after the move) - PARITY_W (the move is in an odd quadrant)
//!     from 16 empties: + SORT_W * shallow(child, sort_depth(empties)), the opponent's value of the position after
//!         the move by a small negamax whose leaves are a mobility evaluation (below)
//!
//! mobility_value(own, opp) = 4 (weighted moves of own - of opp) + 16 (corners of own - of opp)
//!                            - 6 (own - opp discs on the X- and C-squares of empty corners; on 8x8 below 24 empties)
//!     weighted moves: the legal moves, corners counting double
//! ```
//!
//! The X- and C-squares term (the squares next to an empty corner, which give it away) took 16.6% of the nodes off FFO
//! #20-#39, 14.9% off #40-#44, 11.2% off #45-#47 (docs/othello.md, "The squares next to an empty corner").

use arrayvec::ArrayVec;

use super::{EndgameSolver, PARITY_W, odd_quadrants};
use crate::games::othello::bits::Geometry;

/// The depth of the shallow search in the key (plies after the move) at a node with `empties` empty squares, 0 for
/// none: deeper as the empties grow, as the subtree under a node grows faster than the search's cost.
fn sort_depth(empties: u32) -> u32 {
    match empties {
        0..16 => 0,
        16..24 => 1,
        24..28 => 2,
        _ => 4,
    }
}

/// Its weight in the key.
const SORT_W: i32 = 4;

/// On 8x8 the X- and C-squares term counts only in positions with fewer empties than this. Everywhere, it made FFO
/// #59 (34 empties, a wipeout) take 145 M nodes instead of 18 M; below 24 empties it keeps its gains (every FFO
/// position of #20-#47 searched the same tree as with the term everywhere; #48-#51 the same nodes within 0.01%, #52
/// +1.6%). On 6x6 it counts everywhere: the same limit took the position after `d5 e3 c2 b3` (28 empties) from 324 M
/// nodes to 388 M.
const XC_BELOW: u32 = 24;

/// The side to move's mobility evaluation (see the module's comment).
fn mobility_value(geo: &Geometry, own: u64, opp: u64) -> i32 {
    let weighted = |m: u64| (m.count_ones() + (m & geo.corners).count_ones()) as i32;
    let diff = |mask: u64| (own & mask).count_ones() as i32 - (opp & mask).count_ones() as i32;
    let empty = geo.board & !(own | opp);
    let counted = geo.size != 8 || empty.count_ones() < XC_BELOW;
    let danger = if counted { geo.neighbours(geo.corners & empty) } else { 0 };
    4 * (weighted(geo.moves(own, opp)) - weighted(geo.moves(opp, own))) + 16 * diff(geo.corners) - 6 * diff(danger)
}

impl EndgameSolver {
    /// Moves in search order into `out` (key, square), ascending key (`out` is not zeroed first: at most 64 moves).
    pub(super) fn order(&mut self, geo: &Geometry, own: u64, opp: u64, moves: u64, out: &mut ArrayVec<(i32, u8), 64>) {
        let empty = geo.board & !(own | opp);
        let depth = sort_depth(empty.count_ones());
        // The quadrants holding an odd number of empties (computed once for all the moves).
        let odd_quadrants = odd_quadrants(geo, empty);
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let (o, p) = geo.play(own, opp, sq);
            let replies = geo.moves(o, p);
            // Fewest replies first, corner replies counting double; our corners first among equals.
            let corner_mine = ((1u64 << sq) & geo.corners != 0) as i32;
            let potential = (geo.neighbours(p) & geo.board & !(o | p)).count_ones() as i32;
            let odd = ((1u64 << sq) & odd_quadrants != 0) as i32;
            let fastest = 16 * (replies.count_ones() + (replies & geo.corners).count_ones()) as i32 - 8 * corner_mine
                + 2 * potential
                - PARITY_W * odd;
            let key =
                if depth > 0 { fastest + SORT_W * self.sort_search(geo, o, p, depth, -1000, 1000) } else { fastest };
            out.push((key, sq as u8));
        }
        out.sort_unstable_by_key(|e| e.0);
    }

    /// A small negamax (alpha-beta, fail-soft) to `depth` plies on [`mobility_value`]; finished games score their
    /// disc difference times 100. Each position counts as a node.
    fn sort_search(&mut self, geo: &Geometry, own: u64, opp: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            return mobility_value(geo, own, opp);
        }
        let moves = geo.moves(own, opp);
        if moves == 0 {
            if geo.moves(opp, own) == 0 {
                return 100 * super::final_score(geo, own, opp);
            }
            return -self.sort_search(geo, opp, own, depth, -beta, -alpha);
        }
        let mut best = i32::MIN + 1;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let (o, p) = geo.play(own, opp, sq);
            let v = -self.sort_search(geo, o, p, depth - 1, -beta, -alpha);
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        best
    }
}
