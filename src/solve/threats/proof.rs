//! The proof tree of a win, extracted from a finished search: for every position of the tree where the winner moves
//! and cannot win at once, the winning move (the proof file's entries, [`crate::solve::proof_file`]).
//!
//! ```text
//! or(s):   a win at once -> nothing to store (the checker finds it with the rules)
//!          else m := the search's winning move at s (table, knowledge, threat sequence, or proven again); store (s, m)
//!          and(s after m)
//! and(s):  for every legal move r of the defender (all of them, not only the blocks): or(s after r)
//! ```
//! Each position where the winner moves is stored once (transpositions are walked once).

use std::collections::HashMap;

use crate::game::{FullGame, MoveList, Outcome};

use super::search::Search;

/// The winning move of every position of the proof tree that needs one, in the order they were met.
pub(super) struct Proof<G: FullGame> {
    pub entries: Vec<(G::State, G::Move)>,
    seen: HashMap<G::State, ()>,
}

/// Extract the proof of the proven win at `root` (its side to move wins); an error names the line where no winning
/// move could be shown (the search was stopped, or the table lost what it proved and the limits are too low).
pub(super) fn extract<G: FullGame>(search: &mut Search<'_, G>, root: &G::State) -> Result<Proof<G>, String> {
    let mut proof = Proof { entries: Vec::new(), seen: HashMap::new() };
    let mut line = Vec::new();
    or(search, root, &mut proof, &mut line)?;
    Ok(proof)
}

fn or<G: FullGame>(
    search: &mut Search<'_, G>,
    s: &G::State,
    proof: &mut Proof<G>,
    line: &mut Vec<String>,
) -> Result<(), String> {
    let g = search.game;
    if let Some(o) = g.outcome(s) {
        return if o == Outcome::Win { Ok(()) } else { Err(format!("the game is lost after '{}'", line.join(" "))) };
    }
    if g.has_winning_move(s) || proof.seen.contains_key(s) {
        return Ok(());
    }
    let Some(m) = search.winning_move(s) else {
        return Err(format!("no winning move shown after '{}'", line.join(" ")));
    };
    proof.seen.insert(*s, ());
    proof.entries.push((*s, m));
    let mut c = *s;
    g.play(&mut c, m);
    line.push(g.format_move(s, m));
    let r = and(search, &c, proof, line);
    line.pop();
    r
}

fn and<G: FullGame>(
    search: &mut Search<'_, G>,
    s: &G::State,
    proof: &mut Proof<G>,
    line: &mut Vec<String>,
) -> Result<(), String> {
    let g = search.game;
    if let Some(o) = g.outcome(s) {
        return if o == Outcome::Loss {
            Ok(())
        } else {
            Err(format!("the defender is not lost after '{}'", line.join(" ")))
        };
    }
    let mut moves = MoveList::new();
    g.generate_moves(s, &mut moves);
    for &r in &moves {
        let mut c = *s;
        g.play(&mut c, r);
        line.push(g.format_move(s, r));
        let result = or(search, &c, proof, line);
        line.pop();
        result?;
    }
    Ok(())
}
