//! Evaluations given at run time (`Searcher::give_evaluation`, what Python's `search(..., evaluate=f)` calls): the
//! players that evaluate positions search with the function instead of their `eval=`, and its values are the ones they
//! report; the players that evaluate nothing refuse it in one line.
//! - one ply of minimax with a given function equals the best of minus the function over the children, computed here;
//! - alpha-beta, PVS, MTD(f) and the engine at depth 3 agree with minimax under the same function;
//! - MCTS with evaluation cuts, the naive player of simultaneous Breakthrough (through the alternating view) and the
//!   hidden-information players call it;
//! - `random`, `pns` and MCTS without cut or bias refuse it.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use plateau::game::{FullGame, Game, GivenEval, MoveList, Side};
use plateau::games::AnyGame;
use plateau::games::breakthrough::Breakthrough;
use plateau::games::breakthrough::imperfect::DarkBreakthrough;
use plateau::games::breakthrough::simultaneous::SimBreakthrough;
use plateau::players;

/// A function no game computes: a hash of the state, in -500..500, counting its calls.
fn hashed<G: FullGame>(calls: &Arc<AtomicU64>) -> GivenEval<G> {
    let calls = calls.clone();
    Arc::new(move |s: &G::State| {
        calls.fetch_add(1, Ordering::Relaxed);
        let mut h = DefaultHasher::new();
        s.hash(&mut h);
        (h.finish() % 1000) as i32 - 500
    })
}

fn small() -> Breakthrough {
    Breakthrough::new(5, 5, 2, false, false).unwrap()
}

/// The value of `algo` on `game`'s start with the function given.
fn value_with<G: FullGame>(game: &G, algo: &str, f: GivenEval<G>) -> i32 {
    let mut s = players::searcher::<G>(algo).unwrap();
    s.give_evaluation(f).unwrap();
    s.search(game, &game.start()).value
}

#[test]
fn one_ply_of_minimax_is_the_best_of_minus_the_function_over_the_children() {
    let g = small();
    let calls = Arc::new(AtomicU64::new(0));
    let f = hashed::<Breakthrough>(&calls);
    let start = g.start();
    let mut moves = MoveList::new();
    g.generate_moves(&start, &mut moves);
    let expected = moves
        .iter()
        .map(|&m| {
            let mut c = start;
            g.play(&mut c, m);
            assert!(g.outcome(&c).is_none(), "no move ends the game at the start");
            -f(&c)
        })
        .max()
        .unwrap();
    let before = calls.load(Ordering::Relaxed);
    assert_eq!(value_with(&g, "minimax(depth=1)", f.clone()), expected);
    assert!(calls.load(Ordering::Relaxed) - before >= moves.len() as u64, "every child scored by the function");
    // The game's own evaluation gives another value (the function is not ignored).
    let own = players::searcher::<Breakthrough>("minimax(depth=1)").unwrap().search(&g, &start).value;
    assert_ne!(own, expected);
}

#[test]
fn the_alpha_beta_family_and_the_engine_agree_with_minimax_under_the_function() {
    let g = small();
    let calls = Arc::new(AtomicU64::new(0));
    let reference = value_with(&g, "minimax(depth=3)", hashed::<Breakthrough>(&calls));
    for algo in ["alphabeta(depth=3)", "pvs(depth=3)", "mtdf(depth=3)", "negascout(depth=3)"] {
        assert_eq!(value_with(&g, algo, hashed::<Breakthrough>(&calls)), reference, "{algo}");
    }
    // The engine prunes and extends as it likes, but its leaves are the function's: its value moves with it.
    let before = calls.load(Ordering::Relaxed);
    value_with(&g, "engine(depth=3)", hashed::<Breakthrough>(&calls));
    assert!(calls.load(Ordering::Relaxed) > before, "the engine called the function");
}

#[test]
fn mcts_with_cuts_the_simultaneous_and_the_hidden_players_call_the_function() {
    let g = small();
    let calls = Arc::new(AtomicU64::new(0));
    value_with(&g, "mcts(playouts=200,cut=2,seed=1)", hashed::<Breakthrough>(&calls));
    assert!(calls.load(Ordering::Relaxed) > 0, "mcts(cut=2)");

    let Ok(AnyGame::BreakthroughSimultaneous(sim)) =
        AnyGame::parse("breakthrough(rows=5,columns=4,moves=simultaneous)")
    else {
        panic!("simultaneous Breakthrough");
    };
    let calls = Arc::new(AtomicU64::new(0));
    let mut naive = players::searcher::<SimBreakthrough>("naive(depth=2)").unwrap();
    naive.give_evaluation(hashed::<SimBreakthrough>(&calls)).unwrap();
    let r = naive.search_as(&sim, &sim.start(), Side::First);
    assert!(r.best_move.is_some() && calls.load(Ordering::Relaxed) > 0, "naive on the alternating view");

    let Ok(AnyGame::DarkBreakthrough(dark)) = AnyGame::parse("breakthrough(information=imperfect,rows=5,columns=4)")
    else {
        panic!("dark Breakthrough");
    };
    for algo in ["naive(depth=2)", "determinize(depth=2,samples=4,seed=1)"] {
        let calls = Arc::new(AtomicU64::new(0));
        let mut p = players::searcher::<DarkBreakthrough>(algo).unwrap();
        p.give_evaluation(hashed::<DarkBreakthrough>(&calls)).unwrap();
        let r = p.search(&dark, &dark.start());
        assert!(r.best_move.is_some() && calls.load(Ordering::Relaxed) > 0, "{algo} on dark Breakthrough");
    }
}

#[test]
fn players_that_evaluate_nothing_refuse_a_function() {
    let calls = Arc::new(AtomicU64::new(0));
    for algo in ["random", "pns", "mcts(playouts=100,defaults=none)"] {
        let mut p = players::searcher::<Breakthrough>(algo).unwrap();
        let e = p.give_evaluation(hashed::<Breakthrough>(&calls)).unwrap_err().to_string();
        assert!(e.contains("evaluates no position") && !e.contains('\n'), "{algo}: {e}");
    }
}
