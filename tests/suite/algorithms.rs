//! The search catalogue against plain minimax, and the theory of the course checked on our code.
//!
//! Adding a game to the exactness checks is one line in `exact_on_every_game` (positions come from random playouts).

use std::collections::BTreeSet;

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;

use plateau::game::Game;
use plateau::game::{Evaluator, FullGame, MoveList, outcome_score};
use plateau::games::{Breakthrough, ConnectFour, Marbles, RandomTree, TicTacToe};
use plateau::search::catalogue::{self, NAMES, Traced};
use plateau::search::trace::Tracer;
use plateau::spec::Spec;

/// The oracle: plain negamax written here, independently of the crate's algorithms.
fn reference<G: FullGame>(game: &G, eval: &G::Eval, s: &G::State, depth: u32, ply: u32) -> i32 {
    if let Some(o) = game.outcome(s) {
        return outcome_score(o, ply);
    }
    if depth == 0 {
        return eval.evaluate(game, s);
    }
    let mut moves = MoveList::new();
    game.generate_moves(s, &mut moves);
    let mut best = i32::MIN;
    for &m in &moves {
        let mut c = *s;
        game.play(&mut c, m);
        best = best.max(-reference(game, eval, &c, depth - 1, ply + 1));
    }
    best
}

fn algorithm_names() -> Vec<&'static str> {
    NAMES.iter().map(|(n, _)| *n).collect()
}

/// Non-terminal positions met along seeded random playouts.
fn random_positions<G: FullGame>(game: &G, seed: u64, count: usize) -> Vec<G::State> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = vec![game.start()];
    while out.len() < count {
        let mut s = game.start();
        let target = (out.len() * 7) % 40;
        for _ in 0..target {
            let Some(m) = game.random_move(&s, &mut rng) else { break };
            let mut c = s;
            game.play(&mut c, m);
            if game.is_terminal(&c) {
                break; // keep the last position that still has moves
            }
            s = c;
        }
        out.push(s);
    }
    out
}

/// Every algorithm returns the minimax value at every depth, and a best move that achieves it.
fn check_exact<G: FullGame>(
    game: &G,
    positions: &[G::State],
    depths: std::ops::RangeInclusive<u32>,
) -> Result<(), String> {
    let eval = G::Eval::default();
    for s in positions {
        for d in depths.clone() {
            let want = reference(game, &eval, s, d, 0);
            for name in algorithm_names() {
                let mut searcher =
                    plateau::players::searcher::<G>(&format!("{name}(depth={d})")).map_err(|e| e.to_string())?;
                let r = searcher.search(game, s);
                let at = || format!("{name} depth {d} on {} {}", game.spec(), game.format_position(s));
                if r.value != want {
                    return Err(format!("{}: value {} but minimax says {want}", at(), r.value));
                }
                let m = r.best_move.ok_or_else(|| format!("{}: no best move", at()))?;
                if d > 0 {
                    let mut c = *s;
                    game.play(&mut c, m);
                    let got = -reference(game, &eval, &c, d - 1, 1);
                    if got != want {
                        return Err(format!(
                            "{}: best move {} is worth {got}, not {want}",
                            at(),
                            game.format_move(s, m)
                        ));
                    }
                }
                if r.stats.nodes == 0 || r.stats.leaves == 0 || r.stats.leaves > r.stats.nodes {
                    return Err(format!("{}: implausible counts {:?}", at(), r.stats));
                }
            }
        }
    }
    Ok(())
}

fn bt(spec: &str) -> Breakthrough {
    Breakthrough::from_spec(&Spec::parse(spec).unwrap()).unwrap()
}

fn game<G: FullGame>(spec: &str, parse: fn(&Spec) -> Result<G, plateau::game::GameError>) -> G {
    parse(&Spec::parse(spec).unwrap()).unwrap()
}

fn tree(spec: &str) -> RandomTree {
    RandomTree::from_spec(&Spec::parse(spec).unwrap()).unwrap()
}

#[test]
fn exact_on_every_game() {
    // One line per game.
    for spec in [
        "breakthrough(rows=6,columns=5)",
        "breakthrough(rows=5,columns=5)",
        "breakthrough(rows=4,columns=4,piece_rows=1)",
        "breakthrough(rows=6,columns=4,misere=true)",
        "breakthrough(rows=5,columns=6,forced_captures=true)",
    ] {
        let g = bt(spec);
        check_exact(&g, &random_positions(&g, 11, 10), 0..=4).unwrap();
    }
    let g = bt("breakthrough");
    check_exact(&g, &random_positions(&g, 5, 3), 1..=2).unwrap();
    let g = bt("breakthrough(rows=5,columns=4,piece_rows=1)");
    check_exact(&g, &random_positions(&g, 3, 3), 4..=5).unwrap();
    let g = game("tic_tac_toe", TicTacToe::from_spec);
    check_exact(&g, &random_positions(&g, 1, 8), 0..=5).unwrap();
    let g = game("marbles(n=15,k=3)", Marbles::from_spec);
    check_exact(&g, &random_positions(&g, 1, 8), 0..=6).unwrap();
    let g = game("marbles(n=12,k=4,misere=true)", Marbles::from_spec);
    check_exact(&g, &random_positions(&g, 2, 8), 0..=6).unwrap();
    let g = game("connect_four", ConnectFour::from_spec);
    check_exact(&g, &random_positions(&g, 1, 6), 0..=4).unwrap();
    let g = game("connect_four(rows=4,columns=5)", ConnectFour::from_spec);
    check_exact(&g, &random_positions(&g, 4, 6), 0..=5).unwrap();
}

/// Records the keys of the leaves a search scores.
struct LeafSet<'a, G: FullGame> {
    game: &'a G,
    keys: Vec<u64>,
    leaves: BTreeSet<u64>,
}

impl<'a, G: FullGame> LeafSet<'a, G> {
    fn new(game: &'a G) -> Self {
        LeafSet { game, keys: Vec::new(), leaves: BTreeSet::new() }
    }
}

impl<G: FullGame> Tracer<G> for LeafSet<'_, G> {
    fn node(&mut self, _p: Option<u32>, state: &G::State, _ply: u32, _a: i32, _b: i32, _r: bool) -> u32 {
        self.keys.push(self.game.key(state));
        (self.keys.len() - 1) as u32
    }
    fn result(&mut self, id: u32, _value: i32, leaf: bool) {
        if leaf {
            self.leaves.insert(self.keys[id as usize]);
        }
    }
}

/// Run `algo` traced and return (value, leaves counted, set of leaf keys).
fn leaves_of<G: FullGame>(game: &G, s: &G::State, algo: &str) -> (i32, u64, BTreeSet<u64>) {
    let spec = Spec::parse(algo).unwrap();
    let mut t = LeafSet::new(game);
    let (_, r) = catalogue::build(&spec, Traced { game, state: s, tracer: &mut t }).unwrap().unwrap();
    spec.finish().unwrap();
    (r.value, r.stats.leaves, t.leaves)
}

fn tree_strategy() -> impl Strategy<Value = (String, u32)> {
    (1u32..=5, 0u32..=6, any::<u32>(), 0usize..6).prop_flat_map(|(w, d, seed, kind)| {
        let model = match kind {
            0 => "iid".to_string(),
            1 => "incremental,ordering=best".into(),
            2 => "incremental,ordering=worst".into(),
            3 => "incremental,ordering=0.5".into(),
            4 => "incremental,ordering=-0.5".into(),
            _ => "incremental".into(),
        };
        let spec = format!("random_tree(width={w},depth={d},seed={seed},model={model},range=20)");
        (Just(spec), 0..=d + 1)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Every algorithm returns the minimax value on synthetic trees (small range: many ties).
    #[test]
    fn exact_on_random_trees((spec, depth) in tree_strategy()) {
        let g = tree(&spec);
        let s = g.start();
        prop_assume!(!g.is_terminal(&s));
        check_exact(&g, &[s], depth..=depth).map_err(TestCaseError::fail)?;
    }

    /// Every algorithm is exact on random positions of the board games (one line per game).
    #[test]
    fn exact_on_random_game_positions(seed in any::<u64>(), which in 0usize..6, depth in 1u32..=3) {
        let r = match which {
            0 => check_exact(&bt("breakthrough(rows=6,columns=5)"), &random_positions(&bt("breakthrough(rows=6,columns=5)"), seed, 2), depth..=depth),
            1 => check_exact(&bt("breakthrough(rows=5,columns=4,misere=true,forced_captures=true)"), &random_positions(&bt("breakthrough(rows=5,columns=4,misere=true,forced_captures=true)"), seed, 2), depth..=depth),
            2 => { let g = game("tic_tac_toe", TicTacToe::from_spec); check_exact(&g, &random_positions(&g, seed, 2), depth..=depth + 2) }
            3 => { let g = game("marbles(n=17,k=3)", Marbles::from_spec); check_exact(&g, &random_positions(&g, seed, 2), depth..=depth + 2) }
            4 => { let g = game("connect_four(rows=5,columns=6)", ConnectFour::from_spec); check_exact(&g, &random_positions(&g, seed, 2), depth..=depth) }
            _ => { let g = tree("random_tree(width=4,depth=6,model=incremental,ordering=0.5)"); check_exact(&g, &random_positions(&g, seed, 2), depth..=depth + 2) }
        };
        r.map_err(TestCaseError::fail)?;
    }

    /// Stockman: SSS* scores no leaf that alpha-beta prunes; Reinefeld: neither does NegaScout (same order, no TT);
    /// MT-SSS* scores the same leaves as SSS*.
    #[test]
    fn leaf_inclusions((spec, depth) in tree_strategy()) {
        let g = tree(&spec);
        let s = g.start();
        prop_assume!(!g.is_terminal(&s));
        let (v, _, ab) = leaves_of(&g, &s, &format!("alphabeta(depth={depth})"));
        let (vs, _, sss) = leaves_of(&g, &s, &format!("sss(depth={depth})"));
        let (vn, _, ns) = leaves_of(&g, &s, &format!("negascout(depth={depth})"));
        let (vm, mt_count, mt) = leaves_of(&g, &s, &format!("mtsss(depth={depth})"));
        prop_assert_eq!((v, v, v), (vs, vn, vm));
        prop_assert_eq!(mt_count, mt.len() as u64, "MT-SSS* scored a leaf twice (the table keeps leaves)");
        prop_assert!(sss.is_subset(&ab), "SSS* leaves outside alpha-beta's: {:?}", sss.difference(&ab).count());
        prop_assert!(ns.is_subset(&ab), "NegaScout leaves outside alpha-beta's: {:?}", ns.difference(&ab).count());
        prop_assert_eq!(mt, sss);
    }
}

#[test]
fn alpha_beta_on_perfectly_ordered_trees_scores_the_minimal_tree() {
    for b in 2u64..=6 {
        for d in 1u32..=6 {
            if b.pow(d) > 50_000 {
                continue;
            }
            let minimal = b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1;
            for seed in 0..3 {
                let g = tree(&format!("random_tree(width={b},depth={d},seed={seed},model=incremental,ordering=best)"));
                let s = g.start();
                for algo in ["alphabeta", "alphabeta_minmax", "alphabeta_failsoft"] {
                    let (_, n, _) = leaves_of(&g, &s, &format!("{algo}(depth={d})"));
                    assert_eq!(n, minimal, "{algo} on b={b} d={d} seed={seed}");
                }
                // No algorithm can prove the value with fewer leaves.
                for algo in algorithm_names() {
                    let (_, _, set) = leaves_of(&g, &s, &format!("{algo}(depth={d})"));
                    assert!(set.len() as u64 >= minimal, "{algo} on b={b} d={d}: {} distinct leaves", set.len());
                }
                // Minimax scores them all.
                let (_, n, _) = leaves_of(&g, &s, &format!("minimax(depth={d})"));
                assert_eq!(n, b.pow(d));
            }
        }
    }
}

#[test]
fn iterative_deepening_costs_12345_nodes_against_11111() {
    // A uniform tree of width 10 with 5 levels (root included): 4 plies.
    let g = tree("random_tree(width=10,depth=4,seed=1)");
    let s = g.start();
    let one = |d: u32| {
        plateau::players::searcher::<RandomTree>(&format!("negamax(depth={d})")).unwrap().search(&g, &s).stats.nodes
    };
    assert_eq!(one(4), 11_111);
    // Iterations over 1, 2, ..., 5 levels (0 to 4 plies).
    assert_eq!((0..=4).map(one).sum::<u64>(), 12_345);
    // The driver's iterative deepening starts at 1 ply: the same minus the root-only iteration.
    let mut id = plateau::players::searcher::<RandomTree>("negamax(depth=4,id=true)").unwrap();
    let r = id.search(&g, &s);
    assert_eq!(r.stats.nodes, 12_345 - 1);
    assert_eq!(r.depth, 4);
}

#[test]
fn leaf_counts_follow_the_course_ordering() {
    // minimax >= alpha-beta >= SSS* on the same tree, and alpha-beta's variants all agree.
    let mut trees = Vec::new();
    for seed in 0..4 {
        trees.push(format!("random_tree(width=4,depth=5,seed={seed})"));
        trees.push(format!("random_tree(width=3,depth=6,seed={seed},model=incremental)"));
    }
    for spec in &trees {
        let g = tree(spec);
        let s = g.start();
        let d = g.depth;
        let (_, mm, _) = leaves_of(&g, &s, &format!("minimax(depth={d})"));
        let (_, ab, _) = leaves_of(&g, &s, &format!("alphabeta(depth={d})"));
        let (_, ss, _) = leaves_of(&g, &s, &format!("sss(depth={d})"));
        assert!(mm >= ab && ab >= ss, "{spec}: minimax {mm}, alphabeta {ab}, sss {ss}");
        for algo in ["alphabeta_minmax", "alphabeta_failsoft"] {
            assert_eq!(leaves_of(&g, &s, &format!("{algo}(depth={d})")).1, ab, "{algo} on {spec}");
        }
    }
    let g = bt("breakthrough(rows=6,columns=5)");
    for s in random_positions(&g, 2, 4) {
        let (_, mm, _) = leaves_of(&g, &s, "minimax(depth=4)");
        let (_, ab, ab_set) = leaves_of(&g, &s, "alphabeta(depth=4)");
        let (_, ss, ss_set) = leaves_of(&g, &s, "sss(depth=4)");
        let (_, _, ns_set) = leaves_of(&g, &s, "negascout(depth=4)");
        assert!(mm >= ab && ab >= ss, "minimax {mm}, alphabeta {ab}, sss {ss}");
        // Leaves compared by position (a weaker check than by path, since positions transpose).
        assert!(ss_set.is_subset(&ab_set) && ns_set.is_subset(&ab_set));
    }
}

#[test]
fn timed_and_budgeted_searches_return_a_legal_move() {
    let g = bt("breakthrough(rows=6,columns=5)");
    let s = g.start();
    let mut legal = MoveList::new();
    g.generate_moves(&s, &mut legal);
    for name in algorithm_names() {
        let mut searcher = plateau::players::searcher::<Breakthrough>(&format!("{name}(nodes=3000)")).unwrap();
        let r = searcher.search(&g, &s);
        assert!(r.best_move.is_some_and(|m| legal.contains(&m)), "{name}");
        assert!(r.depth >= 1, "{name}");
        assert!(r.stats.nodes <= 3000 + 64, "{name}: {} nodes for a budget of 3000", r.stats.nodes);
    }
}

#[test]
fn deepening_stops_once_the_whole_tree_is_seen() {
    let g = tree("random_tree(width=3,depth=5,seed=4)");
    for name in ["alphabeta", "negascout", "sss", "negacstar", "scout"] {
        let r = plateau::players::searcher::<RandomTree>(&format!("{name}(time=10s)")).unwrap().search(&g, &g.start());
        assert_eq!(r.depth, 5, "{name}: iterations beyond the last leaves would repeat the same search");
    }
}

#[test]
fn algorithm_strings_are_checked() {
    for bad in ["alphabeta(depth=x)", "negascout(dpeth=3)", "mtdf(tt=lots)", "nosuch", "sss(depth=201)"] {
        assert!(plateau::players::searcher::<Breakthrough>(bad).is_err(), "{bad}");
    }
    let s = plateau::players::searcher::<Breakthrough>("mtdf(depth=3,tt=1mb,id=true)").unwrap();
    assert_eq!(s.name(), "mtdf(depth=3,id=true,tt=1mb)");
    for (name, aliases) in NAMES {
        assert!(plateau::players::find(name).is_some(), "{name} missing from the players registry");
        for a in *aliases {
            assert!(plateau::players::searcher::<Breakthrough>(a).is_ok(), "{a}");
        }
    }
}
