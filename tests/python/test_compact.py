"""Compact tables (format version 3: 4 bits per entry against the Manhattan bound, what `pdbgen
build` writes by default for single-tile-metric sets): the module opens them raw (memory-mapped)
and zstd, gets the same heuristic values as from the byte tables they were converted from, and
the same answers as the solver reading the same files."""

import os
import subprocess

import numpy as np
import pytest

import loyd
from conftest import plain_env, run_solver
from test_solve import KORF_EASY, cli_records, record


@pytest.fixture(scope="module")
def pdbgen():
    """The pdbgen that converts the tables (LOYD_PDBGEN); skips without it."""
    path = os.environ.get("LOYD_PDBGEN", "")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("LOYD_PDBGEN does not name the pdbgen program")
    return path


@pytest.fixture(scope="module")
def compact(pdbgen, root, tmp_path_factory):
    """{(set, encoding): folder} of data/8-4-4 and data/15-5-5-5 converted to compact entries,
    raw and zstd, each checked to be compact by `pdbgen info`."""
    base = tmp_path_factory.mktemp("compact")
    sets = {}
    for name in ("8-4-4", "15-5-5-5"):
        for command, encoding in (("unpack", "raw"), ("pack", "zstd")):
            out = base / f"{name}-{encoding}"
            subprocess.run([pdbgen, command, str(root / "data" / name), str(out), "--entries", "compact"],
                           check=True, capture_output=True, env=plain_env())
            for table in out.glob("*.pdb"):
                info = subprocess.run([pdbgen, "info", str(table)], check=True, capture_output=True,
                                      text=True, env=plain_env()).stdout
                assert "compact" in info and encoding in info, info
            sets[name, encoding] = out
    return sets


@pytest.mark.parametrize("encoding", ["raw", "zstd"])
def test_compact_tables_give_the_byte_tables_values(compact, root, encoding):
    for name, size in (("8-4-4", (3, 3)), ("15-5-5-5", (4, 4))):
        byte = loyd.Tables.open(root / "data" / name)
        small = loyd.Tables.open(compact[name, encoding])
        assert small != byte and small.name == byte.name and small.entries == byte.entries
        assert small.patterns == byte.patterns
        boards = loyd.scramble(3000, size, seed=23)
        for lookups in ("all", "regular", None):
            want = loyd.heuristic_values(boards, tables=byte, lookups=lookups)
            got = loyd.heuristic_values(boards, tables=small, lookups=lookups)
            assert got.dtype == np.int32 and (got == want).all(), (name, lookups)
            assert (got >= 0).all() and got.mean() > 10  # solvable positions, real bounds
        unverified = loyd.Tables.open(compact[name, encoding], verify=False)  # headers checked only
        assert (loyd.heuristic_values(boards, tables=unverified) == want).all()


def test_compact_tables_solve_as_the_solver(solver, compact):
    tables = compact["15-5-5-5", "raw"]
    boards = list(KORF_EASY.values())
    expected = cli_records(solver, boards, ["--goal", "blank-first", "--pdb", str(tables)])
    got = [record(loyd.solve(b, goal="blank-first", tables=tables, threads=1)) for b in boards]
    assert got == expected and all(e["heuristic"] == "pdb:15-5-5-5" for e in expected)
    zstd = loyd.solve_many(boards, goal="blank-first", tables=compact["15-5-5-5", "zstd"], threads=2)
    assert list(zstd.lengths) == [e["length"] for e in expected]
    assert list(zstd.nodes) == [e["nodes_generated"] for e in expected]


def test_compact_tables_are_optimal_against_bfs(solver, compact, bfs3x3):
    boards = loyd.scramble(200, (3, 3), seed=5)
    r = loyd.solve_many(boards, tables=compact["8-4-4", "raw"], moves=True)
    assert (r.status == loyd.SOLVED).all()
    assert list(r.lengths) == [bfs3x3[tuple(int(t) for t in b)] for b in boards]
    recs, _ = run_solver(solver, ["--json", "-j", "2", "--pdb", str(compact["8-4-4", "raw"])],
                         stdin="".join(" ".join(map(str, b)) + "\n" for b in boards))
    recs = [x for x in recs if "summary" not in x]
    assert r.moves == [x["moves"] for x in recs] and list(r.nodes) == [x["nodes_generated"] for x in recs]


def test_a_damaged_compact_table_is_refused(compact, tmp_path):
    src = compact["8-4-4", "raw"]
    for f in src.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    table = sorted(tmp_path.glob("*.pdb"))[0]
    data = bytearray(table.read_bytes())
    data[-1] ^= 0x10  # an entry of the payload, past the header
    table.write_bytes(bytes(data))
    with pytest.raises(loyd.FileError, match=table.name):
        loyd.Tables.open(tmp_path)
