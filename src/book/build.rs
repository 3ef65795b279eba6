//! Building an opening book offline by deep searches from the start position.
//!
//! ```text
//! build(game, depth, player, margin, max_moves):
//!     queue := [(start, 0)];  seen := {}
//!     while queue not empty:                               -- breadth first, so a partial book is a shallow full one
//!         (s, ply) := pop front;  if s is terminal or key(s) in seen: continue;  add key(s) to seen
//!         for each legal move m:                            -- one deep search per move
//!             c := play(s, m)
//!             score(m) := value of c if it is over, else -(search(c) with the player's budget), win distance + 1
//!         best := max score;  K := moves with score >= best - margin, best first, at most max_moves[ply]
//!         add the entries (key(s), m, score(m), weight 1, exact if proven) for m in K
//!         if ply + 1 < depth: push (play(s, m), ply + 1) for m in K
//!         every `checkpoint` seconds: write the book so far (FILE.tmp, then rename)
//! ```
//! Both sides' positions are expanded, so the book answers the opponent's near-best replies too. Scores are the
//! player's values (engine units; proven wins `WIN_SCORE - plies`, flagged exact).

use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, GameError, MoveList, WIN_THRESHOLD, outcome_score};
use crate::search::from_spec;

use super::{Book, Entry, FLAG_EXACT, move_code};

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// Positions up to this many plies from the start are expanded.
    pub depth: u32,
    /// The player that scores every move (`engine(nodes=200k)`).
    pub player: String,
    /// Moves within this many units of the best are kept (stored and expanded).
    pub margin: i32,
    /// At most this many moves kept per position, by ply from the start (the last value for the deeper plies):
    /// `[22, 3]` keeps every first move and 3 moves further on.
    pub max_moves: Vec<usize>,
    /// Write the book so far this often.
    pub checkpoint: Duration,
}

/// Counters shown while building.
#[derive(Clone, Debug, Default)]
pub struct BuildProgress {
    pub positions: usize,
    pub queued: usize,
    pub searches: u64,
    pub nodes: u64,
    pub entries: usize,
    pub seconds: f64,
}

/// Convert the value of a child position (its side to move's view) into the move's value for the parent.
pub fn parent_score(child_value: i32) -> i32 {
    if child_value >= WIN_THRESHOLD {
        -(child_value - 1)
    } else if child_value <= -WIN_THRESHOLD {
        -(child_value + 1)
    } else {
        -child_value
    }
}

/// Build a book for `game`. `report` is called after every position with the progress and, every
/// `cfg.checkpoint`, with the book so far (to be saved); `stop` ends the build early with what was done.
pub fn build<G: Game>(
    game: &G,
    cfg: &BuildConfig,
    note: &str,
    stop: &AtomicBool,
    mut report: impl FnMut(&BuildProgress, Option<&Book>),
) -> Result<(Book, BuildProgress), GameError> {
    let mut player = from_spec::<G>(&cfg.player)?;
    let start = Instant::now();
    let mut last_save = Instant::now();
    let mut queue = VecDeque::from([(game.start(), 0u32)]);
    let mut seen = HashSet::new();
    let mut entries: Vec<Entry> = Vec::new();
    let mut prog = BuildProgress::default();
    while let Some((s, ply)) = queue.pop_front() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if game.is_terminal(&s) || !seen.insert(game.key(&s)) {
            continue;
        }
        let mut moves = MoveList::new();
        game.generate_moves(&s, &mut moves);
        let mut scored: Vec<(i32, bool, G::Move)> = Vec::with_capacity(moves.len());
        for &m in &moves {
            let mut c = s;
            game.play(&mut c, m);
            let (score, exact) = match game.outcome(&c) {
                Some(o) => (parent_score(outcome_score(o, 0)), true),
                None => {
                    let r = player.search(game, &c);
                    prog.searches += 1;
                    prog.nodes += r.stats.nodes;
                    let v = parent_score(r.value);
                    (v, v.abs() >= WIN_THRESHOLD)
                }
            };
            scored.push((score, exact, m));
            if stop.load(Ordering::Relaxed) {
                break;
            }
        }
        if scored.len() < moves.len() {
            break; // interrupted inside the position: leave it out
        }
        scored.sort_by_key(|x| std::cmp::Reverse(x.0));
        let Some(best) = scored.first().map(|x| x.0) else { continue };
        let width = cfg.max_moves.get(ply as usize).or(cfg.max_moves.last()).copied().unwrap_or(1);
        for &(score, exact, m) in scored.iter().filter(|x| x.0 >= best.saturating_sub(cfg.margin)).take(width) {
            let flags = if exact { FLAG_EXACT } else { 0 };
            entries.push(Entry { key: game.key(&s), mv: move_code(&game.format_move(&s, m)), flags, score, weight: 1 });
            if ply + 1 < cfg.depth {
                let mut c = s;
                game.play(&mut c, m);
                queue.push_back((c, ply + 1));
            }
        }
        prog.positions += 1;
        prog.queued = queue.len();
        prog.entries = entries.len();
        prog.seconds = start.elapsed().as_secs_f64();
        if last_save.elapsed() >= cfg.checkpoint {
            last_save = Instant::now();
            report(&prog, Some(&Book::new(&game.spec(), note, entries.clone())));
        } else {
            report(&prog, None);
        }
    }
    prog.seconds = start.elapsed().as_secs_f64();
    Ok((Book::new(&game.spec(), note, entries), prog))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;

    #[test]
    fn tic_tac_toe_book_keeps_only_non_losing_moves() {
        let g = TicTacToe;
        let cfg = BuildConfig {
            depth: 3,
            player: "engine(depth=12)".into(),
            margin: 0,
            max_moves: vec![9],
            checkpoint: Duration::from_secs(3600),
        };
        let stop = AtomicBool::new(false);
        let (book, prog) = build(&g, &cfg, "test", &stop, |_, _| {}).unwrap();
        assert!(prog.positions >= 1 && book.positions() == prog.positions);
        // Perfect play draws: every kept move at the start scores 0 (a draw), and all 9 first moves draw.
        let first = book.moves(&g, &g.start());
        assert_eq!(first.len(), 9);
        assert!(first.iter().all(|(_, e)| e.score == 0));
        // After a corner, only the centre holds the draw for O.
        let s = g.play_moves(&g.start(), "a1").unwrap();
        let replies = book.moves(&g, &s);
        assert_eq!(replies.len(), 1);
        assert_eq!(g.format_move(&s, replies[0].0), "b2");
        // The book file round-trips.
        assert_eq!(Book::from_bytes(&book.to_bytes()).unwrap(), book);
    }
}
