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
import signal
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

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


def flags(prog: str, what: str, rest: List[str], spec: Sequence[Tuple[str, Dict[str, Any]]],
          game: bool = True) -> argparse.Namespace:
    """A job's own flags (`spec`: each flag and its argparse keywords; with `game`, a first word naming the game,
    `breakthrough` when absent); a word that is not one of them is refused in one line (`ValueError`)."""
    p = argparse.ArgumentParser(prog=prog, add_help=False)
    if game:
        p.add_argument("game", nargs="?", default="breakthrough")
    for name, kw in spec:
        p.add_argument(name, **kw)
    ns, unknown = p.parse_known_args(rest)
    if unknown:
        raise ValueError(f"{unknown[0]}: not a flag of the cluster's {what} (docs/cluster.md)")
    return ns


def worker_object(cache: Dict[Any, Any], cwd: Optional[str], key: Any, make: Callable[[], Any]) -> Any:
    """On a worker: into `cwd` when this node has it (a shared filesystem; else the worker's directory, the shipped
    working_dir), and the object of `key`, built by `make` once per worker process (kept between tasks)."""
    if cwd is not None and os.path.isdir(cwd):
        os.chdir(cwd)
    obj = cache.get(key)
    if obj is None:
        obj = make()
        cache[key] = obj
    return obj


def cluster_cpus() -> int:
    """The cluster's CPUs (at least 1)."""
    import ray

    resources: Dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    return max(1, int(resources.get("CPU", 1)))


class Interrupted(Exception):
    """SIGINT or SIGTERM came: the tasks under way were cancelled, what finished is kept."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def drive(submit: Callable[[Any], Any], next_item: Callable[[], Optional[Any]],
          finished: Callable[[Any, Any], bool], failed: Callable[[Any, str], str], *,
          window: Optional[int] = None, deadline: Optional[float] = None,
          tick: Optional[Callable[[], None]] = None) -> bool:
    """The loop every job's driver runs: keep up to `window` tasks in flight (default: the cluster's CPUs + 1, so
    that a stop or a deadline leaves little under way), each `submit(item)` (a Ray ObjectRef) of the items
    `next_item()` gives (None: nothing to submit now; asked again after each result, so that results may make new
    items); none submitted once `time.monotonic()` passes `deadline`. As each task finishes, `finished(item, value)`
    records it at once; True stops the run (the tasks under way are cancelled, their results ignored). A task failed
    after its retries: `RuntimeError(failed(item, its error's last line))`. SIGINT or SIGTERM: the tasks under way are
    cancelled and `Interrupted` raised (what finished is recorded already). Whether `finished` stopped the run."""
    import ray

    width = window if window is not None else cluster_cpus() + 1
    refs: Dict[Any, Any] = {}
    stop = False
    caught: List[int] = []

    def on_signal(signum: int, _frame: Any) -> None:
        if caught:
            raise KeyboardInterrupt  # a second signal: at once
        caught.append(signum)

    old = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        while True:
            if caught:
                for r in list(refs):
                    ray.cancel(r, force=True)
                raise Interrupted(caught[0])
            while not stop and len(refs) < width and (deadline is None or time.monotonic() < deadline):
                item = next_item()
                if item is None:
                    break
                refs[submit(item)] = item
            if not refs:
                return stop
            if tick is not None:
                tick()
            ready, _ = ray.wait(list(refs), num_returns=1, timeout=0.25)
            for ref in ready:
                item = refs.pop(ref)
                try:
                    value = ray.get(ref)
                except ray.exceptions.RayError as e:
                    if stop or caught:
                        continue  # cancelled
                    text = str(e).strip()
                    raise RuntimeError(failed(item, text.splitlines()[-1] if text else type(e).__name__)) from None
                if stop:
                    continue
                if finished(item, value):
                    stop = True
                    for r in list(refs):
                        ray.cancel(r, force=True)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def queue(items: Sequence[Any]) -> Callable[[], Optional[Any]]:
    """`drive`'s `next_item` for a fixed list: its items in order."""
    it = iter(items)
    return lambda: next(it, None)


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

        def finished(item: Tuple[int, List[int]], played: List[Dict[str, Any]]) -> bool:
            for game in played:
                if t.write(game):
                    results.append(game["result"])
                    progress.game(game["result"])
                live.finish(game["result"]["id"])
            return False

        def failed(item: Tuple[int, List[int]], first: str) -> str:
            task, games = item
            return (f"task {task} (games {', '.join(map(str, games))}) failed after {ns.retries} retries: {first}; "
                    "the finished games are kept: run the same command again to resume")

        try:
            drive(lambda item: play.remote(t.args, t.id, item[1], cwd, board), queue(todo), finished, failed,
                  tick=live.tick)
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
    except Interrupted as e:
        print(f"interrupted ({e}): the tasks under way were cancelled, what finished is kept: run the same command "
              "again to resume", file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt:
        print("interrupted: what finished is kept: run the same command again to resume", file=sys.stderr)
        return 130
