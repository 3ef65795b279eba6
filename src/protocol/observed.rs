//! `plateau ugi` on games with simultaneous moves or hidden information: the engine's side of the referee lines
//! (`docs/protocols.md`; the arena's side is `arena/observed.rs`), and the words both sides share.
//!
//! ```text
//! side p1|p2            the engine plays that side (hidden information: the game starts from the last `position`,
//!                       a public start, and the player's belief starts there)
//! observation L1|L2|..  hidden information: the engine's new observation (its lines joined by '|')
//! legal M M ...         hidden information: the moves legal on the board the engine sees (it also works them out
//!                       from its belief; the list is its fallback)
//! position ... moves    simultaneous moves: the public game, joint moves FIRST/SECOND
//! go ...                bestmove: the engine's half (simultaneous) or its move (hidden), searched on this thread:
//!                       `stop` is read after the answer, and `go infinite` is refused
//! ```

use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::GoParams;
use super::session::{Out, SessionEngine, Settings, build_player, replay};
use crate::game::{FullGame, Kind, MoveList, Side};
use crate::hidden::belief::Belief;
use crate::players::{Context, Player};

/// Whether UGI carries games of this kind with the referee lines: simultaneous moves or hidden information (not
/// both, no chance).
pub fn carries(kind: Kind) -> bool {
    !kind.chance && kind.simultaneous != kind.hidden
}

/// `p1` or `p2`.
pub(crate) fn side_word(p: Side) -> &'static str {
    if p == Side::First { "p1" } else { "p2" }
}

/// An observation as one protocol line: its lines joined by `|` (a text containing `|` cannot be sent).
pub(crate) fn encode_observation(text: &str) -> Result<String, String> {
    if text.contains('|') {
        return Err("the observation contains '|', which the protocol uses between its lines".into());
    }
    Ok(text.replace("\r\n", "\n").split('\n').collect::<Vec<_>>().join("|"))
}

/// The lines of an `observation` line again.
pub(crate) fn decode_observation(line: &str) -> String {
    line.split('|').collect::<Vec<_>>().join("\n")
}

/// The engine state of a game with simultaneous moves or hidden information.
pub(crate) struct ObservedEngine<G: FullGame> {
    game: G,
    /// Simultaneous moves: the position; hidden information: the public start.
    state: G::State,
    side: Option<Side>,
    player: Option<Box<dyn Player<G>>>,
    /// Hidden information: one state consistent with the observations, to read and write the engine's moves.
    shadow: Option<Belief<G>>,
    legal_text: Vec<String>,
    rng: SmallRng,
}

impl<G: FullGame> ObservedEngine<G> {
    pub fn new(game: G, settings: &Settings) -> Result<Self, String> {
        let mut player = build_player::<G>(settings)?;
        player.setup(&game)?;
        let state = game.start();
        Ok(ObservedEngine {
            game,
            state,
            side: None,
            player: Some(player),
            shadow: None,
            legal_text: Vec::new(),
            rng: SmallRng::seed_from_u64(0x0b5e),
        })
    }

    fn side(&self) -> Result<Side, String> {
        self.side.ok_or_else(|| "go: send 'side p1' or 'side p2' first".to_string())
    }

    fn hidden_move(&mut self, params: &GoParams, player: &mut Box<dyn Player<G>>) -> Result<String, String> {
        let side = self.side()?;
        let state = self.shadow.as_mut().and_then(|b| b.states().first().copied());
        let Some(state) = state else {
            // The belief found no consistent state: a random move of the referee's list.
            return match self.legal_text.len() {
                0 => Err("go: no legal move known (send 'legal ...')".into()),
                n => Ok(self.legal_text[rand::RngExt::random_range(&mut self.rng, 0..n)].clone()),
            };
        };
        let mut legal = MoveList::new();
        self.game.generate_moves(&state, &mut legal);
        let text: Vec<String> = legal.iter().map(|&m| self.game.format_move(&state, m)).collect();
        let cx = Context { limits: Some(params.limits(side)), ..Context::observed(&legal, &text, side) };
        let m = player.choose(&self.game, cx).map_err(|e| format!("go: {e}"))?.mv;
        if let Some(b) = self.shadow.as_mut() {
            b.played(&self.game, m);
        }
        Ok(self.game.format_move(&state, m))
    }
}

impl<G: FullGame> SessionEngine for ObservedEngine<G> {
    fn game_spec(&self) -> String {
        self.game.spec()
    }

    fn new_game(&mut self) {
        if let Some(p) = self.player.as_mut() {
            let _ = p.new_game(&self.game);
        }
        self.state = self.game.start();
        self.side = None;
        self.shadow = None;
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
        if G::KIND.hidden && !moves.is_empty() {
            return Err("position: with hidden information the engine gets its observations, not the moves".into());
        }
        let game = &self.game;
        let (s, result) = replay(game, fen, moves, |s, m| {
            let (a, b) = game.parse_joint(s, m)?;
            game.play_joint(s, a, b);
            Ok(())
        })?;
        if G::KIND.hidden {
            self.side = None;
            self.shadow = None;
        }
        self.state = s;
        result
    }

    fn query(&self, what: &str) -> Result<String, String> {
        match what {
            "gameover" if !G::KIND.hidden => Ok(self.game.is_terminal(&self.state).to_string()),
            "fen" | "position" if !G::KIND.hidden => Ok(self.game.format_position(&self.state)),
            _ => Err(format!("query {what}: not available in a game with {}", G::KIND.describe())),
        }
    }

    fn go(&mut self, params: &GoParams, out: &Out) -> Result<(), String> {
        if params.unlimited() {
            return Err("go: give a limit (movetime, p1time/p2time, depth or nodes): this game's search runs on the \
command loop and cannot be stopped"
                .into());
        }
        let mut player = self.player.take().ok_or("go: no player (set the Player option)")?;
        let r = if G::KIND.hidden {
            self.hidden_move(params, &mut player)
        } else {
            let side = self.side();
            side.and_then(|side| {
                if self.game.is_terminal(&self.state) {
                    return Err("go: the game is over in this position".into());
                }
                let cx = Context { limits: Some(params.limits(side)), ..Context::half(&self.state, side) };
                let m = player.choose(&self.game, cx).map_err(|e| format!("go: {e}"))?.mv;
                Ok(self.game.format_move(&self.state, m))
            })
        };
        self.player = Some(player);
        out.line(&format!("bestmove {}", r?));
        Ok(())
    }

    fn thinking(&self) -> bool {
        false
    }

    fn has_worker(&self) -> bool {
        false
    }

    fn stop(&self) {}

    fn join(&mut self) {}

    fn rebuild(&mut self, settings: &Settings) -> Result<(), String> {
        let mut player = build_player::<G>(settings)?;
        player.setup(&self.game)?;
        self.player = Some(player);
        Ok(())
    }

    fn referee_line(&mut self, cmd: &str, line: &str) -> Option<Result<(), String>> {
        let rest = line.trim_start().strip_prefix(cmd).unwrap_or("");
        let rest = rest.strip_prefix(' ').unwrap_or(rest).trim_end_matches(['\n', '\r']);
        Some(match cmd {
            "side" => match rest.trim() {
                "p1" => self.set_side(Side::First),
                "p2" => self.set_side(Side::Second),
                other => Err(format!("side: expected p1 or p2, got '{other}'")),
            },
            "observation" if G::KIND.hidden => match (self.side, self.player.as_mut()) {
                (Some(_), Some(p)) => {
                    let seen = decode_observation(rest);
                    if let Err(e) = p.observe(&self.game, &seen) {
                        return Some(Err(e));
                    }
                    if let Some(b) = self.shadow.as_mut() {
                        b.observe(&self.game, &seen);
                    }
                    Ok(())
                }
                _ => Err("observation: send 'side p1' or 'side p2' first".into()),
            },
            "legal" if G::KIND.hidden => {
                self.legal_text = rest.split_whitespace().map(str::to_string).collect();
                Ok(())
            }
            _ => return None,
        })
    }
}

impl<G: FullGame> ObservedEngine<G> {
    fn set_side(&mut self, p: Side) -> Result<(), String> {
        self.side = Some(p);
        if G::KIND.hidden {
            if let Some(player) = self.player.as_mut() {
                player.new_game(&self.game)?;
                player.observe_start(&self.game, &self.state, p)?;
            }
            self.shadow = Some(Belief::new(&self.game, &self.state, p, 1, 0x5eed));
        }
        Ok(())
    }
}
