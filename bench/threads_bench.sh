#!/usr/bin/env bash
# More threads than cores (issue 21, item 8): 20,000 easy 3x3 lines (two moves each) through
# `solver -q -j N --input FILE` for N = 2, 128, 1024, and `pdbgen build --preset 8-4-4 -j N`
# for N = 2, 1024; wall, CPU and context switches by /usr/bin/time. The records (without the
# seconds and the summary) and the tables must be the same for every N: checked, and a
# difference ends the run. Not part of the test suite; figures go to docs/benchmarks.md.
#   bench/threads_bench.sh [SOLVER [PDBGEN]]
# Several solvers or pdbgens (e.g. a baseline next to the new one, same session):
#   SOLVERS="old/solver build/solver" PDBGENS="old/pdbgen build/pdbgen" bench/threads_bench.sh
set -euo pipefail
solvers=${SOLVERS:-${1:-./build/solver}}
pdbgens=${PDBGENS:-${2:-./build/pdbgen}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seq 20000 | sed 's/$/: 1 2 3 4 5 6 0 7 8/' >"$tmp/easy.txt"
fmt="%e s wall, %U s user, %S s sys, %w voluntary / %c involuntary context switches"
echo "== machine: $(nproc) CPUs usable, load: $(cut -d' ' -f1-3 /proc/loadavg)"
records() { sed -E 's/ seconds [0-9.]+//; /^summary: /d' "$1"; }
for s in $solvers; do
  "$s" -q -j 1 --input "$tmp/easy.txt" >"$tmp/one.out"
  for j in 2 128 1024; do
    /usr/bin/time -f "$s -j $j: $fmt" "$s" -q -j "$j" --input "$tmp/easy.txt" >"$tmp/out" 2>"$tmp/time"
    tail -1 "$tmp/time"
    cmp -s <(records "$tmp/out") <(records "$tmp/one.out") || { echo "$s -j $j: not the records of -j 1" >&2; exit 1; }
  done
done
for p in $pdbgens; do
  "$p" build --preset 8-4-4 -q -j 1 --out "$tmp/one" >/dev/null
  for j in 2 1024; do
    rm -rf "$tmp/set"
    /usr/bin/time -f "$p build 8-4-4 -j $j: $fmt" "$p" build --preset 8-4-4 -q -j "$j" --out "$tmp/set" \
      >/dev/null 2>"$tmp/time"
    tail -1 "$tmp/time"
    for f in "$tmp/one"/*.pdb; do
      cmp -s "$f" "$tmp/set/$(basename "$f")" || { echo "$p -j $j: $(basename "$f") differs" >&2; exit 1; }
    done
  done
done
echo "== load: $(cut -d' ' -f1-3 /proc/loadavg)"
