"""A tournament's jobs from Python: `plateau tournament`'s very words, its plan, the play of one task and its standings.

    >>> t = Tournament(["breakthrough", "--player", "ab1=alphabeta(depth=1)", "--player", "r=random(seed=1)"])
    >>> plan = t.plan()          # {"tournament": id, "settings": ..., "games": [...], "tasks": [...]}
    >>> played = t.play(plan["tasks"][0]["games"])   # [{"result": {...}, "record": "[Event ..."}, ...]
    >>> t.standings([g["result"] for g in played])   # `plateau tournament --json`'s document

A task is one game pair (a round's opening with both colours); each game is deterministic from its id and the seed,
so the same game is played the same way wherever it runs (`docs/cluster.md`). The Ray driver is `plateau.cluster`.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Sequence

from . import _plateau

__all__ = ["Tournament"]


class Tournament:
    """A tournament of `plateau tournament`'s words (after `tournament`), checked as the command checks them before
    its first game (ValueError with its one-line message)."""

    def __init__(self, args: Sequence[str]) -> None:
        self.args: List[str] = [str(a) for a in args]
        self._inner = _plateau.Tournament(self.args)

    @property
    def id(self) -> str:
        """The settings' fingerprint (the results file's header, the records' `[Tournament]` tag)."""
        return self._inner.id

    @property
    def json(self) -> bool:
        """Whether `--json` was given."""
        return self._inner.json

    @property
    def verbose(self) -> bool:
        """Whether `--verbose` was given."""
        return self._inner.verbose

    @property
    def has_results(self) -> bool:
        """Whether `--results FILE` was given."""
        return self._inner.has_results

    def plan(self) -> Dict[str, Any]:
        """`{"tournament", "settings", "games": [{id, round, white, black, opening, seed}], "tasks": [{task, round,
        a, b, games}]}`."""
        doc: Dict[str, Any] = json.loads(self._inner.plan_json())
        return doc

    def play(self, game_ids: Sequence[int]) -> List[Dict[str, Any]]:
        """Play the games `game_ids`: for each `{"result": {...}, "record": "..."}`, its results line and its record
        block as `plateau tournament` writes them."""
        played: List[Dict[str, Any]] = json.loads(self._inner.play_json([int(i) for i in game_ids]))
        return played

    def open_files(self, resume: bool) -> List[Dict[str, Any]]:
        """Open `--results` and `--record` for this run (with `resume`: read back and repaired, another tournament's
        files refused untouched); the results they already hold."""
        done: List[Dict[str, Any]] = json.loads(self._inner.open_files(resume))
        return done

    def write(self, game: Dict[str, Any]) -> bool:
        """Append a played game (`play`'s item) to both files at once; False when they hold it already."""
        return self._inner.write(json.dumps(game["result"]), str(game["record"]))

    def standings(self, results: Sequence[Dict[str, Any]], resumed: int = 0, seconds: float = 0.0) -> Dict[str, Any]:
        """The summary after `results` as `plateau tournament --json` prints it (crosstable, ratings, LOS)."""
        doc: Dict[str, Any] = json.loads(self._inner.summary_json(json.dumps(list(results)), resumed, seconds))
        return doc

    def summary_text(self, results: Sequence[Dict[str, Any]], resumed: int = 0, seconds: float = 0.0) -> str:
        """The summary as `plateau tournament` prints it."""
        return self._inner.summary_text(json.dumps(list(results)), resumed, seconds)

    def game_line(self, result: Dict[str, Any]) -> str:
        """`--verbose`'s line of a finished game."""
        return self._inner.game_line(json.dumps(result))
