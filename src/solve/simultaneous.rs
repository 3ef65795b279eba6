//! Exact values of games with simultaneous moves, by backward induction with a matrix game at every state.
//!
//! ```text
//! value(s):                                    for the first player; terminal: win 1, loss -1, draw 0, a number itself
//!     if s is terminal: return its outcome
//!     if s is in the memo (by Zobrist key): return it
//!     simultaneous node: A[i][j] = value(play_joint(s, a_i, b_j)) for the first player's moves a_i and the
//!                        second's b_j; value = the value of the zero-sum matrix game A (linear programming,
//!                        matrix_game.rs)
//!     a player's turn:   the best child for that player (max for the first, min for the second)
//!     chance node:       the expectation over the outcomes
//!     memo[s] = value
//! ```
//!
//! The game must end (its graph has no cycle): Breakthrough with simultaneous moves ends every game by its repetition
//! rule. The value of a simultaneous game is a *mixed* one: the first player's expected result (win 1, loss -1) when
//! both play optimal mixed strategies, which [`SimSolver::root`] gives for the root.

use std::collections::HashMap;

use crate::game::{ChanceList, FullGame, MoveList, Outcome, Side, Turn};

use super::matrix_game::{Matrix, Solution};

/// The first player's payoff of a finished game.
pub fn payoff<G: FullGame>(game: &G, s: &G::State) -> Option<f64> {
    game.outcome_for(s, Side::First).map(|o| match o {
        Outcome::Win => 1.0,
        Outcome::Loss => -1.0,
        Outcome::Draw => 0.0,
        Outcome::Value(v) => v as f64,
    })
}

/// A root position solved: its value, each player's moves and optimal mixed strategy.
#[derive(Clone, Debug)]
pub struct RootSolution<M> {
    pub value: f64,
    pub first: Vec<(M, f64)>,
    pub second: Vec<(M, f64)>,
    /// The matrix of the root (the children's values), rows the first player's moves.
    pub matrix: Matrix,
}

/// The solver: a memo of values by position key, and counters.
pub struct SimSolver<'g, G: FullGame> {
    game: &'g G,
    memo: HashMap<u64, f64>,
    /// Matrix games that needed the linear program (no pure saddle point).
    pub mixed_nodes: u64,
    /// Largest number of states to solve before giving up.
    pub max_states: usize,
}

impl<'g, G: FullGame> SimSolver<'g, G> {
    /// A solver of `game`.
    pub fn new(game: &'g G) -> Self {
        SimSolver { game, memo: HashMap::new(), mixed_nodes: 0, max_states: 20_000_000 }
    }

    /// States solved so far (the memo's size).
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// The value of `s` for the first player.
    pub fn value(&mut self, s: &G::State) -> Result<f64, String> {
        if let Some(v) = payoff(self.game, s) {
            return Ok(v);
        }
        let key = self.game.key(s);
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        if self.memo.len() >= self.max_states {
            return Err(format!("more than {} states: too large to solve exactly", self.max_states));
        }
        let v = match self.game.turn(s) {
            Turn::Simultaneous => self.node(s)?.1.value,
            Turn::Player(p) => {
                let mut moves = MoveList::new();
                self.game.generate_moves(s, &mut moves);
                let mut best: Option<f64> = None;
                for &m in &moves {
                    let mut c = *s;
                    self.game.play(&mut c, m);
                    let v = self.value(&c)?;
                    best = Some(match best {
                        None => v,
                        Some(b) if p == Side::First => b.max(v),
                        Some(b) => b.min(v),
                    });
                }
                best.ok_or("a non-terminal position without moves")?
            }
            Turn::Chance => {
                let mut outcomes = ChanceList::new();
                self.game.chance_outcomes(s, &mut outcomes);
                let mut sum = 0.0;
                for &(m, p) in &outcomes {
                    let mut c = *s;
                    self.game.play(&mut c, m);
                    sum += p * self.value(&c)?;
                }
                sum
            }
        };
        self.memo.insert(key, v);
        Ok(v)
    }

    /// The matrix of a simultaneous node (children's values) and its solution, with both players' moves.
    #[allow(clippy::type_complexity)]
    fn node(&mut self, s: &G::State) -> Result<((MoveList<G::Move>, MoveList<G::Move>, Matrix), Solution), String> {
        let (mut a, mut b) = (MoveList::new(), MoveList::new());
        self.game.player_moves(s, Side::First, &mut a);
        self.game.player_moves(s, Side::Second, &mut b);
        if a.is_empty() || b.is_empty() {
            return Err("a simultaneous node where a player has no move".into());
        }
        let mut values = Vec::with_capacity(a.len() * b.len());
        for &x in &a {
            for &y in &b {
                let mut c = *s;
                self.game.play_joint(&mut c, x, y);
                values.push(self.value(&c)?);
            }
        }
        let matrix = Matrix::new(a.len(), b.len(), values);
        let sol = matrix.solve()?;
        if sol.mixed {
            self.mixed_nodes += 1;
        }
        Ok(((a, b, matrix), sol))
    }

    /// Solve a simultaneous root: its value and both players' optimal mixed strategies.
    pub fn root(&mut self, s: &G::State) -> Result<RootSolution<G::Move>, String> {
        if self.game.is_terminal(s) {
            return Err("the game is over".into());
        }
        if self.game.turn(s) != Turn::Simultaneous {
            return Err("the position is not a simultaneous node".into());
        }
        let ((a, b, matrix), sol) = self.node(s)?;
        self.memo.insert(self.game.key(s), sol.value);
        let zip = |moves: &MoveList<G::Move>, p: &[f64]| moves.iter().copied().zip(p.iter().copied()).collect();
        Ok(RootSolution { value: sol.value, first: zip(&a, &sol.row), second: zip(&b, &sol.col), matrix })
    }
}
