//! An independent check of a win proof: the proof tree is walked with nothing but the game's rules, down to positions
//! where the game is over, so that a solver's knowledge rules, endgame tables, symmetry and bookkeeping need not be
//! trusted.
//!
//! ```text
//! win(s):  the game is over at s           -> the side to move won?
//!          s won before                    -> yes
//!          some legal move m ends the game with the mover's win      -> yes (the rules alone, no oracle)
//!          some move m of oracle(s), in order, with loss(s after m)  -> yes
//!          otherwise                       -> no (the check fails)
//! loss(s): the game is over at s           -> the side to move lost?
//!          s lost before                   -> yes
//!          every legal move m with win(s after m) -> yes, otherwise no
//! ```
//! The oracle (a solver) only proposes the moves to try where the winner moves; every move of the loser is generated
//! and followed by the checker, so a wrong proposal can make the check fail, never make it pass.
//!
//! Checked positions are remembered in a memo of bounded size ([`Memo`], `memo_mib`), so that transpositions are
//! mostly walked once. The memo holds whole states, not hash keys: a key collision must not be able to pass a check.
//! It is a cache: when two positions compete for its slots the one whose check walked more positions stays, and a
//! position forgotten is walked again when met again (the counts include such repeats). Games with draws: `win` asks
//! for a win and `loss` for a loss, so a drawn line fails the check.

use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, Hash};

use crate::game::{FullGame, MoveList, Outcome};
// The memo hashes a state at nearly every position walked, where the standard SipHash showed in profiles; a poor
// hash could only cost time, since equality of whole states decides membership.
use crate::puzzle::FxHasher;

/// Positions where the winner moves between two calls of the progress callback.
const PROGRESS_EVERY: u64 = 1 << 20;

/// Memo size of [`check`] (MiB).
pub(crate) const DEFAULT_MEMO_MIB: usize = 64;

/// One remembered position: its state, whether it was shown won (`true`) or lost for its side to move, and how many
/// positions its check walked (saturated), which decides who keeps a slot.
#[derive(Clone, Copy)]
struct Slot<S> {
    state: S,
    walked: u32,
    won: bool,
}

/// The positions already checked: a fixed array of slots in pairs (a position may sit in either slot of its pair);
/// a new position takes an empty slot, or the one of the pair whose check walked fewer positions.
struct Memo<S> {
    slots: Vec<Option<Slot<S>>>,
    pairs: usize,
    hasher: BuildHasherDefault<FxHasher>,
    /// Positions stored, and stores refused because both slots held larger checks.
    stored: u64,
    refused: u64,
}

impl<S: Copy + Eq + Hash> Memo<S> {
    fn new(mib: usize) -> Self {
        let bytes = mib.max(1) << 20;
        let pairs = (bytes / (2 * std::mem::size_of::<Option<Slot<S>>>())).max(1);
        // The memo is a cache: memory the system refuses (the caller checked the size first) means a smaller memo.
        let mut pairs = pairs;
        let mut slots = Vec::new();
        while slots.try_reserve_exact(2 * pairs).is_err() && pairs > 1 {
            pairs /= 2;
        }
        slots.resize(2 * pairs, None);
        Memo { slots, pairs, hasher: Default::default(), stored: 0, refused: 0 }
    }

    fn pair(&self, s: &S) -> usize {
        let h = self.hasher.hash_one(s);
        2 * ((h as u128 * self.pairs as u128) >> 64) as usize
    }

    /// `Some(won)` if `s` was checked before and is still remembered.
    #[inline]
    fn get(&self, s: &S) -> Option<bool> {
        let i = self.pair(s);
        self.slots[i..i + 2].iter().flatten().find(|slot| slot.state == *s).map(|slot| slot.won)
    }

    fn put(&mut self, s: &S, won: bool, walked: u64) {
        let walked = walked.min(u32::MAX as u64) as u32;
        let i = self.pair(s);
        let victim = match (&self.slots[i], &self.slots[i + 1]) {
            (None, _) => i,
            (_, None) => i + 1,
            (Some(a), Some(b)) => {
                let j = if a.walked <= b.walked { i } else { i + 1 };
                if self.slots[j].is_some_and(|v| v.walked > walked) {
                    self.refused += 1;
                    return;
                }
                j
            }
        };
        self.stored += 1;
        self.slots[victim] = Some(Slot { state: *s, walked, won });
    }
}

type Failed<S> = HashSet<S, BuildHasherDefault<FxHasher>>;

/// What a check found.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ProofCheck {
    /// The proof holds: the side to move at the root wins against every defence (or, for a loss check, loses).
    pub verified: bool,
    /// Positions checked where the winner moves, and where the loser moves (every move followed); a position met
    /// again is counted again unless it was remembered.
    pub or_positions: u64,
    pub and_positions: u64,
    /// Positions stored in the memo, and the memo's size (MiB).
    pub(crate) memo_stored: u64,
    pub memo_mib: usize,
    /// Positions where the game was over (the leaves of the proof tree).
    pub terminal_positions: u64,
    /// Positions where the winner moves that the rules alone decided (a move that ends the game with a win), without
    /// the oracle.
    pub(crate) immediate_wins: u64,
    /// Calls of the oracle, and the moves it proposed that did not win.
    pub(crate) oracle_calls: u64,
    pub(crate) refuted_proposals: u64,
    /// A line (moves from the root) to the first position where no proposed move could be shown to win.
    pub failed_line: Option<String>,
}

/// Walks a proof of `state` (a win for its side to move when `win`, a loss otherwise) with `oracle(position)`
/// proposing, best first, the moves that win there. Recursion depth is the game's length. The memo has
/// [`DEFAULT_MEMO_MIB`].
pub fn check<G: FullGame>(
    game: &G,
    state: &G::State,
    win: bool,
    oracle: &mut dyn FnMut(&G::State) -> Vec<G::Move>,
) -> ProofCheck {
    check_with_progress(game, state, win, DEFAULT_MEMO_MIB, oracle, &mut |_| {})
}

/// [`check`] with a memo of `memo_mib` MiB, calling `progress` with the counts so far about every 2^20 positions
/// where the winner moves.
pub(crate) fn check_with_progress<G: FullGame>(
    game: &G,
    state: &G::State,
    win: bool,
    memo_mib: usize,
    oracle: &mut dyn FnMut(&G::State) -> Vec<G::Move>,
    progress: &mut dyn FnMut(&ProofCheck),
) -> ProofCheck {
    let mut c = Checker {
        progress,
        game,
        oracle,
        memo: Memo::new(memo_mib),
        failed: Failed::default(),
        path: Vec::new(),
        next_progress: PROGRESS_EVERY,
        report: ProofCheck { memo_mib, ..ProofCheck::default() },
    };
    let ok = if win { c.win(state) } else { c.loss(state) };
    c.report.verified = ok;
    c.report.memo_stored = c.memo.stored;
    c.report
}

struct Checker<'a, G: FullGame> {
    progress: &'a mut dyn FnMut(&ProofCheck),
    game: &'a G,
    oracle: &'a mut dyn FnMut(&G::State) -> Vec<G::Move>,
    memo: Memo<G::State>,
    /// Positions already shown not to be provable as a win with the oracle's proposals.
    failed: Failed<G::State>,
    /// The moves from the root to the current position (with the positions they were played in).
    path: Vec<(G::State, G::Move)>,
    next_progress: u64,
    report: ProofCheck,
}

impl<G: FullGame> Checker<'_, G> {
    fn win(&mut self, s: &G::State) -> bool {
        if let Some(o) = self.game.outcome(s) {
            self.report.terminal_positions += 1;
            return o == Outcome::Win;
        }
        // The rules first: a move that ends the game with a win (no memory touched, the commonest case).
        let mut legal = MoveList::new();
        self.game.generate_moves(s, &mut legal);
        for &m in &legal {
            let mut c = *s;
            self.game.play(&mut c, m);
            if self.game.outcome(&c) == Some(Outcome::Loss) {
                self.report.or_positions += 1;
                self.report.terminal_positions += 1;
                self.report.immediate_wins += 1;
                return true;
            }
        }
        if let Some(won) = self.memo.get(s) {
            // A position is stored as won or as lost for its side to move; only a won one answers here.
            if won {
                return true;
            }
        }
        if self.failed.contains(s) {
            return false;
        }
        let before = self.visited();
        self.report.or_positions += 1;
        if self.report.or_positions >= self.next_progress {
            self.next_progress = self.report.or_positions + PROGRESS_EVERY;
            self.report.memo_stored = self.memo.stored;
            (self.progress)(&self.report);
        }
        self.report.oracle_calls += 1;
        let proposals = (self.oracle)(s);
        for m in proposals {
            if !legal.contains(&m) {
                self.report.refuted_proposals += 1;
                continue;
            }
            let mut c = *s;
            self.game.play(&mut c, m);
            self.path.push((*s, m));
            let ok = self.loss(&c);
            self.path.pop();
            if ok {
                let walked = self.visited() - before;
                self.memo.put(s, true, walked);
                return true;
            }
            self.report.refuted_proposals += 1;
        }
        if self.report.failed_line.is_none() {
            let line: Vec<String> = self.path.iter().map(|(p, m)| self.game.format_move(p, *m)).collect();
            self.report.failed_line = Some(line.join(" "));
        }
        self.failed.insert(*s);
        false
    }

    fn loss(&mut self, s: &G::State) -> bool {
        if let Some(o) = self.game.outcome(s) {
            self.report.terminal_positions += 1;
            return o == Outcome::Loss;
        }
        if self.memo.get(s) == Some(false) {
            return true;
        }
        let before = self.visited();
        self.report.and_positions += 1;
        let mut moves = MoveList::new();
        self.game.generate_moves(s, &mut moves);
        for &m in &moves {
            let mut c = *s;
            self.game.play(&mut c, m);
            self.path.push((*s, m));
            let ok = self.win(&c);
            self.path.pop();
            if !ok {
                return false;
            }
        }
        let walked = self.visited() - before;
        self.memo.put(s, false, walked);
        true
    }

    /// Positions walked so far (counting repeats of those not remembered).
    fn visited(&self) -> u64 {
        self.report.or_positions + self.report.and_positions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::AnyGame;

    fn all_moves<G: FullGame>(g: &G) -> impl FnMut(&G::State) -> Vec<G::Move> + '_ {
        move |s| {
            let mut list = MoveList::new();
            g.generate_moves(s, &mut list);
            list.to_vec()
        }
    }

    /// With every legal move proposed, the check is a plain exhaustive search: it agrees with the known values
    /// (solved.json: 4x3 and 5x4 with one row are first-player wins; on 4x4 with one row only a1a2 and d1d2 win, so
    /// the position after a1a2 is a loss and the one after b1b2 is not; tic-tac-toe is a draw, so neither a win nor a
    /// loss check holds), and a false claim fails with the line where it broke.
    #[test]
    fn exhaustive_oracle_gives_the_known_values() {
        for text in ["breakthrough(rows=4,columns=3,piece_rows=1)", "breakthrough(rows=5,columns=4,piece_rows=1)"] {
            let AnyGame::Breakthrough(g) = AnyGame::parse(text).unwrap() else { unreachable!() };
            let s = g.start();
            let right = check(&g, &s, true, &mut all_moves(&g));
            assert!(right.verified, "{text}");
            assert!(right.terminal_positions > 0 && right.and_positions > 0);
            let wrong = check(&g, &s, false, &mut all_moves(&g));
            assert!(!wrong.verified, "{text}");
            assert!(wrong.failed_line.is_some());
        }
        let AnyGame::Breakthrough(g) = AnyGame::parse("breakthrough(rows=4,columns=4,piece_rows=1)").unwrap() else {
            unreachable!()
        };
        let s = g.start();
        for (mv, lost) in [("a1a2", true), ("d1d2", true), ("b1b2", false), ("c1c2", false)] {
            let mut c = s;
            g.play(&mut c, g.parse_move(&s, mv).unwrap());
            assert_eq!(check(&g, &c, false, &mut all_moves(&g)).verified, lost, "after {mv}");
            assert_eq!(check(&g, &c, true, &mut all_moves(&g)).verified, !lost, "after {mv}");
        }
        let AnyGame::TicTacToe(g) = AnyGame::parse("tic_tac_toe").unwrap() else { unreachable!() };
        assert!(!check(&g, &g.start(), true, &mut all_moves(&g)).verified);
        assert!(!check(&g, &g.start(), false, &mut all_moves(&g)).verified);
    }

    /// Proposals that are illegal or do not win are refused; a win is only accepted through a move that wins.
    #[test]
    fn bad_proposals_cannot_pass() {
        let AnyGame::Breakthrough(g) = AnyGame::parse("breakthrough(rows=4,columns=4,piece_rows=1)").unwrap() else {
            unreachable!()
        };
        let s = g.start();
        // solved.json: only a1a2 and d1d2 win. Proposing only b1b2 (a losing move) at the root fails.
        let b1b2 = g.parse_move(&s, "b1b2").unwrap();
        let mut first = true;
        let mut oracle = |p: &_| {
            let mut list = MoveList::new();
            g.generate_moves(p, &mut list);
            if std::mem::take(&mut first) { vec![b1b2] } else { list.to_vec() }
        };
        let r = check(&g, &s, true, &mut oracle);
        assert!(!r.verified);
        assert!(r.refuted_proposals >= 1);
        // An oracle proposing nothing proves nothing, and one proposing a move of another position is refused.
        assert!(!check(&g, &s, true, &mut |_| Vec::new()).verified);
        let mut later = g.start();
        g.play(&mut later, g.parse_move(&s, "a1a2").unwrap());
        let a4a3 = g.parse_move(&later, "a4a3").unwrap();
        g.play(&mut later, a4a3);
        let foreign = g.parse_move(&later, "a2b3").unwrap();
        let r = check(&g, &s, true, &mut |_| vec![foreign]);
        assert!(!r.verified && r.refuted_proposals >= 1);
    }

    /// The rules alone prove a win in one move, without asking the oracle; the position before it needs the oracle.
    #[test]
    fn wins_in_one_need_no_oracle() {
        let AnyGame::Breakthrough(g) = AnyGame::parse("breakthrough(rows=4,columns=3,piece_rows=1)").unwrap() else {
            unreachable!()
        };
        // White a1 runs to a3; Black's pieces are on the far side: a3a4 wins at once.
        let mut s = g.start();
        for mv in ["a1a2", "c4c3", "a2a3", "c3b2"] {
            let m = g.parse_move(&s, mv).unwrap();
            g.play(&mut s, m);
        }
        let mut asked = 0;
        let r = check(&g, &s, true, &mut |_| {
            asked += 1;
            Vec::new()
        });
        assert!(r.verified, "{r:?}");
        assert_eq!((asked, r.oracle_calls, r.immediate_wins, r.terminal_positions), (0, 0, 1, 1));
    }

    /// The memo is a cache: any size gives the same verdicts, a larger one walks no more positions, and a full one
    /// keeps the positions whose checks walked more.
    #[test]
    fn memo_size_changes_work_not_verdicts() {
        for text in ["breakthrough(rows=5,columns=4,piece_rows=1)", "breakthrough(rows=4,columns=4,piece_rows=1)"] {
            let AnyGame::Breakthrough(g) = AnyGame::parse(text).unwrap() else { unreachable!() };
            let s = g.start();
            let mut prev: Option<ProofCheck> = None;
            for mib in [0, 1, 64] {
                for win in [true, false] {
                    let r = check_with_progress(&g, &s, win, mib, &mut all_moves(&g), &mut |_| {});
                    if win {
                        if let Some(p) = &prev {
                            assert_eq!(r.verified, p.verified, "{text} {mib} MiB");
                            assert!(r.or_positions + r.and_positions <= p.or_positions + p.and_positions);
                        }
                        prev = Some(r);
                    } else {
                        // Both boards are first-player wins (solved.json): the loss claim fails at any size.
                        assert!(!r.verified, "{text} {mib} MiB");
                    }
                }
            }
        }
        let mut m: Memo<u64> = Memo::new(0);
        assert!(m.pairs >= 1 && m.get(&7).is_none());
        // Fill one pair with positions of 5 and 9 walked, then offer smaller and larger ones.
        let same_pair: Vec<u64> = (0u64..).filter(|x| m.pair(x) == m.pair(&0)).take(4).collect();
        m.put(&same_pair[0], true, 5);
        m.put(&same_pair[1], false, 9);
        assert_eq!((m.get(&same_pair[0]), m.get(&same_pair[1])), (Some(true), Some(false)));
        m.put(&same_pair[2], true, 3);
        assert_eq!((m.get(&same_pair[2]), m.refused), (None, 1));
        m.put(&same_pair[3], true, 7);
        assert_eq!((m.get(&same_pair[3]), m.get(&same_pair[0]), m.get(&same_pair[1])), (Some(true), None, Some(false)));
    }
}
