//! Property checks that every game must pass, run by the tests on random playouts:
//! generated moves are exactly the moves that parse and play, moves and positions round-trip through their text,
//! the incremental key equals the key computed from scratch, copy-make leaves the original untouched, the bulk move
//! count equals the generated list, and every game ends.

use std::collections::HashSet;

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::game::{Game, MoveList};

/// Play `games` random playouts from `start` (seeded) and check the properties at every position.
/// `candidates` lists move texts to try in every position (for example every from-to square pair): exactly those
/// among them that name a generated move must parse. `max_plies` bounds a game's length.
pub fn check_playouts<G: Game>(
    game: &G,
    start: &G::State,
    seed: u64,
    games: usize,
    candidates: &[String],
    max_plies: usize,
) -> Result<(), String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    for gi in 0..games {
        let mut s = *start;
        let mut plies = 0;
        loop {
            check_position(game, &s, candidates)
                .map_err(|e| format!("game {gi}, ply {plies}, position {}: {e}", game.format_position(&s)))?;
            if game.is_terminal(&s) {
                break;
            }
            let before = s;
            let m = game.random_move(&s, &mut rng).ok_or("a non-terminal position has no move")?;
            let mut child = s;
            game.play(&mut child, m);
            if s != before {
                return Err("playing on a copy changed the original".into());
            }
            s = child;
            plies += 1;
            if plies > max_plies {
                return Err(format!("game {gi} did not end within {max_plies} plies"));
            }
        }
    }
    Ok(())
}

/// The properties of one position.
pub fn check_position<G: Game>(game: &G, s: &G::State, candidates: &[String]) -> Result<(), String> {
    if game.key(s) != game.compute_key(s) {
        return Err("incremental key differs from the key computed from scratch".into());
    }
    let text = game.format_position(s);
    let back = game.parse_position(&text).map_err(|e| format!("own position text does not parse: {e}"))?;
    if back != *s {
        return Err(format!("position text does not round-trip: {text}"));
    }
    let mut moves = MoveList::new();
    game.generate_moves(s, &mut moves);
    let terminal = game.is_terminal(s);
    if terminal {
        if !moves.is_empty() {
            return Err("a terminal position generates moves".into());
        }
        return Ok(());
    }
    if moves.is_empty() {
        return Err("a non-terminal position has no move".into());
    }
    if game.count_moves(s) != moves.len() as u64 {
        return Err(format!("count_moves {} != {} generated", game.count_moves(s), moves.len()));
    }
    let set: HashSet<G::Move> = moves.iter().copied().collect();
    if set.len() != moves.len() {
        return Err("duplicate moves generated".into());
    }
    for &m in &moves {
        let t = game.format_move(s, m);
        match game.parse_move(s, &t) {
            Ok(p) if p == m => {}
            Ok(_) => return Err(format!("move {t} parses to another move")),
            Err(e) => return Err(format!("generated move {t} does not parse: {e}")),
        }
        let mut c = *s;
        game.play(&mut c, m);
        if game.key(&c) != game.compute_key(&c) {
            return Err(format!("after {t}: incremental key differs from scratch"));
        }
        if game.side_to_move(&c) == game.side_to_move(s) {
            return Err(format!("after {t}: the side to move did not change"));
        }
    }
    for c in candidates {
        match game.parse_move(s, c) {
            Ok(m) if !set.contains(&m) => return Err(format!("'{c}' parses to a move that is not generated")),
            Ok(m) if game.format_move(s, m) != *c => {
                return Err(format!("'{c}' parses to {}", game.format_move(s, m)));
            }
            Ok(_) => {}
            Err(_) => {
                if moves.iter().any(|&m| game.format_move(s, m) == *c) {
                    return Err(format!("'{c}' is generated but refused"));
                }
            }
        }
    }
    Ok(())
}
