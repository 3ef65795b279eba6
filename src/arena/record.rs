//! Game records: one PGN-style block per game, appended and flushed as soon as the game ends, so that an interrupted
//! match keeps every finished game.
//!
//! ```text
//! [Event "plateau match"]
//! [Game "breakthrough"]
//! [Round "1"]
//! [White "alphabeta(time=100ms)"]        <- the player who moved first
//! [Black "random"]
//! [TimeControl "movetime 100ms"]
//! [Opening "a2a3 h7h6"]                  <- the opening moves (included in the move list below)
//! [FEN "..."]                            <- only when the game did not start from the start position
//! [Result "1-0"]
//! [Termination "normal"]                 <- or "won race", "time forfeit: ...", "engine crashed ...", "move limit"
//!
//! 1. a2a3 h7h6 2. b2b3 ... 1-0
//! ```

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use crate::game::Player;

/// One finished game.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GameRecord {
    /// 1-based game number (games with numbers 2k-1 and 2k share opening k).
    pub round: usize,
    pub game: String,
    /// Player strings of who moved first and second.
    pub first: String,
    pub second: String,
    /// Whether player A (the first `--player`) moved first.
    pub a_first: bool,
    pub time_control: String,
    pub opening: String,
    pub fen: Option<String>,
    /// Every move from the start position (or `fen`), the opening's included.
    pub moves: Vec<String>,
    /// `Some(First)`, `Some(Second)` or `None` for a draw.
    #[serde(serialize_with = "ser_winner")]
    pub winner: Option<Player>,
    pub termination: String,
    /// Longest time one move took, for player A and player B (milliseconds).
    pub max_move_ms: [u64; 2],
    /// Sum of the move times of A and B (milliseconds) and the number of moves each made (opening excluded).
    pub total_move_ms: [u64; 2],
    pub moves_timed: [u64; 2],
    /// Time of every move played after the opening, in order (milliseconds).
    pub move_ms: Vec<u64>,
}

fn ser_winner<S: serde::Serializer>(w: &Option<Player>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match w {
        Some(Player::First) => "first",
        Some(Player::Second) => "second",
        None => "draw",
    })
}

impl GameRecord {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Player::First) => "1-0",
            Some(Player::Second) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// Mean move time of A and of B in milliseconds (0 without moves).
    pub fn mean_move_ms(&self) -> [f64; 2] {
        [0, 1].map(|i| {
            if self.moves_timed[i] == 0 { 0.0 } else { self.total_move_ms[i] as f64 / self.moves_timed[i] as f64 }
        })
    }

    /// Player A's score in this game.
    pub fn a_score(&self) -> f64 {
        match (self.winner, self.a_first) {
            (None, _) => 0.5,
            (Some(Player::First), true) | (Some(Player::Second), false) => 1.0,
            _ => 0.0,
        }
    }

    /// The PGN-style block, ending with a blank line.
    pub fn to_pgn(&self) -> String {
        let q = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        let mut out = String::new();
        out += "[Event \"plateau match\"]\n";
        out += &format!("[Game \"{}\"]\n", q(&self.game));
        out += &format!("[Round \"{}\"]\n", self.round);
        out += &format!("[White \"{}\"]\n", q(&self.first));
        out += &format!("[Black \"{}\"]\n", q(&self.second));
        out += &format!("[TimeControl \"{}\"]\n", q(&self.time_control));
        out += &format!("[Opening \"{}\"]\n", q(&self.opening));
        if let Some(f) = &self.fen {
            out += &format!("[FEN \"{}\"]\n", q(f));
        }
        // Move times by colour: seat 0 (White) is A when A moved first.
        let seat = |i: usize| if self.a_first { i } else { 1 - i };
        for (i, colour) in ["White", "Black"].iter().enumerate() {
            let (max, mean) = (self.max_move_ms[seat(i)], self.mean_move_ms()[seat(i)]);
            out += &format!("[{colour}MaxMs \"{max}\"]\n[{colour}MeanMs \"{mean:.1}\"]\n");
        }
        if !self.move_ms.is_empty() {
            let times: Vec<String> = self.move_ms.iter().map(u64::to_string).collect();
            out += &format!("[MoveMs \"{}\"]\n", times.join(" "));
        }
        out += &format!("[Result \"{}\"]\n", self.result_text());
        out += &format!("[Termination \"{}\"]\n\n", q(&self.termination));
        let mut line = String::new();
        for (i, m) in self.moves.iter().enumerate() {
            if i % 2 == 0 {
                line += &format!("{}. ", i / 2 + 1);
            }
            line += m;
            line.push(' ');
        }
        line += self.result_text();
        // Wrap at about 80 columns.
        let mut width = 0;
        for word in line.split(' ') {
            if width > 0 && width + word.len() + 1 > 80 {
                out.push('\n');
                width = 0;
            } else if width > 0 {
                out.push(' ');
                width += 1;
            }
            out += word;
            width += word.len();
        }
        out += "\n\n";
        out
    }
}

/// An append-only record file.
pub struct RecordFile {
    file: File,
}

impl RecordFile {
    pub fn open(path: &Path) -> Result<Self, String> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open record file {}: {e}", path.display()))?;
        Ok(RecordFile { file })
    }
    /// Append one game and flush it to the operating system.
    pub fn append(&mut self, r: &GameRecord) -> Result<(), String> {
        self.file
            .write_all(r.to_pgn().as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| format!("cannot write the record file: {e}"))
    }
}

/// Read the results back from a record file: `(round, result text, termination)` per game (for tests and tools).
pub fn read_results(text: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut round = None;
    let mut result = None;
    for line in text.lines() {
        let tag = |name: &str| -> Option<String> {
            let rest = line.strip_prefix(&format!("[{name} \""))?;
            Some(rest.strip_suffix("\"]")?.to_string())
        };
        if let Some(r) = tag("Round") {
            round = r.parse().ok();
        } else if let Some(r) = tag("Result") {
            result = Some(r);
        } else if let Some(t) = tag("Termination")
            && let (Some(n), Some(r)) = (round.take(), result.take())
        {
            out.push((n, r, t));
        }
    }
    out
}
