//! The knowledge rules at every node: a position decided (won, lost) or narrowed (a forced capture) without search.
//!
//! Side to move S, opponent O; "pre-goal row" = the row next to a side's goal. Under the normal rules only (misère and
//! forced captures are solved without knowledge). Rules 1 to 3 are the game's own (`games/breakthrough/knowledge.rs`,
//! shared with the engine: [`Game::outcome`], [`Breakthrough::wins_in_one`], [`Breakthrough::threats`]); rules 4 to 7
//! are this solver's. Checked in this order:
//! 1. the game is over: win or loss in 0 plies;
//! 2. S has a piece on its pre-goal row: **win in 1**;
//! 3. O has pieces on its pre-goal row ("threats"): two or more, or one that no S piece attacks: **loss in 2**; exactly
//!    one that S attacks: S **must capture it**, only those captures are searched (any other move loses in 2, and a
//!    capture never loses faster);
//! 4. S can move a piece onto its pre-goal row to a square no O piece attacks: **win in 3** (O cannot capture it and
//!    has no threat of its own). For the exact distance the solver first checks the rarer wins in 1 (capturing the last
//!    piece, leaving O without a move);
//! 5. **defended runner** (weak solving only): S has a piece on its pre-pre-goal row that can step to a square `x` of
//!    its pre-goal row attacked by `a >= 1` O pieces and defended by `d >= a` other S pieces. O cannot win before S's
//!    third move (no O piece on its pre-goal row, and every O move that does not capture on `x` lets S's piece reach
//!    the goal at once), so O must capture on `x`, S recaptures, and so on; the attackers of `x` stand on S's goal row,
//!    where O never returns, so after `a` exchanges nothing attacks `x` and S wins (in at most `2a + 3` plies; not
//!    necessarily the fastest win, hence weak only). Needs at least 4 rows (the two pre-goal rows differ);
//! 6. **threat sequences** (weak solving only, [`super::SolveOptions::threat_depth`] runner moves, 3 by default): S wins if
//!    some move of a piece from its pre-pre-goal row to a square `x` of its pre-goal row leaves `x` unattacked (or O
//!    without pieces), or if after each O capture on `x` (O's only moves that do not lose at once) S again has such a
//!    winning sequence one move shorter. O's captures land on its own second row, never on its pre-goal row, so O never
//!    gets a threat of its own along the way. Depth 3 contains rule 5 (a recapture is such a runner move);
//! 7. race tables ([`crate::games::breakthrough::race`], [`super::SolveOptions::race_rows`] rows), weak solving only.
//!
//! Rules 1 to 4 are exact for the distance as well; 5 to 7 only prove wins and losses.

use super::Solver;
use crate::game::Knowledge;
use crate::game::{Forced, Game, MoveList, Outcome, Side};
use crate::games::breakthrough::race::Race;
use crate::games::breakthrough::{Breakthrough, BtMove, BtState};

/// Quick verdicts of the knowledge rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Quick {
    Win(u32),
    Loss(u32),
    /// Only captures onto this square (its index) need searching.
    Defend(u32),
    /// Proven win or loss by the race table (weak: no distance).
    RaceWin,
    RaceLoss,
    /// A runner protected at least as often as attacked on the pre-goal row (weak: no distance).
    RunnerWin,
    /// A forcing sequence of runner moves wins (weak: no distance).
    ThreatWin,
    Open,
}

impl Solver<'_> {
    /// The rules' verdict on `s`; `weak`: rules 5 to 7 too (they prove a win or a loss, not its distance).
    #[inline]
    pub(super) fn quick(&self, s: &BtState, weak: bool) -> Quick {
        let g = self.g;
        if let Some(o) = g.outcome(s) {
            return if o == Outcome::Win { Quick::Win(0) } else { Quick::Loss(0) };
        }
        if !g.standard() {
            return Quick::Open;
        }
        // Rules 2 and 3: the game's knowledge.
        if g.wins_in_one(s) {
            return Quick::Win(1);
        }
        match g.threats(s) {
            Forced::Free => {}
            Forced::Lost => return Quick::Loss(2),
            Forced::Defend(target) => return Quick::Defend(target),
        }
        let me = s.stm;
        let (own, opp) = Breakthrough::own_opp(s);
        let runners = own & g.pre_pre_goal_row(me);
        if runners != 0 {
            let empty = g.board_mask() & !(own | opp);
            let landing = steps(g, me, runners, own, empty);
            if landing & !g.attacks(me.other(), opp) != 0 {
                return Quick::Win(3);
            }
            if weak && self.runner_rule && defended_runner(g, me, own, opp, runners) {
                return Quick::RunnerWin;
            }
            if weak && self.threat_rule && threat_win(g, me, own, opp, self.options.threat_depth) {
                return Quick::ThreatWin;
            }
        }
        if weak && self.race.is_some() {
            match self.race_only(s) {
                Some(Outcome::Win) => return Quick::RaceWin,
                Some(_) => return Quick::RaceLoss,
                None => {}
            }
        }
        Quick::Open
    }

    /// The moves of `s` worth searching after the verdict `q`: all of them, or under a threat only its captures.
    pub(super) fn moves(&self, s: &BtState, q: Quick, list: &mut MoveList<BtMove>) {
        self.g.generate_moves(s, list);
        if let Quick::Defend(target) = q {
            list.retain(|&mut m| self.g.defends(m, target));
        }
    }

    /// The knowledge rules' verdict on `s` as df-pn uses it (weak: rules 5 to 7 included): the outcome for
    /// the side to move and the name of the deciding rule, `None` when no rule decides.
    pub fn rule_verdict(&self, s: &BtState) -> Option<(Outcome, &'static str)> {
        match self.quick(s, true) {
            Quick::Win(0) => Some((Outcome::Win, "over")),
            Quick::Loss(0) => Some((Outcome::Loss, "over")),
            Quick::Win(1) => Some((Outcome::Win, "win in 1")),
            Quick::Loss(_) => Some((Outcome::Loss, "loss in 2")),
            Quick::Win(_) => Some((Outcome::Win, "win in 3")),
            Quick::RunnerWin => Some((Outcome::Win, "defended runner")),
            Quick::ThreatWin => Some((Outcome::Win, "threat sequence")),
            Quick::RaceWin => Some((Outcome::Win, "race")),
            Quick::RaceLoss => Some((Outcome::Loss, "race")),
            Quick::Defend(_) | Quick::Open => None,
        }
    }

    /// The race tables' verdict alone on `s` (side to move's view), `None` when they say nothing or are absent.
    pub fn race_verdict(&self, s: &BtState) -> Option<Outcome> {
        if !self.g.standard() || self.g.outcome(s).is_some() {
            return None;
        }
        self.race_only(s)
    }

    fn race_only(&self, s: &BtState) -> Option<Outcome> {
        match self.race.as_ref()?.verdict(self.g, s)? {
            Race::Win(_) => Some(Outcome::Win),
            Race::Loss(_) => Some(Outcome::Loss),
        }
    }
}

/// The squares the pieces `r` of `me` can move to: straight forward onto an empty square, diagonally forward onto
/// any square without an own piece.
#[inline(always)]
fn steps(g: &Breakthrough, me: Side, r: u64, own: u64, empty: u64) -> u64 {
    let c = g.columns;
    let fwd = match me {
        Side::First => (r << c) & empty,
        Side::Second => (r >> c) & empty,
    };
    fwd | (g.attacks(me, r) & !own)
}

/// Rule 5 (weak): a runner of `me` on its pre-pre-goal row can step to a square `x` of the pre-goal row that
/// `a >= 1` opponent pieces attack and `d >= a` other own pieces defend. Called only when the side to move has no
/// piece on its pre-goal row, the opponent none on its own, and no runner has an unattacked landing square.
fn defended_runner(g: &Breakthrough, me: Side, own: u64, opp: u64, runners: u64) -> bool {
    let empty = g.board_mask() & !(own | opp);
    let mut rs = runners;
    while rs != 0 {
        let r = rs & rs.wrapping_neg();
        rs &= rs - 1;
        let mut xs = steps(g, me, r, own, empty);
        let rest = own & !r;
        while xs != 0 {
            let x = xs & xs.wrapping_neg();
            xs &= xs - 1;
            // A square is attacked by at most two pieces of a side (its two diagonals behind it), so `d >= a >= 1`
            // is: some defender, and two of them when there are two attackers (no popcount needed).
            let attackers = g.attacks(me, x) & opp;
            let defenders = g.attacks(me.other(), x) & rest;
            let two = |b: u64| b & b.wrapping_sub(1) != 0;
            if attackers != 0 && defenders != 0 && (!two(attackers) || two(defenders)) {
                return true;
            }
        }
    }
    false
}

/// Rule 6 (weak): `me` (to move, no piece on its pre-goal row; the opponent none on its own) wins by at most
/// `depth` runner moves onto its pre-goal row: some move of a piece from the pre-pre-goal row to a square `x` of the
/// pre-goal row such that either nothing attacks `x` (or the opponent has no piece left), or after every capture
/// on `x` (the opponent's only moves that do not lose at once) the same holds with `depth - 1`. The opponent's
/// captures land on its second row, never on its pre-goal row, so it never gets a threat of its own.
fn threat_win(g: &Breakthrough, me: Side, own: u64, opp: u64, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    let empty = g.board_mask() & !(own | opp);
    let mut rs = own & g.pre_pre_goal_row(me);
    while rs != 0 {
        let r = rs & rs.wrapping_neg();
        rs &= rs - 1;
        let mut xs = steps(g, me, r, own, empty);
        while xs != 0 {
            let x = xs & xs.wrapping_neg();
            xs &= xs - 1;
            let own1 = own ^ r ^ x;
            let opp1 = opp & !x;
            let mut att = g.attacks(me, x) & opp1;
            if opp1 == 0 || att == 0 {
                return true;
            }
            if depth == 1 {
                continue;
            }
            let own2 = own1 & !x;
            if own2 == 0 {
                continue;
            }
            let mut all = true;
            while att != 0 {
                let a = att & att.wrapping_neg();
                att &= att - 1;
                if !threat_win(g, me, own2, opp1 ^ a ^ x, depth - 1) {
                    all = false;
                    break;
                }
            }
            if all {
                return true;
            }
        }
    }
    false
}
