"""Shared set-up of the Python module's tests (run by ctest as `python`, or by hand:
PYTHONPATH=build/python/lib/python3/dist-packages LOYD_SOLVER=build/solver \
    LOYD_PDBGEN=build/pdbgen /usr/bin/python3 -m pytest tests/python).

Every test runs with a scratch HOME, XDG_DATA_HOME and XDG_CACHE_HOME and no LOYD_PDB_PATH, set
before loyd is imported, so the module and the solver it is compared with discover the same
tables (the repository's data/, through the build tree's loyd-pdb-path) and nothing of the user's.
"""

import atexit
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # puzzle_oracle: the independent BFS oracle

_scratch = tempfile.mkdtemp(prefix="loyd-pytest-")
atexit.register(shutil.rmtree, _scratch, ignore_errors=True)  # the scratch folders, caches included
for var, sub in (("HOME", "home"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache")):
    os.environ[var] = os.path.join(_scratch, sub)
os.environ.pop("LOYD_PDB_PATH", None)

import loyd  # noqa: E402  (after the environment is set)


def solver_path():
    return os.environ.get("LOYD_SOLVER", "")


@pytest.fixture(scope="session")
def solver():
    """The solver program the results are compared with (LOYD_SOLVER); skips without it."""
    path = solver_path()
    if not path or not os.access(path, os.X_OK):
        pytest.skip("LOYD_SOLVER does not name the solver program")
    return path


def plain_env():
    """The environment for programs other than Python: without the sanitizer runtime a run under
    AddressSanitizer preloads for the module (docs/python.md)."""
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def run_solver(solver, args, stdin=None, check=True):
    """The solver's --json records (a list of dicts) and its exit status."""
    p = subprocess.run([solver, *args], input=stdin, capture_output=True, text=True, timeout=300,
                       env=plain_env())
    if check and p.returncode not in (0, 1, 3):
        raise AssertionError(f"solver {args} exited {p.returncode}: {p.stderr}")
    records = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    return records, p.returncode


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def bfs3x3():
    """Exact distance to 1 2 3/4 5 6/7 8 0 of every 3x3 position (181,440)."""
    import puzzle_oracle

    return puzzle_oracle.bfs(3, 3, list(range(1, 9)) + [0])
