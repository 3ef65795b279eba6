//! A recorded search tree turned into nodes ready to draw (moves named, values and windows from MAX's view, pruned
//! moves counted): what `plateau tree` draws as SVG or DOT and the web page draws interactively.

use crate::game::{FullGame, MoveList};
use crate::search::trace::{NodeType, Recorder};

/// A node ready to draw.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct DrawNode {
    pub id: usize,
    pub parent: Option<usize>,
    /// The move from the parent (empty for a root).
    #[serde(rename = "move")]
    pub mv: String,
    pub ply: u32,
    /// Value and window from MAX's view (`None`: never returned).
    pub value: Option<i32>,
    pub alpha: i32,
    pub beta: i32,
    pub leaf: bool,
    pub cutoff: bool,
    pub(crate) research: bool,
    /// Knuth-Moore type 1, 2, 3.
    #[serde(rename = "type")]
    pub(crate) node_type: Option<u8>,
    /// Moves never looked at below this node.
    pub pruned: usize,
    /// Those moves, named (the cut branches).
    pub pruned_moves: Vec<String>,
    #[serde(skip)]
    pub children: Vec<usize>,
}

/// Turn a recording into drawable nodes (MAX's view, moves named, pruned moves counted).
pub(crate) fn draw_nodes<G: FullGame>(game: &G, rec: &Recorder<G>) -> Vec<DrawNode> {
    let mut out: Vec<DrawNode> = Vec::with_capacity(rec.nodes.len());
    let mut moves = MoveList::new();
    for (i, n) in rec.nodes.iter().enumerate() {
        let max_node = n.ply.is_multiple_of(2);
        let (alpha, beta) = if max_node { (n.alpha, n.beta) } else { (-n.beta, -n.alpha) };
        let mv = match n.parent {
            None => String::new(),
            Some(p) => {
                let ps = &rec.nodes[p as usize].state;
                game.generate_moves(ps, &mut moves);
                moves
                    .iter()
                    .find(|&&m| {
                        let mut c = *ps;
                        game.play(&mut c, m);
                        c == n.state
                    })
                    .map(|&m| game.format_move(ps, m))
                    .unwrap_or_else(|| "?".into())
            }
        };
        let pruned_moves: Vec<String> = if n.value.is_some() && !n.leaf {
            game.generate_moves(&n.state, &mut moves);
            moves
                .iter()
                .filter(|&&m| {
                    let mut c = n.state;
                    game.play(&mut c, m);
                    !n.children.iter().any(|&k| rec.nodes[k as usize].state == c)
                })
                .map(|&m| game.format_move(&n.state, m))
                .collect()
        } else {
            Vec::new()
        };
        out.push(DrawNode {
            id: i,
            parent: n.parent.map(|p| p as usize),
            mv,
            ply: n.ply,
            value: n.value.map(|v| if max_node { v } else { -v }),
            alpha,
            beta,
            leaf: n.leaf,
            cutoff: n.cutoff,
            research: n.research,
            node_type: n.node_type().map(|t| match t {
                NodeType::Pv => 1,
                NodeType::Cut => 2,
                NodeType::All => 3,
            }),
            pruned: pruned_moves.len(),
            pruned_moves,
            children: n.children.iter().map(|&c| c as usize).collect(),
        });
    }
    out
}
