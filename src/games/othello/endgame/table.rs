//! The endgame solver's table: exact positions (both bitboards) with bounds on their value and a best move, in
//! buckets of two slots (the position with the most empties kept, the latest stored beside it), in memory, and
//! optionally kept in a file from run to run (`plateau solve othello --table FILE`), so that a long solve goes on
//! across runs.
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
//! later solve on the same board size. The file is read whole at the start and written back in place when the solve
//! ends or stops, and every `save_every` during it: a killed process keeps the last save. A table written in place
//! and cut by a kill mixes old and new slots, each of them a proven bound; a slot cut in the middle is never read:
//! `check` mixes the position's hash with the slot's fields, and a slot whose check does not match is ignored. The
//! file is locked while a solve uses it.
//!
//! (A table mapped from the file would need no load or save, but the system writes back the pages a search dirties
//! all over the table: some 150 MB a second for a 2 GiB table, measured, against one write of the table per save.)

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::{Duration, Instant};

const MAGIC: &[u8; 8] = b"PLOTHTT1";
const HEADER: usize = 64;

/// One entry. All bit patterns are valid values (the file is read into the table as bytes).
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
const _: () = assert!(SLOT_BYTES == 24);

// SAFETY: `Slot` is integers only (no padding: 8 + 8 + 4 + 4 bytes), so zeroed memory is a valid (empty) slot.
unsafe impl crate::limits::Zeroable for Slot {}

/// The slots as bytes (to write them).
fn bytes(slots: &[Slot]) -> &[u8] {
    // SAFETY: `Slot` is `repr(C)` integers without padding, so its memory is initialised bytes.
    unsafe { std::slice::from_raw_parts(slots.as_ptr() as *const u8, std::mem::size_of_val(slots)) }
}

/// The slots as bytes (to read them).
fn bytes_mut(slots: &mut [Slot]) -> &mut [u8] {
    // SAFETY: as in `bytes`, and every bit pattern is a valid `Slot`.
    unsafe { std::slice::from_raw_parts_mut(slots.as_mut_ptr() as *mut u8, std::mem::size_of_val(slots)) }
}

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

/// The file behind a table: open and locked (the lock lasts as long as the file is open).
struct Backing {
    file: File,
    name: String,
    every: Option<Duration>,
    saved: Instant,
}

/// The table (possibly empty: a solver without table).
pub(super) struct Table {
    slots: Vec<Slot>,
    /// Slots - 1 (slots a power of two), 0 for no table.
    mask: usize,
    backing: Option<Backing>,
}

/// A power of two of slots in about `mib` MiB.
fn slots_in(mib: usize) -> usize {
    let slots = (mib.max(1) << 20) / SLOT_BYTES;
    1usize << (usize::BITS - 1 - slots.leading_zeros())
}

impl Table {
    /// No table.
    pub fn none() -> Table {
        Table { slots: Vec::new(), mask: 0, backing: None }
    }

    /// A table in memory of about `mib` MiB (a power of two of slots), zeroed lazily.
    pub fn memory(mib: usize) -> Table {
        let v: Vec<Slot> = crate::limits::lazy_table(slots_in(mib), 2);
        Table { mask: v.len() - 1, slots: v, backing: None }
    }

    /// The table kept in `path` for boards of side `size`: read from the file when it exists (its own size),
    /// otherwise created with about `mib` MiB; saved every `every` during a solve (and always at its end). Errors
    /// are one line.
    pub fn file(path: &Path, size: u32, mib: usize, every: Option<Duration>) -> Result<Table, String> {
        let name = path.display().to_string();
        // Written in place (by design, see above), and only a regular file: a symbolic link, a device, a directory
        // are refused before anything is opened.
        crate::files::check_output(path, "table")?;
        let exists = path.exists();
        let mut file = OpenOptions::new()
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
        let io = |e: std::io::Error| format!("table {name}: {e}");
        let slots = if exists {
            let n = read_header(&mut file, size).map_err(|e| format!("table {name}: {e}"))?;
            let mut v: Vec<Slot> = crate::limits::zeroed_vec(&format!("table {name}"), n as usize)?;
            file.read_exact(bytes_mut(&mut v)).map_err(io)?;
            v
        } else {
            let v: Vec<Slot> = crate::limits::zeroed_vec(&format!("table {name}"), slots_in(mib))?;
            write_header(&mut file, size, v.len() as u64).map_err(io)?;
            file.set_len((HEADER + v.len() * SLOT_BYTES) as u64).map_err(io)?;
            v
        };
        let backing = Backing { file, name, every, saved: Instant::now() };
        Ok(Table { mask: slots.len() - 1, slots, backing: Some(backing) })
    }

    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }

    /// Whether periodic saves are due at all (the solver then looks at the clock).
    pub(crate) fn saves_periodically(&self) -> bool {
        self.backing.as_ref().is_some_and(|b| b.every.is_some())
    }

    /// The entry of this exact position, if any.
    #[inline]
    pub fn probe(&self, own: u64, opp: u64) -> Option<Slot> {
        let h = hash(own, opp);
        let i = (h >> 32) as usize & self.mask & !1;
        self.slots[i..i + 2]
            .iter()
            .find(|e| e.own == own && e.opp == opp && e.check == check(h, e.lower, e.upper, e.best, e.empties))
            .copied()
    }

    /// Stores `e`: over the same position, or in the bucket's first slot when it has at least as many empties as the
    /// entry there, otherwise in the second slot.
    #[inline]
    pub fn store(&mut self, e: Slot) {
        let i = (hash(e.own, e.opp) >> 32) as usize & self.mask & !1;
        let bucket = &mut self.slots[i..i + 2];
        if e.empties >= bucket[0].empties || (bucket[0].own == e.own && bucket[0].opp == e.opp) {
            bucket[0] = e;
        } else {
            bucket[1] = e;
        }
    }

    /// Forget every entry (a table in memory only: a file's table keeps what it holds).
    pub fn clear(&mut self) {
        if self.backing.is_none() {
            self.slots.iter_mut().for_each(|s| *s = Slot::default());
        }
    }

    /// Write the table to its file (nothing without one), in place, and sync it.
    pub fn save(&mut self) -> Result<(), String> {
        let Some(b) = self.backing.as_mut() else { return Ok(()) };
        let write = |f: &mut File| {
            f.seek(SeekFrom::Start(HEADER as u64))?;
            f.write_all(bytes(&self.slots))?;
            f.sync_data()
        };
        write(&mut b.file).map_err(|e| format!("table {}: cannot write it: {e}", b.name))?;
        b.saved = Instant::now();
        Ok(())
    }

    /// [`Self::save`] when the last one is older than the save period.
    pub(crate) fn save_if_due(&mut self) -> Result<(), String> {
        match &self.backing {
            Some(b) if b.every.is_some_and(|e| b.saved.elapsed() >= e) => self.save(),
            _ => Ok(()),
        }
    }
}

fn write_header(file: &mut File, size: u32, slots: u64) -> std::io::Result<()> {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&size.to_le_bytes());
    h[12..16].copy_from_slice(&(SLOT_BYTES as u32).to_le_bytes());
    h[16..24].copy_from_slice(&slots.to_le_bytes());
    file.write_all(&h)
}

/// The slot count of an existing table file, after checking that it is one, for this board size.
fn read_header(file: &mut File, size: u32) -> Result<u64, String> {
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
    if slots.checked_mul(SLOT_BYTES as u64).and_then(|b| b.checked_add(HEADER as u64)) != Some(len) {
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
        let i = t.slots.iter().position(|s| s.own == e.own).unwrap();
        t.slots[i].upper = 8;
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
            let mut t = Table::file(&path, 8, 1, None).unwrap();
            assert!(t.backing.is_some() && !t.is_empty());
            t.store(e);
            let busy = Table::file(&path, 8, 1, None).err().unwrap();
            assert!(busy.contains("in use by another solve"), "{busy}");
            t.save().unwrap();
        }
        let t = Table::file(&path, 8, 64, None).unwrap();
        // Its own size (1 MiB: 32,768 slots of 24 bytes), not the 64 MiB asked.
        assert_eq!(t.mask + 1, 32768);
        assert!(t.probe(e.own, e.opp).is_some_and(|s| s.lower == 2 && s.upper == 2 && s.best == 37));
        drop(t);
        let other = Table::file(&path, 6, 1, None).err().unwrap();
        assert!(other.contains("not of the 6x6 one"), "{other}");
        std::fs::write(&path, b"PLOTHTT1 but far too short for a header").unwrap();
        assert!(Table::file(&path, 8, 1, None).err().unwrap().contains("too short"));
        std::fs::write(&path, [7u8; 100]).unwrap();
        assert!(Table::file(&path, 8, 1, None).err().unwrap().contains("wrong magic"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
