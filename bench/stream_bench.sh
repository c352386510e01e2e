#!/usr/bin/env bash
# Peak memory of a streamed batch: N random 3x3 lines (bench/random_boards.py) piped into the
# solver (-j 2, 8-4-4 tables). Memory must not grow with N. Not part of the test suite; figures
# go to docs/benchmarks.md.   bench/stream_bench.sh N [SOLVER]
set -euo pipefail
n=${1:?usage: bench/stream_bench.sh N [SOLVER]}
solver=${2:-./build/solver}
/usr/bin/python3 bench/random_boards.py "$n" 1 | /usr/bin/time -f "$n lines: %e s wall, %M KiB peak RSS" "$solver" -j 2 --pdb data/8-4-4 | tail -1
