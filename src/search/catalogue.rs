//! The catalogue of the course's algorithms behind one interface: the [`Algorithm`] trait (one search of the root to
//! a given depth), the [`Driver`] that turns any algorithm into a [`Searcher`] (limits, iterative deepening, best move,
//! timing), and the registry that maps algorithm strings to drivers.
//!
//! Parameters every catalogue algorithm accepts: `depth`, `time`, `nodes` (see [`Limits`]) and `id=true|false`
//! (iterative deepening 1, 2, ..., depth even at a fixed depth; always on with `time` or `nodes`, and always on for
//! MTD(f), whose first guess comes from the previous iteration). Statistics add up over the iterations.
//!
//! Time: the driver plans each move with the one planner of `time.rs`, with no margin and no new iteration after
//! [`SOFT_PERCENT`] of the time (`time=T`: stop at T, no new iteration after T/2; a clock: the clock plan, its soft
//! limit scaled by how long the best move has stood, `time::stability_pct`).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::game::{FullGame, GameError, GivenEval, Kind, MoveList, NamedEval, WIN_THRESHOLD};
use crate::search::ctx::Ctx;
use crate::search::time::stability_pct;
use crate::search::trace::{NoTrace, Tracer};
use crate::search::{Limits, SearchResult, Searcher, StopCheck};
use crate::spec::Spec;

use super::{
    alphabeta, alphabeta_failsoft, alphabeta_minmax, expectimax, minimax, mtdf, mtsss, negacstar, negamax, negascout,
    palphabeta, pvs, scout, sss, star1, star2,
};

/// Default depth when no limit is given.
pub(crate) const DEFAULT_DEPTH: u32 = 4;

/// Deepest iteration of a timed search.
pub(crate) const TIMED_MAX_DEPTH: u32 = 64;

/// Time kept in reserve on every move (none: a fixed time per move is used to the end).
pub(crate) const MARGIN: Duration = Duration::ZERO;

/// No new iteration starts after this share of a fixed time per move (percent).
pub(crate) const SOFT_PERCENT: u32 = 50;

/// One algorithm of the catalogue.
pub trait Algorithm<G: FullGame>: Send + Sized + 'static {
    /// The name in algorithm strings.
    const NAME: &'static str;
    /// Iterates from depth 1 even when a fixed depth is asked (MTD(f)).
    const ITERATIVE: bool = false;
    /// The deepest search the algorithm accepts.
    const MAX_DEPTH: u32 = crate::limits::MAX_DEPTH;
    /// Read the algorithm's own parameters (the driver reads `depth`, `time`, `nodes`, `id`).
    fn from_spec(spec: &Spec) -> Result<Self, GameError>;
    /// The algorithm's own parameters, as `key=value`, for the player string.
    fn params(&self) -> Vec<String> {
        Vec::new()
    }
    /// A new search starts (called once per [`Searcher::search`], before the iterations).
    fn new_search(&mut self) {}
    /// Forget what was learnt (transposition table).
    fn new_game(&mut self) {}
    /// Search the root to `depth` and return its value (side to move's view). The root's best move must be the first
    /// move of `ctx.pv.root()` when the function returns (unless the search was stopped).
    fn search_root<T: Tracer<G>>(&mut self, ctx: &mut Ctx<'_, G, T>, state: &G::State, depth: u32) -> i32;
}

/// The evaluation asked by `eval=NAME` in `spec`, checked against [`Knowledge::EVALUATIONS`]; `None` for the game's
/// `simple` one (`eval=simple`, `eval=default` or no `eval`). `who` names the player in the error.
pub(crate) fn eval_name<G: FullGame>(spec: &Spec, who: &str) -> Result<Option<String>, GameError> {
    let name = spec.eval("eval")?.filter(|n| n != "simple" && n != "default");
    if let Some(n) = &name {
        G::check_evaluation(n).map_err(|e| GameError::new(format!("{who}: {e}")))?;
    }
    Ok(name)
}

/// What every driver reads from its string: the limits (a depth of at most `max_depth`) and `id`. Not generic, as
/// [`driver_name`]: one copy for every driver of every game.
fn driver_settings(spec: &Spec, name: &str, max_depth: u32) -> Result<(Limits, bool), GameError> {
    let limits = Limits::from_spec(spec)?;
    if let Some(d) = limits.depth
        && d > max_depth
    {
        return Err(GameError::new(format!("{name}: depth={d} is too deep (at most {max_depth})")));
    }
    Ok((limits, spec.bool("id", false)?))
}

/// A driver's string: the algorithm's name with the limits, `id`, `eval` and the algorithm's own parameters.
fn driver_name(name: &str, limits: &Limits, iterate: bool, eval: Option<&str>, own: Vec<String>) -> String {
    let mut p = limits.spec_params();
    if iterate {
        p.push("id=true".into());
    }
    if let Some(eval) = eval {
        p.push(format!("eval={eval}"));
    }
    p.extend(own);
    if p.is_empty() { name.into() } else { format!("{name}({})", p.join(",")) }
}

/// Any catalogue algorithm as a [`Searcher`].
pub struct Driver<G: FullGame, A: Algorithm<G>> {
    pub limits: Limits,
    /// Iterative deepening at a fixed depth.
    pub(crate) iterate: bool,
    pub algo: A,
    /// `eval=NAME` (checked against [`Knowledge::EVALUATIONS`]); the evaluation is built for the game of the first search,
    /// and rebuilt when the game (its spec) changes. `None`: the game's `simple` evaluation.
    eval: NamedEval<G>,
    /// Set by another thread (a protocol's `stop`) to end the search with its best move so far.
    stop: Option<Arc<AtomicBool>>,
}

impl<G: FullGame, A: Algorithm<G>> Driver<G, A> {
    pub(crate) fn with_algorithm(limits: Limits, algo: A) -> Self {
        Driver { limits, iterate: false, algo, eval: NamedEval::new(None), stop: None }
    }

    /// Build from a parsed algorithm string (the caller checks unknown parameters with `spec.finish()`).
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let (limits, iterate) = driver_settings(spec, A::NAME, A::MAX_DEPTH)?;
        let algo = A::from_spec(spec)?;
        let eval_name = eval_name::<G>(spec, A::NAME)?;
        Ok(Driver { limits, iterate, algo, eval: NamedEval::new(eval_name), stop: None })
    }

    /// Search with the game's evaluation `name` (`None`: its `simple` one), as `eval=NAME` does.
    pub(crate) fn set_eval(&mut self, name: Option<String>) {
        self.eval.set_name(name);
    }

    /// Search and report the explored tree to `tracer`.
    pub(crate) fn search_traced<T: Tracer<G>>(
        &mut self,
        game: &G,
        state: &G::State,
        tracer: &mut T,
    ) -> SearchResult<G::Move> {
        let timed = self.limits.time.is_some() || self.limits.nodes.is_some();
        let max_depth =
            self.limits.depth.unwrap_or(if timed { TIMED_MAX_DEPTH } else { DEFAULT_DEPTH }).min(A::MAX_DEPTH);
        let iterate = timed || self.iterate || A::ITERATIVE;
        let first_depth = if iterate { max_depth.min(1) } else { max_depth };
        let start = Instant::now();
        let budget = self.limits.plan(game.side_to_move(state), MARGIN, SOFT_PERCENT);
        let limit = StopCheck::planned(start, budget, self.limits.nodes).with_flag(self.stop.as_deref());
        let mut ctx = Ctx::new(game, self.eval.get(game), limit, max_depth, tracer);
        let mut result = SearchResult {
            best_move: None,
            value: 0,
            depth: 0,
            pv: Vec::new(),
            stats: Default::default(),
            seconds: 0.0,
        };
        let mut moves = MoveList::new();
        game.generate_moves(state, &mut moves);
        result.best_move = moves.first().copied();
        self.algo.new_search();
        // Completed iterations the best move has not changed (a clock's soft limit scales with it).
        let mut stable = 0;
        for depth in first_depth..=max_depth {
            ctx.horizon = false;
            let v = self.algo.search_root(&mut ctx, state, depth);
            if ctx.stopped && depth > first_depth {
                break;
            }
            result.value = v;
            result.depth = depth;
            if let Some(&m) = ctx.pv.root().first() {
                stable = if result.pv.first() == Some(&m) { stable + 1 } else { 0 };
                result.best_move = Some(m);
                result.pv = ctx.pv.root().to_vec();
            }
            // Stop when time is short, a win or loss is proven, or the whole game tree was seen (no position was
            // cut by the horizon: a deeper iteration would repeat this one).
            if ctx.stopped
                || !ctx.limit.may_deepen_scaled(stability_pct(stable))
                || v.abs() >= WIN_THRESHOLD
                || !ctx.horizon
            {
                break;
            }
        }
        result.stats = ctx.stats;
        result.seconds = start.elapsed().as_secs_f64();
        result
    }
}

impl<G: FullGame, A: Algorithm<G>> Searcher<G> for Driver<G, A> {
    fn name(&self) -> String {
        driver_name(A::NAME, &self.limits, self.iterate, self.eval.name(), self.algo.params())
    }
    fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        self.search_traced(game, state, &mut NoTrace)
    }
    fn give_evaluation(&mut self, f: GivenEval<G>) -> Result<(), GameError> {
        self.eval.give(f);
        Ok(())
    }

    fn new_game(&mut self) {
        self.algo.new_game();
    }
    fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }
    fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }
}

/// What to do with the driver an algorithm string names: box it as a [`Searcher`], run it with a tracer, ...
pub trait Visit<G: FullGame> {
    /// What the visit returns.
    type Out;
    /// Run on the concrete driver.
    fn visit<A: Algorithm<G>>(self, driver: Driver<G, A>) -> Self::Out;
}

/// The names of the catalogue, with their aliases.
pub const NAMES: &[(&str, &[&str])] = &[
    ("minimax", &[]),
    ("negamax", &[]),
    ("alphabeta", &["ab"]),
    ("alphabeta_minmax", &["alphabeta_maxmin"]),
    ("alphabeta_failsoft", &["failsoft"]),
    ("palphabeta", &[]),
    ("scout", &[]),
    ("negascout", &[]),
    ("pvs", &[]),
    ("negacstar", &["negac"]),
    ("mtdf", &["mtd"]),
    ("sss", &["sss_star"]),
    ("mtsss", &["mt_sss"]),
    ("expectimax", &["expectiminimax"]),
    ("star1", &["star_1"]),
    ("star2", &["star_2"]),
];

/// The catalogue's algorithms that search chance nodes (they play deterministic games too, as negamax and alpha-beta).
pub const CHANCE: &[&str] = &["expectimax", "star1", "star2"];

/// The canonical name of a catalogue algorithm (resolving aliases), or `None`.
pub fn canonical(name: &str) -> Option<&'static str> {
    NAMES.iter().find(|(n, aliases)| *n == name || aliases.contains(&name)).map(|(n, _)| *n)
}

/// Whether the catalogue's algorithm `name` (canonical) searches games of `kind`: the chance algorithms ([`CHANCE`])
/// deterministic and chance games taken in turn, the others deterministic games of perfect information.
pub fn searches(name: &str, kind: Kind) -> bool {
    if CHANCE.contains(&name) { !kind.simultaneous && !kind.hidden } else { kind.is_classic() }
}

/// Build the driver named by `spec` and hand it to `visitor`; `Ok(None)` when the name is not in the catalogue, an
/// error when the algorithm does not search games of `G`'s kind ([`searches`]). The caller checks unknown parameters
/// with `spec.finish()`.
///
/// The kind is also tested at compile time (`if const`): no driver is compiled for a game it cannot search (the
/// minimax family for a game of chance, hidden information or simultaneous moves), which keeps the library's code
/// to the pairs that can meet (docs/architecture.md, "Tests and CI").
pub fn build<G: FullGame, V: Visit<G>>(spec: &Spec, visitor: V) -> Result<Option<V::Out>, GameError> {
    let Some(name) = canonical(&spec.name) else { return Ok(None) };
    let refused = || {
        GameError::new(format!(
            "{name} cannot search a game with {}: it needs {}",
            G::KIND.describe(),
            if CHANCE.contains(&name) {
                "a game taken in turn with perfect information"
            } else {
                "a deterministic game of perfect information"
            }
        ))
    };
    if CHANCE.contains(&name) {
        if const { G::KIND.simultaneous || G::KIND.hidden } {
            return Err(refused());
        }
        return Ok(Some(match name {
            "expectimax" => visitor.visit(Driver::<G, expectimax::Expectimax>::from_spec(spec)?),
            "star1" => visitor.visit(Driver::<G, star1::Star1>::from_spec(spec)?),
            "star2" => visitor.visit(Driver::<G, star2::Star2<G>>::from_spec(spec)?),
            _ => return Ok(None),
        }));
    }
    if const { !G::KIND.is_classic() } {
        return Err(refused());
    }
    Ok(Some(match name {
        "minimax" => visitor.visit(Driver::<G, minimax::Minimax>::from_spec(spec)?),
        "negamax" => visitor.visit(Driver::<G, negamax::Negamax>::from_spec(spec)?),
        "alphabeta" => visitor.visit(Driver::<G, alphabeta::AlphaBetaNegamax>::from_spec(spec)?),
        "alphabeta_minmax" => visitor.visit(Driver::<G, alphabeta_minmax::AlphaBetaMinMax>::from_spec(spec)?),
        "alphabeta_failsoft" => visitor.visit(Driver::<G, alphabeta_failsoft::FailSoft>::from_spec(spec)?),
        "palphabeta" => visitor.visit(Driver::<G, palphabeta::PAlphaBeta>::from_spec(spec)?),
        "scout" => visitor.visit(Driver::<G, scout::Scout>::from_spec(spec)?),
        "negascout" => visitor.visit(Driver::<G, negascout::NegaScout>::from_spec(spec)?),
        "pvs" => visitor.visit(Driver::<G, pvs::Pvs<G>>::from_spec(spec)?),
        "negacstar" => visitor.visit(Driver::<G, negacstar::NegaCStar>::from_spec(spec)?),
        "mtdf" => visitor.visit(Driver::<G, mtdf::Mtdf<G>>::from_spec(spec)?),
        "sss" => visitor.visit(Driver::<G, sss::Sss<G>>::from_spec(spec)?),
        "mtsss" => visitor.visit(Driver::<G, mtsss::MtSss<G>>::from_spec(spec)?),
        _ => return Ok(None),
    }))
}

/// The visitor that boxes the driver as a [`Searcher`].
pub(crate) struct Boxed;

impl<G: FullGame> Visit<G> for Boxed {
    type Out = Box<dyn Searcher<G>>;
    fn visit<A: Algorithm<G>>(self, driver: Driver<G, A>) -> Box<dyn Searcher<G>> {
        Box::new(driver)
    }
}

/// The visitor that runs one traced search.
pub struct Traced<'a, G: FullGame, T: Tracer<G>> {
    pub game: &'a G,
    pub state: &'a G::State,
    pub tracer: &'a mut T,
}

impl<G: FullGame, T: Tracer<G>> Visit<G> for Traced<'_, G, T> {
    type Out = (String, SearchResult<G::Move>);
    fn visit<A: Algorithm<G>>(self, mut driver: Driver<G, A>) -> Self::Out {
        let r = driver.search_traced(self.game, self.state, self.tracer);
        (driver.name(), r)
    }
}
