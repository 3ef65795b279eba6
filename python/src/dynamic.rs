//! The games behind one object-safe interface: [`DynGame`] and [`DynState`] are what the Python classes hold, and
//! [`GameOf`] / [`StateOf`] implement them once, generically, for every registered game (the registry's
//! [`AnyGame::visit`] picks the concrete type when a game string is loaded).
//!
//! Actions are OpenSpiel's integers: [`Interop::action_id`] where the game numbers its moves (Breakthrough, tic-tac-toe,
//! Connect Four, Othello, Oware: OpenSpiel's numbering), otherwise the move's index in the node's move list
//! (`generate_moves` at a player's turn or a chance node, `player_moves` at a simultaneous node).

use std::any::Any;
use std::sync::Arc;

use plateau::game::{ChanceList, FullGame, Kind, MoveList, Side, Turn, playout};
use plateau::games::{AnyGame, GameVisitor};
use plateau::players::{self, Context, Player};
use plateau::search::SearchResult;
use rand::SeedableRng;

use rand::rngs::SmallRng;

/// OpenSpiel's player ids for the nodes where no single player acts.
pub const CHANCE: i32 = -1;
pub const SIMULTANEOUS: i32 = -2;
pub const TERMINAL: i32 = -4;

/// A loaded game, whatever its type.
pub trait DynGame: Send + Sync {
    fn spec(&self) -> String;
    fn kind(&self) -> Kind;
    /// The size of the action space: the game's numbering, or the most moves a position may have.
    fn num_distinct_actions(&self) -> u32;
    /// Whether actions are the game's stable numbering (false: indices into the legal-move list).
    fn stable_actions(&self) -> bool;
    fn observation_shape(&self) -> Vec<usize>;
    /// OpenSpiel's `max_utility` ([`Interop::max_utility`]); `min_utility` is its opposite.
    fn max_utility(&self) -> f64;
    /// OpenSpiel's `max_game_length` where the rules bound it ([`Interop::max_game_length`]).
    fn max_game_length(&self) -> Option<u32>;
    fn new_initial_state(&self) -> Box<dyn DynState>;
    fn state_from_position(&self, text: &str) -> Result<Box<dyn DynState>, String>;
}

/// A state of a loaded game, with the game it belongs to.
pub trait DynState: Send + Sync {
    fn clone_box(&self) -> Box<dyn DynState>;
    fn game(&self) -> Box<dyn DynGame>;
    fn current_player(&self) -> i32;
    fn is_terminal(&self) -> bool;
    /// The legal actions, ascending, in a list on the stack (no allocation: the Python list is built from it).
    fn legal_actions(&self, player: Option<usize>) -> Result<MoveList<i64>, String>;
    fn chance_outcomes(&self) -> Vec<(i64, f64)>;
    fn apply_action(&mut self, action: i64) -> Result<(), String>;
    fn apply_actions(&mut self, first: i64, second: i64) -> Result<(), String>;
    fn apply_move_text(&mut self, text: &str) -> Result<(), String>;
    fn action_to_string(&self, player: Option<usize>, action: i64) -> Result<String, String>;
    fn string_to_action(&self, player: Option<usize>, text: &str) -> Result<i64, String>;
    fn returns(&self) -> [f64; 2];
    fn observation_string(&self, player: usize) -> String;
    fn observation_tensor(&self, player: usize) -> Result<Vec<f32>, String>;
    /// Everything `player` knows here (`info_state.rs`): two histories give the same text exactly when `player`
    /// cannot tell them apart.
    fn information_state_string(&self, player: usize) -> Result<String, String>;
    /// Take back the last action, which must be `action` by `player` (-1 for chance), as OpenSpiel's `undo_action`.
    fn undo(&mut self, player: i32, action: i64) -> Result<(), String>;
    fn display(&self) -> String;
    fn position(&self) -> String;
    fn history(&self) -> Vec<i64>;
    /// `n` random playouts from this state: the returns of each, in `out` (`2 * n` numbers), and their plies.
    fn random_playouts(&self, n: usize, seed: u64, out: &mut [f64]) -> u64;
    /// One search with the player string `algo`: the document of `plateau search --json` plus `best_action`.
    fn search(&self, algo: &str) -> Result<serde_json::Value, String>;
    /// A move chosen by the bot in `slot` (built for this game from `spec` when the slot holds none or another
    /// game's), at a player's turn or, with `player`, for that player's half of a simultaneous move.
    fn bot_step(
        &self,
        slot: &mut Option<Box<dyn Any + Send>>,
        spec: &str,
        player: Option<usize>,
    ) -> Result<i64, String>;
    /// One search with the player string `algo` and the evaluation `eval` instead of the game's
    /// (`Searcher::give_evaluation`; an error for a player that evaluates no position).
    fn search_with(&self, algo: &str, eval: Arc<dyn Evaluate>) -> Result<serde_json::Value, String>;
}

/// An evaluation written outside the game (a Python function): the score of a state for its side to move.
pub trait Evaluate: Send + Sync {
    fn evaluate(&self, state: Box<dyn DynState>) -> i32;
}

/// Load a game string.
pub fn load(text: &str) -> Result<Box<dyn DynGame>, String> {
    let any = AnyGame::parse(text).map_err(|e| e.to_string())?;
    Ok(any.visit(Load))
}

struct Load;

impl GameVisitor for Load {
    type Out = Box<dyn DynGame>;
    fn visit<G: FullGame>(self, game: &G) -> Box<dyn DynGame> {
        Box::new(GameOf { game: Arc::new(game.clone()) })
    }
}

/// One game of type `G`.
pub struct GameOf<G: FullGame> {
    pub game: Arc<G>,
}

/// A state of a game of type `G`, with the actions played since it was made.
pub struct StateOf<G: FullGame> {
    pub game: Arc<G>,
    pub state: G::State,
    pub history: Vec<i64>,
    /// The state before each step (copy-make: states are small), for `undo_action` and the information states.
    pub past: Vec<Step<G::State>>,
}

/// One step of a state's history: the state before it and how many actions it took (2 for a joint move).
#[derive(Clone, Copy)]
pub struct Step<S> {
    pub before: S,
    pub actions: u8,
}

impl<G: FullGame> StateOf<G> {
    /// A state with no history.
    pub fn fresh(game: Arc<G>, state: G::State) -> Self {
        StateOf { game, state, history: Vec::new(), past: Vec::new() }
    }
}

impl<G: FullGame> DynGame for GameOf<G> {
    fn spec(&self) -> String {
        self.game.spec()
    }
    fn kind(&self) -> Kind {
        G::KIND
    }
    fn num_distinct_actions(&self) -> u32 {
        self.game.num_distinct_actions().unwrap_or(plateau::game::MAX_MOVES as u32)
    }
    fn stable_actions(&self) -> bool {
        self.game.num_distinct_actions().is_some()
    }
    fn observation_shape(&self) -> Vec<usize> {
        self.game.observation_shape()
    }
    fn max_utility(&self) -> f64 {
        self.game.max_utility()
    }
    fn max_game_length(&self) -> Option<u32> {
        self.game.max_game_length()
    }
    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(StateOf::fresh(self.game.clone(), self.game.start()))
    }
    fn state_from_position(&self, text: &str) -> Result<Box<dyn DynState>, String> {
        let state = match text.trim() {
            "" | "start" | "startpos" => self.game.start(),
            t => self.game.parse_position(t).map_err(|e| e.to_string())?,
        };
        Ok(Box::new(StateOf::fresh(self.game.clone(), state)))
    }
}

/// The player of index `p` (0 or 1).
pub fn player(p: usize) -> Result<Side, String> {
    match p {
        0 => Ok(Side::First),
        1 => Ok(Side::Second),
        _ => Err(format!("player {p}: the players are 0 and 1")),
    }
}

/// The bot of one game type held in a Python bot's slot.
struct BotOf<G: FullGame> {
    spec: String,
    player: Box<dyn Player<G>>,
}

impl<G: FullGame> StateOf<G> {
    pub(crate) fn turn(&self) -> Option<Turn> {
        if self.game.is_terminal(&self.state) { None } else { Some(self.game.turn(&self.state)) }
    }

    /// The moves of the node for `player` (needed at a simultaneous node).
    fn node_moves(&self, player: Option<usize>) -> Result<MoveList<G::Move>, String> {
        let mut moves = MoveList::new();
        match self.turn() {
            None => {}
            Some(Turn::Simultaneous) => {
                let Some(p) = player else {
                    return Err(
                        "both players move at once here: give the player (legal_actions(0), legal_actions(1))".into()
                    );
                };
                self.game.player_moves(&self.state, self::player(p)?, &mut moves);
            }
            // A player asks for its moves while the other is to move: none.
            Some(Turn::Player(mover)) if player.is_some_and(|p| p != mover.index()) => {}
            Some(Turn::Player(_) | Turn::Chance) => self.game.generate_moves(&self.state, &mut moves),
        }
        Ok(moves)
    }

    fn id_of(&self, moves: &[G::Move], index: usize) -> i64 {
        match self.game.action_id(&self.state, moves[index]) {
            Some(id) => id as i64,
            None => index as i64,
        }
    }

    /// The move of `action` among `moves`, or the one-line refusal.
    fn find(&self, moves: &[G::Move], action: i64) -> Result<G::Move, String> {
        if self.game.is_terminal(&self.state) {
            return Err(format!("action {action}: the game is already over"));
        }
        (0..moves.len()).find(|&i| self.id_of(moves, i) == action).map(|i| moves[i]).ok_or_else(|| {
            let mut legal: Vec<i64> = (0..moves.len()).map(|i| self.id_of(moves, i)).collect();
            legal.sort_unstable();
            let legal: Vec<String> = legal.iter().map(i64::to_string).collect();
            format!("action {action} is not legal in this position (legal: {})", legal.join(" "))
        })
    }

    fn played(&mut self, m: G::Move, id: i64) {
        self.past.push(Step { before: self.state, actions: 1 });
        self.game.play(&mut self.state, m);
        self.history.push(id);
    }

    fn action_of(&self, moves: &[G::Move], m: G::Move) -> i64 {
        let i = moves.iter().position(|&x| x == m).unwrap_or(0);
        self.id_of(moves, i)
    }
}

impl<G: FullGame> DynState for StateOf<G> {
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(StateOf {
            game: self.game.clone(),
            state: self.state,
            history: self.history.clone(),
            past: self.past.clone(),
        })
    }
    fn game(&self) -> Box<dyn DynGame> {
        Box::new(GameOf { game: self.game.clone() })
    }
    fn current_player(&self) -> i32 {
        match self.turn() {
            None => TERMINAL,
            Some(Turn::Player(p)) => p.index() as i32,
            Some(Turn::Chance) => CHANCE,
            Some(Turn::Simultaneous) => SIMULTANEOUS,
        }
    }
    fn is_terminal(&self) -> bool {
        self.game.is_terminal(&self.state)
    }
    fn legal_actions(&self, player: Option<usize>) -> Result<MoveList<i64>, String> {
        if let Some(p) = player {
            self::player(p)?;
        }
        let moves = self.node_moves(player)?;
        let mut ids: MoveList<i64> = (0..moves.len()).map(|i| self.id_of(&moves, i)).collect();
        ids.sort_unstable();
        Ok(ids)
    }
    fn chance_outcomes(&self) -> Vec<(i64, f64)> {
        if self.turn() != Some(Turn::Chance) {
            return Vec::new();
        }
        let mut moves = MoveList::new();
        self.game.generate_moves(&self.state, &mut moves);
        let mut outcomes = ChanceList::new();
        self.game.chance_outcomes(&self.state, &mut outcomes);
        let mut list: Vec<(i64, f64)> = outcomes.iter().map(|&(m, p)| (self.action_of(&moves, m), p)).collect();
        list.sort_by_key(|&(a, _)| a);
        list
    }
    fn apply_action(&mut self, action: i64) -> Result<(), String> {
        if self.turn() == Some(Turn::Simultaneous) {
            return Err("both players move at once here: use apply_actions([first, second])".into());
        }
        let moves = self.node_moves(None)?;
        let m = self.find(&moves, action)?;
        self.played(m, action);
        Ok(())
    }
    fn apply_actions(&mut self, first: i64, second: i64) -> Result<(), String> {
        if self.turn() != Some(Turn::Simultaneous) {
            if self.is_terminal() {
                return Err("the game is already over".into());
            }
            return Err("apply_actions is for simultaneous moves: here one player moves (apply_action)".into());
        }
        let a = self.find(&self.node_moves(Some(0))?, first)?;
        let b = self.find(&self.node_moves(Some(1))?, second)?;
        self.past.push(Step { before: self.state, actions: 2 });
        self.game.play_joint(&mut self.state, a, b);
        self.history.extend([first, second]);
        Ok(())
    }
    fn apply_move_text(&mut self, text: &str) -> Result<(), String> {
        let before = self.state;
        let after = self.game.play_moves(&self.state, text).map_err(|e| e.to_string())?;
        // Replay word by word for the history of actions.
        let mut s = StateOf {
            game: self.game.clone(),
            state: before,
            history: std::mem::take(&mut self.history),
            past: std::mem::take(&mut self.past),
        };
        for word in self.game.split_moves(text) {
            if s.turn() == Some(Turn::Simultaneous) {
                let (a, b) = self.game.parse_joint(&s.state, &word).map_err(|e| e.to_string())?;
                let (ia, ib) = (s.action_of(&s.node_moves(Some(0))?, a), s.action_of(&s.node_moves(Some(1))?, b));
                s.past.push(Step { before: s.state, actions: 2 });
                self.game.play_joint(&mut s.state, a, b);
                s.history.extend([ia, ib]);
            } else {
                let m = self.game.parse_move(&s.state, &word).map_err(|e| e.to_string())?;
                let id = s.action_of(&s.node_moves(None)?, m);
                s.played(m, id);
            }
        }
        debug_assert!(s.state == after);
        self.state = after;
        self.history = s.history;
        self.past = s.past;
        Ok(())
    }
    fn action_to_string(&self, player: Option<usize>, action: i64) -> Result<String, String> {
        let player = if self.turn() == Some(Turn::Simultaneous) { player } else { None };
        let moves = self.node_moves(player)?;
        let m = self.find(&moves, action)?;
        Ok(self.game.format_move(&self.state, m))
    }
    fn string_to_action(&self, player: Option<usize>, text: &str) -> Result<i64, String> {
        if self.is_terminal() {
            return Err(format!("'{text}': the game is already over"));
        }
        let player = if self.turn() == Some(Turn::Simultaneous) { player } else { None };
        let moves = self.node_moves(player)?;
        let m = if player.is_some() {
            moves.iter().copied().find(|&m| self.game.format_move(&self.state, m) == text.trim()).ok_or_else(|| {
                let legal: Vec<String> = moves.iter().map(|&m| self.game.format_move(&self.state, m)).collect();
                format!("'{}' is not a legal move (legal: {})", text.trim(), legal.join(" "))
            })?
        } else {
            self.game.parse_move(&self.state, text).map_err(|e| e.to_string())?
        };
        Ok(self.action_of(&moves, m))
    }
    fn returns(&self) -> [f64; 2] {
        match (self.game.outcome_for(&self.state, Side::First), self.game.outcome_for(&self.state, Side::Second)) {
            (Some(a), Some(b)) => [self.game.returns_value(a), self.game.returns_value(b)],
            _ => [0.0, 0.0],
        }
    }
    fn observation_string(&self, player: usize) -> String {
        let p = if player == 1 { Side::Second } else { Side::First };
        self.game.observation(&self.state, p)
    }
    fn observation_tensor(&self, player: usize) -> Result<Vec<f32>, String> {
        let p = self::player(player)?;
        let shape = self.game.observation_shape();
        if shape.is_empty() {
            return Err(format!("{}: this game has no observation tensor", self.game.spec()));
        }
        let mut out = vec![0.0f32; shape.iter().product()];
        self.game.observation_tensor(&self.state, p, &mut out);
        Ok(out)
    }
    fn information_state_string(&self, player: usize) -> Result<String, String> {
        Ok(self.information_state(self::player(player)?))
    }
    fn undo(&mut self, player: i32, action: i64) -> Result<(), String> {
        self.undo_last(player, action)
    }
    fn display(&self) -> String {
        self.game.display(&self.state)
    }
    fn position(&self) -> String {
        self.game.format_position(&self.state)
    }
    fn history(&self) -> Vec<i64> {
        self.history.clone()
    }
    fn random_playouts(&self, n: usize, seed: u64, out: &mut [f64]) -> u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut plies = 0u64;
        for pair in out.chunks_exact_mut(2).take(n) {
            let (o, p) = playout::random_playout_for(&*self.game, &self.state, Side::First, &mut rng);
            let v = self.game.returns_value(o);
            pair[0] = v;
            pair[1] = -v;
            plies += p as u64;
        }
        plies
    }
    fn search(&self, algo: &str) -> Result<serde_json::Value, String> {
        if self.is_terminal() {
            return Err("the game is over in this position: there is nothing to search".into());
        }
        // Built by the library's own compiled code (players::registered): not the whole catalogue again in this crate.
        let mut searcher = players::registered::searcher_for(&*self.game, algo).map_err(|e| e.to_string())?;
        let r = searcher.search(&self.game, &self.state);
        Ok(self.document(&searcher.name(), &r))
    }
    fn bot_step(
        &self,
        slot: &mut Option<Box<dyn Any + Send>>,
        spec: &str,
        player: Option<usize>,
    ) -> Result<i64, String> {
        let p = match self.turn() {
            None => return Err("the game is over in this position: there is nothing to search".into()),
            Some(Turn::Chance) => return Err("a chance node: draw the outcome (chance_outcomes())".into()),
            Some(Turn::Simultaneous) => {
                let Some(p) = player else {
                    return Err("both players move at once here: give the player (step(state, player))".into());
                };
                self::player(p)?
            }
            Some(Turn::Player(p)) => p,
        };
        let fresh = match slot.as_mut().and_then(|b| b.downcast_mut::<BotOf<G>>()) {
            Some(bot) => bot.spec != self.game.spec(),
            None => true,
        };
        if fresh {
            let mut player = players::registered::build_for(&*self.game, spec).map_err(|e| e.to_string())?;
            // Tables and evaluations are built with the bot, not in its first move.
            player.setup(&self.game)?;
            player.new_game(&self.game)?;
            *slot = Some(Box::new(BotOf { spec: self.game.spec(), player }));
        }
        let bot = slot.as_mut().and_then(|b| b.downcast_mut::<BotOf<G>>()).ok_or("the bot could not be built")?;
        let choice = bot.player.choose(&self.game, Context::at(&*self.game, &self.state, p))?;
        let moves = self.node_moves(Some(p.index()))?;
        let m = Some(choice.mv).filter(|m| moves.contains(m)).ok_or("the bot found no legal move")?;
        Ok(self.action_of(&moves, m))
    }
    fn search_with(&self, algo: &str, eval: Arc<dyn Evaluate>) -> Result<serde_json::Value, String> {
        if self.is_terminal() {
            return Err("the game is over in this position: there is nothing to search".into());
        }
        let arc = self.game.clone();
        let mut searcher = players::registered::searcher_for(&*self.game, algo).map_err(|e| e.to_string())?;
        searcher
            .give_evaluation(Arc::new(move |s: &G::State| eval.evaluate(Box::new(StateOf::fresh(arc.clone(), *s)))))
            .map_err(|e| e.to_string())?;
        let r = searcher.search(&self.game, &self.state);
        Ok(self.document(&searcher.name(), &r))
    }
}

impl<G: FullGame> StateOf<G> {
    /// The search document with the best move's action.
    pub fn document(&self, algo: &str, r: &SearchResult<G::Move>) -> serde_json::Value {
        let report = plateau::search::summary::SearchReport::new(&*self.game, &self.state, algo, r);
        let mut doc = serde_json::to_value(report).unwrap_or_default();
        let moves = self.node_moves(None).unwrap_or_default();
        doc["best_action"] = match r.best_move {
            Some(m) if moves.contains(&m) => serde_json::json!(self.action_of(&moves, m)),
            _ => serde_json::Value::Null,
        };
        doc
    }
}
