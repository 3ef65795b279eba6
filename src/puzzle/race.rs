//! Breakthrough races (the course's suggested single-agent problems): one side moves, the other only passes. The
//! racing side's pieces move as in Breakthrough (one square forward, straight onto an empty square, diagonally onto a
//! square without an own piece, capturing an enemy piece there; captures forced if the game string says so), the
//! enemy pieces stay where they are (and disappear when captured). The goal is to put a piece on the far row; the
//! game's other endings (misère, no enemy piece left) play no part. Every move costs 1 and advances one piece by one
//! row, so all paths to a position have the same length: the positions reachable in exactly `d` plies are the
//! breadth-first layer `d`.
//!
//! Three questions:
//! - the shortest race: [`Race`] is a [`Problem`], solved by any algorithm; the heuristic is the number of rows the
//!   most advanced piece still has to go (admissible, consistent);
//! - the positions reachable in exactly `d` plies: [`super::bfs::layer_sizes`];
//! - the positions at distance `d` from a win: [`census`], which enumerates every position reachable from the start
//!   and computes for each the length of its shortest race (bounded by a number of states).

use crate::game::{Game, MoveList, Side};
use crate::games::breakthrough::{Breakthrough, BtMove, BtState};

use super::{ActionList, Cost, FastMap, Problem};

/// A race from a Breakthrough position for one side.
#[derive(Clone, Debug)]
pub struct Race {
    pub game: Breakthrough,
    pub side: Side,
    pub start: RaceState,
}

/// The racing side's pieces and the enemy's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RaceState {
    pub own: u64,
    pub opp: u64,
}

impl Race {
    /// The race of `side` from `state` (whoever is to move there).
    pub fn new(game: &Breakthrough, state: &BtState, side: Side) -> Result<Race, String> {
        let (own, opp) = match side {
            Side::First => (state.white, state.black),
            Side::Second => (state.black, state.white),
        };
        if own == 0 {
            return Err("race: the racing side has no piece".into());
        }
        Ok(Race { game: game.clone(), side, start: RaceState { own, opp } })
    }

    /// The Breakthrough state with the racing side to move (its key is not maintained: the race has its own).
    pub(crate) fn bt_state(&self, s: &RaceState) -> BtState {
        let (white, black) = match self.side {
            Side::First => (s.own, s.opp),
            Side::Second => (s.opp, s.own),
        };
        BtState { white, black, key: 0, stm: self.side }
    }

    /// The position as Breakthrough position text, the racing side to move.
    pub(crate) fn position_text(&self, s: &RaceState) -> String {
        self.game.format_position(&self.bt_state(s))
    }
}

impl Problem for Race {
    type State = RaceState;
    type Action = BtMove;
    type Key = (u64, u64);

    fn start(&self) -> RaceState {
        self.start
    }
    fn is_goal(&self, s: &RaceState) -> bool {
        s.own & self.game.goal_row(self.side) != 0
    }
    fn actions(&self, s: &RaceState, out: &mut ActionList<BtMove>) {
        out.clear();
        if self.is_goal(s) {
            return;
        }
        let bt = self.bt_state(s);
        let (mut f, mut l, mut r) = self.game.targets(&bt, self.side);
        if self.game.forced_captures && (l | r) & s.opp != 0 {
            f = 0;
            l &= s.opp;
            r &= s.opp;
        }
        let c = self.game.columns as i32;
        // target + delta = source, per direction (straight, towards lower files, towards higher files).
        let (df, dl, dr) = match self.side {
            Side::First => (-c, -(c - 1), -(c + 1)),
            Side::Second => (c, c + 1, c - 1),
        };
        for (set, d) in [(f, df), (l, dl), (r, dr)] {
            let mut b = set;
            while b != 0 {
                let to = b.trailing_zeros() as i32;
                b &= b - 1;
                out.push(BtMove { from: (to + d) as u8, to: to as u8 });
            }
        }
    }
    fn apply(&self, s: &RaceState, a: BtMove) -> (RaceState, Cost) {
        let (from, to) = (1u64 << a.from, 1u64 << a.to);
        (RaceState { own: s.own ^ from ^ to, opp: s.opp & !to }, 1)
    }
    fn heuristic(&self, s: &RaceState) -> Cost {
        let c = self.game.columns;
        match self.side {
            Side::First => self.game.rows - 1 - (63 - s.own.leading_zeros()) / c,
            Side::Second => s.own.trailing_zeros() / c,
        }
    }
    fn key(&self, s: &RaceState) -> (u64, u64) {
        (s.own, s.opp)
    }
    fn format_action(&self, s: &RaceState, a: BtMove) -> String {
        self.game.format_move(&self.bt_state(s), a)
    }
    fn separator(&self) -> &'static str {
        " "
    }
}

/// Every position reachable from the start, by layer, and the length of its shortest race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    /// `layers[d]`: positions reachable in exactly `d` plies.
    pub layers: Vec<u64>,
    /// `win_distance[d]`: reachable positions whose shortest race is `d` moves (0: the far row is reached).
    pub win_distance: Vec<u64>,
    /// Reachable positions from which the far row cannot be reached.
    pub no_win: u64,
}

/// Enumerate the positions reachable from the start (positions on the far row are not expanded) and classify them.
/// Fails beyond `max_states` positions.
pub fn census(race: &Race, max_states: usize) -> Result<Census, String> {
    let mut layers: Vec<Vec<RaceState>> = vec![vec![race.start]];
    let mut seen: FastMap<(u64, u64), ()> = FastMap::default();
    let mut total = 1usize;
    let mut acts = ActionList::new();
    loop {
        let mut next = Vec::new();
        seen.clear();
        for s in layers.last().map(|l| l.as_slice()).unwrap_or(&[]) {
            race.actions(s, &mut acts);
            for &a in &acts {
                let c = race.apply(s, a).0;
                if seen.insert(race.key(&c), ()).is_none() {
                    next.push(c);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        total += next.len();
        if total > max_states {
            return Err(format!("race census: more than {max_states} positions; use a smaller board"));
        }
        layers.push(next);
    }
    // Backwards over the layers: a position's children are all in the next layer.
    const NONE: u32 = u32::MAX;
    let mut dist_next: FastMap<(u64, u64), u32> = FastMap::default();
    let mut win_distance = Vec::new();
    let mut no_win = 0;
    for layer in layers.iter().rev() {
        let mut dist_here: FastMap<(u64, u64), u32> = FastMap::default();
        for s in layer {
            let d = if race.is_goal(s) {
                0
            } else {
                race.actions(s, &mut acts);
                let best = acts
                    .iter()
                    .map(|&a| dist_next.get(&race.key(&race.apply(s, a).0)).copied().unwrap_or(NONE))
                    .min()
                    .unwrap_or(NONE);
                if best == NONE { NONE } else { best + 1 }
            };
            if d == NONE {
                no_win += 1;
            } else {
                if win_distance.len() <= d as usize {
                    win_distance.resize(d as usize + 1, 0);
                }
                win_distance[d as usize] += 1;
            }
            dist_here.insert(race.key(s), d);
        }
        dist_next = dist_here;
    }
    Ok(Census { layers: layers.iter().map(|l| l.len() as u64).collect(), win_distance, no_win })
}

/// The moves of the racing side in a state, in the game's own generator (used by tests to check [`Race::actions`]).
pub fn game_moves(race: &Race, s: &RaceState) -> MoveList<BtMove> {
    let mut m = MoveList::new();
    race.game.generate_moves(&race.bt_state(s), &mut m);
    m
}
