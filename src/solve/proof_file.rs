//! A proof of a win saved as text, and its independent check: the file gives, for the positions of a proof tree where
//! the winner moves, the winning move; the check walks every answer of the loser with the game's rules alone
//! ([`super::proof_check`]), asking the file (never a solver) which move wins where the winner moves.
//!
//! ```text
//! plateau proof 1                                  first line
//! game qubic(size=3)                               the game string
//! root 3/3/3|3/3/3|3/3/3 x                         the position proven a win for its side to move
//! POSITION<TAB>MOVE                                one line per stored position: its text, the winning move there
//! ...
//! end N                                            the number of positions stored (a cut file has no such line)
//! ```
//! Positions and moves are written in the game's own notations (`format_position`, `format_move`) and read with its
//! parser (`parse_position`, `parse_move`: the move must be legal there). A position where the winner wins at once
//! needs no line: the check tries every move with the rules. Positions are exact (not up to symmetry), so that the
//! check needs nothing but the rules. A line that does not read, a position given twice, a missing or wrong `end`
//! line refuse the file with the line's number; a stored move that does not win makes the check fail with the line
//! of moves from the root where it broke.

use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::path::Path;

use serde::Serialize;

use crate::game::FullGame;

use super::proof_check::{self, ProofCheck};

const FIRST_LINE: &str = "plateau proof 1";
/// A proof file is refused beyond this size.
const MAX_BYTES: u64 = 16 << 30;

/// Write the proof of a win at `root` (`entries`: each position where the winner moves and its winning move) to
/// `path`, atomically; the bytes written.
pub fn write<G: FullGame>(
    game: &G,
    path: &Path,
    root: &G::State,
    entries: &[(G::State, G::Move)],
) -> Result<u64, String> {
    crate::files::write_atomic(path, "proof file", |file| {
        let mut w = BufWriter::with_capacity(1 << 20, file);
        let mut bytes = 0u64;
        let mut line = |w: &mut BufWriter<_>, text: String| {
            bytes += text.len() as u64 + 1;
            writeln!(w, "{text}")
        };
        line(&mut w, FIRST_LINE.to_string())?;
        line(&mut w, format!("game {}", game.spec()))?;
        line(&mut w, format!("root {}", game.format_position(root)))?;
        for (s, m) in entries {
            line(&mut w, format!("{}\t{}", game.format_position(s), game.format_move(s, *m)))?;
        }
        line(&mut w, format!("end {}", entries.len()))?;
        w.flush()?;
        Ok(bytes)
    })
}

/// A proof file read: its root and its moves by position.
pub(crate) struct ProofFile<G: FullGame> {
    pub root: G::State,
    pub moves: HashMap<G::State, G::Move>,
    /// The stored positions in the file's order.
    pub order: Vec<G::State>,
}

/// Read the proof file at `path` for `game`; an error is one line naming the file's line that is wrong.
pub fn read<G: FullGame>(game: &G, path: &Path) -> Result<ProofFile<G>, String> {
    let text = crate::files::read_text(path, MAX_BYTES, "proof file")?;
    let name = path.display();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let bad = |n: usize, why: String| format!("proof file {name} line {n}: {why}");
    match lines.next() {
        Some((_, FIRST_LINE)) => {}
        _ => return Err(format!("proof file {name}: not a plateau proof (its first line is not '{FIRST_LINE}')")),
    }
    let (n, line) = lines.next().ok_or_else(|| bad(2, "missing (the game)".into()))?;
    let spec = line.strip_prefix("game ").ok_or_else(|| bad(n, "expected 'game GAME'".into()))?;
    if spec != game.spec() {
        return Err(bad(n, format!("the proof is for {spec}, not {}", game.spec())));
    }
    let (n, line) = lines.next().ok_or_else(|| bad(3, "missing (the root position)".into()))?;
    let root = line.strip_prefix("root ").ok_or_else(|| bad(n, "expected 'root POSITION'".into()))?;
    let root = game.parse_position(root).map_err(|e| bad(n, format!("root position: {e}")))?;
    let mut moves = HashMap::new();
    let mut order = Vec::new();
    let mut first_seen: HashMap<G::State, usize> = HashMap::new();
    let mut last = 3;
    while let Some((n, line)) = lines.next() {
        last = n;
        if let Some(count) = line.strip_prefix("end ") {
            let count: usize = count.trim().parse().map_err(|_| bad(n, format!("bad count '{count}'")))?;
            if count != moves.len() {
                return Err(bad(n, format!("'end {count}' but the file stores {} positions", moves.len())));
            }
            if let Some((extra, _)) = lines.find(|(_, l)| !l.trim().is_empty()) {
                return Err(bad(extra, "text after the end line".into()));
            }
            return Ok(ProofFile { root, moves, order });
        }
        let (pos, mv) = line.rsplit_once('\t').ok_or_else(|| bad(n, "expected 'POSITION<TAB>MOVE'".into()))?;
        let s = game.parse_position(pos).map_err(|e| bad(n, format!("position: {e}")))?;
        let m = game.parse_move(&s, mv).map_err(|e| bad(n, format!("move '{mv}': {e}")))?;
        if let Some(before) = first_seen.insert(s, n) {
            return Err(bad(n, format!("the position of line {before} again")));
        }
        moves.insert(s, m);
        order.push(s);
    }
    Err(format!("proof file {name}: cut short after line {last} (no 'end N' line)"))
}

/// What the check of a proof file found.
#[derive(Clone, Debug, Serialize)]
pub struct ProofFileCheck {
    pub file: String,
    pub game: String,
    /// The root position, proven a win for its side to move when `check.verified`.
    pub root: String,
    /// Positions stored in the file.
    pub positions: u64,
    pub check: ProofCheck,
    pub seconds: f64,
}

/// Read the proof file at `path` and walk it with the rules ([`proof_check`]), with a memo of `memo_mib` MiB;
/// `progress` gets the counts now and then. A file that does not read is an error; a proof that does not hold is a
/// report with `check.verified` false and the line where it broke.
pub fn check<G: FullGame>(
    game: &G,
    path: &Path,
    memo_mib: usize,
    progress: &mut dyn FnMut(&ProofCheck),
) -> Result<ProofFileCheck, String> {
    let start = std::time::Instant::now();
    let proof = read(game, path)?;
    Ok(walk(game, path, &proof, memo_mib, start, progress))
}

/// The walk of [`check`] on a proof already read from `path` (a caller that first looks at its root), timed from
/// `start`.
pub(crate) fn walk<G: FullGame>(
    game: &G,
    path: &Path,
    proof: &ProofFile<G>,
    memo_mib: usize,
    start: std::time::Instant,
    progress: &mut dyn FnMut(&ProofCheck),
) -> ProofFileCheck {
    let mut oracle = |s: &G::State| proof.moves.get(s).map(|&m| vec![m]).unwrap_or_default();
    let check = proof_check::check_with_progress(game, &proof.root, true, memo_mib, &mut oracle, progress);
    ProofFileCheck {
        file: path.display().to_string(),
        game: game.spec(),
        root: game.format_position(&proof.root),
        positions: proof.moves.len() as u64,
        check,
        seconds: start.elapsed().as_secs_f64(),
    }
}
