"""Qubic's split solve on a real local Ray cluster (conftest.py's fixture: a head without CPUs and two worker nodes of
one CPU each), driven by `python -m plateau.cluster solve qubic --split` as a user runs it, on the 3x3x3 cube
(`qubic(size=3)`, a first-player win):

- the jobs run as Ray tasks prove the win as `plateau solve --split` does (the same plan, the same job results), the
  lines printed are the results file's, the merged proof is written and checked with the rules alone (and checks
  again with `plateau solve --check-proof`); the same command again runs nothing, and `plateau solve` finds nothing
  left in the cluster's file;
- a results file left with open jobs (stopped by --max-nodes) goes on from the jobs' tables, and a job disproven
  (after the corner 1a1, O in the centre) decides the split and stops the driver;
- a job stopped by SIGINT mid-run on the 4x4x4 cube goes on from the table it saved (--save-every);
- what the split cannot do is refused in one line, a results file that is not one untouched.

Needs ray (`.ci/run` installs it)."""

import json
import signal
import time

import pytest

import plateau

from cluster_run import finish, job_lines, start

pytest.importorskip("ray.cluster_utils", reason="ray is required (.ci/run installs it)")

Q3 = "qubic(size=3)"


def driver(args, address):
    return start("solve", args, address)


def summary(out):
    """The summary: the (indented) JSON document of --json after the job lines."""
    return json.loads(out[out.index("{\n"):])


def printed(out):
    """The job lines printed (one JSON object a line)."""
    return [json.loads(line) for line in out.splitlines() if line.startswith('{"')]


def without_times(lines):
    return [{k: v for k, v in j.items() if k not in ("seconds", "cpu_seconds")} for j in lines]


def test_the_qubic_split_on_the_cluster_is_proven_and_checked_as_plateau_solve(cluster, tmp_path):
    c, _ = cluster
    one, two = tmp_path / "one.jobs", tmp_path / "two.jobs"
    proof_one, proof_two = tmp_path / "one.proof", tmp_path / "two.proof"
    local = plateau.run("solve", Q3, "--split", "--results", str(one), "--proof", str(proof_one), "--check",
                        "--json")[-1]
    assert local["result"] == "win" and local["proof_check"]["verified"], local
    args = [Q3, "--split", "--results", str(two), "--proof", str(proof_two), "--check", "--json"]
    out = finish(driver(args, c.address))
    doc = summary(out)
    for key in ("game", "position", "method", "result", "score", "first_move", "stabiliser", "answers", "jobs",
                "proven_jobs", "failed_jobs", "undecided_jobs", "jobs_run", "nodes", "proof_positions"):
        assert doc[key] == local[key], key
    assert doc["proof_check"]["verified"] is True, doc
    assert doc["proof_check"]["or_positions"] == local["proof_check"]["or_positions"], doc
    # Each job ran once, as a Ray task, with the command's result; the lines printed are the file's.
    lines = job_lines(two)
    assert sorted(j["answer"] for j in lines) == sorted(j["answer"] for j in job_lines(one))
    assert {j["answer"]: j["result"] for j in lines} == {j["answer"]: j["result"] for j in job_lines(one)}
    assert without_times(printed(out)) == without_times(lines)
    assert all(j["cpu_seconds"] is not None for j in lines), lines
    # The merged proof checks again, alone, from its file.
    check = plateau.run("solve", Q3, "--check-proof", str(proof_two), "--json")[-1]
    assert check["check"]["verified"] is True and check["positions"] == doc["proof_positions"], check
    # The same command again: every job decided, none run, nothing printed but the summary; the proof merged and
    # checked again.
    out = finish(driver(args, c.address))
    assert not printed(out), out
    again = summary(out)
    assert again["jobs_run"] == 0 and again["nodes"] == 0 and again["result"] == "win", again
    assert again["proof_check"]["verified"] is True, again
    # plateau solve continues the cluster's file: nothing left to run.
    cli = plateau.run("solve", Q3, "--split", "--results", str(two), "--proof", str(proof_two), "--check",
                      "--json")[-1]
    assert cli["result"] == "win" and cli["jobs_run"] == 0, cli
    assert len(job_lines(two)) == len(lines)


def test_open_jobs_go_on_from_their_tables_and_a_disproven_job_stops_the_driver(cluster, tmp_path):
    c, _ = cluster
    results = tmp_path / "corner.jobs"
    base = [Q3, "--split", "--split-first", "1a1", "--results", str(results), "--json"]
    # One expansion a job: the threat sequences prove 8 of the 9 jobs at once; O in the centre is left open.
    out = finish(driver([*base, "--max-nodes", "1"], c.address))
    first = summary(out)
    assert first["jobs"] == 9 and first["proven_jobs"] == 8 and first["undecided_jobs"] == ["2b2"], first
    assert len(job_lines(results)) == 9
    # Without the limit: only the open job runs, from its table, to the disproof: the corner does not win.
    out = finish(driver(base, c.address))
    doc = summary(out)
    assert doc["result"] == "first-move-fails" and doc["failed_jobs"] == ["2b2"], doc
    ran = printed(out)
    assert [j["answer"] for j in ran] == ["2b2"], ran
    assert ran[0]["result"] == "no-win" and ran[0]["earlier_nodes"] == 1, ran
    # The command reads the cluster's file: the first move fails, no job run.
    cli = plateau.run("solve", *base)[-1]
    assert cli["result"] == "first-move-fails" and cli["jobs_run"] == 0, cli


def test_a_job_stopped_by_sigint_goes_on_from_the_table_it_saved(cluster, tmp_path):
    c, _ = cluster
    results = tmp_path / "q4.jobs"
    base = ["qubic", "--split", "--results", str(results), "--tt", "16mb", "--save-every", "1", "--json"]
    p = driver([*base, "--max-seconds", "120"], c.address)
    # Wait for a job's table: the jobs are under way on the workers and have saved once.
    end = time.monotonic() + 120
    while not list(tmp_path.glob("q4.jobs.*.table")):
        assert p.poll() is None, p.communicate()[1]
        assert time.monotonic() < end, "no table saved"
        time.sleep(0.2)
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "interrupted (SIGINT)" in err and err.count("\n") == 1, err
    tables = sorted(t.name.split(".")[2] for t in tmp_path.glob("q4.jobs.*.table"))
    assert tables, "the tables saved are kept"
    # The same jobs again, one expansion each: the interrupted ones go on from their tables.
    out = finish(driver([*base, "--max-nodes", "1"], c.address))
    lines = {j["answer"]: j for j in printed(out)}
    assert summary(out)["result"] == "unknown"
    for answer in tables:
        assert lines[answer]["earlier_nodes"] > 0, lines[answer]


def test_what_the_qubic_split_cannot_do_is_refused_in_one_line(tmp_path):
    r = str(tmp_path / "r.jobs")
    for args, words in [
        ([Q3, "--split"], "--results"),
        ([Q3, "--results", r], "--split"),
        ([Q3, "--split", "--results", r, "--table", "t.table"], "--table"),
        ([Q3, "--split", "--results", r, "--budget", "10"], "--budget"),
        ([Q3, "--split", "--results", r, "--check"], "--proof"),
        ([Q3, "--split", "--results", r, "--split-first", "9z9"], "--split-first"),
        ([Q3, "--split", "--results", r, "--batch", "x"], "--batch"),
    ]:
        p = driver(args, "local")
        _, err = p.communicate(timeout=120)
        assert p.returncode == 1 and words in err and err.count("\n") == 1, (args, err)
    bad = tmp_path / "bad.jobs"
    bad.write_text("not a job\n")
    p = driver([Q3, "--split", "--results", str(bad)], "local")
    _, err = p.communicate(timeout=120)
    assert p.returncode == 1 and "line 1" in err, err
    assert bad.read_text() == "not a job\n"
