//! Engine protocols: UCI in the Fairy-Stockfish dialect ([`uci`]) and cutegames' UGI ([`ugi`]).
//!
//! Both are line protocols on stdin/stdout derived from UCI, so they share one loop ([`session::run`]) and the line
//! parsing in this module (`position`, `go` and its limits, `setoption`). The dialects only differ in the handshake
//! (`uci`/`uciok` against `ugi`/`ugiok`), the option list, the clock names (`wtime`/`btime` against
//! `p1time`/`p2time`; both are accepted everywhere) and UGI's `query` command.
//!
//! Searches run on a worker thread that shares a stop flag with the player (`Context::stop` of [`crate::players::Player::choose`]),
//! so `stop`, `isready` and `quit` are answered while the engine thinks. Bad input (unknown commands, malformed
//! positions, illegal moves, bad numbers) is answered with one `info string error ...` line and the engine goes on.

pub mod chance;
pub(crate) mod observed;
mod out;
pub mod position;
pub mod session;
pub mod uci;
pub mod ugi;

use std::time::Duration;

use crate::game::Side;
use crate::search::{Limits, TimeControl};

/// Which protocol the loop speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Ugi,
}

/// The parameters of a `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GoParams {
    pub movetime: Option<Duration>,
    /// Remaining time of the first player (`wtime` or `p1time`), and of the second (`btime` or `p2time`).
    pub time: [Option<Duration>; 2],
    /// Increments (`winc`/`binc` or `p1inc`/`p2inc`).
    pub inc: [Option<Duration>; 2],
    pub(crate) movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    /// `go ponder`: search until `ponderhit` or `stop` (then answer), whatever the other limits say.
    pub ponder: bool,
}

impl GoParams {
    /// True when no limit at all was given: `go` alone searches until `stop`, like `go infinite`.
    pub(crate) fn unlimited(&self) -> bool {
        self.infinite
            || self.ponder
            || (self.movetime.is_none()
                && self.time.iter().all(Option::is_none)
                && self.depth.is_none()
                && self.nodes.is_none())
    }

    /// The searcher's limits for a move of `side`: `go infinite` (or `go ponder`, or no limit at all) searches until
    /// stopped; a clock (`wtime`/`btime`, a missing one taken equal to the side to move's) takes precedence over
    /// `movetime`; `depth` and `nodes` combine with either.
    pub fn limits(&self, side: Side) -> Limits {
        if self.unlimited() {
            return Limits { depth: None, time: Some(TimeControl::Infinite), nodes: None };
        }
        let time = match self.time[side.index()] {
            Some(r) => Some(TimeControl::Clock {
                time: self.time.map(|t| t.unwrap_or(r)),
                inc: self.inc.map(Option::unwrap_or_default),
                moves_to_go: self.movestogo,
            }),
            None => self.movetime.map(TimeControl::MoveTime),
        };
        Limits { depth: self.depth, time, nodes: self.nodes }
    }
}

fn number<T: std::str::FromStr>(key: &str, v: Option<&&str>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("go: '{key}' needs a value"))?;
    v.parse::<T>().map_err(|_| format!("go: {key} '{v}' is not a valid number"))
}

// The most milliseconds a `go` time accepts (about 35 years): more is a mistake, not a time control; the range of
// every time a flag or a player parameter gives.
use crate::limits::MAX_MILLIS;

fn millis(key: &str, v: Option<&&str>) -> Result<Duration, String> {
    // A negative time or clock is an error line (the GUI's bug is said, not hidden by a clamp).
    let x: i64 = number(key, v)?;
    if x < 0 || x as u64 > MAX_MILLIS {
        return Err(format!("go: {key} {x} is out of range 0..={MAX_MILLIS} milliseconds"));
    }
    Ok(Duration::from_millis(x as u64))
}

/// Parse the words after `go`.
pub(crate) fn parse_go(words: &[&str]) -> Result<GoParams, String> {
    let mut g = GoParams::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let v = words.get(i + 1);
        let mut takes_value = true;
        match key {
            "movetime" => g.movetime = Some(millis(key, v)?),
            "wtime" | "p1time" => g.time[0] = Some(millis(key, v)?),
            "btime" | "p2time" => g.time[1] = Some(millis(key, v)?),
            "winc" | "p1inc" => g.inc[0] = Some(millis(key, v)?),
            "binc" | "p2inc" => g.inc[1] = Some(millis(key, v)?),
            "movestogo" => g.movestogo = Some(number(key, v)?),
            "depth" => g.depth = Some(number(key, v)?),
            "nodes" => g.nodes = Some(number(key, v)?),
            "mate" => {
                let _: u32 = number(key, v)?;
            }
            "infinite" => {
                g.infinite = true;
                takes_value = false;
            }
            "ponder" => {
                g.ponder = true;
                takes_value = false;
            }
            "searchmoves" => return Err("go: searchmoves is not supported".into()),
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
        i += if takes_value { 2 } else { 1 };
    }
    if g.depth == Some(0) {
        return Err("go: depth must be at least 1".into());
    }
    if let Some(d) = g.depth.filter(|&d| d > crate::limits::MAX_DEPTH) {
        // The range of `depth=` in a player string and of `search --depth`.
        return Err(format!("go: depth {d} is out of range 1..={}", crate::limits::MAX_DEPTH));
    }
    if let Some(n) = g.nodes {
        // The one range of every node budget (`nodes=`, `tune --nodes`), in the same words.
        crate::limits::check_nodes(&format!("go: nodes {n}"), n)?;
    }
    Ok(g)
}

/// A parsed `position` command: the position text (`None` for `startpos`) and the moves after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCmd {
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

/// Parse the words after `position`: `startpos [moves ...]` or `fen TEXT... [moves ...]`.
pub fn parse_position(words: &[&str]) -> Result<PositionCmd, String> {
    let split = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let (head, tail) = words.split_at(split);
    let moves: Vec<String> = tail.iter().skip(1).map(|s| s.to_string()).collect();
    match head.first() {
        Some(&"startpos") if head.len() == 1 => Ok(PositionCmd { fen: None, moves }),
        Some(&"startpos") => Err(format!("position: unexpected '{}' after startpos", head[1..].join(" "))),
        Some(&"fen") if head.len() > 1 => Ok(PositionCmd { fen: Some(head[1..].join(" ")), moves }),
        Some(&"fen") => Err("position: 'fen' needs a position text".into()),
        Some(other) => Err(format!("position: expected 'startpos' or 'fen', got '{other}'")),
        None => Err("position: expected 'startpos' or 'fen TEXT', optionally followed by 'moves ...'".into()),
    }
}

/// The largest `Hash` in MiB: the memory available now (see [`crate::limits::available_bytes`]), at most
/// [`crate::limits::MAX_TABLE_MIB`]; advertised by the handshake and checked by `setoption`.
pub(crate) fn max_hash_mb() -> u64 {
    let avail = crate::limits::available_bytes().map_or(u64::MAX, |b| b >> 20);
    avail.clamp(1, crate::limits::MAX_TABLE_MIB as u64)
}

/// Parse the words after `setoption`: `name NAME [value VALUE]` (names and values may contain spaces).
pub(crate) fn parse_setoption(words: &[&str]) -> Result<(String, String), String> {
    if words.first() != Some(&"name") {
        return Err("setoption: expected 'name NAME value VALUE'".into());
    }
    let rest = &words[1..];
    let vpos = rest.iter().position(|w| *w == "value").unwrap_or(rest.len());
    let name = rest[..vpos].join(" ");
    if name.is_empty() {
        return Err("setoption: missing option name".into());
    }
    let value = if vpos < rest.len() { rest[vpos + 1..].join(" ") } else { String::new() };
    Ok((name, value))
}

/// Format a score for `info ... score`: `cp N` or `mate N` (moves, negative when the engine is mated).
pub(crate) fn format_score(value: i32) -> String {
    use crate::game::{WIN_SCORE, WIN_THRESHOLD};
    if value >= WIN_THRESHOLD {
        let plies = WIN_SCORE - value;
        format!("mate {}", (plies + 1) / 2)
    } else if value <= -WIN_THRESHOLD {
        let plies = WIN_SCORE + value;
        format!("mate -{}", plies / 2)
    } else {
        format!("cp {value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parameters() {
        let g = parse_go(&["wtime", "1000", "btime", "2000", "winc", "10", "binc", "20"]).unwrap();
        assert_eq!(g.time, [Some(Duration::from_millis(1000)), Some(Duration::from_millis(2000))]);
        assert_eq!(g.inc, [Some(Duration::from_millis(10)), Some(Duration::from_millis(20))]);
        assert!(!g.unlimited());
        let g = parse_go(&["p1time", "5", "p2time", "6", "p1inc", "1", "p2inc", "2"]).unwrap();
        assert_eq!(g.time[1], Some(Duration::from_millis(6)));
        assert!(parse_go(&[]).unwrap().unlimited());
        assert!(parse_go(&["infinite"]).unwrap().unlimited());
        assert_eq!(parse_go(&["depth", "3"]).unwrap().depth, Some(3));
        assert!(parse_go(&["depth"]).is_err());
        assert!(parse_go(&["depth", "x"]).is_err());
        assert_eq!(parse_go(&["depth", "200"]).unwrap().depth, Some(200));
        assert!(parse_go(&["depth", "201"]).unwrap_err().contains("1..=200"));
        assert!(parse_go(&["frobnicate"]).is_err());
        for bad in [&["movetime", "-5"][..], &["wtime", "-1", "btime", "-1"], &["nodes", "0"], &["winc", "-3"]] {
            assert!(parse_go(bad).is_err(), "{bad:?}");
        }
        assert!(parse_go(&["movetime", "99999999999999999"]).is_err());
    }

    #[test]
    fn position_commands() {
        let p = parse_position(&["startpos", "moves", "a2a3", "b7b6"]).unwrap();
        assert_eq!(p, PositionCmd { fen: None, moves: vec!["a2a3".into(), "b7b6".into()] });
        let p = parse_position(&["fen", "8/8", "w", "-", "-", "0", "1"]).unwrap();
        assert_eq!(p.fen.as_deref(), Some("8/8 w - - 0 1"));
        assert!(p.moves.is_empty());
        assert!(parse_position(&[]).is_err());
        assert!(parse_position(&["fen"]).is_err());
        assert!(parse_position(&["kiwipete"]).is_err());
    }

    #[test]
    fn setoption_words() {
        assert_eq!(
            parse_setoption(&["name", "UCI_Variant", "value", "breakthrough"]).unwrap(),
            ("UCI_Variant".into(), "breakthrough".into())
        );
        assert_eq!(parse_setoption(&["name", "Clear", "Hash"]).unwrap(), ("Clear Hash".into(), String::new()));
        assert!(parse_setoption(&["value", "3"]).is_err());
    }

    #[test]
    fn go_limits() {
        let ms = Duration::from_millis;
        let g = parse_go(&["wtime", "1000", "btime", "2000", "winc", "10", "movestogo", "5", "depth", "7"]).unwrap();
        let clock = TimeControl::Clock { time: [ms(1000), ms(2000)], inc: [ms(10), ms(0)], moves_to_go: Some(5) };
        assert_eq!(g.limits(Side::Second), Limits { depth: Some(7), time: Some(clock), nodes: None });
        // Only the side to move's clock given: the other one is taken equal to it.
        let g = parse_go(&["btime", "500", "movetime", "100"]).unwrap();
        assert_eq!(g.limits(Side::Second).time, Some(TimeControl::clock(ms(500), ms(0))));
        assert_eq!(g.limits(Side::First).time, Some(TimeControl::MoveTime(ms(100))));
        let g = parse_go(&["nodes", "5000"]).unwrap();
        assert_eq!(g.limits(Side::First), Limits { depth: None, time: None, nodes: Some(5000) });
        for words in [&["infinite"][..], &[], &["ponder", "movetime", "100"]] {
            let l = parse_go(words).unwrap().limits(Side::First);
            assert_eq!(l, Limits { depth: None, time: Some(TimeControl::Infinite), nodes: None }, "{words:?}");
        }
    }

    #[test]
    fn scores() {
        use crate::game::WIN_SCORE;
        assert_eq!(format_score(35), "cp 35");
        assert_eq!(format_score(WIN_SCORE - 1), "mate 1");
        assert_eq!(format_score(WIN_SCORE - 3), "mate 2");
        assert_eq!(format_score(-WIN_SCORE + 2), "mate -1");
    }
}
