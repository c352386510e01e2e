#!/usr/bin/env bash
# The threaded code under ThreadSanitizer (./setup.sh test): the unit tests of
# tests/tsan_tests.txt, the solver's streamed batch with three workers and the printer, one
# instance split over two threads, and a batch saving checkpoints (pauses, solved points and the
# checkpoint file's writer thread). Any data race fails the run.
#   tests/tsan_run.sh BUILD_DIR    (a tree configured with -DLOYD_TSAN=ON, loyd_tests and solver built)
# Every pattern of tests/tsan_tests.txt must select at least one test of BUILD_DIR's loyd_tests
# (which the TSan tree builds from tests/CMakeLists.txt's threaded_test_sources alone): a
# threaded test moved to another file, or renamed, fails here instead of silently not running.
set -euo pipefail
build=${1:?usage: tests/tsan_run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
export TSAN_OPTIONS="halt_on_error=1 abort_on_error=1"

patterns=$(grep -v '^#' "$here/tsan_tests.txt" | grep -v '^$')
for p in $patterns; do
  if ! "$build/tests/loyd_tests" --gtest_list_tests --gtest_filter="$p" | grep -q '^  '; then
    echo "tsan_run: '$p' (tests/tsan_tests.txt) selects no test in $build/tests/loyd_tests;" \
      "add its file to threaded_test_sources in tests/CMakeLists.txt" >&2
    exit 1
  fi
done
"$build/tests/loyd_tests" --gtest_brief=1 --gtest_filter="$(echo "$patterns" | paste -sd:)"

# The solver's streamed batch (three workers and the printer).
python3 -c 'import random; random.seed(5)
for i in range(600): t = list(range(9)); random.shuffle(t); print(" ".join(map(str, t)))' |
  "$build/solver" -j 3 --pdb "$here/../data/8-4-4" >/dev/null
# Korf #21 is the smallest of Korf's 100 whose iterations pass the 100,000 nodes after which a
# search is split (search/ida_star.h); its record must say so.
split=$("$build/solver" -j 2 --json --pdb "$here/../data/15-5-5-5" --goal blank-first \
  12 8 14 6 11 4 7 0 5 1 10 15 3 13 9 2)
[[ $(nproc) -lt 2 || $split == *'"threads":2'* ]] ||
  { echo "tsan_run: the solver did not split Korf #21: $split" >&2; exit 1; }
# Korf #33, #98 and #26 take 1.0-1.3 M nodes with 15-5-5-5 (solved points kept), #21 fewer.
ck=$(mktemp -d)
trap 'rm -rf "$ck"' EXIT
grep -E '^korf-(33|98|26|21): ' "$here/../data/korf100.txt" |
  "$build/solver" -j 2 --pdb "$here/../data/15-5-5-5" --goal blank-first \
    --checkpoint "$ck/ck.txt" --checkpoint-every 0.1 >/dev/null
# (A solved point of a search on one thread: its path is the solution, as long as its bound.)
[[ $(awk -F. '/^r1\./ && length($4) == $2' "$ck/ck.txt" | wc -l) -ge 3 ]] ||
  { echo "tsan_run: the checkpointed batch kept no solved points: $(cat "$ck/ck.txt")" >&2; exit 1; }
echo "tsan_run: the threaded tests and the solver's threads ran under ThreadSanitizer, no race"
