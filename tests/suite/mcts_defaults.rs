//! `mcts` with each game's own settings (`Knowledge::MCTS_DEFAULTS`): what the registry plays with no options, what a
//! string's own values and `defaults=none` change; and `probe=true`, the positions the game knows exactly
//! (`Knowledge::endgame`: Othello's endgame solver, Oware's database) taken as results in the tree.

use plateau::game::{FullGame, Knowledge};
use plateau::games::{Breakthrough, ConnectFour, Othello, Oware};
use plateau::mcts::Mcts;
use plateau::search::Searcher;
use plateau::spec::Spec;
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn name<G: FullGame>(text: &str) -> String {
    plateau::players::searcher::<G>(text).unwrap().name()
}

/// The name of `mcts(playouts=100)` from the registry: the game's settings, written back after the string's.
fn with_defaults<G: FullGame>() -> String {
    name::<G>("mcts(playouts=100)")
}

#[test]
fn every_game_plays_its_own_mcts_settings() {
    assert_eq!(with_defaults::<Breakthrough>(), "mcts(playouts=100,cut=4,scale=100,eval=tuned)");
    assert_eq!(with_defaults::<ConnectFour>(), "mcts(playouts=100,c=0.5,decisive=true,tt=true)");
    assert_eq!(with_defaults::<Othello>(), "mcts(playouts=100,c=0.5,decisive=true)");
    assert_eq!(with_defaults::<Oware>(), "mcts(playouts=100,c=0.5,cut=8,scale=5,eval=counting)");
    // The settings are the game's constant, read through the knowledge trait, and the parameters accept them.
    for (defaults, text) in [
        (Othello::MCTS_DEFAULTS, "othello"),
        (Oware::MCTS_DEFAULTS, "oware"),
        (Breakthrough::MCTS_DEFAULTS, "breakthrough"),
        (ConnectFour::MCTS_DEFAULTS, "connect_four"),
    ] {
        assert!(!defaults.is_empty(), "{text} has settings of its own");
    }
    // defaults=none: plain UCT, written back so; a value of the string wins over the game's.
    assert_eq!(name::<Othello>("mcts(playouts=100,defaults=none)"), "mcts(playouts=100,defaults=none)");
    assert_eq!(name::<Oware>("mcts(playouts=100,defaults=none)"), "mcts(playouts=100,defaults=none)");
    assert_eq!(name::<Othello>("mcts(playouts=100,c=1)"), "mcts(playouts=100,decisive=true)");
    assert_eq!(
        name::<Oware>("mcts(playouts=100,probe=true)"),
        "mcts(playouts=100,c=0.5,cut=8,scale=5,eval=counting,probe=true)"
    );
    assert_eq!(name::<ConnectFour>("mcts(playouts=100,c=2)"), "mcts(playouts=100,c=2,decisive=true,tt=true)");
    // A bad value of the new key is refused in one line.
    let e = plateau::players::searcher::<Othello>("mcts(probe=maybe)").err().unwrap().to_string();
    assert!(e.contains("probe") && e.lines().count() == 1, "{e}");
}

/// Random games of `g` (seeded) stopped at the first position `near_end` accepts that is not over.
fn endgames<G: FullGame>(g: &G, count: usize, near_end: impl Fn(&G::State) -> bool) -> Vec<G::State> {
    let mut rng = SmallRng::seed_from_u64(42);
    let mut out = Vec::new();
    while out.len() < count {
        let mut s = g.start();
        while g.outcome_for(&s, plateau::game::Side::First).is_none() {
            if near_end(&s) {
                out.push(s);
                break;
            }
            let m = g.random_move(&s, &mut rng).unwrap();
            g.play(&mut s, m);
        }
    }
    out
}

/// One playout with `probe=true` proves a root whose children the game all knows, with the game's own result; without
/// it, most roots stay unproven (a root whose every move ends the game is proven by the solver alone).
fn probe_proves_at_once<G: FullGame>(g: &G, states: &[G::State]) {
    g.prepare_endgame();
    let mut plain_proven = 0;
    for s in states {
        let (o, _) = g.endgame(s).expect("the root is known to the game");
        let mut m: Mcts<G> = Mcts::from_spec(&Spec::parse("mcts(playouts=1,probe=true,seed=1)").unwrap()).unwrap();
        m.search(g, s);
        let proven = m.tree(0).unwrap().nodes[0].proven.expect("proven by the probes");
        let own = match o {
            plateau::game::Outcome::Win => 1.0,
            plateau::game::Outcome::Loss => 0.0,
            plateau::game::Outcome::Draw => 0.5,
            plateau::game::Outcome::Value(v) => 0.5 + 0.5 * v.signum() as f32,
        };
        let first = if g.side_to_move(s) == plateau::game::Side::First { own } else { 1.0 - own };
        assert_eq!(proven, first, "the probe's result for the first player");
        let mut plain: Mcts<G> = Mcts::from_spec(&Spec::parse("mcts(playouts=1,seed=1)").unwrap()).unwrap();
        plain.search(g, s);
        plain_proven += plain.tree(0).unwrap().nodes[0].proven.is_some() as usize;
    }
    assert!(plain_proven * 2 < states.len(), "without the probe {plain_proven} of {} roots proven", states.len());
}

#[test]
fn probe_takes_othello_endgames_from_the_solver() {
    let g = Othello::default();
    // At 10 empty squares the root and every child (9 or 10 empties after a pass) are solved exactly.
    let states = endgames(&g, 6, |s| g.empties(s) == 10);
    probe_proves_at_once(&g, &states);
}

#[test]
fn probe_takes_oware_endgames_from_the_database() {
    let g = Oware::default();
    // The in-memory database holds the boards of at most 10 seeds; a board of 8 keeps every child within it.
    let states = endgames(&g, 6, |s| s.pits.iter().map(|&p| p as u32).sum::<u32>() <= 8 && !g.decided(s));
    probe_proves_at_once(&g, &states);
}
