//! The naive baseline of simultaneous games: `naive(depth=4,...)` on a game with simultaneous moves is the engine
//! searching the alternating view of the game in which the player chooses first (`game/alternated.rs`).
//!
//! ```text
//! choose(state, me):
//!     view := the game where, at each simultaneous node, `me` chooses its half, then the opponent answers knowing it
//!     search view from state with the engine (alpha-beta family, its table, its strongest evaluation by default)
//!     play the root's best move: the half whose worst answer is best (pure maximin of the turn, searched deeper)
//! ```
//! It plays as if the opponent saw its move before answering: it never mixes, and it assumes the worst of every
//! collision. Parameters: the engine's (`depth`, default 4 plies of the view, i.e. two turns; `nodes`, `time`,
//! `eval`, `tt`, ...). SMMCTS against it measures what searching the simultaneous game itself adds
//! (`docs/breakthrough-variants.md`).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::Engine;
use crate::game::alternated::Alternated;
use crate::game::{FullGame, GameError, GivenEval, Side};
use crate::search::{Limits, SearchResult, Searcher};
use crate::spec::Spec;

/// Plies of the alternating view searched when no limit is given (two turns of the game).
pub(crate) const DEFAULT_DEPTH: u32 = 4;

pub(crate) struct SimNaive<G: FullGame> {
    engine: Engine<Alternated<G>>,
    /// An evaluation given at run time for the game, seen from each search's view.
    given: Option<GivenEval<G>>,
}

impl<G: FullGame> SimNaive<G> {
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let mut engine =
            Engine::from_spec(spec).map_err(|e| GameError::new(e.to_string().replacen("engine", "naive", 1)))?;
        let l = engine.opts.limits;
        if l.depth.is_none() && l.nodes.is_none() && l.time.is_none() {
            engine.opts.limits.depth = Some(DEFAULT_DEPTH);
        }
        Ok(SimNaive { engine, given: None })
    }
}

impl<G: FullGame> Searcher<G> for SimNaive<G> {
    fn name(&self) -> String {
        let name = self.engine.name();
        match name.strip_prefix("engine") {
            Some(rest) => format!("naive{rest}"),
            None => name,
        }
    }

    fn search_as(&mut self, game: &G, state: &G::State, player: Side) -> SearchResult<G::Move> {
        let view = Alternated::new(game.clone(), player);
        if let Some(f) = &self.given {
            self.engine.eval.give(view.given_eval(f.clone()));
        }
        self.engine.search(&view, &view.root(state))
    }

    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        self.search_as(game, state, game.side_to_move(state))
    }

    fn give_evaluation(&mut self, f: GivenEval<G>) -> Result<(), GameError> {
        self.given = Some(f);
        Ok(())
    }

    fn new_game(&mut self) {
        Searcher::<Alternated<G>>::new_game(&mut self.engine);
    }

    fn reseed(&mut self, seed: u64) {
        Searcher::<Alternated<G>>::reseed(&mut self.engine, seed);
    }

    fn set_limits(&mut self, limits: Limits) {
        // As the engine: the new limits replace the old ones; with none at all, the default depth.
        let unlimited = limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none();
        let depth = if unlimited { Some(DEFAULT_DEPTH) } else { limits.depth };
        Searcher::<Alternated<G>>::set_limits(&mut self.engine, Limits { depth, ..limits });
    }

    fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        Searcher::<Alternated<G>>::set_stop(&mut self.engine, flag);
    }
}
