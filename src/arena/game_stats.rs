//! Game statistics from match records: how long games last and how many moves a player has to choose from.
//!
//! ```text
//! for each finished game (its record: the opening position and every move from it):
//!     length  <- number of plies (chance outcomes and joint moves count one ply each, as in perft)
//!     replay the moves; before each ply, branching <- the legal choices there:
//!         a player's turn: that player's legal moves; a simultaneous node: the joint moves (a*b); chance: skipped
//!     add branching to its ply number and to its phase (the first, middle or last third of that game)
//! lengths and branching factors: min, max, mean, histogram; branching by ply number and by phase
//! ```
//!
//! The course asks these questions of a game before building endgame databases ("quelle est la longueur
//! min/max/moyenne d'une partie (contre random, contre IDS) ? quel est le facteur de branchement min/max/moyen au cours
//! d'une partie ?").

use serde::Serialize;

use crate::game::{FullGame, MoveList, Side, Turn};

use super::record::GameRecord;

/// Min, max and mean of a sample, with its size.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub(crate) struct Summary {
    pub count: u64,
    pub min: u64,
    pub max: u64,
    pub mean: f64,
}

impl Summary {
    #[cfg(test)]
    fn of(values: &[u64]) -> Summary {
        let mut t = Tally::default();
        values.iter().for_each(|&v| t.add(v));
        t.summary()
    }
}

/// A sample kept as counts per value (game lengths and branching factors take few distinct values), so that memory
/// does not grow with the number of games.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally(std::collections::BTreeMap<u64, u64>);

impl Tally {
    pub fn add(&mut self, v: u64) {
        *self.0.entry(v).or_insert(0) += 1;
    }

    pub fn summary(&self) -> Summary {
        let (Some((&min, _)), Some((&max, _))) = (self.0.first_key_value(), self.0.last_key_value()) else {
            return Summary::default();
        };
        let count: u64 = self.0.values().sum();
        let sum: u128 = self.0.iter().map(|(&v, &c)| v as u128 * c as u128).sum();
        Summary { count, min, max, mean: sum as f64 / count as f64 }
    }

    /// A histogram in at most `bins` bars of equal width.
    pub fn histogram(&self, bins: u64) -> Vec<Bin> {
        let (Some((&lo, _)), Some((&hi, _))) = (self.0.first_key_value(), self.0.last_key_value()) else {
            return Vec::new();
        };
        let width = (hi - lo) / bins.max(1) + 1;
        let mut out: Vec<Bin> = (0..=(hi - lo) / width)
            .map(|k| Bin { from: lo + k * width, to: lo + (k + 1) * width - 1, count: 0 })
            .collect();
        for (&v, &c) in &self.0 {
            out[((v - lo) / width) as usize].count += c;
        }
        out
    }
}

/// One bar of a histogram: values in `[from, to]` and how many there are.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Bin {
    pub from: u64,
    pub to: u64,
    pub count: u64,
}

/// The branching factor at one ply number, over the games that reached it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct PlyBranching {
    /// 1-based: the choice before the first ply is ply 1.
    pub ply: u64,
    pub games: u64,
    pub min: u64,
    pub max: u64,
    pub mean: f64,
}

/// The branching factor in one phase of the games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Phase {
    pub name: String,
    #[serde(flatten)]
    pub branching: Summary,
}

/// Everything `plateau stats` reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct GameStats {
    pub games: u64,
    /// Game lengths in plies.
    pub length: Summary,
    pub length_histogram: Vec<Bin>,
    /// Lengths of the games won by the first player, by the second, and drawn.
    pub length_by_result: [Summary; 3],
    /// The branching factor over every choice of every game.
    pub branching: Summary,
    pub(crate) branching_histogram: Vec<Bin>,
    /// The branching factor in the first, middle and last third of each game.
    pub phases: Vec<Phase>,
    pub by_ply: Vec<PlyBranching>,
}

/// Legal choices before the next ply (`None` at a chance node or at the end).
fn choices<G: FullGame>(game: &G, state: &G::State) -> Option<u64> {
    if game.is_terminal(state) {
        return None;
    }
    match game.turn(state) {
        Turn::Chance => None,
        Turn::Simultaneous => {
            let (mut a, mut b) = (MoveList::new(), MoveList::new());
            game.player_moves(state, Side::First, &mut a);
            game.player_moves(state, Side::Second, &mut b);
            Some((a.len() * b.len()) as u64)
        }
        Turn::Player(_) => Some(game.count_moves(state)),
    }
}

/// The branching factor before each ply of a recorded game (`None` at chance nodes), replayed with the rules.
pub(crate) fn branching_of<G: FullGame>(game: &G, rec: &GameRecord) -> Result<Vec<Option<u64>>, String> {
    let mut state = match &rec.fen {
        Some(f) => game.parse_position(f).map_err(|e| format!("game {}: {e}", rec.round))?,
        None => game.start(),
    };
    let mut out = Vec::with_capacity(rec.moves.len());
    for (i, word) in rec.moves.iter().enumerate() {
        out.push(choices(game, &state));
        state = game.play_moves(&state, word).map_err(|e| format!("game {} ply {}: {e}", rec.round, i + 1))?;
    }
    Ok(out)
}

/// The statistics of games added one at a time ([`StatsBuilder::add`], as a match finishes them): counts only, so
/// that a million games cost no more memory than ten.
#[derive(Default)]
pub(crate) struct StatsBuilder {
    games: u64,
    lengths: Tally,
    by_result: [Tally; 3],
    branching: Tally,
    phases: [Tally; 3],
    by_ply: Vec<Tally>,
}

impl StatsBuilder {
    /// Replay one recorded game and count its length and the branching factor before each ply.
    pub fn add<G: FullGame>(&mut self, game: &G, r: &GameRecord) -> Result<(), String> {
        let k = match r.winner {
            Some(Side::First) => 0,
            Some(Side::Second) => 1,
            None => 2,
        };
        self.games += 1;
        self.lengths.add(r.moves.len() as u64);
        self.by_result[k].add(r.moves.len() as u64);
        let b = branching_of(game, r)?;
        let n = b.len().max(1);
        for (i, c) in b.iter().enumerate() {
            let Some(c) = *c else { continue };
            self.branching.add(c);
            self.phases[(3 * i / n).min(2)].add(c);
            if self.by_ply.len() <= i {
                self.by_ply.resize(i + 1, Tally::default());
            }
            self.by_ply[i].add(c);
        }
        Ok(())
    }

    pub fn finish(&self, bins: u64) -> GameStats {
        let by_ply = self
            .by_ply
            .iter()
            .enumerate()
            .map(|(i, t)| (i, t.summary()))
            .filter(|(_, s)| s.count > 0)
            .map(|(i, s)| PlyBranching { ply: i as u64 + 1, games: s.count, min: s.min, max: s.max, mean: s.mean })
            .collect();
        let names = ["opening (first third)", "middle (second third)", "end (last third)"];
        GameStats {
            games: self.games,
            length: self.lengths.summary(),
            length_histogram: self.lengths.histogram(bins),
            length_by_result: [0, 1, 2].map(|k| self.by_result[k].summary()),
            branching: self.branching.summary(),
            branching_histogram: self.branching.histogram(bins),
            phases: names
                .iter()
                .zip(&self.phases)
                .map(|(n, t)| Phase { name: n.to_string(), branching: t.summary() })
                .collect(),
            by_ply,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A histogram of `values` in at most `bins` bars of equal width.
    fn histogram(values: &[u64], bins: u64) -> Vec<Bin> {
        let mut t = Tally::default();
        values.iter().for_each(|&v| t.add(v));
        t.histogram(bins)
    }

    #[test]
    fn histogram_covers_every_value() {
        let h = histogram(&[3, 4, 4, 10, 25], 5);
        assert_eq!(h.iter().map(|b| b.count).sum::<u64>(), 5);
        assert_eq!(h[0].from, 3);
        assert!(h.last().unwrap().to >= 25);
        assert!(histogram(&[], 5).is_empty());
        assert_eq!(histogram(&[7, 7], 10), vec![Bin { from: 7, to: 7, count: 2 }]);
    }

    #[test]
    fn summary_of_a_sample() {
        let s = Summary::of(&[2, 4, 9]);
        assert_eq!((s.count, s.min, s.max), (3, 2, 9));
        assert!((s.mean - 5.0).abs() < 1e-9);
    }
}
