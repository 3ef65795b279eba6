//! The proof-number table of the threat df-pn: buckets of four entries keyed by [`Game::symmetry_key`], saved to a
//! `--table` file and read back ([`crate::solve::table_file`]'s format), so that a long solve goes on across runs.
//!
//! [`Game::symmetry_key`]: crate::game::Game::symmetry_key

use std::path::Path;

use crate::solve::table_file::{self, Header, Record};

#[derive(Copy, Clone, Default)]
pub(super) struct Slot {
    key: u64,
    pn: u32,
    dn: u32,
    work: u32,
}

// SAFETY: integers only; all zeros is the empty slot (`Slot::default()`).
unsafe impl crate::limits::Zeroable for Slot {}

const WAYS: usize = 4;

/// `2^k` buckets of four slots; an empty slot has pn = dn = 0 (no stored value has both).
pub(super) struct Table {
    slots: Vec<Slot>,
    mask: usize,
}

impl Table {
    /// A table of at most `mib` MiB (zeroed lazily: pages are backed as they are written).
    pub fn new(mib: usize) -> Table {
        let slots = (mib.max(1) << 20) / std::mem::size_of::<Slot>();
        let buckets = ((slots / WAYS).max(2).next_power_of_two() / 2).max(1);
        let slots = crate::limits::lazy_table(buckets * WAYS, WAYS);
        Table { mask: slots.len() / WAYS - 1, slots }
    }

    pub fn buckets(&self) -> u64 {
        (self.mask + 1) as u64
    }

    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * WAYS
    }

    /// Start loading the key's bucket into the cache (96 bytes: two cache lines), so that the `get` issued a little
    /// later (the next children's keys computed in between) waits for memory less.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let first = self.slots.as_ptr().wrapping_add(self.bucket(key));
        crate::limits::prefetch(first);
        crate::limits::prefetch(first.wrapping_add(WAYS).cast::<u8>().wrapping_sub(1));
    }

    pub fn get(&self, key: u64) -> Option<(u32, u32)> {
        let b = self.bucket(key);
        self.slots[b..b + WAYS].iter().find(|s| s.key == key && (s.pn, s.dn) != (0, 0)).map(|s| (s.pn, s.dn))
    }

    /// Store, replacing the same key, else an empty slot, else the slot with the least work (a proven or disproven
    /// entry is kept like the others, by its work).
    pub(crate) fn put(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        let b = self.bucket(key);
        let bucket = &mut self.slots[b..b + WAYS];
        let i = bucket
            .iter()
            .position(|s| s.key == key)
            .or_else(|| bucket.iter().position(|s| (s.pn, s.dn) == (0, 0)))
            .unwrap_or_else(|| (0..WAYS).min_by_key(|&i| bucket[i].work).unwrap_or(0));
        let work = work.min(u32::MAX as u64) as u32;
        bucket[i] = Slot { key, pn, dn, work };
    }

    /// Entries in use.
    pub fn used(&self) -> u64 {
        self.slots.iter().filter(|s| (s.pn, s.dn) != (0, 0)).count() as u64
    }

    /// Save to `path` (atomically); the entries written.
    pub fn save(&self, path: &Path, header: &Header) -> Result<u64, String> {
        let header = Header { buckets: self.buckets(), ..header.clone() };
        table_file::write(path, &header, |i, out| {
            let b = i as usize * WAYS;
            for s in &self.slots[b..b + WAYS] {
                if (s.pn, s.dn) != (0, 0) {
                    out.push(Record { key: s.key, pn: s.pn, dn: s.dn, work: s.work });
                }
            }
        })
    }

    /// Read the entries of the table file at `path` written for `header` (its game and key scheme); the file's header
    /// (with the expansions behind it). On an error the table is left empty.
    pub fn load(&mut self, path: &Path, header: &Header) -> Result<Header, String> {
        let r = table_file::read(path, header, |_, rec| self.put(rec.key, rec.pn, rec.dn, rec.work as u64));
        if r.is_err() {
            self.slots.iter_mut().for_each(|s| *s = Slot::default());
        }
        r
    }
}
