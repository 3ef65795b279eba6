//! A game searched with an evaluation written in Python: [`Evaluated`] is the game `G` with every rule and every piece
//! of knowledge passed through unchanged, and one difference, its evaluation ([`Knowledge::Eval`]) is a function given at
//! run time (`plateau.search(state, "alphabeta(depth=4)", evaluate=f)`). The searches, the engine included, then call
//! that function at their leaves: about a microsecond of Python per call instead of nanoseconds of Rust, so searches
//! are slower, but a student tries an evaluation without writing Rust.

use std::fmt;
use std::sync::Arc;

use plateau::game::{
    Capabilities, ChanceList, Evaluator, Forced, FullGame, Game, GameError, Interop, Kind, Knowledge, MoveClass,
    MoveList, Outcome, Side, Term, Turn,
};
use rand::Rng;

/// The function that scores a state for its side to move.
pub type EvalFn<S> = Arc<dyn Fn(&S) -> i32 + Send + Sync>;

/// The game `G` with the evaluation `eval`.
pub struct Evaluated<G: FullGame> {
    inner: G,
    eval: EvalFn<G::State>,
}

impl<G: FullGame> Evaluated<G> {
    pub fn new(inner: G, eval: EvalFn<G::State>) -> Self {
        Evaluated { inner, eval }
    }
}

impl<G: FullGame> Clone for Evaluated<G> {
    fn clone(&self) -> Self {
        Evaluated { inner: self.inner.clone(), eval: self.eval.clone() }
    }
}

impl<G: FullGame> fmt::Debug for Evaluated<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Evaluated({:?})", self.inner)
    }
}

/// The evaluation of an [`Evaluated`] game: its function.
#[derive(Clone, Copy, Debug, Default)]
pub struct Given;

impl<G: FullGame> Evaluator<Evaluated<G>> for Given {
    type Carry = ();

    fn evaluate(&self, game: &Evaluated<G>, state: &G::State) -> i32 {
        (game.eval)(state)
    }
    fn terms(&self, _game: &Evaluated<G>, _state: &G::State) -> Vec<Term> {
        Vec::new()
    }
}

impl<G: FullGame> Game for Evaluated<G> {
    type State = G::State;

    type Move = G::Move;

    fn spec(&self) -> String {
        self.inner.spec()
    }

    fn start(&self) -> G::State {
        self.inner.start()
    }

    fn side_to_move(&self, s: &G::State) -> Side {
        self.inner.side_to_move(s)
    }

    fn generate_moves(&self, s: &G::State, moves: &mut MoveList<G::Move>) {
        self.inner.generate_moves(s, moves)
    }

    fn play(&self, s: &mut G::State, m: G::Move) {
        self.inner.play(s, m)
    }

    fn outcome(&self, s: &G::State) -> Option<Outcome> {
        self.inner.outcome(s)
    }

    fn key(&self, s: &G::State) -> u64 {
        self.inner.key(s)
    }

    fn compute_key(&self, s: &G::State) -> u64 {
        self.inner.compute_key(s)
    }

    fn parse_move(&self, s: &G::State, text: &str) -> Result<G::Move, GameError> {
        self.inner.parse_move(s, text)
    }

    fn format_move(&self, s: &G::State, m: G::Move) -> String {
        self.inner.format_move(s, m)
    }

    fn parse_position(&self, text: &str) -> Result<G::State, GameError> {
        self.inner.parse_position(text)
    }

    fn format_position(&self, s: &G::State) -> String {
        self.inner.format_position(s)
    }

    fn display(&self, s: &G::State) -> String {
        self.inner.display(s)
    }

    fn count_moves(&self, s: &G::State) -> u64 {
        self.inner.count_moves(s)
    }

    fn count_leaf_moves(&self, s: &G::State) -> u64 {
        self.inner.count_leaf_moves(s)
    }

    fn is_terminal(&self, s: &G::State) -> bool {
        self.inner.is_terminal(s)
    }

    fn split_moves(&self, text: &str) -> Vec<String> {
        self.inner.split_moves(text)
    }
}

impl<G: FullGame> Capabilities for Evaluated<G> {
    const KIND: Kind = G::KIND;

    fn random_move<R: Rng + ?Sized>(&self, s: &G::State, rng: &mut R) -> Option<G::Move> {
        self.inner.random_move(s, rng)
    }

    fn random_playout<R: Rng + ?Sized>(&self, s: &G::State, rng: &mut R) -> (Outcome, u32) {
        self.inner.random_playout(s, rng)
    }

    fn turn(&self, s: &G::State) -> Turn {
        self.inner.turn(s)
    }

    fn outcome_for(&self, s: &G::State, p: Side) -> Option<Outcome> {
        self.inner.outcome_for(s, p)
    }

    fn chance_outcomes(&self, s: &G::State, outcomes: &mut ChanceList<G::Move>) {
        self.inner.chance_outcomes(s, outcomes)
    }

    fn value_bound(&self) -> i32 {
        self.inner.value_bound()
    }

    fn player_moves(&self, s: &G::State, p: Side, moves: &mut MoveList<G::Move>) {
        self.inner.player_moves(s, p, moves)
    }

    fn play_joint(&self, s: &mut G::State, a: G::Move, b: G::Move) {
        self.inner.play_joint(s, a, b)
    }

    fn parse_joint(&self, s: &G::State, text: &str) -> Result<(G::Move, G::Move), GameError> {
        self.inner.parse_joint(s, text)
    }

    fn observation(&self, s: &G::State, p: Side) -> String {
        self.inner.observation(s, p)
    }

    fn resample<R: Rng + ?Sized>(&self, s: &G::State, p: Side, rng: &mut R) -> G::State {
        self.inner.resample(s, p, rng)
    }
}

impl<G: FullGame> Knowledge for Evaluated<G> {
    type Eval = Given;

    fn has_tactics(&self) -> bool {
        self.inner.has_tactics()
    }

    fn move_class(&self, s: &G::State, m: G::Move) -> MoveClass {
        self.inner.move_class(s, m)
    }

    fn capture_order(&self, s: &G::State, m: G::Move) -> u32 {
        self.inner.capture_order(s, m)
    }

    fn has_winning_move(&self, s: &G::State) -> bool {
        self.inner.has_winning_move(s)
    }

    fn forced(&self, s: &G::State) -> Forced {
        self.inner.forced(s)
    }

    fn defends(&self, m: G::Move, target: u32) -> bool {
        self.inner.defends(m, target)
    }

    fn null_move(&self, s: &G::State) -> Option<G::State> {
        self.inner.null_move(s)
    }

    fn move_key(&self, m: G::Move) -> usize {
        self.inner.move_key(m)
    }

    fn adjudicate(&self, s: &G::State) -> Option<(Outcome, &'static str)> {
        self.inner.adjudicate(s)
    }

    fn prepare_endgame(&self) {
        self.inner.prepare_endgame()
    }

    fn endgame(&self, s: &G::State) -> Option<(Outcome, u32)> {
        self.inner.endgame(s)
    }
}

impl<G: FullGame> Interop for Evaluated<G> {
    fn player_name(&self, p: Side) -> Option<&'static str> {
        self.inner.player_name(p)
    }

    fn returns_value(&self, o: Outcome) -> f64 {
        self.inner.returns_value(o)
    }

    fn num_distinct_actions(&self) -> Option<u32> {
        self.inner.num_distinct_actions()
    }

    fn action_id(&self, s: &G::State, m: G::Move) -> Option<u32> {
        self.inner.action_id(s, m)
    }

    fn observation_shape(&self) -> Vec<usize> {
        self.inner.observation_shape()
    }

    fn observation_tensor(&self, s: &G::State, p: Side, out: &mut [f32]) {
        self.inner.observation_tensor(s, p, out)
    }
}
