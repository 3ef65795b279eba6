//! The solver's switches: each idea of the search can be turned off (or, when it did not pay, on), so that the
//! measurements of `docs/solving.md` (Connect Four) compare the two in one process.

use crate::games::connect_four::Shape;

use super::super::claimeven::Claimeven;
use super::Solver;

impl<S: Shape> Solver<S> {
    /// Store positions with fewer than `stones` stones under their mirror-canonical key. Public on purpose, like the
    /// next two switches: the measurements of `docs/solving.md` (Connect Four) turn them on and off.
    pub fn set_symmetry_below(&mut self, stones: u32) {
        self.symmetry_below = stones;
    }

    /// Probe the children in the table before searching them at nodes with fewer than `stones` stones.
    pub fn set_etc_below(&mut self, stones: u32) {
        self.etc_below = stones;
    }

    /// Switch the double-threat detection on or off (on by default).
    pub fn set_double_threat(&mut self, on: bool) {
        self.double_threat = on;
    }

    /// Switch the claimeven bound on or off (on by default; boards with an odd number of rows never use it).
    pub fn set_claimeven(&mut self, on: bool) {
        self.claimeven = if on { Claimeven::new(&self.g) } else { None };
    }

    /// Static pre-check of the children before any is entered (on by default): a move after which the opponent has
    /// no safe reply (two playable threats, a playable threat under another, or every playable cell under a threat)
    /// wins with the next stone; children whose stored lower bound shows they cannot raise α are not searched (where
    /// the children are probed, [`Solver::set_etc_below`]).
    pub fn set_precheck(&mut self, on: bool) {
        self.precheck = on;
    }

    /// When the opponent has a single safe reply in a child, play it at once and search the grandchild instead of
    /// the child (no node, table probe or entry for the child). On by default.
    pub fn set_forced_through(&mut self, on: bool) {
        self.forced_through = on;
    }

    /// With [`Solver::set_forced_through`]: go on playing while the side to move has a single safe move, whichever
    /// side it is, and search the position where the chain ends. On by default.
    pub fn set_forced_chains(&mut self, on: bool) {
        self.forced_chains = on;
    }

    /// With the pre-check: when no move wins with our next stone, none wins with the one after either, so β drops
    /// to the score of a win with our third stone. On by default.
    pub fn set_later_win_bound(&mut self, on: bool) {
        self.later_win_bound = on;
    }

    /// Order moves by useful threats weighted by how soon they become playable, the table's move a bonus (on by
    /// default); off: the table's move first, then by the number of threats created.
    pub fn set_threat_ordering(&mut self, on: bool) {
        self.threat_ordering = on;
    }

    /// Choose each null window from the previous probe's result (Steininger's sequence): the first tests "at least
    /// the middle of the range", each next one "at least r + 1" after a probe that returned r >= its window, "at
    /// least r" after one that returned less. On by default (since 2026-11-30): fewer nodes and less CPU on the
    /// empty board and on Middle-Medium, more nodes on Begin-Medium and Begin-Hard at the same CPU in release builds
    /// (`docs/solving.md`, "Speed against Steininger's solver"); off: the middle of the range pulled towards 0.
    pub fn set_guided_probes(&mut self, on: bool) {
        self.guided_probes = on;
    }

    /// Prefetch a node's table entry before its bounds are computed, and, before its moves are probed or searched,
    /// the entries of the positions searched for them (on by default; the same tree: only the time changes).
    pub fn set_prefetch(&mut self, on: bool) {
        self.prefetch = on;
    }
}
