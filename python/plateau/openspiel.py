"""plateau and OpenSpiel together (needs `open_spiel`: `pip install open-spiel`).

- `PlateauGame("breakthrough(rows=6,columns=5)")`: a plateau game as an OpenSpiel Python game (a `pyspiel.Game`
  subclass), which OpenSpiel's Python algorithms take (`mcts.MCTSBot`, `evaluate_bots`, `random_agent`, ...).
- `PlateauBot(spiel_game, "engine(time=100ms)")`: a plateau player as a `pyspiel.Bot` playing OpenSpiel's own game
  where the rules match (breakthrough, connect_four, tic_tac_toe, othello, oware): plateau numbers those games'
  actions as OpenSpiel does, so the bot replays the OpenSpiel state's history in plateau and answers an OpenSpiel action.
- `plateau_game_string(spiel_game)`: the plateau game string of an OpenSpiel game with the same rules.

OpenSpiel's Breakthrough starts with Black (its player 0) at the top; plateau's with White at the bottom: the boards are
mirror images, the actions, players and returns are the same, only the move names differ (`a5a4` there, `a2a3` here).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np
import pyspiel

from . import Game, State, bot, load_game

__all__ = ["PlateauGame", "PlateauState", "PlateauBot", "plateau_game_string"]

# OpenSpiel game name -> (plateau game name, {OpenSpiel parameter: plateau parameter}).
_SAME_RULES: Dict[str, Any] = {
    "breakthrough": ("breakthrough", {"rows": "rows", "columns": "columns"}),
    "connect_four": ("connect_four", {"rows": "rows", "columns": "columns", "x_in_row": None,
                                      "egocentric_obs_tensor": None}),
    "tic_tac_toe": ("tic_tac_toe", {}),
    "othello": ("othello", {}),
    "oware": ("oware", {"num_houses_per_player": "houses", "num_seeds_per_house": "seeds"}),
}

# OpenSpiel parameters whose only value plateau plays.
_FIXED: Dict[str, Any] = {"x_in_row": 4}


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
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=game.observation_tensor_size() > 0,
        parameter_specification={},
    )


class PlateauGame(pyspiel.Game):
    """A plateau game as an OpenSpiel Python game.

    Returns are plateau's: 1 / -1 / 0 for a win, a loss, a draw (games scored by a margin, such as Oware, return the
    margin; the declared utility bounds are then `max_utility`)."""

    def __init__(self, text: str = "tic_tac_toe", params: Optional[Dict[str, Any]] = None,
                 max_utility: float = 1.0, max_game_length: int = 1000):
        self.plateau_game = load_game(text)
        self.text = str(self.plateau_game)
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
        return PlateauObserver(self.plateau_game)


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
    """OpenSpiel's observer interface over plateau's observation tensors and strings."""

    def __init__(self, game: Game):
        shape = game.observation_tensor_shape() or [0]
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: PlateauState, player: int) -> None:
        if self.tensor.size:
            self.tensor[:] = state.plateau_state.observation_tensor(player).ravel()

    def string_from(self, state: PlateauState, player: int) -> str:
        return state.plateau_state.observation_string(player)


class PlateauBot(pyspiel.Bot):
    """A plateau player string playing an OpenSpiel game with the same rules (see `plateau_game_string`)."""

    def __init__(self, spiel_game: "pyspiel.Game", player: str = "engine(time=100ms)"):
        pyspiel.Bot.__init__(self)
        self._game = load_game(plateau_game_string(spiel_game))
        self._bot = bot(player)

    def plateau_state(self, spiel_state: "pyspiel.State") -> State:
        """The plateau state after the OpenSpiel state's history."""
        state = self._game.new_initial_state()
        for action in spiel_state.history():
            state.apply_action(action)
        return state

    def step(self, spiel_state: "pyspiel.State") -> int:
        return self._bot.step(self.plateau_state(spiel_state))

    def restart_at(self, spiel_state: "pyspiel.State") -> None:
        self._bot.restart()

    def inform_action(self, spiel_state, player_id, action) -> None:
        pass
