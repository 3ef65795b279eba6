//! Retrograde analysis: the strong solution (value and distance in plies) of every position reachable from a root.
//!
//! ```text
//! enumerate:   breadth-first from the root; index[state] := 0, 1, 2, ... (open addressing on the key, full-state compare)
//!              succ[i] := indices of the children of i (compressed rows: succ_start, succ)
//!              terminal[i] := outcome(i) from the side to move's view
//! keys:        key[i] := Zobrist key of state i; two distinct states with one key are an error (collision)
//! predecessors: pred := the transpose of succ (counting sort: compressed rows again); left[i] := out-degree of i
//! backward pass, a FIFO queue in order of distance:
//!     every terminal: win or loss at distance 0 (a drawn terminal is a draw and is never queued)
//!     pop c (value v, distance d):
//!         for each predecessor p of c that is still unknown:
//!             v = loss:  p := win at d + 1, push p          -- first found = shortest win (the queue is ordered)
//!             v = win:   left[p] -= 1; if left[p] = 0: p := loss at d + 1, push p   -- last child = longest loss
//!     every position still unknown is a draw (distance 0)
//! ```
//!
//! The result is the same as [`crate::solve::generic`]'s strong mode on every position: the winner takes the fastest
//! win, the loser the slowest loss, a draw beats a loss. Memory is counted before and during the run and the
//! analysis stops with an error (nothing allocated beyond the bound's order) when it would exceed
//! [`RetroOptions::max_bytes`]. The output is sorted by key, ready for [`crate::solve::db`].

use std::mem::size_of;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use crate::game::{FullGame, MoveList, Outcome};

use super::retro_resume::{self, Checkpoint, Enumeration};

/// The value of a position for its side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Loss,
    Draw,
    Win,
}

impl Value {
    /// `win`, `draw` or `loss`.
    pub fn word(self) -> &'static str {
        match self {
            Value::Loss => "loss",
            Value::Draw => "draw",
            Value::Win => "win",
        }
    }
    /// The same value seen by the other player.
    pub fn flip(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }
}

/// Largest distance the packed encoding holds.
pub(crate) const MAX_DISTANCE: u32 = (1 << 14) - 1;

/// Packed entry: bits 0-1 the value (0 loss, 1 draw, 2 win), bits 2-15 the distance in plies.
pub(crate) fn pack(v: Value, distance: u32) -> u16 {
    let code = match v {
        Value::Loss => 0,
        Value::Draw => 1,
        Value::Win => 2,
    };
    ((distance.min(MAX_DISTANCE) as u16) << 2) | code
}

/// The inverse of [`pack`]; `None` for the unused code 3.
pub fn unpack(p: u16) -> Option<(Value, u32)> {
    let v = match p & 3 {
        0 => Value::Loss,
        1 => Value::Draw,
        2 => Value::Win,
        _ => return None,
    };
    Some((v, (p >> 2) as u32))
}

/// Run options.
#[derive(Clone, Debug)]
pub struct RetroOptions {
    /// Refuse to go on when the estimated memory would exceed this many bytes.
    pub max_bytes: u64,
    /// Progress bars on stderr.
    pub progress: bool,
    /// Keep the enumeration in a checkpoint file and resume from it ([`super::retro_resume`]).
    pub checkpoint: Option<Checkpoint>,
}

impl Default for RetroOptions {
    fn default() -> Self {
        RetroOptions { max_bytes: 2 << 30, progress: false, checkpoint: None }
    }
}

/// Why an analysis stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RetroError {
    #[error(
        "over the memory bound: {positions} positions and {moves} moves found so far would need about {needed} bytes, more than --max-memory ({limit} bytes)"
    )]
    Memory { positions: u64, moves: u64, needed: u64, limit: u64 },
    #[error("more than 2^32 - 1 positions or moves: too large for retrograde analysis")]
    TooLarge,
    #[error(
        "Zobrist key collision: two different positions have the key {0:016x}; the database could not tell them apart"
    )]
    Collision(u64),
    #[error("a distance of more than {MAX_DISTANCE} plies does not fit the database encoding")]
    Distance,
    #[error("a non-terminal position has more than 65535 moves")]
    Degree,
    #[error(
        "interrupted after {expanded} of the {found} positions found so far were expanded; saved to {path}: the same command goes on from there"
    )]
    Interrupted { expanded: u64, found: u64, path: String },
    #[error("{0}")]
    Checkpoint(String),
}

/// The strong solution, sorted by key.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Zobrist keys, strictly increasing.
    pub keys: Vec<u64>,
    /// Packed value and distance ([`pack`]) of `keys[i]`'s position.
    pub entries: Vec<u16>,
    pub root_key: u64,
    pub moves: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// Largest distance found.
    pub(crate) max_distance: u32,
    /// Estimated peak memory of the run, in bytes.
    pub(crate) peak_bytes: u64,
    pub seconds: f64,
}

impl Solution {
    /// The number of positions solved.
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    /// Whether no position was solved.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
    /// Value and distance of the position with this key.
    pub fn get(&self, key: u64) -> Option<(Value, u32)> {
        self.keys.binary_search(&key).ok().and_then(|i| unpack(self.entries[i]))
    }
}

/// Bytes per position and per move of the run, for the estimate printed before it starts.
#[derive(Copy, Clone, Debug)]
pub struct Cost {
    pub(crate) per_position: u64,
    pub(crate) per_move: u64,
}

impl Cost {
    /// Estimated peak bytes for `n` positions and `e` moves.
    pub fn bytes(&self, n: u64, e: u64) -> u64 {
        n.saturating_mul(self.per_position).saturating_add(e.saturating_mul(self.per_move))
    }
    /// Largest position count that fits `max_bytes`, assuming `moves_per_position` moves each.
    pub(crate) fn positions_within(&self, max_bytes: u64, moves_per_position: u64) -> u64 {
        max_bytes / (self.per_position + moves_per_position * self.per_move).max(1)
    }
}

/// The memory model of [`analyse`] for the game `G`, in bytes. Enumeration holds the states (a vector that may be up
/// to twice its length while it grows), the index ([`Index`]: 4-byte slots, load between 1/3 and 2/3, the old table
/// alive while it doubles: at most 18 bytes a position), the row starts (4) and the outcomes (1); the successor list
/// takes 4 bytes a move, up to 8 while its vector grows or while the predecessor list (4 a move) is built from it.
/// The later phases need less per position (keys 8, sort order 4, out-degrees 2, predecessor starts 4, entries 2,
/// queue 4, outcomes 1: 25; then 10 for the sorted output), so the estimate is `2 * size_of(state) + 23` a position
/// (at least 25) and 8 a move.
pub fn cost<G: FullGame>() -> Cost {
    let s = size_of::<G::State>() as u64;
    Cost { per_position: (2 * s + 23).max(25), per_move: 8 }
}

/// The enumeration's index: open addressing with linear probing over 4-byte slots holding indices into the state
/// vector, hashed by the Zobrist key and compared on the full state (so equal keys of different states are two
/// entries, found later as a collision). Grows by doubling at a load of 2/3.
struct Index {
    slots: Vec<u32>,
    len: usize,
    shift: u32,
}

const EMPTY: u32 = u32::MAX;

impl Index {
    fn new() -> Index {
        Index { slots: vec![EMPTY; 1 << 10], len: 0, shift: 64 - 10 }
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Insert index `v` (known to be absent) of a state with this key.
    fn insert_new(&mut self, key: u64, v: u32) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        while self.slots[i] != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = v;
        self.len += 1;
    }

    /// Insert index `v` (known to be absent), growing first if needed: rebuilding the index of resumed positions.
    fn insert_grown<G: FullGame>(&mut self, game: &G, states: &[G::State], key: u64, v: u32) {
        if (self.len + 1) * 3 > self.slots.len() * 2 {
            self.grow(game, &states[..v as usize]);
        }
        self.insert_new(key, v);
    }

    fn grow<G: FullGame>(&mut self, game: &G, states: &[G::State]) {
        let bits = 64 - self.shift + 1;
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; 1 << bits]);
        self.shift = 64 - bits;
        self.len = 0;
        for v in old.into_iter().filter(|&v| v != EMPTY) {
            self.insert_new(game.key(&states[v as usize]), v);
        }
    }

    /// The index of `s`, appended to `states` if it is new.
    #[inline]
    fn find_or_insert<G: FullGame>(
        &mut self,
        game: &G,
        states: &mut Vec<G::State>,
        s: G::State,
    ) -> Result<u32, RetroError> {
        if (self.len + 1) * 3 > self.slots.len() * 2 {
            self.grow(game, states);
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(game.key(&s));
        loop {
            let v = self.slots[i];
            if v == EMPTY {
                if states.len() >= EMPTY as usize {
                    return Err(RetroError::TooLarge);
                }
                let v = states.len() as u32;
                self.slots[i] = v;
                self.len += 1;
                states.push(s);
                return Ok(v);
            }
            if states[v as usize] == s {
                return Ok(v);
            }
            i = (i + 1) & mask;
        }
    }
}

fn spinner(show: bool, what: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} {human_pos} [{elapsed_precise}] {per_sec}") {
        bar.set_style(style);
    }
    bar.set_message(what.to_string());
    bar
}

fn bar(show: bool, len: u64, what: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) =
        ProgressStyle::with_template("{msg} {bar:40} {human_pos}/{human_len} [{elapsed_precise} < {eta}]")
    {
        bar.set_style(style);
    }
    bar.set_message(what.to_string());
    bar
}

/// The outcome as the enumeration stores it: 0 not over, 1 win, 2 loss, 3 draw (for the side to move).
pub(crate) fn outcome_code(o: Option<Outcome>) -> u8 {
    match o {
        None => 0,
        Some(Outcome::Win) => 1,
        Some(Outcome::Loss) => 2,
        Some(Outcome::Draw) => 3,
        Some(Outcome::Value(v)) => match v.signum() {
            1 => 1,
            -1 => 2,
            _ => 3,
        },
    }
}

/// A checkpoint that could not be saved (the error names the file: [`crate::files::replace`]).
fn checkpoint_error(e: std::io::Error) -> RetroError {
    RetroError::Checkpoint(e.to_string())
}

fn interrupted(cp: &Checkpoint, expanded: usize, found: usize) -> RetroError {
    RetroError::Interrupted { expanded: expanded as u64, found: found as u64, path: cp.path.display().to_string() }
}

/// Strongly solve every position reachable from `root` (see the module documentation).
pub fn analyse<G: FullGame>(game: &G, root: &G::State, opts: &RetroOptions) -> Result<Solution, RetroError> {
    let start = Instant::now();
    let cost = cost::<G>();
    let limit = opts.max_bytes;
    let over = |n: u64, e: u64| -> Result<(), RetroError> {
        let needed = cost.bytes(n, e);
        if needed > limit { Err(RetroError::Memory { positions: n, moves: e, needed, limit }) } else { Ok(()) }
    };

    // 1. Enumeration (resumed from the checkpoint when there is one).
    let resumed = match &opts.checkpoint {
        Some(cp) => retro_resume::load(game, root, cp).map_err(RetroError::Checkpoint)?,
        None => None,
    };
    let Enumeration { mut states, mut succ_start, mut succ, mut terminal } = resumed.unwrap_or_else(|| Enumeration {
        states: vec![*root],
        succ_start: vec![0],
        succ: Vec::new(),
        terminal: Vec::new(),
    });
    let mut index = Index::new();
    for (v, s) in states.iter().enumerate() {
        index.insert_grown(game, &states, game.key(s), v as u32);
    }
    let root_key = game.key(root);
    let spin = spinner(opts.progress, "enumerating positions");
    let mut moves = MoveList::new();
    let mut i = terminal.len();
    let mut saved = Instant::now();
    while i < states.len() {
        let s = states[i];
        let o = game.outcome(&s);
        terminal.push(outcome_code(o));
        if o.is_none() {
            game.generate_moves(&s, &mut moves);
            for &m in &moves {
                let mut c = s;
                game.play(&mut c, m);
                let j = index.find_or_insert(game, &mut states, c)?;
                succ.push(j);
            }
        }
        if succ.len() >= u32::MAX as usize {
            return Err(RetroError::TooLarge);
        }
        succ_start.push(succ.len() as u32);
        i += 1;
        if i & 0xfff == 0 {
            over(states.len() as u64, succ.len() as u64)?;
            spin.set_position(i as u64);
            if let Some(cp) = &opts.checkpoint {
                let stop = cp.interrupted();
                if stop || saved.elapsed().as_secs_f64() >= cp.save_every {
                    spin.set_message("enumerating positions (saving a checkpoint)");
                    let e = Enumeration { states, succ_start, succ, terminal };
                    retro_resume::save(cp, root_key, &e).map_err(checkpoint_error)?;
                    Enumeration { states, succ_start, succ, terminal } = e;
                    spin.set_message("enumerating positions");
                    saved = Instant::now();
                    if stop {
                        spin.finish_and_clear();
                        return Err(interrupted(cp, i, states.len()));
                    }
                }
            }
        }
    }
    spin.finish_and_clear();
    let n = states.len();
    let e = succ.len() as u64;
    over(n as u64, e)?;
    let peak_bytes = cost.bytes(n as u64, e);
    drop(index);
    if let Some(cp) = &opts.checkpoint {
        let e = Enumeration { states, succ_start, succ, terminal };
        retro_resume::save(cp, root_key, &e).map_err(checkpoint_error)?;
        Enumeration { states, succ_start, succ, terminal } = e;
    }
    // Interrupted later: the checkpoint holds the whole enumeration, the next run replays it and does the rest.
    let stop = || -> Result<(), RetroError> {
        match &opts.checkpoint {
            Some(cp) if cp.interrupted() => Err(interrupted(cp, n, n)),
            _ => Ok(()),
        }
    };

    // 2. Keys, and a check that no two positions share one.
    let keys: Vec<u64> = states.iter().map(|s| game.key(s)).collect();
    drop(states);
    stop()?;
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_unstable_by_key(|&i| keys[i as usize]);
    for w in order.windows(2) {
        if keys[w[0] as usize] == keys[w[1] as usize] {
            return Err(RetroError::Collision(keys[w[0] as usize]));
        }
    }

    // 3. Predecessors (the transpose of succ) and the out-degrees.
    let mut left: Vec<u16> = Vec::with_capacity(n);
    for i in 0..n {
        let d = succ_start[i + 1] - succ_start[i];
        left.push(u16::try_from(d).map_err(|_| RetroError::Degree)?);
    }
    let mut pred_start: Vec<u32> = vec![0; n + 1];
    for &c in &succ {
        pred_start[c as usize + 1] += 1;
    }
    for i in 0..n {
        pred_start[i + 1] += pred_start[i];
    }
    let mut fill: Vec<u32> = pred_start[..n].to_vec();
    let mut pred: Vec<u32> = vec![0; succ.len()];
    for p in 0..n {
        for &c in &succ[succ_start[p] as usize..succ_start[p + 1] as usize] {
            pred[fill[c as usize] as usize] = p as u32;
            fill[c as usize] += 1;
        }
    }
    drop(fill);
    drop(succ);
    drop(succ_start);
    stop()?;

    // 4. Backward pass.
    const UNKNOWN: u16 = 3;
    let mut entry: Vec<u16> = vec![UNKNOWN; n];
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    for (i, &t) in terminal.iter().enumerate() {
        match t {
            1 => {
                entry[i] = pack(Value::Win, 0);
                queue.push(i as u32);
            }
            2 => {
                entry[i] = pack(Value::Loss, 0);
                queue.push(i as u32);
            }
            3 => entry[i] = pack(Value::Draw, 0),
            _ => {}
        }
    }
    drop(terminal);
    let progress = bar(opts.progress, n as u64, "backward pass (positions decided)");
    let mut head = 0usize;
    let mut max_distance = 0u32;
    while head < queue.len() {
        let c = queue[head] as usize;
        head += 1;
        if head & 0xffff == 0 {
            progress.set_position(head as u64);
            stop()?;
        }
        let (v, d) = unpack(entry[c]).ok_or(RetroError::Distance)?;
        if d + 1 > MAX_DISTANCE {
            // Only a parent could need d + 1; check whether one is still open.
            if pred[pred_start[c] as usize..pred_start[c + 1] as usize].iter().any(|&p| entry[p as usize] == UNKNOWN) {
                return Err(RetroError::Distance);
            }
            continue;
        }
        for &p in &pred[pred_start[c] as usize..pred_start[c + 1] as usize] {
            let p = p as usize;
            if entry[p] != UNKNOWN {
                continue;
            }
            match v {
                Value::Loss => {
                    entry[p] = pack(Value::Win, d + 1);
                    max_distance = max_distance.max(d + 1);
                    queue.push(p as u32);
                }
                Value::Win => {
                    left[p] -= 1;
                    if left[p] == 0 {
                        entry[p] = pack(Value::Loss, d + 1);
                        max_distance = max_distance.max(d + 1);
                        queue.push(p as u32);
                    }
                }
                Value::Draw => {}
            }
        }
    }
    progress.finish_and_clear();
    drop(queue);
    drop(pred);
    drop(pred_start);
    drop(left);

    // 5. What is left is drawn; sort by key.
    let (mut wins, mut losses, mut draws) = (0u64, 0u64, 0u64);
    for x in entry.iter_mut() {
        if *x == UNKNOWN {
            *x = pack(Value::Draw, 0);
        }
        match *x & 3 {
            0 => losses += 1,
            2 => wins += 1,
            _ => draws += 1,
        }
    }
    let sorted_keys: Vec<u64> = order.iter().map(|&i| keys[i as usize]).collect();
    let sorted_entries: Vec<u16> = order.iter().map(|&i| entry[i as usize]).collect();
    Ok(Solution {
        keys: sorted_keys,
        entries: sorted_entries,
        root_key,
        moves: e,
        wins,
        losses,
        draws,
        max_distance,
        peak_bytes,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// A position's value and distance, and its best moves.
pub(crate) type Answer<M> = ((Value, u32), Vec<M>);

/// The value and distance of `state` looked up through `lookup`, with its best moves: every move to a child that is
/// lost for the opponent at the smallest distance (win), drawn (draw), or won at the largest distance (loss).
/// `None` when the position or one of its children is missing.
pub fn best_moves<G: FullGame>(
    game: &G,
    state: &G::State,
    lookup: impl Fn(u64) -> Option<(Value, u32)>,
) -> Option<Answer<G::Move>> {
    let here = lookup(game.key(state))?;
    if game.is_terminal(state) {
        return Some((here, Vec::new()));
    }
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let mut best = Vec::new();
    for &m in &moves {
        let mut c = *state;
        game.play(&mut c, m);
        let (cv, cd) = lookup(game.key(&c))?;
        if cv.flip() == here.0 && (here.0 == Value::Draw || cd + 1 == here.1) {
            best.push(m);
        }
    }
    Some((here, best))
}
