"""Threads: solve_many runs the threads asked for with the GIL released (other Python threads
run meanwhile), any thread count gives the same answers, and concurrent calls from Python
threads share one loaded table set."""

import os
import resource
import subprocess
import sys
import threading

import pytest

import loyd

HARD = ["0 15 8 3 12 11 7 4 14 10 6 5 9 13 2 1", "5 12 10 7 15 11 14 0 8 2 1 13 3 4 9 6",
        "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15", "4 7 14 13 10 3 9 12 11 5 6 15 1 2 8 0"]


def os_threads():
    with open("/proc/self/status") as f:
        return int(next(line for line in f if line.startswith("Threads:")).split()[1])


@pytest.mark.parametrize("threads", [1, 3])
def test_solve_many_runs_the_threads_asked_for(threads):
    loyd.solve_many(["1 2 3/4 5 6/7 0 8"])  # the runner thread, kept between calls, exists
    before = os_threads()
    seen = []
    boards = loyd.scramble(400, (4, 3), 8)
    r = loyd.solve_many(boards, size=(4, 3), heuristic="linear-conflict", threads=threads,
                        progress=lambda d, t: d < t and seen.append(os_threads() - before),
                        progress_every=0)
    assert r.threads == threads
    one = loyd.solve_many(boards[:1], size=(4, 3), heuristic="linear-conflict", threads=threads)
    assert one.threads == threads  # as the solver's summary: the one search split over them
    # the calling thread waits; the runner and threads - 1 more search; those end with the call
    assert seen and max(seen) == threads - 1
    assert os_threads() == before


def test_any_thread_count_gives_the_same_answers():
    boards = loyd.scramble(200, (3, 3), 21)
    one = loyd.solve_many(boards, threads=1, moves=True)
    for t in (2, 5, 16):
        many = loyd.solve_many(boards, threads=t, moves=True)
        assert (many.lengths == one.lengths).all() and (many.nodes == one.nodes).all()
        assert many.moves == one.moves
    # fewer positions than threads: each search split, still optimal
    few = loyd.solve_many(loyd.scramble(2, (4, 3), 3), size=(4, 3), threads=4)
    assert list(few.lengths) == [loyd.solve(list(b), size=(4, 3), threads=1).length for b in loyd.scramble(2, (4, 3), 3)]


@pytest.mark.parametrize("call", ["solve_many", "solve", "heuristic_values"])
def test_the_gil_is_released(call):
    calls = {
        "solve_many": lambda: loyd.solve_many(HARD[1:], goal="blank-first", heuristic="linear-conflict",
                                              threads=2),
        "solve": lambda: loyd.solve(HARD[1], goal="blank-first", heuristic="linear-conflict"),
        "heuristic_values": lambda: loyd.heuristic_values(loyd.scramble(300_000, (4, 4), 1),
                                                          heuristic="walking-distance"),
    }
    done = threading.Event()
    worker = threading.Thread(target=lambda: (calls[call](), done.set()))
    ticks = 0
    worker.start()
    while not done.is_set():  # this thread keeps running Python while the call searches
        ticks += 1
        done.wait(0.001)
    worker.join()
    assert ticks >= 20, ticks


def test_python_threads_share_one_table_set(root):
    a = loyd.Tables.open(root / "data/15-5-5-5")
    assert loyd.Tables.open(str(root / "data/15-5-5-5/manifest.txt")) == a
    assert loyd.Tables.find(size=(4, 4)) == a and hash(loyd.Tables.find(size="4x4")) == hash(a)
    assert loyd.Tables.open(root / "data/8-4-4") != a
    boards = [list(b) for b in loyd.scramble(24, (4, 4), 5, goal="blank-first")][:6]
    expected = [loyd.solve(b, goal="blank-first", tables=a, threads=1).moves for b in boards]
    results = {}

    def work(i):
        results[i] = loyd.solve(boards[i], goal="blank-first", tables=a, threads=1).moves

    ts = [threading.Thread(target=work, args=(i,)) for i in range(len(boards))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert [results[i] for i in range(len(boards))] == expected


def test_python_threads_opening_one_set_at_once_load_it_once(root, tmp_path):
    # A copy of the set of its own, so no earlier test has it loaded already.
    import shutil
    path = tmp_path / "set"
    shutil.copytree(root / "data/15-5-5-5", path)
    got = [None] * 4
    start = threading.Barrier(4)

    def work(i):
        start.wait()
        got[i] = loyd.Tables.open(path, cache_dir=None)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert all(t == got[0] for t in got)
    assert loyd.Tables.open(path, verify=False) == got[0]  # the checked copy serves both
    other = tmp_path / "other"
    shutil.copytree(root / "data/8-4-4", other)
    unchecked = loyd.Tables.open(other, verify=False)
    checked = loyd.Tables.open(other)  # loaded again, with every check
    assert checked != unchecked and loyd.Tables.open(other, verify=False) == checked


def test_sets_dropped_leave_no_bookkeeping_behind(root, tmp_path):
    """Each set opened and dropped (here 40 copies, from 4 threads) leaves neither its load
    lock nor its entry behind: the module's bookkeeping holds the sets in use, not every set
    ever opened."""
    import shutil
    for i in range(40):
        shutil.copytree(root / "data/8-4-4", tmp_path / f"s{i}")
    kept = loyd.Tables.open(tmp_path / "s0", cache_dir="none")

    def work(k):
        for i in range(k, 40, 4):
            loyd.Tables.open(tmp_path / f"s{i}", cache_dir="none")  # dropped at once

    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    loyd.Tables.open(tmp_path / "s1", cache_dir="none")  # the last open sweeps the rest
    opened, locks = loyd._loyd._open_bookkeeping()
    assert locks == 0
    assert opened <= 8  # sets other tests hold, `kept`; was 40 more
    assert loyd.Tables.open(tmp_path / "s0", cache_dir="none") == kept


def test_a_child_forked_while_a_set_loads_opens_sets(root, tmp_path):
    """fork() while another thread loads a set: the child (the forking thread alone) must not
    inherit a lock that thread held, or every open there would wait for good."""
    import os
    import shutil
    import time
    for i in range(6):
        shutil.copytree(root / "data/15-5-5-5", tmp_path / f"s{i}")
    stop = threading.Event()

    def loader():
        i = 0
        while not stop.is_set():  # each copy dropped at once, so the next open loads again
            loyd.Tables.open(tmp_path / f"s{i % 5}", cache_dir="none")
            i += 1

    t = threading.Thread(target=loader)
    t.start()
    hung = 0
    try:
        for _ in range(6):
            time.sleep(0.01)
            pid = os.fork()
            if pid == 0:
                ok = loyd.Tables.open(tmp_path / "s5", cache_dir="none") is not None
                os._exit(0 if ok else 1)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    assert os.waitstatus_to_exitcode(status) == 0
                    break
                time.sleep(0.01)
            else:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                hung += 1
    finally:
        stop.set()
        t.join()
    assert hung == 0


def test_forked_children_solve():
    """multiprocessing's fork start method: a child forked after searches ran (their runner
    threads are not in the child) solves as well, with the tables the parent loaded."""
    import multiprocessing

    boards = [list(b) for b in loyd.scramble(8, (3, 3), 4)]
    expected = [loyd.solve(b, threads=1).moves for b in boards]
    loyd.solve_many(boards)
    with multiprocessing.get_context("fork").Pool(2) as pool:
        got = pool.map(_moves, boards)
    assert got == expected


def _moves(board):
    return loyd.solve(board, threads=1).moves


def run_fresh(code, timeout=60):
    """Runs `code` in a fresh interpreter (NumPy not yet imported), as the package is used."""
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout)


def test_first_array_calls_of_two_threads_at_once_do_not_deadlock():
    # NumPy is set up once under a lock; without it two first calls deadlocked in pybind11.
    code = """
import threading, loyd
b = threading.Barrier(2)
def f(i):
    b.wait()
    if i: loyd.scramble(10, (3, 3), seed=1)
    else: loyd.solve_many([[1, 2, 3, 4, 5, 6, 7, 0, 8]])
ts = [threading.Thread(target=f, args=(i,)) for i in range(2)]
[t.start() for t in ts]; [t.join() for t in ts]; print("ok")
"""
    for _ in range(3):
        p = run_fresh(code, timeout=60)
        assert p.returncode == 0 and p.stdout == "ok\n", p.stderr


def test_exit_with_a_daemon_thread_in_a_long_call_is_clean():
    # At shutdown the waiting thread is parked, not ended by Python through the search's frames
    # (that aborted: "terminate called without an active exception"), and the search is stopped
    # before the exit handlers run: the waiting thread wakes every 20 ms, and an exit between two
    # wakes crashed the search threads in about one run in 40 (SIGSEGV). Exits spread over
    # that window, one or two search threads.
    for i in range(12):
        code = f"""
import threading, time, loyd
K = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
threading.Thread(target=lambda: loyd.solve(K, goal="blank-first", heuristic="misplaced",
                                           threads={1 + i % 2}), daemon=True).start()
time.sleep({0.2 + i * 0.0017:.4f})
"""
        p = run_fresh(code)
        assert p.returncode == 0 and "terminate" not in p.stderr, (i, p.returncode, p.stderr)


def test_exit_while_a_daemon_threads_callback_sleeps_is_clean():
    # A checkpoint or progress callback that releases the GIL (here: sleeps) when the shutdown
    # begins is ended by Python as it takes the GIL back; that unwound the call's frames without
    # the GIL and crashed the exit (SIGSEGV or "Fatal Python error") in most runs. The thread is
    # now parked where the callback was called. solve and solve_many, exits spread over the
    # callbacks' sleeps.
    calls = [
        'loyd.solve(K, goal="blank-first", heuristic="manhattan", threads=2, checkpoint=slow, '
        'checkpoint_every=0.1)',
        'loyd.solve(K, goal="blank-first", heuristic="manhattan", threads=2, '
        'progress=lambda *a: slow(a))',
        'loyd.solve_many([K, K], goal="blank-first", heuristic="manhattan", threads=2, '
        'checkpoint=slow, checkpoint_every=0.1)',
        'loyd.solve_many([K, K], goal="blank-first", heuristic="manhattan", threads=2, '
        'progress=lambda d, n: slow(d), progress_every=0)',
    ]
    for i in range(12):
        code = f"""
import threading, time, loyd
K = "15 2 12 11/14 13 9 5/1 3 8 7/0 10 6 4"
def slow(_):
    time.sleep(0.05)
threading.Thread(target=lambda: {calls[i % 4]}, daemon=True).start()
time.sleep({0.3 + i * 0.013:.3f})
"""
        p = run_fresh(code)
        assert p.returncode == 0 and "Fatal" not in p.stderr, (i, p.returncode, p.stderr)


def test_a_call_from_a_finalizer_at_exit_runs_to_its_end():
    # A __del__ run while the interpreter shuts down calls into loyd from the exiting thread:
    # that call used to park the thread, and the process never ended.
    code = """
import loyd
class Solver:
    def __del__(self):
        print(loyd.solve("1 2 3/4 5 6/7 0 8").moves, flush=True)
keep = Solver()
"""
    p = run_fresh(code, timeout=60)
    assert p.returncode == 0 and p.stdout == "R\n", (p.stdout, p.stderr)


@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer reserves more address space than the limit below")
def test_threads_that_cannot_start_raise_limit_error():
    """Under an address-space limit (ulimit -v) 1024 threads' stacks do not fit: the call raises
    LimitError ("out of resources") and the interpreter goes on; it used to abort
    (std::terminate on the threads already started)."""
    code = """
import loyd
hard = "8 14 10 12 11 7 0 2 13 3 15 5 4 6 9 1"
calls = [lambda: loyd.solve(hard, threads=1024),
         lambda: loyd.solve_many([hard], threads=1024),
         lambda: loyd.heuristic_values(loyd.scramble(5000, (4, 4), 1), threads=1024)]
for call in calls:
    try:
        call()
        print("no error")
    except loyd.LimitError as e:
        print("LimitError", "out of resources" in str(e))
print(loyd.solve("1 2 3/4 5 6/7 0 8").length)
"""
    limit = 1 << 30
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
                       preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
    assert p.returncode == 0, p.stderr
    assert p.stdout.split("\n")[:4] == ["LimitError True"] * 3 + ["1"], p.stdout
