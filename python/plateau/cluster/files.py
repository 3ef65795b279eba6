"""The cluster driver's files: the very results and record files of `plateau tournament` (`--results`, `--record`),
so that `plateau tournament --resume` and the cluster driver continue each other's files.

The driver always resumes: a restart with the same command reads the results file back (the games it holds are
done, a line cut short is played again), and the files of another tournament are refused untouched, in one line, as
`plateau tournament --resume` refuses them (the reading and writing are the Rust library's, `src/tournament/
results.rs`). Each finished game is written at once, record block first, then its results line.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Set, Tuple

from ..tournament import Tournament


class TournamentFiles:
    """The results and record files of `t`, opened for this run."""

    def __init__(self, t: Tournament) -> None:
        if not t.has_results:
            raise ValueError("the cluster driver needs --results FILE (it resumes from it when restarted)")
        self._t = t
        self.done: List[Dict[str, Any]] = t.open_files(resume=True)

    def write(self, game: Dict[str, Any]) -> bool:
        """Append a played game to both files; False (nothing written) when they hold it already."""
        return self._t.write(game)


def pending(plan: Dict[str, Any], done: Sequence[Dict[str, Any]]) -> List[Tuple[int, List[int]]]:
    """The tasks not finished: for each, its number and the ids of its games the files do not hold."""
    finished: Set[int] = {int(r["id"]) for r in done}
    out: List[Tuple[int, List[int]]] = []
    for task in plan["tasks"]:
        missing = [g for g in task["games"] if g not in finished]
        if missing:
            out.append((int(task["task"]), missing))
    return out
