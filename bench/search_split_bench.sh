#!/usr/bin/env bash
# IDA* on Korf's 100 with two table sets, on one and two threads, beside a baseline build, in
# alternating runs (the order flips every round, so a busy spell of a shared machine falls on
# both). Not part of the test suite; figures go to docs/benchmarks.md ("Issue 20: the search
# family split"). Run from the repository root after ./setup.sh:
#   bench/search_split_bench.sh BASELINE_SOLVE_BENCH TABLES_DIR [ROUNDS] [OUT_DIR]
# BASELINE_SOLVE_BENCH: bench/solve_bench built from the commit before the change (same options).
# TABLES_DIR: holds 15-6-6-3 and 15-7-8. OUT_DIR (default: a new temporary folder) keeps every
# run's output. Each line: round, binary, set, threads, total nodes, search seconds (wall time of
# the searches), user CPU seconds of the process (less disturbed by other jobs than wall time).
# At the end: every one-thread run's node count per instance is compared with the baseline's
# (they must be equal: one thread searches the same tree); two-thread counts vary from run to
# run with the timing of the last iteration.
set -euo pipefail
usage="usage: bench/search_split_bench.sh BASELINE_SOLVE_BENCH TABLES_DIR [ROUNDS] [OUT_DIR]"
base=${1:?$usage}
t=${2:?$usage}
rounds=${3:-6}
out=${4:-$(mktemp -d)}
new=./build/bench/solve_bench
mkdir -p "$out"
echo "== machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(uptime)"
echo "== runs in $out"
for r in $(seq "$rounds"); do
  for cfg in "15-6-6-3 1" "15-6-6-3 2" "15-7-8 1" "15-7-8 2"; do
    read -r set threads <<<"$cfg"
    order="baseline new"
    if ((r % 2 == 0)); then order="new baseline"; fi
    for who in $order; do
      bin=$new
      [ "$who" = baseline ] && bin=$base
      f="$out/$who.$set.t$threads.r$r"
      /usr/bin/time -f "%U" -o "$f.time" "$bin" data/korf100.tsv pdb --pdb "$t/$set" \
        --threads "$threads" >"$f.txt"
      summary=$(tail -1 "$f.txt")
      nodes=$(grep -o 'total nodes [0-9]*' <<<"$summary" | awk '{print $3}')
      secs=$(grep -o 'search seconds [0-9.]*' <<<"$summary" | awk '{print $3}')
      echo "$r $who $set $threads $nodes $secs $(cat "$f.time") load $(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
same=yes
for f in "$out"/baseline.*.t1.*.txt; do
  g=${f/baseline./new.}
  if ! cmp -s <(awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4}' "$f") \
              <(awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4}' "$g"); then
    echo "one-thread node counts differ: $f $g"
    same=no
  fi
done
echo "== one-thread lengths and node counts per instance identical to the baseline: $same"
