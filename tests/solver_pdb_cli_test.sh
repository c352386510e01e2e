#!/usr/bin/env bash
# Command-line tests of the solver with pattern databases that pdbgen builds here (15-5-5-5,
# 8-fringe, 8-4-4; ~1.5 s in all): batches in input order with a summary, -j 2, --json
# (every solution replayed by an independent checker, python3 standard library only),
# time and node limits, table discovery through LOYD_PDB_PATH and the fallback to linear
# conflict, and refusals of damaged or mismatched tables (exit 4, one-line message naming the
# file). Known lengths come from data/korf100.tsv (Korf 1985) and, for 3x3, from the
# checker's own breadth-first search.
#
# Usage: solver_pdb_cli_test.sh SOLVER PDBGEN REPO_ROOT SCRATCH_DIR
# SCRATCH_DIR is emptied and reused (and removed when every check passes). HOME,
# XDG_DATA_HOME and XDG_CACHE_HOME point into it, so nothing is read from or written to the
# real home. Prints one line per failed check and exits 1 if any check failed.
set -u
if [ $# -ne 4 ]; then
  echo "usage: $0 SOLVER PDBGEN REPO_ROOT SCRATCH_DIR" >&2
  exit 2
fi
solver=$1
pdbgen=$2
root=$3
export LOYD_TESTS_DIR="$root/tests"
tmp=$4
rm -rf "$tmp"
mkdir -p "$tmp/home" || exit 2
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/home/data" XDG_CACHE_HOME="$tmp/home/cache"
unset LOYD_PDB_PATH
failures=0
checks=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run NAME EXPECTED_STATUS COMMAND...: stdout in $tmp/out, stderr in $tmp/err.
run() {
  local name=$1 want=$2
  shift 2
  checks=$((checks + 1))
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    fail "$name: '$*' exited $got, expected $want"
    echo "  stdout: $(head -c 600 "$tmp/out")" >&2
    echo "  stderr: $(head -c 600 "$tmp/err")" >&2
    return 1
  fi
  return 0
}

# expect_err NAME TEXT...: stderr is one line and contains every TEXT.
expect_err() {
  local name=$1
  shift
  checks=$((checks + 1))
  local lines
  lines=$(wc -l <"$tmp/err")
  [ "$lines" = 1 ] || fail "$name: expected a one-line message, got $lines lines: $(head -c 600 "$tmp/err")"
  for t in "$@"; do
    grep -qF -- "$t" "$tmp/err" || fail "$name: message lacks '$t': $(head -c 600 "$tmp/err")"
  done
}

# ---------------------------------------------------------------------------------------
# The checker: check.py WxH GOAL INSTANCES OUTPUT plain|json [--bfs] [--optimal FILE]
#   [--heuristic NAME] [--status STATUS]. Records must come in input order, one per instance,
#   then a summary when there is more than one instance. Solved records are replayed on the
#   instance as given (U D L R move the blank) and their length compared with the known
#   optimum ("LABEL LENGTH" lines of FILE) or, with --bfs, with a breadth-first search. JSON records must carry heuristic_start (<= the length) and,
#   with --heuristic, that heuristic name.
cat >"$tmp/check.py" <<'PY'
import json, os, pickle, re, sys
sys.path.insert(0, os.environ["LOYD_TESTS_DIR"])
import puzzle_oracle as oracle  # tests/puzzle_oracle.py, shared with cli_test.sh

args = sys.argv[1:]
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
errors = []

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
    # Two seconds per 3x3 search: kept beside the checker for the next call.
    cache = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bfs-%s-%s.pickle" % (size, goal_spec))
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
        m = re.fullmatch(r"(.*): limit \((.*)\) nodes (\d+) seconds ([0-9.]+) lower bound (\d+)", line)
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

for e in errors:
    print(e)
sys.exit(1 if errors else 0)
PY

# check NAME ARGS...: runs the checker on $tmp/out.
check() {
  local name=$1 size=$2 goal=$3 input=$4 fmt=$5
  shift 5
  checks=$((checks + 1))
  local msg
  if ! msg=$(python3 "$tmp/check.py" "$size" "$goal" "$input" "$tmp/out" "$fmt" "$@" 2>&1); then
    fail "$name: $msg"
  fi
}

# Instances from data/korf100.tsv (goal blank first) as "korf-ID: tiles" on stdout; their
# optimal lengths are appended to $tmp/optimal as "korf-ID LENGTH".
korf() {
  for id in "$@"; do
    awk -F'\t' -v id="$id" '!/^#/ && $1 == id { printf "korf-%s: %s\n", $1, $2 }' "$root/data/korf100.tsv"
    awk -F'\t' -v id="$id" '!/^#/ && $1 == id { printf "korf-%s %s\n", $1, $4 }' "$root/data/korf100.tsv" \
      >>"$tmp/optimal"
  done
}

# ---------------------------------------------------------------------------------------
# Tables.
for set in 15-5-5-5 8-fringe 8-4-4; do
  run "build $set" 0 "$pdbgen" build --preset "$set" --out "$tmp/sets/$set" -j 1 -q || exit 1
done
s15="$tmp/sets/15-5-5-5"

# Five easy Korf instances (under 35,000 nodes each with 15-5-5-5), not in id order.
korf 55 12 97 79 42 >"$tmp/easy.txt"
[ "$(wc -l <"$tmp/easy.txt")" = 5 ] || { fail "could not read data/korf100.tsv"; exit 1; }

# ---------------------------------------------------------------------------------------
# Batches.
if run "batch" 0 "$solver" --pdb "$s15" --goal blank-first --cache-dir none -j 1 --input "$tmp/easy.txt"; then
  check "batch" 4x4 blank-first "$tmp/easy.txt" plain --optimal "$tmp/optimal"
  cut -d' ' -f1-3 "$tmp/out" | head -5 >"$tmp/lengths1"
fi
if run "batch -j 2" 0 "$solver" --pdb "$s15" --goal blank-first --cache-dir none -j 2 --input "$tmp/easy.txt"; then
  check "batch -j 2" 4x4 blank-first "$tmp/easy.txt" plain --optimal "$tmp/optimal"
  cut -d' ' -f1-3 "$tmp/out" | head -5 >"$tmp/lengths2"
  checks=$((checks + 1))
  cmp -s "$tmp/lengths1" "$tmp/lengths2" || fail "-j 2 gave other lengths or order: $(paste -d'|' "$tmp/lengths1" "$tmp/lengths2")"
  grep -q "threads 2$" "$tmp/out" || fail "-j 2: summary does not say 2 threads: $(tail -1 "$tmp/out")"
fi
if run "batch --json" 0 "$solver" --pdb "$s15" --goal blank-first --cache-dir none -j 2 --json --input "$tmp/easy.txt"; then
  check "batch --json" 4x4 blank-first "$tmp/easy.txt" json --optimal "$tmp/optimal" --heuristic pdb:15-5-5-5
fi
# The manifest path works as well as the folder; the table folder may be zstd or raw.
run "unpack" 0 "$pdbgen" unpack "$s15" "$tmp/sets/raw15" -q
if run "raw tables" 0 "$solver" --pdb "$tmp/sets/raw15/manifest.txt" --goal blank-first --cache-dir none --json \
  --input "$tmp/easy.txt"; then
  check "raw tables" 4x4 blank-first "$tmp/easy.txt" json --optimal "$tmp/optimal" --heuristic pdb:15-5-5-5
fi
# Without reflection: same lengths.
if run "--no-reflect" 0 "$solver" --pdb "$s15" --no-reflect --goal blank-first --cache-dir none --input "$tmp/easy.txt"; then
  check "--no-reflect" 4x4 blank-first "$tmp/easy.txt" plain --optimal "$tmp/optimal"
fi

# Every lookup combination, with and without the pruning automaton and BPMX: same optimal
# lengths, every solution replayed; the JSON names the lookups that ran.
for opts in "--lookups all" "--lookups regular,dual --no-bpmx" "--lookups dual-reflected,regular --no-prune" \
  "--lookups regular --no-prune --no-bpmx"; do
  # shellcheck disable=SC2086
  if run "$opts" 0 "$solver" --pdb "$s15" $opts --goal blank-first --cache-dir none --json -j 1 --input "$tmp/easy.txt"; then
    check "$opts" 4x4 blank-first "$tmp/easy.txt" json --optimal "$tmp/optimal" --heuristic pdb:15-5-5-5
  fi
done
run "--lookups all json" 0 "$solver" --pdb "$s15" --lookups all --goal blank-first --cache-dir none --json -j 1 \
  --input "$tmp/easy.txt"
checks=$((checks + 1))
[ "$(grep -c '"lookups":"regular,reflected,dual,dual-reflected"' "$tmp/out")" = 5 ] ||
  fail "--lookups all: JSON does not report the four lookups: $(head -c 600 "$tmp/out")"
run "default lookups json" 0 "$solver" --pdb "$s15" --goal blank-first --cache-dir none --json -j 1 --input "$tmp/easy.txt"
checks=$((checks + 1))
[ "$(grep -c '"lookups":"regular,reflected"' "$tmp/out")" = 5 ] ||
  fail "default lookups: JSON does not report regular,reflected: $(head -c 600 "$tmp/out")"
run "--lookups bad" 2 "$solver" --pdb "$s15" --lookups regular,mirror --goal blank-first "$tmp/easy.txt" &&
  expect_err "--lookups bad" "mirror"
# One instance and two threads: its search is split, the JSON says so, the length is optimal.
korf 12 >"$tmp/split.txt"
if run "one instance -j 2" 0 "$solver" --pdb "$s15" --goal blank-first --cache-dir none --json -j 2 --input "$tmp/split.txt"; then
  check "one instance -j 2" 4x4 blank-first "$tmp/split.txt" json --optimal "$tmp/optimal"
  checks=$((checks + 1))
  grep -q '"threads":2' "$tmp/out" || fail "one instance -j 2: JSON does not say 2 threads: $(cat "$tmp/out")"
fi

# ---------------------------------------------------------------------------------------
# Limits: korf 3 (59 moves) takes minutes with Manhattan and far more than 100 nodes with
# any heuristic.
korf 3 >"$tmp/hard.txt"
if run "--time-limit" 3 "$solver" --heuristic manhattan --time-limit 0.001 --goal blank-first --json --input "$tmp/hard.txt"; then
  check "--time-limit" 4x4 blank-first "$tmp/hard.txt" json --status limit
  grep -q '"error":"time limit"' "$tmp/out" || fail "--time-limit: no time-limit error: $(cat "$tmp/out")"
fi
if run "--node-limit" 3 "$solver" --pdb "$s15" --node-limit 100 --goal blank-first --cache-dir none --json \
  --input "$tmp/hard.txt"; then
  check "--node-limit" 4x4 blank-first "$tmp/hard.txt" json --status limit --heuristic pdb:15-5-5-5
  grep -q '"error":"node limit"' "$tmp/out" || fail "--node-limit: no node-limit error: $(cat "$tmp/out")"
fi
# A limit reports the lower bound proven (the last bound IDA* exhausted), at least h(start).
checks=$((checks + 1))
python3 - "$tmp/out" <<'PY' || fail "--node-limit: no lower_bound >= heuristic_start: $(cat "$tmp/out")"
import json, sys
o = json.loads(open(sys.argv[1]).readline())
assert isinstance(o["lower_bound"], int) and o["lower_bound"] >= o["heuristic_start"] > 0, o
PY
# Labels and messages holding bytes that are not UTF-8 still give valid UTF-8 JSON.
printf 'caf\xe9 \xff\xfe: 1 2 3 4 5 6 7 8 0\nbad\xc3: 1 2 3 x\n' >"$tmp/latin1.txt"
run "non-UTF-8 labels" 1 "$solver" --pdb "$tmp/sets/8-4-4" --cache-dir none --json --input "$tmp/latin1.txt"
checks=$((checks + 1))
python3 - "$tmp/out" <<'PY' || fail "non-UTF-8 labels: JSON is not valid UTF-8: $(head -c 300 "$tmp/out" | od -c | head -5)"
import json, sys
raw = open(sys.argv[1], "rb").read()
lines = raw.decode("utf-8").splitlines()   # strict: raises on any invalid byte
recs = [json.loads(l) for l in lines]
assert recs[0]["label"] == "caf\ufffd \ufffd\ufffd" and recs[0]["status"] == "solved", recs[0]
assert recs[1]["status"] == "invalid" and recs[1]["label"].startswith("bad"), recs[1]
PY
if run "--node-limit plain" 3 "$solver" --pdb "$s15" --node-limit 100 --goal blank-first --cache-dir none \
  --input "$tmp/hard.txt"; then
  check "--node-limit plain" 4x4 blank-first "$tmp/hard.txt" plain --status limit
fi

# ---------------------------------------------------------------------------------------
# 3x3 with the fringe table and the 4-4 partition, lengths from the checker's BFS (two of the
# three 31-move positions among them).
cat >"$tmp/eight.txt" <<'EOF'
a: 8 6 7 2 5 4 3 0 1
b: 6 4 7 8 5 0 3 2 1
c: 1 2 3 4 5 6 0 7 8
d: 0 1 2 3 4 5 6 7 8
e: 1 2 3 4 5 6 7 8 0
f: 5 1 8 0 4 6 7 3 2
EOF
for set in 8-fringe 8-4-4; do
  if run "3x3 $set" 0 "$solver" --pdb "$tmp/sets/$set" --cache-dir none --json --input "$tmp/eight.txt"; then
    check "3x3 $set" 3x3 blank-last "$tmp/eight.txt" json --bfs --heuristic "pdb:$set"
  fi
done
# Blank-first 3x3 instances on the blank-last fringe table, through the goal mapping.
if run "3x3 blank-first" 0 "$solver" --pdb "$tmp/sets/8-fringe" --goal blank-first --cache-dir none --json \
  --input "$tmp/eight.txt"; then
  check "3x3 blank-first" 3x3 blank-first "$tmp/eight.txt" json --bfs --heuristic pdb:8-fringe
fi

# A streamed batch longer than the reading window (8 lines per thread): records come out in
# input order, one per instance line (blank lines and comments skip), invalid lines included.
python3 - "$tmp/stream.txt" <<'PY'
import random, sys
random.seed(3)
with open(sys.argv[1], "w") as f:
    for i in range(1, 401):
        if i % 37 == 0:
            f.write("# a comment\n\n")
        if i % 53 == 0:
            f.write("s%d: 1 2 3 oops\n" % i)
            continue
        t = list(range(9)); random.shuffle(t)
        f.write("s%d: %s\n" % (i, " ".join(map(str, t))))
PY
run "streamed batch" 1 "$solver" --pdb "$tmp/sets/8-4-4" --cache-dir none --json -j 3 --input "$tmp/stream.txt"
checks=$((checks + 1))
python3 - "$tmp/out" <<'PY' || fail "streamed batch: records out of order or missing"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert "summary" in recs[-1], "no summary last"
labels = [r["label"] for r in recs[:-1]]
assert labels == ["s%d" % i for i in range(1, 401)], labels[:10]
bad = [r["label"] for r in recs[:-1] if r["status"] == "invalid"]
assert bad == ["s%d" % i for i in range(53, 401, 53)], bad
assert recs[-1]["summary"]["instances"] == 400
PY

# A* uses the tables it finds, as the help says (the 3x3 sets through LOYD_PDB_PATH).
if LOYD_PDB_PATH="$tmp/sets/8-4-4" run "astar finds tables" 0 "$solver" --algorithm astar --cache-dir none --json \
  --input "$tmp/eight.txt"; then
  check "astar finds tables" 3x3 blank-last "$tmp/eight.txt" json --bfs --heuristic pdb:8-4-4
fi
# pdbgen: info on a set folder describes the set; no command is a short usage on stderr; -V.
run "info on a set" 0 "$pdbgen" info "$tmp/sets/8-4-4"
checks=$((checks + 1))
grep -q "^set  *8-4-4" "$tmp/out" && grep -q "additive-1-2-4-5.pdb: additive 1,2,4,5" "$tmp/out" ||
  fail "pdbgen info DIR: $(head -c 400 "$tmp/out")"
run "pdbgen without a command" 2 "$pdbgen"
checks=$((checks + 1))
[ ! -s "$tmp/out" ] && grep -q "Usage: pdbgen" "$tmp/err" || fail "pdbgen alone: usage not on stderr"
run "pdbgen -V" 0 "$pdbgen" -V
run "solver -V" 0 "$solver" -V
checks=$((checks + 1))
grep -q "solver (loyd)" "$tmp/out" || fail "solver -V: $(cat "$tmp/out")"
run "solver --help" 0 "$solver" --help
checks=$((checks + 1))
head -3 "$tmp/out" | grep -q "Examples:" && grep -q "LOYD_PDB_PATH" "$tmp/out" && grep -q "Exit status" "$tmp/out" ||
  fail "solver --help lacks examples, environment or exit codes"

# Tables for another board: each such line is invalid, named with both sizes (exit 1).
run "3x3 set, 4x4 instance" 1 "$solver" --pdb "$tmp/sets/8-fringe" --goal blank-first --cache-dir none \
  --input "$tmp/easy.txt"
checks=$((checks + 1))
[ "$(grep -c ': invalid: the tables in .* are for 3x3 boards, the instance is 4x4$' "$tmp/out")" = \
  "$(grep -c . "$tmp/easy.txt")" ] || fail "3x3 set, 4x4 instance: not every line invalid: $(head -c 600 "$tmp/out")"

# ---------------------------------------------------------------------------------------
# Discovery. With LOYD_PDB_PATH pointing at the built set (and HOME empty), it is used.
korf 12 >"$tmp/one.txt"
one=$(cut -d: -f2 "$tmp/one.txt" | cut -d'#' -f1)
# shellcheck disable=SC2086
if LOYD_PDB_PATH="$s15" run "LOYD_PDB_PATH" 0 "$solver" --goal blank-first --json $one; then
  checks=$((checks + 1))
  grep -q '"heuristic":"pdb:15-5-5-5"' "$tmp/out" || fail "LOYD_PDB_PATH: not using pdb:15-5-5-5: $(cat "$tmp/out")"
  grep -q '"status":"solved","length":45,' "$tmp/out" || fail "LOYD_PDB_PATH: not solved at 45: $(cat "$tmp/out")"
fi
# A renamed copy proves the set came from LOYD_PDB_PATH (before any shipped set of equal
# strength), also when the path names the folder holding sets.
mkdir -p "$tmp/path/sub"
cp -r "$s15" "$tmp/path/sub/mine"
sed -i 's/^name .*/name mine-15/' "$tmp/path/sub/mine/manifest.txt"
# shellcheck disable=SC2086
if LOYD_PDB_PATH="$tmp/nowhere:$tmp/path/sub" run "LOYD_PDB_PATH folder of sets" 0 "$solver" --goal blank-first --json $one; then
  checks=$((checks + 1))
  grep -q '"heuristic":"pdb:mine-15"' "$tmp/out" || fail "LOYD_PDB_PATH folder of sets: not using mine-15: $(cat "$tmp/out")"
fi
# A set in $XDG_DATA_HOME/loyd/pdb is found too.
mkdir -p "$XDG_DATA_HOME/loyd/pdb"
cp -r "$tmp/path/sub/mine" "$XDG_DATA_HOME/loyd/pdb/mine"
# shellcheck disable=SC2086
if run "XDG_DATA_HOME" 0 "$solver" --goal blank-first --json $one; then
  checks=$((checks + 1))
  grep -q '"heuristic":"pdb:mine-15"' "$tmp/out" || fail "XDG_DATA_HOME: not using mine-15: $(cat "$tmp/out")"
fi
rm -rf "$XDG_DATA_HOME/loyd"
# The strongest set found is damaged: the next one is used (not linear conflict), and stderr
# names the damaged set and the one used instead.
mkdir -p "$tmp/dmgpath"
cp -r "$s15" "$tmp/dmgpath/a-damaged"
cp -r "$tmp/path/sub/mine" "$tmp/dmgpath/b-next"
python3 - "$tmp/dmgpath/a-damaged/additive-3-4-7-8-12.pdb" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) // 2] ^= 0x04
open(p, "wb").write(b)
PY
# shellcheck disable=SC2086
if LOYD_PDB_PATH="$tmp/dmgpath" run "damaged strongest set" 0 "$solver" --goal blank-first --cache-dir none --json $one; then
  checks=$((checks + 1))
  grep -q '"heuristic":"pdb:mine-15"' "$tmp/out" || fail "damaged strongest set: not using the next set: $(cat "$tmp/out")"
  checks=$((checks + 1))
  grep -qF "solver: not using $tmp/dmgpath/a-damaged/manifest.txt: " "$tmp/err" &&
    grep -qF "; using the next set found, $tmp/dmgpath/b-next/manifest.txt" "$tmp/err" ||
    fail "damaged strongest set: stderr does not say so: $(cat "$tmp/err")"
fi
: linear conflict, and stderr names the pdbgen command that builds some.
printf 'r: 1 2 3 4 5 6 0 7 9 10 8 11\n' >"$tmp/rect.txt"
if run "3x4 fallback" 0 "$solver" --size 3x4 --json --input "$tmp/rect.txt"; then
  checks=$((checks + 1))
  grep -q '"heuristic":"linear-conflict"' "$tmp/out" || fail "3x4 fallback: not linear conflict: $(cat "$tmp/out")"
  [ ! -s "$tmp/err" ] || fail "3x4 fallback: a hint after a fast solve: $(cat "$tmp/err")"
  python3 - "$tmp/out" <<'PY' || fail "3x4 fallback: bad solution: $(cat "$tmp/out")"
import json, sys
o = json.loads(open(sys.argv[1]).readline())
b, w, h = [1, 2, 3, 4, 5, 6, 0, 7, 9, 10, 8, 11], 3, 4
z = b.index(0)
for m in o["moves"]:
    r, c = divmod(z, w)
    dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[m]
    assert 0 <= r + dr < h and 0 <= c + dc < w
    nz = (r + dr) * w + c + dc
    b[z], b[nz] = b[nz], b[z]
    z = nz
assert b == list(range(1, 12)) + [0], b
PY
fi
# When tables would have helped (here: a node limit hit), one hint names a command that runs
# as printed, with its cost; -q silences it. After running it, the solver uses those tables.
printf 'h: 0 11 10 9 8 7 6 5 4 3 1 2\n' >"$tmp/hard34.txt"
run "3x4 hint" 3 "$solver" --size 3x4 --node-limit 2000 --input "$tmp/hard34.txt"
checks=$((checks + 1))
hint=$(grep -Ec "for faster solving build tables \(about [0-9]+ min on 2 cores, [0-9]+\.[0-9] (KiB|MiB) of memory" "$tmp/err")
[ "$hint" = 1 ] || fail "3x4 hint: expected one hint with its cost: $(cat "$tmp/err")"
run "3x4 hint -q" 3 "$solver" -q --size 3x4 --node-limit 2000 --input "$tmp/hard34.txt"
checks=$((checks + 1))
grep -q "faster" "$tmp/err" && fail "-q: the hint is still printed"
cmd=$(sed -En 's/.*[KM]iB on disk\): //p' "$tmp/err" | head -1)
run "3x4 hint again" 3 "$solver" --size 3x4 --node-limit 2000 --input "$tmp/hard34.txt"
cmd=$(sed -En 's/.*[KM]iB on disk\): //p' "$tmp/err" | head -1)
checks=$((checks + 1))
if [ -z "$cmd" ] || ! eval "$cmd -q -j 2" >"$tmp/hintbuild.out" 2>&1; then
  fail "the hinted command does not run as printed: '$cmd': $(cat "$tmp/hintbuild.out" 2>/dev/null)"
else
  run "3x4 with the hinted tables" 0 "$solver" --size 3x4 --json --input "$tmp/rect.txt"
  checks=$((checks + 1))
  grep -q '"heuristic":"pdb:custom-3x4"' "$tmp/out" || fail "hinted tables not used: $(cat "$tmp/out")"
  rm -rf "$XDG_DATA_HOME/loyd"
fi
# Asking for tables where there are none is an error, not a silent fallback.
run "3x4 --heuristic pdb" 2 "$solver" --size 3x4 --heuristic pdb --input "$tmp/rect.txt" &&
  expect_err "3x4 --heuristic pdb" "pdbgen build"

# ---------------------------------------------------------------------------------------
# Progress: one instance searched for over a second on a terminal (util-linux `script` gives
# it one) shows "bound ..., nodes (with thousands separators), s, M nodes/s" on a line it erases
# before the answer; with stderr not a terminal, nothing. Korf #60 with Manhattan alone cannot
# finish within its 2 s time limit on any machine (it needs billions of nodes), so the run lasts
# 2 s however fast the search is.
korf 60 >"$tmp/slow.txt"
slow=$(cut -d: -f2 "$tmp/slow.txt")
slow_cmd="$solver -j 1 --heuristic manhattan --time-limit 2 --goal blank-first $slow"
if command -v script >/dev/null; then
  script -qc "$slow_cmd" /dev/null >"$tmp/tty.out" 2>&1
  checks=$((checks + 1))
  python3 - "$tmp/tty.out" <<'PY' || fail "progress on a terminal: $(head -c 400 "$tmp/tty.out" | od -c | head -8)"
import re, sys
t = open(sys.argv[1], "rb").read().decode()
assert re.search(r"\rsolver: bound \d+, \d{1,3}(,\d{3})* nodes, \d+\.\d s, \d+\.\d M nodes/s\x1b\[K", t), "no progress line"
assert re.search(r"\r\x1b\[K(solver: [^\r\n]*\r\n)?argument 1: limit \(time limit\)", t), \
    "the progress line is not erased before the answer"
PY
  script -qc "$slow_cmd 2>$tmp/notty.err" /dev/null >/dev/null 2>&1
  checks=$((checks + 1))
  ! grep -q "bound" "$tmp/notty.err" || fail "progress written to a stderr that is not a terminal: $(head -c 200 "$tmp/notty.err")"
fi

# ---------------------------------------------------------------------------------------
# Kill tests: pdbgen build of 15-5-5-5 killed with SIGKILL at 20 random moments. After each,
# either the set is complete and matches the reference, or it does not look complete: verify
# fails and the solver refuses it (exit 4); every table file present is whole. Then a rerun
# finishes the set with the reference checksums and leaves no temporary file.
kd="$tmp/killed"
ref="$root/data/reference/15-5-5-5.manifest.txt"
RANDOM=7
for i in $(seq 1 20); do
  "$pdbgen" build --preset 15-5-5-5 --out "$kd" -j 1 -q >/dev/null 2>&1 &
  victim_pid=$!
  sleep "0.$(printf '%03d' $((RANDOM % 450)))"  # an uninterrupted build takes about 0.4 s
  kill -9 "$victim_pid" 2>/dev/null
  wait "$victim_pid" 2>/dev/null
  checks=$((checks + 1))
  if [ -e "$kd/manifest.txt" ]; then
    "$pdbgen" verify "$kd" --against "$ref" >/dev/null 2>&1 || fail "kill $i: a manifest but the set does not verify"
  else
    "$pdbgen" verify "$kd" >/dev/null 2>&1 && fail "kill $i: verify accepts a set without its manifest"
    "$solver" --pdb "$kd" --goal blank-first --cache-dir none --input "$tmp/one.txt" >/dev/null 2>&1
    [ $? = 4 ] || fail "kill $i: the solver did not refuse the incomplete set with exit 4"
  fi
  for f in "$kd"/*.pdb; do
    [ -e "$f" ] || continue
    "$pdbgen" verify "$f" >/dev/null 2>&1 || fail "kill $i: $(basename "$f") is not whole"
  done
  # The next kill starts from a folder that does not look complete: every other time with no
  # table at all (temporary files of killed builds stay, for the rebuild to clear).
  rm -f "$kd/manifest.txt"
  [ $((i % 2)) = 0 ] && rm -f "$kd"/*.pdb
done
if run "rebuild after kills" 0 "$pdbgen" build --preset 15-5-5-5 --out "$kd" -j 2 -q; then
  run "verify after kills" 0 "$pdbgen" verify "$kd" --against "$ref"
  checks=$((checks + 1))
  [ -z "$(find "$kd" -name '*.tmp.*')" ] || fail "temporary files left after the rebuild: $(ls -a "$kd")"
fi

# ---------------------------------------------------------------------------------------
# Refusals: exit 4 and one line naming the file. Each case damages a fresh copy of 15-5-5-5.
victim=additive-3-4-7-8-12.pdb
fresh() {
  rm -rf "$tmp/bad"
  cp -r "$s15" "$tmp/bad"
}
refuse() {
  local name=$1
  shift
  run "$name" 4 "$solver" --pdb "$tmp/bad" --goal blank-first --cache-dir none --input "$tmp/easy.txt" &&
    expect_err "$name" "$@"
}
fresh
python3 - "$tmp/bad/$victim" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) // 2] ^= 0x04
open(p, "wb").write(b)
PY
refuse "flipped byte" "$tmp/bad/$victim"
fresh
truncate -s -1 "$tmp/bad/$victim"
refuse "truncated table" "$tmp/bad/$victim"
fresh
truncate -s 100 "$tmp/bad/$victim"
refuse "table shorter than its header" "$tmp/bad/$victim"
fresh
cp "$tmp/sets/8-4-4/additive-1-2-4-5.pdb" "$tmp/bad/$victim"
refuse "3x3 table under a 4x4 name" "$tmp/bad/$victim"
fresh
sed -i 's/ xxh3=[0-9a-f]*//' "$tmp/bad/manifest.txt"
cp "$tmp/sets/8-4-4/additive-1-2-4-5.pdb" "$tmp/bad/$victim"
refuse "3x3 table, manifest without checksums" "$tmp/bad/$victim" "3x3"
fresh
sed -i 's/^goal .*/goal 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15/' "$tmp/bad/manifest.txt"
refuse "manifest goal edited" "$tmp/bad/additive-" "goal"
fresh
rm "$tmp/bad/$victim"
refuse "missing table" "$tmp/bad/$victim"
fresh
python3 - "$tmp/bad/manifest.txt" "$victim" <<'PY'
import re, sys
path, victim = sys.argv[1:]
lines = open(path).read().splitlines(True)
for i, line in enumerate(lines):
    if line.startswith("table " + victim + " "):
        # Change the checksum's last hex digit.
        lines[i] = re.sub(r"(xxh3=[0-9a-f]{15})([0-9a-f])",
                          lambda m: m.group(1) + ("0" if m.group(2) != "0" else "1"), line)
open(path, "w").write("".join(lines))
PY
checks=$((checks + 1))
cmp -s "$s15/manifest.txt" "$tmp/bad/manifest.txt" && fail "could not edit the manifest's checksum"
refuse "manifest checksum" "$tmp/bad/$victim" "xxh3"
run "missing set" 4 "$solver" --pdb "$tmp/no-such-set" --goal blank-first --cache-dir none --input "$tmp/easy.txt" &&
  expect_err "missing set" "$tmp/no-such-set"

# A FIFO where a table or the manifest is expected: refused at once (exit 4, one line), never
# waited on (`timeout` turns a hang into a failure); discovery skips such a set.
fresh
rm "$tmp/bad/$victim"
mkfifo "$tmp/bad/$victim"
run "a FIFO for a table" 4 timeout 20 "$solver" --pdb "$tmp/bad" --goal blank-first --cache-dir none \
  --input "$tmp/easy.txt" && expect_err "a FIFO for a table" "$tmp/bad/$victim: not a regular file (a FIFO)"
mkdir -p "$tmp/fifo-manifest"
mkfifo "$tmp/fifo-manifest/manifest.txt"
run "a FIFO manifest" 4 timeout 20 "$solver" --pdb "$tmp/fifo-manifest" --goal blank-first --cache-dir none \
  --input "$tmp/easy.txt" && expect_err "a FIFO manifest" "manifest.txt: not a regular file (a FIFO)"
mkdir -p "$tmp/fifo-path"
mv "$tmp/fifo-manifest" "$tmp/fifo-path/a"
mv "$tmp/bad" "$tmp/fifo-path/b"
# shellcheck disable=SC2086
if LOYD_PDB_PATH="$tmp/fifo-path:$s15" run "discovery past FIFOs" 0 timeout 20 "$solver" --goal blank-first --json $one; then
  checks=$((checks + 1))
  grep -q '"heuristic":"pdb:15-5-5-5"' "$tmp/out" || fail "discovery past FIFOs: not using 15-5-5-5: $(cat "$tmp/out")"
fi

# Tables rewritten in place while in use (issue 21 item 6). A weak 2-2 set keeps Korf #88
# searching for many seconds; truncating a mapped table under it raises SIGBUS on the next
# read: one line naming the cause and status 4, not a crash.
run "weak 2-2 set" 0 "$pdbgen" build --size 4x4 --goal blank-first --pattern 1,2 --pattern 3,4 --encoding raw \
  --out "$tmp/weak" -q || exit 1
hard=$(awk -F'\t' '!/^#/ && $1 == 88 { print $2 }' "$root/data/korf100.tsv")
checks=$((checks + 1))
timeout 120 "$solver" --pdb "$tmp/weak" --goal blank-first --cache-dir none "$hard" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1
truncate -s 0 "$tmp/weak/additive-1-2.pdb"
wait "$pid"
got=$?
[ "$got" = 4 ] || fail "table truncated while mapped: exited $got, expected 4: $(head -c 600 "$tmp/err")"
expect_err "table truncated while mapped" "SIGBUS" "truncated or rewritten while in use"
# A batch whose table is rewritten in place between two lines: the answer that may rest on
# the changed entries is not printed; the run stops with the table's name and status 4.
# (Mapped tables only: a zstd table is decoded into memory and cannot change under a search.)
run "raw 15-5-5-5" 0 "$pdbgen" build --preset 15-5-5-5 --encoding raw --out "$tmp/raw15" -j 1 -q || exit 1
lines=$(head -2 "$tmp/easy.txt")
checks=$((checks + 1))
{
  echo "$lines" | head -1
  sleep 1
  printf 'x' >>"$tmp/raw15/$victim"
  sleep 0.5
  echo "$lines" | tail -1
} | "$solver" --pdb "$tmp/raw15" --goal blank-first --cache-dir none -j 1 >"$tmp/out" 2>"$tmp/err"
got=$?
[ "$got" = 4 ] || fail "table rewritten between lines: exited $got, expected 4: $(head -c 600 "$tmp/err")"
expect_err "table rewritten between lines" "$tmp/raw15/$victim: its size went from" "while in use"
[ "$(wc -l <"$tmp/out")" -le 1 ] || fail "table rewritten between lines: printed $(wc -l <"$tmp/out") answers"

# A first-time user on a terminal with a random 5x5 board and no 24-puzzle tables (issue 21
# item 15): told at once that the board needs tables, with the build command and its cost,
# then shown the progress (bound, nodes, rate). `script` gives the solver a terminal.
b25=$("$solver" scramble --size 5x5 --seed 3)
if command -v script >/dev/null; then
  checks=$((checks + 1))
  script -qec "$(printf '%q ' "$solver" --time-limit 1.5 --cache-dir none "$b25")" /dev/null >"$tmp/tty" 2>&1
  got=$?
  [ "$got" = 3 ] || fail "5x5 on a terminal: exited $got, expected 3 (time limit): $(head -c 600 "$tmp/tty")"
  first=$(head -1 "$tmp/tty")
  for want in "no pattern databases found for 5x5" "pdbgen build --preset 24-6-6-6-6" "min on 2 cores" "MiB of memory"; do
    checks=$((checks + 1))
    case "$first" in *"$want"*) ;; *) fail "5x5 on a terminal: first line lacks '$want': $first" ;; esac
  done
  checks=$((checks + 1))
  grep -q "hours or days" "$tmp/tty" || fail "5x5 on a terminal: no word on the wait: $(head -c 600 "$tmp/tty")"
  checks=$((checks + 1))
  grep -q "solver: bound [0-9]*, [0-9,]* nodes, [0-9.]* s, [0-9.]* M nodes/s" "$tmp/tty" ||
    fail "5x5 on a terminal: no progress line: $(head -c 600 "$tmp/tty")"
  checks=$((checks + 1))
  [ "$(grep -c "no pattern databases found" "$tmp/tty")" = 1 ] || fail "5x5 on a terminal: the hint repeated at the end"
  script -qec "$(printf '%q ' "$solver" -q --time-limit 0.5 --cache-dir none "$b25")" /dev/null >"$tmp/tty" 2>&1
  checks=$((checks + 1))
  ! grep -q "no pattern databases\|hours or days" "$tmp/tty" || fail "5x5 on a terminal with -q: $(head -c 600 "$tmp/tty")"
fi
# Not on a terminal (scripts, pipes): no notice at the start, the hint once at the end.
run "5x5 piped" 3 "$solver" --time-limit 0.5 --cache-dir none "$b25"
checks=$((checks + 1))
! grep -q "hours or days" "$tmp/err" && grep -q "pdbgen build --preset 24-6-6-6-6" "$tmp/err" ||
  fail "5x5 piped: $(head -c 600 "$tmp/err")"

if [ "$failures" -gt 0 ]; then
  echo "$failures of $checks checks failed (scratch kept in $tmp)" >&2
  exit 1
fi
rm -rf "$tmp"
echo "all $checks checks passed"
