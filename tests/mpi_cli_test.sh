#!/usr/bin/env bash
# Distributed table builds with real mpirun ranks on localhost: 15-6-6-3 and a 5-tile
# 24-puzzle pattern on 2 and 3 ranks give files byte-identical (cmp) to the one-process build;
# one rank under mpirun is today's build; a build killed (SIGKILL to mpirun and every rank)
# after a checkpointed layer and started again, on another number of ranks, gives the same
# file; refusals of bad and mismatched checkpoints; other commands print once.
#
# Usage: mpi_cli_test.sh PDBGEN SCRATCH_DIR
# Exits 77 (skipped) when pdbgen is built without MPI or mpirun is missing; 1 if a check failed.
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 PDBGEN SCRATCH_DIR" >&2
  exit 2
fi
pdbgen=$1
scratch=$2
# shellcheck source=tests/mpi_lib.sh
source "$(dirname "$0")/mpi_lib.sh"
mpi_ready mpi_cli "$pdbgen"
rm -rf "$scratch"
mkdir -p "$scratch" || exit 2
failures=0
checks=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
# check NAME COMMAND...: the command must succeed.
check() {
  local name=$1
  shift
  checks=$((checks + 1))
  "$@" || fail "$name"
}
# run NAME EXPECTED_STATUS COMMAND...: runs it with stdout/stderr in $out/$err.
run() {
  local name=$1 want=$2
  shift 2
  checks=$((checks + 1))
  "$@" >"$scratch/out" 2>"$scratch/err"
  local got=$?
  out=$(cat "$scratch/out")
  err=$(cat "$scratch/err")
  if [ "$got" != "$want" ]; then
    fail "$name: '$*' exited $got, expected $want"
    echo "  stdout: $(head -c 600 "$scratch/out")" >&2
    echo "  stderr: $(head -c 900 "$scratch/err")" >&2
    return 1
  fi
}
expect_in() {
  checks=$((checks + 1))
  grep -Eq -- "$3" <<<"$2" || { fail "$1: output does not match /$3/"; echo "  output: $(head -c 600 <<<"$2")" >&2; }
}
# same_set NAME DIR_A DIR_B: every table and the manifest byte-identical.
same_set() {
  local f
  for f in "$2"/*.pdb "$2"/manifest.txt; do
    checks=$((checks + 1))
    cmp -s "$f" "$3/$(basename "$f")" || fail "$1: $(basename "$f") differs from the one-process build"
  done
}

# --------------------------------------------------------------------------------------
# --version names MPI, once per job.
run version 0 "${mpi[@]}" -np 2 "$pdbgen" --version
expect_in "version names Open MPI" "$out" "^MPI: Open MPI"
checks=$((checks + 1))
[ "$(grep -c '^pdbgen (loyd)' <<<"$out")" = 1 ] || fail "--version printed $(grep -c '^pdbgen' <<<"$out") times on 2 ranks"

# One-process references.
s15=(--preset 15-6-6-3)
s24=(--size 5x5 --pattern 1,2,3,6,7 --name p24 --encoding raw)
run "one process 15-6-6-3" 0 "$pdbgen" build "${s15[@]}" --out "$scratch/one15" -q -j 2
expect_in "one process says threads" "$out" "3 tables, 11,534,880 entries, .* 2 threads$"
run "one process 24-5" 0 "$pdbgen" build "${s24[@]}" --out "$scratch/one24" -q -j 2

# One rank under mpirun is the one-process build (same path, same output, same files).
run "one process 15-5-5-5" 0 "$pdbgen" build --preset 15-5-5-5 --out "$scratch/one5" -q -j 2
run "mpirun -np 1" 0 "${mpi[@]}" -np 1 "$pdbgen" build --preset 15-5-5-5 --out "$scratch/np1" -q -j 2
expect_in "one rank says threads" "$out" "3 tables, 1,572,480 entries, .* 2 threads$"
same_set "mpirun -np 1" "$scratch/one5" "$scratch/np1"

# 2 and 3 ranks: byte-identical files (zstd for 15-6-6-3, raw for the 24-puzzle pattern).
for n in 2 3; do
  run "15-6-6-3 on $n ranks" 0 "${mpi[@]}" -np $n "$pdbgen" build "${s15[@]}" --out "$scratch/r15-$n" -q
  expect_in "$n ranks reported" "$out" "11,534,880 entries, .* per rank, $n ranks$"
  same_set "15-6-6-3 on $n ranks" "$scratch/one15" "$scratch/r15-$n"
  run "24-5 on $n ranks" 0 "${mpi[@]}" -np $n "$pdbgen" build "${s24[@]}" --out "$scratch/r24-$n" -q
  same_set "24-5 on $n ranks" "$scratch/one24" "$scratch/r24-$n"
done
run "verify the 3-rank set" 0 "$pdbgen" verify "$scratch/r15-3" --against "$(dirname "$0")/../data/reference/15-6-6-3.manifest.txt"

# A set already built is skipped on every rank.
run "rebuild skipped" 0 "${mpi[@]}" -np 2 "$pdbgen" build "${s15[@]}" --out "$scratch/r15-2"
expect_in "rebuild skipped says so, once" "$err" "already built and valid"
checks=$((checks + 1))
[ "$(grep -c 'already built' <<<"$err")" = 3 ] || fail "skip messages: $(grep -c 'already built' <<<"$err") (expected 3, rank 0 only)"

# Other commands run on rank 0 alone: printed once.
run "info on 2 ranks" 0 "${mpi[@]}" -np 2 "$pdbgen" info "$scratch/r24-2"
checks=$((checks + 1))
[ "$(grep -c '^set ' <<<"$out")" = 1 ] || fail "info printed $(grep -c '^set ' <<<"$out") times on 2 ranks"
run "usage error on 2 ranks" 2 "${mpi[@]}" -np 2 "$pdbgen" build --preset nope --out "$scratch/x"
checks=$((checks + 1))
[ "$(grep -c 'unknown preset\|nope' <<<"$err")" -ge 1 ] && [ "$(grep -c '^pdbgen: ' <<<"$err")" = 1 ] ||
  fail "usage error on 2 ranks: want one message, got: $err"

# --------------------------------------------------------------------------------------
# Checkpoints: a real kill after a checkpointed layer, then the same command again.
ck=$scratch/ck
manifest=$ck/additive-1-2-3-6-7/manifest.txt
# layers_done: the complete layers the checkpoint manifest records (0 when none).
layers_done() { sed -n 's/^layers //p' "$manifest" 2>/dev/null || true; }
"${mpi[@]}" -np 3 "$pdbgen" build "${s24[@]}" --out "$scratch/killed" -q --checkpoint "$ck" \
  >"$scratch/killed.out" 2>&1 &
launcher=$!
for _ in $(seq 1 600); do
  n=$(layers_done)
  [ -n "$n" ] && [ "$n" -ge 6 ] && break
  kill -0 $launcher 2>/dev/null || break
  sleep 0.02
done
ranks=$(pgrep -P $launcher)
kill -KILL $launcher $ranks 2>/dev/null
wait $launcher 2>/dev/null
killed_at=$(layers_done)
checks=$((checks + 1))
if [ -z "$killed_at" ] || [ "$killed_at" -lt 6 ] || [ -e "$scratch/killed/additive-1-2-3-6-7.pdb" ]; then
  fail "the build was not killed mid-way (checkpoint layers '${killed_at}'); $(cat "$scratch/killed.out")"
fi
# Leftovers a kill can leave: a part of a layer the manifest lacks, a temporary file.
echo junk >"$ck/additive-1-2-3-6-7/layer-0099.part-000-of-003.ckpt"
echo junk >"$ck/additive-1-2-3-6-7/.manifest.txt.tmp.99999"
# Resumed on 2 ranks (re-sliced): the same file, and the checkpoint is gone afterwards.
run "resume on 2 ranks" 0 "${mpi[@]}" -np 2 "$pdbgen" build "${s24[@]}" --out "$scratch/killed" --checkpoint "$ck"
expect_in "resume says where it starts" "$err" "resuming after layer $killed_at \(2 ranks\)"
same_set "killed and resumed" "$scratch/one24" "$scratch/killed"
checks=$((checks + 1))
[ ! -e "$ck/additive-1-2-3-6-7" ] || fail "the checkpoint folder is left after the table was written"

# One process with --checkpoint (no mpirun) builds the same file.
run "checkpoint, one process" 0 "$pdbgen" build "${s24[@]}" --out "$scratch/ck1" -q --checkpoint "$scratch/ck1c"
same_set "checkpoint, one process" "$scratch/one24" "$scratch/ck1"

# Refusals: a checkpoint folder that is a file; a checkpoint of another table; a damaged manifest.
touch "$scratch/afile"
run "checkpoint is a file" 4 "${mpi[@]}" -np 2 "$pdbgen" build "${s24[@]}" --out "$scratch/o1" -q --checkpoint "$scratch/afile"
expect_in "checkpoint is a file: named" "$err" "checkpoint folder '$scratch/afile/additive-1-2-3-6-7'"
mkdir -p "$scratch/other/additive-1-2-3-6-7"
cat >"$scratch/other/additive-1-2-3-6-7/manifest.txt" <<EOF
loyd-checkpoint 2
table additive-1-2-3-6-7.pdb
board 4x4
goal 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0
kind additive
tiles 1,2,3,6,7
keys 524160
mask-bytes 0
layers 0
EOF
run "checkpoint of another table" 2 "${mpi[@]}" -np 2 "$pdbgen" build "${s24[@]}" --out "$scratch/o2" -q --checkpoint "$scratch/other"
expect_in "another table: named" "$err" "another table \(board '4x4', this build's is '5x5'\)"
sed -i 's/^layers 0/layers 1/' "$scratch/other/additive-1-2-3-6-7/manifest.txt"
run "damaged checkpoint manifest" 4 "$pdbgen" build "${s24[@]}" --out "$scratch/o3" -q --checkpoint "$scratch/other"
expect_in "damaged manifest: named" "$err" "manifest.txt: the parts of layer 1"
# A checkpoint an older loyd left (version 1 kept other records): refused with what to do.
sed -i 's/^loyd-checkpoint 2/loyd-checkpoint 1/' "$scratch/other/additive-1-2-3-6-7/manifest.txt"
run "version 1 checkpoint" 4 "$pdbgen" build "${s24[@]}" --out "$scratch/o3" -q --checkpoint "$scratch/other"
expect_in "version 1 checkpoint: named" "$err" "manifest.txt:1: a checkpoint of an older loyd .*remove its folder"
# A failure on one rank only (rank 1 cannot rename its part: a folder has the name) ends every
# rank with the same status, reported once by rank 0, and no table is written.
mkdir -p "$scratch/ck2/additive-1-2-3-6-7/layer-0001.part-001-of-002.ckpt"
run "one rank fails" 4 "${mpi[@]}" -np 2 "$pdbgen" build "${s24[@]}" --out "$scratch/o5" -q --checkpoint "$scratch/ck2"
expect_in "one rank fails: named" "$err" "layer-0001.part-001-of-002.ckpt: not a regular file"
checks=$((checks + 1))
[ "$(grep -c '^pdbgen: ' <<<"$err")" = 1 ] && [ ! -e "$scratch/o5/additive-1-2-3-6-7.pdb" ] ||
  fail "one rank fails: want one message and no table, got: $err"
# Memory: --max-memory is per rank; the estimate is of one rank's slice.
run "memory limit per rank" 3 "${mpi[@]}" -np 2 "$pdbgen" build "${s15[@]}" --out "$scratch/o6" --max-memory 20M
expect_in "memory limit per rank: said" "$err" "on 2 rank\(s\) needs about .* per rank, more than --max-memory \(20.0 MiB\)"
run "empty --checkpoint" 2 "$pdbgen" build "${s24[@]}" --out "$scratch/o4" --checkpoint ""

if [ $failures -gt 0 ]; then
  echo "mpi_cli: $failures of $checks checks failed" >&2
  exit 1
fi
echo "mpi_cli: all $checks checks passed"
rm -rf "$scratch"
