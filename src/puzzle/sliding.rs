//! Sliding-tile puzzles on a `w x w` board (`w` = 2, 3, 4: the 3-, 8- and 15-puzzles).
//!
//! Tiles are given row by row, `0` for the blank. The goal, as in Korf (1985), has the blank in the top-left corner:
//! `0 1 2 3 / 4 5 6 7 / 8 9 10 11 / 12 13 14 15`. An action is the direction the *blank* moves, tried in the order
//! `u`, `l`, `r`, `d` (the order that reproduces Korf's node counts); a solution is a string such as `rdlu`.
//!
//! A position is solvable iff the parity of the permutation (the blank counted as tile 0) equals the parity of the
//! blank's Manhattan distance to its home: each move is one transposition and moves the blank by one square.
//!
//! The state packs the board in a `u64` (cell `i` in nibble `i`), the tile positions in another (`tile t` in nibble
//! `t`) and the heuristic value, updated incrementally for the Manhattan distance (only the moved tile changes) and
//! looked up in the pattern databases ([`super::pdb`]) otherwise.

use std::sync::Arc;

use super::pdb::PatternDb;
use super::{ActionList, Cost, Problem};

/// The heuristic of a sliding puzzle.
#[derive(Clone, Debug)]
pub enum SlidingHeuristic {
    /// No heuristic (h = 0).
    Zero,
    /// The sum of the tiles' Manhattan distances to their homes.
    Manhattan,
    /// An additive pattern database.
    Pdb(Arc<PatternDb>),
}

/// A position: board, tile positions, blank cell and heuristic value. Two states are equal when their boards are.
#[derive(Copy, Clone, Debug)]
pub struct Tiles {
    pub board: u64,
    pub pos: u64,
    /// Pattern databases only: the value of each group, direct and mirrored (see [`PatternDb::parts`]).
    pub parts: u64,
    pub blank: u8,
    pub h: u8,
}

impl PartialEq for Tiles {
    #[inline(always)]
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board
    }
}
impl Eq for Tiles {}

/// A sliding-tile puzzle instance.
#[derive(Clone, Debug)]
pub struct Sliding {
    pub width: u32,
    pub cells: u32,
    start: Tiles,
    heuristic: SlidingHeuristic,
    /// `md[t * 16 + c]`: Manhattan distance of tile `t` on cell `c` to its home.
    md: [u8; 256],
    goal_board: u64,
    /// The order in which the blank's moves are tried.
    order: [u8; 4],
}

/// The default order of the blank's moves: up, left, right, down. With it, IDA* and the Manhattan distance generate
/// the numbers of nodes Korf (1985) published: to the node on 96 of his 100 instances (see `docs/puzzles.md`).
pub(crate) const KORF_ORDER: [u8; 4] = [b'u', b'l', b'r', b'd'];

/// Parse tiles: numbers separated by spaces, commas or slashes; 4, 9 or 16 of them, a permutation of `0..n`.
pub fn parse_tiles(text: &str) -> Result<Vec<u8>, String> {
    let mut tiles = Vec::new();
    // A comma or slash separates two numbers: `0,,1` or a trailing `,` is a missing number, not a separator.
    for item in text.split([',', '/']) {
        let words: Vec<&str> = item.split_whitespace().collect();
        if words.is_empty() && text.contains([',', '/']) {
            return Err(format!("tiles: an empty number between separators in '{}'", text.trim()));
        }
        for w in words {
            if !crate::spec::plain_integer(w) {
                return Err(format!("tiles: '{w}' is not a number written plainly (digits, no leading zero)"));
            }
            let v: u32 = w.parse().map_err(|_| format!("tiles: '{w}' is not a number"))?;
            tiles.push(v.min(255) as u8);
        }
    }
    let n = tiles.len();
    if ![4, 9, 16].contains(&n) {
        return Err(format!("tiles: {n} numbers given; expected 4, 9 or 16 (the 3-, 8- or 15-puzzle, 0 = blank)"));
    }
    let mut seen = vec![false; n];
    for &t in &tiles {
        if t as usize >= n || seen[t as usize] {
            return Err(format!("tiles: expected each of 0..{} exactly once (0 = blank); bad or repeated {t}", n - 1));
        }
        seen[t as usize] = true;
    }
    Ok(tiles)
}

/// Whether the tiles can reach the goal (see the module documentation).
pub fn is_solvable(tiles: &[u8]) -> bool {
    let n = tiles.len();
    let w = (n as f64).sqrt().round() as usize;
    let mut inversions = 0;
    for i in 0..n {
        for j in i + 1..n {
            if tiles[i] > tiles[j] {
                inversions += 1;
            }
        }
    }
    let b = tiles.iter().position(|&t| t == 0).unwrap_or(0);
    let blank_distance = b / w + b % w;
    inversions % 2 == blank_distance % 2
}

impl Sliding {
    /// A puzzle from its tiles (row by row, 0 = blank). Errors on malformed or unsolvable input.
    pub fn new(tiles: &[u8], heuristic: SlidingHeuristic) -> Result<Sliding, String> {
        let n = tiles.len();
        let width = (n as f64).sqrt().round() as u32;
        if width * width != n as u32 || !(2..=4).contains(&width) {
            return Err(format!("tiles: {n} tiles do not make a 2x2, 3x3 or 4x4 board"));
        }
        if !is_solvable(tiles) {
            return Err("tiles: unsolvable position (wrong permutation parity for the blank's place)".into());
        }
        if let SlidingHeuristic::Pdb(db) = &heuristic
            && db.width != width
        {
            return Err(format!("the pattern database is for width {}, the puzzle has width {width}", db.width));
        }
        let mut md = [0u8; 256];
        for t in 1..n {
            for c in 0..n {
                let (tr, tc, cr, cc) = (t as u32 / width, t as u32 % width, c as u32 / width, c as u32 % width);
                md[t * 16 + c] = (tr.abs_diff(cr) + tc.abs_diff(cc)) as u8;
            }
        }
        let goal_board = (0..n as u64).fold(0, |b, i| b | (i << (4 * i)));
        let mut p = Sliding {
            width,
            cells: n as u32,
            start: Tiles { board: 0, pos: 0, parts: 0, blank: 0, h: 0 },
            heuristic,
            md,
            goal_board,
            order: KORF_ORDER,
        };
        let (mut board, mut pos) = (0u64, 0u64);
        for (c, &t) in tiles.iter().enumerate() {
            board |= (t as u64) << (4 * c);
            pos |= (c as u64) << (4 * t as u64);
        }
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0) as u8;
        let mut s = Tiles { board, pos, parts: 0, blank, h: 0 };
        if let SlidingHeuristic::Pdb(db) = &p.heuristic {
            s.parts = db.parts(pos);
        }
        s.h = p.compute_h(&s) as u8;
        p.start = s;
        Ok(p)
    }

    /// The heuristic computed from scratch.
    pub fn compute_h(&self, s: &Tiles) -> u32 {
        match &self.heuristic {
            SlidingHeuristic::Zero => 0,
            SlidingHeuristic::Manhattan => {
                (1..self.cells as usize).map(|t| self.md[t * 16 + ((s.pos >> (4 * t)) & 15) as usize] as u32).sum()
            }
            SlidingHeuristic::Pdb(db) => db.eval(s.pos),
        }
    }

    /// The tiles of a state, row by row.
    pub fn tiles(&self, s: &Tiles) -> Vec<u8> {
        (0..self.cells).map(|c| ((s.board >> (4 * c)) & 15) as u8).collect()
    }

    /// The cell the blank moves to, if the move stays on the board.
    #[inline(always)]
    fn target(&self, blank: u32, mv: u8) -> Option<u32> {
        let w = self.width;
        match mv {
            b'u' if blank >= w => Some(blank - w),
            b'd' if blank + w < self.cells => Some(blank + w),
            b'l' if !blank.is_multiple_of(w) => Some(blank - 1),
            b'r' if blank % w + 1 < w => Some(blank + 1),
            _ => None,
        }
    }
}

impl Problem for Sliding {
    type State = Tiles;
    type Action = u8;
    type Key = u64;

    fn start(&self) -> Tiles {
        self.start
    }
    #[inline(always)]
    fn is_goal(&self, s: &Tiles) -> bool {
        s.board == self.goal_board
    }
    #[inline(always)]
    fn actions(&self, s: &Tiles, out: &mut ActionList<u8>) {
        out.clear();
        for mv in self.order {
            if self.target(s.blank as u32, mv).is_some() {
                out.push(mv);
            }
        }
    }
    #[inline(always)]
    fn apply(&self, s: &Tiles, a: u8) -> (Tiles, Cost) {
        let b = s.blank as u32;
        let c = self.target(b, a).unwrap_or(b);
        let t = (s.board >> (4 * c)) & 15;
        let board = s.board & !(15 << (4 * c)) | (t << (4 * b));
        let pos = s.pos & !(15 << (4 * t) | 15) | ((b as u64) << (4 * t)) | c as u64;
        let mut child = Tiles { board, pos, parts: s.parts, blank: c as u8, h: 0 };
        child.h = match &self.heuristic {
            SlidingHeuristic::Zero => 0,
            SlidingHeuristic::Manhattan => {
                (s.h as u32 + self.md[(t as usize) * 16 + b as usize] as u32
                    - self.md[(t as usize) * 16 + c as usize] as u32) as u8
            }
            SlidingHeuristic::Pdb(db) => {
                child.parts = db.update_parts(s.parts, pos, t as usize);
                PatternDb::from_parts(child.parts) as u8
            }
        };
        (child, 1)
    }
    #[inline(always)]
    fn heuristic(&self, s: &Tiles) -> Cost {
        s.h as Cost
    }
    fn key(&self, s: &Tiles) -> u64 {
        s.board
    }
    fn format_action(&self, _s: &Tiles, a: u8) -> String {
        (a as char).to_string()
    }
}
