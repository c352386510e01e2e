#!/usr/bin/python3
"""The checker of tests/cli_test.sh: the solver's printed records judged independently.

  verify plain|json --size WxH --goal SPEC --input FILE --output FILE [--bfs]
         [--expect LABEL=STATUS[:LENGTH]]...
      pairs each output record with its instance (by label, or by the line number in an
      "origin:N" label), checks they come in input order, replays solved moves from the
      instance to the goal, checks the JSON fields of every status and the summary's counts,
      with --bfs compares lengths with a breadth-first search (boards of up to 8 cells), and
      with --expect requires exactly those records, in that order ("LABEL=solved" without a
      length matches any length).
  show-json FILE
      the record of `solver --show --json 1 2 3 4 5 6 7 0 8`: one JSON line whose states are
      the start and the goal and whose moved tiles are [8].

Standard library only (with tests/puzzle_oracle.py). Prints one line per problem found; exit
status 0 when there is none, 1 otherwise.
"""
import argparse, collections, json, re, sys

errors = []
def err(msg):
    errors.append(msg)

def goal_tiles(spec, n):
    if spec == "blank-last":
        return list(range(1, n)) + [0]
    if spec == "blank-first":
        return list(range(n))
    return [int(t) for t in re.split(r"[ ,]+", spec.strip())]

from puzzle_oracle import bfs, replay  # tests/puzzle_oracle.py

def read_instances(path):
    """label -> (line number, tiles or None), in input order; origin labels 'x:N' too."""
    out = collections.OrderedDict()
    with open(path) as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            label = None
            if ":" in s:
                label, s = s.split(":", 1)
                label = label.strip()
            try:
                tiles = [int(t) for t in re.split(r"[ ,\t]+", s.strip()) if t]
            except ValueError:
                tiles = None
            out[label if label else "line %d" % n] = (n, tiles)
    return out

SUMMARY_KEYS = ("instances", "solved", "unsolvable", "limit", "invalid")

def parse_plain(text):
    recs = []
    for line in text.splitlines():
        if line.startswith("summary: "):
            fields = dict(re.findall(r"([a-z ]+) ([0-9.]+)(?:,|$)", line[len("summary: "):]))
            fields = {k.strip(): v for k, v in fields.items()}
            try:
                recs.append({"summary": {k: int(fields[k]) for k in SUMMARY_KEYS}})
            except (KeyError, ValueError):
                err("bad summary line: %r" % line)
            continue
        m = re.fullmatch(r"(.*): length (\d+) moves ([UDLR]+|-) nodes (\d+) seconds ([0-9.]+)", line)
        if m:
            moves = "" if m.group(3) == "-" else m.group(3)
            recs.append({"label": m.group(1), "status": "solved", "length": int(m.group(2)),
                         "moves": moves})
            continue
        m = re.fullmatch(r"(.*): unsolvable", line)
        if m:
            recs.append({"label": m.group(1), "status": "unsolvable"})
            continue
        m = re.fullmatch(r"(.*): limit \((.*)\) nodes (\d+) seconds ([0-9.]+) lower bound (\d+)"
                         r"(?: resume r1\.\d+\.(?:\d+|x)\.[UDLR-]+\.[0-9a-f]{16}\.[0-9a-f]{16})?", line)
        if m:
            recs.append({"label": m.group(1), "status": "limit"})
            continue
        m = re.fullmatch(r"(.*): invalid: (.+)", line)
        if m:
            recs.append({"label": m.group(1), "status": "invalid"})
            continue
        err("unrecognised output line: %r" % line)
    return recs

def parse_json(text):
    recs = []
    for line in text.splitlines():
        try:
            o = json.loads(line)
        except ValueError as e:
            err("not JSON: %r (%s)" % (line, e))
            continue
        if "summary" in o:
            if not all(isinstance(o["summary"].get(k), int) for k in SUMMARY_KEYS):
                err("%r: summary counts missing" % line)
            recs.append(o)
            continue
        st = o.get("status")
        if not isinstance(o.get("label"), str):
            err("%r: label missing or not a string" % line)
        if st not in ("solved", "unsolvable", "invalid", "limit"):
            err("%r: bad status" % line)
        # Invalid lines were never searched: their counts and time may be absent.
        need = ("length", "moves") + (() if st == "invalid" else
                                      ("nodes_expanded", "nodes_generated", "seconds"))
        for k in need:
            if k not in o:
                err("%r: field %s missing" % (line, k))
        if st == "solved":
            if not isinstance(o.get("length"), int) or not isinstance(o.get("moves"), str):
                err("%r: solved needs an integer length and a moves string" % line)
            elif o["length"] != len(o["moves"]):
                err("%r: length differs from the number of moves" % line)
            if "error" in o:
                err("%r: error field on a solved instance" % line)
        else:
            if o.get("length") is not None or o.get("moves") is not None:
                err("%r: length and moves must be null when not solved" % line)
            if not isinstance(o.get("error"), str) or not o["error"]:
                err("%r: error message missing" % line)
        if st in ("solved", "unsolvable", "limit"):
            for k in ("nodes_expanded", "nodes_generated"):
                if not isinstance(o.get(k), int) or o[k] < 0:
                    err("%r: %s must be a count" % (line, k))
            if not isinstance(o.get("seconds"), (int, float)) or o["seconds"] < 0:
                err("%r: seconds must be a non-negative number" % line)
        recs.append(o)
    return recs

def verify(a):
    w, h = (int(x) for x in a.size.lower().split("x"))
    goal = goal_tiles(a.goal, w * h)
    inst = read_instances(a.input)
    by_line = {n: (lab, t) for lab, (n, t) in inst.items()}
    text = open(a.output).read()
    recs = parse_plain(text) if a.format == "plain" else parse_json(text)
    dist = bfs(w, h, goal) if a.bfs else None
    # An optional summary record comes last and counts the records before it.
    at = [i for i, r in enumerate(recs) if "summary" in r]
    summaries = [recs[i] for i in at]
    recs = [r for r in recs if "summary" not in r]
    if summaries:
        if at != [len(recs)]:
            err("the summary must be the last record, once")
        sm = summaries[0]["summary"]
        for k in ("solved", "unsolvable", "limit", "invalid"):
            n = sum(1 for r in recs if r["status"] == k)
            if sm[k] != n:
                err("summary says %s %d, the records %d" % (k, sm[k], n))
        if sm["instances"] != sum(sm[k] for k in SUMMARY_KEYS[1:]):
            err("summary instances %d != solved + unsolvable + limit + invalid" % sm["instances"])
        if sm["instances"] != len(recs):
            err("summary instances %d, %d records" % (sm["instances"], len(recs)))
        if a.format == "json" and "total_length" in sm:
            total = sum(r["length"] for r in recs if r["status"] == "solved")
            if sm["total_length"] != total:
                err("summary total_length %d, the records add to %d" % (sm["total_length"], total))
    last_line = 0
    for r in recs:
        lab = r["label"]
        if lab in inst:
            n, tiles = inst[lab]
        else:
            m = re.fullmatch(r".*:(\d+)", lab)
            if not m or int(m.group(1)) not in by_line:
                err("%s: no such instance in the input" % lab)
                continue
            n = int(m.group(1))
            tiles = by_line[n][1]
        if n <= last_line:
            err("%s: output out of input order" % lab)
        last_line = n
        if r["status"] == "solved":
            moves = r["moves"]
            if len(moves) != r["length"]:
                err("%s: length %d but %d moves" % (lab, r["length"], len(moves)))
            problem = replay(w, h, tiles, goal, moves)
            if problem:
                err("%s: replay failed: %s" % (lab, problem))
            if dist is not None and dist.get(tuple(tiles)) != len(moves):
                err("%s: length %d, BFS distance %s" % (lab, len(moves), dist.get(tuple(tiles))))
        if r["status"] == "unsolvable" and dist is not None and tuple(tiles) in dist:
            err("%s: reported unsolvable, BFS reaches it" % lab)
    if a.expect:
        got = []
        for r in recs:
            got.append(r["label"] + "=" + r["status"] +
                       (":%d" % r["length"] if r["status"] == "solved" else ""))
        want = a.expect
        # "LABEL=solved" without a length matches any length.
        ok = len(got) == len(want) and all(
            g == x or (x.endswith("=solved") and g.startswith(x + ":")) for g, x in zip(got, want))
        if not ok:
            err("records %s, expected %s" % (got, want))

def show_json(a):
    """`--show --json` of a one-move board: the boards go into the one JSON record."""
    lines = open(a.file).read().splitlines()
    if len(lines) != 1:
        err("%d lines, expected one record: %r" % (len(lines), lines))
        return
    o = json.loads(lines[0])
    if o.get("states") != [[1, 2, 3, 4, 5, 6, 7, 0, 8], [1, 2, 3, 4, 5, 6, 7, 8, 0]]:
        err("states %r" % o.get("states"))
    if o.get("moved") != [8]:
        err("moved %r" % o.get("moved"))


p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
sub = p.add_subparsers(dest="cmd", required=True)
j = sub.add_parser("show-json")
j.add_argument("file")
v = sub.add_parser("verify")
v.add_argument("format", choices=["plain", "json"])
v.add_argument("--size", required=True)
v.add_argument("--goal", default="blank-last")
v.add_argument("--input", required=True)
v.add_argument("--output", required=True)
v.add_argument("--bfs", action="store_true")
v.add_argument("--expect", action="append", default=[])
a = p.parse_args()
{"verify": verify, "show-json": show_json}[a.cmd](a)
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
