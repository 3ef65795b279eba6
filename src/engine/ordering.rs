//! The move picker: moves come out best first, in stages.
//!
//! ```text
//! stage 1  the transposition-table move            (the refutation or best move found before)
//! stage 2  winning moves                           (onto the goal row)
//! stage 3  captures (by the game's capture order, then history), then threats (onto the row before the goal)
//! stage 4  killers, then the countermove           (quiet moves that cut off at this ply before; the quiet move
//!                                                   that last refuted the previous move, `counter`)
//! stage 5  quiet moves by history score            (how often a move caused a cut-off, weighted by depth^2)
//! ```
//!
//! A quiet move that cuts off teaches the later nodes (`Worker::reward`, below): it becomes the ply's first killer and
//! the countermove of the move before it, and gains depth² of history while the quiet moves tried before it lose some.
//!
//! The list is generated once (bitboard generation costs less than one evaluation); each stage is a score band and
//! `next` does one selection-sort step, so a node that cuts off after one move never sorts the rest.

use arrayvec::ArrayVec;

use super::search::Worker;
use super::tunables::ONE_PLY;
use crate::game::{FullGame, MAX_MOVES, MoveClass, MoveList};

const TT_BAND: i32 = 1 << 30;
const WIN_BAND: i32 = 1 << 29;
const CAPTURE_BAND: i32 = 1 << 28;
const THREAT_BAND: i32 = 1 << 27;
const KILLER_BAND: i32 = 1 << 26;

/// Picks moves of one node, best first, from the node's generated list (borrowed: a list is a few hundred bytes,
/// not copied at every node).
pub(crate) struct Picker<'a, M: Copy> {
    moves: &'a MoveList<M>,
    /// (score, index in the generated list)
    order: ArrayVec<(i32, u16), MAX_MOVES>,
    next: usize,
}

impl<'a, M: Copy + PartialEq> Picker<'a, M> {
    /// Score the generated `moves` of `s`; `killers` holds the ply's two killer moves and the countermove.
    pub fn new<G: FullGame<Move = M>>(
        g: &G,
        s: &G::State,
        moves: &'a MoveList<M>,
        tt_move: Option<usize>,
        killers: [Option<M>; 3],
        history: Option<&[i32]>,
    ) -> Self {
        let mut order = ArrayVec::new();
        for (i, &m) in moves.iter().enumerate() {
            let score = if tt_move == Some(i) {
                TT_BAND
            } else {
                let h = history.map_or(0, |h| h[g.move_key(m)]);
                match g.move_class(s, m) {
                    MoveClass::Win => WIN_BAND,
                    // The game's capture order first (MVV-LVA in chess), then history (below HISTORY_MAX = 2^20).
                    MoveClass::Capture => {
                        CAPTURE_BAND + ((g.capture_order(s, m).min(63) as i32) << 20) + h.clamp(0, (1 << 20) - 1)
                    }
                    MoveClass::Threat => THREAT_BAND + h.clamp(0, KILLER_BAND - 1),
                    MoveClass::Quiet => {
                        if killers[0] == Some(m) {
                            KILLER_BAND + 2
                        } else if killers[1] == Some(m) {
                            KILLER_BAND + 1
                        } else if killers[2] == Some(m) {
                            KILLER_BAND
                        } else {
                            h.clamp(-KILLER_BAND + 1, KILLER_BAND - 1)
                        }
                    }
                }
            };
            order.push((score, i as u16));
        }
        Picker { moves, order, next: 0 }
    }

    /// The next best move and its index in the generated list.
    #[inline]
    pub fn pick(&mut self) -> Option<(usize, M)> {
        if self.next >= self.order.len() {
            return None;
        }
        let mut best = self.next;
        for j in self.next + 1..self.order.len() {
            if self.order[j].0 > self.order[best].0 {
                best = j;
            }
        }
        self.order.swap(self.next, best);
        let (_, i) = self.order[self.next];
        self.next += 1;
        Some((i as usize, self.moves[i as usize]))
    }
}

/// What a cut-off teaches the picker of later nodes (the killers, countermoves and history it reads).
impl<G: FullGame> Worker<'_, G> {
    /// A quiet move `m` cut off at `ply`: it becomes a killer, the countermove of the move before it (`prev`), and
    /// gains `plies²` of history; the quiet moves searched before it (`tried`) lose `history_malus`% of that.
    pub(super) fn reward(&mut self, m: G::Move, tried: &[G::Move], ply: usize, depth: i32, prev: Option<G::Move>) {
        if self.sh.opts.killers && self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        if let Some(p) = prev {
            self.counters[self.sh.game.move_key(p)] = Some(m);
        }
        if self.sh.opts.history {
            let plies = depth / ONE_PLY;
            let bonus = plies * plies;
            let malus = bonus * self.sh.opts.params.history_malus / 100;
            let limit = 1 << self.sh.opts.params.history_max_log2;
            let g = self.sh.game;
            let h = &mut self.history[g.move_key(m)];
            *h += bonus;
            let mut overflow = *h >= limit;
            if malus > 0 {
                for &q in tried {
                    let h = &mut self.history[g.move_key(q)];
                    *h -= malus;
                    overflow |= *h <= -limit;
                }
            }
            if overflow {
                for x in self.history.iter_mut() {
                    *x /= 2;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::Breakthrough;

    #[test]
    fn stages_come_in_order() {
        let g = Breakthrough::default();
        // White: b7 can win; d4 can capture e5; quiet moves elsewhere.
        let s = g.parse_position("7p/1P6/8/4p3/3P4/8/8/7P w").unwrap();
        let mut moves = MoveList::new();
        g.generate_moves(&s, &mut moves);
        let quiet = moves.iter().position(|m| g.format_move(&s, *m) == "h1h2").unwrap();
        let killer = moves[moves.iter().position(|m| g.format_move(&s, *m) == "h1g2").unwrap()];
        let mut p = Picker::new(&g, &s, &moves, Some(quiet), [Some(killer), None, None], None);
        let mut out = Vec::new();
        while let Some((i, m)) = p.pick() {
            assert_eq!(moves[i], m);
            out.push(g.format_move(&s, m));
        }
        assert_eq!(out[0], "h1h2", "the TT move first");
        assert!(out[1..4].iter().all(|m| m.starts_with("b7")), "then the three winning moves: {out:?}");
        assert_eq!(out[4], "d4e5", "then the capture");
        assert_eq!(out[5], "h1g2", "then the killer");
        assert_eq!(out.len(), moves.len());
    }
}
