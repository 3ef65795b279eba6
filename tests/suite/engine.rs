//! The engine player: equality with plain alpha-beta where the enhancements preserve values, forced wins, no
//! blunders into an immediate loss, deterministic node limits, `plateau bench`.

use std::process::Command;

use crate::common::BIN;
use plateau::engine::Engine;
use plateau::engine::params::EngineOptions;
use plateau::game::{Capabilities, Knowledge};
use plateau::game::{Game, MoveList, Outcome, WIN_SCORE, WIN_THRESHOLD};
use plateau::games::{AnyGame, Breakthrough};
use plateau::players::searcher as from_spec;
use plateau::search::alphabeta::search_depth;
use plateau::search::{Limits, Searcher};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

type State = <Breakthrough as Game>::State;
type Move = <Breakthrough as Game>::Move;

fn bt(spec: &str) -> Breakthrough {
    match AnyGame::parse(spec).unwrap() {
        AnyGame::Breakthrough(g) => g,
        #[allow(unreachable_patterns)]
        _ => panic!("not breakthrough"),
    }
}

/// Non-terminal positions reached by random play from the start (seeded), `lo..hi` plies deep.
fn random_positions(g: &Breakthrough, n: usize, seed: u64, lo: u32, hi: u32) -> Vec<State> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut s = g.start();
        for _ in 0..rng.random_range(lo..hi) {
            match g.random_move(&s, &mut rng) {
                Some(m) => g.play(&mut s, m),
                None => break,
            }
        }
        if !g.is_terminal(&s) {
            out.push(s);
        }
    }
    out
}

fn engine(spec: &str) -> Box<dyn Searcher<Breakthrough>> {
    from_spec::<Breakthrough>(spec).unwrap()
}

#[test]
fn fixed_depth_value_equals_alphabeta_when_pruning_is_off() {
    for spec in [
        "breakthrough(rows=5,columns=4,piece_rows=1)",
        "breakthrough(rows=5,columns=5)",
        "breakthrough(rows=6,columns=4)",
    ] {
        let g = bt(spec);
        let eval = <Breakthrough as Knowledge>::Eval::default();
        for (i, s) in random_positions(&g, 12, 7, 0, 12).iter().enumerate() {
            for depth in 1..=4 {
                let (reference, _, _) = search_depth(&g, &eval, s, depth);
                // Aspiration windows, PVS, killers and history reorder and re-search but keep the value.
                let o = EngineOptions {
                    limits: Limits { depth: Some(depth), ..Limits::default() },
                    tt_mib: 0,
                    eval: Some("simple".into()),
                    ..EngineOptions::exact()
                };
                let r = Engine::new(o).search(&g, s);
                assert_eq!(r.value, reference, "{spec} position {i} {} depth {depth}", g.format_position(s));
            }
        }
    }
}

/// The NNUE evaluation is carried incrementally in the engine (accumulators updated on every move) and from scratch
/// in plain alpha-beta: the values agree at every depth; with every enhancement on (null moves, quiescence), the
/// engine's debug check compares each carried leaf value with a fresh one.
#[test]
fn carried_nnue_values_equal_alphabeta_from_scratch() {
    let g = bt("breakthrough");
    let eval = <Breakthrough as Knowledge>::Eval::named(&g, "nnue").unwrap();
    for (i, s) in random_positions(&g, 6, 9, 4, 30).iter().enumerate() {
        for depth in 1..=3 {
            let (reference, _, _) = search_depth(&g, &eval, s, depth);
            let o = EngineOptions {
                limits: Limits { depth: Some(depth), ..Limits::default() },
                tt_mib: 0,
                eval: Some("nnue".into()),
                ..EngineOptions::exact()
            };
            let r = Engine::new(o).search(&g, s);
            assert_eq!(r.value, reference, "position {i} {} depth {depth}", g.format_position(s));
        }
        let r = engine("engine(eval=nnue,nodes=20000,null=on)").search(&g, s);
        assert!(r.best_move.is_some(), "position {i}");
    }
}

#[test]
fn solved_small_boards_with_every_enhancement_on() {
    // Reference: tests/data/reference/solved.json (OpenSpiel exhaustive solves).
    for (spec, winners) in [
        ("breakthrough(rows=4,columns=3,piece_rows=1)", None),
        ("breakthrough(rows=4,columns=4,piece_rows=1)", Some(["a1a2", "d1d2"])),
        ("breakthrough(rows=5,columns=4,piece_rows=1)", None),
    ] {
        let g = bt(spec);
        let s = g.start();
        let r = engine("engine(depth=30)").search(&g, &s);
        assert!(r.value >= WIN_THRESHOLD, "{spec}: the first player wins, engine says {}", r.value);
        let best = g.format_move(&s, r.best_move.unwrap());
        if let Some(w) = winners {
            assert!(w.contains(&best.as_str()), "{spec}: {best} is not a winning move");
        }
        if spec.contains("rows=4,columns=3") {
            // The exact distance agrees with plain alpha-beta searching to the end (no table, no pruning).
            let (reference, _, _) = search_depth(&g, &<Breakthrough as Knowledge>::Eval::default(), &s, 30);
            assert_eq!(r.value, reference, "{spec}: win distance");
        }
    }
}

#[test]
fn finds_forced_wins_in_1_3_5_plies() {
    let g = Breakthrough::default();
    for (pos, plies) in [
        ("p7/4P3/8/8/8/8/8/7P w", 1),
        ("p7/8/4P3/8/8/8/8/7P w", 3),
        ("p7/8/8/4P3/8/8/8/7P w", 5),
        // e8 guards d7 and f7, but cannot take both runners.
        ("4p3/8/3P1P2/8/8/8/8/7P w", 3),
    ] {
        let s = g.parse_position(pos).unwrap();
        for spec in [
            "engine(depth=6)",
            // Without the knowledge of wins in one, reverse futility pruning returns the static evaluation 4 plies
            // from the horizon: with `pst` the runner's value still leads to the win; with the default `nnue` it
            // prefers another runner's value (3304 on the second position), so the plain search runs without RFP.
            "engine(depth=6,tactics=off,qs=off,ext=off,eval=pst)",
            "engine(depth=6,tactics=off,qs=off,ext=off,rfp=off)",
            "engine(nodes=20000)",
            "engine(nodes=20000,probe=on,check=on)",
        ] {
            let r = engine(spec).search(&g, &s);
            assert_eq!(r.value, WIN_SCORE - plies, "{spec} on {pos}: value {}", r.value);
            // The move keeps the win: after it, the opponent's best is a loss.
            let mut child = s;
            g.play(&mut child, r.best_move.unwrap());
            if !g.is_terminal(&child) {
                let rr = engine("engine(depth=6)").search(&g, &child);
                assert!(rr.value <= -WIN_THRESHOLD, "{spec} on {pos}: the move throws the win away");
            }
        }
    }
}

/// Whether the opponent can win at once after `m`.
fn loses_at_once(g: &Breakthrough, s: &State, m: Move) -> bool {
    let mut c = *s;
    g.play(&mut c, m);
    if g.is_terminal(&c) {
        return false;
    }
    let mut replies = MoveList::new();
    g.generate_moves(&c, &mut replies);
    replies.iter().any(|&r| {
        let mut d = c;
        g.play(&mut d, r);
        g.outcome(&d) == Some(Outcome::Loss)
    })
}

#[test]
fn never_plays_into_an_immediate_loss() {
    let g = Breakthrough::default();
    // Black threatens d2-d1/c1/e1; only c1xd2 holds.
    let s = g.parse_position("pppp4/8/8/8/8/8/3p4/2P4P w").unwrap();
    for spec in ["engine(depth=1)", "engine(depth=3,qs=off)", "engine(nodes=100)", "engine(depth=2,threads=2)"] {
        let r = engine(spec).search(&g, &s);
        assert_eq!(g.format_move(&s, r.best_move.unwrap()), "c1d2", "{spec}");
    }
    // Random middle games: whenever a move exists that does not lose at once, the engine plays one.
    let mut checked = 0;
    for s in random_positions(&g, 60, 11, 10, 40) {
        let mut moves = MoveList::new();
        g.generate_moves(&s, &mut moves);
        if moves.iter().all(|&m| loses_at_once(&g, &s, m)) {
            continue;
        }
        for spec in ["engine(nodes=3000)", "engine(nodes=3000,probe=on,check=on,null=on)"] {
            let r = engine(spec).search(&g, &s);
            assert!(!loses_at_once(&g, &s, r.best_move.unwrap()), "{spec}: {}", g.format_position(&s));
        }
        checked += 1;
    }
    assert!(checked > 20);
}

#[test]
fn node_limits_are_deterministic() {
    let g = Breakthrough::default();
    let s = g.play_moves(&g.start(), "e2e3 d7d6 d2d3 c7c6").unwrap();
    let a = engine("engine(nodes=30000,probe=on,check=on)").search(&g, &s);
    let b = engine("engine(nodes=30000,probe=on,check=on)").search(&g, &s);
    assert_eq!(a.best_move, b.best_move);
    assert_eq!(a.stats.nodes, b.stats.nodes);
    assert_eq!(a.value, b.value);
    assert!(a.stats.nodes <= 30000, "the limit is respected: {}", a.stats.nodes);
    // The same after `new_game` on a used engine.
    let mut e = engine("engine(nodes=30000,probe=on,check=on)");
    e.search(&g, &g.start());
    e.new_game();
    let c = e.search(&g, &s);
    assert_eq!((c.best_move, c.stats.nodes), (a.best_move, a.stats.nodes));
}

#[test]
fn every_option_plays_legal_moves() {
    let g = bt("breakthrough(rows=6,columns=5)");
    let s = g.start();
    let mut legal = MoveList::new();
    g.generate_moves(&s, &mut legal);
    for spec in [
        "engine(depth=4,null=on)",
        "engine(depth=4,lmr=off,asp=off,killers=off,history=off)",
        "engine(depth=4,threads=3)",
        "engine(depth=4,tt=off,eval=simple)",
        "engine(time=30ms)",
        "engine(time=30ms,soft=90,lmp=on,iir=on)",
        "engine(depth=4,rfp=off,futility=off,lmrlog=off)",
        "engine(nodes=5000,probe=off)",
    ] {
        let r = engine(spec).search(&g, &s);
        assert!(legal.contains(&r.best_move.unwrap()), "{spec}");
        assert!(r.depth >= 1, "{spec}");
    }
    // Variants without the tactical shortcuts still play legal moves.
    let m = bt("breakthrough(rows=5,columns=4,misere=true,forced_captures=true)");
    let r = engine("engine(depth=5)").search(&m, &m.start());
    let mut legal = MoveList::new();
    m.generate_moves(&m.start(), &mut legal);
    assert!(legal.contains(&r.best_move.unwrap()));
}

#[test]
fn bad_engine_strings_are_one_line_errors() {
    for bad in ["engine(threads=0)", "engine(depht=3)", "engine(tt=huge)", "engine(null=perhaps)"] {
        let e = from_spec::<Breakthrough>(bad).err().expect(bad).to_string();
        assert!(!e.contains('\n') && !e.is_empty(), "{bad}: {e}");
    }
}

#[test]
fn bench_prints_its_signature() {
    let run = || {
        let out = Command::new(BIN).args(["bench", "--depth", "3"]).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let a = run();
    let last = a.lines().last().unwrap().to_string();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{last}");
    assert_eq!((words[1], words[3]), ("nodes", "nps"));
    let nodes: u64 = words[0].parse().unwrap();
    assert!(nodes > 0);
    let b = run();
    assert_eq!(b.lines().last().unwrap().split_whitespace().next(), Some(words[0]), "same signature twice");
    let out = Command::new(BIN).args(["bench", "--depth", "3", "--json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nodes"].as_u64(), Some(nodes));
    assert!(v["nps"].as_u64().is_some());
    let bad = Command::new(BIN).args(["bench", "--engine", "engine(x=1)"]).output().unwrap();
    assert!(!bad.status.success());
}

#[test]
fn plays_games_it_knows_nothing_about() {
    // References: tests/data/reference/solved.json.
    // Marbles: the side to move loses exactly when n % (k+1) == 0.
    for k in 2..=4u32 {
        for n in 1..=14u32 {
            let AnyGame::Marbles(g) = AnyGame::parse(&format!("marbles(n={n},k={k})")).unwrap() else { unreachable!() };
            for spec in ["engine(depth=20)", "engine(nodes=20000,null=on)", "engine(depth=16,threads=2)"] {
                let r = from_spec(spec).unwrap().search(&g, &g.start());
                let wins = n % (k + 1) != 0;
                assert_eq!(r.value >= WIN_THRESHOLD, wins, "{spec} n={n} k={k}: value {}", r.value);
                if !wins {
                    assert!(r.value <= -WIN_THRESHOLD, "{spec} n={n} k={k}: a proven loss");
                }
            }
        }
    }
    // Tic-tac-toe is a draw.
    let AnyGame::TicTacToe(t) = AnyGame::parse("tic_tac_toe").unwrap() else { unreachable!() };
    let r = from_spec("engine(depth=9)").unwrap().search(&t, &t.start());
    assert_eq!(r.value, 0);
    // Connect Four after 4455: Pons score +18, a win for the side to move with its 4th stone.
    let AnyGame::ConnectFour(c) = AnyGame::parse("connect_four").unwrap() else { unreachable!() };
    let s = c.play_moves(&c.start(), &c.split_moves("4455").join(" ")).unwrap();
    let r = from_spec("engine(depth=12)").unwrap().search(&c, &s);
    assert!(r.value >= WIN_THRESHOLD, "connect four 4455: {}", r.value);
}

#[test]
fn nnue_weights_files_are_read_by_the_player_string() {
    use plateau::games::breakthrough::eval::nnue::NnueWeights;
    let g = bt("breakthrough");
    let dir = std::env::temp_dir().join(format!("plateau-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let committed = concat!(env!("CARGO_MANIFEST_DIR"), "/src/games/breakthrough/eval/nnue_weights.bin");
    // A residual network that outputs 0 everywhere: the value is pst's.
    let zero = dir.join("zero.bin");
    std::fs::write(&zero, NnueWeights { residual: true, ..NnueWeights::zero() }.to_bytes()).unwrap();
    let zero = zero.to_str().unwrap().to_string();
    for (i, s) in random_positions(&g, 12, 41, 4, 30).iter().enumerate() {
        let same = |a: &str, b: &str| {
            let (ra, rb) = (engine(a).search(&g, s), engine(b).search(&g, s));
            assert_eq!((ra.value, ra.best_move), (rb.value, rb.best_move), "position {i}: {a} / {b}");
        };
        same(&format!("engine(eval=nnue:{committed},depth=4)"), "engine(eval=nnue,depth=4)");
        // (with pst's search constants: 8x8 networks have their own, docs/engine.md)
        same(&format!("engine(eval=nnue:{zero},depth=4,params=general)"), "engine(eval=pst,depth=4)");
    }
    // Boards other than 8x8: `nnue` is `pst`, whichever network.
    let small = bt("breakthrough(rows=6,columns=5)");
    let s = small.start();
    let a = engine(&format!("engine(eval=nnue:{committed},depth=5)")).search(&small, &s);
    let b = engine("engine(eval=pst,depth=5)").search(&small, &s);
    assert_eq!((a.value, a.best_move), (b.value, b.best_move));
    // Bad files are refused when the player string is read, in one line naming the file.
    let garbage = dir.join("garbage.bin");
    std::fs::write(&garbage, b"PLNNUE99 not a network").unwrap();
    let short = dir.join("short.bin");
    std::fs::write(&short, &std::fs::read(committed).unwrap()[..100]).unwrap();
    // Issue 43, point 8: a network with one flipped bit was read as a network; the checksum refuses it.
    let flipped = dir.join("flipped.bin");
    let mut bytes = std::fs::read(committed).unwrap();
    bytes[5000] ^= 0x10;
    std::fs::write(&flipped, &bytes).unwrap();
    for (path, why) in [
        (dir.join("missing.bin"), "cannot read"),
        (dir.clone(), "not a file"),
        (garbage, "not a plateau NNUE file"),
        (short, "bytes, expected"),
        (flipped, "checksum mismatch: the network file is damaged"),
    ] {
        let p = path.to_str().unwrap();
        for player in ["engine", "alphabeta", "mcts"] {
            let spec = format!("{player}(eval=nnue:{p})");
            let e = from_spec::<Breakthrough>(&spec).err().expect(&spec).to_string();
            assert!(!e.contains('\n') && e.contains(p) && e.contains(why), "{spec}: {e}");
        }
    }
    // A file deleted after the player string was read: the search goes on with the `simple` evaluation (and says so
    // on stderr) instead of stopping.
    let doomed = dir.join("doomed.bin");
    std::fs::copy(committed, &doomed).unwrap();
    let mut player = engine(&format!("engine(eval=nnue:{},depth=3)", doomed.to_str().unwrap()));
    std::fs::remove_file(&doomed).unwrap();
    let s = g.start();
    let (a, b) = (player.search(&g, &s), engine("engine(eval=simple,depth=3)").search(&g, &s));
    assert_eq!((a.value, a.best_move), (b.value, b.best_move));
    std::fs::remove_dir_all(&dir).unwrap();
}
