"""The cluster's jobs measured: for the match, the self-play data generation, Breakthrough's split solve and SPSA,
the same work run in this process without Ray (the extension's optimized code, one core) and as Ray tasks on a local
cluster of a head without CPUs and 1, then 2, worker nodes of one CPU; and the overhead of one Ray task of each job
(tasks that do nothing, submitted at once: the time per task). Prints a Markdown table for docs/cluster.md. A timed
benchmark: run it on a quiet machine (its whole run takes one to three minutes).

    python python/bench_cluster_jobs.py [--scale 1] [--empty-tasks 40]

    match     plateau match's game pairs (matches.play_pair): games per second
    datagen   plateau tune --save-data's chunks of 2 games (datagen.play_chunk): games per second
    solve     the split solve of 5x4 Breakthrough, a group of root moves per task (solve.solve_group): jobs per second
    spsa      plateau spsa's iterations, the game pairs of one iteration in parallel, θ updated and the checkpoint
              written between iterations (spsa.play_pair and the driver's loop): games per second
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import ray
from ray.cluster_utils import Cluster

from plateau import _plateau
from plateau.cluster import datagen, matches, solve, spsa

GAME = "breakthrough(rows=5,columns=5)"


def solve_nothing(game: str, request: str, cwd: Optional[str]) -> List[str]:
    """A split-solve task that solves nothing: the run built (once per worker) and no group."""
    if cwd is not None and os.path.isdir(cwd):
        os.chdir(cwd)
    key = (cwd, game, request)
    if key not in solve._LOADED:
        solve._LOADED[key] = _plateau.SplitSolve(game, request)
    return []


class Job:
    """One kind of job: its work in this process, on the cluster, and an empty task of the same shape."""

    def __init__(self, name: str, unit: str) -> None:
        self.name, self.unit = name, unit

    def local(self) -> int:
        raise NotImplementedError

    def cluster(self) -> int:
        raise NotImplementedError

    def empty(self, n: int) -> None:
        raise NotImplementedError


def _wait_all(refs: List[Any]) -> List[Any]:
    return ray.get(refs)  # type: ignore[no-any-return]


class MatchJob(Job):
    def __init__(self, d: str, scale: int) -> None:
        super().__init__("match (alphabeta depth 3 against mcts 300 playouts)", "games")
        self.args = [GAME, "--player", "alphabeta(depth=3)", "--player", "mcts(playouts=300,seed=2)",
                     "--games", str(16 * scale), "--seed", "4", "--record", os.path.join(d, "m.pgn")]
        self.plan = json.loads(_plateau.Match(self.args).plan_json())
        self.task = ray.remote(num_cpus=1, max_retries=0)(matches.play_pair)

    def local(self) -> int:
        m = _plateau.Match(self.args)
        return sum(len(m.play(t["games"])) for t in self.plan["tasks"])

    def cluster(self) -> int:
        cwd = os.getcwd()
        return sum(len(b) for b in _wait_all([self.task.remote(self.args, t["games"], cwd)
                                              for t in self.plan["tasks"]]))

    def empty(self, n: int) -> None:
        _wait_all([self.task.remote(self.args, [], os.getcwd()) for _ in range(n)])


class DataJob(Job):
    def __init__(self, d: str, scale: int) -> None:
        super().__init__("datagen (300 nodes a move, chunks of 2 games)", "games")
        self.games = 12 * scale
        self.settings = json.dumps({"game": GAME, "games": self.games, "nodes": 300, "data_eval": "hand",
                                    "random_plies": 2, "seed": 5, "save_data": os.path.join(d, "data.txt")})
        self.chunks = [list(range(k, min(k + 2, self.games))) for k in range(0, self.games, 2)]
        self.task = ray.remote(num_cpus=1, max_retries=0)(datagen.play_chunk)

    def local(self) -> int:
        g = _plateau.DataGen(self.settings)
        for c in self.chunks:
            g.play(c)
        return self.games

    def cluster(self) -> int:
        cwd = os.getcwd()
        _wait_all([self.task.remote(self.settings, c, cwd) for c in self.chunks])
        return self.games

    def empty(self, n: int) -> None:
        _wait_all([self.task.remote(self.settings, [], os.getcwd()) for _ in range(n)])


class SolveJob(Job):
    def __init__(self, d: str, scale: int) -> None:
        super().__init__("split solve of breakthrough(rows=5,columns=4), budget 2000", "jobs")
        self.game = "breakthrough(rows=5,columns=4)"
        self.request = json.dumps({"split": True, "quiet": True, "budget": 2000, "tt": "16mb",
                                   "results": os.path.join(d, "s.jsonl")})
        plan = json.loads(_plateau.SplitSolve(self.game, self.request).plan_json())
        self.moves = [g[0] for g in plan["groups"]] * scale
        self.task = ray.remote(num_cpus=1, max_retries=0)(solve.solve_group)
        self.nothing = ray.remote(num_cpus=1, max_retries=0)(solve_nothing)

    def local(self) -> int:
        s = _plateau.SplitSolve(self.game, self.request)
        for m in self.moves:
            s.solve_group(m)
        return len(self.moves)

    def cluster(self) -> int:
        cwd = os.getcwd()
        _wait_all([self.task.remote(self.game, self.request, m, cwd) for m in self.moves])
        return len(self.moves)

    def empty(self, n: int) -> None:
        _wait_all([self.nothing.remote(self.game, self.request, os.getcwd()) for _ in range(n)])


class SpsaJob(Job):
    def __init__(self, d: str, scale: int) -> None:
        super().__init__("spsa (engine 300 nodes, 2 pairs an iteration)", "games")
        self.d, self.n = d, 0
        self.iterations = 4 * scale
        self.task = ray.remote(num_cpus=1, max_retries=0)(spsa.play_pair)

    def words(self) -> List[str]:
        self.n += 1  # a fresh run (its own --out) for each measure
        return [GAME, "--engine", "engine(nodes=300,tt=1mb)", "--params", "rfp_margin,futility_margin",
                "--iterations", str(self.iterations), "--pairs", "2", "--r-end", "0.05", "--seed", "3",
                "--out", os.path.join(self.d, f"p{self.n}.txt")]

    def _run(self, play: Callable[[Any, str, Dict[str, Any], List[str]], List[Any]]) -> int:
        args = self.words()
        s = _plateau.Spsa(args)
        plan = json.loads(s.plan_json())
        s.open_json()
        games = 0
        job = json.loads(s.next_json())
        while job is not None:
            text = json.dumps(job)
            outcomes = [o for r in play(s, text, plan, args) for o in json.loads(r)]
            s.apply(text, json.dumps(outcomes))
            games += len(outcomes)
            job = json.loads(s.next_json())
        return games

    def local(self) -> int:
        return self._run(lambda s, text, plan, args: [s.play(text, t["games"]) for t in plan["tasks"]])

    def cluster(self) -> int:
        cwd = os.getcwd()
        return self._run(lambda s, text, plan, args: _wait_all(
            [self.task.remote(args, plan["run"], text, t["games"], cwd) for t in plan["tasks"]]))

    def empty(self, n: int) -> None:
        args = self.words()
        s = _plateau.Spsa(args)
        run_id = json.loads(s.plan_json())["run"]
        job = json.loads(s.next_json())
        _wait_all([self.task.remote(args, run_id, json.dumps(job), [], os.getcwd()) for _ in range(n)])


def timed(f: Callable[[], int]) -> Tuple[int, float]:
    start = time.perf_counter()
    units = f()
    return units, time.perf_counter() - start


def row(job: Job, where: str, units: int, seconds: float, overhead: Optional[float]) -> None:
    over = "-" if overhead is None else f"{1000 * overhead:.1f} ms"
    print(f"| {job.name} | {where} | {units} {job.unit} | {seconds:.2f} | {units / seconds:.1f} | {over} |",
          flush=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=1, help="multiply every job's work by this")
    ap.add_argument("--empty-tasks", type=int, default=40, help="empty tasks per job and cluster size")
    a = ap.parse_args()
    begin = time.perf_counter()
    print(f"load average before: {os.getloadavg()}", file=sys.stderr)
    print("| job | where | work | seconds | per second | overhead per task |")
    print("|---|---|---|---|---|---|")
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    c.add_node(num_cpus=1)
    c.wait_for_nodes()
    ray.init(address=c.address, log_to_driver=False, configure_logging=False)
    try:
        with tempfile.TemporaryDirectory() as d:
            jobs: List[Job] = [MatchJob(d, a.scale), DataJob(d, a.scale), SolveJob(d, a.scale), SpsaJob(d, a.scale)]
            rows: Dict[str, List[Tuple[str, int, float, Optional[float]]]] = {j.name: [] for j in jobs}
            for j in jobs:
                rows[j.name].append(("this process, no Ray", *timed(j.local), None))
            for workers in (1, 2):
                if workers == 2:
                    c.add_node(num_cpus=1)
                    c.wait_for_nodes()
                for j in jobs:
                    j.empty(2 * workers)  # the workers started, the job built on each
                    units, seconds = timed(j.cluster)
                    start = time.perf_counter()
                    j.empty(a.empty_tasks)
                    overhead = (time.perf_counter() - start) / a.empty_tasks
                    where = f"Ray, {workers} worker node{'s' if workers > 1 else ''}"
                    rows[j.name].append((where, units, seconds, overhead))
            for j in jobs:
                for r in rows[j.name]:
                    row(j, *r)
    finally:
        ray.shutdown()
        c.shutdown()
    print(f"load average after: {os.getloadavg()}; the whole run {time.perf_counter() - begin:.0f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
