//! The Connect Four solver's search: negamax with alpha-beta on Pons's score, under null-window probes that narrow
//! the score interval.
//!
//! ```text
//! negamax(P, α, β):                                  -- P: the side to move cannot win at once
//!     nodes += 1
//!     prefetch P's table entry                       -- it loads while the bounds below are computed
//!     T := the opponent's threat cells (the caller has them) -- used by the safe moves and the ordering
//!     safe := moves that neither leave the opponent an immediate win (if the opponent has one threat on a
//!             playable cell we must play there; two: we lose) nor play under an opponent's threat
//!     if safe = ∅: return -(W*H - n)/2               -- the opponent wins with its next stone
//!     if n >= W*H - 2: return 0                       -- board full after the last two stones: a draw
//!     α := max(α, -(W*H - 2 - n)/2)                   -- the opponent cannot win at its next move
//!     β := min(β, (W*H - 1 - n)/2)                    -- we cannot win at this move
//!     if n is even and the board has an even number of rows: β := min(β, the claimeven bound) (`claimeven.rs`:
//!         the second player's follow-up strategy caps the first player's score); return if α >= β
//!     tighten α and β with the transposition table (it keeps both bounds); return if α >= β
//!     if n is odd: a safe move m whose child's claimeven bound b has -b >= β settles the node (return -b)
//!     for each safe move m: if m leaves the opponent no safe reply (two playable threats of ours, one playable
//!         threat right under another, or every playable cell under one), we win with our next stone, which is
//!         the best score possible here: store and return (W*H - 1 - n)/2
//!     β := min(β, (W*H - 3 - n)/2)                    -- no win with our next stone nor the one after (proof at
//!     return if α >= β                                --   the code: a safe reply always exists)
//!     for each safe move m: Q_m := P+m, then the forced moves played through (below): the position searched
//!         for m; prefetch Q_m's table entry         -- all of them load at once
//!     if n < W*H - 12: enhanced transposition cut-off: Q_m's stored bounds give lo <= value of m <= hi; lo >= β
//!         settles the node (store lower bound lo; return lo); a move with hi <= α cannot raise α and is dropped
//!         (none left: store upper bound α; return α)
//!     order safe moves by score (`sorter.rs`), ties to the centre: the move's useful threats (cells where we
//!         would then complete four, not right above an opponent's threat), 12 for each right above a playable
//!         cell, 5 more for each two cells above one, 3 more for each; 5 more for the table's cut-off move
//!     for each move m: Q := P+m; while the side to move in Q has a single safe move f (and the board is not
//!             nearly full): Q := Q+f                 -- forced moves played through, both sides: no node, no
//!                                                    --   table entry for the positions in between (Q = Q_m)
//!         v := negamax(Q, α, β) if we are to move in Q, else -negamax(Q, -β, -α)   -- with Q's T, known here
//!         if v >= β: store lower bound v with move m; return v
//!         α := max(α, v)
//!     store upper bound α; return α
//!
//! solve(P):                                          -- null-window search narrowing the score (MTD-like)
//!     if P has an immediate win: return (W*H + 1 - n)/2
//!     lo, hi := the score range (weak: -1, 1)
//!     while lo < hi:
//!         med := max(g, lo + 1) - 1, g the last r, at first the middle of [lo, hi] (guided probes; off: the
//!                middle of [lo, hi], pulled towards 0, as most positions are close to a draw)
//!         r := negamax(P, med, med + 1)
//!         if r <= med: hi := r else lo := r
//!     return lo
//! ```
//!
//! Optionally ([`Solver::set_symmetry_below`], off by default: it did not pay on the benchmark positions), positions
//! with few stones are stored under the smaller of their key and their mirror image's key; cut-off moves are mirrored
//! accordingly.

use crate::games::connect_four::{ConnectFour, Position, Shape, safe_moves};

use super::MAX_WIDTH;
use super::claimeven::Claimeven;
use super::sorter::{MoveSorter, centre_first, threat_score};
use super::table::{GROW_AT, Table};

mod switches;

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

/// The solver: its transposition table and counters, on a board of shape `S` ([`ConnectFour`] for any size read at
/// run time, [`crate::games::connect_four::Standard`] for 6x7 with compile-time constants). Reuse one solver for many
/// positions (the table is cleared in O(1) between them).
pub struct Solver<S: Shape = ConnectFour> {
    g: S,
    table: Table,
    order: [u32; MAX_WIDTH],
    /// Positions with fewer stones than this are stored under their canonical (mirror-minimal) key.
    symmetry_below: u32,
    /// Enhanced transposition cut-offs at nodes with fewer stones than this.
    etc_below: u32,
    /// Detect "a safe move makes two playable threats" before searching the children.
    double_threat: bool,
    /// The claimeven bound (boards with an even number of rows; `None`: off).
    claimeven: Option<Claimeven>,
    /// Static pre-check of the children (see [`Solver::set_precheck`]).
    precheck: bool,
    /// Play a child's only safe reply through without a node of its own (see [`Solver::set_forced_through`]).
    forced_through: bool,
    /// Play forced moves through in chains, both sides (see [`Solver::set_forced_chains`]).
    forced_chains: bool,
    /// The bound "no win with our next two stones" after the pre-check (see [`Solver::set_later_win_bound`]).
    later_win_bound: bool,
    /// Order moves by threats weighted by how soon they become playable (see [`Solver::set_threat_ordering`]).
    threat_ordering: bool,
    /// Probe windows from the last probe's result (see [`Solver::set_guided_probes`]).
    guided_probes: bool,
    /// Prefetch table entries before probing them (see [`Solver::set_prefetch`]).
    prefetch: bool,
    pub nodes: u64,
    /// Stop once `nodes` passes this (see [`Solver::set_node_limit`]).
    node_limit: u64,
    /// The last search passed `node_limit`: its result means nothing.
    stopped: bool,
    /// Raised from outside (a page that cancels its request): the search stops as at the node limit.
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Bounds meaning "nothing known".
const NO_LOWER: i32 = -100;
const NO_UPPER: i32 = 100;

/// Default table size: 2^23 entries (128 MiB).
pub(crate) const DEFAULT_TABLE_LOG2: u32 = 23;

/// Largest score of a position with `stones` stones on a board of `cells` cells whose side to move wins at once.
#[inline(always)]
fn win_now_score(cells: u32, stones: u32) -> i32 {
    (cells as i32 + 1 - stones as i32) / 2
}

impl<S: Shape> Solver<S> {
    /// A solver of the board `g`.
    pub fn new(g: S) -> Self {
        Solver::with_table(g, DEFAULT_TABLE_LOG2)
    }

    /// A solver with `2^log2_entries` table entries (16 bytes each). Panics on a board of more than [`MAX_WIDTH`]
    /// columns (see [`super::board`]).
    pub fn with_table(g: S, log2_entries: u32) -> Self {
        assert!(g.columns() as usize <= MAX_WIDTH, "the Connect Four solver takes at most {MAX_WIDTH} columns");
        // Enhanced transposition cut-offs pay where subtrees are big: all but the last 12 plies (measured on 7x6).
        let etc_below = g.cells().saturating_sub(12);
        Solver {
            g,
            table: Table::new(log2_entries),
            order: centre_first(g.columns()),
            symmetry_below: 0,
            etc_below,
            double_threat: true,
            claimeven: Claimeven::new(&g),
            precheck: true,
            forced_through: true,
            forced_chains: true,
            later_win_bound: true,
            threat_ordering: true,
            guided_probes: true,
            prefetch: true,
            nodes: 0,
            node_limit: u64::MAX,
            stopped: false,
            stop: None,
        }
    }

    /// The board.
    pub fn shape(&self) -> &S {
        &self.g
    }

    /// Give up a search once it has visited `limit` nodes in all since the last [`Solver::reset`] (`None`: never).
    /// After such a search [`Solver::stopped`] is true and its score means nothing; call `reset` before the next.
    // Used by the web server only (src/server/): unused in a build without the `server` feature.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    pub(crate) fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_limit = limit.unwrap_or(u64::MAX);
    }

    /// Stop any search (as at the node limit: [`Solver::stopped`], the result means nothing) once `flag` is raised;
    /// it is looked at every 4,096 nodes.
    pub fn set_stop(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.stop = flag;
    }

    /// Whether a search since the last [`Solver::reset`] passed the node limit (its result is then not a value).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Forget the table and the counters.
    pub fn reset(&mut self) {
        self.table.clear();
        self.nodes = 0;
        self.stopped = false;
    }

    /// The score of `p` (weak: only its sign, -1/0/1). `p` must not be over (see [`Position::from_moves`]). The
    /// table is kept (call [`Solver::reset`] first for a search from scratch).
    pub fn score(&mut self, p: &Position, weak: bool) -> i32 {
        let g = self.g;
        if p.can_win_next(&g) {
            let s = win_now_score(g.cells(), p.plies);
            return if weak { 1 } else { s };
        }
        let n = p.plies as i32;
        let cells = g.cells() as i32;
        let (mut lo, mut hi) = if weak { (-1, 1) } else { (-(cells - n) / 2, (cells + 1 - n) / 2) };
        // The guided probes' guess of the score: the middle of the range, then the last probe's result.
        let mut guess = lo + (hi - lo) / 2;
        while lo < hi && !self.stopped {
            let mut med = lo + (hi - lo) / 2;
            if self.guided_probes {
                med = guess.max(lo + 1) - 1;
            } else if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            let r = self.negamax(*p, g.winning_cells(p.opponent(), p.mask), med, med + 1);
            guess = r;
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
        let possible = p.possible(&g);
        if possible == 0 {
            return None;
        }
        for &c in &self.order[..g.columns() as usize] {
            if possible & g.column_mask(c) != 0 && p.is_winning_column(&g, c) {
                return Some(c);
            }
        }
        let target = if weak { -score.signum() } else { -score };
        let mut fallback = None;
        for i in 0..g.columns() as usize {
            let c = self.order[i];
            if possible & g.column_mask(c) == 0 {
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
            if self.negamax(child, g.winning_cells(child.opponent(), child.mask), target, target + 1) <= target {
                return Some(c);
            }
        }
        fallback
    }

    /// The table key of `p`, and whether it is its mirror image's (then stored moves are mirrored).
    #[inline(always)]
    fn canonical(&self, p: &Position) -> (u64, bool) {
        let k = p.key();
        if p.plies < self.symmetry_below {
            let m = self.g.mirror(k);
            if m < k {
                return (m, true);
            }
        }
        (k, false)
    }

    /// The column stored in the table for the one-bit move `mv` (mirrored when the key is the mirror image's).
    #[inline(always)]
    fn stored_column(&self, mv: u64, mirrored: bool) -> u32 {
        let c = self.g.column_of(mv);
        if mirrored { self.g.columns() - 1 - c } else { c }
    }

    /// The only safe move of the side to move in `child`, whose opponent's threat cells are `opp` (the side to move
    /// cannot win at once), when the switch is on and the board is not nearly full; `None` otherwise.
    #[inline(always)]
    fn forced_reply(&self, child: &Position, opp: u64) -> Option<u64> {
        if !self.forced_through || child.plies + 2 >= self.g.cells() {
            return None;
        }
        let safe = safe_moves(child.possible(&self.g), opp);
        (safe != 0 && safe & (safe - 1) == 0).then_some(safe)
    }

    /// The position searched for our safe move `mv` in `p`, after which our threat cells are `threats`: `p + mv`,
    /// then the forced moves played through (with chains off: at most the opponent's single safe reply); with the
    /// threat cells of its side not to move, and whether we are to move there.
    #[inline(always)]
    fn chain_end(&self, p: &Position, mv: u64, threats: u64) -> (Position, u64, bool) {
        let mut child = *p;
        child.play(mv);
        let mut ours = false;
        let mut opp = threats;
        while let Some(forced) = self.forced_reply(&child, opp) {
            child.play(forced);
            ours = !ours;
            opp = self.g.winning_cells(child.opponent(), child.mask);
            if !self.forced_chains {
                break;
            }
        }
        (child, opp, ours)
    }

    /// See the module documentation. `p`: the side to move cannot win at once; `theirs`: the opponent's threat
    /// cells (the caller has them); `alpha < beta`.
    fn negamax(&mut self, p: Position, theirs: u64, mut alpha: i32, mut beta: i32) -> i32 {
        let g = self.g;
        self.nodes += 1;
        if self.nodes == GROW_AT {
            self.table.grow();
        }
        if self.nodes > self.node_limit
            || (self.nodes & 0xFFF == 0
                && self.stop.as_ref().is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed)))
        {
            // Out of budget: unwind at once (the caller sees `stopped` and discards the result).
            self.stopped = true;
            return alpha;
        }
        // The table entry is loaded while the bounds below are computed.
        let (key, mirrored) = self.canonical(&p);
        if self.prefetch {
            self.table.prefetch(key);
        }
        let cells = g.cells() as i32;
        let n = p.plies as i32;
        let next = safe_moves(p.possible(&g), theirs);
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
        if p.plies & 1 == 0
            && let Some(ce) = &self.claimeven
            && let Some(bound) = ce.bound(&g, &p)
            && beta > bound
        {
            beta = bound;
            if alpha >= beta {
                return beta;
            }
        }
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
                tt_move = g.column_mask(if mirrored { g.columns() - 1 - c } else { c });
            }
        }

        // The second player to move: a move after which the claimeven bound caps the first player low enough.
        if p.plies & 1 == 1
            && let Some(ce) = &self.claimeven
            && beta <= -ce.lowest(&g)
        {
            let mut rest = next;
            while rest != 0 {
                let mv = rest & rest.wrapping_neg();
                rest &= rest - 1;
                let mut child = p;
                child.play(mv);
                if let Some(bound) = ce.bound(&g, &child)
                    && -bound >= beta
                {
                    return -bound;
                }
            }
        }

        // Pre-check of the children: a move after which the opponent has no safe reply wins with our next stone,
        // the best score possible here. Otherwise no move wins with our next stone nor with the one after: a win with
        // stone n+3 after our move m needs every reply of the opponent to leave us a four to complete, and a safe
        // reply (it blocks our one playable threat, is not under a threat of ours, and the opponent cannot win at
        // once after a safe m) leaves none; unsafe moves of ours lose at once. So the node is worth at most a win
        // with stone n+5, (W*H - 3 - n)/2. Our threat cells after each move (by column) serve the ordering and the
        // forced replies too.
        let columns = g.columns() as usize;
        let mut created = [0u64; MAX_WIDTH];
        for &c in &self.order[..columns] {
            let mv = next & g.column_mask(c);
            if mv == 0 {
                continue;
            }
            created[c as usize] = p.threats_after(&g, mv);
            if self.precheck && no_safe_reply(created[c as usize], p.possible_after(&g, mv)) {
                let stored = self.stored_column(mv, mirrored);
                self.table.put(key, max, max, Some(stored), p.plies);
                return max;
            }
        }
        if self.precheck {
            let later = (cells - 3 - n) / 2;
            if self.later_win_bound && beta > later {
                beta = later;
                if alpha >= beta {
                    return beta;
                }
            }
        }

        // The position searched for each move (after its forced moves, see below), and its table entry prefetched:
        // the cut-off below probes them, and the children probe them on entry.
        let mut ends = [(p, 0, false); MAX_WIDTH];
        let mut keys = [0u64; MAX_WIDTH];
        let etc = p.plies < self.etc_below;
        let ahead = etc || self.prefetch;
        if ahead {
            let mut rest = next;
            while rest != 0 {
                let mv = rest & rest.wrapping_neg();
                rest &= rest - 1;
                let c = g.column_of(mv) as usize;
                ends[c] = self.chain_end(&p, mv, created[c]);
                keys[c] = self.canonical(&ends[c].0).0;
                if self.prefetch {
                    self.table.prefetch(keys[c]);
                }
            }
        }

        // Enhanced transposition cut-off: a move whose position is already known to be good enough for us settles the
        // node. With the pre-check, a move known to leave at most α is dropped.
        let mut next = next;
        if etc {
            let mut rest = next;
            while rest != 0 {
                let mv = rest & rest.wrapping_neg();
                rest &= rest - 1;
                let c = g.column_of(mv) as usize;
                if let Some(hit) = self.table.get(keys[c]) {
                    // The move's value lies in lo..=hi.
                    let (lo, hi) = if ends[c].2 { (hit.lower, hit.upper) } else { (-hit.upper, -hit.lower) };
                    if lo >= beta {
                        let stored = self.stored_column(mv, mirrored);
                        self.table.put(key, lo, NO_UPPER, Some(stored), p.plies);
                        return lo;
                    }
                    if self.precheck && hi <= alpha {
                        next &= !mv;
                    }
                }
            }
            if next == 0 {
                // Every move is known to leave at most α.
                self.table.put(key, NO_LOWER, alpha, None, p.plies);
                return alpha;
            }
        }

        // Order the moves (`sorter.rs`), ties to the centre.
        let mut moves = MoveSorter::new();
        for &c in &self.order[..columns] {
            let mv = next & g.column_mask(c);
            if mv == 0 {
                continue;
            }
            let threats = created[c as usize];
            let playable = p.possible_after(&g, mv);
            if !self.precheck && self.double_threat && (threats & playable).count_ones() >= 2 {
                // Two playable threats after a safe move: the opponent blocks one, we complete the other with our
                // next stone, the best any move can do here.
                let stored = self.stored_column(mv, mirrored);
                self.table.put(key, max, max, Some(stored), p.plies);
                return max;
            }
            let table_move = mv & tt_move != 0;
            let score = if self.threat_ordering {
                threat_score(threats, theirs, playable, g.board_mask(), table_move)
            } else if table_move {
                i32::MAX
            } else {
                threats.count_ones() as i32
            };
            moves.add(mv, score);
        }

        for mv in moves.moves() {
            // Forced moves after m are played through: the position searched is the first where the side to move
            // has a choice (with chains off: after at most the opponent's single safe reply).
            let c = g.column_of(mv) as usize;
            let (child, t, ours) = if ahead { ends[c] } else { self.chain_end(&p, mv, created[c]) };
            let v = if ours { self.negamax(child, t, alpha, beta) } else { -self.negamax(child, t, -beta, -alpha) };
            if v >= beta {
                let stored = self.stored_column(mv, mirrored);
                self.table.put(key, v, NO_UPPER, Some(stored), p.plies);
                return v;
            }
            if v > alpha {
                alpha = v;
            }
        }
        self.table.put(key, NO_LOWER, alpha, None, p.plies);
        alpha
    }
}

/// Whether the opponent has no safe reply after our move, given our threats after it and the cells then playable:
/// two playable threats, one playable threat with another right above it, or every playable cell under a threat.
#[inline(always)]
fn no_safe_reply(threats: u64, playable: u64) -> bool {
    let forced = threats & playable;
    if forced != 0 {
        forced & (forced - 1) != 0 || forced & (threats >> 1) != 0
    } else {
        playable != 0 && playable & !(threats >> 1) == 0
    }
}
