//! The capabilities a game may use beyond a deterministic, alternating game of perfect information: chance nodes,
//! simultaneous moves, hidden information (the vocabulary is in [`turn`](super::turn)), and the helpers whose meaning
//! depends on them (a random move is drawn by its probability at a chance node; a move list names joint moves at a
//! simultaneous node).
//!
//! Every method has the default of the classic kind ([`Kind::CLASSIC`]): a deterministic alternating game writes
//! `impl Capabilities for MyGame {}` and pays nothing; a game of another kind sets [`Capabilities::KIND`] and overrides
//! what it uses. Tools branch on `KIND`, a constant, so the branches a classic game never takes are compiled out.

use rand::{Rng, RngExt};

use super::{
    ChanceList, Game, GameError, Kind, MoveList, Outcome, Side, Turn, WIN_SCORE, err, playout, sample_outcome,
};

/// What kind of game this is, and how its chance, simultaneous and hidden states behave.
pub trait Capabilities: Game {
    /// The capabilities this game uses (chance, simultaneous moves, hidden information); see [`turn`].
    const KIND: Kind = Kind::CLASSIC;

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

    /// [`Capabilities::observation`] written into `out` (cleared first). The belief tracker of the hidden-information players
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
    /// `observation` what `player` was just told ([`Capabilities::observation`]). The result shows what `player` sees as the
    /// observation shows it and keeps every hidden piece where `player` last saw it, even when no game reaches that
    /// state (the opponent moved a piece, the guess does not know which). `None` (the default): the game has no such
    /// board, and `naive` guesses one consistent state instead.
    fn last_seen(&self, guess: &Self::State, player: Side, observation: &str) -> Option<Self::State> {
        let _ = (guess, player, observation);
        None
    }
}
