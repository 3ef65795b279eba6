//! The vocabulary of game knowledge: what a game can tell a search without searching (the [`Knowledge`] trait). Every method has a neutral default, "nothing is known", so a game without knowledge is
//! searched correctly, only slower; a game that knows more overrides the methods in its own folder.
//!
//! ```text
//! method              answer                                      used by
//! move_class          quiet / capture / threat / win              move ordering, fractional depths, quiescence
//! has_tactics         whether move_class says anything            quiescence (stand pat at once without)
//! has_winning_move    a win in 1 without trying every move        engine, solvers
//! forced              threats to win next move and their answer   engine (forced replies), solvers
//! tactics             over / win in 1 / forced at once, also of   solvers (Qubic's threat df-pn)
//!  child_tactics       every child (a game may share the work)
//! retain_threats      the moves of class threat, all at once      threat-space search
//! defences            the moves that answer a single threat       solvers
//! child_symmetry_keys every child's symmetry_key at once          Qubic's threat df-pn
//! null_move           the state after passing, when sound         null-move pruning
//! move_key            a small index per move                      history tables
//! symmetry_key        one key for positions equal up to symmetry  solvers' tables (Qubic's threat df-pn)
//! symmetry_count      the board's symmetries, and their images    the split solve (a proof mapped to its mirrors)
//!  symmetric(_move)    of a position and a move
//! adjudicate          a result certain without playing on         arena
//! endgame             an exact result from endgame tables         engine (probed at every node)
//! ```

use std::hash::{Hash, Hasher};

use arrayvec::ArrayVec;
use rand::Rng;

use super::{Capabilities, Evaluator, GameError, MAX_MOVES, MoveList, Outcome, err, known_evaluation};

/// What a game knows without searching, and its evaluations. A game that knows nothing writes
/// `impl Knowledge for MyGame { type Eval = MyEval; }`: the course's searches need only the evaluation.
pub trait Knowledge: Capabilities {
    /// The game's heuristic evaluations (one type; a game with several makes it an enum). `Default` is the simple
    /// evaluation the course's algorithms use.
    type Eval: Evaluator<Self> + Default + Clone + Send + Sync + 'static;

    /// The names of the game's evaluations for `engine(eval=NAME)`, the engine's default first; `simple` is always
    /// one of them (the `Default` evaluation).
    const EVALUATIONS: &'static [&'static str] = &["simple"];

    /// The parameters `mcts` plays this game with unless its string says otherwise (`key=value,...`; `mcts(defaults=
    /// none)` plays plain UCT), chosen by the matches in `docs/mcts.md`. Empty: plain UCT.
    const MCTS_DEFAULTS: &'static str = "";

    /// Whether `eval=NAME` names one of the game's evaluations, checked when a player string is read (before any
    /// game is at hand): one of [`Knowledge::EVALUATIONS`], or a form the game reads more into (Breakthrough's
    /// `nnue:FILE`, a network read from a weights file).
    fn check_evaluation(name: &str) -> Result<(), GameError>
    where
        Self: Sized,
    {
        known_evaluation(Self::EVALUATIONS, name)
    }

    /// The evaluation named `name` (one that [`Knowledge::check_evaluation`] accepts).
    fn evaluation(&self, name: &str) -> Result<Self::Eval, GameError> {
        if name == "simple" {
            Ok(Self::Eval::default())
        } else {
            err(format!("{}: no evaluation '{name}' (known: {})", self.spec(), Self::EVALUATIONS.join(", ")))
        }
    }

    /// The engine's search constants tuned for this game when it evaluates with `eval` (the name of one of
    /// [`Knowledge::EVALUATIONS`], or `nnue:FILE`), as a parameters text (`name = value` per line, the form of
    /// `engine(params=FILE)`); the engine lays `params=FILE` and the player string's values over it. `None` (the
    /// default): the engine's general defaults, which no game was tuned for alone.
    fn engine_params(&self, eval: &str) -> Option<&'static str> {
        let _ = eval;
        None
    }

    /// Whether [`Knowledge::move_class`] tells noisy moves from quiet ones (quiescence search needs it).
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

    /// What the rules and the knowledge say of `state` at once, in the order the solvers ask it: the game is over
    /// ([`Game::outcome`]), else the side to move wins with its next move ([`Knowledge::has_winning_move`]), else what
    /// the opponent's threats force ([`Knowledge::forced`]). The default asks the three methods; a game may share
    /// their work (Qubic: each side's threats computed once).
    ///
    /// [`Game::outcome`]: super::Game::outcome
    fn tactics(&self, state: &Self::State) -> Tactics {
        if let Some(o) = self.outcome(state) {
            Tactics::Over(o)
        } else if self.has_winning_move(state) {
            Tactics::WinInOne
        } else {
            Tactics::Forced(self.forced(state))
        }
    }

    /// [`Knowledge::tactics`] of the position after each of `moves` (legal at `state`, which is not over), in their
    /// order, into `out` (cleared first): the solvers value every child of a node so. The default plays each move and
    /// asks [`Knowledge::tactics`]; a game may work from the parent's threats, updated by the move (Qubic).
    fn child_tactics(&self, state: &Self::State, moves: &[Self::Move], out: &mut ArrayVec<Tactics, MAX_MOVES>) {
        out.clear();
        for &m in moves {
            let mut c = *state;
            self.play(&mut c, m);
            out.push(self.tactics(&c));
        }
    }

    /// Keep, of `moves` (legal at `state`), those of class [`MoveClass::Threat`], in their order. The default asks
    /// [`Knowledge::move_class`] of each; a game may find them all at once (Qubic: from bitboards).
    fn retain_threats(&self, state: &Self::State, moves: &mut MoveList<Self::Move>) {
        moves.retain(|m| self.move_class(state, *m) == MoveClass::Threat);
    }

    /// The moves of `state` that answer the threat of [`Forced::Defend`]`(target)` ([`Knowledge::defends`]), in the
    /// generated order, into `moves`. The default generates the moves and keeps those; a game that knows them at
    /// once writes them (Qubic: the one cell to block).
    fn defences(&self, state: &Self::State, target: u32, moves: &mut MoveList<Self::Move>) {
        self.generate_moves(state, moves);
        moves.retain(|m| self.defends(*m, target));
    }

    /// The [`Knowledge::symmetry_key`] of the position after each of `moves` (legal at `state`), in their order, into
    /// `out` (cleared first). The default plays each move and asks it; a game may share the work between the
    /// children (Qubic: the parent's images under the symmetries, each child's stone added).
    fn child_symmetry_keys(&self, state: &Self::State, moves: &[Self::Move], out: &mut ArrayVec<u64, MAX_MOVES>) {
        out.clear();
        for &m in moves {
            let mut c = *state;
            self.play(&mut c, m);
            out.push(self.symmetry_key(&c));
        }
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
    /// [`Capabilities::random_move`]. The default knows neither: the random move. A game without a cheap "win at once"
    /// may guide its playouts by other cheap knowledge here (Othello: corners first, X-squares of empty corners last).
    fn decisive_random_move<R: Rng + ?Sized>(&self, state: &Self::State, rng: &mut R) -> Option<Self::Move> {
        self.random_move(state, rng)
    }

    /// A key that positions equal up to a symmetry of the board share, for the tables of solvers (a transposition
    /// table keyed by it holds one entry for all of them). It must be a function of the position alone (never of the
    /// line that reached it). The default: [`Game::key`], no symmetry.
    fn symmetry_key(&self, state: &Self::State) -> u64 {
        self.key(state)
    }

    /// How many symmetries of the board [`Knowledge::symmetric`] applies (symmetry 0 is the identity); the default:
    /// 1, no symmetry.
    fn symmetry_count(&self) -> usize {
        1
    }

    /// The image of `state` under symmetry `k` (below [`Knowledge::symmetry_count`]): a position of the same value,
    /// whose key is its own (computed anew). The default: `state` itself.
    fn symmetric(&self, state: &Self::State, k: usize) -> Self::State {
        let _ = k;
        *state
    }

    /// The image of `mv`, legal in `state`, under symmetry `k`: legal in `symmetric(state, k)`, and the image of the
    /// position it reaches. The default: `mv` itself.
    fn symmetric_move(&self, state: &Self::State, mv: Self::Move, k: usize) -> Self::Move {
        let _ = (state, k);
        mv
    }

    /// A small index of a move for history tables, below [`MOVE_KEYS`].
    fn move_key(&self, mv: Self::Move) -> usize {
        hashed_move_key(&mv)
    }

    /// A result certain without playing on (for the side to move) and its reason, for the arena's adjudication.
    fn adjudicate(&self, state: &Self::State) -> Option<(Outcome, &'static str)> {
        let _ = state;
        None
    }

    /// Build the endgame tables [`Knowledge::endgame`] probes (once per process; cheap when they exist).
    fn prepare_endgame(&self) {}

    /// An exact result for the side to move from endgame tables: a win or loss and an upper bound on the plies to
    /// the end.
    fn endgame(&self, state: &Self::State) -> Option<(Outcome, u32)> {
        let _ = state;
        None
    }
}

/// The class of a move, from the least to the most forcing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveClass {
    Quiet,
    Capture,
    /// The move threatens to win with the next move (Breakthrough: onto the row before the goal).
    Threat,
    /// The move wins at once.
    Win,
}

/// What the side to move must do about the opponent's threats to win with its next move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Forced {
    /// No threat: every move may be played.
    Free,
    /// One threat, answered only by the moves `m` with `game.defends(m, target)` (Breakthrough: the captures of the
    /// threatening piece on square `target`); every other move loses at once.
    Defend(u32),
    /// Threats that cannot all be answered: every move loses in two plies.
    Lost,
}

/// What [`Knowledge::tactics`] says of a position: over, a win in one for the side to move, or what the opponent's
/// threats force.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tactics {
    /// The game is over: the outcome for the side to move.
    Over(Outcome),
    /// The side to move wins with its next move.
    WinInOne,
    /// Neither: what the opponent's threats force.
    Forced(Forced),
}

/// Move keys are below this: the size of a history table.
pub(crate) const MOVE_KEYS: usize = 4096;

/// The default move key: a hash of the move's bytes, below [`MOVE_KEYS`].
pub(crate) fn hashed_move_key<M: Hash>(m: &M) -> usize {
    let mut h = MulHasher(0);
    m.hash(&mut h);
    (h.0 >> 52) as usize
}

/// A tiny multiplicative hasher (moves are a few bytes).
struct MulHasher(u64);

impl Hasher for MulHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
}
