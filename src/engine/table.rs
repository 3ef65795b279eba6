//! A lock-free transposition table shared by the Lazy SMP threads.
//!
//! The generic [`crate::search::tt`] table needs `&mut self` to store; the engine's threads share one table instead,
//! so this one keeps each entry in two `AtomicU64` words and uses the classic "key xor data" check: a reader accepts
//! an entry only when `word0 ^ word1` equals the key it looks for, so a torn write (two threads writing the same slot)
//! reads as a miss, never as a wrong hit.
//!
//! The best move is stored as its index in the game's generated move list (generation is deterministic, and the full
//! key check makes the index refer to the same list), so the table is generic over every game without packing moves.
//!
//! ```text
//! data bits:  0..32 value (stored node-relative, see search::tt::to_tt)   32..48 draft (quarter plies, i16)
//!             48..57 move index + 1 (0 = none)   57..59 bound   59..64 generation
//! bucket:     4 entries of 16 bytes = one cache line (aligned to one); replace same key, else empty, else lowest
//!             draft - 8 * age
//! ```
//!
//! The search starts loading a child's bucket into the cache ([`AtomicTable::prefetch`]) as soon as it has played the
//! move, so that the probe at the child's entry finds it there or on its way.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::search::tt::{Bound, from_tt, to_tt};

/// Entries per bucket (one 64-byte cache line).
pub(crate) const BUCKET: usize = 4;

/// A cache line, in bytes.
const LINE: usize = 64;

/// A decoded entry. `value` is already converted back for the probing node's ply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub value: i32,
    /// Remaining depth the value was searched to, in quarter plies.
    pub(crate) draft: i32,
    pub bound: Bound,
    /// Index of the best move in the generated move list.
    pub mv: Option<usize>,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

// SAFETY: two atomic integers; all zeros is the empty slot (`Slot::default()`).
unsafe impl crate::limits::Zeroable for Slot {}

/// The shared table. An empty table (0 MiB) never hits and stores nothing.
pub(crate) struct AtomicTable {
    /// The buckets from `slots[first]` on: `first` (0 to 3) puts them on cache-line boundaries, since the
    /// allocator aligns a large block to 16 bytes only (asking it for 64 would have it write every page at once).
    slots: Vec<Slot>,
    first: usize,
    buckets: usize,
    generation: u64,
    /// A search ran since the table was made or cleared (it may hold entries).
    used: bool,
    /// Every page of the table has been written once ([`AtomicTable::back_pages`]).
    backed: bool,
}

fn encode(value: i32, draft: i32, bound: Bound, mv: Option<usize>, generation: u64) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let m = mv.map_or(0, |i| (i as u64 + 1).min(511));
    (value as u32 as u64)
        | ((draft.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64) << 32)
        | (m << 48)
        | (b << 57)
        | ((generation & 31) << 59)
}

impl AtomicTable {
    /// A table of at most `mib` MiB (a power of two number of buckets); `mib = 0` gives an empty table.
    /// Panics only if the memory cannot be had; [`AtomicTable::try_new`] reports that instead.
    pub fn new(mib: usize) -> Self {
        Self::try_new(mib).unwrap_or_else(|_| Self::empty())
    }

    /// The table of 0 MiB.
    fn empty() -> Self {
        AtomicTable { slots: Vec::new(), first: 0, buckets: 0, generation: 0, used: false, backed: false }
    }

    /// Like [`AtomicTable::new`], with an error when the memory cannot be allocated.
    pub(crate) fn try_new(mib: usize) -> Result<Self, String> {
        if mib == 0 {
            return Ok(Self::empty());
        }
        let want = mib.min(crate::limits::MAX_TABLE_MIB).saturating_mul(1024 * 1024) / (BUCKET * size_of::<Slot>());
        let n = 1usize << (usize::BITS - 1 - want.max(1).leading_zeros());
        // Zeroed memory: the system backs the pages as the search writes them.
        let slots: Vec<Slot> =
            crate::limits::zeroed_vec(&format!("a {mib} MiB transposition table"), n * BUCKET + BUCKET - 1)?;
        let first = (slots.as_ptr() as usize).wrapping_neg() % LINE / size_of::<Slot>();
        Ok(AtomicTable { slots, first, buckets: n, generation: 0, used: false, backed: false })
    }

    /// Number of entries.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.buckets * BUCKET
    }

    /// Forget everything (between games, outside the clock). The slots are zeroed where they are, not allocated
    /// afresh: the pages a game wrote stay backed, so the next game's searches take no page fault (a fresh table
    /// costs one per page first written: in a 33 ms search, more than half of the time). A table no search has
    /// used since it was made or cleared is zero already.
    pub fn clear(&mut self) {
        if self.used {
            self.slots.fill_with(Slot::default);
            self.used = false;
            self.backed = true;
        }
        self.generation = 0;
    }

    /// Have the system back every page of the table now, once, outside any clock (the engine calls it when it is
    /// prepared for a game, as Stockfish clears its table when it makes it): the searches that follow take no page
    /// fault. Without it, the first timed search pays them: with 2 MiB pages about a millisecond each on the machine
    /// of docs/strength.md, so a 33 ms search from a fresh 64 MiB table searched a few hundred nodes. Contents are
    /// kept (one word of each page is written back with its own value, which the compiler cannot drop).
    pub(crate) fn back_pages(&mut self) {
        if self.backed {
            return;
        }
        const PAGE_SLOTS: usize = 4096 / size_of::<Slot>();
        for slot in self.slots.iter_mut().step_by(PAGE_SLOTS) {
            let word = slot.data.get_mut();
            *word = std::hint::black_box(*word);
        }
        self.backed = true;
    }

    /// Per mille of the table filled by the current search (sampled on the first 1000 entries, as UCI's `hashfull`);
    /// `None` without a table.
    pub fn hashfull(&self) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let n = (self.buckets * BUCKET).min(1000);
        let used = self.slots[self.first..self.first + n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 59) & 31 == self.generation & 31
            })
            .count();
        Some((used * 1000 / n) as u32)
    }

    /// A new search: older entries become preferred victims.
    pub(crate) fn new_search(&mut self) {
        self.used = true;
        self.generation = (self.generation + 1) & 31;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot] {
        let i = self.first + ((((key >> 32) ^ key) as usize) & (self.buckets - 1)) * BUCKET;
        &self.slots[i..i + BUCKET]
    }

    /// Start loading `key`'s bucket into the cache, for a probe a little later (nothing without a table).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        if self.buckets > 0 {
            crate::limits::prefetch(self.bucket(key).as_ptr());
        }
    }

    /// Look up `key` for a node at `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: u32) -> Option<Hit> {
        if self.buckets == 0 {
            return None;
        }
        for s in self.bucket(key) {
            let data = s.data.load(Ordering::Relaxed);
            if data != 0 && s.check.load(Ordering::Relaxed) ^ data == key {
                let bound = match (data >> 57) & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                };
                let m = ((data >> 48) & 511) as usize;
                return Some(Hit {
                    value: from_tt(data as u32 as i32, ply),
                    draft: (data >> 32) as u16 as i16 as i32,
                    bound,
                    mv: if m == 0 { None } else { Some(m - 1) },
                });
            }
        }
        None
    }

    /// Store a result for the node at `ply`; `draft` in quarter plies. A store without a move keeps the old move.
    #[inline]
    pub fn store(&self, key: u64, ply: u32, draft: i32, value: i32, bound: Bound, mv: Option<usize>) {
        if self.buckets == 0 {
            return;
        }
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            if data == 0 {
                if worst != i32::MIN {
                    victim = i;
                    worst = i32::MIN;
                }
                continue;
            }
            if s.check.load(Ordering::Relaxed) ^ data == key {
                victim = i;
                break;
            }
            let age = ((self.generation + 32 - ((data >> 59) & 31)) & 31) as i32;
            let score = (data >> 32) as u16 as i16 as i32 - 8 * age;
            if score < worst {
                worst = score;
                victim = i;
            }
        }
        let slot = &bucket[victim];
        let mut mv = mv;
        if mv.is_none() {
            let old = slot.data.load(Ordering::Relaxed);
            if old != 0 && slot.check.load(Ordering::Relaxed) ^ old == key {
                let m = ((old >> 48) & 511) as usize;
                mv = if m == 0 { None } else { Some(m - 1) };
            }
        }
        let data = encode(to_tt(value, ply), draft, bound, mv, self.generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::WIN_SCORE;

    #[test]
    fn store_probe_and_node_relative_wins() {
        let mut t = AtomicTable::new(1);
        assert!(t.probe(77, 0).is_none());
        t.store(77, 0, 12, -345, Bound::Lower, Some(3));
        assert_eq!(t.probe(77, 0), Some(Hit { value: -345, draft: 12, bound: Bound::Lower, mv: Some(3) }));
        // No move: the old one stays.
        t.store(77, 0, -4, 9, Bound::Upper, None);
        assert_eq!(t.probe(77, 0), Some(Hit { value: 9, draft: -4, bound: Bound::Upper, mv: Some(3) }));
        // A win in 5 from the root stored at ply 3 is a win in 2 from the node, a win in 9 probed at ply 7.
        t.store(78, 3, 8, WIN_SCORE - 5, Bound::Exact, None);
        assert_eq!(t.probe(78, 7).unwrap().value, WIN_SCORE - 9);
        t.new_search();
        t.clear();
        assert!(t.probe(78, 7).is_none());
    }

    #[test]
    fn backing_the_pages_keeps_the_entries() {
        let mut t = AtomicTable::new(1);
        t.store(77, 0, 12, -345, Bound::Lower, Some(3));
        t.back_pages();
        assert!(t.backed);
        assert_eq!(t.probe(77, 0), Some(Hit { value: -345, draft: 12, bound: Bound::Lower, mv: Some(3) }));
        // Emptied in place: still backed, and empty.
        t.new_search();
        t.clear();
        assert!(t.backed);
        assert!(t.probe(77, 0).is_none());
        let mut none = AtomicTable::new(0);
        none.back_pages();
        assert!(none.probe(77, 0).is_none());
    }

    #[test]
    fn buckets_lie_on_cache_lines() {
        for mib in [1, 2, 3] {
            let t = AtomicTable::new(mib);
            for key in [0, 1, 77, u64::MAX, 0x1234_5678_9abc_def0] {
                assert_eq!(t.bucket(key).as_ptr() as usize % LINE, 0, "{mib} MiB, key {key}");
            }
            assert!(t.first + t.buckets * BUCKET <= t.slots.len());
        }
    }

    #[test]
    fn empty_table_never_hits() {
        let t = AtomicTable::new(0);
        t.store(5, 0, 4, 1, Bound::Exact, None);
        assert!(t.probe(5, 0).is_none());
        assert_eq!(t.capacity(), 0);
    }

    #[test]
    fn buckets_keep_deep_entries() {
        let t = AtomicTable::new(1);
        let n = t.buckets as u64;
        let keys: Vec<u64> = (1..=5).map(|i| ((i * n) << 32) | (i * n)).collect();
        for (d, &k) in keys.iter().take(4).enumerate() {
            t.store(k, 0, 4 * (d as i32 + 1), 0, Bound::Exact, None);
        }
        t.store(keys[4], 0, 40, 0, Bound::Exact, None);
        assert!(t.probe(keys[0], 0).is_none(), "the shallowest entry is replaced");
        assert!(keys[1..].iter().all(|&k| t.probe(k, 0).is_some()));
    }
}
