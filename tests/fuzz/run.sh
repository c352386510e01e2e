#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each on a scratch copy of its seed corpus
# (tests/fuzz/corpus/TARGET) and prints, per target, the executions and coverage reached.
# Fails on the first crash, leak, timeout (10 s per input), sanitizer report or memory blow-up
# (2 GiB); the input that failed is left in the scratch folder, whose path is printed.
#   tests/fuzz/run.sh SECONDS BUILD_DIR
set -euo pipefail
secs=${1:?usage: tests/fuzz/run.sh SECONDS BUILD_DIR}
build=${2:?usage: tests/fuzz/run.sh SECONDS BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/loyd-fuzz.XXXXXX)
for t in instance board goal moves manifest header table; do
  mkdir -p "$work/$t"
  cp "$here/corpus/$t"/* "$work/$t/" 2>/dev/null || true
  extra=()
  [ "$t" = manifest ] && extra=(-dict="$here/manifest.dict")
  if ! (cd "$work" && "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 "${extra[@]}" "$work/$t" >"$work/$t.log" 2>&1); then
    echo "fuzz: fuzz_$t failed; log and the failing input in $work:" >&2
    grep -E "ERROR|SUMMARY|Test unit written" "$work/$t.log" >&2 || tail -20 "$work/$t.log" >&2
    exit 1
  fi
  execs=$(grep -oE "stat::number_of_executed_units: [0-9]+" "$work/$t.log" | grep -oE "[0-9]+$")
  cov=$(grep -oE "cov: [0-9]+" "$work/$t.log" | tail -1 | grep -oE "[0-9]+")
  echo "fuzz_$t: ${execs:-?} executions in ${secs} s, coverage ${cov:-?} edges, no failure"
done
rm -rf "$work"
