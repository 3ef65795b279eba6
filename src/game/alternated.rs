//! A game with simultaneous moves seen as an alternating game, for searches that need one mover per node (the naive
//! baseline of simultaneous games, `naive`: `engine/simultaneous.rs`).
//!
//! ```text
//! at a simultaneous node of the game:   `first` chooses its half (the node's side to move is `first`),
//!                                       then the other player chooses its half knowing it (a node of its own),
//!                                       then the pair is played (Capabilities::play_joint)
//! anywhere else:                        the game's own turns
//! ```
//! Searched with minimax, `first`'s value is its best guaranteed result when the opponent would see each of its
//! halves before answering: the pure maximin of each turn's matrix, a lower bound of the simultaneous game's value
//! for `first`. Games with chance nodes are not covered (the registry only sends games without chance here).
//!
//! State: the game's state, the half chosen by `first` when it waits for the other's, and a key (the game's key
//! mixed with that half). Position text: the game's, then ` pending=MOVE` while a half waits.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use super::{
    Capabilities, Evaluator, Game, GameError, GivenEval, Interop, Knowledge, MoveList, Outcome, Side, Turn, err,
};

/// The alternating view of `inner`, where `first` chooses first at every simultaneous node.
#[derive(Clone, Debug)]
pub struct Alternated<G: Capabilities> {
    pub inner: G,
    pub first: Side,
}

/// A state of the view: the game's state and the half `first` chose, when the other player is to answer it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AltState<S, M> {
    pub inner: S,
    pub pending: Option<M>,
    key: u64,
}

impl<G: Capabilities> Alternated<G> {
    /// The game `inner` with `first` moving first.
    pub fn new(inner: G, first: Side) -> Self {
        Alternated { inner, first }
    }

    /// The view's state at `state` (no half chosen yet).
    pub fn root(&self, state: &G::State) -> AltState<G::State, G::Move> {
        let mut s = AltState { inner: *state, pending: None, key: 0 };
        s.key = self.compute_key(&s);
        s
    }

    fn simultaneous(&self, s: &AltState<G::State, G::Move>) -> bool {
        self.inner.turn(&s.inner) == Turn::Simultaneous
    }

    /// The key of the pending half and of who chooses first (so that the two views never share a key).
    fn extra_key(&self, pending: Option<G::Move>) -> u64 {
        let mut h = DefaultHasher::new();
        (pending, self.first).hash(&mut h);
        h.finish()
    }
}

impl<G: Capabilities> Game for Alternated<G> {
    type State = AltState<G::State, G::Move>;

    type Move = G::Move;

    fn spec(&self) -> String {
        format!("{} alternated, {:?} first", self.inner.spec(), self.first)
    }

    fn start(&self) -> Self::State {
        self.root(&self.inner.start())
    }

    fn side_to_move(&self, s: &Self::State) -> Side {
        match (self.simultaneous(s), s.pending) {
            (true, None) => self.first,
            (true, Some(_)) => self.first.other(),
            (false, _) => self.inner.side_to_move(&s.inner),
        }
    }

    fn generate_moves(&self, s: &Self::State, moves: &mut MoveList<G::Move>) {
        if self.simultaneous(s) {
            self.inner.player_moves(&s.inner, self.side_to_move(s), moves);
        } else {
            self.inner.generate_moves(&s.inner, moves);
        }
    }

    fn play(&self, s: &mut Self::State, m: G::Move) {
        if !self.simultaneous(s) {
            self.inner.play(&mut s.inner, m);
        } else if let Some(a) = s.pending.take() {
            let (w, b) = if self.first == Side::First { (a, m) } else { (m, a) };
            self.inner.play_joint(&mut s.inner, w, b);
        } else {
            s.pending = Some(m);
        }
        s.key = self.compute_key(s);
    }

    fn outcome(&self, s: &Self::State) -> Option<Outcome> {
        if s.pending.is_some() {
            return None;
        }
        self.inner.outcome_for(&s.inner, self.side_to_move(s))
    }

    fn key(&self, s: &Self::State) -> u64 {
        s.key
    }

    fn compute_key(&self, s: &Self::State) -> u64 {
        self.inner.key(&s.inner) ^ self.extra_key(s.pending)
    }

    fn parse_move(&self, s: &Self::State, text: &str) -> Result<G::Move, GameError> {
        let mut moves = MoveList::new();
        self.generate_moves(s, &mut moves);
        let found = moves.iter().copied().find(|&m| self.format_move(s, m) == text.trim());
        found.ok_or_else(|| GameError::new(format!("'{}' is not a legal move here", text.trim())))
    }

    fn format_move(&self, s: &Self::State, m: G::Move) -> String {
        self.inner.format_move(&s.inner, m)
    }

    fn parse_position(&self, text: &str) -> Result<Self::State, GameError> {
        let (game, half) = match text.rsplit_once(" pending=") {
            Some((g, h)) => (g, Some(h)),
            None => (text, None),
        };
        let mut s = self.root(&self.inner.parse_position(game)?);
        if let Some(h) = half {
            if !self.simultaneous(&s) {
                return err("pending=: the game's position is not a simultaneous node");
            }
            let m = self.parse_move(&s, h)?;
            self.play(&mut s, m);
        }
        Ok(s)
    }

    fn format_position(&self, s: &Self::State) -> String {
        let game = self.inner.format_position(&s.inner);
        match s.pending {
            Some(m) => format!("{game} pending={}", self.format_move(s, m)),
            None => game,
        }
    }

    fn display(&self, s: &Self::State) -> String {
        let board = self.inner.display(&s.inner);
        match s.pending {
            Some(m) => {
                format!("{board}\n{:?} chose {}; {:?} answers", self.first, self.format_move(s, m), self.first.other())
            }
            None => board,
        }
    }
}

impl<G: Capabilities> Capabilities for Alternated<G> {}

impl<G: Knowledge> Knowledge for Alternated<G> {
    type Eval = AltEval<G>;

    const EVALUATIONS: &'static [&'static str] = G::EVALUATIONS;

    fn check_evaluation(name: &str) -> Result<(), GameError> {
        G::check_evaluation(name)
    }

    fn evaluation(&self, name: &str) -> Result<AltEval<G>, GameError> {
        Ok(AltEval(self.inner.evaluation(name)?))
    }
}

impl<G: Capabilities> Interop for Alternated<G> {}

/// The game's evaluation, for the view's side to move.
#[derive(Clone, Debug)]
pub struct AltEval<G: Knowledge>(pub G::Eval);

impl<G: Knowledge> Default for AltEval<G> {
    fn default() -> Self {
        AltEval(G::Eval::default())
    }
}

impl<G: Knowledge> Evaluator<Alternated<G>> for AltEval<G> {
    type Carry = ();

    fn evaluate(&self, g: &Alternated<G>, s: &AltState<G::State, G::Move>) -> i32 {
        g.for_view_side(s, self.0.evaluate(&g.inner, &s.inner))
    }
}

impl<G: Knowledge> Alternated<G> {
    /// `v`, the game's value of `s.inner` for the game's side to move, for the view's side to move in `s`.
    fn for_view_side(&self, s: &AltState<G::State, G::Move>, v: i32) -> i32 {
        if self.inner.side_to_move(&s.inner) == self.side_to_move(s) { v } else { -v }
    }

    /// The view of an evaluation given at run time for the game (as [`AltEval`] is of the game's own).
    pub fn given_eval(&self, f: GivenEval<G>) -> GivenEval<Alternated<G>>
    where
        G: Sync + Send + 'static,
    {
        let view = self.clone();
        Arc::new(move |s: &AltState<G::State, G::Move>| view.for_view_side(s, f(&s.inner)))
    }
}
