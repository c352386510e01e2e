#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each on a scratch copy of its seed corpus
# (tests/fuzz/corpus/TARGET) and prints, per target, the executions and coverage reached.
# Targets run JOBS at a time (default: the number of CPUs; each target is one process).
# Fails on the first crash, leak, timeout (10 s per input), sanitizer report or memory blow-up
# (2 GiB); the input that failed is left in the scratch folder, whose path is printed.
# Each target's random seed is printed with its result (and with a failure, with the command
# that repeats it); LOYD_FUZZ_SEED=N gives every target the seed N (default: a new one per run).
#   tests/fuzz/run.sh SECONDS BUILD_DIR [JOBS]
set -euo pipefail
secs=${1:?usage: tests/fuzz/run.sh SECONDS BUILD_DIR [JOBS]}
build=${2:?usage: tests/fuzz/run.sh SECONDS BUILD_DIR [JOBS]}
parallel=${3:-$(nproc 2>/dev/null || echo 1)}
[[ $parallel =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: JOBS must be a positive integer, not '$parallel'" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/loyd-fuzz.XXXXXX)
targets=(instance board goal moves manifest header table checkpoint)
seed=${LOYD_FUZZ_SEED:-$(($(od -An -N4 -tu4 /dev/urandom | tr -d ' ') % 4294967295 + 1))}
[[ $seed =~ ^[1-9][0-9]{0,9}$ ]] && ((seed < 4294967296)) ||
  { echo "fuzz: LOYD_FUZZ_SEED must be an integer from 1 to 4294967295, not '$seed'" >&2; exit 2; }
# A failure exits while other targets may still run: stop them.
trap 'kill $(jobs -pr) 2>/dev/null || true' EXIT

# run_one TARGET: one target's run; its exit status is libFuzzer's.
run_one() {
  local t=$1 extra=()
  mkdir -p "$work/$t"
  cp "$here/corpus/$t"/* "$work/$t/" 2>/dev/null || true
  [ "$t" = manifest ] && extra=(-dict="$here/manifest.dict")
  (cd "$work" && "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -seed="$seed" -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 "${extra[@]}" "$work/$t" >"$work/$t.log" 2>&1)
}

# report TARGET STATUS: one line on success; the failure's summary and exit 1 otherwise.
report() {
  local t=$1 status=$2 execs cov
  if [ "$status" -ne 0 ]; then
    echo "fuzz: fuzz_$t failed; log and the failing input in $work:" >&2
    grep -E "ERROR|SUMMARY|Test unit written" "$work/$t.log" >&2 || tail -20 "$work/$t.log" >&2
    echo "fuzz: seed $seed; to repeat the run: LOYD_FUZZ_SEED=$seed tests/fuzz/run.sh $secs $build" >&2
    exit 1
  fi
  execs=$(grep -oE "stat::number_of_executed_units: [0-9]+" "$work/$t.log" | grep -oE "[0-9]+$")
  cov=$(grep -oE "cov: [0-9]+" "$work/$t.log" | tail -1 | grep -oE "[0-9]+")
  echo "fuzz_$t: ${execs:-?} executions in ${secs} s, coverage ${cov:-?} edges, seed $seed, no failure"
}

# Start the targets JOBS at a time; report them in order as they finish.
pids=()
done_=0  # targets reported so far
wait_next() {
  local status=0
  wait "${pids[done_]}" || status=$?
  report "${targets[done_]}" "$status"
  done_=$((done_ + 1))
}
for i in "${!targets[@]}"; do
  ((i - done_ < parallel)) || wait_next
  run_one "${targets[$i]}" &
  pids[i]=$!
done
while ((done_ < ${#targets[@]})); do wait_next; done
rm -rf "$work"
