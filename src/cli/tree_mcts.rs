//! `plateau tree GAME --algo "mcts(...)"`: the top of the tree one MCTS search grew, as text (indented by ply),
//! `--json` or Graphviz `--dot`.
//!
//! ```text
//! search once with the player string (its limits: playouts, time, nodes; depth limits the tree's growth)
//! draw from the root, most visited first, the nodes with at least one visit, until --max-nodes nodes are drawn
//! each node: its move, visits, mean reward for the root's side to move (0..1) and, once proven, its exact value
//! ```

use std::collections::BinaryHeap;
use std::fmt::Write as _;

use anyhow::{Context, bail};

use crate::game::{FullGame, Game, Side, describe_score};
use crate::games::with_game;
use crate::mcts::Mcts;
use crate::mcts::tree::{Actor, Tree, for_player};
use crate::search::Searcher;
use crate::spec::Spec;

/// One drawn node of an MCTS tree (the root's side to move's view).
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct MctsNode {
    pub id: usize,
    pub parent: Option<usize>,
    #[serde(rename = "move")]
    pub mv: String,
    pub ply: u32,
    pub visits: u32,
    /// Mean reward for the root's side to move, 0 (loss) to 1 (win).
    pub mean: f64,
    /// The exact value for the root's side to move once proven (0, ½ or 1).
    pub proven: Option<f64>,
    /// A chance outcome (drawn by its probability) rather than a player's move.
    pub chance: bool,
}

/// The most visited nodes of `tree` from the root (best first), at most `max` of them, in drawing order.
pub(crate) fn top_nodes<G: FullGame>(game: &G, tree: &Tree<G>, root: &G::State, max: usize) -> Vec<MctsNode> {
    let me = game.side_to_move(root);
    let mut out: Vec<MctsNode> = Vec::new();
    let mut states = Vec::new();
    // (visits, node index, drawn parent)
    let mut heap = BinaryHeap::new();
    heap.push((tree.nodes[0].visits, 0usize, usize::MAX));
    while let Some((visits, i, parent)) = heap.pop() {
        if out.len() >= max {
            break;
        }
        let node = &tree.nodes[i];
        let (mv, state) = match node.mv {
            None => (String::new(), *root),
            Some(m) => {
                let mut s: G::State = states[parent];
                let text = game.format_move(&s, m);
                game.play(&mut s, m);
                (text, s)
            }
        };
        let id = out.len();
        let chance = parent != usize::MAX && tree.nodes[node.parent as usize].actor == Actor::Chance;
        out.push(MctsNode {
            id,
            parent: (parent != usize::MAX).then_some(parent),
            mv,
            ply: if parent == usize::MAX { 0 } else { out[parent].ply + 1 },
            visits,
            mean: for_player(node.mean(), me),
            proven: node.proven.map(|v| for_player(v as f64, me)),
            chance,
        });
        states.push(state);
        for c in node.children() {
            if tree.nodes[c].visits > 0 {
                heap.push((tree.nodes[c].visits, c, id));
            }
        }
    }
    out
}

/// The drawn nodes as an indented list, children under their parent, most visited first.
fn text(nodes: &[MctsNode]) -> String {
    let mut out = String::new();
    fn walk(nodes: &[MctsNode], i: usize, out: &mut String) {
        let n = &nodes[i];
        let name = if n.parent.is_none() { "root".to_string() } else { n.mv.clone() };
        let proof = match n.proven {
            Some(v) if v >= 1.0 => "  proven win",
            Some(v) if v <= 0.0 => "  proven loss",
            Some(_) => "  proven draw",
            None => "",
        };
        let _ = writeln!(out, "{}{name}  visits {}  mean {:.3}{proof}", "  ".repeat(n.ply as usize), n.visits, n.mean);
        for c in nodes.iter().filter(|c| c.parent == Some(i)) {
            walk(nodes, c.id, out);
        }
    }
    if !nodes.is_empty() {
        walk(nodes, 0, &mut out);
    }
    out
}

fn dot(title: &str, nodes: &[MctsNode]) -> String {
    let mut s = String::from("digraph mcts {\n  node [fontname=\"Helvetica\", fontsize=10];\n");
    let _ = writeln!(s, "  label=\"{}\";", title.replace('"', "'"));
    for n in nodes {
        let shape = if n.chance {
            "diamond"
        } else if n.ply.is_multiple_of(2) {
            "box"
        } else {
            "ellipse"
        };
        let colour = match n.proven {
            Some(v) if v >= 1.0 => "palegreen",
            Some(v) if v <= 0.0 => "lightpink",
            Some(_) => "lightgrey",
            None => "white",
        };
        let _ = writeln!(
            s,
            "  n{} [shape={shape}, style=filled, fillcolor={colour}, label=\"{}\\n{} visits\\n{:.3}\"];",
            n.id,
            if n.parent.is_none() { "root".into() } else { n.mv.replace('"', "'") },
            n.visits,
            n.mean
        );
        if let Some(p) = n.parent {
            let _ = writeln!(s, "  n{p} -> n{};", n.id);
        }
    }
    s.push_str("}\n");
    s
}

/// The registry's checks of a player string for `game` (its kind, unknown parameters).
fn registry_check<G: FullGame>(_game: &G, algo: &str) -> Result<(), crate::game::GameError> {
    crate::players::build::<G>(algo).map(|_| ())
}

/// The `tree` command for an `mcts(...)` string.
pub fn run(
    pos: &super::PositionArgs,
    algo: &str,
    max_nodes: usize,
    svg: Option<&str>,
    dot_file: Option<&str>,
    json: bool,
    out: &mut super::Out,
) -> anyhow::Result<()> {
    if svg.is_some() {
        bail!("tree: --svg draws the catalogue's searches; for mcts use --dot FILE or --json");
    }
    let any = pos.game()?;
    with_game!(&any, g => {
        let state = super::resolve_position(g, pos.position.as_deref(), pos.moves.as_deref())?;
        if g.is_terminal(&state) {
            bail!("the game is over in this position: there is nothing to search");
        }
        // The registry's checks first (the game's kind, unknown parameters), then the searcher itself.
        registry_check(g, algo)?;
        // The game's settings for mcts, as the registry lays them (`Knowledge::MCTS_DEFAULTS`).
        let spec = game_settings(g, Spec::parse(algo)?)?;
        let mut m = Mcts::from_spec(&spec)?;
        let r = m.search(g, &state);
        let tree = m.tree(0).context("the search grew no tree")?;
        let nodes = top_nodes(g, tree, &state, max_nodes);
        let best = r.best_move.map(|mv| g.format_move(&state, mv));
        let title = format!(
            "{} on {} from {}: best {}, value {} ({}), {} playouts, {} tree nodes, {:.3} s",
            m.name(), g.spec(), g.format_position(&state), best.as_deref().unwrap_or("-"), r.value,
            describe_score(r.value), r.stats.leaves, r.stats.nodes, r.seconds
        );
        if let Some(path) = dot_file {
            super::write_output(path, dot(&title, &nodes).as_bytes(), "--dot")?;
            eprintln!("wrote {path}");
        }
        if json {
            let side = if g.side_to_move(&state) == Side::First { "first" } else { "second" };
            out.json(serde_json::json!({
                "game": g.spec(), "position": g.format_position(&state), "algo": m.name(), "value": r.value,
                "best_move": best, "depth": r.depth, "nodes": r.stats.nodes, "leaves": r.stats.leaves,
                "playouts": r.stats.leaves, "seconds": r.seconds, "root_player": side, "tree": nodes,
            }));
        } else {
            println!("{title}");
            print!("{}", text(&nodes));
        }
        Ok(())
    })
}

/// `spec` with `game`'s settings for mcts where it gives none (`mcts::params::with_game_defaults`).
fn game_settings<G: FullGame>(_game: &G, spec: Spec) -> Result<Spec, crate::game::GameError> {
    crate::mcts::params::with_game_defaults::<G>(spec)
}
