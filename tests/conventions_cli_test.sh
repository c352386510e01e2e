#!/usr/bin/env bash
# Command-line tests of the puzzle users' conventions (README: Boards, Moves, check, scramble):
# boards in rows and in labels, tile notation and run lengths, `solver check` and `solver
# scramble`, from arguments, --input files and stdin, every bad-input case, and the round trip
# scramble -> solve -> check. Answers are checked by an independent oracle (python3, standard
# library, tests/puzzle_oracle.py): it reads boards and moves itself (labels kept as text, never
# numbered the solver's way), replays every move, and compares lengths with its own BFS on boards
# of up to 8 cells.
#
# Usage: conventions_cli_test.sh SOLVER REPO_ROOT
# Prints one line per failed check and exits 1 if any check failed.
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 SOLVER REPO_ROOT" >&2
  exit 2
fi
solver=$1
root=$2
export LOYD_TESTS_DIR="$root/tests"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The shipped 3x3 tables keep the 3x3 searches instant; nothing else is looked up.
export LOYD_PDB_PATH="$root/data"
pdb=(--pdb "$root/data/8-4-4" --cache-dir none)

# ---------------------------------------------------------------------------------------
# The oracle. Subcommands (boards are written as the solver reads them; "blank-last" and
# "blank-first" need --size):
#   solved   --goal G [--size WxH] --notation N --boards FILE --output FILE [--bfs] [--runs|--no-runs]
#            every record of the solver's plain output, in order, is the board on the same line
#            of FILE (after an optional "label:"), solved: the moves (read in notation N) replay
#            to the goal, the length is their count, and with --bfs it is the BFS distance;
#            --runs / --no-runs require run lengths to be written (maximal) or not at all.
#   checked  --goal G [--size WxH] --notation N --lines FILE --output FILE [--bfs]
#            every record of `solver check`'s plain output is judged again from its line
#            ("[label:] BOARD MOVES"): status, stm and mtm lengths, the optimum (BFS, or the
#            length the solver found when --solved FILE gives solve's output for the same lines),
#            the difference, the end board of a miss, the illegal move's number and character.
#   solvable --goal G [--size WxH] --output FILE --count N: the N boards of `solver scramble`'s
#            output, each in rows and reaching G (BFS), all distinct unless the board has few states.
cat >"$tmp/oracle.py" <<'PY'
import argparse, json, os, re, sys
sys.path.insert(0, os.environ["LOYD_TESTS_DIR"])
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

p = argparse.ArgumentParser()
sub = p.add_subparsers(dest="cmd", required=True)
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
{"solved": solved, "checked": checked, "solvable": solvable}[a.cmd](a)
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
PY

# ---------------------------------------------------------------------------------------
# run, show, expect_rc, expect_out, expect_err, expect_no_out, fail.
. "$root/tests/solver_cli_support.sh"
# oracle NAME SUBCOMMAND ARGS...: the last run's stdout passes the oracle.
oracle() {
  local name=$1
  shift
  checks=$((checks + 1))
  if ! python3 "$tmp/oracle.py" "$@" --output "$tmp/out" >"$tmp/oracle" 2>&1; then
    fail "$name: oracle:"
    sed 's/^/  /' "$tmp/oracle" >&2
    show
  fi
}

# --- Boards: rows, commas, labels -----------------------------------------------------------

# The same 3x3 board from arguments (one, and split into tiles), flat and in rows, with commas.
echo "8 6 7/2 5 4/3 0 1" >"$tmp/b33"
for form in "8 6 7/2 5 4/3 0 1" "8,6,7/2,5,4/3,0,1" "8 6 7 /2 5 4/ 3 _ 1" "8 6 7 2 5 4 3 . 1"; do
  run "${pdb[@]}" "$form"
  expect_rc "3x3 '$form'" 0
  expect_out "3x3 '$form' is 31 moves" "^argument 1: length 31 "
  oracle "3x3 '$form'" solved --boards "$tmp/b33"
done
# shellcheck disable=SC2046
run "${pdb[@]}" 8 6 7/2 5 4/3 0 1
expect_rc "3x3 rows as separate arguments" 0
oracle "3x3 rows as separate arguments" solved --boards "$tmp/b33"

# Rectangles in rows need no --size: 4x2, 2x4, 3x2 against the oracle's BFS.
# (b is 36 moves away, the most on 4x2; d cannot reach the goal.)
printf 'a: 1 2 3 4/5 6 7 0\nb: 0 7 2 1/4 3 6 5\nc: 0 2 6 3/7 5 1 4\nd: 7 6 5 4/3 2 1 0\n' >"$tmp/r42"
printf 'a: 1 2/3 4/5 6/7 0\nb: 0 7/6 5/3 4/1 2\nc: 5,3/7,0/6,1/4,2\nd: 2,1/3,4/5,6/7,0\n' >"$tmp/r24"
printf 'a: 5 4 3/2 1 0\nb: 0 5 4/3 2 1\nc: 4 5 0/1 2 3\n' >"$tmp/r32"
for f in r42 r24 r32; do
  run --input "$tmp/$f"
  expect_rc "rows $f from a file" 0
  oracle "rows $f from a file" solved --boards "$tmp/$f" --bfs
  cp "$tmp/$f" "$tmp/stdin"
  run
  expect_rc "rows $f from stdin" 0
  oracle "rows $f from stdin" solved --boards "$tmp/$f" --bfs
  : >"$tmp/stdin"
done

# Bad boards: ragged rows, empty rows, rows against --size, unsupported shapes; one line each,
# the batch goes on (exit 1).
cat >"$tmp/bad-rows" <<'EOF'
ok: 1 2 3/4 5 6/7 0 8
ragged: 1 2 3/4 5/6 7 8 0
empty-row: 1 2 3/4 5 6/7 8 0//
one-column: 1/2/0
too-big: 1 2 3 4 5 6 7 8 9 10 11 12 13/14 15 16 17 18 19 20 21 22 23 24 25 0
EOF
run --input "$tmp/bad-rows"
expect_rc "bad rows" 1
expect_out "bad rows: ok solved" "^ok: length 1 moves R "
expect_out "ragged" "^ragged: invalid: ragged rows: row 2 has 2 tiles, row 1 has 3$"
expect_out "empty row" "^empty-row: invalid: row 4 is empty$"
expect_out "one column" "^one-column: invalid: a board of 1 columns and 3 rows is not supported"
expect_out "too big" "^too-big: invalid: more than 25 tiles"
expect_err "bad rows named by line" "bad-rows:2: ragged rows"
run --size 2x4 "1 2 3 4/5 6 7 0"
expect_rc "rows against --size" 1
expect_out "rows against --size" "invalid: the rows make a 4x2 board, --size is 2x4"
run "1 2 3/4 5/6 7 8 0"
expect_rc "ragged argument" 1

# Labels: a goal in labels, boards in the same labels, from arguments, files and stdin; the
# oracle replays on the labels themselves.
goal="A B C/D E F/G H _"
printf 'one: A B C/D E F/_ G H\ntwo: H G F/E D C/B A _\n' >"$tmp/lab33"
run "${pdb[@]}" --goal "$goal" --input "$tmp/lab33"
expect_rc "labels 3x3 from a file" 0
oracle "labels 3x3 from a file" solved --goal "$goal" --boards "$tmp/lab33"
cp "$tmp/lab33" "$tmp/stdin"
run "${pdb[@]}" --goal "$goal" --notation tile
expect_rc "labels 3x3 from stdin, tile notation" 0
oracle "labels 3x3 from stdin, tile notation" solved --goal "$goal" --notation tile --runs --boards "$tmp/lab33"
: >"$tmp/stdin"
run "${pdb[@]}" --goal "$goal" A B C D E F _ G H
expect_rc "labels as separate arguments" 0
expect_out "labels as separate arguments" "^argument 1: length 2 moves RR "
# A 2x4 of words and emoji, blank first, against the BFS.
goal24="_ cat/dog 🐭/owl 🐸/yak 🦊"
printf 'p: 🦊 yak/🐸 owl/🐭 dog/cat _\nq: cat _/dog 🐭/owl 🐸/yak 🦊\nr: _ cat/dog 🐭/owl 🐸/🦊 yak\n' >"$tmp/lab24"
run --goal "$goal24" --input "$tmp/lab24"
expect_rc "labels 2x4" 0
oracle "labels 2x4" solved --goal "$goal24" --boards "$tmp/lab24" --bfs
# --show and --show --json speak the labels.
run "${pdb[@]}" --goal "$goal" --show "A B C/D E F/G _ H"
expect_out "--show labels: the moved tile" "^move 1: R \(tile H\)$"
expect_out "--show labels: the end" "^G H _$"
run "${pdb[@]}" --goal "$goal" --show --json "A B C/D E F/G _ H"
checks=$((checks + 1))
python3 -c '
import json, sys
o = json.loads(open(sys.argv[1]).read())
assert o["states"] == [["A","B","C","D","E","F","G",None,"H"], ["A","B","C","D","E","F","G","H",None]], o["states"]
assert o["moved"] == ["H"], o["moved"]
' "$tmp/out" || { fail "--show --json with labels"; show; }
# The replay page carries the labels.
run "${pdb[@]}" --goal "$goal" --html "$tmp/lab.html" "A B C/D E F/_ G H"
expect_rc "--html with labels" 0
checks=$((checks + 1))
grep -q '"start":\["A","B","C","D","E","F",null,"G","H"\]' "$tmp/lab.html" || fail "--html with labels: no labels in the page"

# Label refusals: each an invalid line naming the token (exit 1), or a bad --goal (exit 2).
cat >"$tmp/bad-labels" <<'EOF'
unknown: A B C/D E F/G H Q
duplicate: A A C/D E F/G H _
blanks: A B C/D E F/G _ .
other-labels: a b c/d e f/g h _
numbers: 1 2 3/4 5 6/7 8 0
fine: A B C/D E F/G _ H
EOF
run "${pdb[@]}" --goal "$goal" --input "$tmp/bad-labels"
expect_rc "bad labels" 1
expect_out "unknown label" "^unknown: invalid: 'Q' is not one of the goal's labels \(A B C D E F G H; blank _ \. or 0\)$"
expect_out "duplicate label" "^duplicate: invalid: label 'A' appears twice$"
expect_out "two blanks" "^blanks: invalid: two blanks$"
expect_out "a goal in other labels" "^other-labels: invalid: 'a' is not one of the goal's labels"
expect_out "numbers against labels" "^numbers: invalid: '1' is not one of the goal's labels"
expect_out "the good line still solved" "^fine: length 1 moves R "
run "A B C/D E F/G H _"
expect_rc "labels without --goal" 1
expect_out "labels without --goal" "'A' is not a tile number \(a board in labels needs --goal in the same labels\)"
for g in "A B C/D E F/G H I" "A B C/D E F/G _ ." "A B C/D E F/A H _" "A B C/D E/F G H _" "A B C D E F G _"; do
  run --goal "$g" "A B C/D E F/G _ H"
  expect_rc "bad label goal '$g'" 2
  expect_err "bad label goal '$g' message" "bad --goal"
  expect_no_out "bad label goal '$g'"
done

# --- Moves: notations and run lengths --------------------------------------------------------

printf 'x: 0 2 6 3/7 5 1 4\ny: 0 7 2 1/4 3 6 5\n' >"$tmp/n42"
run --notation tile --input "$tmp/n42"
expect_rc "tile notation" 0
oracle "tile notation: runs by default" solved --notation tile --runs --boards "$tmp/n42" --bfs
run --notation tile --no-runs --input "$tmp/n42"
oracle "tile notation --no-runs" solved --notation tile --no-runs --boards "$tmp/n42" --bfs
run --runs --input "$tmp/n42"
oracle "blank notation --runs" solved --notation blank --runs --boards "$tmp/n42" --bfs
run --input "$tmp/n42"
oracle "blank notation: today's letters" solved --notation blank --no-runs --boards "$tmp/n42" --bfs
# The JSON names the notation when it is not the default (and is unchanged when it is).
run --json --notation tile "1 2 3/4 5 6/0 7 8"
expect_out "JSON notation" '"moves":"L2","notation":"tile","runs":true,'
run --json --notation blank --runs "1 2 3/4 5 6/0 7 8"
expect_out "JSON blank with runs" '"moves":"R2","notation":"blank","runs":true,'
run --json "1 2 3/4 5 6/0 7 8"
checks=$((checks + 1))
if grep -q '"notation"' "$tmp/out"; then fail "default JSON grew a notation field"; show; fi
run --notation sideways 1 2 3 0
expect_rc "bad --notation" 2
expect_err "bad --notation message" "bad notation 'sideways'"
run --runs --no-runs 1 2 3 0
expect_rc "--runs with --no-runs" 2

# --- check -----------------------------------------------------------------------------------

# Every verdict on a 2x4 board against the oracle's BFS, in both notations, from a file.
cat >"$tmp/check-blank" <<'EOF'
optimal: 1 2 3 4/5 6 0 7 R
detour: 1 2 3 4/5 6 0 7 RLR
runs: 1 2 3 4/5 0 6 7 R2
misses: 1 2 3 4/5 6 0 7 L
illegal: 1 2 3 4/5 6 0 7 RRR
illegal-run: 1 2 3 4/5 6 0 7 UR3
empty: 1 2 3 4/5 6 7 0 -
long: 1 2 3 4/5 6 7 0 ULLLDRRRULLLDRRR
EOF
run --input "$tmp/check-blank" check
expect_rc "check verdicts (blank)" 8
oracle "check verdicts (blank)" checked --lines "$tmp/check-blank" --bfs
expect_out "check summary" "^summary: instances 8, optimal 3, suboptimal 1, solves 0, misses-goal 2, illegal 2, invalid 0$"
awk '{m=$NF; t=""; for(i=1;i<=length(m);i++){c=substr(m,i,1); t=t (c=="U"?"D":c=="D"?"U":c=="L"?"R":c=="R"?"L":c)}; $NF=t; print}' "$tmp/check-blank" >"$tmp/check-tile"
run check --notation tile --input "$tmp/check-tile"
expect_rc "check verdicts (tile)" 8
oracle "check verdicts (tile)" checked --notation tile --lines "$tmp/check-tile" --bfs
expect_out "tile notation names the letter as written" "^illegal-run: illegal: move 3 \(L at character 2\) leaves the board: no tile can slide left$"
# The same from stdin.
cp "$tmp/check-blank" "$tmp/stdin"
run check
expect_rc "check from stdin" 8
oracle "check from stdin" checked --lines "$tmp/check-blank" --bfs
: >"$tmp/stdin"

# Arguments: BOARD... MOVES (board quoted or as separate tiles) and --moves; exit statuses.
run check "1 2 3/4 5 6/7 0 8" R
expect_rc "check optimal" 0
expect_out "check optimal" "^argument 1: optimal stm 1 mtm 1 optimal 1 difference 0$"
run check 1 2 3 4 5 6 7 0 8 R
expect_rc "check, board as separate tiles" 0
run check --moves R "1 2 3/4 5 6/7 0 8"
expect_rc "check --moves" 0
run check "1 2 3/4 5 6/7 0 8" RLR
expect_rc "check suboptimal" 7
expect_out "check suboptimal" "^argument 1: suboptimal stm 3 mtm 3 optimal 1 difference 2$"
run check "1 2 3/4 5 6/7 0 8" L
expect_rc "check misses the goal" 8
expect_out "check misses the goal" "^argument 1: misses-goal stm 1 mtm 1 optimal 1 ends 1 2 3/4 5 6/0 7 8$"
run check --board-format flat "1 2 3/4 5 6/7 0 8" L
expect_out "check --board-format flat" "ends 1 2 3 4 5 6 0 7 8$"
run check "1 2 3/4 5 6/7 0 8" RD
expect_rc "check illegal" 8
expect_out "check illegal names the move" "^argument 1: illegal: move 2 \(D at character 2\) leaves the board: the blank cannot move down$"
run check "1 2 3/4 5 6/7 0 8" R0
expect_rc "check run length 0" 1
expect_out "check run length 0" "invalid: moves 'R0': run length 0 at character 2$"
run check "1 2 3/4 5 6/7 0 8" R05
expect_rc "check leading zero" 1
run check "1 2 3/4 5 6/7 0 8" RX
expect_rc "check bad letter" 1
expect_out "check bad letter" "bad move character 'X' at character 2"
run check "1 2 3/4 5 6/7 0 8"
expect_rc "check without moves" 2
expect_err "check without moves" "check needs a board and moves"
printf 'lonely: 1 2 3 4 5 6 7 0 8\n' >"$tmp/stdin"
run check
expect_rc "check line without moves" 1
: >"$tmp/stdin"
# Unsolvable start: no sequence reaches the goal.
run check "1 2 3/4 5 6/8 7 0" UL
expect_rc "check unsolvable" 8
expect_out "check unsolvable" "misses-goal stm 2 mtm 2 optimal unknown \(unsolvable\) ends "
# --no-optimal: replay only.
run check --no-optimal "1 2 3/4 5 6/7 0 8" RLR
expect_rc "check --no-optimal" 0
expect_out "check --no-optimal" "^argument 1: solves stm 3 mtm 3 optimal unknown \(not searched\)$"
# Labels, tile notation with runs, JSON.
run "${pdb[@]}" check --goal "$goal" --notation tile --json "A B C/D E F/_ G H" L2
expect_rc "check labels JSON" 0
checks=$((checks + 1))
python3 -c '
import json, sys
o = json.loads(open(sys.argv[1]).read())
want = {"label": "argument 1", "status": "optimal", "moves": "L2", "notation": "tile", "runs": True,
        "length": 2, "length_mtm": 1, "optimal": 2, "difference": 0}
assert all(o[k] == v for k, v in want.items()), o
' "$tmp/out" || { fail "check labels JSON: $(cat "$tmp/out")"; show; }
run check --json "1 2 3/4 5 6/7 0 8" LU3
checks=$((checks + 1))
python3 -c '
import json, sys
o = json.loads(open(sys.argv[1]).read())
assert o["status"] == "illegal" and o["illegal_move"] == 4 and o["illegal_character"] == 2, o
' "$tmp/out" 2>/dev/null || { fail "check illegal JSON: $(cat "$tmp/out")"; show; }
# An invalid line outranks a miss in the exit status; a limit hides the optimum (exit 3).
printf 'bad: 1 2 3/4 5 6/7 0 8 R0\nmiss: 1 2 3/4 5 6/7 0 8 L\n' >"$tmp/mixed"
run check --input "$tmp/mixed"
expect_rc "check invalid beats miss" 1
hard="5 10 14 7/8 3 6 1/15 0 12 9/2 11 4 13"
run --pdb "$root/data/15-5-5-5" --cache-dir none "$hard"
expect_out "the 55-move board" "^argument 1: length 55 "
run check --heuristic manhattan --node-limit 1000 "$hard" "$(awk '{print $6}' "$tmp/out")"
expect_rc "check with a limit" 3
expect_out "check with a limit" "optimal unknown \(node limit, at least [0-9]+\)"

# --- scramble --------------------------------------------------------------------------------

run scramble --size 3x2 --count 60 --seed 11
expect_rc "scramble 3x2" 0
cp "$tmp/out" "$tmp/s32"
oracle "scramble 3x2: solvable, rows" solvable --count 60
run scramble --size 3x2 --count 60 --seed 11
checks=$((checks + 1))
cmp -s "$tmp/out" "$tmp/s32" || fail "scramble: the same seed gave other boards"
run scramble --size 3x2 --count 60 --seed 12
checks=$((checks + 1))
if cmp -s "$tmp/out" "$tmp/s32"; then fail "scramble: two seeds gave the same boards"; fi
run scramble --size 4x2 --goal blank-first --count 40 --seed 3
oracle "scramble 4x2 blank-first" solvable --goal blank-first --size 4x2 --count 40
run scramble --goal "$goal24" --count 40 --seed 5
expect_rc "scramble in labels" 0
cp "$tmp/out" "$tmp/slab"
oracle "scramble in labels" solvable --goal "$goal24" --count 40
run scramble --size 3x3 --board-format flat --seed 2 --count 3
expect_out "scramble --board-format flat" "^[0-8]( [0-8]){8}$"
run scramble --seed 1
expect_out "scramble: 4x4 by default" "^[0-9]+( [0-9]+){3}(/[0-9]+( [0-9]+){3}){3}$"
run scramble --size 3x3
expect_rc "scramble without a seed" 0
expect_err "scramble names its seed" "^solver: scramble seed [0-9]+ \(--seed [0-9]+ repeats it\)$"
run scramble --size 3x3 -q
checks=$((checks + 1))
[ ! -s "$tmp/err" ] || { fail "scramble -q printed on stderr"; show; }
for bad in "--count abc" "--count -1" "--seed -5" "--seed 18446744073709551616" "--json" "--heuristic pdb" \
    "--size 1x5" "--goal nonsense" "--board-format grid" "1 2 3 0"; do
  # shellcheck disable=SC2086
  run scramble $bad
  expect_rc "scramble $bad" 2
  expect_no_out "scramble $bad"
done
run scramble --help
expect_rc "scramble --help" 0
expect_out "scramble --help" "^Usage: solver scramble"
run check --help
expect_out "check --help" "^Usage: solver check"
run check --html x.html "1 2 3 0" R
expect_rc "--html does not apply to check" 2
expect_err "--html does not apply to check" "--html does not apply to check"

# --- Round trips: scramble -> solve -> check ------------------------------------------------

# 2x4 in tile notation: solve's lengths are the BFS distances, and check finds every answer
# optimal.
run scramble --size 2x4 --count 25 --seed 21
awk '{print "s" NR ": " $0}' "$tmp/out" >"$tmp/rt24"
run --notation tile --input "$tmp/rt24"
expect_rc "round trip 2x4: solve" 0
oracle "round trip 2x4: solve" solved --notation tile --runs --boards "$tmp/rt24" --bfs
paste -d' ' "$tmp/rt24" <(awk '{print $5}' "$tmp/out" | grep -v '^$' | head -25) >"$tmp/rt24-check"
run check --notation tile --input "$tmp/rt24-check"
expect_rc "round trip 2x4: check" 0
oracle "round trip 2x4: check" checked --notation tile --lines "$tmp/rt24-check" --bfs
checks=$((checks + 1))
[ "$(grep -c ': optimal stm' "$tmp/out")" -eq 25 ] || { fail "round trip 2x4: not 25 optimal"; show; }
# 3x3 in labels through a pipe: scramble | solve, then check agrees with solve's lengths.
"$solver" scramble --goal "$goal" --count 12 --seed 8 | awk '{print "t" NR ": " $0}' >"$tmp/rt33"
"$solver" "${pdb[@]}" --goal "$goal" --notation tile --input - <"$tmp/rt33" >"$tmp/rt33-solved" 2>"$tmp/err"
rc=$?
expect_rc "round trip 3x3 labels: solve" 0
cp "$tmp/rt33-solved" "$tmp/out"
oracle "round trip 3x3 labels: solve" solved --goal "$goal" --notation tile --runs --boards "$tmp/rt33"
paste -d' ' "$tmp/rt33" <(awk '$1 != "summary:" {print $5}' "$tmp/rt33-solved") >"$tmp/rt33-check"
run "${pdb[@]}" check --goal "$goal" --notation tile --input "$tmp/rt33-check"
expect_rc "round trip 3x3 labels: check" 0
oracle "round trip 3x3 labels: check" checked --goal "$goal" --notation tile --lines "$tmp/rt33-check" \
  --solved "$tmp/rt33-solved"

echo "conventions_cli_test: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
