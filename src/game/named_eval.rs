//! Evaluation by name: the one way every player turns its `eval=NAME` into the game's evaluation.
//!
//! ```text
//! NamedEval::new(name)            name checked against Knowledge::EVALUATIONS when the player string was read
//! get(game):
//!     built for this game's string?  -> the evaluation built then
//!     else build it (evaluation_or_simple: a file gone since falls back to `simple`, saying so), keep it with the
//!          game's string, so that a player moved to another board or variant rebuilds it at its next search
//! ```
//!
//! The engine, the chance engine and the catalogue's driver, MCTS and the hidden-information players all hold one.

use super::{Knowledge, evaluation_or_simple};

/// An evaluation chosen by name, built for the game of the search that needs it.
#[derive(Clone)]
pub struct NamedEval<G: Knowledge> {
    /// `None`: the game's `simple` evaluation (`G::Eval::default()`), which needs no building.
    name: Option<String>,
    /// The evaluation and the string of the game it was built for.
    built: Option<(String, G::Eval)>,
}

impl<G: Knowledge> NamedEval<G> {
    /// The evaluation `name` (`None`: the game's `simple` one).
    pub fn new(name: Option<String>) -> Self {
        NamedEval { name, built: None }
    }

    /// The name asked for (`None`: `simple`).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The evaluation for `game`, and whether it was built by this call (the game is new to this player).
    pub(crate) fn get_fresh(&mut self, game: &G) -> (&G::Eval, bool) {
        let spec = game.spec();
        let fresh = self.built.as_ref().is_none_or(|(s, _)| *s != spec);
        if fresh {
            let eval = match &self.name {
                Some(name) => evaluation_or_simple(game, name),
                None => G::Eval::default(),
            };
            self.built = Some((spec, eval));
        }
        (&self.built.as_ref().expect("built above").1, fresh)
    }

    /// The evaluation for `game` (built at the first call, rebuilt when the game changes).
    pub fn get(&mut self, game: &G) -> &G::Eval {
        self.get_fresh(game).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Evaluator, Game};
    use crate::games::Breakthrough;

    #[test]
    fn rebuilt_when_the_game_changes() {
        let small = Breakthrough::new(5, 5, 2, false, false).unwrap();
        let big = Breakthrough::new(6, 6, 2, false, false).unwrap();
        let mut e = NamedEval::<Breakthrough>::new(Some("simple".into()));
        assert!(e.get_fresh(&small).1, "built at the first search");
        assert!(!e.get_fresh(&small).1, "kept for the same game");
        assert!(e.get_fresh(&big).1, "rebuilt for another board");
        let s = big.start();
        assert_eq!(e.get(&big).evaluate(&big, &s), big.evaluation("simple").unwrap().evaluate(&big, &s));
    }
}
