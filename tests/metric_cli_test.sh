#!/usr/bin/env bash
# Command-line tests of the multi-tile metric and of all optimal solutions (README: "The
# multi-tile metric", "All optimal solutions"): `--metric mtm` answers at the exact MTM distance
# with run lengths, `--count` and `--all` against the number of shortest paths, `check
# --metric mtm`, JSON records, limits, and every refusal. The oracle is independent of the
# solver (python3, standard library, tests/puzzle_oracle.py): a breadth-first search of the
# whole 3x3 and 2x4 spaces in each metric that also counts the shortest paths to every position.
#
# Usage: metric_cli_test.sh SOLVER REPO_ROOT
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
# The shipped tables only (8-4-4 in stm, 8-mtm-fringe in mtm); 2x4 uses the classic heuristics.
export LOYD_PDB_PATH="$root/data"
# shellcheck source=tests/solver_cli_support.sh
. "$root/tests/solver_cli_support.sh"

# ---------------------------------------------------------------------------------------
# The oracle: judge METRIC W H BOARDS OUTPUT MODE
#   MODE solve: each record of the solver's plain output (in order, one per board) is solved at
#               the BFS distance in METRIC, its moves (blank notation, run lengths) replay to
#               the goal, and in mtm the length is the number of runs written.
#   MODE count: "length L solutions C": L the distance, C the number of shortest paths.
#   MODE all:   as count, followed by C lines "solution K MOVES", every one replaying at the
#               optimal length, all distinct (listing is exact when C is below the cap).
cat >"$tmp/judge.py" <<'PY'
import os, re, sys
sys.path.insert(0, os.environ["LOYD_TESTS_DIR"])
from puzzle_oracle import bfs_counts, replay

metric, w, h, boards_file, out_file, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), *sys.argv[4:7]
n = w * h
goal = tuple(list(range(1, n)) + [0])
dist, count = bfs_counts(w, h, goal, metric)
boards = [tuple(int(t) for t in re.split(r"[\s,/]+", l.strip()) if t) for l in open(boards_file) if l.strip()]
lines = [l.rstrip("\n") for l in open(out_file)]
errors = []

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
for e in errors[:20]:
    print(e)
sys.exit(1 if errors else 0)
PY

# judge_run NAME METRIC W H BOARDS MODE: the oracle on the last run's output.
judge_run() {
  checks=$((checks + 1))
  if ! python3 "$tmp/judge.py" "$2" "$3" "$4" "$5" "$tmp/out" "$6" >"$tmp/judge" 2>&1; then
    fail "$1: $(head -5 "$tmp/judge")"
    show
  fi
}

# Boards: random solvable 3x3 and 2x4 positions (fixed seeds), in rows.
"$solver" scramble --size 3x3 --count 12 --seed 11 >"$tmp/b33" || fail "scramble 3x3"
"$solver" scramble --size 4x2 --count 12 --seed 12 >"$tmp/b42" || fail "scramble 4x2"
printf '8 2 0/4 6 1/3 7 5\n' >>"$tmp/b33"   # 24 stm moves (4 solutions), 18 mtm (2 solutions)

# ---------------------------------------------------------------------------------------
# --metric mtm: the MTM distance, moves with run lengths, from stdin and --input.
run --metric mtm --input "$tmp/b33" -j 2
expect_rc "mtm 3x3" 0
judge_run "mtm 3x3 at the MTM distance" mtm 3 3 "$tmp/b33" solve
cp "$tmp/b42" "$tmp/stdin"
run --metric mtm
expect_rc "mtm 4x2 from stdin" 0
judge_run "mtm 4x2 at the MTM distance (walking distance)" mtm 4 2 "$tmp/b42" solve
run --metric mtm --algorithm astar --input "$tmp/b42"
expect_rc "mtm A*" 0
judge_run "mtm A* at the MTM distance" mtm 4 2 "$tmp/b42" solve
run --metric mtm --heuristic manhattan --input "$tmp/b42"
expect_rc "mtm per-axis Manhattan bound" 0
judge_run "mtm with the Manhattan bound" mtm 4 2 "$tmp/b42" solve
: >"$tmp/stdin"
run --metric mtm --json --show "1 2 3/4 5 6/0 7 8"
expect_rc "mtm json" 0
expect_out "mtm json: one move of two tiles" '"length":1,"moves":"R2","metric":"mtm","length_stm":2'
expect_out "mtm json: the tiles of the move" '"moved":\[\[7,8\]\]'
run --metric mtm --show --notation tile "1 2 3/4 5 6/0 7 8"
expect_out "mtm --show names the run and its tiles" '^move 1: L2 \(tiles 7 8\)$'
run --metric stm "8 2 0/4 6 1/3 7 5"
expect_out "--metric stm is today's output" '^argument 1: length 24 moves [UDLR]{24} nodes'

# ---------------------------------------------------------------------------------------
# --count and --all against the number of shortest paths, in both metrics.
run --count --input "$tmp/b33"
expect_rc "count stm 3x3" 0
judge_run "count stm 3x3" stm 3 3 "$tmp/b33" count
expect_out "count: the summary totals the solutions" '^summary: .* solutions [0-9]+$'
run --count --metric mtm --input "$tmp/b33"
expect_rc "count mtm 3x3" 0
judge_run "count mtm 3x3" mtm 3 3 "$tmp/b33" count
run --all --max-solutions 100000 --input "$tmp/b42"
expect_rc "all stm 4x2" 0
judge_run "all stm 4x2: every solution, distinct, optimal" stm 4 2 "$tmp/b42" all
run --all --metric mtm --max-solutions 100000 --input "$tmp/b33"
expect_rc "all mtm 3x3" 0
judge_run "all mtm 3x3: every solution, distinct, optimal" mtm 3 3 "$tmp/b33" all
run --all --no-prune --heuristic manhattan "8 2 0/4 6 1/3 7 5"
expect_out "all: four solutions of the 24-move board" '^argument 1: length 24 solutions 4 nodes'
# The cap: two listed, said so, exit 0.
run --all --max-solutions 2 "8 2 0/4 6 1/3 7 5"
expect_rc "all capped" 0
expect_out "all capped: said" '^argument 1: length 24 solutions 2 \(the first 2 listed; there are more\) nodes'
expect_out "all capped: the second solution" '^argument 1: solution 2 [UDLR]{24}$'
checks=$((checks + 1))
[ "$(grep -c ': solution ' "$tmp/out")" = 2 ] || { fail "all capped: not exactly two solutions"; show; }
run --all --json --max-solutions 3 --notation tile "8 2 0/4 6 1/3 7 5"
checks=$((checks + 1))
python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["status"] == "solved" and r["length"] == 24, r
assert r["count"] == 3 and r["capped"] is True and r["count_exact"] is False, r
assert len(r["solutions"]) == 3 and len(set(r["solutions"])) == 3, r
' "$tmp/out" || { fail "all json record"; show; }
run --count --json "1 2 3/4 5 6/7 8 0" "8 2 0/4 6 1/3 7 5" "1 2 3/4 5 6/8 7 0"
checks=$((checks + 1))
python3 -c '
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
assert rs[0]["count"] == 1 and rs[0]["length"] == 0 and rs[0]["count_exact"] is True, rs[0]
assert rs[1]["count"] == 4 and "solutions" not in rs[1], rs[1]
assert rs[2]["status"] == "unsolvable" and rs[2]["length"] is None, rs[2]
assert rs[3]["summary"]["solutions"] == 5, rs[3]
' "$tmp/out" || { fail "count json records"; show; }
# --all with --html: every solution on the page.
run --all --html "$tmp/all.html" "8 2 0/4 6 1/3 7 5"
checks=$((checks + 1))
grep -q 'argument 1 #4' "$tmp/all.html" || { fail "--all --html: the fourth solution is not on the page"; show; }
# A limit: exit 3, a lower bound.
run --count --node-limit 1000 --heuristic manhattan --goal blank-first 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3
expect_rc "count under a node limit" 3
expect_out "count under a node limit: said" '^argument 1: limit \(node limit\).* lower bound [0-9]+$'

# ---------------------------------------------------------------------------------------
# check in the multi-tile metric.
run check --metric mtm "8 2 0/4 6 1/3 7 5" DLULD2RU2RDL2URD2RU2LD2R
expect_rc "check mtm optimal" 0
expect_out "check mtm optimal" '^argument 1: optimal stm 24 mtm 18 optimal 18 \(mtm\) difference 0$'
run check --metric mtm "8 2 0/4 6 1/3 7 5" DLULDDRUURDLLURDDRUULDDRLR
expect_rc "check mtm suboptimal" 7
expect_out "check mtm suboptimal" '^argument 1: suboptimal stm 26 mtm 20 optimal 18 \(mtm\) difference 2$'
run check "8 2 0/4 6 1/3 7 5" DLULD2RU2RDL2URD2RU2LD2R
expect_out "check stm of the same moves" '^argument 1: optimal stm 24 mtm 18 optimal 24 difference 0$'
# An illegal move is numbered in the metric's moves: R5 is the second MTM move (the fourth STM).
run check --metric mtm "1 2 3/4 5 6/0 7 8" UR5
expect_rc "check mtm illegal" 8
expect_out "check mtm illegal: its MTM number" '^argument 1: illegal: move 2 \(R at character 2\) leaves the board'
run check "1 2 3/4 5 6/0 7 8" UR5
expect_out "check stm illegal: its STM number" '^argument 1: illegal: move 4 \(R at character 2\) leaves the board'

# ---------------------------------------------------------------------------------------
# Refusals: one line, exit 2.
for args in "--all --count" "--max-solutions 3" "--all --max-solutions 0" "--all --max-solutions x" \
            "--metric fast" "--metric mtm --no-runs" "--metric mtm --heuristic linear-conflict" \
            "--metric mtm --heuristic misplaced" "--all --show" "--count --html $tmp/x.html" \
            "check --count" "scramble --all"; do
  # shellcheck disable=SC2086
  run $args "8 2 0/4 6 1/3 7 5"
  expect_rc "refused: $args" 2
  checks=$((checks + 1))
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || { fail "refused: $args: not one line on stderr"; show; }
done
run --metric mtm --pdb "$root/data/8-4-4" "8 2 0/4 6 1/3 7 5"
expect_rc "stm tables refused in mtm" 2
expect_err "stm tables refused in mtm: said" 'count stm moves'
# scramble keeps its --count N
run scramble --count 3 --seed 1 --size 3x3
expect_rc "scramble --count" 0
checks=$((checks + 1))
[ "$(wc -l <"$tmp/out")" -eq 3 ] || { fail "scramble --count 3: not three lines"; show; }

echo "metric_cli: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
