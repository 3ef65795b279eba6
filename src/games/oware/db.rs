//! Oware endgame databases: the value of every board with up to `N` seeds, by retrograde analysis, one level (seed
//! count) at a time.
//!
//! The database's game. A board is seen from the side to move (its houses first); its value is the difference, under
//! perfect play, between the seeds the side to move and its opponent get *from the board from now on*, captured or
//! collected. It does not depend on the stores, nor on the `seeds` parameter (so one database serves every `seeds`):
//! - play goes on until the side to move has no legal move, when each player takes the seeds on its side (the stores'
//!   "more than half" rule is left out: it never changes who wins, only the margin after the win);
//! - cycles: a play that never ends (no capture, no end, for ever) splits the seeds left on the board evenly: it
//!   scores 0. This is the rule that makes a value depend on the board alone; the game's own rule (a repetition ends
//!   the game, each player taking the seeds on its side) depends on which position repeats, that is on the history.
//!   So the database is exact for its game, and for the real game whenever no repetition and no early end by the
//!   stores decides the margin.
//!
//! Level `n` needs the levels below it (a capture leaves fewer seeds). Inside a level, moves without capture lead to
//! boards of the same level, cycles included; the level is solved by thresholds, from the largest value down:
//!
//! ```text
//! exit(P)  := the best value of P's capturing moves (c - value of the child, a lower level), or the end value of a
//!             board without legal move (its own seeds minus the opponent's); none if P has neither
//! left(P)  := P's moves without capture + (1 if P has exits)            -- options not yet known to be <= -t
//! for t := n down to 1:
//!     every unknown P with exit(P) = t:  P := t  (a win of at least t), push P
//!     every unknown P with exit(P) = -t: left(P) -= 1; if 0: P := -t, push P
//!     while the queue holds Q (value t or -t):                      -- predecessors: un-sowing, checked forwards
//!         for each unknown predecessor P of Q by a move without capture:
//!             Q = -t: P := t, push P                                -- P moves to a board where the opponent gets <= -t
//!             Q = t:  left(P) -= 1; if 0: P := -t, push P           -- every option of P gives <= -t
//! every P still unknown := 0                                        -- neither side can force better: the cycle rule
//! ```
//!
//! Values are `i8`, one byte a board, in the order of [`Ranker`] (the boards of `n` seeds on `2 * houses` houses,
//! lexicographic). Files: `DIR/oware-h{houses}-n{n}.db`, a 40-byte header (`PLTOWARE`, version u32 2, houses u32,
//! n u32, zero u32, count u64, then the checksum u64 of the header's first 32 bytes and the values, FNV-1a) then the
//! values (a [`crate::files::value_table`], as the checkers tables are); opening checks the header, the length and the checksum (a damaged or truncated level is a one-line error
//! naming the file; a version 1 level, without checksum, is refused with a line saying to build it again). Each level
//! is written to a new temporary file beside it and renamed when complete ([`crate::files::write_atomic`]), so an
//! interrupted build resumes at the first missing level; Ctrl-C or SIGTERM ([`Tables::build_until`]) drops the level
//! under way within 65,536 boards and keeps the levels written. Files are read through a memory map.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressStyle};

use super::rank::Ranker;
use super::{MAX_HOUSES, Oware, OwareState};
use crate::files::value_table::{self, Flaw, ValueTable};
use crate::game::Side;

const MAGIC: &[u8; 8] = b"PLTOWARE";
const HEADER: usize = 40;
const VERSION: u32 = 2;
const NONE: i8 = i8::MIN;
const UNKNOWN: u8 = 0;
const WON: u8 = 1;
const LOST: u8 = 2;

/// Most seeds a database level may hold.
pub(crate) const MAX_LEVEL: usize = 48;
/// Boards the engine's tables hold when no database directory is given (built in memory by `prepare_endgame`).
pub(crate) const DEFAULT_BUDGET: u64 = 1 << 20;

type Pits = [u8; 2 * MAX_HOUSES];

/// One level's values.
type Level = ValueTable<i8>;

/// The levels `0..=max_n()` of one board size.
pub struct Tables {
    rules: Oware,
    ranker: Ranker,
    levels: Vec<Level>,
}

/// What a build did, per level.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LevelReport {
    pub seeds: usize,
    pub positions: u64,
    /// False when the level was read from its file.
    pub built: bool,
    pub seconds: f64,
}

/// What [`Tables::build_until`] gives: the levels built or read, and where a stop cut the build.
pub struct Built {
    pub tables: Tables,
    pub reports: Vec<LevelReport>,
    /// The level under way when the build was stopped (dropped: `tables` holds the levels below it); `None` when
    /// every level asked for is there.
    pub(crate) interrupted_at: Option<usize>,
}

/// The board seen from the side to move: its houses first.
#[inline]
pub fn canonical(g: &Oware, s: &OwareState) -> Pits {
    let mut p = [0u8; 2 * MAX_HOUSES];
    let h = g.houses;
    let b = g.base(s.stm);
    let o = g.base(s.stm.other());
    p[..h].copy_from_slice(&s.pits[b..b + h]);
    p[h..2 * h].copy_from_slice(&s.pits[o..o + h]);
    p
}

#[inline]
fn rotate(h: usize, p: &Pits) -> Pits {
    let mut q = [0u8; 2 * MAX_HOUSES];
    q[..h].copy_from_slice(&p[h..2 * h]);
    q[h..2 * h].copy_from_slice(&p[..h]);
    q
}

/// The legal moves of the side to move of a canonical board (its houses `0..h`).
#[inline]
fn legal(h: usize, p: &Pits, house: usize) -> bool {
    let k = p[house] as usize;
    k > 0 && (k > h - 1 - house || p[h..2 * h].iter().any(|&x| x > 0))
}

impl Tables {
    /// The houses per side of the databases' game.
    pub fn houses(&self) -> usize {
        self.rules.houses
    }

    /// The largest seed count held.
    pub fn max_n(&self) -> usize {
        self.levels.len() - 1
    }

    /// Positions over all levels.
    pub fn positions(&self) -> u64 {
        (0..self.levels.len()).map(|n| self.ranker.count(n)).sum()
    }

    /// The database value of a canonical board with `n` seeds (`n <= max_n()`).
    #[inline]
    pub fn value(&self, p: &Pits, n: usize) -> i8 {
        self.levels[n].get(self.ranker.rank(&p[..2 * self.rules.houses], n))
    }

    /// The database value of the board of `s` for its side to move, if its level is held.
    pub fn probe(&self, g: &Oware, s: &OwareState) -> Option<i32> {
        let n = g.board_seeds(s) as usize;
        (n <= self.max_n()).then(|| self.value(&canonical(g, s), n) as i32)
    }

    /// The database value of every legal move of `s` (for its side to move), if its level is held.
    pub fn move_values(&self, g: &Oware, s: &OwareState) -> Vec<(u8, i32)> {
        let n = g.board_seeds(s) as usize;
        let h = g.houses;
        let p = canonical(g, s);
        if n > self.max_n() {
            return Vec::new();
        }
        (0..h)
            .filter(|&house| legal(h, &p, house))
            .map(|house| {
                let mut c = p;
                let last = self.rules.sow(&mut c, house);
                let taken = self.rules.capture(&mut c, Side::First, last) as usize;
                (house as u8, taken as i32 - self.value(&rotate(h, &c), n - taken) as i32)
            })
            .collect()
    }

    /// Build (or read from `dir`) every level up to `max_n`.
    pub fn build(
        houses: usize,
        max_n: usize,
        dir: Option<&Path>,
        progress: bool,
    ) -> std::io::Result<(Tables, Vec<LevelReport>)> {
        let b = Self::build_until(houses, max_n, dir, progress, None)?;
        Ok((b.tables, b.reports))
    }

    /// [`Tables::build`], stopping when `stop` is raised (Ctrl-C, SIGTERM): the level under way is dropped (nothing of
    /// it is written: its file appears only once complete), the levels before it are kept (and in `dir`, saved);
    /// [`Built::interrupted_at`] says which level was dropped.
    pub(crate) fn build_until(
        houses: usize,
        max_n: usize,
        dir: Option<&Path>,
        progress: bool,
        stop: Option<&AtomicBool>,
    ) -> std::io::Result<Built> {
        let stopped = || stop.is_some_and(|f| f.load(Ordering::Relaxed));
        let rules = Oware { houses, seeds: 1 };
        let mut t = Tables { rules, ranker: Ranker::new(2 * houses, max_n.max(1)), levels: Vec::new() };
        let mut reports = Vec::new();
        for n in 0..=max_n {
            let start = std::time::Instant::now();
            let file = dir.map(|d| level_path(d, houses, n));
            if let Some(f) = &file
                && let Some(level) = open_level(f, houses, n, t.ranker.count(n))?
            {
                t.levels.push(level);
                reports.push(LevelReport { seeds: n, positions: t.ranker.count(n), built: false, seconds: 0.0 });
                continue;
            }
            if let Some(f) = &file {
                // Before the work: a level file plateau would refuse to write (a symbolic link, a device).
                crate::files::check_output(f, "Oware database level").map_err(std::io::Error::other)?;
            }
            let values = match t.solve_level(n, progress, stop) {
                Some(v) if !stopped() => v,
                _ => return Ok(Built { tables: t, reports, interrupted_at: Some(n) }),
            };
            let level = match &file {
                Some(f) => {
                    save_level(f, houses, n, &values)?;
                    open_level(f, houses, n, t.ranker.count(n))?
                        .ok_or_else(|| std::io::Error::other("cannot reread"))?
                }
                None => Level::Mem(values),
            };
            t.levels.push(level);
            let seconds = start.elapsed().as_secs_f64();
            reports.push(LevelReport { seeds: n, positions: t.ranker.count(n), built: true, seconds });
        }
        Ok(Built { tables: t, reports, interrupted_at: None })
    }

    /// Solve level `n` (the levels below are held); `None` when `stop` was raised meanwhile.
    fn solve_level(&self, n: usize, progress: bool, stop: Option<&AtomicBool>) -> Option<Vec<i8>> {
        let stopped = || stop.is_some_and(|f| f.load(Ordering::Relaxed));
        let g = &self.rules;
        let h = g.houses;
        let count = self.ranker.count(n) as usize;
        let bar = bar(progress, 2 * count as u64, &format!("level {n}: {count} boards"));
        let mut val = vec![0i8; count];
        let mut status = vec![UNKNOWN; count];
        let mut left = vec![0u8; count];
        let mut exit = vec![NONE; count];
        let mut p = [0u8; 2 * MAX_HOUSES];
        for i in 0..count {
            self.ranker.unrank(i as u64, n, &mut p[..2 * h]);
            let (mut best, mut edges, mut any) = (NONE as i32, 0u8, false);
            for house in 0..h {
                if !legal(h, &p, house) {
                    continue;
                }
                any = true;
                let mut c = p;
                let last = g.sow(&mut c, house);
                let taken = g.capture(&mut c, Side::First, last) as usize;
                if taken == 0 {
                    edges += 1;
                } else {
                    let child = rotate(h, &c);
                    best = best.max(taken as i32 - self.value(&child, n - taken) as i32);
                }
            }
            if !any {
                let mine: i32 = p[..h].iter().map(|&x| x as i32).sum();
                best = 2 * mine - n as i32;
            }
            exit[i] = if best == NONE as i32 { NONE } else { best as i8 };
            left[i] = edges + (best != NONE as i32) as u8;
            if i & 0xffff == 0 {
                if stopped() {
                    return None;
                }
                bar.set_position(i as u64);
            }
        }
        // Boards by exit value, for the rounds.
        let span = 2 * n + 1;
        let mut start = vec![0usize; span + 1];
        for &e in &exit {
            if e != NONE {
                start[(e as i32 + n as i32) as usize + 1] += 1;
            }
        }
        for v in 0..span {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut order = vec![0u32; start[span]];
        for (i, &e) in exit.iter().enumerate() {
            if e != NONE {
                let v = (e as i32 + n as i32) as usize;
                order[fill[v]] = i as u32;
                fill[v] += 1;
            }
        }
        drop(exit);
        let mut queue: Vec<u32> = Vec::new();
        let mut done = 0u64;
        let mut preds = Vec::new();
        for t in (1..=n as i32).rev() {
            let up = (t + n as i32) as usize;
            for &i in &order[start[up]..start[up + 1]] {
                let i = i as usize;
                if status[i] == UNKNOWN {
                    (status[i], val[i]) = (WON, t as i8);
                    queue.push(i as u32);
                }
            }
            let down = (n as i32 - t) as usize;
            for &i in &order[start[down]..start[down + 1]] {
                let i = i as usize;
                if status[i] == UNKNOWN {
                    left[i] -= 1;
                    if left[i] == 0 {
                        (status[i], val[i]) = (LOST, -t as i8);
                        queue.push(i as u32);
                    }
                }
            }
            while let Some(q) = queue.pop() {
                done += 1;
                if done & 0xffff == 0 {
                    if stopped() {
                        return None;
                    }
                    bar.set_position(count as u64 + done);
                }
                let q_lost = status[q as usize] == LOST;
                self.ranker.unrank(q as u64, n, &mut p[..2 * h]);
                self.predecessors(&p, n, &mut preds);
                for &pr in &preds {
                    let pr = pr as usize;
                    if status[pr] != UNKNOWN {
                        continue;
                    }
                    if q_lost {
                        (status[pr], val[pr]) = (WON, t as i8);
                        queue.push(pr as u32);
                    } else {
                        left[pr] -= 1;
                        if left[pr] == 0 {
                            (status[pr], val[pr]) = (LOST, -t as i8);
                            queue.push(pr as u32);
                        }
                    }
                }
            }
        }
        bar.finish_and_clear();
        Some(val)
    }

    /// The boards of level `n` (side to move first) with a move without capture to the board `q` (whose side to move
    /// is the other player, first too), by un-sowing every empty house of the mover and checking forwards.
    fn predecessors(&self, q: &Pits, n: usize, out: &mut Vec<u32>) {
        out.clear();
        let g = &self.rules;
        let h = g.houses;
        let m = 2 * h;
        let c = rotate(h, q);
        for house in 0..h {
            if c[house] != 0 {
                continue;
            }
            let mut p = c;
            let mut pos = house;
            for _k in 1..=n {
                pos = (pos + 1) % m;
                if pos == house {
                    pos = (pos + 1) % m;
                }
                if p[pos] == 0 {
                    break;
                }
                p[pos] -= 1;
                p[house] += 1;
                if !legal(h, &p, house) {
                    continue;
                }
                let mut f = p;
                let last = g.sow(&mut f, house);
                if g.capture(&mut f, Side::First, last) == 0 && f == c {
                    out.push(self.ranker.rank(&p[..m], n) as u32);
                }
            }
        }
    }
}

fn bar(show: bool, len: u64, what: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{msg} {bar:40} {percent}% [{elapsed_precise} < {eta}]") {
        bar.set_style(style);
    }
    bar.set_message(what.to_string());
    bar
}

/// The file of level `n`.
pub fn level_path(dir: &Path, houses: usize, n: usize) -> PathBuf {
    dir.join(format!("oware-h{houses}-n{n}.db"))
}

/// The header's first 32 bytes (all but the checksum).
fn header(houses: usize, n: usize, count: u64) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&(houses as u32).to_le_bytes());
    h.extend_from_slice(&(n as u32).to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    h.extend_from_slice(&count.to_le_bytes());
    h
}

fn save_level(path: &Path, houses: usize, n: usize, values: &[i8]) -> std::io::Result<()> {
    Level::save(path, "Oware database level", &header(houses, n, values.len() as u64), values)
        .map_err(std::io::Error::other)
}

/// The level's file mapped, `None` when it does not exist; an error when it exists but is not this level.
fn open_level(path: &Path, houses: usize, n: usize, count: u64) -> std::io::Result<Option<Level>> {
    Level::open(path, HEADER - 8, |bytes| check_level(bytes, houses, n, count)).map_err(std::io::Error::other)
}

/// Whether `bytes` is the file of level `n` of `houses` houses with `count` boards: header, length, checksum.
fn check_level(bytes: &[u8], houses: usize, n: usize, count: u64) -> Result<(), String> {
    let head = header(houses, n, count);
    if bytes.len() >= 12 && bytes[..8] == head[..8] && bytes[8..12] == 1u32.to_le_bytes() {
        return Err("an oware database level of version 1 (no checksum): build the databases again".into());
    }
    value_table::check::<i8>(bytes, &head, count).map_err(|flaw| match flaw {
        Flaw::Header => format!("not the oware database level of {houses} houses and {n} seeds (wrong header)"),
        Flaw::Length { len, want } => {
            format!("the level of {n} seeds has {len} bytes, {want} expected (truncated or damaged)")
        }
        Flaw::Checksum => format!("the level of {n} seeds is damaged (checksum mismatch)"),
    })
}

static TABLES: [OnceLock<Option<Tables>>; MAX_HOUSES + 1] = [const { OnceLock::new() }; MAX_HOUSES + 1];

/// The tables the engine probes: the levels in `$PLATEAU_OWARE_DB` when that directory is set (every level present
/// from 0 up, none built), otherwise the levels of at most [`DEFAULT_BUDGET`] boards in all, built in memory.
pub(crate) fn prepare(g: &Oware) {
    TABLES[g.houses].get_or_init(|| {
        let ranker = Ranker::new(2 * g.houses, MAX_LEVEL);
        if let Some(dir) = std::env::var_os("PLATEAU_OWARE_DB") {
            let dir = PathBuf::from(dir);
            let mut top = None;
            for n in 0..=MAX_LEVEL.min(g.total()) {
                if level_path(&dir, g.houses, n).exists() {
                    top = Some(n);
                } else {
                    break;
                }
            }
            return top.and_then(|n| Tables::build(g.houses, n, Some(&dir), false).ok()).map(|(t, _)| t);
        }
        let (mut n, mut sum) = (0, ranker.count(0));
        while n < g.total().min(MAX_LEVEL) && sum + ranker.count(n + 1) <= DEFAULT_BUDGET {
            n += 1;
            sum += ranker.count(n);
        }
        Tables::build(g.houses, n, None, false).ok().map(|(t, _)| t)
    });
}

/// The final seed difference for the side to move that the prepared tables give (stores plus the database value of
/// the board), for a position that is not over.
pub(crate) fn probe_final(g: &Oware, s: &OwareState) -> Option<i32> {
    let t = TABLES[g.houses].get()?.as_ref()?;
    if g.decided(s) {
        return None;
    }
    let v = t.probe(g, s)?;
    Some(s.stores[s.stm.index()] as i32 - s.stores[s.stm.other().index()] as i32 + v)
}
