//! Single-agent search: a small problem model and the classic algorithms over it, in the spirit of the `pathfinding`
//! crate (one clean API, any problem), with the instrumentation the course asks for.
//!
//! - The model: [`Problem`] (start state, legal actions, the state an action leads to and its cost, goal test,
//!   heuristic, hash key).
//! - The algorithms, one file each with its pseudo-code: [`astar`], [`bfs`] (by layers), [`dls`] (depth-limited, with a
//!   table of depths), [`ids`] (iterative deepening), [`idastar`]. [`solve`] dispatches on an [`Algorithm`].
//! - The domains: [`grid`] mazes, the [`number`] puzzle, [`sliding`]-tile puzzles (Manhattan distance or the additive
//!   pattern databases of [`pdb`]), Breakthrough [`race`]s, and Korf's 100 instances ([`korf`]).
//!
//! # Counting rules (every algorithm)
//! - `generated`: child states produced from an expanded state, one per action tried, *excluding the move straight
//!   back to the expanded state's parent*, which every algorithm prunes before counting (Korf 1985 did the same: "the
//!   operator that undoes the last move is not applied"). Duplicates, children cut off by a bound and children already
//!   in a table all count. The start state counts once, as generated when the search begins (so a search that finds
//!   the start to be a goal reports 1). Iterative algorithms add up all their iterations (the start still once).
//! - `expanded`: states whose actions were generated (a goal found is not expanded; a state cut off by a bound or
//!   skipped as a duplicate is not expanded).
//! - `iterations`: depth limits (IDS) or cost bounds (IDA*) tried; 1 for the others.
//! - `stored`: the largest number of states kept in a table at once (A*, BFS, DLS, IDS); 0 for IDA*, which stores only
//!   its path.
//!
//! With these rules, IDA* counts exactly what Korf (1985) counted for his 100 random 15-puzzle instances, provided the
//! actions are tried in the same order (the blank moves up, left, right, down; see [`sliding`] and `docs/puzzles.md`).

pub mod astar;
pub mod bfs;
pub(crate) mod dls;
pub mod grid;
pub mod idastar;
pub mod ids;
pub mod korf;
pub mod longest;
pub mod number;
pub mod pdb;
pub mod race;
pub mod sliding;

use std::fmt::Debug;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use arrayvec::ArrayVec;

/// Path costs and heuristic values.
pub(crate) type Cost = u32;

/// Largest number of actions a state may have (a Breakthrough race has at most 3 moves per piece, 32 pieces).
pub(crate) const MAX_ACTIONS: usize = 128;

/// Fixed-capacity action list: lives on the stack (or in a search frame), no allocation per node.
pub type ActionList<A> = ArrayVec<A, MAX_ACTIONS>;

/// A single-agent search problem.
pub trait Problem {
    /// A state: small and `Copy` (states are copied, never mutated in place).
    type State: Copy + Eq + Debug;
    /// An action, valid in the state it was generated from.
    type Action: Copy + Eq + Debug;
    /// What identifies a state in hash tables (an exact encoding, not a lossy hash).
    type Key: Copy + Eq + Hash + Debug;

    /// The start state.
    fn start(&self) -> Self::State;
    /// Whether `s` is a goal.
    fn is_goal(&self, s: &Self::State) -> bool;
    /// The legal actions of `s`, appended to `out` (cleared first), in the order the algorithms try them.
    fn actions(&self, s: &Self::State, out: &mut ActionList<Self::Action>);
    /// The state an action leads to, and the action's cost (positive).
    fn apply(&self, s: &Self::State, a: Self::Action) -> (Self::State, Cost);
    /// A lower bound on the cost from `s` to the nearest goal (0 = uninformed). A* and IDA* are optimal when it is
    /// admissible; A* without re-expansions when it is consistent too.
    fn heuristic(&self, _s: &Self::State) -> Cost {
        0
    }
    /// The hash key of `s`: equal keys for equal states.
    fn key(&self, s: &Self::State) -> Self::Key;
    /// An action in the domain's notation (`u`, `f`, `a2a3`).
    fn format_action(&self, s: &Self::State, a: Self::Action) -> String;
    /// What separates actions in a written solution (`""` for one-letter moves, `" "` otherwise).
    fn separator(&self) -> &'static str {
        ""
    }
}

/// The algorithms.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    AStar,
    Bfs,
    Dls,
    Ids,
    IdaStar,
}

impl Algorithm {
    /// Every algorithm, in the order `plateau puzzle` lists them.
    pub const ALL: [Algorithm; 5] =
        [Algorithm::AStar, Algorithm::Bfs, Algorithm::Dls, Algorithm::Ids, Algorithm::IdaStar];

    /// The algorithm named `text`, or an error naming the accepted ones.
    pub fn parse(text: &str) -> Result<Algorithm, String> {
        match text.trim().to_ascii_lowercase().replace(['-', '_', '*'], "").as_str() {
            "astar" | "a" => Ok(Algorithm::AStar),
            "bfs" => Ok(Algorithm::Bfs),
            "dls" | "dfs" => Ok(Algorithm::Dls),
            "ids" | "iddfs" => Ok(Algorithm::Ids),
            "idastar" | "ida" => Ok(Algorithm::IdaStar),
            _ => Err(format!("unknown algorithm '{text}': expected astar, bfs, dls, ids or idastar")),
        }
    }

    /// The algorithm's name, as `parse` reads it.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::Bfs => "bfs",
            Algorithm::Dls => "dls",
            Algorithm::Ids => "ids",
            Algorithm::IdaStar => "idastar",
        }
    }

    /// Whether the algorithm returns a cheapest path (A* and IDA* given an admissible heuristic; BFS and IDS count
    /// moves, which is the cost in every domain here). DLS returns the first path it finds within its limit.
    pub(crate) fn is_optimal(self) -> bool {
        !matches!(self, Algorithm::Dls)
    }
}

/// Bounds on a search, so that a hopeless one ends with a message instead of exhausting the machine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchBounds {
    /// DLS: the depth limit (moves). IDS, IDA*: the largest depth / cost bound tried.
    pub depth: Cost,
    /// A*, BFS, DLS, IDS: the largest number of states kept in the table.
    pub max_states: usize,
}

impl Default for SearchBounds {
    fn default() -> Self {
        SearchBounds { depth: 1_000_000, max_states: 5_000_000 }
    }
}

/// The counters, see the module documentation for what they count.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    pub expanded: u64,
    pub generated: u64,
    pub iterations: u32,
    pub stored: u64,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<A> {
    /// A path from the start to a goal, and its cost.
    Found { path: Vec<A>, cost: Cost },
    /// The whole reachable space was searched: no goal can be reached.
    NoPath,
    /// The search stopped at a limit (depth or table size) without finding a path; one may exist beyond it.
    LimitReached(String),
}

/// What [`solve`] returns.
#[derive(Clone, Debug)]
pub struct SearchResult<A> {
    pub outcome: Outcome<A>,
    pub stats: Stats,
}

impl<A> SearchResult<A> {
    /// The actions of the path found, if one was.
    pub fn path(&self) -> Option<&[A]> {
        match &self.outcome {
            Outcome::Found { path, .. } => Some(path),
            _ => None,
        }
    }
    /// The cost of the path found, if one was.
    pub fn cost(&self) -> Option<Cost> {
        match &self.outcome {
            Outcome::Found { cost, .. } => Some(*cost),
            _ => None,
        }
    }
}

/// Run one algorithm on a problem.
pub fn solve<P: Problem>(p: &P, algo: Algorithm, limits: SearchBounds) -> SearchResult<P::Action> {
    match algo {
        Algorithm::AStar => astar::astar(p, limits),
        Algorithm::Bfs => bfs::bfs(p, limits),
        Algorithm::Dls => dls::dls(p, limits.depth, limits),
        Algorithm::Ids => ids::ids(p, limits),
        Algorithm::IdaStar => idastar::idastar(p, limits),
    }
}

/// Replay a path from the start: the states visited (start included) and the total cost; `None` if an action is not
/// legal where it is played.
pub fn replay<P: Problem>(p: &P, path: &[P::Action]) -> Option<(Vec<P::State>, Cost)> {
    let mut s = p.start();
    let mut states = vec![s];
    let mut cost = 0;
    let mut acts = ActionList::new();
    for &a in path {
        p.actions(&s, &mut acts);
        if !acts.contains(&a) {
            return None;
        }
        let (t, c) = p.apply(&s, a);
        cost += c;
        s = t;
        states.push(s);
    }
    Some((states, cost))
}

/// Write a path in the domain's notation.
pub fn format_path<P: Problem>(p: &P, path: &[P::Action]) -> String {
    let mut s = p.start();
    let mut words = Vec::with_capacity(path.len());
    for &a in path {
        words.push(p.format_action(&s, a));
        s = p.apply(&s, a).0;
    }
    words.join(p.separator())
}

/// A fast multiplicative hasher for the tables (keys are exact encodings chosen by the problems, not attacker input).
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hasher for FxHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // A final mix so that keys differing only in high bits spread over the low bits hashbrown uses.
        let x = self.0 ^ (self.0 >> 29);
        x.wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (x >> 32)
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(SEED);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

/// `HashMap` with [`FxHasher`].
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// A stored search node (A*, BFS): the state, how it was reached, and its path cost.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<S, A> {
    pub state: S,
    pub parent: u32,
    pub action: Option<A>,
    pub g: Cost,
}

/// The actions from the root to node `idx` in an arena of nodes linked to their parents.
pub(crate) fn path_to<S, A: Copy>(nodes: &[Node<S, A>], mut idx: u32) -> Vec<A> {
    let mut path = Vec::new();
    while let Some(a) = nodes[idx as usize].action {
        path.push(a);
        idx = nodes[idx as usize].parent;
    }
    path.reverse();
    path
}

/// A depth-first search frame (DLS, IDS, IDA*): explicit stacks instead of recursion, so that a path thousands of moves
/// long (a big maze) cannot overflow the thread's stack.
pub(crate) struct Frame<P: Problem> {
    pub state: P::State,
    pub g: Cost,
    /// The action that led here from the frame below (`None` at the root).
    pub(crate) via: Option<P::Action>,
    pub actions: ActionList<P::Action>,
    pub next: usize,
}

impl<P: Problem> Frame<P> {
    pub fn new(p: &P, state: P::State, g: Cost, via: Option<P::Action>) -> Self {
        let mut actions = ActionList::new();
        p.actions(&state, &mut actions);
        Frame { state, g, via, actions, next: 0 }
    }
}

/// The path along a stack of frames, plus a last action.
pub(crate) fn stack_path<P: Problem>(stack: &[Frame<P>], last: P::Action) -> Vec<P::Action> {
    stack.iter().filter_map(|f| f.via).chain(std::iter::once(last)).collect()
}
