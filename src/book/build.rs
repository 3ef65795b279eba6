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
//!         every `checkpoint` seconds: write the book so far (FILE.partial, through a temporary file renamed)
//! ```
//! Both sides' positions are expanded, so the book answers the opponent's near-best replies too. Scores are the
//! player's values (engine units; proven wins `WIN_SCORE - plies`, flagged exact).
//!
//! [`build_with`] takes any scorer in place of the player's search: [`connect_four_solver`] scores Connect Four
//! children exactly with the strong solver ([`crate::solve::connect4`]), so that a book built with it holds only
//! proven values (every entry flagged exact); [`game_solver`] does the same for any other game with the generic
//! solvers (alpha-beta to the end, or df-pn).

use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{FullGame, Game, GameError, MoveList, WIN_SCORE, WIN_THRESHOLD, outcome_score};
use crate::games::breakthrough::{Breakthrough, BtState};
use crate::games::connect_four::{C4State, ConnectFour, Shape};
use crate::search::Searcher;
use crate::solve::connect4::{self, Solver};

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
    pub(crate) max_moves: Vec<usize>,
    /// Write the book so far this often.
    pub checkpoint: Duration,
    /// The book of an interrupted build of the same settings: the positions it holds take their entries from it
    /// instead of being searched again (so the build goes on where it stopped, to the book it would have made).
    pub resume: Option<Book>,
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
    /// Positions whose entries came from [`BuildConfig::resume`] (not searched again).
    pub resumed: usize,
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

/// A child's value for its side to move (engine units), whether it is proven, and the nodes it cost.
pub type Scored = (i32, bool, u64);

/// Build a book for `game`, scoring moves with searches by `player` (built by the caller from `cfg.player`, which the
/// book records). `report` is called after every position with
/// the progress and, every `cfg.checkpoint`, with the book so far (to be saved); `stop` ends the build early with
/// what was done.
pub fn build<G: FullGame>(
    game: &G,
    cfg: &BuildConfig,
    note: &str,
    stop: &AtomicBool,
    report: impl FnMut(&BuildProgress, Option<&Book>),
    player: &mut dyn Searcher<G>,
) -> Result<(Book, BuildProgress), GameError> {
    let mut scorer = |c: &G::State| {
        let r = player.search(game, c);
        (r.value, r.value.abs() >= WIN_THRESHOLD, r.stats.nodes)
    };
    build_with(game, cfg, note, stop, report, &mut scorer)
}

/// [`build`] with `scorer` giving the value of every child position that is not over (`cfg.player` is not used).
pub(crate) fn build_with<G: FullGame>(
    game: &G,
    cfg: &BuildConfig,
    note: &str,
    stop: &AtomicBool,
    mut report: impl FnMut(&BuildProgress, Option<&Book>),
    scorer: &mut dyn FnMut(&G::State) -> Scored,
) -> Result<(Book, BuildProgress), GameError> {
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
        if let Some(kept) = cfg.resume.as_ref().and_then(|b| resumed(game, &s, &moves, b)) {
            prog.resumed += 1;
            for (e, m) in kept {
                entries.push(e);
                if ply + 1 < cfg.depth {
                    let mut c = s;
                    game.play(&mut c, m);
                    queue.push_back((c, ply + 1));
                }
            }
            prog.positions += 1;
            prog.queued = queue.len();
            prog.entries = entries.len();
            report(&prog, None);
            continue;
        }
        let mut scored: Vec<(i32, bool, G::Move)> = Vec::with_capacity(moves.len());
        for &m in &moves {
            let mut c = s;
            game.play(&mut c, m);
            let (score, exact) = match game.outcome(&c) {
                Some(o) => (parent_score(outcome_score(o, 0)), true),
                None => {
                    let (value, exact, nodes) = scorer(&c);
                    prog.searches += 1;
                    prog.nodes += nodes;
                    (parent_score(value), exact)
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

/// The entries `book` holds for `s` with their legal moves, in the order the build keeps them (best score first,
/// ties in the order of move generation), or `None` when it holds none (not expanded yet) or when two legal moves
/// share a move code there (which entry is whose cannot be told: the position is searched again).
fn resumed<G: Game>(game: &G, s: &G::State, moves: &MoveList<G::Move>, book: &Book) -> Option<Vec<(Entry, G::Move)>> {
    let held = book.lookup(game.key(s));
    if held.is_empty() {
        return None;
    }
    let codes: Vec<u16> = moves.iter().map(|&m| move_code(&game.format_move(s, m))).collect();
    let mut kept = Vec::with_capacity(held.len());
    for (i, (&m, &code)) in moves.iter().zip(&codes).enumerate() {
        if codes[..i].contains(&code) && held.iter().any(|e| e.mv == code) {
            return None;
        }
        if let Some(e) = held.iter().find(|e| e.mv == code) {
            kept.push((*e, m));
        }
    }
    if kept.len() != held.len() {
        return None; // an entry of no legal move: not this build's
    }
    kept.sort_by_key(|(e, _)| std::cmp::Reverse(e.score));
    Some(kept)
}

/// Pascal Pons's score of a Connect Four position with `stones` stones on a board of `cells` cells, as an engine value
/// for the side to move: a win with the winner's stone that makes `T` stones in all scores `(cells + 2 - T) / 2`
/// (rounded down), so `T` is the one of `cells + 2 - 2s` and `cells + 1 - 2s` whose parity says whose stone it is,
/// and the value is `WIN_SCORE - (T - stones)` (a loss the opposite, a draw 0).
pub(crate) fn pons_to_value(score: i32, stones: u32, cells: u32) -> i32 {
    if score == 0 {
        return 0;
    }
    let s = score.abs();
    let base = cells as i32 + 2 - 2 * s;
    // The side to move places stones stones+1, stones+3, ...; its opponent stones+2, stones+4, ...
    let mover_parity = (stones as i32 + 1) & 1;
    let want = if score > 0 { mover_parity } else { 1 - mover_parity };
    let total = if base & 1 == want { base } else { base - 1 };
    let plies = total - stones as i32;
    if score > 0 { WIN_SCORE - plies } else { -(WIN_SCORE - plies) }
}

/// A scorer for [`build_with`]: the exact value of a Connect Four position by the strong solver, with a table of
/// `table_log2` 16-byte entries kept between positions, and a cache under the mirror-canonical key (the mirror image of
/// a position has the same value).
pub(crate) fn connect_four_solver(
    game: &ConnectFour,
    table_log2: u32,
) -> Result<impl FnMut(&C4State) -> Scored, GameError> {
    let board = connect4::board(game.rows, game.columns).map_err(GameError::new)?;
    let mut solver = Solver::with_table(board, table_log2);
    let mut cache = std::collections::HashMap::new();
    let cells = board.cells();
    Ok(move |s: &C4State| {
        // The position and its mirror image share an entry.
        let key = s.pos.symmetric_key(&board);
        if let Some(&v) = cache.get(&key) {
            return (v, true, 0);
        }
        let before = solver.nodes;
        let score = solver.score(&s.pos, false);
        let v = pons_to_value(score, s.pos.plies, cells);
        cache.insert(key, v);
        (v, true, solver.nodes - before)
    })
}

/// A scorer for [`build_with`] for any game: the exact value by a solver. Strong (`weak = false`): alpha-beta to the
/// end ([`crate::solve::generic`]), so values carry the plies to the end (`WIN_SCORE - plies`) and the book prefers
/// the fastest win and the slowest loss. Weak: df-pn ([`crate::solve::dfpn`]), result only (a win scores
/// `WIN_SCORE - 1`, a draw 0); for boards too big for the strong solve. Every value is proven (flagged exact).
pub(crate) fn game_solver<G: FullGame>(tt_mib: usize, weak: bool, game: &G) -> impl FnMut(&G::State) -> Scored + '_ {
    let mut strong = (!weak).then(|| crate::solve::generic::GenericSolver::<G>::new(tt_mib, false));
    let mut dfpn = weak.then(|| crate::solve::dfpn::Dfpn::<G>::new(tt_mib, None));
    move |s: &G::State| {
        if let Some(solver) = strong.as_mut() {
            let r = solver.solve(game, s);
            return (r.value, true, r.nodes);
        }
        let r = dfpn.as_mut().expect("one of the two solvers").solve(game, s);
        match r.outcome {
            Some(crate::game::Outcome::Win) => (WIN_SCORE - 1, true, r.nodes),
            Some(crate::game::Outcome::Loss) => (-(WIN_SCORE - 1), true, r.nodes),
            Some(_) => (0, true, r.nodes),
            None => (0, false, r.nodes),
        }
    }
}

/// A scorer for [`build_with`] on Breakthrough: the exact value by the dedicated df-pn solver
/// ([`crate::solve::breakthrough`]: game knowledge, race tables, symmetry), one solver and its tables kept from one
/// position to the next. Strong (`weak = false`): the exact distance pass after each proof, so values are
/// `WIN_SCORE - plies` as from alpha-beta to the end; weak: the result only (`WIN_SCORE - 1`). Far faster than the
/// generic solvers of [`game_solver`] on boards past 5x5 (6x5 with one row of pieces: seconds, not minutes).
pub(crate) fn breakthrough_solver(
    game: &Breakthrough,
    tt_mib: usize,
    weak: bool,
) -> Result<impl FnMut(&BtState) -> Scored + '_, GameError> {
    let options = crate::solve::breakthrough::SolveOptions {
        tt_mib,
        race_rows: match game.rows {
            r if r > 3 => 3,
            3 => 2,
            _ => 0,
        },
        distance: !weak,
        distance_tt_mib: tt_mib,
        all_winning_moves: false,
        ..Default::default()
    };
    let mut solver = crate::solve::breakthrough::reusable(game, &options).map_err(GameError::new)?;
    let mut spent = 0;
    Ok(move |s: &BtState| {
        let sol = solver.solve(s);
        let nodes = sol.nodes + sol.distance_nodes - spent;
        spent = sol.nodes + sol.distance_nodes;
        let win = WIN_SCORE - sol.plies.map_or(1, |p| p as i32);
        match sol.result.as_deref() {
            Some("win") => (win, true, nodes),
            Some(_) => (-win, true, nodes),
            None => (0, false, nodes),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Capabilities;
    use crate::game::Game;
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
            resume: None,
        };
        let stop = AtomicBool::new(false);
        let mut player = crate::players::searcher::<TicTacToe>(&cfg.player).unwrap();
        let (book, prog) = build(&g, &cfg, "test", &stop, |_, _| {}, player.as_mut()).unwrap();
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

    /// The Pons score converted to plies agrees with the generic alpha-beta solver (fastest win, slowest loss) on
    /// random positions of a small board, and a book built with the exact scorer keeps exactly the optimal moves.
    #[test]
    fn connect_four_exact_values_match_the_generic_solver() {
        use crate::solve::GenericSolver;
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        let g = ConnectFour::new(4, 5).unwrap();
        let mut scorer = connect_four_solver(&g, 16).unwrap();
        let mut generic = GenericSolver::<ConnectFour>::new(16, false);
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut wins, mut losses, mut draws) = (0, 0, 0);
        for _ in 0..150 {
            let mut s = g.start();
            for _ in 0..rng.random_range(0..12) {
                let mut moves = MoveList::new();
                g.generate_moves(&s, &mut moves);
                if g.is_terminal(&s) || moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                g.play(&mut s, m);
            }
            if g.is_terminal(&s) {
                continue;
            }
            let (v, exact, _) = scorer(&s);
            assert!(exact);
            let r = generic.solve(&g, &s);
            assert_eq!(v, r.value, "{}", g.format_position(&s));
            match v.signum() {
                1 => wins += 1,
                -1 => losses += 1,
                _ => draws += 1,
            }
        }
        assert!(wins >= 10 && losses >= 10 && draws >= 3, "{wins} {losses} {draws}");
        // The exact book's first moves are exactly the moves that achieve the start position's value.
        let cfg = BuildConfig {
            depth: 2,
            player: String::new(),
            margin: 0,
            max_moves: vec![9],
            checkpoint: Duration::from_secs(3600),
            resume: None,
        };
        let stop = AtomicBool::new(false);
        let mut scorer = connect_four_solver(&g, 16).unwrap();
        let (book, _) = build_with(&g, &cfg, "test", &stop, |_, _| {}, &mut scorer).unwrap();
        let start = g.start();
        let best = generic.solve(&g, &start).value;
        let mut want = Vec::new();
        let mut moves = MoveList::new();
        g.generate_moves(&start, &mut moves);
        for &m in &moves {
            let mut c = start;
            g.play(&mut c, m);
            if parent_score(generic.solve(&g, &c).value) == best {
                want.push(g.format_move(&start, m));
            }
        }
        let mut got: Vec<String> = book.moves(&g, &start).iter().map(|(m, _)| g.format_move(&start, *m)).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want);
        assert!(book.entries().iter().all(|e| e.exact()));
    }

    /// The Breakthrough solver's values (df-pn, then the exact distance) equal the generic alpha-beta solver's
    /// (fastest win, slowest loss) on random positions of small boards, one solver reused for all of them.
    #[test]
    fn breakthrough_exact_values_match_the_generic_solver() {
        use crate::solve::GenericSolver;
        use crate::spec::Spec;
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        for spec in [
            "breakthrough(rows=5,columns=4,piece_rows=1)",
            "breakthrough(rows=5,columns=3)",
            "breakthrough(rows=5,columns=4,piece_rows=1,forced_captures=true)",
        ] {
            let g = Breakthrough::from_spec(&Spec::parse(spec).unwrap()).unwrap();
            let mut scorer = breakthrough_solver(&g, 16, false).unwrap();
            let mut weak = breakthrough_solver(&g, 16, true).unwrap();
            let mut generic = GenericSolver::<Breakthrough>::new(16, false);
            let mut rng = SmallRng::seed_from_u64(7);
            let (mut wins, mut losses) = (0, 0);
            for _ in 0..40 {
                let mut s = g.start();
                for _ in 0..rng.random_range(0..8) {
                    if g.is_terminal(&s) {
                        break;
                    }
                    let mut moves = MoveList::new();
                    g.generate_moves(&s, &mut moves);
                    g.play(&mut s, moves[rng.random_range(0..moves.len())]);
                }
                if g.is_terminal(&s) {
                    continue;
                }
                let (v, exact, _) = scorer(&s);
                assert!(exact);
                assert_eq!(v, generic.solve(&g, &s).value, "{spec} {}", g.format_position(&s));
                assert_eq!(weak(&s).0, v.signum() * (WIN_SCORE - 1));
                if v > 0 { wins += 1 } else { losses += 1 }
            }
            assert!(wins >= 5 && losses >= 5, "{spec}: {wins} wins, {losses} losses");
        }
    }
}
