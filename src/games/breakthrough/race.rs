//! Race endgame tables for Breakthrough (after Isaac and Lorentz 2016): the last `n` rows before a side's goal,
//! solved backwards once and used as a leaf oracle by the solver.
//!
//! Pieces only move forward, so the defender's pieces never come back into the region nearest the attacker's goal
//! once they left it, and none of the defender's other pieces can ever enter it. The *region game* keeps only the
//! pieces inside the region:
//!
//! ```text
//!  region row 0 = the attacker's goal row, region row n-1 = the row farthest from it; C columns.
//!  attacker: moves towards row 0 as in Breakthrough (straight onto empty, diagonal onto non-own); may NOT pass.
//!            A piece on row 1 wins at its next move (it always has one: its diagonal onto row 0 is never own).
//!  defender: moves away from row 0 as in Breakthrough; a piece on row n-1 may leave the region (it disappears);
//!            the defender may also PASS (a move anywhere else on the board).
//!
//!  A(a, d) = attacker to move: number of attacker moves until it reaches row 0 against the best defence,
//!            NO_WIN if the defender can hold forever.
//!      A = 1                                   if an attacker piece is on row 1
//!      A = min over attacker moves m of 1 + D(after m)      (NO_WIN if there is no move)
//!  D(a, d) = defender to move:
//!      D = max( A(a, d) [pass],  max over defender moves m of A(after m) )
//! ```
//!
//! Giving the defender extra options (passes, leaving through any square) and the attacker fewer (no pass, no new
//! pieces from below) only makes the attacker's win harder, so a finite value is a sound claim in the real game:
//! the attacker wins in at most `t` of its own moves whatever the defender does there or elsewhere. The solver turns
//! it into a verdict by comparing with the defender's fastest possible win, `d` = the fewest rows any defender piece
//! has to its own goal (every move advances one row):
//! - attacker to move, `A = t`: the attacker's `t`-th move is ply `2t-1`, the defender's `d`-th is ply `2d`: the attacker
//!   wins if `t <= d`;
//! - defender to move, `D = t`: the attacker's `t`-th move is ply `2t`, the defender's `d`-th is ply `2d-1`: the attacker
//!   wins if `d > t`.
//!
//! Index (a perfect hash of the region): region row 0 cannot hold an attacker piece, so its `C` cells take one bit
//! each (defender or empty); every other cell is base-3 (empty, attacker, defender). The size is
//! `2^C * 3^(C*(n-1))` entries per side to move, one byte each (the value, 0 = not computed, 255 = no win).
//! The build computes every entry with a memoised recursion (the region game has no cycles apart from passes).

use std::time::Instant;

use crate::game::Side;
use crate::games::breakthrough::{Breakthrough, BtState};

/// No forced win for the attacker in the region.
pub const NO_WIN: u8 = 255;

/// Largest number of entries (per side to move) a table may have: 2^28 bytes each.
pub(crate) const MAX_ENTRIES: u64 = 1 << 28;

/// What the tables prove about a position, from the side to move's view, with an upper bound on the plies to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Race {
    /// The side to move wins in at most this many plies.
    Win(u32),
    /// The side to move loses in at most this many plies.
    Loss(u32),
}

/// A solved region: `rows` rows of `columns` columns.
pub struct RaceTable {
    pub columns: u32,
    pub rows: u32,
    /// Seconds the build took.
    pub(crate) build_seconds: f64,
    row_bits: u64,
    region: u64,
    first_file: u64,
    last_file: u64,
    /// `tern[bits]` = the base-3 number whose digits are the bits of `bits` (one row).
    tern: Vec<u32>,
    /// 3^columns.
    pow_row: u64,
    attacker: Vec<u8>,
    defender: Vec<u8>,
}

/// Fewest moves any of `side`'s pieces `p` (not empty) needs to reach its goal row, ignoring everything in the way.
fn rows_to_goal(g: &Breakthrough, side: Side, p: u64) -> u32 {
    match side {
        Side::First => g.rows - 1 - (63 - p.leading_zeros()) / g.columns,
        Side::Second => p.trailing_zeros() / g.columns,
    }
}

impl RaceTable {
    /// Number of entries per side to move of a table with these dimensions.
    pub fn entries(columns: u32, rows: u32) -> u64 {
        let mut n = 1u64 << columns;
        for _ in 0..columns * (rows - 1) {
            n = n.saturating_mul(3);
        }
        n
    }

    /// Build the table of the last `rows` rows of a board `columns` wide.
    pub fn build(columns: u32, rows: u32) -> Result<RaceTable, String> {
        if !(2..=16).contains(&columns) || rows < 2 || columns * rows > 64 {
            return Err(format!("race table: {rows} rows of {columns} columns: need columns 2..=16, rows >= 2"));
        }
        let n = Self::entries(columns, rows);
        if n > MAX_ENTRIES {
            return Err(format!("race table: {rows}x{columns} needs {n} entries per side, more than {MAX_ENTRIES}"));
        }
        let start = Instant::now();
        let tern: Vec<u32> = (0..1u32 << columns)
            .map(|bits| {
                let mut t = 0u32;
                for c in (0..columns).rev() {
                    t = t * 3 + ((bits >> c) & 1);
                }
                t
            })
            .collect();
        let mut t = RaceTable {
            columns,
            rows,
            build_seconds: 0.0,
            row_bits: (1u64 << columns) - 1,
            region: if columns * rows == 64 { u64::MAX } else { (1u64 << (columns * rows)) - 1 },
            first_file: (0..rows).map(|k| 1u64 << (k * columns)).sum(),
            last_file: (0..rows).map(|k| 1u64 << (k * columns + columns - 1)).sum(),
            tern,
            pow_row: 3u64.pow(columns),
            attacker: vec![0; n as usize],
            defender: vec![0; n as usize],
        };
        for idx in 0..n {
            let (a, d) = t.decode(idx);
            t.value_attacker(a, d);
            t.value_defender(a, d);
        }
        t.build_seconds = start.elapsed().as_secs_f64();
        Ok(t)
    }

    /// The verdict of the table on a Breakthrough position with standard rules that is not over (`None`: the table
    /// says nothing, or the board is not this table's width). Attacker to move with `A = t` wins at ply `2t - 1` if `t <= d`
    /// (`d`: the fewest rows any defender piece has to its goal); defender to move with `D = t`: the
    /// attacker wins at ply `2t` if `d > t` (module doc).
    pub fn verdict(&self, g: &Breakthrough, s: &BtState) -> Option<Race> {
        if g.columns != self.columns || g.rows <= self.rows {
            return None;
        }
        let me = s.stm;
        let (own, opp) = Breakthrough::own_opp(s);
        if own == 0 || opp == 0 {
            return None;
        }
        let (a, d) = self.region(g, me, s);
        let t = self.attacker_to_move(a, d);
        if t != NO_WIN && t as u32 <= rows_to_goal(g, me.other(), opp) {
            return Some(Race::Win(2 * t as u32 - 1));
        }
        let (a, d) = self.region(g, me.other(), s);
        let t = self.defender_to_move(a, d);
        if t != NO_WIN && rows_to_goal(g, me, own) > t as u32 {
            return Some(Race::Loss(2 * t as u32));
        }
        None
    }

    /// The region of `attacker`'s goal in `s`, as region-local bitboards (attacker, defender).
    fn region(&self, g: &Breakthrough, attacker: Side, s: &BtState) -> (u64, u64) {
        let (n, c) = (self.rows, self.columns);
        match attacker {
            Side::Second => (s.black & self.region, s.white & self.region),
            Side::First => {
                let (mut a, mut d) = (0u64, 0u64);
                for k in 0..n {
                    let shift = (g.rows - 1 - k) * c;
                    a |= ((s.white >> shift) & self.row_bits) << (k * c);
                    d |= ((s.black >> shift) & self.row_bits) << (k * c);
                }
                (a, d)
            }
        }
    }

    /// Bytes used by the two value arrays.
    pub fn bytes(&self) -> usize {
        self.attacker.len() + self.defender.len()
    }

    fn row(&self, b: u64, k: u32) -> u64 {
        (b >> (k * self.columns)) & self.row_bits
    }

    /// The index of a region position (region-local bitboards, bit `k*C + c`).
    #[inline]
    pub fn index(&self, a: u64, d: u64) -> usize {
        let mut idx = 0u64;
        for k in (1..self.rows).rev() {
            idx = idx * self.pow_row
                + self.tern[self.row(a, k) as usize] as u64
                + 2 * self.tern[self.row(d, k) as usize] as u64;
        }
        ((idx << self.columns) | self.row(d, 0)) as usize
    }

    /// The region position of an index.
    pub fn decode(&self, idx: u64) -> (u64, u64) {
        let c = self.columns;
        let mut d = idx & self.row_bits;
        let mut a = 0u64;
        let mut rest = idx >> c;
        for k in 1..self.rows {
            for col in 0..c {
                let digit = rest % 3;
                rest /= 3;
                let bit = 1u64 << (k * c + col);
                match digit {
                    1 => a |= bit,
                    2 => d |= bit,
                    _ => {}
                }
            }
        }
        (a, d)
    }

    /// Attacker to move: attacker moves to the goal row, or NO_WIN.
    pub fn attacker_to_move(&self, a: u64, d: u64) -> u8 {
        self.attacker[self.index(a, d)]
    }

    /// Defender to move (it may pass): attacker moves to the goal row, or NO_WIN.
    pub fn defender_to_move(&self, a: u64, d: u64) -> u8 {
        self.defender[self.index(a, d)]
    }

    fn value_attacker(&mut self, a: u64, d: u64) -> u8 {
        let idx = self.index(a, d);
        if self.attacker[idx] != 0 {
            return self.attacker[idx];
        }
        let c = self.columns;
        let v = if self.row(a, 1) != 0 {
            1
        } else {
            let mut best = NO_WIN;
            let (region, first, last) = (self.region, self.first_file, self.last_file);
            let empty = region & !(a | d);
            // Attacker pieces move towards row 0: a right shift.
            let straight = (a >> c) & empty;
            let left = ((a & !first) >> (c + 1)) & !a;
            let right = ((a & !last) >> (c - 1)) & !a;
            for (set, delta) in [(straight, c), (left, c + 1), (right, c - 1)] {
                let mut b = set;
                while b != 0 {
                    let to = b.trailing_zeros();
                    b &= b - 1;
                    let from = to + delta;
                    let na = a ^ (1u64 << from) ^ (1u64 << to);
                    let nd = d & !(1u64 << to);
                    let r = self.value_defender(na, nd);
                    if r != NO_WIN && r + 1 < best {
                        best = r + 1;
                    }
                }
            }
            best
        };
        self.attacker[idx] = v;
        v
    }

    fn value_defender(&mut self, a: u64, d: u64) -> u8 {
        let idx = self.index(a, d);
        if self.defender[idx] != 0 {
            return self.defender[idx];
        }
        let mut worst = self.value_attacker(a, d);
        if worst != NO_WIN {
            let c = self.columns;
            let (region, first, last) = (self.region, self.first_file, self.last_file);
            let empty = region & !(a | d);
            let straight = (d << c) & empty;
            let left = ((d & !first) << (c - 1)) & region & !d;
            let right = ((d & !last) << (c + 1)) & region & !d;
            'all: for (set, delta) in [(straight, c), (left, c - 1), (right, c + 1)] {
                let mut b = set;
                while b != 0 {
                    let to = b.trailing_zeros();
                    b &= b - 1;
                    let from = to - delta;
                    let nd = d ^ (1u64 << from) ^ (1u64 << to);
                    let na = a & !(1u64 << to);
                    let r = self.value_attacker(na, nd);
                    worst = worst.max(r);
                    if worst == NO_WIN {
                        break 'all;
                    }
                }
            }
            // Leaving the region from its last row.
            let mut b = self.row(d, self.rows - 1) << (c * (self.rows - 1));
            while b != 0 && worst != NO_WIN {
                let sq = b.trailing_zeros();
                b &= b - 1;
                worst = worst.max(self.value_attacker(a, d & !(1u64 << sq)));
            }
        }
        self.defender[idx] = worst;
        worst
    }

    /// Number of entries of each value, attacker to move (index = value, the last = NO_WIN), for the docs.
    pub fn histogram(&self) -> Vec<(u8, u64)> {
        let mut h = std::collections::BTreeMap::new();
        for &v in &self.attacker {
            *h.entry(v).or_insert(0u64) += 1;
        }
        h.into_iter().collect()
    }
}
