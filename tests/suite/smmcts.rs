//! Simultaneous-move MCTS (`smmcts(select=duct|rm|exp3,...)`): the registry builds it for simultaneous games only;
//! with regret matching its root strategy approaches the equilibrium (matching pennies: 1/2 each; a small solved
//! Breakthrough position: a strategy that guarantees nearly the LP value); it beats the random player.

use plateau::game::Capabilities;
use plateau::game::{Game, MoveList, Outcome, Side};
use plateau::games::breakthrough::simultaneous::SimBreakthrough;
use plateau::games::matching_pennies::MatchingPennies;
use plateau::games::{AnyGame, TicTacToe};
use plateau::mcts::bandit::Select;
use plateau::mcts::simultaneous::SmMcts;
use plateau::players;
use plateau::search::{Limits, Searcher};
use plateau::solve::simultaneous::SimSolver;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn game(text: &str) -> SimBreakthrough {
    match AnyGame::parse(text) {
        Ok(AnyGame::BreakthroughSimultaneous(g)) => g,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn the_registry_builds_it_for_simultaneous_games_only() {
    assert!(players::searcher::<MatchingPennies>("smmcts(playouts=100,select=exp3,seed=1)").is_ok());
    assert!(players::searcher::<SimBreakthrough>("smmcts(time=10ms,select=duct,c=2)").is_ok());
    assert!(players::searcher::<SimBreakthrough>("duct").is_ok());
    let e = players::searcher::<TicTacToe>("smmcts").err().unwrap().to_string();
    assert!(e.contains("simultaneous") && !e.contains('\n'), "{e}");
    for bad in ["smmcts(select=best)", "smmcts(playouts=0)", "smmcts(gamma=2)", "smmcts(depth=3)", "smmcts(cc=1)"] {
        let e = players::searcher::<MatchingPennies>(bad).err().unwrap_or_else(|| panic!("{bad} built")).to_string();
        assert!(!e.contains('\n'), "{bad}: {e}");
    }
    // The engine and the catalogue still refuse simultaneous games.
    assert!(players::searcher::<SimBreakthrough>("engine").is_err());
    assert!(players::searcher::<SimBreakthrough>("alphabeta").is_err());
}

#[test]
fn regret_matching_plays_matching_pennies_half_and_half() {
    let g = MatchingPennies::new(1).unwrap();
    for select in [Select::Rm, Select::Exp3] {
        let mut p = SmMcts::<MatchingPennies>::new(select, 1.4, 0.1, Some(20_000), Limits::default(), Some(3));
        p.search_as(&g, &g.start(), Side::First);
        for who in [Side::First, Side::Second] {
            let s = p.root_strategy(who);
            assert!(s.iter().all(|(_, q)| (q - 0.5).abs() < 0.08), "{select:?} {who:?}: {s:?}");
        }
    }
}

#[test]
fn regret_matching_approaches_the_lp_value_on_a_small_board() {
    // A 5x3 position whose equilibrium is mixed (value 6/7 for White, tests/suite/sim_solve.rs).
    let g = game("breakthrough(rows=5,columns=3,piece_rows=1,moves=simultaneous)");
    let s = g.parse_position("2p/p2/2P/2P/1P1").unwrap();
    let root = SimSolver::new(&g).root(&s).unwrap();
    let mut p = SmMcts::<SimBreakthrough>::new(Select::Rm, 1.4, 0.1, Some(40_000), Limits::default(), Some(5));
    p.search_as(&g, &s, Side::First);
    let x: Vec<f64> = p.root_strategy(Side::First).iter().map(|m| m.1).collect();
    let got = root.matrix.guarantee(&x);
    assert!(got > root.value - 0.2, "the strategy {x:?} guarantees {got}, the value is {}", root.value);
    p.search_as(&g, &s, Side::Second);
    let y: Vec<f64> = p.root_strategy(Side::Second).iter().map(|m| m.1).collect();
    let got = -root.matrix.swapped().guarantee(&y);
    assert!(got < root.value + 0.2, "Black's strategy {y:?} concedes {got}, the value is {}", root.value);
}

#[test]
fn it_beats_the_random_player() {
    let g = game("breakthrough(rows=5,columns=5,moves=simultaneous)");
    let mut rng = SmallRng::seed_from_u64(9);
    let mut score = 0.0;
    let games = 6;
    for i in 0..games {
        let me = if i % 2 == 0 { Side::First } else { Side::Second };
        let mut p = SmMcts::<SimBreakthrough>::new(Select::Duct, 1.4, 0.1, Some(400), Limits::default(), Some(i));
        let mut s = g.start();
        while !g.is_terminal(&s) {
            let mine = p.search_as(&g, &s, me).best_move.unwrap();
            let mut t = s;
            let mut other = MoveList::new();
            g.player_moves(&s, me.other(), &mut other);
            let theirs = other[rng.random_range(0..other.len())];
            let (a, b) = if me == Side::First { (mine, theirs) } else { (theirs, mine) };
            g.play_joint(&mut t, a, b);
            s = t;
        }
        score += match g.outcome_for(&s, me).unwrap() {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            _ => 0.0,
        };
    }
    assert!(score >= games as f64 - 1.0, "{score} of {games}");
}
