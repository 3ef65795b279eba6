"""plateau and OpenSpiel together (needs `open_spiel`: `pip install open-spiel`).

- `PlateauGame("breakthrough(rows=6,columns=5)")`: a plateau game as an OpenSpiel Python game (a `pyspiel.Game`
  subclass), which OpenSpiel's Python algorithms take (`mcts.MCTSBot`, `evaluate_bots`, `random_agent`, ...).
- `PlateauBot(spiel_game, "engine(time=100ms)")`: a plateau player as a `pyspiel.Bot` playing OpenSpiel's own game
  where the rules match (breakthrough, connect_four, tic_tac_toe, othello, oware, pig): plateau numbers those games'
  actions as OpenSpiel does, so the bot replays the OpenSpiel state's history in plateau and answers an OpenSpiel
  action; on backgammon, actions are matched by the position they lead to (`same_result`).
- `plateau_game_string(spiel_game)`: the plateau game string of an OpenSpiel game with the same rules.

OpenSpiel's Breakthrough starts with Black (its player 0) at the top; plateau's with White at the bottom: the boards are
mirror images, the actions, players and returns are the same, only the move names differ (`a5a4` there, `a2a3` here).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np
import pyspiel

from . import Game, State, bot, load_game

__all__ = ["PlateauGame", "PlateauState", "PlateauBot", "plateau_game_string", "same_result"]

# OpenSpiel game name -> (plateau game name, {OpenSpiel parameter: plateau parameter}).
_SAME_RULES: Dict[str, Any] = {
    "breakthrough": ("breakthrough", {"rows": "rows", "columns": "columns"}),
    "connect_four": ("connect_four", {"rows": "rows", "columns": "columns", "x_in_row": None,
                                      "egocentric_obs_tensor": None}),
    "tic_tac_toe": ("tic_tac_toe", {}),
    "othello": ("othello", {}),
    "oware": ("oware", {"num_houses_per_player": "houses", "num_seeds_per_house": "seeds"}),
    "pig": ("pig", {"winscore": "target", "diceoutcomes": "die", "horizon": None}),
    "backgammon": ("backgammon", {"scoring_type": "scoring", "max_player_turns": None}),
}

# OpenSpiel parameters whose only value plateau plays.
_FIXED: Dict[str, Any] = {"x_in_row": 4, "players": 2, "piglet": False, "hyper_backgammon": False}

# OpenSpiel parameter values renamed in plateau.
_VALUES: Dict[str, Dict[Any, str]] = {"scoring_type": {"winloss_scoring": "single", "full_scoring": "gammons"}}

# Games whose OpenSpiel actions are not plateau's: they are matched by the position they lead to (see `same_result`).
_BY_RESULT = {"backgammon"}


def plateau_game_string(spiel_game: "pyspiel.Game") -> str:
    """The plateau game string with the rules of an OpenSpiel game (ValueError where plateau has no such game)."""
    name = spiel_game.get_type().short_name
    if name not in _SAME_RULES:
        raise ValueError(f"OpenSpiel's {name}: plateau has no game with the same rules and actions "
                         f"(known: {', '.join(sorted(_SAME_RULES))})")
    plateau_name, renames = _SAME_RULES[name]
    params = spiel_game.get_parameters()
    words = []
    for key, value in sorted(params.items()):
        if key in _FIXED:
            if value != _FIXED[key]:
                raise ValueError(f"OpenSpiel's {name}: {key}={value}: plateau plays only {key}={_FIXED[key]}")
            continue
        if key not in renames:
            raise ValueError(f"OpenSpiel's {name}: parameter {key} has no plateau equivalent")
        if renames[key] is None:  # changes the observations only
            continue
        if key in _VALUES:
            if value not in _VALUES[key]:
                raise ValueError(f"OpenSpiel's {name}: {key}={value}: plateau plays {', '.join(_VALUES[key])}")
            value = _VALUES[key][value]
        text = str(value).lower() if isinstance(value, bool) else str(value)
        words.append(f"{renames[key]}={text}")
    return f"{plateau_name}({','.join(words)})" if words else plateau_name


def _game_type(game: Game, text: str) -> "pyspiel.GameType":
    kind = game.kind()
    return pyspiel.GameType(
        short_name="plateau_" + text.split("(")[0],
        long_name=f"plateau {text}",
        dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if kind["simultaneous"]
                  else pyspiel.GameType.Dynamics.SEQUENTIAL),
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if kind["chance"]
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if kind["hidden"]
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=game.get_type().provides_information_state_tensor,
        provides_observation_string=True,
        provides_observation_tensor=game.observation_tensor_size() > 0,
        parameter_specification={},
    )


class PlateauGame(pyspiel.Game):
    """A plateau game as an OpenSpiel Python game.

    Returns are plateau's `returns()`; the utility bounds and the game length are the game's own (`max_utility()`,
    `max_game_length()`) unless given; a game whose rules do not bound its length declares `max_game_length` (1000
    by default). Information states are plateau's (`State.information_state_string`)."""

    def __init__(self, text: str = "tic_tac_toe", params: Optional[Dict[str, Any]] = None,
                 max_utility: Optional[float] = None, max_game_length: int = 1000):
        self.plateau_game = load_game(text)
        self.text = str(self.plateau_game)
        if max_utility is None:
            max_utility = self.plateau_game.max_utility()
        max_game_length = self.plateau_game.max_game_length() or max_game_length
        info = pyspiel.GameInfo(
            num_distinct_actions=self.plateau_game.num_distinct_actions(),
            max_chance_outcomes=(self.plateau_game.num_distinct_actions()
                                 if self.plateau_game.kind()["chance"] else 0),
            num_players=2,
            min_utility=-max_utility,
            max_utility=max_utility,
            utility_sum=0.0,
            max_game_length=max_game_length,
        )
        super().__init__(_game_type(self.plateau_game, self.text), info, params or {})

    def new_initial_state(self) -> "PlateauState":
        return PlateauState(self, self.plateau_game.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None) -> "PlateauObserver":
        # OpenSpiel asks for a perfect-recall observer to answer `information_state_string` / `_tensor`.
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PlateauObserver(self.plateau_game, perfect_recall)


class PlateauState(pyspiel.State):
    """An OpenSpiel state holding a plateau state (`.plateau_state`)."""

    def __init__(self, game: PlateauGame, state: State):
        super().__init__(game)
        self.plateau_state = state

    def current_player(self) -> int:
        return self.plateau_state.current_player()

    def _legal_actions(self, player: int) -> List[int]:
        return self.plateau_state.legal_actions(player)

    def chance_outcomes(self):
        return self.plateau_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.plateau_state.apply_action(action)

    def _apply_actions(self, actions: List[int]) -> None:
        self.plateau_state.apply_actions(list(actions))

    def _action_to_string(self, player: int, action: int) -> str:
        if self.plateau_state.is_simultaneous_node():
            return self.plateau_state.action_to_string(player, action)
        return self.plateau_state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.plateau_state.is_terminal()

    def returns(self) -> List[float]:
        return self.plateau_state.returns()

    def __str__(self) -> str:
        return str(self.plateau_state)

    def __deepcopy__(self, memo):
        return PlateauState(self.get_game(), self.plateau_state.clone())


class PlateauObserver:
    """OpenSpiel's observer interface over plateau's observations, or with `perfect_recall` its information states."""

    def __init__(self, game: Game, perfect_recall: bool = False):
        self.perfect_recall = perfect_recall
        shape = (game.information_state_tensor_shape() if perfect_recall else game.observation_tensor_shape()) or [0]
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"info_state" if perfect_recall else "observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: PlateauState, player: int) -> None:
        if self.tensor.size:
            s = state.plateau_state
            t = s.information_state_tensor(player) if self.perfect_recall else s.observation_tensor(player)
            self.tensor[:] = t.ravel()

    def string_from(self, state: PlateauState, player: int) -> str:
        s = state.plateau_state
        return s.information_state_string(player) if self.perfect_recall else s.observation_string(player)


def _position_key(state: Any) -> tuple:
    """A position as both observers' tensors, the dice sorted (OpenSpiel keeps backgammon's dice in rolled order)."""
    key: List[float] = []
    for p in (0, 1):
        v = [float(x) for x in np.asarray(state.observation_tensor(p)).ravel()]
        key += v[:-2] + sorted(v[-2:])
    return tuple(key)


def same_result(state: State, spiel_before: "pyspiel.State", spiel_action: int) -> int:
    """The plateau action that leads from `state` to the position OpenSpiel's `spiel_action` leads to from
    `spiel_before` (the same position as `state`): how backgammon's actions map (OpenSpiel numbers a turn's two
    checker steps in one action, in each order, and rolls as 36 ordered outcomes; plateau lists each distinct result
    once, and 21 rolls). ValueError when no plateau action leads there."""
    after = spiel_before.clone()
    after.apply_action(spiel_action)
    target = _position_key(after)
    for a in state.legal_actions():
        c = state.clone()
        c.apply_action(a)
        if _position_key(c) == target:
            return a
    raise ValueError(f"OpenSpiel's action {spiel_action} leads to a position no plateau action reaches")


class PlateauBot(pyspiel.Bot):
    """A plateau player string playing an OpenSpiel game with the same rules (see `plateau_game_string`)."""

    def __init__(self, spiel_game: "pyspiel.Game", player: str = "engine(time=100ms)"):
        pyspiel.Bot.__init__(self)
        self._spiel_game = spiel_game
        self._by_result = spiel_game.get_type().short_name in _BY_RESULT
        self._game = load_game(plateau_game_string(spiel_game))
        self._bot = bot(player)
        # The last replay (OpenSpiel's history, the plateau state, the OpenSpiel state), continued at the next step.
        self._replayed: Any = ([], self._game.new_initial_state(), spiel_game.new_initial_state())

    def plateau_state(self, spiel_state: "pyspiel.State") -> State:
        """The plateau state after the OpenSpiel state's history."""
        history = spiel_state.history()
        done, state, before = self._replayed
        if history[:len(done)] != done:  # another game: replay from the start
            done, state, before = [], self._game.new_initial_state(), self._spiel_game.new_initial_state()
        state, before = state.clone(), before.clone()
        for action in history[len(done):]:
            state.apply_action(same_result(state, before, action) if self._by_result else action)
            before.apply_action(action)
        self._replayed = (list(history), state.clone(), before.clone())
        return state

    def step(self, spiel_state: "pyspiel.State") -> int:
        state = self.plateau_state(spiel_state)
        action = self._bot.step(state)
        if not self._by_result:
            return action
        state.apply_action(action)
        target = _position_key(state)
        for b in spiel_state.legal_actions():
            after = spiel_state.clone()
            after.apply_action(b)
            if _position_key(after) == target:
                return b
        raise ValueError("no OpenSpiel action reaches the position of the bot's move")

    def restart_at(self, spiel_state: "pyspiel.State") -> None:
        self._bot.restart()

    def inform_action(self, spiel_state, player_id, action) -> None:
        pass
