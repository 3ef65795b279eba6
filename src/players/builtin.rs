//! Built-in players: any searcher of the registry behind the [`Player`] interface, its own limits (`depth=`,
//! `nodes=`, `time=` of its string) combined with the caller's.
//!
//! ```text
//! choose(game, context):
//!     limits  = own + the caller's (Limits::with: the tighter depth, node budget and time apply)   [none: own alone]
//!     stop    = the caller's flag, or a fresh one (a flag raised for an earlier move never stops this one)
//!     progress= the caller's sink for this move only
//!     view    = position -> Searcher::search | half -> search_as | observed -> choose_observed
//! ```

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::player::{Choice, Context, Player, View};
use crate::files::FileAccess;
use crate::game::{FullGame, GameError, Side};
use crate::search::{Limits, RootMoveStats, Searcher};
use crate::spec::Spec;

/// A built-in searcher as a player.
pub(crate) struct Builtin<G: FullGame> {
    searcher: Box<dyn Searcher<G>>,
    /// The name before any limit was imposed (`set_limits` changes what `Searcher::name` says).
    name: String,
    /// The limits of its own string: a caller's limits add to them, they do not replace them.
    own: Limits,
    /// Whether the searcher runs under a caller's limits now (its own are restored when a caller imposes none).
    imposed: bool,
    /// Whether a caller's stop flag was handed to the searcher (replaced by a fresh one when a caller gives none).
    stop_given: bool,
    prepared: bool,
}

impl<G: FullGame> Builtin<G> {
    /// `searcher` as a player whose own limits are `own`.
    pub fn new(searcher: Box<dyn Searcher<G>>, own: Limits) -> Self {
        Builtin { name: searcher.name(), searcher, own, imposed: false, stop_given: false, prepared: false }
    }
}

/// Build a built-in player from its string (`alphabeta(depth=2)`, `engine(time=1s)`, `mcts`...).
pub fn build<G: FullGame>(text: &str) -> Result<Box<dyn Player<G>>, GameError> {
    build_with::<G>(text, &FileAccess::Any)
}

/// [`build`] for a surface whose strings may name only the files `files` allows (the web server's requests).
pub(crate) fn build_with<G: FullGame>(text: &str, files: &FileAccess) -> Result<Box<dyn Player<G>>, GameError> {
    Ok(Box::new(builtin_with::<G>(text, files)?))
}

/// [`build_with`] with the concrete type (its searcher reachable).
pub(crate) fn builtin_with<G: FullGame>(text: &str, files: &FileAccess) -> Result<Builtin<G>, GameError> {
    let searcher = super::searcher_with::<G>(text, files)?;
    let own = Limits::from_spec(&Spec::parse_with(text, files)?)?;
    Ok(Builtin::new(searcher, own))
}

impl<G: FullGame> Player<G> for Builtin<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn plays_under(&self, limits: Option<Limits>) -> String {
        match limits {
            None => self.own.describe(),
            Some(l) if self.own == Limits::default() => l.describe(),
            Some(l) => format!("{} (whichever stops first)", self.own.with(l, Side::First).describe()),
        }
    }

    fn setup(&mut self, game: &G) -> Result<(), String> {
        self.searcher.prepare(game);
        self.prepared = true;
        Ok(())
    }

    fn new_game(&mut self, game: &G) -> Result<(), String> {
        if !self.prepared {
            self.setup(game)?;
        }
        self.searcher.new_game();
        Ok(())
    }

    fn reseed(&mut self, seed: u64) {
        self.searcher.reseed(seed);
    }

    fn observe_start(&mut self, game: &G, start: &G::State, side: Side) -> Result<(), String> {
        self.searcher.observe_start(game, start, side);
        Ok(())
    }

    fn observe(&mut self, game: &G, observation: &str) -> Result<(), String> {
        self.searcher.observe(game, observation);
        Ok(())
    }

    fn choose(&mut self, game: &G, cx: Context<'_, G>) -> Result<Choice<G::Move>, String> {
        match cx.limits {
            Some(l) => {
                self.searcher.set_limits(self.own.with(l, cx.side));
                self.imposed = true;
            }
            None if self.imposed => {
                self.searcher.set_limits(self.own);
                self.imposed = false;
            }
            None => {}
        }
        match cx.stop {
            Some(flag) => {
                self.searcher.set_stop(flag);
                self.stop_given = true;
            }
            None if self.stop_given => {
                self.searcher.set_stop(Arc::new(AtomicBool::new(false)));
                self.stop_given = false;
            }
            None => {}
        }
        let reporting = cx.progress.is_some();
        if reporting {
            self.searcher.set_reporter(cx.progress);
        }
        let r = match cx.view {
            View::Position(state) => self.searcher.search(game, state),
            View::Half(state) => self.searcher.search_as(game, state, cx.side),
            View::Observed { legal, .. } => self.searcher.choose_observed(game, legal),
        };
        if reporting {
            self.searcher.set_reporter(None);
        }
        Choice::from_result(r)
    }

    fn root_moves(&self) -> Vec<RootMoveStats<G::Move>> {
        self.searcher.root_moves()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::TicTacToe;
    use crate::search::TimeControl;
    use std::time::Duration;

    fn depth_of(player: &str, limits: Option<Limits>) -> u32 {
        let g = TicTacToe;
        let s = g.start();
        let mut p = build::<TicTacToe>(player).unwrap();
        p.new_game(&g).unwrap();
        p.choose(&g, Context { limits, ..Context::position(&g, &s) }).unwrap().depth
    }

    #[test]
    fn a_callers_limits_add_to_the_players_own() {
        let depth = |d| Some(Limits { depth: Some(d), ..Limits::default() });
        // Its own depth holds under a deeper request, a shallower request applies.
        assert_eq!(depth_of("alphabeta(depth=2)", depth(5)), 2);
        assert_eq!(depth_of("alphabeta(depth=4)", depth(1)), 1);
        assert_eq!(depth_of("alphabeta(depth=3)", None), 3);
        // After a call with limits, a call without them is back to its own.
        let g = TicTacToe;
        let s = g.start();
        let mut p = build::<TicTacToe>("alphabeta(depth=3)").unwrap();
        assert_eq!(p.choose(&g, Context { limits: depth(1), ..Context::position(&g, &s) }).unwrap().depth, 1);
        assert_eq!(p.choose(&g, Context::position(&g, &s)).unwrap().depth, 3);
        let tc = Limits::time(TimeControl::MoveTime(Duration::from_millis(100)));
        assert_eq!(p.plays_under(Some(tc)), "depth 3, movetime 100ms (whichever stops first)");
        assert_eq!(p.plays_under(None), "depth 3");
    }

    #[test]
    fn a_stop_raised_for_one_move_does_not_stop_the_next() {
        let g = TicTacToe;
        let s = g.start();
        let mut p = build::<TicTacToe>("alphabeta(depth=9,id=true)").unwrap();
        let flag = Arc::new(AtomicBool::new(true));
        let stopped = p.choose(&g, Context { stop: Some(flag), ..Context::position(&g, &s) }).unwrap();
        let full = p.choose(&g, Context::position(&g, &s)).unwrap();
        assert!(full.depth > stopped.depth, "{} vs {}", full.depth, stopped.depth);
        assert_eq!(full.depth, 9);
    }
}
