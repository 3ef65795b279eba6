"""`plateau match`, the split solve, the self-play data and SPSA on a real local Ray cluster (a head without CPUs and
two worker nodes of one CPU each, started on this machine by `ray.cluster_utils.Cluster`), driven by
`python -m plateau.cluster match|solve|check|datagen|spsa` as a user runs them (the cluster: conftest.py's fixture):

- node-limited players give the same games (each game's number, result and moves) and the same summary as
  `plateau match` on one machine with the same words, and `plateau match --resume` continues the cluster's file;
- with an SPRT the driver stops when the test concludes (the record file holds exactly the games counted, no game
  after the deciding one), with `plateau match`'s decision; the same command again plays nothing;
- a worker node removed mid-run, and a driver killed (SIGKILL) then restarted, still end with every game exactly
  once in the record file;
- no --record, and another match's record file, are refused in one line (the file untouched);
- the split solve decides every root move as `plateau solve --split` does, its results file is the command's (each
  continues the other's), a restarted driver solves only the groups the file does not decide, and what it cannot do
  is refused in one line;
- SPSA (`python -m plateau.cluster spsa`): node-limited engines end with `plateau spsa`'s checkpoint and parameters
  file, `--stop-after` slices continued alternately by the driver and `plateau spsa --resume` end the same, a driver
  killed and restarted and a worker removed mid-run end with the same θ and each iteration printed once, another
  run's checkpoint and a missing --out are refused in one line.
- the split proof check writes the command's file (the same plan, the same job lines), the command finds nothing
  left in it, a false claim fails (exit code 1, the line), and a file of another plan is refused untouched;
- a split check's driver killed (SIGKILL) while its plan is made, then restarted: each choice made once, each job
  once in the results file, the command's verdict, and the command finds nothing left in the cluster's files;
- SIGINT stops a driver within seconds (exit code 130, one line), and the same command finishes from what it kept.

Needs ray (`.ci/run` installs it)."""

import json
import re
import signal
import time

import pytest

import plateau

from cluster_run import finish, job_lines, start

pytest.importorskip("ray.cluster_utils", reason="ray is required (.ci/run installs it)")

GAME = "breakthrough(rows=5,columns=5)"
NODE_LIMITED = ["--player", "alphabeta(depth=2)", "--player", "random(seed=3)", "--seed", "4"]
# Time-limited players: slow enough (about half a second a game) that a node or the driver dies mid-run on any build.
TIMED = ["--player", "mcts", "--player", "random(seed=4)", "--movetime", "40ms", "--seed", "2"]


def driver(args, address):
    return start("match", [GAME, *args], address)


def games(path):
    """Each game of a record file: (number, result, moves without comments), by number."""
    out = []
    for block in re.split(r"\n(?=\[Event )", path.read_text().strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        moves = re.sub(r"\{[^}]*\}", "", "\n".join(l for l in block.splitlines() if not l.startswith("[")))
        out.append((int(tags["Round"]), tags["Result"], moves.split()))
    return sorted(out)


def exactly_once(path, n):
    rounds = sorted(g[0] for g in games(path))
    assert rounds == list(range(1, n + 1)), rounds


def wait_for_games(path, n, proc, timeout=120):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() and len(re.findall(r"^\[Round ", path.read_text(), re.M)) >= n:
            return
        assert proc.poll() is None, proc.communicate()[1]
        time.sleep(0.02)
    raise AssertionError(f"{path}: fewer than {n} games after {timeout} s")


SAME = ("games", "wins_a", "wins_b", "draws", "score", "elo", "elo_error", "by_colour", "length", "failures",
        "player_a", "player_b", "openings", "time_control", "adjudicated")


def test_the_cluster_plays_plateau_matchs_games_and_the_cli_resumes_its_file(cluster, tmp_path):
    c, _ = cluster
    one, two = tmp_path / "one.pgn", tmp_path / "two.pgn"
    args = [*NODE_LIMITED, "--games", "12"]
    local = plateau.run("match", GAME, *args, "--record", str(one), "--json")[-1]
    doc = json.loads(finish(driver([*args, "--record", str(two), "--json"], c.address)))
    exactly_once(two, 12)
    assert games(two) == games(one)
    for key in SAME:
        assert doc[key] == local[key], key
    assert doc["resumed_games"] == 0 and doc["sprt"] is None
    again = plateau.run("match", GAME, *args, "--record", str(two), "--resume", "--json")[-1]
    assert again["resumed_games"] == 12 and again["wins_a"] == local["wins_a"]
    # The text summary is plateau match's.
    text = finish(driver([*args, "--record", str(two)], c.address))
    assert "games 12  A wins" in text and "of which 12 from the record file" in text, text


def test_the_sprt_stops_the_match_and_a_second_run_plays_nothing(cluster, tmp_path):
    c, _ = cluster
    one, two = tmp_path / "one.pgn", tmp_path / "two.pgn"
    args = [*NODE_LIMITED, "--games", "200", "--sprt", "elo0=0,elo1=200,alpha=0.1,beta=0.1"]
    local = plateau.run("match", GAME, *args, "--record", str(one), "--json")[-1]
    assert local["stopped_early"] and local["sprt"]["result"] != "continue", local
    doc = json.loads(finish(driver([*args, "--record", str(two), "--json"], c.address)))
    assert doc["stopped_early"] and doc["sprt"]["result"] == local["sprt"]["result"], doc
    assert abs(doc["games"] - local["games"]) <= 4, (doc["games"], local["games"])
    # The record holds exactly the games the SPRT counted: none after the deciding one.
    assert len(games(two)) == doc["games"] == doc["sprt"]["games"]
    before = two.read_bytes()
    again = json.loads(finish(driver([*args, "--record", str(two), "--json"], c.address)))
    assert again["resumed_games"] == doc["games"] and again["sprt"] == doc["sprt"]
    assert two.read_bytes() == before


def test_a_worker_node_removed_mid_run_leaves_every_game_exactly_once(cluster, tmp_path):
    c, workers = cluster
    record = tmp_path / "r.pgn"
    p = driver([*TIMED, "--games", "16", "--record", str(record), "--retries", "5"], c.address)
    try:
        wait_for_games(record, 2, p)
        c.remove_node(workers[1])  # its running task is lost; Ray retries it on the other node
        removed_at = len(games(record))
        out = finish(p)
    finally:
        p.kill()
    assert removed_at < 16
    exactly_once(record, 16)
    assert "games 16  A wins" in out, out
    workers[1] = c.add_node(num_cpus=1)
    c.wait_for_nodes()


def test_a_killed_driver_restarted_plays_each_game_once(cluster, tmp_path):
    c, _ = cluster
    record = tmp_path / "r.pgn"
    args = [*TIMED, "--games", "16", "--record", str(record), "--json"]
    p = driver(args, c.address)
    try:
        wait_for_games(record, 3, p)
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
    finally:
        p.kill()
    killed_at = len(games(record))
    assert killed_at < 16
    doc = json.loads(finish(driver(args, c.address)))
    exactly_once(record, 16)
    assert doc["games"] == 16 and doc["resumed_games"] >= killed_at, doc


def test_no_record_and_another_matchs_record_are_refused(tmp_path):
    p = driver(NODE_LIMITED, "local")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 1 and "needs --record FILE" in err and err.count("\n") == 1, err
    record = tmp_path / "r.pgn"
    plateau.run("match", GAME, *NODE_LIMITED, "--games", "2", "--record", str(record), "--json")
    before = record.read_bytes()
    p = driver(["--player", "random", "--player", "random(seed=3)", "--seed", "4", "--record", str(record)], "local")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 1 and err.count("\n") == 1, err
    assert record.read_bytes() == before


# The split solve: 5x4 Breakthrough with two rows of pieces is a first-player loss (solved.json); small budgets so
# that each group takes a few rounds.
SOLVE = "breakthrough(rows=5,columns=4)"
SOLVE_FLAGS = ["--split", "--budget", "2000", "--tt", "16mb"]


def solve_driver(args, address):
    return start("solve", [SOLVE, *args], address)


def test_the_split_solve_on_the_cluster_decides_every_move_as_plateau_solve(cluster, tmp_path):
    c, _ = cluster
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    local = plateau.run("solve", SOLVE, *SOLVE_FLAGS, "--results", str(one), "--json")[-1]
    assert local["result"] == "loss" and not local["undecided_moves"], local
    out = finish(solve_driver([*SOLVE_FLAGS, "--results", str(two), "--json"], c.address))
    doc = json.loads(out[out.index("\n{\n"):])
    for key in ("game", "position", "method", "result", "score", "winning_moves", "undecided_moves"):
        assert doc[key] == local[key], key
    # Each group's moves decided with the same result as on one machine; the lines printed are the file's.
    decided = {j["move"]: j["result"] for j in job_lines(two) if j["result"]}
    assert decided == {j["move"]: j["result"] for j in job_lines(one) if j["result"]}
    printed = [json.loads(line) for line in out.splitlines() if line.startswith('{"')]
    assert [{k: v for k, v in j.items() if k != "seconds"} for j in printed] == \
        [{k: v for k, v in j.items() if k != "seconds"} for j in job_lines(two)]
    # plateau solve continues the cluster's file: everything is decided, nothing searched.
    again = plateau.run("solve", SOLVE, *SOLVE_FLAGS, "--results", str(two), "--json")[-1]
    assert again["result"] == "loss" and again["nodes"] == 0, again


def test_the_split_solve_resumes_from_a_results_file(cluster, tmp_path):
    c, _ = cluster
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    plateau.run("solve", SOLVE, *SOLVE_FLAGS, "--results", str(full), "--json")
    lines = job_lines(full)
    first = next(j for j in lines if j["result"])
    # A file holding one decided group (as a driver killed after its first task leaves it).
    part.write_text("".join(json.dumps(j) + "\n" for j in lines if j["move"] == first["move"]))
    out = finish(solve_driver([*SOLVE_FLAGS, "--results", str(part), "--json"], c.address))
    doc = json.loads(out[out.index("\n{\n"):])
    assert doc["result"] == "loss" and not doc["undecided_moves"], doc
    printed = [json.loads(line) for line in out.splitlines() if line.startswith('{"')]
    assert printed and all(j["move"] != first["move"] for j in printed), "a decided group was solved again"
    # Again: nothing left, nothing printed but the summary.
    out = finish(solve_driver([*SOLVE_FLAGS, "--results", str(part), "--json"], c.address))
    assert not [line for line in out.splitlines() if line.startswith('{"')]
    assert json.loads(out)["nodes"] == 0


def test_the_split_solve_refuses_what_it_cannot_do(tmp_path):
    for args, words in [
        ([*SOLVE_FLAGS], "needs --results FILE"),
        (["--budget", "10", "--results", str(tmp_path / "r.jsonl")], "--split"),
        ([*SOLVE_FLAGS, "--results", str(tmp_path / "r.jsonl"), "--table", "t.bin"], "--table"),
        ([*SOLVE_FLAGS, "--results", str(tmp_path / "r.jsonl"), "--batch", "x"], "--batch"),
    ]:
        p = solve_driver(args, "local")
        out, err = p.communicate(timeout=120)
        assert p.returncode == 1 and words in err and err.count("\n") == 1, (args, err)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    p = solve_driver([*SOLVE_FLAGS, "--results", str(bad)], "local")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 1 and "line 1" in err, err
    assert bad.read_text() == "not json\n"


# Self-play data (plateau tune --save-data): small games on 5x5.
DATA = ["breakthrough(rows=5,columns=5)", "--games", "10", "--nodes", "200", "--random-plies", "2", "--seed", "5"]


def data_driver(args, address):
    return start("datagen", args, address)


def data_of(path):
    """The header line and the records sorted (position, result, value, game)."""
    lines = path.read_text().splitlines()
    return lines[0], sorted(lines[1:])


# The split proof check: on 4x4 with one row of pieces, after a1a2 Black loses and after b1b2 Black wins
# (solved.json); small tables so that each job is quick.
CHECK = "breakthrough(rows=4,columns=4,piece_rows=1)"
CHECK_FLAGS = ["--split-depth", "1", "--tt", "8mb", "--check-memo", "4mb"]


def check_driver(args, address):
    return start("check", [CHECK, *CHECK_FLAGS, *args], address)


def without_seconds(lines):
    return [{k: v for k, v in j.items() if "seconds" not in k} for j in lines]


def test_the_split_check_on_the_cluster_writes_plateau_solves_file(cluster, tmp_path):
    c, _ = cluster
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    local = plateau.run("solve", CHECK, "--check-split", "--moves", "a1a2", *CHECK_FLAGS, "--results", str(one),
                        "--json")[-1]
    assert local["verdict"] == "verified" and local["jobs"] == local["jobs_verified"] > 1, local
    out = finish(check_driver(["--moves", "a1a2", "--results", str(two), "--json"], c.address))
    doc = json.loads(out[out.index("{\n"):])
    for key in ("game", "position", "claim", "split_depth", "verdict", "jobs", "jobs_verified", "failures"):
        assert doc[key] == local[key], key
    # The same plan (first line), and the same job lines but for their seconds (the tasks finish in any order).
    a, b = job_lines(one), job_lines(two)
    assert a[0] == b[0] and "check_plan" in a[0]
    key = lambda j: j["job"]  # noqa: E731
    assert sorted(without_seconds(a[1:]), key=key) == sorted(without_seconds(b[1:]), key=key)
    printed = [json.loads(line) for line in out.splitlines() if line.startswith('{"job"')]
    assert without_seconds(printed) == without_seconds(b[1:])
    # plateau solve continues the cluster's file: nothing left to run.
    again = plateau.run("solve", CHECK, "--check-split", "--moves", "a1a2", *CHECK_FLAGS, "--results", str(two),
                        "--json")[-1]
    assert again["verdict"] == "verified" and again["jobs_this_run"] == 0, again
    # A false claim (after b1b2 Black wins): exit code 1, the failed line in the summary, the file whole.
    wrong = tmp_path / "wrong.jsonl"
    p = check_driver(["--moves", "b1b2", "--results", str(wrong), "--json"], c.address)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 1, err
    doc = json.loads(out[out.index("{\n"):])
    assert doc["verdict"] == "failed" and doc["failures"], doc
    assert all(isinstance(j, dict) for j in job_lines(wrong))
    # Another plan in the file: refused untouched.
    before = two.read_text()
    p = check_driver(["--moves", "d1d2", "--results", str(two)], c.address)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 1 and "another plan" in err and err.count("\n") == 1, err
    assert two.read_text() == before


def test_self_play_data_on_the_cluster_is_plateau_tunes_file_and_resumes(cluster, tmp_path):
    c, _ = cluster
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    plateau.run("tune", *DATA, "--eval", "pst", "--epochs", "1", "--save-data", str(one), "--json")
    doc = json.loads(finish(data_driver([*DATA, "--chunk", "3", "--save-data", str(two), "--json"], c.address)))
    assert doc["played_games"] == 10 and doc["chunks"] == 4 and doc["resumed_games"] == 0, doc
    assert data_of(two) == data_of(one)
    # Cut in the middle of a line (a driver killed while writing): the same command ends with the same records, and
    # plays only the games lost (the last whole game in the file is played again, as plateau tune does).
    text = two.read_text()
    two.write_text(text[: len(text) * 3 // 5])
    doc = json.loads(finish(data_driver([*DATA, "--chunk", "3", "--save-data", str(two), "--json"], c.address)))
    assert 0 < doc["played_games"] < 10 and doc["resumed_games"] + doc["played_games"] == 10, doc
    assert data_of(two) == data_of(one)
    # plateau tune continues the cluster's file: nothing to play, the same records.
    plateau.run("tune", *DATA, "--eval", "pst", "--epochs", "1", "--save-data", str(two), "--json")
    assert data_of(two) == data_of(one)
    # Another run's settings are refused, the file untouched.
    before = two.read_bytes()
    p = data_driver([*DATA[:-1], "6", "--save-data", str(two)], "local")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 1 and "other settings" in err and err.count("\n") == 1, err
    assert two.read_bytes() == before


# SPSA (plateau spsa): node-limited engines on 5x5, two game pairs an iteration (two tasks in parallel).
SPSA = ["breakthrough(rows=5,columns=5)", "--engine", "engine(nodes=300,tt=1mb)", "--params",
        "rfp_margin,futility_margin,cost_capture", "--pairs", "2", "--r-end", "0.05", "--seed", "3"]


def spsa_driver(args, address, base=SPSA):
    return start("spsa", [*base, *args], address)


def checkpoint(out):
    return json.loads(out.with_name(out.name + ".checkpoint").read_text())


def iterations_printed(err):
    return [int(m) for m in re.findall(r"^iteration\s+(\d+)", err, re.M)]


def wait_for_iteration(out, k, proc, timeout=120):
    path = out.with_name(out.name + ".checkpoint")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if json.loads(path.read_text())["iteration"] >= k:
                return
        except (OSError, ValueError):
            pass
        assert proc.poll() is None, proc.communicate()[1]
        time.sleep(0.02)
    raise AssertionError(f"{path}: not at iteration {k} after {timeout} s")


@pytest.fixture(scope="module")
def spsa_reference(tmp_path_factory):
    """plateau spsa's checkpoints and parameters files of 6 and 24 iterations, on one machine."""
    d = tmp_path_factory.mktemp("spsa")
    out = {}
    for n in (6, 24):
        path = d / f"ref{n}.txt"
        plateau.run("spsa", *SPSA, "--iterations", str(n), "--out", str(path))
        out[n] = (checkpoint(path), path.read_text())
    return out


def test_spsa_on_the_cluster_ends_with_plateau_spsas_theta_and_each_resumes_the_other(cluster, spsa_reference,
                                                                                      tmp_path):
    c, _ = cluster
    ref, text = spsa_reference[6]
    two = tmp_path / "two.txt"
    p = spsa_driver(["--iterations", "6", "--out", str(two)], c.address)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    assert checkpoint(two) == ref and two.read_text() == text
    assert out.startswith(f"wrote {two}: ") and iterations_printed(err) == [1, 2, 3, 4, 5, 6], (out, err)
    # The same command again plays nothing.
    p = spsa_driver(["--iterations", "6", "--out", str(two)], c.address)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0 and iterations_printed(err) == [] and "at iteration 6 of 6" in err, err
    # The cluster's slice (--stop-after) continued by plateau spsa --resume, and the command's by the cluster.
    three = tmp_path / "three.txt"
    p = spsa_driver(["--iterations", "6", "--out", str(three), "--stop-after", "2"], c.address)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0 and out.startswith("stopped after iteration 2 of 6"), (out, err)
    plateau.run("spsa", *SPSA, "--iterations", "6", "--out", str(three), "--resume", "--stop-after", "4")
    assert checkpoint(three)["iteration"] == 4
    p = spsa_driver(["--iterations", "6", "--out", str(three)], c.address)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0 and iterations_printed(err) == [5, 6], err
    assert checkpoint(three) == ref and three.read_text() == text


def test_spsa_with_a_killed_driver_restarted_counts_each_iteration_once(cluster, spsa_reference, tmp_path):
    c, _ = cluster
    ref, text = spsa_reference[24]
    out_file = tmp_path / "p.txt"
    args = ["--iterations", "24", "--out", str(out_file)]
    p = spsa_driver(args, c.address)
    try:
        wait_for_iteration(out_file, 2, p)
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
    finally:
        p.kill()
    killed_at = checkpoint(out_file)["iteration"]
    assert 2 <= killed_at < 24 and not out_file.exists()
    p = spsa_driver(args, c.address)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    assert iterations_printed(err) == list(range(killed_at + 1, 25)), err
    assert checkpoint(out_file) == ref and out_file.read_text() == text


def test_spsa_with_a_worker_node_removed_mid_run_still_finishes(cluster, spsa_reference, tmp_path):
    c, workers = cluster
    ref, text = spsa_reference[24]
    out_file = tmp_path / "p.txt"
    p = spsa_driver(["--iterations", "24", "--out", str(out_file), "--retries", "5"], c.address)
    try:
        wait_for_iteration(out_file, 2, p)
        c.remove_node(workers[1])  # its running task is lost; Ray retries it on the other node
        removed_at = checkpoint(out_file)["iteration"]
        out, err = p.communicate(timeout=300)
    finally:
        p.kill()
    assert p.returncode == 0, err
    assert removed_at < 24 and iterations_printed(err) == list(range(1, 25)), err
    assert checkpoint(out_file) == ref and out_file.read_text() == text
    workers[1] = c.add_node(num_cpus=1)
    c.wait_for_nodes()


def test_spsa_refuses_another_runs_checkpoint_and_no_out(tmp_path):
    out_file = tmp_path / "p.txt"
    plateau.run("spsa", *SPSA, "--iterations", "6", "--out", str(out_file), "--stop-after", "1")
    path = out_file.with_name(out_file.name + ".checkpoint")
    before = path.read_bytes()
    p = spsa_driver(["--iterations", "6", "--out", str(out_file), "--seed", "4"], "local", base=SPSA[:-2])
    out, err = p.communicate(timeout=120)
    assert p.returncode == 1 and "from another run" in err and err.count("\n") == 1, err
    assert path.read_bytes() == before and not out_file.exists()
    p = spsa_driver(["--iterations", "6"], "local")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 1 and "needs --out FILE" in err and err.count("\n") == 1, err


# The split check at depth 2 on 5x4 with one row (a first-player win): 11 choices (df-pn solves) and about 40 jobs,
# enough that a driver is stopped while the plan is still being made.
PLAN = "breakthrough(rows=5,columns=4,piece_rows=1)"
PLAN_FLAGS = ["--split-depth", "2", "--tt", "8mb", "--check-memo", "4mb"]


def plan_driver(args, address):
    return start("check", [PLAN, *PLAN_FLAGS, *args], address)


def wait_for_lines(path, n, proc, timeout=120):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() and path.read_text().count("\n") >= n:
            return
        assert proc.poll() is None, proc.communicate()[1]
        time.sleep(0.01)
    raise AssertionError(f"{path}: fewer than {n} lines after {timeout} s")


def test_a_split_check_driver_killed_mid_plan_makes_each_choice_and_job_once(cluster, tmp_path):
    c, _ = cluster
    results = tmp_path / "plan.jsonl"
    choices = tmp_path / "plan.jsonl.choices"
    p = plan_driver(["--results", str(results), "--json"], c.address)
    wait_for_lines(choices, 3, p)  # the header and two choices: the plan is not complete
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert not results.exists() or not results.read_text().startswith('{"check_plan"'), "killed too late"
    kept = [json.loads(line) for line in choices.read_text().splitlines()[1:] if line.endswith("}")]
    out = finish(plan_driver(["--results", str(results), "--json"], c.address))
    doc = json.loads(out[out.index("{\n"):])
    assert doc["verdict"] == "verified" and doc["plan_complete"], doc
    # Each choice made once: the restart made only those the first run had not recorded.
    side = [json.loads(line) for line in choices.read_text().splitlines()[1:]]
    made = [x["line"] for x in side if "line" in x]
    assert len(made) == len(set(made)) == doc["choices"], side
    assert doc["choices_this_run"] == doc["choices"] - sum(1 for x in kept if "line" in x), doc
    # Each job once in the results file, every one of the plan's, all verified.
    lines = job_lines(results)
    plan = lines[0]["check_plan"]
    ids = [j["job"] for j in lines[1:]]
    assert sorted(ids) == sorted(plan["jobs"]) and len(ids) == len(set(ids)) == doc["jobs"], ids
    early = sum(1 for x in kept if "job" in x)
    assert doc["jobs_this_run"] == doc["jobs"] - early, (doc, early)
    # The command reads the cluster's files and finds nothing left; the verdict is the command's on a fresh file.
    again = plateau.run("solve", PLAN, "--check-split", *PLAN_FLAGS, "--results", str(results), "--json")[-1]
    assert again["verdict"] == "verified" and again["jobs_this_run"] == again["choices_this_run"] == 0, again
    local = plateau.run("solve", PLAN, "--check-split", *PLAN_FLAGS, "--results", str(tmp_path / "local.jsonl"),
                        "--json")[-1]
    assert local["verdict"] == doc["verdict"], local


def test_sigint_stops_a_cluster_driver_within_seconds_and_keeps_what_finished(cluster, tmp_path):
    c, _ = cluster
    results = tmp_path / "stop.jsonl"
    choices = tmp_path / "stop.jsonl.choices"
    p = plan_driver(["--results", str(results)], c.address)
    wait_for_lines(choices, 2, p)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    took = time.monotonic() - sent
    assert p.returncode == 130, err
    assert took < 5, f"{took:.1f} s to stop"
    assert "interrupted (SIGINT)" in err and "kept" in err, err
    # What finished is kept: the same command finishes from it.
    kept = choices.read_text().count("\n") - 1
    out = finish(plan_driver(["--results", str(results), "--json"], c.address))
    doc = json.loads(out[out.index("{\n"):])
    assert doc["verdict"] == "verified" and doc["choices_this_run"] <= doc["choices"] - min(kept, 1), doc
