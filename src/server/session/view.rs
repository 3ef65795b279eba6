//! What leaves a session: the viewer's view of the game (hidden information cut to what the viewing side observes
//! while the game goes on) and the game's record.

use super::Session;
use crate::arena::record::GameRecord;
use crate::game::{FullGame, Outcome, Side, Turn};
use crate::server::clock::Clock;

impl<G: FullGame> Session<G> {
    /// The side whose view the page shows: the human's (the first player's when both or neither are human).
    pub(super) fn viewer(&self) -> Side {
        if self.is_human(Side::Second) && !self.is_human(Side::First) { Side::Second } else { Side::First }
    }

    /// Whether what leaves the session must be cut to the viewer's observation: hidden information, game not over.
    pub(super) fn secret(&self) -> bool {
        G::KIND.hidden && !self.game.is_terminal(&self.current())
    }

    /// The steps the viewer may see, as indices into `moves`, each with whether its text is shown: all of them
    /// unless [`Session::secret`]; then its own moves (shown) and the other side's steps that changed its
    /// observation (listed, text hidden).
    pub(super) fn visible_steps(&self) -> Vec<(usize, bool)> {
        if !self.secret() {
            return (0..self.moves.len()).map(|i| (i, true)).collect();
        }
        let viewer = self.viewer();
        let mut seen = self.game.observation(&self.states[0], viewer);
        let mut out = Vec::new();
        for i in 0..self.moves.len() {
            let after = self.game.observation(&self.states[i + 1], viewer);
            if self.game.turn(&self.states[i]) == Turn::Player(viewer) {
                out.push((i, true));
            } else if after != seen {
                out.push((i, false));
            }
            seen = after;
        }
        out
    }

    /// The moves as the viewer may see them (a hidden step is `?`), with their chance flags and times.
    pub(super) fn shown_moves(&self) -> (Vec<String>, Vec<bool>, Vec<u64>) {
        let steps = self.visible_steps();
        let text = steps.iter().map(|&(i, shown)| if shown { self.moves[i].clone() } else { "?".into() }).collect();
        (
            text,
            steps.iter().map(|&(i, _)| self.chance[i]).collect(),
            steps.iter().map(|&(i, _)| self.move_ms[i]).collect(),
        )
    }

    /// The game's record: the viewer's view of it while a game with hidden information goes on, the whole game
    /// once it is over; a game still going on has the result `*`.
    pub(super) fn record_text(&self) -> String {
        let s = self.current();
        let flag = self.flag();
        let over = self.game.is_terminal(&s) || flag.is_some();
        let winner = match self.game.outcome_for(&s, Side::First) {
            _ if flag.is_some() => flag.map(Side::other),
            Some(Outcome::Win) => Some(Side::First),
            Some(Outcome::Loss) => Some(Side::Second),
            Some(Outcome::Value(v)) if v != 0 => Some(if v > 0 { Side::First } else { Side::Second }),
            _ => None,
        };
        // While a game with hidden information goes on, the record is the viewer's view of it.
        let (moves, _, timed) = self.shown_moves();
        let rec = GameRecord {
            round: 1,
            game: self.game.spec(),
            first: self.names[0].clone(),
            second: self.names[1].clone(),
            a_first: true,
            time_control: self.clock.as_ref().map_or("plateau serve".into(), Clock::describe),
            opening: String::new(),
            fen: self.start_text.clone(),
            moves,
            winner,
            termination: if flag.is_some() {
                "time forfeit".into()
            } else if over {
                "normal".into()
            } else {
                "unterminated".into()
            },
            max_move_ms: [0, 0],
            total_move_ms: [0, 0],
            moves_timed: [0, 0],
            move_ms: timed,
            // The referee's whole state: only once the game is over.
            final_position: (G::KIND.hidden && over).then(|| self.game.format_position(&s)),
        };
        let text = rec.to_pgn();
        if over {
            return text;
        }
        // A game still going on has the result `*`.
        let text = text.replacen("[Result \"1/2-1/2\"]", "[Result \"*\"]", 1);
        match text.rfind("1/2-1/2") {
            Some(i) => format!("{}*{}", &text[..i], &text[i + "1/2-1/2".len()..]),
            None => text,
        }
    }
}
