"""What the cluster tests share (`test_cluster*.py`): a `python -m plateau.cluster COMMAND` driver started as its own
process, as a user starts it, its end, and the JSON lines of a results file."""

import json
import subprocess
import sys


def start(command, args, address, **kw):
    """`python -m plateau.cluster COMMAND ARGS --address ADDRESS`, its output captured as text."""
    cmd = [sys.executable, "-m", "plateau.cluster", command, *args, "--address", address]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def finish(p, timeout=300):
    """The driver's standard output once it has ended; its standard error in the failure if it did not succeed."""
    out, err = p.communicate(timeout=timeout)
    assert p.returncode == 0, err
    return out


def job_lines(path):
    """A results file's lines, one JSON object each."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
