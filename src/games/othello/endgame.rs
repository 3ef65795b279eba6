//! Othello's exact endgame solver: the final disc difference under perfect play (the empties going to the winner),
//! or only win, draw or loss with the window (-1, 1).
//!
//! ```text
//! exact value of the root: MTD(f) from g = 0       (lo, hi) := (-64, 64), or the root's bounds in the table
//!     while lo < hi: b := g, or g + 1 when g = lo; g := Root(b - 1, b)      -- null-window tests, fail-soft
//!                    g < b: hi := g     otherwise: lo := g (and its move is a best move, tried first next time)
//!     (win/draw/loss only: one Root(-1, 1))
//!
//! solve(own, opp, α, β):                                  -- negamax, fail-soft, from the side to move
//!     nodes += 1
//!     no empty square: return the final score
//!     one empty square: play it (or the opponent does, or nobody) and count       -- last move, no list
//!     2 to 4 empties: the same search, each empty square tried by its flips, no move generation (endgame/last.rs)
//!     moves := legal moves
//!     none: the opponent has none either: return the final score
//!           otherwise: return -solve(opp, own, -β, -α)   -- a pass
//!     few empties (<= 6): parity order: moves in quadrants with an odd number of empties first
//!     otherwise, from 9 empties: the table (bounds and best move of this exact position) may answer or narrow the
//!         window (7 and 8 empties: no table, the moves still ordered as below);
//!         from 10 empties, enhanced transposition cut-off: a child whose stored upper bound u has -u >= β: return -u
//!         when α is high: the opponent keeps its stable discs, so v <= squares - 2 stable(opp): cut or narrow β
//!         children: the table's move first, searched before the other moves are ordered (its cut-off spares
//!         their sorting); then the others in fastest-first order (endgame/order.rs): the moves leaving the
//!         opponent the fewest replies (corner replies count double; then the fewest empties next to our discs;
//!         our corners first; a move into a quadrant with an odd number of empties first among near-equals);
//!         from 16 empties plus a shallow search's mobility value of the position after the move, its depth
//!         growing with the empties
//!     PVS: the first move with the full window, the others with a null window, re-searched when they beat α
//!     store the bounds and the best move; return the best value
//! ```
//!
//! The table (`endgame/table.rs`) holds both bitboards of a position, so a probe never mistakes one position for
//! another; its buckets are two slots (the position with the most empties kept, the latest stored beside it). It lives
//! in memory, and may be kept in a file from run to run ([`EndgameSolver::with_file`], saved periodically and at the
//! end): the root's bounds are stored after each MTD(f) pass, so a solve stopped by its limits ([`StopAt`]: a
//! deadline, Ctrl-C) or killed goes on from what it proved (and saved). A stopped search stores nothing and unwinds. A solver without table
//! ([`EndgameSolver::without_table`]) allocates nothing (the engine's probe).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::PASS;
use super::bits::Geometry;

mod last;
mod last_flip;
mod order;
mod table;
use last::odd_quadrants;
use table::{Slot, Table};

/// Below this many empties: parity ordering and no table.
const SHALLOW: u32 = 6;

/// Ordering bonus of a move into a quadrant with an odd number of empties.
const PARITY_W: i32 = 6;

/// From this many empties: enhanced transposition cut-offs (each child looked up in the table first).
const ETC_MIN: u32 = 10;

/// From this many empties the table is probed and stored; below, down to [`SHALLOW`] + 1, the moves are still
/// ordered fastest first but the table is left alone: there a probe (a cache miss in a large table) cost more than
/// the nodes it saved (docs/othello.md, "Closing the gap": -9% CPU on FFO #41-#44 with 9 rather than 7).
const TABLE_MIN: u32 = 9;

/// The stability cut-off is tried only when alpha is high enough for this many stable discs to matter.
const STABLE_MIN: i32 = 20;

/// The final disc difference for the side owning `own`, the empties going to the winner.
pub fn final_score(geo: &Geometry, own: u64, opp: u64) -> i32 {
    let (a, b) = (own.count_ones() as i32, opp.count_ones() as i32);
    let empties = geo.board.count_ones() as i32 - a - b;
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => a - b + empties,
        std::cmp::Ordering::Less => a - b - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The solver: its table, a node counter and what stops a long solve.
pub struct EndgameSolver {
    table: Table,
    pub nodes: u64,
    limits: StopAt,
    /// The node count at which the limits (and the table's periodic save) are looked at next (`u64::MAX`: never;
    /// 0 once stopped).
    poll_at: u64,
    stopped: bool,
    /// A periodic save of the table's file failed: the solve stopped.
    save_error: Option<String>,
}

/// The exact value of a position and a move that achieves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final disc difference for the side to move (its sign only when solved for win, draw or loss).
    pub score: i32,
    /// A best move (`PASS` when the side to move must pass; `None` when the game is over).
    pub best: Option<u8>,
    pub nodes: u64,
}

/// What a solve has proven so far: `lower <= score <= upper`, and `best` (when `lower > -64`) a move that scores at
/// least `lower`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lower: i32,
    pub upper: i32,
    pub best: Option<u8>,
    pub nodes: u64,
}

/// What stops a solve before its end: a time, a flag set by Ctrl-C. The default stops nothing.
#[derive(Clone, Copy, Default)]
pub struct StopAt {
    pub deadline: Option<Instant>,
    pub interrupt: Option<&'static AtomicBool>,
}

/// The limits are looked at every this many table nodes (a few hundredths of a second).
const POLL_NODES: u64 = 1 << 18;

impl EndgameSolver {
    fn with(table: Table) -> EndgameSolver {
        EndgameSolver {
            table,
            nodes: 0,
            limits: StopAt::default(),
            poll_at: u64::MAX,
            stopped: false,
            save_error: None,
        }
    }

    /// A solver with a table of about `mib` MiB (rounded down to a power of two of slots).
    pub fn new(mib: usize) -> EndgameSolver {
        EndgameSolver::with(Table::memory(mib))
    }

    /// A solver without table (allocates nothing).
    pub fn without_table() -> EndgameSolver {
        EndgameSolver::with(Table::none())
    }

    /// A solver whose table is kept in the file `path` (read from it when it exists, otherwise created with about
    /// `mib` MiB), saved every `save_every` during a solve and by [`Self::save`]: what one solve proved, any later one
    /// on the same board size uses. One-line errors.
    pub fn with_file(
        geo: &Geometry,
        path: &std::path::Path,
        mib: usize,
        save_every: Option<std::time::Duration>,
    ) -> Result<EndgameSolver, String> {
        Ok(EndgameSolver::with(Table::file(path, geo.size, mib, save_every)?))
    }

    /// Write a file's table to it (nothing for a table in memory).
    pub fn save(&mut self) -> Result<(), String> {
        self.table.save()
    }

    /// The error of a periodic save that stopped the last solve, if any.
    pub(crate) fn save_error(&self) -> Option<&str> {
        self.save_error.as_deref()
    }

    /// Forget the table's contents (a table in memory; a file keeps them).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The exact value of the position and a best move; `wld`: only the result (score -1, 0 or 1).
    pub fn solve(&mut self, geo: &Geometry, own: u64, opp: u64, wld: bool) -> Solution {
        match self.solve_until(geo, own, opp, wld, StopAt::default(), &mut |_| {}) {
            Ok(s) => s,
            Err(_) => unreachable!("a solve without limits always ends"),
        }
    }

    /// [`Self::solve`] that stops at `limits` with what it has proven (`Err`), and reports the bounds after each
    /// pass of MTD(f) to `on_pass`.
    ///
    /// The exact value by MTD(f): null-window searches of the root (the first is the win/draw/loss test), each
    /// one's fail-soft value the next guess, the table keeping what the previous ones proved. The first guess is 0,
    /// or the bounds the table already holds for the root (a solve resumed from a table file goes on where it
    /// stopped). The bounds are stored in the table after each pass.
    pub fn solve_until(
        &mut self,
        geo: &Geometry,
        own: u64,
        opp: u64,
        wld: bool,
        limits: StopAt,
        on_pass: &mut dyn FnMut(&Bounds),
    ) -> Result<Solution, Bounds> {
        self.nodes = 0;
        self.start(limits);
        let unknown = |nodes| Bounds { lower: -64, upper: 64, best: None, nodes };
        let moves = geo.moves(own, opp);
        if moves == 0 {
            if geo.moves(opp, own) == 0 {
                return Ok(Solution { score: final_score(geo, own, opp).signum_if(wld), best: None, nodes: 1 });
            }
            let (lo, hi) = if wld { (-1, 1) } else { (-65, 65) };
            let v = -self.search(geo, opp, own, -hi, -lo);
            if self.stopped {
                return Err(unknown(self.nodes));
            }
            return Ok(Solution { score: v.signum_if(wld), best: Some(PASS), nodes: self.nodes });
        }
        if wld {
            let (v, best) = self.children(geo, own, opp, moves, None, -1, 1);
            if self.stopped {
                return Err(unknown(self.nodes));
            }
            return Ok(Solution { score: v.signum(), best: Some(best), nodes: self.nodes });
        }
        let (mut lo, mut hi, mut best) = (-64, 64, None);
        let tabled = !self.table.is_empty();
        if tabled && let Some(e) = self.table.probe(own, opp) {
            (lo, hi) = ((e.lower as i32).max(-64), (e.upper as i32).min(64));
            // A lower bound counts only with a legal move that reaches it.
            if lo > -64 && moves >> (e.best & 63) & 1 != 0 {
                best = Some(e.best);
            } else {
                lo = -64;
            }
            hi = hi.max(lo);
        }
        let empties = (geo.board & !(own | opp)).count_ones() as u8;
        let mut g = if lo > -64 {
            lo
        } else if hi < 64 {
            hi
        } else {
            0
        };
        while lo < hi {
            let b = if g == lo { g + 1 } else { g };
            let (v, m) = self.children(geo, own, opp, moves, best, b - 1, b);
            if self.stopped {
                return Err(Bounds { lower: lo, upper: hi, best, nodes: self.nodes });
            }
            g = v;
            if v < b {
                hi = v;
            } else {
                lo = v;
                best = Some(m);
            }
            if tabled {
                self.table.store(Slot::new(own, opp, lo as i8, hi as i8, best.unwrap_or(0), empties));
            }
            on_pass(&Bounds { lower: lo, upper: hi, best, nodes: self.nodes });
        }
        // No search failed high (every move loses by the most): a window around the value names a move that gets it.
        let best = match best {
            Some(m) => m,
            None => {
                let m = self.children(geo, own, opp, moves, None, g - 1, g + 1).1;
                if self.stopped {
                    return Err(Bounds { lower: lo, upper: hi, best: None, nodes: self.nodes });
                }
                m
            }
        };
        Ok(Solution { score: g, best: Some(best), nodes: self.nodes })
    }

    /// Whether a limit is reached (looked at every [`POLL_NODES`] nodes; once stopped, at every node); saves the
    /// table's file when a save is due (every entry is a proven bound at any time), and stops when that fails.
    #[cold]
    fn poll(&mut self) -> bool {
        if !self.stopped {
            let late = self.limits.deadline.is_some_and(|d| Instant::now() >= d);
            let asked = self.limits.interrupt.is_some_and(|f| f.load(Ordering::Relaxed));
            if let Err(e) = self.table.save_if_due() {
                self.save_error = Some(e);
            }
            self.stopped = late || asked || self.save_error.is_some();
            self.poll_at = if self.stopped { 0 } else { self.nodes + POLL_NODES };
        }
        self.stopped
    }

    /// The value of the position within the window (`alpha`, `beta`): fail-soft.
    pub(crate) fn solve_window(&mut self, geo: &Geometry, own: u64, opp: u64, alpha: i32, beta: i32) -> i32 {
        self.start(StopAt::default());
        self.search(geo, own, opp, alpha, beta)
    }

    /// Before a search: the limits set, nothing stopped (also after an earlier search that stopped).
    fn start(&mut self, limits: StopAt) {
        self.limits = limits;
        self.stopped = false;
        self.save_error = None;
        let watch = limits.deadline.is_some() || limits.interrupt.is_some() || self.table.saves_periodically();
        self.poll_at = if watch { POLL_NODES } else { u64::MAX };
    }

    fn search(&mut self, geo: &Geometry, own: u64, opp: u64, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let empty = geo.board & !(own | opp);
        let n = empty.count_ones();
        if n == 0 {
            return final_score(geo, own, opp);
        }
        if n == 1 {
            return self.last(geo, own, opp, empty.trailing_zeros());
        }
        if n <= last::FEW {
            return self.few(geo, own, opp, empty, alpha, beta);
        }
        let moves = geo.moves(own, opp);
        if moves == 0 {
            if geo.moves(opp, own) == 0 {
                return final_score(geo, own, opp);
            }
            return -self.search(geo, opp, own, -beta, -alpha);
        }
        if n <= SHALLOW || self.table.is_empty() && n <= SHALLOW + 2 {
            return self.shallow(geo, own, opp, moves, empty, alpha, beta);
        }
        if self.nodes >= self.poll_at && self.poll() {
            return 0;
        }
        let mut tt_move = None;
        let tabled = !self.table.is_empty() && n >= TABLE_MIN;
        if tabled && let Some(e) = self.table.probe(own, opp) {
            let (lower, upper) = (e.lower as i32, e.upper as i32);
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            if lower == upper {
                return lower;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            tt_move = Some(e.best);
        }
        // Enhanced transposition cut-off: a child whose stored upper bound already refutes it for the opponent.
        if tabled
            && n >= ETC_MIN
            && let Some(v) = self.etc(geo, own, opp, moves, beta)
        {
            return v;
        }
        // Stability cut-off: the opponent keeps its stable discs, so we score at most board - 2 * stable.
        let top = geo.board.count_ones() as i32;
        if alpha >= top - 2 * STABLE_MIN {
            let bound = top - 2 * super::stable::stable(geo, opp, own).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
            beta = beta.min(bound);
        }
        let (best, best_move) = self.children(geo, own, opp, moves, tt_move, alpha, beta);
        if self.stopped {
            return 0; // unfinished: nothing is stored, the caller drops the value
        }
        if tabled {
            let (mut lower, mut upper) = (-64i8, 64i8);
            if best > alpha {
                lower = best as i8;
            }
            if best < beta {
                upper = best as i8;
            }
            self.table.store(Slot::new(own, opp, lower, upper, best_move, n as u8));
        }
        best
    }

    /// The best value of the moves within (`alpha`, `beta`), fail-soft, and a move that has it: PVS, the `first`
    /// move (the table's) searched before the others are even ordered, so that its cut-off spares their sorting.
    #[allow(clippy::too_many_arguments)]
    fn children(
        &mut self,
        geo: &Geometry,
        own: u64,
        opp: u64,
        moves: u64,
        first: Option<u8>,
        alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        let (mut best, mut best_move, mut rest) = (-100, 0, moves);
        if let Some(sq) = first.filter(|&sq| sq < 64 && moves >> sq & 1 != 0) {
            (best, best_move) = (self.child(geo, own, opp, sq, true, alpha, beta), sq);
            rest &= !(1 << sq);
        }
        if best >= beta || rest == 0 {
            return (best, best_move);
        }
        let mut order = arrayvec::ArrayVec::new();
        self.order(geo, own, opp, rest, &mut order);
        for &(_, sq) in &order {
            let v = self.child(geo, own, opp, sq, best == -100, alpha.max(best), beta);
            if self.stopped {
                break;
            }
            if v > best {
                (best, best_move) = (v, sq);
                if v >= beta {
                    break;
                }
            }
        }
        (best, best_move)
    }

    /// One move of the PVS loop, from the window (`a`, `beta`): the first move searched with it, the others with a
    /// null window first, searched again with the window when they beat `a`.
    #[allow(clippy::too_many_arguments)]
    fn child(&mut self, geo: &Geometry, own: u64, opp: u64, sq: u8, first: bool, a: i32, beta: i32) -> i32 {
        let (o, p) = geo.play(own, opp, sq as u32);
        if first {
            return -self.search(geo, o, p, -beta, -a);
        }
        let v = -self.search(geo, o, p, -a - 1, -a);
        if v > a && v < beta { -self.search(geo, o, p, -beta, -v) } else { v }
    }

    /// Enhanced transposition cut-off: if a child's table entry bounds the opponent's value at `u` with `-u >= beta`,
    /// this position is worth at least `-u`: a cut-off without searching.
    fn etc(&self, geo: &Geometry, own: u64, opp: u64, moves: u64, beta: i32) -> Option<i32> {
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let (o, p) = geo.play(own, opp, sq);
            if let Some(e) = self.table.probe(o, p)
                && -(e.upper as i32) >= beta
            {
                return Some(-(e.upper as i32));
            }
        }
        None
    }

    /// Few empties: no table, moves in odd quadrants first.
    #[allow(clippy::too_many_arguments)]
    fn shallow(&mut self, geo: &Geometry, own: u64, opp: u64, moves: u64, empty: u64, alpha: i32, beta: i32) -> i32 {
        let odd = odd_quadrants(geo, empty);
        let mut best = -100;
        for part in [moves & odd, moves & !odd] {
            let mut m = part;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                let (o, p) = geo.play(own, opp, sq);
                let v = -self.search(geo, o, p, -beta, -alpha.max(best));
                if v > best {
                    best = v;
                    if v >= beta {
                        return best;
                    }
                }
            }
        }
        best
    }
}

trait SignumIf {
    fn signum_if(self, on: bool) -> Self;
}

impl SignumIf for i32 {
    fn signum_if(self, on: bool) -> i32 {
        if on { self.signum() } else { self }
    }
}
