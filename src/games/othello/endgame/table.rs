//! The endgame solver's table: exact positions (both bitboards) with bounds on their value and a best move, in
//! buckets of two slots (the position with the most empties kept, the latest stored beside it), in memory or in a
//! file mapped into memory (`plateau solve othello --table FILE`), so that a long solve goes on across runs.
//!
//! ```text
//! file: "PLOTHTT1"               magic, 8 bytes
//!       u32 size                 the board side (4, 6 or 8): a table serves one board size
//!       u32 slot bytes (24)
//!       u64 slots                a power of two
//!       40 bytes of zeros        header of 64 bytes in all
//!       slots x (u64 own, u64 opp, i8 lower, i8 upper, u8 best, u8 empties, u32 check)   native byte order
//! ```
//!
//! Every entry is a proven bound of an exact position, true whatever position was being solved, so a file serves any
//! later solve on the same board size. The mapping is shared: what a run stores is in the file even when the process is
//! killed (the system writes the pages back). A slot caught half written by a kill (or a crash between pages) is
//! never read: `check` mixes the position's hash with the slot's fields, and a slot whose check does not match is
//! ignored. The file is locked while a solve uses it.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

use memmap2::MmapMut;

const MAGIC: &[u8; 8] = b"PLOTHTT1";
const HEADER: usize = 64;

/// One entry. All bit patterns are valid values (the file is read in place).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub(super) struct Slot {
    pub own: u64,
    pub opp: u64,
    pub lower: i8,
    pub upper: i8,
    pub best: u8,
    /// Empty squares of the position (the deeper search is kept when two positions share a bucket).
    pub empties: u8,
    /// The position's hash mixed with the four fields above: a torn slot does not match.
    check: u32,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();
const _: () = assert!(SLOT_BYTES == 24 && HEADER.is_multiple_of(std::mem::align_of::<Slot>()));

// SAFETY: `Slot` is integers only (no padding: 8 + 8 + 4 + 4 bytes), so zeroed memory is a valid (empty) slot.
unsafe impl crate::limits::Zeroable for Slot {}

#[inline]
fn hash(own: u64, opp: u64) -> u64 {
    (own.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ opp.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29))
        .wrapping_mul(0x1656_67B1_9E37_79F9)
}

#[inline]
fn check(h: u64, lower: i8, upper: i8, best: u8, empties: u8) -> u32 {
    h as u32 ^ u32::from_le_bytes([lower as u8, upper as u8, best, empties]).wrapping_mul(0x9E37_79B1)
}

impl Slot {
    pub fn new(own: u64, opp: u64, lower: i8, upper: i8, best: u8, empties: u8) -> Slot {
        let c = check(hash(own, opp), lower, upper, best, empties);
        Slot { own, opp, lower, upper, best, empties, check: c }
    }
}

enum Storage {
    Memory(Vec<Slot>),
    /// The mapping and the locked file (the lock lasts as long as the file is open).
    File(MmapMut, #[allow(dead_code)] File),
}

/// The table (possibly empty: a solver without table).
pub(super) struct Table {
    storage: Storage,
    /// Slots - 1 (slots a power of two), 0 for no table.
    mask: usize,
}

impl Table {
    /// No table.
    pub fn none() -> Table {
        Table { storage: Storage::Memory(Vec::new()), mask: 0 }
    }

    /// A table in memory of about `mib` MiB (a power of two of slots), zeroed lazily.
    pub fn memory(mib: usize) -> Table {
        let slots = (mib.max(1) << 20) / SLOT_BYTES;
        let slots = 1usize << (usize::BITS - 1 - slots.leading_zeros());
        let v: Vec<Slot> = crate::limits::lazy_table(slots, 2);
        Table { mask: v.len() - 1, storage: Storage::Memory(v) }
    }

    /// The table of `path` for boards of side `size`: opened when the file exists (its own size), otherwise created
    /// with about `mib` MiB. Errors are one line.
    pub fn file(path: &Path, size: u32, mib: usize) -> Result<Table, String> {
        let name = path.display();
        let exists = path.exists();
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(!exists)
            .truncate(false)
            .open(path)
            .map_err(|e| format!("table {name}: {e}"))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(format!("table {name}: in use by another solve")),
            Err(TryLockError::Error(e)) => return Err(format!("table {name}: cannot lock it: {e}")),
        }
        let slots = if exists {
            read_header(&file, size).map_err(|e| format!("table {name}: {e}"))?
        } else {
            let slots = (mib.max(1) << 20) / SLOT_BYTES;
            let slots = 1u64 << (u64::BITS - 1 - (slots as u64).leading_zeros());
            let bytes = HEADER as u64 + slots * SLOT_BYTES as u64;
            crate::limits::check_bytes(&format!("table {name}"), bytes)?;
            file.set_len(bytes).map_err(|e| format!("table {name}: {e}"))?;
            write_header(&file, size, slots).map_err(|e| format!("table {name}: {e}"))?;
            slots
        };
        // SAFETY: the file is locked against other solves; a process that changes it anyway can only make entries
        // wrong, not memory unsafe (every bit pattern is a valid slot, and the length was checked).
        let map = unsafe { MmapMut::map_mut(&file) }.map_err(|e| format!("table {name}: cannot map it: {e}"))?;
        Ok(Table { storage: Storage::File(map, file), mask: slots as usize - 1 })
    }

    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }

    /// Whether the table is a file (kept from run to run).
    pub fn is_file(&self) -> bool {
        matches!(self.storage, Storage::File(..))
    }

    #[inline]
    fn slots(&self) -> &[Slot] {
        match &self.storage {
            Storage::Memory(v) => v,
            // SAFETY: the mapping is page-aligned and holds the header then `mask + 1` slots (checked when opened);
            // the header's length keeps the slots aligned; every bit pattern is a valid slot.
            Storage::File(m, _) => unsafe {
                std::slice::from_raw_parts(m.as_ptr().add(HEADER) as *const Slot, self.mask + 1)
            },
        }
    }

    #[inline]
    fn slots_mut(&mut self) -> &mut [Slot] {
        let n = self.mask + 1;
        match &mut self.storage {
            Storage::Memory(v) => v,
            // SAFETY: as in `slots`, and the mapping is borrowed mutably.
            Storage::File(m, _) => unsafe {
                std::slice::from_raw_parts_mut(m.as_mut_ptr().add(HEADER) as *mut Slot, n)
            },
        }
    }

    /// The entry of this exact position, if any.
    #[inline]
    pub fn probe(&self, own: u64, opp: u64) -> Option<Slot> {
        let h = hash(own, opp);
        let i = (h >> 32) as usize & self.mask & !1;
        self.slots()[i..i + 2]
            .iter()
            .find(|e| e.own == own && e.opp == opp && e.check == check(h, e.lower, e.upper, e.best, e.empties))
            .copied()
    }

    /// Stores `e`: over the same position, or in the bucket's first slot when it has at least as many empties as the
    /// entry there, otherwise in the second slot.
    #[inline]
    pub fn store(&mut self, e: Slot) {
        let i = (hash(e.own, e.opp) >> 32) as usize & self.mask & !1;
        let bucket = &mut self.slots_mut()[i..i + 2];
        if e.empties >= bucket[0].empties || (bucket[0].own == e.own && bucket[0].opp == e.opp) {
            bucket[0] = e;
        } else {
            bucket[1] = e;
        }
    }

    /// Forget every entry (a table in memory only: a file keeps what it holds).
    pub fn clear(&mut self) {
        if let Storage::Memory(v) = &mut self.storage {
            v.iter_mut().for_each(|s| *s = Slot::default());
        }
    }

    /// Write the file's pages to disk (nothing for a table in memory).
    pub fn flush(&self) -> Result<(), String> {
        match &self.storage {
            Storage::File(m, _) => m.flush().map_err(|e| format!("table: cannot write it: {e}")),
            Storage::Memory(_) => Ok(()),
        }
    }
}

fn write_header(mut file: &File, size: u32, slots: u64) -> std::io::Result<()> {
    use std::io::Write;
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&size.to_le_bytes());
    h[12..16].copy_from_slice(&(SLOT_BYTES as u32).to_le_bytes());
    h[16..24].copy_from_slice(&slots.to_le_bytes());
    file.write_all(&h)?;
    file.sync_all()
}

/// The slot count of an existing table file, after checking that it is one, for this board size.
fn read_header(mut file: &File, size: u32) -> Result<u64, String> {
    use std::io::Read;
    let mut h = [0u8; HEADER];
    file.read_exact(&mut h).map_err(|_| "not an Othello endgame table (too short)".to_string())?;
    if &h[..8] != MAGIC {
        return Err("not an Othello endgame table (wrong magic)".into());
    }
    let word = |r: std::ops::Range<usize>| h[r].iter().rev().fold(0u64, |a, &b| a << 8 | b as u64);
    let (file_size, slot_bytes, slots) = (word(8..12) as u32, word(12..16) as usize, word(16..24));
    if file_size != size {
        return Err(format!("a table of the {file_size}x{file_size} board, not of the {size}x{size} one"));
    }
    if slot_bytes != SLOT_BYTES || !slots.is_power_of_two() || slots < 2 {
        return Err("written by another version of the solver (slot layout differs)".into());
    }
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    if len != HEADER as u64 + slots * SLOT_BYTES as u64 {
        return Err(format!("truncated or damaged: {len} bytes for {slots} slots"));
    }
    Ok(slots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_slot_is_never_read() {
        let mut t = Table::memory(1);
        let e = Slot::new(0x0000_0010_0800_0000, 0x0000_0008_1000_0000, -4, 6, 19, 60);
        t.store(e);
        assert!(t.probe(e.own, e.opp).is_some_and(|s| s.lower == -4 && s.upper == 6 && s.best == 19));
        assert!(t.probe(e.own, e.opp ^ 1).is_none());
        // A slot whose bounds were overwritten without its check (a write cut short) is ignored.
        let i = t.slots().iter().position(|s| s.own == e.own).unwrap();
        t.slots_mut()[i].upper = 8;
        assert!(t.probe(e.own, e.opp).is_none());
    }

    #[test]
    fn a_file_keeps_its_entries_and_refuses_another_board_or_a_second_user() {
        let dir = std::env::temp_dir().join(format!("plateau-othello-tt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.tt");
        let _ = std::fs::remove_file(&path);
        let e = Slot::new(0x0000_0010_0800_0000, 0x0000_0008_1000_0000, 2, 2, 37, 60);
        {
            let mut t = Table::file(&path, 8, 1).unwrap();
            assert!(t.is_file() && !t.is_empty());
            t.store(e);
            let busy = Table::file(&path, 8, 1).err().unwrap();
            assert!(busy.contains("in use by another solve"), "{busy}");
            t.flush().unwrap();
        }
        let t = Table::file(&path, 8, 64).unwrap();
        // Its own size (1 MiB: 32,768 slots of 24 bytes), not the 64 MiB asked.
        assert_eq!(t.mask + 1, 32768);
        assert!(t.probe(e.own, e.opp).is_some_and(|s| s.lower == 2 && s.upper == 2 && s.best == 37));
        drop(t);
        let other = Table::file(&path, 6, 1).err().unwrap();
        assert!(other.contains("not of the 6x6 one"), "{other}");
        std::fs::write(&path, b"PLOTHTT1 but far too short for a header").unwrap();
        assert!(Table::file(&path, 8, 1).err().unwrap().contains("too short"));
        std::fs::write(&path, [7u8; 100]).unwrap();
        assert!(Table::file(&path, 8, 1).err().unwrap().contains("wrong magic"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
