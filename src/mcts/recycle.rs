//! Memory: the node pool never grows past its budget. When it is full, the children of the least visited nodes are
//! freed, and between moves only the subtree of the new position is kept; both move the nodes they keep down to the
//! start of the pool, in order, so children stay contiguous and after their parent:
//!
//! ```text
//! recycle():                                 (the pool is full)
//!     T := the smallest power of two such that the nodes whose parent has at least T visits are at most half the pool
//!     compact(root 0, keep the children of a node when it has at least T visits or is on a path in flight)
//!
//! compact(root, keep):
//!     kept := {root};  for each kept node in order: its children are kept if keep(node), else it becomes a leaf
//!             again (its visits, rewards and bounds stay; a later visit expands it anew)
//!     renumber the kept nodes 0, 1, 2, ... in order and move each to its new index (parents and first children
//!     renumbered, the paths in flight too)
//! ```
//!
//! Visits never increase downwards, so the kept nodes are those of a "top" of the tree: the most visited lines. A
//! freed node's proof, if it had one, stays on the node itself (a proven node is never descended again).

use crate::game::FullGame;

use super::tree::{NONE, Tree};

const KEEP: u32 = 1;
/// On a path in flight: its children stay.
const PIN: u32 = 2;

impl<G: FullGame> Tree<G> {
    /// Free the children of the least visited nodes so that at most half the pool stays in use.
    pub(super) fn recycle(&mut self) {
        // How many nodes stay for each threshold 2^b: those whose parent has at least 2^b visits.
        let mut at_least = [0usize; 34];
        for node in &self.nodes[1..] {
            let v = self.nodes[node.parent as usize].visits;
            at_least[(u32::BITS - v.leading_zeros()) as usize] += 1;
        }
        for b in (0..at_least.len() - 1).rev() {
            at_least[b] += at_least[b + 1];
        }
        let target = self.capacity / 2;
        let b = (0..at_least.len()).find(|&b| at_least[b] <= target).unwrap_or(at_least.len() - 1);
        let threshold = if b == 0 { 0 } else { 1u64 << (b - 1) };
        self.compact(0, threshold);
        self.counts.recycled += 1;
    }

    /// Keep only the subtree of node `new_root` (which becomes node 0), children still contiguous.
    pub(crate) fn reroot(&mut self, new_root: u32) {
        self.compact(new_root, 0);
    }

    /// Keep `root` and, below it, the children of the kept nodes with at least `min_visits` visits (or on a path in
    /// flight); renumber in order.
    fn compact(&mut self, root: u32, min_visits: u64) {
        let len = self.nodes.len();
        let root = root as usize;
        let mut remap = std::mem::take(&mut self.remap);
        remap.clear();
        remap.resize(len, 0);
        for path in &self.paths {
            for &i in path.iter().take(path.len().saturating_sub(1)) {
                remap[i as usize] |= PIN;
            }
        }
        remap[root] |= KEEP;
        for i in root..len {
            if remap[i] & KEEP == 0 {
                continue;
            }
            let range = self.nodes[i].children();
            if i == root || remap[i] & PIN != 0 || self.nodes[i].visits as u64 >= min_visits {
                for c in range {
                    remap[c] |= KEEP;
                }
            } else if !range.is_empty() {
                let node = &mut self.nodes[i];
                (node.expanded, node.n_children, node.first_child) = (false, 0, NONE);
            }
        }
        let mut next = 0u32;
        for r in &mut remap[root..] {
            if *r & KEEP != 0 {
                *r = next;
                next += 1;
            } else {
                *r = NONE;
            }
        }
        for i in root..len {
            let j = remap[i];
            if j == NONE {
                continue;
            }
            let node = &mut self.nodes[i];
            if i == root {
                (node.parent, node.mv, node.prob) = (NONE, None, 1.0);
            } else {
                node.parent = remap[node.parent as usize];
            }
            if node.n_children > 0 {
                node.first_child = remap[node.first_child as usize];
            }
            self.nodes.swap(j as usize, i);
        }
        self.nodes.truncate(next as usize);
        for path in &mut self.paths {
            for i in path.iter_mut() {
                *i = remap[*i as usize];
            }
        }
        self.remap = remap;
    }

    /// The node reached from the root by the positions seen within `max_plies`, whose state is `target`.
    pub fn find(&self, game: &G, root: &G::State, target: &G::State, max_plies: u32) -> Option<u32> {
        let mut stack = vec![(0u32, *root, 0u32)];
        while let Some((n, s, d)) = stack.pop() {
            if s == *target {
                return Some(n);
            }
            if d >= max_plies {
                continue;
            }
            for i in self.nodes[n as usize].children() {
                let mut c = s;
                game.play(&mut c, self.nodes[i].mv.expect("a child has a move"));
                stack.push((i as u32, c, d + 1));
            }
        }
        None
    }
}
