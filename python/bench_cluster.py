"""Games per second of a tournament on a local Ray cluster with 1 and 2 worker nodes, against the same tournament on
one machine (`plateau.run("tournament", ...)`, the extension's optimized code), and the overhead of one Ray task.
Prints a Markdown table for docs/cluster.md. A timed benchmark: run it on a quiet machine.

    python python/bench_cluster.py [--rounds 4] [--movetime 20ms] [--empty-tasks 400]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from typing import Any, List

import ray
from ray.cluster_utils import Cluster

import plateau
from plateau.cluster.files import pending
from plateau.cluster.tasks import remote_play
from plateau.tournament import Tournament

GAME = "breakthrough(rows=5,columns=5)"


def on_cluster(args: List[str], workers: int, empty: int) -> Any:
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    for _ in range(workers):
        c.add_node(num_cpus=1)
    c.wait_for_nodes()
    ray.init(address=c.address, log_to_driver=False, configure_logging=False)
    try:
        t = Tournament(args)
        plan = t.plan()
        play = remote_play(0)
        cwd = os.getcwd()
        ray.get([play.remote(args, t.id, [], cwd) for _ in range(2 * workers)])  # workers started and warm
        start = time.perf_counter()
        done = ray.get([play.remote(args, t.id, games, cwd) for _, games in pending(plan, [])])
        seconds = time.perf_counter() - start
        games = sum(len(d) for d in done)
        start = time.perf_counter()
        ray.get([play.remote(args, t.id, [], cwd) for _ in range(empty)])
        overhead = (time.perf_counter() - start) / empty
        return games, seconds, overhead
    finally:
        ray.shutdown()
        c.shutdown()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--movetime", default="20ms")
    ap.add_argument("--empty-tasks", type=int, default=400)
    a = ap.parse_args()
    cases = {
        "4 time-limited mcts, --movetime " + a.movetime: [GAME, "--player", "m1=mcts", "--player", "m2=mcts",
                                                          "--player", "m3=mcts", "--player", "m4=mcts",
                                                          "--movetime", a.movetime],
        "4 node-limited (alphabeta depth 1-2, random)": [GAME, "--player", "ab1=alphabeta(depth=1)",
                                                        "--player", "ab2=alphabeta(depth=2)",
                                                        "--player", "r1=random(seed=1)",
                                                        "--player", "r2=random(seed=2)"],
    }
    print(f"load average before: {os.getloadavg()}", file=sys.stderr)
    print("| players | where | games | seconds | games/s | overhead per task |")
    print("|---|---|---|---|---|---|")
    for name, base in cases.items():
        args = [*base, "--rounds", str(a.rounds)]
        for k in (1, 2):
            with tempfile.TemporaryDirectory() as d:
                start = time.perf_counter()
                doc = plateau.run("tournament", *args, "--concurrency", str(k), "--json",
                                  "--results", os.path.join(d, "r.jsonl"))[-1]
                s = time.perf_counter() - start
            print(f"| {name} | one machine, --concurrency {k} | {doc['finished']} | {s:.2f} | {doc['finished'] / s:.1f} |"
                  " - |", flush=True)
        for w in (1, 2):
            games, s, overhead = on_cluster(args, w, a.empty_tasks)
            print(f"| {name} | Ray, {w} worker node{'s' if w > 1 else ''} | {games} | {s:.2f} | {games / s:.1f} | "
                  f"{1000 * overhead:.2f} ms |", flush=True)
    print(f"load average after: {os.getloadavg()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
