//! Property checks that every game must pass, run by the tests on random playouts:
//! generated moves are exactly the moves that parse and play, moves and positions round-trip through their text,
//! the incremental key equals the key computed from scratch, copy-make leaves the original untouched, the bulk move
//! count equals the generated list, and every game ends.
//!
//! Games of other kinds (see [`crate::game::turn`]) pass further checks, in [`check_kind`]: at a chance node the
//! probabilities are positive and add up to 1 and the outcomes are exactly the generated moves; at a simultaneous node
//! no single move is generated, each player has moves, every pair plays and parses back as `FIRST/SECOND`, and a
//! malformed pair is a one-line error; at a player's turn that player's moves are the generated ones and the other
//! has none; with hidden information each player's observation is a function of the state and a resampled state
//! keeps it (and the player's legal moves); a finished game gives opposite outcomes to the two players. Turns need
//! not alternate there (a failed try in phantom tic-tac-toe, a coin toss before the same player).

use std::collections::HashSet;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::game::{ChanceList, FullGame, MoveList, Outcome, Side, Turn};

/// Play `games` random playouts from `start` (seeded) and check the properties at every position.
/// `candidates` lists move texts to try in every position (for example every from-to square pair): exactly those
/// among them that name a generated move must parse. `max_plies` bounds a game's length.
pub fn check_playouts<G: FullGame>(
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
            let mut child = s;
            if G::KIND.simultaneous && game.turn(&s) == Turn::Simultaneous {
                let mut pick = |p: Side| {
                    let mut moves = MoveList::new();
                    game.player_moves(&s, p, &mut moves);
                    if moves.is_empty() { None } else { Some(moves[rng.random_range(0..moves.len())]) }
                };
                let (Some(a), Some(b)) = (pick(Side::First), pick(Side::Second)) else {
                    return Err("a simultaneous node where a player has no move".into());
                };
                game.play_joint(&mut child, a, b);
            } else {
                let m = game.random_move(&s, &mut rng).ok_or("a non-terminal position has no move")?;
                game.play(&mut child, m);
            }
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
pub(crate) fn check_position<G: FullGame>(game: &G, s: &G::State, candidates: &[String]) -> Result<(), String> {
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
    if !G::KIND.is_classic() {
        check_kind(game, s, &moves)?;
    }
    let terminal = game.is_terminal(s);
    if terminal {
        if !moves.is_empty() {
            return Err("a terminal position generates moves".into());
        }
        return Ok(());
    }
    if G::KIND.simultaneous && game.turn(s) == Turn::Simultaneous {
        // No single move: every candidate must be refused (the pairs are checked by check_kind).
        if let Some(c) = candidates.iter().find(|c| game.parse_move(s, c).is_ok()) {
            return Err(format!("'{c}' parses as a single move at a simultaneous node"));
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
        if G::KIND.is_classic() && game.side_to_move(&c) == game.side_to_move(s) {
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

/// The checks of chance nodes, simultaneous nodes, hidden information and outcomes for both players (see the module
/// documentation); `moves` are the generated moves of `s`.
pub(crate) fn check_kind<G: FullGame>(game: &G, s: &G::State, moves: &MoveList<G::Move>) -> Result<(), String> {
    let list = |p: Side| {
        let mut m = MoveList::new();
        game.player_moves(s, p, &mut m);
        m
    };
    if let Some(o) = game.outcome(s) {
        let (a, b) = (game.outcome_for(s, Side::First), game.outcome_for(s, Side::Second));
        if game.outcome_for(s, game.side_to_move(s)) != Some(o) {
            return Err("outcome_for(side to move) differs from outcome".into());
        }
        let opposite = matches!(
            (a, b),
            (Some(Outcome::Win), Some(Outcome::Loss))
                | (Some(Outcome::Loss), Some(Outcome::Win))
                | (Some(Outcome::Draw), Some(Outcome::Draw))
        ) || matches!((a, b), (Some(Outcome::Value(x)), Some(Outcome::Value(y))) if x == -y);
        if !opposite {
            return Err(format!("outcome_for gives {a:?} to the first player and {b:?} to the second"));
        }
        if !list(Side::First).is_empty() || !list(Side::Second).is_empty() {
            return Err("a terminal position gives a player moves".into());
        }
        return check_hidden(game, s);
    }
    let mut outcomes = ChanceList::new();
    game.chance_outcomes(s, &mut outcomes);
    match game.turn(s) {
        Turn::Chance => {
            if outcomes.is_empty() {
                return Err("a chance node without outcomes".into());
            }
            if let Some((m, p)) = outcomes.iter().find(|(_, p)| !(*p > 0.0 && *p <= 1.0)) {
                return Err(format!("chance outcome {} has probability {p}", game.format_move(s, *m)));
            }
            let sum: f64 = outcomes.iter().map(|(_, p)| p).sum();
            if (sum - 1.0).abs() > 1e-9 {
                return Err(format!("chance probabilities add up to {sum}, not 1"));
            }
            let set: HashSet<G::Move> = outcomes.iter().map(|(m, _)| *m).collect();
            if set.len() != outcomes.len() || moves.len() != outcomes.len() || moves.iter().any(|m| !set.contains(m)) {
                return Err("the chance outcomes are not exactly the generated moves".into());
            }
            if !list(Side::First).is_empty() || !list(Side::Second).is_empty() {
                return Err("a chance node gives a player moves".into());
            }
        }
        Turn::Simultaneous => {
            if !G::KIND.simultaneous {
                return Err("a simultaneous node in a game whose KIND has no simultaneous moves".into());
            }
            if !moves.is_empty() || !outcomes.is_empty() {
                return Err("a simultaneous node generates single moves or chance outcomes".into());
            }
            let (a, b) = (list(Side::First), list(Side::Second));
            for (p, l) in [(Side::First, &a), (Side::Second, &b)] {
                if l.is_empty() || l.iter().collect::<HashSet<_>>().len() != l.len() {
                    return Err(format!("{p:?} has no moves or duplicate moves at a simultaneous node"));
                }
            }
            for &x in &a {
                for &y in &b {
                    let text = format!("{}/{}", game.format_move(s, x), game.format_move(s, y));
                    match game.parse_joint(s, &text) {
                        Ok(pair) if pair == (x, y) => {}
                        Ok(_) => return Err(format!("joint move {text} parses to another pair")),
                        Err(e) => return Err(format!("joint move {text} does not parse: {e}")),
                    }
                    let mut c = *s;
                    game.play_joint(&mut c, x, y);
                    if game.key(&c) != game.compute_key(&c) {
                        return Err(format!("after {text}: incremental key differs from scratch"));
                    }
                }
            }
            for bad in ["", "zz", "zz/zz", "/", "a/b/c"] {
                match game.parse_joint(s, bad) {
                    Ok(_) => return Err(format!("the malformed pair '{bad}' parses")),
                    Err(e) if e.0.contains('\n') || e.0.is_empty() => {
                        return Err(format!("the error for '{bad}' is not one line: {e}"));
                    }
                    Err(_) => {}
                }
            }
        }
        Turn::Player(p) => {
            if p != game.side_to_move(s) {
                return Err(format!("turn says {p:?} but the side to move is {:?}", game.side_to_move(s)));
            }
            if list(p) != *moves || !list(p.other()).is_empty() || !outcomes.is_empty() {
                return Err(
                    "at a player's turn, player_moves must be the generated moves for it, none for the other".into()
                );
            }
        }
    }
    check_hidden(game, s)
}

/// Observations are functions of the state; a resampled state keeps the player's observation and legal moves.
fn check_hidden<G: FullGame>(game: &G, s: &G::State) -> Result<(), String> {
    if !G::KIND.hidden {
        return Ok(());
    }
    let mut rng = SmallRng::seed_from_u64(game.key(s));
    for p in [Side::First, Side::Second] {
        let seen = game.observation(s, p);
        if seen != game.observation(s, p) {
            return Err(format!("the observation of {p:?} is not a function of the state"));
        }
        // A buffer holding another text first: write_observation must clear it.
        let mut buf = String::from("stale text");
        game.write_observation(s, p, &mut buf);
        if buf != seen {
            return Err(format!("write_observation of {p:?} differs from observation: {buf:?} against {seen:?}"));
        }
        let mut moves = MoveList::new();
        game.player_moves(s, p, &mut moves);
        for _ in 0..4 {
            let t = game.resample(s, p, &mut rng);
            let text = game.format_position(&t);
            if game.observation(&t, p) != seen {
                return Err(format!("resample for {p:?} gave {text}, whose observation differs"));
            }
            if game.key(&t) != game.compute_key(&t) {
                return Err(format!("resample for {p:?} gave {text} with a wrong key"));
            }
            if game.parse_position(&text).ok() != Some(t) {
                return Err(format!("resample for {p:?} gave {text}, which does not round-trip"));
            }
            let mut m = MoveList::new();
            game.player_moves(&t, p, &mut m);
            if m != moves {
                return Err(format!("resample for {p:?} gave {text}, with other legal moves"));
            }
        }
    }
    Ok(())
}
