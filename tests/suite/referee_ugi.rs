//! External engines on Breakthrough with simultaneous moves and with imperfect information, over UGI's referee lines
//! (`docs/protocols.md`): `plateau ugi` plays itself against built-in players, a hidden-information engine receives
//! exactly its observations (never a move of the game, never the referee's state), and clocks work at simultaneous
//! nodes.

use std::time::Duration;

use crate::common::{BIN, tmpdir};
use plateau::arena::openings::Openings;
use plateau::arena::{MatchConfig, parse_tc, run_match};
use plateau::game::{Capabilities, Game};
use plateau::game::{FullGame, Side};
use plateau::games::breakthrough::imperfect::DarkBreakthrough;
use plateau::games::breakthrough::simultaneous::SimBreakthrough;
use plateau::search::TimeControl;
use plateau::spec::Spec;

fn config<G: FullGame>(players: [&str; 2], games: usize) -> MatchConfig<G> {
    MatchConfig {
        players: [players[0].to_string(), players[1].to_string()],
        games,
        limit: None,
        concurrency: 1,
        openings: Openings::Random { plies: 0, seed: 7 },
        sprt: None,
        record: None,
        adjudicate: false,
        max_plies: 1000,
        margin: Duration::from_millis(500),
        progress: false,
        seed: 7,
        fixed_colours: false,
    }
}

fn sim() -> SimBreakthrough {
    SimBreakthrough::from_spec(&Spec::parse("breakthrough(rows=5,columns=4,moves=simultaneous)").unwrap()).unwrap()
}

fn dark() -> DarkBreakthrough {
    DarkBreakthrough::from_spec(&Spec::parse("breakthrough(information=imperfect,rows=5,columns=4)").unwrap()).unwrap()
}

#[test]
fn plateau_ugi_plays_the_simultaneous_variant_against_a_builtin_player() {
    let g = sim();
    let spec = format!("ugi(cmd={BIN} ugi {} --player smmcts(select=duct,seed=1),nodes=300)", g.spec());
    let s = run_match(&g, &config([spec.as_str(), "random(seed=2)"], 6), |_| {}).unwrap();
    assert!(s.failures.is_empty(), "{:?}", s.failures);
    assert_eq!(s.games, 6);
    assert!(s.wins_a > s.wins_b, "{} {} {}", s.wins_a, s.wins_b, s.draws);
    // The same engine on both sides: both are asked at once at every node, and the games finish.
    let s = run_match(&g, &config([spec.as_str(), spec.as_str()], 2), |_| {}).unwrap();
    assert!(s.failures.is_empty(), "{:?}", s.failures);
}

#[test]
fn plateau_ugi_plays_the_hidden_variant_and_receives_only_its_observations() {
    let g = dark();
    let dir = tmpdir("dark");
    let log = dir.join("input.log");
    // A wrapper that keeps every line the engine receives.
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntee -a '{}' | '{BIN}' ugi '{}' --player 'determinize(depth=2,samples=4,seed=3)'\n",
            log.display(),
            g.spec()
        ),
    )
    .unwrap();
    let spec = format!("ugi(cmd=sh {},movetime=2000,name=logged)", script.display());
    let mut cfg = config::<DarkBreakthrough>([spec.as_str(), "random(seed=4)"], 4);
    cfg.fixed_colours = false;
    let mut records = Vec::new();
    let s = run_match(&g, &cfg, |r| records.push(r.clone())).unwrap();
    assert!(s.failures.is_empty(), "{:?}", s.failures);
    assert_eq!(s.games, 4);
    assert!(s.wins_a >= 2, "{} {}", s.wins_a, s.wins_b);
    let text = std::fs::read_to_string(&log).unwrap();
    // Split the log into games (one `uginewgame` each) and compare with each game's true observations.
    let games: Vec<&str> = text.split("uginewgame\n").skip(1).collect();
    assert_eq!(games.len(), 4);
    records.sort_by_key(|r| r.round);
    for (rec, input) in records.iter().zip(games) {
        let side = if rec.a_first { Side::First } else { Side::Second };
        // What the engine should have been told: its observation at the start and each time it changed.
        let mut want = vec![g.observation(&g.start(), side)];
        let mut s = g.start();
        for m in &rec.moves {
            let mv = g.parse_move(&s, m).unwrap();
            g.play(&mut s, mv);
            let o = g.observation(&s, side);
            if *want.last().unwrap() != o {
                want.push(o);
            }
        }
        let mut got = Vec::new();
        for line in input.lines() {
            let word = line.split_whitespace().next().unwrap_or("");
            match word {
                "observation" => got.push(line["observation ".len()..].replace('|', "\n")),
                "position" => assert_eq!(line, "position startpos", "the engine gets the public start only"),
                "side" => assert_eq!(line, format!("side {}", if side == Side::First { "p1" } else { "p2" })),
                "legal" | "go" | "isready" | "ugi" | "setoption" | "quit" => {}
                other => panic!("unexpected line to the engine: {line} ({other})"),
            }
            // Never the referee's position text (the whole board) or a move list.
            assert!(word == "observation" || !line.contains(" moves "), "{line}");
        }
        // The last observation (the referee shows the whole board at the end) may not have been sent when the
        // engine's game ended before the referee's next announcement.
        assert!(got.len() == want.len() || got.len() + 1 == want.len(), "{} vs {}", got.len(), want.len());
        assert_eq!(got[..], want[..got.len()], "round {}", rec.round);
        // Before the end, an observation shows the opponent's pieces only where the engine's tries found them.
        for o in &got {
            if !o.contains("the game is over") {
                let enemy = if side == Side::First { 'p' } else { 'P' };
                let shown = o
                    .lines()
                    .filter(|l| l.trim_start().starts_with(char::is_numeric))
                    .flat_map(|l| l.chars())
                    .filter(|&c| c == enemy)
                    .count();
                assert!(shown == 0 || o.contains("was cancelled"), "{o}");
            }
        }
    }
}

#[test]
fn clocks_work_at_simultaneous_nodes_and_on_hidden_boards() {
    let g = sim();
    for limit in [TimeControl::MoveTime(Duration::from_millis(40)), parse_tc("2s+20ms").unwrap()] {
        let mut cfg = config::<SimBreakthrough>(["smmcts(select=duct,seed=5)", "smmcts(select=rm,seed=6)"], 2);
        cfg.limit = Some(limit);
        let s = run_match(&g, &cfg, |_| {}).unwrap();
        assert!(s.failures.is_empty() && s.time_forfeits == 0, "{limit}: {:?}", s.failures);
        // The players used their time (they are not playout-limited under a time control).
        assert!(s.max_move_ms.iter().all(|&ms| ms >= 10), "{limit}: {:?}", s.max_move_ms);
        // An external engine on the same clocks.
        let spec = format!("ugi(cmd={BIN} ugi {} --player smmcts(select=duct))", g.spec());
        let mut cfg = config::<SimBreakthrough>([spec.as_str(), "smmcts(select=rm,seed=6)"], 2);
        cfg.limit = Some(limit);
        let s = run_match(&g, &cfg, |_| {}).unwrap();
        assert!(s.failures.is_empty() && s.time_forfeits == 0, "{limit}: {:?}", s.failures);
    }
    let d = dark();
    for limit in [TimeControl::MoveTime(Duration::from_millis(40)), parse_tc("2s+20ms").unwrap()] {
        let mut cfg = config::<DarkBreakthrough>(["ismcts(seed=7)", "determinize(seed=8)"], 2);
        cfg.limit = Some(limit);
        let s = run_match(&d, &cfg, |_| {}).unwrap();
        assert!(s.failures.is_empty() && s.time_forfeits == 0, "{limit}: {:?}", s.failures);
    }
}

#[test]
fn a_slow_half_loses_on_time_and_uci_is_still_refused() {
    let g = sim();
    let dir = tmpdir("slow");
    let script = dir.join("slow.sh");
    std::fs::write(
        &script,
        "while read line; do case \"$line\" in ugi) echo ugiok ;; isready) echo readyok ;; go*) sleep 0.5; echo 'bestmove a2a3' ;; quit) exit 0 ;; esac; done\n",
    )
    .unwrap();
    let spec = format!("ugi(cmd=sh {},name=slow)", script.display());
    let mut cfg = config::<SimBreakthrough>([spec.as_str(), "random(seed=1)"], 1);
    cfg.limit = Some(TimeControl::MoveTime(Duration::from_millis(100)));
    cfg.margin = Duration::from_millis(100);
    let s = run_match(&g, &cfg, |_| {}).unwrap();
    assert_eq!((s.wins_a, s.wins_b), (0, 1), "{:?}", s.failures);
    assert!(s.failures[0].contains("slow lost"), "{:?}", s.failures);
    let e = run_match(&g, &config::<SimBreakthrough>(["uci(cmd=x)", "random"], 1), |_| {}).unwrap_err();
    assert!(e.contains("UGI"), "{e}");
}
