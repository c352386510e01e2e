#!/usr/bin/env bash
# The solver under mpirun on localhost ranks against one process (docs/benchmarks.md,
# docs/scale.md). Run from the repository root after ./setup.sh, on an otherwise idle machine.
#   bench/mpi_solver_bench.sh TABLES_DIR [RANKS] [PART...]
# TABLES_DIR holds 15-7-8, 15-6-6-3 and 24-6-6-6-6 (raw). RANKS (default 2) ranks of one
# thread each against one process with RANKS threads. PARTs (default all):
#   korf100   Korf's 100 as one batch (instances handed out to the ranks), 15-7-8 and 15-6-6-3
#   easy      100,000 random 3x3 lines (half unsolvable) with 8-4-4: the cost of the hand-out
#   korf24    the ten easiest of data/korf24.tsv, each one split over the ranks (4-8 min each way)
set -euo pipefail
tables=${1:?usage: bench/mpi_solver_bench.sh TABLES_DIR [RANKS] [PART...]}
ranks=${2:-2}
shift $(($# < 2 ? $# : 2))
parts=${*:-korf100 easy korf24}
b=./build
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun --oversubscribe --bind-to none -np "$ranks")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo; uptime
$b/solver --version
# timeless FILE: records without their seconds, for comparing runs.
timeless() { sed -E 's/, search seconds [0-9.]+, table load seconds [0-9.]+//; s/ seconds [0-9.]+//g; s/, threads [0-9]+$//' "$1"; }

for part in $parts; do
  case $part in
    korf100)
      for set in 15-7-8 15-6-6-3; do
        args=(--pdb "$tables/$set" --goal blank-first --input data/korf100.txt --cache-dir none)
        echo "== Korf's 100, $set: one process, $ranks threads"
        /usr/bin/time -f "  %e s wall, %U s user" $b/solver -j "$ranks" "${args[@]}" >"$scratch/one.out"
        tail -1 "$scratch/one.out"
        echo "== Korf's 100, $set: $ranks ranks of one thread"
        /usr/bin/time -f "  %e s wall (mpirun)" "${mpi[@]}" $b/solver -j 1 "${args[@]}" >"$scratch/ranks.out"
        tail -1 "$scratch/ranks.out"
        cmp <(timeless "$scratch/one.out") <(timeless "$scratch/ranks.out") && echo "  same records"
      done
      ;;
    easy)
      /usr/bin/python3 bench/random_boards.py 100000 7 >"$scratch/easy.txt"
      args=(--pdb data/8-4-4 --input "$scratch/easy.txt")
      echo "== 100,000 3x3 lines: one process, $ranks threads"
      /usr/bin/time -f "  %e s wall, %U s user, %S s sys" $b/solver -j "$ranks" "${args[@]}" >"$scratch/one.out"
      echo "== the same under mpirun -np 1 (one process; its output forwarded by mpirun)"
      /usr/bin/time -f "  %e s wall (mpirun)" mpirun -np 1 $b/solver -j "$ranks" "${args[@]}" >/dev/null
      echo "== $ranks ranks of one thread, output forwarded by mpirun"
      /usr/bin/time -f "  %e s wall (mpirun)" "${mpi[@]}" $b/solver -j 1 "${args[@]}" >"$scratch/ranks.out"
      cmp <(timeless "$scratch/one.out") <(timeless "$scratch/ranks.out") && echo "  same records"
      echo "== $ranks ranks of one thread, rank 0 writing a file itself"
      /usr/bin/time -f "  %e s wall (mpirun)" "${mpi[@]}" sh -c \
        'if [ "$OMPI_COMM_WORLD_RANK" = 0 ]; then exec "$0" "$@" >"'"$scratch"'/file.out"; else exec "$0" "$@"; fi' \
        $b/solver -j 1 "${args[@]}"
      cmp <(timeless "$scratch/one.out") <(timeless "$scratch/file.out") && echo "  same records"
      ;;
    korf24)
      for id in 25 32 30 13 1 28 5 22 16 29; do
        tiles=$(awk -F'\t' -v id="$id" '$1 == id {print $2}' data/korf24.tsv)
        args=(--pdb "$tables/24-6-6-6-6" --goal blank-first --json "korf24-$id: $tiles")
        echo "== 24-puzzle #$id: one process, $ranks threads"
        $b/solver -j "$ranks" "${args[@]}"
        echo "== 24-puzzle #$id: $ranks ranks of one thread"
        "${mpi[@]}" $b/solver -j 1 "${args[@]}"
      done
      uptime
      ;;
    *) echo "unknown part '$part' (korf100, easy, korf24)" >&2; exit 2 ;;
  esac
done
