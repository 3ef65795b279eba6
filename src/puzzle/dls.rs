//! Depth-limited depth-first search with a table of depths.
//!
//! ```text
//! DLS(start, L):
//!     if goal(start): return the empty path
//!     depth_of = {key(start): 0}             // hash table: the smallest depth at which each state was entered
//!     cut = false
//!     DFS(start, 0)
//!     return cut ? "limit reached" : "no path"
//!
//! DFS(n, d):                                 // n is expanded: its actions are generated
//!     expanded += 1
//!     for each action a of n (except the one back to n's parent):
//!         c = apply(n, a); generated += 1
//!         if key(c) in depth_of and depth_of[key(c)] <= d + 1: continue   // already entered as shallow or shallower
//!         depth_of[key(c)] = d + 1
//!         if goal(c): return the path to c
//!         if d + 1 == L: { if c has actions: cut = true }; continue
//!         DFS(c, d + 1)
//! ```
//!
//! The table makes DLS practical on graphs (a maze has many paths to one square): a state is searched again only when
//! it is reached by a strictly shorter path, so DLS finds a path of at most `L` moves whenever one exists. It returns
//! the *first* path it finds, not the shortest; [`ids`](super::ids) calls it with `L = 0, 1, 2, ...` to get a shortest
//! one. The recursion is run on an explicit stack of frames. Depth is counted in moves.

use super::{Cost, FastMap, Frame, Outcome, Problem, SearchBounds, SearchResult, Stats, stack_path};

/// Depth-limited search with limit `limit` (moves).
pub(crate) fn dls<P: Problem>(p: &P, limit: Cost, limits: SearchBounds) -> SearchResult<P::Action> {
    let mut stats = Stats { iterations: 1, generated: 1, ..Stats::default() };
    let mut table = FastMap::default();
    let outcome = match dls_into(p, limit, limits, &mut table, &mut stats) {
        Step::Done(o) => o,
        Step::Cut => Outcome::LimitReached(format!("no path within the depth limit of {limit} moves")),
    };
    SearchResult { outcome, stats }
}

/// How one depth-limited search ended: a final outcome, or "cut off at the limit" (a path may exist deeper).
pub(crate) enum Step<A> {
    Done(Outcome<A>),
    Cut,
}

/// One depth-limited search, adding to `stats` and reusing `table` (cleared first). Shared with IDS.
pub(crate) fn dls_into<P: Problem>(
    p: &P,
    limit: Cost,
    limits: SearchBounds,
    table: &mut FastMap<P::Key, Cost>,
    stats: &mut Stats,
) -> Step<P::Action> {
    let start = p.start();
    if p.is_goal(&start) {
        stats.stored = stats.stored.max(1);
        return Step::Done(Outcome::Found { path: Vec::new(), cost: 0 });
    }
    table.clear();
    table.insert(p.key(&start), 0);
    let root = Frame::new(p, start, 0, None);
    if limit == 0 {
        stats.stored = stats.stored.max(1);
        return if root.actions.is_empty() { Step::Done(Outcome::NoPath) } else { Step::Cut };
    }
    let mut cut = false;
    stats.expanded += 1;
    let mut stack: Vec<Frame<P>> = Vec::with_capacity(64);
    stack.push(root);
    let result = loop {
        let Some(top) = stack.last_mut() else {
            break if cut { Step::Cut } else { Step::Done(Outcome::NoPath) };
        };
        if top.next == top.actions.len() {
            stack.pop();
            continue;
        }
        let a = top.actions[top.next];
        top.next += 1;
        let (c, cost) = p.apply(&top.state, a);
        let g = top.g + cost;
        let depth = stack.len() as Cost;
        if stack.len() >= 2 && c == stack[stack.len() - 2].state {
            continue;
        }
        stats.generated += 1;
        let k = p.key(&c);
        match table.get_mut(&k) {
            Some(d) if *d <= depth => continue,
            Some(d) => *d = depth,
            None => {
                if table.len() >= limits.max_states {
                    stats.stored = stats.stored.max(table.len() as u64);
                    return Step::Done(Outcome::LimitReached(format!(
                        "the depth table reached its limit of {} states",
                        limits.max_states
                    )));
                }
                table.insert(k, depth);
            }
        }
        if p.is_goal(&c) {
            break Step::Done(Outcome::Found { path: stack_path(&stack, a), cost: g });
        }
        let frame = Frame::new(p, c, g, Some(a));
        if depth == limit {
            cut |= !frame.actions.is_empty();
            continue;
        }
        stats.expanded += 1;
        stack.push(frame);
    };
    stats.stored = stats.stored.max(table.len() as u64);
    result
}
