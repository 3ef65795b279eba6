//! Step 1 at one node, the selection of the child to go down to:
//!
//! ```text
//! select(n):
//!     chance node: an outcome drawn by its probability
//!     player's node (the mover's view of every value):
//!         for each child c, skipping the proven ones and, with the solver, those whose optimistic bound cannot beat
//!         what the mover is already sure of:
//!             an unvisited child at once
//!             q    := c's mean reward (with tt: its position's, over every path that reached it)
//!             RAVE: q := (1 - β) q + β amaf,  β = sqrt(k / (3 n + k)),  amaf the AMAF mean of c's move
//!                   (GRAVE: the AMAF mean of that move at the reference node, the nearest ancestor of the same
//!                    mover with at least `grave` visits)
//!             score := q + c · sqrt(ln N / n)  (+ bias · h / (n + 1), h the child's squashed evaluation)
//!         the child of the best score
//! ```

use rand::{Rng, RngExt};

use crate::game::{FullGame, MOVE_KEYS, Side};

use super::params::Params;
use super::tree::{Actor, NONE, Scratch, Tree, for_player};

impl<G: FullGame> Tree<G> {
    /// The child of `n` to go down to.
    pub(super) fn select<R: Rng + ?Sized>(&self, game: &G, n: u32, p: &Params, rng: &mut R, sc: &mut Scratch) -> u32 {
        let node = &self.nodes[n as usize];
        let range = node.children();
        let Actor::Mover(mover) = node.actor else {
            // A chance node: an outcome by its probability.
            let mut x: f32 = rng.random();
            for i in range.clone() {
                x -= self.nodes[i].prob;
                if x < 0.0 {
                    return i as u32;
                }
            }
            return range.end as u32 - 1;
        };
        let log_n = (node.visits.max(1) as f64).ln();
        // What the mover is already sure of: children that cannot do better are not explored.
        let sure = for_player(if mover == Side::First { node.pess } else { node.opt } as f64, mover);
        // GRAVE: the reference node's children by move key.
        let reference = if p.grave > 0 { sc.refs[mover.index()] } else { NONE };
        let graved = reference != NONE && reference != n;
        if graved {
            sc.by_key.resize(MOVE_KEYS, NONE);
            for i in self.nodes[reference as usize].children() {
                let mv = self.nodes[i].mv.expect("a child has a move");
                sc.by_key[game.move_key(mv)] = i as u32;
            }
        }
        let (mut best, mut best_score) = (range.start as u32, f64::NEG_INFINITY);
        for i in range {
            let c = &self.nodes[i];
            if c.proven.is_some() {
                // Its exact value is already in the node's bounds: sampling it again would teach nothing.
                continue;
            }
            if p.solver {
                let hope = for_player(if mover == Side::First { c.opt } else { c.pess } as f64, mover);
                if hope <= sure {
                    continue;
                }
            }
            if c.visits == 0 {
                best = i as u32;
                break;
            }
            let mean = match self.table.get(c.key) {
                Some((visits, reward)) if p.tt && visits > 0 => reward / visits as f64,
                _ => c.mean(),
            };
            let q = for_player(mean, mover);
            let visits = c.visits.max(1) as f64;
            let mut value = q;
            if p.rave > 0.0 {
                let amaf_of = if graved {
                    match sc.by_key[game.move_key(c.mv.expect("a child has a move"))] {
                        NONE => c,
                        r => &self.nodes[r as usize],
                    }
                } else {
                    c
                };
                if amaf_of.amaf_visits > 0 {
                    let beta = (p.rave / (3.0 * visits + p.rave)).sqrt();
                    let amaf = for_player(amaf_of.amaf_reward / amaf_of.amaf_visits as f64, mover);
                    value = (1.0 - beta) * q + beta * amaf;
                }
            }
            let mut score = value + p.c * (log_n / visits).sqrt();
            if p.bias > 0.0 {
                score += p.bias * for_player(c.prior as f64, mover) / (visits + 1.0);
            }
            if score > best_score {
                best_score = score;
                best = i as u32;
            }
        }
        if graved {
            for i in self.nodes[reference as usize].children() {
                let mv = self.nodes[i].mv.expect("a child has a move");
                sc.by_key[game.move_key(mv)] = NONE;
            }
        }
        best
    }
}
