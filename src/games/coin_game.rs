//! The course's coin-toss game, the smallest game with chance: `coin_game(leaves=2/4/7/4/6/0/5/-2,p=0.5)`.
//!
//! The course's slide "Jeux non-déterministes ... Exemple simplifié avec lancer d'une pièce de monnaie" shows a figure
//! that is not in the course text; this is the classic textbook tree it comes from (Russell & Norvig's simplified
//! backgammon, with the leaf values of its usual coin version):
//!
//! ```text
//! ply 0   MAX (the first player) chooses l or r
//! ply 1   a coin is tossed: h (heads) with probability p, t (tails) with 1 - p
//! ply 2   MIN (the second player) chooses l or r
//! ply 3   a leaf: its number is the result for MAX (Outcome::Value, like random_tree); MIN gets its opposite
//!
//!                 MAX
//!         l /             \ r
//!        coin             coin
//!    h /      \ t     h /      \ t
//!    MIN      MIN     MIN      MIN
//!   l/ \r    l/ \r   l/ \r    l/ \r
//!   2   4    7   4   6   0    5  -2        (the default leaves)
//! ```
//!
//! With the default leaves and a fair coin, EXPECTIMAX gives 3 for `l` (0.5 * min(2,4) + 0.5 * min(7,4)) and -1 for
//! `r` (0.5 * min(6,0) + 0.5 * min(5,-2)): MAX plays `l`. The parameters change the leaves and the coin so that the
//! course's warning can be shown by hand: the best move is preserved only by positive *linear* transformations of the
//! leaf values, not by every order-preserving one (the tests square positive leaves and watch the choice flip).
//!
//! Parameters: `leaves` = eight whole numbers in `[-100000, 100000]` separated by `/` (a game string's values cannot
//! hold commas), in the order of the figure: MAX l then r, heads then tails, MIN l then r; `p` = the probability of
//! heads, strictly between 0 and 1.
//!
//! State: the ply (0 to 3) and the path as bits (bit `i` = the choice at ply `i`, 0 for `l`/`h`, 1 for `r`/`t`), plus
//! the Zobrist key `XOR over i < ply of Z[2i + bit i]` (one key per ply and branch), updated by `play` with one XOR.
//! Who acts: ply 0 MAX, ply 1 chance ([`Turn::Chance`]; its side to move is MIN, who plays after the toss, as the
//! mover's dice in backgammon), ply 2 MIN, ply 3 terminal (side to move MAX, whose point of view the value takes).
//!
//! Notation: the players' moves `l` and `r` (`left`, `right` accepted), the coin's outcomes `h` and `t` (`heads`,
//! `tails` accepted); a position is its path from the root joined by `.`: `root`, `l`, `l.h`, `l.h.r`.

use crate::game::{Capabilities, Interop, Knowledge};
use crate::game::{ChanceList, Evaluator, Game, GameError, Kind, MoveList, Outcome, Side, Turn, err, zobrist};
use crate::games::{GameInfo, GameParam};
use crate::spec::Spec;

/// The leaves of the textbook figure, MAX's left subtree first.
pub const DEFAULT_LEAVES: [i32; 8] = [2, 4, 7, 4, 6, 0, 5, -2];
/// The largest leaf magnitude (well inside the search's heuristic range).
pub(crate) const MAX_LEAF: i32 = 100_000;
/// Plies from the root to a leaf.
pub(crate) const DEPTH: u8 = 3;

/// The registry entry (`plateau games`).
pub fn info() -> GameInfo {
    let p = |name, default, description| GameParam { name, default, description };
    GameInfo {
        name: "coin_game",
        aliases: &["coin", "coin_toss"],
        description: "the course's coin-toss chance game: MAX picks l or r, a coin is tossed, MIN picks l or r, \
a leaf gives MAX's result",
        parameters: vec![
            p("leaves", "2/4/7/4/6/0/5/-2", "the eight leaf values for MAX, '/'-separated (MAX l|r, h|t, MIN l|r)"),
            p("p", "0.5", "the probability of heads, strictly between 0 and 1"),
        ],
    }
}

/// The rules: the leaf values and the coin.
#[derive(Clone, Debug, PartialEq)]
pub struct CoinGame {
    /// Leaf values for MAX, in the figure's order: index `4 * MAX's move + 2 * coin + MIN's move` ([`CoinGame::leaf`]).
    pub leaves: [i32; 8],
    /// Probability of heads.
    pub p: f64,
}

/// A node of the tree: ply, path bits, Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CoinState {
    pub ply: u8,
    pub path: u8,
    pub key: u64,
}

impl Default for CoinGame {
    fn default() -> Self {
        CoinGame { leaves: DEFAULT_LEAVES, p: 0.5 }
    }
}

fn zkey(ply: u8, bit: u8) -> u64 {
    zobrist::key(2 * ply as usize + bit as usize)
}

impl CoinGame {
    /// The game with these eight leaf values and the coin's probability `p` (checked).
    pub fn new(leaves: [i32; 8], p: f64) -> Result<Self, GameError> {
        if !(p > 0.0 && p < 1.0) {
            return err(format!("coin_game: p={p}: the probability of heads must be strictly between 0 and 1"));
        }
        if let Some(v) = leaves.iter().find(|v| v.abs() > MAX_LEAF) {
            return err(format!("coin_game: leaf {v} is out of range -{MAX_LEAF}..={MAX_LEAF}"));
        }
        Ok(CoinGame { leaves, p })
    }

    /// Build from a parsed game string.
    pub fn from_spec(spec: &Spec) -> Result<Self, GameError> {
        let leaves = match spec.text("leaves") {
            None => DEFAULT_LEAVES,
            Some(text) => parse_leaves(&text)?,
        };
        let p = match spec.text("p") {
            None => 0.5,
            Some(t) => t.parse::<f64>().map_err(|_| {
                GameError::new(format!("coin_game: p={t}: expected a probability strictly between 0 and 1"))
            })?,
        };
        spec.finish()?;
        CoinGame::new(leaves, p)
    }

    /// The leaf value for MAX after MAX's move `max`, the coin `coin` and MIN's move `min` (each 0 or 1).
    pub fn leaf(&self, max: u8, coin: u8, min: u8) -> i32 {
        self.leaves[(4 * max + 2 * coin + min) as usize]
    }

    fn bit(s: &CoinState, ply: u8) -> u8 {
        (s.path >> ply) & 1
    }

    /// The word for choice `bit` at ply `ply`.
    fn word(ply: u8, bit: u8) -> &'static str {
        match (ply, bit) {
            (1, 0) => "h",
            (1, _) => "t",
            (_, 0) => "l",
            _ => "r",
        }
    }

    fn probability(&self, bit: u8) -> f64 {
        if bit == 0 { self.p } else { 1.0 - self.p }
    }
}

/// Parse `2/4/7/4/6/0/5/-2`.
fn parse_leaves(text: &str) -> Result<[i32; 8], GameError> {
    let parts: Vec<&str> = text.split('/').map(str::trim).collect();
    let bad = || {
        GameError::new(format!(
            "coin_game: leaves={text}: expected eight whole numbers separated by '/' (e.g. 2/4/7/4/6/0/5/-2)"
        ))
    };
    if parts.len() != 8 {
        return Err(bad());
    }
    let mut out = [0; 8];
    for (o, p) in out.iter_mut().zip(&parts) {
        *o = p.parse().map_err(|_| bad())?;
    }
    Ok(out)
}

impl Game for CoinGame {
    type State = CoinState;

    type Move = u8;

    fn spec(&self) -> String {
        let mut params = Vec::new();
        if self.leaves != DEFAULT_LEAVES {
            let l: Vec<String> = self.leaves.iter().map(i32::to_string).collect();
            params.push(format!("leaves={}", l.join("/")));
        }
        if self.p != 0.5 {
            params.push(format!("p={}", self.p));
        }
        if params.is_empty() { "coin_game".into() } else { format!("coin_game({})", params.join(",")) }
    }

    fn start(&self) -> CoinState {
        CoinState { ply: 0, path: 0, key: 0 }
    }

    fn side_to_move(&self, s: &CoinState) -> Side {
        // MAX at the root and at the leaves (whose values are MAX's); MIN at the toss (it plays next) and after it.
        if s.ply == 0 || s.ply == DEPTH { Side::First } else { Side::Second }
    }

    fn generate_moves(&self, s: &CoinState, moves: &mut MoveList<u8>) {
        moves.clear();
        if s.ply < DEPTH {
            moves.extend([0, 1]);
        }
    }

    fn play(&self, s: &mut CoinState, m: u8) {
        debug_assert!(s.ply < DEPTH && m < 2);
        s.path |= m << s.ply;
        s.key ^= zkey(s.ply, m);
        s.ply += 1;
    }

    fn outcome(&self, s: &CoinState) -> Option<Outcome> {
        (s.ply == DEPTH).then(|| Outcome::Value(self.leaf(Self::bit(s, 0), Self::bit(s, 1), Self::bit(s, 2))))
    }

    fn key(&self, s: &CoinState) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &CoinState) -> u64 {
        (0..s.ply).fold(0, |k, i| k ^ zkey(i, Self::bit(s, i)))
    }

    fn parse_move(&self, s: &CoinState, text: &str) -> Result<u8, GameError> {
        let t = text.trim().to_ascii_lowercase();
        let (m, coin) = match t.as_str() {
            "l" | "left" => (0, false),
            "r" | "right" => (1, false),
            "h" | "heads" => (0, true),
            "t" | "tails" => (1, true),
            _ => return err(format!("'{}': expected l or r (a player's move) or h or t (the coin)", text.trim())),
        };
        match s.ply {
            DEPTH => err("the game is over: no move is legal"),
            1 if !coin => err(format!("'{}': the coin is tossed here: h or t", text.trim())),
            1 => Ok(m),
            _ if coin => {
                let who = if s.ply == 0 { "MAX" } else { "MIN" };
                err(format!("'{}': {who} chooses here: l or r (h and t are the coin's)", text.trim()))
            }
            _ => Ok(m),
        }
    }

    fn format_move(&self, s: &CoinState, m: u8) -> String {
        Self::word(s.ply, m).into()
    }

    fn parse_position(&self, text: &str) -> Result<CoinState, GameError> {
        let t = text.trim();
        let mut s = self.start();
        if t.is_empty() || t == "root" {
            return Ok(s);
        }
        for part in t.split('.') {
            if s.ply == DEPTH {
                return err(format!("position '{t}': a path has at most {DEPTH} steps (MAX, coin, MIN)"));
            }
            let m = self.parse_move(&s, part).map_err(|e| GameError::new(format!("position '{t}': {e}")))?;
            self.play(&mut s, m);
        }
        Ok(s)
    }

    fn format_position(&self, s: &CoinState) -> String {
        if s.ply == 0 {
            return "root".into();
        }
        let words: Vec<&str> = (0..s.ply).map(|i| Self::word(i, Self::bit(s, i))).collect();
        words.join(".")
    }

    fn display(&self, s: &CoinState) -> String {
        let on_path = |ply: u8, bit: u8| s.ply > ply && Self::bit(s, ply) == bit;
        let here = |cond: bool| if cond { "   <- here" } else { "" };
        let mut out = format!("{}\nMAX{}\n", self.spec(), here(s.ply == 0));
        for a in 0..2u8 {
            let at_a = on_path(0, a);
            out += &format!("  {}: coin{}\n", Self::word(0, a), here(at_a && s.ply == 1));
            for c in 0..2u8 {
                let at_c = at_a && on_path(1, c);
                let leaves: Vec<String> = (0..2u8)
                    .map(|b| {
                        let mark = if at_c && on_path(2, b) { "*" } else { "" };
                        format!("{}={}{mark}", Self::word(2, b), self.leaf(a, c, b))
                    })
                    .collect();
                out += &format!(
                    "    {} (p={}): MIN  {}{}\n",
                    Self::word(1, c),
                    self.probability(c),
                    leaves.join("  "),
                    here(at_c && s.ply == 2)
                );
            }
        }
        let what = match (s.ply, self.outcome(s)) {
            (_, Some(Outcome::Value(v))) => format!("leaf (marked *): {v} for MAX"),
            (0, _) => "MAX to move".into(),
            (1, _) => "the coin is tossed".into(),
            _ => "MIN to move".into(),
        };
        out + &format!("position {}: {what}", self.format_position(s))
    }
}

impl Capabilities for CoinGame {
    const KIND: Kind = Kind { chance: true, simultaneous: false, hidden: false };

    fn turn(&self, s: &CoinState) -> Turn {
        if s.ply == 1 { Turn::Chance } else { Turn::Player(self.side_to_move(s)) }
    }

    fn chance_outcomes(&self, s: &CoinState, outcomes: &mut ChanceList<u8>) {
        outcomes.clear();
        if s.ply == 1 {
            outcomes.extend([(0, self.probability(0)), (1, self.probability(1))]);
        }
    }

    fn value_bound(&self) -> i32 {
        self.leaves.iter().map(|v| v.abs()).max().unwrap_or(0)
    }
}

impl Knowledge for CoinGame {
    type Eval = CoinEval;
}

impl Interop for CoinGame {
    /// `[3, 2]`: row `i` one-hot of the choice at ply `i` (MAX's `l`/`r`, the coin's `h`/`t`, MIN's `l`/`r`), rows
    /// past the current ply zero; the same for both players.
    fn observation_shape(&self) -> Vec<usize> {
        vec![DEPTH as usize, 2]
    }

    fn observation_tensor(&self, s: &CoinState, _player: Side, out: &mut [f32]) {
        for ply in 0..s.ply {
            out[2 * ply as usize + Self::bit(s, ply) as usize] = 1.0;
        }
    }
}

/// The evaluation: a leaf's value for the side to move there, 0 elsewhere (the tree is three plies deep: searches
/// reach the leaves).
#[derive(Clone, Copy, Debug, Default)]
pub struct CoinEval;

impl Evaluator<CoinGame> for CoinEval {
    type Carry = ();

    fn evaluate(&self, g: &CoinGame, s: &CoinState) -> i32 {
        match g.outcome(s) {
            Some(Outcome::Value(v)) => v,
            _ => 0,
        }
    }
}
