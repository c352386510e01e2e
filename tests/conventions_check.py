#!/usr/bin/python3
"""The oracle of tests/conventions_cli_test.sh: boards in rows and labels, notations, check.

It reads boards and moves itself (labels kept as text, never numbered the solver's way),
replays every move, and compares lengths with its own BFS on boards of up to 8 cells. Boards
are written as the solver reads them; "blank-last" and "blank-first" need --size.

  solved   --goal G [--size WxH] --notation N --boards FILE --output FILE [--bfs] [--runs|--no-runs]
           every record of the solver's plain output, in order, is the board on the same line
           of FILE (after an optional "label:"), solved: the moves (read in notation N) replay
           to the goal, the length is their count, and with --bfs it is the BFS distance;
           --runs / --no-runs require run lengths to be written (maximal) or not at all.
  checked  --goal G [--size WxH] --notation N --lines FILE --output FILE [--bfs]
           every record of `solver check`'s plain output is judged again from its line
           ("[label:] BOARD MOVES"): status, stm and mtm lengths, the optimum (BFS, or the
           length the solver found when --solved FILE gives solve's output for the same lines),
           the difference, the end board of a miss, the illegal move's number and character.
  solvable --goal G [--size WxH] --output FILE --count N: the N boards of `solver scramble`'s
           output, each in rows and reaching G (BFS), all distinct unless the board has few states.
  show-json-labels --output FILE: the record of `solver --goal "A B C/D E F/G H _" --show
           --json "A B C/D E F/G _ H"`: its states and its moved tile in the goal's labels.
  check-json-labels --output FILE: the record of `solver check --goal "A B C/D E F/G H _"
           --notation tile --json "A B C/D E F/_ G H" L2`: optimal, every field.
  check-json-illegal --output FILE: the record of `solver check --json "1 2 3/4 5 6/7 0 8"
           LU3`: illegal at move 4, written at character 2.

Standard library only (with tests/puzzle_oracle.py). Prints one line per problem found; exit
status 0 when there is none, 1 otherwise.
"""
import argparse, json, re, sys
from puzzle_oracle import bfs, replay  # tests/puzzle_oracle.py

errors = []
def err(msg):
    errors.append(msg)

BLANKS = ("_", ".", "0")

def board(text):
    """(w, h, cells) of a board in rows ('/'), blank as 0, other tokens kept as text."""
    text = text.strip()
    if ":" in text and not text.startswith(("blank-",)):
        text = text.split(":", 1)[1]
    rows = [r for r in text.split("/")]
    cells = [[t for t in re.split(r"[\s,]+", r.strip()) if t] for r in rows]
    w = len(cells[0])
    assert all(len(r) == w for r in cells), "ragged rows in a test board: %r" % text
    flat = [0 if t in BLANKS else t for r in cells for t in r]
    return w, len(cells), flat

def goal_cells(spec, w, h):
    n = w * h
    if spec == "blank-last":
        return [str(i) for i in range(1, n)] + [0]
    if spec == "blank-first":
        return [0] + [str(i) for i in range(1, n)]
    return board(spec)[2]

def expand(text, notation):
    """Blank moves (a string of U D L R) of `text` in `notation`, runs expanded."""
    if text == "-":
        return ""
    if not re.fullmatch(r"([UDLR][1-9][0-9]*|[UDLR])*", text):
        raise ValueError("not a move text: %r" % text)
    out = "".join(m.group(1) * int(m.group(2) or 1) for m in re.finditer(r"([UDLR])([0-9]*)", text))
    if notation == "tile":
        out = out.translate(str.maketrans("UDLR", "DURL"))
    return out

def runs_of(blank_moves):
    return sum(1 for i, m in enumerate(blank_moves) if i == 0 or blank_moves[i - 1] != m)

def data_lines(path):
    out = []
    for line in open(path):
        s = line.strip()
        if s and not s.startswith("#"):
            out.append(s)
    return out

def size_of(a, first):
    if a.size:
        return tuple(int(x) for x in a.size.lower().split("x"))
    if a.goal not in ("blank-last", "blank-first"):
        w, h, _ = board(a.goal)
        return w, h
    w, h, _ = board(first)
    return w, h

def records(path, pattern):
    recs = []
    for line in open(path).read().splitlines():
        if line.startswith("summary: "):
            continue
        m = re.fullmatch(pattern, line)
        if not m:
            err("unrecognised output line: %r" % line)
            continue
        recs.append(m)
    return recs

def solved(a):
    boards = data_lines(a.boards)
    w, h = size_of(a, boards[0])
    goal = goal_cells(a.goal, w, h)
    dist = bfs(w, h, goal) if a.bfs else None
    recs = records(a.output, r"(.*): (?:length (\d+) moves (\S+) nodes \d+ seconds [0-9.]+|unsolvable)")
    if len(recs) != len(boards):
        err("%d records for %d boards" % (len(recs), len(boards)))
    for m, line in zip(recs, boards):
        start = board(line)[2]
        text = m.group(3)
        if text is None:  # unsolvable: only the BFS can say so
            if dist is None or tuple(start) in dist:
                err("%s: reported unsolvable, %s" % (m.group(1), "no BFS to agree" if dist is None else "BFS reaches it"))
            continue
        try:
            moves = expand(text, a.notation)
        except ValueError as e:
            err("%s: %s" % (m.group(1), e))
            continue
        if a.runs and re.search(r"([UDLR])[0-9]*\1", text):
            err("%s: runs not maximal in %r" % (m.group(1), text))
        if a.no_runs and re.search(r"[0-9]", text):
            err("%s: run lengths in %r" % (m.group(1), text))
        if len(moves) != int(m.group(2)):
            err("%s: length %s but %d moves" % (m.group(1), m.group(2), len(moves)))
        problem = replay(w, h, start, goal, moves)
        if problem:
            err("%s: replay failed: %s" % (m.group(1), problem))
        if dist is not None and dist.get(tuple(start)) != len(moves):
            err("%s: length %d, BFS distance %s" % (m.group(1), len(moves), dist.get(tuple(start))))

def checked(a):
    lines = data_lines(a.lines)
    w, h = size_of(a, lines[0].rsplit(None, 1)[0])
    goal = goal_cells(a.goal, w, h)
    dist = bfs(w, h, goal) if a.bfs else None
    known = {}
    if a.solved:
        for line in open(a.solved).read().splitlines():
            m = re.fullmatch(r"(.*): length (\d+) moves .*", line)
            if m:
                known[m.group(1)] = int(m.group(2))
    out = [l for l in open(a.output).read().splitlines() if not l.startswith("summary: ")]
    if len(out) != len(lines):
        err("%d records for %d lines" % (len(out), len(lines)))
    for rec, line in zip(out, lines):
        label, body = line.split(":", 1)  # the test's check lines all carry a label
        if not rec.startswith(label + ": "):
            err("record %r is not for line %r" % (rec, line))
            continue
        board_text, moves_text = body.strip().rsplit(None, 1)
        start = board(board_text)[2]
        moves = expand(moves_text, a.notation)
        # Replay, stopping at the first illegal move.
        b, z = list(start), start.index(0)
        illegal = None
        for i, mv in enumerate(moves):
            r, c = divmod(z, w)
            dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[mv]
            if not (0 <= r + dr < h and 0 <= c + dc < w):
                illegal = i
                break
            nz = (r + dr) * w + c + dc
            b[z], b[nz] = b[nz], b[z]
            z = nz
        if illegal is not None:
            # The character of the letter that wrote move `illegal`.
            pos, count = None, 0
            for mm in re.finditer(r"([UDLR])([0-9]*)", moves_text):
                count += int(mm.group(2) or 1)
                if count > illegal:
                    pos = mm.start() + 1
                    break
            want = r"%s: illegal: move %d \(%s at character %d\) leaves the board: .*" % (
                re.escape(label), illegal + 1, moves_text[pos - 1], pos)
            if not re.fullmatch(want, rec):
                err("expected /%s/, got %r" % (want, rec))
            continue
        opt = dist.get(tuple(start)) if dist is not None else known.get(label)
        reached = b == goal
        if reached:
            status = "optimal" if opt == len(moves) else "suboptimal"
            want = "%s: %s stm %d mtm %d optimal %d difference %d" % (
                label, status, len(moves), runs_of(moves), opt, len(moves) - opt)
        else:
            want = "%s: misses-goal stm %d mtm %d optimal %s ends " % (
                label, len(moves), runs_of(moves), "unknown (unsolvable)" if opt is None else opt)
            ends = rec[len(want):] if rec.startswith(want) else None
            if ends is None or board(ends)[2] != b:
                err("expected %r + the end %s, got %r" % (want, b, rec))
            continue
        if rec != want:
            err("expected %r, got %r" % (want, rec))

def solvable(a):
    boards = data_lines(a.output)
    if len(boards) != a.count:
        err("%d boards, expected %d" % (len(boards), a.count))
    w, h = size_of(a, boards[0])
    goal = goal_cells(a.goal, w, h)
    dist = bfs(w, h, goal)
    for line in boards:
        if not re.fullmatch(r"[^/]+(/[^/]+)+", line):
            err("not written in rows: %r" % line)
        bw, bh, cells = board(line)
        if (bw, bh) != (w, h) or tuple(cells) not in dist:
            err("%r does not reach the goal" % line)
    if len(dist) > 100 * a.count and len(set(boards)) != len(boards):
        err("repeated boards among %d draws of %d states" % (len(boards), len(dist)))

def json_record(a):
    """The one JSON record of the output."""
    return json.loads(open(a.output).read())

def show_json_labels(a):
    """--show --json in labels: the boards and the moved tile as the goal's labels, null the blank."""
    o = json_record(a)
    want = [["A", "B", "C", "D", "E", "F", "G", None, "H"], ["A", "B", "C", "D", "E", "F", "G", "H", None]]
    if o.get("states") != want:
        err("states %r, expected %r" % (o.get("states"), want))
    if o.get("moved") != ["H"]:
        err("moved %r, expected ['H']" % o.get("moved"))

def check_json_labels(a):
    """check --json of an optimal answer in labels and tile notation with a run: every field."""
    o = json_record(a)
    want = {"label": "argument 1", "status": "optimal", "moves": "L2", "notation": "tile", "runs": True,
            "length": 2, "length_stm": 2, "length_mtm": 1, "optimal": 2, "difference": 0}
    for k, v in want.items():
        if o.get(k, "(missing)") != v:
            err("%s is %r, expected %r in %r" % (k, o.get(k, "(missing)"), v, o))

def check_json_illegal(a):
    """check --json of an illegal run: the move's number (in moves) and its letter's character."""
    o = json_record(a)
    want = {"status": "illegal", "illegal_move": 4, "illegal_character": 2}
    for k, v in want.items():
        if o.get(k, "(missing)") != v:
            err("%s is %r, expected %r in %r" % (k, o.get(k, "(missing)"), v, o))

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
sub = p.add_subparsers(dest="cmd", required=True)
for name in ("show-json-labels", "check-json-labels", "check-json-illegal"):
    sub.add_parser(name).add_argument("--output", required=True)
s = sub.add_parser("solved")
s.add_argument("--goal", default="blank-last"); s.add_argument("--size"); s.add_argument("--notation", default="blank")
s.add_argument("--boards", required=True); s.add_argument("--output", required=True)
s.add_argument("--bfs", action="store_true"); s.add_argument("--runs", action="store_true")
s.add_argument("--no-runs", action="store_true")
c = sub.add_parser("checked")
c.add_argument("--goal", default="blank-last"); c.add_argument("--size"); c.add_argument("--notation", default="blank")
c.add_argument("--lines", required=True); c.add_argument("--output", required=True)
c.add_argument("--bfs", action="store_true"); c.add_argument("--solved")
v = sub.add_parser("solvable")
v.add_argument("--goal", default="blank-last"); v.add_argument("--size")
v.add_argument("--output", required=True); v.add_argument("--count", type=int, required=True)
a = p.parse_args()
{"solved": solved, "checked": checked, "solvable": solvable, "show-json-labels": show_json_labels,
 "check-json-labels": check_json_labels, "check-json-illegal": check_json_illegal}[a.cmd](a)
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
