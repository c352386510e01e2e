#!/usr/bin/env bash
# What a solver process costs before it searches: N runs of `solver` on a one-move instance of
# 3x3, 4x4 and 5x5 (Manhattan), beside a baseline build, alternating; then Korf's 100 with
# 15-7-8 (search seconds include whatever the first instance builds). Not part of the tests;
# figures go to docs/benchmarks.md. Run from the repository root after ./setup.sh:
#   bench/startup_bench.sh BASELINE_BUILD_DIR TABLES_DIR [N]
# BASELINE_BUILD_DIR: a build of the commit before the change (its solver and bench/solve_bench).
set -euo pipefail
base=${1:?usage: bench/startup_bench.sh BASELINE_BUILD_DIR TABLES_DIR [N]}
t=${2:?usage: bench/startup_bench.sh BASELINE_BUILD_DIR TABLES_DIR [N]}
n=${3:-50}
boards=("1 2 3 4 5 6 7 0 8"
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24")
per_run() {  # per_run SOLVER BOARD: milliseconds per process
  local start end
  start=$(date +%s%N)
  for _ in $(seq "$n"); do "$1" --heuristic manhattan "$2" >/dev/null; done
  end=$(date +%s%N)
  echo "scale=1; ($end - $start) / 1000000 / $n" | bc
}
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo; uptime
for b in "${boards[@]}"; do
  cells=$(echo "$b" | wc -w)
  for round in 1 2; do
    echo "$cells cells, round $round: baseline $(per_run "$base/solver" "$b") ms, new $(per_run ./build/solver "$b") ms"
  done
done
for round in 1 2; do
  echo "korf100 15-7-8 baseline: $("$base/bench/solve_bench" data/korf100.tsv pdb --pdb "$t/15-7-8" | tail -1)"
  echo "korf100 15-7-8 new: $(./build/bench/solve_bench data/korf100.tsv pdb --pdb "$t/15-7-8" | tail -1)"
done
