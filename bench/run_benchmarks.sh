#!/usr/bin/env bash
# Benchmark harness (not part of the test suite): table builds and solver runs whose
# figures are recorded in docs/benchmarks.md. Run from the repository root after ./setup.sh.
#   bench/run_benchmarks.sh TABLES_DIR [quick|full]
# quick: classic heuristics on the 10 easiest Korf instances, builds up to 15-6-6-3.
# full:  also builds 15-7-8 (~2.6 GB RAM) and solves Korf's 100 with it.
set -euo pipefail
tables=${1:?usage: bench/run_benchmarks.sh TABLES_DIR [quick|full]}
mode=${2:-quick}
b=./build
mkdir -p "$tables"
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo; free -g | head -2
echo "== IDA* with classic heuristics, 10 easiest of Korf's 100 (one thread)"
$b/bench/solve_bench data/korf100.tsv manhattan --easiest 10 | tail -1
$b/bench/solve_bench data/korf100.tsv linear-conflict --easiest 10 | tail -1
echo "== table builds (2 threads)"
for p in 8-fringe 8-4-4 15-5-5-5 15-6-6-3; do
  /usr/bin/time -f "$p: %e s wall, %M KiB peak" $b/pdbgen build --preset "$p" --out "$tables/$p" --force -q
done
if [ "$mode" = full ]; then
  /usr/bin/time -f "15-7-8: %e s wall, %M KiB peak" $b/pdbgen build --preset 15-7-8 --out "$tables/15-7-8" --force -q --encoding raw
fi
echo "== 3x3: seeds' boards (goal blank-last)"
for h in "--heuristic linear-conflict" "--pdb data/8-fringe" "--pdb data/8-4-4"; do
  echo "$h"; $b/solver -j1 $h "6 4 7 8 5 0 3 2 1" "8 6 7 2 5 4 3 0 1"
done
echo "== Korf's 100 with PDBs (one thread)"
$b/bench/solve_bench data/korf100.tsv pdb --pdb "$tables/15-5-5-5" | tail -1
$b/bench/solve_bench data/korf100.tsv pdb --pdb "$tables/15-6-6-3" | tail -1
if [ "$mode" = full ]; then
  $b/bench/solve_bench data/korf100.tsv pdb --pdb "$tables/15-7-8" --no-reflect | tail -1
  $b/bench/solve_bench data/korf100.tsv pdb --pdb "$tables/15-7-8" | tail -1
  echo "== solver, Korf's 100, 15-7-8, -j 1 vs -j 2"
  for j in 1 2; do
    /usr/bin/time -f "-j $j: %e s wall" $b/solver --pdb "$tables/15-7-8" --goal blank-first -j $j \
      --input data/korf100.txt | tail -1
  done
  echo "== load: raw (mmap) vs zstd (decode + checksum)"
  rm -rf "$tables/15-7-8-zstd"
  $b/pdbgen pack "$tables/15-7-8" "$tables/15-7-8-zstd" > /dev/null
  $b/bench/solve_bench data/korf100.tsv pdb --pdb "$tables/15-7-8" --ids 1 | tail -1
  $b/bench/solve_bench data/korf100.tsv pdb --pdb "$tables/15-7-8-zstd" --ids 1 | tail -1
fi
