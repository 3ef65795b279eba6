//! `plateau tune`: Texel-style tuning of the Breakthrough evaluation from engine self-play games; on backgammon, the
//! logistic fit of its evaluation's weights (`train/bg_fit.rs`).

use std::io::Write;

use clap::Args;

use crate::games::AnyGame;
use crate::games::breakthrough::eval::features::NAMES;
use crate::games::breakthrough::eval::weights;
use crate::train::{pst_fit as train, texel as tune};

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The Breakthrough board to play on.
    #[arg(default_value = "breakthrough")]
    game: String,
    /// Self-play games.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Engine nodes per move in the self-play games.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Random plies at the start of each game (opening variety).
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Gradient steps.
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// L2 penalty pulling the weights towards the hand-set ones.
    #[arg(long, default_value_t = 1e-7)]
    l2: f64,
    /// Write the new `games/breakthrough/eval/weights.rs` here (e.g. `src/games/breakthrough/eval/weights.rs`); otherwise print it.
    #[arg(long)]
    out: Option<String>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Which evaluation to tune: `tuned` (the 16 features of games/breakthrough/eval/features.rs, writes games/breakthrough/eval/weights.rs), `pst`
    /// (games/breakthrough/eval/pst.rs, search-value labels, validation split, writes games/breakthrough/eval/pst_weights.rs) or `nt` (the 2x3 pattern
    /// table of games/breakthrough/eval/ntuple.rs on top of pst, same labels; `--out` writes the binary games/breakthrough/eval/nt_weights.bin; `--l2` pulls
    /// the pattern weights towards 0) or `nnue` (the network of games/breakthrough/eval/nnue.rs, same labels, minibatch
    /// Adam with `--lr`, the epoch of lowest validation error kept; `--out` writes games/breakthrough/eval/nnue_weights.bin).
    #[arg(long, default_value = "tuned")]
    eval: String,
    /// `--eval pst`: read the positions from this file (written by `--save-data`) instead of playing games
    /// (repeat it to read several files; `--eval nt` and `nnue` also take them comma-separated).
    #[arg(long)]
    data: Vec<String>,
    /// `--eval pst`: also take the positions of the games of this match record (`plateau match --record`, e.g.
    /// against another engine), labelled by their results and by the data engine's search (`--nodes`,
    /// `--data-eval`); repeat it for several files. Games lost by a failure or on time are left out.
    #[arg(long)]
    pgn: Vec<String>,
    /// `--eval pst`, `nt`, `nnue`: write the positions to this file; played games are written one by one as they end,
    /// and a file holding an interrupted run with the same settings is resumed (its games are not played again).
    #[arg(long)]
    save_data: Option<String>,
    /// `--eval pst`, `nt`: threads playing the games and computing gradients (the data does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = super::parse_threads)]
    threads: usize,
    /// `--eval pst`: weight of the game result in the label (the rest is the search value's win probability).
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// `--eval pst`, `nt`, `nnue`: the evaluation of the engine that plays the data games (one of Breakthrough's:
    /// `nnue`, `pst`, `nt`, `tuned`, `hand`, `simple`).
    #[arg(long, default_value = "hand")]
    data_eval: String,
    /// `--eval pst`: Adam step size.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// `--eval nt`: fit the pst weights too (otherwise only the pattern table).
    #[arg(long)]
    fit_pst: bool,
    /// backgammon: the depth of the self-play engine (`engine(depth=D)`, chance plies counted).
    #[arg(long, default_value_t = 1)]
    depth: u32,
    /// `--eval nt`, `nnue`: print the training and validation errors every this many epochs (0: never).
    #[arg(long, default_value_t = 0)]
    report_every: usize,
    /// `--eval nnue`: train on quiet positions only (no capture and no threat on the board, for either side), the
    /// positions where the search's quiescence stops and reads the evaluation.
    #[arg(long)]
    quiet: bool,
    /// `--eval nnue`: a residual network, added to `pst` (trained on what `pst` gets wrong).
    #[arg(long)]
    residual: bool,
}

pub fn run(a: TuneArgs, out: &mut super::Out) -> anyhow::Result<()> {
    // Before any game: outputs plateau would refuse to write (a symbolic link, a device, a directory).
    for (path, what) in [(&a.out, "tune: --out"), (&a.save_data, "tune: --save-data")] {
        if let Some(p) = path {
            crate::files::check_output(std::path::Path::new(p), what).map_err(anyhow::Error::msg)?;
        }
    }
    // Two outputs in one file, or an output over an input (the weights written over the positions read): refused.
    // (`--save-data` may name a `--data` file: a run that resumes its own positions.)
    let path = |p: &String| std::path::Path::new(p.as_str()).to_path_buf();
    let inputs: Vec<(&str, std::path::PathBuf)> = (a.data.iter().flat_map(|d| d.split(',')))
        .map(|p| ("--data", std::path::PathBuf::from(p)))
        .chain(a.pgn.iter().map(|p| ("--pgn", path(p))))
        .collect();
    if let Some(o) = &a.out {
        let mut files = vec![("tune: --out", path(o))];
        files.extend(a.save_data.iter().map(|p| ("--save-data", path(p))));
        files.extend(inputs.iter().cloned());
        for f in &files[1..] {
            crate::files::distinct_outputs(&[(files[0].0, &files[0].1), (f.0, &f.1)]).map_err(anyhow::Error::msg)?;
        }
    }
    if let Some(d) = &a.save_data {
        for f in inputs.iter().filter(|(flag, _)| *flag == "--pgn") {
            crate::files::distinct_outputs(&[("--save-data", &path(d)), (f.0, &f.1)]).map_err(anyhow::Error::msg)?;
        }
    }
    // NaN and infinity are not numbers a fit can use (they gave all-zero weights and exit 0).
    if !a.l2.is_finite() || a.l2 < 0.0 || !a.lr.is_finite() || a.lr <= 0.0 || !a.lambda.is_finite() {
        anyhow::bail!("tune: --l2 must be a finite number >= 0, --lr a finite number > 0, --lambda a finite number");
    }
    // The node budget's one range (`nodes=0` of a player is refused the same way; 0 was read as 1).
    crate::limits::check_nodes(&format!("tune: --nodes {}", a.nodes), a.nodes).map_err(anyhow::Error::msg)?;
    let g = match AnyGame::parse(&a.game)? {
        AnyGame::Breakthrough(g) => g,
        AnyGame::Backgammon(g) => return run_backgammon(&g, &a, out),
        #[allow(unreachable_patterns)]
        _ => anyhow::bail!("tune: only Breakthrough and backgammon have a tunable evaluation"),
    };
    if g.misere || g.forced_captures {
        anyhow::bail!("tune: only standard Breakthrough rules are tuned (no misere, no forced_captures)");
    }
    use crate::limits::{MAX_EPOCHS, MAX_TUNE_GAMES, check_count};
    check_count("tune: --games", a.games, 1, MAX_TUNE_GAMES).map_err(anyhow::Error::msg)?;
    check_count("tune: --epochs", a.epochs, 1, MAX_EPOCHS).map_err(anyhow::Error::msg)?;
    match a.eval.as_str() {
        "tuned" => {}
        "pst" => return run_pst(&g, &a, out),
        "nt" => return run_nt(&g, &a, out),
        "nnue" => return run_nnue(&g, &a, out),
        other => anyhow::bail!("tune: --eval {other}: expected tuned, pst, nt or nnue"),
    }
    let opts = tune::self_play_options(a.nodes.max(1));
    let samples = tune::self_play(&g, &opts, a.games, a.random_plies, a.seed, |n| {
        if n % 10 == 0 || n == a.games {
            eprint!("\rself-play: {n}/{} games", a.games);
            let _ = std::io::stderr().flush();
        }
    });
    eprintln!();
    if samples.is_empty() {
        anyhow::bail!("tune: the games gave no quiet positions");
    }
    let t = tune::tune(&samples, weights::HAND_MG, weights::HAND_EG, a.epochs, a.l2);
    let source = tune::weights_source(&t);
    if let Some(path) = &a.out {
        write(path, source.as_bytes(), "tune: --out")?;
    }
    if a.json {
        out.json(serde_json::json!({
            "samples": t.samples, "k": t.k, "error_before": t.error_before, "error_after": t.error_after,
            "features": NAMES, "mg": t.mg, "eg": t.eg,
        }));
    } else {
        println!("{} positions from {} games, K = {:.4}", t.samples, a.games, t.k);
        println!("error {:.6} -> {:.6}", t.error_before, t.error_after);
        println!("{:<18} {:>6} {:>6}   {:>6} {:>6}", "feature", "mg", "", "eg", "");
        for (i, name) in NAMES.iter().enumerate() {
            println!(
                "{:<18} {:>6} -> {:>6}   {:>6} -> {:>6}",
                name,
                weights::HAND_MG[i],
                t.mg[i],
                weights::HAND_EG[i],
                t.eg[i]
            );
        }
        if a.out.is_none() {
            println!("\n{source}");
        }
    }
    Ok(())
}

/// `plateau tune backgammon`: self-play games, the logistic fit, `games/backgammon/tuned_weights.rs`.
fn run_backgammon(g: &crate::games::Backgammon, a: &TuneArgs, out: &mut super::Out) -> anyhow::Result<()> {
    use crate::train::bg_fit;
    if g.gammons {
        anyhow::bail!("tune: backgammon's weights are fitted to single games (leave out gammons=true)");
    }
    if a.games < 10 || a.games > 1_000_000 || a.depth == 0 || a.depth > 6 || a.threads == 0 {
        anyhow::bail!("tune: backgammon needs --games 10..1000000, --depth 1..6 and --threads at least 1");
    }
    eprintln!("self-play: {} games of engine(depth={}) ...", a.games, a.depth);
    let samples = bg_fit::self_play(g, a.games as u32, a.depth, a.seed, a.threads)?;
    let f = bg_fit::fit_weights(&samples);
    let command = format!("plateau tune backgammon --games {} --depth {} --seed {}", a.games, a.depth, a.seed);
    let source = bg_fit::weights_source(&f.weights, &command);
    if let Some(path) = &a.out {
        write(path, source.as_bytes(), "tune: --out")?;
    }
    let w = f.weights.terms();
    if a.json {
        out.json(serde_json::json!({
            "game": "backgammon", "games": a.games, "depth": a.depth, "train": f.train, "validation": f.validation,
            "hand_loss": f.hand_loss, "fitted_loss": f.fitted_loss,
            "terms": crate::games::backgammon::eval::TERM_NAMES, "weights": w, "squash": f.weights.squash,
        }));
    } else {
        println!("{} training and {} validation positions from {} games", f.train, f.validation, a.games);
        println!("cross-entropy, training: hand {:.5} -> fitted {:.5}", f.hand_loss[0], f.fitted_loss[0]);
        println!("cross-entropy, validation: hand {:.5} -> fitted {:.5}", f.hand_loss[1], f.fitted_loss[1]);
        let hand = crate::games::backgammon::eval::HAND.terms();
        for (i, name) in crate::games::backgammon::eval::TERM_NAMES.iter().enumerate() {
            println!("{name:<12} {:>5} -> {:>5}", hand[i], w[i]);
        }
        if a.out.is_none() {
            println!("\n{source}");
        }
    }
    Ok(())
}

/// `plateau tune --eval pst`: data (played or read), the logistic fit, `games/breakthrough/eval/pst_weights.rs`.
fn run_pst(g: &crate::games::Breakthrough, a: &TuneArgs, out: &mut super::Out) -> anyhow::Result<()> {
    if !(0.0..=1.0).contains(&a.lambda) || a.lr <= 0.0 || a.threads == 0 {
        anyhow::bail!("tune: --lambda must be in [0, 1], --lr positive, --threads at least 1");
    }
    let opts = train::data_options(a.nodes.max(1), data_eval(a)?);
    let mut records = Vec::new();
    for path in &a.data {
        let text = crate::files::read_text(std::path::Path::new(path), crate::files::MAX_DATA, "tune:")
            .map_err(anyhow::Error::msg)?;
        let first = records.iter().map(|r: &train::Record| r.game + 1).max().unwrap_or(0);
        records.extend(train::read_records(g, &text)?.into_iter().map(|r| train::Record { game: r.game + first, ..r }));
    }
    let played = a.data.is_empty() && a.pgn.is_empty();
    if played {
        records = self_play(g, a)?;
    }
    if !a.pgn.is_empty() {
        let mut games = Vec::new();
        for path in &a.pgn {
            games.extend(read_pgn_games(g, path)?);
        }
        let first = records.iter().map(|r| r.game + 1).max().unwrap_or(0);
        let total = games.len();
        let show = |n: usize, _: usize| {
            if n.is_multiple_of(10) || n == total {
                eprint!("\r--pgn: {n}/{total} games labelled");
                let _ = std::io::stderr().flush();
            }
        };
        records = match &a.save_data {
            // Written game by game as they are labelled: a signal keeps them all (docs/reliability.md).
            Some(path) => {
                crate::limits::exit_on_interrupt(&format!(
                    "the labelled games are in {path}; the same command goes on from them"
                ));
                let (p, eval) = (std::path::Path::new(path), data_eval(a)?);
                crate::train::datagen::label_to_file(g, a.nodes, eval, &records, &games, first, a.threads, p, show)?
            }
            None => {
                let more = train::label_games(g, &opts, &games, first, a.threads, |n| show(n, total))?;
                records.into_iter().chain(more).collect()
            }
        };
        eprintln!();
    } else if let Some(path) = &a.save_data
        && !played
    {
        // Played data is already in the file (written game by game); read data is written here, at once.
        write(path, train::write_records(g, &records).as_bytes(), "tune: --save-data")?;
    }
    if records.is_empty() {
        anyhow::bail!("tune: no positions");
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(a.threads).build()?;
    let f = pool.install(|| train::fit(g, &records, a.lambda, a.epochs, a.lr, a.l2));
    let command = std::iter::once("plateau".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ");
    let source = train::weights_source(&f, &command);
    if let Some(path) = &a.out {
        write(path, source.as_bytes(), "tune: --out")?;
    }
    if a.json {
        out.json(serde_json::to_value(&f)?);
    } else {
        println!(
            "{} positions ({} training, {} validation), K(search value) = {:.4}, lambda = {}",
            f.positions, f.train, f.validation, f.k_value, f.lambda
        );
        println!("training error   {:.6} -> {:.6}", f.train_error_before, f.train_error_after);
        println!("validation error {:.6} -> {:.6}", f.validation_error_before, f.validation_error_after);
        println!("hand evaluation: validation error {:.6} (K = {:.4})", f.hand_validation_error, f.hand_k);
        if a.out.is_none() {
            println!("\n{source}");
        }
    }
    Ok(())
}

/// The games of a match record on board `g`, as (start, moves, result for the first player); games that ended by a
/// failure, on time or unfinished are left out (their result says nothing about the position).
fn read_pgn_games(g: &crate::games::Breakthrough, path: &str) -> anyhow::Result<Vec<train::LabelledGame>> {
    use crate::game::Game;
    let text = crate::files::read_text(std::path::Path::new(path), crate::files::MAX_DATA, "tune:")
        .map_err(anyhow::Error::msg)?;
    let games = crate::arena::record::read_games(&text).map_err(|e| anyhow::anyhow!("tune: {path}: {e}"))?;
    let mut out = Vec::new();
    for rg in games {
        let first = match rg.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => continue,
        };
        if rg.termination.contains(" lost: ") || rg.termination.starts_with("move limit") {
            continue;
        }
        let parsed = AnyGame::parse(&rg.game).map_err(|e| anyhow::anyhow!("tune: {path}: game {}: {e}", rg.round))?;
        match parsed {
            AnyGame::Breakthrough(b) if b.spec() == g.spec() => {}
            _ => anyhow::bail!("tune: {path}: game {} is {}, not {}", rg.round, rg.game, g.spec()),
        }
        let mut s = match &rg.fen {
            Some(f) => g.parse_position(f).map_err(|e| anyhow::anyhow!("tune: {path}: game {}: {e}", rg.round))?,
            None => g.start(),
        };
        let start = s;
        let mut moves = Vec::with_capacity(rg.moves.len());
        for (i, text) in rg.moves.iter().enumerate() {
            let m = g
                .parse_move(&s, text)
                .map_err(|e| anyhow::anyhow!("tune: {path}: game {} move {}: {e}", rg.round, i + 1))?;
            g.play(&mut s, m);
            moves.push(m);
        }
        out.push((start, moves, first));
    }
    Ok(out)
}

/// `plateau tune --eval nt`: data (`--data FILE[,FILE...]` or played as for `pst`), the fit of train/ntuple_fit.rs, the
/// weights file (`--out`, e.g. `src/games/breakthrough/eval/nt_weights.bin`).
fn run_nt(g: &crate::games::Breakthrough, a: &TuneArgs, out: &mut super::Out) -> anyhow::Result<()> {
    use crate::games::breakthrough::eval::ntuple::NtWeights;
    use crate::train::ntuple_fit as ntrain;
    if !(0.0..=1.0).contains(&a.lambda) || a.lr <= 0.0 || a.threads == 0 || a.l2 < 0.0 {
        anyhow::bail!("tune: --lambda must be in [0, 1], --lr positive, --l2 not negative, --threads at least 1");
    }
    let files = data_files(g, a)?;
    if files.iter().all(|f| f.is_empty()) {
        anyhow::bail!("tune: no positions");
    }
    let start = NtWeights::zero(g).ok_or_else(|| anyhow::anyhow!("tune: the board is narrower than a 2x3 window"))?;
    let o = ntrain::NtOptions {
        lambda: a.lambda,
        epochs: a.epochs,
        lr: a.lr,
        l2: a.l2,
        fit_pst: a.fit_pst,
        report_every: a.report_every,
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(a.threads).build()?;
    let (f, w) = pool
        .install(|| ntrain::fit(g, &files, &start, &o))
        .ok_or_else(|| anyhow::anyhow!("tune: the starting weights do not fit the board"))?;
    if let Some(path) = &a.out {
        write(path, &w.to_bytes(), "tune: --out")?;
    }
    if a.json {
        out.json(serde_json::to_value(&f)?);
    } else {
        let kv: Vec<String> = f.k_value.iter().map(|k| format!("{k:.4}")).collect();
        println!(
            "{} positions ({} training, {} validation), K(search value) = {} (per file), lambda = {}, K = {:.4}",
            f.positions,
            f.train,
            f.validation,
            kv.join(", "),
            f.lambda,
            f.k
        );
        for (t, tr, va) in &f.curve {
            println!("epoch {t:>5}: training error {tr:.6}, validation error {va:.6}");
        }
        println!("training error   {:.6} -> {:.6}", f.train_error_before, f.train_error_after);
        println!("validation error {:.6} -> {:.6}", f.validation_error_before, f.validation_error_after);
        println!("{} of {} table entries not zero", f.nonzero_entries, f.entries);
    }
    Ok(())
}

/// The self-play data games of `--games`, `--nodes`, `--data-eval`: with `--save-data FILE`, written game by game and
/// resumed when the file holds an interrupted run with the same settings (`train/datagen.rs`).
fn self_play(g: &crate::games::Breakthrough, a: &TuneArgs) -> anyhow::Result<Vec<train::Record>> {
    let games = u32::try_from(a.games).map_err(|_| anyhow::anyhow!("tune: --games too large"))?;
    let show = |n: usize| {
        if n.is_multiple_of(10) || n == a.games {
            eprint!("\rself-play: {n}/{} games", a.games);
            let _ = std::io::stderr().flush();
        }
    };
    let r = match &a.save_data {
        Some(path) => {
            let set = crate::train::datagen::DataSettings {
                nodes: a.nodes.max(1),
                data_eval: data_eval(a)?,
                random_plies: a.random_plies,
                seed: a.seed,
            };
            // Each game is appended and flushed when it ends: a signal keeps them all (docs/reliability.md).
            crate::limits::exit_on_interrupt(&format!(
                "the finished self-play games are in {path}; the same command goes on from them"
            ));
            let path = std::path::Path::new(path);
            crate::train::datagen::generate_to_file(g, &set, games, a.threads, path, |n, _| show(n))?
        }
        None => {
            let opts = train::data_options(a.nodes.max(1), data_eval(a)?);
            train::generate(g, &opts, games, a.random_plies, a.seed, a.threads, show)?
        }
    };
    eprintln!();
    Ok(r)
}

/// The positions of `--data FILE[,FILE...]` (one list per file), or of self-play games as for `pst`; written to
/// `--save-data` when asked.
fn data_files(g: &crate::games::Breakthrough, a: &TuneArgs) -> anyhow::Result<Vec<Vec<train::Record>>> {
    // Recorded games are labelled for `pst` only: here `--pgn` was ignored and self-play games were played instead.
    if !a.pgn.is_empty() {
        anyhow::bail!("tune: --pgn is read by --eval pst only (label the games there with --save-data, then --data)");
    }
    let files = match a.data.is_empty() {
        false => {
            let mut all = Vec::new();
            for path in a.data.iter().flat_map(|p| p.split(',')) {
                let text = crate::files::read_text(std::path::Path::new(path), crate::files::MAX_DATA, "tune:")
                    .map_err(anyhow::Error::msg)?;
                all.push(train::read_records(g, &text)?);
            }
            all
        }
        true => return Ok(vec![self_play(g, a)?]),
    };
    if let Some(path) = &a.save_data {
        write(path, train::write_records(g, &files.concat()).as_bytes(), "tune: --save-data")?;
    }
    Ok(files)
}

/// `plateau tune --eval nnue`: data as for `nt`, the network of train/nnue_fit.rs, the weights file (`--out`, e.g.
/// `src/games/breakthrough/eval/nnue_weights.bin`).
fn run_nnue(g: &crate::games::Breakthrough, a: &TuneArgs, out: &mut super::Out) -> anyhow::Result<()> {
    use crate::train::nnue_fit;
    if !(0.0..=1.0).contains(&a.lambda) || a.lr <= 0.0 || a.threads == 0 {
        anyhow::bail!("tune: --lambda must be in [0, 1], --lr positive, --threads at least 1");
    }
    if g.rows != 8 || g.columns != 8 {
        anyhow::bail!("tune: --eval nnue: the network is for the 8x8 board");
    }
    let files = data_files(g, a)?;
    if files.iter().all(|f| f.is_empty()) {
        anyhow::bail!("tune: no positions");
    }
    let o = nnue_fit::NnueOptions {
        lambda: a.lambda,
        epochs: a.epochs,
        lr: a.lr,
        seed: a.seed,
        report_every: a.report_every,
        quiet: a.quiet,
        residual: a.residual,
    };
    let (f, w) = nnue_fit::fit(g, &files, &o);
    if let Some(path) = &a.out {
        write(path, &w.to_bytes(), "tune: --out")?;
    }
    if a.json {
        out.json(serde_json::to_value(&f)?);
    } else {
        let kv: Vec<String> = f.k_value.iter().map(|k| format!("{k:.4}")).collect();
        println!(
            "{} positions ({} training, {} validation), K(search value) = {} (per file), K(pst) = {:.4}, scale {}",
            f.positions,
            f.train,
            f.validation,
            kv.join(", "),
            f.k_pst,
            f.scale
        );
        println!("validation error: pst {:.6}", f.pst_validation_error);
        println!(
            "network of epoch {}: training error {:.6}, validation error {:.6} (quantized {:.6})",
            f.best_epoch, f.train_error_after, f.validation_error_after, f.quantized_validation_error
        );
    }
    Ok(())
}

/// The evaluation the self-play games are played with (`--data-eval`), one of Breakthrough's (`nnue:FILE` too).
/// Write an output file atomically ([`crate::files::replace`]).
fn write(path: &str, bytes: &[u8], what: &str) -> anyhow::Result<()> {
    crate::files::replace(std::path::Path::new(path), bytes, what).map_err(anyhow::Error::msg)
}

fn data_eval(a: &TuneArgs) -> anyhow::Result<&str> {
    <crate::games::Breakthrough as crate::game::Knowledge>::check_evaluation(&a.data_eval)
        .map_err(|e| anyhow::anyhow!("tune: --data-eval: {e}"))?;
    Ok(&a.data_eval)
}
