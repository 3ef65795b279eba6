//! Checkpoints of a retrograde analysis ([`crate::solve::retro`]), so that an interrupted build goes on where it
//! stopped: `plateau solve GAME --method retro --db FILE` keeps its enumeration in `FILE.partial`.
//!
//! What is saved is the enumeration's integers, never the positions themselves (a `Game::State` has no byte form):
//! how many positions were expanded (`i`), how many were found (`n`), the rows of successor indices of the expanded
//! ones and their outcome codes. The positions are rebuilt from the root by replaying those rows:
//!
//! ```text
//! states := [root]
//! for p in 0 .. i:                        -- breadth-first order, as the enumeration found them
//!     check outcome(states[p]) = terminal[p] and moves(states[p]) has succ_start[p+1] - succ_start[p] moves
//!     for the k-th move m of states[p]:  c := play(states[p], m); j := succ[succ_start[p] + k]
//!         j = len(states): push c          -- the enumeration met c first here
//!         j < len(states): check states[j] = c
//! check len(states) = n
//! ```
//!
//! This replay generates the moves of the expanded positions again but looks nothing up, and every step is checked,
//! so a checkpoint of another game, another root or a changed move generator is refused rather than trusted. The file
//! (written to a new temporary file beside it, then renamed: [`crate::files::replace`]) is saved when the run is interrupted (Ctrl-C, SIGTERM), every
//! `save_every` seconds (so that a killed run loses at most that much), and once when the enumeration is complete
//! (the later phases are not saved: they are linear passes over the enumeration and are simply run again).
//!
//! Layout (little-endian): magic `PLTRPART`, version u32 (1), zero u32, root key u64, `i` u64, `n` u64, moves `e`
//! u64, game string length u64, the game string padded to 8 bytes, `succ_start` (`i + 1` u32), `succ` (`e` u32),
//! `terminal` (`i` bytes), then the checksum u64 ([`crate::solve::db::checksum`]) of everything before it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::game::{FullGame, MoveList};

const MAGIC: &[u8; 8] = b"PLTRPART";
const VERSION: u32 = 1;

/// Where and how often a run keeps its enumeration.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The checkpoint file (`FILE.partial` for the database `FILE`).
    pub path: PathBuf,
    /// The game's canonical string, checked on resuming.
    pub game: String,
    /// Save at most this often during the enumeration, in seconds.
    pub(crate) save_every: f64,
    /// Set by Ctrl-C or SIGTERM ([`crate::limits::catch_interrupt`]): stop, save, return an error.
    pub interrupt: Option<&'static AtomicBool>,
}

impl Checkpoint {
    /// The checkpoint of the database `db`: `db` with `.partial` appended.
    pub(crate) fn path_for(db: &Path) -> PathBuf {
        let mut p = db.as_os_str().to_owned();
        p.push(".partial");
        PathBuf::from(p)
    }

    pub fn interrupted(&self) -> bool {
        self.interrupt.is_some_and(|f| f.load(Ordering::SeqCst))
    }
}

/// The enumeration so far: positions `0..expanded` have their successor rows and outcome codes.
pub(crate) struct Enumeration<S> {
    pub states: Vec<S>,
    pub(crate) succ_start: Vec<u32>,
    pub(crate) succ: Vec<u32>,
    pub terminal: Vec<u8>,
}

impl<S> Enumeration<S> {
    pub fn expanded(&self) -> usize {
        self.terminal.len()
    }
}

/// Save `e` to the checkpoint file, atomically. Returns the bytes written.
pub fn save<S>(cp: &Checkpoint, root_key: u64, e: &Enumeration<S>) -> std::io::Result<u64> {
    let i = e.expanded();
    let edges = e.succ_start[i] as usize;
    let mut b = Vec::with_capacity(64 + cp.game.len() + 4 * (i + 1) + 4 * edges + i);
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&0u32.to_le_bytes());
    for w in [root_key, i as u64, e.states.len() as u64, edges as u64, cp.game.len() as u64] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.extend_from_slice(cp.game.as_bytes());
    while !b.len().is_multiple_of(8) {
        b.push(0);
    }
    for &x in &e.succ_start[..=i] {
        b.extend_from_slice(&x.to_le_bytes());
    }
    for &x in &e.succ[..edges] {
        b.extend_from_slice(&x.to_le_bytes());
    }
    b.extend_from_slice(&e.terminal[..i]);
    let sum = super::db::checksum(&[&b]);
    b.extend_from_slice(&sum.to_le_bytes());
    crate::files::replace(&cp.path, &b, "retro checkpoint").map_err(std::io::Error::other)?;
    Ok(b.len() as u64)
}

/// A little-endian reader over the checkpoint's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or("truncated")?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn u32s(&mut self, n: u64) -> Result<Vec<u32>, String> {
        let n = usize::try_from(n).map_err(|_| "truncated")?;
        let raw = self.take(n.checked_mul(4).ok_or("truncated")?)?;
        Ok(raw.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }
}

/// The enumeration of the checkpoint file, its positions rebuilt by replay (see the module documentation); `None`
/// when there is no file. Any mismatch (another game, another root, a damaged file) is a one-line error.
pub fn load<G: FullGame>(game: &G, root: &G::State, cp: &Checkpoint) -> Result<Option<Enumeration<G::State>>, String> {
    let bytes = match crate::files::read_if_any(&cp.path, crate::files::MAX_DATA, "the checkpoint")? {
        Some(b) => b,
        None => return Ok(None),
    };
    let bad = |what: String| format!("{}: {what} (delete it to start the build again)", cp.path.display());
    let e = parse(game, root, cp, &bytes).map_err(|w| bad(format!("not a usable checkpoint: {w}")))?;
    replay(game, root, e).map(Some).map_err(|w| bad(format!("the checkpoint does not replay: {w}")))
}

/// The checked fields of a checkpoint file (positions not rebuilt yet: `states` holds the count `n` as its capacity).
fn parse<G: FullGame>(
    game: &G,
    root: &G::State,
    cp: &Checkpoint,
    bytes: &[u8],
) -> Result<(u64, Enumeration<()>), String> {
    if bytes.len() < 56 || &bytes[..8] != MAGIC {
        return Err("not a checkpoint file".into());
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if super::db::checksum(&[body]).to_le_bytes() != sum {
        return Err("checksum mismatch (damaged or truncated)".into());
    }
    let mut r = Reader { bytes: body, at: 8 };
    let version = r.u64()? as u32;
    if version != VERSION {
        return Err(format!("version {version}"));
    }
    let (root_key, i, n, edges, glen) = (r.u64()?, r.u64()?, r.u64()?, r.u64()?, r.u64()?);
    let g = r.take(usize::try_from(glen).map_err(|_| "truncated")?)?;
    if g != cp.game.as_bytes() {
        return Err(format!("it is of the game {}", String::from_utf8_lossy(g)));
    }
    if root_key != game.key(root) {
        return Err("it was made from another position".into());
    }
    r.take((8 - glen as usize % 8) % 8)?;
    let succ_start = r.u32s(i.checked_add(1).ok_or("truncated")?)?;
    let succ = r.u32s(edges)?;
    let terminal = r.take(i as usize)?.to_vec();
    if r.at != body.len() || n < i.max(1) || n > u32::MAX as u64 || succ_start.last() != Some(&(edges as u32)) {
        return Err("inconsistent counts".into());
    }
    Ok((n, Enumeration { states: Vec::new(), succ_start, succ, terminal }))
}

/// Rebuild the positions of a parsed checkpoint by replaying its successor rows from the root, checking each step.
fn replay<G: FullGame>(
    game: &G,
    root: &G::State,
    (n, e): (u64, Enumeration<()>),
) -> Result<Enumeration<G::State>, String> {
    let start = Instant::now();
    let mut states: Vec<G::State> = Vec::with_capacity(n as usize);
    states.push(*root);
    let mut moves = MoveList::new();
    for p in 0..e.terminal.len() {
        let s = *states.get(p).ok_or("a position expanded before it was found")?;
        if super::retro::outcome_code(game.outcome(&s)) != e.terminal[p] {
            return Err(format!("position {p} does not end the same way"));
        }
        let (a, b) = (e.succ_start[p] as usize, e.succ_start[p + 1] as usize);
        if e.terminal[p] != 0 {
            if a != b {
                return Err(format!("the final position {p} has successors"));
            }
            continue;
        }
        game.generate_moves(&s, &mut moves);
        if b < a || b > e.succ.len() || b - a != moves.len() {
            return Err(format!("position {p} has another number of moves"));
        }
        for (k, &m) in moves.iter().enumerate() {
            let mut c = s;
            game.play(&mut c, m);
            let j = e.succ[a + k] as usize;
            if j == states.len() {
                states.push(c);
            } else if states.get(j) != Some(&c) {
                return Err(format!("move {k} of position {p} leads elsewhere"));
            }
        }
    }
    if states.len() as u64 != n {
        return Err(format!("{} positions found again, {n} saved", states.len()));
    }
    eprintln!(
        "retro: resumed: {} positions expanded and {} found, replayed in {:.1} s",
        e.terminal.len(),
        n,
        start.elapsed().as_secs_f64()
    );
    Ok(Enumeration { states, succ_start: e.succ_start, succ: e.succ, terminal: e.terminal })
}
