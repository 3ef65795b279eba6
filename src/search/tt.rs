//! The transposition table: one table sized in MiB, buckets of [`BUCKET`] entries indexed by the Zobrist key.
//!
//! Each entry keeps the full 64-bit key (no false hits from index collisions), the value with its [`Bound`], the
//! draft (remaining depth) it was searched to, the best move, and the search generation. Replacement inside a bucket:
//! the same key first, then an empty slot, then the entry with the lowest `draft - 4 * age` (old, shallow entries go
//! first).
//!
//! Win and loss scores are stored relative to the node (`WIN_SCORE - plies from this node`) and converted back with
//! the ply of the probing node, so that a mate distance stays right whatever path reached the position.
//!
//! The table grows to its size as it fills: it starts at [`START_BYTES`] (or its size, if smaller) and doubles when
//! three quarters of its slots are used (or when a
//! new entry would evict another), up to the size asked for. So `tt=4gb` costs what the search stores, never more
//! than asked, and a doubling that the system refuses leaves the table at its size (an error is never an abort).

use crate::game::WIN_THRESHOLD;

/// Entries per bucket.
pub(crate) const BUCKET: usize = 4;

/// The size a table starts at before it grows (see the module documentation).
pub(crate) const START_BYTES: usize = 1 << 20;

/// What the stored value means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is the stored value.
    Exact,
    /// The true value is at least the stored value (the node failed high).
    Lower,
    /// The true value is at most the stored value (the node failed low).
    Upper,
}

/// One stored position.
#[derive(Copy, Clone, Debug)]
pub struct Entry<M: Copy> {
    pub key: u64,
    pub value: i32,
    pub(crate) draft: i16,
    pub bound: Bound,
    pub generation: u8,
    pub mv: Option<M>,
}

/// A fixed-size transposition table.
pub struct TranspositionTable<M: Copy> {
    buckets: Vec<[Option<Entry<M>>; BUCKET]>,
    mask: usize,
    generation: u8,
    /// The number of buckets the table may grow to.
    max_buckets: usize,
    /// Slots in use.
    filled: usize,
}

/// Convert a score to its stored form (wins relative to the node at `ply`).
#[inline]
pub(crate) fn to_tt(value: i32, ply: u32) -> i32 {
    if value >= WIN_THRESHOLD {
        value + ply as i32
    } else if value <= -WIN_THRESHOLD {
        value - ply as i32
    } else {
        value
    }
}

/// Convert a stored score back for a node at `ply`.
#[inline]
pub(crate) fn from_tt(value: i32, ply: u32) -> i32 {
    if value >= WIN_THRESHOLD {
        value - ply as i32
    } else if value <= -WIN_THRESHOLD {
        value + ply as i32
    } else {
        value
    }
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of at most `mib` MiB (rounded down to a power of two number of buckets; at least one bucket).
    pub fn new(mib: usize) -> Self {
        let bucket_bytes = std::mem::size_of::<[Option<Entry<M>>; BUCKET]>().max(1);
        let buckets_in = |bytes: usize| {
            let want = bytes / bucket_bytes;
            if want <= 1 { 1 } else { 1usize << (usize::BITS - 1 - want.leading_zeros()) }
        };
        let max_buckets = buckets_in(mib.clamp(1, crate::limits::MAX_TABLE_MIB) << 20);
        let n = max_buckets.min(buckets_in(START_BYTES));
        TranspositionTable { buckets: vec![[None; BUCKET]; n], mask: n - 1, generation: 0, max_buckets, filled: 0 }
    }

    /// Number of entries the table holds now (it grows up to the size it was given).
    pub fn capacity(&self) -> usize {
        self.buckets.len() * BUCKET
    }

    /// Number of entries the table may grow to.
    #[cfg(test)]
    pub(crate) fn max_capacity(&self) -> usize {
        self.max_buckets * BUCKET
    }

    /// Double the table, placing every entry again; when the system refuses the memory, stop growing.
    #[cold]
    fn grow(&mut self) {
        let n = self.buckets.len() * 2;
        let mut bigger: Vec<[Option<Entry<M>>; BUCKET]> = Vec::new();
        if bigger.try_reserve_exact(n).is_err() {
            self.max_buckets = self.buckets.len();
            return;
        }
        bigger.resize(n, [None; BUCKET]);
        let old = std::mem::replace(&mut self.buckets, bigger);
        self.mask = n - 1;
        for e in old.into_iter().flatten().flatten() {
            let idx = self.index(e.key);
            // A bucket splits in two: its entries always fit in their new buckets.
            if let Some(slot) = self.buckets[idx].iter_mut().find(|s| s.is_none()) {
                *slot = Some(e);
            }
        }
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = [None; BUCKET];
        }
        self.generation = 0;
        self.filled = 0;
    }

    /// Start a new search: entries of older searches become preferred victims.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // The high bits pick the bucket; the low bits are what games tend to vary first.
        ((key >> 32) ^ key) as usize & self.mask
    }

    /// Look a position up. The value is still in stored form: use [`from_tt`] with the node's ply.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let b = &self.buckets[self.index(key)];
        b.iter().flatten().find(|e| e.key == key).copied()
    }

    /// Store a search result for the node at `ply` (the value is converted with [`to_tt`]).
    #[inline]
    pub fn store(&mut self, key: u64, draft: i32, value: i32, bound: Bound, mv: Option<M>, ply: u32) {
        if self.filled * 4 >= self.buckets.len() * BUCKET * 3 && self.buckets.len() < self.max_buckets {
            self.grow();
        }
        // A growing table never evicts: while the key's bucket is full of other positions, grow first (a full-size
        // table keeps every entry a smaller one would; MT-SSS* relies on the table keeping its leaves).
        while self.buckets.len() < self.max_buckets
            && self.buckets[self.index(key)].iter().all(|s| matches!(s, Some(e) if e.key != key))
        {
            self.grow();
        }
        let generation = self.generation;
        let idx = self.index(key);
        let bucket = &mut self.buckets[idx];
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            match slot {
                Some(e) if e.key == key => {
                    victim = i;
                    break;
                }
                None => {
                    victim = i;
                    worst = i32::MIN;
                }
                Some(e) if worst != i32::MIN => {
                    let age = generation.wrapping_sub(e.generation) as i32;
                    let score = e.draft as i32 - 4 * age;
                    if score < worst {
                        worst = score;
                        victim = i;
                    }
                }
                Some(_) => {}
            }
        }
        // Keep the old best move when the new result has none.
        let mv = mv.or_else(|| bucket[victim].filter(|e| e.key == key).and_then(|e| e.mv));
        if bucket[victim].is_none() {
            self.filled += 1;
        }
        bucket[victim] = Some(Entry {
            key,
            value: to_tt(value, ply),
            draft: draft.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            bound,
            generation,
            mv,
        });
    }

    /// Permille of the first 1000 buckets' slots used by the current search (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(1000);
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| b.iter().flatten().filter(|e| e.generation == self.generation).count())
            .sum();
        (used * 1000 / (n * BUCKET)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::WIN_SCORE;

    #[test]
    fn store_and_probe() {
        let mut tt: TranspositionTable<u16> = TranspositionTable::new(1);
        assert!(tt.probe(42).is_none());
        tt.store(42, 3, 17, Bound::Exact, Some(7), 0);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.value, e.draft, e.bound, e.mv), (17, 3, Bound::Exact, Some(7)));
        // Overwrite with a result that has no move: the old move stays.
        tt.store(42, 5, -3, Bound::Upper, None, 0);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.value, e.draft, e.bound, e.mv), (-3, 5, Bound::Upper, Some(7)));
    }

    #[test]
    fn win_scores_are_node_relative() {
        let mut tt: TranspositionTable<u8> = TranspositionTable::new(1);
        // At ply 3, a win in 5 plies from the root (2 from the node) scores WIN_SCORE - 5.
        tt.store(9, 4, WIN_SCORE - 5, Bound::Exact, None, 3);
        let e = tt.probe(9).unwrap();
        assert_eq!(e.value, WIN_SCORE - 2);
        // Probed at ply 7 by another path: win in 9 from that root.
        assert_eq!(from_tt(e.value, 7), WIN_SCORE - 9);
        assert_eq!(from_tt(to_tt(-WIN_SCORE + 6, 2), 2), -WIN_SCORE + 6);
    }

    #[test]
    fn buckets_replace_shallow_old_entries() {
        let mut tt: TranspositionTable<u8> = TranspositionTable::new(1);
        let n = tt.buckets.len() as u64;
        // Five keys mapping to bucket 0 (low 32 bits and high 32 bits chosen so the index is 0).
        let keys: Vec<u64> = (1..=5).map(|i| (i * n) << 32 | (i * n)).collect();
        for (d, &k) in keys.iter().take(4).enumerate() {
            tt.store(k, d as i32 + 1, 0, Bound::Exact, None, 0);
        }
        tt.store(keys[4], 10, 0, Bound::Exact, None, 0);
        assert!(tt.probe(keys[0]).is_none(), "the shallowest entry is the victim");
        assert!(keys[1..].iter().all(|&k| tt.probe(k).is_some()));
        assert!(tt.capacity() >= BUCKET);
    }

    #[test]
    fn a_large_table_grows_as_it_fills_and_keeps_its_entries() {
        let mut tt: TranspositionTable<u32> = TranspositionTable::new(64);
        let start = tt.capacity();
        assert!(start * 4 <= tt.max_capacity(), "64 MiB starts small: {start} of {}", tt.max_capacity());
        let keys: Vec<u64> = (1..=start as u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        for &k in &keys {
            tt.store(k, 1, k as i32, Bound::Exact, Some(k as u32), 0);
        }
        assert!(tt.capacity() > start, "the table grew");
        let kept = keys.iter().filter(|&&k| tt.probe(k).is_some_and(|e| e.mv == Some(k as u32))).count();
        assert!(kept * 10 >= keys.len() * 8, "{kept} of {} kept", keys.len());
    }
}
