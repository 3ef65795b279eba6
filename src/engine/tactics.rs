//! Game knowledge the search uses, behind one generic interface.
//!
//! The engine is generic over [`Game`]; this module recognises Breakthrough at run time (`Any` downcasts, which the
//! compiler folds per monomorphised game) and answers the tactical questions with bitboards:
//! - the class of a move (quiet, capture, threat = onto the row before the goal, win = onto the goal);
//! - whether the side to move wins at once, and which opponent pieces threaten to win next move (the only moves
//!   that do not lose at once then capture such a piece);
//! - the null move (passing), which Breakthrough can express and most games here cannot.
//!
//! Any other game (and the misère and forced-capture variants, whose wins and threats differ) gets the neutral
//! answers: nothing is known without searching.

use std::any::Any;
use std::hash::{Hash, Hasher};

use crate::game::{Game, Player, zobrist};
use crate::games::breakthrough::{Breakthrough, BtMove, BtState};

/// The class of a move, from the least to the most forcing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MoveClass {
    Quiet,
    Capture,
    Threat,
    Win,
}

/// What the side to move must do about the opponent's threats to win next move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Forced {
    /// No threat: every move may be played.
    Free,
    /// One threatening piece on this square: only its capture does not lose at once.
    Capture(u8),
    /// Two or more threats (or one that cannot be captured): every move loses in two plies.
    Lost,
}

/// Size of the history table: [`move_key`] is below this.
pub const HISTORY_SIZE: usize = 4096;

/// The Breakthrough rules and state when `G` is Breakthrough.
#[inline(always)]
pub fn bt_parts<'a, G: Game>(g: &'a G, s: &'a G::State) -> Option<(&'a Breakthrough, &'a BtState)> {
    let g = (g as &dyn Any).downcast_ref::<Breakthrough>()?;
    let s = (s as &dyn Any).downcast_ref::<BtState>()?;
    Some((g, s))
}

/// Standard rules only (reaching the goal wins, captures optional): the win and threat logic holds.
#[inline(always)]
fn bt_standard<'a, G: Game>(g: &'a G, s: &'a G::State) -> Option<(&'a Breakthrough, &'a BtState)> {
    bt_parts(g, s).filter(|(b, _)| !b.misere && !b.forced_captures)
}

#[inline(always)]
fn bt_move<G: Game>(m: &G::Move) -> Option<BtMove> {
    (m as &dyn Any).downcast_ref::<BtMove>().copied()
}

/// Rows before the goal of `side`'s pieces: the mask of the row just before the goal.
#[inline(always)]
fn pre_goal_row(b: &Breakthrough, side: Player) -> u64 {
    match side {
        Player::First => b.row_mask(b.rows - 2),
        Player::Second => b.row_mask(1),
    }
}

/// The class of move `m` in state `s`.
#[inline]
pub fn classify<G: Game>(g: &G, s: &G::State, m: G::Move) -> MoveClass {
    let (Some((b, st)), Some(bm)) = (bt_parts(g, s), bt_move::<G>(&m)) else {
        return MoveClass::Quiet;
    };
    let to = 1u64 << bm.to;
    if !b.misere && to & b.goal_row(st.stm) != 0 {
        return MoveClass::Win;
    }
    if to & pre_goal_row(b, st.stm) != 0 {
        return MoveClass::Threat;
    }
    let (_, opp) = Breakthrough::own_opp(st);
    if to & opp != 0 { MoveClass::Capture } else { MoveClass::Quiet }
}

/// Whether the side to move can win with its next move (standard Breakthrough only).
#[inline]
pub fn has_winning_move<G: Game>(g: &G, s: &G::State) -> bool {
    let Some((b, st)) = bt_standard(g, s) else {
        return false;
    };
    let (f, l, r) = b.targets(st, st.stm);
    (f | l | r) & b.goal_row(st.stm) != 0
}

/// The opponent's threats to win next move and what they force (standard Breakthrough only).
#[inline]
pub fn forced<G: Game>(g: &G, s: &G::State) -> Forced {
    let Some((b, st)) = bt_standard(g, s) else {
        return Forced::Free;
    };
    let them = st.stm.other();
    let (f, l, r) = b.targets(st, them);
    let goal = b.goal_row(them);
    if (f | l | r) & goal == 0 {
        return Forced::Free;
    }
    // The threatening pieces: sources of the goal targets.
    let c = b.columns;
    let shift_back = |t: u64, d: u32, up: bool| if up { t >> d } else { t << d };
    let up = them == Player::First;
    let threateners = shift_back(f & goal, c, up)
        | shift_back(l & goal, c - 1 + 2 * (!up) as u32, up)
        | shift_back(r & goal, c + 1 - 2 * (!up) as u32, up);
    let (_, opp) = Breakthrough::own_opp(st);
    let threateners = threateners & opp;
    if threateners.count_ones() == 1 {
        let sq = threateners.trailing_zeros();
        // Can anything capture it? Our pieces attack it if the square is among our diagonal targets.
        let (_, ml, mr) = b.targets(st, st.stm);
        if (ml | mr) & threateners != 0 {
            return Forced::Capture(sq as u8);
        }
    }
    Forced::Lost
}

/// Whether `m` captures on square `sq`.
#[inline]
pub fn captures_on<G: Game>(m: G::Move, sq: u8) -> bool {
    bt_move::<G>(&m).is_some_and(|bm| bm.to == sq)
}

/// The state after passing, when the game has a null move (Breakthrough).
#[inline]
pub fn null_state<G: Game>(g: &G, s: &G::State) -> Option<G::State> {
    let (_, st) = bt_parts(g, s)?;
    let mut n = *st;
    n.stm = n.stm.other();
    n.key ^= zobrist::key(zobrist::SIDE);
    (&n as &dyn Any).downcast_ref::<G::State>().copied()
}

/// An index below [`HISTORY_SIZE`] for the history table: from*64+to in Breakthrough, a hash elsewhere.
#[inline]
pub fn move_key<G: Game>(m: &G::Move) -> usize {
    if let Some(bm) = bt_move::<G>(m) {
        return (bm.from as usize) * 64 + bm.to as usize;
    }
    let mut h = MulHasher(0);
    m.hash(&mut h);
    (h.0 >> 52) as usize
}

/// A tiny multiplicative hasher (moves are a few bytes).
struct MulHasher(u64);

impl Hasher for MulHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MoveList;

    #[test]
    fn breakthrough_threats_and_wins() {
        let g = Breakthrough::default();
        // White on b7 threatens a8/b8/c8; Black to move can capture it from a8 or c8.
        let s = g.parse_position("p1p5/1P6/8/8/8/8/8/7P b").unwrap();
        assert_eq!(forced(&g, &s), Forced::Capture(49));
        assert!(!has_winning_move(&g, &s));
        let w = g.parse_position("p1p5/1P6/8/8/8/8/8/7P w").unwrap();
        assert!(has_winning_move(&g, &w));
        let mut moves = MoveList::new();
        g.generate_moves(&w, &mut moves);
        let wins = moves.iter().filter(|&&m| classify(&g, &w, m) == MoveClass::Win).count();
        assert_eq!(wins, 3, "b7a8 and b7c8 capture into the goal, b7b8 walks in");
        // Two white threats: lost for Black.
        let two = g.parse_position("p7/1P4P1/8/8/8/8/8/8 b").unwrap();
        assert_eq!(forced(&g, &two), Forced::Lost);
        // A black threat seen from White's side.
        let b = g.parse_position("8/8/8/8/8/8/3p4/2P5 w").unwrap();
        assert_eq!(forced(&g, &b), Forced::Capture(11));
        let n = null_state(&g, &b).unwrap();
        assert_eq!(n.stm, Player::Second);
        assert_eq!(g.compute_key(&n), n.key);
    }

    #[test]
    fn misere_has_no_shortcuts() {
        let g = Breakthrough::new(8, 8, 2, true, false).unwrap();
        let w = g.parse_position("p1p5/1P6/8/8/8/8/8/7P w").unwrap();
        assert!(!has_winning_move(&g, &w));
    }
}
