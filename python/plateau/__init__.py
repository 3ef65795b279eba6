"""plateau from Python: two-player board-game AI with OpenSpiel's method names.

    >>> import plateau
    >>> game = plateau.load_game("breakthrough(rows=6,columns=5)")
    >>> state = game.new_initial_state()
    >>> state.apply_action(state.legal_actions()[0])
    >>> plateau.search(state, "alphabeta(depth=4)")["best_move"]
    >>> plateau.bot("engine(time=100ms)").step(state)
    >>> game.random_playouts(10_000, seed=1).mean(axis=0)

Game strings, player strings and the fields of the returned dictionaries are the command line's (`plateau search
--json`, `plateau solve --json`, `plateau match --json`); errors raise ValueError with its one-line messages.
`plateau.openspiel` adapts plateau's games and bots to OpenSpiel (it needs `open_spiel`).
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from . import _plateau
from ._plateau import Bot, Game, GameType, State, bot, load_game

__all__ = [
    "Bot",
    "Game",
    "GameType",
    "State",
    "bot",
    "games",
    "load_game",
    "match",
    "run",
    "search",
    "solve",
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
]

#: `State.current_player()` at a chance node, a simultaneous node, and when the game is over (OpenSpiel's ids).
CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4


def search(state: State, algo: str = "alphabeta(depth=4)",
           evaluate: Optional[Callable[[State], float]] = None) -> Dict[str, Any]:
    """One search from `state` with a player string (`alphabeta(depth=6)`, `engine(time=100ms)`, `mcts(playouts=1000)`).

    Returns `plateau search --json`'s fields (`best_move`, `value`, `depth`, `nodes`, `leaves`, `pv`, `seconds`, ...)
    and `best_action`, the best move as an action of `state.legal_actions()`.

    `evaluate`, when given, replaces the game's evaluation: a function of a `State` returning a number, higher is
    better for the player to move in that state (`state.current_player()`), in the game's evaluation units (integers;
    keep it within +-100000: wins are scored far beyond). It is called at every leaf, so the search is much slower
    (about a microsecond of Python per call) than with plateau's own evaluations.
    """
    doc: Dict[str, Any] = json.loads(_plateau.search_json(state, algo, evaluate))
    return doc


def run(*args: str) -> List[Dict[str, Any]]:
    """Run any `plateau` command (its words, without `plateau`; add `--json`) and return the JSON documents it prints.
    All but `serve`: the extension is built without the web server (run the `plateau` command for it).

        >>> plateau.run("perft", "connect_four", "--depth", "5", "--json")[0]["nodes"]
    """
    return [json.loads(doc) for doc in _plateau.run_json([str(a) for a in args])]


def _game_and_position(target: Union[str, Game, State], position: Optional[str]) -> Tuple[str, Optional[str]]:
    if isinstance(target, State):
        if position is not None:
            raise ValueError("give either a state or a position, not both")
        return str(target.get_game()), target.position()
    return str(target), position


def _options(options: Dict[str, Any]) -> Dict[str, Any]:
    """Keyword options as a typed spec's fields: `None` and `False` left out (as a flag not given), paths as text."""
    out: Dict[str, Any] = {}
    for key, value in options.items():
        if value is None or value is False:
            continue
        out[key] = os.fspath(value) if isinstance(value, os.PathLike) else value
    return out


def solve(target: Union[str, Game, State], *, position: Optional[str] = None, moves: Optional[str] = None,
          **options: Any) -> Dict[str, Any]:
    """The exact value of a position: `plateau solve --json`'s fields (`result`, `score`, `best_move`, `nodes`,
    `seconds`; Pig: `win_probability`).

    `target` is a game string, a `Game` or a `State` (solved from its position text). Options are the command's flags
    with underscores: `solve("connect_four", moves="4453", weak=True)`, `solve(state, method="dfpn", tt="256mb")`.
    The solve is the solver registry's (`solve::registry::solve`, as `plateau solve`); an unknown option or a value of
    the wrong type is a `ValueError`.
    """
    options.pop("json", None)
    game, position = _game_and_position(target, position)
    request = _options(options)
    request.update({"position": position, "moves": moves, "quiet": True})
    report: Dict[str, Any] = json.loads(_plateau.solve_json(game, json.dumps(request)))
    return report


def match(game: Union[str, Game], player_a: str, player_b: str, games: int = 10, **options: Any) -> Dict[str, Any]:
    """Play `games` games between two player strings: `plateau match --json`'s fields (`games`, `wins_a`, `wins_b`,
    `draws`, `elo`, `elo_error`, ...). Options are the command's flags with underscores: `movetime="100ms"`,
    `tc="10s+0.1s"`, `seed=3`, `random_plies=4`, `sprt="elo0=0,elo1=10"`, `concurrency=2`, `openings=FILE`,
    `record=FILE` (or `pgn=`), `resume=True`, `no_adjudicate=True`, `margin="100ms"`, `max_plies=500`,
    `fixed_colours=True`, `verbose=True`. The match is played by the same library function as `plateau match`
    (`arena::spec::run_match_spec`), given the options as its typed spec; an unknown option is a `ValueError`.
    """
    verbose = bool(options.pop("verbose", False))
    options.pop("json", None)
    spec: Dict[str, Any] = _options(options)
    spec.update({"game": str(game), "players": [player_a, player_b], "games": games})
    report: Dict[str, Any] = json.loads(_plateau.match_json(json.dumps(spec), verbose))
    return report


def games() -> List[Dict[str, Any]]:
    """The registered games: name, aliases, description, parameters (with defaults) and kind."""
    listed: List[Dict[str, Any]] = json.loads(_plateau.games_json())
    return listed
