//! A match's running totals: every finished game (played now, or read back from the record file by `--resume`) is
//! added once, and the summary is made from the totals.

use super::record::GameRecord;
use super::stats::{Sprt, SprtStatus, Wdl};
use super::{ColourSplit, Lengths};

/// What the games of a match add up to so far.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    pub(crate) wdl: Wdl,
    pub failures: Vec<String>,
    pub(crate) adjudicated: u64,
    pub(crate) max_ms: [u64; 2],
    pub(crate) total_ms: [u64; 2],
    pub timed: [u64; 2],
    pub time_forfeits: u64,
    pub by_colour: [ColourSplit; 2],
    pub lengths: Vec<u64>,
    /// The SPRT status that decided the test, once one did.
    pub decided: Option<SprtStatus>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            wdl: Wdl::default(),
            failures: Vec::new(),
            adjudicated: 0,
            max_ms: [0; 2],
            total_ms: [0; 2],
            timed: [0; 2],
            time_forfeits: 0,
            by_colour: [
                ColourSplit { first: "A".into(), ..Default::default() },
                ColourSplit { first: "B".into(), ..Default::default() },
            ],
            lengths: Vec::new(),
            decided: None,
        }
    }
}

impl Tally {
    /// Count one finished game; with an SPRT, test it after this game (until it decides). Returns true when this game
    /// decided the test.
    pub fn add(&mut self, rec: &GameRecord, sprt: Option<&Sprt>) -> bool {
        let split = &mut self.by_colour[usize::from(!rec.a_first)];
        split.games += 1;
        match rec.a_score() {
            1.0 => (self.wdl.wins += 1, split.wins_a += 1),
            0.0 => (self.wdl.losses += 1, split.wins_b += 1),
            _ => (self.wdl.draws += 1, split.draws += 1),
        };
        self.lengths.push(rec.moves.len() as u64);
        if rec.termination.contains(" lost: ") {
            self.failures.push(format!("game {}: {}", rec.round, rec.termination));
        }
        if rec.termination == "won race" {
            self.adjudicated += 1;
        }
        for i in 0..2 {
            self.max_ms[i] = self.max_ms[i].max(rec.max_move_ms[i]);
            self.total_ms[i] += rec.total_move_ms[i];
            self.timed[i] += rec.moves_timed[i];
        }
        if rec.termination.contains(" lost: time forfeit") || rec.termination.contains(" lost: timed out") {
            self.time_forfeits += 1;
        }
        if let Some(s) = sprt
            && self.decided.is_none()
        {
            let st = s.status(&self.wdl);
            if st.result != "continue" {
                self.decided = Some(st);
                return true;
            }
        }
        false
    }

    /// The progress bar's message: `+3 -1 =0  score 75.0%  elo +191 +- 300`.
    pub fn progress(&self) -> String {
        let elo = match (self.wdl.elo(), self.wdl.elo_error()) {
            (Some(e), Some(err)) => format!("{e:+.0} +- {err:.0}"),
            (Some(e), None) => format!("{e:+.0}"),
            (None, _) => "inf".into(),
        };
        let w = &self.wdl;
        format!("+{} -{} ={}  score {:.1}%  elo {elo}", w.wins, w.losses, w.draws, 100.0 * w.score())
    }

    /// Mean move time of A and of B in milliseconds.
    pub fn mean_move_ms(&self) -> [f64; 2] {
        [0, 1].map(|i| if self.timed[i] == 0 { 0.0 } else { self.total_ms[i] as f64 / self.timed[i] as f64 })
    }

    /// Shortest, longest and mean game length in plies.
    pub fn length(&self) -> Lengths {
        let l = &self.lengths;
        Lengths {
            min: l.iter().copied().min().unwrap_or(0),
            max: l.iter().copied().max().unwrap_or(0),
            mean: if l.is_empty() { 0.0 } else { l.iter().sum::<u64>() as f64 / l.len() as f64 },
        }
    }
}
