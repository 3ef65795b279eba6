//! The catalogue against the reference (`tests/data/reference/solved.json`, a copy of the project's shared reference
//! file, computed outside this project).

use plateau::game::{Game, WIN_THRESHOLD};
use plateau::games::{Breakthrough, Marbles, TicTacToe};
use plateau::search::catalogue::NAMES;
use plateau::spec::Spec;

/// The reference's tic-tac-toe facts: game-tree nodes including the root, and complete games (the leaves).
const TTT_NODES: u64 = 549_946;
const TTT_GAMES: u64 = 255_168;

/// The numbers above are the reference file's (a missing file fails the test).
#[test]
fn constants_are_the_reference_file() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference/solved.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let ttt = v["entries"].as_array().unwrap().iter().find(|e| e["game"] == "tic_tac_toe").unwrap();
    assert_eq!(ttt["facts"]["game_tree_nodes_including_root"].as_u64(), Some(TTT_NODES));
    assert_eq!(ttt["facts"]["complete_games"].as_u64(), Some(TTT_GAMES));
}

#[test]
fn tic_tac_toe_tree_and_value() {
    let g = TicTacToe::from_spec(&Spec::parse("tic_tac_toe").unwrap()).unwrap();
    let s = g.start();
    for name in ["minimax", "negamax"] {
        let r = plateau::players::searcher::<TicTacToe>(&format!("{name}(depth=9)")).unwrap().search(&g, &s);
        assert_eq!((r.stats.nodes, r.stats.leaves), (TTT_NODES, TTT_GAMES), "{name} visits the whole game tree");
    }
    for (name, _) in NAMES {
        let r = plateau::players::searcher::<TicTacToe>(&format!("{name}(depth=9)")).unwrap().search(&g, &s);
        assert_eq!(r.value, 0, "{name}: tic-tac-toe is a draw");
    }
}

#[test]
fn marbles_losing_piles() {
    // The side to move loses exactly when n % (k + 1) == 0 (misère: when n % (k + 1) == 1).
    for misere in [false, true] {
        for n in 1..=12u32 {
            let g = Marbles::from_spec(&Spec::parse(&format!("marbles(n={n},k=3,misere={misere})")).unwrap()).unwrap();
            let loses = if misere { n % 4 == 1 } else { n % 4 == 0 };
            for (name, _) in NAMES {
                let r = plateau::players::searcher::<Marbles>(&format!("{name}(depth={n})"))
                    .unwrap()
                    .search(&g, &g.start());
                if loses {
                    assert!(r.value <= -WIN_THRESHOLD, "{name} n={n} misere={misere}: {}", r.value);
                } else {
                    assert!(r.value >= WIN_THRESHOLD, "{name} n={n} misere={misere}: {}", r.value);
                }
            }
        }
    }
}

#[test]
fn small_breakthrough_first_player_wins() {
    let g = Breakthrough::from_spec(&Spec::parse("breakthrough(rows=4,columns=3,piece_rows=1)").unwrap()).unwrap();
    for (name, _) in NAMES.iter().filter(|(n, _)| !["minimax", "negamax"].contains(n)) {
        let r = plateau::players::searcher::<Breakthrough>(&format!("{name}(depth=9)")).unwrap().search(&g, &g.start());
        assert!(r.value >= WIN_THRESHOLD, "{name}: {}", r.value);
    }
    // 4x4 with one row: only a1a2 and d1d2 win.
    let g = Breakthrough::from_spec(&Spec::parse("breakthrough(rows=4,columns=4,piece_rows=1)").unwrap()).unwrap();
    let s = g.start();
    for name in ["alphabeta", "mtdf", "negascout"] {
        let r = plateau::players::searcher::<Breakthrough>(&format!("{name}(depth=11)")).unwrap().search(&g, &s);
        assert!(r.value >= WIN_THRESHOLD, "{name}: {}", r.value);
        let m = g.format_move(&s, r.best_move.unwrap());
        assert!(m == "a1a2" || m == "d1d2", "{name}: {m}");
    }
}
