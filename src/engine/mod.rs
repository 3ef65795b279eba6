//! The `engine` player: the strongest configuration of plateau's search, for every deterministic game of perfect
//! information, using what the game knows through its knowledge methods (`game/knowledge.rs`: wins in one, threats and
//! forced replies, move classes, null move, endgame tables) and its strongest evaluation (`Knowledge::EVALUATIONS`).
//!
//! ```text
//! Engine.search(root):
//!     budget := time plan of the side to move (search/time.rs, with the `margin` and `soft` options)
//!     one legal move, or a move that wins at once: play it
//!     probe  (option, ≈10% of the time/nodes): iterative deepening on the window (win - 1, win): a forced win?
//!     search (all the time, or 90% with check): iterative deepening, aspiration windows, PVS (search.rs)
//!     check  (option, the rest):        does the chosen move lose deeper?  a win probe for the opponent after it;
//!                                       if it loses, the next root move in order that does not
//! ```
//!
//! One concern per file: [`search`] (iterative deepening, aspiration, PVS), [`quiescence`], [`ordering`] (the staged
//! move picker), `carry.rs` (the evaluation's carry along the path), [`endgame`] and [`probe_db`] (tables probed at
//! every node), [`table`] (the shared lock-free transposition table), [`smp`] (Lazy SMP), [`params`] (every switch
//! and constant), [`bench`] (`plateau bench`), [`report`] (progress lines). The time plan and the stop check are the search layer's (`search/time.rs`).

pub mod bench;
mod carry;
pub mod chance;
pub mod endgame;
pub mod ordering;
pub mod params;
pub(crate) mod probe_db;
pub mod quiescence;
pub mod report;
pub mod search;
pub mod simultaneous;
pub(crate) mod smp;
pub mod table;
pub mod tunables;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::game::{Forced, FullGame, GameError, GivenEval, MoveClass, MoveList, NamedEval, WIN_SCORE, WIN_THRESHOLD};
use crate::search::{Limits, Reporter, SearchResult, Searcher, Stats};
use crate::spec::Spec;

use params::{DEFAULT_DEPTH, EngineOptions, MAX_DEPTH};
use search::{Best, RootMove, Shared, Worker};
use table::AtomicTable;

/// The engine: options, its transposition table (kept between moves of a game), the evaluation of the current game.
pub struct Engine<G: FullGame> {
    pub(crate) opts: EngineOptions,
    tt: AtomicTable,
    eval: NamedEval<G>,
    stop: Arc<AtomicBool>,
    /// The opening book (`book=FILE`), consulted before searching.
    book: Option<crate::book::BookUser>,
    reporter: Option<Reporter<G::Move>>,
}

impl<G: FullGame> Engine<G> {
    /// An engine with the options `opts`.
    pub fn new(opts: EngineOptions) -> Self {
        let tt = AtomicTable::new(opts.tt_mib);
        Engine {
            opts,
            tt,
            eval: NamedEval::new(None),
            stop: Arc::new(AtomicBool::new(false)),
            book: None,
            reporter: None,
        }
    }

    /// Build from `engine(...)`; an impossible table size is an error, not a crash.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let opts = EngineOptions::from_spec(spec)?;
        if opts.limits.depth == Some(0) {
            return Err(GameError::new(
                "engine: depth=0: the engine searches at least one ply; for the static evaluation use `plateau eval` \
                 or a catalogue algorithm (`alphabeta(depth=0,eval=NAME)`)",
            ));
        }
        if let Some(name) = &opts.eval {
            G::check_evaluation(name).map_err(|e| GameError::new(format!("engine: {e}")))?;
        }
        let book = crate::book::BookUser::from_options(&crate::book::BookOptions::from_spec(spec)?)
            .map_err(|e| GameError::new(format!("engine: {e}")))?;
        let tt = AtomicTable::try_new(opts.tt_mib).map_err(|e| GameError::new(format!("engine: {e}")))?;
        Ok(Engine {
            opts,
            tt,
            eval: NamedEval::new(None),
            stop: Arc::new(AtomicBool::new(false)),
            book,
            reporter: None,
        })
    }
}

impl<G: FullGame> Searcher<G> for Engine<G> {
    fn name(&self) -> String {
        let spec = self.opts.spec();
        match &self.book {
            None => spec,
            Some(b) => {
                let extra = b.opts.spec_params().join(",");
                match spec.strip_suffix(')') {
                    Some(head) => format!("{head},{extra})"),
                    None => format!("{spec}({extra})"),
                }
            }
        }
    }

    fn prepare(&mut self, game: &G) {
        self.tt.back_pages();
        probe_db::prepare(&self.opts, game);
        endgame::prepare(&self.opts, game);
        // The name was checked against the game's list when the player string was read.
        let name = self.opts.eval.as_deref().unwrap_or(G::EVALUATIONS[0]).to_string();
        self.eval.set_name(Some(name.clone()));
        if self.eval.get_fresh(game).1 {
            self.opts.params = self.opts.params_for(game, &name);
        }
    }

    fn give_evaluation(&mut self, f: GivenEval<G>) -> Result<(), GameError> {
        self.eval.give(f);
        Ok(())
    }

    fn new_game(&mut self) {
        self.tt.clear();
    }

    fn reseed(&mut self, seed: u64) {
        if let Some(b) = &mut self.book {
            b.reseed(seed);
        }
    }

    fn set_limits(&mut self, limits: Limits) {
        self.opts.limits = limits;
    }

    fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    fn set_reporter(&mut self, reporter: Option<Reporter<G::Move>>) {
        self.reporter = reporter;
    }

    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        // Done already when the caller prepared the player (outside the clock): then only a check of the game.
        // Otherwise before the clock starts (the table's pages backed, the evaluation loaded).
        Searcher::prepare(self, game);
        let start = Instant::now();
        self.tt.new_search();
        let limits = self.opts.limits;
        let budget = limits.plan(game.side_to_move(state), self.opts.margin, self.opts.soft_pct);
        // A time control (`go infinite` included: until stopped) or a node budget: iterate to the deepest depth.
        let timed = limits.time.is_some() || limits.nodes.is_some();
        let max_depth = limits.depth.unwrap_or(if timed { MAX_DEPTH } else { DEFAULT_DEPTH }).clamp(1, MAX_DEPTH);

        let mut moves = MoveList::new();
        game.generate_moves(state, &mut moves);
        let mut result = SearchResult {
            best_move: moves.first().copied(),
            value: 0,
            depth: 0,
            pv: moves.first().copied().into_iter().collect(),
            stats: Stats { nodes: 1, ..Stats::default() },
            seconds: 0.0,
        };
        if moves.is_empty() {
            return result;
        }
        if let Some(book) = self.book.as_mut()
            && let Some((m, e)) = book.pick(game, state)
        {
            result.best_move = Some(m);
            result.pv = vec![m];
            result.value = e.score;
            result.seconds = start.elapsed().as_secs_f64();
            return result;
        }
        let opts = &self.opts;
        if opts.tactics
            && let Some(&w) = moves.iter().find(|&&m| game.move_class(state, m) == MoveClass::Win)
        {
            result.best_move = Some(w);
            result.pv = vec![w];
            result.value = WIN_SCORE - 1;
            result.depth = 1;
            result.seconds = start.elapsed().as_secs_f64();
            return result;
        }
        let mut roots: Vec<RootMove<G::Move>> = moves.iter().map(|&mv| RootMove { mv, score: 0 }).collect();
        if opts.tactics
            && let Forced::Defend(target) = game.forced(state)
        {
            // Every other move loses at once; keep them last (the search sees it too).
            roots.sort_by_key(|r| !game.defends(r.mv, target));
        }
        if roots.len() == 1 && limits.time.is_some() {
            result.seconds = start.elapsed().as_secs_f64();
            return result;
        }

        let eval = self.eval.get(game);
        let tt = &self.tt;
        let stop = &*self.stop;
        let halt = AtomicBool::new(false);
        let no_halt = AtomicBool::new(false);
        let make = |h| Shared { game, eval, tt, opts, stop, halt: h };
        let at = |pct: u32| budget.hard.map(|h| start + h * pct / 100);
        let nodes_at = |pct: u64| limits.nodes.map(|n| n * pct / 100);
        let probe_on = opts.probe && timed;
        let probe_pct = opts.params.probe_percent as u32;

        let helper_roots = roots.clone();
        let reporter = self.reporter.clone();
        let (best, stats) = smp::run(make, &halt, &no_halt, opts.threads, state, &helper_roots, |w: &mut Worker<G>| {
            let mut proven = None;
            if probe_on {
                // 1. The deep-win probe.
                w.null_phase = false;
                w.limit.hard = at(probe_pct);
                w.limit.nodes = nodes_at(probe_pct as u64);
                let mut probe_roots = roots.clone();
                let p = w.iterate(state, &mut probe_roots, 1, max_depth, Some((WIN_THRESHOLD - 1, WIN_THRESHOLD)));
                proven = p.filter(|b| b.value >= WIN_THRESHOLD);
                w.stopped = false;
                w.null_phase = true;
            }
            // 2. The normal search (after a proven win it finds the fastest one; the table knows the way).
            let main_pct = if opts.check && timed { 100 - probe_pct } else { 100 };
            w.limit.hard = at(main_pct);
            w.limit.nodes = nodes_at(main_pct as u64);
            // The last moment to start an iteration counts from now, not from the start: a probe that overran (the
            // process was descheduled) must not leave the search a single ply.
            let now = Instant::now();
            let soft = budget.soft.map(|s| (now + s * (100 - probe_pct) / 100).min(at(main_pct).unwrap_or(now + s)));
            if probe_on {
                w.limit.soft = soft;
            } else {
                w.limit.set_soft(start, &budget);
            }
            w.hook = reporter.map(|reporter| search::Hook { reporter, start });
            let mut best = w.iterate(state, &mut roots, 1, max_depth, None);
            w.hook = None;
            w.limit.soft = None;
            w.limit.stretch = None;
            if let Some(p) = proven {
                return match best {
                    Some(b) if b.value >= WIN_THRESHOLD => Some(b),
                    _ => Some(p),
                };
            }
            if opts.check
                && timed
                && let Some(b) = best.as_mut()
                && b.value > -WIN_THRESHOLD
                && b.value < WIN_THRESHOLD
            {
                // 3. The loss check of the chosen move, then of the next ones if it loses.
                w.stopped = false;
                w.null_phase = false;
                w.limit.hard = at(100);
                w.limit.nodes = nodes_at(100);
                let order: Vec<G::Move> =
                    std::iter::once(b.mv).chain(roots.iter().map(|r| r.mv).filter(|&m| m != b.mv)).collect();
                for m in order {
                    match loses_deeper(w, game, state, m, b.depth + 2) {
                        Some(false) => {
                            if m != b.mv {
                                b.mv = m;
                                b.pv = vec![m];
                            }
                            break;
                        }
                        Some(true) => continue,
                        None => break, // out of time: keep the search's choice
                    }
                }
            }
            best
        });
        halt.store(true, Ordering::Relaxed);
        if let Some(b) = best {
            let Best { mv, value, depth, pv } = b;
            result.best_move = Some(mv);
            result.value = value;
            result.depth = depth;
            result.pv = if pv.first() == Some(&mv) { pv } else { vec![mv] };
        }
        result.stats = stats;
        result.seconds = start.elapsed().as_secs_f64();
        result
    }
}

/// Whether the opponent has a forced win after `m` (a win probe from the opponent's side up to `depth` plies);
/// `None` when the time ran out before an answer.
fn loses_deeper<G: FullGame>(w: &mut Worker<G>, game: &G, state: &G::State, m: G::Move, depth: u32) -> Option<bool> {
    let mut child = *state;
    game.play(&mut child, m);
    if game.is_terminal(&child) {
        return Some(false);
    }
    let mut moves = MoveList::new();
    game.generate_moves(&child, &mut moves);
    let mut roots: Vec<RootMove<G::Move>> = moves.iter().map(|&mv| RootMove { mv, score: 0 }).collect();
    let r = w.iterate(&child, &mut roots, 1, depth.min(MAX_DEPTH), Some((WIN_THRESHOLD - 1, WIN_THRESHOLD)));
    match r {
        Some(b) if b.value >= WIN_THRESHOLD => Some(true),
        _ if w.stopped => None,
        _ => Some(false),
    }
}
