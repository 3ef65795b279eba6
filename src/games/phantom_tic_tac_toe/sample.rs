//! Resampling: a full state that a player cannot tell from the true one (the same observation, so the same legal
//! moves), for searches that determinize hidden information.
//!
//! For player `p` (opponent `q`) in a state that is not over, the sample keeps everything `p` knows: its marks, the
//! marks of `q` it has found, the side to move and the referee's last message to `p`. What is random:
//! 1. `q`'s unfound marks: uniformly among the ways to put that many marks (the count follows from `p`'s marks and
//!    the side to move) on the squares `p` does not know, excluding those that give `q` three in a row (the game would
//!    have stopped); every such placement is listed (at most C(9,4) = 126) and one is drawn uniformly;
//! 2. what `q` has found of `p`'s marks: each mark of `p` independently with probability 1/2;
//! 3. the referee's last message to `q`: when `p` is to move, `+SQUARE` for one of `q`'s marks drawn uniformly (its
//!    last placement; among the unfound ones when `p` has not tried since, since `p` would not have found it yet);
//!    when `q` is to move, `*` when it has found nothing, a failed try `!SQUARE` on one of its found marks (uniformly)
//!    when it has found `p`'s last mark (found during this turn), otherwise either with probability 1/2.
//!
//! Every sample is a state some sequence of tries reaches. It is not weighted by how likely the opponent was to play
//! into it (that would need a model of the opponent): it is uniform over placements, as simple determinizations are.
//! A finished game has no hidden part (the referee shows the board): the sample is the state itself.

use rand::{Rng, RngExt};

use super::{PhantomState, PhantomTicTacToe, Said};
use crate::game::{Game, Side};
use crate::games::tic_tac_toe::{FULL, has_line};

/// One of the set bits of `b` (not empty), uniformly.
fn pick_bit<R: Rng + ?Sized>(b: u16, rng: &mut R) -> u8 {
    let n = b.count_ones();
    let mut k = rng.random_range(0..n);
    let mut x = b;
    loop {
        let sq = x.trailing_zeros() as u8;
        if k == 0 {
            return sq;
        }
        k -= 1;
        x &= x - 1;
    }
}

/// A state `p` cannot tell from `s` (the key is recomputed by the caller).
pub fn resample<R: Rng + ?Sized>(g: &PhantomTicTacToe, s: &PhantomState, p: Side, rng: &mut R) -> PhantomState {
    if g.is_terminal(s) {
        return *s;
    }
    let q = p.other();
    let (pi, qi) = (p.index(), q.index());
    let mut t = *s;
    // 1. q's unfound marks.
    let fixed = s.found[pi];
    let hidden = s.marks[qi].count_ones() - fixed.count_ones();
    let free = FULL & !(s.marks[pi] | fixed);
    let placements: Vec<u16> =
        (0..=FULL).filter(|&m| m & !free == 0 && m.count_ones() == hidden && !has_line(fixed | m)).collect();
    // The true placement is always among them.
    let chosen = placements[rng.random_range(0..placements.len())];
    t.marks[qi] = fixed | chosen;
    // 2. What q has found of p's marks.
    let mut found_q = 0u16;
    let mut b = s.marks[pi];
    while b != 0 {
        let bit = b & b.wrapping_neg();
        if rng.random_bool(0.5) {
            found_q |= bit;
        }
        b &= b - 1;
    }
    t.found[qi] = found_q;
    // 3. The referee's last message to q.
    t.said[qi] = if s.marks[0] == 0 {
        // The start (X has no mark yet): nothing has been said to anyone.
        Said::Nothing
    } else if s.stm == p {
        let candidates = if s.said[pi] == Said::OpponentMoved { chosen } else { t.marks[qi] };
        Said::Placed(pick_bit(candidates, rng))
    } else {
        let last_p = match s.said[pi] {
            Said::Placed(sq) => sq,
            _ => unreachable!("the player who is not to move heard its own placement"),
        };
        if found_q == 0 {
            Said::OpponentMoved
        } else if found_q & (1 << last_p) != 0 || rng.random_bool(0.5) {
            Said::Taken(pick_bit(found_q, rng))
        } else {
            Said::OpponentMoved
        }
    };
    t
}
