//! The games' own random moves and playouts (Breakthrough and Connect Four draw them from their bitboards): every move
//! drawn is legal, the draws are uniform over the legal moves, `None` only when the game is over, and the game's
//! playouts give the same results as the generic playout loop (same distribution, fixed seeds).

use plateau::game::{Capabilities, Game, Knowledge};
use plateau::game::{FullGame, MoveList, Outcome, playout};
use plateau::games::{Breakthrough, ConnectFour};
use plateau::spec::Spec;
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Along random games from the start, at every position: each legal move is drawn with a frequency within 5 standard
/// deviations of 1/n, and nothing else is drawn; at the end, `None`.
fn check_uniform<G: FullGame>(game: &G, games: usize, draws: usize) {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut positions = 0;
    for _ in 0..games {
        let mut s = game.start();
        loop {
            let mut moves = MoveList::new();
            game.generate_moves(&s, &mut moves);
            if game.is_terminal(&s) || moves.is_empty() {
                assert!(
                    game.random_move(&s, &mut rng).is_none(),
                    "a move drawn at the end: {}",
                    game.format_position(&s)
                );
                break;
            }
            let mut counts = vec![0usize; moves.len()];
            for _ in 0..draws {
                let m = game.random_move(&s, &mut rng).expect("a move while the game goes on");
                let i = moves.iter().position(|&x| x == m).unwrap_or_else(|| {
                    panic!("illegal move {} drawn at {}", game.format_move(&s, m), game.format_position(&s))
                });
                counts[i] += 1;
            }
            let p = 1.0 / moves.len() as f64;
            let sd = (draws as f64 * p * (1.0 - p)).sqrt();
            for (i, &c) in counts.iter().enumerate() {
                assert!(
                    (c as f64 - draws as f64 * p).abs() <= 5.0 * sd + 1.0,
                    "{} drawn {c} times of {draws} (n = {}) at {}",
                    game.format_move(&s, moves[i]),
                    moves.len(),
                    game.format_position(&s)
                );
            }
            positions += 1;
            let m = game.random_move(&s, &mut rng).unwrap();
            game.play(&mut s, m);
        }
    }
    assert!(positions > 20);
}

/// Wins, draws and losses of `n` playouts from `s` by the game's playout and by the generic loop (which draws its
/// moves with `generate_moves`): the shares agree within 5 standard errors.
fn check_playouts<G: FullGame>(game: &G, moves: &str, n: usize) {
    let s = game.play_moves(&game.start(), moves).unwrap();
    let mut rng = SmallRng::seed_from_u64(11);
    let tally = |f: &mut dyn FnMut() -> Outcome| {
        let mut t = [0usize; 3];
        for _ in 0..n {
            t[match f() {
                Outcome::Win => 0,
                Outcome::Draw => 1,
                Outcome::Loss => 2,
                Outcome::Value(v) => (1 - v.signum()) as usize,
            }] += 1;
        }
        t
    };
    let own = tally(&mut || game.random_playout(&s, &mut rng).0);
    let generic = tally(&mut || {
        let mut t = s;
        let mover = game.side_to_move(&s);
        loop {
            if let Some(o) = game.outcome_for(&t, mover) {
                return o;
            }
            let mut ms = MoveList::new();
            game.generate_moves(&t, &mut ms);
            game.play(&mut t, ms[rand::RngExt::random_range(&mut rng, 0..ms.len())]);
        }
    });
    for k in 0..3 {
        let (a, b) = (own[k] as f64 / n as f64, generic[k] as f64 / n as f64);
        let se = ((a * (1.0 - a) + b * (1.0 - b)) / n as f64).sqrt();
        assert!((a - b).abs() <= 5.0 * se + 1e-9, "{} after '{moves}': {own:?} vs generic {generic:?}", game.spec());
    }
}

fn bt(text: &str) -> Breakthrough {
    Breakthrough::from_spec(&Spec::parse(text).unwrap()).unwrap()
}

fn c4(text: &str) -> ConnectFour {
    ConnectFour::from_spec(&Spec::parse(text).unwrap()).unwrap()
}

#[test]
fn breakthrough_random_moves_are_legal_and_uniform() {
    check_uniform(&bt("breakthrough"), 3, 2000);
    check_uniform(&bt("breakthrough(rows=5,columns=5)"), 3, 2000);
    check_uniform(&bt("breakthrough(forced_captures=true)"), 3, 2000);
}

#[test]
fn connect_four_random_moves_are_legal_and_uniform() {
    check_uniform(&c4("connect_four"), 3, 2000);
    check_uniform(&c4("connect_four(rows=4,columns=5)"), 3, 2000);
}

#[test]
fn playouts_agree_with_the_generic_loop() {
    check_playouts(&bt("breakthrough(rows=5,columns=5)"), "", 20000);
    check_playouts(&bt("breakthrough(misere=true,rows=5,columns=5)"), "a2a3", 20000);
    check_playouts(&c4("connect_four"), "4 4 3", 20000);
    check_playouts(&c4("connect_four(rows=4,columns=5)"), "", 20000);
    check_playouts(&c4("connect_four(rows=5,columns=4)"), "1 2", 20000);
}

#[test]
fn random_bit_picks_every_set_bit() {
    let bits = 0b1011_0010u64 | (1 << 63);
    assert_eq!((0..5).map(|k| playout::nth_bit(bits, k)).collect::<Vec<_>>(), vec![1, 4, 5, 7, 63]);
    let mut rng = SmallRng::seed_from_u64(3);
    let mut seen = 0u64;
    for _ in 0..200 {
        let b = playout::random_bit(bits, &mut rng);
        assert!(bits >> b & 1 == 1);
        seen |= 1 << b;
    }
    assert_eq!(seen, bits);
}

#[test]
fn decisive_moves_win_or_block_at_once() {
    let g = c4("connect_four");
    let mut rng = SmallRng::seed_from_u64(5);
    // X has 1, 2, 3 on the bottom row; O has 1, 2, 3 on the second row: X wins with 4.
    let s = g.play_moves(&g.start(), "1 1 2 2 3 3").unwrap();
    // O to move after X's 1 2 3 with O's 1 2 elsewhere: O must block at 4.
    let t = g.play_moves(&g.start(), "1 1 2 2 3").unwrap();
    for _ in 0..50 {
        assert_eq!(g.format_move(&s, g.decisive_random_move(&s, &mut rng).unwrap()), "4");
        assert_eq!(g.format_move(&t, g.decisive_random_move(&t, &mut rng).unwrap()), "4");
    }
    // No win or threat: every column can be drawn.
    let start = g.start();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..500 {
        seen.insert(g.decisive_random_move(&start, &mut rng).unwrap());
    }
    assert_eq!(seen.len(), 7);
    let over = g.play_moves(&g.start(), "1 2 1 2 1 2 1").unwrap();
    assert!(g.decisive_random_move(&over, &mut rng).is_none());
}

#[test]
fn mcts_decisive_parameter() {
    use plateau::mcts::Mcts;
    use plateau::search::Searcher;
    let g = c4("connect_four");
    let mut m: Mcts<ConnectFour> =
        Mcts::from_spec(&Spec::parse("mcts(playouts=3000,decisive=true,seed=2)").unwrap()).unwrap();
    assert!(m.name().contains("decisive=true"), "{}", m.name());
    // The position where O must block at 4.
    let t = g.play_moves(&g.start(), "1 1 2 2 3").unwrap();
    let r = m.search(&g, &t);
    assert_eq!(g.format_move(&t, r.best_move.unwrap()), "4");
    let e = Mcts::<ConnectFour>::from_spec(&Spec::parse("mcts(decisive=maybe)").unwrap()).err().unwrap();
    assert!(e.to_string().contains("decisive"), "{e}");
}
