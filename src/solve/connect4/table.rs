//! The transposition table of the Connect Four solver.
//!
//! 16-byte entries (full key; lower and upper bound; cut-off move; disc count; generation), two per index in one
//! cache line, multiplicative hashing into a power-of-two table backed by transparent huge pages. A generation number
//! makes "clearing" between positions free. The first entry of a pair keeps the node with the fewest discs (the most
//! work below it); the second is always replaced. A search starts on the first MiB of the table (cache-resident) and
//! moves to the whole table after [`GROW_AT`] nodes, so that easy positions never leave the cache.

use crate::solve::advise_huge_pages;

/// The table.
pub(super) struct Table {
    /// Pairs of entries; entry = (full key, data).
    slots: Vec<[u64; 2]>,
    /// Index of the first entry used (2 MiB aligned).
    base: usize,
    /// The index is the top `64 - shift` bits of the hashed key: `full_shift` uses the whole table, `SMALL_SHIFT` its
    /// first MiB (small searches stay in the cache).
    shift: u32,
    full_shift: u32,
    generation: u64,
}

// Data layout: lower bound + 128 (8 bits) | upper bound + 128 (8) | cut-off column + 1 (4) | stones (6, bits 20..26)
// | generation (rest, from bit 32).
const STONES_SHIFT: u32 = 20;
const GEN_SHIFT: u32 = 32;

const HUGE_PAGE: usize = 2 << 20;
/// A search starts on the first 2^16 entries (1 MiB, cache-resident) and moves to the whole table after
/// [`GROW_AT`] nodes: most easy positions never leave the cache.
const SMALL_SHIFT: u32 = 64 - 15;
pub(super) const GROW_AT: u64 = 1 << 14;

/// What the table knows about a position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hit {
    pub lower: i32,
    pub upper: i32,
    /// Column of the cut-off move, if any.
    pub mv: Option<u32>,
}

impl Table {
    /// `2^log2_entries` entries (16 bytes each).
    pub(super) fn new(log2_entries: u32) -> Table {
        let log2 = log2_entries.clamp(2, 40);
        let n = 1usize << log2;
        // Over-allocate by 2 MiB so that the table can start on a 2 MiB boundary and use huge pages (far fewer TLB
        // misses on random probes).
        let extra = HUGE_PAGE / 16;
        // Zeroed memory: the system backs the pages as the searches write them (the caller checked the size against
        // the machine's memory), so a large table costs what the positions solved need.
        let slots: Vec<[u64; 2]> = crate::limits::lazy_table(n + extra, (1 << 2) + extra);
        // (A table the system could only give in part is the largest power of two that fits.)
        let log2 = usize::BITS - 1 - (slots.len() - extra).leading_zeros();
        let n = 1usize << log2;
        let addr = slots.as_ptr() as usize;
        let base = (HUGE_PAGE - addr % HUGE_PAGE) % HUGE_PAGE / 16;
        advise_huge_pages(&slots[base..base + n]);
        let full_shift = 64 - (log2 - 1);
        Table { slots, base, shift: full_shift.max(SMALL_SHIFT), full_shift, generation: 1 }
    }

    /// Forget everything in O(1) (entries of older generations no longer match), and start small again.
    pub(super) fn clear(&mut self) {
        self.generation += 1;
        self.shift = self.full_shift.max(SMALL_SHIFT);
    }

    /// Use the whole table from now on. Entries stored so far stay valid (they carry their full key) but are
    /// mostly not found again.
    pub(super) fn grow(&mut self) {
        self.shift = self.full_shift;
    }

    /// The first slot of the key's pair (multiplicative hashing).
    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        self.base + (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize * 2
    }

    /// Start loading the key's pair into the cache (a pair never straddles a cache line), so that a probe issued
    /// a little later waits for memory less, or not at all.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        crate::limits::prefetch(self.slots.as_ptr().wrapping_add(self.index(key)));
    }

    #[inline(always)]
    pub(super) fn get(&self, key: u64) -> Option<Hit> {
        let i = self.index(key);
        let gen_ok = |d: u64| d >> GEN_SHIFT == self.generation;
        let d = if self.slots[i][0] == key && gen_ok(self.slots[i][1]) {
            self.slots[i][1]
        } else if self.slots[i + 1][0] == key && gen_ok(self.slots[i + 1][1]) {
            self.slots[i + 1][1]
        } else {
            return None;
        };
        let mv = ((d >> 16) & 15) as u32;
        Some(Hit {
            lower: (d & 255) as i32 - 128,
            upper: ((d >> 8) & 255) as i32 - 128,
            mv: if mv == 0 { None } else { Some(mv - 1) },
        })
    }

    /// Record that the value of `key` (a node with `stones` stones) lies in `lower..=upper`, merged with what the
    /// table already knows of it. The first slot of the pair keeps the entry with the fewest stones (the most work
    /// below it) of the current search; the second is always replaced.
    #[inline(always)]
    pub(super) fn put(&mut self, key: u64, mut lower: i32, mut upper: i32, mut mv: Option<u32>, stones: u32) {
        let i = self.index(key);
        let current = |d: u64| d >> GEN_SHIFT == self.generation;
        let (a, b) = (self.slots[i], self.slots[i + 1]);
        let old = if a[0] == key && current(a[1]) {
            Some(a[1])
        } else if b[0] == key && current(b[1]) {
            Some(b[1])
        } else {
            None
        };
        if let Some(d) = old {
            lower = lower.max((d & 255) as i32 - 128);
            upper = upper.min(((d >> 8) & 255) as i32 - 128);
            if mv.is_none() {
                let m = ((d >> 16) & 15) as u32;
                mv = if m == 0 { None } else { Some(m - 1) };
            }
        }
        let data = ((lower + 128) as u64)
            | (((upper + 128) as u64) << 8)
            | ((mv.map_or(0, |m| m + 1) as u64) << 16)
            | ((stones as u64) << STONES_SHIFT)
            | (self.generation << GEN_SHIFT);
        let keep_a = current(a[1]) && a[0] != key && ((a[1] >> STONES_SHIFT) & 63) < stones as u64;
        if keep_a {
            self.slots[i + 1] = [key, data];
        } else {
            self.slots[i] = [key, data];
            if b[0] == key {
                // Do not leave a stale duplicate behind in the second slot.
                self.slots[i + 1][1] = 0;
            }
        }
    }
}
