//! Checkers endgame databases by retrograde analysis: the value (win, draw or loss for the side to move, with the
//! plies to the end of the game under perfect play) of every position with up to `N` pieces.
//!
//! The databases' game is checkers without the draw rule (as published databases are): a game that goes on for
//! ever is a draw. A database draw is a draw of the game under either draw rule (a draw rule only turns wins into
//! draws); a win or loss in `d` plies is one under the game's draw rule when the plies already counted by the rule
//! plus `d` stay below its limit ([`probe_outcome`], what the engine asks).
//!
//! Positions are grouped by material signature ([`Sig`], seen from the side to move, indexed by [`super::rank`]).
//! A capture leads to fewer pieces and a promotion to fewer men, so the signatures are solved by increasing piece
//! count, then increasing men; a signature is solved together with its flip (the same material, the other side to
//! move), which quiet moves lead to ([`super::db_solve`]).
//!
//! Values are `u16`, one per entry of a signature's table, packed as [`crate::solve::retro::pack`] packs them: bits
//! 0-1 the value (0 loss, 1 draw, 2 win, 3 no position: a hole of the index), bits 2-15 the distance in plies.
//! Files: `DIR/checkers-{own men}-{own kings}-{opp men}-{opp kings}.db`, a 32-byte header (`PLTCKRDB`, version u32
//! 1, the four counts as bytes, entries u64, then the FNV-1a checksum u64 of the header's first 24 bytes and the
//! values) then the values (little-endian): a [`crate::files::value_table`], as the Oware levels are. Each file is
//! written to a temporary file and renamed when complete ([`crate::files::write_atomic`]); a build reads the files
//! present (header, length and checksum checked: a damaged file is a one-line error naming it) and solves the first
//! class missing, so an interrupted build goes on where it stopped. Files are read through a memory map.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use super::db_solve::{self, state};
use super::rank::{Sig, signatures};
use super::{Checkers, CheckersMove, CheckersState};
use crate::files::value_table::{self, Flaw, ValueTable};
use crate::game::{Game, MoveList, Outcome, Side};

pub(super) const LOSS: u16 = 0;
pub(super) const DRAW: u16 = 1;
pub(super) const WIN: u16 = 2;
/// An entry of the index that is no position.
pub(super) const HOLE: u16 = 3;
/// The largest distance the packing holds.
const MAX_DISTANCE: u32 = (1 << 14) - 1;

const MAGIC: &[u8; 8] = b"PLTCKRDB";
const VERSION: u32 = 1;
const HEADER: usize = 32;
/// The most pieces a signature may have in the tables' slots (each count at most 15).
const SLOT: usize = 16;

/// The most pieces `plateau solve checkers --method retro --db-pieces N` builds (6 pieces: 2.5 billion positions).
pub(crate) const MAX_PIECES: usize = 6;

#[inline]
pub(super) fn pack(code: u16, distance: u32) -> u16 {
    (distance.min(MAX_DISTANCE) as u16) << 2 | code
}

#[inline]
pub(super) fn code(v: u16) -> u16 {
    v & 3
}

#[inline]
pub(super) fn distance(v: u16) -> u32 {
    (v >> 2) as u32
}

/// A position's value for its side to move, with the plies to the end of the game under perfect play (the winner
/// the fewest, the loser the most).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "result", content = "plies", rename_all = "lowercase")]
pub enum Value {
    Win(u32),
    Draw,
    Loss(u32),
}

impl Value {
    fn of(v: u16) -> Option<Value> {
        match code(v) {
            LOSS => Some(Value::Loss(distance(v))),
            DRAW => Some(Value::Draw),
            WIN => Some(Value::Win(distance(v))),
            _ => None,
        }
    }

    /// The value of the position before a move to a position of value `self`.
    pub fn before(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        }
    }

    /// Plies to the end for a win or a loss; `None` for a draw.
    pub fn plies(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// Better for the side to move: a win before a draw before a loss, a faster win, a slower loss.
    fn rank(self) -> i64 {
        match self {
            Value::Win(d) => 1_000_000 - d as i64,
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + d as i64,
        }
    }
}

/// One signature's values.
type Table = ValueTable<u16>;

/// What a build did, per piece count.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PieceReport {
    pub pieces: usize,
    pub signatures: usize,
    /// The placements of this many pieces (Schaeffer's count: each is a position with either side to move).
    pub positions: u64,
    /// Values for the side to move, over the positions.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The longest win or loss, in plies.
    pub max_plies: u32,
    /// Bytes of the tables (the files without their headers).
    pub bytes: u64,
    /// False when every table was read from its file.
    pub built: bool,
    pub seconds: f64,
}

/// The tables of every signature with `1..=max_pieces` pieces.
pub struct Tables {
    max_pieces: usize,
    tables: Vec<Option<Table>>,
}

#[inline]
fn slot(s: Sig) -> usize {
    ((s.own_men as usize * SLOT + s.own_kings as usize) * SLOT + s.opp_men as usize) * SLOT + s.opp_kings as usize
}

/// The position of `s` seen from its side to move, turned so that it moves down: `(own, opp, kings)`.
#[inline]
pub fn canonical(s: &CheckersState) -> (u32, u32, u32) {
    match s.stm {
        Side::First => (s.black, s.white, s.kings),
        Side::Second => (s.white.reverse_bits(), s.black.reverse_bits(), s.kings.reverse_bits()),
    }
}

impl Tables {
    fn empty(max_pieces: usize) -> Tables {
        Tables { max_pieces, tables: (0..SLOT.pow(4)).map(|_| None).collect() }
    }

    fn insert(&mut self, s: Sig, t: Table) {
        self.tables[slot(s)] = Some(t);
    }

    /// The packed value of a position seen from its side to move, if its signature is held.
    #[inline]
    pub(super) fn raw(&self, own: u32, opp: u32, kings: u32) -> Option<u16> {
        let s = Sig::of(own, opp, kings);
        if s.pieces() == 0 || s.pieces() > self.max_pieces {
            return None;
        }
        self.tables[slot(s)].as_ref().map(|t| t.get(s.index(own, opp, kings)))
    }

    /// The database value of `s` for its side to move, if it has at most `max_pieces` pieces.
    pub fn probe(&self, s: &CheckersState) -> Option<Value> {
        let (own, opp, kings) = canonical(s);
        self.raw(own, opp, kings).and_then(Value::of)
    }

    /// The value of every legal move of `s` for its side to move (empty when `s` is not in the tables).
    pub fn move_values(&self, g: &Checkers, s: &CheckersState) -> Vec<(CheckersMove, Value)> {
        if self.probe(s).is_none() {
            return Vec::new();
        }
        let mut moves = MoveList::new();
        super::movegen::generate(s, &mut moves);
        let mut out = Vec::new();
        for &m in moves.iter() {
            let mut c = *s;
            g.play(&mut c, m);
            if let Some(v) = self.probe(&c) {
                out.push((m, v.before()));
            }
        }
        out
    }

    /// The best moves among `move_values`.
    pub fn best(values: &[(CheckersMove, Value)]) -> Vec<CheckersMove> {
        let top = values.iter().map(|(_, v)| v.rank()).max();
        values.iter().filter(|(_, v)| Some(v.rank()) == top).map(|(m, _)| *m).collect()
    }

    /// Build (or read from `dir`) every signature with up to `max_pieces` pieces. With `stop` set (Ctrl-C), the
    /// build ends between two steps with an error saying what is saved.
    pub fn build(
        max_pieces: usize,
        dir: Option<&Path>,
        progress: bool,
        stop: Option<&AtomicBool>,
    ) -> Result<(Tables, Vec<PieceReport>), String> {
        if max_pieces > SLOT - 1 {
            return Err(format!("at most {} pieces", SLOT - 1));
        }
        let mut t = Tables::empty(max_pieces);
        let mut reports = Vec::new();
        let mut saved = 0usize;
        for n in 1..=max_pieces {
            let start = Instant::now();
            let mut built = false;
            for class in classes(n) {
                let files: Vec<Option<PathBuf>> = class.iter().map(|&s| dir.map(|d| table_path(d, s))).collect();
                let mut read = Vec::new();
                for (&s, f) in class.iter().zip(&files) {
                    if let Some(f) = f
                        && let Some(table) = open_table(f, s)?
                    {
                        read.push((s, table));
                    }
                }
                if read.len() == class.len() {
                    for (s, table) in read {
                        t.insert(s, table);
                    }
                    continue;
                }
                for f in files.iter().flatten() {
                    // Before the work: a file plateau would refuse to write (a symbolic link, a device).
                    crate::files::check_output(f, "checkers database")?;
                }
                let size: u64 = class.iter().map(|s| s.size()).sum();
                let names: Vec<String> = class.iter().map(|s| s.name()).collect();
                let bar = bar(progress, 2 * size, &format!("{n} pieces, {}: {size} entries", names.join(" ")));
                let stopped = || {
                    format!(
                        "stopped: the checkers databases of {saved} signatures are saved{}",
                        dir.map(|d| format!(" in {}; the same command goes on from there", d.display()))
                            .unwrap_or_default()
                    )
                };
                let Some(values) = db_solve::solve_class(&t, class.clone(), stop, &bar)? else {
                    bar.finish_and_clear();
                    return Err(stopped());
                };
                bar.finish_and_clear();
                built = true;
                for ((&s, f), v) in class.iter().zip(&files).zip(values) {
                    let table = match f {
                        Some(f) => {
                            save_table(f, s, &v)?;
                            saved += 1;
                            open_table(f, s)?.ok_or_else(|| format!("{}: cannot read it", f.display()))?
                        }
                        None => Table::Mem(v),
                    };
                    t.insert(s, table);
                }
            }
            reports.push(t.report(n, built, start.elapsed().as_secs_f64()));
        }
        Ok((t, reports))
    }

    /// The counts of the tables of `n` pieces.
    fn report(&self, n: usize, built: bool, seconds: f64) -> PieceReport {
        let sigs = signatures(n);
        let mut r = PieceReport {
            pieces: n,
            signatures: sigs.len(),
            positions: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            max_plies: 0,
            bytes: 0,
            built,
            seconds,
        };
        for s in sigs {
            let Some(t) = &self.tables[slot(s)] else { continue };
            r.bytes += 2 * s.size();
            for i in 0..s.size() {
                match Value::of(t.get(i)) {
                    Some(Value::Win(d)) => (r.wins, r.max_plies) = (r.wins + 1, r.max_plies.max(d)),
                    Some(Value::Loss(d)) => (r.losses, r.max_plies) = (r.losses + 1, r.max_plies.max(d)),
                    Some(Value::Draw) => r.draws += 1,
                    None => {}
                }
            }
        }
        r.positions = r.wins + r.draws + r.losses;
        r
    }
}

/// The classes of `n` pieces in the order they are solved: by men (a promotion leads to fewer), each a signature
/// and its flip.
fn classes(n: usize) -> Vec<Vec<Sig>> {
    let mut sigs: Vec<Sig> = signatures(n).into_iter().filter(|&s| s <= s.flipped()).collect();
    sigs.sort_by_key(|&s| (s.men(), s));
    sigs.into_iter().map(|s| if s == s.flipped() { vec![s] } else { vec![s, s.flipped()] }).collect()
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

/// The file of signature `s`.
pub(crate) fn table_path(dir: &Path, s: Sig) -> PathBuf {
    dir.join(format!("checkers-{}.db", s.name()))
}

/// Whether every table of `1..=n` pieces has its file in `dir`.
pub fn complete(dir: &Path, n: usize) -> bool {
    (1..=n).all(|k| signatures(k).into_iter().all(|s| table_path(dir, s).exists()))
}

/// The header's first 24 bytes (all but the checksum).
fn header(s: Sig) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&[s.own_men, s.own_kings, s.opp_men, s.opp_kings]);
    h.extend_from_slice(&s.size().to_le_bytes());
    h
}

fn save_table(path: &Path, s: Sig, values: &[u16]) -> Result<(), String> {
    Table::save(path, "checkers database", &header(s), values)
}

/// The table of `s` from its file, `None` when it does not exist; an error when it exists but is not that table.
fn open_table(path: &Path, s: Sig) -> Result<Option<Table>, String> {
    Table::open(path, HEADER - 8, |bytes| check_table(bytes, s))
}

/// Whether `bytes` is the file of signature `s`: header, length, checksum.
fn check_table(bytes: &[u8], s: Sig) -> Result<(), String> {
    value_table::check::<u16>(bytes, &header(s), s.size()).map_err(|flaw| match flaw {
        Flaw::Header => format!("not the checkers database of {} (wrong header)", s.name()),
        Flaw::Length { len, want } => format!("{len} bytes, {want} expected (truncated or damaged)"),
        Flaw::Checksum => "damaged (checksum mismatch)".into(),
    })
}

static TABLES: OnceLock<Option<Tables>> = OnceLock::new();

/// The tables the engine probes: those in `$PLATEAU_CHECKERS_DB` when that directory is set (every piece count
/// complete from 1 up; none built, a damaged file leaves the engine without tables).
pub(crate) fn prepare() {
    TABLES.get_or_init(|| {
        let dir = PathBuf::from(std::env::var_os("PLATEAU_CHECKERS_DB")?);
        let top = (1..=SLOT - 1).take_while(|&n| complete(&dir, n)).last()?;
        Tables::build(top, Some(&dir), false, None).ok().map(|(t, _)| t)
    });
}

/// What the prepared tables prove about `s`: a draw, or a win or loss in `d` plies when the game's draw rule
/// cannot come first (the plies it already counts plus `d` below its limit).
pub(crate) fn probe_outcome(g: &Checkers, s: &CheckersState) -> Option<(Outcome, u32)> {
    let t = TABLES.get()?.as_ref()?;
    if s.quiet >= g.draw_plies() {
        return None;
    }
    match t.probe(s)? {
        Value::Draw => Some((Outcome::Draw, 0)),
        Value::Win(d) if (s.quiet as u32 + d) < g.draw_plies() as u32 => Some((Outcome::Win, d)),
        Value::Loss(d) if (s.quiet as u32 + d) < g.draw_plies() as u32 => Some((Outcome::Loss, d)),
        _ => None,
    }
}

/// The position of a table entry as a game state (for tests and checks): `None` for a hole.
pub fn entry_state(g: &Checkers, s: Sig, i: u64) -> Option<CheckersState> {
    let (own, opp, kings) = s.position(i)?;
    let mut st = state(own, opp, kings);
    st.key = g.compute_key_of(&st);
    Some(st)
}
