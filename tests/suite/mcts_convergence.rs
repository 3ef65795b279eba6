//! MCTS converges to the exact solvers' answers on small boards: on held positions of small Connect Four and
//! Breakthrough boards (and tic-tac-toe), MCTS-Solver's proven values are the solver's, and the move chosen after
//! enough playouts keeps the position's exact value. Positions are random openings (fixed seed) where the choice
//! matters (some move is worse than the best).

use rand::SeedableRng;
use rand::rngs::SmallRng;

use plateau::game::{FullGame, Game, MoveList, Outcome};
use plateau::games::{Breakthrough, ConnectFour, TicTacToe};
use plateau::mcts::Mcts;
use plateau::mcts::tree::for_player;
use plateau::search::Searcher;
use plateau::solve::generic::GenericSolver;
use plateau::spec::Spec;

fn rank(o: Outcome) -> i32 {
    match o {
        Outcome::Win => 2,
        Outcome::Draw => 1,
        _ => 0,
    }
}

/// The exact result of every move of `s` for its side to move.
fn move_values<G: FullGame>(game: &G, solver: &mut GenericSolver<G>, s: &G::State) -> Vec<(G::Move, i32)> {
    let mut moves = MoveList::new();
    game.generate_moves(s, &mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = *s;
            game.play(&mut c, m);
            let v = match game.outcome_for(&c, game.side_to_move(s)) {
                Some(o) => rank(o),
                None => rank(solver.solve(game, &c).outcome.flip()),
            };
            (m, v)
        })
        .collect()
}

/// A held position and the exact value of each of its moves.
type Held<G> = (<G as Game>::State, Vec<(<G as Game>::Move, i32)>);

/// Held positions: `count` random openings of `plies` moves (fixed seed) that are not over and where some move is
/// worse than the best; each with its moves' exact values.
fn held<G: FullGame>(game: &G, plies: usize, count: usize, seed: u64) -> Vec<Held<G>> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut solver = GenericSolver::<G>::new(64, true);
    let mut out = Vec::new();
    for _ in 0..count * 20 {
        if out.len() == count {
            break;
        }
        let mut s = game.start();
        for _ in 0..plies {
            match game.random_move(&s, &mut rng) {
                Some(m) if !game.is_terminal(&s) => game.play(&mut s, m),
                _ => break,
            }
        }
        if game.is_terminal(&s) {
            continue;
        }
        let values = move_values(game, &mut solver, &s);
        let best = values.iter().map(|v| v.1).max().unwrap();
        if values.iter().any(|v| v.1 < best) {
            out.push((s, values));
        }
    }
    assert_eq!(out.len(), count, "not enough held positions");
    out
}

/// MCTS on every held position: a proven root value must be the solver's; the share of moves chosen that keep the
/// exact value must reach `min_share`.
fn converges<G: FullGame>(game: &G, positions: &[Held<G>], algo: &str, min_share: f64) {
    let mut optimal = 0;
    for (s, values) in positions {
        let best = values.iter().map(|v| v.1).max().unwrap();
        let mut m = Mcts::<G>::from_spec(&Spec::parse(algo).unwrap()).unwrap();
        let r = m.search(game, s);
        if let Some(v) = m.tree(0).unwrap().nodes[0].proven {
            let mine = for_player(v as f64, game.side_to_move(s));
            assert_eq!(mine, best as f64 / 2.0, "{}: proven {mine}, exact {best}", game.format_position(s));
        }
        let chosen = values.iter().find(|v| Some(v.0) == r.best_move).expect("a legal move").1;
        optimal += (chosen == best) as usize;
    }
    let share = optimal as f64 / positions.len() as f64;
    assert!(share >= min_share, "{algo}: {optimal} of {} optimal moves", positions.len());
}

#[test]
fn tic_tac_toe_moves_converge() {
    let g = TicTacToe;
    let positions = held(&g, 3, 20, 31);
    converges(&g, &positions, "mcts(playouts=20000,seed=1)", 1.0);
}

#[test]
fn small_connect_four_boards_converge() {
    for (text, plies) in [("connect_four(rows=4,columns=4)", 6), ("connect_four(rows=4,columns=5)", 8)] {
        let g = ConnectFour::from_spec(&Spec::parse(text).unwrap()).unwrap();
        let positions = held(&g, plies, 12, 32);
        converges(&g, &positions, "mcts(playouts=30000,seed=2)", 0.9);
    }
}

#[test]
fn small_breakthrough_boards_converge() {
    for (text, plies) in [("breakthrough(rows=4,columns=4,piece_rows=1)", 2), ("breakthrough(rows=5,columns=3)", 4)] {
        let g = Breakthrough::from_spec(&Spec::parse(text).unwrap()).unwrap();
        let positions = held(&g, plies, 10, 33);
        converges(&g, &positions, "mcts(playouts=30000,seed=3)", 0.9);
    }
}
