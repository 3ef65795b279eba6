//! The players, the result of a finished game, and the one-line error every parser returns.

/// The two sides of a game (the players as seats, not who plays them). `First` moves first (White in Breakthrough, X in tic-tac-toe).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
    /// 0 for the first side, 1 for the second (an index into per-side arrays).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended, from the point of view of the side to move in the final position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
    /// A numeric final value (synthetic game trees, whose leaves carry numbers rather than results).
    Value(i32),
}

impl Outcome {
    /// The same outcome seen by the other player.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Value(v) => Outcome::Value(-v),
        }
    }
}

/// A user-facing error about a game: malformed or illegal input. The message is one line that says what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GameError(pub String);

impl GameError {
    /// The message made one line: control characters the user's input brought (a line break in a game string) are
    /// shown escaped (`\n`, `\u{8}`), as [`one_line`] does.
    pub fn new(msg: impl Into<String>) -> Self {
        GameError(one_line(&msg.into()))
    }
}

/// `text` with its control characters escaped (`\n`, `\t`, `\u{1b}`) and everything else as it is: error messages
/// quote what the user gave, and stay one line on every surface (the command line, the protocols, HTTP, Python).
pub fn one_line(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars().map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() }).collect()
}

/// Shorthand used by parsers.
pub fn err<T>(msg: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::new(msg))
}

/// Who wins in words, given the side to move and a solved result word (`win`, `loss`, `draw`): "Black, the second
/// player, wins", "The first player wins" (a game without names), "neither player wins" (a draw).
pub(crate) fn winner_words<G: super::Interop>(game: &G, side_to_move: Side, result: &str) -> String {
    let winner = match result {
        "win" => side_to_move,
        "loss" => side_to_move.other(),
        _ => return "neither player wins".into(),
    };
    let rank = if winner == Side::First { "the first player" } else { "the second player" };
    match game.player_name(winner) {
        Some(name) => format!("{name}, {rank}, wins"),
        None => format!("{}{} wins", rank[..1].to_uppercase(), &rank[1..]),
    }
}
