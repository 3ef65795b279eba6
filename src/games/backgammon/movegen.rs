//! Move generation: every distinct result of a roll, each once.
//!
//! A move is the checker steps of one decision (at most two, see the module documentation of `backgammon`), packed in
//! a `u32`:
//!
//! ```text
//! bits 0..8    first step: from << 3 | die     (from = own point 1..24 or 25 for the bar; 0 = no step)
//! bits 8..16   second step, same layout
//! bits 16..18  dice still to play after this move (the second half of a doubles); 0 = the turn ends
//! bit 31       a chance outcome instead (bits 0..4 the low die, 4..8 the high die, bit 8 the opening's starter)
//! ```
//!
//! Non-doubles: both orders of the dice are tried from every source; two-step results are the moves when there is one
//! (both dice must be played), else the one-step results with the larger die, else those with the smaller, else the
//! pass (move 0). Distinct results are kept once (a linear scan over the results: at most 255 positions, see
//! `docs/backgammon.md`).
//!
//! Doubles: the four steps are enumerated with non-increasing source points, which is the most permissive order (a
//! step from a higher point only adds checkers to the lower ones, and bearing off needs the higher points empty), so
//! every multiset of steps that can be played is found. The first decision plays two steps: the two-step results from
//! which the most further steps (up to two) can be played; the move records how many remain for the second decision.

use arrayvec::ArrayVec;

use super::board::{Pair, apply_step, sources, step_target, top_nibble};
use crate::game::MoveList;

/// A move or a chance outcome (see the module documentation).
pub(crate) type BgMove = u32;

/// The move of a player who cannot play any die.
pub const PASS: BgMove = 0;
/// The flag of a chance outcome.
pub const CHANCE: BgMove = 1 << 31;

/// One step's byte.
#[inline(always)]
pub fn step(from: usize, die: usize) -> BgMove {
    (from << 3 | die) as BgMove
}

/// The steps of a move, in playing order: `(from, die)`.
pub fn steps(m: BgMove) -> ArrayVec<(usize, usize), 2> {
    let mut out = ArrayVec::new();
    for byte in [m & 0xFF, (m >> 8) & 0xFF] {
        if byte != 0 {
            out.push(((byte >> 3) as usize, (byte & 7) as usize));
        }
    }
    out
}

/// Dice still to play after `m` (the second half of a doubles).
#[inline(always)]
pub fn left_after(m: BgMove) -> u8 {
    ((m >> 16) & 3) as u8
}

/// A chance outcome: the dice (`hi >= lo`) and, for the opening roll, who starts (0 or 1).
#[inline(always)]
pub fn roll(hi: u8, lo: u8, starter: u8) -> BgMove {
    CHANCE | (starter as u32) << 8 | (hi as u32) << 4 | lo as u32
}

/// The dice `(hi, lo)` and the starter of a chance outcome.
#[inline(always)]
pub(crate) fn roll_parts(m: BgMove) -> (u8, u8, u8) {
    (((m >> 4) & 15) as u8, (m & 15) as u8, ((m >> 8) & 1) as u8)
}

/// Play the steps of `m` on `pair` (each known legal).
pub fn apply(pair: &mut Pair, m: BgMove) {
    for (from, die) in steps(m) {
        let to = from.saturating_sub(die);
        apply_step(pair, from, to);
    }
}

/// Distinct results found so far, with the move reaching each.
struct Results {
    list: ArrayVec<(Pair, BgMove), 256>,
}

impl Results {
    fn new() -> Self {
        Results { list: ArrayVec::new() }
    }

    #[inline(always)]
    fn add(&mut self, pair: Pair, m: BgMove) {
        if !self.list.iter().any(|(p, _)| *p == pair) {
            self.list.push((pair, m));
        }
    }
}

/// Iterate the source points of `pair.me` from the highest down (only the bar while it holds a checker).
#[inline(always)]
fn for_sources(pair: Pair, mut f: impl FnMut(usize)) {
    let mut mask = sources(pair.me);
    while mask != 0 {
        let p = top_nibble(mask);
        mask ^= 1u128 << (4 * p);
        f(p);
    }
}

/// The legal moves of a decision: the dice `hi >= lo`; `left` = `None` for the first decision of a turn, `Some(k)` for
/// the second half of a doubles with `k` dice to play.
pub(crate) fn generate(pair: Pair, hi: usize, lo: usize, left: Option<u8>, out: &mut MoveList<BgMove>) {
    out.clear();
    if hi != lo {
        non_doubles(pair, hi, lo, out);
    } else if let Some(k) = left {
        let mut found = Results::new();
        let n = plays(pair, hi, k as usize, &mut found);
        if n == 0 {
            out.push(PASS);
        }
        out.extend(found.list.iter().map(|&(_, m)| m));
    } else {
        doubles_first_half(pair, hi, out);
    }
}

fn non_doubles(pair: Pair, hi: usize, lo: usize, out: &mut MoveList<BgMove>) {
    let mut two = Results::new();
    let mut single_hi = Results::new();
    let mut single_lo = Results::new();
    for (a, b) in [(hi, lo), (lo, hi)] {
        for_sources(pair, |f| {
            let Some(t) = step_target(pair, f, a) else { return };
            let mut p1 = pair;
            apply_step(&mut p1, f, t);
            let first = step(f, a);
            if two.list.is_empty() {
                if a == hi { single_hi.add(p1, first) } else { single_lo.add(p1, first) }
            }
            for_sources(p1, |g| {
                if let Some(u) = step_target(p1, g, b) {
                    let mut p2 = p1;
                    apply_step(&mut p2, g, u);
                    two.add(p2, first | step(g, b) << 8);
                }
            });
        });
    }
    let chosen = if !two.list.is_empty() {
        two
    } else if !single_hi.list.is_empty() {
        single_hi
    } else {
        single_lo
    };
    if chosen.list.is_empty() {
        out.push(PASS);
    }
    out.extend(chosen.list.iter().map(|&(_, m)| m));
}

/// Plays of at most `k` (1 or 2) steps of `die` with non-increasing sources, the longest only, into `found`; returns
/// their length.
fn plays(pair: Pair, die: usize, k: usize, found: &mut Results) -> usize {
    let mut singles = Results::new();
    let mut longest = 0;
    for_sources(pair, |f| {
        let Some(t) = step_target(pair, f, die) else { return };
        let mut p1 = pair;
        apply_step(&mut p1, f, t);
        longest = longest.max(1);
        if k == 1 {
            singles.add(p1, step(f, die));
            return;
        }
        if longest == 1 {
            singles.add(p1, step(f, die));
        }
        for_sources(p1, |g| {
            if g > f {
                return;
            }
            if let Some(u) = step_target(p1, g, die) {
                let mut p2 = p1;
                apply_step(&mut p2, g, u);
                longest = 2;
                found.add(p2, step(f, die) | step(g, die) << 8);
            }
        });
    });
    if longest == 1 {
        found.list = singles.list;
    }
    longest
}

/// The most steps of `die` (up to `k`) playable from `pair`.
fn max_steps(pair: Pair, die: usize, k: usize) -> usize {
    if k == 0 {
        return 0;
    }
    let mut best = 0;
    let mut mask = sources(pair.me);
    while mask != 0 {
        let f = top_nibble(mask);
        mask ^= 1u128 << (4 * f);
        if let Some(t) = step_target(pair, f, die) {
            if k == 1 {
                return 1;
            }
            best = 1;
            let mut p1 = pair;
            apply_step(&mut p1, f, t);
            if max_steps(p1, die, k - 1) == k - 1 {
                return k;
            }
        }
    }
    best
}

fn doubles_first_half(pair: Pair, die: usize, out: &mut MoveList<BgMove>) {
    let mut found = Results::new();
    let n = plays(pair, die, 2, &mut found);
    if n < 2 {
        if n == 0 {
            out.push(PASS);
        }
        out.extend(found.list.iter().map(|&(_, m)| m));
        return;
    }
    let mut ext: ArrayVec<u8, 256> = ArrayVec::new();
    let mut most = 0;
    for &(p2, _) in &found.list {
        let e = max_steps(p2, die, 2) as u8;
        most = most.max(e);
        ext.push(e);
    }
    for (&(_, m), &e) in found.list.iter().zip(&ext) {
        if e == most {
            out.push(m | (e as BgMove) << 16);
        }
    }
}

/// The result of every legal move of a decision (for the tests and the notation): `(move, result)`.
pub fn results(pair: Pair, hi: usize, lo: usize, left: Option<u8>) -> Vec<(BgMove, Pair)> {
    let mut moves = MoveList::new();
    generate(pair, hi, lo, left, &mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut p = pair;
            apply(&mut p, m);
            (m, p)
        })
        .collect()
}
