//! One table of an endgame database built by retrograde analysis, in memory or on disk: the checkers databases' table
//! of a material signature ([`crate::games::checkers::db`]) and the Oware databases' level of a seed count
//! ([`crate::games::oware::db`]), one value of fixed size per index.
//!
//! ```text
//! file:  head (the database's magic, version and what names this table: its own bytes, given by the caller)
//!        u64 checksum: FNV-1a (64 bits) of the head, then of the values' bytes
//!        the values, little-endian, count x Entry::BYTES
//! save(path, what, head, values)     written by files::write_atomic: a complete file or none (an interrupted build
//!                                    resumes at the first table missing)
//! open(path, check)                  None when there is no file; else mapped, and `check` (the database's own
//!                                    messages over [`check`]: head, length, checksum) must pass; an error is one
//!                                    line naming the file
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use memmap2::Mmap;

/// A value a table holds: fixed size, little-endian on disk.
pub trait Entry: Copy {
    const BYTES: usize;
    /// The value from its `BYTES` first bytes.
    fn read(bytes: &[u8]) -> Self;
    fn write(self, out: &mut Vec<u8>);
}

impl Entry for u16 {
    const BYTES: usize = 2;
    #[inline]
    fn read(bytes: &[u8]) -> u16 {
        u16::from_le_bytes([bytes[0], bytes[1]])
    }
    fn write(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

impl Entry for i8 {
    const BYTES: usize = 1;
    #[inline]
    fn read(bytes: &[u8]) -> i8 {
        bytes[0] as i8
    }
    fn write(self, out: &mut Vec<u8>) {
        out.push(self as u8);
    }
}

/// One table's values: built in memory (no database directory), or its file mapped (`at`: where the values start).
pub(crate) enum ValueTable<T> {
    Mem(Vec<T>),
    Map { map: Mmap, at: usize },
}

impl<T: Entry> ValueTable<T> {
    /// The value at index `i`.
    #[inline]
    pub fn get(&self, i: u64) -> T {
        match self {
            ValueTable::Mem(v) => v[i as usize],
            ValueTable::Map { map, at } => T::read(&map[at + T::BYTES * i as usize..]),
        }
    }

    /// Write `values` to `path` after `head` and the checksum (`what` names the file in errors).
    pub fn save(path: &Path, what: &str, head: &[u8], values: &[T]) -> Result<(), String> {
        let mut bytes = Vec::with_capacity(values.len() * T::BYTES);
        for &v in values {
            v.write(&mut bytes);
        }
        crate::files::write_atomic(path, what, |file| {
            let mut w = BufWriter::with_capacity(1 << 20, file);
            w.write_all(head)?;
            w.write_all(&checksum(&[head, &bytes]).to_le_bytes())?;
            w.write_all(&bytes)?;
            w.flush()
        })
    }

    /// The table of `path` (its values after a head of `head_len` bytes and the checksum), `None` when there is no
    /// such file; an error (`PATH: why`) when it exists but `check` refuses its bytes.
    pub fn open(
        path: &Path,
        head_len: usize,
        check: impl FnOnce(&[u8]) -> Result<(), String>,
    ) -> Result<Option<ValueTable<T>>, String> {
        let err = |e: String| format!("{}: {e}", path.display());
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(err(e.to_string())),
        };
        // SAFETY: read-only private map; plateau never writes a table in place (it renames a complete file over it).
        let map = unsafe { Mmap::map(&file) }.map_err(|e| err(e.to_string()))?;
        check(&map).map_err(err)?;
        Ok(Some(ValueTable::Map { map, at: head_len + 8 }))
    }
}

/// What is wrong with a table's bytes ([`check`]); the database says it in its own words.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Flaw {
    /// Shorter than the head and checksum, or another head (another table, version or database).
    Header,
    /// Not `want` bytes long (truncated, or more than the table).
    Length { len: u64, want: u64 },
    /// The checksum does not match the head and the values.
    Checksum,
}

/// Whether `bytes` is the file of the table of `head` with `count` values of `T`: head, length, checksum.
pub fn check<T: Entry>(bytes: &[u8], head: &[u8], count: u64) -> Result<(), Flaw> {
    let at = head.len() + 8;
    if bytes.len() < at || bytes[..head.len()] != *head {
        return Err(Flaw::Header);
    }
    let want = at as u64 + T::BYTES as u64 * count;
    if bytes.len() as u64 != want {
        return Err(Flaw::Length { len: bytes.len() as u64, want });
    }
    let stored = u64::from_le_bytes(bytes[head.len()..at].try_into().expect("8 bytes"));
    if checksum(&[head, &bytes[at..]]) != stored {
        return Err(Flaw::Checksum);
    }
    Ok(())
}

/// FNV-1a (64 bits) of the parts, one after the other.
pub fn checksum(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_tables_read_back_and_damage_is_named() {
        let dir = std::env::temp_dir().join(format!("plateau-value-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.db");
        let head = b"PLTTEST\0head";
        let values: Vec<u16> = vec![0, 1, 0xBEEF, 7];
        assert!(ValueTable::<u16>::open(&path, head.len(), |_| Ok(())).unwrap().is_none(), "no file: None");
        ValueTable::save(&path, "test table", head, &values).unwrap();
        let good = std::fs::read(&path).unwrap();
        assert_eq!(check::<u16>(&good, head, 4), Ok(()));
        let t = ValueTable::<u16>::open(&path, head.len(), |b| check::<u16>(b, head, 4).map_err(|f| format!("{f:?}")))
            .unwrap()
            .expect("the file");
        assert_eq!((0..4).map(|i| t.get(i)).collect::<Vec<_>>(), values);
        let mut bad = good.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert_eq!(check::<u16>(&bad, head, 4), Err(Flaw::Checksum));
        assert_eq!(check::<u16>(&good[..good.len() - 1], head, 4), Err(Flaw::Length { len: 27, want: 28 }));
        assert_eq!(check::<u16>(&good, b"PLTTEST\0heae", 4), Err(Flaw::Header));
        assert_eq!(check::<u16>(&good[..10], head, 4), Err(Flaw::Header));
        std::fs::write(&path, &bad).unwrap();
        let e = ValueTable::<u16>::open(&path, head.len(), |b| check::<u16>(b, head, 4).map_err(|f| format!("{f:?}")))
            .err()
            .expect("refused");
        assert!(e.contains("t.db") && e.contains("Checksum") && !e.contains('\n'), "{e}");
        let small: Vec<i8> = vec![-3, 0, 127, -128];
        ValueTable::save(&path, "test table", head, &small).unwrap();
        let t = ValueTable::<i8>::open(&path, head.len(), |b| check::<i8>(b, head, 4).map_err(|f| format!("{f:?}")))
            .unwrap()
            .expect("the file");
        assert_eq!((0..4).map(|i| t.get(i)).collect::<Vec<_>>(), small);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
