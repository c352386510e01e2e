#!/usr/bin/python3
"""The Python side of bench/python_bench.sh (run with Debian's /usr/bin/python3, with the
built module on PYTHONPATH).

  solve-many TABLES BOARDS GOAL
      opens the set TABLES, reads BOARDS (one flat board a line) with NumPy, solves them all
      with loyd.solve_many(threads=2), asserts every one was solved, and prints "TOTAL_LENGTH
      WALL_SECONDS" (the lengths' sum, solve_many's own seconds): timed as a whole process by
      the script, interpreter start, imports and table loading included.
  open-time TABLES
      prints the time of `import loyd` plus Tables.open on the set (warm cache), beside the
      load_seconds the module reports.
"""
import sys
import time


def solve_many(tables_dir, boards_file, goal):
    import numpy
    import loyd
    tables = loyd.Tables.open(tables_dir)
    boards = numpy.loadtxt(boards_file, dtype=numpy.uint8, ndmin=2)
    r = loyd.solve_many(boards, goal=goal, tables=tables, threads=2)
    assert (r.status == loyd.SOLVED).all()
    print(int(r.lengths.sum()), r.wall_seconds)


def open_time(tables_dir):
    t0 = time.perf_counter()
    import loyd
    tables = loyd.Tables.open(tables_dir)
    t1 = time.perf_counter()
    print("import + open %.3f s (load_seconds %.3f)" % (t1 - t0, tables.load_seconds))


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "solve-many":
        solve_many(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "open-time":
        open_time(sys.argv[2])
    else:
        sys.exit(__doc__)
