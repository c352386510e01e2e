#!/usr/bin/env bash
# Command-line tests of pdbgen: presets, builds (preset and custom), verify (clean, damaged,
# truncated, against a reference manifest), info, pack/unpack, exit codes for bad usage and
# memory limits, rebuilds into a finished folder, thread-count independence, and -j above the
# CPUs (capped, with a note).
# Only small sets are built (3x3, 2x4 and a few 4x4 tables of at most 4 tiles).
#
# Usage: pdbgen_cli_test.sh PDBGEN SCRATCH_DIR
# SCRATCH_DIR is emptied and reused. Prints one line per failed check; exits 1 if any failed.
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 PDBGEN SCRATCH_DIR" >&2
  exit 2
fi
pdbgen=$1
scratch=$2
root_ref="$(cd "$(dirname "$0")/.." && pwd)/data/reference"
rm -rf "$scratch"
mkdir -p "$scratch" || exit 2
failures=0
checks=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run NAME EXPECTED_STATUS ARGS...: runs pdbgen, keeps stdout/stderr in $out/$err, and checks
# the exit status.
out=""
err=""
run() {
  local name=$1 want=$2
  shift 2
  checks=$((checks + 1))
  "$pdbgen" "$@" >"$scratch/out" 2>"$scratch/err"
  local got=$?
  out=$(cat "$scratch/out")
  err=$(cat "$scratch/err")
  if [ "$got" != "$want" ]; then
    fail "$name: 'pdbgen $*' exited $got, expected $want"
    [ -n "$out" ] && echo "  stdout: $(head -c 600 "$scratch/out")" >&2
    [ -n "$err" ] && echo "  stderr: $(head -c 600 "$scratch/err")" >&2
    return 1
  fi
  return 0
}

# expect_in NAME TEXT PATTERN: TEXT must match the extended regex PATTERN.
expect_in() {
  checks=$((checks + 1))
  if ! grep -Eq -- "$3" <<<"$2"; then
    fail "$1: output does not match /$3/"
    echo "  output: $(head -c 600 <<<"$2")" >&2
  fi
}

# flip_byte FILE OFFSET: inverts the bits of one byte in place.
flip_byte() {
  python3 - "$1" "$2" <<'PY'
import sys
path, off = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    f.seek(off)
    b = f.read(1)
    f.seek(off)
    f.write(bytes([b[0] ^ 0xFF]))
PY
}

# ---------------------------------------------------------------------------------------
# presets
run presets 0 presets && {
  for p in 8-fringe 8-4-4 15-5-5-5 15-6-6-3 15-7-8 15-fringe 24-6-6-6-6 8-mtm-fringe 15-mtm-6-6; do
    expect_in "presets lists $p" "$out" "^$p "
  done
}

# ---------------------------------------------------------------------------------------
# builds
fringe=$scratch/fringe
run "build 8-fringe" 0 build --preset 8-fringe --out "$fringe" -q &&
  expect_in "build 8-fringe summary" "$out" "built 8-fringe"
[ -f "$fringe/manifest.txt" ] || fail "build 8-fringe: no manifest.txt"
[ -f "$fringe/full-1-2-3-4-7.pdb" ] || fail "build 8-fringe: no full-1-2-3-4-7.pdb"

s844=$scratch/s844
run "build 8-4-4" 0 build --preset 8-4-4 --out "$s844" -q
[ -f "$s844/manifest.txt" ] || fail "build 8-4-4: no manifest.txt"
for t in additive-1-2-4-5.pdb additive-3-6-7-8.pdb; do
  [ -f "$s844/$t" ] || fail "build 8-4-4: no $t"
done
expect_in "8-4-4 manifest has checksums" "$(cat "$s844/manifest.txt" 2>/dev/null)" \
  "^table additive-1-2-4-5.pdb additive 1,2,4,5 xxh3=[0-9a-f]{16}$"

custom=$scratch/custom
run "build custom 2x4" 0 build --size 2x4 --pattern 1,2 --pattern 3,4 --kind additive --out "$custom" -q
[ -f "$custom/manifest.txt" ] || fail "build custom: no manifest.txt"
[ -f "$custom/additive-1-2.pdb" ] || fail "build custom: no additive-1-2.pdb"
[ -f "$custom/additive-3-4.pdb" ] || fail "build custom: no additive-3-4.pdb"
expect_in "custom manifest board" "$(cat "$custom/manifest.txt" 2>/dev/null)" "^board 2x4$"
expect_in "custom manifest partition" "$(cat "$custom/manifest.txt" 2>/dev/null)" \
  "^partition additive-1-2.pdb additive-3-4.pdb$"

# A custom full set with a non-standard goal.
fullc=$scratch/fullc
run "build custom full blank-first" 0 build --size 3x3 --goal blank-first --pattern 1,2,3 --kind full \
  --out "$fullc" -q
expect_in "custom full manifest goal" "$(cat "$fullc/manifest.txt" 2>/dev/null)" "^goal 0 1 2 3 4 5 6 7 8$"

# The multi-tile metric: full tables only (the default kind), version 2 files and manifests.
mtm=$scratch/mtm
run "build 8-mtm-fringe" 0 build --preset 8-mtm-fringe --out "$mtm" -q
[ -f "$mtm/full-mtm-1-2-3-4-7.pdb" ] || fail "build 8-mtm-fringe: no full-mtm-1-2-3-4-7.pdb"
expect_in "mtm manifest version" "$(cat "$mtm/manifest.txt" 2>/dev/null)" "^loyd-pdb-set 2$"
expect_in "mtm manifest metric" "$(cat "$mtm/manifest.txt" 2>/dev/null)" "^metric mtm$"
run "verify 8-mtm-fringe against the reference" 0 verify "$mtm" --against "$root_ref/8-mtm-fringe.manifest.txt"
run "verify the shipped 8-mtm-fringe" 0 verify "$root_ref/../8-mtm-fringe" --against "$root_ref/8-mtm-fringe.manifest.txt"
run "info mtm table" 0 info "$mtm/full-mtm-1-2-3-4-7.pdb" && {
  expect_in "info mtm metric" "$out" "^metric +mtm$"
  expect_in "info mtm version" "$out" "^format +loyd pdb version 2$"
  expect_in "info mtm max" "$out" "^max value +22$"
}
run "info mtm set" 0 info "$mtm" && expect_in "info mtm set metric" "$out" "^metric +mtm$"
# STM tables are compact by default (format version 3); with --entries byte they are the
# version 1 files they always were.
run "info stm table" 0 info "$fringe/full-1-2-3-4-7.pdb" && {
  expect_in "info stm version" "$out" "^format +loyd pdb version 3$"
  expect_in "info stm coding" "$out" "^coding +compact \(4 bits per entry"
}
run "build 8-fringe with byte entries" 0 build --preset 8-fringe --entries byte --out "$scratch/fringe-bytes" -q
run "info stm byte table" 0 info "$scratch/fringe-bytes/full-1-2-3-4-7.pdb" && {
  expect_in "info stm byte version" "$out" "^format +loyd pdb version 1$"
  expect_in "info stm byte coding" "$out" "^coding +byte \(8 bits per entry\)$"
}
run "verify the byte 8-fringe against the compact one" 0 verify "$scratch/fringe-bytes" --against "$fringe"
run "verify the compact 8-fringe against the byte one" 0 verify "$fringe" --against "$scratch/fringe-bytes"
run "verify the compact 8-fringe against the reference" 0 verify "$fringe" --against "$root_ref/8-fringe.manifest.txt"
mtmc=$scratch/mtmc
run "build custom mtm 2x4" 0 build --size 2x4 --pattern 1,2,3 --pattern 5,6 --metric mtm --out "$mtmc" -q
[ -f "$mtmc/full-mtm-1-2-3.pdb" ] || fail "build custom mtm: no full-mtm-1-2-3.pdb"
run "verify custom mtm" 0 verify "$mtmc"
run "build mtm additive" 2 build --size 3x3 --pattern 1,2 --metric mtm --kind additive --out "$scratch/mtma" &&
  expect_in "mtm additive says why" "$err" "additive tables do not add up in the multi-tile metric"
run "build stm preset as mtm" 2 build --preset 8-fringe --metric mtm --out "$scratch/x" &&
  expect_in "stm preset as mtm says why" "$err" "preset 8-fringe is for the stm metric"
run "build mtm preset as stm" 2 build --preset 8-mtm-fringe --metric stm --out "$scratch/x"
run "build unknown metric" 2 build --size 3x3 --pattern 1,2 --metric fast --out "$scratch/x" &&
  expect_in "unknown metric" "$err" "unknown metric 'fast'"
# A table of one metric copied over the other's: the set is refused.
swapped=$scratch/swapped
cp -r "$mtm" "$swapped"
cp "$fringe/full-1-2-3-4-7.pdb" "$swapped/full-mtm-1-2-3-4-7.pdb"
run "verify a set holding a table of the other metric" 4 verify "$swapped" &&
  expect_in "other metric named" "$err" "counts stm moves, expected mtm"

# ---------------------------------------------------------------------------------------
# verify and info on clean sets
for d in "$fringe" "$s844" "$custom" "$fullc"; do
  run "verify $(basename "$d")" 0 verify "$d" && expect_in "verify $(basename "$d")" "$out" "all [0-9]+ tables verified"
done
run "verify one table file" 0 verify "$s844/additive-1-2-4-5.pdb" && expect_in "verify file" "$out" "^ok "
run "verify the manifest path" 0 verify "$s844/manifest.txt"

run "info" 0 info "$fringe/full-1-2-3-4-7.pdb" && {
  expect_in "info entries" "$out" "^entries +60,480$"
  expect_in "info kind" "$out" "^kind +full$"
  expect_in "info histogram" "$out" "^histogram"
  expect_in "info histogram zero" "$out" "^ +0: 1$"
  expect_in "info encoding" "$out" "^encoding +zstd"
}

# ---------------------------------------------------------------------------------------
# damage: a flipped byte in the payload, a flipped byte in the header, truncation
damaged=$scratch/damaged
cp -r "$s844" "$damaged"
victim=$damaged/additive-3-6-7-8.pdb
size=$(stat -c %s "$victim")
flip_byte "$victim" $((size - 5))
run "verify flipped payload byte" 4 verify "$damaged" && expect_in "verify names the damaged file" "$err" "additive-3-6-7-8.pdb"
run "info flipped payload byte" 4 info "$victim"

cp "$s844/additive-3-6-7-8.pdb" "$victim"
flip_byte "$victim" 20
run "verify flipped header byte" 4 verify "$damaged" && expect_in "verify names the damaged file (header)" "$err" "additive-3-6-7-8.pdb"

cp "$s844/additive-3-6-7-8.pdb" "$victim"
truncate -s $((size - 1)) "$victim"
run "verify truncated" 4 verify "$damaged" && expect_in "verify names the truncated file" "$err" "additive-3-6-7-8.pdb"
truncate -s 100 "$victim"
run "verify truncated into the header" 4 verify "$damaged"
run "verify truncated file alone" 4 verify "$victim"

cp "$s844/additive-3-6-7-8.pdb" "$victim"
run "verify repaired" 0 verify "$damaged"
rm "$victim"
run "verify missing table" 4 verify "$damaged"

# ---------------------------------------------------------------------------------------
# pack / unpack
conv=$scratch/conv
cp -r "$s844" "$conv"
# Temporary files of an interrupted pack/unpack (".NAME.tmp.PID"): removed when their writer is
# gone, kept while it lives; other files are left alone.
sh -c 'exit 0' &
dead=$!
wait "$dead"
echo partial >"$conv/.additive-1-2-4-5.pdb.tmp.$dead"
echo partial >"$conv/.additive-3-6-7-8.pdb.tmp.$$"
echo mine >"$conv/.notes.tmp.txt"
zstd_size=$(stat -c %s "$conv/additive-1-2-4-5.pdb")
run "unpack in place" 0 unpack "$conv" && expect_in "unpack says what it removed" "$err" \
  "removed 1 temporary file\(s\) of an interrupted run in $conv"
checks=$((checks + 1))
[ ! -e "$conv/.additive-1-2-4-5.pdb.tmp.$dead" ] && [ -e "$conv/.additive-3-6-7-8.pdb.tmp.$$" ] &&
  [ -e "$conv/.notes.tmp.txt" ] || fail "unpack: dead writers' temporaries not removed, or others touched: $(ls -a "$conv")"
rm -f "$conv/.additive-3-6-7-8.pdb.tmp.$$" "$conv/.notes.tmp.txt"
run "verify after unpack" 0 verify "$conv"
run "info after unpack" 0 info "$conv/additive-1-2-4-5.pdb" && expect_in "info raw" "$out" "^encoding +raw"
raw_size=$(stat -c %s "$conv/additive-1-2-4-5.pdb")
checks=$((checks + 1))
[ "$raw_size" -gt "$zstd_size" ] || fail "unpacked table is $raw_size bytes, not more than the zstd one ($zstd_size)"
# Entry codings: unpack and pack change them on request, and keep them otherwise.
run "unpack to byte entries" 0 unpack "$conv" "$scratch/conv-bytes" --entries byte &&
  expect_in "unpack to byte entries says so" "$out" "raw, byte entries"
run "info of byte entries" 0 info "$scratch/conv-bytes/additive-1-2-4-5.pdb" &&
  expect_in "info byte coding" "$out" "^coding +byte"
[ "$(stat -c %s "$scratch/conv-bytes/additive-1-2-4-5.pdb")" = $((4096 + 3024)) ] ||
  fail "byte raw table is not its 4096-byte page and 3024 entries"
run "verify byte entries against the compact set" 0 verify "$scratch/conv-bytes" --against "$conv"
run "pack keeps byte entries" 0 pack "$scratch/conv-bytes" && expect_in "pack keeps byte entries says so" "$out" "zstd, byte entries"
run "pack back to compact entries" 0 pack "$scratch/conv-bytes" --entries compact &&
  expect_in "pack to compact says so" "$out" "zstd, compact entries"
run "verify after re-encoding in place" 0 verify "$scratch/conv-bytes" --against "$root_ref/8-4-4.manifest.txt"
run "bad --entries" 2 build --preset 8-4-4 --entries nibble --out "$scratch/bad-entries"
expect_in "bad --entries message" "$err" "compact .4 bits each. or byte"
run "compact MTM refused" 2 build --preset 8-mtm-fringe --entries compact --out "$scratch/mtm-compact"
expect_in "compact MTM message" "$err" "single-tile-metric"
run "pack in place" 0 pack "$conv"
run "verify after pack" 0 verify "$conv"
run "info after pack" 0 info "$conv/additive-1-2-4-5.pdb" && expect_in "info zstd" "$out" "^encoding +zstd"
for t in additive-1-2-4-5.pdb additive-3-6-7-8.pdb; do
  cmp -s "$conv/$t" "$s844/$t" || fail "unpack + pack of $t does not give back the original file"
done
conv2=$scratch/conv2
run "unpack to another folder" 0 unpack "$s844" "$conv2"
run "verify the unpacked copy" 0 verify "$conv2"
run "verify unpacked against the original" 0 verify "$conv2" --against "$s844"
run "unpack one file" 0 unpack "$s844/additive-1-2-4-5.pdb" "$scratch/one-raw.pdb"
run "info one raw file" 0 info "$scratch/one-raw.pdb" && expect_in "info one raw" "$out" "^encoding +raw"

# ---------------------------------------------------------------------------------------
# verify --against
again=$scratch/again
run "second 8-4-4 build" 0 build --preset 8-4-4 --out "$again" -q
run "verify against an identical build" 0 verify "$again" --against "$s844" &&
  expect_in "verify against" "$out" "match the reference"
run "verify against a manifest file" 0 verify "$again" --against "$s844/manifest.txt"
run "verify one file against" 0 verify "$again/additive-1-2-4-5.pdb" --against "$s844"
doctored=$scratch/doctored
mkdir -p "$doctored"
# Change the first hex digit of the first table's checksum.
python3 - "$s844/manifest.txt" "$doctored/manifest.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def swap(m):
    d = m.group(1)
    return "xxh3=" + ("0" if d != "0" else "1") + m.group(2)
new, n = re.subn(r"xxh3=([0-9a-f])([0-9a-f]{15})", swap, text, count=1)
assert n == 1, "no checksum in the manifest"
open(sys.argv[2], "w").write(new)
PY
checks=$((checks + 1))
"$pdbgen" verify "$again" --against "$doctored" >"$scratch/out" 2>"$scratch/err"
st=$?
if [ "$st" != 4 ]; then
  fail "verify against a doctored manifest exited $st, expected 4"
else
  expect_in "verify against doctored names the file" "$(cat "$scratch/err")" "additive-1-2-4-5.pdb"
  expect_in "verify against doctored says why" "$(cat "$scratch/err")" "differs from the reference"
fi
run "verify one file against doctored" 4 verify "$again/additive-1-2-4-5.pdb" --against "$doctored"
run "verify against another set" 4 verify "$again" --against "$custom"

# ---------------------------------------------------------------------------------------
# bad usage: exit 2
run "no command" 2
run "unknown command" 2 frobnicate
run "unknown preset" 2 build --preset 15-9-9 --out "$scratch/x" && expect_in "unknown preset message" "$err" "15-9-9"
run "overlapping patterns" 2 build --size 3x3 --pattern 1,2 --pattern 2,3 --out "$scratch/x"
run "bogus kind" 2 build --size 3x3 --pattern 1,2 --kind bogus --out "$scratch/x" &&
  expect_in "bogus kind message" "$err" "bogus"
run "missing --out" 2 build --preset 8-4-4 && expect_in "missing --out message" "$err" "--out"
run "preset and pattern" 2 build --preset 8-4-4 --pattern 1,2 --out "$scratch/x"
run "pattern without size" 2 build --pattern 1,2 --out "$scratch/x"
run "pattern with the blank" 2 build --size 3x3 --pattern 0,1 --out "$scratch/x"
run "pattern off the board" 2 build --size 3x3 --pattern 1,9 --out "$scratch/x"
run "pattern leaving two free cells" 2 build --size 2x2 --pattern 1,2 --out "$scratch/x"
run "bad size" 2 build --size 3y3 --pattern 1,2 --out "$scratch/x"
run "bad encoding" 2 build --preset 8-4-4 --encoding lz4 --out "$scratch/x"
run "unknown option" 2 build --preset 8-4-4 --out "$scratch/x" --colour red
run "info without a file" 2 info
run "verify two paths" 2 verify "$s844" "$fringe"
run "negative jobs" 2 build --preset 8-4-4 --out "$scratch/x" -j -1
# Options belong to commands (program/command_options.h): one of another command is a usage
# error, one line naming the option and the command, before anything is read or written.
# scoped CASE COMMAND OPTION ARGS...: pdbgen ARGS exits 2 saying OPTION does not apply to COMMAND.
scoped() {
  local name=$1 command=$2 option=$3
  shift 3
  run "$name" 2 "$@" || return
  expect_in "$name: named" "$err" "^pdbgen: $option does not apply to $command \(see pdbgen --help\)$"
  checks=$((checks + 1))
  [ "$(wc -l <<<"$err")" = 1 ] || fail "$name: not one line: $err"
  checks=$((checks + 1))
  [ -z "$out" ] || fail "$name: wrote on stdout: $out"
}
scoped "build --against" build --against build --preset 8-4-4 --out "$scratch/x" --against "$s844"
scoped "verify --preset" verify --preset verify "$s844" --preset 8-4-4
scoped "verify --out" verify --out verify "$s844" -o "$scratch/x"
scoped "info --force" info --force info "$s844" --force
scoped "presets -j" presets --jobs presets -j 2
scoped "pack --against" pack --against pack "$s844" "$scratch/x" --against "$s844"
scoped "unpack --no-wait is its own, --encoding is build's" unpack --encoding unpack "$s844" "$scratch/x" --no-wait --encoding raw
scoped "package --entries" package --entries package "$s844" --out "$scratch/x" --entries byte
scoped "build --help with verify's option" build --against build --help --against "$s844"
[ -e "$scratch/x" ] && fail "a refused build created its output folder"
# The bash completion (pdbgen/pdbgen.bash) offers each command exactly its options (--version
# aside), as its --help lists them.
for command in build presets info verify pack unpack package; do
  checks=$((checks + 1))
  helped=$("$pdbgen" "$command" --help | sed -nE 's/^  (-[a-zA-Z] \[ )?(--[a-z][a-z-]*).*/\2/p' |
    grep -vx -- --version | sort | tr '\n' ' ')
  completed=$(bash -c 'source "$1"; COMP_WORDS=(pdbgen "$2" --); COMP_CWORD=2; _loyd_pdbgen
    printf "%s\n" "${COMPREPLY[@]}"' _ "$(dirname "$0")/../pdbgen/pdbgen.bash" "$command" | sort | tr '\n' ' ')
  [ "$helped" = "$completed" ] || fail "completion of $command: '$completed', --help: '$helped'"
done
# The command is found past options and their values: an option before it is read as its own.
run "an option before the command" 0 -q --out "$scratch/before" build --preset 8-4-4 &&
  expect_in "an option before the command: built" "$out" "built 8-4-4 in $scratch/before"
run "-q, -j of verify" 0 verify -q -j 1 "$s844"

# ---------------------------------------------------------------------------------------
# memory limit: exit 3
run "--max-memory 1K" 3 build --preset 8-4-4 --out "$scratch/mem" --max-memory 1K &&
  expect_in "memory message" "$err" "max-memory"
[ -e "$scratch/mem/manifest.txt" ] && fail "a build refused for memory wrote a manifest"
run "--max-memory big enough" 0 build --preset 8-4-4 --out "$scratch/mem" --max-memory 64M -q

# ---------------------------------------------------------------------------------------
# a second build into a finished folder keeps the tables
before=$(stat -c %Y.%i "$s844/additive-1-2-4-5.pdb")
run "rebuild into a finished folder" 0 build --preset 8-4-4 --out "$s844" &&
  expect_in "rebuild says already built" "$err" "already built"
after=$(stat -c %Y.%i "$s844/additive-1-2-4-5.pdb")
[ "$before" = "$after" ] || fail "rebuild replaced an already built table"
cmp -s "$s844/manifest.txt" "$again/manifest.txt" || fail "rebuild changed the manifest"
# A damaged table is rebuilt, the good one kept.
flip_byte "$s844/additive-3-6-7-8.pdb" 300
run "rebuild a damaged table" 0 build --preset 8-4-4 --out "$s844" &&
  expect_in "rebuild names the damaged table" "$err" "rebuilding .*additive-3-6-7-8.pdb"
cmp -s "$s844/additive-3-6-7-8.pdb" "$again/additive-3-6-7-8.pdb" || fail "the rebuilt table differs"
run "--force rebuild" 0 build --preset 8-4-4 --out "$s844" --force -q
cmp -s "$s844/additive-1-2-4-5.pdb" "$again/additive-1-2-4-5.pdb" || fail "the forced rebuild differs"

# ---------------------------------------------------------------------------------------
# thread-count independence: byte-identical files (zstd and raw)
for enc in zstd raw; do
  j1=$scratch/j1-$enc
  j2=$scratch/j2-$enc
  run "build -j 1 ($enc)" 0 build --size 4x4 --pattern 1,2,5,6 --pattern 3,4,7,8 --pattern 9,10,13 \
    --pattern 11,12,14,15 --encoding $enc -j 1 --out "$j1" -q
  run "build -j 2 ($enc)" 0 build --size 4x4 --pattern 1,2,5,6 --pattern 3,4,7,8 --pattern 9,10,13 \
    --pattern 11,12,14,15 --encoding $enc -j 2 --out "$j2" -q
  for f in "$j1"/*; do
    checks=$((checks + 1))
    cmp -s "$f" "$j2/$(basename "$f")" || fail "-j 1 and -j 2 give different $(basename "$f") ($enc)"
  done
  run "verify the -j 2 build ($enc)" 0 verify "$j2" --against "$j1"
done
fj1=$scratch/fj1
fj2=$scratch/fj2
run "full build -j 1" 0 build --size 4x4 --pattern 1,2,3 --kind full -j 1 --out "$fj1" -q
run "full build -j 2" 0 build --size 4x4 --pattern 1,2,3 --kind full -j 2 --out "$fj2" -q
for f in "$fj1"/*; do
  checks=$((checks + 1))
  cmp -s "$f" "$fj2/$(basename "$f")" || fail "-j 1 and -j 2 give different $(basename "$f") (full)"
done

# -j above the CPUs: one thread per CPU (the summary says how many), one note on stderr (none
# with -q), the same bytes; info, verify, pack and unpack cap and say so too. (-j 1024 once
# started 1,023 threads for every BFS layer of even the smallest table: 22 s for 8-4-4.)
# `nproc` counts the CPUs of the affinity mask, as pdbgen does.
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
if [ "$cpus" -lt 1024 ]; then
  plural=$([ "$cpus" = 1 ] || echo s)
  note="^pdbgen: -j 1024 is more than the $cpus CPU$plural available; using $cpus$"
  jmany=$scratch/j1024
  if run "build -j 1024" 0 build --size 4x4 --pattern 1,2,5,6 --pattern 3,4,7,8 --pattern 9,10,13 \
    --pattern 11,12,14,15 --encoding zstd -j 1024 --out "$jmany"; then
    expect_in "build -j 1024: the note" "$err" "$note"
    expect_in "build -j 1024: the threads used" "$out" ", $cpus threads$"
    checks=$((checks + 1))
    [ "$(grep -c 'is more than the' <<<"$err")" = 1 ] || fail "build -j 1024: the note is not said once: $err"
  fi
  for f in "$scratch/j1-zstd"/*; do
    checks=$((checks + 1))
    cmp -s "$f" "$jmany/$(basename "$f")" || fail "-j 1 and -j 1024 give different $(basename "$f")"
  done
  run "build -j 1024 -q" 0 build --size 4x4 --pattern 1,2,5,6 --pattern 3,4,7,8 --pattern 9,10,13 \
    --pattern 11,12,14,15 --encoding zstd -j 1024 --out "$jmany" --force -q &&
    { checks=$((checks + 1)); [ -z "$err" ] || fail "build -j 1024 -q: stderr not empty: $err"; }
  run "verify -j 1024" 0 verify "$jmany" -j 1024 && expect_in "verify -j 1024: the note" "$err" "$note"
  run "info -j 1024" 0 info "$jmany/additive-1-2-5-6.pdb" -j 1024 &&
    expect_in "info -j 1024: the note" "$err" "$note"
  checks=$((checks + 1))
  grep -q 'is more than the' <<<"$out" && fail "info -j 1024: the note on stdout"
  run "unpack -j 1024" 0 unpack "$jmany" "$scratch/j1024-raw" -j 1024 &&
    expect_in "unpack -j 1024: the note" "$err" "$note"
  run "verify the -j 1024 unpacked set" 0 verify "$scratch/j1024-raw" --against "$scratch/j1-zstd" -q
fi
# On one CPU (taskset): one thread, and the default is one too.
if command -v taskset >/dev/null; then
  first=$(sed -nE 's/^Cpus_allowed_list:[[:space:]]*([0-9]+).*/\1/p' /proc/self/status)
  checks=$((checks + 1))
  taskset -c "$first" "$pdbgen" build --preset 8-4-4 -j 2 --out "$scratch/one-cpu" >"$scratch/out" 2>"$scratch/err" ||
    fail "build -j 2 on one CPU failed: $(cat "$scratch/err")"
  expect_in "build -j 2 on one CPU: the note" "$(cat "$scratch/err")" \
    "^pdbgen: -j 2 is more than the 1 CPU available; using 1$"
  expect_in "build -j 2 on one CPU: one thread" "$(cat "$scratch/out")" ", 1 threads$"
  checks=$((checks + 1))
  taskset -c "$first" "$pdbgen" build --preset 8-4-4 --force -q --out "$scratch/one-cpu" >"$scratch/out" 2>"$scratch/err" ||
    fail "build on one CPU failed: $(cat "$scratch/err")"
  expect_in "build on one CPU: one thread by default" "$(cat "$scratch/out")" ", 1 threads$"
fi
run "jobs above 1024" 2 build --preset 8-4-4 --out "$scratch/x" -j 1025 &&
  expect_in "jobs above 1024: named" "$err" "^pdbgen: --jobs must be between 0 and 1024"
run "jobs of 100000" 2 verify "$scratch/j1-zstd" -j 100000

# ---------------------------------------------------------------------------------------
# Folders the build may not write (sysfs refuses even root, so this runs in a container as
# root): a clear one-line error naming the folder, exit 4.
if [ -d /sys/kernel ] && ! touch /sys/kernel/.loyd-probe 2>/dev/null; then
  if run "read-only output folder" 4 build --preset 8-4-4 --out /sys/kernel -q; then
    expect_in "read-only folder message" "$err" "/sys/kernel/.loyd.lock: cannot open the folder's lock file"
  fi
  if run "output folder that cannot be created" 4 build --preset 8-4-4 --out /sys/kernel/loyd -q; then
    expect_in "uncreatable folder message" "$err" "cannot create output folder '/sys/kernel/loyd'"
  fi
fi

# ---------------------------------------------------------------------------------------
# Each command's own help; presets with their figures.
if run "build --help" 0 build --help; then
  expect_in "build --help names its options" "$out" "--no-wait"
  checks=$((checks + 1))
  grep -q -- "--against" <<<"$out" && fail "build --help lists verify's --against"
fi
if run "verify --help" 0 verify --help; then
  expect_in "verify --help names --against" "$out" "--against"
  checks=$((checks + 1))
  grep -q -- "--preset" <<<"$out" && fail "verify --help lists build's --preset"
fi
run "unknown command --help" 2 frobnicate --help
if run "presets" 0 presets; then
  expect_in "presets: 15-7-8 entries" "$out" "15-7-8 +576,576,000 +[0-9.]+ min +[0-9.]+ (MiB|GiB)"
fi

# ---------------------------------------------------------------------------------------
# One build per output folder: the folder's lock file (held here by util-linux flock, as
# another build would hold it) makes --no-wait exit 6 at once and a plain build wait.
lk=$scratch/locked
mkdir -p "$lk"
flock -x "$lk/.loyd.lock" -c "sleep 2" &
holder=$!
sleep 0.3
if run "--no-wait on a held folder" 6 build --preset 8-4-4 --out "$lk" --no-wait -q; then
  expect_in "--no-wait message" "$err" "another build is writing into .*locked"
  checks=$((checks + 1))
  [ "$(wc -l <"$scratch/err")" = 1 ] || fail "--no-wait: expected one line on stderr, got: $err"
  checks=$((checks + 1))
  [ ! -e "$lk/manifest.txt" ] || fail "--no-wait wrote a manifest"
fi
start=$(date +%s.%N)
if run "build waits for the lock" 0 build --preset 8-4-4 --out "$lk"; then
  expect_in "waiting message" "$err" "waiting for another build"
  checks=$((checks + 1))
  python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) >= 1.2 else 1)" "$start" \
    "$(date +%s.%N)" || fail "the build did not wait for the lock holder"
  run "verify after waiting" 0 verify "$lk" --against "$root_ref/8-4-4.manifest.txt"
fi
wait "$holder"
# pack and unpack take the same lock: on a held set folder, in place, --no-wait exits 6 and
# leaves every table as it was (a single table of the set too); without it they wait.
flock -x "$lk/.loyd.lock" -c "sleep 2" &
holder=$!
sleep 0.3
before=$(cksum "$lk"/*.pdb)
run "unpack --no-wait on a held set" 6 unpack "$lk" --no-wait -q
run "pack --no-wait of a held set's table" 6 pack "$lk/additive-1-2-4-5.pdb" --no-wait -q
checks=$((checks + 1))
[ "$(cksum "$lk"/*.pdb)" = "$before" ] || fail "pack/unpack --no-wait changed tables of a held set"
run "unpack waits for the lock" 0 unpack "$lk" && expect_in "unpack waiting message" "$err" "waiting for another build"
wait "$holder"
# Two real builds into one folder at once: both succeed, the set matches the reference.
both=$scratch/both
"$pdbgen" build --preset 8-4-4 --out "$both" -j 1 -q >/dev/null 2>"$scratch/err1" &
p1=$!
"$pdbgen" build --preset 8-4-4 --out "$both" -j 1 -q >/dev/null 2>"$scratch/err2" &
p2=$!
checks=$((checks + 1))
wait "$p1" && wait "$p2" || fail "concurrent builds: $(cat "$scratch/err1" "$scratch/err2")"
run "verify concurrent builds" 0 verify "$both" --against "$root_ref/8-4-4.manifest.txt"

# A full disk, as a file-size limit (30 KiB) every table exceeds: exit 4, one line naming the
# file and the error, no temporary file and no manifest left, for both encodings.
for enc in zstd raw; do
  fd=$scratch/full-$enc
  checks=$((checks + 1))
  (ulimit -f 30; "$pdbgen" build --preset 15-5-5-5 --out "$fd" -j 1 -q --encoding $enc >"$scratch/out" 2>"$scratch/err")
  got=$?
  err=$(cat "$scratch/err")
  [ "$got" = 4 ] || fail "full disk ($enc): exit $got, expected 4: $err"
  expect_in "full disk ($enc) message" "$err" "additive-1-2-5-6-9.pdb.*File too large"
  checks=$((checks + 1))
  [ "$(wc -l <"$scratch/err")" = 1 ] || fail "full disk ($enc): expected one line, got: $err"
  checks=$((checks + 1))
  left=$(find "$fd" -name '*.tmp.*' -o -name manifest.txt -o -name '*.pdb')
  [ -z "$left" ] || fail "full disk ($enc): files left behind: $left"
done

# ---------------------------------------------------------------------------------------
# A FIFO where a table or a reference manifest is expected: refused at once (exit 4), never
# waited on (`timeout` turns a hang into a failure).
mkfifo "$scratch/fifo.pdb" "$scratch/fifo.manifest.txt"
printf '#!/bin/sh\nexec timeout 20 "%s" "$@"\n' "$pdbgen" >"$scratch/pdbgen_timed"
chmod +x "$scratch/pdbgen_timed"
pdbgen_untimed=$pdbgen
pdbgen=$scratch/pdbgen_timed
run "info on a FIFO" 4 info "$scratch/fifo.pdb" &&
  expect_in "info on a FIFO: named" "$err" "fifo.pdb: not a regular file \(a FIFO\)"
run "verify on a FIFO" 4 verify "$scratch/fifo.pdb"
run "verify --against a FIFO" 4 verify "$fringe" --against "$scratch/fifo.manifest.txt" &&
  expect_in "verify --against a FIFO: named" "$err" "fifo.manifest.txt: not a regular file \(a FIFO\)"
pdbgen=$pdbgen_untimed
rm -f "$scratch/fifo.pdb" "$scratch/fifo.manifest.txt"

# ---------------------------------------------------------------------------------------
# Messages: the bare usage names every command; --level where nothing is compressed is refused.
run "pdbgen alone" 2 && expect_in "pdbgen alone names package" "$err" "pack, unpack, package\)"
run "--level with --encoding raw" 2 build --preset 8-4-4 --out "$scratch/lvl" --encoding raw --level 9 -q &&
  expect_in "--level with raw: named" "$err" "--level sets the zstd level: it does not apply to --encoding raw"
checks=$((checks + 1))
[ ! -e "$scratch/lvl/manifest.txt" ] || fail "--level with raw still built the set"
run "unpack --level" 2 unpack "$fringe" "$scratch/lvl2" --level 9 &&
  expect_in "unpack --level: named" "$err" "does not apply to unpack"
run "--help documents --max-memory 0" 0 build --help &&
  expect_in "--max-memory 0" "$(tr -s ' \n' '  ' <<<"$out")" "0 = the memory available"

# ---------------------------------------------------------------------------------------
# Failed writes to stdout: one line naming standard output, exit 4, for every command.
if [ -w /dev/full ]; then
  for cmd in "presets" "--help" "info $fringe" "verify $fringe" "info $fringe/full-1-2-3-4-7.pdb"; do
    checks=$((checks + 1))
    # shellcheck disable=SC2086
    "$pdbgen" $cmd >/dev/full 2>"$scratch/err"
    got=$?
    [ "$got" = 4 ] || fail "pdbgen $cmd >/dev/full: exit $got, expected 4"
    checks=$((checks + 1))
    [ "$(cat "$scratch/err")" = "pdbgen: cannot write to standard output: No space left on device" ] ||
      fail "pdbgen $cmd >/dev/full: stderr: $(head -c 300 "$scratch/err")"
  done
fi

# ---------------------------------------------------------------------------------------
# One set per folder (issue 21 item 14): building another set into a folder that holds one
# is refused before anything is written (its tables would be named by no manifest); the same
# set again (another encoding here) is a rebuild and goes ahead.
one="$scratch/one-set"
run "first set" 0 build --preset 8-4-4 --out "$one" -q
run "another preset into its folder" 2 build --preset 8-fringe --out "$one" -q
expect_in "another preset into its folder" "$err" "^pdbgen: $one already holds the set 8-4-4 \(additive-1-2-4-5.pdb, additive-3-6-7-8.pdb\); building 8-fringe there"
checks=$((checks + 1))
[ ! -e "$one/full-1-2-3-4-7.pdb" ] && grep -q "^name 8-4-4$" "$one/manifest.txt" ||
  fail "another preset into its folder: the folder changed: $(ls "$one")"
run "another goal into its folder" 2 build --size 3x3 --goal blank-first --pattern 1,2,4,5 --pattern 3,6,7,8 \
  --name 8-4-4 --out "$one" -q
expect_in "another goal into its folder" "$err" "already holds the set 8-4-4"
run "the same set again" 0 build --preset 8-4-4 --out "$one" --encoding raw -q
run "verify after the refusals" 0 verify "$one" --against "$root_ref/8-4-4.manifest.txt"

# ---------------------------------------------------------------------------------------
if [ "$failures" -ne 0 ]; then
  echo "pdbgen_cli: $failures of $checks checks failed" >&2
  exit 1
fi
rm -rf "$scratch"
echo "pdbgen_cli: all $checks checks passed"
exit 0
