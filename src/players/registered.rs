//! Players of the registry's games built by this library's own compiled code, for crates outside it.
//!
//! [`searcher_for`] and [`build_for`] return what [`super::searcher`] and [`super::build`] return, for a game of the
//! registry. The difference is where the code is compiled. An optimized build does not share generic instances between
//! crates: another crate that calls `players::searcher::<G>` compiles the whole catalogue (alpha-beta to SSS*, the
//! engine, MCTS, the hidden-information players) again, for every game it names, even though this library already
//! holds the same code for its command line and server. The Python extension did exactly that (about half of the
//! extension crate's compile time: docs/python.md, "Build time"). Here the concrete type is chosen by
//! [`AnyGame::visit`] inside a function that is not generic ([`erased`]), so those instances are compiled once, in
//! this crate; what a caller instantiates per game is the downcast of the box it gets back.
//!
//! ```text
//! searcher_for(game, "alphabeta(depth=4)")
//!     AnyGame::parse(game.spec())          the registry's game of the same name and parameters
//!     erased(any, text, Searcher)          not generic: visit -> searcher::<G> compiled here
//!     downcast to Box<dyn Searcher<G>>     a game whose spec names another type: a one-line error
//! ```

use std::any::Any;

use super::player::Player;
use crate::game::{FullGame, GameError};
use crate::games::{AnyGame, GameVisitor};
use crate::search::Searcher;

/// A searcher or player of some game, its type erased on the way back to the caller.
type Erased = Box<dyn Any + Send>;

/// [`super::searcher`] for a game of the registry, compiled in this crate (see the module's text).
pub fn searcher_for<G: FullGame>(game: &G, text: &str) -> Result<Box<dyn Searcher<G>>, GameError> {
    downcast(game, erased(&AnyGame::parse(&game.spec())?, text, What::Searcher)?)
}

/// [`super::build`] for a game of the registry, compiled in this crate (see the module's text).
pub fn build_for<G: FullGame>(game: &G, text: &str) -> Result<Box<dyn Player<G>>, GameError> {
    downcast(game, erased(&AnyGame::parse(&game.spec())?, text, What::Player)?)
}

fn downcast<G: FullGame, T: 'static>(game: &G, boxed: Erased) -> Result<T, GameError> {
    boxed.downcast::<T>().map(|b| *b).map_err(|_| {
        GameError::new(format!("{}: not a game of the registry (its game string names another game type)", game.spec()))
    })
}

/// What [`erased`] builds.
#[derive(Clone, Copy)]
enum What {
    /// `Box<dyn Searcher<G>>`: [`super::searcher`].
    Searcher,
    /// `Box<dyn Player<G>>`: [`super::build`].
    Player,
}

/// The searcher or player of `text` for `game`'s concrete type `G`, boxed as `Box<dyn Searcher<G>>` or
/// `Box<dyn Player<G>>`. Not generic: the visit, and with it every `G`'s constructors, is compiled here.
fn erased(game: &AnyGame, text: &str, what: What) -> Result<Erased, GameError> {
    struct Build<'a>(&'a str, What);
    impl GameVisitor for Build<'_> {
        type Out = Result<Erased, GameError>;
        fn visit<G: FullGame>(self, _game: &G) -> Self::Out {
            Ok(match self.1 {
                What::Searcher => Box::new(super::searcher::<G>(self.0)?),
                What::Player => Box::new(super::build::<G>(self.0)?),
            })
        }
    }
    game.visit(Build(text, what))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::catalogue;

    /// Every registered game's string leads back to its own type (the downcast succeeds), and the player built is the
    /// one the generic constructor builds.
    #[test]
    fn every_registered_game_gets_its_players_back() {
        struct Check;
        impl GameVisitor for Check {
            type Out = ();
            fn visit<G: FullGame>(self, game: &G) {
                let spec = game.spec();
                let player = build_for(game, "random").unwrap_or_else(|e| panic!("{spec}: {e}"));
                assert_eq!(player.name(), super::super::build::<G>("random").unwrap().name(), "{spec}");
                let searcher = searcher_for(game, "random").unwrap_or_else(|e| panic!("{spec}: {e}"));
                assert_eq!(searcher.name(), super::super::searcher::<G>("random").unwrap().name(), "{spec}");
                // Errors of the string itself are the generic constructor's.
                let e = searcher_for(game, "no_such_player").err().expect("an unknown name is refused");
                assert!(e.to_string().contains("unknown algorithm"), "{spec}: {e}");
            }
        }
        for listed in catalogue() {
            AnyGame::parse(listed.info.name).unwrap().visit(Check);
        }
    }
}
