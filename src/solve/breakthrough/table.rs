//! The solver's two transposition tables and the df-pn table's keys.
//!
//! - The df-pn table: buckets of four entries of (key, pn, dn, work), `work` being the expansions of the subtree that
//!   gave the entry; a new position replaces the entry of the smallest subtree, so the memory is fixed by
//!   [`super::SolveOptions::tt_mib`] whatever the run length. Its key is the game's Zobrist key, or with
//!   [`super::SolveOptions::symmetry`] a hash of the smaller of the position and its left-right mirror image.
//! - The alpha-beta table of the distance pass: a power-of-two number of buckets of two entries (the newest, and the
//!   one it displaced) holding a bound, stored relative to the node, and the best move.

use super::Solver;
use crate::game::Side;
use crate::games::breakthrough::{BtMove, BtState};

/// One df-pn table entry (`work == 0`: empty).
#[derive(Copy, Clone, Default)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) pn: u32,
    pub(super) dn: u32,
    pub(super) work: u32,
}

/// One alpha-beta table entry (`bound == 0`: empty).
#[derive(Copy, Clone, Default)]
pub(super) struct AbEntry {
    pub(super) key: u64,
    pub(super) value: i32,
    pub(super) bound: u8,
    pub(super) from: u8,
    pub(super) to: u8,
}
// SAFETY: integers only; all zeros is the empty entry of both tables (`Default`).
unsafe impl crate::limits::Zeroable for Entry {}
unsafe impl crate::limits::Zeroable for [Entry; 4] {}
unsafe impl crate::limits::Zeroable for AbEntry {}
unsafe impl crate::limits::Zeroable for [AbEntry; 2] {}

pub(super) const LOWER: u8 = 1;
pub(super) const UPPER: u8 = 2;
pub(super) const EXACT: u8 = 3;

/// Entries of `entry_bytes` that `mib` holds, rounded down to a power of two.
pub(super) fn table_len(mib: usize, entry_bytes: usize) -> usize {
    let want = (mib.max(1) * 1024 * 1024) / entry_bytes;
    if want <= 1 { 1 } else { 1usize << (usize::BITS - 1 - want.leading_zeros()) }
}

/// The df-pn table: as many buckets as `mib` holds (no rounding to a power of two, so that e.g. 10 GiB means 10 GiB),
/// marked for transparent huge pages before its pages are first written.
pub(super) fn df_table(mib: usize) -> Vec<[Entry; 4]> {
    let n = ((mib.clamp(1, crate::limits::MAX_TABLE_MIB) << 20) / std::mem::size_of::<[Entry; 4]>()).max(1);
    // Zeroed: the system backs the pages as the solve writes them (the caller checked the size against the memory).
    let tt = crate::limits::lazy_table(n, 1);
    crate::solve::advise_huge_pages(&tt);
    tt
}

/// The column reversal of every row of `columns` bits, indexed by the row's bits.
pub(super) fn row_mirror(columns: u32) -> Vec<u64> {
    let c = columns;
    (0..1u64 << c).map(|bits| (0..c).filter(|&k| bits >> k & 1 != 0).map(|k| 1u64 << (c - 1 - k)).sum()).collect()
}

impl Solver<'_> {
    /// The df-pn table's key of `s`: with [`super::SolveOptions::symmetry`], a hash of the smaller of the position and its
    /// left-right mirror image (the rules, the knowledge, the race tables and the initial pn/dn are all symmetric, so
    /// both share one entry); otherwise the game's Zobrist key.
    #[inline]
    pub(super) fn tkey(&self, s: &BtState) -> u64 {
        if self.mirror.is_empty() {
            return s.key;
        }
        let (mw, mb) = (self.mirrored(s.white), self.mirrored(s.black));
        let (w, b) = if (s.white, s.black) <= (mw, mb) { (s.white, s.black) } else { (mw, mb) };
        // splitmix64-style mixing of the two bitboards and the side to move.
        let mut h = w.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ b.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ (s.stm == Side::Second) as u64;
        h ^= h >> 31;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 27;
        h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 31)
    }

    /// `b` with its columns reversed.
    #[inline(always)]
    fn mirrored(&self, b: u64) -> u64 {
        let c = self.g.columns;
        let row = (1u64 << c) - 1;
        let mut out = 0;
        for r in 0..self.g.rows {
            out |= self.mirror[((b >> (r * c)) & row) as usize] << (r * c);
        }
        out
    }

    #[inline(always)]
    pub(super) fn bucket(&self, key: u64) -> usize {
        ((key as u128 * self.tt.len() as u128) >> 64) as usize
    }

    /// Starts loading `key`'s bucket into the cache (its 96 bytes span two cache lines), so that the probes of a
    /// node's children, issued together, wait for memory once instead of once per child.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        let p = self.tt.as_ptr().wrapping_add(self.bucket(key)).cast::<u8>();
        crate::limits::prefetch(p);
        crate::limits::prefetch(p.wrapping_add(64)); // may lie past the table's end: a prefetch never faults
    }

    pub(super) fn probe(&self, key: u64) -> Option<(u32, u32)> {
        let b = &self.tt[self.bucket(key)];
        b.iter().find(|e| e.key == key && e.work != 0).map(|e| (e.pn, e.dn))
    }

    pub(super) fn store(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        let work = work.clamp(1, u32::MAX as u64) as u32;
        let i = self.bucket(key);
        let b = &mut self.tt[i];
        let mut slot = 0;
        for (i, e) in b.iter().enumerate() {
            if e.key == key {
                slot = i;
                break;
            }
            if e.work < b[slot].work {
                slot = i;
            }
        }
        let e = &mut b[slot];
        let work = if e.key == key { work.max(e.work) } else { work };
        *e = Entry { key, pn, dn, work };
    }

    pub(super) fn ab_probe(&self, key: u64) -> Option<AbEntry> {
        self.ab[key as usize & self.ab_mask].iter().find(|e| e.key == key && e.bound != 0).copied()
    }

    pub(super) fn ab_store(&mut self, key: u64, value: i32, bound: u8, m: BtMove) {
        let b = &mut self.ab[key as usize & self.ab_mask];
        // Two slots: the newest entry in slot 0, the previous one kept in slot 1 (same key: overwritten in place).
        let e = AbEntry { key, value, bound, from: m.from, to: m.to };
        if b[0].key == key {
            b[0] = e;
        } else {
            b[1] = b[0];
            b[0] = e;
        }
    }
}
