#!/usr/bin/env bash
# Batch output speed (issue 20: JSON through nlohmann-json): N random solvable 3x3 lines
# (`solver scramble`, fixed seed) through `solver -q -j JOBS --pdb data/8-4-4`, with --json and
# in plain text, for each solver given, alternating solvers within each round, ROUNDS rounds;
# wall, user and system seconds by /usr/bin/time, output to /dev/null. The records (seconds
# left out) must be the same for every solver: checked once per format, and a difference ends
# the run. Not part of the test suite; figures go to docs/benchmarks.md.
#   SOLVERS="/work/baseline/solver build/solver" bench/json_bench.sh [N [ROUNDS [JOBS]]]
set -euo pipefail
n=${1:-300000}
rounds=${2:-5}
jobs=${3:-2}
solvers=${SOLVERS:-./build/solver}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
first=${solvers%% *}
"$first" scramble --size 3x3 --count "$n" --seed 20 --board-format flat >"$tmp/lines.txt"
records() { sed -E 's/"(seconds|search_seconds|load_seconds)":[0-9.]+//g; s/ seconds [0-9.]+//g'; }
flag_of() { [ "$1" = json ] && echo --json || true; }
for fmt in json text; do
  flag=$(flag_of "$fmt")
  "$first" -q -j "$jobs" --pdb data/8-4-4 $flag <"$tmp/lines.txt" | records >"$tmp/want"
  for s in $solvers; do
    "$s" -q -j "$jobs" --pdb data/8-4-4 $flag <"$tmp/lines.txt" | records | cmp -s - "$tmp/want" ||
      { echo "$s $fmt: not the records of $first" >&2; exit 1; }
  done
done
echo "== machine: $(nproc) CPUs usable, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)," \
  "load $(cut -d' ' -f1-3 /proc/loadavg); $n lines, -j $jobs, $rounds rounds"
for r in $(seq "$rounds"); do
  for fmt in json text; do
    flag=$(flag_of "$fmt")
    for s in $solvers; do
      /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$s" -q -j "$jobs" --pdb data/8-4-4 $flag \
        <"$tmp/lines.txt" >/dev/null
      echo "round $r $fmt $s $(cat "$tmp/time")" | tee -a "$tmp/all"
    done
  done
done
echo "== per solver and format: median wall, median user+sys (all runs: wall / user+sys)"
python3 - "$tmp/all" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    _, _, fmt, solver, wall, user, sys_ = line.split()
    runs.setdefault((fmt, solver), []).append((float(wall), float(user) + float(sys_)))
for (fmt, solver), rs in runs.items():
    walls = [w for w, _ in rs]
    cpus = [c for _, c in rs]
    detail = " ".join(f"{w:.2f}/{c:.2f}" for w, c in rs)
    print(f"{fmt:4} {solver}: {statistics.median(walls):.2f} s wall, "
          f"{statistics.median(cpus):.2f} s cpu   ({detail})")
EOF
echo "== load: $(cut -d' ' -f1-3 /proc/loadavg)"
