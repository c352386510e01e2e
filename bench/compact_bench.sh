#!/usr/bin/env bash
# Benchmarks of issue 19 (compact entries, the lean builder, 7-tile 24-puzzle sets). Not part of
# the test suite; figures go to docs/benchmarks.md. Run from the repository root after ./setup.sh:
#   bench/compact_bench.sh PART... (build15, search15, korf24)
# Environment:
#   BASE    a build folder of the commit before (its pdbgen, solver, bench/solve_bench)
#   T       a scratch folder for tables (15-7-8 compact and byte are built there by build15)
#   T24     a folder holding the 24-puzzle sets to compare (e.g. 24-7-7-7-3, 24-6-6-6-6)
#   IDS     Korf 24 instances (default: the ten easiest by published nodes, then #4)
set -euo pipefail
new=./build
base=${BASE:-}
t=${T:-/tmp/loyd-compact-bench}
t24=${T24:-$HOME/.local/share/loyd/pdb}
ids=${IDS:-25,32,30,13,1,28,5,22,16,29,4}
k=data/korf100.tsv
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo; uptime

# Wall, user seconds and peak RSS of one command, from GNU time.
timed() { /usr/bin/time -f "  wall %e s, user %U s, peak %M KiB" "$@"; }

parts=("$@")
[ $# -gt 0 ] || parts=(build15 search15 korf24)
for part in "${parts[@]}"; do
  case $part in
  build15)
    echo "== 15-7-8 build, raw, 2 threads: new (compact), baseline (byte), alternating"
    for i in 1 2; do
      rm -rf "$t/c178" "$t/b178"
      timed $new/pdbgen build --preset 15-7-8 --encoding raw -j 2 -q --out "$t/c178"
      [ -z "$base" ] || timed $base/pdbgen build --preset 15-7-8 --encoding raw -j 2 -q --out "$t/b178"
    done
    ls -l "$t"/c178/*.pdb "$t"/b178/*.pdb 2>/dev/null || true
    ;;
  search15)
    echo "== Korf's 100, 15-7-8, one thread: compact, byte (the same tables unpacked), alternating"
    # Unpacked afresh from this run's compact tables (a folder left by an earlier run might hold
    # other tables, or compact ones if that run stopped half-way).
    rm -rf "$t/byte178"
    $new/pdbgen unpack "$t/c178" "$t/byte178" --entries byte -q
    for i in 1 2 3; do
      $new/bench/solve_bench $k pdb --pdb "$t/c178" --threads 1 | tail -1
      $new/bench/solve_bench $k pdb --pdb "$t/byte178" --threads 1 | tail -1
    done
    ;;
  korf24)
    echo "== Korf's 24-puzzle instances $ids, 2 threads, per set in $t24"
    for set in "$t24"/*/; do
      echo "-- $set"
      $new/bench/solve_bench data/korf24.tsv pdb --pdb "$set" --ids "$ids" --threads 2
    done
    ;;
  *) echo "unknown part '$part' (build15, search15, korf24)" >&2; exit 2 ;;
  esac
done
