//! Oware's evaluations, in seeds (the unit of the game's final value, so terminal scores and heuristic scores compare):
//!
//! ```text
//! simple    store(me) - store(opponent)                                   the granaries: what is already captured
//! counting  simple, then, once at most half the starting seeds are left on the board ("late"):
//!           + (seeds on my side - seeds on the opponent's side) / 2        what the end rule would give each player
//!           + (my legal moves - the opponent's houses with seeds) / 2      mobility: a player short of moves must
//!                                                                          feed the other or be starved
//! ```
//!
//! The course's advice for Awalé: count the granaries early, count the seeds (and the moves left) late.

use super::{Oware, OwareState};
use crate::game::{Evaluator, Game, MoveList, Side};

/// The evaluation named in `engine(eval=NAME)`; `Default` is `simple`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum OwareEval {
    #[default]
    Simple,
    Counting,
}

impl OwareEval {
    /// The evaluation `name`, if there is one.
    pub fn named(name: &str) -> Option<OwareEval> {
        match name {
            "simple" => Some(OwareEval::Simple),
            "counting" => Some(OwareEval::Counting),
            _ => None,
        }
    }
}

fn stores(s: &OwareState, me: Side) -> i32 {
    s.stores[me.index()] as i32 - s.stores[me.other().index()] as i32
}

impl Evaluator<Oware> for OwareEval {
    type Carry = ();

    fn evaluate(&self, g: &Oware, s: &OwareState) -> i32 {
        let me = s.stm;
        let granaries = stores(s, me);
        if *self == OwareEval::Simple {
            return granaries;
        }
        let mine = g.side_seeds(s, me) as i32;
        let theirs = g.side_seeds(s, me.other()) as i32;
        if ((mine + theirs) as usize) * 2 > g.total() {
            return granaries;
        }
        let mut moves = MoveList::new();
        g.generate_moves(s, &mut moves);
        let b = g.base(me.other());
        let their_moves = s.pits[b..b + g.houses].iter().filter(|&&x| x > 0).count() as i32;
        granaries + (mine - theirs) / 2 + (moves.len() as i32 - their_moves) / 2
    }
}
