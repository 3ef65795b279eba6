//! OpenSpiel's information states and `undo_action` on [`StateOf`], from the steps a state keeps.
//!
//! An information state is everything a player knows: two histories give the same text exactly when the player
//! cannot tell them apart (OpenSpiel's `information_state_string`, with perfect recall).
//! - **Every player sees everything** (no hidden information; dice and simultaneous moves are seen once played): the
//!   actions so far, `"4, 0, 1"` as OpenSpiel's `HistoryString` (the same text as OpenSpiel's for the games numbered
//!   as OpenSpiel numbers them), after the start position's text when the state was not made at the start.
//! - **Hidden information**: what the player saw at each of its turns and the action it took then, and what it sees
//!   now. The opponent's moves and chance appear only as far as they changed what the player saw; how many times the
//!   opponent moved appears only where the game shows it.

use std::fmt::Write;

use plateau::game::{FullGame, Side, Turn};

use crate::dynamic::StateOf;

impl<G: FullGame> StateOf<G> {
    /// The information state of `player` (see the module's documentation).
    pub fn information_state(&self, player: Side) -> String {
        let start = self.past.first().map_or(&self.state, |step| &step.before);
        let mut out = String::new();
        if !G::KIND.hidden {
            if *start != self.game.start() {
                let _ = write!(out, "{} | ", self.game.format_position(start));
            }
            let ids: Vec<String> = self.history.iter().map(i64::to_string).collect();
            out += &ids.join(", ");
            return out;
        }
        let mut next = 0usize; // index of the step's first action in the history
        for step in &self.past {
            let own = match self.game.turn(&step.before) {
                Turn::Player(p) if p == player => Some(next),
                Turn::Simultaneous => Some(next + player.index()),
                _ => None,
            };
            if let Some(i) = own {
                out += &self.game.observation(&step.before, player);
                let _ = writeln!(out, "\n[played {}]", self.history[i]);
            }
            next += step.actions as usize;
        }
        out += &self.game.observation(&self.state, player);
        out
    }

    /// Take back the last step, which must be `action` by `player` (-1 for a chance outcome).
    pub fn undo_last(&mut self, player: i32, action: i64) -> Result<(), String> {
        let Some(step) = self.past.last().copied() else {
            return Err("undo_action: no action was applied to this state".into());
        };
        let mover = match self.game.turn(&step.before) {
            Turn::Chance => -1,
            Turn::Player(p) => p.index() as i32,
            Turn::Simultaneous => {
                return Err("undo_action: the last step was a joint move of both players; clone the state before \
                            apply_actions to go back"
                    .into());
            }
        };
        let last = self.history[self.history.len() - 1];
        if (mover, last) != (player, action) {
            return Err(format!("undo_action({player}, {action}): the last action was {last} by player {mover}"));
        }
        self.state = step.before;
        self.history.pop();
        self.past.pop();
        Ok(())
    }
}
