//! The arena: statistics against closed-form values, reproducible matches, records that survive a killed match,
//! external engines that crash, hang or play illegal moves, and engines driven over UCI/UGI.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{BIN, tmpdir};
use plateau::arena::openings::{Openings, parse_openings, random_opening};
use plateau::arena::record::read_results;
use plateau::arena::stats::{Sprt, Wdl, elo_from_score, score_from_elo};
use plateau::arena::{MatchConfig, parse_tc, run_match};
use plateau::game::Game;
use plateau::games::Breakthrough;
use plateau::search::TimeControl;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_and_error_closed_forms() {
    // 75% is 400 log10(3) Elo; 50% is 0; the model is symmetric.
    assert!(close(elo_from_score(0.75).unwrap(), 400.0 * 3f64.log10(), 1e-9));
    assert!(close(elo_from_score(0.5).unwrap(), 0.0, 1e-12));
    assert!(close(elo_from_score(0.25).unwrap(), -400.0 * 3f64.log10(), 1e-9));
    assert!(elo_from_score(1.0).is_none() && elo_from_score(0.0).is_none());
    assert!(close(score_from_elo(400.0 * 3f64.log10()), 0.75, 1e-12));
    // W=60 D=20 L=20: score 0.7, per-game variance (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16, sd of the mean 0.04.
    let r = Wdl { wins: 60, losses: 20, draws: 20 };
    assert!(close(r.score(), 0.7, 1e-12));
    assert!(close(r.variance(), 0.16, 1e-12));
    let z = 1.959_963_984_540_054;
    let (lo, hi) = (0.7 - z * 0.04, 0.7 + z * 0.04);
    let elo = |s: f64| 400.0 * (s / (1.0 - s)).log10();
    assert!(close(r.elo().unwrap(), elo(0.7), 1e-9));
    assert!(close(r.elo_error().unwrap(), (elo(hi) - elo(lo)) / 2.0, 1e-9));
    // Roughly 147 +- 66 Elo, as the usual calculators print for this result.
    assert!(close(r.elo().unwrap(), 147.19, 0.01) && close(r.elo_error().unwrap(), 66.0, 0.1));
    // 100%: no finite Elo nor error.
    assert!(Wdl { wins: 10, losses: 0, draws: 0 }.elo().is_none());
}

#[test]
fn sprt_closed_forms() {
    let s = Sprt::parse("elo0=0,elo1=70.43650362227249,alpha=0.05,beta=0.05").unwrap();
    // Wald's bounds: ln(beta/(1-alpha)) and ln((1-beta)/alpha) = -+ ln 19.
    assert!(close(s.lower(), -(19f64.ln()), 1e-12) && close(s.upper(), 19f64.ln(), 1e-12));
    // elo1 is the Elo of a 60% score; with W=60 D=20 L=20: LLR = 100 (0.6-0.5)(1.4-1.1) / (2*0.16) = 9.375.
    let r = Wdl { wins: 60, losses: 20, draws: 20 };
    assert!(close(s.llr(&r), 9.375, 1e-9));
    assert_eq!(s.status(&r).result, "H1");
    // The mirror result favours H0 by as much as... its own formula: 100 (0.1)(0.6-1.1)/(0.32) = -15.625.
    let m = Wdl { wins: 20, losses: 60, draws: 20 };
    assert!(close(s.llr(&m), -15.625, 1e-9));
    assert_eq!(s.status(&m).result, "H0");
    assert_eq!(s.status(&Wdl { wins: 3, losses: 2, draws: 1 }).result, "continue");
    // alpha=0.05, beta=0.1: bounds ln(0.1/0.95) and ln(0.9/0.05).
    let t = Sprt::parse("elo1=5, elo0=-5, beta=0.1").unwrap();
    assert!(close(t.lower(), (0.1f64 / 0.95).ln(), 1e-12) && close(t.upper(), 18f64.ln(), 1e-12));
    for bad in ["elo0=0", "elo0=5,elo1=0", "elo0=0,elo1=5,alpha=0.7", "elo0=0,elo1=5,gamma=1", "elo0=x,elo1=1"] {
        assert!(Sprt::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn time_controls_and_openings() {
    assert_eq!(
        parse_tc("10s+0.1s").unwrap(),
        TimeControl::Clock {
            time: [Duration::from_secs(10); 2],
            inc: [Duration::from_millis(100); 2],
            moves_to_go: None
        }
    );
    assert!(parse_tc("0s").is_err() && parse_tc("fast").is_err());
    let g = Breakthrough::default();
    let a = random_opening(&g, 4, 9, 3);
    assert_eq!(a, random_opening(&g, 4, 9, 3));
    assert_eq!(a.moves.len(), 4);
    assert_ne!(a.moves, random_opening(&g, 4, 9, 4).moves);
    let list = parse_openings(
        &g,
        "# a comment\na2a3 h7h6\n\npppppppp/pppppppp/8/8/8/P7/1PPPPPPP/PPPPPPPP b - - 0 1\npppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w moves b2b3\n",
    )
    .unwrap();
    assert_eq!(list.len(), 3);
    assert_eq!(list[0].move_text, vec!["a2a3", "h7h6"]);
    assert!(list[1].fen.is_some() && list[1].moves.is_empty());
    assert_eq!(list[2].move_text, vec!["b2b3"]);
    let e = parse_openings(&g, "a2a3\na2a5\n").unwrap_err();
    assert!(e.contains("line 2"), "{e}");
}

fn config(players: [&str; 2], games: usize, record: Option<PathBuf>) -> MatchConfig<Breakthrough> {
    MatchConfig {
        players: [players[0].to_string(), players[1].to_string()],
        games,
        limit: None,
        concurrency: 1,
        openings: Openings::Random { plies: 3, seed: 7 },
        sprt: None,
        record,
        adjudicate: true,
        max_plies: 1000,
        margin: Duration::from_millis(100),
        progress: false,
        seed: 7,
        fixed_colours: false,
    }
}

#[test]
fn a_seeded_match_is_reproducible() {
    let g = Breakthrough::default();
    let cfg = config(["alphabeta(depth=2)", "alphabeta(depth=1)"], 6, None);
    let mut first = Vec::new();
    let s1 = run_match(&g, &cfg, |r| first.push(r.clone())).unwrap();
    let mut second = Vec::new();
    let mut cfg2 = cfg.clone();
    cfg2.concurrency = 3;
    let s2 = run_match(&g, &cfg2, |r| second.push(r.clone())).unwrap();
    second.sort_by_key(|r| r.round);
    // Everything but the measured move times.
    let key = |v: &Vec<plateau::arena::record::GameRecord>| {
        v.iter().map(|r| (r.round, r.moves.clone(), r.winner, r.termination.clone())).collect::<Vec<_>>()
    };
    assert_eq!(key(&first), key(&second));
    assert_eq!((s1.wins_a, s1.wins_b, s1.draws), (s2.wins_a, s2.wins_b, s2.draws));
    assert_eq!(s1.games, 6);
    // Colours alternate and each opening is played with both colours.
    for pair in first.chunks(2) {
        assert!(pair[0].a_first && !pair[1].a_first);
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!(pair[0].first, pair[1].second);
    }
    assert_ne!(first[0].opening, first[2].opening);
}

#[test]
fn a_players_own_depth_holds_under_the_match_time_control() {
    // issue 38: `--player "alphabeta(depth=2)" --movetime 100ms` searched to depth 8, the time replacing the depth.
    // Under a generous time per move, fixed-depth players must play exactly the games they play on their own limits.
    let g = Breakthrough::default();
    let own = config(["alphabeta(depth=2)", "alphabeta(depth=1)"], 2, None);
    let mut timed = own.clone();
    timed.limit = Some(TimeControl::MoveTime(Duration::from_secs(60)));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let s_own = run_match(&g, &own, |r| a.push(r.clone())).unwrap();
    let s_timed = run_match(&g, &timed, |r| b.push(r.clone())).unwrap();
    let moves = |v: &Vec<plateau::arena::record::GameRecord>| v.iter().map(|r| r.moves.clone()).collect::<Vec<_>>();
    assert_eq!(moves(&a), moves(&b));
    // The summary says what each plays under.
    assert_eq!(s_own.limits_a, "depth 2");
    assert_eq!(s_timed.limits_a, "depth 2, movetime 60000ms (whichever stops first)");
    assert_eq!(s_timed.player_a, "alphabeta(depth=2)");
}

#[test]
fn own_limits_combine_with_a_time_control() {
    use plateau::game::Side;
    use plateau::search::Limits;
    let ms = |t| TimeControl::MoveTime(Duration::from_millis(t));
    let own = Limits { depth: Some(3), time: Some(ms(50)), nodes: Some(1000) };
    // The tighter time per move applies; depth and nodes stay.
    assert_eq!(own.under(ms(100), Side::First), Limits { time: Some(ms(50)), ..own });
    assert_eq!(own.under(ms(20), Side::First), Limits { time: Some(ms(20)), ..own });
    // Against clocks: the clock's plan for this move (its hard limit) decides.
    let clock = |t| TimeControl::Clock {
        time: [Duration::from_millis(t), Duration::from_millis(t)],
        inc: [Duration::ZERO; 2],
        moves_to_go: None,
    };
    assert_eq!(own.under(clock(3_600_000), Side::Second).time, Some(ms(50)));
    assert_eq!(own.under(clock(200), Side::Second).time, Some(clock(200)));
    // No time of its own: the match's.
    let depth_only = Limits { depth: Some(2), ..Limits::default() };
    assert_eq!(depth_only.under(ms(100), Side::First), Limits { depth: Some(2), time: Some(ms(100)), nodes: None });
}

#[test]
fn the_binary_plays_a_match_with_sprt_and_records() {
    let dir = tmpdir("bin");
    let rec = dir.join("games.pgn");
    let out = Command::new(BIN)
        .args(["match", "breakthrough", "--player", "alphabeta(depth=1)", "--player", "random(seed=3)", "--games"])
        .args(["40", "--random-plies", "2", "--seed", "5", "--sprt", "elo0=0,elo1=50,alpha=0.05,beta=0.05"])
        .arg("--record")
        .arg(&rec)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for k in [
        "games",
        "wins_a",
        "wins_b",
        "draws",
        "elo",
        "elo_error",
        "sprt",
        "max_move_ms",
        "mean_move_ms",
        "time_forfeits",
    ] {
        assert!(v.get(k).is_some(), "{k} missing: {v}");
    }
    // Alpha-beta at depth 1 takes every win in one: it beats a random player quickly and the SPRT accepts H1 early.
    assert_eq!(v["sprt"]["result"], "H1");
    assert_eq!(v["stopped_early"], true);
    let games = v["games"].as_u64().unwrap();
    // The status reported is the one that decided: its LLR at or above the bound, over the games it counted.
    let llr = v["sprt"]["llr"].as_f64().unwrap();
    assert!(llr >= v["sprt"]["upper"].as_f64().unwrap(), "{v}");
    assert!((1..=games).contains(&v["sprt"]["games"].as_u64().unwrap()), "{v}");
    assert!(
        games < 40
            && v["wins_a"].as_u64().unwrap() + v["wins_b"].as_u64().unwrap() + v["draws"].as_u64().unwrap() == games
    );
    let text = std::fs::read_to_string(&rec).unwrap();
    assert_eq!(read_results(&text).len() as u64, games);
    // Per-move times: max and mean per player in the JSON, per colour and per move in the record.
    let timed = v["moves_timed"].as_array().unwrap();
    assert!(timed.iter().all(|n| n.as_u64().unwrap() >= games / 2), "{v}");
    for tag in ["[WhiteMaxMs \"", "[WhiteMeanMs \"", "[BlackMaxMs \"", "[BlackMeanMs \"", "[MoveMs \""] {
        assert_eq!(text.matches(tag).count() as u64, games, "{tag}");
    }
    // A bad player string is a one-line error.
    let out =
        Command::new(BIN).args(["match", "--player", "alphabeta(dpth=3)", "--player", "random"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown parameter") && err.lines().count() == 1, "{err}");
}

#[test]
fn records_survive_a_killed_match() {
    let dir = tmpdir("kill");
    let rec = dir.join("games.pgn");
    let mut child = Command::new(BIN)
        .args(["match", "breakthrough", "--player", "alphabeta(depth=1)", "--player", "random", "--games", "100000"])
        .arg("--record")
        .arg(&rec)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait (at most a minute) until a few games are in the file, then kill the match.
    for _ in 0..600 {
        let n = std::fs::read_to_string(&rec).map(|t| read_results(&t).len()).unwrap_or(0);
        if n >= 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&rec).unwrap();
    let results = read_results(&text);
    assert!(results.len() >= 3, "{} games recorded", results.len());
    assert!(results.len() < 100000);
    for (i, (round, result, _)) in results.iter().enumerate() {
        assert_eq!(*round, i + 1);
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()));
    }
}

/// Write a small UCI engine as a shell script that misbehaves once asked to move.
fn fake_engine(dir: &std::path::Path, name: &str, on_go: &str) -> String {
    let path = dir.join(name);
    let script = format!(
        "while read line; do\n  case \"$line\" in\n    uci) echo 'id name fake'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("uci(cmd=sh {},name={name})", path.display())
}

#[test]
fn broken_engines_lose_with_the_reason_recorded() {
    let dir = tmpdir("fake");
    let g = Breakthrough::default();
    let cases = [
        (fake_engine(&dir, "crash", "exit 3"), "engine crashed"),
        (fake_engine(&dir, "hang", "sleep 30"), "timed out"),
        (fake_engine(&dir, "illegal", "echo 'bestmove z9z9'"), "illegal move"),
    ];
    for (spec, reason) in cases {
        let rec = dir.join("games.pgn");
        let mut cfg = config([spec.as_str(), "random(seed=1)"], 2, Some(rec.clone()));
        cfg.limit = Some(TimeControl::MoveTime(Duration::from_millis(50)));
        let s = run_match(&g, &cfg, |_| {}).unwrap();
        assert_eq!((s.games, s.wins_a, s.wins_b), (2, 0, 2), "{spec}");
        assert_eq!(s.failures.len(), 2, "{:?}", s.failures);
        assert!(s.failures.iter().all(|f| f.contains(reason)), "{reason}: {:?}", s.failures);
        let text = std::fs::read_to_string(&rec).unwrap();
        assert!(read_results(&text).iter().all(|(_, _, t)| t.contains(reason)));
        std::fs::remove_file(&rec).unwrap();
    }
    // A command that does not exist is refused before the first game (it lost every game "on a crash", and a
    // misspelt path read as a clean sweep for the other side); a bare name is looked up on PATH.
    for cmd in ["/nonexistent/engine", "no-such-engine-anywhere"] {
        let mut cfg = config([format!("uci(cmd={cmd})").as_str(), "random"], 2, None);
        cfg.limit = Some(TimeControl::MoveTime(Duration::from_millis(50)));
        let e = run_match(&g, &cfg, |_| {}).unwrap_err();
        assert!(e.contains(&format!("cannot start '{cmd}': no such program")), "{e}");
    }
}

#[test]
fn our_engine_over_uci_and_ugi_plays_like_the_builtin_player() {
    // alphabeta(depth=2) is deterministic: over a protocol it must play the very same games.
    let g = Breakthrough::default();
    let builtin = config(["alphabeta(depth=2)", "alphabeta(depth=1)"], 4, None);
    let mut direct = Vec::new();
    run_match(&g, &builtin, |r| direct.push(r.moves.clone())).unwrap();
    for proto in ["uci", "ugi"] {
        let spec = format!("{proto}(cmd={BIN} {proto} breakthrough --player alphabeta(depth=2),depth=2)");
        let mut cfg = config([spec.as_str(), "alphabeta(depth=1)"], 4, None);
        cfg.limit = None;
        let mut over = Vec::new();
        let s = run_match(&g, &cfg, |r| over.push(r.moves.clone())).unwrap();
        assert!(s.failures.is_empty(), "{:?}", s.failures);
        assert_eq!(over, direct, "{proto}");
    }
    assert!(g.spec() == "breakthrough");
}

#[test]
fn clocks_over_ugi() {
    // An external engine on a clock: `go p1time .. p2time .. p1inc .. p2inc ..`, answered in time.
    let g = Breakthrough::default();
    let spec = format!("ugi(cmd={BIN} ugi breakthrough --player alphabeta)");
    let mut cfg = config([spec.as_str(), "random(seed=2)"], 2, None);
    cfg.limit = Some(parse_tc("1s+10ms").unwrap());
    cfg.margin = Duration::from_secs(1);
    let s = run_match(&g, &cfg, |_| {}).unwrap();
    assert!(s.failures.is_empty(), "{:?}", s.failures);
    assert_eq!((s.games, s.wins_a), (2, 2));
}

#[test]
fn running_out_of_clock_loses_on_time() {
    // A fake engine that always takes 200 ms, on a 300 ms clock with no increment: the first move leaves 100 ms, the
    // second cannot be answered within 100 ms + the 50 ms margin.
    let dir = tmpdir("clock");
    let g = Breakthrough::default();
    let slow = fake_engine(&dir, "slow", "sleep 0.2; echo 'bestmove a2a3'");
    let rec = dir.join("games.pgn");
    let mut cfg = config([slow.as_str(), "random(seed=1)"], 1, Some(rec.clone()));
    cfg.openings = Openings::Random { plies: 0, seed: 1 };
    cfg.limit = Some(parse_tc("300ms").unwrap());
    cfg.margin = Duration::from_millis(50);
    let s = run_match(&g, &cfg, |_| {}).unwrap();
    assert_eq!((s.games, s.wins_a, s.wins_b, s.time_forfeits), (1, 0, 1, 1), "{:?}", s.failures);
    assert!(s.max_move_ms[0] >= 150, "{:?}", s.max_move_ms);
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(text.contains("[TimeControl \"300ms+0ms\"]"), "{text}");
}
