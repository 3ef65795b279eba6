//! `plateau match` and `plateau play` on the tiny model games (`coin_game`, `matching_pennies`,
//! `phantom_tic_tac_toe`): the arena's loop through the library (chance draws seeded and reproducible, joint moves
//! recorded as `a/b`, the referee's final state in records of hidden-information games), and the binary with random
//! players and scripted input; players that cannot play these games are refused in one line before anything starts.

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use crate::common::{json, plateau, plateau_stdin};
use plateau::arena::openings::Openings;
use plateau::arena::record::{GameRecord, read_games};
use plateau::arena::{MatchConfig, run_match};
use plateau::game::{Capabilities, Game};
use plateau::game::{FullGame, Side};
use plateau::games::{CoinGame, MatchingPennies, PhantomTicTacToe};

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// A failure with one line on stderr, returned.
fn refused(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(1), "stdout: {}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8_lossy(&out.stderr).trim_end().to_string();
    assert!(err.starts_with("error: ") && !err.contains('\n'), "{err:?}");
    err
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("plateau_tiny_{}_{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn config<G: FullGame>(players: [&str; 2], games: usize, seed: u64) -> MatchConfig<G> {
    MatchConfig {
        players: [players[0].to_string(), players[1].to_string()],
        games,
        limit: None,
        concurrency: 1,
        openings: Openings::Start,
        sprt: None,
        record: None,
        adjudicate: true,
        max_plies: 1000,
        margin: Duration::from_millis(100),
        progress: false,
        seed,
        fixed_colours: false,
    }
}

fn records<G: FullGame>(g: &G, cfg: &MatchConfig<G>) -> Vec<GameRecord> {
    let mut out = Vec::new();
    let summary = run_match(g, cfg, |r| out.push(r.clone())).unwrap();
    assert_eq!(summary.games as usize, cfg.games);
    assert!(summary.failures.is_empty(), "{:?}", summary.failures);
    out.sort_by_key(|r| r.round);
    out
}

// ---------------------------------------------------------------------------------------------------------------
// The arena through the library

#[test]
fn coin_game_matches_draw_the_coin_with_the_match_seed() {
    let g = CoinGame::default();
    let cfg = config::<CoinGame>(["random(seed=1)", "random(seed=2)"], 40, 5);
    let a = records(&g, &cfg);
    // Every game is MAX's move, the coin, MIN's move, and ends at a leaf.
    for r in &a {
        assert_eq!(r.moves.len(), 3, "{:?}", r.moves);
        assert!(["l", "r"].contains(&r.moves[0].as_str()) && ["h", "t"].contains(&r.moves[1].as_str()));
        // Chance outcomes are timed as 0 ms, like no one's move; the players moved once each.
        assert_eq!(r.move_ms.len(), 3);
        assert_eq!(r.moves_timed, [1, 1]);
        let s = g.play_moves(&g.start(), &r.moves.join(" ")).unwrap();
        assert!(g.is_terminal(&s));
    }
    // The same seed gives the same games; with two workers the coins stay (they depend on the seed and the game's
    // number, not on the worker), the seeded players' moves may not (each worker has its own players).
    let games = |rs: &[GameRecord]| rs.iter().map(|r| r.moves.join(" ")).collect::<Vec<_>>();
    assert_eq!(games(&a), games(&records(&g, &cfg)));
    let mut two = cfg.clone();
    two.concurrency = 2;
    let b = records(&g, &two);
    let coins = |rs: &[GameRecord]| rs.iter().map(|r| r.moves[1].clone()).collect::<Vec<_>>();
    assert_eq!(coins(&a), coins(&b));
    let mut other = cfg.clone();
    other.seed = 6;
    assert_ne!(coins(&a), coins(&records(&g, &other)));
    // A biased coin shows in the draws.
    let biased = CoinGame::new(plateau::games::coin_game::DEFAULT_LEAVES, 0.9).unwrap();
    let rs = records(&biased, &config::<CoinGame>(["random", "random"], 200, 1));
    let heads = rs.iter().filter(|r| r.moves[1] == "h").count();
    assert!(heads > 160, "{heads} heads of 200 at p = 0.9");
}

#[test]
fn matching_pennies_matches_record_joint_moves() {
    let g = MatchingPennies::new(3).unwrap();
    let rs = records(&g, &config::<MatchingPennies>(["random(seed=3)", "random(seed=4)"], 20, 1));
    for r in &rs {
        assert_eq!(r.moves.len(), 3, "{:?}", r.moves);
        assert!(r.moves.iter().all(|m| ["h/h", "h/t", "t/h", "t/t"].contains(&m.as_str())), "{:?}", r.moves);
        // Each half was asked of its player: two timed choices per round for each.
        assert_eq!(r.moves_timed, [3, 3]);
        // The winner is the sign of the sum of the rounds.
        let matched = r.moves.iter().filter(|m| m[..1] == m[2..]).count();
        let first_wins = matched >= 2;
        assert_eq!(r.winner, Some(if first_wins { Side::First } else { Side::Second }), "{:?}", r.moves);
        assert!(r.final_position.is_none());
    }
}

#[test]
fn phantom_matches_record_every_try_and_the_referee_final_state() {
    let g = PhantomTicTacToe;
    let cfg = config::<PhantomTicTacToe>(["random(seed=5)", "random(seed=6)"], 20, 1);
    for r in records(&g, &cfg) {
        let last = g.play_moves(&g.start(), &r.moves.join(" ")).unwrap();
        assert!(g.is_terminal(&last));
        assert_eq!(r.final_position.as_deref(), Some(g.format_position(&last).as_str()));
        assert!(r.to_pgn().contains(&format!("[FinalPosition \"{}\"]", g.format_position(&last))));
    }
}

// ---------------------------------------------------------------------------------------------------------------
// `plateau match` and `plateau play` through the binary

#[test]
fn match_random_players_on_each_tiny_game() {
    for game in
        ["coin_game", "coin_game(leaves=2/2/3/3/1/1/4/4,p=0.9)", "matching_pennies(rounds=3)", "phantom_tic_tac_toe"]
    {
        let rec = temp("match.pgn");
        let out = plateau(&[
            "match",
            game,
            "--player",
            "random",
            "--player",
            "random(seed=9)",
            "--games",
            "12",
            "--record",
            rec.to_str().unwrap(),
            "--json",
        ]);
        let v = json(&out);
        assert_eq!(v["games"], 12, "{game}");
        let total = v["wins_a"].as_u64().unwrap() + v["wins_b"].as_u64().unwrap() + v["draws"].as_u64().unwrap();
        assert_eq!(total, 12, "{game}");
        assert_eq!(v["failures"].as_array().unwrap().len(), 0, "{game}: {v}");
        let text = std::fs::read_to_string(&rec).unwrap();
        let games = read_games(&text).unwrap();
        assert_eq!(games.len(), 12, "{game}");
        if game.starts_with("matching") {
            assert!(games.iter().all(|r| r.moves.len() == 3 && r.moves.iter().all(|m| m.contains('/'))));
        }
        if game.starts_with("phantom") {
            assert_eq!(text.matches("[FinalPosition \"").count(), 12, "{text}");
        }
        let _ = std::fs::remove_file(&rec);
    }
    // The human-readable summary too, with random openings by default on phantom tic-tac-toe only.
    let text = stdout(&plateau(&["match", "phantom_tic_tac_toe", "--player", "random", "--player", "random"]));
    assert!(text.contains("games 10"), "{text}");
}

#[test]
fn match_refuses_players_that_cannot_play_these_games() {
    for game in ["coin_game", "matching_pennies", "phantom_tic_tac_toe"] {
        for player in ["alphabeta(depth=2)", "engine", "pvs(depth=2)", "uci(cmd=/bin/true)", "ugi(cmd=/bin/true)"] {
            if game == "coin_game" && ["engine", "uci(cmd=/bin/true)", "ugi(cmd=/bin/true)"].contains(&player) {
                continue; // the engine of chance games plays it (tests/suite/chance_play.rs), over UGI too (protocol_chance.rs)
            }
            if player.starts_with("ugi") {
                continue; // UGI's referee lines carry joint moves and private views (tests/suite/referee_ugi.rs)
            }
            let out = plateau(&["match", game, "--player", player, "--player", "random", "--games", "2"]);
            let err = refused(&out);
            assert!(err.contains("cannot play a game with") && err.contains("players for this game: "), "{err}");
            // The chance searches play the coin game; nothing but random plays the others.
            let players = err.split("players for this game: ").nth(1).unwrap_or("");
            let want = if game == "coin_game" { "expectimax, star1, star2, random" } else { "random" };
            assert!(players.starts_with(want), "{err}");
        }
    }
    let file = temp("openings.txt");
    std::fs::write(&file, "h/t\n").unwrap();
    let out = plateau(&[
        "match",
        "matching_pennies",
        "--player",
        "random",
        "--player",
        "random",
        "--openings",
        file.to_str().unwrap(),
    ]);
    assert!(refused(&out).contains("both players move at once"));
    let _ = std::fs::remove_file(&file);
}

#[test]
fn play_the_coin_game_against_random() {
    let text = stdout(&plateau_stdin(&["play", "coin_game", "--seed", "1"], "h\nmoves\nl\n"));
    assert!(text.contains("MAX chooses here"), "{text}");
    assert!(text.contains("2 legal moves: l r"), "{text}");
    assert!(text.contains("chance: h (probability 1/2)") || text.contains("chance: t (probability 1/2)"), "{text}");
    // The default engine of a chance game: iterative deepening over Star2 (src/engine/chance.rs).
    assert!(text.contains("Player 2 (star2(time=1000ms,id=true,tt=16mb)) plays"), "{text}");
    assert!(text.contains("Player 1 to move> "), "one prompt form for every game: {text}");
    assert!(text.contains("game over: value "), "{text}");
    // The same seed draws the same coin.
    let again = stdout(&plateau_stdin(&["play", "coin_game", "--seed", "1"], "h\nmoves\nl\n"));
    let coin = |t: &str| t.lines().find(|l| l.starts_with("chance:")).map(str::to_string);
    assert_eq!(coin(&text), coin(&again));
    // Engine against engine, and the refusal of a player that needs a deterministic game.
    let text = stdout(&plateau(&["play", "coin_game", "--human", "none", "--seed", "2"]));
    assert!(text.contains("chance: ") && text.contains("game over"), "{text}");
    let err = refused(&plateau(&["play", "coin_game", "--engine", "alphabeta(depth=3)"]));
    assert!(err.contains("alphabeta cannot play a game with chance"), "{err}");
}

#[test]
fn play_matching_pennies_one_half_each() {
    let out = plateau_stdin(&["play", "matching_pennies(rounds=2)"], "x\nmoves\nh\nt\n");
    let text = stdout(&out);
    // The engine's half is chosen first but not shown; the human types only its own half. The default opponent of a
    // simultaneous game is simultaneous-move MCTS (`players::default_for`).
    assert!(text.contains("Player 2 (smmcts(time=1000ms"), "{text}");
    assert!(text.contains("'x': the first player chooses one of h t"), "{text}");
    assert!(text.contains("2 legal moves: h t"), "{text}");
    assert_eq!(text.matches("joint move ").count(), 2, "{text}");
    assert!(text.contains("joint move h/") && text.contains("joint move t/"), "{text}");
    assert!(text.contains("game over: value "), "{text}");
    // Two humans at one keyboard, with undo back to the first round.
    let text =
        stdout(&plateau_stdin(&["play", "matching_pennies(rounds=2)", "--human", "both"], "h\nt\nundo\nt\nt\nh\nh\n"));
    assert!(text.contains("joint move h/t") && text.contains("joint move t/t") && text.contains("joint move h/h"));
    assert!(text.contains("game over: value 2 for the first player"), "{text}");
    // Against the engine a turn cannot be taken back once its half is seen.
    let text = stdout(&plateau_stdin(
        &["play", "matching_pennies(rounds=2)", "--engine", "smmcts(time=50ms)"],
        "h\nundo\nt\n",
    ));
    assert!(text.contains("undo is not available here: you have seen the engine's choices"), "{text}");
    assert_eq!(text.matches("joint move ").count(), 2, "{text}");
    let err = refused(&plateau(&["play", "matching_pennies", "--engine", "engine"]));
    assert!(err.contains("simultaneous moves"), "{err}");
}

#[test]
fn play_simultaneous_breakthrough_asks_for_the_own_half_only() {
    let game = "breakthrough(rows=5,columns=5,moves=simultaneous)";
    // White types a pair, then its half; the engine (random) has chosen Black's half before and it is not shown.
    let text = stdout(&plateau_stdin(&["play", game, "--seed", "1", "--engine", "random"], "a2a3/a4a3\na2a3\nquit\n"));
    // The board's last line and the prompt say what the person types: its own move, not the pair.
    assert!(!text.contains("WHITE/BLACK"), "{text}");
    assert!(text.contains("\nWhite (P) and Black (p) move at once\n"), "{text}");
    assert!(text.contains("White, your move only, e.g. a2a3 (Black chooses at the same time and does not see it)> "));
    assert!(text.contains("commands: your own move only (e.g. a2a3; the other side chooses at the same time)"));
    // Undo is refused against the engine in this game, so the help does not offer it.
    assert!(!text.contains("undo"), "{text}");
    assert!(text.contains("Black (random) has chosen"), "{text}");
    assert!(text.contains("'a2a3/a4a3': White chooses one of a2a3 "), "{text}");
    assert!(text.contains("White has chosen\njoint move a2a3/"), "{text}");
    // Playing Black: the prompt and the help's example are Black's.
    let text = stdout(&plateau_stdin(&["play", game, "--human", "second", "--engine", "random"], "a4a3\nquit\n"));
    assert!(text.contains("Black, your move only, e.g. a4a3 (White chooses at the same time and does not see it)> "));
    assert!(text.contains("(e.g. a4a3; the other side chooses at the same time)"), "{text}");
    assert!(text.contains("Black has chosen\njoint move ") && text.contains("/a4a3\n"), "{text}");
    // Two people at one keyboard may take a turn back.
    let text = stdout(&plateau_stdin(&["play", game, "--human", "both"], "quit\n"));
    assert!(text.contains("undo (take back your last move)"), "{text}");
}

#[test]
fn play_dark_breakthrough_prompts_with_the_view_of_the_side_to_move() {
    let game = "breakthrough(rows=5,columns=5,information=imperfect)";
    let text = stdout(&plateau_stdin(&["play", game, "--engine", "naive(depth=2)"], "b2b3\nquit\n"));
    assert!(text.contains("your move (White)\nWhite to move> "), "{text}");
    assert!(text.contains("referee: your move b2b3 was played"), "{text}");
    // The help offers neither hint (refused with hidden information) nor undo (the engine has seen what followed).
    let help = text.lines().next().unwrap_or("");
    assert!(help.contains("commands: a move (e.g. ") && !help.contains("hint") && !help.contains("undo"), "{help}");
    assert!(!text.contains("p p p"), "Black's pieces are never drawn before the end: {text}");
}

#[test]
fn play_phantom_tic_tac_toe_sees_only_its_view() {
    // X names every square in turn: each is placed, found (O's), or refused (already known); by the ninth the game is
    // over, since a game that goes on always leaves X an unknown square.
    let input = "b2\nboard\na1\nb1\nc1\na2\nc2\na3\nb3\nc3\n";
    // The engine's own time (the default is a second a move) is no part of what is checked here.
    let fast = ["--engine", "ismcts(time=50ms)"];
    let text = stdout(&plateau_stdin(&["play", "phantom_tic_tac_toe", "--seed", "4", fast[0], fast[1]], input));
    assert!(text.contains("X's view (O's marks you have not found are not shown)"), "{text}");
    assert!(text.contains("referee: your mark went on b2"), "{text}");
    // The engine's tries are not announced; the end shows the referee's full state.
    assert!(!text.contains(" plays "), "{text}");
    assert!(text.contains("game over: "), "{text}");
    let full = text.split("the full state:").nth(1).expect("the full state at the end");
    let position = full.lines().find_map(|l| l.strip_prefix("position: ")).expect("the position text");
    let g = PhantomTicTacToe;
    assert!(g.is_terminal(&g.parse_position(position).unwrap()), "{position}");
    // No hint: the engines search full states.
    let text = stdout(&plateau_stdin(&["play", "phantom_tic_tac_toe", "--seed", "4"], "hint\nquit\n"));
    assert!(text.contains("hint is not available with hidden information") && !text.contains("hint: "), "{text}");
    // Playing O: the first view is O's, after X's hidden first move.
    let text =
        stdout(&plateau_stdin(&["play", "phantom_tic_tac_toe", "--human", "second", fast[0], fast[1]], "quit\n"));
    assert!(text.contains("O's view") && text.contains("referee: X placed a mark"), "{text}");
    // Engine against engine shows everything and ends.
    let text = stdout(&plateau(&["play", "phantom_tic_tac_toe", "--human", "none", fast[0], fast[1]]));
    assert!(text.contains(" plays ") && text.contains("game over"), "{text}");
}

#[test]
fn perft_of_the_tiny_games_through_the_binary() {
    let v = json(&plateau(&[
        "perft",
        "matching_pennies(rounds=3)",
        "--depth",
        "3",
        "--divide",
        "--threads",
        "2",
        "--json",
    ]));
    assert_eq!(v["nodes"], 64);
    let div: Vec<&str> = v["divide"].as_array().unwrap().iter().map(|d| d["move"].as_str().unwrap()).collect();
    assert_eq!(div, ["h/h", "h/t", "t/h", "t/t"]);
    let v = json(&plateau(&["perft", "matching_pennies(rounds=4)", "--depth", "4", "--threads", "2", "--json"]));
    assert_eq!(v["nodes"], 256);
    let v = json(&plateau(&["perft", "phantom_tic_tac_toe", "--depth", "5", "--threads", "2", "--json"]));
    assert_eq!(v["nodes"], 36288);
    let v = json(&plateau(&["perft", "coin_game", "--depth", "3", "--json"]));
    assert_eq!(v["nodes"], 8);
    let v = json(&plateau(&["perft", "coin_game", "--moves", "l", "--depth", "1", "--json"]));
    assert_eq!(v["nodes"], 2);
    let v = json(&plateau(&["perft", "matching_pennies(rounds=2)", "--moves", "h/t", "--depth", "1", "--json"]));
    assert_eq!(v["nodes"], 4);
    assert_eq!(v["position"], "0-1");
}

#[test]
fn solve_refuses_games_the_solvers_cannot_carry() {
    for game in ["coin_game", "matching_pennies", "phantom_tic_tac_toe"] {
        for method in [None, Some("alphabeta"), Some("dfpn"), Some("retro")] {
            let mut args = vec!["solve", game];
            if let Some(m) = method {
                args.extend(["--method", m]);
            }
            if game == "matching_pennies" && method.is_none() {
                continue; // solved by linear programming (tests/suite/sim_solve.rs)
            }
            let e = refused(&plateau(&args));
            let why = if game == "matching_pennies" {
                "takes no --method"
            } else {
                "the solvers need a deterministic game of perfect information"
            };
            assert!(e.contains(why), "{game} {method:?}: {e}");
        }
    }
}

#[test]
fn the_engine_protocols_refuse_the_tiny_games() {
    // Chance outcomes travel as moves (tests/suite/protocol_chance.rs); joint moves and private views travel over the
    // referee's lines (tests/suite/referee_ugi.rs): a `go` before `side` is answered with one error line.
    for game in ["matching_pennies", "phantom_tic_tac_toe"] {
        let out = plateau_stdin(&["ugi", game], "position startpos\ngo depth 1\nquit\n");
        assert!(stdout(&out).contains("info string error"), "{game}: {}", stdout(&out));
    }
    let out = plateau_stdin(&["ugi", "coin_game"], "position startpos moves l\ngo depth 2\nquit\n");
    assert!(stdout(&out).contains("chance node"), "{}", stdout(&out));
    let out = plateau_stdin(&["uci"], "uci\nquit\n");
    let text = stdout(&out);
    assert!(text.contains("var tic_tac_toe") && !text.contains("var coin_game"), "{text}");
}
