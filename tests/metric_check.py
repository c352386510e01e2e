#!/usr/bin/python3
"""The oracle of tests/metric_cli_test.sh: the multi-tile metric and all optimal solutions.

A breadth-first search of the whole board in the metric (tests/puzzle_oracle.py's bfs_counts)
gives every position's distance and its number of shortest paths, independently of the solver.

  judge METRIC W H BOARDS OUTPUT MODE
      the solver's plain OUTPUT for the boards of BOARDS (one a line, blank-last goal):
      MODE solve: each record (in order, one per board) is solved at the BFS distance in
                  METRIC, its moves (blank notation, run lengths) replay to the goal, and in mtm
                  the length is the number of runs written (the runs maximal).
      MODE count: "length L solutions C": L the distance, C the number of shortest paths.
      MODE all:   as count, followed by C lines "solution K MOVES", every one replaying at the
                  optimal length, all distinct (listing is exact when C is below the cap).
  all-json OUTPUT
      the record of `solver --all --json --max-solutions 3 --notation tile "8 2 0/4 6 1/3 7 5"`:
      solved at 24, three distinct solutions listed, capped, the count not exact, the notation
      named (the solutions are in it).
  count-json OUTPUT
      the records of `solver --count --json` on the goal, "8 2 0/4 6 1/3 7 5" and an
      unsolvable board: counts 1 (exact) and 4 (no list), null length, 5 in the summary.

Standard library only. Prints the problems found (the first 20); exit status 0 when there is
none, 1 otherwise.
"""
import json, re, sys
from puzzle_oracle import bfs_counts, replay

errors = []


def judge(metric, w, h, boards_file, out_file, mode):
    """MODE solve, count or all: see the module's description."""
    w, h = int(w), int(h)
    n = w * h
    goal = tuple(list(range(1, n)) + [0])
    dist, count = bfs_counts(w, h, goal, metric)
    boards = [tuple(int(t) for t in re.split(r"[\s,/]+", l.strip()) if t) for l in open(boards_file) if l.strip()]
    lines = [l.rstrip("\n") for l in open(out_file)]

    def expand(text):
        return "".join(m.group(1) * int(m.group(2) or 1) for m in re.finditer(r"([UDLR])([0-9]*)", text))

    def moves_ok(b, text, where):
        if not re.fullmatch(r"([UDLR][1-9][0-9]*|[UDLR])+|-", text):
            errors.append("%s: not a move text %r" % (where, text))
            return None
        runs = len(re.findall(r"[UDLR]", text)) if text != "-" else 0
        if metric == "mtm" and re.search(r"([UDLR])[0-9]*\1", text):
            errors.append("%s: runs not maximal in %r" % (where, text))
        moves = expand(text) if text != "-" else ""
        bad = replay(w, h, b, goal, moves)
        if bad:
            errors.append("%s: %s" % (where, bad))
            return None
        return runs if metric == "mtm" else len(moves)

    i = 0
    for k, b in enumerate(boards):
        where = "board %d %s" % (k + 1, b)
        if i >= len(lines):
            errors.append("%s: no record" % where)
            break
        line = lines[i]
        i += 1
        if mode == "solve":
            m = re.match(r".*?: length (\d+)( metric mtm)? moves (\S+) nodes \d+ seconds", line)
            if not m or bool(m.group(2)) != (metric == "mtm"):
                errors.append("%s: record %r" % (where, line))
                continue
            got = moves_ok(b, m.group(3), where)
            if got is not None and not (got == int(m.group(1)) == dist[b]):
                errors.append("%s: length %s, moves count %s, BFS %d" % (where, m.group(1), got, dist[b]))
            continue
        m = re.match(r".*?: length (\d+)( metric mtm)? solutions (\d+) nodes", line)
        if not m:
            errors.append("%s: record %r" % (where, line))
            continue
        if int(m.group(1)) != dist[b] or int(m.group(3)) != count[b]:
            errors.append("%s: length %s solutions %s, BFS %d with %d shortest paths" %
                          (where, m.group(1), m.group(3), dist[b], count[b]))
        if mode == "all":
            seen = set()
            for s in range(count[b]):
                if i >= len(lines) or not re.match(r".*?: solution %d (\S+)$" % (s + 1), lines[i]):
                    errors.append("%s: solution %d missing" % (where, s + 1))
                    break
                text = re.match(r".*?: solution \d+ (\S+)$", lines[i]).group(1)
                i += 1
                if moves_ok(b, text, where) != dist[b]:
                    errors.append("%s: solution %d is not optimal: %s" % (where, s + 1, text))
                seen.add(expand(text))
            if len(seen) != count[b]:
                errors.append("%s: %d distinct solutions listed, %d exist" % (where, len(seen), count[b]))
    if i < len(lines) and not lines[i].startswith("summary:"):
        errors.append("unexpected line %r" % lines[i])


def all_json(out_file):
    """--all --json with a cap of 3 on a board of 4 optimal solutions."""
    r = json.loads(open(out_file).read())
    if not (r["status"] == "solved" and r["length"] == 24):
        errors.append("not solved at 24: %r" % r)
    if not (r["count"] == 3 and r["capped"] is True and r["count_exact"] is False):
        errors.append("count, capped, count_exact: %r" % r)
    if not (len(r["solutions"]) == 3 and len(set(r["solutions"])) == 3):
        errors.append("not three distinct solutions: %r" % r)
    if r.get("notation") != "tile" or "runs" not in r:
        errors.append("the solutions' notation and run style not named: %r" % r)


def count_json(out_file):
    """--count --json on three boards: counts, no solution lists, the unsolvable one, the summary."""
    rs = [json.loads(l) for l in open(out_file)]
    if len(rs) < 4:
        errors.append("%d records, expected three and a summary" % len(rs))
        return
    if not (rs[0]["count"] == 1 and rs[0]["length"] == 0 and rs[0]["count_exact"] is True):
        errors.append("the goal: %r" % rs[0])
    if not (rs[1]["count"] == 4 and "solutions" not in rs[1]):
        errors.append("the 24-move board: %r" % rs[1])
    if not (rs[2]["status"] == "unsolvable" and rs[2]["length"] is None):
        errors.append("the unsolvable board: %r" % rs[2])
    if rs[3]["summary"]["solutions"] != 5:
        errors.append("the summary: %r" % rs[3])


commands = {"judge": (judge, 6), "all-json": (all_json, 1), "count-json": (count_json, 1)}
if len(sys.argv) < 2 or sys.argv[1] not in commands or len(sys.argv) - 2 != commands[sys.argv[1]][1]:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
commands[sys.argv[1]][0](*sys.argv[2:])
for e in errors[:20]:
    print(e)
sys.exit(1 if errors else 0)
