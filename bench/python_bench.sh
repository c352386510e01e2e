#!/usr/bin/env bash
# The Python module against the solver on the same input, same machine, same session:
# `solver -j 2` and a /usr/bin/python3 process that imports loyd, opens the tables and calls
# solve_many(threads=2), each timed as a whole process (table loading included), alternating,
# ROUNDS times each; then the time of `import loyd` plus Tables.open (warm cache). Not part of the
# tests; figures go to docs/benchmarks.md. Each run prints its wall seconds and its CPU seconds
# (user + system: the work done, which other jobs on the machine disturb less than the wall
# time). The Python side: bench/python_bench.py. Run from the repository root after ./setup.sh:
#   bench/python_bench.sh TABLES_DIR [RANDOM_COUNT] [ROUNDS]
# TABLES_DIR: a 15-7-8 set (pdbgen build --preset 15-7-8 --out TABLES_DIR).
set -euo pipefail
t=${1:?usage: bench/python_bench.sh TABLES_DIR [RANDOM_COUNT] [ROUNDS]}
count=${2:-10000}
rounds=${3:-3}
export PYTHONPATH=$PWD/build/python/lib/python3/dist-packages
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n 's/^korf-[0-9]*: //p' data/korf100.txt >"$tmp/korf100.txt"
./build/solver scramble --size 4x4 --count "$count" --seed 1 --board-format flat >"$tmp/random.txt"
timed() {  # timed CMD...: runs it; "WALL CPU" seconds in $tmp/time
  /usr/bin/time -o "$tmp/t" -f "%e %U %S" "$@"
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/t" >"$tmp/time"
}
cli() {  # cli FILE GOAL: the solver; the summary's total length in $tmp/cli.len
  timed ./build/solver -j 2 -q --pdb "$t" --goal "$2" --input "$1" | tail -1 >"$tmp/cli.sum"
  grep -o 'total length [0-9]*' "$tmp/cli.sum" | grep -o '[0-9]*' >"$tmp/cli.len"
  echo "$(cat "$tmp/time") $(grep -o 'table load seconds [0-9.]*' "$tmp/cli.sum" | grep -o '[0-9.]*$')"
}
python() {  # python FILE GOAL: the whole process; its total length and solve_many's seconds in $tmp/py.out
  timed "$py" bench/python_bench.py solve-many "$t" "$1" "$2" >"$tmp/py.out"
  cat "$tmp/time"
}
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo; uptime
for input in korf100:blank-first random:blank-last; do
  name=${input%%:*} goal=${input##*:}
  for round in $(seq "$rounds"); do
    read -r cwall ccpu cload < <(cli "$tmp/$name.txt" "$goal")
    read -r pwall pcpu < <(python "$tmp/$name.txt" "$goal")
    read -r plen pmany <"$tmp/py.out"
    [ "$plen" = "$(cat "$tmp/cli.len")" ] || { echo "total lengths differ: $plen vs $(cat "$tmp/cli.len")"; exit 1; }
    # Solving throughput: the solver's wall time less its table loading, against solve_many's
    # call; whole process: both wall times, interpreter start, imports and loading included.
    printf '%s round %s: solver -j 2 %.2f s (load %.2f, cpu %.2f); python %.2f s (solve_many %.2f, cpu %.2f); throughput python/solver: solving %.3f, whole process %.3f; total length %s\n' \
      "$name" "$round" "$cwall" "$cload" "$ccpu" "$pwall" "$pmany" "$pcpu" \
      "$(echo "($cwall - $cload) / $pmany" | bc -l)" "$(echo "$cwall / $pwall" | bc -l)" "$plen"
  done
done
for round in $(seq 5); do
  ./build/solver --pdb "$t" --json -j 1 "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15" "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15" |
    tail -1 | grep -o '"load_seconds":[0-9.]*' | sed 's/^/solver: /'
  "$py" bench/python_bench.py open-time "$t"
done
