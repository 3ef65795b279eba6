//! The number puzzle: reach `t` from `s` applying f(x) = 3x and g(x) = x div 2, with as few applications as possible.
//!
//! Actions are written `f` and `g`; a solution is a string such as `ffgg` (1 -> 3 -> 9 -> 4 -> 2).
//!
//! Which targets are reachable: from 0 only 0 (both functions fix 0). From any `s >= 1` every `t >= 0` is reachable:
//! halving leads to 1, and from 1, `3^k` followed by halvings gives the leading binary digits of `3^k`, which run
//! through every prefix because log2(3) is irrational. So the only impossible instances are `s = 0, t != 0`.
//! Values are `u64`; `f` is not applied when 3x would exceed `u64::MAX` (the searches never need such values for the
//! inputs accepted, at most 2^40).
//!
//! Heuristic (admissible and consistent), with `b(x)` the number of binary digits of x: one `f` adds at most two
//! digits and one `g` removes exactly one, so at least `ceil((b(t) - b(x)) / 2)` moves are needed when `t` is longer
//! and `b(x) - b(t)` when it is shorter; at least 1 whenever `x != t`.

use super::{ActionList, Cost, Problem};

/// Largest `s` or `t` accepted.
pub const MAX_INPUT: u64 = 1 << 40;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
/// The number puzzle: reach one number from another with f(x) = 3x and g(x) = x div 2.
pub struct NumberPuzzle {
    pub from: u64,
    pub to: u64,
}

impl NumberPuzzle {
    /// The puzzle from `from` to `to` (checked: from 0 only 0 is reachable).
    pub fn new(from: u64, to: u64) -> Result<Self, String> {
        if from > MAX_INPUT || to > MAX_INPUT {
            return Err(format!("number puzzle: --from and --to must be at most 2^40 = {MAX_INPUT}"));
        }
        if from == 0 && to != 0 {
            return Err(format!("number puzzle: {to} cannot be reached from 0 (3*0 = 0 div 2 = 0)"));
        }
        Ok(NumberPuzzle { from, to })
    }
}

fn bits(x: u64) -> u32 {
    64 - x.leading_zeros()
}

impl Problem for NumberPuzzle {
    type State = u64;
    type Action = u8;
    type Key = u64;

    fn start(&self) -> u64 {
        self.from
    }
    fn is_goal(&self, s: &u64) -> bool {
        *s == self.to
    }
    fn actions(&self, s: &u64, out: &mut ActionList<u8>) {
        out.clear();
        // Both functions fix 0: no action changes it.
        if *s != 0 {
            if *s <= u64::MAX / 3 {
                out.push(b'f');
            }
            out.push(b'g');
        }
    }
    fn apply(&self, s: &u64, a: u8) -> (u64, Cost) {
        (if a == b'f' { s * 3 } else { s / 2 }, 1)
    }
    fn heuristic(&self, s: &u64) -> Cost {
        if *s == self.to {
            return 0;
        }
        let (bs, bt) = (bits(*s), bits(self.to));
        let h = if bt > bs { (bt - bs).div_ceil(2) } else { bs - bt };
        h.max(1)
    }
    fn key(&self, s: &u64) -> u64 {
        *s
    }
    fn format_action(&self, _s: &u64, a: u8) -> String {
        (a as char).to_string()
    }
}
