"""`python -m plateau.cluster solve GAME --split --results FILE [solve's flags] [--address A] [--retries N]
[--working-dir D]`: Breakthrough's split solve (`plateau solve GAME --split --results FILE`) on a Ray cluster.

    solve's flags     the ones of the split solve, as `plateau solve` spells them: --position, --moves, --budget N,
                      --split-first M,M, --tt SIZE, --race-rows R, --max-seconds S (per job), --first-win-only,
                      --method dfpn, --json (the others are refused in one line)

    plan = the root moves in groups (a move with the moves that reach its mirror image), as --split groups them
    done = the groups the results file decides (the file `plateau solve --split --results FILE` writes and reads:
        the two continue each other's; a file with a line that is not a job line is refused untouched)
    submit one Ray task per undecided group, in --split's order (retried up to N times when its worker or node is
        lost: a group's df-pn runs depend only on the position, the budget and the table's size, so a retry gives the
        same result); each task solves its group alone, df-pn rounds of a budget doubling from --budget on a table of
        its own, until decided (or --max-seconds)
    as each task finishes: its job lines appended to the results file at once and printed on stdout (as --split
        prints them); with --first-win-only, a winning move stops the solve (the tasks under way are cancelled)
    the summary as `plateau solve --split --json` prints it (one JSON document; `nodes`: this run's jobs)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

from .. import _plateau

_LOADED: Dict[Tuple[Optional[str], str, str], Any] = {}


def solve_group(game: str, request: str, move: str, cwd: Optional[str]) -> List[str]:
    """What a Ray worker runs: the group of `move` solved alone; its job lines (JSON)."""
    if cwd is not None and os.path.isdir(cwd):
        os.chdir(cwd)
    key = (cwd, game, request)
    s = _LOADED.get(key)
    if s is None:
        s = _plateau.SplitSolve(game, request)
        _LOADED[key] = s
    lines: List[str] = s.solve_group(move)
    return lines


def _request(rest: List[str]) -> Tuple[str, Dict[str, Any], bool]:
    """The game, the request (solve's keywords) and --json, from the solve's words."""
    p = argparse.ArgumentParser(prog="python -m plateau.cluster solve", add_help=False)
    p.add_argument("game", nargs="?", default="breakthrough")
    p.add_argument("--position")
    p.add_argument("--moves")
    p.add_argument("--method")
    p.add_argument("--split", action="store_true")
    p.add_argument("--budget", type=int)
    p.add_argument("--split-first")
    p.add_argument("--results")
    p.add_argument("--tt")
    p.add_argument("--race-rows", type=int)
    p.add_argument("--max-seconds", type=float)
    p.add_argument("--first-win-only", action="store_true")
    p.add_argument("--json", action="store_true")
    ns, unknown = p.parse_known_args(rest)
    if unknown:
        raise ValueError(f"{unknown[0]}: not a flag of the cluster's split solve (docs/cluster.md)")
    req: Dict[str, Any] = {"split": ns.split, "first_win_only": ns.first_win_only, "quiet": True}
    for name in ("position", "moves", "method", "budget", "split_first", "results", "tt", "race_rows",
                 "max_seconds"):
        value = getattr(ns, name)
        if value is not None:
            req[name] = value
    return ns.game, req, ns.json


def run(ns: argparse.Namespace) -> int:
    """Run (or resume) the split solve of `ns.rest` on the cluster; the exit code."""
    from .driver import _init_ray

    game, req, as_json = _request(ns.rest)
    request = json.dumps(req)
    s = _plateau.SplitSolve(game, request)
    plan = json.loads(s.plan_json())
    done = set(s.open())
    todo = [g for g in plan["groups"] if g[0] not in done]
    start = time.monotonic()
    if todo and not s.decided:
        import ray

        _init_ray(ns.address, ns.working_dir)
        try:
            task = ray.remote(num_cpus=1, max_retries=ns.retries)(solve_group)
            cwd = None if ns.working_dir else os.getcwd()
            refs = {task.remote(game, request, g[0], cwd): g[0] for g in todo}
            stop = False
            while refs:
                ready, _ = ray.wait(list(refs), num_returns=1, timeout=0.25)
                for ref in ready:
                    move = refs.pop(ref)
                    try:
                        lines = ray.get(ref)
                    except ray.exceptions.RayError as e:
                        if stop:
                            continue  # cancelled once the root was decided
                        text = str(e).strip()
                        first = text.splitlines()[-1] if text else type(e).__name__
                        raise RuntimeError(f"the job on {move} failed after {ns.retries} retries: {first}; the "
                                           "decided moves are kept: run the same command again to resume") from None
                    if stop:
                        continue
                    s.add(lines)
                    for line in lines:
                        print(line, flush=True)
                    if s.decided and not stop:
                        stop = True
                        for r in list(refs):
                            ray.cancel(r, force=True)
        finally:
            ray.shutdown()
    summary = json.loads(s.summary_json(time.monotonic() - start))
    print(json.dumps(summary, indent=2, ensure_ascii=False) if as_json else json.dumps(summary))
    return 0
