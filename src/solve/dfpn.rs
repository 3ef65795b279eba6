//! Depth-first proof-number search (df-pn, Nagai 2002) for every game: weak solutions (win / draw / loss).
//!
//! One df-pn run proves or disproves a *goal* for the root player R (the side to move at the root). Every node is
//! seen from its side to move: `pn` = cost to prove that the side to move reaches its goal, `dn` = cost to disprove it.
//! The goal of R is "win" in the first run and "not lose" in the second; the opponent's goal is the complement (in
//! the first run a draw is a success for the opponent, in the second a failure). So a terminal draw is (0, ∞) or
//! (∞, 0) depending on the run and on who is to move there.
//!
//! ```text
//! value of a terminal for its side to move P:  goal reached → (pn, dn) = (0, ∞), else (∞, 0)
//! node: pn = min over children of child.dn           dn = Σ over children of child.pn   (saturating at ∞)
//! mid(n, thpn, thdn):                                 -- "multiple iterative deepening" at one node
//!     children values: the table's, else a terminal's, else (1, number of the child's moves)   -- df-pn+ style
//!     loop:
//!         pn, dn := as above;  if pn >= thpn or dn >= thdn or out of budget: break
//!         c1 := the child with the smallest dn;  dn2 := the second smallest dn (∞ if none)
//!         (c1.pn, c1.dn) := mid(c1, thdn - dn + c1.pn, min(thpn, dn2 · (1 + ε) + 1))     -- 1+ε: ε = 1/4
//!     store (pn, dn) of n in the table (replacing the entry with the least work in its bucket)
//!     return (pn, dn)
//! run(goal): mid(root, ∞ - 1, ∞ - 1)                 -- ends with pn = 0 (proved) or dn = 0 (disproved)
//!
//! solve(root):
//!     win-run := run(R wins; a draw counts as a failure for R)
//!     proved:                      win
//!     disproved, no draw was seen: loss (the disproof used no draw, so it holds for "not lose" too)
//!     otherwise: run(R does not lose; a draw counts as a success for R): proved → draw, disproved → loss
//! ```
//!
//! The table (key, pn, dn, work) has buckets of four 24-byte entries in `tt_mib` MiB; proven and disproven entries are
//! kept like the others (by work). Games are assumed to have no repeated positions along a line (every game of the
//! registry), so there is no graph-history interaction; transpositions may only overestimate proof numbers.
//! A node limit (`max_nodes`) stops the search unsolved. The recursion goes at most `max_ply` plies deep, from the
//! stack the caller runs it on (1 MiB of a thread's 2 MiB unless [`Dfpn::with_stack`] says more; each ply holds its
//! children's states):
//! a node at that depth is left unknown, (∞, ∞), which neither proves nor disproves anything above it (a line deeper
//! than that is not solved; it used to overflow the stack, e.g. `pns(budget=2000)` on Oware in a match thread). Breakthrough keeps its specialised solver
//! ([`super::breakthrough`]); this one is generic and knows nothing of any game.

use std::time::Instant;

use arrayvec::ArrayVec;

use crate::game::{FullGame, MAX_MOVES, MoveList, Outcome};

/// "Infinite" proof or disproof number.
pub(crate) const INF: u32 = u32::MAX / 2;

/// The loop of `mid` at one node (Nagai's multiple iterative deepening), the one of this solver and of the threat
/// solver ([`super::threats`]). `kids` holds each child's state and (pn, dn), seen from the child's side to move. While
/// the node's numbers (pn = min child dn, dn = Σ child pn) stay under `(thpn, thdn)`, there is a child and `stop` says
/// go on, the child with the smallest dn is searched again by `mid` with the thresholds of the module doc (1 + ε:
/// ε = 1/4) and its numbers replaced. Returns the node's (pn, dn). `ctx` is the search, lent to `stop` and `mid` in
/// turn (`stop` is asked only when the thresholds and the children would go on).
pub(crate) fn mid_loop<C: ?Sized, S: Copy>(
    ctx: &mut C,
    kids: &mut [(S, u32, u32)],
    (thpn, thdn): (u32, u32),
    mut stop: impl FnMut(&mut C) -> bool,
    mut mid: impl FnMut(&mut C, &S, u32, u32) -> (u32, u32),
) -> (u32, u32) {
    loop {
        let mut pn = INF;
        let mut dn = 0u32;
        let (mut i1, mut dn1, mut dn2) = (usize::MAX, INF, INF);
        for (i, k) in kids.iter().enumerate() {
            pn = pn.min(k.2);
            dn = dn.saturating_add(k.1).min(INF);
            if k.2 < dn1 {
                dn2 = dn1;
                dn1 = k.2;
                i1 = i;
            } else if k.2 < dn2 {
                dn2 = k.2;
            }
        }
        if pn >= thpn || dn >= thdn || i1 == usize::MAX || stop(ctx) {
            return (pn, dn);
        }
        let (c, cpn, _) = kids[i1];
        let child_thpn = (thdn - dn).saturating_add(cpn).min(INF - 1);
        let child_thdn = thpn.min(dn2.saturating_add(dn2 / 4).saturating_add(1)).min(INF - 1);
        let (npn, ndn) = mid(ctx, &c, child_thpn, child_thdn);
        kids[i1].1 = npn;
        kids[i1].2 = ndn;
    }
}

#[derive(Copy, Clone, Default)]
struct Slot {
    key: u64,
    pn: u32,
    dn: u32,
    work: u64,
}

// SAFETY: integers only; all zeros is the empty slot (`Slot::default()`).
unsafe impl crate::limits::Zeroable for Slot {}

/// The df-pn table: `2^k` buckets of four slots.
struct Table {
    slots: Vec<Slot>,
    mask: usize,
}

const WAYS: usize = 4;

impl Table {
    fn new(mib: usize) -> Table {
        let slots = (mib.max(1) << 20) / std::mem::size_of::<Slot>();
        let buckets = (slots / WAYS).max(1).next_power_of_two() / 2;
        let buckets = buckets.max(1);
        // Zeroed, so the system backs the pages as they are written (the caller checked the size against the memory).
        let slots = crate::limits::lazy_table(buckets * WAYS, WAYS);
        Table { mask: slots.len() / WAYS - 1, slots }
    }

    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * WAYS
    }

    fn get(&self, key: u64) -> Option<(u32, u32)> {
        let b = self.bucket(key);
        self.slots[b..b + WAYS].iter().find(|s| s.key == key && (s.pn, s.dn) != (0, 0)).map(|s| (s.pn, s.dn))
    }

    fn put(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        let b = self.bucket(key);
        let bucket = &mut self.slots[b..b + WAYS];
        let i = bucket
            .iter()
            .position(|s| s.key == key)
            .or_else(|| bucket.iter().position(|s| (s.pn, s.dn) == (0, 0)))
            .unwrap_or_else(|| (0..WAYS).min_by_key(|&i| bucket[i].work).unwrap_or(0));
        bucket[i] = Slot { key, pn, dn, work };
    }
}

/// The result of a df-pn solve.
#[derive(Clone, Debug, PartialEq)]
pub struct DfpnResult<M> {
    /// `Win`, `Draw` or `Loss` for the side to move; `None` when the node limit stopped the search.
    pub outcome: Option<Outcome>,
    /// A move that achieves the outcome (win or draw); `None` for a loss or an unsolved position.
    pub best_move: Option<M>,
    /// Nodes expanded (calls of `mid`), over both runs.
    pub nodes: u64,
    /// Number of df-pn runs (1, or 2 when the "not lose" run was needed).
    pub runs: u32,
    pub seconds: f64,
}

/// The generic df-pn solver.
pub struct Dfpn<G: FullGame> {
    table: Table,
    mib: usize,
    nodes: u64,
    max_nodes: u64,
    /// Second run: a draw is a success for the root player.
    draw_ok_for_root: bool,
    root_player: crate::game::Side,
    saw_draw: bool,
    /// The table holds values of a previous run.
    dirty: bool,
    /// Deepest ply of the recursion (from the stack it runs on).
    max_ply: u32,
    /// Raised from outside (a page that cancels its request): the search stops unsolved, as at the node limit.
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    _g: std::marker::PhantomData<G>,
}

impl<G: FullGame> Dfpn<G> {
    /// A solver with a table of `tt_mib` MiB and an optional limit of expanded nodes.
    pub fn new(tt_mib: usize, max_nodes: Option<u64>) -> Self {
        Dfpn {
            table: Table::new(tt_mib),
            mib: tt_mib,
            nodes: 0,
            max_nodes: max_nodes.unwrap_or(u64::MAX),
            draw_ok_for_root: false,
            root_player: crate::game::Side::First,
            saw_draw: false,
            dirty: false,
            max_ply: Self::max_ply_for(1 << 20),
            stop: None,
            _g: std::marker::PhantomData,
        }
    }

    /// The deepest ply a recursion on `stack` bytes can take: each ply holds the children (`MAX_MOVES` states and their
    /// numbers) and a move list, counted twice (copies the compiler makes, debug builds' larger frames).
    pub(crate) fn max_ply_for(stack: usize) -> u32 {
        let frame = MAX_MOVES * std::mem::size_of::<(G::State, u32, u32)>() + std::mem::size_of::<MoveList<G::Move>>();
        (stack / (2 * frame + 1024)).clamp(4, u32::MAX as usize) as u32
    }

    /// For a caller that runs the search on a thread of `stack` bytes (instead of the 2 MiB assumed).
    pub(crate) fn with_stack(mut self, stack: usize) -> Self {
        self.max_ply = Self::max_ply_for(stack);
        self
    }

    /// Stop unsolved (as at the node limit) once `flag` is raised; it is looked at every 1,024 expansions.
    // Used by the web server only (src/server/): unused in a build without the `server` feature.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    pub(crate) fn with_stop(mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Weakly solve `state` (see the module doc).
    pub fn solve(&mut self, game: &G, state: &G::State) -> DfpnResult<G::Move> {
        let start = Instant::now();
        self.nodes = 0;
        self.root_player = game.side_to_move(state);
        let mut result = DfpnResult { outcome: None, best_move: None, nodes: 0, runs: 1, seconds: 0.0 };
        if let Some(o) = game.outcome(state) {
            result.outcome = Some(o);
            return result;
        }
        let (pn, dn, mv) = self.run(game, state, false);
        if pn == 0 {
            result.outcome = Some(Outcome::Win);
            result.best_move = mv;
        } else if dn == 0 && !self.saw_draw {
            result.outcome = Some(Outcome::Loss);
        } else if dn == 0 {
            result.runs = 2;
            let (pn, dn, mv) = self.run(game, state, true);
            if pn == 0 {
                result.outcome = Some(Outcome::Draw);
                result.best_move = mv;
            } else if dn == 0 {
                result.outcome = Some(Outcome::Loss);
            }
        }
        result.nodes = self.nodes;
        result.seconds = start.elapsed().as_secs_f64();
        result
    }

    /// One df-pn run from a fresh table; returns the root's (pn, dn) and a proving move.
    fn run(&mut self, game: &G, state: &G::State, draw_ok_for_root: bool) -> (u32, u32, Option<G::Move>) {
        if self.dirty {
            self.table = Table::new(self.mib);
        }
        self.dirty = true;
        self.draw_ok_for_root = draw_ok_for_root;
        self.saw_draw = false;
        let (pn, dn) = self.mid(game, state, INF - 1, INF - 1, 0);
        let mut best = None;
        if pn == 0 {
            let mut moves = MoveList::new();
            game.generate_moves(state, &mut moves);
            let child = |m: G::Move| {
                let mut c = *state;
                game.play(&mut c, m);
                c
            };
            best = moves.iter().copied().find(|&m| self.child_value(game, &child(m)).1 == 0);
            // The proving child's entry may have been replaced: prove it again (the rest of the table helps).
            if best.is_none() {
                best = moves.iter().copied().find(|&m| {
                    let c = child(m);
                    !game.is_terminal(&c) && self.mid(game, &c, INF - 1, INF - 1, 1).1 == 0
                });
            }
        }
        (pn, dn, best)
    }

    /// A terminal's (pn, dn) for its side to move, `None` when the game goes on.
    fn terminal(&mut self, game: &G, s: &G::State) -> Option<(u32, u32)> {
        let o = game.outcome(s)?;
        let success = match o {
            Outcome::Win => true,
            Outcome::Loss => false,
            Outcome::Value(v) => v > 0,
            Outcome::Draw => {
                self.saw_draw = true;
                (game.side_to_move(s) == self.root_player) == self.draw_ok_for_root
            }
        };
        Some(if success { (0, INF) } else { (INF, 0) })
    }

    fn child_value(&mut self, game: &G, c: &G::State) -> (u32, u32) {
        if let Some(v) = self.terminal(game, c) {
            return v;
        }
        // df-pn+ style initial values: one move may prove the child's goal, all of its moves must be refuted to
        // disprove it (mobility).
        self.table.get(game.key(c)).unwrap_or_else(|| (1, (game.count_moves(c) as u32).max(1)))
    }

    fn mid(&mut self, game: &G, s: &G::State, thpn: u32, thdn: u32, ply: u32) -> (u32, u32) {
        self.nodes += 1;
        if self.nodes & 0x3FF == 0 && self.stop.as_ref().is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed)) {
            self.max_nodes = 0; // stopped from outside: every loop ends as at the node limit
        }
        if ply >= self.max_ply {
            return (INF, INF); // too deep for the stack: unknown, and never chosen again by the parent
        }
        let nodes_before = self.nodes;
        let mut moves = MoveList::new();
        game.generate_moves(s, &mut moves);
        // A position with no move and no outcome: a loss for the side to move (never happens in the registry).
        let mut kids: ArrayVec<(G::State, u32, u32), MAX_MOVES> = ArrayVec::new();
        for &m in &moves {
            let mut c = *s;
            game.play(&mut c, m);
            let (pn, dn) = self.child_value(game, &c);
            kids.push((c, pn, dn));
        }
        let (pn, dn) = mid_loop(
            self,
            &mut kids,
            (thpn, thdn),
            |me| me.nodes >= me.max_nodes,
            |me, c, child_thpn, child_thdn| me.mid(game, c, child_thpn, child_thdn, ply + 1),
        );
        self.table.put(game.key(s), pn, dn, self.nodes - nodes_before + 1);
        (pn, dn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::{Breakthrough, ConnectFour, Marbles, TicTacToe};
    use crate::solve::GenericSolver;
    use crate::spec::Spec;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    fn parse<G>(text: &str, f: fn(&Spec) -> Result<G, crate::game::GameError>) -> G {
        f(&Spec::parse(text).unwrap()).unwrap()
    }

    /// df-pn and the weak alpha-beta solver agree on `n` random positions reached by up to `plies` random moves.
    fn agree<G: FullGame>(g: &G, n: usize, plies: u32, seed: u64) -> usize {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut ab = GenericSolver::<G>::new(8, true);
        let mut solved = 0;
        for i in 0..n {
            let mut s = g.start();
            let want = i as u32 % (plies + 1);
            for _ in 0..want {
                match g.random_move(&s, &mut rng) {
                    Some(m) if !g.is_terminal(&s) => g.play(&mut s, m),
                    _ => break,
                }
            }
            if g.is_terminal(&s) {
                continue;
            }
            let r = Dfpn::<G>::new(4, None).solve(g, &s);
            let expected = ab.solve(g, &s);
            assert_eq!(r.outcome, Some(expected.outcome), "{}", g.format_position(&s));
            if let Some(m) = r.best_move {
                // The proving move keeps the value.
                let mut c = s;
                g.play(&mut c, m);
                let child = match g.outcome(&c) {
                    Some(o) => o,
                    None => ab.solve(g, &c).outcome,
                };
                assert_eq!(child.flip(), expected.outcome, "{} after {m:?}", g.format_position(&s));
            } else {
                assert_eq!(expected.outcome, Outcome::Loss);
            }
            solved += 1;
        }
        solved
    }

    #[test]
    fn tic_tac_toe_is_a_draw_and_positions_agree() {
        let g = TicTacToe;
        let r = Dfpn::<TicTacToe>::new(4, None).solve(&g, &g.start());
        assert_eq!(r.outcome, Some(Outcome::Draw));
        assert_eq!(r.runs, 2);
        assert!(agree(&g, 60, 6, 1) > 40);
    }

    #[test]
    fn marbles_loses_exactly_when_n_is_a_multiple_of_k_plus_1() {
        for misere in [false, true] {
            for k in 1..=4u32 {
                for n in 1..=20u32 {
                    let text = format!("marbles(n={n},k={k},misere={misere})");
                    let g = parse(&text, Marbles::from_spec);
                    let r = Dfpn::<Marbles>::new(1, None).solve(&g, &g.start());
                    let lost = if misere { n % (k + 1) == 1 } else { n % (k + 1) == 0 };
                    let want = if lost { Outcome::Loss } else { Outcome::Win };
                    assert_eq!(r.outcome, Some(want), "{text}");
                }
            }
        }
    }

    #[test]
    fn small_connect_four_boards_agree() {
        for text in
            ["connect_four(rows=4,columns=4)", "connect_four(rows=4,columns=5)", "connect_four(rows=5,columns=4)"]
        {
            let g = parse(text, ConnectFour::from_spec);
            assert!(agree(&g, 12, 8, 7) > 6, "{text}");
        }
    }

    #[test]
    fn small_breakthrough_boards_agree() {
        for text in [
            "breakthrough(rows=4,columns=3,piece_rows=1)",
            "breakthrough(rows=4,columns=4,piece_rows=1)",
            "breakthrough(rows=5,columns=3)",
            "breakthrough(rows=5,columns=4,piece_rows=1)",
        ] {
            let g = parse(text, Breakthrough::from_spec);
            assert!(agree(&g, 8, 6, 3) > 4, "{text}");
        }
        // 4x4 with one row: the first player wins (reference: solved.json), and so does df-pn's proving move.
        let g = parse("breakthrough(rows=4,columns=4,piece_rows=1)", Breakthrough::from_spec);
        let r = Dfpn::<Breakthrough>::new(4, None).solve(&g, &g.start());
        assert_eq!(r.outcome, Some(Outcome::Win));
        let m = g.format_move(&g.start(), r.best_move.unwrap());
        assert!(m == "a1a2" || m == "d1d2", "{m}");
    }

    #[test]
    fn node_limit_stops_unsolved() {
        let g = parse("breakthrough(rows=5,columns=4,piece_rows=1)", Breakthrough::from_spec);
        let r = Dfpn::<Breakthrough>::new(1, Some(50)).solve(&g, &g.start());
        assert_eq!(r.outcome, None);
        assert!(r.nodes <= 60);
    }
}
