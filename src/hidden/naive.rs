//! The naive baseline: `naive(depth=3,eval=NAME,seed=S)`, the deterministic search playing one guessed board as if it
//! were the truth.
//!
//! ```text
//! guess = the start (both players know it)
//! own move m:       guess = play(guess, m)
//! observation o:    guess = one successor of guess consistent with o (belief.rs with room for one state: drawn at
//!                   random among them; when none is, one state consistent with the whole history is found again)
//! choose:           alpha-beta on guess to `depth` plies (alphabeta.rs), its best move
//! ```
//! It is determinization with a single board that is never redrawn: it tracks one possible history instead of the
//! set of them, so it does not weigh the boards it cannot rule out. `determinize` against `naive` measures what
//! sampling and voting add (`docs/hidden.md`).

use std::time::{Duration, Instant};

use super::alphabeta::AlphaBeta;
use super::{NamedEval, Tracking, legal_moves, random_of};
use crate::game::{Game, GameError, Player};
use crate::search::{Limits, SearchResult, Searcher, Stats};
use crate::spec::Spec;

pub struct Naive<G: Game> {
    pub depth: u32,
    eval: NamedEval<G>,
    limits: Limits,
    tracking: Tracking<G>,
}

impl<G: Game> Naive<G> {
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let limits = Limits::from_spec(spec)?;
        let depth = limits.depth.unwrap_or(super::determinize::DEFAULT_DEPTH);
        let eval = NamedEval::from_spec("naive", spec)?;
        let seed = spec.count("seed")?;
        Ok(Naive { depth, eval, limits, tracking: Tracking::new(1, seed) })
    }

    fn best(&mut self, game: &G, board: &G::State, legal: &[G::Move], side: Player) -> SearchResult<G::Move> {
        let t0 = Instant::now();
        let hard = self.limits.plan(side, Duration::from_millis(5), 60).hard.map(|d| t0 + d);
        let eval = self.eval.get(game);
        let mut ab = AlphaBeta::new(game, &eval, hard);
        let values = ab.root_values(board, legal, self.depth);
        let best = values.as_ref().and_then(|v| (0..legal.len()).max_by_key(|&i| v[i]));
        let m = best.map(|i| legal[i]).or_else(|| legal.first().copied());
        SearchResult {
            best_move: m,
            value: best.and_then(|i| values.as_ref().map(|v| v[i])).unwrap_or(0),
            depth: self.depth,
            pv: m.into_iter().collect(),
            stats: Stats { nodes: ab.nodes, ..Stats::default() },
            seconds: t0.elapsed().as_secs_f64(),
        }
    }
}

impl<G: Game> Searcher<G> for Naive<G> {
    fn name(&self) -> String {
        let mut p = vec![format!("depth={}", self.depth)];
        if self.eval.name != "simple" {
            p.push(format!("eval={}", self.eval.name));
        }
        if let Some(s) = self.tracking.seed {
            p.push(format!("seed={s}"));
        }
        format!("naive({})", p.join(","))
    }

    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        let board = self.tracking.resampled(game, state, 1)[0];
        let legal = legal_moves(game, state);
        self.best(game, &board, &legal, game.side_to_move(state))
    }

    fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    fn observe_start(&mut self, game: &G, start: &G::State, player: Player) {
        self.tracking.start(game, start, player);
    }

    fn observe(&mut self, game: &G, observation: &str) {
        self.tracking.observe(game, observation);
    }

    fn choose_observed(&mut self, game: &G, legal: &[G::Move]) -> SearchResult<G::Move> {
        let side = self.tracking.belief.as_ref().map_or(Player::First, |b| b.player());
        let r = match self.tracking.boards(1).pop() {
            Some(board) => self.best(game, &board, legal, side),
            None => {
                let m = random_of(legal, &mut self.tracking.rng);
                SearchResult { best_move: m, value: 0, depth: 0, pv: Vec::new(), stats: Stats::default(), seconds: 0.0 }
            }
        };
        if let Some(m) = r.best_move {
            self.tracking.played(game, m);
        }
        r
    }
}
