"""The tournament on a real local Ray cluster (a head without CPUs and two worker nodes of one CPU each, started on
this machine by `ray.cluster_utils.Cluster`), driven by `python -m plateau.cluster tournament` as a user runs it:

- a round robin of four node-limited players gives the same results, crosstable and ratings as `plateau tournament`
  on one machine with the same seed, and those ratings equal an independent Bradley-Terry fit (`choix`);
- a worker node removed mid-run, and a driver killed (SIGKILL) then restarted, still end with every game exactly once
  in the results file and in the record file;
- another tournament's files are refused untouched.

Needs ray and choix (`.ci/run` installs them)."""

import json
import math
import os
import pathlib
import re
import signal
import time

import numpy as np
import pytest

import plateau
from plateau.tournament import Tournament

from cluster_run import finish, start

pytest.importorskip("ray.cluster_utils", reason="ray is required (.ci/run installs it)")
choix = pytest.importorskip("choix", reason="choix is required (.ci/run installs it)")

GAME = "breakthrough(rows=5,columns=5)"
NODE_LIMITED = ["--player", "ab1=alphabeta(depth=1)", "--player", "ab2=alphabeta(depth=2)",
                "--player", "r1=random(seed=1)", "--player", "r2=random(seed=2)"]
# Time-limited players: slow enough (about half a second a game) that a node or the driver dies mid-run on any build.
TIMED = ["--player", "m1=mcts", "--player", "m2=mcts", "--player", "m3=mcts", "--player", "r=random(seed=4)",
         "--movetime", "40ms"]


def driver(args, address, **kw):
    return start("tournament", args, address, **kw)


def result_lines(path):
    lines = path.read_text().splitlines()
    return [json.loads(line) for line in lines[1:]]


def record_rounds(path):
    return [int(m) for m in re.findall(r'^\[Round "(\d+)"\]', path.read_text(), re.M)]


def exactly_once(results, record, games):
    ids = sorted(r["id"] for r in result_lines(results))
    assert ids == list(range(1, games + 1)), ids
    assert sorted(record_rounds(record)) == ids


def wait_for_lines(path, n, proc, timeout=120):
    """Wait until the results file holds at least `n` games (and the driver still runs)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() and len(path.read_text().splitlines()) - 1 >= n:
            return
        assert proc.poll() is None, proc.communicate()[1]
        time.sleep(0.02)
    raise AssertionError(f"{path}: fewer than {n} games after {timeout} s")


def choix_elo(names, results, virtual_draws):
    """Elo by an independent Bradley-Terry fit (choix's ILSR), draws as half points, mean 0."""
    n = len(names)
    idx = {name: k for k, name in enumerate(names)}
    m = np.zeros((n, n))
    met = set()
    for r in results:
        w, b = idx[r["white"]], idx[r["black"]]
        s = {"1-0": 1.0, "0-1": 0.0}.get(r["result"], 0.5)
        m[w, b] += s
        m[b, w] += 1.0 - s
        met.add((min(w, b), max(w, b)))
    for a, b in met:
        m[a, b] += 0.5 * virtual_draws
        m[b, a] += 0.5 * virtual_draws
    theta = choix.ilsr_pairwise_dense(m, max_iter=100000, tol=1e-13)
    k = 400.0 / math.log(10.0)
    return {name: k * (theta[i] - theta.mean()) for name, i in idx.items()}


def test_cluster_and_one_machine_give_the_same_tournament_and_choix_agrees(cluster, tmp_path):
    c, _ = cluster
    args = [GAME, *NODE_LIMITED, "--rounds", "2", "--seed", "5"]
    one = tmp_path / "one.jsonl"
    local = plateau.run("tournament", *args, "--results", str(one), "--json")[-1]
    results, record = tmp_path / "r.jsonl", tmp_path / "r.pgn"
    doc = json.loads(finish(driver([*args, "--results", str(results), "--record", str(record), "--json"],
                                   c.address)))
    exactly_once(results, record, 24)
    assert sorted(map(json.dumps, result_lines(results))) == sorted(map(json.dumps, result_lines(one)))
    assert results.read_text().splitlines()[0] == one.read_text().splitlines()[0]  # the same tournament's header
    for key in ("tournament", "games", "finished", "standings", "crosstable", "failures", "rating"):
        assert doc[key] == local[key], key
    names = [p["name"] for p in doc["players"]]
    expected = choix_elo(names, result_lines(results), doc["rating"]["virtual_draws"])
    for row in doc["standings"]:
        assert abs(row["elo"] - expected[row["name"]]) < 0.01, (row, expected)
    # The one-machine command continues the cluster's files: nothing left to play.
    again = plateau.run("tournament", *args, "--results", str(results), "--record", str(record), "--resume",
                        "--json")[-1]
    assert again["resumed_games"] == 24 and again["standings"] == local["standings"]


def test_a_worker_node_removed_mid_run_leaves_every_game_exactly_once(cluster, tmp_path):
    c, workers = cluster
    results, record = tmp_path / "r.jsonl", tmp_path / "r.pgn"
    args = [GAME, *TIMED, "--rounds", "2", "--results", str(results), "--record", str(record)]
    p = driver([*args, "--retries", "5"], c.address)
    try:
        wait_for_lines(results, 2, p)
        c.remove_node(workers[1])  # its running task is lost; Ray retries it on the other node
        removed_at = len(result_lines(results))
        out = finish(p)
    finally:
        p.kill()
    assert removed_at < 24
    exactly_once(results, record, 24)
    assert "games 24 of 24 finished" in out
    workers[1] = c.add_node(num_cpus=1)
    c.wait_for_nodes()


def test_a_killed_driver_restarted_leaves_every_game_exactly_once(cluster, tmp_path):
    c, _ = cluster
    results, record = tmp_path / "r.jsonl", tmp_path / "r.pgn"
    args = [GAME, *TIMED, "--rounds", "2", "--results", str(results), "--record", str(record)]
    p = driver(args, c.address)
    try:
        wait_for_lines(results, 3, p)
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
    finally:
        p.kill()
    killed_at = len(result_lines(results))
    assert killed_at < 24
    out = finish(driver(args, c.address))
    exactly_once(results, record, 24)
    m = re.search(r"games 24 of 24 finished, (\d+) of them from the results file", out)
    assert m and int(m.group(1)) >= killed_at, out


def test_the_live_file_shows_the_games_in_progress_and_goes_at_the_end(cluster, tmp_path):
    c, _ = cluster
    results = tmp_path / "r.jsonl"
    live = tmp_path / "r.jsonl.live"
    p = driver([GAME, *TIMED, "--rounds", "2", "--results", str(results)], c.address)
    seen = []
    try:
        end = time.monotonic() + 120
        while p.poll() is None and time.monotonic() < end and len(seen) < 3:
            try:
                doc = json.loads(live.read_text())
            except (OSError, ValueError):
                time.sleep(0.05)
                continue
            if doc["playing"]:
                header = json.loads(results.read_text().splitlines()[0])
                assert doc["plateau_live"] == 1 and doc["tournament"] == header["id"], doc
                assert abs(doc["updated_ms"] / 1000 - time.time()) < 15, doc
                seen.append(doc)
            time.sleep(0.1)
        out = finish(p)
    finally:
        p.kill()
    assert seen, "no game in progress was ever in the live file"
    schedule = {g["id"]: g for g in Tournament([GAME, *TIMED, "--rounds", "2"]).plan()["games"]}
    for doc in seen:
        assert 1 <= len(doc["playing"]) <= 2, doc  # two worker nodes of one CPU: at most two games at once
        for g in doc["playing"]:
            want = schedule[g["id"]]
            assert (g["round"], g["white"], g["black"]) == (want["round"], want["white"], want["black"]), g
    assert "games 24 of 24 finished" in out
    assert not live.exists(), "the live file stays after the end"


def test_another_tournaments_files_are_refused_untouched(tmp_path):
    results = tmp_path / "r.jsonl"
    plateau.run("tournament", GAME, *NODE_LIMITED[:4], "--results", str(results), "--json")
    before = results.read_bytes()
    p = driver([GAME, *NODE_LIMITED, "--results", str(results)], "local")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 1 and "another tournament" in err and err.count("\n") == 1, err
    assert results.read_bytes() == before
    p = driver([GAME, *NODE_LIMITED], "local")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 1 and "needs --results FILE" in err, err
