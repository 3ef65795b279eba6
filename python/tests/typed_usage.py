"""A small typed use of the package, checked by mypy (tests/test_typing.py) against the stubs; it also runs."""

from __future__ import annotations

from typing import Dict, List

import numpy as np
import numpy.typing as npt

import plateau


def material(state: plateau.State) -> float:
    """An evaluation written in Python: the first plane's count minus the second's, for the side to move."""
    planes: npt.NDArray[np.float32] = state.observation_tensor()
    diff = float(planes[0].sum() - planes[1].sum())
    return diff if state.current_player() == 0 else -diff


def main() -> None:
    game: plateau.Game = plateau.load_game("breakthrough(rows=5,columns=4)")
    state: plateau.State = game.new_initial_state()
    actions: List[int] = state.legal_actions()
    names: List[str] = [state.action_to_string(a) for a in actions]
    state.apply_action(actions[0])
    doc: Dict[str, object] = plateau.search(state, "alphabeta(depth=3)", evaluate=material)
    bot = plateau.bot("alphabeta(depth=2)")
    action: int = bot.step(state)
    state.apply_action(action)
    results = game.random_playouts(10, seed=1, state=state)
    first: float = float(results[:, 0].mean())
    shape: List[int] = game.observation_tensor_shape()
    returns: List[float] = state.returns()
    solved = plateau.solve("tic_tac_toe", moves="a1 b2")
    print(len(names), doc["best_action"], first, shape, returns, sorted(solved)[:2])


if __name__ == "__main__":
    main()
