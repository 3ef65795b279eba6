//! Additive pattern databases for sliding-tile puzzles (Korf and Felner 2002, "Disjoint pattern database heuristics").
//!
//! The tiles are split into disjoint groups. For one group, the *abstract* state is where the group's tiles are and
//! where the blank is; the other tiles are indistinguishable. A move of a group tile costs 1, a move of another tile
//! costs 0. The database stores, for every placement of the group's tiles, the fewest group-tile moves needed to bring
//! them home, minimised over the blank's position. Since every move of the real puzzle moves one tile, which belongs
//! to one group only, the values of the groups add up to an admissible (and consistent) heuristic.
//!
//! Construction (in memory, when the heuristic is asked for): a 0-1 breadth-first search backwards from the goal over
//! the abstract states "group tiles + blank", one byte per state (`n!/(n-k-1)!` bytes for `k` tiles on `n` cells:
//! 57,657,600 for six tiles of the 15-puzzle), by layers of equal cost. The states sharing a placement of the group's
//! tiles form a block (one entry per blank cell) and the 0-cost moves stay inside it, so each layer is a scan over
//! the blocks: a flood fill inside each block that holds the current cost, then the 1-cost moves out of it (see
//! `build_group`; no queue). Then each block is reduced to its minimum, leaving `n!/(n-k)!` bytes per group:
//! 5,765,760 for six tiles.
//!
//! Lookups (Korf and Felner's reflection): the databases are also applied to the state mirrored about the main
//! diagonal, and the heuristic is the larger of the two sums. During the search each state carries the values of its
//! groups, and a move updates only the group of the moved tile (and of its mirror).
//!
//! Indexing: a sequence of distinct cells `(c_0, ..., c_{m-1})` is numbered in the mixed radix `n, n-1, ...`, digit `i`
//! being the rank of `c_i` among the cells not used by `c_0..c_{i-1}` (a popcount). The blank is the last element, so
//! a group placement's index is the abstract state's index divided by `n - k`.

/// One group of tiles and its table.
#[derive(Clone, Debug)]
pub struct Group {
    pub tiles: Vec<u8>,
    pub table: Vec<u8>,
}

/// A set of disjoint groups for one board size.
#[derive(Clone, Debug)]
pub struct PatternDb {
    pub width: u32,
    pub cells: u32,
    pub groups: Vec<Group>,
    /// `group_of[t]`: the group of tile `t`, `NO_GROUP` for the blank and tiles in no group.
    pub(crate) group_of: [u8; 16],
    /// `transpose[c]`: the cell mirrored about the main diagonal (also the mirrored tile, tile `t` living on cell `t`).
    pub transpose: [u8; 16],
}

/// See [`PatternDb::group_of`].
pub(crate) const NO_GROUP: u8 = u8::MAX;

/// Most groups a database may have (the heuristic packs one byte per group and per reflection in a `u64`).
pub(crate) const MAX_GROUPS: usize = 4;

/// The default partition of a `width x width` board: 6-6-3 for the 15-puzzle (as Korf and Felner), 4-4 for the
/// 8-puzzle, one group for the 3-puzzle.
pub fn default_partition(width: u32) -> Vec<Vec<u8>> {
    match width {
        4 => vec![vec![1, 2, 3, 5, 6, 7], vec![4, 8, 9, 12, 13, 14], vec![10, 11, 15]],
        3 => vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
        _ => vec![(1..(width * width) as u8).collect()],
    }
}

/// The 5-5-5 partition of the 15-puzzle (smaller and quicker to build, weaker).
pub fn partition_555() -> Vec<Vec<u8>> {
    vec![vec![1, 2, 3, 6, 7], vec![4, 5, 8, 9, 12], vec![10, 11, 13, 14, 15]]
}

/// `n! / (n-m)!`: sequences of `m` distinct cells among `n`.
pub fn sequences(n: u32, m: u32) -> usize {
    (0..m).map(|i| (n - i) as usize).product()
}

/// The index of a sequence of distinct cells, see the module documentation.
#[inline(always)]
pub fn index(n: u32, cells: impl Iterator<Item = u32>) -> usize {
    let mut used = 0u32;
    let mut idx = 0usize;
    for (i, c) in cells.enumerate() {
        let rank = c - (used & ((1u32 << c) - 1)).count_ones();
        idx = idx * (n as usize - i) + rank as usize;
        used |= 1 << c;
    }
    idx
}

impl PatternDb {
    /// Build the databases of `groups` on a `width x width` board (goal: the blank in cell 0, tile `t` in cell `t`).
    pub fn build(width: u32, groups: &[Vec<u8>]) -> Result<PatternDb, String> {
        let cells = width * width;
        if !(2..=4).contains(&width) {
            return Err(format!("pattern databases: width {width} not supported (2, 3 or 4)"));
        }
        let mut seen = 0u32;
        for g in groups {
            for &t in g {
                if t == 0 || t as u32 >= cells || seen & (1 << t) != 0 {
                    return Err(format!("pattern database groups: bad or repeated tile {t}"));
                }
                seen |= 1 << t;
            }
            if g.is_empty() || g.len() > 7 || g.len() as u32 >= cells {
                return Err("pattern database groups must have 1 to 7 tiles".into());
            }
        }
        if groups.len() > MAX_GROUPS {
            return Err(format!("pattern databases: at most {MAX_GROUPS} groups"));
        }
        let mut group_of = [NO_GROUP; 16];
        for (i, g) in groups.iter().enumerate() {
            for &t in g {
                group_of[t as usize] = i as u8;
            }
        }
        let mut transpose = [0u8; 16];
        for (c, t) in transpose.iter_mut().enumerate().take(cells as usize) {
            *t = ((c as u32 % width) * width + c as u32 / width) as u8;
        }
        let groups = groups.iter().map(|g| Group { tiles: g.clone(), table: build_group(width, g) }).collect();
        Ok(PatternDb { width, cells, groups, group_of, transpose })
    }

    /// The value of group `g` for the tile positions `pos` (nibble `t` = cell of tile `t`).
    #[inline(always)]
    pub(crate) fn group_value(&self, g: usize, pos: u64) -> u8 {
        let grp = &self.groups[g];
        grp.table[index(self.cells, grp.tiles.iter().map(|&t| ((pos >> (4 * t)) & 15) as u32))]
    }

    /// The value of group `g` for the state mirrored about the main diagonal: its tile `u` stands on the mirror of the
    /// cell of tile `mirror(u)`.
    #[inline(always)]
    pub(crate) fn group_value_mirrored(&self, g: usize, pos: u64) -> u8 {
        let grp = &self.groups[g];
        let tr = &self.transpose;
        let cells = grp.tiles.iter().map(|&u| tr[((pos >> (4 * tr[u as usize])) & 15) as usize] as u32);
        grp.table[index(self.cells, cells)]
    }

    /// Every group's value, direct (byte `g`) and mirrored (byte `4 + g`).
    pub fn parts(&self, pos: u64) -> u64 {
        let mut parts = 0u64;
        for g in 0..self.groups.len() {
            parts |= (self.group_value(g, pos) as u64) << (8 * g);
            parts |= (self.group_value_mirrored(g, pos) as u64) << (8 * (4 + g));
        }
        parts
    }

    /// The heuristic from the packed parts: the larger of the direct and the mirrored sums.
    #[inline(always)]
    pub(crate) fn from_parts(parts: u64) -> u32 {
        let sum = |x: u64| ((x & 0xff) + ((x >> 8) & 0xff) + ((x >> 16) & 0xff) + ((x >> 24) & 0xff)) as u32;
        sum(parts).max(sum(parts >> 32))
    }

    /// The parts after tile `t` moved to its new place in `pos`: only its group changes, and in the mirrored state
    /// only the group of the mirrored tile.
    #[inline(always)]
    pub(crate) fn update_parts(&self, parts: u64, pos: u64, t: usize) -> u64 {
        let mut p = parts;
        let g = self.group_of[t];
        if g != NO_GROUP {
            let sh = 8 * g as u64;
            p = p & !(0xff << sh) | (self.group_value(g as usize, pos) as u64) << sh;
        }
        let gm = self.group_of[self.transpose[t] as usize];
        if gm != NO_GROUP {
            let sh = 8 * (4 + gm as u64);
            p = p & !(0xff << sh) | (self.group_value_mirrored(gm as usize, pos) as u64) << sh;
        }
        p
    }

    /// Bytes held by the tables.
    pub fn bytes(&self) -> usize {
        self.groups.iter().map(|g| g.table.len()).sum()
    }

    /// The heuristic of a state given by its tile positions (`pos` nibble `t` = cell of tile `t`): the sum over the
    /// groups, or the same sum for the state mirrored about the main diagonal if larger (the goal is its own mirror,
    /// so the mirrored state is exactly as far from it).
    pub fn eval(&self, pos: u64) -> u32 {
        Self::from_parts(self.parts(pos))
    }
}

/// The group's table by layers of cost over blocks: the abstract states sharing one placement of the group's tiles
/// form a block of `n - k` consecutive entries (one per blank cell), and 0-cost moves (the blank moving among the
/// other cells) stay inside the block. For each cost `d`: every block holding a `d` spreads it over the blank's region
/// inside the block (a flood fill in cache), then each state at `d` sends its 1-cost moves (a group tile sliding into
/// the blank) to other blocks at `d + 1`. No queue; memory is the one byte per abstract state. Equal to the 0-1 BFS of
/// `build_group_queue` (a unit test compares them).
fn build_group(width: u32, tiles: &[u8]) -> Vec<u8> {
    let n = width * width;
    let k = tiles.len();
    let blanks = n as usize - k;
    let placements = sequences(n, k as u32);
    let mut dist = vec![u8::MAX; placements * blanks];
    let goal = index(n, tiles.iter().map(|&t| t as u32));
    dist[goal * blanks] = 0; // the blank's home, cell 0, has rank 0 among the free cells
    let neighbours = |c: u32| {
        let (r, col) = (c / width, c % width);
        [
            if r > 0 { c - width } else { u32::MAX },
            if r + 1 < width { c + width } else { u32::MAX },
            if col > 0 { c - 1 } else { u32::MAX },
            if col + 1 < width { c + 1 } else { u32::MAX },
        ]
    };
    let mut d = 0u8;
    loop {
        let mut any = false;
        for p in 0..placements {
            if !dist[p * blanks..(p + 1) * blanks].contains(&d) {
                continue;
            }
            any = true;
            // Unrank the placement: digit i in radix n - i, the digit-th cell not used by the earlier tiles.
            let mut digits = [0u32; 8];
            let mut rest = p;
            for i in (0..k).rev() {
                digits[i] = (rest % (n as usize - i)) as u32;
                rest /= n as usize - i;
            }
            let mut cells = [0u32; 8];
            let mut mask = 0u32;
            for i in 0..k {
                let mut left = digits[i];
                let mut c = 0;
                loop {
                    if mask & (1 << c) == 0 {
                        if left == 0 {
                            break;
                        }
                        left -= 1;
                    }
                    c += 1;
                }
                cells[i] = c;
                mask |= 1 << c;
            }
            let rank = |c: u32, mask: u32| (c - (mask & ((1u32 << c) - 1)).count_ones()) as usize;
            let mut free = [0u32; 16];
            let mut f = 0;
            for c in 0..n {
                if mask & (1 << c) == 0 {
                    free[f] = c;
                    f += 1;
                }
            }
            // Spread d over the blank's regions (0-cost moves).
            let block = &mut dist[p * blanks..(p + 1) * blanks];
            let mut stack = [0u8; 16];
            let mut top = 0;
            for (r, v) in block.iter().enumerate() {
                if *v == d {
                    stack[top] = r as u8;
                    top += 1;
                }
            }
            while top > 0 {
                top -= 1;
                let b = free[stack[top] as usize];
                for nb in neighbours(b) {
                    if nb != u32::MAX && mask & (1 << nb) == 0 {
                        let r = rank(nb, mask);
                        if block[r] > d {
                            block[r] = d;
                            stack[top] = r as u8;
                            top += 1;
                        }
                    }
                }
            }
            // 1-cost moves from every state at d.
            for r in 0..blanks {
                if dist[p * blanks + r] != d {
                    continue;
                }
                let b = free[r];
                for nb in neighbours(b) {
                    if nb == u32::MAX || mask & (1 << nb) == 0 {
                        continue;
                    }
                    let j = (0..k).find(|&j| cells[j] == nb).unwrap_or(0);
                    let new_mask = mask & !(1 << nb) | (1 << b);
                    let q = index(n, (0..k).map(|i| if i == j { b } else { cells[i] }));
                    let t = q * blanks + rank(nb, new_mask);
                    if dist[t] == u8::MAX {
                        dist[t] = d + 1;
                    }
                }
            }
        }
        if !any {
            break;
        }
        d += 1;
    }
    dist.chunks(blanks).map(|c| *c.iter().min().unwrap_or(&0)).collect()
}

/// 0-1 BFS over "group tiles + blank" from the goal with queues, then the minimum over the blank's position: the
/// reference for `build_group`.
#[cfg(test)]
fn build_group_queue(width: u32, tiles: &[u8]) -> Vec<u8> {
    let n = width * width;
    let k = tiles.len();
    let m = k + 1; // tiles then the blank
    let full_size = sequences(n, m as u32);
    let mut dist = vec![u8::MAX; full_size];
    // An abstract state packs m cells, 4 bits each: element i at bits 4i.
    let cell = |s: u32, i: usize| (s >> (4 * i)) & 15;
    let idx_of = |s: u32| index(n, (0..m).map(|i| cell(s, i)));
    let mut goal = 0u32;
    for (i, &t) in tiles.iter().enumerate() {
        goal |= (t as u32) << (4 * i);
    }
    // The blank's home is cell 0.
    dist[idx_of(goal)] = 0;
    let mut cur = vec![goal];
    let mut next = Vec::new();
    let mut d = 0u8;
    while !cur.is_empty() {
        let mut i = 0;
        while i < cur.len() {
            let s = cur[i];
            i += 1;
            // A state pushed on `next` and later reached at cost d is expanded twice; the second time changes
            // nothing (values only decrease), and skipping the check saves a random memory access per state.
            let blank = cell(s, k);
            let mut pattern = 0u32; // cells of the group's tiles
            for j in 0..k {
                pattern |= 1 << cell(s, j);
            }
            let idx = idx_of(s);
            let blank_rank = |c: u32| (c - (pattern & ((1u32 << c) - 1)).count_ones()) as usize;
            let base = idx - blank_rank(blank);
            let (r, c) = (blank / width, blank % width);
            let mut neighbours = [u32::MAX; 4];
            if r > 0 {
                neighbours[0] = blank - width;
            }
            if r + 1 < width {
                neighbours[1] = blank + width;
            }
            if c > 0 {
                neighbours[2] = blank - 1;
            }
            if c + 1 < width {
                neighbours[3] = blank + 1;
            }
            for nb in neighbours {
                if nb == u32::MAX {
                    continue;
                }
                let mut t = s & !(15 << (4 * k)) | (nb << (4 * k));
                if pattern & (1 << nb) != 0 {
                    // A group tile slides into the blank: cost 1.
                    let j = (0..k).find(|&j| cell(s, j) == nb).unwrap_or(0);
                    t = t & !(15 << (4 * j)) | (blank << (4 * j));
                    let ti = idx_of(t);
                    if dist[ti] == u8::MAX {
                        dist[ti] = d + 1;
                        next.push(t);
                    }
                } else {
                    // Another tile moves: cost 0, same layer; only the blank's digit of the index changes.
                    let ti = base + blank_rank(nb);
                    if dist[ti] == u8::MAX || dist[ti] > d {
                        dist[ti] = d;
                        cur.push(t);
                    }
                }
            }
        }
        std::mem::swap(&mut cur, &mut next);
        next.clear();
        d += 1;
    }
    let blanks = (n as usize) - k;
    dist.chunks(blanks).map(|c| *c.iter().min().unwrap_or(&0)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_construction_equals_the_queue_bfs() {
        for (w, g) in [(3, vec![1u8, 2, 3, 4]), (3, vec![5, 6, 7, 8]), (4, vec![1, 2, 3, 5]), (4, vec![10, 11, 15])] {
            assert_eq!(build_group(w, &g), build_group_queue(w, &g), "group {g:?}");
        }
    }
}
