"""Ctrl-C: a long solve, solve_many or heuristic_values stops with KeyboardInterrupt within a
fraction of a second, no thread is left behind, and the interpreter keeps working. Each case
runs in its own interpreter, with SIGINT sent as a terminal sends it: to the process."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

PRELUDE = textwrap.dedent("""
    import os, sys, time, loyd
    HARD = "0 15 8 3 12 11 7 4 14 10 6 5 9 13 2 1"   # Manhattan needs minutes on it
    def threads():
        with open("/proc/self/status") as f:
            return int(next(l for l in f if l.startswith("Threads:")).split()[1])
    SETUP
    loyd.solve("1 2 3/4 5 6/7 0 8")  # the call's runner thread exists from now on (it is kept)
    before = threads()
    print("ready", flush=True)
    t0 = time.monotonic()
    try:
        CALL
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted %.3f" % (time.monotonic() - t0), flush=True)
    print("threads", threads() - before, flush=True)
    s = loyd.solve("1 2 3/4 5 6/7 0 8")
    print("after", s.length, flush=True)
""")

CALLS = {
    "solve, one thread": 'loyd.solve(HARD, heuristic="manhattan", threads=1)',
    "solve, split over threads": 'loyd.solve(HARD, heuristic="manhattan", threads=3)',
    "solve, A*": 'loyd.solve(HARD, heuristic="misplaced", algorithm="astar", node_limit=10**9)',
    "solve, mtm": 'loyd.solve(HARD, heuristic="manhattan", metric="mtm")',
    "count_solutions": 'loyd.count_solutions(HARD, heuristic="manhattan")',
    "solve_many": 'loyd.solve_many([HARD] * 8, heuristic="manhattan", threads=2)',
    "solve_many with progress": 'loyd.solve_many([HARD] * 3, heuristic="manhattan", threads=4, '
                                'progress=lambda d, t: None, progress_every=0)',
    "heuristic_values": 'loyd.heuristic_values(many, heuristic="walking-distance")',
    "scramble": 'loyd.scramble(120_000_000, (3, 2), 1)',
}
SETUPS = {"heuristic_values": "import numpy; many = numpy.tile(loyd.scramble(1000, (4, 4), 1), (20000, 1))"}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_ctrl_c_interrupts_cleanly(name):
    code = PRELUDE.replace("SETUP", SETUPS.get(name, "pass")).replace("CALL", CALLS[name])
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=os.environ.copy())
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(0.5)  # the call is under way
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        waited = time.monotonic() - sent
    finally:
        p.kill()
    lines = out.splitlines()
    assert lines and lines[0].startswith("interrupted"), (out, err)
    assert waited < 5, waited
    assert "threads 0" in lines, out  # every thread the call started has ended
    assert "after 1" in lines, (out, err)  # the interpreter still works
    assert p.returncode == 0, err
