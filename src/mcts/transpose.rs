//! Statistics by position (`tt=true`), as the course keeps them ("statistics stored per position in a table"):
//! visits and rewards keyed by `Game::key`, added up over every path of the tree that reaches the position.
//!
//! Of the three update rules of Childs, Brodeur & Kocsis (2008), plateau implements UCT2: the tree stays a tree (one
//! node per path, its own visits, bounds and children), every backup also adds the reward to the position's entry, and
//! selection reads a child's mean from its position's entry while the exploration term keeps the edge's own count
//! (`q(position) + c·sqrt(ln N(node) / n(edge))`). UCT1 is `tt=false` (each path learns alone); UCT3 (a node's value
//! the weighted mean of its children's) is not offered: it needs the values of every parent of a position refreshed.
//!
//! The table has a fixed size (a quarter of the `mem` budget): buckets of four entries, a missing position replaces
//! the least visited entry of its bucket (statistics only are lost, never a proof: proofs stay in the nodes).

/// One position's statistics.
#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    visits: u32,
    /// Sum of the rewards for `First`.
    reward: f64,
}

const BUCKET: usize = 4;

/// The table of positions.
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table within `bytes` (empty below one bucket).
    pub fn new(bytes: usize) -> Self {
        let n = bytes / std::mem::size_of::<Entry>();
        if n < BUCKET {
            return Table { entries: Vec::new(), mask: 0 };
        }
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        Table { entries: vec![Entry::default(); n], mask: n - BUCKET }
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let start = (key as usize) & self.mask & !(BUCKET - 1);
        start..start + BUCKET
    }

    /// Visits and sum of rewards for `First` of the position `key`.
    pub fn get(&self, key: u64) -> Option<(u32, f64)> {
        if self.entries.is_empty() {
            return None;
        }
        self.entries[self.bucket(key)].iter().find(|e| e.key == key && e.visits > 0).map(|e| (e.visits, e.reward))
    }

    /// One more visit of position `key` with `reward` for `First`.
    pub fn add(&mut self, key: u64, reward: f64) {
        if self.entries.is_empty() {
            return;
        }
        let range = self.bucket(key);
        let bucket = &mut self.entries[range];
        let slot = match bucket.iter().position(|e| e.key == key && e.visits > 0) {
            Some(i) => i,
            None => {
                let i = (0..BUCKET).min_by_key(|&i| bucket[i].visits).expect("a bucket has entries");
                bucket[i] = Entry { key, visits: 0, reward: 0.0 };
                i
            }
        };
        bucket[slot].visits += 1;
        bucket[slot].reward += reward;
    }
}
