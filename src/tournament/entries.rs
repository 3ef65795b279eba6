//! The players of a tournament ([`Entry`]: a name, a player string, an optional clock of its own) and where they come
//! from: `--player [NAME=]SPEC` on the command line, a players file (TOML or JSON), a folder of engines (each
//! executable file one UCI or UGI entry named after the file). [`Named`] plays an arena player under its entry's
//! name, so that records, results and failures name the entries.
//!
//! ```text
//! # players.toml                                   // players.json
//! [[players]]                                      {"players": [
//! name = "minimax2"                                  {"name": "minimax2", "player": "alphabeta(depth=2)"},
//! player = "alphabeta(depth=2)"                      {"name": "alice", "cmd": "python3 alice.py",
//!                                                     "protocol": "uci", "options": {"Hash": 16}, "tc": "20s+0.2s"}
//! [[players]]                                      ]}
//! name = "alice"
//! cmd = "python3 alice.py"       # an external engine: its command line (run from the current directory)
//! protocol = "uci"               # or "ugi" (default "uci")
//! options = { Hash = 16 }        # sent as `setoption name Hash value 16`
//! tc = "20s+0.2s"                # its own clock (optional)
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use crate::game::{FullGame, Side};
use crate::players::{Choice, Context, Player};
use crate::search::{Limits, RootMoveStats, TimeControl};

/// The longest entry name.
pub(crate) const MAX_NAME: usize = 80;

/// One player of a tournament.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    /// The name in records, results and standings (unique in the tournament).
    pub name: String,
    /// A player string as `plateau match` takes it: a built-in player or `uci(...)` / `ugi(...)`.
    pub player: String,
    /// Its own clock (`10s+0.1s`) instead of the tournament's `--tc`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<String>,
}

impl Entry {
    /// `NAME=SPEC` or a bare `SPEC` (named after its string). A `=` inside parentheses belongs to the string
    /// (`alphabeta(depth=2)`).
    pub(crate) fn from_arg(text: &str) -> Result<Entry, String> {
        let text = text.trim();
        let named = text.split_once('=').filter(|(name, _)| !name.contains('(') && !name.contains(')'));
        let (name, player) = match named {
            Some((name, player)) => (name.trim().to_string(), player.trim().to_string()),
            None => (text.to_string(), text.to_string()),
        };
        if player.is_empty() {
            return Err(format!("--player {text}: no player string after the name"));
        }
        let e = Entry { name, player, tc: None };
        e.check_name()?;
        Ok(e)
    }

    fn check_name(&self) -> Result<(), String> {
        let n = &self.name;
        if n.is_empty() {
            return Err(format!("player '{}': an empty name", self.player));
        }
        if n.chars().count() > MAX_NAME || n.chars().any(char::is_control) || n.trim() != n {
            return Err(format!(
                "player name '{}': at most {MAX_NAME} printable characters, without spaces around",
                n.chars().take(MAX_NAME).collect::<String>()
            ));
        }
        Ok(())
    }

    /// Its clock, parsed.
    pub fn clock(&self) -> Result<Option<TimeControl>, String> {
        self.tc
            .as_deref()
            .map(crate::arena::parse_tc)
            .transpose()
            .map_err(|e| format!("player {}: {}", self.name, e.trim_start_matches("--tc: ")))
    }
}

/// A value of an engine option in a players file (`Hash = 16`, `Ponder = false`, `Style = "solid"`).
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(untagged)]
enum OptionValue {
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
}

impl std::fmt::Display for OptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Float(x) => write!(f, "{x}"),
            OptionValue::Text(t) => write!(f, "{t}"),
        }
    }
}

/// One entry of a players file.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct FileEntry {
    name: String,
    player: Option<String>,
    cmd: Option<String>,
    protocol: Option<String>,
    #[serde(default)]
    options: BTreeMap<String, OptionValue>,
    tc: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayersFile {
    players: Vec<FileEntry>,
}

/// A JSON players file is `{"players": [...]}` or the list itself.
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
enum JsonPlayers {
    List(Vec<FileEntry>),
    File(PlayersFile),
}

/// The player string of an external engine: `uci(cmd=CMD,name=NAME,options=K:V;K:V)`.
fn engine_string(protocol: &str, cmd: &str, name: &str, options: &[(String, String)]) -> Result<String, String> {
    let dialect = match protocol {
        "uci" | "ugi" => protocol,
        other => return Err(format!("player {name}: protocol '{other}': uci or ugi")),
    };
    let bad = |t: &str| t.contains([',', '(', ')', ';']) || t.chars().any(char::is_control);
    if cmd.trim().is_empty() {
        return Err(format!("player {name}: an empty cmd"));
    }
    if bad(cmd) {
        return Err(format!("player {name}: cmd '{cmd}': a command may not hold , ( ) or ; (put it in a script)"));
    }
    let mut s = format!("{dialect}(cmd={}", cmd.trim());
    if !bad(name) && !name.contains('=') {
        s += &format!(",name={name}");
    }
    if !options.is_empty() {
        for (k, v) in options {
            if bad(k) || bad(v) || k.contains(':') {
                return Err(format!("player {name}: option {k} = {v}: names and values may not hold , ( ) ; or :"));
            }
        }
        let list: Vec<String> = options.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        s += &format!(",options={}", list.join(";"));
    }
    s.push(')');
    Ok(s)
}

impl FileEntry {
    fn into_entry(self) -> Result<Entry, String> {
        let name = self.name.clone();
        let player = match (self.player, self.cmd) {
            (Some(p), None) => {
                if self.protocol.is_some() || !self.options.is_empty() {
                    return Err(format!("player {name}: protocol and options go with cmd, not with player"));
                }
                p
            }
            (None, Some(cmd)) => {
                let options: Vec<(String, String)> =
                    self.options.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
                engine_string(self.protocol.as_deref().unwrap_or("uci"), &cmd, &name, &options)?
            }
            (Some(_), Some(_)) => return Err(format!("player {name}: give player or cmd, not both")),
            (None, None) => return Err(format!("player {name}: give a player string (player = ...) or cmd = ...")),
        };
        let e = Entry { name, player, tc: self.tc };
        e.check_name()?;
        e.clock()?;
        Ok(e)
    }
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The entries of a players file: JSON when its name ends in `.json`, TOML otherwise. Errors are one line.
pub fn read_players_file(path: &Path) -> Result<Vec<Entry>, String> {
    let shown = path.display();
    let text = crate::files::read_text(path, crate::files::MAX_TEXT, "players file")?;
    if text.trim().is_empty() {
        return Err(format!("players file {shown} is empty"));
    }
    let list = if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) {
        match serde_json::from_str::<JsonPlayers>(&text) {
            Ok(JsonPlayers::List(l)) | Ok(JsonPlayers::File(PlayersFile { players: l })) => l,
            Err(e) => {
                // The untagged enum hides why; say it for the `{"players": [...]}` form.
                let why = serde_json::from_str::<PlayersFile>(&text).err().unwrap_or(e);
                return Err(format!("players file {shown}: {}", crate::game::one_line(&why.to_string())));
            }
        }
    } else {
        match toml::from_str::<PlayersFile>(&text) {
            Ok(f) => f.players,
            Err(e) => {
                let line = e.span().map(|s| format!("line {}: ", line_of(&text, s.start))).unwrap_or_default();
                return Err(format!("players file {shown}: {line}{}", crate::game::one_line(e.message())));
            }
        }
    };
    if list.is_empty() {
        return Err(format!("players file {shown} lists no player"));
    }
    list.into_iter().map(FileEntry::into_entry).collect::<Result<Vec<_>, _>>().map_err(|e| format!("{shown}: {e}"))
}

/// One entry per executable regular file of `dir` (sorted by name), named after the file without its extension,
/// spoken to over `protocol` (`uci` or `ugi`). Other files (a README) are skipped.
pub(crate) fn engines_in(dir: &Path, protocol: &str) -> Result<Vec<Entry>, String> {
    let shown = dir.display();
    let read = std::fs::read_dir(dir).map_err(|e| format!("--engines {shown}: {e}"))?;
    let mut files: Vec<std::path::PathBuf> = read
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() && executable(&m)))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("--engines {shown}: no executable file (chmod +x the engines)"));
    }
    let mut out = Vec::new();
    for p in files {
        let name = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let cmd = p.display().to_string();
        if cmd.chars().any(char::is_whitespace) {
            return Err(format!("--engines: {cmd}: a path with spaces cannot be run (rename the file or folder)"));
        }
        let player = engine_string(protocol, &cmd, &name, &[])?;
        let e = Entry { name, player, tc: None };
        e.check_name()?;
        out.push(e);
    }
    Ok(out)
}

#[cfg(unix)]
fn executable(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_m: &std::fs::Metadata) -> bool {
    true
}

/// A player under its entry's name.
pub(crate) struct Named<G: FullGame> {
    pub name: String,
    pub inner: Box<dyn Player<G>>,
}

impl<G: FullGame> Player<G> for Named<G> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn plays_under(&self, limits: Option<Limits>) -> String {
        self.inner.plays_under(limits)
    }
    fn check_limits(&self, limits: Option<Limits>) -> Result<(), String> {
        self.inner.check_limits(limits)
    }
    fn setup(&mut self, game: &G) -> Result<(), String> {
        self.inner.setup(game)
    }
    fn new_game(&mut self, game: &G) -> Result<(), String> {
        self.inner.new_game(game)
    }
    fn reseed(&mut self, seed: u64) {
        self.inner.reseed(seed);
    }
    fn observe_start(&mut self, game: &G, start: &G::State, side: Side) -> Result<(), String> {
        self.inner.observe_start(game, start, side)
    }
    fn observe(&mut self, game: &G, observation: &str) -> Result<(), String> {
        self.inner.observe(game, observation)
    }
    fn choose(&mut self, game: &G, cx: Context<'_, G>) -> Result<Choice<G::Move>, String> {
        self.inner.choose(game, cx)
    }
    fn root_moves(&self) -> Vec<RootMoveStats<G::Move>> {
        self.inner.root_moves()
    }
}
