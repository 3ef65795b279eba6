"""The typed stubs are checked: mypy accepts the package, the examples and a typed usage script, and rejects a
misuse the stubs describe (so the check can fail). Needs mypy (`.ci/run` installs it)."""

import pathlib
import shutil
import subprocess
import sys

from mypy import api

HERE = pathlib.Path(__file__).resolve().parent
PYTHON = HERE.parent
CACHE = PYTHON / "target" / "mypy_cache"


def mypy(*paths):
    out, err, status = api.run(["--cache-dir", str(CACHE), "--no-error-summary", "--ignore-missing-imports",
                                "--python-version", f"{sys.version_info.major}.{sys.version_info.minor}", *paths])
    return status, out + err


def test_stubs_examples_and_typed_usage_check(tmp_path):
    import plateau
    package = pathlib.Path(plateau.__file__).parent
    # The stub and the package's module, checked from a copy: given by their paths inside site-packages (a `pip
    # install`, not an editable one), mypy would take site-packages for a source folder of the project and refuse
    # the modules there that shadow its own (typing_extensions).
    copy = tmp_path / "plateau"
    copy.mkdir()
    for name in ("_plateau.pyi", "__init__.py", "py.typed", "tournament.py"):
        shutil.copy(package / name, copy / name)
    shutil.copytree(package / "cluster", copy / "cluster", ignore=shutil.ignore_patterns("__pycache__"))
    modules = [copy / "_plateau.pyi", copy / "__init__.py", copy / "tournament.py",
               *sorted((copy / "cluster").glob("*.py"))]
    status, out = mypy("--strict", *map(str, modules))
    assert status == 0, out
    status, out = mypy("--strict", str(HERE / "typed_usage.py"))
    assert status == 0, out
    status, out = mypy(*sorted(str(p) for p in (PYTHON / "examples").glob("*.py")))
    assert status == 0, out


def test_mypy_rejects_a_misuse(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import plateau\ns = plateau.load_game('chess').new_initial_state()\ns.apply_action('e2e4')\n"
                   "n: str = s.legal_actions()\n")
    status, out = mypy(str(bad))
    assert status == 1, out
    assert out.count("error:") == 2 and "bad.py:3" in out and "bad.py:4" in out, out


def test_typed_usage_runs():
    out = subprocess.run([sys.executable, str(HERE / "typed_usage.py")], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
