//! A*: best-first search on `f = g + h` with a hash table of visited states and path reconstruction.
//!
//! ```text
//! A*(start):
//!     nodes  = [start (parent none, g 0)]           // arena: every stored node, linked to its parent
//!     best   = {key(start): 0}                      // hash table: the cheapest g found per state
//!     open   = priority queue {(h(start), start)}   // by f, ties broken towards larger g (deeper first)
//!     while open is not empty:
//!         n = pop the entry with the smallest f
//!         if n.g > best[key(n)]: continue           // stale entry: a cheaper path was found later
//!         if goal(n): return path(n) by following parents, n.g
//!         expanded += 1
//!         for each action a of n (except the one back to n's parent):
//!             c, cost = apply(n, a); generated += 1
//!             g = n.g + cost
//!             if key(c) in best and best[key(c)] <= g: continue
//!             best[key(c)] = g; store c with parent n; push (g + h(c), c) on open
//!     return no path
//! ```
//!
//! With an admissible heuristic the first goal popped is optimal; with a consistent one no state is expanded twice
//! (an inconsistent one may re-open states, which this version allows). The table holds at most
//! `limits.max_states` states.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::{ActionList, Cost, FastMap, Node, Outcome, Problem, SearchBounds, SearchResult, Stats, path_to};

#[derive(PartialEq, Eq)]
struct Entry {
    f: Cost,
    g: Cost,
    idx: u32,
}

impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        // BinaryHeap is a max-heap: smallest f first, then largest g, then oldest node.
        o.f.cmp(&self.f).then(self.g.cmp(&o.g)).then(o.idx.cmp(&self.idx))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// A* from the problem's start.
pub fn astar<P: Problem>(p: &P, limits: SearchBounds) -> SearchResult<P::Action> {
    let mut stats = Stats { iterations: 1, generated: 1, ..Stats::default() };
    let start = p.start();
    let mut nodes: Vec<Node<P::State, P::Action>> = vec![Node { state: start, parent: 0, action: None, g: 0 }];
    let mut best: FastMap<P::Key, Cost> = FastMap::default();
    best.insert(p.key(&start), 0);
    let mut open = BinaryHeap::new();
    open.push(Entry { f: p.heuristic(&start), g: 0, idx: 0 });
    let mut acts = ActionList::new();
    while let Some(Entry { g, idx, .. }) = open.pop() {
        let n = nodes[idx as usize];
        if best.get(&p.key(&n.state)).is_some_and(|&b| b < g) {
            continue;
        }
        if p.is_goal(&n.state) {
            stats.stored = best.len() as u64;
            return SearchResult { outcome: Outcome::Found { path: path_to(&nodes, idx), cost: g }, stats };
        }
        stats.expanded += 1;
        p.actions(&n.state, &mut acts);
        for &a in &acts {
            let (c, cost) = p.apply(&n.state, a);
            if n.action.is_some() && c == nodes[n.parent as usize].state {
                continue;
            }
            stats.generated += 1;
            let g2 = g + cost;
            let k = p.key(&c);
            match best.get_mut(&k) {
                Some(b) if *b <= g2 => continue,
                Some(b) => *b = g2,
                None => {
                    if best.len() >= limits.max_states {
                        stats.stored = best.len() as u64;
                        let msg = format!("A* stopped at its table limit of {} states", limits.max_states);
                        return SearchResult { outcome: Outcome::LimitReached(msg), stats };
                    }
                    best.insert(k, g2);
                }
            }
            let ci = nodes.len() as u32;
            nodes.push(Node { state: c, parent: idx, action: Some(a), g: g2 });
            open.push(Entry { f: g2 + p.heuristic(&c), g: g2, idx: ci });
        }
    }
    stats.stored = best.len() as u64;
    SearchResult { outcome: Outcome::NoPath, stats }
}
