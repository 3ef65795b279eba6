//! `plateau._plateau`: the compiled half of the Python package `plateau` (the Python half, `plateau/__init__.py`,
//! adds `solve`, `match` and the OpenSpiel adapters on top).
//!
//! ```text
//! load_game("breakthrough(rows=6,columns=5)") -> Game      (the registry's AnyGame, as a DynGame)
//! Game.new_initial_state() -> State                         (a DynState: the game and its Copy state)
//! State.legal_actions() / apply_action(a) / returns() ...   OpenSpiel's names, actions as OpenSpiel's integers
//! search(state, "alphabeta(depth=6)", evaluate=None)        plateau search --json's document (a JSON string)
//! Bot("engine(time=100ms)").step(state) -> action           any player string as a bot
//! solve_json(game, request_json)                          plateau solve --json's document (solve::registry)
//! match_json(spec_json, verbose)                           plateau match --json's document (arena::spec)
//! run_json(["perft", GAME, "--json"])                      any command's JSON documents (`plateau.run`)
//! Tournament(["breakthrough", "--player", ...])             a tournament's jobs, one task at a time (tournament.rs)
//! Match(["breakthrough", "--player", ...])                  a match's jobs, one game pair at a time (match_jobs.rs)
//! SplitSolve(game, request_json)                           a split solve's jobs (Breakthrough, Qubic), one at a time
//! CheckSplit(game, request_json)                           the split proof check's jobs, one position at a time
//! DataGen(settings_json)                                   self-play data (tune --save-data) in chunks of games
//! Spsa(["breakthrough", "--engine", ...])                  an SPSA run's jobs, one iteration's game pairs at a time
//! ```
//!
//! Errors are `ValueError` with the command line's one-line message. No panic crosses into Python: every call runs
//! under `catch_unwind`, and a panic becomes a `RuntimeError` naming it.

mod check_split;
mod commands;
mod datagen;
mod dynamic;
mod game_type;
mod info_state;
mod jobs;
mod match_jobs;
mod split_solve;
mod spsa_jobs;
mod tournament;

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyInt, PyList};

use dynamic::{DynGame, DynState, Evaluate};
use jobs::{json, released};

/// Run `f`, turning its error into `ValueError` and a panic into `RuntimeError`.
fn guard<T>(f: impl FnOnce() -> Result<T, String>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(PyValueError::new_err(plateau::game::one_line(&e))),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Err(PyRuntimeError::new_err(format!("plateau internal error (please report it): {msg}")))
        }
    }
}

/// A game: the rules object of a game string.
#[pyclass(module = "plateau", name = "Game", frozen)]
struct PyGame {
    inner: Box<dyn DynGame>,
}

/// A position of a game, with the actions played since it was made.
#[pyclass(module = "plateau", name = "State")]
struct PyState {
    inner: Box<dyn DynState>,
}

/// A player string as a bot: `step(state)` returns its action.
#[pyclass(module = "plateau", name = "Bot")]
struct PyBot {
    spec: String,
    slot: Mutex<Option<Box<dyn Any + Send>>>,
}

/// Load a game string (`breakthrough(rows=6,columns=5)`).
#[pyfunction]
fn load_game(text: &str) -> PyResult<PyGame> {
    guard(|| dynamic::load(text)).map(|inner| PyGame { inner })
}

#[pymethods]
impl PyGame {
    /// The start position.
    fn new_initial_state(&self) -> PyResult<PyState> {
        guard(|| Ok(self.inner.new_initial_state())).map(|inner| PyState { inner })
    }
    /// A position given in the game's position text (as `plateau --position` takes it).
    fn new_state(&self, position: &str) -> PyResult<PyState> {
        guard(|| self.inner.state_from_position(position)).map(|inner| PyState { inner })
    }
    fn num_distinct_actions(&self) -> u32 {
        self.inner.num_distinct_actions()
    }
    /// Whether actions are the game's own stable numbering (else indices into each position's legal-move list).
    fn has_stable_actions(&self) -> bool {
        self.inner.stable_actions()
    }
    fn num_players(&self) -> u32 {
        2
    }
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.inner.observation_shape()
    }
    fn observation_tensor_size(&self) -> usize {
        let shape = self.inner.observation_shape();
        if shape.is_empty() { 0 } else { shape.iter().product() }
    }
    /// What OpenSpiel's `get_type()` says: dynamics, chance mode, information, what the game provides.
    fn get_type(&self) -> game_type::PyGameType {
        let k = self.inner.kind();
        game_type::PyGameType::new(&self.inner.spec(), k, !self.inner.observation_shape().is_empty())
    }
    /// The most a player can win (a win 1; backgammon with gammons 3; the synthetic trees their largest value).
    fn max_utility(&self) -> f64 {
        self.inner.max_utility()
    }
    /// The opposite of `max_utility()`: the games are zero-sum.
    fn min_utility(&self) -> f64 {
        -self.inner.max_utility()
    }
    fn utility_sum(&self) -> f64 {
        0.0
    }
    /// The most actions a game lasts where the rules bound it (tic-tac-toe 9, Connect Four 42), else `None`.
    fn max_game_length(&self) -> Option<u32> {
        self.inner.max_game_length()
    }
    /// The shape of `State.information_state_tensor()`: the observation's where every player sees everything, empty
    /// with hidden information (use `information_state_string`).
    fn information_state_tensor_shape(&self) -> Vec<usize> {
        if self.inner.kind().hidden { Vec::new() } else { self.inner.observation_shape() }
    }
    fn information_state_tensor_size(&self) -> usize {
        let shape = self.information_state_tensor_shape();
        if shape.is_empty() { 0 } else { shape.iter().product() }
    }
    /// The capabilities the game uses: `{"chance": bool, "simultaneous": bool, "hidden": bool}`.
    fn kind<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let k = self.inner.kind();
        let d = PyDict::new(py);
        d.set_item("chance", k.chance)?;
        d.set_item("simultaneous", k.simultaneous)?;
        d.set_item("hidden", k.hidden)?;
        Ok(d)
    }
    /// `n` uniformly random playouts from `state` (the start by default): their returns as an `(n, 2)` array.
    #[pyo3(signature = (n, seed=0, state=None))]
    fn random_playouts<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: u64,
        state: Option<PyRef<'py, PyState>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if n > 100_000_000 {
            return Err(PyValueError::new_err(format!("n={n}: at most 100000000 playouts per call")));
        }
        let from = match &state {
            Some(s) => {
                if s.inner.game().spec() != self.inner.spec() {
                    return Err(PyValueError::new_err("the state is not a state of this game"));
                }
                s.inner.clone_box()
            }
            None => self.inner.new_initial_state(),
        };
        let out = py.detach(|| {
            guard(|| {
                let mut out = vec![0.0f64; 2 * n];
                from.random_playouts(n, seed, &mut out);
                Ok(out)
            })
        })?;
        Ok(PyArray1::from_vec(py, out).reshape([n, 2])?.into_any())
    }
    fn __str__(&self) -> String {
        self.inner.spec()
    }
    fn __repr__(&self) -> String {
        format!("plateau.load_game('{}')", self.inner.spec())
    }
}

#[pymethods]
impl PyState {
    /// The player to move (0 or 1), or -1 at a chance node, -2 at a simultaneous node, -4 when the game is over.
    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }
    fn is_chance_node(&self) -> bool {
        self.inner.current_player() == dynamic::CHANCE
    }
    fn is_simultaneous_node(&self) -> bool {
        self.inner.current_player() == dynamic::SIMULTANEOUS
    }
    /// The legal actions, ascending (of `player` at a simultaneous node; empty for a player not to move).
    #[pyo3(signature = (player=None))]
    fn legal_actions<'py>(&self, py: Python<'py>, player: Option<usize>) -> PyResult<Bound<'py, PyList>> {
        let ids = guard(|| self.inner.legal_actions(player))?;
        int_list(py, &ids)
    }
    /// A chance node's outcomes as `(action, probability)` pairs.
    fn chance_outcomes(&self) -> PyResult<Vec<(i64, f64)>> {
        guard(|| Ok(self.inner.chance_outcomes()))
    }
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        guard(|| self.inner.apply_action(action))
    }
    /// A simultaneous node's joint action `[first player's, second player's]`.
    fn apply_actions(&mut self, actions: Vec<i64>) -> PyResult<()> {
        guard(|| match actions[..] {
            [a, b] => self.inner.apply_actions(a, b),
            _ => Err(format!("apply_actions takes two actions (first player's, second's), {} given", actions.len())),
        })
    }
    /// Play moves written in the game's notation, space-separated (`"a2a3 b7b6"`), as `plateau --moves` takes them.
    fn apply_moves(&mut self, text: &str) -> PyResult<()> {
        guard(|| self.inner.apply_move_text(text))
    }
    /// `action_to_string(action)` or, as in OpenSpiel, `action_to_string(player, action)`.
    #[pyo3(signature = (a, b=None))]
    fn action_to_string(&self, a: i64, b: Option<i64>) -> PyResult<String> {
        guard(|| match b {
            Some(action) => self.inner.action_to_string(Some(player_index(a)?), action),
            None => self.inner.action_to_string(None, a),
        })
    }
    /// `string_to_action(text)` or `string_to_action(player, text)`.
    #[pyo3(signature = (a, b=None))]
    fn string_to_action(&self, a: &Bound<'_, PyAny>, b: Option<String>) -> PyResult<i64> {
        match b {
            Some(text) => {
                let p: i64 = a.extract()?;
                guard(|| self.inner.string_to_action(Some(player_index(p)?), &text))
            }
            None => {
                let text: String = a.extract()?;
                guard(|| self.inner.string_to_action(None, &text))
            }
        }
    }
    /// The legal moves in the game's notation, in the order of `legal_actions()`.
    #[pyo3(signature = (player=None))]
    fn legal_moves(&self, player: Option<usize>) -> PyResult<Vec<String>> {
        guard(|| {
            let actions = self.inner.legal_actions(player)?;
            actions.iter().map(|&a| self.inner.action_to_string(player, a)).collect()
        })
    }
    /// The final results of both players as OpenSpiel's `returns()` (a win 1, a loss -1, a draw 0; backgammon with
    /// `gammons=true` 2 or 3 for a gammon or backgammon; the synthetic trees their leaf values); zeros before the end.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns().to_vec()
    }
    fn rewards(&self) -> Vec<f64> {
        self.inner.returns().to_vec()
    }
    /// What `player` sees (the whole position in games of perfect information); the player to move by default.
    #[pyo3(signature = (player=None))]
    fn observation_string(&self, player: Option<i64>) -> PyResult<String> {
        let p = self.default_player(player)?;
        Ok(self.inner.observation_string(p))
    }
    /// What `player` sees as a float32 array of the game's `observation_tensor_shape()`.
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        let p = self.default_player(player)?;
        let data = guard(|| self.inner.observation_tensor(p))?;
        let shape = self.inner.game().observation_shape();
        Ok(PyArray1::from_vec(py, data).reshape(shape)?.into_any())
    }
    /// Everything `player` knows (the player to move by default): the same text for two histories exactly when the
    /// player cannot tell them apart. Without hidden information, the actions so far (`"4, 0, 1"`, as OpenSpiel's);
    /// with it, what the player saw at each of its turns and the action it took.
    #[pyo3(signature = (player=None))]
    fn information_state_string(&self, player: Option<i64>) -> PyResult<String> {
        let p = self.default_player(player)?;
        guard(|| self.inner.information_state_string(p))
    }
    /// The information state as numbers where every player sees everything: the observation tensor (the position
    /// is all there is to know). ValueError with hidden information.
    #[pyo3(signature = (player=None))]
    fn information_state_tensor<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        let game = self.inner.game();
        if game.kind().hidden {
            return Err(PyValueError::new_err(format!(
                "{}: hidden information: no information state tensor (information_state_string has it)",
                game.spec()
            )));
        }
        self.observation_tensor(py, player)
    }
    /// 1 for each legal action, 0 for the others, over `num_distinct_actions()` (at a chance node, over its
    /// outcomes, numbered from 0).
    #[pyo3(signature = (player=None))]
    fn legal_actions_mask(&self, player: Option<usize>) -> PyResult<Vec<i32>> {
        let ids = guard(|| self.inner.legal_actions(player))?;
        let chance = self.inner.current_player() == dynamic::CHANCE;
        let size = if chance { ids.len() } else { self.inner.game().num_distinct_actions() as usize };
        let mut mask = vec![0i32; size];
        for &a in &ids {
            if let Some(m) = mask.get_mut(a as usize) {
                *m = 1;
            }
        }
        Ok(mask)
    }
    /// A new state: this one after `action` (this one is unchanged).
    fn child(&self, action: i64) -> PyResult<PyState> {
        let mut inner = self.inner.clone_box();
        guard(|| inner.apply_action(action))?;
        Ok(PyState { inner })
    }
    /// Take back the last action, which must be `action` by `player` (-1 for a chance outcome), as OpenSpiel's.
    fn undo_action(&mut self, player: i32, action: i64) -> PyResult<()> {
        guard(|| self.inner.undo(player, action))
    }
    fn get_type(&self) -> game_type::PyGameType {
        self.get_game().get_type()
    }
    /// The final result of `player` (0 before the end).
    fn player_return(&self, player: i64) -> PyResult<f64> {
        let p = guard(|| player_index(player))?;
        Ok(self.inner.returns()[p])
    }
    fn is_player_node(&self) -> bool {
        self.inner.current_player() >= 0
    }
    /// The actions so far as text, `"4, 0, 1"` (OpenSpiel's `history_str()`).
    fn history_str(&self) -> String {
        let ids: Vec<String> = self.inner.history().iter().map(i64::to_string).collect();
        ids.join(", ")
    }
    /// The position text (`plateau --position` reads it back).
    fn position(&self) -> String {
        self.inner.position()
    }
    /// The actions applied since the state was made.
    fn history(&self) -> Vec<i64> {
        self.inner.history()
    }
    fn move_number(&self) -> usize {
        self.inner.history().len()
    }
    fn get_game(&self) -> PyGame {
        PyGame { inner: self.inner.game() }
    }
    fn clone(&self) -> PyState {
        PyState { inner: self.inner.clone_box() }
    }
    fn __copy__(&self) -> PyState {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }
    fn __str__(&self) -> String {
        self.inner.display()
    }
    fn __repr__(&self) -> String {
        format!("<plateau.State {} '{}'>", self.inner.game().spec(), self.inner.position())
    }
}

/// Action integers below this are made once and shared (CPython itself shares only -5..=256).
const SHARED_INTS: i64 = 8192;

/// A Python list of action integers, built from shared integer objects (the cost of `legal_actions()` from Python is
/// mostly this list: no allocation per item).
fn int_list<'py>(py: Python<'py>, ids: &[i64]) -> PyResult<Bound<'py, PyList>> {
    static INTS: PyOnceLock<Vec<Py<PyInt>>> = PyOnceLock::new();
    let ints = INTS.get_or_init(py, || {
        (0..SHARED_INTS).map(|i| i.into_pyobject(py).unwrap_or_else(|e| match e {}).unbind()).collect()
    });
    PyList::new(
        py,
        ids.iter().map(|&a| match ints.get(a as usize) {
            Some(i) if a >= 0 => i.bind(py).clone().into_any(),
            _ => a.into_pyobject(py).unwrap_or_else(|e| match e {}).into_any(),
        }),
    )
}

impl PyState {
    fn default_player(&self, player: Option<i64>) -> PyResult<usize> {
        match player {
            Some(p) => guard(|| player_index(p)),
            None => Ok(self.inner.current_player().max(0) as usize),
        }
    }
}

fn player_index(p: i64) -> Result<usize, String> {
    match p {
        0 | 1 => Ok(p as usize),
        _ => Err(format!("player {p}: the players are 0 and 1")),
    }
}

#[pymethods]
impl PyBot {
    #[new]
    fn new(spec: String) -> PyBot {
        PyBot { spec, slot: Mutex::new(None) }
    }
    /// The bot's action in `state` (for `player`'s half at a simultaneous node).
    #[pyo3(signature = (state, player=None))]
    fn step(&self, py: Python<'_>, state: PyRef<'_, PyState>, player: Option<usize>) -> PyResult<i64> {
        let inner = &state.inner;
        let spec = &self.spec;
        let slot = &self.slot;
        py.detach(|| {
            guard(|| {
                let mut slot = slot.lock().map_err(|_| "the bot failed in an earlier call".to_string())?;
                inner.bot_step(&mut slot, spec, player)
            })
        })
    }
    /// Forget the previous game (transposition tables, search trees).
    fn restart(&self) {
        if let Ok(mut slot) = self.slot.lock() {
            *slot = None;
        }
    }
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }
    fn __repr__(&self) -> String {
        format!("plateau.bot('{}')", self.spec)
    }
}

/// A player string as a bot.
#[pyfunction]
fn bot(spec: String) -> PyBot {
    PyBot::new(spec)
}

/// An evaluation written in Python.
struct PyEvaluate {
    f: Py<PyAny>,
    error: Mutex<Option<PyErr>>,
}

/// Evaluations are clamped inside the heuristic range (wins and losses are far beyond it).
const EVAL_LIMIT: f64 = 400_000.0;

impl Evaluate for PyEvaluate {
    fn evaluate(&self, state: Box<dyn DynState>) -> i32 {
        Python::attach(|py| {
            if self.error.lock().map(|e| e.is_some()).unwrap_or(true) {
                return 0;
            }
            let r = Py::new(py, PyState { inner: state })
                .and_then(|s| self.f.call1(py, (s,)))
                .and_then(|v| v.extract::<f64>(py));
            match r {
                Ok(v) if v.is_finite() => v.round().clamp(-EVAL_LIMIT, EVAL_LIMIT) as i32,
                Ok(v) => {
                    self.store(PyValueError::new_err(format!("the evaluation returned {v}: give a finite number")));
                    0
                }
                Err(e) => {
                    self.store(e);
                    0
                }
            }
        })
    }
}

impl PyEvaluate {
    fn store(&self, e: PyErr) {
        if let Ok(mut slot) = self.error.lock()
            && slot.is_none()
        {
            *slot = Some(e);
        }
    }
}

/// One search: `plateau search --json`'s document as a JSON string, plus `best_action`.
#[pyfunction]
#[pyo3(signature = (state, algo="alphabeta(depth=4)", evaluate=None))]
fn search_json(py: Python<'_>, state: PyRef<'_, PyState>, algo: &str, evaluate: Option<Py<PyAny>>) -> PyResult<String> {
    let inner = &state.inner;
    let doc = match evaluate {
        None => released(py, || inner.search(algo))?,
        Some(f) => {
            let eval = Arc::new(PyEvaluate { f, error: Mutex::new(None) });
            // The interpreter is released during the search and taken back at each evaluation, so that searchers
            // with helper threads (`engine(threads=2)`, `mcts(threads=2)`) call the function too instead of waiting.
            let doc = released(py, || inner.search_with(algo, eval.clone()))?;
            if let Some(e) = eval.error.lock().ok().and_then(|mut e| e.take()) {
                return Err(e);
            }
            doc
        }
    };
    Ok(doc.to_string())
}

/// Run a `plateau` command (its words, without the program name) and return the JSON documents it hands over
/// (`plateau::run_command_words`: the command's dispatcher with its documents returned, nothing captured).
#[pyfunction]
fn run_json(py: Python<'_>, args: Vec<String>) -> PyResult<Vec<String>> {
    let docs = released(py, || plateau::run_command_words(&args))?;
    Ok(docs.iter().map(|d| d.to_string()).collect())
}

/// Seconds per native call of `legal_actions()` on `state`, over `n` calls made from Rust (the bench's reference).
#[pyfunction]
fn native_legal_actions_seconds(py: Python<'_>, state: PyRef<'_, PyState>, n: usize) -> PyResult<f64> {
    let inner = &state.inner;
    py.detach(|| {
        guard(|| {
            let start = std::time::Instant::now();
            let mut total = 0;
            for _ in 0..n.max(1) {
                total += std::hint::black_box(inner.legal_actions(None)?).len();
            }
            std::hint::black_box(total);
            Ok(start.elapsed().as_secs_f64() / n.max(1) as f64)
        })
    })
}

/// The registered games with their parameters (`plateau games --json`).
#[pyfunction]
fn games_json() -> PyResult<String> {
    guard(|| json(&plateau::games::catalogue()))
}

#[pymodule]
fn _plateau(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<PyBot>()?;
    m.add_class::<game_type::PyGameType>()?;
    m.add_class::<tournament::PyTournament>()?;
    m.add_class::<match_jobs::PyMatch>()?;
    m.add_class::<split_solve::PySplitSolve>()?;
    m.add_class::<check_split::PyCheckSplit>()?;
    m.add_class::<datagen::PyDataGen>()?;
    m.add_class::<spsa_jobs::PySpsa>()?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(bot, m)?)?;
    m.add_function(wrap_pyfunction!(search_json, m)?)?;
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(commands::match_json, m)?)?;
    m.add_function(wrap_pyfunction!(commands::solve_json, m)?)?;
    m.add_function(wrap_pyfunction!(games_json, m)?)?;
    m.add_function(wrap_pyfunction!(native_legal_actions_seconds, m)?)?;
    Ok(())
}
