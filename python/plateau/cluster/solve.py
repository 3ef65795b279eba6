"""`python -m plateau.cluster solve GAME --split --results FILE [solve's flags] [--address A] [--retries N]
[--working-dir D]`: the split solve (`plateau solve GAME --split --results FILE`) on a Ray cluster, Breakthrough's or
Qubic's: the library chooses the solver by the game as `plateau solve` does (`_plateau.SplitSolve`).

    solve's flags     the ones of the split solve, as `plateau solve` spells them: --position, --moves, --method,
                      --split-first M, --tt SIZE, --max-seconds S (per job), --json; Breakthrough's --budget N,
                      --race-rows R, --first-win-only; Qubic's --max-nodes N (per job), --save-every S (each job's
                      table), --proof FILE, --check, --check-memo SIZE (a flag the game's solver does not take is
                      refused in one line, as by the command)

    plan = the groups, one job each, as --split makes them: Breakthrough's root moves in groups (a move with the moves
        that reach its mirror image); Qubic's answers of the loser to the first move, in orbits of the symmetries
        that fix the position after it
    done = the groups the results file decides (the file `plateau solve --split --results FILE` writes and reads:
        the two continue each other's; a file with a line that is not a job line is refused untouched)
    submit one Ray task per undecided group, in --split's order (retried up to N times when its worker or node is
        lost): Breakthrough's group solved alone, df-pn rounds of a budget doubling from --budget on a table of its
        own (a retry gives the same result); Qubic's job proven on its table file FILE.ANSWER.table (read when it
        exists, saved at the end and every --save-every seconds: a retried or resumed job goes on from it), its
        proof in FILE.ANSWER.proof (the nodes share the results file's filesystem); each until decided or the limits
    as each task finishes: its job lines appended to the results file at once and printed on stdout (as --split
        prints them); with --first-win-only, a winning move stops the solve, and a Qubic job disproven (the first
        move fails) stops it too (the tasks under way are cancelled)
    SIGINT / SIGTERM: the tasks under way cancelled, what finished kept, exit 130 / 143 (driver.py)
    the summary as `plateau solve --split --json` prints it (one JSON document; `nodes`: this run's jobs); Qubic's
        with every job proven: the jobs' proofs mapped by the symmetries and merged into --proof FILE, and with
        --check walked by the independent checker with the rules alone (a proof that does not hold: exit 1)
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any, Dict, List, Optional, Tuple

from .. import _plateau
from .driver import _init_ray, drive, flags, queue, worker_object

_LOADED: Dict[Tuple[Optional[str], str, str], Any] = {}


def solve_group(game: str, request: str, move: str, cwd: Optional[str]) -> List[str]:
    """What a Ray worker runs: the group of `move` solved alone (Qubic's: on its table and proof files); its job
    lines (JSON)."""
    s = worker_object(_LOADED, cwd, (cwd, game, request), lambda: _plateau.SplitSolve(game, request))
    lines: List[str] = s.solve_group(move)
    return lines


def _request(rest: List[str]) -> Tuple[str, Dict[str, Any], bool]:
    """The game, the request (solve's keywords) and --json, from the solve's words."""
    ns = flags("python -m plateau.cluster solve", "split solve", rest, [
        ("--position", {}), ("--moves", {}), ("--method", {}), ("--split", {"action": "store_true"}),
        ("--budget", {"type": int}), ("--split-first", {}), ("--results", {}), ("--tt", {}),
        ("--race-rows", {"type": int}), ("--max-seconds", {"type": float}), ("--max-nodes", {"type": int}),
        ("--save-every", {"type": float}), ("--proof", {}), ("--check", {"action": "store_true"}),
        ("--check-memo", {}), ("--first-win-only", {"action": "store_true"}), ("--json", {"action": "store_true"})])
    req: Dict[str, Any] = {"split": ns.split, "first_win_only": ns.first_win_only, "check": ns.check, "quiet": True}
    for name in ("position", "moves", "method", "budget", "split_first", "results", "tt", "race_rows",
                 "max_seconds", "max_nodes", "save_every", "proof", "check_memo"):
        value = getattr(ns, name)
        if value is not None:
            req[name] = value
    return ns.game, req, ns.json


def run(ns: argparse.Namespace) -> int:
    """Run (or resume) the split solve of `ns.rest` on the cluster; the exit code."""
    game, req, as_json = _request(ns.rest)
    request = json.dumps(req)
    s = _plateau.SplitSolve(game, request)
    plan = json.loads(s.plan_json())
    done = set(s.open())
    todo = [g[0] for g in plan["groups"] if g[0] not in done]
    start = time.monotonic()
    if todo and not s.decided:
        import ray

        _init_ray(ns.address, ns.working_dir)
        try:
            task = ray.remote(num_cpus=1, max_retries=ns.retries)(solve_group)
            cwd = None if ns.working_dir else os.getcwd()

            def finished(move: str, lines: List[str]) -> bool:
                s.add(lines)
                for line in lines:
                    print(line, flush=True)
                return bool(s.decided)  # a winning move with --first-win-only, a failed Qubic job: solved

            def failed(move: str, first: str) -> str:
                return (f"the job on {move} failed after {ns.retries} retries: {first}; the decided moves are kept: "
                        "run the same command again to resume")

            drive(lambda move: task.remote(game, request, move, cwd), queue(todo), finished, failed)
        finally:
            ray.shutdown()
    summary = json.loads(s.summary_json(time.monotonic() - start))
    print(json.dumps(summary, indent=2, ensure_ascii=False) if as_json else json.dumps(summary))
    return 0
