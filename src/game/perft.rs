//! perft: the number of move paths exactly `depth` plies ahead; a game that ends earlier adds nothing.
//!
//! A ply is one move of a player, one outcome of a chance node (every outcome counts once, whatever its probability),
//! or one joint move of a simultaneous node (a pair of moves, one per player). The last ply is bulk-counted with
//! [`Game::count_leaf_moves`].

use super::{Game, MoveList, Player, Turn};

/// perft from `state`.
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if G::KIND.simultaneous && !game.is_terminal(state) && game.turn(state) == Turn::Simultaneous {
        return perft_joint(game, state, depth);
    }
    if depth == 1 {
        return game.count_leaf_moves(state);
    }
    if game.is_terminal(state) {
        return 0;
    }
    let mut moves = MoveList::new();
    game.generate_moves(state, &mut moves);
    let mut total = 0;
    for &m in &moves {
        let mut child = *state;
        game.play(&mut child, m);
        total += perft(game, &child, depth - 1);
    }
    total
}

/// perft of a simultaneous node: every pair of moves is one ply.
fn perft_joint<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    game.player_moves(state, Player::First, &mut a);
    game.player_moves(state, Player::Second, &mut b);
    if depth == 1 {
        return (a.len() * b.len()) as u64;
    }
    let mut total = 0;
    for &x in &a {
        for &y in &b {
            let mut child = *state;
            game.play_joint(&mut child, x, y);
            total += perft(game, &child, depth - 1);
        }
    }
    total
}
