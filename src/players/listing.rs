//! The list of players (`plateau players [GAME]`, `GET /api/players[?game=]`, the names in `plateau --help`): every
//! entry of the registry ([`super::all`]) with what it is, the kinds of game and the registered games it plays, and
//! its parameters ([`super::params`]) for each kind of game it plays; with a game, only the players of that game and
//! their parameters on it (the game's own settings for `mcts`, its evaluations).

use super::params::{self, ParamRow};
use super::{Family, PRESETS, all};
use crate::game::{FullGame, Kind};
use crate::games::{AnyGame, catalogue, with_game};

/// The list, as `plateau players --json` prints it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlayersReport {
    /// The game string given (`null` for every player).
    pub game: Option<String>,
    pub players: Vec<PlayerEntry>,
}

/// One player of the registry.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlayerEntry {
    pub name: &'static str,
    pub aliases: Vec<&'static str>,
    /// Other names that stand for this player with some parameters set (`ids` = `alphabeta(id=true)`).
    pub presets: Vec<Preset>,
    pub(crate) family: Family,
    /// What it is, in one line.
    pub summary: &'static str,
    /// Its name in the course's slides, where they name it.
    pub course: Option<&'static str>,
    /// The kinds of game it plays, in words (`deterministic, perfect information`, `chance`...).
    pub kinds: Vec<String>,
    /// The registered games it plays.
    pub games: Vec<&'static str>,
    /// Its parameters, one set per group of kinds of game that read the same ones.
    pub params: Vec<ParamSet>,
}

/// A name standing for a player with parameters.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Preset {
    pub name: &'static str,
    pub means: String,
}

/// The parameters a player reads on the games of some kinds.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ParamSet {
    /// The kinds of game, in words, joined by `; `.
    pub on: String,
    pub params: Vec<ParamRow>,
}

/// What a game brings to the list: its kind, its evaluations, its settings for `mcts`.
struct GameFacts {
    text: String,
    kind: Kind,
    evaluations: &'static [&'static str],
    mcts_defaults: &'static str,
}

fn facts<G: FullGame>(g: &G) -> GameFacts {
    GameFacts { text: g.spec(), kind: G::KIND, evaluations: G::EVALUATIONS, mcts_defaults: G::MCTS_DEFAULTS }
}

/// The rows of `name` on games of `kind` (the engine's tunables included), adjusted to `game` when given.
fn rows(name: &str, kind: Kind, game: Option<&GameFacts>) -> Vec<ParamRow> {
    let mut out: Vec<ParamRow> = params::params(name, kind).into_iter().map(ParamRow::from).collect();
    let engine_like = name == "engine" || (name == "naive" && kind.simultaneous);
    if engine_like && !kind.chance {
        out.extend(params::tunables());
    }
    if let Some(g) = game {
        for r in out.iter_mut().filter(|r| r.name == "eval") {
            let default = if r.default == "default" { "default, " } else { "" };
            r.accepts = format!("{default}{} (this game's evaluations)", g.evaluations.join(", "));
        }
        if name == "mcts" {
            for setting in g.mcts_defaults.split(',').filter(|s| !s.is_empty()) {
                let Some((k, v)) = setting.split_once('=') else { continue };
                if let Some(r) = out.iter_mut().find(|r| r.name == k) {
                    r.meaning = format!("{} (this game's setting; with defaults=none: {})", r.meaning, r.default);
                    r.default = v.to_string();
                    r.default_is_value = true;
                    r.example = v.to_string();
                }
            }
        }
    }
    out
}

/// The list of every player (`game: None`) or of the players of `game`.
pub fn report(game: Option<&AnyGame>) -> PlayersReport {
    let facts = game.map(|any| with_game!(any, g => facts(g)));
    let listed = catalogue();
    // The kinds of the registered games, in registry order, each once.
    let mut kinds: Vec<Kind> = Vec::new();
    for l in &listed {
        if !kinds.contains(&l.kind) {
            kinds.push(l.kind);
        }
    }
    let players = all()
        .into_iter()
        .filter(|p| facts.as_ref().is_none_or(|f| p.plays(f.kind)))
        .map(|p| {
            let about = params::about(p.name).expect("every registered player has its line (params.rs)");
            let plays: Vec<Kind> = kinds.iter().copied().filter(|&k| p.plays(k)).collect();
            let params = match &facts {
                Some(f) => vec![ParamSet { on: f.kind.describe(), params: rows(p.name, f.kind, Some(f)) }],
                None => {
                    let mut sets: Vec<(Vec<String>, Vec<ParamRow>)> = Vec::new();
                    for &k in &plays {
                        let r = rows(p.name, k, None);
                        match sets.iter_mut().find(|(_, rs)| *rs == r) {
                            Some((on, _)) => on.push(k.describe()),
                            None => sets.push((vec![k.describe()], r)),
                        }
                    }
                    sets.into_iter().map(|(on, params)| ParamSet { on: on.join("; "), params }).collect()
                }
            };
            PlayerEntry {
                name: p.name,
                aliases: p.aliases.to_vec(),
                presets: PRESETS
                    .iter()
                    .filter(|(_, of, _)| *of == p.name)
                    .map(|&(name, of, with)| Preset { name, means: format!("{of}({with})") })
                    .collect(),
                family: p.family,
                summary: about.summary,
                course: about.course,
                kinds: plays.iter().map(|k| k.describe()).collect(),
                games: listed.iter().filter(|l| p.plays(l.kind)).map(|l| l.info.name).collect(),
                params,
            }
        })
        .collect();
    PlayersReport { game: facts.map(|f| f.text), players }
}

/// The list as text: one paragraph per player.
pub fn text(r: &PlayersReport) -> String {
    let mut s = String::new();
    match &r.game {
        Some(g) => s.push_str(&format!("players of {g} (parameters as NAME(key=value,...)):\n")),
        None => s.push_str("players (parameters as NAME(key=value,...); `plateau players GAME` for one game's):\n"),
    }
    for p in &r.players {
        let mut other: Vec<String> = p.aliases.iter().map(|a| a.to_string()).collect();
        other.extend(p.presets.iter().map(|x| format!("{} = {}", x.name, x.means)));
        let other = if other.is_empty() { String::new() } else { format!(" (also: {})", other.join(", ")) };
        let course = p.course.map_or(String::new(), |c| format!(" [course: {c}]"));
        s.push_str(&format!("\n{}{}: {}{}\n", p.name, other, p.summary, course));
        if r.game.is_none() {
            s.push_str(&format!("  plays: {}\n", p.games.join(", ")));
        }
        for set in &p.params {
            if p.params.len() > 1 || r.game.is_none() {
                s.push_str(&format!("  on games with {}:\n", set.on));
            }
            if set.params.is_empty() {
                s.push_str("    (no parameters)\n");
            }
            for q in &set.params {
                s.push_str(&format!(
                    "    {:<12} {}\n    {:<12} default {}; accepts {}\n",
                    q.name, q.meaning, "", q.default, q.accepts
                ));
            }
        }
    }
    s
}

/// The names for `--help`: a pointer to `plateau players` and every name, aliases and presets in parentheses.
pub fn help() -> String {
    let names: Vec<String> = all()
        .iter()
        .map(|p| {
            let mut other: Vec<&str> = p.aliases.to_vec();
            other.extend(PRESETS.iter().filter(|(_, of, _)| *of == p.name).map(|(n, _, _)| *n));
            if other.is_empty() { p.name.to_string() } else { format!("{} ({})", p.name, other.join(", ")) }
        })
        .collect();
    format!(
        "Players and algorithms (`plateau players [GAME]` lists what each plays and its parameters; \
         NAME(key=value,...)):\n  {}\n  and in matches uci(cmd=...), ugi(cmd=...)",
        names.join(", ")
    )
}
