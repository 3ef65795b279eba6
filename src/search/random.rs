//! The random player: a uniformly random legal move (seeded, so matches are reproducible). It plays every kind of
//! game: at a simultaneous node it picks its own half uniformly ([`Searcher::search_as`]); with hidden information it
//! uses only the legal moves, which the mover knows.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::game::{FullGame, GameError, MoveList, Side, Turn};
use crate::search::{SearchResult, Searcher, Stats};
use crate::spec::Spec;

pub(crate) struct RandomPlayer {
    seed: Option<u64>,
    rng: SmallRng,
}

impl RandomPlayer {
    pub fn new(seed: Option<u64>) -> Self {
        let rng = match seed {
            Some(s) => SmallRng::seed_from_u64(s),
            None => SmallRng::from_rng(&mut rand::rng()),
        };
        RandomPlayer { seed, rng }
    }
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let seed = spec.count("seed")?;
        Ok(Self::new(seed))
    }
}

impl<G: FullGame> Searcher<G> for RandomPlayer {
    fn name(&self) -> String {
        match self.seed {
            Some(s) => format!("random(seed={s})"),
            None => "random".into(),
        }
    }
    fn reseed(&mut self, seed: u64) {
        self.rng = SmallRng::seed_from_u64(crate::game::seed::with_own(self.seed, seed));
    }
    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        let m = game.random_move(state, &mut self.rng);
        result(m)
    }
    /// Under a referee: a uniformly random move among those legal on the board the player sees.
    fn choose_observed(&mut self, _game: &G, legal: &[G::Move]) -> SearchResult<G::Move> {
        result(if legal.is_empty() { None } else { Some(legal[self.rng.random_range(0..legal.len())]) })
    }
    /// At a simultaneous node, a uniformly random move among `player`'s own.
    fn search_as(&mut self, game: &G, state: &G::State, player: Side) -> SearchResult<G::Move> {
        if !(G::KIND.simultaneous && game.turn(state) == Turn::Simultaneous) {
            return self.search(game, state);
        }
        let mut moves = MoveList::new();
        game.player_moves(state, player, &mut moves);
        let m = if moves.is_empty() { None } else { Some(moves[self.rng.random_range(0..moves.len())]) };
        result(m)
    }
}

fn result<M: Copy>(m: Option<M>) -> SearchResult<M> {
    SearchResult {
        best_move: m,
        value: 0,
        depth: 0,
        pv: m.into_iter().collect(),
        stats: Stats { nodes: 1, ..Stats::default() },
        seconds: 0.0,
    }
}
