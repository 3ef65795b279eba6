//! The random player: a uniformly random legal move (seeded, so matches are reproducible).

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::game::{Game, GameError};
use crate::search::{SearchResult, Searcher, Stats};
use crate::spec::Spec;

pub struct RandomPlayer {
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

impl<G: Game> Searcher<G> for RandomPlayer {
    fn name(&self) -> String {
        match self.seed {
            Some(s) => format!("random(seed={s})"),
            None => "random".into(),
        }
    }
    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        let m = game.random_move(state, &mut self.rng);
        SearchResult {
            best_move: m,
            value: 0,
            depth: 0,
            pv: m.into_iter().collect(),
            stats: Stats { nodes: 1, ..Stats::default() },
            seconds: 0.0,
        }
    }
}
