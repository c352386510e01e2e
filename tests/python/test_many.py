"""solve_many, heuristic_values and scramble: NumPy shapes and dtypes, the solver's batch answers
on the same input, statuses, moves, progress, and a clear exception for every bad input."""

import pickle

import numpy as np
import pytest

import loyd
from conftest import plain_env, run_solver


def cli_batch(solver, lines, args):
    recs, _ = run_solver(solver, ["--json", *args], stdin="".join(f"{l}\n" for l in lines))
    return [r for r in recs if "summary" not in r]


def test_scramble_is_the_solvers(solver):
    for size, seed, goal in (((4, 4), 7, "blank-last"), ((3, 3), 0, "blank-first"), ((5, 2), 2**64 - 1, "blank-last")):
        a = loyd.scramble(25, size, seed, goal=goal)
        assert a.shape == (25, size[0] * size[1]) and a.dtype == np.uint8
        p = __import__("subprocess").run(
            [solver, "scramble", "--size", f"{size[0]}x{size[1]}", "--count", "25", "--seed", str(seed),
             "--goal", goal, "--board-format", "flat"], capture_output=True, text=True, check=True, env=plain_env())
        assert [" ".join(map(str, r)) for r in a] == p.stdout.splitlines()
        assert all(loyd.is_solvable(list(r), goal, size=size) for r in a)
    assert loyd.scramble(0, (3, 3), 1).shape == (0, 9)
    assert loyd.scramble(3, seed=5).shape == (3, 16)  # 4x4 by default
    assert loyd.scramble(2, goal="1 2 3 4/5 6 7 0").shape == (2, 8)  # the goal's board
    assert not np.array_equal(loyd.scramble(5, (4, 4)), loyd.scramble(5, (4, 4)))  # fresh seeds
    with pytest.raises(loyd.UsageError):
        loyd.scramble(-1, (3, 3), 1)
    with pytest.raises(loyd.UsageError):
        loyd.scramble(1, (3, 3), -1)
    with pytest.raises(loyd.UsageError, match="n must be from 0 to 2\\^40, not 2199023255552"):
        loyd.scramble(2**41, (3, 3), 1)
    with pytest.raises(loyd.UsageError, match="n must be a whole number, not True"):
        loyd.scramble(np.True_, (3, 3), 1)
    # More than the machine's memory (2^39 positions of 25 bytes: 12.5 TiB) is refused up front.
    with pytest.raises(loyd.LimitError, match="positions of 25 cells need"):
        loyd.scramble(2**39, (5, 5), 1)


def test_shapes_dtypes_and_the_solvers_answers(solver):
    boards = loyd.scramble(60, (3, 3), 11)
    r = loyd.solve_many(boards, moves=True)
    assert len(r) == 60
    for name, dtype in (("lengths", np.int32), ("status", np.uint8), ("nodes", np.uint64),
                        ("nodes_expanded", np.uint64), ("heuristic_start", np.int32),
                        ("lower_bounds", np.int32), ("seconds", np.float64)):
        a = getattr(r, name)
        assert a.shape == (60,) and a.dtype == dtype, name
    assert r.heuristic == "pdb:8-4-4" and r.metric == "stm" and r.goal == loyd.Board.blank_last((3, 3))
    expected = cli_batch(solver, [" ".join(map(str, b)) for b in boards], ["-j", "2"])
    assert list(r.lengths) == [e["length"] for e in expected]
    assert list(r.nodes) == [e["nodes_generated"] for e in expected]
    assert list(r.nodes_expanded) == [e["nodes_expanded"] for e in expected]
    assert list(r.heuristic_start) == [e["heuristic_start"] for e in expected]
    assert r.moves == [e["moves"] for e in expected]
    assert (r.status == loyd.SOLVED).all() and (r.lower_bounds == r.lengths).all()
    # the same from a list of texts, of Boards, and from another integer dtype
    texts = [" ".join(map(str, b)) for b in boards]
    assert (loyd.solve_many(texts).lengths == r.lengths).all()
    assert (loyd.solve_many([loyd.Board(list(b)) for b in boards], threads=1).lengths == r.lengths).all()
    assert (loyd.solve_many(boards.astype(np.int64)).lengths == r.lengths).all()
    assert (loyd.solve_many(np.asfortranarray(boards)).nodes == r.nodes).all()
    assert (loyd.heuristic_values(boards) == r.heuristic_start).all()
    assert loyd.heuristic_values(boards).dtype == np.int32


def test_other_goals_metrics_and_tables(solver, root):
    boards = loyd.scramble(20, (4, 3), 3, goal="blank-first")
    lines = [" ".join(map(str, b)) for b in boards]
    r = loyd.solve_many(boards, goal="blank-first", size=(4, 3), moves=True, notation="tile")
    expected = cli_batch(solver, lines, ["--goal", "blank-first", "--size", "4x3", "--notation", "tile"])
    assert list(r.lengths) == [e["length"] for e in expected] and r.moves == [e["moves"] for e in expected]
    boards = loyd.scramble(20, (3, 3), 4)
    lines = [" ".join(map(str, b)) for b in boards]
    r = loyd.solve_many(boards, metric="mtm", tables=root / "data/8-mtm-fringe", moves=True)
    expected = cli_batch(solver, lines, ["--metric", "mtm", "--pdb", str(root / "data/8-mtm-fringe")])
    assert list(r.lengths) == [e["length"] for e in expected] and r.moves == [e["moves"] for e in expected]
    assert r.heuristic == "pdb:8-mtm-fringe"
    r = loyd.solve_many(boards, heuristic="manhattan", algorithm="astar")
    assert list(r.nodes) == [e["nodes_generated"] for e in cli_batch(
        solver, lines, ["--heuristic", "manhattan", "--algorithm", "astar"])]


def test_statuses():
    goal = list(range(1, 16)) + [0]
    hard = [int(x) for x in "0 15 8 3 12 11 7 4 14 10 6 5 9 13 2 1".split()]
    unsolvable = [2, 1] + goal[2:]
    r = loyd.solve_many(np.array([goal, unsolvable, hard], dtype=np.uint8), heuristic="manhattan",
                        node_limit=50_000, moves=True)
    assert list(r.status) == [loyd.SOLVED, loyd.UNSOLVABLE, loyd.LIMIT]
    assert list(r.lengths) == [0, -1, -1]
    assert r.moves == ["", None, None]
    assert r.lower_bounds[0] == 0 and r.lower_bounds[1] == -1 and r.lower_bounds[2] >= r.heuristic_start[2] > 0
    assert r.nodes[2] >= 50_000 and r.heuristic_start[1] == -1
    assert list(loyd.heuristic_values([goal, unsolvable])) == [0, -1]


def test_empty_input():
    for boards in ([], np.zeros((0, 9), dtype=np.uint8)):
        r = loyd.solve_many(boards)
        assert len(r) == 0 and r.lengths.dtype == np.int32
        assert loyd.heuristic_values(boards).shape == (0,)


def test_a_result_compares_and_hashes_as_an_object():
    # Its fields are arrays: == is identity (no "truth value of an array is ambiguous"), and a
    # result can key a dict or sit in a set.
    r = loyd.solve_many(loyd.scramble(3, (3, 3), 1))
    again = pickle.loads(pickle.dumps(r))
    assert r == r and not (r == again) and r != again
    assert len({r, again}) == 2 and np.array_equal(r.lengths, again.lengths)


def test_bad_inputs_raise_clear_exceptions():
    good = loyd.scramble(4, (3, 3), 1)
    with pytest.raises(loyd.InvalidInputError, match=r"shape \(n, W\*H\).*\(9,\)"):
        loyd.solve_many(good[0])
    with pytest.raises(loyd.InvalidInputError, match=r"\(2, 4, 9\)"):
        loyd.solve_many(np.zeros((2, 4, 9), dtype=np.uint8))
    with pytest.raises(loyd.InvalidInputError, match="rows of 10 tiles"):
        loyd.solve_many(np.zeros((2, 10), dtype=np.uint8))
    with pytest.raises(loyd.InvalidInputError, match="rows of 9 tiles.*4x4"):
        loyd.solve_many(good, size=(4, 4))
    with pytest.raises(TypeError, match="integers"):
        loyd.solve_many(good.astype(np.float64))
    with pytest.raises(TypeError, match="integers"):
        loyd.solve_many(np.array([["1"] * 9]))
    bad = good.copy()
    bad[2, 3] = bad[2, 4]
    with pytest.raises(loyd.InvalidInputError, match=r"boards\[2\]: .*twice|boards\[2\]"):
        loyd.solve_many(bad)
    wide = good.astype(np.int64)
    wide[3, 0] = 1 << 40
    with pytest.raises(loyd.InvalidInputError, match=r"boards\[3\]: value 1099511627776 is out"):
        loyd.heuristic_values(wide)
    wide[3, 0] = -1
    with pytest.raises(loyd.InvalidInputError, match=r"boards\[3\]"):
        loyd.solve_many(wide)
    # uint64 values above 2^63 - 1 are named as they are (they were read as negative numbers).
    huge = good.astype(np.uint64)
    huge[1, 2] = np.uint64(2**64 - 1)
    with pytest.raises(loyd.InvalidInputError, match=r"boards\[1\]: value 18446744073709551615 is out"):
        loyd.solve_many(huge)
    with pytest.raises(loyd.InvalidInputError, match=r"boards\[1\] is 4x4, boards\[0\] is 3x3"):
        loyd.solve_many(["1 2 3 4 5 6 7 8 0", list(range(16))])
    with pytest.raises(loyd.InvalidInputError, match=r"boards\[1\]"):
        loyd.solve_many(["1 2 3 4 5 6 7 8 0", "1 2 3 4 5 6 7 8 x"])
    with pytest.raises(TypeError):
        loyd.solve_many("1 2 3 4 5 6 7 8 0")
    with pytest.raises(TypeError):
        loyd.solve_many(loyd.Board.blank_last((3, 3)))
    with pytest.raises(TypeError):
        loyd.solve_many(42)
    with pytest.raises(TypeError, match="boards is a sequence of boards"):
        loyd.solve_many([8, 6, 7, 2, 5, 4, 3, 0, 1])
    # ...but a list of NumPy rows is boards (an ndarray has __index__ too).
    assert loyd.solve_many(list(good)).lengths.tolist() == loyd.solve_many(good).lengths.tolist()
    with pytest.raises(loyd.InvalidInputError, match="are for 3x3 boards"):
        loyd.solve_many(loyd.scramble(2, (4, 4), 1), tables=loyd.Tables.find(size=(3, 3)))


def test_progress_and_its_errors():
    boards = loyd.scramble(300, (3, 3), 2)
    seen = []
    loyd.solve_many(boards, progress=lambda done, total: seen.append((done, total)), progress_every=0)
    assert seen[-1] == (300, 300) and all(t == 300 and 0 <= d <= 300 for d, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)

    def boom(done, total):
        raise ValueError("enough")

    hard = loyd.scramble(50, (4, 4), 3)
    with pytest.raises(ValueError, match="enough"):
        loyd.solve_many(hard, heuristic="manhattan", progress=boom, progress_every=0)
    assert loyd.solve("1 2 3/4 5 6/7 0 8").length == 1  # usable afterwards


@pytest.mark.parametrize("call", [
    lambda: loyd.scramble("x", (3, 3)), lambda: loyd.scramble(2.0, (3, 3)), lambda: loyd.scramble(2**50, (3, 3)),
    lambda: loyd.scramble(2, (3, 3), seed=2**64), lambda: loyd.scramble(2, (3, 3), seed=True),
    lambda: loyd.all_solutions("1 2 3/4 5 6/7 0 8", max_solutions="many"),
    lambda: loyd.solve("1 2 3/4 5 6/7 0 8", prune="yes"), lambda: loyd.solve("1 2 3/4 5 6/7 0 8", lookups=5),
    lambda: loyd.solve_many(["1 2 3/4 5 6/7 0 8"], threads=2.5),
    lambda: loyd.solve("1 2 3/4 5 6/7 0 8", time_limit="5"),
    lambda: loyd.solve("1 2 3/4 5 6/7 0 8", time_limit="abc"),
    lambda: loyd.solve("1 2 3/4 5 6/7 0 8", time_limit=True),
    lambda: loyd.check("1 2 3/4 5 6/7 0 8", "L", optimal=None),
    lambda: loyd.solve_many(["1 2 3/4 5 6/7 0 8"], moves="yes"),
    lambda: loyd.solve_many(["1 2 3/4 5 6/7 0 8"], moves=1),
    lambda: loyd.solve("1 2 3/4 5 6/7 0 8").format_moves("tile", "yes"),
    lambda: loyd.solve_many(["1 2 3/4 5 6/7 0 8"], progress_every=-1),
    lambda: loyd.solve_many(["1 2 3/4 5 6/7 0 8"], progress_every=float("nan")),
    lambda: loyd.solve_many(["1 2 3/4 5 6/7 0 8"], progress_every=10**400),
])
def test_wrong_argument_types_are_usage_errors(call):
    with pytest.raises(loyd.UsageError):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda many: loyd.solve_many(many, notation=None), "notation must be a str"),
    (lambda many: loyd.solve_many(many, progress_every=None), "progress_every must be a number"),
    (lambda many: loyd.solve_many(many, progress=5), "progress must be callable"),
    (lambda many: loyd.check(many[0], "L", notation=None), "notation must be a str"),
    (lambda many: loyd.solve(many[0], progress=5), "progress must be callable"),
])
def test_wrong_types_of_the_calls_own_arguments_are_named_briefly(call, message):
    # Not pybind11's overload error, which named the private function and printed every board.
    many = ["1 2 3/4 5 6/7 0 8"] * 20000
    with pytest.raises(TypeError, match=message) as e:
        call(many)
    assert len(str(e.value)) < 200 and "_solve_many" not in str(e.value)


def test_a_memoryview_of_rows_is_an_array():
    boards = loyd.scramble(5, (3, 3), 4)
    expected = loyd.solve_many(boards).lengths.tolist()
    assert loyd.solve_many(memoryview(boards)).lengths.tolist() == expected
    assert loyd.heuristic_values(memoryview(boards.astype(np.int16))).shape == (5,)


def test_numpy_scalars_are_numbers_and_truth_values():
    assert loyd.solve("1 2 3/4 5 6/7 0 8", bpmx=np.bool_(False), prune=np.True_).length == 1
    assert loyd.solve("1 2 3/4 5 6/7 0 8", time_limit=np.float64(2.5), threads=np.int8(1)).length == 1
    with pytest.raises(loyd.UsageError, match="from 1 to 1024, not 0"):
        loyd.solve("1 2 3/4 5 6/7 0 8", threads=0)


def test_check_wants_a_text():
    with pytest.raises(TypeError, match="moves must be a str"):
        loyd.check("1 2 3/4 5 6/7 0 8", 5)


def test_limits_give_tokens_that_resume_takes_up(bfs3x3):
    # Chains of node-limited batches on 3x3 with Manhattan: the positions a limit stopped carry
    # tokens, each later call takes them up, and every position ends at its BFS distance.
    boards = loyd.scramble(40, (3, 3), 23)
    want = [bfs3x3[tuple(int(t) for t in b)] for b in boards]
    kw = dict(heuristic="manhattan", threads=2)
    r = loyd.solve_many(boards, node_limit=2000, **kw)
    stopped = np.flatnonzero(r.status == loyd.LIMIT)
    assert len(stopped) > 0 and sorted(r.resume) == list(stopped)
    assert all(t.startswith("r1.") for t in r.resume.values())
    lengths, tokens, calls = r.lengths.copy(), dict(r.resume), 1
    while tokens:
        assert calls < 500, "the chain does not move on"
        left = sorted(tokens)
        again = loyd.solve_many(boards[left], node_limit=2000, resume=list(tokens.values()), **kw)
        calls += 1
        tokens = {left[i]: t for i, t in again.resume.items()}
        for k, i in enumerate(left):
            if again.status[k] == loyd.SOLVED:
                lengths[i] = again.lengths[k]
    assert list(lengths) == want
    assert calls > 2
    # A damaged token, A* and "mtm" are refused as in solve().
    t = next(iter(r.resume.values()))
    with pytest.raises(loyd.UsageError):
        loyd.solve_many(boards, resume=t[:-1] + ("0" if t[-1] != "0" else "1"), **kw)
    with pytest.raises(loyd.UsageError, match="astar"):
        loyd.solve_many(boards, resume=t, algorithm="astar")
    # Without a limit there is nothing to take up.
    assert loyd.solve_many(boards[:3]).resume == {}


def test_checkpoint_hands_over_each_searchs_points():
    korf = ["14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",  # Korf's #1, 57 moves (80 M nodes, Manhattan)
            "12 15 2 6 1 14 4 8 5 3 7 0 10 13 9 11"]  # #30, 47 moves (2 M)
    kw = dict(goal="blank-first", heuristic="manhattan", threads=2)
    seen = []
    r = loyd.solve_many(korf, checkpoint=seen.append, checkpoint_every=0.1, **kw)
    assert list(r.lengths) == [57, 47]
    assert seen and all(t.startswith("r1.") for t in seen)
    # The points of #1 (the long search) take it up: the same length, less work.
    again = loyd.solve_many(korf[:1], resume=seen, **kw)
    assert list(again.lengths) == [57] and again.nodes[0] < r.nodes[0]
    # Each solved search of a million nodes or more hands over its solution's point too: taken
    # up, #30 (on one thread) is found again with no search, #1 (split over the two threads at
    # the end) from the first of its subtrees not searched to the end.
    both = loyd.solve_many(korf, resume=seen, **kw)
    assert list(both.lengths) == [57, 47]
    assert both.nodes[1] < 100 and both.nodes[0] * 4 < r.nodes[0]

    def boom(token):
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        loyd.solve_many(korf, checkpoint=boom, checkpoint_every=0.1, **kw)
    with pytest.raises(TypeError, match="checkpoint must be callable"):
        loyd.solve_many(korf, checkpoint="ck.txt", **kw)
    with pytest.raises(loyd.UsageError, match="checkpoint_every needs checkpoint"):
        loyd.solve_many(korf, checkpoint_every=5, **kw)
    with pytest.raises(loyd.UsageError, match="mtm"):
        loyd.solve_many(korf, checkpoint=seen.append, metric="mtm", **kw)
