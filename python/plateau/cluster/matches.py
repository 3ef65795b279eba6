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
from .driver import _init_ray, cluster_cpus, drive, queue, worker_object

_LOADED: Dict[Tuple[Optional[str], Tuple[str, ...]], Any] = {}


def play_pair(args: Sequence[str], games: Sequence[int], cwd: Optional[str]) -> List[str]:
    """What a Ray worker runs: the games `games` of the match `args` (relative paths from `cwd` when this node has
    it, else from the shipped working_dir), their record blocks. The match is built once per worker process."""
    m = worker_object(_LOADED, cwd, (cwd, tuple(args)), lambda: _plateau.Match(list(args)))
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


def run(ns: argparse.Namespace) -> int:
    """Run (or resume) the match of `ns.rest` on the cluster; the exit code."""
    m = _plateau.Match(list(ns.rest))
    if not _has_record(ns.rest):
        raise ValueError("the cluster driver needs --record FILE (it resumes from it when restarted)")
    done = m.open()
    plan = json.loads(m.plan_json())
    todo = [] if m.decided else pending(plan, done)
    start = time.monotonic()
    finished_games = len(done)
    live = not m.verbose and not m.json and sys.stderr.isatty()
    if todo:
        import ray

        _init_ray(ns.address, ns.working_dir)
        try:
            play = ray.remote(num_cpus=1, max_retries=ns.retries)(play_pair)
            cwd = None if ns.working_dir else os.getcwd()

            def finished(item: Tuple[int, List[int]], blocks: List[str]) -> bool:
                nonlocal finished_games
                decided = False
                for block in blocks:
                    added = json.loads(m.add(block))
                    if added["written"]:
                        finished_games += 1
                        if m.verbose:
                            print(added["line"], file=sys.stderr, flush=True)
                        elif live:
                            print(f"\r{time.monotonic() - start:7.0f}s {finished_games}/{plan['games']} games\x1b[K",
                                  end="", file=sys.stderr, flush=True)
                    decided = decided or bool(added["decided"])
                return decided  # the SPRT concluded: nothing more submitted, the tasks under way cancelled

            def failed(item: Tuple[int, List[int]], first: str) -> str:
                task, games = item
                return (f"task {task} (games {', '.join(map(str, games))}) failed after {ns.retries} retries: "
                        f"{first}; the finished games are kept: run the same command again to resume")

            # Twice the cluster's CPUs in flight (at least 2).
            drive(lambda item: play.remote(list(ns.rest), item[1], cwd), queue(todo), finished, failed,
                  window=max(2, 2 * cluster_cpus()))
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
