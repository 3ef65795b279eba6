//! The defects of the adversarial run (issue 21), each answered by a one-line error or by the right behaviour: the
//! `plateau` binary end to end, as a hostile user would drive it.

use crate::common::{BIN, plateau, plateau_stdin, refused, stderr, stdout};
use plateau::game::Capabilities;
use std::io::Read;
use std::process::{Command, Output, Stdio};

/// The command fails with exit code 1 and one `error:` line containing `needle`, no panic, no abort.
#[track_caller]
fn temp_file(name: &str, content: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("plateau-hardening-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn oversized_tables_are_one_line_errors() {
    for args in [
        &["solve", "tic_tac_toe", "--tt", "900gb"][..],
        &["solve", "tic_tac_toe", "--method", "dfpn", "--tt", "900gb"],
        &["solve", "connect_four", "--tt", "900gb"],
        &["solve", "breakthrough(rows=5,columns=3)", "--tt", "900gb"],
        &["solve", "breakthrough(rows=5,columns=3)", "--check", "--check-memo", "900gb"],
        &["search", "tic_tac_toe", "--algo", "mtdf(tt=900gb)"],
        &["search", "breakthrough", "--algo", "engine(tt=900gb)"],
    ] {
        refused(args, "memory available");
    }
    refused(&["solve", "tic_tac_toe", "--tt", "2000000gb"], "too large");
}

#[test]
fn a_large_table_costs_what_is_used() {
    // 4 GiB asked for a game of 5,478 positions, in a process limited to 1 GiB of address space: the solve succeeds
    // because the table grows with what is stored (an eager 4 GiB table could not even be reserved).
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v 1048576; exec '{}' solve tic_tac_toe --tt 4gb --json", BIN))
        .output()
        .expect("sh runs");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"draw\""), "{}", stdout(&o));
}

/// Run with stdout already closed: the pipe's read end is dropped before the child starts, so its first write fails
/// (no race with a fast command under load).
fn closed_stdout(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut child =
        Command::new(BIN).args(args).stdout(writer).stderr(Stdio::piped()).spawn().expect("the binary runs");
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    Output { status, stdout: Vec::new(), stderr: err.into_bytes() }
}

#[test]
fn a_protocol_whose_reader_went_away_ends_with_141_while_its_input_stays_open() {
    // The GUI closed its end of our stdout but not our stdin: the loop must stop at its next turn (it used to read
    // on and think for nobody, then exit 0).
    for cmd in ["uci", "ugi"] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let mut child = Command::new(BIN)
            .arg(cmd)
            .stdin(Stdio::piped())
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut input = child.stdin.take().unwrap();
        use std::io::Write;
        let _ = writeln!(input, "{cmd}");
        let _ = writeln!(input, "isready");
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if start.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        drop(input);
        let status = status.unwrap_or_else(|| panic!("{cmd}: still running 20 s after its output was closed"));
        assert_eq!(status.code(), Some(141), "{cmd}");
    }
}

#[test]
fn garbage_numbers_positions_and_ranges_are_refused() {
    // Issue 43's hostile run: each of these was accepted.
    refused(&["perft", "breakthrough(rows=+6,columns=05)", "--depth", "1"], "rows=+6");
    refused(&["perft", "breakthrough(rows=6,columns=05)", "--depth", "1"], "columns=05");
    refused(&["search", "breakthrough", "--algo", "alphabeta(depth=+2)"], "depth");
    refused(&["perft", "breakthrough", "--position", "", "--depth", "1"], "empty position text");
    refused(&["puzzle", "korf", "--instances", "5-1"], "runs backwards");
    refused(&["puzzle", "korf", "--instances", "3,1-4"], "instance 3 is named twice");
    // Issue 43 point 8: an empty number between two commas was skipped (`0,,1,...` read as `0,1,...`).
    refused(&["puzzle", "sliding", "--tiles", "0,,1,2,3,4,5,6,7,8"], "an empty number");
    refused(&["puzzle", "sliding", "--tiles", "0,1,2,3,4,5,6,7,8,"], "an empty number");
    refused(&["puzzle", "sliding", "--tiles", "0,01,2,3,4,5,6,7,8"], "'01'");
}

#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    let batch = temp_file("c4.txt", b"2252576253462244111563365343671351441\n7422341735647741166133573473242566\n");
    for args in [
        &["games"][..],
        &["search", "breakthrough", "--algo", "alphabeta(depth=2)"],
        &["perft", "breakthrough", "--depth", "2", "--divide"],
        &["solve", "connect_four", "--batch", &batch, "--json"],
    ] {
        let o = closed_stdout(args);
        assert_eq!(o.status.code(), Some(141), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn the_contracts_example_and_complete_parameter_lists() {
    let o = plateau(&["search", "breakthrough", "--algo", "pvs(time=200ms,tt=64mb)", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    refused(&["search", "breakthrough", "--algo", "pvs(foo=1)"], "accepted: depth, eval, id, nodes, time, tt");
    refused(&["search", "breakthrough", "--algo", "alphabeta(foo=1)"], "depth");
}

#[test]
fn the_connect_four_batch_refuses_non_ascii() {
    let f = temp_file("c4-accents.txt", "44é5\n".as_bytes());
    refused(&["solve", "connect_four", "--batch", &f], "'é'");
    let f = temp_file("c4-wide.txt", "４４\n".as_bytes());
    refused(&["solve", "connect_four", "--batch", &f], "expected a column number");
    // A sign is not a digit (found by the c4_batch fuzz target: `,+4` was read as column 4).
    let f = temp_file("c4-sign.txt", ",+4\n".as_bytes());
    refused(&["solve", "connect_four", "--batch", &f], "'+': expected a column number");
    refused(&["solve", "connect_four", "--moves", "4 +4"], "expected a column number");
    // With separators a word is still one move a digit, as in the game's move lists (`,01` was read as column 1).
    let f = temp_file("c4-zero.txt", ",01\n".as_bytes());
    refused(&["solve", "connect_four", "--batch", &f], "'0': expected a column number");
    // On wide boards a word is a column number, without a leading zero as for the game's moves.
    let f = temp_file("c4-wide-zero.txt", "04\n".as_bytes());
    refused(&["solve", "connect_four(rows=4,columns=12)", "--batch", &f], "without leading zeros");
}

#[test]
fn threads_and_seconds_have_bounds() {
    for args in [
        &["perft", "breakthrough", "--depth", "1", "--threads", "10000"][..],
        &["perft", "breakthrough", "--depth", "1", "--threads", "4294967296"],
        &["perft", "breakthrough", "--depth", "1", "--threads", "0"],
        &["tune", "--threads", "10000"],
        &["solve", "breakthrough(rows=5,columns=3)", "--max-seconds", "nan"],
        &["solve", "breakthrough(rows=5,columns=3)", "--max-seconds=-1"],
    ] {
        let o = plateau(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("invalid value"), "{args:?}: {}", stderr(&o));
    }
    refused(&["search", "breakthrough", "--algo", "engine(threads=257)"], "out of range");
}

#[test]
fn counts_of_games_plies_and_states_have_ceilings() {
    for (args, says) in [
        (&["stats", "tic_tac_toe", "--games", "10000001"][..], "out of range 1..=10000000"),
        (&["stats", "tic_tac_toe", "--games", "18446744073709551616"], "not a number of games"),
        (&["stats", "tic_tac_toe", "--games", "0"], "out of range"),
        (&["stats", "tic_tac_toe", "--concurrency", "100000"], "out of range 1..=256"),
        (&["stats", "tic_tac_toe", "--max-plies", "1000001"], "out of range 1..=1000000"),
        (&["match", "tic_tac_toe", "--player", "random", "--player", "random", "--games", "99999999999"], "games"),
        (&["match", "tic_tac_toe", "--player", "random", "--player", "random", "--max-plies", "0"], "plies"),
        (&["puzzle", "sliding", "--tiles", "1 2 3 4 5 6 7 0 8", "--max-states", "4294967296"], "states"),
        (&["puzzle", "sliding", "--tiles", "1 2 3 4 5 6 7 0 8", "--max-states", "4000000000"], "memory available"),
    ] {
        let o = plateau(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("invalid value") && stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    refused(&["tune", "--games", "100001"], "out of range 1..=100000");
    refused(&["tune", "--games", "10", "--epochs", "1000000000"], "--epochs");
    // stats counts the games as they finish: a large run keeps only counts (its result still adds up).
    let o = plateau(&["stats", "tic_tac_toe", "--games", "3000", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["games"], 3000);
    assert_eq!(v["length"]["count"], 3000);
    let by_result: u64 = (0..3).map(|k| v["length_by_result"][k]["count"].as_u64().unwrap()).sum();
    assert_eq!(by_result, 3000);
    let bars: u64 = v["length_histogram"].as_array().unwrap().iter().map(|b| b["count"].as_u64().unwrap()).sum();
    assert_eq!(bars, 3000);
    assert_eq!(v["length"]["min"], 5);
    assert_eq!(v["length"]["max"], 9);
}

#[test]
fn solve_refuses_options_that_do_not_apply() {
    for (args, flag) in [
        (&["solve", "connect_four", "--moves", "4444", "--max-nodes", "5"][..], "--max-nodes"),
        (&["solve", "connect_four", "--split"], "--split"),
        (&["solve", "connect_four", "--race-rows", "2"], "--race-rows"),
        (&["solve", "connect_four", "--table", "/tmp/x.table"], "--table"),
        (&["solve", "connect_four", "--check"], "--check"),
        (&["solve", "tic_tac_toe", "--max-seconds", "3"], "--max-seconds"),
        (&["solve", "tic_tac_toe", "--method", "retro", "--race-rows", "2"], "--race-rows"),
        // Issue 43 point 8: options the chosen solver does not read, on every solver (the registry's option lists).
        (&["solve", "tic_tac_toe", "--first", "3"], "--first"),
        (&["solve", "tic_tac_toe", "--db-seeds", "3"], "--db-seeds"),
        (&["solve", "tic_tac_toe", "--budget", "3"], "--budget"),
        (&["solve", "connect_four", "--first", "0"], "--first"),
        (&["solve", "connect_four", "--moves", "4444", "--analyze"], "--analyze"),
        (&["solve", "pig(target=10)", "--weak"], "--weak"),
        (&["solve", "pig(target=10)", "--method", "retro"], "solvers for this game: pig"),
        (&["solve", "tic_tac_toe", "--method", "dfpn", "--batch", "/tmp/none"], "--batch"),
        (&["solve", "tic_tac_toe", "--db", "/tmp/x.db", "--max-memory", "1gb"], "--max-memory"),
        (&["solve", "breakthrough(rows=5,columns=3)", "--check-memo", "1gb"], "--check-memo"),
        (&["solve", "breakthrough(rows=5,columns=3)", "--split", "--max-nodes", "9"], "--max-nodes"),
        (&["solve", "breakthrough(rows=5,columns=3)", "--method", "dfpn", "--analyze"], "--analyze"),
        (&["solve", "oware(houses=3,seeds=2)", "--method", "retro", "--tt", "1gb"], "--tt"),
        (&["solve", "othello(size=4)", "--batch", "/tmp/none", "--analyze"], "--analyze"),
    ] {
        refused(args, flag);
    }
}

#[test]
fn the_default_race_table_fits_every_breakthrough_board() {
    let o = plateau(&["solve", "breakthrough(rows=3,columns=2,piece_rows=1)", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = plateau(&["solve", "breakthrough(rows=3,columns=2,piece_rows=1)", "--weak", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    refused(&["solve", "breakthrough(rows=3,columns=2,piece_rows=1)", "--race-rows", "3", "--json"], "race table");
}

#[test]
fn accepted_garbage_is_refused() {
    refused(&["perft", "breakthrough(,)", "--depth", "1"], "empty parameter");
    refused(&["search", "breakthrough", "--algo", "alphabeta (depth=3)"], "no space");
    refused(&["compare", "tic_tac_toe", "--algos", "minimax,,negamax", "--depths", "1"], "empty name");
    refused(&["perft", "breakthrough", "--position", "8/8/8/8/8/8/PPPPPPPP/pppppppp w - - 01", "--depth", "1"], "01");
    refused(
        &["perft", "breakthrough", "--position", "pppppppp/pppppppp/pppppppp/8/8/8/8/PPPPPPPP w", "--depth", "1"],
        "more than the 16",
    );
    refused(&["perft", "breakthrough", "--position", "05p2/8/8/8/8/8/PPPPPPPP/PPPPPPPP w", "--depth", "1"], "'05'");
    refused(&["perft", "marbles", "--position", "005 1", "--depth", "1"], "005");
    // Non-ASCII is shown as itself, not as the bytes of its encoding.
    refused(&["perft", "breakthrough", "--position", "8/8/8/8/8/8/8/ï7 w", "--depth", "1"], "unknown piece 'ï'");
}

#[test]
fn the_protocols_refuse_bad_limits_and_say_the_real_option_ranges() {
    let script = "uci\nsetoption name Threads value 500\nsetoption name Threads value 2\nsetoption name Hash value \
                  99999999\nisready\ngo movetime -5\ngo wtime -1 btime -1\ngo nodes 0\ngo depth 1\nquit\n";
    let o = plateau_stdin(&["uci"], script.as_bytes());
    let out = stdout(&o);
    assert!(out.contains("option name Threads type spin default 1 min 1 max 256"), "{out}");
    assert!(!out.contains("max 65536"), "Hash advertises the memory available: {out}");
    for needle in [
        "error setoption Threads: 500 is out of range 1..=256",
        "error setoption Hash: 99999999 is out of range",
        "error go: movetime -5",
        "error go: wtime -1",
        "error go: nodes 0: a search needs at least one node",
        "bestmove",
    ] {
        assert!(out.contains(needle), "missing '{needle}' in:\n{out}");
    }
    // An 8 MB unknown line is not echoed in full.
    let mut long = "x".repeat(8 << 20).into_bytes();
    long.extend_from_slice(b"\nisready\n");
    let o = plateau_stdin(&["ugi"], &long);
    let out = stdout(&o);
    assert!(out.len() < 2000 && out.contains("more bytes") && out.contains("readyok"), "{} bytes", out.len());
}

#[test]
fn the_arena_refuses_bad_settings_up_front() {
    let o = plateau(&[
        "match",
        "tic_tac_toe",
        "--player",
        "random",
        "--player",
        "random",
        "--games",
        "2",
        "--concurrency",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // An external engine with no limit of its own, in a match without a time control: refused before any game.
    refused(
        &["match", "tic_tac_toe", "--player", "uci(cmd=/bin/cat)", "--player", "random", "--games", "2"],
        "needs a limit",
    );
}

#[test]
fn a_folder_given_as_a_database_is_said_to_be_one() {
    let dir = std::env::temp_dir();
    refused(&["solve", "tic_tac_toe", "--db", dir.to_str().unwrap()], "folder");
}

#[test]
fn the_end_of_the_input_answers_a_running_search() {
    // A script piped in ends while the engine thinks: the end of the input is a `quit`, so the search stops and
    // answers (it used to end the process without a `bestmove`, or leave the search thread running in a library).
    for (dialect, game) in [("uci", "breakthrough"), ("ugi", "tic_tac_toe")] {
        for go in ["go infinite", "go movetime 100000", "go depth 60"] {
            let start = std::time::Instant::now();
            let o = plateau_stdin(&[dialect, game], format!("position startpos\n{go}\n").as_bytes());
            assert!(o.status.success(), "{dialect} {go}: {}", stderr(&o));
            let out = stdout(&o);
            assert_eq!(out.lines().filter(|l| l.starts_with("bestmove ")).count(), 1, "{dialect} {go}: {out}");
            assert!(start.elapsed().as_secs() < 30, "{dialect} {go}: the end of the input did not stop the search");
        }
    }
}

#[test]
fn threads_the_system_cannot_start_leave_fewer_threads_and_a_warning() {
    // Under a 1 GB address-space limit with 64 MiB thread stacks, 200 threads cannot all start (about 15 do, leaving
    // room for the search's own allocations; one allocator arena for all): the engine and MCTS search with the
    // threads that started and say so once; MCTS used to panic.
    for (algo, who) in [("engine(threads=200,depth=3,tt=1mb)", "engine"), ("mcts(threads=200,time=100ms)", "mcts")] {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 1000000; RUST_MIN_STACK=67108864 MALLOC_ARENA_MAX=1 exec '{}' search 'breakthrough(rows=5,columns=4)' --algo '{algo}'",
                BIN
            ))
            .output()
            .expect("sh runs");
        let e = stderr(&o);
        assert!(o.status.success(), "{algo}: {e}");
        assert!(!e.contains("panicked"), "{algo}: {e}");
        assert!(e.contains(&format!("warning: {who}: started ")), "{algo}: the fallback is said: {e}");
        assert_eq!(e.matches("warning").count(), 1, "{algo}: one warning: {e}");
        assert!(stdout(&o).contains("pv "), "{algo}: a move is still chosen: {}", stdout(&o));
    }
}

#[test]
fn an_interrupted_match_keeps_every_finished_game() {
    // SIGINT in the middle of a long match: every game finished before it is in the record, whole and readable (a
    // game cut in the middle of its block is left out by the reader), and replays legally.
    use plateau::game::Game;
    let record = temp_file("interrupted.pgn", b"");
    let mut child = Command::new(BIN)
        .args(["match", "tic_tac_toe", "--player", "random", "--player", "random", "--games", "1000000"])
        .args(["--record", &record])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let start = std::time::Instant::now();
    while std::fs::metadata(&record).map_or(0, |m| m.len()) < 20_000 && start.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(kill.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "the match was interrupted, not finished, and says so in its code");
    let text = std::fs::read_to_string(&record).unwrap();
    let games = plateau::arena::record::read_games(&text).expect("the record reads back");
    assert!(games.len() >= 20, "{} games kept", games.len());
    let ttt = plateau::games::TicTacToe;
    for g in &games {
        let end = ttt.play_moves(&ttt.start(), &g.moves.join(" ")).expect("a kept game replays");
        assert!(ttt.is_terminal(&end), "game {} is whole", g.round);
    }
}

#[test]
fn an_interrupted_book_build_writes_the_book_so_far() {
    // The first SIGINT stops the build, which writes a valid book of the positions done (it used to end the process,
    // keeping only the last checkpoint).
    let out = temp_file("interrupted.book", b"");
    std::fs::remove_file(&out).unwrap();
    let mut child = Command::new(BIN)
        .args(["book", "build", "breakthrough(rows=6,columns=5)", "--depth", "8", "--max-moves", "20"])
        .args(["--player", "alphabeta(depth=3)", "--checkpoint", "3600s", "--out", &out])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(std::time::Duration::from_millis(3000));
    assert!(child.try_wait().unwrap().is_none(), "the build is still running when interrupted");
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "the build stops and saves: {}", stderr(&o));
    assert!(stderr(&o).contains("interrupted (SIGINT): the book of the"), "{}", stderr(&o));
    // Beside --out (which is written only once the book is complete): interrupt::an_interrupted_book_build goes on.
    let book = plateau::book::Book::load(std::path::Path::new(&format!("{out}.partial"))).expect("a valid book");
    assert!(book.positions() > 0, "the positions done are kept");
    assert!(!std::path::Path::new(&out).exists(), "no book before the build is complete");
    std::fs::remove_file(format!("{out}.partial")).unwrap();
}

#[test]
fn connect_four_moves_read_the_same_in_batch_files_and_move_lists() {
    // Found by the c4_batch fuzz target: a batch line `7, 1` was the position after 7 (commas separate moves in batch
    // files), while `--moves '7,'` was refused. Both read commas as separators now.
    let batch = temp_file("c4-commas.txt", b"5,\n4,4,5\n");
    let o = plateau(&["solve", "connect_four(rows=4,columns=5)", "--batch", &batch, "--weak", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for moves in ["7,", "4,4,5", "4, 4 ,5"] {
        let o = plateau(&["search", "connect_four", "--moves", moves, "--depth", "1"]);
        assert!(o.status.success(), "--moves '{moves}': {}", stderr(&o));
    }
}

#[test]
fn control_characters_in_the_input_are_escaped_in_the_one_error_line() {
    // A line break or a backspace inside a game string, a player string, a move: the message quotes them escaped.
    refused(&["perft", ";;\n\u{8}", "--depth", "1"], r"\n\u{8}");
    refused(&["search", "tic_tac_toe", "--algo", "alpha\nbeta"], r"alpha\nbeta");
    refused(&["perft", "tic_tac_toe", "--moves", "b2\ra1\tz9", "--depth", "1"], "z9");
    // The HTTP API says the same in its one line (tests/suite/server.rs checks the JSON shape).
    let e = plateau::game::GameError::new("'a\nb\u{1b}[31m' ünïcode");
    assert_eq!(e.to_string(), r"'a\nb\u{1b}[31m' ünïcode");
}

#[test]
fn simultaneous_searches_show_their_half_and_end_on_every_limit() {
    // The line of a simultaneous-move search is one half of the next turn: shown, not played (it panicked).
    let o = plateau(&[
        "search",
        "breakthrough(rows=5,columns=3,moves=simultaneous)",
        "--algo",
        "smmcts(playouts=200,seed=1)",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["pv"].as_array().map(Vec::len), Some(1), "{doc}");
    // `nodes=N` where the tree cannot grow to N nodes (matching pennies: the root's children end the game) ends after
    // N iterations (it looped for ever). The thread only guards against a hang; nothing is timed.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(plateau(&["search", "matching_pennies", "--algo", "smmcts(nodes=500,seed=1)", "--json"]));
    });
    let o = rx.recv_timeout(std::time::Duration::from_secs(300)).expect("smmcts(nodes=500) ends");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["leaves"], 500, "{doc}");
}

#[test]
fn proof_number_search_stays_within_its_threads_stack() {
    // df-pn recursed as deep as its budget in Oware's long lines and overflowed a match thread's stack (found by
    // python/fuzz/fuzz_api.py); it now stops at the depth the stack allows.
    let o = plateau(&[
        "match",
        "oware",
        "--player",
        "random",
        "--player",
        "pns(budget=2000,fallback=random)",
        "--games",
        "1",
        "--seed",
        "0",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

// ---------------------------------------------------------------------------------------------------------------
// Files are never destroyed (issue 43): every writer goes through `plateau::files`.

/// A fresh directory of its own for one test.
fn fresh_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("plateau-hardening-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn is_symlink(p: &std::path::Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

#[test]
fn a_symbolic_link_a_fifo_a_device_or_a_directory_given_as_an_output_is_refused_untouched() {
    use std::os::unix::fs::FileTypeExt;
    let dir = fresh_dir("outputs");
    let target = dir.join("target");
    std::fs::write(&target, "mine").unwrap();
    let link = dir.join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let l = link.to_str().unwrap();
    // Every writer, given the link: one line, before any work; the link stays a link and its target is untouched.
    let spsa = ["spsa", "breakthrough(rows=6,columns=5)", "--engine", "engine(nodes=300)", "--params", "rfp_margin"];
    for args in [
        &["book", "build", "tic_tac_toe", "--out", l, "--depth", "1", "--player", "engine(depth=1)"][..],
        &["solve", "tic_tac_toe", "--method", "retro", "--db", l],
        &["solve", "breakthrough(rows=5,columns=3)", "--table", l],
        &["solve", "othello(size=4)", "--table", l],
        &["tune", "breakthrough(rows=5,columns=5)", "--eval", "pst", "--games", "2", "--save-data", l],
        &["tune", "breakthrough(rows=5,columns=5)", "--eval", "pst", "--games", "2", "--out", l],
        &[&spsa[..], &["--iterations", "1", "--out", l]].concat(),
        &["match", "tic_tac_toe", "--player", "random", "--player", "random", "--games", "2", "--record", l],
        &["tree", "tic_tac_toe", "--algo", "alphabeta(depth=2)", "--svg", l],
        &["tree", "tic_tac_toe", "--algo", "alphabeta(depth=2)", "--dot", l],
        &["compare", "tic_tac_toe", "--algos", "alphabeta", "--depths", "1", "--svg", l],
        &["stats", "tic_tac_toe", "--games", "2", "--svg", l],
    ] {
        refused(args, "a symbolic link");
        assert!(is_symlink(&link), "{args:?}: the link is still a link");
        assert_eq!(std::fs::read(&target).unwrap(), b"mine", "{args:?}: its target is untouched");
    }
    // An Oware level file that is a dangling link: it stays one (it used to be replaced by the level).
    let levels = dir.join("oware");
    std::fs::create_dir(&levels).unwrap();
    let level = levels.join("oware-h3-n0.db");
    std::os::unix::fs::symlink(dir.join("nowhere"), &level).unwrap();
    refused(
        &["solve", "oware(houses=3,seeds=2)", "--method", "retro", "--db", levels.to_str().unwrap()],
        "symbolic link",
    );
    assert!(is_symlink(&level) && !dir.join("nowhere").exists());
    // A fifo (it used to be replaced by a regular file), a directory, a device, a missing directory.
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
    let book = ["book", "build", "tic_tac_toe", "--depth", "1", "--player", "engine(depth=1)", "--out"];
    refused(&[&book[..], &[fifo.to_str().unwrap()]].concat(), "a fifo, not a regular file");
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    refused(&[&book[..], &[dir.to_str().unwrap()]].concat(), "a directory, not a regular file");
    refused(&["solve", "tic_tac_toe", "--method", "retro", "--db", "/dev/null"], "a character device");
    assert!(std::fs::symlink_metadata("/dev/null").unwrap().file_type().is_char_device());
    refused(&[&book[..], &[dir.join("no/such.book").to_str().unwrap()]].concat(), "does not exist");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_beside_an_output_is_never_touched() {
    // The old writers wrote `OUT.tmp` (datagen: OUT with its extension changed to .tmp) and renamed it over OUT: a
    // user's file of that name was overwritten, then gone. Now the temporary file has a name of its own.
    let dir = fresh_dir("beside");
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let theirs =
        ["ttt.book.tmp", "ttt.db.tmp", "ttt.db.partial.tmp", "data.tmp", "tree.svg.tmp", "p.txt.checkpoint.tmp"];
    for name in theirs {
        std::fs::write(dir.join(name), format!("someone else's {name}")).unwrap();
    }
    let (book, db, data, svg, p) =
        (path("ttt.book"), path("ttt.db"), path("data.txt"), path("tree.svg"), path("p.txt"));
    for args in [
        &["book", "build", "tic_tac_toe", "--out", &book, "--depth", "1", "--player", "engine(depth=1)"][..],
        &["solve", "tic_tac_toe", "--method", "retro", "--db", &db],
        &["tune", "breakthrough(rows=5,columns=5)", "--eval", "pst", "--games", "2", "--nodes", "100", "--epochs", "1"],
        &["tree", "tic_tac_toe", "--algo", "alphabeta(depth=2)", "--svg", &svg],
        &["spsa", "breakthrough(rows=6,columns=5)", "--engine", "engine(nodes=100)", "--params", "rfp_margin"],
    ] {
        let extra = match args[0] {
            "tune" => vec!["--save-data", &data],
            "spsa" => vec!["--iterations", "1", "--pairs", "1", "--out", &p],
            _ => vec![],
        };
        let o = plateau(&[args, &extra].concat());
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    for name in theirs {
        assert_eq!(std::fs::read_to_string(dir.join(name)).unwrap(), format!("someone else's {name}"), "{name}");
    }
    for out in ["ttt.book", "ttt.db", "data.txt", "tree.svg", "p.txt", "p.txt.checkpoint"] {
        assert!(dir.join(out).is_file(), "{out} written");
        assert!(plateau::files::temporaries_of(&dir.join(out)).is_empty(), "no temporary file of {out} left");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_write_that_fails_midway_leaves_the_old_file_whole() {
    // A file-size limit stands for a full disk: `tree --svg` and `--dot` used to truncate the file, then fail (the
    // process was even killed by SIGXFSZ). Now the write fails with one line and the old file is as it was.
    let dir = fresh_dir("full");
    for (flag, name) in [("--svg", "tree.svg"), ("--dot", "tree.dot"), ("--svg", "compare.svg")] {
        let file = dir.join(name);
        std::fs::write(&file, "the user's old picture\n").unwrap();
        let command = match name {
            // Some 3 kB of SVG, 8 kB of DOT, 35 kB of SVG, past the 1 kB of `ulimit -f 2` (512-byte blocks).
            "compare.svg" => "compare tic_tac_toe --algos alphabeta,minimax --depths 1..6",
            _ => "tree tic_tac_toe --algo 'minimax(depth=2)' --max-nodes 2000",
        };
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -f 2; exec '{}' {command} {flag} '{}'", BIN, file.display()))
            .output()
            .expect("sh runs");
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: a one-line error, not a kill: {e}");
        assert!(e.starts_with("error: cannot write") && e.trim_end().lines().count() == 1, "{name}: {e}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "the user's old picture\n", "{name}: the old file whole");
        assert!(plateau::files::temporaries_of(&file).is_empty(), "{name}: no temporary file left");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// issue 43, point 8: garbage that was accepted.
#[test]
fn garbage_numbers_are_refused_in_one_line() {
    // `tune --l2 nan` / `inf`, `--lr nan` exited 0 with all-zero weights.
    for (flag, value) in [("--l2", "nan"), ("--l2", "inf"), ("--lr", "nan")] {
        refused(&["tune", "--games", "10", "--nodes", "100", flag, value], flag);
    }
    // `engine(nodes=0)` returned an unsearched move; one range for every player reading nodes=.
    for player in ["engine(nodes=0)", "alphabeta(nodes=0)"] {
        refused(&["search", "tic_tac_toe", "--algo", player], "nodes=0");
    }
    // `search --depth 201` ran unbounded while `alphabeta(depth=201)` is refused: the same range for the flag.
    let o = plateau(&["search", "tic_tac_toe", "--depth", "201"]);
    assert_eq!(o.status.code(), Some(2), "a usage error: {}", stderr(&o));
    assert!(stderr(&o).contains("201"), "{}", stderr(&o));
    // ... and `go depth 201` of the protocols too (it searched unbounded): the same range 1..=200.
    for (proto, game) in [("uci", "breakthrough"), ("ugi", "tic_tac_toe")] {
        let script = format!("{proto}\nposition startpos\ngo depth 201\nisready\nquit\n");
        let o = plateau_stdin(&[proto, game], script.as_bytes());
        let out = stdout(&o);
        assert!(out.contains("error go: depth 201 is out of range 1..=200"), "{proto}: {out}");
        assert!(!out.contains("bestmove"), "{proto}: no search: {out}");
    }
}

#[test]
fn every_file_a_command_reads_is_bounded() {
    // Each read /dev/zero (endless) to the end before: now a device is refused before anything is read.
    let zero = "/dev/zero";
    refused(&["match", "tic_tac_toe", "--player", "random", "--player", "random", "--openings", zero], "--openings");
    refused(&["puzzle", "grid", "--file", zero], "not a regular file");
    refused(&["spsa", "--start", zero, "--iterations", "1"], "not a regular file");
    refused(&["tune", "--eval", "pst", "--data", zero], "not a regular file");
    refused(&["tune", "--eval", "pst", "--pgn", zero], "not a regular file");
    // A directory where a file is expected: the same one line.
    let dir = std::env::temp_dir();
    refused(&["puzzle", "grid", "--file", &dir.to_string_lossy()], "not a regular file");
}
