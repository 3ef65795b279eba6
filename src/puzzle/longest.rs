//! The course's open question on grid mazes: "chemins le plus long possible ? dans une grille de 4x4 ? 5x5 ? 6x6 ?"
//! Over every layout of walls on an N x N grid and every start `@` and goal `$` the agent can reach (moves up, down,
//! left, right, as in [`super::grid`]), how long can the shortest path be?
//!
//! The search is over layouts, reduced without loss to the layouts whose free squares form one induced path:
//! - a shortest path in any layout is an *induced* path of the grid (no two of its squares that are not consecutive on
//!   it are neighbours, else a step would cut it short);
//! - conversely, walling every square off that path leaves a layout whose only route from one end to the other is the
//!   path itself, so its shortest path has the path's length.
//!
//! So the answer is the length of the longest induced path of the N x N grid. It is found by a depth-first search that
//! grows a path square by square (a new square must touch the head and no other square of the path), with:
//! - symmetry: the path starts on a square that is the smallest of its orbit under the board's 8 symmetries (every
//!   path has an image that starts there);
//! - pruning by the squares left: the squares the path can still take are those not on it and not next to any square
//!   of it but the head; if the head reaches fewer of them (a flood fill) than needed to beat the best path so far,
//!   the branch is cut.
//!
//! ```text
//! pseudo-code
//! grow(path, head):
//!   best <- max(best, |path| - 1)
//!   if |path| - 1 + |reachable from head through allowed squares| <= best: return
//!   for each neighbour n of head that is allowed:
//!     grow(path + n, n)            // n's other neighbours become forbidden to later squares
//! ```

use std::time::Instant;

/// The largest board side (the squares are the bits of a `u64`).
pub(crate) const MAX_SIDE: u32 = 8;

/// The answer for one board size.
#[derive(Clone, Debug)]
pub struct Longest {
    pub side: u32,
    /// The moves of the longest shortest path.
    pub length: u32,
    /// Its squares from start to goal (index `row * side + column`, row 0 on top).
    pub path: Vec<u32>,
    /// Paths grown (search nodes).
    pub nodes: u64,
    /// Start squares searched (one per symmetry class).
    pub starts: u32,
    pub seconds: f64,
}

struct Search {
    side: u32,
    neighbours: Vec<u64>,
    best: Vec<u32>,
    nodes: u64,
}

impl Search {
    /// The squares reachable from `head` through `allowed` (head excluded), counted.
    fn reachable(&self, head: u32, allowed: u64) -> u32 {
        let mut seen = 0u64;
        let mut frontier = self.neighbours[head as usize] & allowed;
        while frontier != 0 {
            seen |= frontier;
            let mut next = 0u64;
            let mut f = frontier;
            while f != 0 {
                let c = f.trailing_zeros();
                f &= f - 1;
                next |= self.neighbours[c as usize];
            }
            frontier = next & allowed & !seen;
        }
        seen.count_ones()
    }

    /// `forbidden`: the path and the neighbours of every square of it but the head.
    fn grow(&mut self, path: &mut Vec<u32>, forbidden: u64) {
        self.nodes += 1;
        let head = *path.last().expect("the path has a start");
        let length = path.len() as u32 - 1;
        if length + 1 > self.best.len() as u32 {
            self.best = path.clone();
        }
        let full = if self.side * self.side == 64 { u64::MAX } else { (1u64 << (self.side * self.side)) - 1 };
        let allowed = full & !forbidden;
        if length + self.reachable(head, allowed) < self.best.len() as u32 {
            return;
        }
        let mut options = self.neighbours[head as usize] & !forbidden;
        // The head's other neighbours become forbidden once the path leaves it.
        let now_forbidden = forbidden | self.neighbours[head as usize];
        while options != 0 {
            let n = options.trailing_zeros();
            options &= options - 1;
            path.push(n);
            self.grow(path, now_forbidden | (1u64 << n));
            path.pop();
        }
    }
}

/// The squares' images under the 8 symmetries of the square board.
fn orbit(side: u32, cell: u32) -> [u32; 8] {
    let (r, c) = (cell / side, cell % side);
    let m = side - 1;
    let at = |r: u32, c: u32| r * side + c;
    [at(r, c), at(c, m - r), at(m - r, m - c), at(m - c, r), at(r, m - c), at(m - r, c), at(c, r), at(m - c, m - r)]
}

/// The longest shortest path over all wall layouts of a `side` x `side` grid (1..=8).
pub fn longest(side: u32) -> Result<Longest, String> {
    if !(1..=MAX_SIDE).contains(&side) {
        return Err(format!("--longest {side}: the side must be 1 to {MAX_SIDE}"));
    }
    let t0 = Instant::now();
    let cells = side * side;
    let neighbours = (0..cells)
        .map(|i| {
            let (r, c) = (i / side, i % side);
            let mut m = 0u64;
            if r > 0 {
                m |= 1 << (i - side);
            }
            if r + 1 < side {
                m |= 1 << (i + side);
            }
            if c > 0 {
                m |= 1 << (i - 1);
            }
            if c + 1 < side {
                m |= 1 << (i + 1);
            }
            m
        })
        .collect();
    let mut s = Search { side, neighbours, best: vec![0], nodes: 0 };
    let mut starts = 0;
    for start in 0..cells {
        if orbit(side, start).iter().any(|&o| o < start) {
            continue;
        }
        starts += 1;
        let mut path = vec![start];
        s.grow(&mut path, 1u64 << start);
    }
    Ok(Longest {
        side,
        length: s.best.len() as u32 - 1,
        path: s.best,
        nodes: s.nodes,
        starts,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

impl Longest {
    /// The layout in the course's maze format: the path free, `@` at its start, `$` at its end, walls elsewhere.
    pub fn layout(&self) -> String {
        let n = (self.side * self.side) as usize;
        let mut chars = vec!['#'; n];
        for &c in &self.path {
            chars[c as usize] = '.';
        }
        chars[self.path[0] as usize] = '@';
        if self.path.len() > 1 {
            chars[*self.path.last().expect("non-empty") as usize] = '$';
        }
        chars.chunks(self.side as usize).map(|r| r.iter().collect::<String>()).collect::<Vec<_>>().join("\n")
    }
}
