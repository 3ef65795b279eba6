//! Synthetic game trees: `random_tree(width=W,depth=D,seed=S,model=iid|incremental,ordering=...,range=R)`.
//!
//! A uniform tree of width `W` and depth `D` (in plies), deterministic from the seed and never stored: a node is
//! named by the path of child numbers from the root, and everything about it is a hash of its parent's key and its
//! child number (splitmix64). The nodes at depth `D` are terminal with `Outcome::Value(v)`, `v` from the side to move's
//! point of view (negamax convention); the root player is MAX.
//!
//! Models:
//! - `iid` (default): leaf values independent, uniform in `[-R, R]`; the children come in no particular order
//!   (`ordering` must stay `random`, since ordering i.i.d. leaves would need the subtree's value).
//! - `incremental`: values are built top-down, each node's from its parent's, so the minimax value of every node
//!   is known when it is created: the root gets `v0` uniform in `[-R, R]`; a node of value `v` (its own view) has one
//!   best child of value `-v` and the others of value `-v + δ`, `δ` uniform in `[1, R]` (worse for the node, never
//!   tied). Leaves get their node's value, so the minimax value of each node is exactly the value it was given.
//!   Because the best child is known, the `ordering` knob places it:
//!   `best` (or `perfect`, `1`): always first, the perfectly ordered tree of Knuth and Moore;
//!   `random` (`0`): at a uniformly random position; `worst` (or `reversed`, `-1`): children sorted from worst to best
//!   (best last); a number `q` in `[-1, 1]` mixes: for `q > 0` each node is perfectly ordered with probability `q`
//!   (else random), for `q < 0` reversed with probability `-q` (else random).
//!
//! The heuristic evaluation of an interior node (for searches shallower than the tree): `iid`, an independent uniform
//! value in `[-R, R]`; `incremental`, the node's exact value plus uniform noise in `[-N, N]`, `N` = `noise` (default
//! `R/2`). With `noise=0` an interior node is evaluated at its exact value, so a search stopped above the leaves sees
//! the same ordering as one that reaches them: a `best` tree is then perfectly ordered at every search depth.
//!
//! Moves are child numbers `1..=W`; a position is written as its path from the root, `2.1.3`, or `root`.

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{Evaluator, Game, GameError, MoveList, Outcome, Side, err};
use crate::games::tree_path::{format_path, parse_path};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

/// Deepest tree (the path is kept in the state).
pub(crate) const MAX_TREE_DEPTH: usize = 40;
/// Widest tree.
pub(crate) const MAX_TREE_WIDTH: u32 = 100;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    let p = |name, default, description| GameParam { name, default, description };
    GameInfo {
        name: "random_tree",
        aliases: &[],
        description: "synthetic uniform game tree, deterministic from the seed; leaves carry numeric values",
        parameters: vec![
            p("width", "3", "children per node, 1..=100"),
            p("depth", "4", "plies to the leaves, 0..=40"),
            p("seed", "1", "the tree's seed"),
            p("model", "iid", "iid (independent leaf values) or incremental (values built top-down from the root's)"),
            p("ordering", "random", "incremental model: best (perfectly ordered), random, worst (reversed), or -1..1"),
            p("range", "100", "values (and increments) drawn in [-range, range]"),
            p(
                "noise",
                "range/2",
                "incremental model: an interior node's evaluation is its exact value plus noise in [-noise, noise]; 0: exact (a best tree stays perfectly ordered at every search depth)",
            ),
            p(
                "values",
                "",
                "the leaves' values for the root player (MAX), left to right, separated by ';' (width^depth of them): a given tree such as the slides' examples",
            ),
        ],
    }
}

/// How leaf values are drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Model {
    Iid,
    Incremental,
}

/// The rules: the tree's shape, seed, model and ordering.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomTree {
    pub width: u32,
    pub depth: u32,
    pub seed: u64,
    pub model: Model,
    /// In `[-1, 1]`: 1 perfectly ordered, 0 random, -1 reversed.
    pub ordering: f64,
    pub range: i32,
    /// Incremental model: the amplitude of the noise added to an interior node's exact value by its evaluation.
    pub noise: i32,
    /// Given leaf values (root player's view, left to right) instead of drawn ones.
    pub values: Option<std::sync::Arc<[i32]>>,
}

/// A node: its key (a hash of the path), its value (incremental model, own view), its depth and its path.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RtState {
    pub key: u64,
    pub value: i32,
    pub ply: u8,
    pub path: [u8; MAX_TREE_DEPTH],
}

/// A child number, 0-based (written 1-based).
pub(crate) type RtMove = u8;

#[inline]
pub(crate) fn mix(a: u64, b: u64) -> u64 {
    let mut x = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A uniform integer in `[lo, hi]` from a hash.
#[inline]
pub(crate) fn uniform(h: u64, lo: i32, hi: i32) -> i32 {
    let span = (hi as i64 - lo as i64 + 1) as u64;
    (lo as i64 + ((h >> 11) % span) as i64) as i32
}

/// A uniform number in `[0, 1)` from a hash.
#[inline]
pub(crate) fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

const SALT_LEAF: u64 = 1;
const SALT_EVAL: u64 = 2;
const SALT_ROOT: u64 = 3;
const SALT_ORDER: u64 = 4;
const SALT_BEST: u64 = 5;
const SALT_DELTA: u64 = 6;
const SALT_NOISE: u64 = 7;

impl RandomTree {
    /// A synthetic tree of `width` and `depth` from `seed`, with its value model, move ordering and range (checked).
    pub fn new(width: u32, depth: u32, seed: u64, model: Model, ordering: f64, range: i32) -> Result<Self, GameError> {
        if width == 0 || width > MAX_TREE_WIDTH {
            return err(format!("random_tree: width={width}: expected 1..={MAX_TREE_WIDTH}"));
        }
        if depth as usize > MAX_TREE_DEPTH {
            return err(format!("random_tree: depth={depth}: expected 0..={MAX_TREE_DEPTH}"));
        }
        if !(-1.0..=1.0).contains(&ordering) || ordering.is_nan() {
            return err("random_tree: ordering must be best, random, worst or a number in [-1, 1]");
        }
        if model == Model::Iid && ordering != 0.0 {
            return err(
                "random_tree: ordering needs model=incremental (i.i.d. leaves cannot be ordered without searching the subtree)",
            );
        }
        if !(1..=1_000_000).contains(&range) {
            return err(format!("random_tree: range={range}: expected 1..=1000000"));
        }
        Ok(RandomTree { width, depth, seed, model, ordering, range, noise: range / 2, values: None })
    }

    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let width = spec.int("width", 3, 1, MAX_TREE_WIDTH as i64)? as u32;
        let depth = spec.int("depth", 4, 0, MAX_TREE_DEPTH as i64)? as u32;
        let seed = spec.count("seed")?.unwrap_or(1);
        let model = match spec.text("model").as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("iid") => Model::Iid,
            Some("incremental") | Some("inc") => Model::Incremental,
            Some(other) => return err(format!("random_tree: model={other}: expected iid or incremental")),
        };
        let ordering = match spec.text("ordering").as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("random") => 0.0,
            Some("best") | Some("perfect") => 1.0,
            Some("worst") | Some("reversed") => -1.0,
            Some(x) => x.parse::<f64>().map_err(|_| {
                GameError::new(format!(
                    "random_tree: ordering={x}: expected best, random, worst or a number in [-1, 1]"
                ))
            })?,
        };
        let range = spec.int("range", 100, 1, 1_000_000)? as i32;
        let noise = spec.count("noise")?;
        let values = spec.text("values");
        spec.finish()?;
        let mut tree = RandomTree::new(width, depth, seed, model, ordering, range)?;
        if let Some(n) = noise {
            if model != Model::Incremental {
                return err(
                    "random_tree: noise= is the incremental model's evaluation noise: it needs model=incremental",
                );
            }
            if n > range as u64 {
                return err(format!("random_tree: noise={n}: expected 0..={range} (at most the range)"));
            }
            tree.noise = n as i32;
        }
        if let Some(text) = values {
            tree.values = Some(parse_values(&text, width, depth, model)?);
        }
        Ok(tree)
    }

    fn root_key(&self) -> u64 {
        mix(self.seed, 0x005E_ED0F_7AEE)
    }

    /// The best child's position and whether the other children are sorted worst first, at the node `key`.
    #[inline]
    fn layout(&self, key: u64) -> (u32, bool) {
        let u = unit(mix(key, SALT_ORDER));
        let random_pos = (mix(key, SALT_BEST) >> 11) as u32 % self.width;
        if self.ordering > 0.0 && u < self.ordering {
            (0, false)
        } else if self.ordering < 0.0 && u < -self.ordering {
            (self.width - 1, true)
        } else {
            (random_pos, false)
        }
    }

    /// How much worse than the best child child `i` is (0 for the best child), at the node `key`.
    #[inline]
    fn delta(&self, key: u64, i: u32) -> i32 {
        let (best, reversed) = self.layout(key);
        if i == best {
            return 0;
        }
        let h = mix(key, SALT_DELTA ^ ((i as u64 + 1) << 8));
        if reversed {
            // Strictly decreasing with i: the worst child first.
            let step = (self.range / self.width as i32).max(1);
            1 + (self.width - 2 - i) as i32 * step + uniform(h, 0, step - 1)
        } else {
            uniform(h, 1, self.range)
        }
    }

    /// The value of the leaf at `s`, side to move's view.
    fn leaf_value(&self, s: &RtState) -> i32 {
        if let Some(v) = &self.values {
            let i = self.path(s).iter().fold(0usize, |i, &m| i * self.width as usize + m as usize);
            // Given for the root player; the leaf's value is from its side to move's point of view.
            return if self.depth.is_multiple_of(2) { v[i] } else { -v[i] };
        }
        match self.model {
            Model::Iid => uniform(mix(s.key, SALT_LEAF), -self.range, self.range),
            Model::Incremental => s.value,
        }
    }

    /// The path of `s` as child numbers (0-based).
    pub fn path<'a>(&self, s: &'a RtState) -> &'a [u8] {
        &s.path[..s.ply as usize]
    }
}

/// Leaf values `3;12;8;...`: exactly `width^depth` integers (at most 4096), with the default model.
fn parse_values(text: &str, width: u32, depth: u32, model: Model) -> Result<std::sync::Arc<[i32]>, GameError> {
    if model != Model::Iid {
        return err("random_tree: values= gives the leaves itself: it does not combine with model=incremental");
    }
    let want = (width as u64).checked_pow(depth).filter(|&n| n <= 4096);
    let Some(want) = want else {
        return err(format!("random_tree: values=: width^depth = {width}^{depth} leaves is too many (at most 4096)"));
    };
    let v: Vec<i32> = text
        .split([';', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.trim()
                .parse::<i32>()
                .map_err(|_| GameError::new(format!("random_tree: values=: '{w}' is not an integer")))
        })
        .collect::<Result<_, _>>()?;
    if v.len() as u64 != want {
        return err(format!(
            "random_tree: values=: {} values given, a tree of width {width} and depth {depth} has {want} leaves",
            v.len()
        ));
    }
    if v.iter().any(|x| x.abs() > 1_000_000) {
        return err("random_tree: values=: each value must be within [-1000000, 1000000]");
    }
    Ok(v.into())
}

impl Game for RandomTree {
    type State = RtState;

    type Move = RtMove;

    fn spec(&self) -> String {
        let mut p =
            vec![format!("width={}", self.width), format!("depth={}", self.depth), format!("seed={}", self.seed)];
        if self.model == Model::Incremental {
            p.push("model=incremental".into());
        }
        if self.ordering == 1.0 {
            p.push("ordering=best".into());
        } else if self.ordering == -1.0 {
            p.push("ordering=worst".into());
        } else if self.ordering != 0.0 {
            p.push(format!("ordering={}", self.ordering));
        }
        if self.range != 100 {
            p.push(format!("range={}", self.range));
        }
        if self.noise != self.range / 2 {
            p.push(format!("noise={}", self.noise));
        }
        if let Some(v) = &self.values {
            p.push(format!("values={}", v.iter().map(i32::to_string).collect::<Vec<_>>().join(";")));
        }
        format!("random_tree({})", p.join(","))
    }

    fn start(&self) -> RtState {
        let key = self.root_key();
        let value = match self.model {
            Model::Iid => 0,
            Model::Incremental => uniform(mix(key, SALT_ROOT), -self.range, self.range),
        };
        RtState { key, value, ply: 0, path: [0; MAX_TREE_DEPTH] }
    }

    fn side_to_move(&self, s: &RtState) -> Side {
        if s.ply.is_multiple_of(2) { Side::First } else { Side::Second }
    }

    fn generate_moves(&self, s: &RtState, moves: &mut MoveList<RtMove>) {
        moves.clear();
        if (s.ply as u32) < self.depth {
            moves.extend((0..self.width).map(|i| i as u8));
        }
    }

    #[inline]
    fn play(&self, s: &mut RtState, m: RtMove) {
        if self.model == Model::Incremental {
            s.value = -s.value + self.delta(s.key, m as u32);
        }
        s.path[s.ply as usize] = m;
        s.ply += 1;
        s.key = mix(s.key, m as u64 + 1);
    }

    fn outcome(&self, s: &RtState) -> Option<Outcome> {
        if s.ply as u32 >= self.depth { Some(Outcome::Value(self.leaf_value(s))) } else { None }
    }

    fn key(&self, s: &RtState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &RtState) -> u64 {
        self.path(s).iter().fold(self.root_key(), |k, &m| mix(k, m as u64 + 1))
    }

    fn parse_move(&self, s: &RtState, text: &str) -> Result<RtMove, GameError> {
        if s.ply as u32 >= self.depth {
            return err("this node is a leaf: no move");
        }
        let n: u32 = text
            .trim()
            .parse()
            .map_err(|_| GameError::new(format!("'{text}': a move is a child number 1..={}", self.width)))?;
        if n < 1 || n > self.width {
            return err(format!("'{text}': a move is a child number 1..={}", self.width));
        }
        Ok((n - 1) as u8)
    }

    fn format_move(&self, _s: &RtState, m: RtMove) -> String {
        (m as u32 + 1).to_string()
    }

    fn parse_position(&self, text: &str) -> Result<RtState, GameError> {
        parse_path(self, text)
    }

    fn format_position(&self, s: &RtState) -> String {
        format_path(self.path(s).iter().map(|&m| m as u32))
    }

    fn display(&self, s: &RtState) -> String {
        let who = if s.ply.is_multiple_of(2) { "MAX" } else { "MIN" };
        let mut out = format!(
            "{}\nnode {} (ply {} of {}), {} to move",
            self.spec(),
            self.format_position(s),
            s.ply,
            self.depth,
            who
        );
        if let Some(Outcome::Value(v)) = self.outcome(s) {
            out += &format!(", leaf value {v}");
        }
        out
    }
}

impl Capabilities for RandomTree {}

impl Knowledge for RandomTree {
    type Eval = RtEval;
}

impl Interop for RandomTree {
    fn max_game_length(&self) -> Option<u32> {
        Some(self.depth)
    }

    /// The leaves' bound: the given values' largest, `range` (iid), or the root's `range` and at most `range` a ply
    /// (incremental).
    fn max_utility(&self) -> f64 {
        let bound = match (&self.values, self.model) {
            (Some(v), _) => v.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0),
            (None, Model::Iid) => self.range.unsigned_abs(),
            (None, Model::Incremental) => self.range.unsigned_abs() * (self.depth + 1),
        };
        bound.max(1) as f64
    }

    /// `[depth, width]`: row `i` one-hot of the child taken at ply `i` (rows past the current ply zero). The path
    /// names the node, so this is everything there is to observe, the same for both players.
    fn observation_shape(&self) -> Vec<usize> {
        vec![self.depth as usize, self.width as usize]
    }

    fn observation_tensor(&self, s: &RtState, _player: Side, out: &mut [f32]) {
        for (ply, &child) in s.path[..s.ply as usize].iter().enumerate() {
            out[ply * self.width as usize + child as usize] = 1.0;
        }
    }
}

/// The heuristic evaluation of interior nodes (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct RtEval;

impl Evaluator<RandomTree> for RtEval {
    type Carry = ();

    fn evaluate(&self, g: &RandomTree, s: &RtState) -> i32 {
        if let Some(Outcome::Value(v)) = g.outcome(s) {
            return v;
        }
        match g.model {
            Model::Iid => uniform(mix(s.key, SALT_EVAL), -g.range, g.range),
            Model::Incremental => s.value + uniform(mix(s.key, SALT_NOISE), -g.noise, g.noise),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_playouts;

    fn tree(spec: &str) -> RandomTree {
        RandomTree::from_spec(&Spec::parse(spec).unwrap()).unwrap()
    }

    /// Plain negamax over the whole tree.
    fn value(g: &RandomTree, s: &RtState) -> i32 {
        match g.outcome(s) {
            Some(Outcome::Value(v)) => v,
            Some(_) => unreachable!("random trees end with values"),
            None => {
                let mut moves = MoveList::new();
                g.generate_moves(s, &mut moves);
                moves
                    .iter()
                    .map(|&m| {
                        let mut c = *s;
                        g.play(&mut c, m);
                        -value(g, &c)
                    })
                    .max()
                    .unwrap()
            }
        }
    }

    #[test]
    fn passes_the_game_checks() {
        for spec in ["random_tree", "random_tree(width=5,depth=6,seed=3,model=incremental,ordering=0.5)"] {
            let g = tree(spec);
            let cands: Vec<String> = (0..=6).map(|i| i.to_string()).collect();
            check_playouts(&g, &g.start(), 7, 20, &cands, 100).unwrap();
        }
    }

    #[test]
    fn deterministic_and_seed_dependent() {
        let a = tree("random_tree(width=4,depth=5,seed=9)");
        let b = tree("random_tree(width=4,depth=5,seed=9)");
        let c = tree("random_tree(width=4,depth=5,seed=10)");
        assert_eq!(value(&a, &a.start()), value(&b, &b.start()));
        let leaf = a.parse_position("1.2.3.4.1").unwrap();
        assert_eq!(a.outcome(&leaf), b.outcome(&b.parse_position("1.2.3.4.1").unwrap()));
        let leaves_a: Vec<_> =
            (1..=4).map(|i| a.outcome(&a.parse_position(&format!("1.1.1.1.{i}")).unwrap())).collect();
        let leaves_c: Vec<_> =
            (1..=4).map(|i| c.outcome(&c.parse_position(&format!("1.1.1.1.{i}")).unwrap())).collect();
        assert_ne!(leaves_a, leaves_c);
    }

    #[test]
    fn incremental_values_are_the_minimax_values() {
        for ordering in ["best", "random", "worst", "0.3", "-0.6"] {
            let g = tree(&format!("random_tree(width=3,depth=5,seed=4,model=incremental,ordering={ordering})"));
            // Every node's assigned value is its negamax value.
            let mut stack = vec![g.start()];
            while let Some(s) = stack.pop() {
                assert_eq!(value(&g, &s), s.value, "{ordering} at {}", g.format_position(&s));
                let mut moves = MoveList::new();
                g.generate_moves(&s, &mut moves);
                for &m in &moves {
                    let mut c = s;
                    g.play(&mut c, m);
                    stack.push(c);
                }
            }
        }
    }

    #[test]
    fn ordering_places_the_best_child() {
        let best = tree("random_tree(width=4,depth=3,seed=2,model=incremental,ordering=best)");
        let worst = tree("random_tree(width=4,depth=3,seed=2,model=incremental,ordering=worst)");
        for g in [&best, &worst] {
            let s = g.start();
            let kids: Vec<i32> = (0..4u8)
                .map(|m| {
                    let mut c = s;
                    g.play(&mut c, m);
                    -c.value // from the parent's view
                })
                .collect();
            let top = *kids.iter().max().unwrap();
            if g.ordering > 0.0 {
                assert_eq!(kids[0], top);
                assert!(kids[1..].iter().all(|&k| k < top));
            } else {
                assert!(kids.windows(2).all(|w| w[0] < w[1]), "reversed order: {kids:?}");
            }
        }
    }

    #[test]
    fn bad_parameters_are_errors() {
        for bad in [
            "random_tree(width=0)",
            "random_tree(width=101)",
            "random_tree(depth=41)",
            "random_tree(ordering=best)",
            "random_tree(model=incremental,ordering=2)",
            "random_tree(model=other)",
            "random_tree(model=incremental,ordering=sorted)",
            "random_tree(colour=red)",
        ] {
            assert!(RandomTree::from_spec(&Spec::parse(bad).unwrap()).is_err(), "{bad}");
        }
        let g = tree("random_tree(width=3,depth=2)");
        assert!(g.parse_position("1.4").is_err());
        assert!(g.parse_position("1.2.1").is_err());
        assert!(g.parse_position("x").is_err());
    }
}
