//! A game tree given by its shape and values: `tree(text=...)` or `tree(file=PATH)`, any shape (the slides' trees).
//!
//! The text format is in [`text`] (`A(B(C(D=2 E=1) ...))`: labels, leaf values for the root player, children in
//! parentheses). The root is MAX (the first player); MAX and MIN alternate by ply. A node without children is
//! terminal with `Outcome::Value(v)`, `v` from its side to move's point of view (negamax convention: the given
//! value at even plies, its negation at odd plies). Interior nodes evaluate to their given value, or 0.
//!
//! Moves are the child's label (or its number `1..` when it has none); a position is a node's label, or its path
//! of child numbers (`2.1`, `root`), which names labelled nodes too. Without parameters the game is the course's alpha-beta walk-through (nodes
//! A..V of the slides "Exploration systématique de graphes"): `tree` alone replays it.

pub mod text;

use std::sync::Arc;

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{Evaluator, Game, GameError, MoveList, Outcome, Side, err};
use crate::games::random_tree::mix;
use crate::games::tree_path::format_path;
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;
use text::{TreeNode, format_tree, parse_tree};

/// The course's alpha-beta walk-through (`004_*`: nodes A..V; H, U and V are cut and their values not given).
pub(crate) const SLIDES_ALPHABETA: &str =
    "A(B(C(D=2 E=1) F(G=6 H=9)) I(J(K=8 L=3) M(N=5 O=2)) P(Q(R=3 S=4) T(U=0 V=0)))";

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    let p = |name, default, description| GameParam { name, default, description };
    GameInfo {
        name: "tree",
        aliases: &["given_tree"],
        description: "a game tree of any shape given as text: labels, leaf values for the root player (MAX)",
        parameters: vec![
            p(
                "text",
                "the slides' alpha-beta tree A..V",
                "the tree: A(B(D=2 E=1) C=5), children in parentheses, leaves LABEL=VALUE or VALUE (docs/course.md)",
            ),
            p("file", "", "read the tree's text from this file ('#' starts a comment)"),
        ],
    }
}

/// The rules: the nodes, shared (the tree is never copied).
#[derive(Clone, Debug, PartialEq)]
pub struct GivenTree {
    nodes: Arc<[TreeNode]>,
}

/// A node of the tree (its index in prefix order).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GtState {
    pub node: u32,
}

/// A parse error without its `(near '...')` quote of the text.
fn without_quote(e: &str) -> &str {
    e.split(" (near ").next().unwrap_or(e)
}

impl GivenTree {
    /// A tree from its text.
    pub(crate) fn from_text(text: &str) -> Result<Self, GameError> {
        Ok(GivenTree { nodes: parse_tree(text)?.into() })
    }

    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let text = spec.text("text");
        let file = spec.path("file")?;
        spec.finish()?;
        match (text, file) {
            (Some(_), Some(_)) => err("tree: give text= or file=, not both"),
            (Some(t), None) => Self::from_text(&t),
            (None, Some(f)) => {
                let t = crate::files::read_text(std::path::Path::new(&f), crate::files::MAX_TEXT, "tree file")
                    .map_err(|e| GameError::new(format!("tree: file={f}: {e}")))?;
                // The error gives where the text goes wrong, never the file's words.
                Self::from_text(&t).map_err(|e| GameError::new(format!("tree: file={f}: {}", without_quote(&e.0))))
            }
            (None, None) => Self::from_text(SLIDES_ALPHABETA),
        }
    }

    fn node(&self, s: &GtState) -> &TreeNode {
        &self.nodes[s.node as usize]
    }

    /// The node's label, if it has one.
    pub fn label(&self, s: &GtState) -> Option<&str> {
        self.node(s).label.as_deref()
    }

    /// A value given for MAX, seen from the side to move at `s`.
    fn view(&self, s: &GtState, v: i32) -> i32 {
        if self.node(s).ply.is_multiple_of(2) { v } else { -v }
    }

    /// The child numbers (0-based) from the root to `s`.
    fn path(&self, s: &GtState) -> Vec<u32> {
        let mut out = Vec::new();
        let mut i = s.node;
        while let Some(p) = self.nodes[i as usize].parent {
            let k = self.nodes[p as usize].children.iter().position(|&c| c == i).unwrap_or(0);
            out.push(k as u32);
            i = p;
        }
        out.reverse();
        out
    }
}

impl Game for GivenTree {
    type State = GtState;

    type Move = u8;

    fn spec(&self) -> String {
        format!("tree(text={})", format_tree(&self.nodes))
    }

    fn start(&self) -> GtState {
        GtState { node: 0 }
    }

    fn side_to_move(&self, s: &GtState) -> Side {
        if self.node(s).ply.is_multiple_of(2) { Side::First } else { Side::Second }
    }

    fn generate_moves(&self, s: &GtState, moves: &mut MoveList<u8>) {
        moves.clear();
        moves.extend((0..self.node(s).children.len()).map(|i| i as u8));
    }

    fn play(&self, s: &mut GtState, m: u8) {
        s.node = self.node(s).children[m as usize];
    }

    fn outcome(&self, s: &GtState) -> Option<Outcome> {
        let n = self.node(s);
        if n.children.is_empty() { Some(Outcome::Value(self.view(s, n.value.unwrap_or(0)))) } else { None }
    }

    fn key(&self, s: &GtState) -> u64 {
        mix(0x7EEE_61FE_0000, s.node as u64 + 1)
    }

    fn compute_key(&self, s: &GtState) -> u64 {
        self.key(s)
    }

    fn parse_move(&self, s: &GtState, text: &str) -> Result<u8, GameError> {
        let n = self.node(s);
        if n.children.is_empty() {
            return err("this node is a leaf: no move");
        }
        let t = text.trim();
        match (0..n.children.len() as u8).find(|&m| self.format_move(s, m) == t) {
            Some(m) => Ok(m),
            None => {
                let names: Vec<String> = (0..n.children.len() as u8).map(|m| self.format_move(s, m)).collect();
                err(format!("'{t}': a move is a child of this node: {}", names.join(", ")))
            }
        }
    }

    fn format_move(&self, s: &GtState, m: u8) -> String {
        let c = self.node(s).children[m as usize];
        self.nodes[c as usize].label.clone().unwrap_or_else(|| (m as u32 + 1).to_string())
    }

    fn parse_position(&self, text: &str) -> Result<GtState, GameError> {
        let t = text.trim();
        if let Some(i) = self.nodes.iter().position(|n| n.label.as_deref() == Some(t)) {
            return Ok(GtState { node: i as u32 });
        }
        // A path of child numbers, whether the children have labels or not.
        let mut s = self.start();
        if t.is_empty() || t == "root" {
            return Ok(s);
        }
        for part in t.split('.') {
            let kids = &self.node(&s).children;
            match part.parse::<usize>() {
                Ok(k) if (1..=kids.len()).contains(&k) => s.node = kids[k - 1],
                _ => {
                    return err(format!(
                        "position '{t}': not a label of the tree, nor a path of child numbers (1..={} at '{part}')",
                        kids.len()
                    ));
                }
            }
        }
        Ok(s)
    }

    fn format_position(&self, s: &GtState) -> String {
        match self.label(s) {
            Some(l) => l.to_string(),
            None => format_path(self.path(s)),
        }
    }

    fn display(&self, s: &GtState) -> String {
        let n = self.node(s);
        let who = if n.ply.is_multiple_of(2) { "MAX" } else { "MIN" };
        let mut out = format!("node {} (ply {}), {who} to move", self.format_position(s), n.ply);
        if n.children.is_empty() {
            out += &format!(", leaf value {} for MAX", n.value.unwrap_or(0));
        } else {
            let kids: Vec<String> = (0..n.children.len() as u8).map(|m| self.format_move(s, m)).collect();
            out += &format!(", children {}", kids.join(" "));
        }
        out
    }
}

impl Capabilities for GivenTree {}

impl Knowledge for GivenTree {
    type Eval = GtEval;
}

impl Interop for GivenTree {
    /// The deepest leaf's ply.
    fn max_game_length(&self) -> Option<u32> {
        self.nodes.iter().map(|n| n.ply).max()
    }

    /// The largest leaf value in magnitude (1 at least).
    fn max_utility(&self) -> f64 {
        let leaves = self.nodes.iter().filter(|n| n.children.is_empty());
        leaves.map(|n| n.value.unwrap_or(0).unsigned_abs()).max().unwrap_or(0).max(1) as f64
    }

    /// `[nodes]`: one-hot of the current node, numbered in the prefix order of the tree's text (the root is 0); the
    /// same for both players.
    fn observation_shape(&self) -> Vec<usize> {
        vec![self.nodes.len()]
    }

    fn observation_tensor(&self, s: &GtState, _player: Side, out: &mut [f32]) {
        out[s.node as usize] = 1.0;
    }
}

/// The evaluation: a node's given value (leaves: their value; interior nodes: the value written for them, or 0).
#[derive(Clone, Copy, Debug, Default)]
pub struct GtEval;

impl Evaluator<GivenTree> for GtEval {
    type Carry = ();

    fn evaluate(&self, g: &GivenTree, s: &GtState) -> i32 {
        g.view(s, g.node(s).value.unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_playouts;

    fn minimax(g: &GivenTree, s: &GtState) -> i32 {
        if let Some(Outcome::Value(v)) = g.outcome(s) {
            return v;
        }
        let mut moves = MoveList::new();
        g.generate_moves(s, &mut moves);
        moves
            .iter()
            .map(|&m| {
                let mut c = *s;
                g.play(&mut c, m);
                -minimax(g, &c)
            })
            .max()
            .unwrap()
    }

    #[test]
    fn the_slides_tree_is_the_default_and_is_worth_5() {
        let g = GivenTree::from_spec(&Spec::parse("tree").unwrap()).unwrap();
        assert_eq!(minimax(&g, &g.start()), 5);
        assert_eq!(g.format_position(&g.parse_position("M").unwrap()), "M");
        assert_eq!(g.format_position(&g.parse_position("2.2").unwrap()), "M");
        let s = g.play_moves(&g.start(), "I M O").unwrap();
        assert_eq!(g.outcome(&s), Some(Outcome::Value(-2)), "O is 2 for MAX, seen by MIN to move");
        let cands: Vec<String> = ["1", "2", "3", "B", "C", "X"].iter().map(|s| s.to_string()).collect();
        check_playouts(&g, &g.start(), 7, 20, &cands, 100).unwrap();
        let again = GivenTree::from_spec(&Spec::parse(&g.spec()).unwrap()).unwrap();
        assert_eq!(again, g);
    }

    #[test]
    fn unlabelled_nodes_are_named_by_paths_and_shapes_may_vary() {
        let g = GivenTree::from_text("(3 (1 (4 1)) 5)").unwrap();
        assert_eq!(minimax(&g, &g.start()), 5);
        let s = g.parse_position("2.2").unwrap();
        assert_eq!(g.format_position(&s), "2.2");
        assert!(g.parse_position("2.3").is_err());
        assert!(g.parse_move(&g.start(), "4").is_err());
    }

    #[test]
    fn bad_parameters_are_errors() {
        for bad in ["tree(text=A(B))", "tree(text=1,file=x)", "tree(file=/no/such/file)", "tree(width=3)"] {
            assert!(GivenTree::from_spec(&Spec::parse(bad).unwrap()).is_err(), "{bad}");
        }
    }
}
