//! What each registered player is and accepts, for `plateau players`, `--help` and `GET /api/players`: one line of
//! what it is (in the course's words where the course names it) and its parameters, each with its default, the
//! values accepted and one line of meaning.
//!
//! ```text
//! about(name)                 -> About { summary, course }            (every entry of the registry has one)
//! params(name, kind)          -> [Param]   the parameters a player reads on a game of that kind
//!                                          (the engine on a chance game, naive on a simultaneous one, read others)
//! ```
//!
//! The parsers (`from_spec` of each player) read their parameters themselves; `tests/suite/players.rs` holds this table
//! to them: for every player and kind of game it plays, every parameter the parser asks for is listed here, every
//! listed parameter is accepted with its example value, and a listed default written out builds the same player as
//! leaving it out.

use crate::engine::params::SWITCHES;
use crate::engine::tunables;
use crate::game::Kind;

/// One parameter of a player string.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    /// The value used when the string does not give the parameter, as a string would write it (`literal`), or words
    /// saying what happens then (`none: 4 plies unless time or nodes is given`).
    pub default: &'static str,
    /// Whether `name=default` builds the same player as leaving it out.
    pub(crate) literal: bool,
    /// A value the parameter accepts (the default when it is literal).
    pub example: &'static str,
    /// The values accepted: a range, a list, a kind of value.
    pub accepts: &'static str,
    /// One line of meaning.
    pub(crate) meaning: &'static str,
}

const fn p(name: &'static str, default: &'static str, accepts: &'static str, meaning: &'static str) -> Param {
    Param { name, default, literal: true, example: default, accepts, meaning }
}

const fn unset(
    name: &'static str,
    default: &'static str,
    example: &'static str,
    accepts: &'static str,
    meaning: &'static str,
) -> Param {
    Param { name, default, literal: false, example, accepts, meaning }
}

const DURATION: &str = "a duration: 100ms, 1s, 1.5s (a bare number is milliseconds)";
const COUNT: &str = "a whole number, at least 1 (10k, 2m)";
const SEED: &str = "a whole number";
const BOOL: &str = "true|false (also on|off, yes|no, 1|0)";
const SIZE: &str = "a size: 16mb, 1gb (a bare number is MiB)";
const EVALS: &str = "an evaluation of the game (`plateau games`, `plateau eval`); NAME:FILE for one with weights";

const TIME: Param = unset("time", "none", "100ms", DURATION, "time per move");
const NODES: Param = unset("nodes", "none", "1000", COUNT, "node budget per move");
const SEED_OWN: Param = unset(
    "seed",
    "none: from a match's --seed (each game its own), else from the system",
    "1",
    SEED,
    "the seed of its random choices (in a match, mixed with the game's own seed)",
);

/// Every algorithm of the course's catalogue reads these.
const CATALOGUE: &[Param] = &[
    unset(
        "depth",
        "none: 4 plies unless time or nodes is given",
        "3",
        "0..=200",
        "search depth in plies (with time or nodes: the deepest iteration)",
    ),
    Param { meaning: "time per move: iterative deepening until it runs out", ..TIME },
    Param { meaning: "node budget per move: iterative deepening until it runs out", ..NODES },
    p("id", "false", BOOL, "iterative deepening 1, 2, ..., depth even at a fixed depth (always on with time or nodes)"),
    p("eval", "simple", EVALS, "the evaluation of the positions at the horizon"),
];

const TT_NONE: Param = p("tt", "0", "a size: 0 (no table), 16mb, 1gb", "transposition table size (0: none)");
const TT_16: Param = p("tt", "16mb", SIZE, "transposition table size (the memory of the tests)");
const TIES: Param = p(
    "ties",
    "leftmost",
    "leftmost|newest",
    "which OPEN state of equal merit comes first: the leftmost, or the newest as in the course's trace",
);

const RANDOM: &[Param] = &[SEED_OWN];

/// The engine's parameters before its switches ([`crate::engine::params::SWITCHES`], listed from there) and besides
/// its numeric tunables ([`tunables::PARAMS`], added by [`params`]).
const ENGINE_HEAD: &[Param] = &[
    unset("depth", "none: 6 plies unless time or nodes is given", "4", "1..=200", "search depth in plies"),
    Param { meaning: "time per move (the engine plans a clock's time itself)", ..TIME },
    NODES,
    p("tt", "64mb", "a size (16mb, 1gb) or off", "transposition table size"),
    p("threads", "1", "1..=256", "search threads (Lazy SMP: they share the table)"),
];

/// The engine's parameters after its switches.
const ENGINE_TAIL: &[Param] = &[
    p(
        "eval",
        "default",
        "default, or an evaluation of the game (NAME, NAME:FILE)",
        "the evaluation (default: the game's first)",
    ),
    p("margin", "10ms", DURATION, "time kept in reserve on every move"),
    unset(
        "db",
        "none",
        "FILE",
        "a database file (`plateau solve --method retro --db FILE`)",
        "a retrograde database probed at every node",
    ),
    p("soft", "100", "10..=100", "no new iteration after this percent of a fixed time per move"),
    unset(
        "params",
        "none: the game's own values",
        "general",
        "a parameters file (`plateau spsa --out`) or general",
        "the numeric search constants (general: the untuned defaults)",
    ),
    p("book", "off", "a book file (`plateau book build`) or off", "an opening book"),
    p("book_margin", "20", "0..=1000000", "book moves within this many evaluation units of the best are candidates"),
    p("book_random", "true", BOOL, "pick among the book's candidates at random (else the best)"),
    unset("book_seed", "none: from a match's --seed, else from the system", "1", SEED, "the seed of the book's picks"),
];

/// The engine on a game with chance: iterative deepening over Star2 with a table.
const ENGINE_CHANCE: &[Param] = &[
    unset(
        "depth",
        "none: 4 plies unless time or nodes is given (chance plies count)",
        "3",
        "0..=200",
        "search depth in plies",
    ),
    TIME,
    NODES,
    p("tt", "16mb", SIZE, "transposition table size"),
    p("eval", "default", "default, or an evaluation of the game", "the evaluation (default: the game's first)"),
];

const MCTS: &[Param] = &[
    unset(
        "depth",
        "none: the tree grows without limit",
        "8",
        "1..=200",
        "the tree grows at most this many plies below the root",
    ),
    TIME,
    Param { meaning: "nodes of the tree per move", ..NODES },
    unset("playouts", "none: 10000 when no time or nodes is given", "500", COUNT, "iterations per move"),
    p("c", "1", "0..=100", "UCT's exploration constant (rewards in 0..1)"),
    p("solver", "true", BOOL, "MCTS-Solver: proven wins and losses backed up and never sampled again"),
    p("cut", "0", "0..=10000", "evaluation-cut playouts: the evaluation after this many random plies (0: to the end)"),
    p(
        "decisive",
        "false",
        BOOL,
        "playouts guided by the game: a winning move, else the one stopping the opponent's win (Othello: corners first)",
    ),
    p("bias", "0", "0..=1000000", "weight of the progressive bias by the evaluation (0: off)"),
    p("scale", "200", "0.001..", "scale of the evaluation's squashing to a winning chance"),
    p("rave", "0", "0..", "RAVE's equivalence parameter k (0: off)"),
    unset("eval", "none: simple (or the game's setting)", "simple", EVALS, "the evaluation used by cut and bias"),
    p("mem", "64", SIZE, "tree size in MiB"),
    p("reuse", "true", BOOL, "keep the subtree of the new position between moves"),
    p("threads", "1", "1..=256", "search threads"),
    p("parallel", "tree", "tree|root", "one shared tree with virtual loss, or one tree per thread"),
    p("tt", "false", BOOL, "transpositions: a position's statistics over every path that reaches it"),
    p(
        "grave",
        "0",
        "a whole number (needs rave)",
        "GRAVE: AMAF statistics of the nearest ancestor with this many visits",
    ),
    p("recycle", "true", BOOL, "when the tree is full, free the least visited nodes' children"),
    p("probe", "false", BOOL, "a child the game's endgame solver or tables know is a result (Othello, Oware)"),
    SEED_OWN,
    p(
        "defaults",
        "game",
        "game|none",
        "the game's own settings for mcts (`plateau players GAME` shows them), or plain UCT",
    ),
];

const PNS: &[Param] = &[
    p("budget", "100000", COUNT, "df-pn's budget per move, in expanded nodes"),
    p("tt", "16", SIZE, "df-pn's table size in MiB"),
    p("fallback", "engine", "a player string", "the player of the moves df-pn does not prove winning"),
];

const HIDDEN_COMMON: &[Param] = &[
    p(
        "cap",
        "2000",
        "1..=10000000",
        "at most this many boards kept as the belief (the states consistent with what it saw)",
    ),
    SEED_OWN,
];

const DETERMINIZE: &[Param] = &[
    unset("depth", "none: 3 plies", "2", "0..=200", "depth of the search of each board"),
    TIME,
    unset(
        "nodes",
        "none",
        "1000",
        COUNT,
        "node budget shared by the boards: the first searched whole, the next while the budget lasts",
    ),
    p("samples", "8", "1..=10000", "boards drawn from the belief, each searched, the moves voted"),
    p("eval", "simple", EVALS, "the evaluation at the horizon"),
];

const ISMCTS: &[Param] = &[
    unset("playouts", "none: 1000 when no time is given", "200", COUNT, "iterations per move"),
    p("c", "0.7", "0..", "UCT's exploration constant"),
    TIME,
];

const NAIVE_HIDDEN: &[Param] = &[
    unset("depth", "none: 3 plies", "2", "0..=200", "depth of the search on the board last seen"),
    TIME,
    unset("nodes", "none", "1000", COUNT, "node budget: depth 1, 2, ... while it lasts, the deepest finished"),
    p("eval", "simple", EVALS, "the evaluation at the horizon"),
    SEED_OWN,
];

const SMMCTS: &[Param] = &[
    TIME,
    NODES,
    unset("playouts", "none: 10000 when no time or nodes is given", "200", COUNT, "iterations per move"),
    p("select", "rm", "duct|rm|exp3", "the bandit at each joint node: decoupled UCT, regret matching, EXP3"),
    p("c", "1.4", "0..=100", "DUCT's exploration constant"),
    p("gamma", "0.1", "0.001..=1", "the exploration share of regret matching and EXP3"),
    SEED_OWN,
];

/// Parameters a player reads only to refuse them with their own message (`smmcts(depth=3)`: it plays to the end).
pub const REFUSED: &[(&str, &str)] = &[("smmcts", "depth"), ("ismcts", "depth"), ("ismcts", "nodes")];

/// What a player is, in one line, and its name in the course when the course names it.
#[derive(Copy, Clone, Debug)]
pub struct About {
    pub summary: &'static str,
    pub course: Option<&'static str>,
}

const fn about_of(summary: &'static str, course: Option<&'static str>) -> About {
    About { summary, course }
}

/// The line of `name` (a registered name).
pub fn about(name: &str) -> Option<About> {
    Some(match name {
        "minimax" => {
            about_of("minimax in two functions, Max and Min, values from the root player's view", Some("MiniMax"))
        }
        "negamax" => about_of("minimax written once, every value from the side to move's view", Some("Négamax")),
        "alphabeta" => about_of(
            "alpha-beta, fail-hard, in negamax form (ids: with iterative deepening)",
            Some("alpha-bêta (αβ) en Négamax"),
        ),
        "alphabeta_minmax" => {
            about_of("alpha-beta in the course's two functions MaxValue and MinValue", Some("alpha-bêta (αβ)"))
        }
        "alphabeta_failsoft" => about_of(
            "fail-soft alpha-beta: bounds as tight as the search makes them",
            Some("NegEchecαβ (alpha-bêta fail-soft)"),
        ),
        "palphabeta" => {
            about_of("P-alpha-beta: the first move with the full window, the others tested", Some("P-alpha-bêta"))
        }
        "scout" => about_of("Scout: evaluate the first move, only test whether the others beat it", Some("Scout")),
        "negascout" => about_of(
            "NegaScout: minimal-window tests, re-searched inside the window when they fail high",
            Some("NegaScout"),
        ),
        "pvs" => about_of("Principal Variation Search: zero windows after the first move", Some("PVS")),
        "negacstar" => {
            about_of("NegaC*: bisection of the root value with minimal-window fail-soft searches", Some("NegaC*"))
        }
        "mtdf" => about_of("MTD(f): minimal-window memory-enhanced tests converging on the value", Some("MTD(f)")),
        "sss" => about_of("SSS*: best-first search over the OPEN list of states", Some("SSS*")),
        "mtsss" => about_of("MT-SSS*: SSS* as a series of memory-enhanced tests from +infinity", Some("SSS*")),
        "expectimax" => {
            about_of("expectimax: minimax with the average of the outcomes at chance nodes", Some("EXPECTIMAX"))
        }
        "star1" => about_of("Star1: alpha-beta carried through chance nodes", None),
        "star2" => about_of("Star2: Star1 with a probing phase at chance nodes", None),
        "random" => about_of("a uniformly random legal move", Some("jouer au hasard")),
        "engine" => {
            about_of("plateau's strongest player: iterative deepening, PVS, tables, pruning (docs/engine.md)", None)
        }
        "mcts" => about_of("Monte Carlo tree search (UCT), MCTS-Solver, RAVE/GRAVE (docs/mcts.md)", None),
        "pns" => about_of("proof-number search (df-pn) playing proven wins, another player otherwise", None),
        "determinize" => about_of("hidden information: search several boards consistent with what it saw, vote", None),
        "ismcts" => {
            about_of("hidden information: information-set MCTS over the boards consistent with what it saw", None)
        }
        "naive" => about_of(
            "a baseline: the search on the board last seen, or the engine with simultaneous moves in turn",
            None,
        ),
        "smmcts" => about_of("simultaneous moves: MCTS with a bandit per player at each joint node", None),
        _ => return None,
    })
}

/// The deterministic engine's parameters: its head, each switch of its one table, its tail.
fn engine() -> Vec<Param> {
    let switches = SWITCHES.iter().map(|s| p(s.name, s.default_text(), BOOL, s.meaning));
    ENGINE_HEAD.iter().copied().chain(switches).chain(ENGINE_TAIL.iter().copied()).collect()
}

/// The parameters `name` (a registered name) reads on a game of `kind`.
pub fn params(name: &str, kind: Kind) -> Vec<Param> {
    let join = |parts: &[&[Param]]| parts.iter().flat_map(|p| p.iter().copied()).collect::<Vec<Param>>();
    match name {
        "pvs" | "star2" => join(&[CATALOGUE, &[TT_NONE]]),
        "mtdf" | "mtsss" => join(&[CATALOGUE, &[TT_16]]),
        "sss" => join(&[CATALOGUE, &[TIES]]),
        "random" => RANDOM.to_vec(),
        "engine" if kind.chance => ENGINE_CHANCE.to_vec(),
        "engine" => engine(),
        "naive" if kind.simultaneous => engine()
            .into_iter()
            .map(|p| match p.name {
                "depth" => unset("depth", "none: 4 plies unless time or nodes is given", "3", "1..=200", p.meaning),
                _ => p,
            })
            .collect(),
        "mcts" => MCTS.to_vec(),
        "pns" => PNS.to_vec(),
        "determinize" => join(&[DETERMINIZE, HIDDEN_COMMON]),
        "ismcts" => join(&[ISMCTS, HIDDEN_COMMON]),
        "naive" => NAIVE_HIDDEN.to_vec(),
        "smmcts" => SMMCTS.to_vec(),
        _ => CATALOGUE.to_vec(),
    }
}

/// The engine's numeric search constants (`engine(NAME=V)`, `plateau engine-params`), as rows of the same table.
pub fn tunables() -> Vec<ParamRow> {
    tunables::PARAMS
        .iter()
        .map(|t| ParamRow {
            name: t.name.to_string(),
            default: format!("{} (or the game's own value)", t.default),
            default_is_value: false,
            example: t.default.to_string(),
            accepts: format!("{}..={}", t.min, t.max),
            meaning: t.doc.to_string(),
        })
        .collect()
}

/// A parameter as `plateau players` prints it (`--json`: one object per parameter).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ParamRow {
    pub name: String,
    /// The default: a value (`default_is_value`: writing it changes nothing) or words.
    pub default: String,
    pub default_is_value: bool,
    /// A value it accepts.
    pub example: String,
    pub accepts: String,
    pub(crate) meaning: String,
}

impl From<Param> for ParamRow {
    fn from(p: Param) -> Self {
        ParamRow {
            name: p.name.into(),
            default: p.default.into(),
            default_is_value: p.literal,
            example: p.example.into(),
            accepts: p.accepts.into(),
            meaning: p.meaning.into(),
        }
    }
}
