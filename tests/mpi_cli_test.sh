#!/usr/bin/env bash
# Distributed table builds with real mpirun ranks on localhost: 15-6-6-3 and a 5-tile
# 24-puzzle pattern on 2 and 3 ranks give files byte-identical (cmp) to the one-process build;
# one rank under mpirun is today's build; a build killed (SIGKILL to mpirun and every rank)
# after a checkpointed layer and started again, on another number of ranks, gives the same
# file; refusals of bad and mismatched checkpoints; other commands print once.
#
# Usage: mpi_cli_test.sh PDBGEN SCRATCH_DIR
# Exits 77 (skipped) when pdbgen is built without MPI or mpirun is missing; 1 if a check failed
# (tests/harness.sh).
. "$(dirname "$0")/harness.sh"
harness_args 2 "PDBGEN SCRATCH_DIR" "$@"
program pdbgen "$1"
mpi_ready "$pdbgen"
scratch_dir "$2"

# same_set NAME DIR_A DIR_B: every table and the manifest byte-identical.
same_set() {
  local f
  for f in "$2"/*.pdb "$2"/manifest.txt; do
    expect "$1: $(basename "$f") as the one-process build's" cmp -s "$f" "$3/$(basename "$f")"
  done
}

# --------------------------------------------------------------------------------------
# --version names MPI, once per job.
expect_run version 0 "${mpi[@]}" -np 2 "$pdbgen" --version
expect_out "version names Open MPI" "^MPI: Open MPI"
expect_once "--version printed once on 2 ranks" "$scratch/out" '^pdbgen \(loyd\)'

# One-process references.
s15=(--preset 15-6-6-3)
s24=(--size 5x5 --pattern 1,2,3,6,7 --name p24 --encoding raw)
expect_run "one process 15-6-6-3" 0 "$pdbgen" build "${s15[@]}" --out "$scratch/one15" -q -j 2
expect_out "one process says threads" "3 tables, 11,534,880 entries, .* 2 threads$"
expect_run "one process 24-5" 0 "$pdbgen" build "${s24[@]}" --out "$scratch/one24" -q -j 2

# One rank under mpirun is the one-process build (same path, same output, same files).
expect_run "one process 15-5-5-5" 0 "$pdbgen" build --preset 15-5-5-5 --out "$scratch/one5" -q -j 2
expect_run "mpirun -np 1" 0 "${mpi[@]}" -np 1 "$pdbgen" build --preset 15-5-5-5 --out "$scratch/np1" -q -j 2
expect_out "one rank says threads" "3 tables, 1,572,480 entries, .* 2 threads$"
same_set "mpirun -np 1" "$scratch/one5" "$scratch/np1"

# 2 and 3 ranks: byte-identical files (zstd for 15-6-6-3, raw for the 24-puzzle pattern).
for n in 2 3; do
  expect_run "15-6-6-3 on $n ranks" 0 "${mpi[@]}" -np $n "$pdbgen" build "${s15[@]}" --out "$scratch/r15-$n" -q
  expect_out "$n ranks reported" "11,534,880 entries, .* per rank, $n ranks$"
  same_set "15-6-6-3 on $n ranks" "$scratch/one15" "$scratch/r15-$n"
  expect_run "24-5 on $n ranks" 0 "${mpi[@]}" -np $n "$pdbgen" build "${s24[@]}" --out "$scratch/r24-$n" -q
  same_set "24-5 on $n ranks" "$scratch/one24" "$scratch/r24-$n"
done
expect_run "verify the 3-rank set" 0 "$pdbgen" verify "$scratch/r15-3" --against "$repo/data/reference/15-6-6-3.manifest.txt"

# A set already built is skipped on every rank.
expect_run "rebuild skipped" 0 "${mpi[@]}" -np 2 "$pdbgen" build "${s15[@]}" --out "$scratch/r15-2"
expect_err "rebuild skipped says so, once" "already built and valid"
count_check
[ "$(grep -c 'already built' "$scratch/err")" = 3 ] ||
  fail "skip messages: $(grep -c 'already built' "$scratch/err") (expected 3, rank 0 only)"

# MTM tables are built in one process (the sliced build counts single-tile moves): refused on
# ranks, nothing created.
expect_run "MTM on 2 ranks" 2 "${mpi[@]}" -np 2 "$pdbgen" build --preset 8-mtm-fringe --out "$scratch/mtm2"
expect_err "MTM on 2 ranks: said" "multi-tile-metric tables are built in one process: start pdbgen without mpirun"
expect "MTM on 2 ranks: nothing created" [ ! -e "$scratch/mtm2" ]
# Ranks that would build other tables (a multi-program launch, other options on other nodes)
# are refused before anything is written, naming the first such rank: their slices would make
# a wrong table (other patterns) or wait for each other for ever (other presets).
expect_run "other patterns on one rank" 2 "${mpi[@]}" -np 1 "$pdbgen" build --size 3x3 --pattern 1,2,3,4 \
  --out "$scratch/mixed" : -np 1 "$pdbgen" build --size 3x3 --pattern 5,6,7,8 --out "$scratch/mixed"
expect_err "other patterns on one rank: said" "^pdbgen: rank 1 builds custom for the 3x3 goal 1 2 3 4 5 6 7 8 0 \(stm; additive-5-6-7-8.pdb; compact entries, dense layout\), rank 0 builds custom .*additive-1-2-3-4.pdb.*: start every rank with the same options"
expect_once "other patterns on one rank: said once" "$scratch/err" "builds custom"
expect "other patterns on one rank: nothing created" [ ! -e "$scratch/mixed" ]
# The same goal in numbers on a transposed board (4x3 and 3x4): other tables (it built a
# damaged one, exit 0).
expect_run "a transposed board on one rank" 2 "${mpi[@]}" -np 1 "$pdbgen" build --size 4x3 --pattern 1,2,3,4 \
  --out "$scratch/mixed" : -np 1 "$pdbgen" build --size 3x4 --pattern 1,2,3,4 --out "$scratch/mixed"
expect_err "a transposed board on one rank: said" "^pdbgen: rank 1 builds custom for the 3x4 goal .*, rank 0 builds custom for the 4x3 goal"
expect "a transposed board on one rank: nothing created" [ ! -e "$scratch/mixed" ]
run timeout 120 "${mpi[@]}" -np 2 "$pdbgen" build --preset 8-4-4 --out "$scratch/mixed" : -np 1 "$pdbgen" build --preset 8-fringe --out "$scratch/mixed"
expect_status "another preset on rank 2 (was a hang)" 2
expect_err "another preset on rank 2: said" "^pdbgen: rank 2 builds 8-fringe .*, rank 0 builds 8-4-4 "
expect_run "other entries on one rank" 2 "${mpi[@]}" -np 1 "$pdbgen" build --preset 8-4-4 --out "$scratch/mixed" \
  : -np 1 "$pdbgen" build --preset 8-4-4 --out "$scratch/mixed" --entries byte
expect_err "other entries on one rank: said" "^pdbgen: rank 1 builds 8-4-4 .*byte entries.*, rank 0 builds 8-4-4 .*compact entries"
run timeout 120 "${mpi[@]}" -np 1 "$pdbgen" build --preset 8-4-4 --out "$scratch/mixed" --checkpoint "$scratch/mixed-ck" \
  : -np 1 "$pdbgen" build --preset 8-4-4 --out "$scratch/mixed"
expect_status "a checkpoint on rank 0 only (was a hang)" 2
expect_err "a checkpoint on rank 0 only: said" "^pdbgen: rank 1 builds 8-4-4 .*dense layout\), rank 0 builds 8-4-4 .*, with --checkpoint\)"
# Another command on some rank: refused as well (the build waited for it for ever).
for other in presets "build --help" "info $repo/data/8-4-4"; do
  # shellcheck disable=SC2086
  run timeout 120 "${mpi[@]}" -np 1 "$pdbgen" build --preset 8-4-4 --out "$scratch/mixed" : -np 1 "$pdbgen" $other
  expect_status "pdbgen $other on rank 1 (was a hang)" 2
  expect_err "pdbgen $other on rank 1: said" "^pdbgen: rank 1 runs pdbgen ${other%% /*}, rank 0 runs pdbgen build: under mpirun every rank runs the same command"
done
expect "other commands: nothing created" [ ! -e "$scratch/mixed" ]
# An option error of one rank alone names it.
expect_run "--level with raw on rank 1 only" 2 "${mpi[@]}" -np 1 "$pdbgen" build --preset 8-4-4 --out "$scratch/mixed" \
  : -np 1 "$pdbgen" build --preset 8-4-4 --out "$scratch/mixed" --encoding raw --level 3
expect_err "--level with raw on rank 1 only: said" "^pdbgen: rank 1: --level sets the zstd level: it does not apply to --encoding raw"
# Other commands run on rank 0 alone: printed once.
expect_run "info on 2 ranks" 0 "${mpi[@]}" -np 2 "$pdbgen" info "$scratch/r24-2"
expect_once "info printed once on 2 ranks" "$scratch/out" '^set '
expect_run "usage error on 2 ranks" 2 "${mpi[@]}" -np 2 "$pdbgen" build --preset nope --out "$scratch/x"
count_check
[ "$(grep -c 'unknown preset\|nope' "$scratch/err")" -ge 1 ] && [ "$(grep -c '^pdbgen: ' "$scratch/err")" = 1 ] ||
  fail "usage error on 2 ranks: want one message, got: $(cat "$scratch/err")"

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
count_check
if [ -z "$killed_at" ] || [ "$killed_at" -lt 6 ] || [ -e "$scratch/killed/additive-1-2-3-6-7.pdb" ]; then
  fail "the build was not killed mid-way (checkpoint layers '${killed_at}'); $(cat "$scratch/killed.out")"
fi
# Leftovers a kill can leave: a part of a layer the manifest lacks, a temporary file.
echo junk >"$ck/additive-1-2-3-6-7/layer-0099.part-000-of-003.ckpt"
echo junk >"$ck/additive-1-2-3-6-7/.manifest.txt.tmp.99999"
cp -r "$ck" "$scratch/old-ck"  # a checkpoint of a table built meanwhile, for below
# Resumed on 2 ranks (re-sliced): the same file, and the checkpoint is gone afterwards.
expect_run "resume on 2 ranks" 0 "${mpi[@]}" -np 2 "$pdbgen" build "${s24[@]}" --out "$scratch/killed" --checkpoint "$ck"
expect_err "resume says where it starts" "resuming after layer $killed_at \(2 ranks\)"
same_set "killed and resumed" "$scratch/one24" "$scratch/killed"
expect "the checkpoint folder is removed after the table was written" [ ! -e "$ck/additive-1-2-3-6-7" ]

# The same build again with an old checkpoint of that table (2 ranks): the table is kept, the
# checkpoint removed (said once); the set is unchanged.
expect_run "an old checkpoint of a table built, 2 ranks" 0 "${mpi[@]}" -np 2 "$pdbgen" build "${s24[@]}" --out "$scratch/killed" --checkpoint "$scratch/old-ck"
expect_once "an old checkpoint: removal said once" "$scratch/err" "removed the checkpoint $scratch/old-ck/additive-1-2-3-6-7 \\($scratch/killed/additive-1-2-3-6-7.pdb is built\\)"
expect "an old checkpoint: removed" [ ! -e "$scratch/old-ck/additive-1-2-3-6-7" ]
same_set "an old checkpoint" "$scratch/one24" "$scratch/killed"

# One process with --checkpoint (no mpirun) builds the same file.
expect_run "checkpoint, one process" 0 "$pdbgen" build "${s24[@]}" --out "$scratch/ck1" -q --checkpoint "$scratch/ck1c"
same_set "checkpoint, one process" "$scratch/one24" "$scratch/ck1"

# Refusals: a checkpoint folder that is a file; a checkpoint of another table; a damaged manifest.
touch "$scratch/afile"
expect_run "checkpoint is a file" 4 "${mpi[@]}" -np 2 "$pdbgen" build "${s24[@]}" --out "$scratch/o1" -q --checkpoint "$scratch/afile"
expect_err "checkpoint is a file: named" "cannot create checkpoint folder '$scratch/afile'"
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
expect_run "checkpoint of another table" 2 "${mpi[@]}" -np 2 "$pdbgen" build "${s24[@]}" --out "$scratch/o2" -q --checkpoint "$scratch/other"
expect_err "another table: named" "another table \(board '4x4', this build's is '5x5'\)"
sed -i 's/^layers 0/layers 1/' "$scratch/other/additive-1-2-3-6-7/manifest.txt"
expect_run "damaged checkpoint manifest" 4 "$pdbgen" build "${s24[@]}" --out "$scratch/o3" -q --checkpoint "$scratch/other"
expect_err "damaged manifest: named" "manifest.txt: the parts of layer 1"
# A checkpoint an older loyd left (version 1 kept other records): refused with what to do.
sed -i 's/^loyd-checkpoint 2/loyd-checkpoint 1/' "$scratch/other/additive-1-2-3-6-7/manifest.txt"
expect_run "version 1 checkpoint" 4 "$pdbgen" build "${s24[@]}" --out "$scratch/o3" -q --checkpoint "$scratch/other"
expect_err "version 1 checkpoint: named" "manifest.txt:1: a checkpoint of an older loyd .*remove its folder"
# A failure on one rank only (rank 1 cannot rename its part: a folder has the name) ends every
# rank with the same status, reported once by rank 0, and no table is written.
mkdir -p "$scratch/ck2/additive-1-2-3-6-7/layer-0001.part-001-of-002.ckpt"
expect_run "one rank fails" 4 "${mpi[@]}" -np 2 "$pdbgen" build "${s24[@]}" --out "$scratch/o5" -q --checkpoint "$scratch/ck2"
expect_err "one rank fails: named" "layer-0001.part-001-of-002.ckpt: not a regular file"
count_check
[ "$(grep -c '^pdbgen: ' "$scratch/err")" = 1 ] && [ ! -e "$scratch/o5/additive-1-2-3-6-7.pdb" ] ||
  fail "one rank fails: want one message and no table, got: $(cat "$scratch/err")"
# Memory: --max-memory is per rank; the estimate is of one rank's slice.
expect_run "memory limit per rank" 3 "${mpi[@]}" -np 2 "$pdbgen" build "${s15[@]}" --out "$scratch/o6" --max-memory 20M
expect_err "memory limit per rank: said" "on 2 rank\(s\) needs about .* per rank, more than --max-memory \(20.0 MiB\)"
# --reuse on 2 ranks, with checkpoints: rank 0 links the table another set holds; the others
# are built over the ranks; the set is the one-process build's.
expect_run "a set holding 15-6-6-3's triple" 0 "$pdbgen" build --size 4x4 --pattern 1,2,3 --name trip --out "$scratch/trip" -q
expect_run "reuse on 2 ranks" 0 "${mpi[@]}" -np 2 "$pdbgen" build "${s15[@]}" --out "$scratch/reuse2" --reuse "$scratch/trip" --checkpoint "$scratch/reuse2c"
expect_once "reuse on 2 ranks: said once" "$scratch/err" 'additive-1-2-3.pdb: reusing '
expect "reuse on 2 ranks: hard-linked" [ "$scratch/reuse2/additive-1-2-3.pdb" -ef "$scratch/trip/additive-1-2-3.pdb" ]
same_set "reuse on 2 ranks" "$scratch/one15" "$scratch/reuse2"
# The memory check on 2 ranks counts only the tables to build: a raw set built passes any limit;
# a damaged table is checked (on every rank, said once) before it is rebuilt.
expect_run "--max-memory 1K on 2 ranks, the set built" 0 "${mpi[@]}" -np 2 "$pdbgen" build "${s24[@]}" --out "$scratch/r24-2" --max-memory 1K
cp -r "$scratch/r24-2" "$scratch/r24-bad"
victim=$scratch/r24-bad/additive-1-2-3-6-7.pdb
py table_damage.py xor "$victim" $(($(stat -c %s "$victim") - 5)) 0xff
expect_run "--max-memory 1K on 2 ranks, a damaged table" 3 "${mpi[@]}" -np 2 "$pdbgen" build "${s24[@]}" --out "$scratch/r24-bad" --max-memory 1K
expect_once "--max-memory 1K on 2 ranks, a damaged table: said once" "$scratch/err" "rebuilding .*additive-1-2-3-6-7.pdb on 2 rank\(s\) needs about .* per rank"
expect_run "empty --checkpoint" 2 "$pdbgen" build "${s24[@]}" --out "$scratch/o4" --checkpoint ""

# SIGTERM to rank 1 alone during a build on 2 ranks (a 6-tile 5x5 table, tens of seconds): the
# cancellation keeps its kind between the ranks, so every rank stops at once with exit 130 (rank
# 0 exited 3, "a limit", when only rank 1 had the signal), and no table is written.
"${mpi[@]}" -np 2 "$pdbgen" build --size 5x5 --pattern 1,2,3,6,7,8 --name sig24 --encoding raw -j 1 \
  --out "$scratch/sig24" -q >"$scratch/sig24.out" 2>&1 &
launcher=$!
# Rank 1 is signalled once it has used half a second of CPU (/proc/PID/stat utime): its
# handlers are in place and the build has begun (a fixed sleep races a loaded machine).
rank1=""
for _ in $(seq 1200); do
  for p in $(pgrep -P $launcher); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then
      ticks=$(awk '{ print $14 }' "/proc/$p/stat" 2>/dev/null || echo 0)
      [ "${ticks:-0}" -ge 50 ] && rank1=$p
    fi
  done
  [ -n "$rank1" ] && break
  sleep 0.05
done
signalled=0
[ -n "$rank1" ] && kill -TERM "$rank1" 2>/dev/null && signalled=1
[ "$signalled" -gt 0 ] || kill -TERM $(pgrep -P $launcher) 2>/dev/null  # rather than wait
started=$(date +%s)
wait $launcher
ran "mpirun -np 2 pdbgen build (a 6-tile 5x5 table), then SIGTERM to rank 1 only" $?
took=$(($(date +%s) - started))
expect "SIGTERM to rank 1 of a build: a rank signalled" [ "$signalled" -gt 0 ]
expect_status "SIGTERM to rank 1 of a build" 130
expect "SIGTERM to rank 1 of a build: stopped at once (${took} s)" [ "$took" -le 10 ]
expect "SIGTERM to rank 1 of a build: no table written" [ ! -e "$scratch/sig24/additive-1-2-3-6-7-8.pdb" ]

finish
