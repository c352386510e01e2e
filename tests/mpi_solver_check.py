#!/usr/bin/python3
"""Inputs and checks of tests/mpi_solver_test.sh (the solver under mpirun).

  make-batch KORF100_TXT
      prints the mixed batch: 40 random 3x3 positions (seed 12; about half cannot reach the
      goal), ten easy Korf instances among them (79 12 42 55 97, then 19 94 47 93 9), comment,
      blank and invalid lines, and a labelled board in rows.
  make-claims SOLVE_OUTPUT BATCH
      prints `solver check` lines for every solution in SOLVE_OUTPUT (plain records of BATCH),
      then one of them made two moves longer ("longer") and an illegal one ("illegal").
  split OUTPUT KORF100_TSV
      the JSON record of Korf #60 split over 3 ranks: solved at its published optimal length,
      the moves replayed (tests/puzzle_oracle.py) from the instance to the blank-first goal,
      3 ranks and at least 3 threads, and every rank's nodes counted (more than the 4.5 million
      that the iterations before the last take at least).
  split-limit OUTPUT
      the plain record of Korf #60 under a node limit of 2,000,000 counted over 3 ranks: one
      limit record whose nodes are at least the limit and below 12 million, and whose lower
      bound is past the first bound (48) and never above the optimum (66).

Standard library only. A check that fails raises (exit status 1, the reason on stderr).
"""
import json
import random
import re
import sys

from puzzle_oracle import replay


def make_batch(korf_path):
    random.seed(12)
    korf = [l.strip() for l in open(korf_path) if l.startswith("korf-")]
    easy = [l for l in korf if l.split(":")[0] in
            ("korf-79", "korf-12", "korf-42", "korf-55", "korf-97", "korf-19", "korf-94", "korf-47", "korf-93",
             "korf-9")]
    lines = []
    for _ in range(40):
        t = list(range(9))
        random.shuffle(t)
        lines.append(" ".join(map(str, t)))
    lines[3:3] = easy[:5]
    lines[20:20] = ["# a comment", "", "1 2 3", "mine: 3 1 2/4 0 5/6 7 8", "1 2 3 4 5 6 7 8 8"]
    lines[30:30] = easy[5:] + ["0 1 2 3 4 5 6 7 8 9 10 11 12 13 15 15", "x 1 2 3 4 5 6 7 8"]
    print("\n".join(lines))


def make_claims(solve_output, batch):
    sol = {}
    for line in open(solve_output):
        if ": length " in line:
            label, rest = line.split(": length ", 1)
            sol[label] = rest.split(" moves ")[1].split(" ")[0]
    boards = {}
    for n, line in enumerate(open(batch), 1):
        s = line.strip()
        label = "%s:%d" % (batch, n)
        if ":" in s:
            label, s = s.split(":", 1)
        boards[label.strip()] = s.strip()
    out = ["%s: %s %s" % (l.replace(":", "_"), boards[l], m) for l, m in sol.items()]
    l, m = next(iter(sol.items()))
    out.append("longer: %s %s" % (boards[l], m + "RL"))  # the goal's blank is top left
    out.append("illegal: 1 2 3/4 5 6/7 8 0 R")
    print("\n".join(out))


def split(output, korf_tsv):
    rec = json.loads(open(output).read())
    row = next(l.split("\t") for l in open(korf_tsv) if l.startswith("60\t"))
    start, optimal = [int(t) for t in row[1].split()], int(row[3])
    assert rec["status"] == "solved" and rec["length"] == optimal == len(rec["moves"]), rec
    problem = replay(4, 4, start, list(range(16)), rec["moves"])
    assert problem is None, problem
    assert rec["ranks"] == 3 and rec["threads"] >= 3, rec
    # Every rank's nodes: the iterations before the last (bounds up to 64), which the ranks
    # search whole between them, take 5.0-6.0 M nodes in one process, rank 0's share alone
    # about a third; the last iteration's share is timing (the solution was found at 9.7 M
    # in all once, at ~58 M in one process).
    assert rec["nodes_generated"] > 4_500_000, rec


def split_limit(output):
    m = re.fullmatch(r"korf-60: limit \(node limit\) nodes (\d+) seconds [0-9.]+ lower bound (\d+)\n",
                     open(output).read())
    assert m, "no limit record"
    nodes, bound = int(m.group(1)), int(m.group(2))
    # Checked every 65,536 nodes per thread and 50 ms: stopped well before the last iteration
    # (from 5.0-6.0 M nodes on), so never solved first.
    assert 2_000_000 <= nodes < 12_000_000, nodes
    assert 48 < bound <= 66, bound  # past the first bound, never above the optimum


commands = {"make-batch": (make_batch, 1), "make-claims": (make_claims, 2), "split": (split, 2),
            "split-limit": (split_limit, 1)}
if len(sys.argv) < 2 or sys.argv[1] not in commands or len(sys.argv) - 2 != commands[sys.argv[1]][1]:
    sys.exit(__doc__)
commands[sys.argv[1]][0](*sys.argv[2:])
