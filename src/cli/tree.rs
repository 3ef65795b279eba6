//! `plateau tree GAME --algo SPEC --depth D --svg FILE --dot FILE`: the tree one search explored, drawn from a real
//! run through the tracing hook (`search/trace.rs`).
//!
//! Each visit is one node (a re-searched move appears twice: the minimal-window test, then the re-search, drawn
//! with an orange dashed outline and edge). MAX nodes (the root player to move) are squares, MIN nodes circles.
//! Numbers are from the root player's (MAX's) point of view: the node's value and, below it, the window `[α, β]` it
//! was searched with. Fill colours give the Knuth-Moore type of the visit, read from its window and result: type 1
//! (PV, exact value inside the window) gold, type 2 (CUT, value >= β, the node stopped early) red, type 3 (ALL,
//! value <= α, every move searched) blue; grey for a visit that never returned. A dashed grey stub "✂ k" marks the
//! k moves a node never looked at (its cut-off branches). SSS* has no window: its nodes show the upper bound `h`
//! their state carried when examined (as `[-∞, h]`), and are green once solved. Window drivers (MTD(f), NegaC*, MT-SSS*) and iterative
//! deepening search the root several times: each pass is drawn as its own tree, left to right.
//!
//! Limited to small trees: beyond `--max-nodes` (400 by default) the command stops with an error. An `mcts(...)`
//! string draws the top of its tree instead (`tree_mcts.rs`).

use std::fmt::Write as _;

use anyhow::{Context, bail};
use clap::Args;

use crate::game::{Game, MoveList};
use crate::games::with_game;
use crate::search::INFINITY;
use crate::search::catalogue::{self, Traced};
use crate::search::trace::{NodeType, Recorder};
use crate::spec::Spec;

#[derive(Args, Debug)]
pub struct TreeArgs {
    #[command(flatten)]
    pos: super::PositionArgs,
    /// The algorithm string, e.g. `alphabeta`, `negascout`, `sss`.
    #[arg(long, default_value = "alphabeta")]
    algo: String,
    /// Search depth (overrides the algorithm string's).
    #[arg(long)]
    depth: Option<u32>,
    /// Write the picture as SVG.
    #[arg(long)]
    svg: Option<String>,
    /// Write the tree as Graphviz DOT.
    #[arg(long)]
    dot: Option<String>,
    /// Largest tree drawn (at most 2000).
    #[arg(long, default_value_t = 400)]
    max_nodes: usize,
    /// Print one JSON document (the nodes, root player's view).
    #[arg(long)]
    json: bool,
}

/// A node ready to draw.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DrawNode {
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
    pub research: bool,
    /// Knuth-Moore type 1, 2, 3.
    #[serde(rename = "type")]
    pub node_type: Option<u8>,
    /// Moves never looked at below this node.
    pub pruned: usize,
    #[serde(skip)]
    pub children: Vec<usize>,
}

/// Turn a recording into drawable nodes (MAX's view, moves named, pruned moves counted).
pub fn draw_nodes<G: Game>(game: &G, rec: &Recorder<G>) -> Vec<DrawNode> {
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
        let pruned = if n.value.is_some() && !n.leaf {
            game.generate_moves(&n.state, &mut moves);
            let explored = moves
                .iter()
                .filter(|&&m| {
                    let mut c = n.state;
                    game.play(&mut c, m);
                    n.children.iter().any(|&k| rec.nodes[k as usize].state == c)
                })
                .count();
            moves.len() - explored
        } else {
            0
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
            pruned,
            children: n.children.iter().map(|&c| c as usize).collect(),
        });
    }
    out
}

fn num(v: i32) -> String {
    if v >= INFINITY {
        "+∞".into()
    } else if v <= -INFINITY {
        "-∞".into()
    } else {
        v.to_string()
    }
}

fn fill(n: &DrawNode, km: bool) -> &'static str {
    if !km {
        return if n.value.is_some() { "#b8e0b0" } else { "#d0d0d0" };
    }
    match n.node_type {
        Some(1) => "#f6c85f",
        Some(2) => "#f08a8a",
        Some(3) => "#8ec1f2",
        _ => "#d0d0d0",
    }
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const DX: f64 = 62.0;
const DY: f64 = 84.0;

/// x positions (leaf slots left to right, parents centred over their children, pruned stubs take a slot).
fn layout(nodes: &[DrawNode], roots: &[usize]) -> (Vec<f64>, Vec<f64>, f64) {
    let mut x = vec![0.0; nodes.len()];
    let mut stub = vec![0.0; nodes.len()];
    let mut slot = 0.0;
    fn walk(n: usize, nodes: &[DrawNode], x: &mut [f64], stub: &mut [f64], slot: &mut f64) {
        let kids = &nodes[n].children;
        for &c in kids {
            walk(c, nodes, x, stub, slot);
        }
        let mut right = None;
        if nodes[n].pruned > 0 {
            stub[n] = *slot * DX;
            right = Some(stub[n]);
            *slot += 1.0;
        }
        x[n] = if kids.is_empty() && right.is_none() {
            let v = *slot * DX;
            *slot += 1.0;
            v
        } else if kids.is_empty() {
            right.unwrap_or(0.0) - DX / 2.0
        } else {
            let first = x[kids[0]];
            let last = right.unwrap_or(x[kids[kids.len() - 1]]);
            (first + last) / 2.0
        };
    }
    for (i, &r) in roots.iter().enumerate() {
        if i > 0 {
            slot += 1.0;
        }
        walk(r, nodes, &mut x, &mut stub, &mut slot);
    }
    (x, stub, slot * DX)
}

/// The SVG picture.
/// `km`: colour by Knuth-Moore type (windowed searches); otherwise solved/unsolved (SSS*, whose "window" is the
/// upper bound h the state carried when it was examined).
pub fn svg(title: &str, nodes: &[DrawNode], roots: &[usize], km: bool) -> String {
    let (x, stub, width) = layout(nodes, roots);
    let max_ply = nodes.iter().map(|n| n.ply).max().unwrap_or(0) as f64;
    let (ox, oy) = (40.0, 110.0);
    let w = (width + 2.0 * ox).max(520.0);
    let h = oy + (max_ply + 1.0) * DY + 40.0;
    let pos = |i: usize| (ox + x[i], oy + nodes[i].ply as f64 * DY);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="{w:.0}" height="{h:.0}" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="10" y="20" font-size="14">{}</text>"#, xml(title));
    let legend: &[(&str, &str)] = if km {
        &[
            ("#f6c85f", "type 1 (PV): exact, inside the window"),
            ("#f08a8a", "type 2 (CUT): failed high, stopped early"),
            ("#8ec1f2", "type 3 (ALL): failed low, all moves searched"),
        ]
    } else {
        &[("#b8e0b0", "solved (value shown)"), ("#d0d0d0", "examined, never solved (removed from OPEN)")]
    };
    for (i, (c, t)) in legend.iter().enumerate() {
        let lx = 10.0 + i as f64 * 250.0;
        let _ = writeln!(
            s,
            r#"<rect x="{lx}" y="32" width="14" height="14" fill="{c}" stroke="black"/><text x="{}" y="44">{}</text>"#,
            lx + 20.0,
            xml(t)
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="10" y="64">squares: MAX to move, circles: MIN; value and [α, β] from MAX's view; orange dashed: re-search; ✂ k: moves pruned</text>"##
    );
    // Edges first.
    for n in nodes {
        let (cx, cy) = pos(n.id);
        if let Some(p) = n.parent {
            let (px, py) = pos(p);
            let (colour, dash) = if n.research { ("#e07000", r#" stroke-dasharray="5 3""#) } else { ("#555", "") };
            let _ = writeln!(
                s,
                r#"<line x1="{px:.1}" y1="{:.1}" x2="{cx:.1}" y2="{:.1}" stroke="{colour}"{dash}/>"#,
                py + 16.0,
                cy - 16.0
            );
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" font-size="9" fill="#333" text-anchor="middle">{}</text>"##,
                (px + cx) / 2.0 + 4.0,
                (py + cy) / 2.0,
                xml(&n.mv)
            );
        }
        if n.pruned > 0 {
            let sx = ox + stub[n.id];
            let sy = cy + DY * 0.6;
            let _ = writeln!(
                s,
                r##"<line x1="{cx:.1}" y1="{:.1}" x2="{sx:.1}" y2="{:.1}" stroke="#999" stroke-dasharray="3 3"/><text x="{sx:.1}" y="{:.1}" fill="#b00" text-anchor="middle">✂ {}</text>"##,
                cy + 16.0,
                sy - 10.0,
                sy,
                n.pruned
            );
        }
    }
    for n in nodes {
        let (cx, cy) = pos(n.id);
        let (stroke, extra) =
            if n.research { ("#e07000", r#" stroke-width="2.5" stroke-dasharray="5 3""#) } else { ("black", "") };
        if n.ply.is_multiple_of(2) {
            let _ = writeln!(
                s,
                r#"<rect class="node" x="{:.1}" y="{:.1}" width="44" height="30" fill="{}" stroke="{stroke}"{extra}/>"#,
                cx - 22.0,
                cy - 15.0,
                fill(n, km)
            );
        } else {
            let _ = writeln!(
                s,
                r#"<ellipse class="node" cx="{cx:.1}" cy="{cy:.1}" rx="24" ry="16" fill="{}" stroke="{stroke}"{extra}/>"#,
                fill(n, km)
            );
        }
        let v = n.value.map(num).unwrap_or_else(|| "?".into());
        let _ = writeln!(
            s,
            r#"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" font-weight="bold">{}</text>"#,
            cy + 4.0,
            xml(&v)
        );
        let _ = writeln!(
            s,
            r##"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" font-size="8" fill="#444">[{}, {}]</text>"##,
            cy + 26.0,
            num(n.alpha),
            num(n.beta)
        );
    }
    for (i, &r) in roots.iter().enumerate() {
        if roots.len() > 1 {
            let (cx, cy) = pos(r);
            let _ = writeln!(
                s,
                r#"<text x="{cx:.1}" y="{:.1}" text-anchor="middle" font-style="italic">pass {}: [{}, {}]</text>"#,
                cy - 24.0,
                i + 1,
                num(nodes[r].alpha),
                num(nodes[r].beta)
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// The Graphviz DOT text.
pub fn dot(title: &str, nodes: &[DrawNode], roots: &[usize], km: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "digraph tree {{");
    let _ = writeln!(s, "  label=\"{}\"; labelloc=t;", title.replace('"', "'"));
    let _ = writeln!(s, "  node [style=filled, fontname=\"sans-serif\", fontsize=10];");
    let _ = writeln!(s, "  edge [fontsize=9];");
    for n in nodes {
        let shape = if n.ply.is_multiple_of(2) { "box" } else { "ellipse" };
        let v = n.value.map(num).unwrap_or_else(|| "?".into());
        let style = if n.research { ", style=\"filled,dashed\", color=\"#e07000\", penwidth=2" } else { "" };
        let _ = writeln!(
            s,
            "  n{} [shape={shape}, fillcolor=\"{}\", label=\"{}\\n[{}, {}]\"{style}];",
            n.id,
            fill(n, km),
            v,
            num(n.alpha),
            num(n.beta)
        );
        if let Some(p) = n.parent {
            let estyle = if n.research { ", style=dashed, color=\"#e07000\"" } else { "" };
            let _ = writeln!(s, "  n{p} -> n{} [label=\"{}\"{estyle}];", n.id, n.mv.replace('"', "'"));
        }
        if n.pruned > 0 {
            let _ = writeln!(
                s,
                "  p{} [shape=plaintext, style=\"\", fontcolor=\"#b00000\", label=\"✂ {}\"];",
                n.id, n.pruned
            );
            let _ = writeln!(s, "  n{} -> p{} [style=dashed, color=\"#999999\"];", n.id, n.id);
        }
    }
    if roots.len() > 1 {
        let chain: Vec<String> = roots.iter().map(|r| format!("n{r}")).collect();
        let _ = writeln!(s, "  {{ rank=same; {} }}", chain.join("; "));
    }
    s.push_str("}\n");
    s
}

pub fn run(a: TreeArgs) -> anyhow::Result<()> {
    if a.max_nodes == 0 || a.max_nodes > 2000 {
        bail!("--max-nodes must be 1..=2000 (the picture is for small trees)");
    }
    let any = a.pos.game()?;
    let mut text = a.algo.clone();
    if let Some(d) = a.depth {
        let spec = Spec::parse(&text)?;
        if spec.has("depth") {
            bail!("give the depth once: in the algorithm string or with --depth");
        }
        text = if text.contains('(') {
            format!("{}(depth={d},{}", spec.name, &text[text.find('(').map(|i| i + 1).unwrap_or(0)..])
        } else {
            format!("{text}(depth={d})")
        };
    }
    let spec = Spec::parse(&text)?;
    if crate::players::find(&spec.name).is_some_and(|p| p.family == crate::players::Family::Mcts) {
        return super::tree_mcts::run(&a.pos, &text, a.max_nodes, a.svg.as_deref(), a.dot.as_deref(), a.json);
    }
    if catalogue::canonical(&spec.name).is_none() {
        bail!("tree: '{}' is not a search algorithm of the catalogue (known: {})", spec.name, catalogue_names());
    }
    if spec.has("time") || spec.has("nodes") {
        bail!("tree: draw a fixed-depth search (no time or nodes limit)");
    }
    with_game!(&any, g => {
        let state = super::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
        if g.is_terminal(&state) {
            bail!("the game is over in this position: there is nothing to search");
        }
        let mut rec = Recorder::new(a.max_nodes);
        let built = catalogue::build(&spec, Traced { game: g, state: &state, tracer: &mut rec })?;
        spec.finish()?;
        let Some((name, r)) = built else { bail!("unknown algorithm '{}'", spec.name) };
        if rec.overflow {
            bail!(
                "the search explored more than {} nodes: too many to draw; use a smaller --depth or tree \
                 (e.g. random_tree(width=3,depth=3)), or raise --max-nodes (at most 2000)",
                a.max_nodes
            );
        }
        let nodes = draw_nodes(g, &rec);
        let km = catalogue::canonical(&spec.name) != Some("sss");
        let roots: Vec<usize> = rec.roots.iter().map(|&r| r as usize).collect();
        let best = r.best_move.map(|m| g.format_move(&state, m));
        let title = format!("{name} on {} from {}: value {}, best {}, {} nodes, {} leaves",
            g.spec(), g.format_position(&state), r.value, best.as_deref().unwrap_or("-"), r.stats.nodes, r.stats.leaves);
        if let Some(path) = &a.svg {
            std::fs::write(path, svg(&title, &nodes, &roots, km)).with_context(|| format!("writing {path}"))?;
            eprintln!("wrote {path}");
        }
        if let Some(path) = &a.dot {
            std::fs::write(path, dot(&title, &nodes, &roots, km)).with_context(|| format!("writing {path}"))?;
            eprintln!("wrote {path}");
        }
        if a.json {
            super::print_json(&serde_json::json!({
                "game": g.spec(), "position": g.format_position(&state), "algo": name, "value": r.value,
                "best_move": best, "depth": r.depth, "nodes": r.stats.nodes, "leaves": r.stats.leaves,
                "cutoffs": r.stats.cutoffs, "researches": r.stats.researches, "passes": roots.len(),
                "tree": nodes,
            }));
        } else {
            println!("{title}");
            println!("{} visits drawn in {} pass(es); cut-offs {}, re-searches {}",
                nodes.len(), roots.len(), r.stats.cutoffs, r.stats.researches);
        }
        Ok(())
    })
}

fn catalogue_names() -> String {
    catalogue::NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}
