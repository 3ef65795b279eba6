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
//! [FinalPosition "..."]                  <- games with hidden information: the referee's full final state
//! [Termination "normal"]                 <- or "won race", "time forfeit: ...", "engine crashed ...", "move limit"
//!
//! 1. a2a3 h7h6 2. b2b3 ... 1-0
//! ```

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::game::Side;

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
    pub winner: Option<Side>,
    pub termination: String,
    /// Longest time one move took, for player A and player B (milliseconds).
    pub max_move_ms: [u64; 2],
    /// Sum of the move times of A and B (milliseconds) and the number of moves each made (opening excluded).
    pub total_move_ms: [u64; 2],
    pub moves_timed: [u64; 2],
    /// Time of every move played after the opening, in order (milliseconds).
    pub move_ms: Vec<u64>,
    /// Games with hidden information: the referee's full final state (`[FinalPosition]`), which no player saw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_position: Option<String>,
}

fn ser_winner<S: serde::Serializer>(w: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match w {
        Some(Side::First) => "first",
        Some(Side::Second) => "second",
        None => "draw",
    })
}

impl GameRecord {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Side::First) => "1-0",
            Some(Side::Second) => "0-1",
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
    pub(crate) fn a_score(&self) -> f64 {
        match (self.winner, self.a_first) {
            (None, _) => 0.5,
            (Some(Side::First), true) | (Some(Side::Second), false) => 1.0,
            _ => 0.0,
        }
    }

    /// The PGN-style block, ending with a blank line.
    pub fn to_pgn(&self) -> String {
        self.to_pgn_with(&[])
    }

    /// The PGN-style block with the match's own tags (`[Seed "1"]` ..., [`RecordFile::open`]) after the opening's.
    pub(crate) fn to_pgn_with(&self, match_tags: &[(String, String)]) -> String {
        let q = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        let mut out = String::new();
        out += EVENT;
        out.push('\n');
        out += &format!("[Game \"{}\"]\n", q(&self.game));
        out += &format!("[Round \"{}\"]\n", self.round);
        out += &format!("[White \"{}\"]\n", q(&self.first));
        out += &format!("[Black \"{}\"]\n", q(&self.second));
        out += &format!("[TimeControl \"{}\"]\n", q(&self.time_control));
        out += &format!("[Opening \"{}\"]\n", q(&self.opening));
        if let Some(f) = &self.fen {
            out += &format!("[FEN \"{}\"]\n", q(f));
        }
        for (name, value) in match_tags {
            out += &format!("[{name} \"{}\"]\n", q(value));
        }
        // Move times by colour: seat 0 (White) is A when A moved first.
        let seat = |i: usize| if self.a_first { i } else { 1 - i };
        for (i, colour) in ["White", "Black"].iter().enumerate() {
            let (max, mean) = (self.max_move_ms[seat(i)], self.mean_move_ms()[seat(i)]);
            out += &format!("[{colour}MaxMs \"{max}\"]\n[{colour}MeanMs \"{mean:.1}\"]\n");
            let (moves, total) = (self.moves_timed[seat(i)], self.total_move_ms[seat(i)]);
            out += &format!("[{colour}Moves \"{moves}\"]\n[{colour}TotalMs \"{total}\"]\n");
        }
        if !self.move_ms.is_empty() {
            let times: Vec<String> = self.move_ms.iter().map(u64::to_string).collect();
            out += &format!("[MoveMs \"{}\"]\n", times.join(" "));
        }
        if let Some(f) = &self.final_position {
            out += &format!("[FinalPosition \"{}\"]\n", q(f));
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

/// An append-only record file; every block carries the match's own tags.
pub(crate) struct RecordFile {
    file: File,
    tags: Vec<(String, String)>,
}

impl RecordFile {
    /// Open (or create) `path` to append games to ([`crate::files::append`]: a regular file only). A file that does
    /// not end with a line break (its last block was cut short) gets one, so that the next block starts on its own
    /// line.
    pub fn open(path: &Path, tags: Vec<(String, String)>) -> Result<Self, String> {
        let err = |e: std::io::Error| format!("cannot open record file {}: {e}", path.display());
        let mut file = crate::files::append(path, "record file")?;
        let len = file.metadata().map_err(err)?.len();
        if len > 0 {
            let mut last = [0u8];
            file.seek(SeekFrom::Start(len - 1)).and_then(|_| file.read_exact(&mut last)).map_err(err)?;
            if last[0] != b'\n' {
                file.write_all(b"\n\n").map_err(err)?;
            }
        }
        Ok(RecordFile { file, tags })
    }
    /// Append one game and flush it to the operating system.
    pub(crate) fn append(&mut self, r: &GameRecord) -> Result<(), String> {
        self.file
            .write_all(r.to_pgn_with(&self.tags).as_bytes())
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
            Some(unescape(rest.strip_suffix("\"]")?))
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

/// A tag value as written by [`GameRecord::to_pgn`], its `\"` and `\\` read back.
fn unescape(value: &str) -> String {
    value.replace("\\\"", "\"").replace("\\\\", "\\")
}

/// One game read back from a record file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGame {
    pub round: usize,
    pub game: String,
    /// The start position when it was not the game's start (`[FEN]`).
    pub fen: Option<String>,
    /// The moves in the game's notation, in order (the opening plies included).
    pub moves: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    pub termination: String,
    /// Every tag of the block, in order, values unescaped.
    pub tags: Vec<(String, String)>,
}

impl ReadGame {
    /// The value of tag `name`, if the block has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Read whole games back from a record file (tags and move text). A game whose block is cut short (a file written
/// by an interrupted match) is left out; a malformed block is an error naming its line.
pub fn read_games(text: &str) -> Result<Vec<ReadGame>, String> {
    read_games_to_end(text).map(|(games, _)| games)
}

/// [`read_games`], with the length of the text up to the end of the last whole game's line (what an interrupted
/// match's file keeps once a block cut short is cut off).
pub(crate) fn read_games_to_end(text: &str) -> Result<(Vec<ReadGame>, usize), String> {
    parse(text, false)
}

/// The first line of every block [`GameRecord::to_pgn`] writes.
pub(crate) const EVENT: &str = "[Event \"plateau match\"]";

/// [`read_games_to_end`] for a record file a match is to continue (`match --resume`), strictly: every line must
/// belong to a game block, and what follows the last whole game must be a block of a match of `game` cut short (the
/// start of `[Event "plateau match"]`, then whole tags, the game's own `[Game]` if it got that far), which is what
/// the caller may cut off. Anything else is an error, so that a file that is not such a record is never changed.
pub(crate) fn read_record_to_continue(text: &str, game: &str) -> Result<(Vec<ReadGame>, usize), String> {
    let (games, end) = parse(text, true)?;
    let tail = text[end..].trim_start();
    if tail.is_empty() {
        return Ok((games, end));
    }
    let not_cut = "what follows its last whole game is not a game cut short (not a record of plateau match?): \
                   nothing was changed";
    if !(tail.starts_with(EVENT) || EVENT.starts_with(tail)) {
        return Err(not_cut.to_string());
    }
    let whole_lines = tail.split_inclusive('\n').filter(|l| l.ends_with('\n'));
    for line in whole_lines.map(str::trim).take_while(|l| l.starts_with('[')) {
        if let Some(g) = line.strip_prefix("[Game \"").and_then(|v| v.strip_suffix("\"]"))
            && unescape(g) != game
        {
            return Err(format!(
                "the game cut short at its end is of {}, not {game}: not a record of this match, nothing was changed",
                unescape(g)
            ));
        }
    }
    Ok((games, end))
}

/// The games of `text` and where the last whole one ends; `strict`: a line outside any game block is an error.
fn parse(text: &str, strict: bool) -> Result<(Vec<ReadGame>, usize), String> {
    let mut out = Vec::new();
    let mut cur: Option<ReadGame> = None;
    let mut in_moves = false;
    let mut end = 0;
    let mut offset = 0;
    let results = ["1-0", "0-1", "1/2-1/2", "*"];
    for (n, raw) in text.split_inclusive('\n').enumerate() {
        offset += raw.len();
        let line = raw.trim();
        if !raw.ends_with('\n') && line.starts_with('[') && !line.ends_with(']') {
            // The file ends inside a tag line: a block cut short.
            break;
        }
        if line.starts_with('[') {
            // A new block started before the previous one's result (or an [Event] tag amid another block's tags):
            // the previous one was cut short.
            if in_moves || (line.starts_with("[Event ") && cur.as_ref().is_some_and(|g| !g.tags.is_empty())) {
                cur = None;
                in_moves = false;
            }
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| format!("record line {}: malformed tag", n + 1))?;
            let (name, value) = inner.split_once(' ').ok_or_else(|| format!("record line {}: malformed tag", n + 1))?;
            let value = value
                .trim()
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| format!("record line {}: tag value not quoted", n + 1))
                .map(unescape)?;
            let g = cur.get_or_insert_with(|| ReadGame {
                round: 0,
                game: String::new(),
                fen: None,
                moves: Vec::new(),
                result: String::new(),
                termination: String::new(),
                tags: Vec::new(),
            });
            match name {
                "Round" => g.round = value.parse().map_err(|_| format!("record line {}: bad round", n + 1))?,
                "Game" => g.game = value.clone(),
                "FEN" => g.fen = Some(value.clone()),
                "Result" => g.result = value.clone(),
                "Termination" => g.termination = value.clone(),
                _ => {}
            }
            g.tags.push((name.to_string(), value));
        } else if !line.is_empty() {
            let Some(g) = cur.as_mut() else {
                if strict {
                    return Err(format!(
                        "record line {}: text outside a game block (not a record of plateau match?)",
                        n + 1
                    ));
                }
                continue;
            };
            in_moves = true;
            for word in line.split_whitespace() {
                if results.contains(&word) {
                    if word != g.result {
                        return Err(format!("record line {}: result {word} differs from the tag {}", n + 1, g.result));
                    }
                    out.push(cur.take().expect("a game is open"));
                    in_moves = false;
                    end = offset;
                    break;
                }
                if word.ends_with('.') && word[..word.len() - 1].chars().all(|c| c.is_ascii_digit()) {
                    continue;
                }
                g.moves.push(word.to_string());
            }
        }
    }
    Ok((out, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(round: usize, moves: &[&str], winner: Option<Side>, fen: Option<&str>) -> GameRecord {
        GameRecord {
            round,
            game: "breakthrough".into(),
            first: "engine".into(),
            second: "uci(x \"quoted\")".into(),
            a_first: true,
            time_control: "movetime 100ms".into(),
            opening: moves[..2].join(" "),
            fen: fen.map(str::to_string),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            winner,
            termination: "normal".into(),
            max_move_ms: [1, 2],
            total_move_ms: [3, 4],
            moves_timed: [1, 1],
            move_ms: vec![1, 2],
            final_position: None,
        }
    }

    #[test]
    fn games_read_back_as_written() {
        let long: Vec<String> = (0..60).map(|i| format!("a{}a{}", i % 7 + 1, i % 7 + 2)).collect();
        let long: Vec<&str> = long.iter().map(String::as_str).collect();
        let a = record(1, &long, Some(Side::First), None);
        let b = record(2, &["a2a3", "h7h6", "b2b3"], None, Some("8/8/8/8/8/8/8/8 w"));
        let c = record(3, &["a2a3", "h7h6"], Some(Side::Second), None);
        let text = format!("{}{}{}", a.to_pgn(), b.to_pgn(), c.to_pgn());
        let games = read_games(&text).unwrap();
        assert_eq!(games.len(), 3);
        for (r, g) in [&a, &b, &c].iter().zip(&games) {
            assert_eq!(g.round, r.round);
            assert_eq!(g.moves, r.moves);
            assert_eq!(g.result, r.result_text());
            assert_eq!(g.fen, r.fen);
            assert_eq!(g.termination, "normal");
        }
        // An interrupted file: the cut game is left out, the others kept.
        let cut = &text[..text.len() - 10];
        assert_eq!(read_games(cut).unwrap().len(), 2);
        // What is kept of it: the two whole games, up to the end of the second one's last line.
        let (_, end) = read_games_to_end(cut).unwrap();
        assert_eq!(end, a.to_pgn().len() + b.to_pgn().len() - 1);
        // A block cut inside its tags, followed by a whole one: the cut block is left out, not merged.
        let c_text = c.to_pgn();
        let torn = format!("{}{}", &c_text[..c_text.find("[White").unwrap()], a.to_pgn());
        let games = read_games(&torn).unwrap();
        assert_eq!((games.len(), games[0].round, games[0].moves.len()), (1, 1, 60));
        assert_eq!(games[0].tag("WhiteMoves"), Some("1"));
        // A file that ends inside a tag line.
        let (games, end) = read_games_to_end(&format!("{}{}", a.to_pgn(), &c_text[..60])).unwrap();
        assert_eq!((games.len(), end), (1, a.to_pgn().len() - 1));
        assert!(read_games("[Round \"x\"]\n").unwrap_err().contains("line 1"));
        assert!(read_games("[Result \"1-0\"]\n\na2a3 0-1\n").unwrap_err().contains("differs"));
    }

    #[test]
    fn only_a_record_cut_short_at_its_end_may_be_continued() {
        let a = record(1, &["a2a3", "h7h6", "b2b3"], Some(Side::First), None).to_pgn();
        let b = record(2, &["a2a3", "h7h6"], None, None).to_pgn();
        let whole = format!("{a}{b}");
        let cont = |t: &str| read_record_to_continue(t, "breakthrough");
        // Whole games, a block cut anywhere (even inside its first tag): the games and where they end.
        assert_eq!(cont(&whole).unwrap(), (read_games(&whole).unwrap(), whole.len() - 1));
        for cut in [10, 30, 200, b.len() - 10] {
            let (games, end) = cont(&format!("{a}{}", &b[..cut])).unwrap();
            assert_eq!((games.len(), end), (1, a.len() - 1), "cut at {cut}");
        }
        let (games, end) = cont(&b[..10]).unwrap();
        assert_eq!((games.len(), end), (0, 0));
        assert_eq!(cont("").unwrap().0.len(), 0);
        // Not a record: text, text after the games, another block's start, another game's block: refused.
        for text in [
            "notes\n",
            "notes",
            &format!("{whole}notes\n"),
            &format!("notes\n{whole}"),
            &format!("{whole}[Foo \"x\"]\n"),
        ] {
            assert!(cont(text).is_err(), "{text:?}");
            assert!(read_games_to_end(text).is_ok(), "the lenient reader still reads {text:?}");
        }
        let e = cont(&format!("{a}{}", &b[..60].replace("breakthrough", "othello"))).unwrap_err();
        assert!(e.contains("of othello, not breakthrough"), "{e}");
    }

    #[test]
    fn results_read_back_quoted_tags_as_written() {
        // Found by the `records` fuzz target: `read_results` gave a termination with its quotes still escaped.
        let mut r = record(4, &["a2a3", "h7h6"], Some(Side::First), None);
        r.termination = "[Game \"x\"] \\ end".into();
        let text = r.to_pgn();
        assert_eq!(read_results(&text), vec![(4, "1-0".to_string(), r.termination.clone())]);
        assert_eq!(read_games(&text).unwrap()[0].termination, r.termination);
    }
}
