"""`python -m plateau.cluster check GAME --results FILE [--moves M] [--position P] [--split-depth D] [--tt SIZE]
[--check-memo SIZE] [--race-rows R] [--max-seconds S] [--json] [--address A] [--retries N] [--working-dir D]`:
Breakthrough's split proof check (`plateau solve GAME --check-split --results FILE`) on a Ray cluster.

    plan = the results file's first line when it has one (refused untouched if it is another plan, or if its job list
        is not the one its recorded choices give by the rules); else made here (the split levels expanded by the
        rules, the winner's moves there proposed by df-pn) and written first
    done = the jobs with a line in the file (the file `plateau solve --check-split --results FILE` writes and reads:
        the two continue each other's; a last line cut short is dropped)
    submit one Ray task per job without a line (num_cpus=1, retried up to N times when its worker or node is lost: a
        job's solve and check depend only on its position and the table sizes, so a retry gives the same line); no
        job submitted after --max-seconds
    as each task finishes: its line appended to the results file at once and printed on stdout; a job that fails
        decides the verdict (the tasks under way are cancelled)
    the summary as `plateau solve --check-split --json` prints it (one JSON document)
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any, Dict, List, Optional, Tuple

from .. import _plateau

_LOADED: Dict[Tuple[Optional[str], str, str], Any] = {}


def run_job(game: str, request: str, job: str, cwd: Optional[str]) -> str:
    """What a Ray worker runs: one job (the df-pn solve and the proof check of its position); its line (JSON)."""
    if cwd is not None and os.path.isdir(cwd):
        os.chdir(cwd)
    key = (cwd, game, request)
    c = _LOADED.get(key)
    if c is None:
        c = _plateau.CheckSplit(game, request)
        _LOADED[key] = c
    line: str = c.run_job(job)
    return line


def _request(rest: List[str]) -> Tuple[str, Dict[str, Any], bool, Optional[float]]:
    """The game, the request (solve's keywords), --json and --max-seconds, from the check's words."""
    p = argparse.ArgumentParser(prog="python -m plateau.cluster check", add_help=False)
    p.add_argument("game", nargs="?", default="breakthrough")
    p.add_argument("--position")
    p.add_argument("--moves")
    p.add_argument("--method")
    p.add_argument("--check-split", action="store_true")
    p.add_argument("--results")
    p.add_argument("--split-depth", type=int)
    p.add_argument("--tt")
    p.add_argument("--check-memo")
    p.add_argument("--race-rows", type=int)
    p.add_argument("--max-seconds", type=float)
    p.add_argument("--json", action="store_true")
    ns, unknown = p.parse_known_args(rest)
    if unknown:
        raise ValueError(f"{unknown[0]}: not a flag of the cluster's split check (docs/cluster.md)")
    if ns.results is None:
        raise ValueError("the cluster's split check needs --results FILE (it resumes from it when restarted)")
    req: Dict[str, Any] = {"check_split": True, "quiet": True}
    for name in ("position", "moves", "method", "results", "split_depth", "tt", "check_memo", "race_rows"):
        value = getattr(ns, name)
        if value is not None:
            req[name] = value
    return ns.game, req, ns.json, ns.max_seconds


def run(ns: argparse.Namespace) -> int:
    """Run (or resume) the split check of `ns.rest` on the cluster; the exit code (1 when the claim failed)."""
    from .driver import _init_ray

    game, req, as_json, max_seconds = _request(ns.rest)
    request = json.dumps(req)
    c = _plateau.CheckSplit(game, request)
    c.open()
    todo = c.pending()
    start = time.monotonic()
    deadline = float("inf") if max_seconds is None else max_seconds
    failed = json.loads(c.summary_json(0.0))["verdict"] == "failed"
    if todo and not failed:
        import ray

        _init_ray(ns.address, ns.working_dir)
        try:
            task = ray.remote(num_cpus=1, max_retries=ns.retries)(run_job)
            cwd = None if ns.working_dir else os.getcwd()
            refs: Dict[Any, str] = {}
            queue = list(todo)
            stop = False
            while queue or refs:
                # Keep the cluster busy without queueing every job at once, so that --max-seconds can stop starting
                # new ones: a few more tasks than the cluster has CPUs.
                resources: Dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
                cpus = max(1, int(resources.get("CPU", 1)))
                while queue and not stop and len(refs) < cpus + 1 and time.monotonic() - start < deadline:
                    job = queue.pop(0)
                    refs[task.remote(game, request, job, cwd)] = job
                if not refs:
                    break
                ready, _ = ray.wait(list(refs), num_returns=1, timeout=1.0)
                for ref in ready:
                    job = refs.pop(ref)
                    try:
                        line = ray.get(ref)
                    except ray.exceptions.RayError as e:
                        if stop:
                            continue
                        text = str(e).strip()
                        first = text.splitlines()[-1] if text else type(e).__name__
                        raise RuntimeError(f"the job '{job}' failed after {ns.retries} retries: {first}; the jobs "
                                           "done are kept: run the same command again to resume") from None
                    if stop:
                        continue
                    decided = c.add(line)
                    print(line, flush=True)
                    if decided and not json.loads(line)["verified"]:
                        stop = True
                        for r in list(refs):
                            ray.cancel(r, force=True)
        finally:
            ray.shutdown()
    summary = json.loads(c.summary_json(time.monotonic() - start))
    print(json.dumps(summary, indent=2, ensure_ascii=False) if as_json else json.dumps(summary))
    return 1 if summary["verdict"] == "failed" else 0
