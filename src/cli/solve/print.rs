//! The text of `plateau solve`: one layout per report of the registry ([`crate::solve::report`]).

use crate::solve::report::*;

/// Print `report` as text on stdout.
pub(super) fn text(report: &SolveReport) {
    match report {
        SolveReport::Connect4(r) => connect4(r),
        SolveReport::AlphaBeta(r) => alphabeta(r),
        SolveReport::Batch(r) => batch(r),
        SolveReport::Othello(r) => othello(r),
        SolveReport::Dfpn(r) => dfpn(r),
        SolveReport::Breakthrough(r) => breakthrough(r),
        SolveReport::Split(r) => split(r),
        SolveReport::CheckSplit(r) => check_split(r),
        SolveReport::RetroBuild(r) => retro_build(r),
        SolveReport::RetroQuery(r) => retro_query(r),
        SolveReport::Oware(r) => oware(r),
        SolveReport::CheckersDb(r) => checkers_db(r),
        SolveReport::Pig(r) => pig(r),
        SolveReport::Simultaneous(r) => simultaneous(r),
        SolveReport::Threats(r) => threats(r),
        SolveReport::ProofFile(r) => proof_file(r),
        SolveReport::ThreatsSplit(r) => threats_split(r),
    }
}

fn or_dash(m: &Option<String>) -> &str {
    m.as_deref().unwrap_or("-")
}

fn connect4(r: &Connect4Report) {
    println!("result     {}: {} (proven)", r.result, r.winner_text);
    println!("score      {}", r.score);
    println!("best move  {}", or_dash(&r.best_move));
    println!("nodes      {}  (+{} to find the best move)", r.nodes, r.best_move_nodes);
    println!("seconds    {:.6}  (+{:.6})", r.seconds, r.best_move_seconds);
}

fn moves(list: &Option<Vec<MoveValue>>) {
    for m in list.iter().flatten() {
        println!("move {:<8} {:<5} {}", m.mv, m.result, m.score);
    }
}

fn alphabeta(r: &AlphaBetaReport) {
    moves(&r.moves);
    println!("{}", r.display);
    println!("result     {}: {} (proven)", r.result, r.winner_text);
    match r.plies {
        Some(p) => println!("score      {} ({} in {p} plies)", r.score, r.result),
        None => println!("score      {}", r.score),
    }
    println!("best move  {}", or_dash(&r.best_move));
    println!("nodes      {}", r.nodes);
    println!("seconds    {:.6}", r.seconds);
}

fn batch(r: &BatchReport) {
    println!("file          {}", r.file);
    println!("positions     {}", r.positions);
    println!("mismatches    {}", r.mismatches);
    println!("mean seconds  {:.6}", r.mean_seconds);
    println!("mean nodes    {:.1}", r.mean_nodes);
    if let (Some(nodes), Some(seconds)) = (r.mean_best_move_nodes, r.mean_best_move_seconds) {
        println!("mean_best_move_nodes  {}", serde_json::json!(nodes));
        println!("mean_best_move_seconds  {}", serde_json::json!(seconds));
    }
}

fn othello(r: &OthelloReport) {
    moves(&r.moves);
    println!("{}", r.display);
    println!("result     {}", r.result);
    println!("score      {} (final disc difference for the side to move, empties to the winner)", r.score);
    println!("best move  {}", or_dash(&r.best_move));
    println!("nodes      {}", r.nodes);
    println!("seconds    {:.6}", r.seconds);
}

fn dfpn(r: &DfpnReport) {
    println!("{}", r.display);
    println!("result     {}: {} (proven)", r.result, r.winner_text);
    println!("score      {}", r.score);
    println!("best move  {}", or_dash(&r.best_move));
    println!("nodes      {}  ({} df-pn run{})", r.nodes, r.runs, if r.runs > 1 { "s" } else { "" });
    println!("seconds    {:.6}", r.seconds);
}

fn breakthrough(r: &BreakthroughReport) {
    println!("{}", r.display);
    println!("result         {}: {} (proven)", r.result, r.winner_text);
    match r.plies {
        Some(p) => println!("score          {} ({} in {p} plies)", r.score, r.result),
        None => println!("score          {}", r.score),
    }
    println!("best move      {}", or_dash(&r.best_move));
    println!("winning moves  {}", r.winning_moves.join(" "));
    println!("nodes          {} df-pn + {} distance", r.nodes, r.distance_nodes);
    if let Some(c) = &r.proof_check {
        println!(
            "proof check    holds: {} positions where the winner moves, {} where the loser does (every move), {} ends of the game",
            c.or_positions, c.and_positions, c.terminal_positions
        );
    }
    println!("seconds        {:.3}", r.seconds);
}

fn threats(r: &ThreatsReport) {
    println!("{}", r.display);
    println!("result         {}: {} (proven)", r.result, r.winner_text);
    println!("score          {}", r.score);
    println!("best move      {}", or_dash(&r.best_move));
    println!("nodes          {} df-pn (+ {} in earlier runs behind --table)", r.nodes, r.earlier_nodes);
    println!(
        "threats        {} threat-space searches, {} positions, {} winning sequences",
        r.tss_calls, r.tss_nodes, r.tss_wins
    );
    println!("table          {} entries ({} read from --table)", r.table_entries, r.table_read);
    if let Some(n) = r.proof_positions {
        let file = match (&r.proof_file, r.proof_bytes) {
            (Some(f), Some(b)) => format!(", written to {f} ({b} bytes)"),
            _ => String::new(),
        };
        println!("proof          {n} positions where the winner moves{file}");
    }
    if let Some(c) = &r.proof_check {
        println!(
            "proof check    holds: {} positions where the winner moves, {} where the loser does (every move), {} ends of the game",
            c.or_positions, c.and_positions, c.terminal_positions
        );
    }
    println!("seconds        {:.3}", r.seconds);
}

fn proof_file(r: &ProofFileCheck) {
    let c = &r.check;
    println!("proof          {} ({}, {} positions stored)", r.file, r.game, r.positions);
    println!("root           {}", r.root);
    println!(
        "check          {}",
        if c.verified { "holds: the side to move at the root wins" } else { "does NOT hold" }
    );
    println!(
        "walked         {} positions where the winner moves ({} won at once), {} where the loser does (every move), {} ends of the game",
        c.or_positions, c.immediate_wins, c.and_positions, c.terminal_positions
    );
    println!("seconds        {:.3}", r.seconds);
}

fn threats_split(r: &ThreatsSplitReport) {
    println!("result         {}", r.result);
    println!("first move     {}", r.first_move);
    println!(
        "jobs           {} proven of {} ({} answers up to the {} symmetries that fix the position after the first move)",
        r.proven_jobs, r.jobs, r.answers, r.stabiliser
    );
    if !r.failed_jobs.is_empty() {
        println!("disproven      {}", r.failed_jobs.join(" "));
    }
    if !r.undecided_jobs.is_empty() {
        println!("undecided      {}", r.undecided_jobs.join(" "));
    }
    println!(
        "nodes          {} df-pn in {} jobs run now ({} in all the jobs' runs)",
        r.nodes, r.jobs_run, r.total_nodes
    );
    println!("results        {}", r.results_file);
    if let (Some(f), Some(n), Some(b)) = (&r.proof_file, r.proof_positions, r.proof_bytes) {
        println!("proof          {n} positions where the winner moves, merged into {f} ({b} bytes)");
    }
    if let Some(c) = &r.proof_check {
        println!(
            "proof check    holds: {} positions where the winner moves, {} where the loser does (every move), {} ends of the game",
            c.or_positions, c.and_positions, c.terminal_positions
        );
    }
    println!("seconds        {:.3}", r.seconds);
}

fn split(r: &SplitReport) {
    println!("result         {}", r.result);
    println!("best move      {}", or_dash(&r.best_move));
    println!("winning moves  {}", r.winning_moves.join(" "));
    println!("undecided      {}", r.undecided_moves.join(" "));
    println!("nodes          {} df-pn (+ {} in earlier runs behind --table)", r.nodes, r.earlier_nodes);
    println!("seconds        {:.3}", r.seconds);
}

fn check_split(r: &CheckSplitReport) {
    println!("claim          {} for the side to move at {}", r.claim, r.position);
    println!("verdict        {}", r.verdict);
    println!(
        "jobs           {} of {} done, {} verified ({} this run); split depth {}",
        r.jobs_done, r.jobs, r.jobs_verified, r.jobs_this_run, r.split_depth
    );
    let plan =
        if r.plan_complete { "complete".to_string() } else { format!("{} choices still needed", r.choices_needed) };
    println!("plan           {} choices ({} this run), {plan}", r.choices, r.choices_this_run);
    if !r.failures.is_empty() {
        println!("failed after   {}", r.failures.join(" | "));
    }
    println!("walked         {} + {} positions; {} df-pn expansions", r.or_positions, r.and_positions, r.solve_nodes);
    let dash = |s: Option<f64>| s.map_or("-".to_string(), |s| format!("{s:.1}"));
    println!(
        "job seconds    median {} max {} total {:.1}",
        dash(r.job_seconds_median),
        dash(r.job_seconds_max),
        r.job_seconds_total
    );
    println!(
        "job CPU s      median {} max {} total {:.1}",
        dash(r.job_cpu_seconds_median),
        dash(r.job_cpu_seconds_max),
        r.job_cpu_seconds_total
    );
    println!("seconds        {:.3}", r.seconds);
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

fn retro_build(r: &RetroBuildReport) {
    println!("{}", r.display);
    println!("result        {}: {} (proven)", r.result, r.winner_text);
    if let Some(p) = r.plies {
        println!("plies         {p}");
    }
    println!("best moves    {}", r.best_moves.join(" "));
    println!(
        "positions     {}  (wins {}, draws {}, losses {} for the side to move)",
        r.positions, r.wins, r.draws, r.losses
    );
    println!("moves         {}", r.moves);
    println!("max distance  {}", r.max_distance);
    println!("memory        about {} (estimated peak)", mb(r.memory_bytes));
    println!("seconds       {:.3}", r.seconds);
    if let (Some(f), Some(b)) = (&r.db, r.db_bytes) {
        println!(
            "database      {f}: {b} bytes ({:.1} per position), written in {:.3} s",
            b as f64 / r.positions.max(1) as f64,
            r.write_seconds
        );
    }
}

fn retro_query(r: &RetroQueryReport) {
    println!("{}", r.display);
    println!("result      {}: {} (proven)", r.result, r.winner_text);
    match r.plies {
        Some(0) => println!("score       0 (the game is over: {} for the side to move)", r.result),
        Some(p) => println!("score       {} ({} in {p} plies)", r.score, r.result),
        None => println!("score       0"),
    }
    println!("best moves  {}", r.best_moves.join(" "));
    println!("database    {} ({} positions)", r.db, r.db_positions);
}

fn oware(r: &OwareReport) {
    if r.built {
        println!("{:>6} {:>14} {:>10} {:>14}", "seeds", "positions", "seconds", "positions/s");
        for l in &r.levels {
            let rate = if l.seconds > 0.0 { format!("{:.0}", l.positions as f64 / l.seconds) } else { "-".into() };
            let secs = if l.built { format!("{:.3}", l.seconds) } else { "(file)".into() };
            println!("{:>6} {:>14} {:>10} {:>14}", l.seeds, l.positions, secs, rate);
        }
        println!("total  {} positions, {} built in {:.3} s", r.positions, r.built_positions, r.seconds);
    }
    match (r.value, r.final_difference, &r.best_moves, &r.move_values) {
        (Some(v), Some(fin), Some(best), Some(all)) => {
            println!("position   {}", r.position);
            println!("value      {v:+} (seeds from the board, side to move minus opponent, database rules)");
            println!("final      {fin:+} (with the stores)");
            println!("best moves {}", if best.is_empty() { "-".into() } else { best.join(" ") });
            let each: Vec<String> = all.iter().map(|m| format!("{} {:+}", m.mv, m.value)).collect();
            println!("moves      {}", each.join(", "));
        }
        _ => println!(
            "position   {} has {} seeds on the board: not in the databases (levels 0..={}) or over",
            r.position, r.seeds_on_board, r.db_seeds
        ),
    }
}

fn checkers_db(r: &CheckersDbReport) {
    if r.built {
        println!(
            "{:>6} {:>11} {:>14} {:>14} {:>14} {:>14} {:>6} {:>10} {:>12}",
            "pieces", "signatures", "positions", "wins", "draws", "losses", "plies", "seconds", "positions/s"
        );
        for p in &r.pieces {
            let rate = if p.seconds > 0.0 { format!("{:.0}", p.positions as f64 / p.seconds) } else { "-".into() };
            let secs = if p.built { format!("{:.3}", p.seconds) } else { "(file)".into() };
            println!(
                "{:>6} {:>11} {:>14} {:>14} {:>14} {:>14} {:>6} {:>10} {:>12}",
                p.pieces, p.signatures, p.positions, p.wins, p.draws, p.losses, p.max_plies, secs, rate
            );
        }
        println!("total  {} positions, {} built in {:.3} s", r.positions, r.built_positions, r.seconds);
    }
    match (r.result, &r.best_moves, &r.move_values) {
        (Some(v), Some(best), Some(all)) => {
            let plies = r.plies.map(|p| format!(" in {p} plies")).unwrap_or_default();
            println!("position   {}", r.position);
            println!("value      {v}{plies} (side to move, perfect play, without the draw rule)");
            println!("best moves {}", if best.is_empty() { "-".into() } else { best.join(" ") });
            let each: Vec<String> = all
                .iter()
                .map(|m| format!("{} {}{}", m.mv, m.result, m.plies.map(|p| format!(" {p}")).unwrap_or_default()))
                .collect();
            println!("moves      {}", if each.is_empty() { "-".into() } else { each.join(", ") });
        }
        _ => println!(
            "position   {} has {} pieces: not in the databases (1..={} pieces)",
            r.position, r.pieces_on_board, r.db_pieces
        ),
    }
}

fn pig(r: &PigReport) {
    println!("position         {}", r.position);
    println!("win probability  {:.6}  (side to move, optimal play on both sides)", r.win_probability);
    println!("result           {}  (the favoured side)", r.result);
    println!("best move        {}", or_dash(&r.best_move));
    println!("hold at          {}  (turn total at which the side to move holds, from this score)", r.hold_here);
    println!("sweeps           {}", r.sweeps);
    println!("seconds          {:.3}", r.seconds);
}

fn simultaneous(r: &SimultaneousReport) {
    let show =
        |v: &[Weighted]| v.iter().map(|w| format!("{} {:.4}", w.mv, w.probability)).collect::<Vec<_>>().join(", ");
    let [first, second] = &r.names;
    println!("position     {}", r.position);
    println!(
        "value        {:+.6}  (for {first}: expected result, win 1, loss -1, both playing optimal mixed strategies)",
        r.value
    );
    println!("result       {}", r.result);
    println!("{first:<12} {}", show(&r.strategy_first));
    println!("{second:<12} {}", show(&r.strategy_second));
    println!("states       {}  ({} needed the linear program)", r.states, r.mixed_nodes);
    println!("seconds      {:.3}", r.seconds);
}
