"""What a Ray worker runs: one task, a game pair of a tournament (a round's opening with both colours).

The task gets the tournament's words (`plateau tournament`'s flags), the tournament's id as the driver computed it,
and the ids of the games to play. It builds the tournament (once per worker process), checks that it is the driver's
(same players files, engines and openings files on this node), plays the games and returns their results and record
blocks; it writes nothing. Each game is deterministic from its id and the seed, so a task retried after a lost worker
plays the very same games.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

import ray

from ..tournament import Tournament

_LOADED: Dict[Tuple[Optional[str], Tuple[str, ...]], Tournament] = {}


def play_games(args: Sequence[str], tournament_id: str, game_ids: Sequence[int],
               cwd: Optional[str] = None) -> List[Dict[str, Any]]:
    """Play `game_ids` of the tournament `args` (relative paths from `cwd` when this node has it: a shared
    filesystem; else from the worker's directory, the shipped `working_dir`)."""
    if cwd is not None and os.path.isdir(cwd):
        os.chdir(cwd)
    key = (cwd, tuple(args))
    t = _LOADED.get(key)
    if t is None:
        t = Tournament(args)
        _LOADED[key] = t
    if t.id != tournament_id:
        raise ValueError(f"this node sees another tournament ({t.id}, the driver's is {tournament_id}): give every "
                         "node the same players file, engines and openings (docs/cluster.md)")
    return t.play(game_ids)


def remote_play(retries: int) -> Any:
    """`play_games` as a Ray task of one CPU, retried up to `retries` times when its worker or node is lost."""
    return ray.remote(num_cpus=1, max_retries=retries)(play_games)
