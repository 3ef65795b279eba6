//! Breadth-first search by layers: layer `d` holds the states first reached after `d` moves.
//!
//! ```text
//! BFS(start):
//!     if goal(start): return the empty path
//!     seen  = {key(start)}                 // hash table of every state reached
//!     layer = [start]
//!     while layer is not empty:
//!         next = []
//!         for n in layer:
//!             expanded += 1
//!             for each action a of n (except the one back to n's parent):
//!                 c = apply(n, a); generated += 1
//!                 if key(c) in seen: continue
//!                 add key(c) to seen; store c with parent n
//!                 if goal(c): return path(c) by following parents
//!                 next.append(c)
//!         layer = next
//!     return no path
//! ```
//!
//! The goal test happens when a state is generated, which is safe for BFS: the first goal generated is in the
//! shallowest layer that has one. BFS minimises the number of moves, which is the cost in every domain of this
//! module (all actions cost 1); the cost it reports is the sum of the action costs along the path.

use super::{ActionList, FastMap, Node, Outcome, Problem, SearchBounds, SearchResult, Stats, path_to};

/// Breadth-first search from the problem's start.
pub fn bfs<P: Problem>(p: &P, limits: SearchBounds) -> SearchResult<P::Action> {
    let mut stats = Stats { iterations: 1, generated: 1, ..Stats::default() };
    let start = p.start();
    if p.is_goal(&start) {
        stats.stored = 1;
        return SearchResult { outcome: Outcome::Found { path: Vec::new(), cost: 0 }, stats };
    }
    let mut nodes: Vec<Node<P::State, P::Action>> = vec![Node { state: start, parent: 0, action: None, g: 0 }];
    let mut seen: FastMap<P::Key, ()> = FastMap::default();
    seen.insert(p.key(&start), ());
    let mut layer: Vec<u32> = vec![0];
    let mut next: Vec<u32> = Vec::new();
    let mut acts = ActionList::new();
    while !layer.is_empty() {
        next.clear();
        for &idx in &layer {
            let n = nodes[idx as usize];
            stats.expanded += 1;
            p.actions(&n.state, &mut acts);
            for &a in &acts {
                let (c, cost) = p.apply(&n.state, a);
                if n.action.is_some() && c == nodes[n.parent as usize].state {
                    continue;
                }
                stats.generated += 1;
                let k = p.key(&c);
                if seen.contains_key(&k) {
                    continue;
                }
                if seen.len() >= limits.max_states {
                    stats.stored = seen.len() as u64;
                    let msg = format!("BFS stopped at its table limit of {} states", limits.max_states);
                    return SearchResult { outcome: Outcome::LimitReached(msg), stats };
                }
                seen.insert(k, ());
                let ci = nodes.len() as u32;
                nodes.push(Node { state: c, parent: idx, action: Some(a), g: n.g + cost });
                if p.is_goal(&c) {
                    stats.stored = seen.len() as u64;
                    return SearchResult {
                        outcome: Outcome::Found { path: path_to(&nodes, ci), cost: n.g + cost },
                        stats,
                    };
                }
                next.push(ci);
            }
        }
        std::mem::swap(&mut layer, &mut next);
    }
    stats.stored = seen.len() as u64;
    SearchResult { outcome: Outcome::NoPath, stats }
}

/// The number of distinct states in each BFS layer `0..=max_depth` (layer `d`: states whose shortest distance from
/// the start is `d` moves). Goal states are counted but not expanded when `stop_at_goals`. Fails when the table
/// would exceed `max_states`.
pub fn layer_sizes<P: Problem>(
    p: &P,
    max_depth: u32,
    stop_at_goals: bool,
    max_states: usize,
) -> Result<Vec<u64>, String> {
    let start = p.start();
    let mut seen: FastMap<P::Key, ()> = FastMap::default();
    seen.insert(p.key(&start), ());
    let mut layer = vec![start];
    let mut next = Vec::new();
    let mut sizes = vec![1u64];
    let mut acts = ActionList::new();
    for _ in 0..max_depth {
        next.clear();
        for s in &layer {
            if stop_at_goals && p.is_goal(s) {
                continue;
            }
            p.actions(s, &mut acts);
            for &a in &acts {
                let c = p.apply(s, a).0;
                if seen.insert(p.key(&c), ()).is_none() {
                    if seen.len() > max_states {
                        return Err(format!("more than {max_states} states: use a smaller board or depth"));
                    }
                    next.push(c);
                }
            }
        }
        sizes.push(next.len() as u64);
        std::mem::swap(&mut layer, &mut next);
        if layer.is_empty() {
            break;
        }
    }
    Ok(sizes)
}
