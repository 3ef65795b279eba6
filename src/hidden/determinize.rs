//! Determinization: `determinize(depth=3,samples=8,eval=NAME,cap=2000,time=T,seed=S)`.
//!
//! ```text
//! choose(legal moves):
//!     boards = `samples` states drawn from the belief (every observation so far; belief.rs)
//!     for each board b:                                  (until the time plan's soft limit, at least one board)
//!         search b as if it were the truth: alpha-beta to `depth` plies (alphabeta.rs), each legal move's value
//!         (`nodes=N`: the boards share N nodes; the first is searched whole, a board cut by the budget has no vote)
//!         b votes for its best move
//!     play the move with the most votes; ties: the highest total value over the boards
//! ```
//! The weakness the course points out: each board is searched as if the player saw everything (strategy fusion), so
//! the player never plays to gather or hide information.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::alphabeta::{AlphaBeta, best_index};
use super::{Tracking, legal_moves, named_eval, random_of};
use crate::game::{FullGame, GameError, GivenEval, NamedEval, Side};
use crate::search::{Limits, SearchResult, Searcher, Stats, StopCheck};
use crate::spec::Spec;

pub(crate) struct Determinize<G: FullGame> {
    pub samples: usize,
    pub depth: u32,
    eval: NamedEval<G>,
    limits: Limits,
    tracking: Tracking<G>,
    /// A protocol's or the web page's stop.
    stop: Option<Arc<AtomicBool>>,
}

/// Default depth of each board's search.
pub(crate) const DEFAULT_DEPTH: u32 = 3;
/// Default number of boards.
pub(crate) const DEFAULT_SAMPLES: usize = 8;
/// Most boards (`samples=`).
pub(crate) const MAX_SAMPLES: u64 = 10_000;

impl<G: FullGame> Determinize<G> {
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let samples = super::count_in(spec, "samples", DEFAULT_SAMPLES as u64, 1, MAX_SAMPLES)? as usize;
        let limits = Limits::from_spec(spec)?;
        let depth = limits.depth.unwrap_or(DEFAULT_DEPTH);
        let eval = named_eval("determinize", spec)?;
        let tracking = Tracking::from_spec(spec)?;
        Ok(Determinize { samples, depth, eval, limits: Limits { depth: Some(depth), ..limits }, tracking, stop: None })
    }

    /// Vote over `boards` for a move of `legal`.
    /// The time budget runs from `t0` (the start of the choice, before the belief read its observations).
    fn vote(
        &mut self,
        game: &G,
        boards: &[G::State],
        legal: &[G::Move],
        side: Side,
        t0: Instant,
    ) -> SearchResult<G::Move> {
        let stop = self.stop.clone();
        let check = StopCheck::anytime(t0, self.limits.time, side).with_flag(stop.as_deref());
        let mut votes = vec![0u32; legal.len()];
        let mut totals = vec![0i64; legal.len()];
        let mut stats = Stats::default();
        let mut searched = 0;
        let eval = self.eval.get(game).clone();
        for b in boards {
            if searched > 0 && check.poll() {
                break;
            }
            // The first board is always searched to its depth: a vote needs one. The next ones share what is left of
            // the node budget (`nodes=`).
            let board_check = match self.limits.nodes {
                _ if searched == 0 => StopCheck::none(),
                Some(n) if stats.nodes >= n => break,
                Some(n) => {
                    let mut c = check.clone();
                    c.nodes = Some(n - stats.nodes);
                    c
                }
                None => check.clone(),
            };
            let mut ab = AlphaBeta::new(game, &eval, board_check);
            let values = ab.root_values(b, legal, self.depth);
            stats.nodes += ab.nodes;
            let Some(values) = values else { break };
            searched += 1;
            let best = best_index(&values).expect("a legal move");
            votes[best] += 1;
            for (t, v) in totals.iter_mut().zip(&values) {
                *t += *v as i64;
            }
        }
        let best = (0..legal.len()).max_by_key(|&i| (votes[i], totals[i], std::cmp::Reverse(i)));
        let value = match best {
            Some(i) if searched > 0 => (totals[i] / searched as i64) as i32,
            _ => 0,
        };
        let m = best.map(|i| legal[i]);
        SearchResult {
            best_move: m,
            value,
            depth: self.depth,
            pv: m.into_iter().collect(),
            stats,
            seconds: t0.elapsed().as_secs_f64(),
        }
    }
}

impl<G: FullGame> Searcher<G> for Determinize<G> {
    fn name(&self) -> String {
        let mut p = vec![format!("depth={}", self.depth), format!("samples={}", self.samples)];
        if let Some(name) = self.eval.name().filter(|n| *n != "simple") {
            p.push(format!("eval={name}"));
        }
        p.extend(Limits { depth: None, ..self.limits }.spec_params());
        p.extend(self.tracking.name_params());
        format!("determinize({})", p.join(","))
    }

    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        let boards = self.tracking.resampled(game, state, self.samples);
        let legal = legal_moves(game, state);
        self.vote(game, &boards, &legal, game.side_to_move(state), Instant::now())
    }

    fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    fn set_limits(&mut self, limits: Limits) {
        self.limits = Limits { depth: limits.depth.or(Some(self.depth)), ..limits };
    }

    fn give_evaluation(&mut self, f: GivenEval<G>) -> Result<(), GameError> {
        self.eval.give(f);
        Ok(())
    }

    fn reseed(&mut self, seed: u64) {
        self.tracking.reseed(seed);
    }

    fn observe_start(&mut self, game: &G, start: &G::State, player: Side) {
        self.tracking.start(game, start, player);
    }

    fn observe(&mut self, _game: &G, observation: &str) {
        self.tracking.observe(observation);
    }

    fn choose_observed(&mut self, game: &G, legal: &[G::Move]) -> SearchResult<G::Move> {
        let t0 = Instant::now();
        let side = self.tracking.belief.as_ref().map_or(Side::First, |b| b.player());
        let boards = self.tracking.boards(game, self.samples);
        let mut r = if boards.is_empty() {
            // Nothing consistent was found again (a rebuild ran out of budget): a random legal move.
            let m = random_of(legal, &mut self.tracking.rng);
            SearchResult { best_move: m, value: 0, depth: 0, pv: Vec::new(), stats: Stats::default(), seconds: 0.0 }
        } else {
            self.vote(game, &boards, legal, side, t0)
        };
        if let Some(m) = r.best_move {
            self.tracking.played(game, m);
        }
        r.pv.truncate(1);
        r
    }
}
