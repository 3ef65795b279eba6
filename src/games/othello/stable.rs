//! Stable discs (discs that can never be flipped), approximated from below, and frontier discs.
//!
//! A disc cannot be flipped along an axis (horizontal, vertical or one of the two diagonals) when the line through it
//! along that axis is full, or when one of its two neighbours along the axis is off the board or a stable disc of the
//! same colour. A disc safe along all four axes is stable; starting from none, the rule is applied until nothing
//! changes (the corners come first, then the edges and lines anchored on them).

use super::bits::{DIRS, Geometry, shift};

/// The squares of `set` from which every square in direction `DIRS[i]` up to the board's edge is in `set`.
fn run_to_edge(geo: &Geometry, set: u64, i: usize) -> u64 {
    let d = DIRS[i];
    let edge = geo.board & !shift(geo.target[i], -d);
    let mut r = set & edge;
    for _ in 0..geo.size {
        r |= set & shift(r & geo.target[i], -d);
    }
    r
}

/// The stable discs of `own` (a lower bound).
pub fn stable(geo: &Geometry, own: u64, opp: u64) -> u64 {
    let filled = own | opp;
    let mut safe_axis = [0u64; 4];
    for (axis, safe) in safe_axis.iter_mut().enumerate() {
        let (i, j) = (2 * axis, 2 * axis + 1);
        let full = run_to_edge(geo, filled, i) & run_to_edge(geo, filled, j);
        let edge_i = geo.board & !shift(geo.target[i], -DIRS[i]);
        let edge_j = geo.board & !shift(geo.target[j], -DIRS[j]);
        *safe = full | edge_i | edge_j;
    }
    let mut stable = 0;
    loop {
        let mut next = own;
        for (axis, safe) in safe_axis.iter().enumerate() {
            let (i, j) = (2 * axis, 2 * axis + 1);
            let anchored = shift(stable & geo.target[i], -DIRS[i]) | shift(stable & geo.target[j], -DIRS[j]);
            next &= safe | anchored;
        }
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Discs of `own` next to an empty square.
pub fn frontier(geo: &Geometry, own: u64, opp: u64) -> u64 {
    own & geo.neighbours(geo.board & !(own | opp))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::bits::square;

    #[test]
    fn corner_and_its_edge_run_are_stable() {
        let g = Geometry::new(8);
        let own = (1 << square(0, 0)) | (1 << square(0, 1)) | (1 << square(0, 2)) | (1 << square(3, 3));
        let opp = 1 << square(0, 4);
        assert_eq!(stable(&g, own, opp), own & !(1 << square(3, 3)));
        assert_eq!(stable(&g, opp, own), 0);
        // A full board: everything is stable.
        assert_eq!(stable(&g, g.board & !opp, opp), g.board & !opp);
        assert_eq!(frontier(&g, own, opp), own);
    }
}
