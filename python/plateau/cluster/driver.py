"""The cluster driver: `python -m plateau.cluster tournament ARGS [--address ADDRESS] [--retries N] [--working-dir DIR]`
(and `python -m plateau.cluster match|solve|check|datagen|spsa ARGS ...` with the same three flags: `matches.py`,
`solve.py`, `check.py`, `datagen.py`, `spsa.py`).

    ARGS              `plateau tournament`'s flags, the same (`--results FILE` required: it is how a restarted
                      driver resumes); `--concurrency` is not used (Ray runs one task per free CPU of the cluster)
    --address         the Ray cluster (`auto`, `HOST:6379`, `ray://HOST:10001`); default `local`: start a local Ray
    --retries N       times Ray retries a task whose worker or node was lost (default 3)
    --working-dir DIR ship DIR to every worker (Ray's runtime_env working_dir); relative paths are then DIR's

    plan = the tournament's tasks (game pairs); done = the results file's games (files.py)
    submit every task not finished (only its missing games) as a Ray task (tasks.py), max_retries = N; each task
        tells a live board (an actor) when each game starts and ends: RESULTS.live lists the games in progress (live.py)
    as each task finishes: write its games to the record and results files at once (a game the files hold already
        is not written again), show progress; a task failed after its retries stops the driver (one line; run the
        same command again to resume)
    standings as `plateau tournament` prints them (or its --json document)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Dict, List, Optional

from ..tournament import Tournament
from .files import TournamentFiles, pending
from .live import LiveFile, make_board

USAGE = ("python -m plateau.cluster {tournament,match,solve,check,datagen,spsa} [the command's flags] [--address A] "
         "[--retries N] [--working-dir D]")


def _split(argv: List[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m plateau.cluster", usage=USAGE, add_help=True)
    p.add_argument("job", choices=["tournament", "match", "solve", "check", "datagen", "spsa"])
    p.add_argument("--address", default="local")
    p.add_argument("--retries", type=int, default=3)
    p.add_argument("--working-dir", default=None)
    ns, rest = p.parse_known_args(argv)
    if ns.retries < 0:
        p.error("--retries must be 0 or more")
    ns.rest = rest
    return ns


class _Progress:
    """Progress on stderr: `--verbose`'s line per game, or a line redrawn on a terminal (as the command's bar)."""

    def __init__(self, t: Tournament, total: int, done: int) -> None:
        self.t, self.total, self.done, self.start_done = t, total, done, done
        self.start = time.monotonic()
        self.live = not t.verbose and not t.json and sys.stderr.isatty()

    def game(self, result: Dict[str, Any]) -> None:
        self.done += 1
        if self.t.verbose:
            print(self.t.game_line(result), file=sys.stderr, flush=True)
        elif self.live:
            played = self.done - self.start_done
            elapsed = time.monotonic() - self.start
            eta = elapsed / played * (self.total - self.done) if played else 0.0
            print(f"\r{elapsed:7.0f}s {self.done}/{self.total} games  eta {eta:.0f}s  last: {result['white']} "
                  f"{result['result']} {result['black']}\x1b[K", end="", file=sys.stderr, flush=True)

    def finish(self) -> None:
        if self.live:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)


def _init_ray(address: str, working_dir: Optional[str]) -> None:
    import ray

    runtime_env = {"working_dir": working_dir} if working_dir else None
    if address == "local":
        # Ray starts its workers at nice 15 (its `worker_niceness`): on a machine doing anything else, games played
        # under a clock would lose their CPU to it. The local cluster's workers run at the driver's priority instead.
        os.environ.setdefault("RAY_worker_niceness", "0")
        ray.init(runtime_env=runtime_env, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    else:
        ray.init(address=address, runtime_env=runtime_env, log_to_driver=False, configure_logging=False)


def _results_path(args: List[str]) -> Optional[str]:
    """The value of `--results` in `plateau tournament`'s words."""
    for k, a in enumerate(args):
        if a == "--results" and k + 1 < len(args):
            return args[k + 1]
        if a.startswith("--results="):
            return a[len("--results="):]
    return None


def tournament(ns: argparse.Namespace) -> int:
    """Run (or resume) the tournament of `ns.rest` on the cluster; the exit code."""
    import ray

    from .tasks import remote_play

    t = Tournament(ns.rest)
    plan = t.plan()
    files = TournamentFiles(t)
    results: List[Dict[str, Any]] = list(files.done)
    resumed = len(results)
    todo = pending(plan, results)
    start = time.monotonic()
    progress = _Progress(t, len(plan["games"]), resumed)
    if todo:
        _init_ray(ns.address, ns.working_dir)
        play = remote_play(ns.retries)
        cwd = None if ns.working_dir else os.getcwd()
        results_path = _results_path(t.args)
        board = make_board() if results_path else None
        live = LiveFile(results_path or "", t.id, plan["games"], board)
        for r in results:
            live.finish(r["id"])
        refs = {play.remote(t.args, t.id, games, cwd, board): (task, games) for task, games in todo}
        try:
            while refs:
                live.tick()
                ready, _ = ray.wait(list(refs), num_returns=1, timeout=0.25)
                for ref in ready:
                    task, games = refs.pop(ref)
                    try:
                        played = ray.get(ref)
                    except ray.exceptions.RayError as e:
                        first = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
                        raise RuntimeError(f"task {task} (games {', '.join(map(str, games))}) failed after "
                                           f"{ns.retries} retries: {first}; the finished games are kept: run the "
                                           "same command again to resume") from None
                    for game in played:
                        if t.write(game):
                            results.append(game["result"])
                            progress.game(game["result"])
                        live.finish(game["result"]["id"])
        finally:
            if results_path:
                live.end()
            progress.finish()
            ray.shutdown()
    seconds = time.monotonic() - start
    if t.json:
        print(json.dumps(t.standings(results, resumed, seconds), indent=2, ensure_ascii=False))
    else:
        print(t.summary_text(results, resumed, seconds), end="")
    return 0


def main(argv: List[str]) -> int:
    """The command; errors are one line on stderr (exit code 1)."""
    ns = _split(argv)
    try:
        if ns.job == "match":
            from .matches import run

            return run(ns)
        if ns.job == "solve":
            from .solve import run as run_solve

            return run_solve(ns)
        if ns.job == "check":
            from .check import run as run_check

            return run_check(ns)
        if ns.job == "datagen":
            from .datagen import run as run_datagen

            return run_datagen(ns)
        if ns.job == "spsa":
            from .spsa import run as run_spsa

            return run_spsa(ns)
        return tournament(ns)
    except (ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: the finished games are kept: run the same command again to resume", file=sys.stderr)
        return 130
