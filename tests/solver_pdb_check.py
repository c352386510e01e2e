#!/usr/bin/python3
"""The checker of tests/solver_pdb_cli_test.sh: the solver's records with pattern databases.

  records WxH GOAL INSTANCES OUTPUT plain|json [--bfs] [--optimal FILE] [--heuristic NAME]
          [--status STATUS]
      records must come in input order, one per instance of INSTANCES ("LABEL: tiles"), then
      a summary when there is more than one instance. Solved records are replayed on the
      instance as given (U D L R move the blank) and their length compared with the known
      optimum ("LABEL LENGTH" lines of FILE) or, with --bfs, with a breadth-first search (kept
      beside OUTPUT for the next call). JSON records must carry heuristic_start (<= the
      length) and, with --heuristic, that heuristic name; every record has STATUS (default
      solved), and records that are not solved have null length and moves.
  lower-bound OUTPUT
      the JSON record of a search stopped by a limit: its lower_bound, an integer, is at least
      its heuristic_start, which is positive.
  utf8-labels OUTPUT
      JSON records of labels holding bytes that are not UTF-8 ("caf\xe9 \xff\xfe", "bad\xc3"):
      the output is valid UTF-8, the bytes replaced by U+FFFD, the first solved, the second
      invalid.
  make-stream FILE
      writes the streamed batch: 400 labelled random 3x3 lines s1..s400 (seed 3), comment and
      blank lines before every 37th, every 53rd line invalid.
  streamed OUTPUT
      the JSON records of that batch: s1..s400 in input order, the invalid ones exactly
      s53, s106, ..., and a summary last counting 400 instances.
  fallback-3x4 OUTPUT
      the JSON record of the 3x4 board 1 2 3/4 5 6/0 7 9/10 8 11: its moves replay to the goal.
  progress OUTPUT
      what a terminal shows of `solver` searching Korf #60 for 2 s: a progress line
      "solver: bound B, N nodes, S s, R M nodes/s" (N with thousands separators) erased before
      the answer (a time limit).

Standard library only (with tests/puzzle_oracle.py). Prints one line per problem found; exit
status 0 when there is none, 1 otherwise (an assertion error counts as a problem).
"""
import json, os, pickle, random, re, sys
import puzzle_oracle as oracle  # tests/puzzle_oracle.py

errors = []


def records(args):
    """The records of a batch or an instance: see the module's description."""
    size, goal_spec, inst_path, out_path, fmt = args[:5]
    opts = args[5:]
    want_bfs = "--bfs" in opts
    want_heur = opts[opts.index("--heuristic") + 1] if "--heuristic" in opts else None
    want_status = opts[opts.index("--status") + 1] if "--status" in opts else "solved"
    optimal = {}
    if "--optimal" in opts:
        for line in open(opts[opts.index("--optimal") + 1]):
            label, length = line.split()
            optimal[label] = int(length)
    w, h = (int(x) for x in size.split("x"))
    n = w * h
    goal = list(range(1, n)) + [0] if goal_spec == "blank-last" else list(range(n))

    insts = []
    for line in open(inst_path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        label, rest = line.split(":", 1)
        insts.append((label.strip(), [int(t) for t in rest.split()], optimal.get(label.strip())))

    def replay(start, moves):
        return oracle.replay(w, h, start, goal, moves)

    def bfs():
        return oracle.bfs(w, h, goal)

    dist = None
    if want_bfs:
        # Two seconds per 3x3 search: kept beside the output (in the test's scratch folder) for the
        # next call.
        cache = os.path.join(os.path.dirname(os.path.abspath(out_path)), "bfs-%s-%s.pickle" % (size, goal_spec))
        if os.path.exists(cache):
            dist = pickle.load(open(cache, "rb"))
        else:
            dist = bfs()
            pickle.dump(dist, open(cache, "wb"))
    lines = open(out_path).read().splitlines()
    recs = []
    summary = None
    for i, line in enumerate(lines):
        if fmt == "json":
            o = json.loads(line)
            if "summary" in o:
                summary = (i, o["summary"])
                continue
            recs.append(o)
        else:
            if line.startswith("summary: "):
                summary = (i, line)
                continue
            m = re.fullmatch(r"(.*): length (\d+) moves ([UDLR]+|-) nodes (\d+) seconds ([0-9.]+)", line)
            if m:
                recs.append({"label": m.group(1), "status": "solved", "length": int(m.group(2)),
                             "moves": "" if m.group(3) == "-" else m.group(3)})
                continue
            m = re.fullmatch(r"(.*): limit \((.*)\) nodes (\d+) seconds ([0-9.]+) lower bound (\d+)"
                             r"(?: resume r1\.\S+)?", line)
            if m:
                recs.append({"label": m.group(1), "status": "limit"})
                continue
            errors.append("unrecognised line %r" % line)

    if [r["label"] for r in recs] != [x[0] for x in insts]:
        errors.append("labels %s, expected %s in input order" % ([r["label"] for r in recs], [x[0] for x in insts]))
    if len(insts) > 1:
        if summary is None or summary[0] != len(lines) - 1:
            errors.append("no summary line last")
        elif fmt == "json" and summary[1].get(want_status if want_status != "solved" else "solved") != len(insts):
            errors.append("summary %r does not count %d %s" % (summary[1], len(insts), want_status))
        elif fmt == "plain" and ("instances %d," % len(insts)) not in summary[1]:
            errors.append("summary %r does not count %d instances" % (summary[1], len(insts)))
    elif summary is not None:
        errors.append("a summary for one instance")

    for r, (label, tiles, opt) in zip(recs, insts):
        if r.get("status") != want_status:
            errors.append("%s: status %r, expected %s" % (label, r.get("status"), want_status))
            continue
        if fmt == "json":
            if want_heur and r.get("heuristic") != want_heur:
                errors.append("%s: heuristic %r, expected %s" % (label, r.get("heuristic"), want_heur))
            if not isinstance(r.get("heuristic_start"), int):
                errors.append("%s: no heuristic_start" % label)
        if want_status != "solved":
            if fmt == "json" and (r.get("length") is not None or r.get("moves") is not None):
                errors.append("%s: length/moves not null on %s" % (label, want_status))
            continue
        moves = r["moves"]
        if r["length"] != len(moves):
            errors.append("%s: length %d but %d moves" % (label, r["length"], len(moves)))
        problem = replay(tiles, moves)
        if problem:
            errors.append("%s: %s" % (label, problem))
        known = dist[tuple(tiles)] if dist is not None else opt
        if known is not None and len(moves) != known:
            errors.append("%s: length %d, optimal is %d" % (label, len(moves), known))
        if fmt == "json" and isinstance(r.get("heuristic_start"), int) and r["heuristic_start"] > len(moves):
            errors.append("%s: heuristic_start %d exceeds the length %d" % (label, r["heuristic_start"], len(moves)))


def lower_bound(out_path):
    o = json.loads(open(out_path).readline())
    assert isinstance(o["lower_bound"], int) and o["lower_bound"] >= o["heuristic_start"] > 0, o


def utf8_labels(out_path):
    raw = open(out_path, "rb").read()
    lines = raw.decode("utf-8").splitlines()  # strict: raises on any invalid byte
    recs = [json.loads(l) for l in lines]
    assert recs[0]["label"] == "caf\ufffd \ufffd\ufffd" and recs[0]["status"] == "solved", recs[0]
    assert recs[1]["status"] == "invalid" and recs[1]["label"].startswith("bad"), recs[1]


def make_stream(path):
    random.seed(3)
    with open(path, "w") as f:
        for i in range(1, 401):
            if i % 37 == 0:
                f.write("# a comment\n\n")
            if i % 53 == 0:
                f.write("s%d: 1 2 3 oops\n" % i)
                continue
            t = list(range(9))
            random.shuffle(t)
            f.write("s%d: %s\n" % (i, " ".join(map(str, t))))


def streamed(out_path):
    recs = [json.loads(l) for l in open(out_path)]
    assert "summary" in recs[-1], "no summary last"
    labels = [r["label"] for r in recs[:-1]]
    assert labels == ["s%d" % i for i in range(1, 401)], labels[:10]
    bad = [r["label"] for r in recs[:-1] if r["status"] == "invalid"]
    assert bad == ["s%d" % i for i in range(53, 401, 53)], bad
    assert recs[-1]["summary"]["instances"] == 400


def fallback_3x4(out_path):
    o = json.loads(open(out_path).readline())
    start = [1, 2, 3, 4, 5, 6, 0, 7, 9, 10, 8, 11]
    problem = oracle.replay(3, 4, start, list(range(1, 12)) + [0], o["moves"])
    assert problem is None, problem


def progress(out_path):
    t = open(out_path, "rb").read().decode()
    assert re.search(r"\rsolver: bound \d+, \d{1,3}(,\d{3})* nodes, \d+\.\d s, \d+\.\d M nodes/s\x1b\[K", t), \
        "no progress line in %r" % t[:400]
    assert re.search(r"\r\x1b\[K(solver: [^\r\n]*\r\n)?argument 1: limit \(time limit\)", t), \
        "the progress line is not erased before the answer in %r" % t[:400]


commands = {"records": records, "lower-bound": lower_bound, "utf8-labels": utf8_labels,
            "make-stream": make_stream, "streamed": streamed, "fallback-3x4": fallback_3x4,
            "progress": progress}
if len(sys.argv) < 3 or sys.argv[1] not in commands:
    sys.exit(__doc__)
if sys.argv[1] == "records":
    records(sys.argv[2:])
else:
    commands[sys.argv[1]](*sys.argv[2:])
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
