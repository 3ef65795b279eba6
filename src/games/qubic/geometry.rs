//! The cube's geometry: the winning lines of an n x n x n board and the symmetries that map lines onto lines.
//!
//! ```text
//!  cell index = layer * n*n + rank * n + file        (file a = 0, rank 1 = 0, layer 1 = 0)
//!
//!  a line: n cells (x, y, z) + t * (dx, dy, dz), t = 0 .. n-1, for one of the 13 directions
//!  (each of dx, dy, dz in {-1, 0, 1}, not all 0, a direction and its opposite counted once)
//!  count: ((n + 2)^3 - n^3) / 2       (3 x 3 x 3: 49 lines, 4 x 4 x 4: 76)
//! ```
//!
//! Symmetries (Allis 1994, section 6.2; Patashnik 1980): a map of cells that sends every line to a line. Besides the 48
//! symmetries of the cube (permute the three axes, reflect each), the same permutation `p` of the coordinate values
//! applied to all three axes keeps lines whenever `p` commutes with the reflection `t -> n - 1 - t`: on 4 x 4 x 4
//! this adds the swap of the two inner values (`0 2 1 3`) and the swap of each inner value with its outer neighbour
//! (`1 0 3 2`), 192 symmetries in all (48 on 3 x 3 x 3). They are found by trying every such map and keeping those
//! that send the line set onto itself, so the count is measured, not assumed.

/// Every winning line of the n x n x n board, as a mask of cells.
pub fn lines(n: u32) -> Vec<u64> {
    let n = n as i32;
    let mut out = Vec::new();
    for dz in -1..=1i32 {
        for dy in -1..=1i32 {
            for dx in -1..=1i32 {
                // One of each pair of opposite directions: the first non-zero component positive.
                let first = if dz != 0 {
                    dz
                } else if dy != 0 {
                    dy
                } else {
                    dx
                };
                if first <= 0 {
                    continue;
                }
                for z in 0..n {
                    for y in 0..n {
                        for x in 0..n {
                            let inside = |t: i32| {
                                let (a, b, c) = (x + t * dx, y + t * dy, z + t * dz);
                                (0..n).contains(&a) && (0..n).contains(&b) && (0..n).contains(&c)
                            };
                            // Start cells only: the cell before the start is outside, the last cell inside.
                            if inside(-1) || !inside(n - 1) {
                                continue;
                            }
                            let mut mask = 0u64;
                            for t in 0..n {
                                mask |= 1 << ((z + t * dz) * n * n + (y + t * dy) * n + (x + t * dx));
                            }
                            out.push(mask);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The lines as bitboard shifts, one entry per direction (13): the shift `s` between two consecutive cells of a line
/// (`dz*n*n + dy*n + dx`, positive since the first non-zero component is) and the cells where a line of that direction
/// starts, so that the direction's lines are the sets `c, c + s, ..., c + (n-1)s` for every start `c`. Read from
/// [`lines`] (a line's two lowest cells give its shift, its lowest its start); no two directions share a shift on
/// 3 x 3 x 3 or 4 x 4 x 4, so each line lands in its direction's entry.
pub fn directions(n: u32) -> Vec<(u32, u64)> {
    let mut out: Vec<(u32, u64)> = Vec::new();
    for l in lines(n) {
        let start = l.trailing_zeros();
        let shift = (l & (l - 1)).trailing_zeros() - start;
        match out.iter_mut().find(|(s, _)| *s == shift) {
            Some((_, starts)) => *starts |= 1 << start,
            None => out.push((shift, 1 << start)),
        }
    }
    out
}

/// The most symmetries of a board (4 x 4 x 4: 192).
pub const MAX_SYMMETRIES: usize = 192;

/// The symmetries of the board: for each, the image of every cell (`map[cell]`), the identity first.
pub fn symmetries(n: u32) -> Vec<Vec<u8>> {
    let cells = (n * n * n) as usize;
    let line_set: std::collections::HashSet<u64> = lines(n).into_iter().collect();
    let values: Vec<u32> = (0..n).collect();
    // Permutations of the coordinate values that commute with the reflection t -> n - 1 - t.
    let mut value_maps = Vec::new();
    permutations(&values, &mut Vec::new(), &mut |p: &[u32]| {
        if (0..n).all(|t| p[(n - 1 - t) as usize] == n - 1 - p[t as usize]) {
            value_maps.push(p.to_vec());
        }
    });
    let axes_orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for p in &value_maps {
        for axes in axes_orders {
            for flips in 0..8u32 {
                let map: Vec<u8> = (0..cells as u32)
                    .map(|c| {
                        let coord = [c % n, c / n % n, c / (n * n)];
                        let mut image = [0u32; 3];
                        for (i, &axis) in axes.iter().enumerate() {
                            let v = p[coord[axis] as usize];
                            image[i] = if flips >> i & 1 == 1 { n - 1 - v } else { v };
                        }
                        (image[2] * n * n + image[1] * n + image[0]) as u8
                    })
                    .collect();
                if !seen.insert(map.clone()) {
                    continue;
                }
                if line_set.iter().all(|&l| line_set.contains(&apply(&map, l))) {
                    out.push(map);
                }
            }
        }
    }
    // The identity first (the value map, axis order and flips listed first give it).
    debug_assert!(out[0].iter().enumerate().all(|(i, &c)| i == c as usize));
    out
}

/// The image of a set of cells under a symmetry.
pub fn apply(map: &[u8], mut bits: u64) -> u64 {
    let mut out = 0u64;
    while bits != 0 {
        out |= 1 << map[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    out
}

fn permutations(rest: &[u32], prefix: &mut Vec<u32>, visit: &mut impl FnMut(&[u32])) {
    if rest.is_empty() {
        visit(prefix);
        return;
    }
    for i in 0..rest.len() {
        let mut next = rest.to_vec();
        let v = next.remove(i);
        prefix.push(v);
        permutations(&next, prefix, visit);
        prefix.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_counts_are_the_known_ones() {
        // ((n + 2)^3 - n^3) / 2: 76 lines on Qubic's board, 49 on 3 x 3 x 3.
        assert_eq!(lines(4).len(), 76);
        assert_eq!(lines(3).len(), 49);
        for n in [3, 4] {
            let ls = lines(n);
            assert!(ls.iter().all(|l| l.count_ones() == n));
            let distinct: std::collections::HashSet<_> = ls.iter().collect();
            assert_eq!(distinct.len(), ls.len());
        }
        // Through a corner of 4 x 4 x 4 go 7 lines, through an inner cell 7, through an edge or face cell 4.
        let through = |c: u32| lines(4).iter().filter(|&&l| l >> c & 1 == 1).count();
        assert_eq!(through(0), 7);
        assert_eq!(through(21), 7);
        assert_eq!(through(1), 4);
        assert_eq!(through(5), 4);
    }

    #[test]
    fn the_directions_give_back_every_line() {
        for (n, count) in [(3, 13), (4, 13)] {
            let dirs = directions(n);
            assert_eq!(dirs.len(), count);
            let mut from_dirs = std::collections::HashSet::new();
            for &(shift, starts) in &dirs {
                let mut b = starts;
                while b != 0 {
                    let c = b.trailing_zeros();
                    from_dirs.insert((0..n).fold(0u64, |m, t| m | 1 << (c + t * shift)));
                    b &= b - 1;
                }
            }
            let all: std::collections::HashSet<u64> = lines(n).into_iter().collect();
            assert_eq!(from_dirs, all, "size {n}");
        }
    }

    #[test]
    fn the_symmetry_groups_have_192_and_48_elements_and_compose() {
        let s4 = symmetries(4);
        assert_eq!(s4.len(), 192);
        assert_eq!(symmetries(3).len(), 48);
        // A group: closed under composition.
        let set: std::collections::HashSet<&Vec<u8>> = s4.iter().collect();
        for a in s4.iter().step_by(7) {
            for b in s4.iter().step_by(11) {
                let ab: Vec<u8> = (0..64).map(|c| a[b[c] as usize]).collect();
                assert!(set.contains(&ab));
            }
        }
        // The inside-out map keeps the 8 corners and 8 centre cells as one orbit: corners reach the centre.
        assert!(s4.iter().any(|m| apply(m, 1) == 1 << 21));
    }
}
