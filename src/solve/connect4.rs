//! A strong Connect Four solver on bitboards, in the style of Pascal Pons's tutorial solver, with a few additions.
//!
//! # Board
//! Column `c` occupies bits `c*(H+1) .. c*(H+1)+H`; bit `c*(H+1)+H` is a *sentinel* that is never set, so that
//! adding the bottom mask to the occupancy mask gives the next free cell of every column, and so that shifts by
//! `H`, `H+1`, `H+2` (the diagonal, horizontal and anti-diagonal directions) never wrap a line into the next column.
//! A position is `current` (stones of the side to move) and `mask` (all stones); `current + mask` is a unique key
//! (each column's stones of the side to move plus a carry bit above the column's top stone).
//!
//! # Score (Pons's convention)
//! A win with the winner's `s`-th stone scores `(W*H)/2 + 1 - s` for the winner and the negation for the loser; a
//! draw scores 0. A side that can win at once scores `(W*H + 1 - n)/2` (`n` stones played).
//!
//! # Search
//! ```text
//! negamax(P, α, β):                                  -- P: the side to move cannot win at once
//!     nodes += 1
//!     safe := moves that neither leave the opponent an immediate win (if the opponent has one threat on a
//!             playable cell we must play there; two: we lose) nor play under an opponent's threat
//!     if safe = ∅: return -(W*H - n)/2               -- the opponent wins with its next stone
//!     if n >= W*H - 2: return 0                       -- board full after the last two stones: a draw
//!     α := max(α, -(W*H - 2 - n)/2)                   -- the opponent cannot win at its next move
//!     β := min(β, (W*H - 1 - n)/2)                    -- we cannot win at this move
//!     tighten α and β with the transposition table (it keeps both bounds); return if α >= β
//!     if n < W*H - 12: enhanced transposition cut-off: a child whose stored upper bound u has -u >= β
//!         settles the node (store lower bound -u; return -u)
//!     for each safe move m: if m leaves two playable threats of ours, we win with our next stone, which is
//!         the best score possible here: store and return (W*H - 1 - n)/2
//!     order safe moves: the table's remembered cut-off move first, then by the number of threats the move
//!         creates (cells where we would then complete four), ties to the centre
//!     for each move m: v := -negamax(P+m, -β, -α)
//!         if v >= β: store lower bound v with move m; return v
//!         α := max(α, v)
//!     store upper bound α; return α
//!
//! solve(P):                                          -- null-window search narrowing the score (MTD-like)
//!     if P has an immediate win: return (W*H + 1 - n)/2
//!     lo, hi := the score range (weak: -1, 1)
//!     while lo < hi:
//!         med := the middle of [lo, hi], pulled towards 0 (most positions are close to a draw)
//!         r := negamax(P, med, med + 1)
//!         if r <= med: hi := r else lo := r
//!     return lo
//! ```
//!
//! # Transposition table
//! 16-byte entries (full key; lower and upper bound; cut-off move; stone count; generation), two per index in one
//! cache line, multiplicative hashing into a power-of-two table backed by transparent huge pages. A generation number
//! makes "clearing" between positions free. The first entry of a pair keeps the node with the fewest stones (the most
//! work below it); the second is always replaced. A search starts on the first MiB of the table (cache-resident) and
//! moves to the whole table after 16384 nodes, so that easy positions never leave the cache.
//!
//! Optionally ([`Solver::set_symmetry_below`], off by default: it did not pay on the benchmark positions), positions
//! with few stones are stored under the smaller of their key and their mirror image's key; cut-off moves are mirrored
//! accordingly.

use super::advise_huge_pages;
use std::fmt;

/// Largest supported width (a column number fits in 4 bits of a table entry).
pub const MAX_WIDTH: usize = 15;

/// Board dimensions. Two implementations: [`Geometry`] (any size, read at run time) and [`Standard`] (7x6, known at
/// compile time so that every mask and shift folds into a constant). The solver is generic over them.
pub trait Dims: Copy + Send + Sync + std::fmt::Debug + 'static {
    fn width(&self) -> u32;
    fn height(&self) -> u32;
    /// One bit at the bottom of every column.
    fn bottom(&self) -> u64;
    /// Every playable cell.
    fn board(&self) -> u64;

    /// Number of cells.
    #[inline(always)]
    fn cells(&self) -> u32 {
        self.width() * self.height()
    }

    /// The cells of column `c`.
    #[inline(always)]
    fn column_mask(&self, c: u32) -> u64 {
        ((1u64 << self.height()) - 1) << (c * (self.height() + 1))
    }

    /// The column of a one-bit move.
    #[inline(always)]
    fn column_of(&self, mv: u64) -> u32 {
        mv.trailing_zeros() / (self.height() + 1)
    }

    /// Largest score of a position with `n` stones whose side to move wins at once.
    #[inline(always)]
    fn win_now_score(&self, n: u32) -> i32 {
        (self.cells() as i32 + 1 - n as i32) / 2
    }

    /// The cells where `stones` would complete four in a row (empty cells only, playable or not).
    #[inline(always)]
    fn winning_cells(&self, stones: u64, mask: u64) -> u64 {
        let h = self.height();
        // Vertical: three stones directly below.
        let mut r = (stones << 1) & (stones << 2) & (stones << 3);
        // Horizontal (H+1), diagonal (H) and anti-diagonal (H+2): the empty cell may be at any of four places.
        let mut line = |d: u32| {
            let p = (stones << d) & (stones << (2 * d));
            r |= p & (stones << (3 * d));
            r |= p & (stones >> d);
            let p = (stones >> d) & (stones >> (2 * d));
            r |= p & (stones << d);
            r |= p & (stones >> (3 * d));
        };
        line(h + 1);
        line(h);
        line(h + 2);
        r & (self.board() ^ mask)
    }

    /// Mirror image (column `c` becomes column `W-1-c`) of a key or a bitboard.
    #[inline(always)]
    fn mirror(&self, bits: u64) -> u64 {
        let h1 = self.height() + 1;
        let col = (1u64 << h1) - 1;
        let w = self.width();
        let mut out = 0u64;
        for c in 0..w {
            out |= ((bits >> (c * h1)) & col) << ((w - 1 - c) * h1);
        }
        out
    }
}

/// Any board size, read at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    width: u32,
    height: u32,
    bottom: u64,
    board: u64,
}

impl Geometry {
    /// Dimensions with `width*(height+1) <= 64`, `1 <= width <= 15`, `height >= 1`.
    pub fn new(width: u32, height: u32) -> Result<Geometry, String> {
        if width == 0 || height == 0 || width as usize > MAX_WIDTH || width * (height + 1) > 64 {
            return Err(format!(
                "connect_four board {width}x{height} (columns x rows) is not supported: need 1 <= columns <= {MAX_WIDTH}, \
                 rows >= 1 and columns*(rows+1) <= 64"
            ));
        }
        let bottom = bottom_mask(width, height);
        Ok(Geometry { width, height, bottom, board: bottom * ((1u64 << height) - 1) })
    }

    /// The standard 7 columns x 6 rows.
    pub fn standard() -> Geometry {
        Geometry::new(7, 6).expect("7x6 fits")
    }
}

const fn bottom_mask(width: u32, height: u32) -> u64 {
    let mut b = 0u64;
    let mut c = 0;
    while c < width {
        b |= 1u64 << (c * (height + 1));
        c += 1;
    }
    b
}

impl Dims for Geometry {
    #[inline(always)]
    fn width(&self) -> u32 {
        self.width
    }
    #[inline(always)]
    fn height(&self) -> u32 {
        self.height
    }
    #[inline(always)]
    fn bottom(&self) -> u64 {
        self.bottom
    }
    #[inline(always)]
    fn board(&self) -> u64 {
        self.board
    }
}

/// The standard 7x6 board, with compile-time constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Standard;

const STD_BOTTOM: u64 = bottom_mask(7, 6);

impl Dims for Standard {
    #[inline(always)]
    fn width(&self) -> u32 {
        7
    }
    #[inline(always)]
    fn height(&self) -> u32 {
        6
    }
    #[inline(always)]
    fn bottom(&self) -> u64 {
        STD_BOTTOM
    }
    #[inline(always)]
    fn board(&self) -> u64 {
        STD_BOTTOM * 63
    }
}

/// A Connect Four position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Stones of the side to move.
    pub current: u64,
    /// All stones.
    pub mask: u64,
    /// Number of stones played.
    pub moves: u32,
}

/// Why a move sequence is not a valid non-finished position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

impl Position {
    /// The empty board.
    pub fn empty() -> Position {
        Position { current: 0, mask: 0, moves: 0 }
    }

    /// Play a move sequence: columns `1..=W`, written as one string of digits (boards of at most 9 columns) or as
    /// space/comma separated numbers. Errors name the bad move; a sequence whose last move ends the game (four in a
    /// row or a full board) is rejected, as there is nothing left to solve.
    pub fn from_moves<D: Dims>(g: &D, text: &str) -> Result<Position, ParseError> {
        let text = text.trim();
        let words: Vec<&str> = if text.contains([' ', ',', '\t']) {
            text.split([' ', ',', '\t']).filter(|w| !w.is_empty()).collect()
        } else if g.width() <= 9 {
            (0..text.len()).filter_map(|i| text.get(i..i + 1)).collect()
        } else if text.is_empty() {
            Vec::new()
        } else {
            vec![text]
        };
        let mut p = Position::empty();
        for (i, w) in words.iter().enumerate() {
            let col: u32 = match w.parse::<u32>() {
                Ok(c) if (1..=g.width()).contains(&c) => c - 1,
                _ => {
                    return Err(ParseError(format!(
                        "move {} '{}': expected a column number 1..={}",
                        i + 1,
                        w,
                        g.width()
                    )));
                }
            };
            if p.is_over(g) {
                return Err(ParseError(format!("move {} '{}': the game is already over", i + 1, w)));
            }
            if !p.can_play(g, col) {
                return Err(ParseError(format!("move {} '{}': column {} is full", i + 1, w, col + 1)));
            }
            let wins = p.is_winning_column(g, col);
            p.play_column(g, col);
            if wins {
                // Remember it so that a further move reports "already over" and a final one is rejected below.
                p.moves |= WON_FLAG;
            }
        }
        if p.moves & WON_FLAG != 0 {
            return Err(ParseError("the last move completes four in a row: the game is over".into()));
        }
        if p.moves >= g.cells() {
            return Err(ParseError("the board is full: the game is over (a draw)".into()));
        }
        Ok(p)
    }

    #[inline]
    fn is_over<D: Dims>(&self, g: &D) -> bool {
        self.moves & WON_FLAG != 0 || (self.moves & !WON_FLAG) >= g.cells()
    }

    /// Whether column `c` has room.
    #[inline]
    pub fn can_play<D: Dims>(&self, g: &D, c: u32) -> bool {
        self.mask & g.column_mask(c) != g.column_mask(c)
    }

    /// The cells where a stone may be dropped.
    #[inline(always)]
    pub fn playable<D: Dims>(&self, g: &D) -> u64 {
        (self.mask + g.bottom()) & g.board()
    }

    /// Drop a stone in column `c` (which must have room).
    #[inline]
    pub fn play_column<D: Dims>(&mut self, g: &D, c: u32) {
        self.play((self.mask + (g.bottom() & g.column_mask(c))) & g.column_mask(c));
    }

    /// Play the move given as a one-bit board.
    #[inline(always)]
    pub fn play(&mut self, mv: u64) {
        self.current ^= self.mask;
        self.mask |= mv;
        self.moves += 1;
    }

    /// Whether dropping a stone in column `c` completes four for the side to move.
    #[inline]
    pub fn is_winning_column<D: Dims>(&self, g: &D, c: u32) -> bool {
        g.winning_cells(self.current, self.mask) & self.playable(g) & g.column_mask(c) != 0
    }

    /// Whether the side to move can win at once.
    #[inline(always)]
    pub fn can_win_next<D: Dims>(&self, g: &D) -> bool {
        g.winning_cells(self.current, self.mask) & self.playable(g) != 0
    }

    /// The unique key `current + mask`.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.current.wrapping_add(self.mask)
    }

    /// Moves that do not lose at once (see the module documentation); 0 if every move loses at once.
    #[inline(always)]
    pub fn non_losing_moves<D: Dims>(&self, g: &D) -> u64 {
        let mut possible = self.playable(g);
        let opp = g.winning_cells(self.current ^ self.mask, self.mask);
        let forced = possible & opp;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !(opp >> 1)
    }

    /// Number of stones played.
    #[inline]
    pub fn stones(&self) -> u32 {
        self.moves & !WON_FLAG
    }
}

/// Marks a parsed sequence whose last move won (never set in positions handed to the solver).
const WON_FLAG: u32 = 1 << 30;

/// The transposition table: see the module documentation.
struct Table {
    /// Pairs of entries; entry = (full key, data).
    slots: Vec<[u64; 2]>,
    /// Index of the first entry used (2 MiB aligned).
    base: usize,
    /// The index is the top `64 - shift` bits of the hashed key: `full_shift` uses the whole table, `SMALL_SHIFT` its
    /// first MiB (small searches stay in the cache).
    shift: u32,
    full_shift: u32,
    generation: u64,
}

// Data layout: lower bound + 128 (8 bits) | upper bound + 128 (8) | cut-off column + 1 (4) | stones (6, bits 20..26)
// | generation (rest, from bit 32).
const STONES_SHIFT: u32 = 20;
const GEN_SHIFT: u32 = 32;

const HUGE_PAGE: usize = 2 << 20;
/// A search starts on the first 2^16 entries (1 MiB, cache-resident) and moves to the whole table after
/// [`GROW_AT`] nodes: most easy positions never leave the cache.
const SMALL_SHIFT: u32 = 64 - 15;
const GROW_AT: u64 = 1 << 14;

/// What the table knows about a position.
#[derive(Clone, Copy, Debug)]
struct Hit {
    lower: i32,
    upper: i32,
    /// Column of the cut-off move, if any.
    mv: Option<u32>,
}

impl Table {
    /// `2^log2_entries` entries (16 bytes each).
    fn new(log2_entries: u32) -> Table {
        let log2 = log2_entries.clamp(2, 40);
        let n = 1usize << log2;
        // Over-allocate by 2 MiB so that the table can start on a 2 MiB boundary and use huge pages (far fewer TLB
        // misses on random probes).
        let extra = HUGE_PAGE / 16;
        let mut slots = vec![[0u64; 2]; n + extra];
        let addr = slots.as_ptr() as usize;
        let base = (HUGE_PAGE - addr % HUGE_PAGE) % HUGE_PAGE / 16;
        advise_huge_pages(&slots[base..base + n]);
        // Touch every page now, so that page faults do not land inside the first searches.
        slots.iter_mut().for_each(|s| *s = std::hint::black_box([0, 0]));
        let full_shift = 64 - (log2 - 1);
        Table { slots, base, shift: full_shift.max(SMALL_SHIFT), full_shift, generation: 1 }
    }

    /// Forget everything in O(1) (entries of older generations no longer match), and start small again.
    fn clear(&mut self) {
        self.generation += 1;
        self.shift = self.full_shift.max(SMALL_SHIFT);
    }

    /// Use the whole table from now on. Entries stored so far stay valid (they carry their full key) but are
    /// mostly not found again.
    fn grow(&mut self) {
        self.shift = self.full_shift;
    }

    /// The first slot of the key's pair (multiplicative hashing).
    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        self.base + (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize * 2
    }

    #[inline(always)]
    fn get(&self, key: u64) -> Option<Hit> {
        let i = self.index(key);
        let gen_ok = |d: u64| d >> GEN_SHIFT == self.generation;
        let d = if self.slots[i][0] == key && gen_ok(self.slots[i][1]) {
            self.slots[i][1]
        } else if self.slots[i + 1][0] == key && gen_ok(self.slots[i + 1][1]) {
            self.slots[i + 1][1]
        } else {
            return None;
        };
        let mv = ((d >> 16) & 15) as u32;
        Some(Hit {
            lower: (d & 255) as i32 - 128,
            upper: ((d >> 8) & 255) as i32 - 128,
            mv: if mv == 0 { None } else { Some(mv - 1) },
        })
    }

    /// Record that the value of `key` (a node with `stones` stones) lies in `lower..=upper`, merged with what the
    /// table already knows of it. The first slot of the pair keeps the entry with the fewest stones (the most work
    /// below it) of the current search; the second is always replaced.
    #[inline(always)]
    fn put(&mut self, key: u64, mut lower: i32, mut upper: i32, mut mv: Option<u32>, stones: u32) {
        let i = self.index(key);
        let current = |d: u64| d >> GEN_SHIFT == self.generation;
        let (a, b) = (self.slots[i], self.slots[i + 1]);
        let old = if a[0] == key && current(a[1]) {
            Some(a[1])
        } else if b[0] == key && current(b[1]) {
            Some(b[1])
        } else {
            None
        };
        if let Some(d) = old {
            lower = lower.max((d & 255) as i32 - 128);
            upper = upper.min(((d >> 8) & 255) as i32 - 128);
            if mv.is_none() {
                let m = ((d >> 16) & 15) as u32;
                mv = if m == 0 { None } else { Some(m - 1) };
            }
        }
        let data = ((lower + 128) as u64)
            | (((upper + 128) as u64) << 8)
            | ((mv.map_or(0, |m| m + 1) as u64) << 16)
            | ((stones as u64) << STONES_SHIFT)
            | (self.generation << GEN_SHIFT);
        let keep_a = current(a[1]) && a[0] != key && ((a[1] >> STONES_SHIFT) & 63) < stones as u64;
        if keep_a {
            self.slots[i + 1] = [key, data];
        } else {
            self.slots[i] = [key, data];
            if b[0] == key {
                // Do not leave a stale duplicate behind in the second slot.
                self.slots[i + 1][1] = 0;
            }
        }
    }
}

/// The result of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Pons's score (weak mode: -1, 0 or 1).
    pub score: i32,
    /// Best column (0-based): the fastest win, the slowest loss.
    pub best_move: Option<u32>,
    /// Nodes of the score search (negamax calls).
    pub nodes: u64,
    /// Nodes spent afterwards to find the best move.
    pub best_move_nodes: u64,
}

/// The solver: its transposition table and counters. Reuse one solver for many positions (the table is cleared in
/// O(1) between them).
pub struct Solver<D: Dims = Geometry> {
    g: D,
    table: Table,
    order: [u32; MAX_WIDTH],
    /// Positions with fewer stones than this are stored under their canonical (mirror-minimal) key.
    symmetry_below: u32,
    /// Enhanced transposition cut-offs at nodes with fewer stones than this.
    etc_below: u32,
    /// Detect "a safe move makes two playable threats" before searching the children.
    double_threat: bool,
    pub nodes: u64,
}

/// Bounds meaning "nothing known".
const NO_LOWER: i32 = -100;
const NO_UPPER: i32 = 100;

/// Default table size: 2^23 entries (128 MiB).
pub const DEFAULT_TABLE_LOG2: u32 = 23;

impl<D: Dims> Solver<D> {
    pub fn new(g: D) -> Self {
        Solver::with_table(g, DEFAULT_TABLE_LOG2)
    }

    /// A solver with `2^log2_entries` table entries (16 bytes each).
    pub fn with_table(g: D, log2_entries: u32) -> Self {
        let mut order = [0u32; MAX_WIDTH];
        let w = g.width() as i32;
        for (i, o) in order.iter_mut().enumerate().take(g.width() as usize) {
            // Centre first, then alternately right and left: 3 4 2 5 1 6 0 on 7 columns.
            let i = i as i32;
            *o = (w / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2) as u32;
        }
        // Enhanced transposition cut-offs pay where subtrees are big: all but the last 12 plies (measured on 7x6).
        let etc_below = g.cells().saturating_sub(12);
        Solver {
            g,
            table: Table::new(log2_entries),
            order,
            symmetry_below: 0,
            etc_below,
            double_threat: true,
            nodes: 0,
        }
    }

    pub fn geometry(&self) -> &D {
        &self.g
    }

    /// Store positions with fewer than `stones` stones under their mirror-canonical key.
    pub fn set_symmetry_below(&mut self, stones: u32) {
        self.symmetry_below = stones;
    }

    /// Probe the children in the table before searching them at nodes with fewer than `stones` stones.
    pub fn set_etc_below(&mut self, stones: u32) {
        self.etc_below = stones;
    }

    /// Switch the double-threat detection on or off (on by default).
    pub fn set_double_threat(&mut self, on: bool) {
        self.double_threat = on;
    }

    /// Forget the table and the counters.
    pub fn reset(&mut self) {
        self.table.clear();
        self.nodes = 0;
    }

    /// The score of `p` (weak: only its sign, -1/0/1). The table is kept (call [`Solver::reset`] first for a
    /// search from scratch).
    pub fn score(&mut self, p: &Position, weak: bool) -> i32 {
        let g = self.g;
        if p.can_win_next(&g) {
            let s = g.win_now_score(p.moves);
            return if weak { 1 } else { s };
        }
        let n = p.moves as i32;
        let cells = g.cells() as i32;
        let (mut lo, mut hi) = if weak { (-1, 1) } else { (-(cells - n) / 2, (cells + 1 - n) / 2) };
        while lo < hi {
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            let r = self.negamax(*p, med, med + 1);
            if r <= med {
                hi = r;
            } else {
                lo = r;
            }
        }
        if weak { lo.signum() } else { lo }
    }

    /// Score and best move of `p`, from an empty table.
    pub fn solve(&mut self, p: &Position, weak: bool) -> Solution {
        self.reset();
        let score = self.score(p, weak);
        let nodes = self.nodes;
        let best_move = self.best_move(p, score, weak);
        Solution { score, best_move, nodes, best_move_nodes: self.nodes - nodes }
    }

    /// A column achieving `score` (the value of `p` found by [`Solver::score`]): the fastest win, the slowest
    /// loss. One null-window test per move, which mostly hits the table the score search left.
    pub fn best_move(&mut self, p: &Position, score: i32, weak: bool) -> Option<u32> {
        let g = self.g;
        let playable = p.playable(&g);
        if playable == 0 {
            return None;
        }
        for &c in &self.order[..g.width() as usize] {
            if playable & g.column_mask(c) != 0 && p.is_winning_column(&g, c) {
                return Some(c);
            }
        }
        let target = if weak { -score.signum() } else { -score };
        let mut fallback = None;
        for i in 0..g.width() as usize {
            let c = self.order[i];
            if playable & g.column_mask(c) == 0 {
                continue;
            }
            fallback.get_or_insert(c);
            let mut child = *p;
            child.play_column(&g, c);
            // A child where the opponent wins at once is only best when every move loses at once (the fallback).
            if child.can_win_next(&g) {
                continue;
            }
            // The move is best when the child's score is at most -score.
            if self.negamax(child, target, target + 1) <= target {
                return Some(c);
            }
        }
        fallback
    }

    #[inline(always)]
    fn canonical(&self, p: &Position) -> (u64, bool) {
        let k = p.key();
        if p.moves < self.symmetry_below {
            let m = self.g.mirror(k);
            if m < k {
                return (m, true);
            }
        }
        (k, false)
    }

    /// See the module documentation. `p`: the side to move cannot win at once; `alpha < beta`.
    fn negamax(&mut self, p: Position, mut alpha: i32, mut beta: i32) -> i32 {
        let g = self.g;
        self.nodes += 1;
        if self.nodes == GROW_AT {
            self.table.grow();
        }
        let cells = g.cells() as i32;
        let n = p.moves as i32;
        let next = p.non_losing_moves(&g);
        if next == 0 {
            return -(cells - n) / 2;
        }
        if n >= cells - 2 {
            return 0;
        }
        let min = -(cells - 2 - n) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let max = (cells - 1 - n) / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let (key, mirrored) = self.canonical(&p);
        let mut tt_move = 0u64;
        if let Some(hit) = self.table.get(key) {
            if alpha < hit.lower {
                alpha = hit.lower;
                if alpha >= beta {
                    return alpha;
                }
            }
            if beta > hit.upper {
                beta = hit.upper;
                if alpha >= beta {
                    return beta;
                }
            }
            if let Some(c) = hit.mv {
                tt_move = g.column_mask(if mirrored { g.width() - 1 - c } else { c });
            }
        }

        // Enhanced transposition cut-off: a child already known to be bad enough for the opponent.
        if p.moves < self.etc_below {
            let mut rest = next;
            while rest != 0 {
                let mv = rest & rest.wrapping_neg();
                rest &= rest - 1;
                let mut child = p;
                child.play(mv);
                let (ck, _) = self.canonical(&child);
                if let Some(hit) = self.table.get(ck)
                    && -hit.upper >= beta
                {
                    let c = g.column_of(mv);
                    let stored = if mirrored { g.width() - 1 - c } else { c };
                    self.table.put(key, -hit.upper, NO_UPPER, Some(stored), p.moves);
                    return -hit.upper;
                }
            }
        }

        // Order: the table's move first, then by threats created, ties to the centre. Insertion sort, stable.
        let mut moves = [(0u64, 0i32); MAX_WIDTH];
        let mut count = 0usize;
        for &c in &self.order[..g.width() as usize] {
            let mv = next & g.column_mask(c);
            if mv == 0 {
                continue;
            }
            let threats = g.winning_cells(p.current | mv, p.mask) & !mv;
            if self.double_threat && (threats & ((p.mask | mv) + g.bottom()) & g.board()).count_ones() >= 2 {
                // Two playable threats after a safe move: the opponent blocks one, we complete the other with our
                // next stone, the best any move can do here.
                let c = g.column_of(mv);
                let stored = if mirrored { g.width() - 1 - c } else { c };
                self.table.put(key, max, max, Some(stored), p.moves);
                return max;
            }
            let score = if mv & tt_move != 0 { i32::MAX } else { threats.count_ones() as i32 };
            let mut i = count;
            while i > 0 && moves[i - 1].1 < score {
                moves[i] = moves[i - 1];
                i -= 1;
            }
            moves[i] = (mv, score);
            count += 1;
        }

        for &(mv, _) in &moves[..count] {
            let mut child = p;
            child.play(mv);
            let v = -self.negamax(child, -beta, -alpha);
            if v >= beta {
                let c = g.column_of(mv);
                let stored = if mirrored { g.width() - 1 - c } else { c };
                self.table.put(key, v, NO_UPPER, Some(stored), p.moves);
                return v;
            }
            if v > alpha {
                alpha = v;
            }
        }
        self.table.put(key, NO_LOWER, alpha, None, p.moves);
        alpha
    }
}

/// Result word for a score.
pub fn result_word(score: i32) -> &'static str {
    match score.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        Position::from_moves(&Geometry::standard(), s).unwrap()
    }

    #[test]
    fn tutorial_examples() {
        let mut s = Solver::with_table(Geometry::standard(), 20);
        assert_eq!(s.solve(&pos("4455"), false).score, 18);
        assert_eq!(s.solve(&pos("44455554221"), false).score, -15);
    }

    #[test]
    fn parse_errors_name_the_move() {
        let g = Geometry::standard();
        assert!(Position::from_moves(&g, "448").unwrap_err().0.contains("move 3 '8'"));
        assert!(Position::from_moves(&g, "4444444").unwrap_err().0.contains("move 7 '4': column 4 is full"));
        assert!(Position::from_moves(&g, "4455667").unwrap_err().0.contains("four in a row"));
        assert!(Position::from_moves(&g, "44556671").unwrap_err().0.contains("move 8 '1': the game is already over"));
        assert!(Position::from_moves(&g, "4x").is_err());
        assert_eq!(Position::from_moves(&g, "4 4 5").unwrap(), pos("445"));
    }

    #[test]
    fn mirror_is_an_involution_and_keys_match() {
        let g = Geometry::standard();
        let p = pos("1123");
        let q = pos("7765");
        assert_eq!(g.mirror(p.key()), q.key());
        assert_eq!(g.mirror(g.mirror(p.key())), p.key());
    }
}
