"""The package's surface: everything public is documented (what help() shows), the stubs
(loyd/_loyd.pyi) name exactly what the extension defines, and the exception hierarchy is the
documented one. With mypy installed (Debian's mypy), the stubs also pass stubtest and a
script using the API type-checks."""

import ast
import inspect
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import loyd
from loyd import _loyd

STUB = pathlib.Path(_loyd.__file__).with_name("_loyd.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text())
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        if isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names, members


def test_stubs_name_what_the_extension_defines():
    names, members = stub_names()
    runtime = {n for n in dir(_loyd) if not n.startswith("__") or n == "__version__"}
    assert names - {"_Size", "_Goal"} == runtime
    for cls in ("Board", "Tables"):
        public = {n for n in vars(getattr(_loyd, cls)) if not n.startswith("_")}
        assert public <= members[cls], public - members[cls]


def test_everything_public_is_documented():
    for name in loyd.__all__:
        obj = getattr(loyd, name)
        if isinstance(obj, int):
            continue
        assert inspect.getdoc(obj), name
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for attr, member in vars(obj).items():
                if not attr.startswith("_") and callable(member):
                    assert inspect.getdoc(member), f"{name}.{attr}"
    text = subprocess.run([sys.executable, "-c", "import loyd; help(loyd.solve_many); help(loyd.Board)"],
                          capture_output=True, text=True, check=True).stdout
    assert "GIL released" in text and "from_list" in text and "Raises InvalidInputError" in text


def test_exception_hierarchy():
    assert issubclass(loyd.Error, Exception)
    for cls, extra in ((loyd.InvalidInputError, ValueError), (loyd.UsageError, ValueError),
                       (loyd.UnsolvableError, ValueError), (loyd.FileError, OSError),
                       (loyd.LimitError, loyd.Error), (loyd.InternalError, loyd.Error)):
        assert issubclass(cls, loyd.Error) and issubclass(cls, extra), cls
        assert cls.__module__ == "loyd" and cls.__doc__
    e = loyd.LimitError("x")
    assert e.nodes is None and e.reason is None and e.lower_bound is None


def test_import_does_not_load_numpy():
    code = "import sys, loyd; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.skipif(shutil.which("mypy") is None and subprocess.run(
    [sys.executable, "-c", "import mypy"], capture_output=True).returncode != 0, reason="mypy is not installed")
def test_stubs_with_mypy(tmp_path):
    pkg = str(pathlib.Path(loyd.__file__).parent.parent)
    # pybind11's own metaclass, and the constructor Tables does not have (Tables.open makes one)
    allow = tmp_path / "allow.txt"
    allow.write_text("loyd._loyd.Board\nloyd._loyd.Tables\nloyd._loyd.Tables.__init__\n")
    p = subprocess.run([sys.executable, "-m", "mypy.stubtest", "loyd._loyd", "--allowlist", str(allow)],
                       capture_output=True, text=True, cwd=pkg, env=dict(os.environ, PYTHONPATH=pkg,
                                                                        HOME=str(tmp_path)))
    assert p.returncode == 0, p.stdout + p.stderr
    script = tmp_path / "use.py"
    script.write_text(
        "import loyd\n"
        "b: loyd.Board = loyd.Board('1 2 3/4 5 6/7 0 8')\n"
        "s: loyd.Solution = loyd.solve(b, goal='blank-last', threads=1)\n"
        "n: int = s.length + len(b) + b.width\n"
        "r = loyd.solve_many(loyd.scramble(3, (3, 3), 1), moves=True)\n"
        "t = loyd.Tables.find(b)\n"
        "name: str = t.name if t is not None else ''\n")
    p = subprocess.run([sys.executable, "-m", "mypy", "--strict", str(script)], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=pkg, HOME=str(tmp_path),
                                MYPY_CACHE_DIR=str(tmp_path / "cache")))
    assert p.returncode == 0, p.stdout + p.stderr
