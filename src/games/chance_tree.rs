//! Synthetic game trees with chance nodes, for the chance searches (`expectimax`, `star1`, `star2`):
//! `chance_tree(width=W,outcomes=K,depth=D,seed=S,model=iid|walk,probabilities=uniform|random,range=R)`.
//!
//! The *-minimax trees of Ballard: players' nodes at even plies (`W` moves each), chance nodes at odd plies (`K`
//! outcomes each), leaves at ply `D`; deterministic from the seed and never stored, like `random_tree` (a node is a
//! hash of its parent's key and its child number). A separate game from `random_tree` because a game's kind
//! (`Capabilities::KIND`, chance or not) is a property of its type, and the deterministic algorithms refuse chance games.
//!
//! ```text
//! ply 0  MAX  (W moves)        side to move MAX
//! ply 1  chance (K outcomes)   side to move MIN (who moves after the draw)
//! ply 2  MIN  (W moves)
//! ply 3  chance                side to move MAX
//! ply 4  MAX ...               leaves at ply D: a value from the side to move's view
//! ```
//!
//! Models (values are drawn in `[-R, R]`, `Capabilities::value_bound` is `R`):
//! - `iid` (default): leaf values independent and uniform; the evaluation of an interior node is an independent
//!   uniform value (it tells nothing).
//! - `walk`: every edge adds a uniform step in `[-R/D, R/D]` to a running value for MAX; a leaf is worth the sum of
//!   its path, an interior node is evaluated at the sum so far, an unbiased guess (the steps below average 0). The
//!   evaluation is informative, as a real game's, so move ordering and Star2's probes have something to work with.
//!
//! Probabilities: `uniform` (each outcome `1/K`, the dice of most games) or `random` (weights drawn in `1..=10` per
//! node, then normalised). Moves and outcomes are written as child numbers `1..`; a position is its path, `2.1.3`, or
//! `root`.

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{ChanceList, Evaluator, Game, GameError, Kind, MoveList, Outcome, Side, Turn, err};
use crate::games::random_tree::{MAX_TREE_DEPTH, MAX_TREE_WIDTH, mix, uniform};
use crate::games::tree_path::{format_path, parse_path};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    let p = |name, default, description| GameParam { name, default, description };
    GameInfo {
        name: "chance_tree",
        aliases: &["random_chance_tree"],
        description: "synthetic game tree with chance nodes at odd plies (Ballard's *-minimax trees), deterministic \
from the seed",
        parameters: vec![
            p("width", "3", "moves per player's node, 1..=100"),
            p("outcomes", "width", "outcomes per chance node, 1..=100"),
            p("depth", "4", "plies to the leaves (chance plies included), 0..=40"),
            p("seed", "1", "the tree's seed"),
            p("model", "iid", "iid (independent values) or walk (values are sums of steps along the path)"),
            p("probabilities", "uniform", "uniform or random (drawn per chance node)"),
            p("range", "100", "values lie in [-range, range]"),
        ],
    }
}

/// How values are drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChanceModel {
    Iid,
    Walk,
}

/// The rules: the tree's shape, seed and models.
#[derive(Clone, Debug, PartialEq)]
pub struct ChanceTree {
    pub width: u32,
    pub outcomes: u32,
    pub depth: u32,
    pub seed: u64,
    pub model: ChanceModel,
    pub uniform: bool,
    pub range: i32,
}

/// A node: its key, the running value for MAX (`walk`), its ply and its path.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CtState {
    pub key: u64,
    pub sum: i32,
    pub ply: u8,
    pub path: [u8; MAX_TREE_DEPTH],
}

const SALT_LEAF: u64 = 11;
const SALT_EVAL: u64 = 12;
const SALT_STEP: u64 = 13;
const SALT_WEIGHT: u64 = 14;

impl ChanceTree {
    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let width = spec.int("width", 3, 1, MAX_TREE_WIDTH as i64)? as u32;
        let outcomes = spec.int("outcomes", width as i64, 1, MAX_TREE_WIDTH as i64)? as u32;
        let depth = spec.int("depth", 4, 0, MAX_TREE_DEPTH as i64)? as u32;
        let seed = spec.count("seed")?.unwrap_or(1);
        let model = match spec.text("model").as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("iid") => ChanceModel::Iid,
            Some("walk") => ChanceModel::Walk,
            Some(other) => return err(format!("chance_tree: model={other}: expected iid or walk")),
        };
        let uniform = match spec.text("probabilities").as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("uniform") => true,
            Some("random") => false,
            Some(other) => return err(format!("chance_tree: probabilities={other}: expected uniform or random")),
        };
        let range = spec.int("range", 100, 1, 1_000_000)? as i32;
        spec.finish()?;
        Ok(ChanceTree { width, outcomes, depth, seed, model, uniform, range })
    }

    fn root_key(&self) -> u64 {
        mix(self.seed, 0xC4A2_CE7E_E000)
    }

    fn is_chance_ply(ply: u8) -> bool {
        ply % 2 == 1
    }

    /// The player whose view a node's value takes.
    fn side(ply: u8) -> Side {
        if (ply as u32).div_ceil(2).is_multiple_of(2) { Side::First } else { Side::Second }
    }

    /// The largest step of the walk model.
    fn step(&self) -> i32 {
        (self.range / self.depth.max(1) as i32).max(1)
    }

    /// A value for MAX seen by the side to move at `s`.
    fn view(s: &CtState, v: i32) -> i32 {
        if Self::side(s.ply) == Side::First { v } else { -v }
    }

    fn path<'a>(&self, s: &'a CtState) -> &'a [u8] {
        &s.path[..s.ply as usize]
    }

    fn children(&self, s: &CtState) -> u32 {
        if s.ply as u32 >= self.depth {
            0
        } else if Self::is_chance_ply(s.ply) {
            self.outcomes
        } else {
            self.width
        }
    }
}

impl Game for ChanceTree {
    type State = CtState;

    type Move = u8;

    fn spec(&self) -> String {
        let mut p = vec![format!("width={}", self.width)];
        if self.outcomes != self.width {
            p.push(format!("outcomes={}", self.outcomes));
        }
        p.extend([format!("depth={}", self.depth), format!("seed={}", self.seed)]);
        if self.model == ChanceModel::Walk {
            p.push("model=walk".into());
        }
        if !self.uniform {
            p.push("probabilities=random".into());
        }
        if self.range != 100 {
            p.push(format!("range={}", self.range));
        }
        format!("chance_tree({})", p.join(","))
    }

    fn start(&self) -> CtState {
        CtState { key: self.root_key(), sum: 0, ply: 0, path: [0; MAX_TREE_DEPTH] }
    }

    fn side_to_move(&self, s: &CtState) -> Side {
        Self::side(s.ply)
    }

    fn generate_moves(&self, s: &CtState, moves: &mut MoveList<u8>) {
        moves.clear();
        moves.extend((0..self.children(s)).map(|i| i as u8));
    }

    fn play(&self, s: &mut CtState, m: u8) {
        if self.model == ChanceModel::Walk {
            let st = self.step();
            s.sum += uniform(mix(s.key, SALT_STEP ^ ((m as u64 + 1) << 8)), -st, st);
        }
        s.path[s.ply as usize] = m;
        s.ply += 1;
        s.key = mix(s.key, m as u64 + 1);
    }

    fn outcome(&self, s: &CtState) -> Option<Outcome> {
        if (s.ply as u32) < self.depth {
            return None;
        }
        Some(Outcome::Value(match self.model {
            ChanceModel::Iid => uniform(mix(s.key, SALT_LEAF), -self.range, self.range),
            ChanceModel::Walk => Self::view(s, s.sum),
        }))
    }

    fn key(&self, s: &CtState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &CtState) -> u64 {
        self.path(s).iter().fold(self.root_key(), |k, &m| mix(k, m as u64 + 1))
    }

    fn parse_move(&self, s: &CtState, text: &str) -> Result<u8, GameError> {
        let n = self.children(s);
        if n == 0 {
            return err("this node is a leaf: no move");
        }
        match text.trim().parse::<u32>() {
            Ok(k) if (1..=n).contains(&k) => Ok((k - 1) as u8),
            _ => err(format!("'{}': a move is a child number 1..={n}", text.trim())),
        }
    }

    fn format_move(&self, _s: &CtState, m: u8) -> String {
        (m as u32 + 1).to_string()
    }

    fn parse_position(&self, text: &str) -> Result<CtState, GameError> {
        parse_path(self, text)
    }

    fn format_position(&self, s: &CtState) -> String {
        format_path(self.path(s).iter().map(|&m| m as u32))
    }

    fn display(&self, s: &CtState) -> String {
        let who = match (self.turn(s), Self::side(s.ply)) {
            (Turn::Chance, _) => "chance draws",
            (_, Side::First) => "MAX to move",
            _ => "MIN to move",
        };
        let mut out = format!("{}\nnode {} (ply {} of {}), ", self.spec(), self.format_position(s), s.ply, self.depth);
        match self.outcome(s) {
            Some(Outcome::Value(v)) => out += &format!("leaf value {v} (side to move's view)"),
            _ => out += who,
        }
        out
    }
}

impl Capabilities for ChanceTree {
    const KIND: Kind = Kind { chance: true, simultaneous: false, hidden: false };

    fn turn(&self, s: &CtState) -> Turn {
        if Self::is_chance_ply(s.ply) { Turn::Chance } else { Turn::Player(Self::side(s.ply)) }
    }

    fn chance_outcomes(&self, s: &CtState, outcomes: &mut ChanceList<u8>) {
        outcomes.clear();
        if !Self::is_chance_ply(s.ply) || s.ply as u32 >= self.depth {
            return;
        }
        let k = self.outcomes;
        if self.uniform {
            outcomes.extend((0..k).map(|i| (i as u8, 1.0 / k as f64)));
        } else {
            let w = |i: u32| uniform(mix(s.key, SALT_WEIGHT ^ ((i as u64 + 1) << 8)), 1, 10) as f64;
            let total: f64 = (0..k).map(w).sum();
            outcomes.extend((0..k).map(|i| (i as u8, w(i) / total)));
        }
    }

    fn value_bound(&self) -> i32 {
        self.range
    }
}

impl Knowledge for ChanceTree {
    type Eval = CtEval;
}

impl Interop for ChanceTree {
    fn max_game_length(&self) -> Option<u32> {
        Some(self.depth)
    }

    /// `[depth, max(width, outcomes)]`: row `i` one-hot of the move or outcome taken at ply `i` (rows past the
    /// current ply zero), the same for both players.
    fn observation_shape(&self) -> Vec<usize> {
        vec![self.depth as usize, self.width.max(self.outcomes) as usize]
    }

    fn observation_tensor(&self, s: &CtState, _player: Side, out: &mut [f32]) {
        let row = self.width.max(self.outcomes) as usize;
        for (ply, &child) in s.path[..s.ply as usize].iter().enumerate() {
            out[ply * row + child as usize] = 1.0;
        }
    }
}

/// The evaluation of interior nodes (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct CtEval;

impl Evaluator<ChanceTree> for CtEval {
    type Carry = ();

    fn evaluate(&self, g: &ChanceTree, s: &CtState) -> i32 {
        if let Some(Outcome::Value(v)) = g.outcome(s) {
            return v;
        }
        match g.model {
            ChanceModel::Iid => uniform(mix(s.key, SALT_EVAL), -g.range, g.range),
            ChanceModel::Walk => ChanceTree::view(s, s.sum),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_playouts;

    fn tree(spec: &str) -> ChanceTree {
        ChanceTree::from_spec(&Spec::parse(spec).unwrap()).unwrap()
    }

    #[test]
    fn passes_the_game_checks_and_stays_in_its_bound() {
        for spec in ["chance_tree", "chance_tree(width=4,outcomes=6,depth=7,seed=3,model=walk,probabilities=random)"] {
            let g = tree(spec);
            let cands: Vec<String> = (0..=7).map(|i| i.to_string()).collect();
            check_playouts(&g, &g.start(), 7, 30, &cands, 100).unwrap();
            let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(1);
            for _ in 0..50 {
                let (o, _) = g.random_playout(&g.start(), &mut rng);
                assert!(matches!(o, Outcome::Value(v) if v.abs() <= g.value_bound()), "{o:?}");
            }
        }
    }

    #[test]
    fn chance_nodes_sit_at_odd_plies_and_sides_alternate_every_two() {
        let g = tree("chance_tree(width=2,depth=5)");
        let sides: Vec<(Turn, Side)> = (0..5u8)
            .map(|ply| {
                let s = g.parse_position(&vec!["1"; ply as usize].join(".")).unwrap();
                (g.turn(&s), g.side_to_move(&s))
            })
            .collect();
        assert_eq!(sides[0], (Turn::Player(Side::First), Side::First));
        assert_eq!(sides[1], (Turn::Chance, Side::Second));
        assert_eq!(sides[2], (Turn::Player(Side::Second), Side::Second));
        assert_eq!(sides[3], (Turn::Chance, Side::First));
        assert_eq!(sides[4], (Turn::Player(Side::First), Side::First));
    }

    #[test]
    fn bad_parameters_are_errors() {
        for bad in [
            "chance_tree(width=0)",
            "chance_tree(outcomes=101)",
            "chance_tree(model=inc)",
            "chance_tree(probabilities=x)",
        ] {
            assert!(ChanceTree::from_spec(&Spec::parse(bad).unwrap()).is_err(), "{bad}");
        }
        assert!(tree("chance_tree(depth=2)").parse_position("1.4").is_err());
    }
}
