//! What Breakthrough tells a search without searching: written once here, used by the engine (through the knowledge
//! methods of [`Game`]), the df-pn solver and the arena.
//!
//! Side to move S, opponent O; a side's "pre-goal row" is the row next to its goal. Under the normal rules (not misère,
//! captures not forced):
//! 1. S has a piece on its pre-goal row: S **wins in 1** (such a piece always has a move onto the goal row: its
//!    diagonal there never holds an own piece, and a blocked straight step leaves a capture);
//! 2. O has pieces on its pre-goal row ("threats"): two or more, or one that no S piece attacks: S **loses in 2**;
//!    exactly one that S attacks: S **must capture it** (every other move loses at once);
//! 3. a **won race** (adjudication): some piece of S has a free path and no O piece can reach it in time, and O is not
//!    faster (see [`Breakthrough::won_race`]);
//! 4. race endgame tables ([`super::race`]) of the last 3 rows on boards of at most 5 columns prove wins and losses
//!    with an upper bound on their length.
//!
//! Move classes hold for every variant (a move onto the goal row wins except in misère); the null move (S passes) is
//! always expressible.

use std::sync::OnceLock;

use crate::game::{Forced, Game, MoveClass, Outcome, Side, zobrist};

use super::race::{MAX_ENTRIES, Race, RaceTable};
use super::{Breakthrough, BtMove, BtState};

/// Rows of the region the endgame tables cover.
pub(crate) const RACE_ROWS: u32 = 3;

/// Largest endgame table (entries per side to move) built for a search: 5 columns (2^5 * 3^10 = 1,889,568 entries,
/// well under a second); 6 columns take about 3 s, 8x8 would need 2^8 * 3^16 = 11e9 entries.
pub(crate) const AUTO_ENTRIES: u64 = 1 << 21;

/// One endgame table per board width (2..=16 columns), built on first use; `None` where it does not fit.
static TABLES: [OnceLock<Option<RaceTable>>; 17] = [const { OnceLock::new() }; 17];

impl Breakthrough {
    /// The normal rules: reaching the goal wins and captures are optional (the knowledge rules hold).
    #[inline(always)]
    pub fn standard(&self) -> bool {
        !self.misere && !self.forced_captures
    }

    /// The row next to `side`'s goal.
    #[inline(always)]
    pub(crate) fn pre_goal_row(&self, side: Side) -> u64 {
        self.pre_goal[side.index()]
    }

    /// The row before `side`'s pre-goal row: a piece there is one step from a threat (a "runner" once it can step
    /// onto the pre-goal row). On a 3-row board it is `side`'s home row.
    #[inline(always)]
    pub(crate) fn pre_pre_goal_row(&self, side: Side) -> u64 {
        self.pre_pre_goal[side.index()]
    }

    /// Squares `side`'s pieces `p` attack (diagonally forward).
    #[inline(always)]
    pub(crate) fn attacks(&self, side: Side, p: u64) -> u64 {
        let c = self.columns;
        let (nf, nl) = (self.not_first_file, self.not_last_file);
        match side {
            Side::First => (((p & nf) << (c - 1)) | ((p & nl) << (c + 1))) & self.board,
            Side::Second => ((p & nf) >> (c + 1)) | ((p & nl) >> (c - 1)),
        }
    }

    /// Rule 1: the side to move wins with its next move (normal rules only).
    #[inline]
    pub(crate) fn wins_in_one(&self, s: &BtState) -> bool {
        let (own, _) = Self::sides(s);
        self.standard() && own & self.pre_goal_row(s.stm) != 0
    }

    /// Rule 2: the opponent's threats and what they force (normal rules only).
    #[inline]
    pub fn threats(&self, s: &BtState) -> Forced {
        if !self.standard() {
            return Forced::Free;
        }
        let (own, opp) = Self::sides(s);
        let threats = opp & self.pre_goal_row(s.stm.other());
        if threats == 0 {
            Forced::Free
        } else if threats.count_ones() >= 2 || self.attacks(s.stm, own) & threats == 0 {
            Forced::Lost
        } else {
            Forced::Defend(threats.trailing_zeros())
        }
    }

    /// The class of move `m`: onto the goal row (a win, except in misère), onto the pre-goal row (a threat), a
    /// capture, or quiet.
    #[inline]
    pub(crate) fn classify(&self, s: &BtState, m: BtMove) -> MoveClass {
        let to = 1u64 << m.to;
        if !self.misere && to & self.goal_row(s.stm) != 0 {
            return MoveClass::Win;
        }
        if to & self.pre_goal_row(s.stm) != 0 {
            return MoveClass::Threat;
        }
        let (_, opp) = Self::sides(s);
        if to & opp != 0 { MoveClass::Capture } else { MoveClass::Quiet }
    }

    /// The state after the side to move passes.
    #[inline]
    pub fn pass(&self, s: &BtState) -> BtState {
        let mut n = *s;
        n.stm = n.stm.other();
        n.key ^= zobrist::key(zobrist::SIDE);
        n
    }

    /// Rule 3, for the side to move S (normal rules only):
    ///
    /// ```text
    /// S wins if some piece p of S, d rows from its goal row, has
    ///   1. its file empty (of any piece) between it and the goal row, and
    ///   2. no enemy piece e in front of it with |file(e) - file(p)| <= rows between them + 1, and
    ///   3. d <= the distance of the enemy's most advanced piece to its own goal row.
    /// ```
    ///
    /// Why it is sound: p walks straight ahead, one row per move. An enemy piece can only stop it by standing on the
    /// square in front of it or diagonally in front of it; a piece that starts k rows ahead meets p after at most k/2
    /// moves and can change file by one per move, so it must start inside the cone of condition 2. No other enemy
    /// piece can interact with p, and since S moves first and arrives in d moves, an enemy needing d moves or more
    /// arrives later.
    pub(crate) fn won_race(&self, s: &BtState) -> bool {
        if !self.standard() || self.outcome(s).is_some() {
            return false;
        }
        let (rows, cols) = (self.rows as i32, self.columns as i32);
        let up = s.stm == Side::First;
        let (own, opp) = Self::sides(s);
        // Distance of a piece on `row` to its goal: own pieces towards the far row, enemy pieces the other way.
        let own_dist = |row: i32| if up { rows - 1 - row } else { row };
        let opp_dist = |row: i32| if up { row } else { rows - 1 - row };
        let squares = |bb: u64| (0..64).filter(move |i| bb & (1u64 << i) != 0).map(move |i| (i / cols, i % cols));
        let Some(opp_best) = squares(opp).map(|(r, _)| opp_dist(r)).min() else { return true };
        let occupied = own | opp;
        'pieces: for (r, c) in squares(own) {
            let d = own_dist(r);
            if d > opp_best || d <= 0 {
                continue;
            }
            for k in 1..=d {
                let rr = if up { r + k } else { r - k };
                if occupied & (1u64 << (rr * cols + c)) != 0 {
                    continue 'pieces;
                }
            }
            for (er, ec) in squares(opp) {
                let ahead = if up { er - r } else { r - er };
                if ahead > 0 && (ec - c).abs() <= ahead + 1 {
                    continue 'pieces;
                }
            }
            return true;
        }
        false
    }

    /// The endgame table of this board's width, if the rules and the size allow one and it was built.
    #[inline]
    fn endgame_table(&self) -> Option<&'static RaceTable> {
        if !self.standard() || self.rows <= RACE_ROWS {
            return None;
        }
        TABLES.get(self.columns as usize)?.get()?.as_ref()
    }

    /// Build the endgame table of this board's width once per process, when it is small enough.
    pub(crate) fn build_endgame_table(&self) {
        let c = self.columns;
        if !self.standard() || !(2..=16).contains(&c) || self.rows <= RACE_ROWS {
            return;
        }
        TABLES[c as usize].get_or_init(|| {
            if RaceTable::entries(c, RACE_ROWS) > AUTO_ENTRIES.min(MAX_ENTRIES) {
                return None;
            }
            RaceTable::build(c, RACE_ROWS).ok()
        });
    }

    /// Rule 4: the endgame table's verdict for the side to move, with an upper bound on the plies to the end.
    #[inline]
    pub(crate) fn endgame_verdict(&self, s: &BtState) -> Option<(Outcome, u32)> {
        Some(match self.endgame_table()?.verdict(self, s)? {
            Race::Win(p) => (Outcome::Win, p),
            Race::Loss(p) => (Outcome::Loss, p),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Capabilities;
    use crate::game::Knowledge;

    #[test]
    fn threats_and_wins() {
        let g = Breakthrough::default();
        // White on b7 threatens a8/b8/c8; Black to move can capture it from a8 or c8.
        let s = g.parse_position("p1p5/1P6/8/8/8/8/8/7P b").unwrap();
        assert_eq!(g.forced(&s), Forced::Defend(49));
        assert!(!g.has_winning_move(&s));
        let w = g.parse_position("p1p5/1P6/8/8/8/8/8/7P w").unwrap();
        assert!(g.has_winning_move(&w));
        let mut moves = crate::game::MoveList::new();
        g.generate_moves(&w, &mut moves);
        let wins = moves.iter().filter(|&&m| g.move_class(&w, m) == MoveClass::Win).count();
        assert_eq!(wins, 3, "b7a8 and b7c8 capture into the goal, b7b8 walks in");
        // Two white threats: lost for Black.
        let two = g.parse_position("p7/1P4P1/8/8/8/8/8/8 b").unwrap();
        assert_eq!(g.forced(&two), Forced::Lost);
        // A black threat seen from White's side.
        let b = g.parse_position("8/8/8/8/8/8/3p4/2P5 w").unwrap();
        assert_eq!(g.forced(&b), Forced::Defend(11));
        let n = g.null_move(&b).unwrap();
        assert_eq!(n.stm, Side::Second);
        assert_eq!(g.compute_key(&n), n.key);
        // The capture answers the threat, the other move does not.
        let c2d2 = g.parse_move(&b, "c1d2").unwrap();
        assert!(g.defends(c2d2, 11));
        assert!(!g.defends(g.parse_move(&b, "c1c2").unwrap(), 11));
    }

    #[test]
    fn misere_has_no_shortcuts() {
        let g = Breakthrough::new(8, 8, 2, true, false).unwrap();
        let w = g.parse_position("p1p5/1P6/8/8/8/8/8/7P w").unwrap();
        assert!(!g.has_winning_move(&w));
        assert_eq!(g.forced(&g.parse_position("p7/1P4P1/8/8/8/8/8/8 b").unwrap()), Forced::Free);
    }

    #[test]
    fn every_threat_the_rules_see_is_known() {
        // Rules 1 and 2 against the move generator, on random positions of several boards: a win in 1 exists exactly
        // when some move reaches the goal, and the forced answer is exactly the set of moves after which the
        // opponent cannot win at once.
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for g in [Breakthrough::default(), Breakthrough::new(6, 5, 2, false, false).unwrap()] {
            for _ in 0..300 {
                let mut s = g.start();
                while g.outcome(&s).is_none() {
                    let mut moves = crate::game::MoveList::new();
                    g.generate_moves(&s, &mut moves);
                    let wins_now = moves.iter().any(|&m| {
                        let mut c = s;
                        g.play(&mut c, m);
                        g.outcome(&c) == Some(Outcome::Loss)
                    });
                    assert_eq!(g.has_winning_move(&s), wins_now, "{}", g.format_position(&s));
                    if !wins_now {
                        let safe: Vec<BtMove> = moves
                            .iter()
                            .copied()
                            .filter(|&m| {
                                let mut c = s;
                                g.play(&mut c, m);
                                g.outcome(&c).is_some() || !g.has_winning_move(&c)
                            })
                            .collect();
                        match g.forced(&s) {
                            Forced::Free => assert_eq!(safe.len(), moves.len(), "{}", g.format_position(&s)),
                            Forced::Lost => assert!(safe.is_empty(), "{}", g.format_position(&s)),
                            Forced::Defend(t) => {
                                let answers: Vec<BtMove> = moves.iter().copied().filter(|&m| g.defends(m, t)).collect();
                                assert_eq!(safe, answers, "{}", g.format_position(&s));
                            }
                        }
                    }
                    match g.random_move(&s, &mut rng) {
                        Some(m) => g.play(&mut s, m),
                        None => break,
                    }
                }
            }
        }
    }

    #[test]
    fn goal_side_rows() {
        for (rows, columns) in [(3, 2), (5, 4), (6, 5), (8, 8)] {
            let g = Breakthrough::new(rows, columns, 1, false, false).unwrap();
            assert_eq!(g.pre_goal_row(Side::First), g.row_mask(rows - 2));
            assert_eq!(g.pre_goal_row(Side::Second), g.row_mask(1));
            assert_eq!(g.pre_pre_goal_row(Side::First), g.row_mask(rows - 3));
            assert_eq!(g.pre_pre_goal_row(Side::Second), g.row_mask(2));
            for side in [Side::First, Side::Second] {
                // A piece of the pre-pre-goal row attacks squares of the pre-goal row only, and those attack the goal.
                let pre = g.pre_goal_row(side);
                assert_eq!(g.attacks(side, g.pre_pre_goal_row(side)) & !pre, 0);
                assert_eq!(g.attacks(side, pre) & !g.goal_row(side), 0);
                assert_eq!(pre.count_ones(), columns);
            }
        }
    }

    #[test]
    fn races() {
        let g = Breakthrough::default();
        // White's a5 piece is free and 3 moves away; Black's best piece needs 3 moves too, and White moves first: won.
        let s = g.parse_position("8/8/8/P7/7p/8/8/7P w").unwrap();
        assert!(g.won_race(&s));
        assert_eq!(g.adjudicate(&s), Some((Outcome::Win, "won race")));
        // The same for Black to move with a faster runner of its own: Black wins (h4 is 3 rows from rank 1).
        let s = g.parse_position("8/8/8/P7/7p/8/8/8 b").unwrap();
        assert!(g.won_race(&s));
        // An enemy piece in the cone: not adjudicated.
        let s = g.parse_position("8/2p5/8/P7/8/8/8/7P w").unwrap();
        assert!(!g.won_race(&s));
        // The start position is not a race.
        assert!(!g.won_race(&g.start()));
        // Misère is never adjudicated.
        let m = Breakthrough::new(8, 8, 2, true, false).unwrap();
        let s = m.parse_position("8/8/8/P7/7p/8/8/7P w").unwrap();
        assert!(!m.won_race(&s));
        assert_eq!(m.adjudicate(&s), None);
    }
}
