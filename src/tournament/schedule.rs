//! The schedule of a tournament: which games are played, each with a stable id, so that a resumed (or distributed)
//! tournament plays each game exactly once and the same way.
//!
//! ```text
//! round robin, R rounds:  for round r in 1..=R: for every pair i < j (in the order of the players):
//!                             game (i White, j Black), then game (j White, i Black), both from opening r-1
//! gauntlet of g, R rounds: the same with only the pairs (g, j), j != g
//! game id = 1, 2, 3, ... in that order; the chance draws of game id use (seed, id); opening r-1 is the arena's
//!           (random plies from (seed, r-1), or line r-1 of the openings file, cycling)
//! ```
//!
//! So a round robin of n players plays R n (n-1) games (each player 2 R (n-1)), a gauntlet 2 R (n-1).

/// How the players meet.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Schedule {
    /// Every pair, `rounds` times, each opening with both colours.
    RoundRobin { rounds: usize },
    /// Player `player` (an index into the entries) against each of the others, `rounds` times, both colours.
    Gauntlet { player: usize, rounds: usize },
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameJob {
    /// Stable 1-based id: the game's place in the schedule (the record's `[Round]`).
    pub id: usize,
    /// The tournament round, 1-based.
    pub round: usize,
    /// The entries (indices) playing the first player's side (White, moves first) and the second's.
    pub white: usize,
    pub black: usize,
    /// The opening's number (0-based, the arena's `Openings::get`).
    pub opening: usize,
}

impl Schedule {
    /// The number of rounds.
    pub fn rounds(&self) -> usize {
        match *self {
            Schedule::RoundRobin { rounds } | Schedule::Gauntlet { rounds, .. } => rounds,
        }
    }

    /// In words, for headers and the results file: `round robin, 2 rounds`, `gauntlet of alice, 1 round`.
    pub fn describe(&self, names: &[String]) -> String {
        let r = self.rounds();
        let rounds = format!("{r} round{}", if r == 1 { "" } else { "s" });
        match self {
            Schedule::RoundRobin { .. } => format!("round robin, {rounds}"),
            Schedule::Gauntlet { player, .. } => {
                format!("gauntlet of {}, {rounds}", names.get(*player).map_or("?", String::as_str))
            }
        }
    }

    /// The pairs `(i, j)` that meet, in order.
    pub fn pairs(&self, players: usize) -> Vec<(usize, usize)> {
        match *self {
            Schedule::RoundRobin { .. } => (0..players).flat_map(|i| (i + 1..players).map(move |j| (i, j))).collect(),
            Schedule::Gauntlet { player, .. } => (0..players).filter(|&j| j != player).map(|j| (player, j)).collect(),
        }
    }

    /// Every game, in id order.
    pub fn jobs(&self, players: usize) -> Vec<GameJob> {
        let pairs = self.pairs(players);
        let mut out = Vec::with_capacity(2 * pairs.len() * self.rounds());
        for round in 1..=self.rounds() {
            for &(i, j) in &pairs {
                for (white, black) in [(i, j), (j, i)] {
                    out.push(GameJob { id: out.len() + 1, round, white, black, opening: round - 1 });
                }
            }
        }
        out
    }
}
