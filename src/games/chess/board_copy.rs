//! A `Copy` holder for a [`cozy_chess::Board`].
//!
//! The game model wants states that are `Copy` (copy-make: a search copies the state and plays on the copy).
//! `cozy_chess::Board` is plain data (bitboards, small enums, counters: its inner `ZobristBoard` is itself `Copy`) but
//! implements only `Clone`, so that users do not copy its ~100 bytes by accident. [`BoardCell`] stores the board's bytes
//! in a `Copy` buffer and hands out references to it.
//!
//! Why this is sound: a bitwise copy of a value is a valid value of the same type when the type owns no resource,
//! i.e. when its `Clone` is a field-by-field copy of `Copy` fields and it has no drop glue. Both hold for `Board` in
//! cozy-chess 0.3 (see its `board/mod.rs`); the compile-time checks below refuse a future version that would add drop
//! glue or a stricter alignment, and the tests compare a copy with `Board::clone`.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::mem::{MaybeUninit, align_of, needs_drop, size_of};

use cozy_chess::Board;

/// Words of the buffer.
const WORDS: usize = size_of::<Board>().div_ceil(8);

const _: () = assert!(align_of::<Board>() <= align_of::<u64>(), "the buffer must be aligned for a Board");
const _: () = assert!(!needs_drop::<Board>(), "a Board with drop glue cannot be copied bitwise");

/// A `cozy_chess::Board` in a `Copy` buffer.
#[derive(Clone, Copy)]
pub(crate) struct BoardCell(MaybeUninit<[u64; WORDS]>);

impl BoardCell {
    pub fn new(board: Board) -> Self {
        let mut buf = MaybeUninit::<[u64; WORDS]>::uninit();
        // SAFETY: the buffer is large enough and aligned for a Board (checked at compile time above).
        unsafe { buf.as_mut_ptr().cast::<Board>().write(board) };
        BoardCell(buf)
    }

    #[inline(always)]
    pub fn get(&self) -> &Board {
        // SAFETY: `new` wrote a valid Board at the start of the buffer; copies of the cell copy its bytes, which is a
        // valid Board because Board is plain data without drop glue (see the module documentation).
        unsafe { &*self.0.as_ptr().cast::<Board>() }
    }

    #[inline(always)]
    pub fn get_mut(&mut self) -> &mut Board {
        // SAFETY: as in `get`; the cell owns its bytes, so the exclusive borrow is unique.
        unsafe { &mut *self.0.as_mut_ptr().cast::<Board>() }
    }
}

impl PartialEq for BoardCell {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl Eq for BoardCell {}

impl Hash for BoardCell {
    fn hash<H: Hasher>(&self, state: &mut H) {
        Hash::hash(self.get(), state)
    }
}

impl fmt::Debug for BoardCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_the_board_and_independent() {
        let mut a = BoardCell::new(Board::default());
        let b = a;
        a.get_mut().play("e2e4".parse().unwrap());
        assert_eq!(b.get(), &Board::default());
        let mut played = Board::default();
        played.play("e2e4".parse().unwrap());
        assert_eq!(a.get(), &played);
        assert_eq!(a.get().hash(), played.hash());
        assert_eq!(a.get().clone(), *BoardCell::new(played).get());
    }
}
