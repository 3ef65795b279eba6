//! The retrograde pass of one class of the checkers endgame databases: a signature and the same material with the
//! other side to move (its [`Sig::flipped`]), solved together, the signatures they lead to by a capture or a
//! promotion being solved before (fewer pieces, or fewer men).
//!
//! Moves without capture or promotion (quiet moves) stay inside the class: from one signature to the other. The pass
//! is the queue of [`crate::solve::retro`] with out-degree counters, the exits to solved signatures entering it at
//! the time their distance says (a bucket per ply), so that a win takes its shortest line and a loss its longest:
//!
//! ```text
//! for every position P of the class:
//!     no legal move:                    P := loss in 0, decided at time 0
//!     win_exit(P)  := 1 + the least distance of an exit child that is lost   -> event "win" at that time
//!     lose_exit(P) := 1 + the largest distance of the exit children that win -> event "one option fewer" then
//!     left(P) := quiet moves + [some exit child wins] + [some exit child draws or loses]
//! for t := 1, 2, ... while something is decided or an event is due:
//!     each event of time t on an unknown P: "win": P := win in t; "one option fewer": left(P) -= 1, 0: P := loss in t
//!     each Q decided at time t - 1, each unknown quiet predecessor P of Q (un-moves checked for compulsory capture):
//!         Q lost: P := win in t;   Q won: left(P) -= 1, if 0: P := loss in t
//! every P still unknown := draw (neither side can force a win: play goes on for ever without the draw rule)
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::ProgressBar;

use super::db::{DRAW, HOLE, LOSS, Tables, WIN, code, distance, pack};
use super::geometry::{BOTTOM_ROW, NEXT, NONE};
use super::movegen;
use super::rank::Sig;
use super::{CheckersMove, CheckersState};
use crate::game::{MoveList, Side};

/// Not decided yet (during the pass only).
const UNKNOWN: u16 = u16::MAX;

/// The position `own` to move (moving down) as a state of the game, Black to move.
#[inline]
pub(super) fn state(own: u32, opp: u32, kings: u32) -> CheckersState {
    CheckersState { black: own, white: opp, kings, stm: Side::First, quiet: 0, key: 0 }
}

/// The child of `m` from `(own, opp, kings)`, seen from its side to move, and whether `m` leaves the class (a capture
/// or a promotion).
#[inline]
pub(super) fn child(own: u32, opp: u32, kings: u32, m: &CheckersMove) -> (u32, u32, u32, bool) {
    let (from, to) = (1u32 << m.from, 1u32 << m.to);
    let was_king = kings & from != 0;
    let crowned = !was_king && to & BOTTOM_ROW != 0;
    let own2 = own & !from | to;
    let opp2 = opp & !m.captured;
    let mut k2 = kings & !(from | m.captured);
    if was_king || crowned {
        k2 |= to;
    }
    (opp2.reverse_bits(), own2.reverse_bits(), k2.reverse_bits(), m.captured != 0 || crowned)
}

/// The positions (seen from their side to move) with a quiet move to `(own, opp, kings)`.
fn predecessors(own: u32, opp: u32, kings: u32, out: &mut Vec<(u32, u32, u32)>) {
    out.clear();
    let mover = opp.reverse_bits();
    let other = own.reverse_bits();
    let k = kings.reverse_bits();
    let empty = !(mover | other);
    let mut pieces = mover;
    while pieces != 0 {
        let to = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        let king = k >> to & 1 == 1;
        // A man moves down: it came from one of the two squares above.
        let dirs: &[usize] = if king { &[0, 1, 2, 3] } else { &[0, 1] };
        for &d in dirs {
            let from = NEXT[to][d];
            if from == NONE || empty >> from & 1 == 0 {
                continue;
            }
            let (f, t) = (1u32 << from, 1u32 << to);
            let p_own = mover & !t | f;
            let p_kings = if king { k & !t | f } else { k };
            if movegen::must_capture(&state(p_own, other, p_kings)) {
                continue; // the quiet move was not legal there
            }
            out.push((p_own, other, p_kings));
        }
    }
}

/// The class of `sigs` (one signature, or one and its flip), its entries end to end.
struct Class {
    sigs: Vec<Sig>,
    start: Vec<u64>,
}

impl Class {
    fn new(sigs: Vec<Sig>) -> Class {
        let mut start = vec![0];
        for s in &sigs {
            start.push(start.last().copied().unwrap_or(0) + s.size());
        }
        Class { sigs, start }
    }

    fn len(&self) -> u64 {
        self.start[self.sigs.len()]
    }

    #[inline]
    fn locate(&self, i: u64) -> (Sig, u64) {
        let k = usize::from(i >= self.start[1]);
        (self.sigs[k], i - self.start[k])
    }

    #[inline]
    fn global(&self, own: u32, opp: u32, kings: u32) -> u64 {
        let s = Sig::of(own, opp, kings);
        let k = usize::from(s != self.sigs[0]);
        self.start[k] + s.index(own, opp, kings)
    }
}

/// Solve the class of `sigs` (`sigs[1]` the flip of `sigs[0]` when they differ), every signature it leads to by a
/// capture or a promotion being in `tables`. The values of each signature, in order; `Ok(None)` when `stop` was set.
pub(super) fn solve_class(
    tables: &Tables,
    sigs: Vec<Sig>,
    stop: Option<&AtomicBool>,
    bar: &ProgressBar,
) -> Result<Option<Vec<Vec<u16>>>, String> {
    let class = Class::new(sigs);
    let n = class.len();
    let stopped = || stop.is_some_and(|f| f.load(Ordering::SeqCst));
    let mut val = vec![UNKNOWN; n as usize];
    let mut left = vec![0u8; n as usize];
    let mut events: Vec<Vec<u32>> = Vec::new();
    let mut decided: Vec<u32> = Vec::new();
    let mut moves = MoveList::new();
    let add = |events: &mut Vec<Vec<u32>>, t: u32, e: u32| {
        if events.len() <= t as usize {
            events.resize(t as usize + 1, Vec::new());
        }
        events[t as usize].push(e);
    };
    for i in 0..n {
        if i & 0xffff == 0 {
            if stopped() {
                return Ok(None);
            }
            bar.inc(0x10000.min(n - i));
        }
        let (sig, idx) = class.locate(i);
        let Some((own, opp, kings)) = sig.position(idx) else {
            val[i as usize] = HOLE;
            continue;
        };
        movegen::generate(&state(own, opp, kings), &mut moves);
        if moves.is_empty() {
            val[i as usize] = pack(LOSS, 0);
            decided.push(i as u32);
            continue;
        }
        let (mut quiet, mut win_at, mut lose_at, mut not_won) = (0u32, u32::MAX, 0u32, false);
        for m in moves.iter() {
            let (co, cp, ck, exit) = child(own, opp, kings, m);
            if !exit {
                quiet += 1;
                continue;
            }
            let v = tables.raw(co, cp, ck).ok_or_else(|| {
                format!("internal error: the table of {} is needed before {}", Sig::of(co, cp, ck).name(), sig.name())
            })?;
            match code(v) {
                LOSS => (win_at, not_won) = (win_at.min(distance(v) + 1), true),
                WIN => lose_at = lose_at.max(distance(v) + 1),
                _ => not_won = true,
            }
        }
        let total = quiet + u32::from(lose_at > 0) + u32::from(not_won);
        left[i as usize] = u8::try_from(total).map_err(|_| format!("{} has {total} moves", sig.name()))?;
        if win_at != u32::MAX {
            add(&mut events, win_at, (i as u32) << 1);
        }
        if lose_at > 0 {
            add(&mut events, lose_at, (i as u32) << 1 | 1);
        }
    }
    let mut preds = Vec::new();
    let mut t = 0u32;
    while !decided.is_empty() || (t as usize) < events.len() {
        t += 1;
        if stopped() {
            return Ok(None);
        }
        let mut next = Vec::new();
        let lose = |val: &mut [u16], left: &mut [u8], p: usize, next: &mut Vec<u32>| {
            left[p] -= 1;
            if left[p] == 0 {
                val[p] = pack(LOSS, t);
                next.push(p as u32);
            }
        };
        if let Some(due) = events.get_mut(t as usize) {
            for e in std::mem::take(due) {
                let p = (e >> 1) as usize;
                if val[p] != UNKNOWN {
                    continue;
                }
                if e & 1 == 0 {
                    val[p] = pack(WIN, t);
                    next.push(p as u32);
                } else {
                    lose(&mut val, &mut left, p, &mut next);
                }
            }
        }
        for &q in &decided {
            let q_lost = code(val[q as usize]) == LOSS;
            let (sig, idx) = class.locate(q as u64);
            let (own, opp, kings) = sig.position(idx).ok_or("internal error: a hole was decided")?;
            predecessors(own, opp, kings, &mut preds);
            for &(po, pp, pk) in &preds {
                let p = class.global(po, pp, pk) as usize;
                if val[p] != UNKNOWN {
                    continue;
                }
                if q_lost {
                    val[p] = pack(WIN, t);
                    next.push(p as u32);
                } else {
                    lose(&mut val, &mut left, p, &mut next);
                }
            }
        }
        bar.inc(decided.len() as u64);
        decided = next;
    }
    for v in val.iter_mut() {
        if *v == UNKNOWN {
            *v = pack(DRAW, 0);
        }
    }
    let mut out = Vec::new();
    for k in 0..class.sigs.len() {
        out.push(val[class.start[k] as usize..class.start[k + 1] as usize].to_vec());
    }
    Ok(Some(out))
}
