#!/usr/bin/env bash
# A baseline and a new solve_bench on Korf's 100, alternating (the order swapped every round)
# on one thread, for changes that must keep the search's speed (issue 20: one owner per
# concept). Not part of the test suite; figures go to docs/benchmarks.md. From the repository
# root after ./setup.sh:
#   bench/ab_bench.sh BASELINE_BUILD_DIR TABLE_SET ROUNDS [solve_bench options...]
# BASELINE_BUILD_DIR: a build of the commit before the change (its bench/solve_bench).
# Prints every run's summary line with the process's user CPU seconds, then per build the
# node counts seen (they must be one and the same) and the min and median search seconds.
set -euo pipefail
usage="usage: bench/ab_bench.sh BASELINE_BUILD_DIR TABLE_SET ROUNDS [solve_bench options...]"
base=${1:?$usage}/bench/solve_bench
set=${2:?$usage}
rounds=${3:?$usage}
shift 3
new=./build/bench/solve_bench
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo; uptime
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
run() {  # run LABEL BINARY [options...]
  local label=$1 bin=$2 line
  shift 2
  line=$( { /usr/bin/time -f "user %U" "$bin" data/korf100.tsv pdb --pdb "$set" "$@" | tail -1; } 2>&1 | tr '\n' ' ')
  echo "$label $line" | tee -a "$runs"
}
for i in $(seq "$rounds"); do
  if (( i % 2 )); then run base "$base" "$@"; run new "$new" "$@"
  else run new "$new" "$@"; run base "$base" "$@"; fi
done
uptime
for label in base new; do
  nodes=$(grep "^$label " "$runs" | sed -E 's/.*total nodes ([0-9]+).*/\1/' | sort -u | tr '\n' ' ')
  grep "^$label " "$runs" | sed -E 's/.*search seconds ([0-9.]+),.*/\1/' | sort -n |
    awk -v l="$label" -v n="$nodes" '{ s[NR] = $1 }
      END { m = NR % 2 ? s[(NR + 1) / 2] : (s[NR / 2] + s[NR / 2 + 1]) / 2
            printf "%s: nodes %s| search seconds min %.3f median %.3f max %.3f (%d runs)\n", l, n, s[1], m, s[NR], NR }'
done
