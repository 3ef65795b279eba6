"""`python -m plateau.cluster match ARGS [--address A] [--retries N] [--working-dir D]`: `plateau match` on a Ray
cluster.

    ARGS        `plateau match`'s flags, the same (`--record FILE` required: it is how a restarted driver resumes;
                `--concurrency` is not used: Ray runs one task per free CPU of the cluster)

    plan = the match's game pairs (games 2k-1 and 2k: one opening with both colours); done = the games the record
        file holds, read back and checked as `plateau match --resume` reads it (another match's file refused
        untouched); the SPRT counts them first, in the file's order
    submit the pairs not finished (only their missing games) as Ray tasks, a few more than the cluster has CPUs at
        a time, in order, each retried up to N times when its worker or node is lost (each game is deterministic from
        its number and the seed: a retried task plays the very same games)
    as each task finishes: each of its games checked and appended to the record file at once (a game the file holds
        already, or one after the SPRT concluded, is not written); the SPRT updated after each game; once it
        concludes, nothing more is submitted and the tasks under way are cancelled
    the summary as `plateau match` prints it (or its --json document)

The games are counted in the order they finish, as `plateau match --concurrency N` counts them: without an SPRT the
games and the summary are those of `plateau match` with the same words; with one, the decision may come a game or
two apart from a one-machine run when pairs finish out of order.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import _plateau

_LOADED: Dict[Tuple[Optional[str], Tuple[str, ...]], Any] = {}


def play_pair(args: Sequence[str], games: Sequence[int], cwd: Optional[str]) -> List[str]:
    """What a Ray worker runs: the games `games` of the match `args` (relative paths from `cwd` when this node has
    it, else from the shipped working_dir), their record blocks. The match is built once per worker process."""
    if cwd is not None and os.path.isdir(cwd):
        os.chdir(cwd)
    key = (cwd, tuple(args))
    m = _LOADED.get(key)
    if m is None:
        m = _plateau.Match(list(args))
        _LOADED[key] = m
    blocks: List[str] = m.play([int(g) for g in games])
    return blocks


def pending(plan: Dict[str, Any], done: Sequence[int]) -> List[Tuple[int, List[int]]]:
    """The pairs not finished: for each, its task number and its games the record file does not hold."""
    held = set(int(g) for g in done)
    out: List[Tuple[int, List[int]]] = []
    for task in plan["tasks"]:
        missing = [int(g) for g in task["games"] if int(g) not in held]
        if missing:
            out.append((int(task["task"]), missing))
    return out


def _has_record(args: Sequence[str]) -> bool:
    return any(a in ("--record", "--pgn") or a.startswith(("--record=", "--pgn=")) for a in args)


def _window() -> int:
    """How many tasks to keep submitted: twice the cluster's CPUs (at least 2)."""
    import ray

    resources: Dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    cpus = int(resources.get("CPU", 1))
    return max(2, 2 * cpus)


def run(ns: argparse.Namespace) -> int:
    """Run (or resume) the match of `ns.rest` on the cluster; the exit code."""
    from .driver import _init_ray

    m = _plateau.Match(list(ns.rest))
    if not _has_record(ns.rest):
        raise ValueError("the cluster driver needs --record FILE (it resumes from it when restarted)")
    done = m.open()
    plan = json.loads(m.plan_json())
    todo = [] if m.decided else pending(plan, done)
    start = time.monotonic()
    finished = len(done)
    live = not m.verbose and not m.json and sys.stderr.isatty()
    if todo:
        import ray

        _init_ray(ns.address, ns.working_dir)
        try:
            play = ray.remote(num_cpus=1, max_retries=ns.retries)(play_pair)
            cwd = None if ns.working_dir else os.getcwd()
            window = _window()
            queue = list(todo)
            refs: Dict[Any, Tuple[int, List[int]]] = {}
            stop = False
            while (queue and not stop) or refs:
                while queue and not stop and len(refs) < window:
                    task, games = queue.pop(0)
                    refs[play.remote(list(ns.rest), games, cwd)] = (task, games)
                if not refs:
                    break
                ready, _ = ray.wait(list(refs), num_returns=1, timeout=0.25)
                for ref in ready:
                    task, games = refs.pop(ref)
                    try:
                        blocks = ray.get(ref)
                    except ray.exceptions.RayError as e:
                        if stop:
                            continue  # a task cancelled after the SPRT concluded
                        text = str(e).strip()
                        first = text.splitlines()[-1] if text else type(e).__name__
                        raise RuntimeError(f"task {task} (games {', '.join(map(str, games))}) failed after "
                                           f"{ns.retries} retries: {first}; the finished games are kept: run the "
                                           "same command again to resume") from None
                    for block in blocks:
                        added = json.loads(m.add(block))
                        if added["written"]:
                            finished += 1
                            if m.verbose:
                                print(added["line"], file=sys.stderr, flush=True)
                            elif live:
                                print(f"\r{time.monotonic() - start:7.0f}s {finished}/{plan['games']} games\x1b[K",
                                      end="", file=sys.stderr, flush=True)
                        if added["decided"] and not stop:
                            stop = True
                            for r in list(refs):
                                ray.cancel(r, force=True)
        finally:
            if live:
                print("\r\x1b[K", end="", file=sys.stderr, flush=True)
            ray.shutdown()
    seconds = time.monotonic() - start
    if m.json:
        print(json.dumps(json.loads(m.summary_json(seconds)), indent=2, ensure_ascii=False))
    else:
        print(m.summary_text(seconds), end="")
    return 0
