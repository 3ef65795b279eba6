//! `plateau book`: build an opening book offline (`build`) and print its entries for a position (`show`).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::book::Book;
use crate::book::build::{BuildConfig, build, build_with, connect_four_solver};
use crate::game::{Game, describe_score};
use crate::games::AnyGame;
use crate::games::with_game;
use crate::spec::parse_duration;

#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    /// Build a book by deep searches from the start position (written to a new temporary file beside FILE, then
    /// renamed over it; also every --checkpoint, so an interrupted build leaves a valid shallower book).
    Build(BuildArgs),
    /// Print a book's header and its entries for one position (the start by default).
    Show(ShowArgs),
}

#[derive(Args, Debug)]
struct BuildArgs {
    /// The game string.
    game: String,
    /// The book file to write.
    #[arg(long)]
    out: PathBuf,
    /// Expand positions up to this many plies from the start.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// The player that scores every move of every expanded position.
    #[arg(long, default_value = "engine(nodes=100k)")]
    player: String,
    /// Keep the moves within this many evaluation units of the best.
    #[arg(long, default_value_t = 30)]
    margin: i32,
    /// At most this many moves kept per position; a comma list gives it by ply from the start, the last value
    /// applying deeper (`22,3`: every first move, then 3).
    #[arg(long, default_value = "3")]
    max_moves: String,
    /// Score every move exactly with a solver instead of searching with --player (every entry flagged exact; --margin
    /// then counts plies to the end of a won or lost game): Connect Four's strong solver, Breakthrough's df-pn solver
    /// then its exact distance, alpha-beta to the end for the other games (tic-tac-toe, Oware's small boards, ...).
    #[arg(long)]
    exact: bool,
    /// With --exact on a game other than Connect Four: df-pn only (results, no distances) for bigger boards.
    #[arg(long)]
    weak: bool,
    /// `--exact`: the solver's table (`1gb`).
    #[arg(long, default_value = "1gb")]
    tt: String,
    /// Save the book so far this often.
    #[arg(long, default_value = "30s")]
    checkpoint: String,
    /// Print one JSON document at the end.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct ShowArgs {
    /// The book file.
    file: PathBuf,
    /// A position in the game's position text (`start` by default).
    #[arg(long)]
    position: Option<String>,
    /// Moves played from the position.
    #[arg(long)]
    moves: Option<String>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

pub fn run(a: BookArgs, out: &mut super::Out) -> anyhow::Result<()> {
    match a.command {
        BookCommand::Build(b) => run_build(b, out),
        BookCommand::Show(s) => run_show(s, out),
    }
}

fn run_build(a: BuildArgs, docs: &mut super::Out) -> anyhow::Result<()> {
    let widths: Vec<usize> = a
        .max_moves
        .split(',')
        .map(|w| w.trim().parse::<usize>().ok().filter(|&n| n >= 1))
        .collect::<Option<_>>()
        .ok_or_else(|| anyhow::anyhow!("--max-moves {}: expected whole numbers >= 1, comma-separated", a.max_moves))?;
    if a.depth == 0 {
        bail!("--depth must be at least 1");
    }
    let checkpoint = parse_duration(&a.checkpoint).map_err(|e| anyhow::anyhow!("--checkpoint: {e}"))?;
    // Before any search: an --out plateau would refuse to write (a symbolic link, a device, a directory).
    crate::files::check_output(&a.out, "book").map_err(anyhow::Error::msg)?;
    let any = AnyGame::parse(&a.game)?;
    let mut cfg = BuildConfig {
        depth: a.depth,
        player: a.player.clone(),
        margin: a.margin.max(0),
        max_moves: widths,
        checkpoint: checkpoint.max(Duration::from_secs(1)),
        resume: None,
    };
    let exact = match (&any, a.exact) {
        (AnyGame::ConnectFour(g), true) => {
            let mib = crate::spec::parse_table_mib(&a.tt).map_err(|e| anyhow::anyhow!("--tt: {e}"))?;
            Some((g, crate::solve::connect4::table_log2(mib)))
        }
        _ => None,
    };
    // Breakthrough: its dedicated df-pn solver (with the exact distance unless --weak).
    let bt_exact = match (&any, a.exact) {
        (AnyGame::Breakthrough(g), true) => Some(g),
        _ => None,
    };
    let generic_exact = a.exact && exact.is_none() && bt_exact.is_none();
    let scorer_text = match (exact.is_some(), generic_exact, a.weak) {
        (true, _, _) => "exact (Connect Four solver)".to_string(),
        _ if bt_exact.is_some() && a.weak => "exact (Breakthrough df-pn, results only)".to_string(),
        _ if bt_exact.is_some() => "exact (Breakthrough df-pn, then the exact distance)".to_string(),
        (_, true, false) => "exact (alpha-beta to the end)".to_string(),
        (_, true, true) => "exact (df-pn, results only)".to_string(),
        _ => a.player.clone(),
    };
    if a.weak && !generic_exact && bt_exact.is_none() {
        bail!("--weak goes with --exact on a game other than connect_four");
    }
    let note = format!(
        "plateau book build --depth {} --player {} --margin {} --max-moves {}",
        a.depth, scorer_text, cfg.margin, a.max_moves
    );
    // The build so far (checkpoints, an interrupted build) goes to FILE.partial, never over FILE: an old book stays
    // whole until the new one is complete. A FILE.partial of the same settings is where this build goes on from.
    let partial = partial_path(&a.out);
    crate::files::check_output(&partial, "book checkpoint").map_err(anyhow::Error::msg)?;
    if partial.exists() {
        let p = partial.display();
        let earlier = Book::load(&partial).map_err(|e| anyhow::anyhow!("{e} (delete {p} to build from the start)"))?;
        let spec = with_game!(&any, g => g.spec());
        if earlier.game != spec || earlier.note != note {
            bail!(
                "{p} is the partial build of other settings ({}: {}); this build would not go on from it: build \
                 with those settings to finish it, or delete it",
                earlier.game,
                earlier.note
            );
        }
        eprintln!("book build: going on from the {} positions of {p}", earlier.positions());
        cfg.resume = Some(earlier);
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    // Ctrl-C / SIGTERM stop the build, which then saves the book so far (a second one ends the process).
    let stop = crate::limits::catch_interrupt();
    let out = partial.clone();
    let mut save_error = None;
    let progress = |p: &crate::book::build::BuildProgress, partial: Option<&Book>| {
        bar.set_message(format!(
            "{} positions done, {} queued, {} searches, {} nodes, {} entries",
            p.positions, p.queued, p.searches, p.nodes, p.entries
        ));
        if let Some(book) = partial
            && let Err(e) = book.save(&out)
        {
            save_error = Some(e);
        }
    };
    let (book, prog) = match exact {
        Some((g, log2)) => {
            let mut scorer = connect_four_solver(g, log2)?;
            build_with(g, &cfg, &note, stop, progress, &mut scorer)?
        }
        None if bt_exact.is_some() => {
            let g = bt_exact.expect("a Breakthrough game");
            let mib = crate::spec::parse_table_mib(&a.tt).map_err(|e| anyhow::anyhow!("--tt: {e}"))?;
            let mut scorer = crate::book::build::breakthrough_solver(g, mib, a.weak)?;
            build_with(g, &cfg, &note, stop, progress, &mut scorer)?
        }
        None if generic_exact => with_game!(&any, g => {
            let mib = crate::spec::parse_table_mib(&a.tt).map_err(|e| anyhow::anyhow!("--tt: {e}"))?;
            let mut scorer = crate::book::build::game_solver(mib, a.weak, g);
            build_with(g, &cfg, &note, stop, progress, &mut scorer)?
        }),
        None => with_game!(&any, g => {
            let mut player = crate::players::searcher(&cfg.player)?;
            build(g, &cfg, &note, stop, progress, player.as_mut())?
        }),
    };
    bar.finish_and_clear();
    if let Some(e) = save_error {
        bail!(e);
    }
    if crate::limits::interrupt_exit_code().is_some() {
        book.save(&partial).map_err(anyhow::Error::msg)?;
        // The process then ends with 130 or 143 (`cli::main`).
        bail!(
            "interrupted ({}): the book of the {} positions done is saved in {} ({} is untouched): the same command \
             goes on from it",
            crate::limits::interrupt_name(),
            book.positions(),
            partial.display(),
            a.out.display()
        );
    }
    book.save(&a.out).map_err(anyhow::Error::msg)?;
    if let Err(e) = std::fs::remove_file(&partial)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        bail!("the book is saved in {}, but {} could not be removed: {e}", a.out.display(), partial.display());
    }
    let bytes = book.to_bytes().len();
    if a.json {
        docs.json(json!({
            "game": book.game, "file": a.out.display().to_string(), "positions": book.positions(),
            "entries": book.entries().len(), "bytes": bytes, "searches": prog.searches, "nodes": prog.nodes,
            "resumed_positions": prog.resumed,
            "seconds": prog.seconds,
        }));
    } else {
        println!("book       {}", a.out.display());
        println!("game       {}", book.game);
        println!("positions  {}", book.positions());
        println!("entries    {}", book.entries().len());
        println!("bytes      {bytes}");
        println!("searches   {}  ({} nodes)", prog.searches, prog.nodes);
        if prog.resumed > 0 {
            println!("resumed    {} positions from the partial build", prog.resumed);
        }
        println!("seconds    {:.1}", prog.seconds);
    }
    Ok(())
}

/// Where a build keeps its work until the book is complete: `FILE.partial` beside `--out FILE`.
fn partial_path(out: &std::path::Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

fn run_show(a: ShowArgs, out: &mut super::Out) -> anyhow::Result<()> {
    let book = Book::load(&a.file)?;
    let any = AnyGame::parse(&book.game).with_context(|| format!("book {}: game string", a.file.display()))?;
    with_game!(&any, g => {
        let state = super::resolve_position(g, a.position.as_deref(), a.moves.as_deref())?;
        let mut moves = book.moves(g, &state);
        moves.sort_by_key(|(_, e)| (std::cmp::Reverse(e.score), std::cmp::Reverse(e.weight)));
        let rows: Vec<serde_json::Value> = moves
            .iter()
            .map(|(m, e)| json!({
                "move": g.format_move(&state, *m), "score": e.score, "weight": e.weight, "exact": e.exact(),
            }))
            .collect();
        if a.json {
            out.json(json!({
                "game": book.game, "note": book.note, "positions": book.positions(),
                "entries": book.entries().len(), "position": g.format_position(&state), "moves": rows,
            }));
        } else {
            println!("game       {}", book.game);
            println!("note       {}", book.note);
            println!("positions  {}  ({} entries)", book.positions(), book.entries().len());
            println!("position   {}", g.format_position(&state));
            if moves.is_empty() {
                println!("(not in the book)");
            }
            for (m, e) in &moves {
                println!(
                    "  {:<8} {:>9}  weight {}{}",
                    g.format_move(&state, *m),
                    describe_score(e.score),
                    e.weight,
                    if e.exact() { "  exact" } else { "" }
                );
            }
        }
        Ok::<(), anyhow::Error>(())
    })
}
