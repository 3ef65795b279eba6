//! One side's checkers as 26 four-bit counters packed in a `u128`, and the single checker step.
//!
//! ```text
//! nibble  0        1 .. 6        7 .. 24          25
//!         off      home board    outer points     bar        (the side's own numbering: it moves 24 -> 1 -> off)
//! ```
//!
//! A side's point `p` is the opponent's point `25 - p`. Counts never exceed 15, so a nibble holds any of them and
//! adding or removing a checker is one addition of `1 << 4p`. "Points holding at least one (two) checkers" are one
//! shift-or-mask each ([`occupied`], [`made`]), so blocking and bearing-off tests are a few instructions.

use crate::game::zobrist;

/// One side's checkers: nibble `p` = checkers on the side's own point `p` (0 = borne off, 25 = the bar).
pub type Checkers = u128;

/// Checkers per side.
pub(crate) const CHECKERS: u32 = 15;
/// The bar's nibble.
pub const BAR: usize = 25;
/// The low bit of every nibble.
pub(crate) const LOW_BITS: u128 = 0x1111_1111_1111_1111_1111_1111_1111_1111;
/// The low bits of the nibbles 1..=24 (the points).
pub(crate) const POINT_BITS: u128 = LOW_BITS & !1 & ((1u128 << 100) - 1);
/// Every bit of the nibbles 7..=25 (outside the home board, the bar included).
pub(crate) const OUTSIDE_HOME: u128 = ((1u128 << 104) - 1) & !((1u128 << 28) - 1);

/// Checkers of `side` on nibble `p`.
#[inline(always)]
pub fn count(side: Checkers, p: usize) -> u32 {
    ((side >> (4 * p)) & 15) as u32
}

/// One checker of nibble `p`, as a value to add or subtract.
#[inline(always)]
pub fn one(p: usize) -> u128 {
    1u128 << (4 * p)
}

/// Bit `4p` set for each nibble `p` holding at least one checker.
#[inline(always)]
pub fn occupied(side: Checkers) -> u128 {
    (side | side >> 1 | side >> 2 | side >> 3) & LOW_BITS
}

/// Bit `4p` set for each nibble `p` holding at least two checkers (a made point, when `p` is a point).
#[inline(always)]
pub fn made(side: Checkers) -> u128 {
    (side >> 1 | side >> 2 | side >> 3) & LOW_BITS
}

/// The mask of every bit of the nibbles `lo..=hi`.
#[inline(always)]
pub(crate) fn nibbles(lo: usize, hi: usize) -> u128 {
    if lo > hi {
        return 0;
    }
    let top = if hi >= 31 { u128::MAX } else { (1u128 << (4 * (hi + 1))) - 1 };
    top & !((1u128 << (4 * lo)) - 1)
}

/// The pip count: the sum over checkers of their distance to bearing off (the bar is 25).
pub fn pips(side: Checkers) -> u32 {
    (1..=BAR).map(|p| p as u32 * count(side, p)).sum()
}

/// A position's two sides, `me` to move: the result of one checker step.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    pub me: Checkers,
    pub op: Checkers,
}

/// Where a step of `die` pips from `from` lands (0 = borne off), or `None` when it is illegal in `pair`.
///
/// Legal: `me` has a checker on `from`; nothing but the bar moves while the bar holds a checker; the landing point is
/// not made by the opponent; bearing off needs every checker in the home board, and a die larger than the distance
/// bears off only from the highest occupied point.
#[inline(always)]
pub(crate) fn step_target(pair: Pair, from: usize, die: usize) -> Option<usize> {
    let me = pair.me;
    if count(me, from) == 0 || (from != BAR && count(me, BAR) != 0) {
        return None;
    }
    if from > die {
        let to = from - die;
        if count(pair.op, 25 - to) >= 2 { None } else { Some(to) }
    } else {
        if me & OUTSIDE_HOME != 0 {
            return None;
        }
        if from == die || me & nibbles(from + 1, 6) == 0 { Some(0) } else { None }
    }
}

/// Play a step already known legal (its landing point `to` from [`step_target`]); true when it hits a blot.
#[inline(always)]
pub(crate) fn apply_step(pair: &mut Pair, from: usize, to: usize) -> bool {
    pair.me = pair.me - one(from) + one(to);
    if to == 0 {
        return false;
    }
    let their = 25 - to;
    if count(pair.op, their) == 1 {
        pair.op = pair.op - one(their) + one(BAR);
        true
    } else {
        false
    }
}

/// The occupied source nibbles of `me` in decreasing order (the bar first): only the bar while it holds a checker.
#[inline(always)]
pub fn sources(me: Checkers) -> u128 {
    if count(me, BAR) != 0 { one(BAR) } else { occupied(me) & POINT_BITS }
}

/// The highest nibble of a non-empty mask of low bits.
#[inline(always)]
pub(crate) fn top_nibble(mask: u128) -> usize {
    (127 - mask.leading_zeros() as usize) / 4
}

// ---- Zobrist keys ----

/// Key of `n` checkers (1..=15) of `player` (0 or 1) on nibble `p`; none for an empty nibble.
#[inline(always)]
pub(crate) fn checker_key(player: usize, p: usize, n: u32) -> u64 {
    if n == 0 { 0 } else { zobrist::key((player * 26 + p) * 15 + n as usize - 1) }
}

/// First key index after the checker keys (2 * 26 * 15 = 780), for the turn's keys.
pub(crate) const TURN_KEYS: usize = 780;

/// The key of a whole side from scratch.
pub(crate) fn side_key(player: usize, side: Checkers) -> u64 {
    (0..26).fold(0, |k, p| k ^ checker_key(player, p, count(side, p)))
}

/// The key change between two versions of a side (only the nibbles that differ).
#[inline(always)]
pub(crate) fn side_key_delta(player: usize, before: Checkers, after: Checkers) -> u64 {
    let mut diff = before ^ after;
    let mut k = 0;
    while diff != 0 {
        let p = diff.trailing_zeros() as usize / 4;
        k ^= checker_key(player, p, count(before, p)) ^ checker_key(player, p, count(after, p));
        diff &= !nibbles(p, p);
    }
    k
}

/// The start position of one side: 2 on the 24 point, 5 on the 13, 3 on the 8, 5 on the 6.
pub const START: Checkers = (2u128 << (4 * 24)) | (5u128 << (4 * 13)) | (3u128 << (4 * 8)) | (5u128 << (4 * 6));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_fifteen_checkers_and_167_pips() {
        assert_eq!((0..26).map(|p| count(START, p)).sum::<u32>(), 15);
        assert_eq!(pips(START), 167);
        assert_eq!(occupied(START) & POINT_BITS, one(24) | one(13) | one(8) | one(6));
        assert_eq!(made(START), occupied(START));
    }

    #[test]
    fn steps_block_hit_enter_and_bear_off() {
        let pair = Pair { me: START, op: START };
        // 24 -> 18 lands on the opponent's 7 point: empty.
        assert_eq!(step_target(pair, 24, 6), Some(18));
        // 13 -> 12 lands on the opponent's 13 point: made.
        assert_eq!(step_target(pair, 13, 1), None);
        // Nothing to move from 23, and no bearing off from outside the home board.
        assert_eq!(step_target(pair, 23, 1), None);
        assert_eq!(step_target(pair, 6, 6), None);
        // Home: 3 on the 4 point and 1 on the 2 point.
        let home = Pair { me: 3 * one(4) + one(2) + 11 * one(0), op: 15 * one(0) };
        assert_eq!(step_target(home, 4, 4), Some(0));
        assert_eq!(step_target(home, 4, 6), Some(0));
        assert_eq!(step_target(home, 2, 6), None, "a higher point is occupied");
        assert_eq!(step_target(home, 2, 1), Some(1));
        // A checker on the bar must enter first.
        let bar = Pair { me: START - one(6) + one(BAR), op: one(3) + 14 * one(0) };
        assert_eq!(step_target(bar, 13, 3), None);
        let mut p = bar;
        assert_eq!(step_target(p, BAR, 3), Some(22));
        assert!(apply_step(&mut p, BAR, 22), "the blot on the opponent's 3 point is hit");
        assert_eq!(count(p.op, BAR), 1);
        assert_eq!(count(p.me, 22), 1);
    }

    #[test]
    fn key_deltas_match_keys_from_scratch() {
        let after = START - one(24) + one(18);
        assert_eq!(side_key(0, START) ^ side_key_delta(0, START, after), side_key(0, after));
        assert_ne!(side_key(0, START), side_key(1, START));
    }
}
