//! Opening books: a compact binary file of (position, move, score, weight) entries, built offline
//! ([`build`]) and consulted by the `engine` player before it searches.
//!
//! # File format (version 1, little-endian)
//! ```text
//! magic     8 bytes  "PLTBOOK\n"
//! version   u32      1
//! game      u16 length + UTF-8 bytes   the canonical game string (`Game::spec()`), e.g. "breakthrough"
//! note      u16 length + UTF-8 bytes   free text: how the book was built
//! count     u32      number of entries
//! entries   count x 20 bytes, sorted by (key, move):
//!           key u64 (the position's Zobrist key), move u16 (hash of the move's text), flags u8 (bit 0: exact,
//!           the score is a proven result), reserved u8 (0), score i32 (the move's value for the side to move, engine
//!           units, wins `WIN_SCORE - plies`), weight u32 (how often to choose it among near-equal moves)
//! checksum  u64      FNV-1a of every byte before it
//! ```
//! The move is stored as a 16-bit hash of its notation rather than as an index in the generated move list, so a
//! book stays valid if move generation order changes; at lookup the legal moves are formatted and matched (a move
//! whose hash matches no legal move is ignored). Any malformed file (bad magic, version, lengths, order, checksum)
//! is a one-line error when loading, never a panic.
//!
//! # Use (engine options `book=FILE`, `book_margin`, `book_random`, `book_seed`)
//! ```text
//! pick(position):
//!     E := the entries with the position's key whose move is legal here
//!     if E is empty: None (search as usual)
//!     best := max score in E;  C := { e in E : e.score >= best - margin }
//!     random on:  choose e in C with probability weight(e) / sum of weights in C
//!     random off: the highest score, ties to the highest weight
//! ```

pub mod build;

use std::path::Path;

use rand::RngExt;
use rand::rngs::SmallRng;

use crate::game::{FullGame, GameError, MoveList};
use crate::spec::Spec;

/// The first 8 bytes of a book file.
pub(crate) const MAGIC: &[u8; 8] = b"PLTBOOK\n";
/// The format version written and read.
pub(crate) const VERSION: u32 = 1;
/// Bytes per entry.
pub(crate) const ENTRY_BYTES: usize = 20;
/// Flag bit: the score is a proven game result.
pub(crate) const FLAG_EXACT: u8 = 1;

/// One (position, move) entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    /// [`move_code`] of the move's text.
    pub mv: u16,
    pub flags: u8,
    /// Value of the move for the side to move (engine units).
    pub score: i32,
    pub(crate) weight: u32,
}

impl Entry {
    /// Whether the entry's value is exact (proven by a solver), not a search's estimate.
    pub fn exact(&self) -> bool {
        self.flags & FLAG_EXACT != 0
    }
}

/// A loaded book: the game it is for and its entries sorted by (key, move).
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    pub game: String,
    pub note: String,
    entries: Vec<Entry>,
}

/// The 16-bit code of a move's text (FNV-1a folded).
pub(crate) fn move_code(text: &str) -> u16 {
    let h = fnv1a(text.as_bytes());
    (h ^ (h >> 16) ^ (h >> 32) ^ (h >> 48)) as u16
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A little reader over a byte slice whose every read is checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], GameError> {
        if self.bytes.len() - self.at < n {
            return Err(GameError::new(format!("truncated file: {what} missing at byte {}", self.at)));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u16(&mut self, what: &str) -> Result<u16, GameError> {
        Ok(u16::from_le_bytes(self.take(2, what)?.try_into().unwrap_or_default()))
    }
    fn u32(&mut self, what: &str) -> Result<u32, GameError> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().unwrap_or_default()))
    }
    fn u64(&mut self, what: &str) -> Result<u64, GameError> {
        Ok(u64::from_le_bytes(self.take(8, what)?.try_into().unwrap_or_default()))
    }
    fn text(&mut self, what: &str) -> Result<String, GameError> {
        let n = self.u16(what)? as usize;
        let b = self.take(n, what)?;
        String::from_utf8(b.to_vec()).map_err(|_| GameError::new(format!("{what} is not UTF-8")))
    }
}

impl Book {
    /// A book from entries in any order; entries with the same key and move are merged (the last score wins, the
    /// weights add up).
    pub fn new(game: &str, note: &str, mut entries: Vec<Entry>) -> Book {
        entries.sort_by_key(|e| (e.key, e.mv));
        let mut merged: Vec<Entry> = Vec::with_capacity(entries.len());
        for e in entries {
            match merged.last_mut() {
                Some(m) if m.key == e.key && m.mv == e.mv => {
                    m.score = e.score;
                    m.flags |= e.flags;
                    m.weight = m.weight.saturating_add(e.weight);
                }
                _ => merged.push(e),
            }
        }
        Book { game: game.to_string(), note: note.to_string(), entries: merged }
    }

    /// The book's entries, in the file's order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of distinct positions.
    pub fn positions(&self) -> usize {
        self.entries.windows(2).filter(|w| w[0].key != w[1].key).count() + usize::from(!self.entries.is_empty())
    }

    /// The entries of one position (sorted by move code).
    pub fn lookup(&self, key: u64) -> &[Entry] {
        let lo = self.entries.partition_point(|e| e.key < key);
        let hi = self.entries.partition_point(|e| e.key <= key);
        &self.entries[lo..hi]
    }

    /// The file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(40 + self.game.len() + self.note.len() + self.entries.len() * ENTRY_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for t in [&self.game, &self.note] {
            let b = &t.as_bytes()[..t.len().min(u16::MAX as usize)];
            out.extend_from_slice(&(b.len() as u16).to_le_bytes());
            out.extend_from_slice(b);
        }
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.key.to_le_bytes());
            out.extend_from_slice(&e.mv.to_le_bytes());
            out.push(e.flags);
            out.push(0);
            out.extend_from_slice(&e.score.to_le_bytes());
            out.extend_from_slice(&e.weight.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Parse file bytes; every defect is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, GameError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8, "magic")? != MAGIC {
            return Err(GameError::new("not a plateau opening book (bad magic bytes)"));
        }
        let version = r.u32("version")?;
        if version != VERSION {
            return Err(GameError::new(format!("book format version {version}, this plateau reads {VERSION}")));
        }
        let game = r.text("game string")?;
        let note = r.text("note")?;
        let count = r.u32("entry count")? as usize;
        let need = count.checked_mul(ENTRY_BYTES).and_then(|n| n.checked_add(8));
        if need != Some(bytes.len() - r.at) {
            return Err(GameError::new(format!(
                "{count} entries need {} bytes after the header, the file has {}",
                count.saturating_mul(ENTRY_BYTES).saturating_add(8),
                bytes.len() - r.at
            )));
        }
        let mut entries = Vec::with_capacity(count);
        for _ in 0..count {
            let key = r.u64("entry key")?;
            let mv = r.u16("entry move")?;
            let fl = r.take(2, "entry flags")?;
            let score = r.u32("entry score")? as i32;
            let weight = r.u32("entry weight")?;
            entries.push(Entry { key, mv, flags: fl[0], score, weight });
        }
        let body = r.at;
        let sum = r.u64("checksum")?;
        if sum != fnv1a(&bytes[..body]) {
            return Err(GameError::new("checksum mismatch: the book file is damaged"));
        }
        if entries.windows(2).any(|w| (w[0].key, w[0].mv) >= (w[1].key, w[1].mv)) {
            return Err(GameError::new("entries are not sorted by (key, move)"));
        }
        Ok(Book { game, note, entries })
    }

    /// Load a book file.
    pub fn load(path: &Path) -> Result<Book, GameError> {
        let bytes = crate::files::read(path, crate::files::MAX_BOOK, "book").map_err(GameError::new)?;
        Book::from_bytes(&bytes).map_err(|e| GameError::new(format!("book {}: {e}", path.display())))
    }

    /// Write atomically ([`crate::files::replace`]: a new temporary file beside `FILE`, renamed over it when whole, so
    /// an interrupted write never leaves a damaged book); the error is one line.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        crate::files::replace(path, &self.to_bytes(), "book")
    }

    /// The book's legal moves in `state` with their entries (entries matching no legal move are left out).
    pub fn moves<G: FullGame>(&self, game: &G, state: &G::State) -> Vec<(G::Move, Entry)> {
        let found = self.lookup(game.key(state));
        if found.is_empty() {
            return Vec::new();
        }
        let mut legal = MoveList::new();
        game.generate_moves(state, &mut legal);
        let mut out = Vec::new();
        for &m in &legal {
            let code = move_code(&game.format_move(state, m));
            if let Some(e) = found.iter().find(|e| e.mv == code)
                && !out.iter().any(|(_, o): &(G::Move, Entry)| o.mv == code)
            {
                out.push((m, *e));
            }
        }
        out
    }

    /// The book move for `state` (see the module doc); `rng: None` is the deterministic choice.
    pub fn pick<G: FullGame>(
        &self,
        game: &G,
        state: &G::State,
        margin: i32,
        rng: Option<&mut SmallRng>,
    ) -> Option<(G::Move, Entry)> {
        let moves = self.moves(game, state);
        let best = moves.iter().map(|(_, e)| e.score).max()?;
        let near: Vec<&(G::Move, Entry)> =
            moves.iter().filter(|(_, e)| e.score >= best.saturating_sub(margin.max(0))).collect();
        match rng {
            None => near.iter().max_by_key(|(_, e)| (e.score, e.weight)).map(|x| **x),
            Some(rng) => {
                let total: u64 = near.iter().map(|(_, e)| e.weight.max(1) as u64).sum();
                let mut r = rng.random_range(0..total.max(1));
                for x in &near {
                    let w = x.1.weight.max(1) as u64;
                    if r < w {
                        return Some(**x);
                    }
                    r -= w;
                }
                near.last().map(|x| **x)
            }
        }
    }
}

/// Default `book_margin`: moves within this many evaluation units of the best book move are candidates.
pub(crate) const DEFAULT_MARGIN: i32 = 20;

/// The engine's book options: `book=FILE|off`, `book_margin=N`, `book_random=on|off`, `book_seed=N`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BookOptions {
    pub path: Option<String>,
    pub margin: i32,
    pub random: bool,
    pub seed: Option<u64>,
}

impl Default for BookOptions {
    fn default() -> Self {
        BookOptions { path: None, margin: DEFAULT_MARGIN, random: true, seed: None }
    }
}

impl BookOptions {
    /// Read the book options from a player string (the other keys are left to their owners).
    pub fn from_spec(spec: &Spec) -> Result<BookOptions, GameError> {
        let path = match spec.text("book") {
            Some(p) if matches!(p.to_ascii_lowercase().as_str(), "off" | "none" | "false") => None,
            Some(_) => spec.path("book")?,
            None => None,
        };
        let margin = spec.int("book_margin", DEFAULT_MARGIN as i64, 0, 1_000_000)? as i32;
        let random = spec.bool("book_random", true)?;
        let seed = spec.count("book_seed")?;
        Ok(BookOptions { path, margin, random, seed })
    }

    /// The options as player-string parameters (empty without a book).
    pub(crate) fn spec_params(&self) -> Vec<String> {
        let Some(p) = &self.path else { return Vec::new() };
        let mut v = vec![format!("book={p}")];
        if self.margin != DEFAULT_MARGIN {
            v.push(format!("book_margin={}", self.margin));
        }
        if !self.random {
            v.push("book_random=off".into());
        }
        if let Some(s) = self.seed {
            v.push(format!("book_seed={s}"));
        }
        v
    }
}

/// A book in use by a player: the book, its options and the random generator.
#[derive(Clone, Debug)]
pub(crate) struct BookUser {
    pub book: std::sync::Arc<Book>,
    pub(crate) opts: BookOptions,
    rng: SmallRng,
}

impl BookUser {
    /// Load the book named by the options (`None` without one).
    pub(crate) fn from_options(opts: &BookOptions) -> Result<Option<BookUser>, GameError> {
        let Some(path) = &opts.path else { return Ok(None) };
        let book = Book::load(Path::new(path))?;
        use rand::SeedableRng;
        let rng = match opts.seed {
            Some(s) => SmallRng::seed_from_u64(s),
            None => SmallRng::from_rng(&mut rand::rng()),
        };
        Ok(Some(BookUser { book: std::sync::Arc::new(book), opts: opts.clone(), rng }))
    }

    /// Re-seed the random pick from `seed` (mixed with `book_seed=` when given: [`crate::game::seed`]).
    pub(crate) fn reseed(&mut self, seed: u64) {
        use rand::SeedableRng;
        self.rng = SmallRng::seed_from_u64(crate::game::seed::with_own(self.opts.seed, seed));
    }

    /// The book move in `state`, when the book is for this game and knows the position.
    pub fn pick<G: FullGame>(&mut self, game: &G, state: &G::State) -> Option<(G::Move, Entry)> {
        if self.book.game != game.spec() {
            return None;
        }
        let rng = if self.opts.random { Some(&mut self.rng) } else { None };
        self.book.pick(game, state, self.opts.margin, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::TicTacToe;
    use rand::SeedableRng;

    fn sample() -> Book {
        let e = |key, mv, score, weight| Entry { key, mv, flags: 0, score, weight };
        Book::new("breakthrough", "test", vec![e(7, 3, 10, 1), e(2, 9, -5, 2), e(7, 1, 12, 4), e(7, 3, 11, 1)])
    }

    #[test]
    fn round_trip_sorts_and_merges() {
        let b = sample();
        assert_eq!(b.entries().len(), 3);
        assert_eq!(b.positions(), 2);
        let again = Book::from_bytes(&b.to_bytes()).unwrap();
        assert_eq!(again, b);
        assert_eq!(again.lookup(7).len(), 2);
        assert_eq!(again.lookup(7)[1], Entry { key: 7, mv: 3, flags: 0, score: 11, weight: 2 });
        assert!(again.lookup(5).is_empty());
    }

    #[test]
    fn damaged_files_are_errors() {
        let bytes = sample().to_bytes();
        assert!(Book::from_bytes(b"").is_err());
        assert!(Book::from_bytes(b"PLTBOOK\n").is_err());
        assert!(Book::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        for i in [0, 9, 20, 40, bytes.len() - 3] {
            let mut bad = bytes.clone();
            bad[i] ^= 0x40;
            assert!(Book::from_bytes(&bad).is_err(), "byte {i}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(Book::from_bytes(&long).is_err());
        // A huge entry count must not allocate or panic.
        let mut huge = bytes.clone();
        let at = 8 + 4 + 2 + "breakthrough".len() + 2 + "test".len();
        huge[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Book::from_bytes(&huge).is_err());
    }

    #[test]
    fn pick_respects_margin_weights_and_legality() {
        let g = TicTacToe;
        let s = g.start();
        let key = g.key(&s);
        let mut legal = MoveList::new();
        g.generate_moves(&s, &mut legal);
        let code = |i: usize| move_code(&g.format_move(&s, legal[i]));
        let e = |mv, score, weight| Entry { key, mv, flags: 0, score, weight };
        // Move 4 (centre) best, move 0 close, move 8 far below, plus a code matching no legal move.
        let bogus = (0..=u16::MAX).find(|c| (0..legal.len()).all(|i| code(i) != *c)).unwrap();
        let book =
            Book::new(&g.spec(), "", vec![e(code(4), 30, 1), e(code(0), 25, 3), e(code(8), -50, 100), e(bogus, 99, 1)]);
        assert_eq!(book.moves(&g, &s).len(), 3);
        assert_eq!(book.pick(&g, &s, 10, None).unwrap().0, legal[4]);
        assert_eq!(book.pick(&g, &s, 0, None).unwrap().0, legal[4]);
        let mut rng = SmallRng::seed_from_u64(1);
        let mut counts = [0usize; 9];
        for _ in 0..400 {
            let (m, _) = book.pick(&g, &s, 10, Some(&mut rng)).unwrap();
            counts[legal.iter().position(|&x| x == m).unwrap()] += 1;
        }
        assert_eq!(counts[8], 0, "outside the margin");
        assert!(counts[0] > 2 * counts[4], "weight 3 against 1: {counts:?}");
        assert!(counts[4] > 0);
        let mut other = s;
        g.play(&mut other, legal[0]);
        assert!(book.pick(&g, &other, 10, None).is_none());
    }
}
