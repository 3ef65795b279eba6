//! A game's clocks on the page, under a time control `BASE+INCREMENT` (`5m+3s`, `30s`; `POST /api/games` field
//! `time_control`): each side's time left, the side to move's running from the moment its position came, the
//! increment added after each of its moves; a side whose time runs out loses on time (its flag falls), whether it is a
//! human or an engine (whose clock counts its real thinking time). The clocks of every position are kept, so an undo
//! gives the time back.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::ApiError;
use crate::game::Side;
use crate::search::TimeControl;

/// Both sides' clocks.
#[derive(Clone, Debug)]
pub struct Clock {
    base: Duration,
    inc: Duration,
    /// The time left of each side (ms, before the position's running time) after each step: `left[0]` at the start.
    left: Vec<[i64; 2]>,
    /// The side whose flag fell, with the game's length then.
    flag: Option<(Side, usize)>,
}

impl Clock {
    /// The clocks of `text` (`5m+3s`, `90s`, `1m`): a one-line 400 when it does not read so.
    pub fn parse(text: &str) -> Result<Clock, ApiError> {
        let bad = |e: String| ApiError::bad(format!("time_control '{text}': {}", e.trim_start_matches("--tc: ")));
        match crate::arena::parse_tc(text.trim()).map_err(bad)? {
            TimeControl::Clock { time, inc, .. } => {
                let ms = time[0].as_millis() as i64;
                Ok(Clock { base: time[0], inc: inc[0], left: vec![[ms, ms]], flag: None })
            }
            _ => Err(bad("expected BASE+INCREMENT such as 5m+3s".into())),
        }
    }

    /// The time control as written back: `300s+3s`.
    pub fn describe(&self) -> String {
        format!("{}+{}", secs(self.base), secs(self.inc))
    }

    /// The time left (ms) of each side now, `mover`'s running since `since`.
    pub fn now(&self, mover: Option<Side>, since: Instant) -> [i64; 2] {
        let mut left = *self.left.last().expect("the start's clocks are always there");
        if let (Some(p), None) = (mover, self.flag) {
            left[p.index()] -= since.elapsed().as_millis() as i64;
        }
        if let Some((p, _)) = self.flag {
            left[p.index()] = left[p.index()].min(0);
        }
        left
    }

    /// The side whose flag fell: at a move that came too late, or now while it is to move (`mover`, since `since`).
    pub(crate) fn fallen(&self, mover: Option<Side>, since: Instant) -> Option<Side> {
        match (self.flag, mover) {
            (Some((p, _)), _) => Some(p),
            (None, Some(p)) if self.now(Some(p), since)[p.index()] <= 0 => Some(p),
            _ => None,
        }
    }

    /// A step played after `ms` of `mover`'s time (None: a chance draw, no one's time): its time taken, its increment
    /// added. False, and nothing recorded but the fallen flag, when its time ran out before the move came (`plies`:
    /// the moves so far).
    pub(crate) fn spend(&mut self, mover: Option<Side>, ms: u64, plies: usize) -> bool {
        let mut left = *self.left.last().expect("the start's clocks are always there");
        if let Some(p) = mover {
            left[p.index()] -= ms as i64;
            if left[p.index()] <= 0 {
                self.flag = Some((p, plies));
                return false;
            }
            left[p.index()] += self.inc.as_millis() as i64;
        }
        self.left.push(left);
        true
    }

    /// The step taken back: the clocks before it (a flag fallen later than that stands up again).
    pub fn undo(&mut self, plies: usize) {
        if self.left.len() > 1 {
            self.left.pop();
        }
        if self.flag.is_some_and(|(_, at)| at >= plies) {
            self.flag = None;
        }
    }

    /// The engine's limits under this clock: the time left of both sides and the increment.
    pub fn control(&self, mover: Side, since: Instant) -> TimeControl {
        let left = self.now(Some(mover), since).map(|ms| Duration::from_millis(ms.max(1) as u64));
        TimeControl::Clock { time: left, inc: [self.inc; 2], moves_to_go: None }
    }

    /// The clocks for the page: `{time_control, base_ms, increment_ms, left_ms: [first, second], running, flag}`
    /// (`flag`: the side that lost on time, as the session decides it).
    pub fn json(&self, mover: Option<Side>, since: Instant, flag: Option<Side>) -> Value {
        json!({
            "time_control": self.describe(),
            "base_ms": self.base.as_millis() as u64,
            "increment_ms": self.inc.as_millis() as u64,
            "left_ms": self.now(mover, since).map(|ms| ms.max(0)),
            "running": if flag.is_none() { mover.map(Side::index) } else { None },
            "flag": flag.map(Side::index),
        })
    }
}

fn secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) { format!("{}s", ms / 1000) } else { format!("{ms}ms") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_takes_its_time_and_adds_the_increment_and_a_late_one_loses() {
        let mut c = Clock::parse("10s+2s").unwrap();
        assert_eq!(c.describe(), "10s+2s");
        assert!(c.spend(Some(Side::First), 3000, 0));
        assert_eq!(c.now(None, Instant::now()), [9000, 10000]);
        assert!(c.spend(None, 0, 1));
        assert!(!c.spend(Some(Side::Second), 10_001, 2));
        assert_eq!(c.fallen(None, Instant::now()), Some(Side::Second));
        c.undo(2);
        assert_eq!(c.fallen(None, Instant::now()), None);
        assert!(Clock::parse("fast").is_err());
        assert!(Clock::parse("0s+1s").is_err());
    }
}
