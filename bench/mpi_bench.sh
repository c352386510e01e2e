#!/usr/bin/env bash
# Distributed table builds on localhost ranks against the one-process build (docs/benchmarks.md,
# docs/scale.md). Run from the repository root after ./setup.sh; needs ~6 GiB of memory.
#   bench/mpi_bench.sh TABLES_DIR [RANKS]
# Builds 15-7-8 and the 24-puzzle 6-tile pattern {1,2,3,6,7,8} on RANKS ranks (default 2), one
# thread each, and in one process with as many threads; prints wall, CPU and peak memory of
# each rank (/usr/bin/time), checks the files are byte-identical and 15-7-8 matches its reference.
set -euo pipefail
tables=${1:?usage: bench/mpi_bench.sh TABLES_DIR [RANKS]}
ranks=${2:-2}
b=./build
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun --oversubscribe --bind-to none -np "$ranks")
echo "== machine"; nproc; grep -m1 "model name" /proc/cpuinfo; free -g | head -2; uptime
$b/pdbgen --version
for set in "15-7-8:--preset 15-7-8" "24-6:--size 5x5 --pattern 1,2,3,6,7,8 --name 24-6"; do
  name=${set%%:*}
  read -r -a args <<<"${set#*:}"
  rm -rf "$tables/$name-ranks" "$tables/$name-one"
  echo "== $name on $ranks ranks"
  /usr/bin/time -f "  mpirun: %e s wall" "${mpi[@]}" /usr/bin/time -f "  rank: %e s wall, %U s user, %M KiB peak" \
    $b/pdbgen build "${args[@]}" --out "$tables/$name-ranks" -q --encoding raw
  echo "== $name in one process, $ranks threads"
  /usr/bin/time -f "  one process: %e s wall, %U s user, %M KiB peak" \
    $b/pdbgen build "${args[@]}" --out "$tables/$name-one" -q --encoding raw -j "$ranks"
  for f in "$tables/$name-one"/*.pdb; do
    cmp "$f" "$tables/$name-ranks/$(basename "$f")" && echo "  identical: $(basename "$f")"
  done
  uptime
done
$b/pdbgen verify "$tables/15-7-8-ranks" --against data/reference/15-7-8.manifest.txt | tail -1
