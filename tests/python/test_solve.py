"""solve, distance, check, all_solutions and count_solutions: the solver's answers on the same
inputs (its --json records, the same options, one thread), optimal lengths against a full BFS,
and the typed exceptions the solver's exit statuses correspond to."""

import itertools
import os
import pathlib
import pickle
import random
import shutil
import subprocess
import warnings

import numpy
import pytest

import loyd
import puzzle_oracle
from conftest import plain_env, run_solver

KORF_EASY = {  # Korf's instances 2, 4, 5, 6 and 8 (goal blank-first): quick with 15-5-5-5
    "korf-2": "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6",
    "korf-4": "5 12 10 7 15 11 14 0 8 2 1 13 3 4 9 6",
    "korf-5": "4 7 14 13 10 3 9 12 11 5 6 15 1 2 8 0",
    "korf-6": "14 7 1 9 12 3 6 15 8 11 2 5 10 0 4 13",
    "korf-8": "12 11 15 3 8 0 4 2 6 13 9 5 14 1 10 7",
}


def positions(w, h, n, seed, goal="blank-last"):
    return [loyd.Board.from_list(list(r), w, h) for r in loyd.scramble(n, (w, h), seed, goal=goal)]


def record(sol):
    """The solver's --json record of a Solution, without what varies between runs."""
    d = sol.to_dict()
    d.pop("seconds")
    return d


def cli_records(solver, boards, args):
    recs, status = run_solver(solver, ["--json", "-j", "1", *args],
                              stdin="".join(f"{b}\n" for b in boards))
    out = []
    for r in recs:
        if "summary" in r:
            continue
        for k in ("label", "seconds"):
            r.pop(k, None)
        out.append(r)
    return out


CASES = [  # (size, goal, solve() keywords, the solver's options)
    ((3, 3), "blank-last", {}, []),
    ((3, 3), "blank-last", dict(heuristic="linear-conflict"), ["--heuristic", "linear-conflict"]),
    ((3, 3), "blank-last", dict(heuristic="manhattan", algorithm="astar"),
     ["--heuristic", "manhattan", "--algorithm", "astar"]),
    ((3, 3), "blank-last", dict(heuristic="walking-distance"), ["--heuristic", "walking-distance"]),
    ((3, 3), "blank-last", dict(heuristic="misplaced", prune=False), ["--heuristic", "misplaced", "--no-prune"]),
    ((3, 3), "blank-first", dict(tables="data/8-fringe"), ["--pdb", "data/8-fringe"]),
    ((3, 3), "blank-last", dict(tables="data/8-4-4", lookups="all"), ["--pdb", "data/8-4-4", "--lookups", "all"]),
    ((3, 3), "blank-last", dict(metric="mtm"), ["--metric", "mtm"]),
    ((3, 3), "blank-last", dict(metric="mtm", tables="data/8-mtm-fringe"), ["--metric", "mtm", "--pdb", "data/8-mtm-fringe"]),
    ((4, 3), "blank-last", {}, []),
    ((2, 5), "blank-first", dict(heuristic="manhattan", metric="mtm"), ["--heuristic", "manhattan", "--metric", "mtm"]),
]


@pytest.mark.parametrize("size, goal, kw, args", CASES)
def test_solve_equals_the_solver(solver, root, size, goal, kw, args):
    kw = {k: (str(root / v) if k == "tables" else v) for k, v in kw.items()}
    args = [str(root / a) if a.startswith("data/") else a for a in args]
    boards = positions(*size, 12, seed=sum(size), goal=goal)
    expected = cli_records(solver, boards, ["--goal", goal, *args])
    got = [record(loyd.solve(b, goal=goal, threads=1, **kw)) for b in boards]
    assert got == expected


def test_korf_instances_with_tables_equal_the_solver(solver, root):
    tables = loyd.Tables.open(root / "data/15-5-5-5")
    boards = list(KORF_EASY.values())
    expected = cli_records(solver, boards, ["--goal", "blank-first", "--pdb", str(root / "data/15-5-5-5")])
    got = [record(loyd.solve(b, goal="blank-first", tables=tables, threads=1)) for b in boards]
    assert got == expected
    # discovery finds the same set (the repository's data/) without being told
    assert loyd.solve(boards[0], goal="blank-first", threads=1).heuristic == "pdb:15-5-5-5"
    # split over threads: the same optimal length
    assert loyd.solve(boards[0], goal="blank-first", threads=2).length == expected[0]["length"]


def test_optimal_against_bfs(bfs3x3):
    goal = list(range(1, 9)) + [0]
    rng = random.Random(7)
    states = list(bfs3x3)
    for heuristic, algorithm in itertools.product(
            [None, "misplaced", "manhattan", "linear-conflict", "walking-distance"], ["ida", "astar"]):
        for _ in range(8):
            start = rng.choice(states)
            s = loyd.solve(list(start), heuristic=heuristic, algorithm=algorithm, threads=1)
            assert s.length == bfs3x3[start], (heuristic, algorithm, start)
            assert puzzle_oracle.replay(3, 3, start, goal, s.moves) is None
            assert s.states()[0] == loyd.Board(list(start)) and s.states()[-1] == s.goal
            assert len(s.states()) == s.length + 1
            assert loyd.distance(list(start), heuristic=heuristic) <= s.length


def test_solution_fields_and_notations():
    s = loyd.solve("1 2 3/4 5 6/0 7 8", threads=1)
    assert (s.length, s.moves, s.tile_moves, s.length_stm) == (2, "RR", "L2", 2)
    assert s.format_moves("tile", runs=False) == "LL" and s.format_moves("blank", runs=True) == "R2"
    assert s.start == loyd.Board("1 2 3/4 5 6/0 7 8") and s.goal == loyd.Board.blank_last((3, 3))
    assert s.nodes >= s.nodes_expanded >= 0 and s.seconds >= 0 and s.threads == 1
    m = loyd.solve("1 2 3/4 5 6/0 7 8", metric="mtm")
    assert (m.length, m.moves, m.length_stm, m.metric) == (1, "R2", 2, "mtm")
    assert [str(b) for b in m.states()] == ["1 2 3/4 5 6/0 7 8", "1 2 3/4 5 6/7 8 0"]
    g = loyd.solve("A B C/D _ F/G E H", goal="A B C/D E F/G H _", threads=1)
    assert g.goal == loyd.Board.blank_last((3, 3)) and g.start.apply(g.moves) == g.goal and g.moves == "DR"


def test_counts_and_lists_against_bfs():
    for (w, h), metric in itertools.product([(3, 2), (2, 4)], ["stm", "mtm"]):
        goal = list(range(1, w * h)) + [0]
        dist, count = puzzle_oracle.bfs_counts(w, h, goal, metric)
        rng = random.Random(w * 10 + h)
        for start in rng.sample(sorted(dist), 6):
            board = loyd.Board.from_list(list(start), w, h)
            assert loyd.count_solutions(board, metric=metric) == count[start]
            sols = loyd.all_solutions(board, metric=metric)
            assert sols.length == dist[start] and not sols.capped
            assert len(sols) == sols.count == count[start] == len(set(sols.moves))
            for moves in sols:
                assert board.apply(moves) == loyd.Board.blank_last((w, h))
    capped = loyd.all_solutions("8 6 7/2 5 4/3 0 1", max_solutions=3)
    assert capped.capped and len(capped) == 3


def test_count_and_all_equal_the_solver(solver):
    board = "8 6 7/2 5 4/3 0 1"
    recs, _ = run_solver(solver, ["--json", "--count", board])
    assert loyd.count_solutions(board) == recs[0]["count"]
    recs, _ = run_solver(solver, ["--json", "--all", "--max-solutions", "7", board])
    assert loyd.all_solutions(board, max_solutions=7).moves == recs[0]["solutions"]


def test_distance_is_the_solvers_heuristic_start(solver, root):
    boards = positions(3, 3, 10, seed=5)
    for args, kw in (([], {}), (["--heuristic", "manhattan"], dict(heuristic="manhattan")),
                     (["--metric", "mtm"], dict(metric="mtm"))):
        expected = [r["heuristic_start"] for r in cli_records(solver, boards, args)]
        assert [loyd.distance(b, **kw) for b in boards] == expected
    korf = list(KORF_EASY.values())
    expected = [r["heuristic_start"] for r in cli_records(solver, korf, ["--goal", "blank-first"])]
    assert [loyd.distance(b, goal="blank-first") for b in korf] == expected
    assert list(loyd.heuristic_values(korf, goal="blank-first")) == expected
    with pytest.raises(loyd.UnsolvableError):
        loyd.distance("2 1 3/4 5 6/7 8 0")


CHECKS = [
    ("8 6 7/2 5 4/3 0 1", "UULDDRRUULDLDRRUULDLDRRUULLDDRR", []),
    ("1 2 3/4 5 6/_ 7 8", "L2", ["--notation", "tile"]),
    ("1 2 3/4 5 6/_ 7 8", "R2U", []),
    ("1 2 3/4 5 6/_ 7 8", "RL2RL", ["--notation", "tile"]),
    ("1 2 3/4 5 6/_ 7 8", "RLRR", []),
    ("1 2 3/4 5 6/_ 7 8", "R2", ["--metric", "mtm"]),
    ("1 2 3/4 5 6/_ 7 8", "RR", ["--no-optimal"]),
    ("2 1 3/4 5 6/7 8 0", "RU", []),
]


@pytest.mark.parametrize("board, moves, args", CHECKS)
def test_check_equals_the_solver(solver, board, moves, args):
    recs, _ = run_solver(solver, ["check", "--json", *args, board, moves], check=False)
    r = recs[0]
    kw = dict(notation=args[1]) if args[:1] == ["--notation"] else {}
    if args[:1] == ["--metric"]:
        kw = dict(metric=args[1])
    got = loyd.check(board, moves, optimal="--no-optimal" not in args, **kw)
    assert got.verdict == r["status"]
    assert got.length == r.get("length") and got.length_mtm == r.get("length_mtm")
    assert got.length_stm == r.get("length_stm")
    assert got.optimal == r.get("optimal") and got.difference == r.get("difference")
    assert got.optimal_unknown == r.get("optimal_unknown")
    if got.verdict == "illegal":
        assert (got.illegal_move, got.illegal_character, got.message) == (
            r["illegal_move"], r["illegal_character"], r["error"])
    if got.verdict == "misses-goal":
        assert got.end == loyd.Board(r["end"])


def test_check_lengths_follow_the_metric(solver):
    """`length` is in the metric's moves, as solve's is; both lengths are always given, and
    difference is length minus optimal (the CLI's `length` was single-tile moves in MTM)."""
    for metric, length in (("stm", 2), ("mtm", 1)):
        recs, _ = run_solver(solver, ["check", "--json", "--metric", metric, "1 2 3/4 5 6/0 7 8", "R2"])
        r = recs[0]
        assert (r["status"], r["length"], r["length_stm"], r["length_mtm"]) == ("optimal", length, 2, 1)
        assert (r["optimal"], r["difference"]) == (length, 0)
        got = loyd.check("1 2 3/4 5 6/0 7 8", "R2", metric=metric)
        assert (got.length, got.length_stm, got.length_mtm, got.optimal) == (length, 2, 1, length)
    r = run_solver(solver, ["check", "--json", "--metric", "mtm", "1 2 3/4 5 6/0 7 8", "RRLR"],
                   check=False)[0][0]
    assert (r["status"], r["length"], r["length_stm"], r["optimal"], r["difference"]) == (
        "suboptimal", 3, 4, 1, 2)


def test_check_refuses_unreadable_moves():
    with pytest.raises(loyd.InvalidInputError, match="moves 'R0'"):
        loyd.check("1 2 3/4 5 6/7 0 8", "R0")
    # Long moves are quoted cut at a character: 30 arrows (90 bytes) give whole arrows and "...".
    with pytest.raises(loyd.InvalidInputError) as e:
        loyd.check("1 2 3/4 5 6/7 0 8", "\u2193" * 30)
    assert "moves '" + "\u2193" * 13 + "...'" in str(e.value)


def test_limits_raise_limit_error_like_the_solver(solver):
    board = KORF_EASY["korf-5"]
    recs, status = run_solver(solver, ["--json", "-j", "1", "--goal", "blank-first", "--heuristic",
                                       "manhattan", "--node-limit", "100000", board])
    assert status == 3
    with pytest.raises(loyd.LimitError) as e:
        loyd.solve(board, goal="blank-first", heuristic="manhattan", node_limit=100000, threads=1)
    assert e.value.reason == "node limit" == recs[0]["error"]
    assert e.value.lower_bound == recs[0]["lower_bound"]
    assert e.value.nodes == recs[0]["nodes_generated"]
    # Korf #1 takes Manhattan distance 276 M nodes (seconds): korf-5 can finish within 0.05 s.
    with pytest.raises(loyd.LimitError) as e:
        loyd.solve("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", goal="blank-first", heuristic="manhattan",
                   time_limit=0.05)
    assert e.value.reason == "time limit" and e.value.seconds >= 0.05
    with pytest.raises(loyd.LimitError) as e:
        loyd.count_solutions(board, goal="blank-first", heuristic="manhattan", node_limit=1000)
    assert isinstance(e.value, loyd.Error) and e.value.nodes >= 1000


def test_counts_and_lists_taken_up_from_a_limit_against_bfs():
    # count_solutions and all_solutions take resume=, checkpoint= and checkpoint_every= as solve
    # does (and as the solver's --count/--all take --resume and --checkpoint): taken up from a
    # limit's token (a limit before the optimal length was known), the count is BFS's.
    taken_up = 0
    for w, h in [(3, 2), (2, 4), (3, 3)]:
        goal = list(range(1, w * h)) + [0]
        dist, count = puzzle_oracle.bfs_counts(w, h, goal, "stm")
        rng = random.Random(w * 7 + h)
        far = max(dist.values())
        deep = sorted(p for p in dist if dist[p] >= far - 4)
        for start in rng.sample(deep, 4):
            board = loyd.Board.from_list(list(start), w, h)
            for limit in (30, 300):
                try:
                    loyd.count_solutions(board, heuristic="manhattan", node_limit=limit)
                    continue
                except loyd.LimitError as e:
                    token, counted = e.resume, e.count
                if counted is not None:  # stopped while counting: not resumable (README)
                    assert token is None
                    continue
                assert token is not None
                kw = dict(heuristic="manhattan", resume=token)
                assert loyd.count_solutions(board, **kw) == count[start]
                sols = loyd.all_solutions(board, **kw)
                assert sols.length == dist[start] and sols.count == count[start]
                taken_up += 1
    assert taken_up >= 8
    korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    seen = []
    with pytest.raises(loyd.LimitError) as e:
        loyd.count_solutions(korf1, goal="blank-first", heuristic="manhattan",
                             node_limit=30_000_000, checkpoint=seen.append, checkpoint_every=0.1)
    key = e.value.resume.split(".")[4]  # the points saved are this search's, no further along
    assert seen and all(t.split(".")[4] == key for t in seen), (seen, e.value.resume)
    assert all(int(t.split(".")[1]) <= e.value.lower_bound for t in seen), seen
    with pytest.raises(TypeError, match="checkpoint must be callable"):
        loyd.all_solutions(korf1, checkpoint=3)
    with pytest.raises(loyd.UsageError, match="resume token"):
        loyd.count_solutions(korf1, resume="r1.zz")


def test_a_limit_gives_a_token_that_resume_takes_up(solver):
    korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"  # 57 moves; Manhattan: 80 M nodes
    kw = dict(goal="blank-first", heuristic="manhattan", threads=1)
    with pytest.raises(loyd.LimitError) as e:
        loyd.solve(korf1, node_limit=3_000_000, **kw)
    token = e.value.resume
    assert token.startswith("r1.%d." % e.value.lower_bound), token
    # The solver takes the same token up to the same length, and vice versa.
    recs, status = run_solver(solver, ["--json", "-j", "1", "--goal", "blank-first", "--heuristic",
                                       "manhattan", "--resume", token, korf1])
    assert status == 0 and recs[0]["length"] == 57
    s = loyd.solve(korf1, resume=token, **kw)
    assert s.length == 57 and s.resumed_from == e.value.lower_bound
    assert s.to_dict()["resumed_from"] == recs[0]["resumed_from"] == s.resumed_from
    whole = loyd.solve(korf1, **kw)
    assert whole.resumed_from is None
    # One thread: the two pieces are the one search, give or take the path's replayed siblings.
    assert abs(e.value.nodes + s.nodes - whole.nodes) < 1000, (e.value.nodes, s.nodes, whole.nodes)
    # A list: the position's own token is taken; another position's is not.
    other = loyd.solve("8 6 7 2 5 4 3 0 1", resume=[token], heuristic="manhattan")
    assert other.length == 31 and other.resumed_from is None
    assert loyd.solve(korf1, resume=(token,), **kw).resumed_from is not None
    with pytest.raises(loyd.UsageError, match="its check does not match"):
        loyd.solve(korf1, resume=token[:-1] + ("0" if token[-1] != "0" else "1"), **kw)
    with pytest.raises(loyd.UsageError, match="astar"):
        loyd.solve(korf1, resume=token, algorithm="astar", goal="blank-first")
    with pytest.raises(TypeError):
        loyd.solve(korf1, resume=5, **kw)
    # A limit with nothing to take up (A*) has no token.
    with pytest.raises(loyd.LimitError) as e:
        loyd.solve(korf1, algorithm="astar", node_limit=1000, goal="blank-first")
    assert e.value.resume is None


def test_checkpoint_hands_over_points_that_resume_takes_up():
    korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"  # 57 moves; Manhattan: 80 M nodes
    kw = dict(goal="blank-first", heuristic="manhattan", threads=1)
    seen = []
    s = loyd.solve(korf1, checkpoint=seen.append, checkpoint_every=0.1, **kw)
    assert s.length == 57
    assert seen and all(t.startswith("r1.") for t in seen), seen
    bounds = [int(t.split(".")[1]) for t in seen]
    assert bounds == sorted(bounds) and bounds[-1] <= 57
    # The last point handed over takes the search up: the same length, less work.
    again = loyd.solve(korf1, resume=seen[-1], **kw)
    assert again.length == 57 and again.resumed_from == bounds[-1]
    assert again.nodes < s.nodes
    # What the function raises stops the search and is raised here.
    def boom(token):
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        loyd.solve(korf1, checkpoint=boom, checkpoint_every=0.1, **kw)
    with pytest.raises(TypeError, match="checkpoint must be callable"):
        loyd.solve(korf1, checkpoint="ck.txt", **kw)
    for every in (0, 0.05, -1, float("nan"), float("inf"), "1", True):
        with pytest.raises(loyd.UsageError, match="checkpoint_every"):
            loyd.solve(korf1, checkpoint=seen.append, checkpoint_every=every, **kw)
    with pytest.raises(loyd.UsageError, match="checkpoint_every needs checkpoint"):
        loyd.solve("8 6 7 2 5 4 3 0 1", checkpoint_every=5)
    with pytest.raises(loyd.UsageError, match="astar"):
        loyd.solve(korf1, checkpoint=seen.append, algorithm="astar", goal="blank-first")
    with pytest.raises(loyd.UsageError, match="mtm"):
        loyd.solve("8 6 7 2 5 4 3 0 1", checkpoint=seen.append, metric="mtm")


def test_unsolvable():
    with pytest.raises(loyd.UnsolvableError, match="parity") as e:
        loyd.solve("2 1 3/4 5 6/7 8 0")
    assert isinstance(e.value, ValueError)
    with pytest.raises(loyd.UnsolvableError):
        loyd.count_solutions("2 1 3/4 5 6/7 8 0")


def test_tables_that_do_not_fit(root, tmp_path):
    t8 = loyd.Tables.open(root / "data/8-4-4")
    with pytest.raises(loyd.InvalidInputError, match="are for 3x3 boards, the instance is 4x4"):
        loyd.solve(KORF_EASY["korf-2"], tables=t8)
    with pytest.raises(loyd.UsageError, match="count stm moves, the search mtm"):
        loyd.solve("1 2 3/4 5 6/7 0 8", tables=t8, metric="mtm")
    with pytest.raises(loyd.UsageError, match="heuristic='pdb'"):
        loyd.solve("1 2 3/4 5 6/7 0 8", tables=t8, heuristic="manhattan")
    # Tables that do not fit the goal make the instance invalid, as in the solver (exit 1).
    for call in (lambda: loyd.solve("1 2 3/4 0 5/6 7 8", goal="1 2 3/4 0 5/6 7 8", tables=t8),
                 lambda: loyd.solve_many(["1 2 3/4 0 5/6 7 8"], goal="1 2 3/4 0 5/6 7 8", tables=t8),
                 lambda: loyd.distance("1 2 3/4 0 5/6 7 8", goal="1 2 3/4 0 5/6 7 8", tables=t8)):
        with pytest.raises(loyd.InvalidInputError, match="does not map onto"):
            call()
    with pytest.raises(loyd.UsageError, match="no pattern databases found"):
        loyd.solve("1 2 3 4 5/6 7 8 9 0", heuristic="pdb")
    with pytest.raises(loyd.FileError, match="manifest") as missing:
        loyd.Tables.open(tmp_path / "nothing-here")
    # A failed system call is named as OSError names it; the message stays loyd's own.
    import errno
    assert missing.value.errno == errno.ENOENT
    assert str(missing.value).startswith(str(tmp_path / "nothing-here"))
    again = pickle.loads(pickle.dumps(missing.value))  # as from a multiprocessing worker
    assert type(again) is loyd.FileError and again.errno == errno.ENOENT
    assert str(again) == str(missing.value)
    damaged = tmp_path / "8-4-4"
    shutil.copytree(root / "data/8-4-4", damaged)
    table = next(damaged.glob("*.pdb"))
    data = bytearray(table.read_bytes())
    data[-3] ^= 0x40
    table.write_bytes(bytes(data))
    with pytest.raises(loyd.FileError) as e:
        loyd.solve("1 2 3/4 5 6/7 0 8", tables=str(damaged))
    assert isinstance(e.value, OSError) and table.name in str(e.value)
    assert e.value.errno is None  # damaged content: no system call failed


def test_verify_none_is_every_check(root, tmp_path):
    # verify=None is the default (every check), never a quiet False; 0 or "" are refused. A raw
    # set with a damaged payload opens only with verify=False (a zstd one fails its decoding).
    pdbgen = os.environ.get("LOYD_PDBGEN", "")
    if not pdbgen:
        pytest.skip("LOYD_PDBGEN does not name the pdbgen program")
    raw = tmp_path / "raw"
    subprocess.run([pdbgen, "unpack", str(root / "data/8-4-4"), str(raw), "-q"], check=True,
                   env=plain_env())
    table = sorted(raw.glob("*.pdb"))[0]
    data = bytearray(table.read_bytes())
    data[-3] ^= 0x40
    table.write_bytes(bytes(data))
    assert loyd.Tables.open(raw, verify=False).name == "8-4-4"
    with pytest.raises(loyd.FileError):
        loyd.Tables.open(raw, verify=None)
    with pytest.raises(loyd.FileError):
        loyd.Tables.open(raw, verify=numpy.True_)
    for bad in (0, "", "no"):
        with pytest.raises(loyd.UsageError, match="verify must be True or False"):
            loyd.Tables.open(raw, verify=bad)


def test_find_gives_none_when_every_set_found_fails(tmp_path, monkeypatch):
    # Tables.find's None is "no set to use", also when the only set found is damaged (it raised
    # FileError); the failure is a RuntimeWarning, and solve() falls back as the solver does.
    pdbgen = os.environ.get("LOYD_PDBGEN", "")
    if not pdbgen:
        pytest.skip("LOYD_PDBGEN does not name the pdbgen program")
    folder = tmp_path / "pdb" / "small"
    subprocess.run([pdbgen, "build", "--size", "3x2", "--pattern", "1,2,3", "--name", "small",
                    "--encoding", "raw", "--out", str(folder), "-q"], check=True, env=plain_env())
    table = sorted(folder.glob("*.pdb"))[0]
    data = bytearray(table.read_bytes())
    data[-2] ^= 0x10
    table.write_bytes(bytes(data))
    monkeypatch.setenv("LOYD_PDB_PATH", str(tmp_path / "pdb"))
    with pytest.warns(RuntimeWarning, match=r"not using the last set found: .*small"):
        assert loyd.Tables.find(size=(3, 2)) is None
    with pytest.warns(RuntimeWarning):
        assert loyd.solve("1 2 3/4 0 5").heuristic == "linear-conflict"


def test_a_folder_replaced_is_loaded_again(root, tmp_path):
    # Opening a folder whose set was replaced gives the set now there, not the one this process
    # holds; what was opened before keeps its own set.
    folder = tmp_path / "set"
    shutil.copytree(root / "data/8-fringe", folder)
    before = loyd.Tables.open(folder)
    shutil.rmtree(folder)
    shutil.copytree(root / "data/15-5-5-5", folder)
    after = loyd.Tables.open(folder)
    assert after.size == (4, 4) and after != before and before.size == (3, 3)
    assert loyd.solve("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", tables=folder).length == 1
    assert loyd.solve("1 2 3/4 5 6/7 0 8", tables=before).length == 1


def test_discovery_looks_again_and_sees_a_set_rebuilt(tmp_path, monkeypatch):
    # A search that found nothing is made again (the set its advice names, once built, is
    # found), and a set found and then rebuilt is loaded again.
    pdbgen = os.environ.get("LOYD_PDBGEN", "")
    if not pdbgen:
        pytest.skip("LOYD_PDBGEN does not name the pdbgen program")
    (tmp_path / "pdb").mkdir()
    monkeypatch.setenv("LOYD_PDB_PATH", str(tmp_path / "pdb"))
    assert loyd.Tables.find(size=(3, 2)) is None
    folder = tmp_path / "pdb" / "small"

    def build(pattern):
        subprocess.run([pdbgen, "build", "--size", "3x2", "--pattern", pattern, "--name", "small",
                        "--out", str(folder), "-q"], check=True, env=plain_env())

    build("1,2,3")
    found = loyd.Tables.find(size=(3, 2))
    assert found is not None and found.patterns == [(1, 2, 3)]
    assert loyd.solve("1 2 3/4 0 5").heuristic == "pdb:small"
    shutil.rmtree(folder)
    build("3,4,5")
    assert loyd.Tables.find(size=(3, 2)).patterns == [(3, 4, 5)]
    shutil.rmtree(folder)  # gone: the search runs again and finds nothing, as a new run would
    assert loyd.Tables.find(size=(3, 2)) is None
    assert loyd.solve("1 2 3/4 0 5").heuristic == "linear-conflict"


def test_an_empty_path_or_a_manifest_that_is_a_folder(tmp_path):
    with pytest.raises(loyd.UsageError, match="path is empty"):
        loyd.Tables.open("")
    with pytest.raises(loyd.UsageError, match="path is empty"):
        loyd.solve("1 2 3/4 5 6/7 0 8", tables="")
    (tmp_path / "manifest.txt").mkdir()
    with pytest.raises(loyd.FileError, match=r"manifest\.txt: not a regular file \(a folder\)"):
        loyd.Tables.open(tmp_path)  # the solver's message, not ".../manifest.txt/manifest.txt"


def test_a_cache_dir_that_is_a_file_is_refused(root, tmp_path):
    f = tmp_path / "file"
    f.write_text("")
    with pytest.raises(loyd.UsageError, match="is not a folder"):
        loyd.Tables.open(root / "data/8-4-4", cache_dir=f)


def test_a_damaged_set_found_gives_way_to_the_next(root, tmp_path, monkeypatch):
    # As the solver: the strongest set found that fails to load is skipped for the next one,
    # with a warning naming both, and is not read again.
    bad = tmp_path / "pdb" / "bad15"
    shutil.copytree(root / "data/15-5-5-5", bad)
    table = sorted(bad.glob("*.pdb"))[0]
    original = table.read_bytes()
    data = bytearray(original)
    data[-100] ^= 0x40
    table.write_bytes(bytes(data))
    monkeypatch.setenv("LOYD_PDB_PATH", str(tmp_path / "pdb"))
    board = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"
    with pytest.warns(RuntimeWarning, match=r"not using .*bad15.*using the next set found"):
        solution = loyd.solve(board)
    assert solution.heuristic == "pdb:15-5-5-5" and solution.moves == "R"
    found = loyd.Tables.find(size=(4, 4))
    assert found is not None and pathlib.Path(found.path).resolve() == (root / "data/15-5-5-5").resolve()
    table.write_bytes(original)  # repaired: read again, the set would now be taken
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert loyd.solve(board, heuristic="pdb").heuristic == "pdb:15-5-5-5"
    found = loyd.Tables.find(size=(4, 4))
    assert pathlib.Path(found.path).resolve() == (root / "data/15-5-5-5").resolve()


@pytest.mark.parametrize("kw, message", [
    (dict(metric="hex"), "metric"), (dict(algorithm="bfs"), "algorithm"),
    (dict(heuristic="magic"), "heuristic"), (dict(lookups="sideways"), "sideways"),
    (dict(node_limit=0), "node_limit"), (dict(node_limit=-5), "node_limit"),
    (dict(node_limit=1.5), "node_limit"), (dict(time_limit=0), "time_limit"),
    (dict(time_limit=float("nan")), "time_limit"), (dict(time_limit=10**400), "time_limit"),
    (dict(time_limit=float("inf")), "time_limit"), (dict(threads=0), "threads"),
    (dict(goal="1 2 3/4 5 6/7 8 \ud800"), "goal is not valid text"),
    (dict(size="3x\ud800"), "size is not valid text"), (dict(metric="\ud800"), "metric is not"),
    (dict(heuristic="\ud800"), "heuristic is not"), (dict(lookups="\ud800"), "lookups is not"),
    (dict(threads=5000), "threads"), (dict(heuristic="linear-conflict", metric="mtm"), "admissible"),
    (dict(goal="1 2 3 4 5 6 7 8 9 0"), "goal"), (dict(size="3x2"), "size"),
    (dict(heuristic=5), "heuristic must be a string, not 5"),
    (dict(metric=5), "metric must be a string, not 5"),
    (dict(algorithm="astar", prune=False), "prune=False does not apply to algorithm='astar'"),
    (dict(metric="mtm", prune=False), "prune=False does not apply to metric='mtm'"),
    (dict(algorithm="astar", bpmx=False), "bpmx=False does not apply to algorithm='astar'"),
])
def test_bad_arguments_raise_usage_or_input_errors(kw, message):
    with pytest.raises((loyd.UsageError, loyd.InvalidInputError), match=message):
        loyd.solve("1 2 3/4 5 6/7 0 8", **kw)


def test_a_failing_index_raises_its_own_error():
    # A count whose __index__ raises gives that error, not "must be from 1 to ...".
    class Broken:
        def __index__(self):
            raise RuntimeError("broken index")
    for kw in (dict(threads=Broken()), dict(node_limit=Broken())):
        with pytest.raises(RuntimeError, match="broken index"):
            loyd.solve("1 2 3/4 5 6/7 0 8", **kw)
    with pytest.raises(RuntimeError, match="broken index"):
        loyd.scramble(Broken(), (3, 3))


def test_a_set_opened_by_a_relative_path_survives_chdir(root, tmp_path, monkeypatch):
    # Its path is made absolute: pickled after os.chdir it still names the set (it raised
    # FileError ENOENT), and .path names the folder from anywhere.
    shutil.copytree(root / "data/8-4-4", tmp_path / "rel")
    monkeypatch.chdir(tmp_path)
    tables = loyd.Tables.open("rel")
    assert os.path.isabs(tables.path) and os.path.samefile(tables.path, tmp_path / "rel")
    monkeypatch.chdir("/")
    assert pickle.loads(pickle.dumps(tables)) == tables
    assert loyd.solve("1 2 3/4 5 6/7 0 8", tables=tables).moves == "R"


def test_a_board_that_is_not_valid_text():
    with pytest.raises(loyd.InvalidInputError, match="board is not valid text"):
        loyd.solve("1 2 3/4 5 6/7 0 \ud800")


def test_a_set_in_a_folder_whose_name_is_not_utf8(root, tmp_path):
    # os.listdir gives such a name with a surrogate escape; it names the same folder here.
    folder = os.fsencode(tmp_path) + b"/sets-\xff"
    shutil.copytree(root / "data/8-4-4", os.fsdecode(folder))
    name = os.fsdecode(folder)
    tables = loyd.Tables.open(name)
    assert tables.path == name and os.fsencode(tables.path) == folder
    assert loyd.solve("1 2 3/4 5 6/7 0 8", tables=tables).moves == "R"
    assert pickle.loads(pickle.dumps(tables)) == tables
    assert loyd.Tables.open(folder) == tables  # the same folder given as bytes
    with pytest.raises(UnicodeEncodeError):  # a str that names no file, as open() says
        loyd.Tables.open("\ud800")
    with pytest.raises(ValueError, match="embedded null byte"):  # as open() says too
        loyd.Tables.open(name + "\0/elsewhere")
    # A message naming such a folder reads it with \xNN, never fails to be made.
    with pytest.raises(loyd.InvalidInputError, match=r"sets-\\xff.* are for 3x3 boards"):
        loyd.solve("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", tables=folder)


def test_a_huge_broadcast_array_raises_memory_error():
    np = pytest.importorskip("numpy")
    # 9 PiB: beyond any address space, so NumPy cannot allocate the copy even with overcommit.
    rows = np.broadcast_to(np.array([1, 2, 3, 4, 5, 6, 7, 0, 8], dtype=np.uint8), (2**50, 9))
    with pytest.raises(MemoryError):
        loyd.solve_many(rows)


def test_progress_reports_from_the_calling_thread():
    seen = []
    s = loyd.solve(KORF_EASY["korf-5"], goal="blank-first", heuristic="linear-conflict", threads=1,
                   progress=lambda bound, nodes, seconds: seen.append((bound, nodes, seconds)))
    assert seen and seen[0][0] >= loyd.distance(KORF_EASY["korf-5"], goal="blank-first",
                                                 heuristic="linear-conflict")
    assert all(b <= s.length for b, _, _ in seen)
    assert [n for _, n, _ in seen] == sorted(n for _, n, _ in seen)

    def boom(bound, nodes, seconds):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        loyd.solve(KORF_EASY["korf-5"], goal="blank-first", heuristic="manhattan", progress=boom)
