//! The game model shared by every game, search algorithm and tool.
//!
//! A game is split in two parts:
//! - a *rules object* implementing [`Game`] (the parameters: board size, variants, precomputed masks), cheap to share;
//! - a small `Copy` *state* ([`Game::State`]) holding a position: bitboards, side to move, incremental Zobrist key.
//!
//! Play is *copy-make*: [`Game::play`] mutates a state in place, and a caller that wants to go back keeps the copy it
//! had (states are 16 to 32 bytes, so a copy is cheaper than recording and reverting a move; see
//! `docs/architecture.md`). "Undo" in the tools is a stack of states.
//!
//! Values are always seen from the side to move ([`Outcome`]), the negamax convention. Evaluation is separate from the
//! rules ([`Evaluator`]); a game names its evaluations with [`Game::Eval`] and [`Game::EVALUATIONS`].
//!
//! The trait has three groups of methods:
//! - the rules every game writes (start, moves, play, outcome, keys, notation);
//! - optional capabilities for other kinds of games, with defaults that a deterministic, alternating game of perfect
//!   information keeps ([`turn`]: chance nodes, simultaneous moves, hidden information);
//! - optional game knowledge with neutral defaults ([`knowledge`]: threats, forced replies, null move, adjudication).

pub mod alternated;
pub mod knowledge;
pub mod perft;
pub mod player;
pub mod playout;
pub mod revisit;
pub mod score;
pub mod seed;
pub mod turn;
pub mod view;
pub mod zobrist;

use std::fmt::Debug;
use std::hash::Hash;

use arrayvec::ArrayVec;
use rand::{Rng, RngExt};

pub use knowledge::{Forced, MOVE_KEYS, MoveClass};
pub use perft::perft;
pub use player::{GameError, Outcome, Side, err, one_line, winner_words};
pub use score::{Evaluator, Term, WIN_SCORE, WIN_THRESHOLD, describe_score, outcome_score};
pub use turn::{ChanceList, Kind, Turn, line_words, sample_outcome};
pub use view::{BoardView, Cell, Coords, Layout};

/// Largest number of legal moves any game may produce in one position.
pub const MAX_MOVES: usize = 256;

/// Fixed-capacity move list: lives on the stack, no allocation per node.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// The rules of one game, with its parameters.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// A position. Small and `Copy`: copy-make is the way to go back.
    type State: Copy + Debug + PartialEq + Eq + Hash + Send + Sync + 'static;
    /// A move, valid in the state it was generated from.
    type Move: Copy + Debug + PartialEq + Eq + Hash + Send + Sync + 'static;
    /// The game's heuristic evaluations (one type; a game with several makes it an enum). `Default` is the simple
    /// evaluation the course's algorithms use.
    type Eval: Evaluator<Self> + Default + Clone + Send + Sync + 'static;

    /// The capabilities this game uses (chance, simultaneous moves, hidden information); see [`turn`].
    const KIND: Kind = Kind::CLASSIC;
    /// The names of the game's evaluations for `engine(eval=NAME)`, the engine's default first; `simple` is always
    /// one of them (the `Default` evaluation).
    const EVALUATIONS: &'static [&'static str] = &["simple"];
    /// The parameters `mcts` plays this game with unless its string says otherwise (`key=value,...`; `mcts(defaults=
    /// none)` plays plain UCT), chosen by the matches in `docs/mcts.md`. Empty: plain UCT.
    const MCTS_DEFAULTS: &'static str = "";

    /// The canonical game string (`breakthrough(rows=6,columns=5)`), with non-default parameters only.
    fn spec(&self) -> String;
    /// The start position.
    fn start(&self) -> Self::State;
    /// Who moves in this state; in a state where no single player moves (chance, simultaneous, terminal), the player
    /// whose point of view [`Game::outcome`] takes.
    fn side_to_move(&self, state: &Self::State) -> Side;
    /// Legal moves of a non-terminal state, appended to `moves` (cleared first). A terminal state has none. At a chance
    /// node, the outcomes (as [`Game::chance_outcomes`] without the probabilities); at a simultaneous node, none (see
    /// [`Game::player_moves`]).
    fn generate_moves(&self, state: &Self::State, moves: &mut MoveList<Self::Move>);
    /// Play a legal move in place.
    fn play(&self, state: &mut Self::State, mv: Self::Move);
    /// `Some(outcome)` for a finished game (from the side to move's point of view), `None` while it goes on.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;
    /// The 64-bit Zobrist key, maintained incrementally by `play`.
    fn key(&self, state: &Self::State) -> u64;
    /// The same key computed from scratch (tests compare the two).
    fn compute_key(&self, state: &Self::State) -> u64;

    /// Parse a move in this game's notation; it must be legal in `state`.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, GameError>;
    /// Write a move in this game's canonical notation.
    fn format_move(&self, state: &Self::State, mv: Self::Move) -> String;
    /// Parse a position in this game's position text.
    fn parse_position(&self, text: &str) -> Result<Self::State, GameError>;
    /// Write a position as text; `parse_position` reads it back to the same state.
    fn format_position(&self, state: &Self::State) -> String;
    /// A human-readable drawing of the board.
    fn display(&self, state: &Self::State) -> String;

    /// Number of legal moves of a non-terminal state (callers check [`Game::outcome`] first); games override it with a
    /// bulk count (perft's last ply).
    fn count_moves(&self, state: &Self::State) -> u64 {
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        moves.len() as u64
    }

    /// perft's last ply: the number of legal moves, or 0 when the game is over. Games override it to test for the end
    /// and count the moves in one pass.
    fn count_leaf_moves(&self, state: &Self::State) -> u64 {
        if self.is_terminal(state) { 0 } else { self.count_moves(state) }
    }

    /// A player's name in this game's words (`White`, `X`), for answers such as "Black, the second player, wins";
    /// `None` where the game has no names beyond first and second.
    fn player_name(&self, player: Side) -> Option<&'static str> {
        let _ = player;
        None
    }

    /// A picture of the board as data for the web page ([`view`]); `None` (the default) shows [`Game::display`]'s text.
    fn board_view(&self, state: &Self::State) -> Option<BoardView> {
        let _ = state;
        None
    }

    /// The cells of [`Game::board_view`] a move goes from and to (a placement: only to), for highlighting legal
    /// targets. The default reads the cell names the move's text starts with (`a2a3`, `b2`).
    fn move_cells(&self, state: &Self::State, mv: Self::Move) -> (Option<u32>, Option<u32>) {
        match self.board_view(state) {
            Some(view) => view.cells_of_move(&self.format_move(state, mv)),
            None => (None, None),
        }
    }

    /// True when the game is over.
    fn is_terminal(&self, state: &Self::State) -> bool {
        self.outcome(state).is_some()
    }

    /// A random legal move: uniform at a player's turn, drawn by its probability at a chance node; `None` in a terminal
    /// state (and at a simultaneous node: see [`playout::random_step`]).
    fn random_move<R: Rng + ?Sized>(&self, state: &Self::State, rng: &mut R) -> Option<Self::Move> {
        if Self::KIND.chance && self.turn(state) == Turn::Chance {
            let mut outcomes = ChanceList::new();
            self.chance_outcomes(state, &mut outcomes);
            return sample_outcome(&outcomes, rng);
        }
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        if moves.is_empty() { None } else { Some(moves[rng.random_range(0..moves.len())]) }
    }

    /// Play random steps to the end. Returns the outcome seen by the side to move in `state` (decided by that player,
    /// never by parity), and the number of steps played.
    fn random_playout<R: Rng + ?Sized>(&self, state: &Self::State, rng: &mut R) -> (Outcome, u32) {
        playout::random_playout_for(self, state, self.side_to_move(state), rng)
    }

    /// Parse a space-separated move list and play it from `state`; the error names the first bad move. At a
    /// simultaneous node a word is the pair `FIRST/SECOND`.
    fn play_moves(&self, state: &Self::State, text: &str) -> Result<Self::State, GameError> {
        let mut s = *state;
        for (i, word) in self.split_moves(text).iter().enumerate() {
            if self.is_terminal(&s) {
                return err(format!("move {} '{}': the game is already over", i + 1, word));
            }
            let at = |e: GameError| GameError::new(format!("move {} '{}': {}", i + 1, word, e));
            if Self::KIND.simultaneous && self.turn(&s) == Turn::Simultaneous {
                let (a, b) = self.parse_joint(&s, word).map_err(at)?;
                self.play_joint(&mut s, a, b);
            } else {
                let m = self.parse_move(&s, word).map_err(at)?;
                self.play(&mut s, m);
            }
        }
        Ok(s)
    }

    /// Split a `--moves` argument into move words. Games with compact notations (Connect Four digit strings) override it.
    fn split_moves(&self, text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    // ---- Capabilities: other kinds of games (defaults: deterministic, alternating, perfect information) ----

    /// Who acts in a non-terminal state: a player, chance, or both players at once.
    fn turn(&self, state: &Self::State) -> Turn {
        Turn::Player(self.side_to_move(state))
    }

    /// The outcome of a finished game for `player` (`outcome` is for the side to move).
    fn outcome_for(&self, state: &Self::State, player: Side) -> Option<Outcome> {
        let o = self.outcome(state)?;
        Some(if self.side_to_move(state) == player { o } else { o.flip() })
    }

    /// A chance node's outcomes with their probabilities (adding up to 1); played with [`Game::play`].
    fn chance_outcomes(&self, _state: &Self::State, outcomes: &mut ChanceList<Self::Move>) {
        outcomes.clear();
    }

    /// A bound on every value a search can meet in this game, from either player's point of view: every terminal
    /// score ([`outcome_score`], numeric leaves) and every evaluation lies in `[-value_bound, value_bound]`. The
    /// *-minimax searches of chance games (`star1`, `star2`) prune with it, so it must be sound; the tighter, the more
    /// they prune. The default holds for every game: scores are at most [`WIN_SCORE`] in magnitude.
    fn value_bound(&self) -> i32 {
        WIN_SCORE
    }

    /// The legal moves of `player` in a non-terminal state: at a simultaneous node, that player's half of the joint
    /// moves; elsewhere the legal moves if `player` is to move, none otherwise.
    fn player_moves(&self, state: &Self::State, player: Side, moves: &mut MoveList<Self::Move>) {
        if self.turn(state) == Turn::Player(player) {
            self.generate_moves(state, moves);
        } else {
            moves.clear();
        }
    }

    /// Play a simultaneous node's joint move (`first` from [`Side::First`]'s `player_moves`, `second` from
    /// [`Side::Second`]'s) in place. Games without simultaneous nodes play the mover's half.
    fn play_joint(&self, state: &mut Self::State, first: Self::Move, second: Self::Move) {
        let m = if self.side_to_move(state) == Side::First { first } else { second };
        self.play(state, m);
    }

    /// Parse a joint move `FIRST/SECOND` of a simultaneous node.
    fn parse_joint(&self, state: &Self::State, text: &str) -> Result<(Self::Move, Self::Move), GameError> {
        let Some((a, b)) = text.split_once('/') else {
            return err("both players move at once here: write the pair as FIRST/SECOND");
        };
        let side = |p: Side, t: &str| {
            let mut moves = MoveList::new();
            self.player_moves(state, p, &mut moves);
            moves.iter().copied().find(|&m| self.format_move(state, m) == t.trim()).ok_or_else(|| {
                let legal: Vec<String> = moves.iter().map(|&m| self.format_move(state, m)).collect();
                GameError::new(format!("'{}' is not a legal move of {p:?} (legal: {})", t.trim(), legal.join(" ")))
            })
        };
        Ok((side(Side::First, a)?, side(Side::Second, b)?))
    }

    /// What `player` sees of the state, as text. With perfect information, the whole position.
    fn observation(&self, state: &Self::State, player: Side) -> String {
        let _ = player;
        self.format_position(state)
    }

    /// [`Game::observation`] written into `out` (cleared first). The belief tracker of the hidden-information players
    /// compares many thousands of observations a move: a game whose observations are long overrides this to write
    /// them without allocating.
    fn write_observation(&self, state: &Self::State, player: Side, out: &mut String) {
        out.clear();
        out.push_str(&self.observation(state, player));
    }

    /// A state drawn at random among those `player` cannot tell from `state` (same observation, same legal moves for
    /// `player`): what a player with hidden information may search. With perfect information, the state itself.
    fn resample<R: Rng + ?Sized>(&self, state: &Self::State, player: Side, rng: &mut R) -> Self::State {
        let _ = (player, rng);
        *state
    }

    /// The naive baseline's board (`naive`, docs/hidden.md): `guess` is `player`'s previous one (the start at first),
    /// `observation` what `player` was just told ([`Game::observation`]). The result shows what `player` sees as the
    /// observation shows it and keeps every hidden piece where `player` last saw it, even when no game reaches that
    /// state (the opponent moved a piece, the guess does not know which). `None` (the default): the game has no such
    /// board, and `naive` guesses one consistent state instead.
    fn last_seen(&self, guess: &Self::State, player: Side, observation: &str) -> Option<Self::State> {
        let _ = (guess, player, observation);
        None
    }

    // ---- Interop: OpenSpiel-style integer actions and observation tensors (the Python bindings) ----

    /// The number of distinct action ids [`Game::action_id`] uses (OpenSpiel's `num_distinct_actions`); `None` where
    /// the game has no fixed numbering, and a move's action is then its index in the node's move list.
    fn num_distinct_actions(&self) -> Option<u32> {
        None
    }

    /// A stable integer for `mv` in `state`, below [`Game::num_distinct_actions`] (the same move gets the same number in
    /// every position; OpenSpiel's numbering where the game exists there). `None` where the game has no numbering.
    fn action_id(&self, state: &Self::State, mv: Self::Move) -> Option<u32> {
        let _ = (state, mv);
        None
    }

    /// A finished game's result as OpenSpiel's `returns()` gives it, for the player whose outcome `o` is: a win 1, a
    /// loss -1, a draw 0, a numeric result its value. Games OpenSpiel has with a numeric result override it with
    /// OpenSpiel's convention (Oware: the sign of the margin; backgammon: the points won, 1 to 3).
    fn returns_value(&self, o: Outcome) -> f64 {
        match o {
            Outcome::Win => 1.0,
            Outcome::Loss => -1.0,
            Outcome::Draw => 0.0,
            Outcome::Value(v) => v as f64,
        }
    }

    /// The most a player can win, as [`Game::returns_value`] counts it (OpenSpiel's `max_utility`; the games are
    /// zero-sum, so `min_utility` is its opposite). The default: the value bound's returns where the game bounds its
    /// values ([`Game::value_bound`] below [`WIN_SCORE`]: backgammon 1 or 3, the synthetic trees their range), else 1
    /// (a win). Games whose numeric results the default does not bound override it.
    fn max_utility(&self) -> f64 {
        let b = self.value_bound();
        if b >= WIN_SCORE { 1.0 } else { self.returns_value(Outcome::Value(b)).abs().max(1.0) }
    }

    /// The most actions a game can last from the start (OpenSpiel's `max_game_length`: moves, chance outcomes and
    /// joint moves each one), a bound the rules guarantee; `None` where the rules give none short enough to state
    /// (draws by repetition or move counters, dice).
    fn max_game_length(&self) -> Option<u32> {
        None
    }

    /// The shape of [`Game::observation_tensor`] (planes, rows, columns for a board); empty where the game has none.
    fn observation_shape(&self) -> Vec<usize> {
        Vec::new()
    }

    /// What `player` observes of `state` as numbers, written into `out` (as long as the shape's product, zeroed by
    /// the caller). Boards: one plane per kind of piece (first player's, second player's, empty), row `i` the row
    /// the game's notation names `i + 1`.
    fn observation_tensor(&self, state: &Self::State, player: Side, out: &mut [f32]) {
        let _ = (state, player, out);
    }

    // ---- Knowledge: what the game can tell a search without searching (neutral defaults; see `knowledge`) ----

    /// Whether `eval=NAME` names one of the game's evaluations, checked when a player string is read (before any
    /// game is at hand): one of [`Game::EVALUATIONS`], or a form the game reads more into (Breakthrough's
    /// `nnue:FILE`, a network read from a weights file).
    fn check_evaluation(name: &str) -> Result<(), GameError>
    where
        Self: Sized,
    {
        known_evaluation(Self::EVALUATIONS, name)
    }

    /// The evaluation named `name` (one that [`Game::check_evaluation`] accepts).
    fn evaluation(&self, name: &str) -> Result<Self::Eval, GameError> {
        if name == "simple" {
            Ok(Self::Eval::default())
        } else {
            err(format!("{}: no evaluation '{name}' (known: {})", self.spec(), Self::EVALUATIONS.join(", ")))
        }
    }

    /// The engine's search constants tuned for this game when it evaluates with `eval` (the name of one of
    /// [`Game::EVALUATIONS`], or `nnue:FILE`), as a parameters text (`name = value` per line, the form of
    /// `engine(params=FILE)`); the engine lays `params=FILE` and the player string's values over it. `None` (the
    /// default): the engine's general defaults, which no game was tuned for alone.
    fn engine_params(&self, eval: &str) -> Option<&'static str> {
        let _ = eval;
        None
    }

    /// Whether [`Game::move_class`] tells noisy moves from quiet ones (quiescence search needs it).
    fn has_tactics(&self) -> bool {
        false
    }

    /// The class of move `mv` in `state`.
    fn move_class(&self, state: &Self::State, mv: Self::Move) -> MoveClass {
        let _ = (state, mv);
        MoveClass::Quiet
    }

    /// How promising a noisy move is, below 64 (chess: most valuable victim, then least valuable attacker), to order
    /// the captures among themselves; 0 when the game does not say.
    fn capture_order(&self, state: &Self::State, mv: Self::Move) -> u32 {
        let _ = (state, mv);
        0
    }

    /// Whether the side to move can win with its next move (known without trying every move).
    fn has_winning_move(&self, state: &Self::State) -> bool {
        let _ = state;
        false
    }

    /// The opponent's threats to win with its next move, and what they force.
    fn forced(&self, state: &Self::State) -> Forced {
        let _ = state;
        Forced::Free
    }

    /// Whether `mv` answers the threat of [`Forced::Defend`]`(target)`.
    fn defends(&self, mv: Self::Move, target: u32) -> bool {
        let _ = (mv, target);
        true
    }

    /// The state after the side to move passes, for null-move pruning; `None` where passing is not expressible.
    fn null_move(&self, state: &Self::State) -> Option<Self::State> {
        let _ = state;
        None
    }

    /// A random move for guided playouts ("decisive and anti-decisive moves", Teytaud & Teytaud 2010): a move that
    /// wins at once if the game sees one cheaply, else one that stops the opponent's win at once, else
    /// [`Game::random_move`]. The default knows neither: the random move.
    fn decisive_random_move<R: Rng + ?Sized>(&self, state: &Self::State, rng: &mut R) -> Option<Self::Move> {
        self.random_move(state, rng)
    }

    /// A key that positions equal up to a symmetry of the board share, for the tables of solvers (a transposition
    /// table keyed by it holds one entry for all of them). It must be a function of the position alone (never of the
    /// line that reached it). The default: [`Game::key`], no symmetry.
    fn symmetry_key(&self, state: &Self::State) -> u64 {
        self.key(state)
    }

    /// A small index of a move for history tables, below [`MOVE_KEYS`].
    fn move_key(&self, mv: Self::Move) -> usize {
        knowledge::hashed_move_key(&mv)
    }

    /// A result certain without playing on (for the side to move) and its reason, for the arena's adjudication.
    fn adjudicate(&self, state: &Self::State) -> Option<(Outcome, &'static str)> {
        let _ = state;
        None
    }

    /// Build the endgame tables [`Game::endgame`] probes (once per process; cheap when they exist).
    fn prepare_endgame(&self) {}

    /// An exact result for the side to move from endgame tables: a win or loss and an upper bound on the plies to
    /// the end.
    fn endgame(&self, state: &Self::State) -> Option<(Outcome, u32)> {
        let _ = state;
        None
    }
}

/// `name` is one of `names` (a game's [`Game::EVALUATIONS`]), or the error every player string gives.
/// `game`'s evaluation `name` for a search about to start. The name was checked when the player string was read
/// ([`Game::check_evaluation`]); if the evaluation cannot be built now (a network file deleted since), the search
/// goes on with the game's `simple` evaluation and says so on stderr, once per player and board.
pub fn evaluation_or_simple<G: Game>(game: &G, name: &str) -> G::Eval {
    game.evaluation(name).unwrap_or_else(|e| {
        eprintln!("warning: {e}; searching with the simple evaluation");
        G::Eval::default()
    })
}

pub fn known_evaluation(names: &[&str], name: &str) -> Result<(), GameError> {
    if names.contains(&name) {
        Ok(())
    } else {
        err(format!("eval={name}: this game's evaluations are {}", names.join(", ")))
    }
}

/// The state of `game` at `position` (its position text; none, `start` or `startpos`: the start) after `moves`
/// (space-separated, or the game's compact notation): what `--position` and `--moves` name on every surface.
pub fn position_at<G: Game>(game: &G, position: Option<&str>, moves: Option<&str>) -> Result<G::State, GameError> {
    let mut state = match position.map(str::trim) {
        None | Some("start") | Some("startpos") => game.start(),
        Some("") => return err("empty position text (write `start` for the start position)"),
        Some(text) => game.parse_position(text)?,
    };
    if let Some(moves) = moves {
        let words = game.split_moves(moves);
        state = game.play_moves(&state, &words.join(" "))?;
    }
    Ok(state)
}
