//! MCTS's options (`src/mcts/`): statistics by position (`tt`), GRAVE, recycling of the node pool when it is full,
//! tree parallelism with virtual loss against root parallelism.

use plateau::game::Game;
use plateau::game::{FullGame, MoveList};
use plateau::games::{Breakthrough, ConnectFour, TicTacToe};
use plateau::mcts::Mcts;
use plateau::mcts::tree::Tree;
use plateau::search::Searcher;
use plateau::spec::Spec;

fn mcts<G: FullGame>(text: &str) -> Mcts<G> {
    Mcts::from_spec(&Spec::parse(text).unwrap()).unwrap()
}

/// The shape of the pool: children contiguous after their parent, parents right, visits not growing downwards and
/// rewards within the visits (no virtual loss left behind).
fn check_shape<G: FullGame>(tree: &Tree<G>) {
    assert!(tree.nodes.len() <= tree.capacity());
    for (i, n) in tree.nodes.iter().enumerate() {
        assert!(n.reward >= -1e-9 && n.reward <= n.visits as f64 + 1e-9, "node {i}: {} / {}", n.reward, n.visits);
        for c in n.children() {
            assert!(c > i);
            assert_eq!(tree.nodes[c].parent as usize, i);
            assert!(tree.nodes[c].visits <= n.visits);
        }
    }
}

/// Every unproven expanded node other than the root has one visit more than its children (the one that reached it
/// as a leaf); the root has exactly its children's.
fn check_visits<G: FullGame>(tree: &Tree<G>) {
    for (i, n) in tree.nodes.iter().enumerate() {
        if !n.expanded || n.n_children == 0 || n.proven.is_some() {
            continue;
        }
        let sum: u64 = n.children().map(|c| tree.nodes[c].visits as u64).sum();
        assert_eq!(n.visits as u64, sum + u64::from(i != 0), "node {i}");
    }
}

fn legal<G: FullGame>(game: &G, s: &G::State, mv: G::Move) -> bool {
    let mut moves = MoveList::new();
    game.generate_moves(s, &mut moves);
    moves.contains(&mv)
}

#[test]
fn positions_add_up_the_visits_of_every_path_reaching_them() {
    let g = TicTacToe;
    let s = g.start();
    let mut m = mcts::<TicTacToe>("mcts(playouts=20000,tt=true,solver=false,seed=21)");
    let r = m.search(&g, &s);
    assert!(legal(&g, &s, r.best_move.unwrap()));
    let tree = m.tree(0).unwrap();
    check_visits(tree);
    // Replay every node's position: the table's visits of a position are the sum over the nodes that hold it.
    let mut states = vec![s; tree.nodes.len()];
    for i in 0..tree.nodes.len() {
        for c in tree.nodes[i].children() {
            let mut x = states[i];
            g.play(&mut x, tree.nodes[c].mv.unwrap());
            states[c] = x;
        }
    }
    let mut by_key = std::collections::HashMap::<u64, (u64, f64)>::new();
    for (n, x) in tree.nodes.iter().zip(&states) {
        assert_eq!(n.key, g.key(x));
        let e = by_key.entry(n.key).or_default();
        e.0 += n.visits as u64;
        e.1 += n.reward;
    }
    let mut shared = 0;
    for (key, (visits, reward)) in by_key {
        if visits == 0 {
            continue;
        }
        let (v, w) = tree.position_stats(key).expect("a visited position is in the table");
        assert_eq!(v as u64, visits);
        assert!((w - reward).abs() < 1e-6);
        shared += (tree.nodes.iter().filter(|n| n.key == key).count() > 1) as usize;
    }
    assert!(shared > 100, "only {shared} positions reached by several paths");
    // With the solver too, the start is proven a draw.
    let mut m = mcts::<TicTacToe>("mcts(playouts=200000,tt=true,seed=22)");
    let r = m.search(&g, &s);
    assert_eq!(m.tree(0).unwrap().nodes[0].proven, Some(0.5));
    assert_eq!(r.value, 0);
}

#[test]
fn grave_reads_an_ancestors_amaf_and_needs_rave() {
    let g = ConnectFour::default();
    let s = g.start();
    let mut m = mcts::<ConnectFour>("mcts(playouts=3000,rave=300,grave=100,seed=23)");
    let r = m.search(&g, &s);
    assert!(legal(&g, &s, r.best_move.unwrap()));
    check_visits(m.tree(0).unwrap());
    assert_eq!(m.name(), "mcts(playouts=3000,rave=300,grave=100,seed=23)");
    // GRAVE changes the search: below the root, nodes of fewer than 100 visits read the root's AMAF statistics (the
    // same seed with plain RAVE goes elsewhere).
    let mut plain = mcts::<ConnectFour>("mcts(playouts=3000,rave=300,seed=23)");
    plain.search(&g, &s);
    let visits = |m: &Mcts<ConnectFour>| m.root_stats().iter().map(|c| c.visits).collect::<Vec<_>>();
    assert_ne!(visits(&m), visits(&plain));
    let e = plateau::players::searcher::<Breakthrough>("mcts(grave=50)").err().unwrap().to_string();
    assert!(e.contains("grave=50 needs rave"), "{e}");
}

#[test]
fn a_full_pool_is_recycled_and_stays_within_its_budget() {
    let g = Breakthrough::default();
    let mut s = g.start();
    let mut m = mcts::<Breakthrough>("mcts(playouts=30000,mem=1,seed=24)");
    for _ in 0..3 {
        let r = m.search(&g, &s);
        assert_eq!(r.stats.leaves, 30000);
        let tree = m.tree(0).unwrap();
        assert!(tree.counts.recycled > 0, "the pool was never full");
        let bytes = tree.nodes.capacity() * std::mem::size_of_val(&tree.nodes[0]);
        assert!(bytes <= 1 << 20, "{bytes} bytes");
        check_shape(tree);
        let mv = r.best_move.unwrap();
        assert!(legal(&g, &s, mv));
        // The root keeps its children: every iteration of this search went through one of them (a reused root may
        // hold more visits: those before a recycling freed its children, and the one that reached it as a leaf).
        let root: u64 = tree.nodes[0].children().map(|c| tree.nodes[c].visits as u64).sum();
        assert!(root >= 30000 && root <= tree.nodes[0].visits as u64, "{root}");
        g.play(&mut s, mv);
    }
    // Without recycling, the tree stops growing instead.
    let mut m = mcts::<Breakthrough>("mcts(playouts=30000,mem=1,recycle=false,seed=24)");
    m.search(&g, &g.start());
    assert_eq!(m.tree(0).unwrap().counts.recycled, 0);
}

#[test]
fn tree_parallelism_shares_one_tree_and_leaves_no_virtual_loss() {
    let g = ConnectFour::default();
    let s = g.start();
    let mut m = mcts::<ConnectFour>("mcts(playouts=6000,threads=2,seed=25)");
    let r = m.search(&g, &s);
    assert!(legal(&g, &s, r.best_move.unwrap()));
    assert!(m.tree(1).is_none(), "one shared tree");
    let tree = m.tree(0).unwrap();
    assert_eq!(tree.nodes[0].visits, 6000);
    check_shape(tree);
    check_visits(tree);
    assert_eq!(m.name(), "mcts(playouts=6000,threads=2,seed=25)");
    // Recycling while the other thread has a path in flight.
    let g = Breakthrough::default();
    let mut m = mcts::<Breakthrough>("mcts(playouts=20000,threads=2,mem=1,seed=26)");
    let r = m.search(&g, &g.start());
    assert!(legal(&g, &g.start(), r.best_move.unwrap()));
    let tree = m.tree(0).unwrap();
    assert!(tree.counts.recycled > 0);
    check_shape(tree);
    // Root parallelism: one tree per thread.
    let mut m = mcts::<ConnectFour>("mcts(playouts=4000,threads=2,parallel=root,seed=27)");
    m.search(&ConnectFour::default(), &ConnectFour::default().start());
    assert!(m.tree(1).is_some());
    let e = plateau::players::searcher::<ConnectFour>("mcts(parallel=leaf)").err().unwrap().to_string();
    assert!(e.contains("parallel=leaf: expected tree or root"), "{e}");
}
