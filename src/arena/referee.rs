//! The referee of games with hidden information: each player receives only its own observations.
//!
//! ```text
//! game start:     each player learns the start position (public: the opening is played in the open) and its seat
//!                 (Player::observe_start)
//! after each step (a move, a cancelled move, a chance draw): each player whose observation (Capabilities::observation)
//!                 changed receives the new one (Player::observe); a player is never told a step that leaves its
//!                 observation unchanged (the opponent's failed try in phantom tic-tac-toe)
//! a player's turn: it gets the moves legal on the board it sees (the game's legal moves of the true state, which
//!                 depend only on the mover's observation) and answers one of them (Player::think_observed); the
//!                 referee plays it on the true state: cancelled moves, captures and what each side is told are the
//!                 game's rules (`play`, `observation`)
//! ```
//! The record keeps every move (the referee's full game), so a game replays exactly.

use crate::game::{FullGame, Side};
use crate::players::Player;

/// The last observation each seat received (seat 0 plays the first player).
pub(crate) struct Referee {
    told: [String; 2],
}

impl Referee {
    /// Tell both players the start; `Err((seat, reason))` when one fails.
    pub fn start<G: FullGame>(
        game: &G,
        state: &G::State,
        players: &mut [&mut dyn Player<G>; 2],
    ) -> Result<Referee, (usize, String)> {
        let mut told = [String::new(), String::new()];
        for (seat, p) in [Side::First, Side::Second].into_iter().enumerate() {
            players[seat].observe_start(game, state, p).map_err(|e| (seat, e))?;
            told[seat] = game.observation(state, p);
        }
        Ok(Referee { told })
    }

    /// After a step: tell each player whose observation changed.
    pub fn tell<G: FullGame>(
        &mut self,
        game: &G,
        state: &G::State,
        players: &mut [&mut dyn Player<G>; 2],
    ) -> Result<(), (usize, String)> {
        for (seat, p) in [Side::First, Side::Second].into_iter().enumerate() {
            let seen = game.observation(state, p);
            if seen != self.told[seat] {
                players[seat].observe(game, &seen).map_err(|e| (seat, e))?;
                self.told[seat] = seen;
            }
        }
        Ok(())
    }
}
