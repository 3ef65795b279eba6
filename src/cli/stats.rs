//! `plateau stats`: play N games between two players and report game lengths and branching factors (min, max, mean,
//! histogram, by phase and by ply), as text, JSON, or an SVG chart; or, with `--revisit D`, how often random walks of
//! `D` plies end in the same position (`game::revisit`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::arena::game_stats::{Bin, GameStats, StatsBuilder, Summary};
use crate::arena::openings::Openings;
use crate::arena::{MatchConfig, run_match};
use crate::games::{AnyGame, with_game};

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// The game string.
    #[arg(default_value = "breakthrough")]
    game: String,
    /// A player string, given twice (first player then second; one `--player` plays both sides). Default: `random`.
    #[arg(long = "player", num_args = 1)]
    players: Vec<String>,
    /// Number of games.
    #[arg(long, default_value_t = 100, value_parser = super::parse_games)]
    games: usize,
    /// Fixed time per move for both players (`100ms`); default: each player's own limits.
    #[arg(long, conflicts_with = "tc")]
    movetime: Option<String>,
    /// Clock for both players: base+increment (`10s+0.1s`).
    #[arg(long)]
    tc: Option<String>,
    /// Random plies before the players take over (default 0: every game from the start position). Two players that
    /// draw nothing at random need them, or they play one game N times (a warning says so).
    #[arg(long, default_value_t = 0)]
    random_plies: u32,
    /// Seed of every random thing: the random openings, the chance draws, and the moves of players that draw at
    /// random (`random`, `mcts`, ...): the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = super::parse_threads)]
    concurrency: usize,
    /// Games longer than this many plies are stopped and counted as draws.
    #[arg(long, default_value_t = 1000, value_parser = super::parse_max_plies)]
    max_plies: usize,
    /// Bars of the histograms.
    #[arg(long, default_value_t = 10)]
    bins: u64,
    /// Write an SVG chart: the histogram of game lengths and the mean branching factor by ply.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Instead of games: play `--games` random walks of this many plies from the start and report how often two of
    /// them end in the same position (an estimate with its 95% Wilson interval, `--seed` gives the walks).
    #[arg(long, value_name = "PLIES", conflicts_with_all = ["players", "movetime", "tc", "random_plies", "svg", "bins"])]
    revisit: Option<u32>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

/// `--revisit D`: the random walks of `game::revisit`, printed.
fn run_revisit(a: &StatsArgs, depth: u32, out: &mut super::Out) -> anyhow::Result<()> {
    let any = AnyGame::parse(&a.game)?;
    let (spec, r) = with_game!(&any, g => {
        let r = crate::game::revisit::revisit(g, depth, a.games as u64, a.seed).map_err(anyhow::Error::msg)?;
        (crate::game::Game::spec(g), r)
    });
    if a.json {
        let mut v = serde_json::to_value(&r)?;
        v["game"] = spec.into();
        out.json(v);
        return Ok(());
    }
    let p = |x: f64| if x == 0.0 { "0".to_string() } else { format!("{x:.3e}") };
    println!("{spec}: {} random walks of {} plies from the start (seed {})", r.walks, r.depth, r.seed);
    println!(
        "two independent walks end in the same position: {} of {} pairs, {} (95% Wilson interval {} to {})",
        r.same,
        r.pairs,
        p(r.probability),
        p(r.low),
        p(r.high)
    );
    println!(
        "every pair of the {} walks: {} of {} pairs end in the same position, {}",
        r.walks,
        r.all_pairs_same,
        r.all_pairs,
        p(r.all_pairs_probability)
    );
    println!(
        "distinct end positions {}; walks ending where an earlier walk ended: {} ({})",
        r.distinct,
        r.met_before,
        p(r.met_before as f64 / r.walks as f64)
    );
    if r.ended_early > 0 {
        println!("walks whose game ended before ply {}: {} (each stops on its final position)", r.depth, r.ended_early);
    }
    Ok(())
}

pub fn run(a: StatsArgs, out: &mut super::Out) -> anyhow::Result<()> {
    if let Some(depth) = a.revisit {
        return run_revisit(&a, depth, out);
    }
    let players: [String; 2] = match a.players.as_slice() {
        [] => ["random".into(), "random".into()],
        [p] => [p.clone(), p.clone()],
        [p, q] => [p.clone(), q.clone()],
        more => anyhow::bail!("give at most two players: --player A --player B ({} given)", more.len()),
    };
    if let Some(path) = &a.svg {
        // Before the games: a file plateau would refuse to write (a symbolic link, a device, a directory).
        crate::files::check_output(path, "--svg").map_err(anyhow::Error::msg)?;
    }
    if a.bins == 0 {
        anyhow::bail!("--bins must be at least 1");
    }
    let limit = crate::arena::time_limit(a.movetime.as_deref(), a.tc.as_deref()).map_err(anyhow::Error::msg)?;
    let any = AnyGame::parse(&a.game)?;
    if let Some(warning) = repeat_warning(&players, a.random_plies, a.games, any.kind().chance) {
        eprintln!("{warning}");
    }
    let (spec, stats) = with_game!(&any, g => {
        let cfg = MatchConfig {
            players: players.clone(),
            games: a.games,
            limit,
            concurrency: a.concurrency.max(1),
            openings: if a.random_plies == 0 {
                Openings::Start
            } else {
                Openings::Random { plies: a.random_plies, seed: a.seed }
            },
            sprt: None,
            record: None,
            adjudicate: false,
            max_plies: a.max_plies,
            margin: Duration::from_millis(100),
            progress: !a.json,
            seed: a.seed,
            fixed_colours: true,
        };
        // Each game is counted as it finishes (the statistics do not depend on the order) and then dropped.
        let mut builder = StatsBuilder::default();
        let mut replay_error = None;
        run_match(g, &cfg, |r| {
            if let Err(e) = builder.add(g, r) {
                replay_error.get_or_insert(e);
            }
        })
        .map_err(anyhow::Error::msg)?;
        if let Some(e) = replay_error {
            anyhow::bail!(e);
        }
        (crate::game::Game::spec(g), builder.finish(a.bins))
    });
    if let Some(path) = &a.svg {
        super::write_output(path, svg(&spec, &players, &stats).as_bytes(), "--svg")?;
    }
    if a.json {
        let mut v = serde_json::to_value(&stats)?;
        v["game"] = spec.into();
        v["players"] = serde_json::json!(players);
        v["random_plies"] = a.random_plies.into();
        out.json(v);
    } else {
        print_text(&spec, &players, a.random_plies, &stats);
    }
    Ok(())
}

/// The warning when every game would be the same one: two players that draw nothing at random, no random opening
/// plies, no chance in the game, more than one game.
fn repeat_warning(players: &[String; 2], random_plies: u32, games: usize, chance: bool) -> Option<String> {
    let fixed = |p: &String| crate::players::draws_at_random(p) == Some(false);
    (games > 1 && random_plies == 0 && !chance && players.iter().all(fixed)).then(|| {
        format!(
            "warning: {} and {} draw nothing at random: the {games} games will all be the same game; give \
             --random-plies N (random opening plies from --seed) to vary them",
            players[0], players[1]
        )
    })
}

fn line(name: &str, s: &Summary) -> String {
    format!("{name:<24} min {:>4}  max {:>4}  mean {:>7.2}  ({} samples)", s.min, s.max, s.mean, s.count)
}

fn bars(h: &[Bin]) {
    let top = h.iter().map(|b| b.count).max().unwrap_or(1).max(1);
    for b in h {
        let n = (40 * b.count).div_ceil(top) as usize;
        println!("  {:>4}..{:<4} {:>6}  {}", b.from, b.to, b.count, "#".repeat(n));
    }
}

fn print_text(spec: &str, players: &[String; 2], random_plies: u32, s: &GameStats) {
    println!(
        "{spec}: {} games, {} (first) vs {} (second), {random_plies} random opening plies",
        s.games, players[0], players[1]
    );
    println!("game length (plies):");
    println!("  {}", line("all games", &s.length));
    for (name, r) in ["won by the first player", "won by the second player", "drawn"].iter().zip(&s.length_by_result) {
        if r.count > 0 {
            println!("  {}", line(name, r));
        }
    }
    bars(&s.length_histogram);
    println!("branching factor (legal moves before each ply):");
    println!("  {}", line("all plies", &s.branching));
    for p in &s.phases {
        println!("  {}", line(&p.name, &p.branching));
    }
    bars(&s.branching_histogram);
    println!("mean branching factor by ply (games still going):");
    for p in s.by_ply.iter().filter(|p| p.ply <= 10 || p.ply % 10 == 0) {
        println!("  ply {:>4}: {:>7.2}  (min {}, max {}, {} games)", p.ply, p.mean, p.min, p.max, p.games);
    }
}

/// Two bar charts side by side: game lengths, and the mean branching factor by ply.
pub fn svg(spec: &str, players: &[String; 2], s: &GameStats) -> String {
    let (w, h, pad) = (420.0, 260.0, 40.0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="11">"#,
        2.0 * w,
        h + 30.0
    );
    let esc = |t: &str| t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let _ = writeln!(
        out,
        r#"<text x="10" y="16" font-size="13">{} - {} vs {}, {} games</text>"#,
        esc(spec),
        esc(&players[0]),
        esc(&players[1]),
        s.games
    );
    let panels: [(&str, Vec<(String, f64)>); 2] = [
        (
            "game length (plies)",
            s.length_histogram.iter().map(|b| (format!("{}-{}", b.from, b.to), b.count as f64)).collect(),
        ),
        ("mean branching factor by ply", s.by_ply.iter().map(|p| (p.ply.to_string(), p.mean)).collect()),
    ];
    for (k, (title, data)) in panels.iter().enumerate() {
        let x0 = k as f64 * w + pad;
        let (pw, ph) = (w - 2.0 * pad, h - 2.0 * pad);
        let top = data.iter().map(|d| d.1).fold(0.0, f64::max).max(1.0);
        let _ = writeln!(out, r#"<text x="{x0}" y="{}">{title} (max {top:.1})</text>"#, pad);
        let _ = writeln!(
            out,
            r#"<line x1="{x0}" y1="{}" x2="{}" y2="{}" stroke="black"/>"#,
            pad + 10.0 + ph,
            x0 + pw,
            pad + 10.0 + ph
        );
        let bw = pw / data.len().max(1) as f64;
        for (i, (label, v)) in data.iter().enumerate() {
            let bh = ph * v / top;
            let x = x0 + i as f64 * bw;
            let _ = writeln!(
                out,
                r#"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="steelblue"><title>{label}: {v:.2}</title></rect>"#,
                pad + 10.0 + ph - bh,
                (bw - 1.0).max(0.5)
            );
            if data.len() <= 12 || i % data.len().div_ceil(10) == 0 {
                let _ = writeln!(out, r#"<text x="{x:.1}" y="{}" font-size="9">{label}</text>"#, pad + 24.0 + ph);
            }
        }
    }
    out += "</svg>\n";
    out
}
