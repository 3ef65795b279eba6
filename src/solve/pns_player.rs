//! `pns(budget=N, fallback=SPEC, tt=MiB)`: proof-number search as a player.
//!
//! ```text
//! search(state):
//!     df-pn (dfpn.rs) on state, at most `budget` expanded nodes
//!     proven win  -> play the proving move (value: a win)
//!     otherwise   -> the fallback player's move (its search, its value)
//! ```
//!
//! The fallback is any other player string (the registry of players builds it and hands it here); it receives the
//! limits, the stop flag and the reporter of the protocols and arena.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::game::{FullGame, Outcome, WIN_THRESHOLD};
use crate::search::{Limits, Reporter, SearchResult, Searcher, Stats};

use super::dfpn::Dfpn;

/// Default budget of df-pn per move, in expanded nodes.
pub(crate) const DEFAULT_BUDGET: u64 = 100_000;
/// Default df-pn table size.
pub(crate) const DEFAULT_TT_MIB: usize = 16;

/// The player.
pub(crate) struct PnsPlayer<G: FullGame> {
    budget: u64,
    tt_mib: usize,
    dfpn: Dfpn<G>,
    fallback: Box<dyn Searcher<G>>,
}

impl<G: FullGame> PnsPlayer<G> {
    pub fn new(budget: u64, tt_mib: usize, fallback: Box<dyn Searcher<G>>) -> Self {
        PnsPlayer { budget, tt_mib, dfpn: Dfpn::new(tt_mib, Some(budget)), fallback }
    }
}

impl<G: FullGame> Searcher<G> for PnsPlayer<G> {
    fn name(&self) -> String {
        let mut p = vec![format!("budget={}", self.budget)];
        if self.tt_mib != DEFAULT_TT_MIB {
            p.push(format!("tt={}", self.tt_mib));
        }
        p.push(format!("fallback={}", self.fallback.name()));
        format!("pns({})", p.join(","))
    }

    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        let start = Instant::now();
        let solved = self.dfpn.solve(game, state);
        if solved.outcome == Some(Outcome::Win)
            && let Some(m) = solved.best_move
        {
            return SearchResult {
                best_move: Some(m),
                // df-pn proves a win without its length: the smallest score of a proven win.
                value: WIN_THRESHOLD,
                depth: 0,
                pv: vec![m],
                stats: Stats { nodes: solved.nodes, ..Stats::default() },
                seconds: start.elapsed().as_secs_f64(),
            };
        }
        let mut r = self.fallback.search(game, state);
        r.stats.nodes += solved.nodes;
        r.seconds = start.elapsed().as_secs_f64();
        r
    }

    fn prepare(&mut self, game: &G) {
        self.fallback.prepare(game);
    }
    fn new_game(&mut self) {
        self.fallback.new_game();
    }
    fn reseed(&mut self, seed: u64) {
        self.fallback.reseed(seed);
    }
    fn set_limits(&mut self, limits: Limits) {
        self.fallback.set_limits(limits);
    }
    fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.fallback.set_stop(flag);
    }
    fn set_reporter(&mut self, reporter: Option<Reporter<G::Move>>) {
        self.fallback.set_reporter(reporter);
    }
}
