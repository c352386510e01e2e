#!/usr/bin/python3
"""Random 3x3 lines for the batch benchmarks (bench/stream_bench.sh, bench/mpi_solver_bench.sh).

  random_boards.py COUNT SEED
      prints COUNT lines of the nine tiles 0..8 in random order (Python's random.shuffle after
      random.seed(SEED)): about half of them cannot reach the goal. The same COUNT and SEED
      always give the same lines, so figures taken on different days compare.
"""
import random
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    random.seed(seed)
    w = sys.stdout.write
    for _ in range(count):
        t = list(range(9))
        random.shuffle(t)
        w(" ".join(map(str, t)) + "\n")


main()
