//! Evaluation by name: the one way every player turns its `eval=NAME` into the evaluation it searches with.
//!
//! ```text
//! NamedEval::new(name)            name checked against Knowledge::EVALUATIONS when the player string was read
//! NamedEval::give(f)              a function given at run time instead (Python's `search(..., evaluate=f)`)
//! get(game):
//!     built for this game's string?  -> the evaluation built then
//!     else build it (the given function; or evaluation_or_simple: a file gone since falls back to `simple`, saying
//!          so), keep it with the game's string, so that a player moved to another board or variant rebuilds it at
//!          its next search
//! ```
//!
//! The engine, the catalogue's driver, MCTS and the hidden-information players all hold one, and search with the
//! [`SearchEval`] it builds.

use std::sync::Arc;

use super::{Evaluator, Game, Knowledge, Term, evaluation_or_simple};

/// A function scoring a non-terminal state for its side to move, in the game's evaluation units, given at run time
/// instead of one of the game's evaluations.
pub type GivenEval<G> = Arc<dyn Fn(&<G as Game>::State) -> i32 + Send + Sync>;

/// The evaluation a player searches with: one of its game's, or a function given at run time. The searches call it as
/// any [`Evaluator`]; the given function keeps no carry (each leaf is scored from scratch).
pub enum SearchEval<G: Knowledge> {
    /// One of the game's evaluations ([`Knowledge::EVALUATIONS`]).
    Game(G::Eval),
    /// A function given at run time ([`NamedEval::give`]).
    Given(GivenEval<G>),
}

impl<G: Knowledge> Clone for SearchEval<G> {
    fn clone(&self) -> Self {
        match self {
            SearchEval::Game(e) => SearchEval::Game(e.clone()),
            SearchEval::Given(f) => SearchEval::Given(f.clone()),
        }
    }
}

impl<G: Knowledge> Default for SearchEval<G> {
    /// The game's `simple` evaluation.
    fn default() -> Self {
        SearchEval::Game(G::Eval::default())
    }
}

impl<G: Knowledge> Evaluator<G> for SearchEval<G> {
    type Carry = <G::Eval as Evaluator<G>>::Carry;

    #[inline]
    fn evaluate(&self, game: &G, state: &G::State) -> i32 {
        match self {
            SearchEval::Game(e) => e.evaluate(game, state),
            SearchEval::Given(f) => f(state),
        }
    }
    #[inline]
    fn carry(&self, game: &G, state: &G::State, out: &mut Self::Carry) {
        if let SearchEval::Game(e) = self {
            e.carry(game, state, out)
        }
    }
    #[inline]
    fn carry_move(&self, game: &G, state: &G::State, m: G::Move, parent: &Self::Carry, child: &mut Self::Carry) {
        if let SearchEval::Game(e) = self {
            e.carry_move(game, state, m, parent, child)
        }
    }
    #[inline]
    fn evaluate_carried(&self, game: &G, state: &G::State, carry: &Self::Carry) -> i32 {
        match self {
            SearchEval::Game(e) => e.evaluate_carried(game, state, carry),
            SearchEval::Given(f) => f(state),
        }
    }
    fn terms(&self, game: &G, state: &G::State) -> Vec<Term> {
        match self {
            SearchEval::Game(e) => e.terms(game, state),
            SearchEval::Given(_) => Vec::new(),
        }
    }
}

/// An evaluation chosen by name (or given), built for the game of the search that needs it.
#[derive(Clone)]
pub struct NamedEval<G: Knowledge> {
    /// `None`: the game's `simple` evaluation (`G::Eval::default()`), which needs no building.
    name: Option<String>,
    /// A function given instead of the named evaluation.
    given: Option<GivenEval<G>>,
    /// The evaluation and the string of the game it was built for.
    built: Option<(String, SearchEval<G>)>,
}

impl<G: Knowledge> NamedEval<G> {
    /// The evaluation `name` (`None`: the game's `simple` one).
    pub fn new(name: Option<String>) -> Self {
        NamedEval { name, given: None, built: None }
    }

    /// The name asked for (`None`: `simple`).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Ask for the evaluation `name` from the next search on (a given function stays given).
    pub fn set_name(&mut self, name: Option<String>) {
        if self.name != name {
            self.name = name;
            self.built = None;
        }
    }

    /// Search with `f` instead of the named evaluation, from the next search on.
    pub fn give(&mut self, f: GivenEval<G>) {
        self.given = Some(f);
        self.built = None;
    }

    /// The evaluation for `game`, and whether it was built by this call (the game is new to this player).
    pub(crate) fn get_fresh(&mut self, game: &G) -> (&SearchEval<G>, bool) {
        let spec = game.spec();
        let fresh = self.built.as_ref().is_none_or(|(s, _)| *s != spec);
        if fresh {
            let eval = match (&self.given, &self.name) {
                (Some(f), _) => SearchEval::Given(f.clone()),
                (None, Some(name)) => SearchEval::Game(evaluation_or_simple(game, name)),
                (None, None) => SearchEval::default(),
            };
            self.built = Some((spec, eval));
        }
        (&self.built.as_ref().expect("built above").1, fresh)
    }

    /// The evaluation for `game` (built at the first call, rebuilt when the game changes).
    pub fn get(&mut self, game: &G) -> &SearchEval<G> {
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

    #[test]
    fn a_given_function_replaces_the_named_evaluation() {
        let game = Breakthrough::new(5, 5, 2, false, false).unwrap();
        let s = game.start();
        let mut e = NamedEval::<Breakthrough>::new(Some("simple".into()));
        assert_ne!(e.get(&game).evaluate(&game, &s), 1234);
        e.give(Arc::new(|_| 1234));
        assert_eq!(e.get(&game).evaluate(&game, &s), 1234, "rebuilt with the function");
        let mut carry = Default::default();
        e.get(&game).carry(&game, &s, &mut carry);
        assert_eq!(e.get(&game).evaluate_carried(&game, &s, &carry), 1234);
        assert!(e.get(&game).terms(&game, &s).is_empty());
    }
}
