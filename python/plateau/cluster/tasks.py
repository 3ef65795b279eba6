"""What a Ray worker runs: one task, a game pair of a tournament (a round's opening with both colours).

The task gets the tournament's words (`plateau tournament`'s flags), the tournament's id as the driver computed it,
and the ids of the games to play. It builds the tournament (once per worker process), checks that it is the driver's
(same players files, engines and openings files on this node), plays the games and returns their results and record
blocks; it writes nothing (it tells the driver's live board when each game starts and ends). Each game is
deterministic from its id and the seed, so a task retried after a lost worker plays the very same games.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import ray

from ..tournament import Tournament
from .driver import worker_object

_LOADED: Dict[Tuple[Optional[str], Tuple[str, ...]], Tournament] = {}


def play_games(args: Sequence[str], tournament_id: str, game_ids: Sequence[int],
               cwd: Optional[str] = None, board: Any = None) -> List[Dict[str, Any]]:
    """Play `game_ids` of the tournament `args` (relative paths from `cwd` when this node has it: a shared
    filesystem; else from the worker's directory, the shipped `working_dir`), one after the other, each game told to
    the live `board` (an actor, `live.py`) as it starts and ends."""
    t: Tournament = worker_object(_LOADED, cwd, (cwd, tuple(args)), lambda: Tournament(args))
    if t.id != tournament_id:
        raise ValueError(f"this node sees another tournament ({t.id}, the driver's is {tournament_id}): give every "
                         "node the same players file, engines and openings (docs/cluster.md)")
    played: List[Dict[str, Any]] = []
    for game_id in game_ids:
        board = _tell(board, "start", game_id)
        played.extend(t.play([game_id]))
        board = _tell(board, "end", game_id)
    return played


def _tell(board: Any, what: str, game_id: int) -> Any:
    """Tell the live board (not waited for: the live view is no reason to stop a game); the board, or None when it
    cannot be reached."""
    if board is None:
        return None
    try:
        getattr(board, what).remote(int(game_id))
        return board
    except Exception:
        return None


def remote_play(retries: int) -> Any:
    """`play_games` as a Ray task of one CPU, retried up to `retries` times when its worker or node is lost."""
    return ray.remote(num_cpus=1, max_retries=retries)(play_games)
