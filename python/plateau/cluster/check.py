"""`python -m plateau.cluster check GAME --results FILE [--moves M] [--position P] [--split-depth D] [--tt SIZE]
[--check-memo SIZE] [--race-rows R] [--max-seconds S] [--json] [--address A] [--retries N] [--working-dir D]`:
Breakthrough's split proof check (`plateau solve GAME --check-split --results FILE`) on a Ray cluster.

    plan = the results file's first line when it has one (refused untouched if it is another plan, or if its job list
        is not the one its recorded choices give by the rules); else it grows here, choice by choice: the choices
        known are FILE.choices's (the sidecar `plateau solve --check-split` writes too; another plan's refused
        untouched), the split levels are expanded by the rules with them (CheckSplit.needed: the positions whose
        winner's move is still unknown; CheckSplit.pending: the jobs known), and the plan is written first in the
        results file once no choice is needed
    done = the jobs with a line in the results file, or in FILE.choices while the plan is not complete (the two
        commands continue each other's files both ways; a last line cut short is dropped)
    submit, a few more tasks than the cluster has CPUs at a time (num_cpus=1 each, retried up to N times when its
        worker or node is lost): first each needed choice (a df-pn solve of its position; a worker keeps its table
        from one choice to the next), then each known job without a line (its solve and check depend only on its
        position and the table sizes: a retry gives the same line); nothing submitted after --max-seconds
    as each task finishes: a choice appended to FILE.choices at once, the expansion run again and what it makes
        needed or known submitted at once (jobs start before the plan is complete); a job's line appended at once
        (to FILE.choices until the plan is complete, then to the results file under the plan's id for its position)
        and printed on stdout; a failure decides the verdict (the tasks under way are cancelled)
    SIGINT / SIGTERM: the tasks under way cancelled, what finished kept, exit 130 / 143 (driver.py)
    the summary as `plateau solve --check-split --json` prints it (one JSON document)
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any, Dict, List, Optional, Set, Tuple

from .. import _plateau
from .driver import _init_ray, drive, flags, worker_object

_LOADED: Dict[Tuple[Optional[str], str, str], Any] = {}


def _check(game: str, request: str, cwd: Optional[str]) -> Any:
    return worker_object(_LOADED, cwd, (cwd, game, request), lambda: _plateau.CheckSplit(game, request))


def run_job(game: str, request: str, job: str, cwd: Optional[str]) -> str:
    """What a Ray worker runs: one job (the df-pn solve and the proof check of its position); its line (JSON)."""
    line: str = _check(game, request, cwd).run_job(job)
    return line


def choose(game: str, request: str, line: str, cwd: Optional[str]) -> str:
    """What a Ray worker runs: the winner's choice after `line` (a df-pn solve, on a table the worker keeps from one
    choice to the next); its line (JSON)."""
    text: str = _check(game, request, cwd).choose(line)
    return text


def _request(rest: List[str]) -> Tuple[str, Dict[str, Any], bool, Optional[float]]:
    """The game, the request (solve's keywords), --json and --max-seconds, from the check's words."""
    ns = flags("python -m plateau.cluster check", "split check", rest, [
        ("--position", {}), ("--moves", {}), ("--method", {}), ("--check-split", {"action": "store_true"}),
        ("--results", {}), ("--split-depth", {"type": int}), ("--tt", {}), ("--check-memo", {}),
        ("--race-rows", {"type": int}), ("--max-seconds", {"type": float}), ("--json", {"action": "store_true"})])
    if ns.results is None:
        raise ValueError("the cluster's split check needs --results FILE (it resumes from it when restarted)")
    req: Dict[str, Any] = {"check_split": True, "quiet": True}
    for name in ("position", "moves", "method", "results", "split_depth", "tt", "check_memo", "race_rows"):
        value = getattr(ns, name)
        if value is not None:
            req[name] = value
    return ns.game, req, ns.json, ns.max_seconds


def _failed(c: Any) -> bool:
    return bool(json.loads(c.summary_json(0.0))["verdict"] == "failed")


def run(ns: argparse.Namespace) -> int:
    """Run (or resume) the split check of `ns.rest` on the cluster; the exit code (1 when the claim failed)."""
    game, req, as_json, max_seconds = _request(ns.rest)
    request = json.dumps(req)
    c = _plateau.CheckSplit(game, request)
    c.open()
    start = time.monotonic()
    deadline = None if max_seconds is None else start + max_seconds
    if (c.needed() or c.pending()) and not _failed(c):
        import ray

        _init_ray(ns.address, ns.working_dir)
        try:
            choice_task = ray.remote(num_cpus=1, max_retries=ns.retries)(choose)
            job_task = ray.remote(num_cpus=1, max_retries=ns.retries)(run_job)
            cwd = None if ns.working_dir else os.getcwd()
            # What was submitted, by kind and position (a line's id may change as the plan grows: the same work).
            submitted: Set[Tuple[str, str]] = set()

            def next_item() -> Optional[Tuple[str, str]]:
                # The choices first (they make the plan grow), then the jobs known.
                for kind, lines in (("choice", c.needed()), ("job", c.pending())):
                    for line in lines:
                        key = (kind, c.position(line))
                        if key not in submitted:
                            submitted.add(key)
                            return kind, line
                return None

            def submit(item: Tuple[str, str]) -> Any:
                kind, line = item
                task = choice_task if kind == "choice" else job_task
                return task.remote(game, request, line, cwd)

            def finished(item: Tuple[str, str], value: str) -> bool:
                if item[0] == "choice":
                    c.add_choice(value)
                else:
                    c.add(value)
                    print(value, flush=True)
                return _failed(c)

            def failed(item: Tuple[str, str], first: str) -> str:
                what = "the choice after" if item[0] == "choice" else "the job"
                return (f"{what} '{item[1]}' failed after {ns.retries} retries: {first}; the choices and jobs done "
                        "are kept: run the same command again to resume")

            drive(submit, next_item, finished, failed, deadline=deadline)
        finally:
            ray.shutdown()
    summary = json.loads(c.summary_json(time.monotonic() - start))
    print(json.dumps(summary, indent=2, ensure_ascii=False) if as_json else json.dumps(summary))
    return 1 if summary["verdict"] == "failed" else 0
