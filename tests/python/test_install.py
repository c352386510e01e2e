"""The installed package, as a user gets it: `cmake --install` of the build tree into a scratch
prefix, the prefix then moved; /usr/bin/python3 with PYTHONPATH=PREFIX/lib/python3/dist-packages
imports it, the module finds the tables installed beside it (PREFIX/share/loyd/pdb) from its own
location, and no path of the build or source tree is compiled into it."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import loyd
from conftest import plain_env


@pytest.fixture(scope="module")
def moved(tmp_path_factory, root):
    build = os.environ.get("LOYD_BUILD_DIR")
    if not build:
        pytest.skip("LOYD_BUILD_DIR does not name the build tree")
    tmp = tmp_path_factory.mktemp("install")
    for component in ("python", "runtime"):
        subprocess.run(["cmake", "--install", build, "--prefix", str(tmp / "prefix"), "--component", component],
                       check=True, capture_output=True, env=plain_env())
    shutil.move(tmp / "prefix", tmp / "moved")
    return tmp / "moved"


def package_dir(prefix):
    dirs = list(prefix.glob("lib/python3*/*-packages/loyd"))
    assert len(dirs) == 1, dirs
    return dirs[0]


def test_installed_files(moved):
    pkg = package_dir(moved)
    assert pkg.relative_to(moved).as_posix() == "lib/python3/dist-packages/loyd"
    names = sorted(p.name for p in pkg.iterdir())
    assert {"__init__.py", "_loyd.pyi", "py.typed"} <= set(names)
    assert any(n.startswith("_loyd.cpython-") and n.endswith(".so") for n in names)
    assert (moved / "share/loyd/pdb/8-4-4/manifest.txt").exists()


def test_moved_prefix_imports_and_finds_its_tables(moved, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("LOYD_PDB_PATH", "PYTHONPATH")}
    env.update(PYTHONPATH=str(package_dir(moved).parent), HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "d"),
               XDG_CACHE_HOME=str(tmp_path / "c"))
    code = ("import loyd, numpy; print(loyd.__file__); print(loyd.Tables.find(size=(3, 3)).path); "
            "print(loyd.solve('8 6 7/2 5 4/3 0 1').heuristic); print(loyd.Tables.search_path()[-1]); "
            "print(int(loyd.solve_many(loyd.scramble(5, (4, 4), 1)).lengths.min() > 0))")
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    file, tables, heuristic, last_dir, solved = p.stdout.splitlines()
    assert pathlib.Path(file).resolve().is_relative_to(moved.resolve())
    assert pathlib.Path(tables).resolve() == (moved / "share/loyd/pdb/8-4-4").resolve()
    assert heuristic == "pdb:8-4-4"
    assert pathlib.Path(last_dir).resolve() == (moved / "share/loyd/pdb").resolve()  # no build-tree folder
    assert solved == "1"


def test_no_build_tree_path_is_compiled_in(moved, root):
    build = os.environ["LOYD_BUILD_DIR"]
    so = next(package_dir(moved).glob("_loyd*.so")).read_bytes()
    for path in {str(root), str(pathlib.Path(build).resolve()), build}:
        assert path.encode() not in so, path
