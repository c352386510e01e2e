#!/usr/bin/python3
"""Random solvable positions in the TSV form of ../shared/data/korf24.tsv, for `solve_bench
--gap` on instances no partition was chosen on (docs/benchmarks.md, "A second 6-6-6-6
partition ..." and "A wider search for the second partition").

  random_tsv.py 4x4|5x5 COUNT SEED PLUS

prints a comment line, then COUNT positions of the board (the 15- or 24-puzzle, the boards
solve_bench reads; goal blank first, as solve_bench's), one row each: id, the tiles row-major
(0 the blank), Manhattan distance + PLUS in the length column, and 1 in the published-nodes
column. The length column is a bound, not a length: `solve_bench TSV pdb --gap K` then stops
every search as its bound passes Manhattan + PLUS - K, the same depth for every set, and counts
the nodes to there (an instance solved below it counts its whole search). PLUS must exceed K,
or no iteration is counted.
Each position is Python's random.shuffle of the cells after random.seed(SEED), drawn again
while it cannot reach the goal: the same arguments always give the same rows.
"""
import random
import sys


def solvable(cells, width):
    """Whether the position reaches the blank-first goal: the permutation's parity (blank
    included) equals the parity of the blank's distance from its goal cell, cell 0."""
    seen, swaps = [False] * len(cells), 0
    for start in range(len(cells)):
        length, c = 0, start
        while not seen[c]:
            seen[c], c, length = True, cells[c], length + 1
        swaps += max(length - 1, 0)
    blank = cells.index(0)
    return swaps % 2 == (blank // width + blank % width) % 2


def manhattan(cells, width):
    return sum(abs(c // width - t // width) + abs(c % width - t % width)
               for c, t in enumerate(cells) if t)


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("4x4", "5x5"):
        sys.exit(__doc__)
    width = height = int(sys.argv[1][0])
    try:
        count, seed, plus = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    except ValueError:
        sys.exit("random_tsv.py: COUNT, SEED and PLUS are whole numbers\n" + __doc__)
    if count < 0 or plus < 1:
        sys.exit("random_tsv.py: COUNT must be at least 0 and PLUS at least 1")
    random.seed(seed)
    print(f"# {count} random {width}x{height} positions (bench/random_tsv.py {width}x{height} "
          f"{count} {seed} {plus}), goal blank first; column 3 is Manhattan + {plus} (a bound, "
          "not a length), column 4 a weight of 1")
    n = 0
    while n < count:
        cells = list(range(width * height))
        random.shuffle(cells)
        if not solvable(cells, width):
            continue
        n += 1
        print(f"{n}\t{' '.join(map(str, cells))}\t{manhattan(cells, width) + plus}\t1")


main()
