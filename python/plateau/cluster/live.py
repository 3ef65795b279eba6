"""The live file of a tournament on the cluster: `RESULTS.live` beside the results file, in the format `plateau
tournament` writes (`src/tournament/live.rs`), so that `plateau serve --tournament RESULTS` shows the games in progress
of a Ray tournament too.

    board  a small Ray actor (no CPU, on the driver's node when it can): each task tells it when a game starts and
           when it ends (a task lost with its worker leaves its game there until the retry plays it)
    driver playing = the board's games not yet in the results file; the file is rewritten (atomically: a temporary
           file renamed over it) when that changed, at most every WRITE_EVERY, and at least every REFRESH so that a
           reader tells a running tournament from a stopped one; removed at the end

The games run on the workers, inside the Rust library: the file lists each game in progress (id, round, players)
without its moves so far. A board that cannot be reached (its node lost) only stops the live file: the tournament
goes on, its results are written as ever.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Dict, Iterable, List, Optional, Set

WRITE_EVERY = 0.25
REFRESH = 2.0


class Board:
    """The games the workers are playing (the actor's class)."""

    def __init__(self) -> None:
        self._playing: Set[int] = set()

    def start(self, game_id: int) -> None:
        self._playing.add(int(game_id))

    def end(self, game_id: int) -> None:
        self._playing.discard(int(game_id))

    def playing(self) -> List[int]:
        return sorted(self._playing)


def make_board() -> Any:
    """The board as a Ray actor of no CPU, placed on this (the driver's) node when Ray can."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    node = ray.get_runtime_context().get_node_id()
    actor = ray.remote(num_cpus=0, max_restarts=0)(Board)
    return actor.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=node, soft=True)).remote()


def live_path(results: str) -> str:
    return results + ".live"


class LiveFile:
    """The writer of `RESULTS.live` for the tournament `tournament_id` of `games` (the plan's games)."""

    def __init__(self, results: str, tournament_id: str, games: Iterable[Dict[str, Any]], board: Any) -> None:
        self.path = live_path(results)
        self.tournament = tournament_id
        self.games = {int(g["id"]): g for g in games}
        self.board = board
        self.finished: Set[int] = set()
        self.last: Optional[float] = None
        self.shown: Optional[List[int]] = None
        self.broken = board is None
        self._asked: Any = None
        self._board_playing: List[int] = []

    def finish(self, game_id: int) -> None:
        """Game `game_id` is in the results file."""
        self.finished.add(int(game_id))

    def _poll(self) -> None:
        """Take the board's answer when it came (never waited for: the actor's process may take seconds to start),
        and ask again."""
        import ray

        if self._asked is not None:
            if not ray.wait([self._asked], timeout=0)[0]:
                return
            self._board_playing = [int(g) for g in ray.get(self._asked)]
        self._asked = self.board.playing.remote()

    def tick(self) -> None:
        """Rewrite the file when due."""
        now = time.monotonic()
        if self.broken or (self.last is not None and now - self.last < WRITE_EVERY):
            return
        try:
            self._poll()
        except Exception as e:  # the board's node lost: the tournament goes on without its live file
            first = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
            print(f"warning: tournament: the live file is no longer written ({first}); the results still are",
                  file=sys.stderr)
            self.broken = True
            return
        playing = [g for g in self._board_playing if g not in self.finished and g in self.games]
        if playing == self.shown and self.last is not None and now - self.last < REFRESH:
            return
        doc = {
            "plateau_live": 1,
            "tournament": self.tournament,
            "updated_ms": int(time.time() * 1000),
            "playing": [
                {"id": g, "round": self.games[g]["round"], "white": self.games[g]["white"],
                 "black": self.games[g]["black"], "fen": None, "moves": []}
                for g in playing
            ],
        }
        tmp = f"{self.path}.tmp{os.getpid()}"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(doc, f)
            os.replace(tmp, self.path)
        except OSError as e:
            try:
                os.remove(tmp)
            except OSError:
                pass
            print(f"warning: tournament: cannot write the live file {self.path} ({e}); the games in progress are "
                  "not shown live (the results are written)", file=sys.stderr)
            self.broken = True
            return
        self.shown, self.last = playing, now

    def end(self) -> None:
        """The driver stops: the file goes."""
        try:
            os.remove(self.path)
        except OSError:
            pass
