//! Issue 43, point 5: a limit given by a flag and by a player parameter (or a protocol command) shares one range,
//! refused with the same words: node budgets, playouts, depths, times, threads, table sizes, counts of games
//! (`docs/reliability.md`, "One range per limit"). Also the regressions of point 8 that `hardening.rs` does not hold.

use crate::common::{plateau, plateau_stdin, refused, stderr, stdout};

/// A usage error of clap (exit 2) naming `needle`.
#[track_caller]
fn usage_error(args: &[&str], needle: &str) {
    let o = plateau(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
}

/// What `go ...` of a protocol session answers (its output).
fn go(words: &str) -> String {
    let script = format!("uci\nposition startpos\ngo {words}\nisready\nquit\n");
    stdout(&plateau_stdin(&["uci", "breakthrough(rows=5,columns=5)"], script.as_bytes()))
}

#[test]
fn a_node_budget_is_at_least_one_everywhere() {
    let said = "a search needs at least one node";
    for player in ["engine(nodes=0)", "alphabeta(nodes=0)", "mcts(nodes=0)"] {
        refused(&["search", "tic_tac_toe", "--algo", player], &format!("nodes=0: {said}"));
    }
    // `tune --nodes 0` was read as 1.
    refused(&["tune", "--nodes", "0", "--games", "1"], &format!("tune: --nodes 0: {said}"));
    // An external engine's own budget: the `go nodes` it becomes is refused the same way.
    refused(
        &["match", "tic_tac_toe", "--player", "uci(cmd=true,nodes=0)", "--player", "random"],
        &format!("nodes=0: {said}"),
    );
    assert!(go("nodes 0").contains(&format!("error go: nodes 0: {said}")), "{}", go("nodes 0"));
    // Not a number: the player's parser and clap's, each a one-line refusal.
    refused(&["search", "tic_tac_toe", "--algo", "engine(nodes=nan)"], "not a whole number");
    usage_error(&["tune", "--nodes", "nan"], "--nodes");
}

#[test]
fn playouts_are_at_least_one_for_every_mcts() {
    for (game, player) in [("tic_tac_toe", "mcts"), ("matching_pennies", "smmcts"), ("phantom_tic_tac_toe", "ismcts")] {
        // `ismcts(playouts=0)` was accepted and chose from no playout at all.
        let text = format!("{player}(playouts=0)");
        refused(&["search", game, "--algo", &text], &format!("{player}: playouts=0: at least one playout is needed"));
    }
}

#[test]
fn depths_share_the_range_of_the_algorithm() {
    // `depth=` of a catalogue algorithm and `--depth`: 0 (the static evaluation) to 200.
    for args in
        [&["search", "tic_tac_toe", "--algo", "alphabeta(depth=0)"][..], &["search", "tic_tac_toe", "--depth", "0"]]
    {
        let o = plateau(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    refused(&["search", "tic_tac_toe", "--algo", "alphabeta(depth=201)"], "depth=201 is out of range 0..=200");
    usage_error(&["search", "tic_tac_toe", "--depth", "201"], "201");
    // The engine searches at least one ply: `engine(depth=0)` was refused while `--depth 0` ran it as depth 1.
    refused(&["search", "tic_tac_toe", "--algo", "engine(depth=0)"], "the engine searches at least one ply");
    refused(&["search", "tic_tac_toe", "--algo", "engine", "--depth", "0"], "the engine searches at least one ply");
    // An algorithm without a depth is told so, not silently given one.
    refused(&["search", "tic_tac_toe", "--algo", "random", "--depth", "3"], "unknown parameter 'depth'");
    // A move asked over a protocol or of an external engine: 1 to 200 (it was 1 to 1000 for `uci(depth=)`).
    assert!(go("depth 201").contains("error go: depth 201 is out of range 1..=200"), "{}", go("depth 201"));
    refused(
        &["match", "tic_tac_toe", "--player", "uci(cmd=true,depth=201)", "--player", "random"],
        "depth=201 is out of range 1..=200",
    );
}

#[test]
fn times_share_one_range_and_nan_is_refused() {
    // 2^40 ms, the protocols' ceiling, for every flag and parameter (they stopped at 10^9 s before).
    let past = "1099511627777ms";
    let said = "is not a valid duration (0 to 1099511627776 ms)";
    refused(&["search", "tic_tac_toe", "--time", past], said);
    refused(&["search", "tic_tac_toe", "--algo", &format!("engine(time={past})")], said);
    refused(&["match", "tic_tac_toe", "--player", "random", "--player", "random", "--movetime", past], said);
    assert!(
        go("movetime 1099511627777").contains("out of range 0..=1099511627776"),
        "{}",
        go("movetime 1099511627777")
    );
    for (args, flag) in [
        (&["search", "tic_tac_toe", "--time", "nan"][..], "--time"),
        (&["search", "tic_tac_toe", "--algo", "engine(time=nan)"], "time"),
        (&["search", "tic_tac_toe", "--algo", "mcts(time=inf)"], "time"),
        (&["match", "tic_tac_toe", "--player", "random", "--player", "random", "--movetime", "nan"], "--movetime"),
        (&["match", "tic_tac_toe", "--player", "random", "--player", "random", "--tc", "0s+1s"], "--tc"),
    ] {
        refused(args, flag);
    }
    // 0 is the shortest search, never an unsearched move: the engine completes one ply, MCTS plays one playout
    // (`mcts(time=0)` chose from an empty tree).
    for player in ["engine(time=0)", "mcts(time=0)"] {
        let o = plateau(&["search", "tic_tac_toe", "--algo", player, "--json"]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap_or_else(|_| panic!("{}", stderr(&o)));
        assert!(v["leaves"].as_u64().unwrap() >= 1, "{player}: {v}");
    }
}

#[test]
fn threads_tables_and_games_share_one_range() {
    let threads = "is out of range 1..=256";
    usage_error(&["perft", "tic_tac_toe", "--depth", "1", "--threads", "0"], threads);
    usage_error(&["perft", "tic_tac_toe", "--depth", "1", "--threads", "257"], threads);
    for player in ["engine(threads=0)", "engine(threads=257)", "mcts(threads=0)", "mcts(threads=257)"] {
        refused(&["search", "tic_tac_toe", "--algo", player], threads);
    }
    let out = stdout(&plateau_stdin(&["uci", "breakthrough"], "uci\nsetoption name Threads value 0\nquit\n"));
    assert!(out.contains("error setoption Threads: 0 is out of range 1..=256"), "{out}");
    // Table sizes: one parser (`spec::parse_table_mib`) for `--tt` and `tt=`, the same words.
    for (args, said) in [
        (&["solve", "tic_tac_toe", "--tt", "99999gb"][..], "--tt: '99999gb' is too large"),
        (&["search", "tic_tac_toe", "--algo", "engine(tt=99999gb)"], "tt: '99999gb' is too large"),
        (&["solve", "tic_tac_toe", "--tt", "nan"], "'nan' is not a size"),
        (&["search", "tic_tac_toe", "--algo", "engine(tt=nan)"], "'nan' is not a size"),
    ] {
        refused(args, said);
    }
    // Games: `match --games` and `stats --games`, 1 to 10,000,000.
    usage_error(&["stats", "tic_tac_toe", "--games", "0"], "games: 0 is out of range 1..=10000000");
    usage_error(
        &["match", "tic_tac_toe", "--player", "random", "--player", "random", "--games", "0"],
        "games: 0 is out of range 1..=10000000",
    );
}

/// Issue 43, point 8: `solve oware --db ''` was accepted (the others of that list are in `hardening.rs` and
/// `server.rs`).
#[test]
fn an_empty_database_name_is_refused() {
    refused(&["solve", "oware", "--db", ""], "--db: an empty file name");
    refused(&["solve", "oware(houses=3,seeds=2)", "--method", "retro", "--db", ""], "--db: an empty file name");
}

/// `tune --eval nt` and `nnue` ignored `--pgn` and played self-play games instead: refused, as other unread options.
#[test]
fn tune_refuses_recorded_games_where_it_does_not_read_them() {
    for eval in ["nt", "nnue"] {
        refused(&["tune", "--eval", eval, "--pgn", "games.pgn", "--games", "1"], "--pgn is read by --eval pst only");
    }
}

#[test]
fn a_node_budget_never_cuts_the_engines_first_iteration() {
    // `engine(nodes=1)` answered the first generated move, unsearched (depth 0, one node). The first iteration now
    // always completes: the move played has been searched at depth 1, with the nodes that took.
    for game in ["breakthrough", "connect_four", "othello", "oware"] {
        let out = plateau(&["search", game, "--algo", "engine(nodes=1,tt=1mb)", "--json"]);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
        assert_eq!(v["depth"], 1, "{game}: {v}");
        assert!(v["nodes"].as_u64().is_some_and(|n| n > 1), "{game}: {v}");
    }
}

#[test]
fn a_missing_external_engine_is_refused_before_the_first_game() {
    // It lost every game "on a crash": a misspelt path gave the other player a clean sweep.
    for cmd in ["/nonexistent/fairy-stockfish", "no-such-engine-anywhere"] {
        let player = format!("uci(cmd={cmd},depth=1)");
        refused(&["match", "tic_tac_toe", "--player", &player, "--player", "random"], "no such program");
        refused(
            &["tournament", "tic_tac_toe", "--player", &format!("x={player}"), "--player", "random"],
            "no such program",
        );
    }
}
