//! Monte Carlo tree search (`src/mcts/`): the tree's statistics, MCTS-Solver's proofs against the exact solvers,
//! reproducibility for a seed, chance nodes, the parameters' errors, and the `pns` player.

use plateau::game::{Capabilities, Game};
use plateau::game::{FullGame, MoveList, Outcome, Side};
use plateau::games::{Breakthrough, CoinGame, ConnectFour, MatchingPennies, PhantomTicTacToe, TicTacToe};
use plateau::mcts::Mcts;
use plateau::mcts::tree::{Actor, Tree};
use plateau::search::Searcher;
use plateau::solve::generic::GenericSolver;
use plateau::spec::Spec;

fn mcts<G: FullGame>(text: &str) -> Mcts<G> {
    Mcts::from_spec(&Spec::parse(text).unwrap()).unwrap()
}

fn game<G>(text: &str, f: fn(&Spec) -> Result<G, plateau::game::GameError>) -> G {
    f(&Spec::parse(text).unwrap()).unwrap()
}

/// The state of every node, replayed from the root.
fn states<G: FullGame>(game: &G, tree: &Tree<G>, root: &G::State) -> Vec<G::State> {
    let mut out = vec![*root; tree.nodes.len()];
    for i in 0..tree.nodes.len() {
        for c in tree.nodes[i].children() {
            let mut s = out[i];
            game.play(&mut s, tree.nodes[c].mv.unwrap());
            out[c] = s;
        }
    }
    out
}

/// Visits: the root's are its children's sum; any other unproven expanded node has one more (the iteration that
/// reached it first and simulated from it); a proven node stops passing visits down, so it has at least that many.
fn check_visits<G: FullGame>(tree: &Tree<G>, root_own: u64) {
    for (i, n) in tree.nodes.iter().enumerate() {
        if !n.expanded || n.n_children == 0 {
            continue;
        }
        let sum: u64 = n.children().map(|c| tree.nodes[c].visits as u64).sum();
        let own = if i == 0 { root_own } else { 1 };
        if n.proven.is_some() {
            assert!(n.visits as u64 >= sum + own, "node {i}: {} visits, children {sum}", n.visits);
        } else {
            assert_eq!(n.visits as u64, sum + own, "node {i}");
        }
        for c in n.children() {
            assert_eq!(tree.nodes[c].parent as usize, i);
        }
    }
}

#[test]
fn children_visits_add_up_to_the_parents() {
    let g = TicTacToe;
    for text in
        ["mcts(playouts=3000,seed=1,solver=false)", "mcts(playouts=3000,seed=2)", "mcts(playouts=2000,seed=3,rave=300)"]
    {
        let mut m = mcts::<TicTacToe>(text);
        m.search(&g, &g.start());
        check_visits(m.tree(0).unwrap(), 0);
    }
    let g = Breakthrough::default();
    let mut m = mcts::<Breakthrough>("mcts(playouts=2000,seed=4,cut=4,bias=1)");
    let s = g.start();
    m.search(&g, &s);
    check_visits(m.tree(0).unwrap(), 0);
    // The root's total is the number of iterations.
    assert_eq!(m.tree(0).unwrap().nodes[0].visits, 2000);
}

/// Every proven node of the tree agrees with the exact solver (win, draw or loss for its side to move).
fn check_proofs<G: FullGame>(game: &G, tree: &Tree<G>, root: &G::State) -> usize {
    let mut solver = GenericSolver::<G>::new(16, true);
    let all = states(game, tree, root);
    let mut checked = 0;
    for (n, s) in tree.nodes.iter().zip(&all) {
        let Some(v) = n.proven else { continue };
        let exact = match game.outcome_for(s, Side::First) {
            Some(o) => o,
            None => {
                let o = solver.solve(game, s).outcome;
                if game.side_to_move(s) == Side::First { o } else { o.flip() }
            }
        };
        let want = match exact {
            Outcome::Win => 1.0,
            Outcome::Loss => 0.0,
            _ => 0.5,
        };
        assert_eq!(v, want, "{}", game.format_position(s));
        checked += 1;
    }
    checked
}

#[test]
fn solver_values_agree_with_the_exact_solver_on_tic_tac_toe() {
    let g = TicTacToe;
    let mut m = mcts::<TicTacToe>("mcts(playouts=200000,seed=5)");
    let r = m.search(&g, &g.start());
    let tree = m.tree(0).unwrap();
    // The empty board is a draw, proven before the budget runs out.
    assert_eq!(tree.nodes[0].proven, Some(0.5));
    assert_eq!(r.value, 0);
    assert!(check_proofs(&g, tree, &g.start()) > 1000);
    // Positions after two random moves: proven, with the solver's value, and a move that keeps it.
    let mut solver = GenericSolver::<TicTacToe>::new(16, true);
    let mut moves = MoveList::new();
    g.generate_moves(&g.start(), &mut moves);
    for &a in moves.iter().take(4) {
        let mut s = g.start();
        g.play(&mut s, a);
        let mut m = mcts::<TicTacToe>("mcts(playouts=100000,seed=6)");
        let r = m.search(&g, &s);
        let tree = m.tree(0).unwrap();
        assert!(
            tree.nodes[0].proven.is_some(),
            "{} {} {} {}",
            g.format_position(&s),
            tree.nodes[0].pess,
            tree.nodes[0].opt,
            r.stats.leaves
        );
        check_proofs(&g, tree, &s);
        let exact = solver.solve(&g, &s).outcome;
        let mut after = s;
        g.play(&mut after, r.best_move.unwrap());
        let kept = solver.solve(&g, &after).outcome.flip();
        assert_eq!(kept, exact, "{}", g.format_position(&s));
    }
}

#[test]
fn solver_proves_small_breakthrough_boards() {
    for (text, winning) in [
        ("breakthrough(rows=4,columns=3,piece_rows=1)", None),
        ("breakthrough(rows=4,columns=4,piece_rows=1)", Some(["a1a2", "d1d2"])),
    ] {
        let g = game(text, Breakthrough::from_spec);
        let mut m = mcts::<Breakthrough>("mcts(playouts=500000,seed=7)");
        let s = g.start();
        let r = m.search(&g, &s);
        let tree = m.tree(0).unwrap();
        assert_eq!(tree.nodes[0].proven, Some(1.0), "{text}: the first player wins");
        assert!(r.value >= plateau::game::WIN_THRESHOLD, "{text}");
        check_proofs(&g, tree, &s);
        if let Some(w) = winning {
            let best = g.format_move(&s, r.best_move.unwrap());
            assert!(w.contains(&best.as_str()), "{text}: {best}");
        }
    }
}

#[test]
fn solver_agrees_with_pons_scores_on_connect_four_endgames() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/benchmarks/connect4/Test_L3_R1"))
            .expect("the Connect Four benchmark file");
    let g = ConnectFour::default();
    let mut proven = 0;
    for line in text.lines().take(12) {
        let (moves, score) = line.split_once(' ').unwrap();
        let score: i32 = score.parse().unwrap();
        let s = g.play_moves(&g.start(), moves).unwrap();
        let mut m = mcts::<ConnectFour>("mcts(playouts=50000,seed=8)");
        m.search(&g, &s);
        let tree = m.tree(0).unwrap();
        if let Some(v) = tree.nodes[0].proven {
            let mover = plateau::mcts::tree::for_player(v as f64, g.side_to_move(&s));
            let want = match score.signum() {
                1 => 1.0,
                -1 => 0.0,
                _ => 0.5,
            };
            assert_eq!(mover, want, "{moves}");
            proven += 1;
        }
    }
    assert!(proven >= 8, "only {proven} of 12 end-games proven");
}

#[test]
fn a_seed_and_one_thread_give_the_same_search() {
    let g = Breakthrough::default();
    let s = g.start();
    let run = || {
        let mut m = mcts::<Breakthrough>("mcts(playouts=3000,seed=11)");
        let r = m.search(&g, &s);
        let root: Vec<(u64, String)> = m.root_stats().iter().map(|c| (c.visits, g.format_move(&s, c.mv))).collect();
        (r.best_move, r.value, r.stats, r.pv, root)
    };
    assert_eq!(run(), run());
    let mut other = mcts::<Breakthrough>("mcts(playouts=3000,seed=12)");
    let r = other.search(&g, &s);
    assert_eq!(r.stats.leaves, 3000);
}

#[test]
fn chance_nodes_are_sampled_by_probability() {
    let g = CoinGame::default();
    let s = g.start();
    let mut m = mcts::<CoinGame>("mcts(playouts=4000,seed=13,solver=false)");
    let r = m.search(&g, &s);
    // MAX's l wins on both coin sides (MIN's best leaves are 2 and 4, both positive), r loses on tails.
    assert_eq!(g.format_move(&s, r.best_move.unwrap()), "l");
    let tree = m.tree(0).unwrap();
    check_visits(tree, 0);
    for n in &tree.nodes {
        if n.actor == Actor::Chance && n.visits > 400 {
            for c in n.children() {
                let share = tree.nodes[c].visits as f64 / n.visits as f64;
                assert!((share - tree.nodes[c].prob as f64).abs() < 0.1, "{share}");
            }
        }
    }
    // With the solver, the coin game is proven at once.
    let mut m = mcts::<CoinGame>("mcts(playouts=4000,seed=13)");
    m.search(&g, &s);
    assert_eq!(m.tree(0).unwrap().nodes[0].proven, Some(1.0));
}

#[test]
fn tree_reuse_keeps_the_subtree_of_the_next_position() {
    let g = TicTacToe;
    let mut m = mcts::<TicTacToe>("mcts(playouts=5000,seed=14,solver=false)");
    let s = g.start();
    let r = m.search(&g, &s);
    let mut next = s;
    g.play(&mut next, r.best_move.unwrap());
    let mut moves = MoveList::new();
    g.generate_moves(&next, &mut moves);
    g.play(&mut next, moves[0]);
    let kept = {
        let tree = m.tree(0).unwrap();
        let states = states(&g, tree, &s);
        let i = states.iter().position(|x| *x == next).expect("the position is in the tree");
        tree.nodes[i].visits
    };
    m.search(&g, &next);
    let tree = m.tree(0).unwrap();
    assert_eq!(tree.nodes[0].visits, kept + 5000);
    // The new root was a leaf once: its own visit stays.
    check_visits(tree, 1);
}

#[test]
fn memory_budget_stops_the_tree_growing() {
    let g = Breakthrough::default();
    let mut m = mcts::<Breakthrough>("mcts(playouts=20000,mem=1,seed=15)");
    let r = m.search(&g, &g.start());
    let tree = m.tree(0).unwrap();
    let bytes = tree.nodes.len() * std::mem::size_of_val(&tree.nodes[0]);
    assert!(bytes <= 1 << 20, "{bytes} bytes");
    assert_eq!(r.stats.leaves, 20000);
    assert!(r.best_move.is_some());
}

#[test]
fn threads_add_up_their_trees() {
    let g = ConnectFour::default();
    let mut m = mcts::<ConnectFour>("mcts(playouts=4000,threads=2,seed=16)");
    let r = m.search(&g, &g.start());
    assert_eq!(r.stats.leaves, 4000);
    let total: u64 = m.root_stats().iter().map(|c| c.visits).sum();
    assert_eq!(total, 4000);
    assert_eq!(m.name(), "mcts(playouts=4000,threads=2,seed=16)");
}

#[test]
fn bad_parameters_and_unsupported_games_are_refused() {
    for (text, words) in [
        ("mcts(c=-1)", "c=-1"),
        ("mcts(c=abc)", "not a number"),
        ("mcts(playouts=0)", "playouts=0"),
        ("mcts(threads=0)", "threads=0"),
        ("mcts(mem=0)", "mem=0"),
        ("mcts(eval=magic)", "eval=magic"),
        ("mcts(plyouts=10)", "unknown parameter 'plyouts'"),
        ("pns(fallback=nobody)", "unknown algorithm 'nobody'"),
        ("pns(budgit=1)", "unknown parameter 'budgit'"),
    ] {
        let e = plateau::players::searcher::<TicTacToe>(text).err().unwrap().to_string();
        assert!(e.contains(words), "{text}: {e}");
    }
    assert!(plateau::players::searcher::<Breakthrough>("mcts(eval=nt,cut=4)").is_ok());
    let e = plateau::players::searcher::<MatchingPennies>("mcts").err().unwrap().to_string();
    assert!(e.contains("mcts cannot play") && e.contains("simultaneous"), "{e}");
    assert!(plateau::players::searcher::<PhantomTicTacToe>("mcts").is_err());
    assert!(plateau::players::searcher::<CoinGame>("mcts").is_ok());
    assert!(plateau::players::searcher::<CoinGame>("pns").is_err());
}

#[test]
fn pns_plays_a_proven_win_and_defers_otherwise() {
    // Connect Four: a position where the side to move wins (Pons score > 0), within df-pn's budget.
    let g = ConnectFour::default();
    let s = g.play_moves(&g.start(), "7422341735647741166133573473242566").unwrap();
    let mut p = plateau::players::searcher::<ConnectFour>("pns(budget=200000,fallback=random(seed=1))").unwrap();
    let r = p.search(&g, &s);
    let mut after = s;
    g.play(&mut after, r.best_move.unwrap());
    let mut solver = GenericSolver::<ConnectFour>::new(16, true);
    assert_eq!(solver.solve(&g, &after).outcome, Outcome::Loss, "the move keeps the win");
    assert!(r.value >= plateau::game::WIN_THRESHOLD);
    // Tic-tac-toe's start is a draw: no win to prove, the fallback's move.
    let g = TicTacToe;
    let mut p = plateau::players::searcher::<TicTacToe>("pns(budget=10000,fallback=random(seed=3))").unwrap();
    let mut q = plateau::players::searcher::<TicTacToe>("random(seed=3)").unwrap();
    assert_eq!(p.search(&g, &g.start()).best_move, q.search(&g, &g.start()).best_move);
    assert_eq!(p.name(), "pns(budget=10000,fallback=random(seed=3))");
}
