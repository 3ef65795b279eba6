//! `plateau tournament` (issue 39, point 1): the schedule, the crosstable, the maximum-likelihood ratings against
//! closed forms and an independent fixed point, resuming after an interruption (every game exactly once), broken
//! engines losing while the tournament goes on, bad input refused in one line, the job-level API of the Ray driver
//! (`jobs.rs`) playing the same games, and `--ray`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use plateau::arena::openings::Openings;
use plateau::arena::record::read_games;
use plateau::games::breakthrough::Breakthrough;
use plateau::tournament::entries::{Entry, read_players_file};
use plateau::tournament::ratings::{K, Scored, fit};
use plateau::tournament::standings::standings;
use plateau::tournament::{GameResult, Schedule, TournamentConfig, run_tournament};

const BIN: &str = env!("CARGO_BIN_EXE_plateau");

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("plateau-tournament-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn plateau(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN).current_dir(dir).args(args).output().expect("plateau runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

fn entries(list: &[(&str, &str)]) -> Vec<Entry> {
    list.iter().map(|(n, p)| Entry { name: n.to_string(), player: p.to_string(), tc: None }).collect()
}

fn config(list: &[(&str, &str)], rounds: usize) -> TournamentConfig<Breakthrough> {
    TournamentConfig {
        entries: entries(list),
        schedule: Schedule::RoundRobin { rounds },
        limit: None,
        concurrency: 1,
        openings: Openings::Random { plies: 2, seed: 1 },
        record: None,
        results: None,
        resume: false,
        adjudicate: true,
        max_plies: 1000,
        margin: Duration::from_millis(100),
        progress: false,
        seed: 1,
        anchor: None,
    }
}

#[test]
fn the_schedule_plays_every_pair_with_both_colours_once_a_round() {
    let jobs = Schedule::RoundRobin { rounds: 2 }.jobs(4);
    assert_eq!(jobs.len(), 2 * 4 * 3);
    assert!(jobs.iter().enumerate().all(|(k, j)| j.id == k + 1 && j.white != j.black));
    let mut ordered: HashMap<(usize, usize), usize> = HashMap::new();
    let mut per_player = [0usize; 4];
    let mut as_white = [0usize; 4];
    for j in &jobs {
        *ordered.entry((j.white, j.black)).or_default() += 1;
        per_player[j.white] += 1;
        per_player[j.black] += 1;
        as_white[j.white] += 1;
        assert_eq!(j.opening, j.round - 1, "a round plays its own opening");
        // Its colour-reversed twin: same round, same opening.
        assert!(jobs.iter().any(|k| k.white == j.black && k.black == j.white && k.round == j.round));
    }
    assert_eq!(ordered.len(), 12);
    assert!(ordered.values().all(|&n| n == 2), "{ordered:?}");
    assert_eq!(per_player, [12; 4]);
    assert_eq!(as_white, [6; 4]);
    let g = Schedule::Gauntlet { player: 1, rounds: 3 }.jobs(5);
    assert_eq!(g.len(), 3 * 4 * 2);
    assert!(g.iter().all(|j| j.white == 1 || j.black == 1));
    assert_eq!(g.iter().filter(|j| j.white == 1).count(), 12);
}

#[test]
fn the_crosstable_sums_to_the_games_and_a_run_is_reproducible() {
    let players = [
        ("ab2", "alphabeta(depth=2)"),
        ("ab1", "alphabeta(depth=1)"),
        ("r1", "random(seed=1)"),
        ("r2", "random(seed=2)"),
    ];
    let g = Breakthrough::default();
    let cfg = config(&players, 2);
    let mut seen = Vec::new();
    let s = run_tournament(&g, &cfg, |r| seen.push(r.clone())).unwrap();
    assert_eq!((s.games, s.finished, s.resumed_games), (24, 24, 0));
    assert_eq!(seen.len(), 24);
    let st = &s.standings;
    assert_eq!(st.crosstable.len(), 6);
    assert!(st.crosstable.iter().all(|p| p.games == 4 && p.wins_a + p.wins_b + p.draws == 4));
    let total: f64 = st.standings.iter().map(|r| r.points).sum();
    assert_eq!(total, 24.0);
    for r in &st.standings {
        assert_eq!(r.games, 12);
        assert_eq!(r.wins + r.draws + r.losses, r.games);
        let from_pairs: f64 = st
            .crosstable
            .iter()
            .map(|p| {
                if p.a == r.name {
                    p.points_a
                } else if p.b == r.name {
                    p.games as f64 - p.points_a
                } else {
                    0.0
                }
            })
            .sum();
        assert_eq!(from_pairs, r.points, "{}", r.name);
    }
    // Ranked by rating, with LOS over the next one.
    assert_eq!(st.standings[0].name, "ab2");
    assert!(st.standings.windows(2).all(|w| w[0].elo >= w[1].elo));
    assert!(st.standings[..3].iter().all(|r| r.los_next.is_some_and(|l| (0.0..=1.0).contains(&l))));
    assert!(st.standings[3].los_next.is_none());
    // The same games with two workers (deterministic players: the order does not matter).
    let mut cfg2 = config(&players, 2);
    cfg2.concurrency = 2;
    let mut again = Vec::new();
    let s2 = run_tournament(&g, &cfg2, |r| again.push(r.clone())).unwrap();
    seen.sort_by_key(|r| r.id);
    again.sort_by_key(|r| r.id);
    assert_eq!(seen, again);
    assert_eq!(s.standings, s2.standings);
}

fn result(id: usize, white: &str, black: &str, result: &str) -> GameResult {
    GameResult {
        id,
        round: 1,
        white: white.into(),
        black: black.into(),
        result: result.into(),
        termination: "normal".into(),
        plies: 10,
    }
}

#[test]
fn two_players_get_the_closed_form_elo_and_its_interval() {
    // A scores 7 wins, 2 draws, 3 losses against B: s = 8/12.
    let mut rs = Vec::new();
    let outcomes = [("1-0", 7), ("1/2-1/2", 2), ("0-1", 3)];
    for (res, n) in outcomes {
        for _ in 0..n {
            let k = rs.len() + 1;
            // Colours alternate; the model does not look at them.
            if k % 2 == 0 {
                rs.push(result(k, "A", "B", res));
            } else {
                let flipped = match res {
                    "1-0" => "0-1",
                    "0-1" => "1-0",
                    d => d,
                };
                rs.push(result(k, "B", "A", flipped));
            }
        }
    }
    let names = vec!["A".to_string(), "B".to_string()];
    let s = standings(&names, &rs, Some((1, 1500.0)));
    let a = s.standings.iter().find(|r| r.name == "A").unwrap();
    let b = s.standings.iter().find(|r| r.name == "B").unwrap();
    let score: f64 = 8.0 / 12.0;
    let closed = 400.0 * (score / (1.0 - score)).log10();
    assert!((a.elo.unwrap() - 1500.0 - closed).abs() < 1e-9, "{:?} vs {closed}", a.elo);
    assert_eq!(b.elo, Some(1500.0));
    assert_eq!(b.elo_error, Some(0.0), "the anchor is exact");
    // Observed information of one logistic parameter: n s (1 - s).
    let half = 1.959_963_984_540_054 * K / (12.0 * score * (1.0 - score)).sqrt();
    assert!((a.elo_error.unwrap() - half).abs() < 1e-6, "{:?} vs {half}", a.elo_error);
    assert_eq!(s.rating.virtual_draws, 0);
    assert_eq!(s.rating.anchor, Some(("B".to_string(), 1500.0)));
    // LOS of A over B: Phi(diff / sd), the same normal as the interval: Phi(ln 2 / sqrt(1 / (12 * 2/9))) = 0.8712.
    let los = a.los_next.unwrap();
    assert!((los - 0.8712).abs() < 1e-3, "{los}");
    // Mean 0 without an anchor.
    let s = standings(&names, &rs, None);
    let sum: f64 = s.standings.iter().map(|r| r.elo.unwrap()).sum();
    assert!(sum.abs() < 1e-9);
}

/// Zermelo's fixed point for the Bradley-Terry strengths (Hunter's MM algorithm), written independently of the
/// library: gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j).
fn zermelo(n: usize, games: &[(usize, usize, f64)]) -> Vec<f64> {
    let mut count = vec![vec![0.0; n]; n];
    let mut wins = vec![0.0; n];
    for &(a, b, s) in games {
        count[a][b] += 1.0;
        count[b][a] += 1.0;
        wins[a] += s;
        wins[b] += 1.0 - s;
    }
    let mut gamma = vec![1.0; n];
    for _ in 0..20000 {
        let next: Vec<f64> = (0..n)
            .map(|i| wins[i] / (0..n).filter(|&j| j != i).map(|j| count[i][j] / (gamma[i] + gamma[j])).sum::<f64>())
            .collect();
        let norm = next[0];
        gamma = next.iter().map(|g| g / norm).collect();
    }
    gamma.iter().map(|g| 400.0 * g.log10()).collect()
}

#[test]
fn three_players_match_an_independent_fixed_point() {
    // A beats B 3-1 (one draw), B beats C 2-1 with two draws, C beats A 1-2 with one draw: nobody is perfect.
    let mut games = Vec::new();
    let mut add = |a: usize, b: usize, s: f64, times: usize| (0..times).for_each(|_| games.push((a, b, s)));
    add(0, 1, 1.0, 3);
    add(0, 1, 0.0, 1);
    add(0, 1, 0.5, 1);
    add(1, 2, 1.0, 2);
    add(1, 2, 0.0, 1);
    add(1, 2, 0.5, 2);
    add(2, 0, 1.0, 1);
    add(2, 0, 0.0, 2);
    add(2, 0, 0.5, 1);
    let expected = zermelo(3, &games);
    let scored: Vec<Scored> = games.iter().map(|&(a, b, s)| Scored { a, b, score_a: s }).collect();
    let f = fit(3, &scored, Some((0, 0.0)));
    assert_eq!(f.virtual_draws, 0);
    for (i, (got, want)) in f.elo.iter().zip(&expected).enumerate() {
        assert!((got.unwrap() - want).abs() < 1e-6, "player {i}: {got:?} vs {want}");
    }
    for (i, j) in [(0, 1), (1, 2), (0, 2)] {
        let (x, y) = (f.los(i, j).unwrap(), f.los(j, i).unwrap());
        assert!((x + y - 1.0).abs() < 1e-6, "LOS is one minus its reverse");
    }
    assert_eq!(f.error[0], Some(0.0));
    assert!(f.error[1].unwrap() > 0.0 && f.error[2].unwrap() > 0.0);
}

const PLAYERS: [&str; 6] =
    ["--player", "ab1=alphabeta(depth=1)", "--player", "r1=random(seed=1)", "--player", "r2=random(seed=2)"];

fn ids_in(results: &Path, record: &Path) -> (Vec<usize>, Vec<usize>) {
    let text = std::fs::read_to_string(results).unwrap();
    let mut r: Vec<usize> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].as_u64().unwrap() as usize)
        .collect();
    let mut g: Vec<usize> =
        read_games(&std::fs::read_to_string(record).unwrap()).unwrap().iter().map(|g| g.round).collect();
    r.sort();
    g.sort();
    (r, g)
}

#[test]
fn a_resumed_tournament_plays_each_missing_game_once_and_refuses_another_tournaments_files() {
    let dir = tmpdir("resume");
    let files = ["--results", "res.jsonl", "--record", "games.pgn", "--rounds", "2", "--json"];
    let args: Vec<&str> = ["tournament"].iter().chain(&PLAYERS).chain(&files).copied().collect();
    let full = json(&plateau(&dir, &args));
    assert_eq!(full["finished"], 12);
    let whole = std::fs::read_to_string(dir.join("res.jsonl")).unwrap();
    // Interrupted: the results file cut in the middle of its sixth line, the record file holding every game (the
    // games after the cut were recorded but their results lines never written).
    let cut = whole.match_indices('\n').nth(5).unwrap().0 - 10;
    std::fs::write(dir.join("res.jsonl"), &whole[..cut]).unwrap();
    let mut resume = args.clone();
    resume.push("--resume");
    let again = json(&plateau(&dir, &resume));
    assert_eq!((again["finished"].as_u64(), again["resumed_games"].as_u64()), (Some(12), Some(4)));
    let want: Vec<usize> = (1..=12).collect();
    assert_eq!(ids_in(&dir.join("res.jsonl"), &dir.join("games.pgn")), (want.clone(), want.clone()));
    assert_eq!(again["standings"], full["standings"]);
    assert_eq!(again["crosstable"], full["crosstable"]);
    // Resuming a finished tournament plays nothing.
    let done = json(&plateau(&dir, &resume));
    assert_eq!(done["resumed_games"], 12);
    // Another tournament's options: refused in one line, both files untouched.
    let before = (std::fs::read(dir.join("res.jsonl")).unwrap(), std::fs::read(dir.join("games.pgn")).unwrap());
    let mut other = resume.clone();
    other[2] = "ab1=alphabeta(depth=2)";
    let out = plateau(&dir, &other);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.lines().count() == 1 && err.contains("another tournament"), "{err}");
    let mut more = resume.clone();
    let rounds_at = more.len() - 3;
    more[rounds_at] = "3"; // --rounds 3
    let err = String::from_utf8_lossy(&plateau(&dir, &more).stderr).to_string();
    assert!(err.contains("another tournament"), "{err}");
    // Without --resume a file with games is never appended to.
    let err = String::from_utf8_lossy(&plateau(&dir, &args).stderr).to_string();
    assert!(err.contains("--resume") && err.lines().count() == 1, "{err}");
    assert_eq!(before, (std::fs::read(dir.join("res.jsonl")).unwrap(), std::fs::read(dir.join("games.pgn")).unwrap()));
    // A results file cut short beside the record file of another tournament: refused, and neither file is changed
    // (the cut line is not removed before both files are checked).
    std::fs::write(dir.join("cut.jsonl"), &whole[..cut]).unwrap();
    let record = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    let id = full["tournament"].as_str().unwrap();
    std::fs::write(dir.join("other.pgn"), record.replace(id, "0123456789abcdef")).unwrap();
    let mut mixed = resume.clone();
    mixed[8] = "cut.jsonl";
    mixed[10] = "other.pgn";
    let err = String::from_utf8_lossy(&plateau(&dir, &mixed).stderr).to_string();
    assert!(err.contains("not from this tournament") && err.lines().count() == 1, "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("cut.jsonl")).unwrap(), whole[..cut]);
    assert_eq!(std::fs::read_to_string(dir.join("other.pgn")).unwrap(), record.replace(id, "0123456789abcdef"));
    // A results file of something else: refused, untouched.
    std::fs::write(dir.join("notes.txt"), "my notes\n").unwrap();
    let mut foreign = resume.clone();
    foreign[8] = "notes.txt";
    let err = String::from_utf8_lossy(&plateau(&dir, &foreign).stderr).to_string();
    assert!(err.contains("not a results file"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("notes.txt")).unwrap(), "my notes\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_tournament_resumes_with_every_game_exactly_once() {
    let dir = tmpdir("kill");
    // Searches that use their time: a game lasts a while, so the kill lands between games or in one.
    let args = [
        "tournament",
        "breakthrough(rows=6,columns=5)",
        "--player",
        "a=engine",
        "--player",
        "b=mcts",
        "--player",
        "c=random(seed=3)",
        "--movetime",
        "20ms",
        "--results",
        "res.jsonl",
        "--record",
        "games.pgn",
        "--json",
    ];
    let mut child = Command::new(BIN)
        .current_dir(&dir)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lines = || std::fs::read_to_string(dir.join("res.jsonl")).map(|t| t.lines().count()).unwrap_or(0);
    let start = std::time::Instant::now();
    while lines() < 3 && start.elapsed() < Duration::from_secs(60) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    child.wait().unwrap();
    let before = lines();
    assert!(running && (3..7).contains(&before), "killed while running: {running}, {before} lines written");
    let mut resume = args.to_vec();
    resume.push("--resume");
    let s = json(&plateau(&dir, &resume));
    assert_eq!(s["finished"], 6);
    assert!(s["resumed_games"].as_u64().unwrap() >= 2);
    let want: Vec<usize> = (1..=6).collect();
    assert_eq!(ids_in(&dir.join("res.jsonl"), &dir.join("games.pgn")), (want.clone(), want));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn engine_script(dir: &Path, name: &str, on_go: &str) {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok ;;\n    isready) \
         echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn broken_engines_lose_their_games_and_the_tournament_goes_on() {
    let dir = tmpdir("broken");
    let engines = dir.join("engines");
    std::fs::create_dir_all(&engines).unwrap();
    engine_script(&engines, "crasher", "exit 3");
    engine_script(&engines, "garbage.sh", "echo 'bestmove %%garbage%%'");
    std::fs::write(engines.join("README"), "not an engine\n").unwrap();
    let args = [
        "tournament",
        "--engines",
        "engines",
        "--player",
        "ab1=alphabeta(depth=1)",
        "--player",
        "r1=random(seed=1)",
        "--movetime",
        "50ms",
        "--results",
        "res.jsonl",
        "--json",
    ];
    let s = json(&plateau(&dir, &args));
    assert_eq!(s["finished"], 12);
    let names: Vec<&str> = s["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["ab1", "r1", "crasher", "garbage"]);
    let row = |name: &str| s["standings"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap().clone();
    // Each broken engine loses every game in which it has to move: all but the one it plays Black against the
    // other broken engine (which fails first).
    for (name, reason) in [("crasher", "engine crashed"), ("garbage", "illegal move")] {
        let r = row(name);
        assert_eq!((r["games"].as_u64(), r["points"].as_f64(), r["failures"].as_u64()), (Some(6), Some(1.0), Some(5)));
        let fails: Vec<&serde_json::Value> =
            s["failures"].as_array().unwrap().iter().filter(|f| f["player"] == name).collect();
        assert_eq!(fails.len(), 5);
        assert!(fails.iter().all(|f| f["reason"].as_str().unwrap().contains(reason)), "{fails:?}");
    }
    for name in ["ab1", "r1"] {
        assert_eq!(row(name)["failures"], 0);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn players_files_in_toml_and_json() {
    let dir = tmpdir("files");
    let toml = dir.join("players.toml");
    std::fs::write(
        &toml,
        "[[players]]\nname = \"ab1\"\nplayer = \"alphabeta(depth=1)\"\n\n[[players]]\nname = \"me\"\ncmd = \"plateau uci\"\n\
         protocol = \"uci\"\noptions = { Hash = 16, Player = \"random\" }\ntc = \"5s+0.1s\"\n",
    )
    .unwrap();
    let e = read_players_file(&toml).unwrap();
    assert_eq!(e[0], Entry { name: "ab1".into(), player: "alphabeta(depth=1)".into(), tc: None });
    assert_eq!(e[1].player, "uci(cmd=plateau uci,name=me,options=Hash:16;Player:random)");
    assert_eq!(e[1].tc.as_deref(), Some("5s+0.1s"));
    let js = dir.join("players.json");
    std::fs::write(
        &js,
        r#"{"players": [{"name": "r1", "player": "random(seed=1)", "tc": "2s+0.05s"},
                        {"name": "r2", "player": "random(seed=2)", "tc": "1s"}]}"#,
    )
    .unwrap();
    // Per-player clocks: each side its own.
    let s = json(&plateau(&dir, &["tournament", "--players", "players.json", "--record", "g.pgn", "--json"]));
    assert_eq!(s["finished"], 2);
    let rec = std::fs::read_to_string(dir.join("g.pgn")).unwrap();
    assert!(rec.contains("[TimeControl \"White 2000ms+50ms, Black 1000ms+0ms\"]"), "{rec}");
    assert!(rec.contains("[Pairing \"r1 - r2\"]") && rec.contains("[Tournament \""), "{rec}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_gets_one_line() {
    let dir = tmpdir("bad");
    std::fs::write(dir.join("empty.toml"), "").unwrap();
    std::fs::write(dir.join("bad.toml"), "[[players]]\nname = \"a\"\nplayer = \n").unwrap();
    std::fs::write(dir.join("neither.toml"), "[[players]]\nname = \"a\"\n").unwrap();
    std::fs::write(dir.join("typo.toml"), "[[players]]\nname = \"a\"\nplayr = \"random\"\n").unwrap();
    std::fs::write(dir.join("bad.json"), "{\"players\": [{\"name\": 3}]}").unwrap();
    std::fs::create_dir_all(dir.join("noengines")).unwrap();
    let two = ["--player", "a=random", "--player", "b=random(seed=2)"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--player", "a=nosuch", "--player", "b=random"], "nosuch"),
        (vec!["--player", "a=random"], "at least two players"),
        (vec![], "no players"),
        (vec!["--players", "empty.toml"], "empty"),
        (vec!["--players", "bad.toml"], "line 3"),
        (vec!["--players", "neither.toml"], "player string"),
        (vec!["--players", "typo.toml"], "playr"),
        (vec!["--players", "bad.json"], "bad.json"),
        (vec!["--players", "missing.toml"], "missing.toml"),
        (vec!["--engines", "noengines"], "no executable"),
        (vec!["--player", "a=random", "--player", "a=random(seed=2)"], "two players are named a"),
        ([&two[..], &["--gauntlet", "c"]].concat(), "--gauntlet c: no such player"),
        ([&two[..], &["--anchor", "c=100"]].concat(), "--anchor c: no such player"),
        ([&two[..], &["--anchor", "a=x"]].concat(), "not a number"),
        ([&two[..], &["--resume"]].concat(), "--resume needs --results"),
        ([&two[..], &["--tc", "0s"]].concat(), "positive"),
        (vec!["--player", "a=uci(cmd=true)", "--player", "b=random"], "needs a limit"),
        (vec!["--player", "a=uci(cmd=./x,depth=1)", "--player", "b=random"], "no such program"),
    ];
    for (extra, want) in cases {
        let args: Vec<&str> = ["tournament"].iter().copied().chain(extra.iter().copied()).collect();
        let out = plateau(&dir, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_job_level_api_plays_each_pair_as_the_runner_does() {
    let players = [("ab1", "alphabeta(depth=1)"), ("r1", "random(seed=1)"), ("r2", "random(seed=2)")];
    let g = Breakthrough::default();
    let mut seen = Vec::new();
    let whole = run_tournament(&g, &config(&players, 2), |r| seen.push(r.clone())).unwrap();
    let jobs = plateau::tournament::jobs::load(g, config(&players, 2)).unwrap();
    use plateau::tournament::jobs::TournamentJobs;
    let plan = jobs.plan();
    assert_eq!(plan.tournament, whole.tournament);
    assert_eq!(plan.games.len(), 12);
    // A task is a pair: the same round and players, both colours.
    assert_eq!(plan.tasks.len(), 6);
    let mut played = Vec::new();
    for t in &plan.tasks {
        let [x, y] = t.games[..] else { panic!("task {} has {} games", t.task, t.games.len()) };
        let (gx, gy) = (&plan.games[x - 1], &plan.games[y - 1]);
        assert_eq!((gx.round, gx.white.as_str(), gx.black.as_str()), (gy.round, gy.black.as_str(), gy.white.as_str()));
        for p in jobs.play(&t.games).unwrap() {
            assert!(p.record.contains(&format!("[Tournament \"{}\"]", plan.tournament)), "{}", p.record);
            jobs.check(&p.result).unwrap();
            played.push(p.result);
        }
    }
    seen.sort_by_key(|r| r.id);
    played.sort_by_key(|r| r.id);
    assert_eq!(played, seen);
    assert_eq!(jobs.summary(played, 0, 0.0).standings, whole.standings);
    assert!(jobs.play(&[13]).unwrap_err().contains("game 13 is not in the tournament's schedule"));
}

#[test]
fn ray_runs_the_cluster_driver_or_says_why_not_in_one_line() {
    let d = tmpdir("ray");
    let out = Command::new(BIN)
        .current_dir(&d)
        .env("PLATEAU_PYTHON", d.join("no-such-python"))
        .args(["tournament", "--player", "a=random(seed=1)", "--player", "b=random(seed=2)", "--ray", "local"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--ray: cannot run") && err.contains("plateau.cluster"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn a_schedule_past_the_ceiling_is_refused_in_one_line() {
    // `--rounds` is at most 10,000,000, but the games are the rounds times the games of a round: past the ceiling,
    // one line before the schedule is made (it overflowed, or took all the memory, before the first game).
    let dir = std::env::temp_dir();
    for (players, rounds) in [(2, "5000001"), (3, "10000000"), (40, "6500")] {
        let mut args = vec!["tournament".to_string(), "tic_tac_toe".into(), "--rounds".into(), rounds.into()];
        for p in 0..players {
            args.extend(["--player".to_string(), format!("p{p}=random")]);
        }
        let o = plateau(&dir, &args.iter().map(String::as_str).collect::<Vec<_>>());
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("more than the 10000000 games") && err.lines().count() == 1, "{err}");
    }
    let o =
        plateau(&dir, &["tournament", "tic_tac_toe", "--player", "a=random", "--player", "b=random", "--rounds", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
