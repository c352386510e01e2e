#!/usr/bin/env bash
# Command-line tests of the solver: exit codes, plain and --json output, and every printed
# solution replayed by an independent checker (python3, standard library only), which also
# compares lengths with its own BFS on boards of up to 8 cells.
#
# Usage: cli_test.sh SOLVER REPO_ROOT
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

# ---------------------------------------------------------------------------------------
# The checker. Subcommands:
#   verify plain|json --size WxH --goal SPEC --input FILE --output FILE [--bfs]
#          [--expect LABEL=STATUS[:LENGTH]]...
# pairs each output record with its instance (by label, or by the line number in an
# "origin:N" label), replays solved moves from the instance to the goal, checks JSON fields,
# and with --expect requires exactly those records, in that order.
cat >"$tmp/check.py" <<'PY'
import argparse, collections, json, os, re, sys
sys.path.insert(0, os.environ["LOYD_TESTS_DIR"])

errors = []
def err(msg):
    errors.append(msg)

def goal_tiles(spec, n):
    if spec == "blank-last":
        return list(range(1, n)) + [0]
    if spec == "blank-first":
        return list(range(n))
    return [int(t) for t in re.split(r"[ ,]+", spec.strip())]

from puzzle_oracle import bfs, replay  # tests/puzzle_oracle.py, shared with solver_pdb_cli_test.sh

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
        m = re.fullmatch(r"(.*): limit \((.*)\) nodes (\d+) seconds ([0-9.]+) lower bound (\d+)", line)
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

p = argparse.ArgumentParser()
sub = p.add_subparsers(dest="cmd", required=True)
v = sub.add_parser("verify")
v.add_argument("format", choices=["plain", "json"])
v.add_argument("--size", required=True)
v.add_argument("--goal", default="blank-last")
v.add_argument("--input", required=True)
v.add_argument("--output", required=True)
v.add_argument("--bfs", action="store_true")
v.add_argument("--expect", action="append", default=[])
a = p.parse_args()
verify(a)
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
PY

# ---------------------------------------------------------------------------------------
# run, show, expect_rc, expect_out, expect_err, expect_no_out, fail.
. "$root/tests/solver_cli_support.sh"

# verify NAME FORMAT INPUTFILE CHECKER-ARGS...: the last run's stdout passes the checker.
verify() {
  local name=$1 format=$2 input=$3
  shift 3
  checks=$((checks + 1))
  if ! python3 "$tmp/check.py" verify "$format" --input "$input" --output "$tmp/out" "$@" \
      >"$tmp/check" 2>&1; then
    fail "$name: output check failed:"
    sed 's/^/  /' "$tmp/check" >&2
    show
  fi
}

# one_instance FILE TILES...: writes "argument 1: TILES" so the checker can find the
# instance under the label the solver uses for command-line numbers.
one_instance() {
  local f=$1
  shift
  echo "argument 1: $*" >"$f"
}

# --- Help, version, usage errors ---------------------------------------------------------

run --help
expect_rc "--help" 0
expect_out "--help" "^Usage: solver"
expect_out "--help lists exit codes" "^  2 +usage error"
expect_out "--help lists play's own status" "^  9 +play: this build has no play page"
checks=$((checks + 1))
grep -q "^  6 " "$tmp/out" && fail "--help lists pdbgen's status 6 (busy)"
run --version
expect_rc "--version" 0
expect_out "--version" "^solver \(loyd\) [0-9]+\.[0-9]+"

run --no-such-option 6 4 7 8 5 0 3 2 1
expect_rc "unknown option" 2
run --heuristic bogus 6 4 7 8 5 0 3 2 1
expect_rc "bad --heuristic" 2
expect_err "bad --heuristic names it" "bogus"
run --algorithm dfs 6 4 7 8 5 0 3 2 1
expect_rc "bad --algorithm" 2
run --time-limit -1 6 4 7 8 5 0 3 2 1
expect_rc "negative --time-limit" 2
run --time-limit abc 6 4 7 8 5 0 3 2 1
expect_rc "non-numeric --time-limit" 2
run --node-limit 5 --max-nodes 5 6 4 7 8 5 0 3 2 1
expect_rc "--node-limit with --max-nodes" 2
for bad in -1 0 +5 1e3; do
  run --node-limit "$bad" 6 4 7 8 5 0 3 2 1
  expect_rc "--node-limit $bad" 2
  expect_err "--node-limit $bad" "node-limit"
done
for empty in --input --pdb --cache-dir; do
  run "$empty" "" 6 4 7 8 5 0 3 2 1
  expect_rc "$empty ''" 2
  expect_err "$empty ''" "^solver: $empty needs"
done
# Options belong to commands (program/command_options.h): one of another command is a usage
# error, one line naming the option and the command, before anything is read or written.
for refused in "check:--all:check --all 8 6 7 2 5 4 3 0 1 R" "check:--show:check --show 1 2 3 0 R" \
    "solve:--seed:--seed 3 8 6 7 2 5 4 3 0 1" "solve:--no-optimal:--no-optimal 8 6 7 2 5 4 3 0 1" \
    "scramble:--heuristic:scramble --heuristic pdb" "scramble:--input:scramble --input x.txt" \
    "play:--json:play --out $tmp/x.html --json" "play:--count:play --out $tmp/x.html --count 2" \
    "check:--count:check --count 1 2 3 0 R"; do
  command=${refused%%:*}
  rest=${refused#*:}
  option=${rest%%:*}
  # shellcheck disable=SC2086
  run ${rest#*:}
  expect_rc "$option in $command" 2
  expect_err "$option in $command" "^solver: $option does not apply to $command \(see solver --help\)$"
  checks=$((checks + 1))
  [ "$(wc -l <"$tmp/err")" = 1 ] || { fail "$option in $command: not one line"; show; }
  expect_no_out "$option in $command"
done
checks=$((checks + 1))
[ -e "$tmp/x.html" ] && fail "a refused play wrote its page"
# The command word is found past options and their values; --count is solve's flag and
# scramble's number, each read as its command declares it.
run --goal blank-first check "1 0 2/3 4 5/6 7 8" L
expect_rc "an option before check" 0
expect_out "an option before check" "^argument 1: optimal stm 1 "
run scramble --count 2 --seed 1 --size 3x3
expect_rc "scramble --count N" 0
checks=$((checks + 1))
[ "$(wc -l <"$tmp/out")" = 2 ] || { fail "scramble --count 2: not two positions"; show; }
run --count -j 1 8 6 7 2 5 4 3 0 1
expect_rc "solve --count" 0
expect_out "solve --count" "^argument 1: length 31 .*solutions [0-9]+"
# A file saved with a UTF-8 byte order mark.
printf '\xef\xbb\xbf8 6 7 2 5 4 3 0 1\n' >"$tmp/bom.txt"
run -j 1 --input "$tmp/bom.txt"
expect_rc "a byte order mark" 0
expect_out "a byte order mark" "bom.txt:1: length 31 "
# After --, the boards (or a command) follow.
run -j 1 -- 8 6 7 2 5 4 3 0 1
expect_rc "-- then a board" 0
expect_out "-- then a board" "^argument 1: length 31 "
# --node-limit 1 stops one instance however many threads search it.
run -j 2 --node-limit 1 8 6 7 2 5 4 3 0 1
expect_rc "--node-limit 1 on two threads" 3
# A line too long to be an instance is invalid and skipped; the lines around it are solved.
python3 -c 'print("1 2 3 4 5 6 7 0 8"); print("1 " * 40000); print("8 6 7 2 5 4 3 0 1")' >"$tmp/long.txt"
run -j 1 --input "$tmp/long.txt"
expect_rc "a 80 kB line" 1
expect_out "a 80 kB line: invalid" "long.txt:2: invalid: line longer than 65536 bytes"
expect_out "a 80 kB line: the next one" "long.txt:3: length 31 "
# A line the --pdb set does not fit (another board) is invalid, like one whose goal it cannot
# map; the lines around it are solved. Tables counting another metric fit no line: usage.
printf '1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n8 6 7 2 5 4 3 0 1\n' >"$tmp/mixed.txt"
run -j 1 --pdb "$root/data/8-4-4" --input "$tmp/mixed.txt"
expect_rc "a 4x4 line with 3x3 tables" 1
expect_out "a 4x4 line with 3x3 tables: invalid" "mixed.txt:2: invalid: the tables in .*8-4-4 are for 3x3 boards, the instance is 4x4"
expect_out "a 4x4 line with 3x3 tables: the next one" "mixed.txt:3: length 31 "
echo "6 4 7 8 5 0 3 2 1" >"$tmp/one.txt"
run --input "$tmp/one.txt" 6 4 7 8 5 0 3 2 1
expect_rc "--input and arguments" 2

for size in 4 4x 1x4 6x5 axb 4x4x4 0x0; do
  run --size "$size" 6 4 7 8 5 0 3 2 1
  expect_rc "bad --size $size" 2
  expect_err "bad --size $size message" "size"
  expect_no_out "bad --size $size"
done

for goal in nonsense "1 2 3" "1 2 3 4 5 6 7 8 8" "1 2 3 4 5 6 7 8 9" "1 2 x 4 5 6 7 8" "1 2 x 4 5 6 7 8 8" \
    "1 2 3/4 5 6/7 8" "1 2 3/4 5 6/7 8 0//"; do
  run --goal "$goal" 6 4 7 8 5 0 3 2 1
  expect_rc "bad --goal '$goal'" 2
  expect_err "bad --goal '$goal' message" "goal"
  expect_no_out "bad --goal '$goal'"
done
run --size 2x4 --goal "1 2 3 4 5 6 7 8 0" 1 2 3 4 5 6 7 0
expect_rc "--goal of 9 numbers with --size 2x4" 2
# A goal holding a token that is not a number is a goal in labels (README: Boards): the board
# must then use the same labels, and one that does not is an invalid instance, named.
run --goal "1 2 x 4 5 6 7 8 0" 6 4 7 8 5 0 3 2 1
expect_rc "board in numbers, goal in labels" 1
expect_err "board in numbers, goal in labels names the token" "'3' is not one of the goal's labels"

# No instance at all: empty stdin, only comments, empty file.
: >"$tmp/stdin"
run
expect_rc "empty stdin" 2
expect_err "empty stdin message" "no instance"
printf '# only a comment\n\n   \n' >"$tmp/stdin"
run
expect_rc "comments only" 2
: >"$tmp/stdin"
: >"$tmp/empty.txt"
run --input "$tmp/empty.txt"
expect_rc "empty file" 2

# File errors.
run --input "$tmp/does-not-exist.txt"
expect_rc "missing --input file" 4
expect_err "missing --input file names it" "does-not-exist.txt"
run --input "$tmp"
expect_rc "--input is a directory" 4

# --- Solving -------------------------------------------------------------------------------

# The two 31-move 3x3 states, as separate numbers and as one argument with commas.
for inst in "6 4 7 8 5 0 3 2 1" "8 6 7 2 5 4 3 0 1"; do
  # shellcheck disable=SC2086
  run $inst
  expect_rc "3x3 $inst" 0
  one_instance "$tmp/inst.txt" "$inst"
  verify "3x3 $inst" plain "$tmp/inst.txt" --size 3x3 --expect "argument 1=solved:31"
  run --json "${inst// /,}"
  expect_rc "3x3 commas $inst" 0
  echo "argument 1: $inst" >"$tmp/inst.txt"
  verify "3x3 commas --json $inst" json "$tmp/inst.txt" --size 3x3 --expect "argument 1=solved:31"
done

# Every heuristic and both algorithms agree on a 3x3 batch (lengths from the checker's BFS
# would need 181,440 states in Python; the seeds' 31 and the goal's 0 are known instead).
cat >"$tmp/batch33.txt" <<'EOF'
# two hardest and the goal itself
a: 6 4 7 8 5 0 3 2 1
b: 8 6 7 2 5 4 3 0 1
goal: 1 2 3 4 5 6 7 8 0
EOF
for h in misplaced manhattan linear-conflict; do
  for alg in ida astar; do
    [ "$h/$alg" = misplaced/ida ] && continue  # ~10^8 nodes on the 31-move states
    run --heuristic "$h" --algorithm "$alg" --input "$tmp/batch33.txt"
    expect_rc "3x3 batch $h $alg" 0
    verify "3x3 batch $h $alg" plain "$tmp/batch33.txt" --size 3x3 \
      --expect a=solved:31 --expect b=solved:31 --expect goal=solved:0
  done
done
run --input "$tmp/batch33.txt"
expect_out "at the goal: no moves" "^goal: length 0 moves - "

# The seeds' 4x4 board: 55 moves (optimal: IDA* with an admissible heuristic).
run 5 10 14 7 8 3 6 1 15 0 12 9 2 11 4 13
expect_rc "4x4 55 moves" 0
one_instance "$tmp/inst.txt" 5 10 14 7 8 3 6 1 15 0 12 9 2 11 4 13
verify "4x4 55 moves" plain "$tmp/inst.txt" --size 4x4 --expect "argument 1=solved:55"

# Korf's instances with --goal blank-first: the three easiest, at their published lengths.
grep -v '^#' "$root/data/korf100.tsv" | sort -t$'\t' -k5 -n | head -3 |
  awk -F'\t' '{print "korf-" $1 ": " $2}' >"$tmp/korf.txt"
mapfile -t korf_expect < <(grep -v '^#' "$root/data/korf100.tsv" | sort -t$'\t' -k5 -n | head -3 |
  awk -F'\t' '{print "--expect\nkorf-" $1 "=solved:" $4}')
run --goal blank-first --json --input "$tmp/korf.txt"
expect_rc "korf easiest three" 0
verify "korf easiest three" json "$tmp/korf.txt" --size 4x4 --goal blank-first "${korf_expect[@]}"

# Non-square boards, explicit goals, lengths against the checker's BFS (2x3, 2x4, 4x2).
cat >"$tmp/b24.txt" <<'EOF'
p1: 7 6 5 4 3 2 1 0
p2: 0 1 2 3 4 5 6 7
p3: 2 1 3 4 5 6 7 0
p4: 1,2,3,4,5,6,0,7
p5: 5 2 7 0 3 6 1 4
p6: 1 2 3 4 5 6 7 0
EOF
for goal in blank-last blank-first "3 1 0 7 5 2 6 4"; do
  for size in 2x4 4x2; do
    run --size "$size" --goal "$goal" --json --input "$tmp/b24.txt"
    expect_rc "$size goal '$goal'" 0
    verify "$size goal '$goal'" json "$tmp/b24.txt" --size "$size" --goal "$goal" --bfs
    expect_out "$size goal '$goal' has all six" '"label":"p6"'
    if grep -q '"status":"invalid"\|"status":"limit"' "$tmp/out"; then
      fail "$size goal '$goal': invalid or limit record"
      show
    fi
  done
done
run --size 2x3 --algorithm astar --heuristic misplaced 5 4 3 2 1 0
expect_rc "2x3 A* misplaced" 0
one_instance "$tmp/inst.txt" 5 4 3 2 1 0
verify "2x3 A* misplaced" plain "$tmp/inst.txt" --size 2x3 --bfs

# 3x4 and 4x3: no BFS; the checker replays, and the heuristics must agree on the length.
# The instances are 60-move random walks from blank-first (so solvable).
printf 'q1: 4 1 5 10 2 11 3 9 0 7 6 8\nq2: 10 4 5 8 3 2 6 9 1 7 0 11\nq3: 10 3 2 5 0 1 6 8 7 9 11 4\n' \
  >"$tmp/3x4.txt"
printf 'q1: 11 4 2 9 8 0 6 7 5 10 1 3\nq2: 0 8 6 11 9 10 1 3 2 5 4 7\nq3: 1 5 0 3 7 8 2 4 6 9 10 11\n' \
  >"$tmp/4x3.txt"
for size in 3x4 4x3; do
  for h in manhattan linear-conflict; do
    run --size "$size" --goal blank-first --heuristic "$h" --input "$tmp/$size.txt"
    expect_rc "$size $h" 0
    verify "$size $h" plain "$tmp/$size.txt" --size "$size" --goal blank-first \
      --expect q1=solved --expect q2=solved --expect q3=solved
    cut -d' ' -f1-3 "$tmp/out" >"$tmp/len-$h"
  done
  checks=$((checks + 1))
  cmp -s "$tmp/len-manhattan" "$tmp/len-linear-conflict" ||
    fail "$size: manhattan and linear-conflict lengths differ"
done
# 4x5: from blank-first the blank moves R R D D; Manhattan distance 4, so 4 is optimal.
run --size 4x5 --goal blank-first 1 2 6 3 4 5 10 7 8 9 0 11 12 13 14 15 16 17 18 19
expect_rc "4x5" 0
one_instance "$tmp/inst.txt" 1 2 6 3 4 5 10 7 8 9 0 11 12 13 14 15 16 17 18 19
verify "4x5" plain "$tmp/inst.txt" --size 4x5 --goal blank-first --expect "argument 1=solved:4"

# 25 numbers: a 5x5 board, inferred; the blank moves right once.
run 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24
expect_rc "5x5 inferred" 0
expect_out "5x5 inferred" "^argument 1: length 1 moves R "

# Unsolvable: reported, not an error (exit 0).
run --json 1 2 3 4 5 6 8 7 0
expect_rc "unsolvable 3x3" 0
one_instance "$tmp/inst.txt" 1 2 3 4 5 6 8 7 0
verify "unsolvable 3x3" json "$tmp/inst.txt" --size 3x3 --expect "argument 1=unsolvable"
run 1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0
expect_rc "Sam Loyd's 14-15" 0
expect_out "Sam Loyd's 14-15" "^argument 1: unsolvable$"

# Limits: exit 3, status limit, the others in the batch still solved. The heuristic is
# pinned: with pattern databases installed the default would solve "hard" in under 2^20
# nodes, before IDA* first looks at the clock.
printf 'easy: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\nhard: 5 10 14 7 8 3 6 1 15 0 12 9 2 11 4 13\nafter: 1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15\n' \
  >"$tmp/limit.txt"
run --heuristic linear-conflict --node-limit 1000 --json --input "$tmp/limit.txt"
expect_rc "node limit" 3
verify "node limit" json "$tmp/limit.txt" --size 4x4 \
  --expect easy=solved:1 --expect hard=limit --expect after=solved:2
expect_err "node limit message" "hard: node limit"
run --heuristic linear-conflict --max-nodes 1000 --input "$tmp/limit.txt"
expect_rc "--max-nodes" 3
verify "--max-nodes" plain "$tmp/limit.txt" --size 4x4 \
  --expect easy=solved:1 --expect hard=limit --expect after=solved:2
run --heuristic linear-conflict --algorithm astar --node-limit 5000 --input "$tmp/limit.txt"
expect_rc "A* node limit" 3
run --heuristic linear-conflict --time-limit 0.001 --input "$tmp/limit.txt"
expect_rc "time limit" 3
expect_out "time limit" "^hard: limit \(time limit\)"

# --show prints the boards, ending at the goal.
run --show 1 2 3 4 5 6 7 0 8
expect_rc "--show" 0
expect_out "--show start" "^start$"
expect_out "--show move" "^move 1: R \(tile 8\)$"
expect_out "--show end" "^7 8 \.$"
# With --json the boards go into the record, which stays one valid JSON line.
run --show --json 1 2 3 4 5 6 7 0 8
expect_rc "--show --json" 0
checks=$((checks + 1))
python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
o = json.loads(lines[0])
assert o["states"] == [[1,2,3,4,5,6,7,0,8], [1,2,3,4,5,6,7,8,0]], o["states"]
assert o["moved"] == [8], o["moved"]
' "$tmp/out" || { fail "--show --json: $(cat "$tmp/out")"; show; }

# --- Batches with bad lines ----------------------------------------------------------------

# Every kind of bad line among good ones: the good ones are solved, in order, exit 1, and
# stderr names each bad line by its line number.
cat >"$tmp/mixed.txt" <<'EOF'
# comments and blank lines are skipped

ok1: 1 2 3 4 5 6 7 0 8
count: 1 2 3 4 5 6 7 0
repeated: 1 1 3 4 5 6 7 8 0
range: 1 2 3 4 5 6 7 8 9
negative: 1 2 3 4 5 6 7 -8 0
noblank: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
word: 1 2 3 four 5 6 7 8 0
   : 1 2 3 4 5 6 7 8 0
empty:
ok2: 1 2 3 4 5 6 0 7 8
    # indented comment
ok3 ,with comma: 1,2,3,4,5,6,7,8,0
EOF
run --input "$tmp/mixed.txt"
expect_rc "mixed batch" 1
# Text mode keeps one line per instance line: the invalid ones say so on stdout as well.
verify "mixed batch" plain "$tmp/mixed.txt" --size 3x3 \
  --expect ok1=solved:1 --expect count=invalid --expect repeated=invalid \
  --expect range=invalid --expect negative=invalid --expect noblank=invalid \
  --expect word=invalid --expect "$tmp/mixed.txt:10=invalid" --expect empty=invalid \
  --expect ok2=solved:2 --expect "ok3 ,with comma=solved:0"
for line in 4 5 6 7 8 9 10 11; do
  expect_err "mixed batch names line $line" "mixed.txt:$line: "
done
expect_err "wrong count message" "mixed.txt:4: .*(8|9)"
expect_err "repeated message" "mixed.txt:5: .*twice"
expect_err "out of range message" "mixed.txt:6: .*out of range"
expect_err "missing blank message" "mixed.txt:8: .*16"
checks=$((checks + 1))
[ "$(grep -Ec 'mixed.txt:[0-9]+: ' "$tmp/err")" -eq 8 ] || { fail "mixed batch: expected 8 error lines"; show; }

run --json --input "$tmp/mixed.txt"
expect_rc "mixed batch --json" 1
verify "mixed batch --json" json "$tmp/mixed.txt" --size 3x3 \
  --expect ok1=solved:1 --expect count=invalid --expect repeated=invalid \
  --expect range=invalid --expect negative=invalid --expect noblank=invalid \
  --expect word=invalid --expect "$tmp/mixed.txt:10=invalid" --expect empty=invalid \
  --expect ok2=solved:2 --expect "ok3 ,with comma=solved:0"

# The same through stdin; a bad line and a limit: invalid wins (exit 1).
cp "$tmp/mixed.txt" "$tmp/stdin"
run
expect_rc "mixed batch on stdin" 1
expect_err "stdin origin" "stdin:4: "
cat "$tmp/limit.txt" >"$tmp/stdin"
echo "bad: 1 2 3" >>"$tmp/stdin"
run --heuristic linear-conflict --node-limit 1000 --input -
expect_rc "invalid and limit" 1
: >"$tmp/stdin"

# --size applies to every line; lines of another size are invalid, the rest solved.
printf 'a: 1 2 3 4 5 6 0 7\nb: 1 2 3 4 5 6 7 8 0\nc: 1 2 3 4 5 6 7 0\n' >"$tmp/size.txt"
run --size 2x4 --input "$tmp/size.txt"
expect_rc "--size with a wrong line" 1
verify "--size with a wrong line" plain "$tmp/size.txt" --size 2x4 --bfs \
  --expect a=solved:1 --expect b=invalid --expect c=solved:0
expect_err "--size wrong line message" "size.txt:2: .*expected 8"
# An explicit goal fixes the board: a line of another size is invalid.
run --goal "1 2 3 4 5 6 7 8 0" 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15
expect_rc "instance larger than the explicit goal" 1
# Counts that cannot be inferred without --size.
run 1 2 3 4 5 6 7 0
expect_rc "8 numbers without --size" 1
expect_err "8 numbers without --size message" "--size"

# --- --html never replaces a file the run reads (exit 2, the file untouched) ----------------
printf 'a: 8 6 7 2 5 4 3 0 1\n' >"$tmp/html_in.txt"
cp -r "$root/data/8-4-4" "$tmp/html_set"
cp "$tmp/html_set/manifest.txt" "$tmp/html_manifest.before"
expect_same() {  # expect_same NAME FILE COPY: FILE still has COPY's content
  checks=$((checks + 1))
  cmp -s "$2" "$3" || fail "$1: the file was changed"
}
cp "$tmp/html_in.txt" "$tmp/html_in.before"
run --input "$tmp/html_in.txt" --html "$tmp/html_in.txt"
expect_rc "--html over the --input file" 2
expect_err "--html over the --input file: named" "is the --input file"
expect_same "--html over the --input file" "$tmp/html_in.txt" "$tmp/html_in.before"
ln -s html_in.txt "$tmp/html_link.html"
run --input "$tmp/html_in.txt" --html "$tmp/html_link.html"
expect_rc "--html through a link to the input" 2
expect_same "--html through a link to the input" "$tmp/html_in.txt" "$tmp/html_in.before"
cp "$tmp/html_in.txt" "$tmp/stdin"
run --html "$tmp/stdin"
expect_rc "--html over the file stdin reads" 2
: >"$tmp/stdin"
run --pdb "$tmp/html_set" --html "$tmp/html_set/manifest.txt" 8 6 7 2 5 4 3 0 1
expect_rc "--html over the --pdb manifest" 2
expect_same "--html over the --pdb manifest" "$tmp/html_set/manifest.txt" "$tmp/html_manifest.before"
cp "$tmp/html_set/additive-1-2-4-5.pdb" "$tmp/html_table.before"
run --html "$tmp/html_set/additive-1-2-4-5.pdb" 8 6 7 2 5 4 3 0 1
expect_rc "--html over a set's table" 2
expect_same "--html over a set's table" "$tmp/html_set/additive-1-2-4-5.pdb" "$tmp/html_table.before"
run --html "$tmp/html_page.html" 8 6 7 2 5 4 3 0 1
expect_rc "--html to a new file" 0

# --- Control characters in labels never reach the terminal: escaped in plain text (\x1b) ---
printf 'x\033[31mred\tz: 8 6 7 2 5 4 3 0 1\nb\033]0;title\007: 9 9\n' >"$tmp/stdin"
run
expect_rc "labels with control characters" 1
expect_out "a label's escape sequence is escaped" '^x\\x1b\[31mred\\tz: length 31 '
expect_out "an invalid line's label is escaped" '^b\\x1b\]0;title\\x07: invalid: '
checks=$((checks + 1))
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/out" "$tmp/err"; then
  fail "a control character reached the output"
  show
fi
printf 'x\033[2Jy: 8 6 7/2 5 4/3 0 1 UULDDRRUULDLDRRUULDLDRRUULLDDRR\n' >"$tmp/stdin"
run check
expect_out "check: the label is escaped" '^x\\x1b\[2Jy: optimal'
: >"$tmp/stdin"
run --goal "$(printf 'A\033 B C/D E F/G H _')" "B A C/D E F/G H _"
expect_rc "a goal label with a control character" 2
expect_err "a goal label with a control character: named" "label 'A[\\]x1b' holds a control character"

# --- SIGINT / SIGTERM: the instance in progress is printed with its lower bound, then the
# summary; exit 130. (Korf #60 with Manhattan alone runs for minutes.)
hard=$(grep "^korf-60:" "$root/data/korf100.txt" | sed 's/^[^:]*://; s/#.*//')
printf 'easy: 1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\nhard: %s\n' "$hard" >"$tmp/interrupt.txt"
for sig in INT TERM; do
  "$solver" -j 1 --heuristic manhattan --goal blank-first --input "$tmp/interrupt.txt" >"$tmp/out" 2>"$tmp/err" &
  victim=$!
  sleep 1.5
  kill -s "$sig" "$victim"
  wait "$victim"
  rc=$?
  last_cmd="solver --heuristic manhattan --input interrupt.txt, then SIG$sig"
  expect_rc "SIG$sig" 130
  expect_out "SIG$sig: the instance in progress" "^hard: limit \(interrupted\) nodes [0-9]+ seconds [0-9.]+ lower bound [0-9]+$"
  expect_out "SIG$sig: the summary" "^summary: instances 2, solved 1, "
done

# --- Failed writes to stdout: the first one ends the run, one line naming it, exit 4 -----

# run_to DEST [ARGS...]: as run, with stdout to DEST.
run_to() {
  local dest=$1
  shift
  "$solver" "$@" <"$tmp/stdin" >"$dest" 2>"$tmp/err"
  rc=$?
  : >"$tmp/out"
  last_cmd="solver $* >$dest"
}
expect_one_err_line() {
  checks=$((checks + 1))
  if [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
    fail "$1: stderr is not one line"
    show
  fi
}
if [ -w /dev/full ]; then
  run_to /dev/full 8 6 7 2 5 4 3 0 1
  expect_rc "solve >/dev/full" 4
  expect_err "solve >/dev/full names it" "^solver: cannot write to standard output: No space left on device$"
  expect_one_err_line "solve >/dev/full"
  run_to /dev/full --help
  expect_rc "--help >/dev/full" 4
  run_to /dev/full check "8 6 7/2 5 4/3 0 1" UULDDRRUULDLDRRUULDLDRRUULLDDRR
  expect_rc "check >/dev/full" 4
  expect_err "check >/dev/full names it" "cannot write to standard output"
  run_to /dev/full scramble --size 3x3 --count 3 --seed 1
  expect_rc "scramble >/dev/full" 4
  expect_one_err_line "scramble >/dev/full"
fi
"$solver" scramble --size 3x3 --count 5000 --seed 5 >"$tmp/many.txt" 2>/dev/null
# A file size limit (SIGXFSZ ignored, as the solver does): EFBIG, not a record cut silently.
(ulimit -f 8; "$solver" --json --input "$tmp/many.txt" >"$tmp/big.json" 2>"$tmp/err")
rc=$?
last_cmd="solver --json --input many.txt (ulimit -f 8)"
expect_rc "ulimit -f" 4
expect_err "ulimit -f names it" "^solver: cannot write to standard output: File too large$"
# The reader leaves with SIGPIPE ignored: EPIPE stops the batch (status 4, one line).
(trap '' PIPE; "$solver" --input "$tmp/many.txt" 2>"$tmp/err"; echo $? >"$tmp/pipe_rc") | head -c 1 >/dev/null
rc=$(cat "$tmp/pipe_rc")
last_cmd="solver --input many.txt | head -c 1 (SIGPIPE ignored)"
expect_rc "a closed pipe with SIGPIPE ignored" 4
expect_err "a closed pipe names it" "^solver: cannot write to standard output: Broken pipe$"
expect_one_err_line "a closed pipe"

# --- -j above the CPUs: one thread per CPU, one note on stderr, the same answers ------------
# 3,000 easy lines (-j 1024 once started 1,024 threads on two cores, every one woken for each
# line printed: minutes). `nproc` counts the CPUs of the affinity mask, as the solver does.
seq 3000 | awk '{ split("1 2 3 4 5 6 0 7 8|1 2 3 4 5 6 7 0 8|1 2 3 0 4 6 7 5 8|1 2 3 4 0 6 7 5 8", b, "|");
                  print "e" $1 ": " b[$1 % 4 + 1] }' >"$tmp/easy.txt"
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
records() {  # the records and summary without seconds and threads
  sed -E 's/, search seconds [0-9.]+, table load seconds [0-9.]+//; s/ seconds [0-9.]+//; s/, threads [0-9]+$//' "$1"
}
run -j 1 --input "$tmp/easy.txt"
expect_rc "3,000 easy lines -j 1" 0
records "$tmp/out" >"$tmp/easy_one.txt"
expect_out "3,000 easy lines -j 1: the summary" "^summary: instances 3000, solved 3000, .*, threads 1$"
if [ "$cpus" -lt 1024 ]; then
  plural=$([ "$cpus" = 1 ] || echo s)
  run -j 1024 --input "$tmp/easy.txt"
  expect_rc "-j 1024" 0
  checks=$((checks + 1))
  records "$tmp/out" | cmp -s - "$tmp/easy_one.txt" || { fail "-j 1024: not the records of -j 1"; show; }
  expect_out "-j 1024: the summary says the CPUs" "^summary: instances 3000, .*, threads $cpus$"
  expect_err "-j 1024: the note" "^solver: -j 1024 is more than the $cpus CPU$plural available; using $cpus$"
  expect_one_err_line "-j 1024: only the note"
  run -q -j 1024 --input "$tmp/easy.txt"
  expect_rc "-q -j 1024" 0
  checks=$((checks + 1))
  [ -s "$tmp/err" ] && { fail "-q -j 1024: stderr not empty"; show; }
  run --json -j 1024 --input "$tmp/easy.txt"
  expect_rc "--json -j 1024" 0
  checks=$((checks + 1))
  grep -qv '^{' "$tmp/out" && { fail "--json -j 1024: a line of stdout is not a record"; show; }
  expect_err "--json -j 1024: the note on stderr" "^solver: -j 1024 is more than the "
fi
run -j "$cpus" --input "$tmp/easy.txt"
checks=$((checks + 1))
[ -s "$tmp/err" ] && { fail "-j $cpus (the CPUs): a note"; show; }
run -j 0 --input "$tmp/easy.txt"
checks=$((checks + 1))
[ -s "$tmp/err" ] && { fail "-j 0: a note"; show; }
expect_out "-j 0: one thread per CPU" "^summary: instances 3000, .*, threads $cpus$"
# On one CPU (taskset): one thread, whatever -j says, and the default is one too.
if command -v taskset >/dev/null; then
  first=$(sed -nE 's/^Cpus_allowed_list:[[:space:]]*([0-9]+).*/\1/p' /proc/self/status)
  taskset -c "$first" "$solver" -j 4 --input "$tmp/easy.txt" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  last_cmd="taskset -c $first solver -j 4 --input easy.txt"
  expect_rc "-j 4 on one CPU" 0
  expect_err "-j 4 on one CPU: the note" "^solver: -j 4 is more than the 1 CPU available; using 1$"
  expect_out "-j 4 on one CPU: one thread" "^summary: instances 3000, .*, threads 1$"
  taskset -c "$first" "$solver" --input "$tmp/easy.txt" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  last_cmd="taskset -c $first solver --input easy.txt"
  expect_out "the default on one CPU: one thread" "^summary: instances 3000, .*, threads 1$"
  checks=$((checks + 1))
  [ -s "$tmp/err" ] && { fail "the default on one CPU: a note"; show; }
fi
# Out of range: a usage error.
for bad in -1 1025 100000; do
  run -j "$bad" 8 6 7 2 5 4 3 0 1
  expect_rc "-j $bad" 2
  expect_err "-j $bad: named" "^solver: --jobs must be between 0 and 1024"
done

# --- 5 (internal error) cannot be provoked from the command line: the library checks every
# solution before printing it and throws only on a bug.

echo "cli_test: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
