//! Openings for matches: the start position, a few random first plies from a seed, or lines read from a file.
//!
//! Each opening is played twice, once with each player moving first. Random openings are drawn with a generator
//! seeded by `(seed, opening number)`, so a match is reproducible and openings do not depend on the order games end.
//! An openings file has one opening per line: a position text (`pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w`), or
//! moves from the start (`a2a3 h7h6`), or a position then `moves ...`; blank lines and `#` comments are skipped.

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::game::{FullGame, MoveList, Side, Turn};
use crate::protocol::session::parse_fen;

/// One opening: an optional start position text (`None` = the game's start) and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening<G: FullGame> {
    pub fen: Option<String>,
    pub start: G::State,
    pub moves: Vec<G::Move>,
    /// The moves in the game's notation.
    pub move_text: Vec<String>,
}

impl<G: FullGame> Opening<G> {
    /// The position after the opening's moves.
    pub fn position(&self, game: &G) -> G::State {
        let mut s = self.start;
        for &m in &self.moves {
            game.play(&mut s, m);
        }
        s
    }
    /// A one-line description for records.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(f) = &self.fen {
            parts.push(f.clone());
        }
        if !self.move_text.is_empty() {
            parts.push(self.move_text.join(" "));
        }
        if parts.is_empty() { "start".into() } else { parts.join(" moves ") }
    }
}

/// Where the openings come from.
#[derive(Clone, Debug)]
pub enum Openings<G: FullGame> {
    Start,
    Random { plies: u32, seed: u64 },
    List(Vec<Opening<G>>),
}

impl<G: FullGame> Openings<G> {
    /// A one-line description for match headers: `start`, `2 random plies (seed 1)`, `3 openings from a file`.
    pub fn describe(&self) -> String {
        match self {
            Openings::Start => "start position".into(),
            Openings::Random { plies, seed } => format!("{plies} random plies (seed {seed})"),
            Openings::List(list) => format!("{} openings from a file", list.len()),
        }
    }

    /// Opening number `k`.
    pub fn get(&self, game: &G, k: usize) -> Opening<G> {
        match self {
            Openings::Start => Opening { fen: None, start: game.start(), moves: Vec::new(), move_text: Vec::new() },
            Openings::Random { plies, seed } => random_opening(game, *plies, *seed, k as u64),
            Openings::List(list) => list[k % list.len()].clone(),
        }
    }
}

/// `plies` uniformly random moves from the start that do not end the game (fewer if every try ends it). A chance
/// node's outcome is drawn by its probability; a simultaneous node ends the opening (an opening holds single moves).
pub fn random_opening<G: FullGame>(game: &G, plies: u32, seed: u64, k: u64) -> Opening<G> {
    let mut rng = SmallRng::seed_from_u64(seed ^ k.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let start = game.start();
    let mut best: Vec<G::Move> = Vec::new();
    for _try in 0..100 {
        let mut s = start;
        let mut moves = Vec::new();
        let mut list = MoveList::new();
        for _ in 0..plies {
            if game.is_terminal(&s) {
                break;
            }
            let m = match if G::KIND.is_classic() { Turn::Player(Side::First) } else { game.turn(&s) } {
                Turn::Simultaneous => break,
                Turn::Chance => match game.random_move(&s, &mut rng) {
                    Some(m) => m,
                    None => break,
                },
                Turn::Player(_) => {
                    game.generate_moves(&s, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    list[rand::RngExt::random_range(&mut rng, 0..list.len())]
                }
            };
            game.play(&mut s, m);
            moves.push(m);
        }
        let ok = !game.is_terminal(&s);
        if ok && moves.len() == plies as usize {
            best = moves;
            break;
        }
        if ok && moves.len() > best.len() {
            best = moves;
        }
    }
    let mut s = start;
    let mut move_text = Vec::new();
    for &m in &best {
        move_text.push(game.format_move(&s, m));
        game.play(&mut s, m);
    }
    Opening { fen: None, start, moves: best, move_text }
}

/// Parse an openings file (see the module documentation). Errors name the line.
pub fn parse_openings<G: FullGame>(game: &G, text: &str) -> Result<Vec<Opening<G>>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let o = parse_line(game, line).map_err(|e| format!("openings line {}: {e}", i + 1))?;
        out.push(o);
    }
    if out.is_empty() {
        return Err("the openings file has no opening".into());
    }
    Ok(out)
}

fn parse_line<G: FullGame>(game: &G, line: &str) -> Result<Opening<G>, String> {
    let (head, moves_text) = match line.find(" moves ") {
        Some(i) => (line[..i].trim(), line[i + 7..].trim()),
        None => (line, ""),
    };
    // A position text, or else moves from the start.
    let (fen, start, moves_text) = match parse_fen(game, head) {
        Ok(s) => (Some(game.format_position(&s)), s, moves_text.to_string()),
        Err(pos_err) => {
            if !moves_text.is_empty() {
                return Err(pos_err);
            }
            (None, game.start(), head.to_string())
        }
    };
    let mut s = start;
    let mut moves = Vec::new();
    let mut move_text = Vec::new();
    for (j, w) in game.split_moves(&moves_text).iter().enumerate() {
        if game.is_terminal(&s) {
            return Err(format!("move {} '{w}': the game is already over", j + 1));
        }
        if G::KIND.simultaneous && game.turn(&s) == Turn::Simultaneous {
            return Err(format!(
                "move {} '{w}': both players move at once here, and openings hold single moves",
                j + 1
            ));
        }
        let m = game.parse_move(&s, w).map_err(|e| format!("move {} '{w}': {e}", j + 1))?;
        move_text.push(game.format_move(&s, m));
        game.play(&mut s, m);
        moves.push(m);
    }
    if game.is_terminal(&s) {
        return Err("the opening ends the game".into());
    }
    Ok(Opening { fen, start, moves, move_text })
}
