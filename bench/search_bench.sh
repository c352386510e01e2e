#!/usr/bin/env bash
# Search benchmarks of issue 7 (pruning automaton, lookups, BPMX, threads), each beside the
# code before the change in the same run. Not part of the test suite; figures go to
# docs/benchmarks.md. Run from the repository root after ./setup.sh:
#   bench/search_bench.sh BASELINE_BUILD_DIR TABLES_DIR
# BASELINE_BUILD_DIR: a build of the commit before the change (its bench/solve_bench).
# TABLES_DIR: holds 15-5-5-5, 15-6-6-3 (this preset), 15-6-6-3-old (the earlier preset,
# built by the baseline), 15-7-8 and 24-6-6-6-6, raw encoding.
set -euo pipefail
base=${1:?usage: bench/search_bench.sh BASELINE_BUILD_DIR TABLES_DIR}/bench/solve_bench
t=${2:?usage: bench/search_bench.sh BASELINE_BUILD_DIR TABLES_DIR}
new=./build/bench/solve_bench
k=data/korf100.tsv
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo; uptime
echo "== Korf's 100, 15-7-8 + reflection: baseline, new (twice each, alternating)"
for i in 1 2; do $base $k pdb --pdb "$t/15-7-8" | tail -1; $new $k pdb --pdb "$t/15-7-8" | tail -1; done
echo "== Korf's 100, 15-7-8: new, all four lookups; new, parent pruning only"
$new $k pdb --pdb "$t/15-7-8" --lookups all | tail -1
$new $k pdb --pdb "$t/15-7-8" --no-prune | tail -1
echo "== Korf's 100, 6-6-3: baseline on the old preset; new on the old preset; new on the new preset"
$base $k pdb --pdb "$t/15-6-6-3-old" | tail -1
$new $k pdb --pdb "$t/15-6-6-3-old" | tail -1
$new $k pdb --pdb "$t/15-6-6-3" | tail -1
$new $k pdb --pdb "$t/15-6-6-3" --lookups all | tail -1
echo "== Korf's 100, 5-5-5: baseline, new"
$base $k pdb --pdb "$t/15-5-5-5" | tail -1
$new $k pdb --pdb "$t/15-5-5-5" | tail -1
echo "== hard 15-puzzle instances (6-6-3), one thread vs two threads on one instance"
for id in 60 82 88; do
  $new $k pdb --pdb "$t/15-6-6-3" --ids $id --threads 1 | tail -1
  $new $k pdb --pdb "$t/15-6-6-3" --ids $id --threads 2 | tail -1
done
echo "== 24-puzzle, 24-6-6-6-6 + reflection"
$new data/korf24.tsv pdb --pdb "$t/24-6-6-6-6" --ids 25 --threads 1 | tail -1
$new data/korf24.tsv pdb --pdb "$t/24-6-6-6-6" --ids 25 --threads 1 --prune-length 10 | grep -E "automaton|instances"
$new data/korf24.tsv pdb --pdb "$t/24-6-6-6-6" --ids 25 --threads 2 | tail -1
$new data/korf24.tsv pdb --pdb "$t/24-6-6-6-6" --ids 32 --threads 2 | tail -1
