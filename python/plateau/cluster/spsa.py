"""`python -m plateau.cluster spsa ARGS [--address A] [--retries N] [--working-dir D]`: `plateau spsa` with its games
played on a Ray cluster.

    ARGS        `plateau spsa`'s flags, the same (`--out FILE` required: its checkpoint `FILE.checkpoint` is how a
                restarted driver resumes, so `--resume` is implied; `--concurrency` is not used: the game pairs of an
                iteration run as parallel Ray tasks)

    plan = the run (its settings' fingerprint, the iterations, the game pairs of an iteration's match)
    θ = FILE.checkpoint's when there is one (read as `plateau spsa --resume` reads it: another run's refused
        untouched), else the start values
    for each iteration k after the checkpoint's, up to the last (--iterations, or --stop-after):
        θ+ and θ- drawn from the seed, k and θ (the Rust library, as `plateau spsa` draws them)
        each game pair of k's match submitted as a Ray task (retried up to N times when its worker or node is lost:
            each game is deterministic from the seed, k and its number, so a retried task plays the very same games)
        all of k's games back: θ updated and FILE.checkpoint rewritten at once (atomically), the command's line
    the parameters file written to --out as `plateau spsa` writes it

SPSA is sequential in θ: one iteration at a time, as `plateau spsa` plays them (its `--concurrency` plays one
iteration's games side by side). With node-limited engines the same words give the same θ, checkpoint and file as
`plateau spsa`, and each continues the other's checkpoint (`plateau spsa ... --resume`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Dict, Optional, Sequence, Tuple

from .. import _plateau
from .driver import _init_ray, drive, queue, worker_object

_LOADED: Dict[Tuple[Optional[str], Tuple[str, ...]], Any] = {}


def play_pair(args: Sequence[str], run_id: str, job: str, games: Sequence[int], cwd: Optional[str]) -> str:
    """What a Ray worker runs: the games `games` of the iteration `job` (JSON: {iteration, plus, minus}) of the run
    `args` (relative paths from `cwd` when this node has it, else from the shipped working_dir): their outcomes as
    JSON. The run is built once per worker process and must be the driver's (`run_id`)."""
    s = worker_object(_LOADED, cwd, (cwd, tuple(args)), lambda: _plateau.Spsa(list(args)))
    mine = json.loads(s.plan_json())["run"]
    if mine != run_id:
        raise ValueError(f"this node sees another spsa run ({mine}, the driver's is {run_id}): give every node the "
                         "same --start file (docs/cluster.md)")
    text: str = s.play(job, [int(g) for g in games])
    return text


def run(ns: argparse.Namespace) -> int:
    """Run (or resume) the SPSA run of `ns.rest` on the cluster; the exit code."""
    s = _plateau.Spsa(list(ns.rest))
    plan = json.loads(s.plan_json())
    opened = json.loads(s.open_json())
    if opened["iteration"] > 0:
        print(f"resuming {opened['checkpoint']} at iteration {opened['iteration']} of {opened['iterations']}",
              file=sys.stderr, flush=True)
    job: Optional[Dict[str, Any]] = json.loads(s.next_json())
    start = time.monotonic()
    if job is not None:
        import ray

        _init_ray(ns.address, ns.working_dir)
        try:
            play = ray.remote(num_cpus=1, max_retries=ns.retries)(play_pair)
            cwd = None if ns.working_dir else os.getcwd()
            while job is not None:
                text = json.dumps(job)
                outcomes: Dict[int, Dict[str, Any]] = {}

                def finished(task: Dict[str, Any], played: str) -> bool:
                    for game in json.loads(played):
                        outcomes[int(game["game"])] = game
                    return False

                def failed(task: Dict[str, Any], first: str) -> str:
                    assert job is not None
                    return (f"iteration {job['iteration']}, task {task['task']} (games "
                            f"{', '.join(map(str, task['games']))}) failed after {ns.retries} retries: {first}; "
                            f"{opened['checkpoint']} holds the iterations finished: run the same command again to "
                            "resume")

                drive(lambda task: play.remote(list(ns.rest), plan["run"], text, task["games"], cwd),
                      queue(plan["tasks"]), finished, failed, window=len(plan["tasks"]))
                applied = json.loads(s.apply(text, json.dumps(list(outcomes.values()))))
                print(applied["line"], file=sys.stderr, flush=True)
                job = json.loads(s.next_json())
        finally:
            ray.shutdown()
    end = json.loads(s.finish_json())
    if end["line"]:
        print(end["line"])
    print(f"{end['iteration'] - opened['iteration']} iterations played in {time.monotonic() - start:.1f} s on the "
          "cluster", file=sys.stderr)
    return 0
