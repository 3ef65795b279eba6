//! `plateau compare GAME --algos A,B,... --depths 1..6`: the course's table of nodes and time per algorithm and depth,
//! on any game position or synthetic tree, as an aligned text table, `--json`, `--csv`, and `--svg FILE` (nodes on a
//! log scale against depth, one line per algorithm).
//!
//! Every cell is a fresh searcher (no table carried from one cell to the next) at a fixed depth, so the counts are
//! exactly reproducible run to run; only the times vary.

use std::fmt::Write as _;

use anyhow::bail;
use clap::Args;

use crate::game::Game;
use crate::game::{FullGame, GameError};
use crate::games::with_game;
use crate::search::Limits;
use crate::spec::Spec;

#[derive(Args, Debug)]
/// `plateau compare`'s flags.
pub struct CompareArgs {
    #[command(flatten)]
    pos: super::PositionArgs,
    /// Algorithm strings separated by commas, e.g. `minimax,alphabeta,scout,sss` or `mtdf(tt=64mb),pvs`.
    #[arg(long, default_value = "minimax,alphabeta,scout,sss")]
    algos: String,
    /// Depths: `1..6` (inclusive), `1..=6`, `4`, or a list `1,2,5`.
    #[arg(long, default_value = "1..4")]
    depths: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Print CSV.
    #[arg(long)]
    csv: bool,
    /// The slides' layout: one row per depth, one column per algorithm, cells "nodes - ms".
    #[arg(long)]
    wide: bool,
    /// Write a chart of nodes against depth (log scale) to this SVG file.
    #[arg(long)]
    svg: Option<String>,
}

/// One cell of the table.
#[derive(Clone, Debug, serde::Serialize, PartialEq)]
pub struct Row {
    pub algo: String,
    pub depth: u32,
    pub value: i32,
    pub best_move: Option<String>,
    pub nodes: u64,
    pub leaves: u64,
    pub cutoffs: u64,
    pub researches: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub seconds: f64,
}

/// Split at the commas that are not inside parentheses.
pub(crate) fn split_algos(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0i32, String::new());
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    out.push(cur.trim().to_string());
    out
}

/// Parse `1..6`, `1..=6`, `4`, `1,2,5`, `1..3,6`.
pub(crate) fn parse_depths(text: &str) -> Result<Vec<u32>, GameError> {
    let bad = || GameError::new(format!("--depths '{text}': expected a range such as 1..6, a depth, or a list 1,2,5"));
    let mut out = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        if let Some((a, b)) = part.split_once("..") {
            let b = b.strip_prefix('=').unwrap_or(b);
            let a: u32 = a.trim().parse().map_err(|_| bad())?;
            let b: u32 = b.trim().parse().map_err(|_| bad())?;
            if a > b {
                return Err(bad());
            }
            out.extend(a..=b);
        } else {
            out.push(part.parse().map_err(|_| bad())?);
        }
    }
    if out.is_empty() || out.len() > 100 {
        return Err(bad());
    }
    if let Some(&d) = out.iter().find(|&&d| d > 64) {
        return Err(GameError::new(format!("--depths: depth {d} is too deep (at most 64)")));
    }
    Ok(out)
}

/// Run every algorithm at every depth from `state`. Algorithm strings are checked before anything runs.
pub fn compare<G: FullGame>(
    game: &G,
    state: &G::State,
    algos: &[String],
    depths: &[u32],
) -> Result<Vec<Row>, GameError> {
    if algos.is_empty() {
        return Err(GameError::new("--algos: no algorithm given"));
    }
    for a in algos {
        let spec = Spec::parse(a)?;
        if spec.name == "random" {
            return Err(GameError::new("compare: 'random' does not search"));
        }
        crate::players::searcher::<G>(a)?;
    }
    let mut rows = Vec::new();
    for &d in depths {
        for a in algos {
            let mut s = crate::players::searcher::<G>(a)?;
            s.set_limits(Limits { depth: Some(d), time: None, nodes: None });
            let r = s.search(game, state);
            rows.push(Row {
                algo: a.clone(),
                depth: d,
                value: r.value,
                best_move: r.best_move.map(|m| game.format_move(state, m)),
                nodes: r.stats.nodes,
                leaves: r.stats.leaves,
                cutoffs: r.stats.cutoffs,
                researches: r.stats.researches,
                tt_probes: r.stats.tt_probes,
                tt_hits: r.stats.tt_hits,
                seconds: r.seconds,
            });
        }
    }
    Ok(rows)
}

/// The aligned text table.
pub(crate) fn text_table(rows: &[Row]) -> String {
    let head = ["depth", "algorithm", "value", "nodes", "leaves", "cutoffs", "re-searches", "tt hits/probes", "ms"];
    let cells: Vec<[String; 9]> = rows
        .iter()
        .map(|r| {
            [
                r.depth.to_string(),
                r.algo.clone(),
                r.value.to_string(),
                r.nodes.to_string(),
                r.leaves.to_string(),
                r.cutoffs.to_string(),
                r.researches.to_string(),
                if r.tt_probes > 0 { format!("{}/{}", r.tt_hits, r.tt_probes) } else { "-".into() },
                format!("{:.3}", r.seconds * 1000.0),
            ]
        })
        .collect();
    let mut w: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for c in &cells {
        for (i, x) in c.iter().enumerate() {
            w[i] = w[i].max(x.len());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, c: &[String]| {
        for (i, x) in c.iter().enumerate() {
            if i == 1 {
                let _ = write!(out, "{:<width$}  ", x, width = w[i]);
            } else {
                let _ = write!(out, "{:>width$}  ", x, width = w[i]);
            }
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        out.push('\n');
    };
    line(&mut out, &head.map(String::from));
    let mut last = None;
    for (r, c) in rows.iter().zip(&cells) {
        if last.is_some() && last != Some(r.depth) {
            out.push('\n');
        }
        last = Some(r.depth);
        line(&mut out, c);
    }
    out
}

/// The slides' layout: depth down, algorithms across, "nodes - ms" in each cell.
pub(crate) fn wide_table(rows: &[Row], algos: &[String], depths: &[u32]) -> String {
    let mut grid: Vec<Vec<String>> = vec![std::iter::once("depth".to_string()).chain(algos.iter().cloned()).collect()];
    for &d in depths {
        let mut line = vec![d.to_string()];
        for a in algos {
            let cell = rows
                .iter()
                .find(|r| r.depth == d && &r.algo == a)
                .map(|r| format!("{} - {:.3}", r.nodes, r.seconds * 1000.0))
                .unwrap_or_default();
            line.push(cell);
        }
        grid.push(line);
    }
    let cols = grid[0].len();
    let w: Vec<usize> = (0..cols).map(|c| grid.iter().map(|l| l[c].len()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for l in &grid {
        let cells: Vec<String> = l.iter().enumerate().map(|(i, x)| format!("{:>width$}", x, width = w[i])).collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// CSV with a header line.
pub fn csv(rows: &[Row]) -> String {
    let mut out =
        String::from("algo,depth,value,best_move,nodes,leaves,cutoffs,researches,tt_probes,tt_hits,seconds\n");
    for r in rows {
        let algo = if r.algo.contains(',') { format!("\"{}\"", r.algo) } else { r.algo.clone() };
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{:.6}",
            algo,
            r.depth,
            r.value,
            r.best_move.as_deref().unwrap_or(""),
            r.nodes,
            r.leaves,
            r.cutoffs,
            r.researches,
            r.tt_probes,
            r.tt_hits,
            r.seconds
        );
    }
    out
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const PALETTE: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
    "#393b79", "#637939", "#843c39",
];

/// Nodes against depth, log scale, one line per algorithm.
pub(crate) fn svg_chart(title: &str, rows: &[Row], algos: &[String]) -> String {
    let (w, h) = (760.0, 460.0);
    let (left, right, top, bottom) = (70.0, 200.0, 40.0, 50.0);
    let depths: Vec<u32> = {
        let mut d: Vec<u32> = rows.iter().map(|r| r.depth).collect();
        d.sort_unstable();
        d.dedup();
        d
    };
    let maxn = rows.iter().map(|r| r.nodes.max(1)).max().unwrap_or(10) as f64;
    let minn = rows.iter().map(|r| r.nodes.max(1)).min().unwrap_or(1) as f64;
    let (lo, hi) = (minn.log10().floor(), maxn.log10().ceil().max(minn.log10().floor() + 1.0));
    let (d0, d1) = (*depths.first().unwrap_or(&0) as f64, *depths.last().unwrap_or(&1) as f64);
    let span = if d1 > d0 { d1 - d0 } else { 1.0 };
    let px = |d: f64| left + (d - d0) / span * (w - left - right);
    let py = |n: f64| top + (hi - n.max(1.0).log10()) / (hi - lo) * (h - top - bottom);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{}" y="22" font-size="14" text-anchor="middle">{}</text>"#, w / 2.0, xml(title));
    let mut e = lo as i32;
    while e as f64 <= hi {
        let y = py(10f64.powi(e));
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">1e{e}</text>"##,
            w - right,
            left - 6.0,
            y + 4.0
        );
        e += 1;
    }
    for &d in &depths {
        let x = px(d as f64);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{:.1}" stroke="#eee"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{d}</text>"##,
            h - bottom,
            h - bottom + 18.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">depth (plies)</text><text x="16" y="{:.1}" transform="rotate(-90 16 {:.1})" text-anchor="middle">nodes (log scale)</text>"#,
        (left + w - right) / 2.0,
        h - 10.0,
        (top + h - bottom) / 2.0,
        (top + h - bottom) / 2.0
    );
    let _ = writeln!(
        s,
        r#"<rect x="{left}" y="{top}" width="{:.1}" height="{:.1}" fill="none" stroke="black"/>"#,
        w - left - right,
        h - top - bottom
    );
    for (i, a) in algos.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let pts: Vec<String> = rows
            .iter()
            .filter(|r| &r.algo == a)
            .map(|r| format!("{:.1},{:.1}", px(r.depth as f64), py(r.nodes as f64)))
            .collect();
        let _ = writeln!(s, r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#, pts.join(" "));
        for p in &pts {
            let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
            let _ = writeln!(s, r#"<circle cx="{x}" cy="{y}" r="3" fill="{colour}"/>"#);
        }
        let ly = top + 10.0 + i as f64 * 18.0;
        let lx = w - right + 14.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{:.1}" y2="{ly}" stroke="{colour}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{}</text>"#,
            lx + 22.0,
            lx + 28.0,
            ly + 4.0,
            xml(a)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Run `plateau compare`.
pub fn run(a: CompareArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let any = a.pos.game()?;
    let algos = split_algos(&a.algos);
    if algos.iter().any(String::is_empty) {
        bail!("--algos '{}': an empty name (two commas in a row, or a comma at an end)", a.algos);
    }
    let depths = parse_depths(&a.depths)?;
    if a.json && a.csv {
        bail!("--json and --csv: choose one output format");
    }
    if let Some(path) = &a.svg {
        // Before the searches: a file plateau would refuse to write (a symbolic link, a device, a directory).
        crate::files::check_output(std::path::Path::new(path), "--svg").map_err(anyhow::Error::msg)?;
    }
    with_game!(&any, g => {
        let state = super::resolve_position(g, a.pos.position.as_deref(), a.pos.moves.as_deref())?;
        if g.is_terminal(&state) {
            bail!("the game is over in this position: there is nothing to search");
        }
        let rows = compare(g, &state, &algos, &depths)?;
        for &d in &depths {
            let vals: Vec<i32> = rows.iter().filter(|r| r.depth == d).map(|r| r.value).collect();
            if vals.windows(2).any(|w| w[0] != w[1]) {
                eprintln!("warning: the algorithms disagree on the value at depth {d}: {vals:?}");
            }
        }
        if let Some(path) = &a.svg {
            let title = format!("{} from {}", g.spec(), g.format_position(&state));
            super::write_output(path, svg_chart(&title, &rows, &algos).as_bytes(), "--svg")?;
            eprintln!("wrote {path}");
        }
        if a.json {
            out.json(serde_json::json!({
                "game": g.spec(), "position": g.format_position(&state), "algos": algos, "depths": depths,
                "rows": rows,
            }));
        } else if a.csv {
            print!("{}", csv(&rows));
        } else if a.wide {
            println!("{} from {} (nodes - ms)", g.spec(), g.format_position(&state));
            print!("{}", wide_table(&rows, &algos, &depths));
        } else {
            println!("{} from {}", g.spec(), g.format_position(&state));
            print!("{}", text_table(&rows));
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_depths_and_algorithm_lists() {
        assert_eq!(parse_depths("1..4").unwrap(), vec![1, 2, 3, 4]);
        assert_eq!(parse_depths("1..=3").unwrap(), vec![1, 2, 3]);
        assert_eq!(parse_depths("2,5").unwrap(), vec![2, 5]);
        assert_eq!(parse_depths("1..2,6").unwrap(), vec![1, 2, 6]);
        for bad in ["", "x", "4..1", "1..x", "70"] {
            assert!(parse_depths(bad).is_err(), "{bad}");
        }
        assert_eq!(split_algos("minimax, mtdf(tt=1mb,id=true),sss"), vec!["minimax", "mtdf(tt=1mb,id=true)", "sss"]);
    }
}
