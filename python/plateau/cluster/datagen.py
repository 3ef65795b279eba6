"""`python -m plateau.cluster datagen GAME --save-data FILE [--games N] [--nodes M] [--data-eval E] [--random-plies R]
[--seed S] [--chunk K] [--address A] [--retries N] [--working-dir D]`: the self-play data of `plateau tune --eval pst
--save-data FILE` played on a Ray cluster.

    the flags         `plateau tune`'s, with its defaults (--games 200, --nodes 3000, --data-eval hand,
                      --random-plies 4, --seed 1); --chunk K: games per task (default 8)

    done = the games the data file holds (read back as `plateau tune --save-data` resumes it: another run's settings,
        or a file that is not a data file, refused untouched; a cut line and the last game dropped)
    submit the games not done in chunks of K as Ray tasks (retried up to N times when the worker or node is lost: each
        game is deterministic from the seed and its number, so a retried chunk gives the same records)
    as each chunk finishes: its records appended to the data file at once (flushed)
    the file is `plateau tune`'s: the same records for each game (in the order the chunks finished), so `plateau tune
        --eval pst --save-data FILE` with the same settings continues it, or fits from it (`--data FILE`)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import _plateau
from .driver import _init_ray, drive, flags, queue, worker_object

_LOADED: Dict[Tuple[Optional[str], str], Any] = {}


def play_chunk(settings: str, games: Sequence[int], cwd: Optional[str]) -> str:
    """What a Ray worker runs: the records of the games `games`."""
    d = worker_object(_LOADED, cwd, (cwd, settings), lambda: _plateau.DataGen(settings))
    text: str = d.play([int(g) for g in games])
    return text


def _settings(rest: List[str]) -> Tuple[Dict[str, Any], int, bool]:
    """The run's settings (as `plateau tune` reads its flags), --chunk and --json."""
    ns = flags("python -m plateau.cluster datagen", "data generation", rest, [
        ("--games", {"type": int, "default": 200}), ("--nodes", {"type": int, "default": 3000}),
        ("--data-eval", {"default": "hand"}), ("--random-plies", {"type": int, "default": 4}),
        ("--seed", {"type": int, "default": 1}), ("--save-data", {}), ("--chunk", {"type": int, "default": 8}),
        ("--json", {"action": "store_true"})])
    if ns.save_data is None:
        raise ValueError("the cluster's data generation needs --save-data FILE (it resumes from it when restarted)")
    if ns.chunk < 1:
        raise ValueError("--chunk must be at least 1")
    for flag, value in (("--games", ns.games), ("--nodes", ns.nodes), ("--random-plies", ns.random_plies),
                        ("--seed", ns.seed)):
        if value < 0:
            raise ValueError(f"{flag} must be 0 or more")
    settings = {"game": ns.game, "games": ns.games, "nodes": ns.nodes, "data_eval": ns.data_eval,
                "random_plies": ns.random_plies, "seed": ns.seed, "save_data": ns.save_data}
    return settings, int(ns.chunk), bool(ns.json)


def run(ns: argparse.Namespace) -> int:
    """Run (or resume) the data generation of `ns.rest` on the cluster; the exit code."""
    settings, chunk, as_json = _settings(ns.rest)
    text = json.dumps(settings)
    d = _plateau.DataGen(text)
    done = set(d.open())
    todo = [g for g in range(int(settings["games"])) if g not in done]
    chunks = [todo[k:k + chunk] for k in range(0, len(todo), chunk)]
    start = time.monotonic()
    records = 0
    if chunks:
        import ray

        _init_ray(ns.address, ns.working_dir)
        try:
            task = ray.remote(num_cpus=1, max_retries=ns.retries)(play_chunk)
            cwd = None if ns.working_dir else os.getcwd()

            def finished(games: List[int], played: str) -> bool:
                nonlocal records
                records += d.add(played)
                return False

            def failed(games: List[int], first: str) -> str:
                return (f"the chunk of games {games[0]} to {games[-1]} failed after {ns.retries} retries: {first}; "
                        "the finished games are kept: run the same command again to resume")

            drive(lambda games: task.remote(text, games, cwd), queue(chunks), finished, failed)
        finally:
            ray.shutdown()
    doc = {"games": settings["games"], "resumed_games": len(done), "played_games": len(todo), "records": records,
           "chunks": len(chunks), "seconds": time.monotonic() - start, "save_data": settings["save_data"]}
    if as_json:
        print(json.dumps(doc, indent=2))
    else:
        print(f"self-play data: {doc['played_games']} games played in {doc['chunks']} chunks ({doc['resumed_games']} "
              f"already in {settings['save_data']}), {records} records written, {doc['seconds']:.1f} s",
              file=sys.stdout)
    return 0
