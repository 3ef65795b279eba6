//! Solving any game: alpha-beta to the end of the game with a transposition table over exact values.
//!
//! Values are seen from the side to move. In *strong* mode a terminal position reached `d` plies below the root scores
//! `WIN_SCORE - d` (win), `-(WIN_SCORE - d)` (loss) or 0 (draw), so the search prefers the fastest win and the slowest
//! loss and the root value gives the number of plies to the end under perfect play. In *weak* mode terminals score
//! +1/-1/0: only the result is proven, which prunes far more.
//!
//! ```text
//! solve(s, α, β, ply):                                    -- fail-soft negamax
//!     nodes += 1
//!     if s is terminal: return value(outcome(s), ply)
//!     look s up in the table: an exact value is returned; a lower/upper bound tightens α/β; return if α >= β
//!     strong: β := min(β, WIN - (ply+1))                  -- nothing beats a win at the next ply
//!     order the moves: immediate wins first, the table's best move, then by the static evaluation of the child
//!     best := -∞
//!     for each move m:
//!         v := -solve(play(s, m), -β, -max(α, best), ply+1)
//!         if v > best: best := v, best move := m
//!         if best >= β: break                            -- cut-off
//!     store best in the table with its bound (<= α: upper; >= β: lower; otherwise exact), the best move, and
//!         log2 of the nodes spent below as the replacement priority
//!     return best
//! ```
//!
//! The root is searched with the full window; values in the table are stored relative to the node (see
//! [`crate::search::tt`]) so that a distance stays right whatever path reached a position. The games are assumed to
//! have no repeated positions along a line (true of every game so far: each move adds a stone or moves a piece
//! forward or removes material).

use std::time::Instant;

use arrayvec::ArrayVec;

use crate::game::{Evaluator, FullGame, MAX_MOVES, MoveList, Outcome, WIN_SCORE, WIN_THRESHOLD};
use crate::search::INFINITY;
use crate::search::tt::{Bound, TranspositionTable, from_tt};

/// The exact result of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved<M> {
    /// `Win`, `Loss` or `Draw` for the side to move.
    pub outcome: Outcome,
    /// Strong mode: plies to the end of the game under perfect play (the fastest win, the slowest loss); `None` in
    /// weak mode or for a draw.
    pub plies: Option<u32>,
    /// The move that achieves it (`None` in a terminal position).
    pub best_move: Option<M>,
    /// The raw root value (`WIN_SCORE - plies` for a win).
    pub value: i32,
    pub nodes: u64,
    pub seconds: f64,
    /// The game went deeper than [`max_ply`]: the value is not exact (the callers refuse it with an error).
    pub(crate) too_deep: bool,
}

/// Stack the recursion may use: the main thread has 8 MiB (Linux's default), debug builds' frames are larger.
const STACK_BUDGET: usize = 2 << 20;

/// Deepest ply the solver recurses to for the game `G`: each ply holds the ordered children (`MAX_MOVES` entries of a
/// score, a move and a state) and a move list on the stack, so games with large states get fewer plies.
pub(crate) fn max_ply<G: FullGame>() -> u32 {
    let frame = MAX_MOVES * std::mem::size_of::<(i32, G::Move, G::State)>() + std::mem::size_of::<MoveList<G::Move>>();
    (STACK_BUDGET / (frame + 512)).max(4) as u32
}

impl<M> Solved<M> {
    /// `win`, `loss` or `draw`, and the score `plateau solve` prints: weak, the sign (1, -1, 0); strong, plies to the
    /// end, positive for a win.
    pub(crate) fn word_and_score(&self, weak: bool) -> (&'static str, i32) {
        let sign = match self.outcome {
            Outcome::Win => 1,
            Outcome::Loss => -1,
            _ => 0,
        };
        let word = match sign {
            1 => "win",
            -1 => "loss",
            _ => "draw",
        };
        if weak { (word, sign) } else { (word, sign * self.plies.unwrap_or(0) as i32) }
    }
}

/// The value of one move for the side to move (`plateau solve --analyze`).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue<M> {
    pub mv: M,
    /// `win`, `loss` or `draw`.
    pub result: &'static str,
    /// As [`Solved::word_and_score`], one more ply to the end than the child's (a move that ends the game: 1, -1, 0).
    pub score: i32,
    /// Nodes of the child's solve (0 when the move ends the game).
    pub nodes: u64,
}

/// The solver: a transposition table and a node counter.
pub struct GenericSolver<G: FullGame> {
    tt: TranspositionTable<G::Move>,
    eval: G::Eval,
    weak: bool,
    nodes: u64,
    too_deep: bool,
}

impl<G: FullGame> GenericSolver<G> {
    /// A solver with a table of `tt_mib` MiB.
    pub fn new(tt_mib: usize, weak: bool) -> Self {
        GenericSolver { tt: TranspositionTable::new(tt_mib), eval: G::Eval::default(), weak, nodes: 0, too_deep: false }
    }

    /// Solve `state` from scratch.
    pub fn solve(&mut self, game: &G, state: &G::State) -> Solved<G::Move> {
        let start = Instant::now();
        self.tt.clear();
        self.nodes = 0;
        let value = self.negamax(game, state, -INFINITY, INFINITY, 0);
        let best_move = if game.is_terminal(state) { None } else { self.tt.probe(game.key(state)).and_then(|e| e.mv) };
        let (outcome, plies) = if value > 0 {
            (Outcome::Win, (value >= WIN_THRESHOLD).then(|| (WIN_SCORE - value) as u32))
        } else if value < 0 {
            (Outcome::Loss, (value <= -WIN_THRESHOLD).then(|| (WIN_SCORE + value) as u32))
        } else {
            (Outcome::Draw, None)
        };
        let too_deep = std::mem::take(&mut self.too_deep);
        Solved { outcome, plies, best_move, value, nodes: self.nodes, seconds: start.elapsed().as_secs_f64(), too_deep }
    }

    /// Solve every legal move of `state`: the value of each child, seen by the side to move here.
    pub fn analyze(&mut self, game: &G, state: &G::State) -> Vec<MoveValue<G::Move>> {
        let mut moves = MoveList::new();
        game.generate_moves(state, &mut moves);
        let mut out = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let mut child = *state;
            game.play(&mut child, mv);
            let (result, score, nodes) = match game.outcome(&child) {
                Some(o) => match o.flip() {
                    Outcome::Win => ("win", 1, 0),
                    Outcome::Loss => ("loss", -1, 0),
                    _ => ("draw", 0, 0),
                },
                None => {
                    let c = self.solve(game, &child);
                    let (word, s) = c.word_and_score(self.weak);
                    let score = if self.weak { -s } else { -s + (-s).signum() };
                    let result = match word {
                        _ if c.too_deep => "too_deep",
                        "win" => "loss",
                        "loss" => "win",
                        _ => "draw",
                    };
                    (result, score, c.nodes)
                }
            };
            out.push(MoveValue { mv, result, score, nodes });
        }
        out
    }

    fn leaf(&self, o: Outcome, ply: u32) -> i32 {
        let sign = match o {
            Outcome::Win => 1,
            Outcome::Loss => -1,
            Outcome::Draw => 0,
            Outcome::Value(v) => v.signum(),
        };
        if self.weak { sign } else { sign * (WIN_SCORE - ply as i32) }
    }

    fn negamax(&mut self, game: &G, s: &G::State, mut alpha: i32, mut beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if ply >= max_ply::<G>() {
            // Deeper would overflow the thread's stack (an abort): give up, and say so through `Solved::too_deep`.
            self.too_deep = true;
            return 0;
        }
        if let Some(o) = game.outcome(s) {
            return self.leaf(o, ply);
        }
        let nodes_before = self.nodes;
        let key = game.key(s);
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            let v = from_tt(e.value, ply);
            match e.bound {
                Bound::Exact => return v,
                Bound::Lower => alpha = alpha.max(v),
                Bound::Upper => beta = beta.min(v),
            }
            if alpha >= beta {
                return v;
            }
            tt_move = e.mv;
        }
        if !self.weak {
            // A win is at best at the next ply; a loss at worst... anywhere, so only beta tightens.
            let best_possible = WIN_SCORE - (ply as i32 + 1);
            if beta > best_possible {
                beta = best_possible;
                if alpha >= beta {
                    return beta;
                }
            }
        }
        let alpha0 = alpha;

        let mut moves = MoveList::new();
        game.generate_moves(s, &mut moves);
        // (order key, move, child); a lower key is searched first.
        let mut ordered: ArrayVec<(i32, G::Move, G::State), MAX_MOVES> = ArrayVec::new();
        for &m in &moves {
            let mut child = *s;
            game.play(&mut child, m);
            let k = match game.outcome(&child) {
                Some(Outcome::Loss) => i32::MIN,
                _ if Some(m) == tt_move => i32::MIN + 1,
                // The child's evaluation is from the opponent's view: the lower, the better for us.
                Some(_) => 0,
                None => self.eval.evaluate(game, &child),
            };
            ordered.push((k, m, child));
        }
        ordered.sort_by_key(|e| e.0);

        let mut best = -INFINITY;
        let mut best_move = None;
        for (_, m, child) in &ordered {
            let v = -self.negamax(game, child, -beta, -alpha.max(best), ply + 1);
            if v > best {
                best = v;
                best_move = Some(*m);
            }
            if best >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let work = 64 - (self.nodes - nodes_before).leading_zeros() as i32;
        self.tt.store(key, work, best, bound, if bound == Bound::Upper { tt_move } else { best_move }, ply);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Capabilities;
    use crate::game::Game;
    use crate::games::Breakthrough;
    use crate::spec::Spec;

    fn bt(text: &str) -> Breakthrough {
        Breakthrough::from_spec(&Spec::parse(text).unwrap()).unwrap()
    }

    #[test]
    fn analyze_values_every_move() {
        use crate::games::TicTacToe;
        let g = TicTacToe;
        let mut solver = GenericSolver::new(1, false);
        // Every first move draws.
        let start = solver.analyze(&g, &g.start());
        assert_eq!(start.len(), 9);
        assert!(start.iter().all(|m| (m.result, m.score) == ("draw", 0) && m.nodes > 0));
        // X to move with a1 b1 against a2 b2: c1 wins at once (no search), c2 blocks O and draws, the others lose.
        let s = g.play_moves(&g.start(), "a1 a2 b1 b2").unwrap();
        let moves = solver.analyze(&g, &s);
        let of = |name: &str| moves.iter().find(|m| g.format_move(&s, m.mv) == name).unwrap().clone();
        assert_eq!((of("c1").result, of("c1").score, of("c1").nodes), ("win", 1, 0));
        assert_eq!((of("c2").result, of("c2").score), ("draw", 0));
        // O completes a2 b2 c2 with the next move: a loss in 2 plies.
        assert_eq!((of("a3").result, of("a3").score), ("loss", -2));
        let weak = GenericSolver::new(1, true).analyze(&g, &s);
        assert!(weak.iter().all(|m| m.score.abs() <= 1));
    }

    #[test]
    fn breakthrough_4x3_one_row_first_player_wins() {
        let g = bt("breakthrough(rows=4,columns=3,piece_rows=1)");
        let strong = GenericSolver::new(1, false).solve(&g, &g.start());
        let weak = GenericSolver::new(1, true).solve(&g, &g.start());
        assert_eq!(strong.outcome, Outcome::Win);
        assert_eq!(weak.outcome, Outcome::Win);
        assert!(strong.plies.unwrap() % 2 == 1, "a first-player win ends on an odd ply");
    }
}
