"""The examples run (with small arguments) and print what they promise."""

import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def run(script, *args):
    out = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_play_game():
    out = run("play_game.py", "--game", "tic_tac_toe", "--engine", "alphabeta(depth=9)")
    assert "returns" in out and "returns [1.0, -1.0]" not in out  # the random first player never beats alpha-beta


def test_compare_bots():
    out = run("compare_bots.py", "--game", "tic_tac_toe", "--a", "alphabeta(depth=9)", "--b", "random", "--games", "2")
    assert "Python loop" in out and "plateau.match" in out and "B wins 0" in out


def test_train_value():
    out = run("train_value.py", "--positions", "300", "--playouts", "32", "--games", "2")
    assert "test MSE" in out and "learned evaluation" in out


def test_bench_runs():
    pytest.importorskip("pyspiel")
    out = subprocess.run([sys.executable, str(EXAMPLES.parent / "bench.py"), "--seconds", "0.2", "--games",
                          "tic_tac_toe"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "| tic_tac_toe |" in out.stdout
