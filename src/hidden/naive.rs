//! The naive baseline: `naive(depth=3,eval=NAME,seed=S)`, the deterministic search playing one guessed board as if it
//! were the truth: the board the player last saw.
//!
//! ```text
//! guess = the start (both players know it)
//! observation o:    guess = Capabilities::last_seen(guess, o): what o shows as it shows it, every hidden piece where the
//!                   player last saw it (dark Breakthrough: its own pieces as told, the enemy pieces where they were
//!                   last seen, moved only when the referee reveals one: a found square, a capture)
//!                   games without last_seen (phantom tic-tac-toe): one successor of guess consistent with o
//!                   (belief.rs with room for one state, drawn at random among them; when none is, one state
//!                   consistent with the whole history is found again)
//! own move m:       (tracker only) guess = play(guess, m); with last_seen the next observation tells the result
//! choose:           alpha-beta on guess to `depth` plies (alphabeta.rs), its best move (the first of equal ones);
//!                   `nodes=N`: depth 1, 2, ... up to `depth` while the N nodes last, the deepest search finished
//! ```
//! It does not weigh the boards it cannot rule out, and with `last_seen` it does not even keep its guess
//! consistent: the enemy pieces it was not told about stand still. `determinize` and `ismcts` against `naive`
//! measure what tracking the set of boards adds (`docs/hidden.md`).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::alphabeta::{AlphaBeta, best_index};
use super::{Tracking, legal_moves, named_eval, random_of};
use crate::game::{FullGame, GameError, GivenEval, NamedEval, Side};
use crate::search::{Limits, SearchResult, Searcher, Stats, StopCheck};
use crate::spec::Spec;

/// The naive player of hidden-information games (`docs/hidden.md`).
pub struct Naive<G: FullGame> {
    pub depth: u32,
    eval: NamedEval<G>,
    limits: Limits,
    /// The guess and the player, in games with [`Capabilities::last_seen`].
    seen: Option<(G::State, Side)>,
    /// Otherwise one consistent state, tracked.
    tracking: Tracking<G>,
    /// A protocol's or the web page's stop.
    stop: Option<Arc<AtomicBool>>,
}

impl<G: FullGame> Naive<G> {
    /// The player from its string's parameters.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let limits = Limits::from_spec(spec)?;
        let depth = limits.depth.unwrap_or(super::determinize::DEFAULT_DEPTH);
        let eval = named_eval("naive", spec)?;
        let seed = spec.count("seed")?;
        Ok(Naive { depth, eval, limits, seen: None, tracking: Tracking::new(1, seed), stop: None })
    }

    /// The time budget runs from `t0` (the start of the choice, before the belief read its observations).
    fn best(
        &mut self,
        game: &G,
        board: &G::State,
        legal: &[G::Move],
        side: Side,
        t0: Instant,
    ) -> SearchResult<G::Move> {
        let stop = self.stop.clone();
        let check = StopCheck::anytime(t0, self.limits.time, side).with_flag(stop.as_deref());
        let eval = self.eval.get(game).clone();
        let (values, nodes) = match self.limits.nodes {
            None => {
                let mut ab = AlphaBeta::new(game, &eval, check);
                (ab.root_values(board, legal, self.depth), ab.nodes)
            }
            // A node budget: deeper and deeper while it lasts, the values of the deepest search finished (depth 1
            // always finishes: a move needs one).
            Some(budget) => {
                let (mut values, mut nodes) = (None, 0);
                for d in 1..=self.depth.max(1) {
                    let mut c = if d == 1 { StopCheck::none() } else { check.clone() };
                    if d > 1 {
                        if nodes >= budget {
                            break;
                        }
                        c.nodes = Some(budget - nodes);
                    }
                    let mut ab = AlphaBeta::new(game, &eval, c);
                    let v = ab.root_values(board, legal, d.min(self.depth));
                    nodes += ab.nodes;
                    match v {
                        Some(v) => values = Some(v),
                        None => break,
                    }
                }
                (values, nodes)
            }
        };
        let best = values.as_ref().and_then(|v| best_index(v));
        let m = best.map(|i| legal[i]).or_else(|| legal.first().copied());
        SearchResult {
            best_move: m,
            value: best.and_then(|i| values.as_ref().map(|v| v[i])).unwrap_or(0),
            depth: self.depth,
            pv: m.into_iter().collect(),
            stats: Stats { nodes, ..Stats::default() },
            seconds: t0.elapsed().as_secs_f64(),
        }
    }
}

impl<G: FullGame> Searcher<G> for Naive<G> {
    fn name(&self) -> String {
        let mut p = vec![format!("depth={}", self.depth)];
        if let Some(name) = self.eval.name().filter(|n| *n != "simple") {
            p.push(format!("eval={name}"));
        }
        p.extend(Limits { depth: None, ..self.limits }.spec_params());
        if let Some(s) = self.tracking.seed {
            p.push(format!("seed={s}"));
        }
        format!("naive({})", p.join(","))
    }

    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        let board = self.tracking.resampled(game, state, 1)[0];
        let legal = legal_moves(game, state);
        self.best(game, &board, &legal, game.side_to_move(state), Instant::now())
    }

    fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    fn give_evaluation(&mut self, f: GivenEval<G>) -> Result<(), GameError> {
        self.eval.give(f);
        Ok(())
    }

    fn reseed(&mut self, seed: u64) {
        self.tracking.reseed(seed);
    }

    fn observe_start(&mut self, game: &G, start: &G::State, player: Side) {
        self.seen = game.last_seen(start, player, &game.observation(start, player)).map(|s| (s, player));
        self.tracking.belief = None;
        if self.seen.is_none() {
            self.tracking.start(game, start, player);
        }
    }

    fn observe(&mut self, game: &G, observation: &str) {
        match &mut self.seen {
            // None: an observation the game does not read back (the end of the game): the guess stays.
            Some((guess, p)) => {
                if let Some(next) = game.last_seen(guess, *p, observation) {
                    *guess = next;
                }
            }
            None => self.tracking.observe(observation),
        }
    }

    fn choose_observed(&mut self, game: &G, legal: &[G::Move]) -> SearchResult<G::Move> {
        if let Some((guess, side)) = self.seen {
            return self.best(game, &guess, legal, side, Instant::now());
        }
        let t0 = Instant::now();
        let side = self.tracking.belief.as_ref().map_or(Side::First, |b| b.player());
        let r = match self.tracking.boards(game, 1).pop() {
            Some(board) => self.best(game, &board, legal, side, t0),
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
