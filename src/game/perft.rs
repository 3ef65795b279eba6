//! perft: the number of move paths exactly `depth` plies ahead; a game that ends earlier adds nothing.
//!
//! A ply is one move of a player, one outcome of a chance node (every outcome counts once, whatever its probability),
//! or one joint move of a simultaneous node (a pair of moves, one per player). The last ply is bulk-counted with
//! [`Game::count_leaf_moves`].

use super::{Capabilities, MoveList, Side, Turn};

/// perft from `state`.
pub fn perft<G: Capabilities>(game: &G, state: &G::State, depth: u32) -> u64 {
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
fn perft_joint<G: Capabilities>(game: &G, state: &G::State, depth: u32) -> u64 {
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    game.player_moves(state, Side::First, &mut a);
    game.player_moves(state, Side::Second, &mut b);
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

/// Move paths and distinct positions at one ply of [`perft_unique`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub(crate) struct UniquePly {
    pub ply: u32,
    /// Move paths of exactly `ply` plies (perft).
    pub paths: u64,
    /// Distinct positions they reach (told apart by [`Game::key`]).
    pub positions: u64,
}

/// Bytes one distinct position costs [`perft_unique`] (the key, the state, its path count, the table's slack).
pub(crate) fn unique_bytes_per_position<G: Capabilities>() -> usize {
    2 * (std::mem::size_of::<(u64, (G::State, u64))>() + 1)
}

/// Distinct positions per ply next to move paths, breadth-first over the positions of each ply (deduplicated by
/// [`Game::key`], each carrying how many paths reach it), up to `depth`. Fails when one ply would hold more than
/// `max_positions` positions.
///
/// ```text
/// level <- {start: 1 path}
/// for ply in 1..=depth:
///     next <- {}
///     for (s, n) in level, s not terminal: for each ply p from s: next[key(s+p)].paths += n
///     report sum of paths, |next|; level <- next
/// ```
pub(crate) fn perft_unique<G: Capabilities>(
    game: &G,
    state: &G::State,
    depth: u32,
    max_positions: usize,
) -> Result<Vec<UniquePly>, String> {
    use std::collections::HashMap;
    let mut level: HashMap<u64, (G::State, u64)> = HashMap::from([(game.key(state), (*state, 1))]);
    let mut out = Vec::new();
    for ply in 1..=depth {
        let mut next: HashMap<u64, (G::State, u64)> = HashMap::new();
        let mut paths = 0u64;
        let mut add = |child: G::State, n: u64| -> Result<(), String> {
            paths += n;
            next.entry(game.key(&child)).or_insert((child, 0)).1 += n;
            if next.len() > max_positions {
                return Err(format!(
                    "perft --unique: ply {ply} holds more than {max_positions} distinct positions (the memory \
                     ceiling); lower --depth or raise --mem"
                ));
            }
            Ok(())
        };
        for (s, n) in level.values() {
            if game.is_terminal(s) {
                continue;
            }
            if G::KIND.simultaneous && game.turn(s) == Turn::Simultaneous {
                let (mut a, mut b) = (MoveList::new(), MoveList::new());
                game.player_moves(s, Side::First, &mut a);
                game.player_moves(s, Side::Second, &mut b);
                for &x in &a {
                    for &y in &b {
                        let mut child = *s;
                        game.play_joint(&mut child, x, y);
                        add(child, *n)?;
                    }
                }
                continue;
            }
            let mut moves = MoveList::new();
            game.generate_moves(s, &mut moves);
            for &m in &moves {
                let mut child = *s;
                game.play(&mut child, m);
                add(child, *n)?;
            }
        }
        out.push(UniquePly { ply, paths, positions: next.len() as u64 });
        level = next;
    }
    Ok(out)
}
