//! What the searches of chance games share (`expectimax`, `star1`, `star2`): values as real numbers, the sign between
//! a node and its child, and a small transposition table of value intervals.
//!
//! Values. At a chance node the value is the average of the outcomes' values weighted by their probabilities, so the
//! chance searches compute in `f64` and round only at the root ([`score`]) and for the tracer. Every algorithm adds
//! the outcomes in the order of [`Capabilities::chance_outcomes`](crate::game::Capabilities::chance_outcomes), so that Star1 and Star2
//! return bit for bit the sum expectimax computes whenever they search a node exactly.
//!
//! Signs. Values are negamax-style (the side to move's view), but in a chance game the same player may act twice in a
//! row (Pig: the roller keeps the dice after a good roll; a chance node's side is the player who moves after it). The
//! value of a child seen from its parent is `sign · value(child)`, `sign = +1` when the same player is to move in
//! both, `-1` otherwise; a window passes unchanged to a same-side child and as `(-β, -α)` to the other side.
//!
//! The table ([`ChanceTable`]) keeps for a position the interval `[lo, hi]` its value is known to lie in, the depth and
//! ply it was searched at, and its best move. Values are used only at the same depth and ply (a win's score depends
//! on its distance from the root), so a search with the table returns exactly the value of a search without it; the
//! best move orders the moves at any depth.

use crate::game::{FullGame, Turn};
use crate::search::INFINITY;
use crate::search::tt::START_BYTES;

/// True when chance acts in `s`.
#[inline]
pub(crate) fn is_chance<G: FullGame>(game: &G, s: &G::State) -> bool {
    G::KIND.chance && game.turn(s) == Turn::Chance
}

/// `+1.0` when the same player is to move in `parent` and `child`, `-1.0` otherwise.
#[inline]
pub fn sign<G: FullGame>(game: &G, parent: &G::State, child: &G::State) -> f64 {
    if game.side_to_move(parent) == game.side_to_move(child) { 1.0 } else { -1.0 }
}

/// The window `(alpha, beta)` of a parent seen from a child of sign `sg`.
#[inline]
pub(crate) fn child_window(sg: f64, alpha: f64, beta: f64) -> (f64, f64) {
    if sg > 0.0 { (alpha, beta) } else { (-beta, -alpha) }
}

/// A value rounded to the integer scale of the rest of the search. Ties at one half go up; the tiny shift makes the
/// rounding noise of two sums of the same exact value round the same way.
#[inline]
pub fn score(v: f64) -> i32 {
    (v + 1e-6).round().clamp(-INFINITY as f64, INFINITY as f64) as i32
}

/// The suffix sums of the probabilities: `rest[i]` is the probability of the outcomes after `i` (exactly 0 after the
/// last one).
pub(crate) fn rest_after(probabilities: impl DoubleEndedIterator<Item = f64> + ExactSizeIterator, rest: &mut [f64]) {
    let mut acc = 0.0;
    for (r, p) in rest.iter_mut().zip(probabilities).rev() {
        *r = acc;
        acc += p;
    }
}

/// One stored position: its value lies in `[lo, hi]` (searched to `depth` at `ply`).
#[derive(Copy, Clone, Debug)]
pub struct ChanceEntry<M: Copy> {
    pub key: u64,
    pub lo: f64,
    pub hi: f64,
    pub depth: u32,
    pub ply: u32,
    pub mv: Option<M>,
}

/// A direct-mapped table of value intervals, replaced always (the newest search knows best). Like the transposition
/// table it grows to its size as it fills: it starts at [`START_BYTES`] (or its size, if smaller) and doubles when
/// three quarters of its slots are used, so that a large `tt=` costs memory only when a search needs it.
pub struct ChanceTable<M: Copy> {
    slots: Vec<Option<ChanceEntry<M>>>,
    mask: usize,
    /// Slots the table may grow to.
    max_slots: usize,
    /// Slots in use.
    filled: usize,
}

impl<M: Copy> ChanceTable<M> {
    /// A table of at most `mib` MiB (a power of two number of slots, at least one).
    pub fn new(mib: usize) -> Self {
        let size = std::mem::size_of::<Option<ChanceEntry<M>>>().max(1);
        let slots_in = |bytes: usize| {
            let want = bytes / size;
            if want <= 1 { 1 } else { 1usize << (usize::BITS - 1 - want.leading_zeros()) }
        };
        let max_slots = slots_in(mib.clamp(1, crate::limits::MAX_TABLE_MIB) << 20);
        let n = max_slots.min(slots_in(START_BYTES));
        ChanceTable { slots: vec![None; n], mask: n - 1, max_slots, filled: 0 }
    }

    /// Slots the table holds now, and the most it may grow to.
    pub fn capacity(&self) -> (usize, usize) {
        (self.slots.len(), self.max_slots)
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.filled = 0;
    }

    /// Double the table, placing every entry again (a slot splits in two: no collision); when the system refuses
    /// the memory, stop growing.
    #[cold]
    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let mut bigger: Vec<Option<ChanceEntry<M>>> = Vec::new();
        if bigger.try_reserve_exact(n).is_err() {
            self.max_slots = self.slots.len();
            return;
        }
        bigger.resize(n, None);
        let old = std::mem::replace(&mut self.slots, bigger);
        self.mask = n - 1;
        for e in old.into_iter().flatten() {
            let i = self.index(e.key);
            self.slots[i] = Some(e);
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key >> 32) ^ key) as usize & self.mask
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<ChanceEntry<M>> {
        self.slots[self.index(key)].filter(|e| e.key == key)
    }

    /// Store the result `v` of a fail-hard search with window `(alpha, beta)`: `v <= alpha` is an upper bound,
    /// `v >= beta` a lower bound, anything between exact.
    #[inline]
    pub fn store(&mut self, key: u64, depth: u32, ply: u32, (alpha, beta): (f64, f64), v: f64, mv: Option<M>) {
        let (lo, hi) = if v <= alpha {
            (f64::NEG_INFINITY, v)
        } else if v >= beta {
            (v, f64::INFINITY)
        } else {
            (v, v)
        };
        if self.filled * 4 >= self.slots.len() * 3 && self.slots.len() < self.max_slots {
            self.grow();
        }
        let i = self.index(key);
        if self.slots[i].is_none() {
            self.filled += 1;
        }
        self.slots[i] = Some(ChanceEntry { key, lo, hi, depth, ply, mv });
    }
}

impl<M: Copy> ChanceEntry<M> {
    /// What the entry decides for a search of window `(alpha, beta)` at `depth` and `ply`: the exact value, or the
    /// window's bound it fails on; `None` when it decides nothing (another depth or ply, or a bound inside the window).
    #[inline]
    pub fn cut(&self, depth: u32, ply: u32, alpha: f64, beta: f64) -> Option<f64> {
        if self.depth != depth || self.ply != ply {
            None
        } else if self.lo == self.hi {
            Some(self.lo)
        } else if self.hi <= alpha {
            Some(alpha)
        } else if self.lo >= beta {
            Some(beta)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_grows_as_it_fills_and_keeps_its_entries() {
        // 20 GiB asked: about 1 MiB taken until the searches fill it.
        let mut t: ChanceTable<u8> = ChanceTable::new(20 << 10);
        let (now, most) = t.capacity();
        assert!(now * std::mem::size_of::<Option<ChanceEntry<u8>>>() <= START_BYTES, "{now} slots at the start");
        assert!(most > now * 1000, "{most} slots at most");
        let keys: Vec<u64> = (0..3 * now as u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, 3, 1, (0.0, 1.0), 0.5, Some(i as u8));
        }
        assert!(t.capacity().0 > now, "the table grew: {:?}", t.capacity());
        // Direct-mapped: a later key may take an earlier one's slot, but the growths lose nothing (about half of the
        // keys are left in a table 4/3 their number), and the last one stored is there.
        let kept = keys.iter().filter(|&&k| t.probe(k).is_some()).count();
        assert!(kept * 5 > keys.len() * 2, "{kept} of {} entries kept", keys.len());
        assert_eq!(t.probe(*keys.last().unwrap()).and_then(|e| e.mv), Some((keys.len() - 1) as u8));
        t.clear();
        assert!(keys.iter().all(|&k| t.probe(k).is_none()));
    }

    #[test]
    fn suffix_sums_end_at_zero_and_entries_decide_only_what_they_know() {
        let mut rest = [9.0; 3];
        rest_after([0.5, 0.25, 0.25].into_iter(), &mut rest);
        assert_eq!(rest, [0.5, 0.25, 0.0]);
        let mut t: ChanceTable<u8> = ChanceTable::new(1);
        t.store(7, 3, 2, (0.0, 10.0), 0.0, Some(1)); // failed low: value <= 0
        let e = t.probe(7).unwrap();
        assert_eq!(e.cut(3, 2, 1.0, 5.0), Some(1.0));
        assert_eq!(e.cut(3, 2, -1.0, 5.0), None);
        assert_eq!(e.cut(4, 2, 1.0, 5.0), None);
        t.store(7, 3, 2, (0.0, 10.0), 4.5, None);
        assert_eq!(t.probe(7).unwrap().cut(3, 2, -100.0, 100.0), Some(4.5));
        assert!(t.probe(8).is_none());
        assert_eq!(score(2.5), 3);
        assert_eq!(score(2.4999999999), 3);
        assert_eq!(score(-2.5), -2);
    }
}
