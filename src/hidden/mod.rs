//! Players for games with hidden information (`docs/hidden.md`): they play under a referee that gives them only their
//! observations (`Searcher::observe_start`, `observe`, `choose_observed`), keep a [`belief::Belief`] of the states
//! they cannot rule out, and search boards drawn from it.
//!
//! ```text
//! belief.rs        the belief tracker (generic: the set, or a sample, of states consistent with every observation)
//! alphabeta.rs     alpha-beta on one full state, for turns that may repeat (a cancelled move, a failed try)
//! determinize.rs   determinize(depth=3,samples=8): sample boards, search each, vote
//! ismcts.rs        ismcts(playouts=...): single-observer information-set MCTS
//! naive.rs         naive(depth=3): one guessed board searched as if it were the truth (the baseline)
//! ```
//! Called with a full state instead (`plateau search`, a hint in `plateau play`), they know only what the side to
//! move sees of it: their boards are drawn with [`Capabilities::resample`] of that state.

pub mod alphabeta;
pub mod belief;
pub mod determinize;
pub mod ismcts;
pub mod naive;

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::game::{FullGame, GameError, MoveList, NamedEval, Side};
use crate::spec::Spec;
use belief::Belief;

/// States kept by a tracker by default.
pub(crate) const DEFAULT_CAP: usize = 2_000;
/// Most boards kept (`cap=`).
pub(crate) const MAX_CAP: u64 = 10_000_000;

/// The count `key` of `spec` (`1000`, `10k`), `default` when absent; out of `min..=max`: refused, naming the range.
pub(crate) fn count_in(spec: &Spec, key: &str, default: u64, min: u64, max: u64) -> Result<u64, GameError> {
    match spec.count(key)? {
        None => Ok(default),
        Some(n) if n < min || n > max => {
            Err(GameError::new(format!("{}: {key}={n} is out of range {min}..={max}", spec.name)))
        }
        Some(n) => Ok(n),
    }
}

/// What the three players share: the tracker and where boards come from.
///
/// Observations are queued when they arrive ([`Tracking::observe`]) and read into the belief when the player next
/// needs it ([`Tracking::boards`], [`Tracking::played`]): that work happens inside the player's choice, which the
/// arena times and charges to its clock, and not for free between moves.
pub struct Tracking<G: FullGame> {
    pub belief: Option<Belief<G>>,
    pub cap: usize,
    pub seed: Option<u64>,
    pub rng: SmallRng,
    pending: Vec<String>,
}

impl<G: FullGame> Tracking<G> {
    /// Read `cap=` and `seed=`.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let cap = count_in(spec, "cap", DEFAULT_CAP as u64, 1, MAX_CAP)? as usize;
        let seed = spec.count("seed")?;
        Ok(Self::new(cap, seed))
    }

    /// A tracker keeping at most `cap` states, drawing with `seed` (from the system when `None`).
    pub fn new(cap: usize, seed: Option<u64>) -> Self {
        let rng = match seed {
            Some(s) => SmallRng::seed_from_u64(s),
            None => SmallRng::from_rng(&mut rand::rng()),
        };
        Tracking { belief: None, cap, seed, rng, pending: Vec::new() }
    }

    /// The parameters for the player's name: `cap=..,seed=..` when not the defaults.
    pub(crate) fn name_params(&self) -> Vec<String> {
        let mut p = Vec::new();
        if self.cap != DEFAULT_CAP {
            p.push(format!("cap={}", self.cap));
        }
        if let Some(s) = self.seed {
            p.push(format!("seed={s}"));
        }
        p
    }

    /// Re-seed the generator from `seed` (mixed with the player's own `seed=`: [`crate::game::seed`]).
    pub(crate) fn reseed(&mut self, seed: u64) {
        self.rng = SmallRng::seed_from_u64(crate::game::seed::with_own(self.seed, seed));
    }

    /// Start tracking a game from `start`, seen by `player`.
    pub fn start(&mut self, game: &G, start: &G::State, player: Side) {
        let seed = rand::RngExt::random(&mut self.rng);
        self.belief = Some(Belief::new(game, start, player, self.cap, seed));
        self.pending.clear();
    }

    /// Queue an observation (read at the next [`Tracking::catch_up`]).
    pub fn observe(&mut self, text: &str) {
        if self.belief.is_some() {
            self.pending.push(text.to_string());
        }
    }

    /// Observations received and not yet read into the belief.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Read the queued observations into the belief, in the order they came.
    pub(crate) fn catch_up(&mut self, game: &G) {
        if let Some(b) = &mut self.belief {
            for text in self.pending.drain(..) {
                b.observe(game, &text);
            }
        }
    }

    /// The tracked player played `m`.
    pub fn played(&mut self, game: &G, m: G::Move) {
        self.catch_up(game);
        if let Some(b) = &mut self.belief {
            b.played(game, m);
        }
    }

    /// `k` boards from the belief (uniformly, with replacement), after reading the queued observations; none when
    /// the belief is empty.
    pub fn boards(&mut self, game: &G, k: usize) -> Vec<G::State> {
        self.catch_up(game);
        match &mut self.belief {
            Some(b) => b.sample(k),
            None => Vec::new(),
        }
    }

    /// `k` boards the side to move of `state` cannot tell from it ([`Capabilities::resample`]).
    pub(crate) fn resampled(&mut self, game: &G, state: &G::State, k: usize) -> Vec<G::State> {
        let me = game.side_to_move(state);
        (0..k).map(|_| game.resample(state, me, &mut self.rng)).collect()
    }
}

/// The evaluation named in a player string (`eval=NAME`, default `simple`), checked against
/// `Knowledge::EVALUATIONS`; built for the game at the first search ([`NamedEval`]).
pub(crate) fn named_eval<G: FullGame>(player: &str, spec: &Spec) -> Result<NamedEval<G>, GameError> {
    let name = spec.eval("eval")?.unwrap_or_else(|| "simple".into());
    G::check_evaluation(&name).map_err(|e| GameError::new(format!("{player}: {e}")))?;
    Ok(NamedEval::new(Some(name)))
}

/// The legal moves of `state` as a vector.
pub fn legal_moves<G: FullGame>(game: &G, state: &G::State) -> Vec<G::Move> {
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    moves.to_vec()
}

/// A uniformly random move of `legal` (the fallback when the belief is empty).
pub(crate) fn random_of<M: Copy>(legal: &[M], rng: &mut SmallRng) -> Option<M> {
    if legal.is_empty() { None } else { Some(legal[rand::RngExt::random_range(rng, 0..legal.len())]) }
}
