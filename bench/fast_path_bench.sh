#!/usr/bin/env bash
# Speed per node of the additive fast path (heuristics/additive_pdb.h), beside a baseline
# build in the same run. Not part of the test suite; figures go to docs/benchmarks.md.
# Run from the repository root after ./setup.sh:
#   bench/fast_path_bench.sh BASELINE_BUILD_DIR TABLES_DIR [ROUNDS]
# BASELINE_BUILD_DIR: a build of the commit before the change (its bench/solve_bench).
# TABLES_DIR: holds 15-5-5-5, 15-6-6-3, 15-7-8 and 24-6-6-6-6 (raw encoding).
# Each line: the command's own summary (search seconds = wall time of the searches) and the
# process's user CPU seconds, which shared machines disturb less than wall time.
set -euo pipefail
base=${1:?usage: bench/fast_path_bench.sh BASELINE_BUILD_DIR TABLES_DIR [ROUNDS]}/bench/solve_bench
t=${2:?usage: bench/fast_path_bench.sh BASELINE_BUILD_DIR TABLES_DIR [ROUNDS]}
rounds=${3:-2}
new=./build/bench/solve_bench
run() {  # run LABEL BINARY ARGS...
  local label=$1 bin=$2
  shift 2
  local out
  out=$( { /usr/bin/time -f "user %U" "$bin" "$@" | tail -1; } 2>&1)
  echo "$label: $(echo "$out" | tr '\n' ' ')"
}
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo; uptime
for i in $(seq "$rounds"); do
  for set in 15-7-8 15-6-6-3 15-5-5-5; do
    run "korf100 $set baseline" "$base" data/korf100.tsv pdb --pdb "$t/$set"
    run "korf100 $set new" "$new" data/korf100.tsv pdb --pdb "$t/$set"
  done
  run "korf100 easiest-10 manhattan baseline" "$base" data/korf100.tsv manhattan --easiest 10
  run "korf100 easiest-10 manhattan new" "$new" data/korf100.tsv manhattan --easiest 10
done
run "korf24 #25 1 thread baseline" "$base" data/korf24.tsv pdb --pdb "$t/24-6-6-6-6" --ids 25
run "korf24 #25 1 thread new" "$new" data/korf24.tsv pdb --pdb "$t/24-6-6-6-6" --ids 25
