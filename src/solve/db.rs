//! The on-disk database of a retrograde analysis ([`crate::solve::retro`]): every position's value and distance,
//! sorted by Zobrist key, read through a memory map.
//!
//! File layout (all integers little-endian; the key and entry arrays start at multiples of 8):
//!
//! ```text
//! offset  size  field
//!      0     8  magic "PLTRETRO"
//!      8     4  version (2)
//!     12     4  value encoding (1: u16, bits 0-1 value 0 loss / 1 draw / 2 win, bits 2-15 distance in plies)
//!     16     8  position count n
//!     24     8  key of the analysis root
//!     32     8  checksum of every other byte of the file (bytes 0-31, then 40 to the end): [`file_checksum`]
//!     40     4  length of the game string g
//!     44     4  zero
//!     48     g  game string (UTF-8: the game's canonical spec), then zero padding to a multiple of 8
//!      .   8 n  keys, strictly increasing
//!      .   2 n  entries
//! ```
//!
//! Writing goes to `FILE.tmp`, which is flushed, fsync'ed and renamed over `FILE` (then the directory is fsync'ed):
//! an interrupted run leaves at most a stale `FILE.tmp`, never a partial `FILE`. Opening checks the magic, version,
//! encoding, the exact file length, the checksum (which covers the whole header but itself: a changed byte anywhere is
//! caught), that the keys increase and that every entry is a valid code; each failure is a one-line error naming the
//! file. Version 1 files (whose checksum left the header out) are refused with a line saying to rebuild them. Lookups
//! are interpolation search on the uniformly distributed keys, finished by binary search.
//!
//! ```text
//! probe(key):  lo := 0, hi := n - 1
//!     while hi - lo > 32 and key[lo] <= key <= key[hi]:
//!         mid := lo + (key - key[lo]) * (hi - lo) / (key[hi] - key[lo])     -- 128-bit arithmetic
//!         narrow [lo, hi] to the side of mid that holds key; give up after 8 steps
//!     binary search in [lo, hi]
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::retro::{Solution, Value, unpack};

pub(crate) const MAGIC: &[u8; 8] = b"PLTRETRO";
pub(crate) const VERSION: u32 = 2;
pub(crate) const ENCODING_U16: u32 = 1;
const HEADER: usize = 48;

/// A database error, one line.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DbError(pub String);

fn derr<T>(path: &Path, msg: impl std::fmt::Display) -> Result<T, DbError> {
    Err(DbError(format!("{}: {msg}", path.display())))
}

/// Checksum of a byte string: a 64-bit multiply-xor over 8-byte words (FNV-style), the tail zero-padded.
pub fn checksum(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut len = 0u64;
    for part in parts {
        let mut chunks = part.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            h = (h ^ u64::from_le_bytes(b)).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29);
        }
        len += part.len() as u64;
    }
    h ^ len
}

/// The checksum a file stores at bytes 32-39: [`checksum`] of bytes 0-31 and 40 to the end (the whole file but the
/// checksum itself). `bytes` holds at least the 48-byte header.
pub(crate) fn file_checksum(bytes: &[u8]) -> u64 {
    checksum(&[&bytes[..32], &bytes[40..]])
}

/// Store the right checksum in `bytes` (a file image of at least 48 bytes; shorter ones are left as they are): for
/// tools and the fuzz targets, which reach the checks after the checksum this way.
pub fn seal(bytes: &mut [u8]) {
    if bytes.len() >= HEADER {
        let sum = file_checksum(bytes);
        bytes[32..40].copy_from_slice(&sum.to_le_bytes());
    }
}

fn padded_game(game: &str) -> Vec<u8> {
    let mut g = game.as_bytes().to_vec();
    while !g.len().is_multiple_of(8) {
        g.push(0);
    }
    g
}

fn body(sol: &Solution) -> (Vec<u8>, Vec<u8>) {
    let mut keys = Vec::with_capacity(sol.keys.len() * 8);
    for k in &sol.keys {
        keys.extend_from_slice(&k.to_le_bytes());
    }
    let mut entries = Vec::with_capacity(sol.entries.len() * 2);
    for e in &sol.entries {
        entries.extend_from_slice(&e.to_le_bytes());
    }
    (keys, entries)
}

/// Write the whole file to `w` (no renaming: see [`save`]).
pub(crate) fn write_to<W: Write>(w: &mut W, game: &str, sol: &Solution) -> std::io::Result<()> {
    let g = padded_game(game);
    let (keys, entries) = body(sol);
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&ENCODING_U16.to_le_bytes());
    h.extend_from_slice(&(sol.keys.len() as u64).to_le_bytes());
    h.extend_from_slice(&sol.root_key.to_le_bytes());
    h.extend_from_slice(&[0; 8]);
    h.extend_from_slice(&(game.len() as u32).to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    // Every part but the last is a multiple of 8 bytes long: the same sum as `file_checksum` of the whole file.
    let sum = checksum(&[&h[..32], &h[40..], &g, &keys, &entries]);
    h[32..40].copy_from_slice(&sum.to_le_bytes());
    w.write_all(&h)?;
    w.write_all(&g)?;
    // In slices, so that a failing writer can fail in the middle of the data.
    for c in keys.chunks(1 << 16) {
        w.write_all(c)?;
    }
    for c in entries.chunks(1 << 16) {
        w.write_all(c)?;
    }
    w.flush()
}

/// Save atomically ([`crate::files::write_atomic`]): write a new temporary file beside `FILE`, flush, fsync, rename
/// it over `FILE` (only a regular file: a symbolic link, a device or a directory is refused), fsync the directory. On
/// any error the temporary file is removed and `FILE` is untouched.
pub fn save(path: &Path, game: &str, sol: &Solution) -> Result<u64, DbError> {
    save_with(path, game, sol, |f| f)
}

/// [`save`] with a wrapper around the file (tests inject a writer that fails midway).
pub fn save_with<W: Write>(
    path: &Path,
    game: &str,
    sol: &Solution,
    wrap: impl FnOnce(BufWriter<File>) -> W,
) -> Result<u64, DbError> {
    crate::files::write_atomic(path, "database", |file| {
        let mut w = wrap(BufWriter::with_capacity(1 << 20, file.try_clone()?));
        write_to(&mut w, game, sol)?;
        drop(w);
        file.sync_all()?;
        Ok(file.metadata()?.len())
    })
    .map_err(DbError)
}

/// An open database.
pub struct Db {
    map: Mmap,
    path: PathBuf,
    game: String,
    n: usize,
    root_key: u64,
    keys_at: usize,
    entries_at: usize,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Db({}, {}, {} positions)", self.path.display(), self.game, self.n)
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

impl Db {
    /// Open and check a database file.
    pub fn open(path: &Path) -> Result<Db, DbError> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) => return derr(path, format!("cannot open the database: {e}")),
        };
        if file.metadata().is_ok_and(|m| !m.is_file()) {
            return derr(path, "this is a folder (or another special file), not a database file");
        }
        // SAFETY: the map is read-only and private to this process; a file changed underneath by another program
        // could change what lookups return (never memory safety for the byte reads below, which are bounds-checked
        // slices), and plateau never writes a database in place (it renames a new file over it).
        let map = match unsafe { Mmap::map(&file) } {
            Ok(m) => m,
            Err(e) => return derr(path, format!("cannot map the database: {e}")),
        };
        let b: &[u8] = &map;
        if b.len() < HEADER {
            return derr(path, format!("not a plateau database (only {} bytes, truncated?)", b.len()));
        }
        if &b[..8] != MAGIC {
            return derr(path, "not a plateau retrograde database (bad magic)");
        }
        let version = u32_at(b, 8);
        if version == 1 {
            return derr(
                path,
                "database version 1, whose checksum leaves the header out: this plateau reads version 2 (build the database again)",
            );
        }
        if version != VERSION {
            return derr(path, format!("database version {version}, this plateau reads version {VERSION}"));
        }
        let encoding = u32_at(b, 12);
        if encoding != ENCODING_U16 {
            return derr(path, format!("unknown value encoding {encoding}"));
        }
        let n64 = u64_at(b, 16);
        let root_key = u64_at(b, 24);
        let sum = u64_at(b, 32);
        let glen = u32_at(b, 40) as u64;
        let gpad = glen.div_ceil(8) * 8;
        let expected =
            (HEADER as u64).checked_add(gpad).and_then(|x| n64.checked_mul(10).and_then(|y| x.checked_add(y)));
        if expected != Some(b.len() as u64) {
            return derr(
                path,
                format!(
                    "the file has {} bytes but its header announces {} positions and a {}-byte game string (truncated or corrupt)",
                    b.len(),
                    n64,
                    glen
                ),
            );
        }
        let n = n64 as usize;
        let gend = HEADER + glen as usize;
        let Ok(game) = std::str::from_utf8(&b[HEADER..gend]) else {
            return derr(path, "corrupt database: the game string is not UTF-8");
        };
        let keys_at = HEADER + gpad as usize;
        let entries_at = keys_at + 8 * n;
        if file_checksum(b) != sum {
            return derr(path, "corrupt database: checksum mismatch");
        }
        if u32_at(b, 44) != 0 || b[HEADER + glen as usize..keys_at].iter().any(|&x| x != 0) {
            return derr(path, "corrupt database: reserved bytes are not zero");
        }
        for i in 0..n {
            if i > 0 && u64_at(b, keys_at + 8 * i) <= u64_at(b, keys_at + 8 * (i - 1)) {
                return derr(path, format!("corrupt database: the keys do not increase at entry {i}"));
            }
            if unpack(u16::from_le_bytes([b[entries_at + 2 * i], b[entries_at + 2 * i + 1]])).is_none() {
                return derr(path, format!("corrupt database: entry {i} holds no valid value"));
            }
        }
        let game = game.to_string();
        Ok(Db { map, path: path.to_path_buf(), game, n, root_key, keys_at, entries_at })
    }

    /// Open and check that it is a database of `game` (its canonical spec).
    pub fn open_for(path: &Path, game: &str) -> Result<Db, DbError> {
        let db = Db::open(path)?;
        db.check_game(game)?;
        Ok(db)
    }

    /// An error unless the database is for `game`.
    pub(crate) fn check_game(&self, game: &str) -> Result<(), DbError> {
        if self.game != game {
            return derr(&self.path, format!("this database is for '{}', not '{game}'", self.game));
        }
        Ok(())
    }

    /// The database's file.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// The game the database is for.
    pub fn game(&self) -> &str {
        &self.game
    }
    /// The number of positions.
    pub fn len(&self) -> usize {
        self.n
    }
    /// Whether the database has no position.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// The key of the database's root position.
    pub fn root_key(&self) -> u64 {
        self.root_key
    }
    /// Bytes of the file.
    pub fn bytes(&self) -> usize {
        self.map.len()
    }

    #[inline]
    fn key(&self, i: usize) -> u64 {
        u64_at(&self.map, self.keys_at + 8 * i)
    }

    /// The packed entry of index `i`.
    #[inline]
    fn raw_entry(&self, i: usize) -> u16 {
        let at = self.entries_at + 2 * i;
        u16::from_le_bytes([self.map[at], self.map[at + 1]])
    }

    /// Key and (value, distance) of index `i` (in key order); `None` for an index out of range or a bad code.
    pub fn at(&self, i: usize) -> Option<(u64, Value, u32)> {
        if i >= self.n {
            return None;
        }
        unpack(self.raw_entry(i)).map(|(v, d)| (self.key(i), v, d))
    }

    /// Index of `key`, by interpolation then binary search.
    pub fn find(&self, key: u64) -> Option<usize> {
        if self.n == 0 {
            return None;
        }
        let (mut lo, mut hi) = (0usize, self.n - 1);
        let mut steps = 0;
        while hi - lo > 32 && steps < 8 {
            let (klo, khi) = (self.key(lo), self.key(hi));
            if key < klo || key > khi {
                return None;
            }
            if khi == klo {
                break;
            }
            let span = (hi - lo) as u128;
            let mid = lo + ((key - klo) as u128 * span / (khi - klo) as u128) as usize;
            let km = self.key(mid);
            if km == key {
                return Some(mid);
            }
            if km < key {
                lo = mid + 1;
            } else {
                hi = mid.saturating_sub(1).max(lo);
            }
            steps += 1;
        }
        while lo <= hi {
            let mid = lo + (hi - lo) / 2;
            let km = self.key(mid);
            if km == key {
                return Some(mid);
            }
            if km < key {
                lo = mid + 1;
            } else if mid == 0 {
                return None;
            } else {
                hi = mid - 1;
            }
        }
        None
    }

    /// Value and distance of the position with this key.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<(Value, u32)> {
        self.find(key).and_then(|i| unpack(self.raw_entry(i)))
    }
}
