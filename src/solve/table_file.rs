//! A proof-number table on disk: the df-pn table of a long solve saved when it stops and read back by the next run,
//! so that work accumulates over several runs (`plateau solve BREAKTHROUGH --table FILE`).
//!
//! ```text
//! "PLDFPNT1"                                  magic, 8 bytes
//! u32 n, n bytes                              the game string (e.g. breakthrough(rows=6,columns=5))
//! u8                                          1 when keys are shared with the mirror image (symmetry), else 0
//! u64                                         key fingerprint: the table key of the game's start position
//! u64                                         buckets of the table that wrote the file
//! u64                                         df-pn expansions behind the table (all runs so far)
//! per bucket: u8 count (0..=4), count x (u64 key, u32 pn, u32 dn, u32 work)
//! "PLDFPEND", u64 entries, u64 checksum       trailer
//! ```
//! Little-endian throughout. The file is written to a new temporary file beside `FILE` and renamed over `FILE` only
//! when complete and synced ([`crate::files::write_atomic`]), so an interrupted save leaves the previous file intact. Reading checks the magic, the game, the key scheme (symmetry
//! and fingerprint), the bucket counts and the checksum, and says which one is wrong.

use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind, Read, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"PLDFPNT1";
const END: &[u8; 8] = b"PLDFPEND";

/// What a table file is for; a file is read only into a table with the same header (apart from `buckets` and
/// `nodes`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub game: String,
    pub symmetry: bool,
    pub fingerprint: u64,
    pub buckets: u64,
    pub nodes: u64,
}

/// One table entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub key: u64,
    pub pn: u32,
    pub dn: u32,
    pub work: u32,
}

fn mix(acc: u64, r: &Record) -> u64 {
    let mut h = acc;
    for w in [r.key, (r.pn as u64) << 32 | r.dn as u64, r.work as u64] {
        h = (h ^ w).wrapping_mul(0x0000_0100_0000_01B3).rotate_left(17);
    }
    h
}

/// Writes `header` and the buckets (`bucket(i, out)` pushes bucket `i`'s entries, at most 4, onto the empty `out`) to
/// `path`, atomically. Returns the number of entries written; an error is one line.
pub fn write(path: &Path, header: &Header, bucket: impl FnMut(u64, &mut Vec<Record>)) -> Result<u64, String> {
    crate::files::write_atomic(path, "df-pn table", |file| write_to(file, header, bucket))
}

fn write_to(file: &mut File, header: &Header, mut bucket: impl FnMut(u64, &mut Vec<Record>)) -> std::io::Result<u64> {
    let mut w = BufWriter::with_capacity(1 << 22, file);
    w.write_all(MAGIC)?;
    w.write_all(&(header.game.len() as u32).to_le_bytes())?;
    w.write_all(header.game.as_bytes())?;
    w.write_all(&[header.symmetry as u8])?;
    for v in [header.fingerprint, header.buckets, header.nodes] {
        w.write_all(&v.to_le_bytes())?;
    }
    let (mut count, mut sum) = (0u64, 0u64);
    let mut entries = Vec::with_capacity(4);
    for i in 0..header.buckets {
        entries.clear();
        bucket(i, &mut entries);
        assert!(entries.len() <= 4, "a bucket holds at most four entries");
        w.write_all(&[entries.len() as u8])?;
        for r in &entries {
            w.write_all(&r.key.to_le_bytes())?;
            w.write_all(&r.pn.to_le_bytes())?;
            w.write_all(&r.dn.to_le_bytes())?;
            w.write_all(&r.work.to_le_bytes())?;
            sum = mix(sum, r);
        }
        count += entries.len() as u64;
    }
    w.write_all(END)?;
    w.write_all(&count.to_le_bytes())?;
    w.write_all(&sum.to_le_bytes())?;
    w.into_inner().map_err(|e| e.into_error())?;
    Ok(count)
}

fn read_exact(r: &mut impl Read, buf: &mut [u8]) -> Result<(), String> {
    r.read_exact(buf).map_err(|e| {
        if e.kind() == ErrorKind::UnexpectedEof { "the file is truncated".to_string() } else { e.to_string() }
    })
}

fn u64_le(r: &mut impl Read) -> Result<u64, String> {
    let mut b = [0u8; 8];
    read_exact(r, &mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn u32_le(r: &mut impl Read) -> Result<u32, String> {
    let mut b = [0u8; 4];
    read_exact(r, &mut b)?;
    Ok(u32::from_le_bytes(b))
}

/// The header of the table file at `path`, unchecked.
pub fn read_header(path: &Path) -> Result<Header, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    header(&mut BufReader::new(file))
}

fn header(r: &mut impl Read) -> Result<Header, String> {
    let mut magic = [0u8; 8];
    let start = read_exact(r, &mut magic);
    if start.is_err() || &magic != MAGIC {
        return Err("not a plateau df-pn table file".to_string());
    }
    let n = u32_le(r)? as usize;
    if n > 4096 {
        return Err("not a plateau df-pn table file (bad game string length)".to_string());
    }
    let mut game = vec![0u8; n];
    read_exact(r, &mut game)?;
    let game = String::from_utf8(game).map_err(|_| "the game string is not UTF-8".to_string())?;
    let mut flag = [0u8; 1];
    read_exact(r, &mut flag)?;
    Ok(Header { game, symmetry: flag[0] == 1, fingerprint: u64_le(r)?, buckets: u64_le(r)?, nodes: u64_le(r)? })
}

/// Reads the table file at `path`, which must have been written for `expected` (game, symmetry, fingerprint; its
/// bucket count may differ): every entry goes to `sink(bucket of the writer, record)`. Returns the file's header.
/// Nothing is given to `sink` when the header does not match; a damaged body is reported after its entries were
/// given, so the caller must discard them on an error.
pub fn read(path: &Path, expected: &Header, mut sink: impl FnMut(u64, Record)) -> Result<Header, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let mut r = BufReader::with_capacity(1 << 22, file);
    let header = header(&mut r)?;
    if header.game != expected.game {
        return Err(format!("the table is for {}, not {}", header.game, expected.game));
    }
    if header.symmetry != expected.symmetry {
        let word = |s: bool| if s { "with" } else { "without" };
        return Err(format!(
            "the table was written {} mirror symmetry, this solve runs {} it",
            word(header.symmetry),
            word(expected.symmetry)
        ));
    }
    if header.fingerprint != expected.fingerprint {
        return Err("the table's keys were computed differently (another version of the solver)".to_string());
    }
    let (mut count, mut sum) = (0u64, 0u64);
    let mut entry = [0u8; 20];
    let mut flag = [0u8; 1];
    let mut magic = [0u8; 8];
    for i in 0..header.buckets {
        read_exact(&mut r, &mut flag)?;
        if flag[0] > 4 {
            return Err(format!("damaged file: bucket {i} claims {} entries", flag[0]));
        }
        for _ in 0..flag[0] {
            read_exact(&mut r, &mut entry)?;
            let rec = Record {
                key: u64::from_le_bytes(entry[0..8].try_into().expect("8 bytes")),
                pn: u32::from_le_bytes(entry[8..12].try_into().expect("4 bytes")),
                dn: u32::from_le_bytes(entry[12..16].try_into().expect("4 bytes")),
                work: u32::from_le_bytes(entry[16..20].try_into().expect("4 bytes")),
            };
            sum = mix(sum, &rec);
            count += 1;
            sink(i, rec);
        }
    }
    read_exact(&mut r, &mut magic)?;
    if &magic != END {
        return Err("damaged file: no end marker after the last bucket".to_string());
    }
    if u64_le(&mut r)? != count || u64_le(&mut r)? != sum {
        return Err("damaged file: the entry count or checksum does not match".to_string());
    }
    if r.read(&mut flag).map_err(|e| e.to_string())? != 0 {
        return Err("damaged file: bytes after the end marker".to_string());
    }
    Ok(header)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header { game: "breakthrough(rows=5,columns=4)".into(), symmetry: true, fingerprint: 42, buckets: 3, nodes: 7 }
    }

    fn buckets() -> Vec<Vec<Record>> {
        vec![
            vec![Record { key: 1, pn: 0, dn: 1 << 30, work: 9 }],
            vec![],
            vec![Record { key: 5, pn: 3, dn: 4, work: 1 }, Record { key: 6, pn: 1 << 30, dn: 0, work: 2 }],
        ]
    }

    #[test]
    fn round_trip_and_every_refusal() {
        let dir = std::env::temp_dir().join(format!("plateau-table-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.dfpn");
        let b = buckets();
        assert_eq!(write(&path, &header(), |i, out| out.extend_from_slice(&b[i as usize])).unwrap(), 3);
        assert!(crate::files::temporaries_of(&path).is_empty());
        let mut got = vec![Vec::new(); 3];
        let h = read(&path, &header(), |i, r| got[i as usize].push(r)).unwrap();
        assert_eq!(h, header());
        assert_eq!(got, b);

        let refused = |expected: &Header, contains: &str| {
            let mut n = 0;
            let e = read(&path, expected, |_, _| n += 1).unwrap_err();
            assert!(e.contains(contains), "{e}");
            assert_eq!(n, 0, "entries given before a header error");
        };
        refused(&Header { game: "breakthrough(rows=6,columns=5)".into(), ..header() }, "the table is for");
        refused(&Header { symmetry: false, ..header() }, "mirror symmetry");
        refused(&Header { fingerprint: 43, ..header() }, "keys were computed differently");

        // Damage: a flipped byte in an entry (checksum), a cut file, a foreign file, a missing file.
        let bytes = std::fs::read(&path).unwrap();
        let entry_byte = 8 + 4 + header().game.len() + 1 + 24 + 1 + 3;
        let mut bad = bytes.clone();
        bad[entry_byte] ^= 0x10;
        std::fs::write(&path, &bad).unwrap();
        assert!(read(&path, &header(), |_, _| {}).unwrap_err().contains("checksum"));
        std::fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
        assert!(read(&path, &header(), |_, _| {}).unwrap_err().contains("truncated"));
        std::fs::write(&path, b"hello world, not a table").unwrap();
        assert!(read(&path, &header(), |_, _| {}).unwrap_err().contains("not a plateau df-pn table"));
        std::fs::write(&path, b"PLD").unwrap();
        assert!(read(&path, &header(), |_, _| {}).unwrap_err().contains("not a plateau df-pn table"));
        std::fs::remove_file(&path).unwrap();
        assert!(read(&path, &header(), |_, _| {}).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
