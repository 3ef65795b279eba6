//! IDA* (Korf 1985): depth-first searches bounded by `f = g + h`, the bound raised each time to the smallest `f` that
//! exceeded it.
//!
//! ```text
//! IDA*(start):
//!     bound = h(start)
//!     loop:
//!         t = SEARCH(start, 0, bound)
//!         if t = FOUND: return the path on the stack
//!         if t = infinity: return no path          // nothing was cut off: the space is exhausted
//!         bound = t
//!
//! SEARCH(n, g, bound):                             // n passed the bound test and is not a goal: expand it
//!     expanded += 1
//!     min = infinity
//!     for each action a of n (except the one back to n's parent):
//!         c, cost = apply(n, a); generated += 1
//!         f = g + cost + h(c)
//!         if f > bound: min = min(min, f); continue
//!         if goal(c): return FOUND
//!         t = SEARCH(c, g + cost, bound)
//!         if t = FOUND: return FOUND
//!         min = min(min, t)
//!     return min
//! ```
//!
//! Memory is the current path only. `generated` counts every child produced, cut off or not, over all iterations,
//! without the move back to the parent, plus 1 for the start state: the quantity Korf (1985) reported as "nodes
//! generated" for his 100 random 15-puzzle instances (with the blank's moves tried up, left, right, down, the
//! counts are equal to the node on 96 instances; see `docs/puzzles.md`). The last iteration stops at the first goal,
//! so the count depends on the order of the actions. The recursion runs on an explicit stack of frames.

use super::{Cost, Frame, Outcome, Problem, SearchBounds, SearchResult, Stats, stack_path};

/// IDA* from the problem's start; gives up when the bound would exceed `limits.depth`.
pub fn idastar<P: Problem>(p: &P, limits: SearchBounds) -> SearchResult<P::Action> {
    let mut stats = Stats { generated: 1, ..Stats::default() };
    let start = p.start();
    if p.is_goal(&start) {
        stats.iterations = 1;
        return SearchResult { outcome: Outcome::Found { path: Vec::new(), cost: 0 }, stats };
    }
    let mut bound = p.heuristic(&start);
    let mut stack: Vec<Frame<P>> = Vec::with_capacity(128);
    loop {
        if bound > limits.depth {
            let msg = format!("IDA* stopped: the next cost bound {bound} exceeds the limit {}", limits.depth);
            return SearchResult { outcome: Outcome::LimitReached(msg), stats };
        }
        stats.iterations += 1;
        let mut next = Cost::MAX;
        stack.clear();
        stack.push(Frame::new(p, start, 0, None));
        stats.expanded += 1;
        while let Some(top) = stack.last_mut() {
            if top.next == top.actions.len() {
                stack.pop();
                continue;
            }
            let a = top.actions[top.next];
            top.next += 1;
            let (c, cost) = p.apply(&top.state, a);
            let g = top.g + cost;
            let n = stack.len();
            if n >= 2 && c == stack[n - 2].state {
                continue;
            }
            stats.generated += 1;
            let f = g + p.heuristic(&c);
            if f > bound {
                next = next.min(f);
                continue;
            }
            if p.is_goal(&c) {
                return SearchResult { outcome: Outcome::Found { path: stack_path(&stack, a), cost: g }, stats };
            }
            stats.expanded += 1;
            stack.push(Frame::new(p, c, g, Some(a)));
        }
        if next == Cost::MAX {
            return SearchResult { outcome: Outcome::NoPath, stats };
        }
        bound = next;
    }
}
