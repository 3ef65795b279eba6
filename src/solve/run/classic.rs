//! `connect4` (the Connect Four solver, [`crate::solve::connect4`]), `alphabeta` (the generic alpha-beta solver,
//! [`crate::solve::generic`]), each on one position or a `--batch` file, and `dfpn-generic` (the generic df-pn,
//! [`crate::solve::dfpn`]).

use anyhow::bail;

use crate::game::{FullGame, Outcome, Side, winner_words};
use crate::games::connect_four::ConnectFour;
use crate::solve::batch;
use crate::solve::connect4;
use crate::solve::dfpn::Dfpn;
use crate::solve::generic::{GenericSolver, max_ply};
use crate::solve::report::{AlphaBetaReport, BatchReport, Connect4Report, DfpnReport, MoveValue, SolveReport};
use crate::solve::request::{Progress, Request};

/// The lines of `--batch FILE` (the first `--first N`).
fn batch_lines(req: &Request, file: &str) -> anyhow::Result<Vec<(usize, String)>> {
    batch::read_lines(file, req.first).map_err(anyhow::Error::msg)
}

/// `connect4`: one position (a move sequence) or a batch file.
pub fn connect4(g: &ConnectFour, req: &Request, progress: &mut dyn Progress) -> anyhow::Result<SolveReport> {
    let board = connect4::board(g.rows, g.columns).map_err(anyhow::Error::msg)?;
    let log2 = connect4::table_log2(req.tt_mib().map_err(anyhow::Error::msg)?);
    if let Some(file) = &req.batch {
        let lines = batch_lines(req, file)?;
        // Parse everything first: a malformed line is an error before any work.
        let jobs = connect4::parse_batch(&board, file, &lines).map_err(anyhow::Error::msg)?;
        progress.batch_start(jobs.len());
        let report = connect4::solve_batch(&board, log2, &jobs, req.weak, |e| progress.entry(e));
        progress.batch_end();
        return Ok(SolveReport::Batch(BatchReport::new(file, &report)));
    }
    let (p, r) = connect4::solve_one(&board, log2, req.position.as_deref(), req.moves.as_deref(), req.weak)
        .map_err(anyhow::Error::msg)?;
    let result = connect4::result_word(r.score);
    let stm = if p.plies % 2 == 0 { Side::First } else { Side::Second };
    Ok(SolveReport::Connect4(Connect4Report {
        game: format!("connect_four(rows={},columns={})", board.rows, board.columns),
        moves: p.plies,
        weak: req.weak,
        result,
        winner_text: winner_words(&board, stm, result),
        proven: true,
        score: r.score,
        best_move: r.best_move.map(|c| (c + 1).to_string()),
        nodes: r.nodes,
        seconds: r.seconds,
        best_move_nodes: r.best_move_nodes,
        best_move_seconds: r.best_move_seconds,
    }))
}

/// `alphabeta`: one position (with `--analyze`, every move's value too) or a batch file.
pub fn alphabeta<G: FullGame>(g: &G, req: &Request, progress: &mut dyn Progress) -> anyhow::Result<SolveReport> {
    if const { !G::KIND.is_classic() } {
        return Err(super::not_for(g, "alphabeta"));
    }
    let mib = req.tt_mib().map_err(anyhow::Error::msg)?;
    if let Some(file) = &req.batch {
        if req.analyze {
            bail!("--analyze is for one position (not --batch)");
        }
        let lines = batch_lines(req, file)?;
        let jobs = batch::parse_positions(g, file, &lines).map_err(anyhow::Error::msg)?;
        progress.batch_start(jobs.len());
        let report = batch::solve_positions(g, &jobs, mib, req.weak, |e| progress.entry(e));
        progress.batch_end();
        return Ok(SolveReport::Batch(BatchReport::new(file, &report)));
    }
    let state = super::root(g, req)?;
    let mut solver = GenericSolver::<G>::new(mib, req.weak);
    let r = solver.solve(g, &state);
    if r.too_deep {
        bail!(
            "{}: the game goes deeper than the {} plies the generic solver can follow (its stack); use --method dfpn, or --method retro for a game whose positions fit in memory",
            g.spec(),
            max_ply::<G>()
        );
    }
    let (word, score) = r.word_and_score(req.weak);
    let moves = req.analyze.then(|| {
        let analysis = solver.analyze(g, &state);
        let value = |m: &crate::solve::generic::MoveValue<G::Move>| MoveValue {
            mv: g.format_move(&state, m.mv),
            result: m.result,
            score: m.score,
            nodes: m.nodes,
        };
        analysis.iter().map(value).collect()
    });
    Ok(SolveReport::AlphaBeta(AlphaBetaReport {
        game: g.spec(),
        position: g.format_position(&state),
        weak: req.weak,
        result: word,
        winner_text: winner_words(g, g.side_to_move(&state), word),
        proven: true,
        score,
        plies: r.plies,
        best_move: r.best_move.map(|m| g.format_move(&state, m)),
        nodes: r.nodes,
        seconds: r.seconds,
        moves,
        display: g.display(&state),
    }))
}

/// `dfpn-generic`: win, draw or loss by df-pn, within `--max-nodes`.
pub fn dfpn<G: FullGame>(g: &G, req: &Request) -> anyhow::Result<SolveReport> {
    if const { !G::KIND.is_classic() } {
        return Err(super::not_for(g, "dfpn-generic"));
    }
    let mib = req.tt_mib().map_err(anyhow::Error::msg)?;
    let state = super::root(g, req)?;
    // Deep games recurse deeply: run on a thread with a large stack.
    let r = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(scope, || Dfpn::<G>::new(mib, req.max_nodes).with_stack(1 << 30).solve(g, &state))
            .map(|h| h.join())
    });
    let r = match r {
        Ok(Ok(r)) => r,
        _ => bail!("the df-pn thread could not run"),
    };
    let Some(outcome) = r.outcome else {
        bail!("not solved within --max-nodes ({} nodes)", r.nodes);
    };
    let (word, score) = match outcome {
        Outcome::Win => ("win", 1),
        Outcome::Loss => ("loss", -1),
        _ => ("draw", 0),
    };
    Ok(SolveReport::Dfpn(DfpnReport {
        game: g.spec(),
        position: g.format_position(&state),
        weak: true,
        method: "dfpn",
        result: word,
        winner_text: winner_words(g, g.side_to_move(&state), word),
        proven: true,
        score,
        best_move: r.best_move.map(|m| g.format_move(&state, m)),
        nodes: r.nodes,
        runs: r.runs,
        seconds: r.seconds,
        display: g.display(&state),
    }))
}
