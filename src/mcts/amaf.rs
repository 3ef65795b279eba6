//! RAVE's all-moves-as-first statistics (Gelly & Silver 2007), which GRAVE (Cazenave 2015) reads at an ancestor:
//!
//! ```text
//! update_amaf(path, played, reward):
//!     for each player's node x of the path, deepest first:
//!         for each child c of x whose move x's mover played at or after the edge leaving x (tree or playout):
//!             c.amaf_visits += 1;  c.amaf_reward += reward
//! ```
//!
//! A child's AMAF statistics are those of its move for its parent's mover, so GRAVE's "AMAF value of move m at the
//! reference node" is the AMAF mean of the reference node's child for m (found by move key), the reference being an
//! ancestor of the same mover.

use crate::game::{FullGame, MOVE_KEYS};

use super::tree::{Actor, Scratch, Tree};

impl<G: FullGame> Tree<G> {
    /// RAVE: at every player's node of the path, the children whose move that player played later in the iteration
    /// (`played[e - 1]` is the move of path edge `e`, then come the playout's moves).
    pub(super) fn update_amaf(&mut self, game: &G, reward: f64, path: &[u32], sc: &mut Scratch) {
        sc.amaf.clear();
        sc.amaf.resize(2 * MOVE_KEYS, false);
        let mut k = sc.played.len();
        for edge in (1..path.len()).rev() {
            while k > edge - 1 {
                k -= 1;
                if let (Some(pl), key) = sc.played[k] {
                    sc.amaf[pl.index() * MOVE_KEYS + key] = true;
                }
            }
            let parent = path[edge - 1] as usize;
            if let Actor::Mover(pl) = self.nodes[parent].actor {
                for i in self.nodes[parent].children() {
                    let Some(m) = self.nodes[i].mv else { continue };
                    if sc.amaf[pl.index() * MOVE_KEYS + game.move_key(m)] {
                        self.nodes[i].amaf_visits += 1;
                        self.nodes[i].amaf_reward += reward;
                    }
                }
            }
        }
    }
}
