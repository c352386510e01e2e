"""docs/python.md stays true: its board snippet runs as written, and its complete dataset
example runs (with 8 positions and the shipped 15-5-5-5 tables instead of 100,000 and 15-7-8)
and writes the positions with their optimal distances, which the solver confirms."""

import os
import re
import subprocess
import sys

import numpy as np

import loyd
from conftest import run_solver


def block_after(root, heading):
    text = (root / "docs/python.md").read_text()
    section = text[text.index(heading):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_board_snippet(root):
    code = block_after(root, "## Boards and goals")
    env = {"loyd": loyd}
    exec(compile(code, "docs/python.md", "exec"), env)
    b = env["b"]
    assert b.apply("RD") == b.apply("LU", notation="tile") == loyd.Board.blank_last((4, 3))


def test_dataset_example(root, tmp_path, solver):
    code = block_after(root, "## Example: a dataset")
    assert "N = 100_000" in code
    script = tmp_path / "make_dataset.py"
    script.write_text(code.replace("N = 100_000", "N = 8"))
    env = dict(os.environ)  # the script runs elsewhere: a relative PYTHONPATH made absolute
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(d) for d in env.get("PYTHONPATH", "").split(os.pathsep) if d)
    p = subprocess.run([sys.executable, str(script), str(root / "data/15-5-5-5")], cwd=tmp_path,
                       capture_output=True, text=True, timeout=600, env=env)
    assert p.returncode == 0, p.stderr
    assert "tables 15-5-5-5" in p.stderr and "8 positions, mean distance" in p.stderr
    d = np.load(tmp_path / "dataset.npz")
    assert d["positions"].shape == (8, 16) and d["positions"].dtype == np.uint8
    assert d["distances"].dtype == np.uint8
    assert np.array_equal(d["positions"], loyd.scramble(8, (4, 4), seed=2024))
    recs, _ = run_solver(solver, ["--json", "-j", "2", "--pdb", str(root / "data/15-5-5-5")],
                         stdin="".join(" ".join(map(str, r)) + "\n" for r in d["positions"]))
    assert list(d["distances"]) == [r["length"] for r in recs if "summary" not in r]
    assert (d["heuristic"] <= d["distances"]).all()
