//! The n-tuple Breakthrough evaluation (`engine(eval=nt)`): the `pst` evaluation plus a pattern table over every
//! 2x3 window of the board, fitted by `plateau tune --eval nt` (eval/ntrain.rs).
//!
//! ```text
//! view:     the side to move's: row i counted from its home row (i = 0 home .. rows-1 goal), cells empty (0),
//!           own piece (1) or opponent's piece (2); one table serves both colours
//! windows:  rows i, i+1 and columns c, c+1, c+2, for every anchor (i, c), i < rows-1, c < columns-2
//! pattern:  p = sum over the 6 cells k of digit_k * 3^k, k = 0..2 row i (column c, c+1, c+2), 3..5 row i+1
//! mirror:   the anchor c and its left-right image columns-3-c share their weights: right-half anchors read their
//!           cells right to left (the mirrored pattern); a centre anchor (c = columns-3-c) uses min(p, mirror(p))
//! bucket:   (i, fold(c)), fold(c) = min(c, columns-3-c)
//! eval:     mg = pst_mg(s) + sum over windows T_mg[bucket][p],  eg likewise,
//!           eval = (mg * phase + eg * (256 - phase)) / 256         (phase as in eval/pst.rs)
//! speed:    per row, the 3-bit own/opponent slices of each anchor go through a 64-entry table to a base-3 triple;
//!           a window's pattern is triple(row i) + 27 * triple(row i+1): two loads, one add, one table load
//! ```
//!
//! The table is trained for one board (the header of the weights file says which, 8x8); on any other board
//! [`NtEvaluator::new`] returns `None` and the engine uses `pst` alone. [`NtEvaluator::with_weights`] builds the
//! evaluation for any board of at least 3 columns with a table of the matching size (tests, training).
//!
//! Weights file (`eval/nt_weights.bin`, little endian): `b"PLNT"`, version `u32` = 2, rows, columns, window rows (2),
//! window columns (3), table entries, pst features (each `u32`); then the pst middle-game and end-game weights (`i32`
//! each), the table as (middle game, end game) `i16` pairs, entry `bucket * 729 + pattern`, and the `u64` checksum of
//! all that ([`super::network_checksum`]): a damaged file is refused. Version 1 (no checksum) is still read.

use crate::game::Side;
use crate::games::breakthrough::{Breakthrough, BtState};

use super::pst::{self, Features, PstEvaluator};

/// Patterns of one 2x3 window (3^6).
pub(crate) const PATTERNS: usize = 729;
/// Rows of a window.
pub(crate) const WIN_ROWS: u32 = 2;
/// Columns of a window.
pub(crate) const WIN_COLS: u32 = 3;
/// The most windows of a board (rows * columns <= 64).
pub(crate) const MAX_WINDOWS: usize = 64;
/// Version of the weights file.
pub(crate) const VERSION: u32 = 2;
/// The version of earlier builds' files: the same without the checksum.
const OLD_VERSION: u32 = 1;

/// The committed weights (written by `plateau tune --eval nt --out src/games/breakthrough/eval/nt_weights.bin`).
pub(crate) static WEIGHTS: &[u8] = include_bytes!("nt_weights.bin");

/// Base-3 triple of a 3-bit slice, left to right: `LUT_L[own << 3 | opp]` = digit(bit 0) + 3 digit(bit 1) +
/// 9 digit(bit 2), digit 1 for an own piece, 2 for an opponent's.
const fn triple_table(mirror: bool) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut x = 0;
    while x < 64 {
        let (own, opp) = (x >> 3, x & 7);
        let mut v = 0;
        let mut k = 0;
        while k < 3 {
            let d = if own >> k & 1 == 1 {
                1
            } else if opp >> k & 1 == 1 {
                2
            } else {
                0
            };
            let pos = if mirror { 2 - k } else { k };
            v += d * [1, 3, 9][pos];
            k += 1;
        }
        t[x] = v as u8;
        x += 1;
    }
    t
}

const LUT_L: [u8; 64] = triple_table(false);
const LUT_R: [u8; 64] = triple_table(true);
const LUTS: [[u8; 64]; 2] = [LUT_L, LUT_R];

/// The left-right mirror of a pattern.
pub const fn mirror(p: usize) -> usize {
    let d = [p % 3, p / 3 % 3, p / 9 % 3, p / 27 % 3, p / 81 % 3, p / 243 % 3];
    d[2] + 3 * d[1] + 9 * d[0] + 27 * d[5] + 81 * d[4] + 243 * d[3]
}

const MIRROR: [u16; PATTERNS] = {
    let mut t = [0u16; PATTERNS];
    let mut p = 0;
    while p < PATTERNS {
        t[p] = mirror(p) as u16;
        p += 1;
    }
    t
};

/// The table geometry of one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub rows: u32,
    pub columns: u32,
    /// Folded anchor columns.
    pub(crate) col_buckets: usize,
    /// Table entries: (rows - 1) * col_buckets * 729.
    pub entries: usize,
}

impl Layout {
    /// The layout of board `g`, `None` when the board is narrower than a window.
    pub fn new(g: &Breakthrough) -> Option<Layout> {
        if g.columns < WIN_COLS || g.rows < WIN_ROWS {
            return None;
        }
        let anchors = (g.columns - WIN_COLS + 1) as usize;
        let col_buckets = anchors.div_ceil(2);
        Some(Layout {
            rows: g.rows,
            columns: g.columns,
            col_buckets,
            entries: (g.rows as usize - 1) * col_buckets * PATTERNS,
        })
    }

    /// Windows of a position.
    pub fn windows(&self) -> usize {
        (self.rows as usize - 1) * (self.columns - WIN_COLS + 1) as usize
    }
}

/// The trained weights: pst weights and the pattern table.
#[derive(Clone, Debug, PartialEq)]
pub struct NtWeights {
    pub rows: u32,
    pub columns: u32,
    pub(crate) pst_mg: [i32; pst::N],
    pub(crate) pst_eg: [i32; pst::N],
    /// `(mg, eg)` per entry.
    pub table: Vec<[i16; 2]>,
}

impl NtWeights {
    /// Zero pattern weights and the committed pst weights, for board `g` (`None` if narrower than a window).
    pub fn zero(g: &Breakthrough) -> Option<NtWeights> {
        let l = Layout::new(g)?;
        Some(NtWeights {
            rows: g.rows,
            columns: g.columns,
            pst_mg: super::pst_weights::MG,
            pst_eg: super::pst_weights::EG,
            table: vec![[0, 0]; l.entries],
        })
    }

    /// The file format of the module doc.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + 8 * pst::N + 4 * self.table.len());
        out.extend_from_slice(b"PLNT");
        for v in [VERSION, self.rows, self.columns, WIN_ROWS, WIN_COLS, self.table.len() as u32, pst::N as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.pst_mg.iter().chain(self.pst_eg.iter()) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for [m, e] in &self.table {
            out.extend_from_slice(&m.to_le_bytes());
            out.extend_from_slice(&e.to_le_bytes());
        }
        let sum = super::network_checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Parse [`NtWeights::to_bytes`] (or version 1, without the checksum); a wrong magic, version, shape, length or
    /// checksum is an error.
    pub fn from_bytes(b: &[u8]) -> anyhow::Result<NtWeights> {
        let bad = |what: &str| anyhow::anyhow!("nt weights: {what}");
        if b.len() < 32 || &b[..4] != b"PLNT" {
            return Err(bad("not a PLNT file"));
        }
        let version = u32::from_le_bytes(b[4..8].try_into().expect("4 bytes"));
        let b = match version {
            VERSION => super::check_network(b).map_err(|e| bad(&e))?,
            OLD_VERSION => b,
            _ => return Err(bad(&format!("version {version}, expected {VERSION} (or {OLD_VERSION})"))),
        };
        if b.len() < 32 {
            return Err(bad(&format!("{} bytes: too short", b.len())));
        }
        let u = |i: usize| u32::from_le_bytes(b[4 + 4 * i..8 + 4 * i].try_into().expect("4 bytes"));
        let (rows, columns, wr, wc, entries, n) = (u(1), u(2), u(3), u(4), u(5) as usize, u(6));
        if wr != WIN_ROWS || wc != WIN_COLS || n as usize != pst::N {
            return Err(bad(&format!("{wr}x{wc} windows and {n} pst features, expected 2x3 and {}", pst::N)));
        }
        let g = Breakthrough::new(rows, columns, 1, false, false).map_err(|e| bad(&e.to_string()))?;
        let l = Layout::new(&g).ok_or_else(|| bad("board narrower than a window"))?;
        if l.entries != entries || b.len() != 32 + 8 * pst::N + 4 * entries {
            return Err(bad(&format!("{} bytes for {entries} entries on {rows}x{columns}", b.len())));
        }
        let i32_at = |o: usize| i32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"));
        let i16_at = |o: usize| i16::from_le_bytes(b[o..o + 2].try_into().expect("2 bytes"));
        let mut pst_mg = [0; pst::N];
        let mut pst_eg = [0; pst::N];
        for i in 0..pst::N {
            pst_mg[i] = i32_at(32 + 4 * i);
            pst_eg[i] = i32_at(32 + 4 * (pst::N + i));
        }
        let t0 = 32 + 8 * pst::N;
        let table = (0..entries).map(|e| [i16_at(t0 + 4 * e), i16_at(t0 + 4 * e + 2)]).collect();
        Ok(NtWeights { rows, columns, pst_mg, pst_eg, table })
    }
}

/// The evaluation with its weights and the tables of one board.
#[derive(Clone, Debug)]
pub struct NtEvaluator {
    pub pst: PstEvaluator,
    layout: Layout,
    table: Vec<[i16; 2]>,
    /// Per anchor column: 0 reads its cells left to right, 1 right to left (the mirrored pattern).
    side: [u8; 32],
    /// Per anchor column: first table entry of its folded column in row bucket 0.
    fold_base: [u32; 32],
    /// Table entries per row bucket.
    row_stride: usize,
    /// The centre anchor column (`usize::MAX` without one).
    centre: usize,
    row_mask: u64,
}

impl NtEvaluator {
    /// The evaluation with the committed weights, `None` on a board they were not trained for.
    pub fn new(g: &Breakthrough) -> Option<Self> {
        let w = NtWeights::from_bytes(WEIGHTS).ok()?;
        Self::with_weights(g, &w)
    }

    /// The evaluation with weights `w`, `None` unless `w` is for `g`'s board size.
    pub(crate) fn with_weights(g: &Breakthrough, w: &NtWeights) -> Option<Self> {
        let layout = Layout::new(g)?;
        if w.rows != g.rows || w.columns != g.columns || w.table.len() != layout.entries {
            return None;
        }
        let anchors = (g.columns - WIN_COLS + 1) as usize;
        let mut side = [0u8; 32];
        let mut fold_base = [0u32; 32];
        let mut centre = usize::MAX;
        for c in 0..anchors {
            let m = anchors - 1 - c;
            match c.cmp(&m) {
                std::cmp::Ordering::Less => {}
                std::cmp::Ordering::Greater => side[c] = 1,
                std::cmp::Ordering::Equal => centre = c,
            }
            fold_base[c] = (c.min(m) * PATTERNS) as u32;
        }
        let row_mask = (1u64 << g.columns) - 1;
        Some(NtEvaluator {
            pst: PstEvaluator::with_weights(g, w.pst_mg, w.pst_eg),
            table: w.table.clone(),
            side,
            fold_base,
            row_stride: layout.col_buckets * PATTERNS,
            centre,
            row_mask,
            layout,
        })
    }

    /// The table geometry.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Calls `f(entry)` for the table entry of every window of `s` (side to move's view).
    #[inline(always)]
    fn for_each_entry(&self, s: &BtState, mut f: impl FnMut(usize)) {
        let (own, opp) = Breakthrough::own_opp(s);
        let (rows, cols) = (self.layout.rows as usize, self.layout.columns);
        let anchors = (cols - WIN_COLS + 1) as usize;
        // Row i from the side to move's home row: its own and opponent's bits.
        let row_bits = |i: usize| {
            let row = if s.stm == Side::First { i } else { rows - 1 - i } as u32;
            ((own >> (row * cols)) & self.row_mask, (opp >> (row * cols)) & self.row_mask)
        };
        let triple = |o: u64, p: u64, c: usize, side: u8| {
            LUTS[side as usize][((((o >> c) & 7) << 3) | ((p >> c) & 7)) as usize] as u16
        };
        let mut prev = [0u16; 32];
        let (o, p) = row_bits(0);
        for (c, (pv, &side)) in prev.iter_mut().zip(self.side.iter()).enumerate().take(anchors) {
            *pv = triple(o, p, c, side);
        }
        for i in 1..rows {
            let (o, p) = row_bits(i);
            let rb = (i - 1) * self.row_stride;
            let lanes = prev.iter_mut().zip(self.side.iter()).zip(self.fold_base.iter());
            for (c, ((pv, &side), &fb)) in lanes.enumerate().take(anchors) {
                let t = triple(o, p, c, side);
                let mut pat = (*pv + 27 * t) as usize;
                if c == self.centre {
                    pat = pat.min(MIRROR[pat] as usize);
                }
                f(rb + fb as usize + pat);
                *pv = t;
            }
        }
    }

    /// The table entries of the windows of `s` into `out`; returns how many (always [`Layout::windows`]).
    pub fn entries(&self, s: &BtState, out: &mut [u32; MAX_WINDOWS]) -> usize {
        let mut n = 0;
        self.for_each_entry(s, |e| {
            out[n] = e as u32;
            n += 1;
        });
        n
    }

    /// The (middle game, end game) sums of the pattern weights of `s`.
    #[inline]
    pub(crate) fn pattern_sums(&self, s: &BtState) -> (i32, i32) {
        let (mut mg, mut eg) = (0i32, 0i32);
        self.for_each_entry(s, |e| {
            let [m, g] = self.table[e];
            mg += m as i32;
            eg += g as i32;
        });
        (mg, eg)
    }

    /// The blended score of pst features `x` plus pattern sums `(pm, pe)`.
    #[inline]
    pub fn score(&self, x: &Features, pm: i32, pe: i32) -> i32 {
        let mut mg = pm;
        let mut eg = pe;
        for i in 0..pst::N {
            mg += self.pst.mg[i] * x.f[i] as i32;
            eg += self.pst.eg[i] * x.f[i] as i32;
        }
        ((mg as i64 * x.phase as i64 + eg as i64 * (256 - x.phase) as i64) / 256) as i32
    }

    /// The evaluation of `s` from the side to move's point of view.
    #[inline]
    pub fn evaluate(&self, g: &Breakthrough, s: &BtState) -> i32 {
        let x = self.pst.features(g, s);
        let (pm, pe) = self.pattern_sums(s);
        self.score(&x, pm, pe).clamp(-400_000, 400_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Capabilities;
    use crate::game::Game;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    fn random_weights(g: &Breakthrough, seed: u64) -> NtWeights {
        let mut w = NtWeights::zero(g).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        for e in w.table.iter_mut() {
            *e = [rng.random_range(-300..300), rng.random_range(-300..300)];
        }
        w
    }

    /// The position with colours swapped and the board flipped top to bottom (same side to move's view), and the
    /// left-right mirror, as position strings.
    fn flip_and_mirror(g: &Breakthrough, s: &BtState) -> (BtState, BtState) {
        let (rows, cols) = (g.rows, g.columns);
        let mut f = BtState { white: 0, black: 0, key: 0, stm: s.stm.other() };
        let mut m = BtState { white: 0, black: 0, key: 0, stm: s.stm };
        for sq in 0..rows * cols {
            let (r, c) = (sq / cols, sq % cols);
            let fsq = (rows - 1 - r) * cols + c;
            let msq = r * cols + (cols - 1 - c);
            if s.white >> sq & 1 == 1 {
                f.black |= 1 << fsq;
                m.white |= 1 << msq;
            }
            if s.black >> sq & 1 == 1 {
                f.white |= 1 << fsq;
                m.black |= 1 << msq;
            }
        }
        // Rebuild the keys through the text form.
        let f = g.parse_position(&g.format_position(&f)).unwrap();
        let m = g.parse_position(&g.format_position(&m)).unwrap();
        (f, m)
    }

    fn random_positions(g: &Breakthrough, n: usize, seed: u64) -> Vec<BtState> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut s = g.start();
            let plies = rng.random_range(0..40);
            for _ in 0..plies {
                if g.outcome(&s).is_some() {
                    break;
                }
                let Some(m) = g.random_move(&s, &mut rng) else { break };
                g.play(&mut s, m);
            }
            out.push(s);
        }
        out
    }

    #[test]
    fn committed_weights_load() {
        let g = Breakthrough::default();
        let w = NtWeights::from_bytes(WEIGHTS).unwrap();
        assert_eq!((w.rows, w.columns), (8, 8));
        assert_eq!(w.table.len(), 7 * 3 * PATTERNS);
        assert_eq!(NtWeights::from_bytes(&w.to_bytes()).unwrap(), w);
        assert!(NtEvaluator::new(&g).is_some());
        // Other boards fall back to pst.
        assert!(NtEvaluator::new(&Breakthrough::new(6, 5, 2, false, false).unwrap()).is_none());
        // Corrupt files are errors, not panics.
        let b = w.to_bytes();
        assert!(NtWeights::from_bytes(&b[..b.len() - 1]).is_err());
        assert!(NtWeights::from_bytes(b"PLNX").is_err());
        let mut v = b.clone();
        v[4] = 9;
        assert!(NtWeights::from_bytes(&v).is_err());
        // Issue 43, point 8: a flipped bit anywhere is refused (the checksum); version 1 files still read.
        assert_eq!(b, WEIGHTS, "the committed file is what this build writes");
        for at in [9, 40, b.len() / 2, b.len() - 9, b.len() - 1] {
            let mut v = b.clone();
            v[at] ^= 4;
            assert!(NtWeights::from_bytes(&v).is_err(), "byte {at}");
        }
        let mut v = b.clone();
        v[b.len() / 2] ^= 4;
        assert!(NtWeights::from_bytes(&v).unwrap_err().to_string().contains("checksum mismatch"));
        let mut old = b[..b.len() - 8].to_vec();
        old[4..8].copy_from_slice(&OLD_VERSION.to_le_bytes());
        assert_eq!(NtWeights::from_bytes(&old).unwrap(), w);
    }

    #[test]
    fn mirror_is_an_involution_and_the_tables_agree() {
        for p in 0..PATTERNS {
            assert_eq!(mirror(mirror(p)), p);
        }
        assert_eq!(mirror(1), 9);
        assert_eq!(mirror(2 * 27), 2 * 243);
        for x in 0..64 {
            let l = LUT_L[x] as usize;
            assert_eq!(LUT_R[x] as usize, mirror(l) % 27);
        }
    }

    #[test]
    fn zero_patterns_equal_pst() {
        for (r, c) in [(8, 8), (6, 5), (5, 3), (4, 7)] {
            let g = Breakthrough::new(r, c, 1, false, false).unwrap();
            let w = NtWeights::zero(&g).unwrap();
            let e = NtEvaluator::with_weights(&g, &w).unwrap();
            let p = PstEvaluator::new(&g);
            for s in random_positions(&g, 50, 3) {
                assert_eq!(e.evaluate(&g, &s), p.evaluate(&g, &s), "{}", g.format_position(&s));
            }
        }
        assert!(Layout::new(&Breakthrough::new(5, 2, 1, false, false).unwrap()).is_none());
    }

    #[test]
    fn colour_and_mirror_symmetric() {
        // 8x8 (even anchors), 6x5 (a centre anchor), 4x3 (one anchor column).
        for (r, c, seed) in [(8, 8, 1), (6, 5, 2), (4, 3, 3), (5, 9, 4)] {
            let g = Breakthrough::new(r, c, 1, false, false).unwrap();
            let e = NtEvaluator::with_weights(&g, &random_weights(&g, seed)).unwrap();
            let mut nonzero = 0;
            for s in random_positions(&g, 100, seed) {
                let (f, m) = flip_and_mirror(&g, &s);
                let v = e.pattern_sums(&s);
                assert_eq!(v, e.pattern_sums(&f), "colour swap: {}", g.format_position(&s));
                assert_eq!(v, e.pattern_sums(&m), "mirror: {}", g.format_position(&s));
                assert_eq!(e.evaluate(&g, &s), e.evaluate(&g, &f));
                assert_eq!(e.evaluate(&g, &s), e.evaluate(&g, &m));
                nonzero += (v != (0, 0)) as usize;
            }
            assert!(nonzero > 90, "{r}x{c}: the random table is used");
        }
    }

    #[test]
    fn entries_cover_every_window_once() {
        let g = Breakthrough::default();
        let e = NtEvaluator::with_weights(&g, &NtWeights::zero(&g).unwrap()).unwrap();
        let s = g.start();
        let mut out = [0u32; MAX_WINDOWS];
        assert_eq!(e.entries(&s, &mut out), 42);
        assert_eq!(e.layout().windows(), 42);
        // Home rows full of own pieces: window at row 0 is 6 own pieces, pattern 1+3+9+27+81+243.
        assert_eq!(out[0] as usize, 364);
        // The window of rows 6 and 7 (the opponent's home rows), anchor 0: bucket 6 * 3.
        assert_eq!(out[36] as usize, 18 * PATTERNS + 2 * 364);
        // Right-half anchors use the left-half buckets.
        assert_eq!(out[5] as usize, 364);
        assert!(out.iter().take(42).all(|&x| (x as usize) < e.layout().entries));
    }

    #[test]
    fn the_engine_option() {
        use crate::engine::Engine;
        use crate::engine::params::EngineOptions;
        use crate::search::Searcher;
        use crate::spec::Spec;
        let o = EngineOptions::from_spec(&Spec::parse("engine(eval=nt,nodes=3000)").unwrap()).unwrap();
        assert_eq!(o.eval.as_deref(), Some("nt"));
        assert!(o.spec().contains("eval=nt"));
        let pst = EngineOptions::from_spec(&Spec::parse("engine(eval=pst,nodes=3000)").unwrap()).unwrap();
        // 6x5: no table for this board, so nt is pst (same tree); 8x8: the table changes the tree.
        for (g, same) in [(Breakthrough::new(6, 5, 2, false, false).unwrap(), true), (Breakthrough::default(), false)] {
            let s = g.start();
            let a = Engine::<Breakthrough>::new(o.clone()).search(&g, &s);
            let b = Engine::<Breakthrough>::new(pst.clone()).search(&g, &s);
            let mut moves = crate::game::MoveList::new();
            g.generate_moves(&s, &mut moves);
            assert!(moves.contains(&a.best_move.unwrap()));
            assert_eq!(a.value == b.value && a.pv == b.pv, same, "{} vs {}", a.value, b.value);
        }
    }
}
