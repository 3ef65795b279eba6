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
use std::path::Path;

use anyhow::bail;
use clap::Args;

use crate::game::FullGame;
use crate::game::Game;
use crate::games::with_game;
use crate::search::INFINITY;
use crate::search::catalogue::{self, Traced};
use crate::search::trace::Recorder;
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
    /// SSS* only: print the OPEN list before each step, as the slides' table (`<x, v|f, h>`: node, live (v) or
    /// solved (f), upper bound h for MAX).
    #[arg(long)]
    trace: bool,
}

pub(crate) use crate::search::trace_draw::{DrawNode, draw_nodes};

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

pub fn run(a: TreeArgs, out: &mut super::Out) -> anyhow::Result<()> {
    if let (Some(svg), Some(dot)) = (&a.svg, &a.dot) {
        crate::files::distinct_outputs(&[("--svg", Path::new(svg)), ("--dot", Path::new(dot))])
            .map_err(anyhow::Error::msg)?;
    }
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
        return super::tree_mcts::run(&a.pos, &text, a.max_nodes, a.svg.as_deref(), a.dot.as_deref(), a.json, out);
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
        if a.trace && km {
            bail!("--trace prints SSS*'s OPEN list: use it with --algo sss (or sss(ties=newest), the course's list)");
        }
        let roots: Vec<usize> = rec.roots.iter().map(|&r| r as usize).collect();
        let best = r.best_move.map(|m| g.format_move(&state, m));
        let title = format!("{name} on {} from {}: value {}, best {}, {} nodes, {} leaves",
            g.spec(), g.format_position(&state), r.value, best.as_deref().unwrap_or("-"), r.stats.nodes, r.stats.leaves);
        if let Some(path) = &a.svg {
            super::write_output(path, svg(&title, &nodes, &roots, km).as_bytes(), "--svg")?;
            eprintln!("wrote {path}");
        }
        if let Some(path) = &a.dot {
            super::write_output(path, dot(&title, &nodes, &roots, km).as_bytes(), "--dot")?;
            eprintln!("wrote {path}");
        }
        let open: Vec<String> = rec.open_lists.iter().map(|list| open_line(g, list)).collect();
        if a.json {
            out.json(serde_json::json!({
                "open_lists": if a.trace { Some(&open) } else { None },
                "game": g.spec(), "position": g.format_position(&state), "algo": name, "value": r.value,
                "best_move": best, "depth": r.depth, "nodes": r.stats.nodes, "leaves": r.stats.leaves,
                "cutoffs": r.stats.cutoffs, "researches": r.stats.researches, "passes": roots.len(),
                "tree": nodes,
            }));
        } else {
            if a.trace {
                for line in &open {
                    println!("{line}");
                }
            }
            println!("{title}");
            println!("{} visits drawn in {} pass(es); cut-offs {}, re-searches {}",
                nodes.len(), roots.len(), r.stats.cutoffs, r.stats.researches);
            let cuts: Vec<String> = nodes.iter().filter(|n| n.pruned > 0)
                .map(|n| format!("{} (below {})", n.pruned_moves.join(" "), position_name(g, &rec, n.id)))
                .collect();
            if !cuts.is_empty() {
                println!("never looked at: {}", cuts.join(", "));
            }
        }
        Ok(())
    })
}

/// One OPEN list as the slides write it: `<a,v,∞> <l,f,9>` (v: live, f: solved; h from MAX's view).
fn open_line<G: FullGame>(game: &G, list: &[(G::State, bool, i32)]) -> String {
    let state = |&(s, live, h): &(G::State, bool, i32)| {
        let h = if h >= INFINITY { "∞".to_string() } else { num(h) };
        format!("<{},{},{h}>", game.format_position(&s), if live { "v" } else { "f" })
    };
    list.iter().map(state).collect::<Vec<_>>().join(" ")
}

/// The position of a recorded node, as the game writes it (a label on given trees).
fn position_name<G: FullGame>(game: &G, rec: &Recorder<G>, id: usize) -> String {
    game.format_position(&rec.nodes[id].state)
}

fn catalogue_names() -> String {
    catalogue::NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}
