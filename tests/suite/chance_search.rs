//! The searches of chance games (`expectimax`, `star1`, `star2`, `star2` with its table): every one returns exactly
//! expectimax's value at fixed depth, on synthetic chance trees (`chance_tree`, uniform and skewed probabilities,
//! independent and correlated values), on the course's coin game (values 3 and -1 by hand) and on deterministic games
//! (where expectimax is negamax and the stars are alpha-beta); the stars prune.

use plateau::game::Capabilities;
use plateau::game::{FullGame, Game};
use plateau::games::chance_tree::ChanceTree;
use plateau::games::coin_game::CoinGame;
use plateau::games::{TicTacToe, marbles::Marbles};
use plateau::players;
use plateau::search::chance::ChanceTable;
use plateau::search::ctx::Ctx;
use plateau::search::expectimax::expectimax;
use plateau::search::star1::star1;
use plateau::search::star2::star2;
use plateau::search::trace::NoTrace;
use plateau::search::{Stats, StopCheck};
use plateau::spec::Spec;

fn tree(spec: &str) -> ChanceTree {
    ChanceTree::from_spec(&Spec::parse(spec).unwrap()).unwrap()
}

/// The real-valued results of the four searches of `s` to `depth`, with their statistics.
fn values<G: FullGame>(g: &G, s: &G::State, depth: u32) -> [(f64, Stats); 4] {
    let eval = plateau::game::SearchEval::<G>::default();
    let u = g.value_bound() as f64;
    let run = |which: usize| {
        let mut tracer = NoTrace;
        let mut ctx = Ctx::new(g, &eval, StopCheck::none(), depth, &mut tracer);
        let v = match which {
            0 => expectimax(&mut ctx, s, depth, 0),
            1 => star1(&mut ctx, s, depth, -u, u, 0, u),
            2 => star2(&mut ctx, &mut None, s, depth, -u, u, 0, u),
            _ => star2(&mut ctx, &mut Some(ChanceTable::new(1)), s, depth, -u, u, 0, u),
        };
        (v, ctx.stats)
    };
    [run(0), run(1), run(2), run(3)]
}

fn assert_same<G: FullGame>(g: &G, s: &G::State, depth: u32, what: &str) -> [(f64, Stats); 4] {
    let r = values(g, s, depth);
    for (name, (v, _)) in ["star1", "star2", "star2+tt"].iter().zip(&r[1..]) {
        assert!((v - r[0].0).abs() < 1e-9, "{what} depth {depth}: {name} {v} != expectimax {}", r[0].0);
    }
    r
}

#[test]
fn the_stars_equal_expectimax_on_chance_trees() {
    let mut nodes = [0u64; 4];
    for seed in 1..=12 {
        for shape in [
            "width=3,depth=5",
            "width=2,outcomes=6,depth=6,probabilities=random",
            "width=4,outcomes=3,depth=5,model=walk",
            "width=3,outcomes=4,depth=7,model=walk,probabilities=random,range=1000",
        ] {
            let spec = format!("chance_tree({shape},seed={seed})");
            let g = tree(&spec);
            for depth in 1..=g.depth {
                let r = assert_same(&g, &g.start(), depth, &spec);
                if depth == g.depth {
                    for (n, (_, st)) in nodes.iter_mut().zip(&r) {
                        *n += st.nodes;
                    }
                }
            }
            // A chance node at the root, and a position deeper down.
            for pos in ["1", "2.1"] {
                let s = g.parse_position(pos).unwrap();
                assert_same(&g, &s, g.depth - s.ply as u32, &format!("{spec} at {pos}"));
            }
        }
    }
    // Pruning: Star1 and Star2 with its table search fewer nodes than expectimax over these trees (Star2 without a
    // table searches its probed moves twice: on these unordered trees it visits more).
    assert!(nodes[1] < nodes[0] && nodes[3] < nodes[0], "{nodes:?}");
}

#[test]
fn the_coin_game_by_hand() {
    let g = CoinGame::default();
    // MAX: l is worth 0.5 * min(2, 4) + 0.5 * min(7, 4) = 3, r is worth 0.5 * min(6, 0) + 0.5 * min(5, -2) = -1.
    for algo in ["expectimax(depth=3)", "star1(depth=3)", "star2(depth=3)", "star2(depth=3,tt=1mb)"] {
        let mut p = players::searcher::<CoinGame>(algo).unwrap();
        let r = p.search(&g, &g.start());
        assert_eq!(r.value, 3, "{algo}");
        assert_eq!(r.best_move.map(|m| g.format_move(&g.start(), m)).as_deref(), Some("l"), "{algo}");
        // After r, the coin is tossed and MIN moves: -1 for MAX, 1 for MIN (the side to move at the toss).
        let after_r = g.parse_position("r").unwrap();
        assert_eq!(p.search(&g, &after_r).value, 1, "{algo}");
        let after_l = g.parse_position("l").unwrap();
        assert_eq!(p.search(&g, &after_l).value, -3, "{algo}");
    }
    for depth in 1..=3 {
        assert_same(&g, &g.start(), depth, "coin_game");
    }
    // A skewed coin and other leaves: still equal.
    let g = CoinGame::from_spec(&Spec::parse("coin_game(leaves=9/-3/1/8/-7/6/4/2,p=0.3)").unwrap()).unwrap();
    let r = assert_same(&g, &g.start(), 3, "skewed coin");
    // l: 0.3 * min(9,-3) + 0.7 * min(1,8) = -0.2; r: 0.3 * min(-7,6) + 0.7 * min(4,2) = -0.7.
    assert!((r[0].0 - -0.2).abs() < 1e-9, "{}", r[0].0);
}

#[test]
fn on_deterministic_games_expectimax_is_negamax_and_the_stars_alpha_beta() {
    let ttt = TicTacToe;
    let marbles = Marbles::from_spec(&Spec::parse("marbles(n=13,k=3)").unwrap()).unwrap();
    for depth in 1..=5 {
        let want =
            players::searcher::<TicTacToe>(&format!("negamax(depth={depth})")).unwrap().search(&ttt, &ttt.start());
        for algo in ["expectimax", "star1", "star2", "star2(tt=1mb"] {
            let text = format!("{algo}{}depth={depth})", if algo.contains('(') { "," } else { "(" });
            let got = players::searcher::<TicTacToe>(&text).unwrap().search(&ttt, &ttt.start());
            assert_eq!(got.value, want.value, "{text}");
        }
        let s = marbles.start();
        let v = players::searcher::<Marbles>(&format!("alphabeta(depth={depth})")).unwrap().search(&marbles, &s).value;
        assert_same(&marbles, &s, depth, "marbles");
        assert_eq!(
            players::searcher::<Marbles>(&format!("star2(depth={depth})")).unwrap().search(&marbles, &s).value,
            v
        );
    }
}

#[test]
fn the_deterministic_algorithms_refuse_chance_games_and_the_chance_ones_are_listed() {
    let e = players::searcher::<ChanceTree>("alphabeta(depth=2)").err().unwrap().to_string();
    assert!(e.contains("alphabeta cannot play a game with chance") && e.contains("star2"), "{e}");
    for name in ["expectimax", "star1", "star2", "expectiminimax", "star_2"] {
        assert!(players::searcher::<ChanceTree>(name).is_ok(), "{name}");
    }
    let names = players::names_for(<ChanceTree as Capabilities>::KIND);
    assert!(names.contains(&"expectimax") && !names.contains(&"minimax"), "{names:?}");
}
