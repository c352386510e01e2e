#!/usr/bin/env bash
# Command-line tests of the solver with pattern databases that pdbgen builds here (15-5-5-5,
# 8-fringe, 8-4-4; ~1.5 s in all): batches in input order with a summary, -j 2, --json
# (every solution replayed by an independent checker, tests/solver_pdb_check.py),
# time and node limits, table discovery through LOYD_PDB_PATH and the fallback to linear
# conflict, and refusals of damaged or mismatched tables (exit 4, one-line message naming the
# file), and a set made by pdbgen combine. Known lengths come from data/korf100.tsv (Korf
# 1985) and, for 3x3, from the checker's own breadth-first search.
#
# Usage: solver_pdb_cli_test.sh SOLVER PDBGEN SCRATCH_DIR
# SCRATCH_DIR is emptied and reused (and removed when every check passes). HOME,
# XDG_DATA_HOME and XDG_CACHE_HOME point into it, so nothing is read from or written to the
# real home. Prints one line per failed check and exits 1 if any check failed (tests/harness.sh).
. "$(dirname "$0")/harness.sh"
harness_args 3 "SOLVER PDBGEN SCRATCH_DIR" "$@"
program solver "$1"
program pdbgen "$2"
scratch_dir "$3"
mkdir -p "$scratch/home"
export HOME="$scratch/home" XDG_DATA_HOME="$scratch/home/data" XDG_CACHE_HOME="$scratch/home/cache"
unset LOYD_PDB_PATH

# check_records NAME WxH GOAL INSTANCES plain|json [OPTIONS]: the last run's stdout passes
# tests/solver_pdb_check.py records (input order, replayed solutions, known lengths).
check_records() {
  local name=$1 size=$2 goal=$3 input=$4 fmt=$5
  shift 5
  expect_py "$name" solver_pdb_check.py records "$size" "$goal" "$input" "$scratch/out" "$fmt" "$@"
}

# Instances from data/korf100.tsv (goal blank first) as "korf-ID: tiles" on stdout; their
# optimal lengths are appended to $scratch/optimal as "korf-ID LENGTH".
korf() {
  for id in "$@"; do
    awk -F'\t' -v id="$id" '!/^#/ && $1 == id { printf "korf-%s: %s\n", $1, $2 }' "$repo/data/korf100.tsv"
    awk -F'\t' -v id="$id" '!/^#/ && $1 == id { printf "korf-%s %s\n", $1, $4 }' "$repo/data/korf100.tsv" \
      >>"$scratch/optimal"
  done
}

# ---------------------------------------------------------------------------------------
# Tables.
for set in 15-5-5-5 8-fringe 8-4-4; do
  expect_run "build $set" 0 "$pdbgen" build --preset "$set" --out "$scratch/sets/$set" -j 1 -q || finish
done
s15="$scratch/sets/15-5-5-5"

# Five easy Korf instances (under 35,000 nodes each with 15-5-5-5), not in id order.
korf 55 12 97 79 42 >"$scratch/easy.txt"
[ "$(wc -l <"$scratch/easy.txt")" = 5 ] || { fail "could not read data/korf100.tsv"; finish; }

# ---------------------------------------------------------------------------------------
# Batches.
if expect_run "batch" 0 "$solver" --pdb "$s15" --goal blank-first --cache-dir none -j 1 --input "$scratch/easy.txt"; then
  check_records "batch" 4x4 blank-first "$scratch/easy.txt" plain --optimal "$scratch/optimal"
  cut -d' ' -f1-3 "$scratch/out" | head -5 >"$scratch/lengths1"
fi
if expect_run "batch -j 2" 0 "$solver" --pdb "$s15" --goal blank-first --cache-dir none -j 2 --input "$scratch/easy.txt"; then
  check_records "batch -j 2" 4x4 blank-first "$scratch/easy.txt" plain --optimal "$scratch/optimal"
  cut -d' ' -f1-3 "$scratch/out" | head -5 >"$scratch/lengths2"
  count_check
  cmp -s "$scratch/lengths1" "$scratch/lengths2" || fail "-j 2 gave other lengths or order: $(paste -d'|' "$scratch/lengths1" "$scratch/lengths2")"
  grep -q "threads 2$" "$scratch/out" || fail "-j 2: summary does not say 2 threads: $(tail -1 "$scratch/out")"
fi
if expect_run "batch --json" 0 "$solver" --pdb "$s15" --goal blank-first --cache-dir none -j 2 --json --input "$scratch/easy.txt"; then
  check_records "batch --json" 4x4 blank-first "$scratch/easy.txt" json --optimal "$scratch/optimal" --heuristic pdb:15-5-5-5
fi
# The manifest path works as well as the folder; the table folder may be zstd or raw.
expect_run "unpack" 0 "$pdbgen" unpack "$s15" "$scratch/sets/raw15" -q
if expect_run "raw tables" 0 "$solver" --pdb "$scratch/sets/raw15/manifest.txt" --goal blank-first --cache-dir none --json \
  --input "$scratch/easy.txt"; then
  check_records "raw tables" 4x4 blank-first "$scratch/easy.txt" json --optimal "$scratch/optimal" --heuristic pdb:15-5-5-5
fi
# Without reflection: same lengths.
if expect_run "--no-reflect" 0 "$solver" --pdb "$s15" --no-reflect --goal blank-first --cache-dir none --input "$scratch/easy.txt"; then
  check_records "--no-reflect" 4x4 blank-first "$scratch/easy.txt" plain --optimal "$scratch/optimal"
fi

# Every lookup combination, with and without the pruning automaton and BPMX: same optimal
# lengths, every solution replayed; the JSON names the lookups that ran.
for opts in "--lookups all" "--lookups regular,dual --no-bpmx" "--lookups dual-reflected,regular --no-prune" \
  "--lookups regular --no-prune --no-bpmx"; do
  # shellcheck disable=SC2086
  if expect_run "$opts" 0 "$solver" --pdb "$s15" $opts --goal blank-first --cache-dir none --json -j 1 --input "$scratch/easy.txt"; then
    check_records "$opts" 4x4 blank-first "$scratch/easy.txt" json --optimal "$scratch/optimal" --heuristic pdb:15-5-5-5
  fi
done
expect_run "--lookups all json" 0 "$solver" --pdb "$s15" --lookups all --goal blank-first --cache-dir none --json -j 1 \
  --input "$scratch/easy.txt"
count_check
[ "$(grep -c '"lookups":"regular,reflected,dual,dual-reflected"' "$scratch/out")" = 5 ] ||
  fail "--lookups all: JSON does not report the four lookups: $(head -c 600 "$scratch/out")"
expect_run "default lookups json" 0 "$solver" --pdb "$s15" --goal blank-first --cache-dir none --json -j 1 --input "$scratch/easy.txt"
count_check
[ "$(grep -c '"lookups":"regular,reflected"' "$scratch/out")" = 5 ] ||
  fail "default lookups: JSON does not report regular,reflected: $(head -c 600 "$scratch/out")"
# --lookups asking for what the tables cannot take (no reflection on a 4x2 board): said once on
# stderr, naming what ran; -q silences it; without --lookups nothing is said.
expect_run "a 4x2 set" 0 "$pdbgen" build --size 4x2 --pattern 1,2,3 --pattern 4,5,6,7 --out "$scratch/s42" -q
printf '5 1 0 2/4 3 6 7\n5 1 2 0/4 3 6 7\n' >"$scratch/b42.txt"
expect_run "--lookups reflected on 4x2" 0 "$solver" --pdb "$scratch/s42" --lookups reflected,dual-reflected -j 1 --input "$scratch/b42.txt"
expect_err_line "--lookups reflected on 4x2: noted" "solver: note: --lookups reflected,dual-reflected cannot run for $scratch/b42.txt:1 (a reflected lookup needs" "); ran regular (said once)"
expect "--lookups reflected on 4x2: noted once" [ "$(grep -c 'note: --lookups' "$scratch/err")" = 1 ]
# An MTM set takes no dual lookup: each kind left out is given its own reason.
expect_run "a 4x2 MTM set" 0 "$pdbgen" build --size 4x2 --pattern 1,2,3,4 --metric mtm --out "$scratch/m42" -q
expect_run "--lookups all on a 4x2 MTM set" 0 "$solver" --metric mtm --pdb "$scratch/m42" --lookups all -j 1 --input "$scratch/b42.txt"
expect_err_line "--lookups all on a 4x2 MTM set: both reasons" "solver: note: --lookups reflected,dual,dual-reflected cannot run for $scratch/b42.txt:1 (a reflected lookup needs a square board whose goal has the blank on the main diagonal, and tables built with it; MTM tables take no dual lookup); ran regular (said once)"
expect_run "--lookups dual on a 3x3 MTM set" 0 "$solver" --metric mtm --pdb "$repo/data/8-mtm-fringe" --lookups dual -j 1 8 2 0 4 6 1 3 7 5
expect_err_line "--lookups dual on a 3x3 MTM set: that reason alone" "solver: note: --lookups dual cannot run for argument 1 (MTM tables take no dual lookup); ran regular (said once)"
# On a square MTM set with reflection, dual-reflected is left out for being dual, not reflected.
expect_run "--lookups all on a 3x3 MTM set" 0 "$solver" --metric mtm --pdb "$repo/data/8-mtm-fringe" --lookups all -j 1 8 2 0 4 6 1 3 7 5
expect_err_line "--lookups all on a 3x3 MTM set: the dual reason alone" "solver: note: --lookups dual,dual-reflected cannot run for argument 1 (MTM tables take no dual lookup); ran regular,reflected (said once)"
# A classic heuristic reads no tables: every lookup asked is left out, said once.
expect_run "--lookups all with manhattan" 0 "$solver" --heuristic manhattan --lookups all -j 1 8 6 7 2 5 4 3 0 1
expect_err_line "--lookups all with manhattan: noted" "solver: note: --lookups regular,reflected,dual,dual-reflected cannot run for argument 1 (the manhattan heuristic reads no tables); ran none (said once)"
expect_run "--lookups on a board without tables" 0 "$solver" --lookups reflected -j 1 --size 4x3 1 2 3 4 5 6 7 8 9 10 0 11
expect_err_line "--lookups on a board without tables: noted" "solver: note: --lookups regular,reflected cannot run for argument 1 (the linear-conflict heuristic reads no tables); ran none (said once)"
expect_run "--lookups all on 4x2 -q" 0 "$solver" -q --pdb "$scratch/s42" --lookups all -j 1 --input "$scratch/b42.txt"
expect_no_err "--lookups all on 4x2 -q"
expect_run "default lookups on 4x2" 0 "$solver" --pdb "$scratch/s42" -j 1 --input "$scratch/b42.txt"
expect_no_err "default lookups on 4x2"
expect_run "--lookups bad" 2 "$solver" --pdb "$s15" --lookups regular,mirror --goal blank-first "$scratch/easy.txt" &&
  expect_err_line "--lookups bad" "mirror"
expect_run "--lookups reflected with --no-reflect" 2 "$solver" --pdb "$s15" --lookups regular,reflected --no-reflect --goal blank-first "$scratch/easy.txt" &&
  expect_err_line "--lookups reflected with --no-reflect" "asks for reflected lookups that --no-reflect leaves out"
expect_run "--lookups regular with --no-reflect" 0 "$solver" --pdb "$s15" --lookups regular --no-reflect --goal blank-first --input "$scratch/easy.txt"
# One instance and two threads: its search (1.2 M nodes) is split, the JSON says so, the length
# is optimal. A short one (11 k nodes) stays on one thread: no "threads" in its record.
korf 12 >"$scratch/short.txt"
if expect_run "short instance -j 2" 0 "$solver" --pdb "$s15" --goal blank-first --cache-dir none --json -j 2 --input "$scratch/short.txt"; then
  check_records "short instance -j 2" 4x4 blank-first "$scratch/short.txt" json --optimal "$scratch/optimal"
  count_check
  grep -q '"threads"' "$scratch/out" && fail "short instance -j 2: split although short: $(cat "$scratch/out")"
fi
korf 98 >"$scratch/split.txt"
if expect_run "one instance -j 2" 0 "$solver" --pdb "$s15" --goal blank-first --cache-dir none --json -j 2 --input "$scratch/split.txt"; then
  check_records "one instance -j 2" 4x4 blank-first "$scratch/split.txt" json --optimal "$scratch/optimal"
  count_check
  grep -q '"threads":2' "$scratch/out" || fail "one instance -j 2: JSON does not say 2 threads: $(cat "$scratch/out")"
fi

# ---------------------------------------------------------------------------------------
# Limits: korf 3 (59 moves) takes minutes with Manhattan and far more than 100 nodes with
# any heuristic.
korf 3 >"$scratch/hard.txt"
if expect_run "--time-limit" 3 "$solver" --heuristic manhattan --time-limit 0.001 --goal blank-first --json --input "$scratch/hard.txt"; then
  check_records "--time-limit" 4x4 blank-first "$scratch/hard.txt" json --status limit
  grep -q '"error":"time limit"' "$scratch/out" || fail "--time-limit: no time-limit error: $(cat "$scratch/out")"
fi
if expect_run "--node-limit" 3 "$solver" --pdb "$s15" --node-limit 100 --goal blank-first --cache-dir none --json \
  --input "$scratch/hard.txt"; then
  check_records "--node-limit" 4x4 blank-first "$scratch/hard.txt" json --status limit --heuristic pdb:15-5-5-5
  grep -q '"error":"node limit"' "$scratch/out" || fail "--node-limit: no node-limit error: $(cat "$scratch/out")"
fi
# A limit reports the lower bound proven (the last bound IDA* exhausted), at least h(start).
expect_py "--node-limit: lower_bound >= heuristic_start" solver_pdb_check.py lower-bound "$scratch/out"
# Labels and messages holding bytes that are not UTF-8 still give valid UTF-8 JSON.
printf 'caf\xe9 \xff\xfe: 1 2 3 4 5 6 7 8 0\nbad\xc3: 1 2 3 x\n' >"$scratch/latin1.txt"
expect_run "non-UTF-8 labels" 1 "$solver" --pdb "$scratch/sets/8-4-4" --cache-dir none --json --input "$scratch/latin1.txt"
expect_py "non-UTF-8 labels: valid UTF-8 JSON" solver_pdb_check.py utf8-labels "$scratch/out"
if expect_run "--node-limit plain" 3 "$solver" --pdb "$s15" --node-limit 100 --goal blank-first --cache-dir none \
  --input "$scratch/hard.txt"; then
  check_records "--node-limit plain" 4x4 blank-first "$scratch/hard.txt" plain --status limit
fi

# ---------------------------------------------------------------------------------------
# 3x3 with the fringe table and the 4-4 partition, lengths from the checker's BFS (two of the
# three 31-move positions among them).
cat >"$scratch/eight.txt" <<'EOF'
a: 8 6 7 2 5 4 3 0 1
b: 6 4 7 8 5 0 3 2 1
c: 1 2 3 4 5 6 0 7 8
d: 0 1 2 3 4 5 6 7 8
e: 1 2 3 4 5 6 7 8 0
f: 5 1 8 0 4 6 7 3 2
EOF
for set in 8-fringe 8-4-4; do
  if expect_run "3x3 $set" 0 "$solver" --pdb "$scratch/sets/$set" --cache-dir none --json --input "$scratch/eight.txt"; then
    check_records "3x3 $set" 3x3 blank-last "$scratch/eight.txt" json --bfs --heuristic "pdb:$set"
  fi
done
# Sets combined by max (pdbgen combine): 8-4-4 and a 3-3 partition, in IDA* (which reads the
# second partition only for children the first leaves inside the bound) and in A*.
expect_run "build rows" 0 "$pdbgen" build --size 3x3 --pattern 1,2,3 --pattern 4,5,6 --name rows --out "$scratch/sets/rows" -q
expect_run "combine 8-4-4 and rows" 0 "$pdbgen" combine "$scratch/sets/8-4-4" "$scratch/sets/rows" --out "$scratch/sets/max" -q
for alg in ida astar; do
  if expect_run "3x3 combined, $alg" 0 "$solver" --pdb "$scratch/sets/max" --algorithm $alg --cache-dir none --json --input "$scratch/eight.txt"; then
    check_records "3x3 combined, $alg" 3x3 blank-last "$scratch/eight.txt" json --bfs --heuristic "pdb:8-4-4+rows"
  fi
done
# Blank-first 3x3 instances on the blank-last fringe table, through the goal mapping.
if expect_run "3x3 blank-first" 0 "$solver" --pdb "$scratch/sets/8-fringe" --goal blank-first --cache-dir none --json \
  --input "$scratch/eight.txt"; then
  check_records "3x3 blank-first" 3x3 blank-first "$scratch/eight.txt" json --bfs --heuristic pdb:8-fringe
fi

# A streamed batch longer than the reading window (8 lines per thread): records come out in
# input order, one per instance line (blank lines and comments skip), invalid lines included.
py solver_pdb_check.py make-stream "$scratch/stream.txt"
expect_run "streamed batch" 1 "$solver" --pdb "$scratch/sets/8-4-4" --cache-dir none --json -j 3 --input "$scratch/stream.txt"
expect_py "streamed batch: records in order, none missing" solver_pdb_check.py streamed "$scratch/out"

# A* uses the tables it finds, as the help says (the 3x3 sets through LOYD_PDB_PATH).
if LOYD_PDB_PATH="$scratch/sets/8-4-4" expect_run "astar finds tables" 0 "$solver" --algorithm astar --cache-dir none --json \
  --input "$scratch/eight.txt"; then
  check_records "astar finds tables" 3x3 blank-last "$scratch/eight.txt" json --bfs --heuristic pdb:8-4-4
fi
# pdbgen: info on a set folder describes the set; no command is a short usage on stderr; -V.
expect_run "info on a set" 0 "$pdbgen" info "$scratch/sets/8-4-4"
count_check
grep -q "^set  *8-4-4" "$scratch/out" && grep -q "additive-1-2-4-5.pdb: additive 1,2,4,5" "$scratch/out" ||
  fail "pdbgen info DIR: $(head -c 400 "$scratch/out")"
expect_run "pdbgen without a command" 2 "$pdbgen"
count_check
[ ! -s "$scratch/out" ] && grep -q "Usage: pdbgen" "$scratch/err" || fail "pdbgen alone: usage not on stderr"
expect_run "pdbgen -V" 0 "$pdbgen" -V
expect_run "solver -V" 0 "$solver" -V
count_check
grep -q "solver (loyd)" "$scratch/out" || fail "solver -V: $(cat "$scratch/out")"
expect_run "solver --help" 0 "$solver" --help
count_check
head -3 "$scratch/out" | grep -q "Examples:" && grep -q "LOYD_PDB_PATH" "$scratch/out" && grep -q "Exit status" "$scratch/out" ||
  fail "solver --help lacks examples, environment or exit codes"

# Tables for another board: each such line is invalid, named with both sizes (exit 1).
expect_run "3x3 set, 4x4 instance" 1 "$solver" --pdb "$scratch/sets/8-fringe" --goal blank-first --cache-dir none \
  --input "$scratch/easy.txt"
count_check
[ "$(grep -c ': invalid: the tables in .* are for 3x3 boards, the instance is 4x4$' "$scratch/out")" = \
  "$(grep -c . "$scratch/easy.txt")" ] || fail "3x3 set, 4x4 instance: not every line invalid: $(head -c 600 "$scratch/out")"

# ---------------------------------------------------------------------------------------
# Discovery. With LOYD_PDB_PATH pointing at the built set (and HOME empty), it is used.
korf 12 >"$scratch/one.txt"
one=$(cut -d: -f2 "$scratch/one.txt" | cut -d'#' -f1)
# shellcheck disable=SC2086
if LOYD_PDB_PATH="$s15" expect_run "LOYD_PDB_PATH" 0 "$solver" --goal blank-first --json $one; then
  count_check
  grep -q '"heuristic":"pdb:15-5-5-5"' "$scratch/out" || fail "LOYD_PDB_PATH: not using pdb:15-5-5-5: $(cat "$scratch/out")"
  grep -q '"status":"solved","length":45,' "$scratch/out" || fail "LOYD_PDB_PATH: not solved at 45: $(cat "$scratch/out")"
fi
# A renamed copy proves the set came from LOYD_PDB_PATH (before any shipped set of equal
# strength), also when the path names the folder holding sets.
mkdir -p "$scratch/path/sub"
cp -r "$s15" "$scratch/path/sub/mine"
sed -i 's/^name .*/name mine-15/' "$scratch/path/sub/mine/manifest.txt"
# shellcheck disable=SC2086
if LOYD_PDB_PATH="$scratch/nowhere:$scratch/path/sub" expect_run "LOYD_PDB_PATH folder of sets" 0 "$solver" --goal blank-first --json $one; then
  count_check
  grep -q '"heuristic":"pdb:mine-15"' "$scratch/out" || fail "LOYD_PDB_PATH folder of sets: not using mine-15: $(cat "$scratch/out")"
fi
# A set in $XDG_DATA_HOME/loyd/pdb is found too.
mkdir -p "$XDG_DATA_HOME/loyd/pdb"
cp -r "$scratch/path/sub/mine" "$XDG_DATA_HOME/loyd/pdb/mine"
# shellcheck disable=SC2086
if expect_run "XDG_DATA_HOME" 0 "$solver" --goal blank-first --json $one; then
  count_check
  grep -q '"heuristic":"pdb:mine-15"' "$scratch/out" || fail "XDG_DATA_HOME: not using mine-15: $(cat "$scratch/out")"
fi
rm -rf "$XDG_DATA_HOME/loyd"
# The strongest set found is damaged: the next one is used (not linear conflict), and stderr
# names the damaged set and the one used instead.
mkdir -p "$scratch/dmgpath"
cp -r "$s15" "$scratch/dmgpath/a-damaged"
cp -r "$scratch/path/sub/mine" "$scratch/dmgpath/b-next"
py table_damage.py xor "$scratch/dmgpath/a-damaged/additive-5-9-10-13-14.pdb" middle 0x04
# shellcheck disable=SC2086
if LOYD_PDB_PATH="$scratch/dmgpath" expect_run "damaged strongest set" 0 "$solver" --goal blank-first --cache-dir none --json $one; then
  count_check
  grep -q '"heuristic":"pdb:mine-15"' "$scratch/out" || fail "damaged strongest set: not using the next set: $(cat "$scratch/out")"
  count_check
  grep -qF "solver: not using $scratch/dmgpath/a-damaged/manifest.txt: " "$scratch/err" &&
    grep -qF "; using the next set found, $scratch/dmgpath/b-next/manifest.txt" "$scratch/err" ||
    fail "damaged strongest set: stderr does not say so: $(cat "$scratch/err")"
fi
# No 3x4 tables anywhere: the solver falls back to linear conflict; when tables would have
# helped, stderr names the pdbgen command that builds some.
printf 'r: 1 2 3 4 5 6 0 7 9 10 8 11\n' >"$scratch/rect.txt"
if expect_run "3x4 fallback" 0 "$solver" --size 3x4 --json --input "$scratch/rect.txt"; then
  count_check
  grep -q '"heuristic":"linear-conflict"' "$scratch/out" || fail "3x4 fallback: not linear conflict: $(cat "$scratch/out")"
  [ ! -s "$scratch/err" ] || fail "3x4 fallback: a hint after a fast solve: $(cat "$scratch/err")"
  expect_py "3x4 fallback: the solution replays" solver_pdb_check.py fallback-3x4 "$scratch/out"
fi
# When tables would have helped (here: a node limit hit), one hint names a command that runs
# as printed, with its cost; -q silences it. After running it, the solver uses those tables.
printf 'h: 0 11 10 9 8 7 6 5 4 3 1 2\n' >"$scratch/hard34.txt"
expect_run "3x4 hint" 3 "$solver" --size 3x4 --node-limit 2000 --input "$scratch/hard34.txt"
count_check
# (3x4 tables build in well under a minute: the hint says so, not "about 1 min".)
hint=$(grep -Ec "for faster solving build tables \(under a minute on 2 cores, [0-9]+\.[0-9] (KiB|MiB) of memory" "$scratch/err")
[ "$hint" = 1 ] || fail "3x4 hint: expected one hint with its cost: $(cat "$scratch/err")"
expect_run "3x4 hint -q" 3 "$solver" -q --size 3x4 --node-limit 2000 --input "$scratch/hard34.txt"
count_check
grep -q "faster" "$scratch/err" && fail "-q: the hint is still printed"
cmd=$(sed -En 's/.*[KM]iB on disk\): //p' "$scratch/err" | head -1)
expect_run "3x4 hint again" 3 "$solver" --size 3x4 --node-limit 2000 --input "$scratch/hard34.txt"
cmd=$(sed -En 's/.*[KM]iB on disk\): //p' "$scratch/err" | head -1)
count_check
if [ -z "$cmd" ] || ! eval "$cmd -q -j 2" >"$scratch/hintbuild.out" 2>&1; then
  fail "the hinted command does not run as printed: '$cmd': $(cat "$scratch/hintbuild.out" 2>/dev/null)"
else
  expect_run "3x4 with the hinted tables" 0 "$solver" --size 3x4 --json --input "$scratch/rect.txt"
  count_check
  grep -q '"heuristic":"pdb:blocks-3x4"' "$scratch/out" || fail "hinted tables not used: $(cat "$scratch/out")"
  rm -rf "$XDG_DATA_HOME/loyd"
fi
# Tables used that are not the set suggested, but hold some of its tables: the hint's command
# reuses them (--reuse, the cost counting only the others), and runs as printed.
expect_run "a set holding one of 8-4-4's tables" 0 "$pdbgen" build --size 3x3 --pattern 1,2,4,5 --name part --out "$scratch/partpath/part" -q
printf 'h: 8 6 7 2 5 4 3 0 1\n' >"$scratch/hard33.txt"
# (Copies of the programs, away from the build tree, whose data/ ships 8-4-4 itself.)
mkdir -p "$scratch/bin"
cp "$solver" "$pdbgen" "$scratch/bin/"
LOYD_PDB_PATH="$scratch/partpath" expect_run "reuse hint" 3 "$scratch/bin/solver" --node-limit 50 --input "$scratch/hard33.txt"
expect_err "reuse hint: names the set used and what it reuses" "used the part tables from $scratch/partpath/part; for faster solving build tables \(under a minute on 2 cores, .*, reusing 1 table of the set in $scratch/partpath/part\): $scratch/bin/pdbgen build --preset 8-4-4 --reuse $scratch/partpath/part --out "
cmd=$(sed -En 's/.*of the set in [^)]*\): //p' "$scratch/err" | head -1)
if [ -z "$cmd" ] || ! eval "$cmd -j 2" >"$scratch/hintbuild.out" 2>&1; then
  fail "the reusing command does not run as printed: '$cmd': $(cat "$scratch/hintbuild.out" 2>/dev/null)"
else
  grep -q "additive-1-2-4-5.pdb: reusing $scratch/partpath/part/additive-1-2-4-5.pdb" "$scratch/hintbuild.out" ||
    fail "the reusing command did not reuse: $(cat "$scratch/hintbuild.out")"
  expect "the reused table is linked" [ "$XDG_DATA_HOME/loyd/pdb/8-4-4/additive-1-2-4-5.pdb" -ef "$scratch/partpath/part/additive-1-2-4-5.pdb" ]
  rm -rf "$XDG_DATA_HOME/loyd"
fi
# A set under another name holding every table of the set suggested: no hint (building would
# give the same heuristic).
expect_run "a twin of 8-4-4" 0 "$pdbgen" build --size 3x3 --pattern 1,2,4,5 --pattern 3,6,7,8 --name twin --out "$scratch/twinpath/twin" -q
LOYD_PDB_PATH="$scratch/twinpath" expect_run "twin: no hint" 3 "$scratch/bin/solver" --node-limit 50 --json --input "$scratch/hard33.txt"
expect_out "twin: the twin tables used" '"heuristic":"pdb:twin"'
expect "twin: no hint" sh -c "! grep -q 'faster' '$scratch/err'"
LOYD_PDB_PATH="$scratch/partpath" expect_run "part: the hint again" 3 "$scratch/bin/solver" --node-limit 50 --input "$scratch/hard33.txt"
expect_err "part: the hint again" "for faster solving build tables"
# Where no preset fits, a set weaker than the blocks suggested (the rows an earlier loyd
# suggested for 3x4) gets the hint too, its command under a name of its own.
expect_run "rows of 3x4" 0 "$pdbgen" build --size 3x4 --pattern 1,2,3 --pattern 4,5,6 --pattern 7,8,9 --pattern 10,11 --name custom-3x4 --out "$scratch/rowspath/custom-3x4" -q
LOYD_PDB_PATH="$scratch/rowspath" expect_run "rows: the hint" 3 "$scratch/bin/solver" --size 3x4 --node-limit 2000 --input "$scratch/hard34.txt"
expect_err "rows: the hint" "used the custom-3x4 tables from $scratch/rowspath/custom-3x4; for faster solving build tables .*--name blocks-3x4 "
# In a batch of several boards the hint is for the board whose search needed tables (here the
# second line's 3x4, not the first line's 4x2).
printf 'easy: 1 2 3 4/5 6 0 7\nh: 0 11 10/9 8 7/6 5 4/3 1 2\n' >"$scratch/mixed.txt"
expect_run "mixed hint" 3 "$solver" --node-limit 2000 --input "$scratch/mixed.txt"
expect_err "mixed hint: for the 3x4" "no pattern databases found for 3x4; .*--name blocks-3x4 "
count_check
grep -q "4x2" "$scratch/err" && fail "mixed hint: names the 4x2 board: $(cat "$scratch/err")"
# Asking for tables where there are none is an error, not a silent fallback.
expect_run "3x4 --heuristic pdb" 2 "$solver" --size 3x4 --heuristic pdb --input "$scratch/rect.txt" &&
  expect_err_line "3x4 --heuristic pdb" "build them with: $(dirname "$solver")/pdbgen build --size 3x4 "

# ---------------------------------------------------------------------------------------
# Progress: one instance searched for over a second on a terminal (util-linux `script` gives
# it one) shows "bound ..., nodes (thousands separated), s, M nodes/s" on a line it erases
# before the answer; with stderr not a terminal, nothing. Korf #60 with Manhattan alone cannot finish within its 2 s time limit on
# any machine (it needs billions of nodes), so the expect_run lasts 2 s however fast the search is.
korf 60 >"$scratch/slow.txt"
slow=$(cut -d: -f2 "$scratch/slow.txt")
slow_cmd="$solver -j 1 --heuristic manhattan --time-limit 2 --goal blank-first $slow"
if command -v script >/dev/null; then
  script -qc "$slow_cmd" /dev/null >"$scratch/tty.out" 2>&1
  expect_py "progress on a terminal" solver_pdb_check.py progress "$scratch/tty.out"
  script -qc "$slow_cmd 2>$scratch/notty.err" /dev/null >/dev/null 2>&1
  count_check
  ! grep -q "bound" "$scratch/notty.err" || fail "progress written to a stderr that is not a terminal: $(head -c 200 "$scratch/notty.err")"
fi

# ---------------------------------------------------------------------------------------
# Kill tests: pdbgen build of 15-5-5-5 killed with SIGKILL at 20 random moments. After each,
# either the set is complete and matches the reference, or it does not look complete: verify
# fails and the solver refuses it (exit 4); every table file present is whole. Then a rerun
# finishes the set with the reference checksums and leaves no temporary file.
kd="$scratch/killed"
ref="$repo/data/reference/15-5-5-5.manifest.txt"
RANDOM=7
for i in $(seq 1 20); do
  "$pdbgen" build --preset 15-5-5-5 --out "$kd" -j 1 -q >/dev/null 2>&1 &
  victim_pid=$!
  sleep "0.$(printf '%03d' $((RANDOM % 450)))"  # an uninterrupted build takes about 0.4 s
  kill -9 "$victim_pid" 2>/dev/null
  wait "$victim_pid" 2>/dev/null
  count_check
  if [ -e "$kd/manifest.txt" ]; then
    "$pdbgen" verify "$kd" --against "$ref" >/dev/null 2>&1 || fail "kill $i: a manifest but the set does not verify"
  else
    "$pdbgen" verify "$kd" >/dev/null 2>&1 && fail "kill $i: verify accepts a set without its manifest"
    "$solver" --pdb "$kd" --goal blank-first --cache-dir none --input "$scratch/one.txt" >/dev/null 2>&1
    [ $? = 4 ] || fail "kill $i: the solver did not refuse the incomplete set with exit 4"
  fi
  for f in "$kd"/*.pdb; do
    [ -e "$f" ] || continue
    "$pdbgen" verify "$f" >/dev/null 2>&1 || fail "kill $i: $(basename "$f") is not whole"
  done
  # The next kill starts from a folder that does not look complete: every other time with no
  # table at all (temporary files of killed builds stay, for the rebuild to clear).
  rm -f "$kd/manifest.txt"
  [ $((i % 2)) = 0 ] && rm -f "$kd"/*.pdb
done
if expect_run "rebuild after kills" 0 "$pdbgen" build --preset 15-5-5-5 --out "$kd" -j 2 -q; then
  expect_run "verify after kills" 0 "$pdbgen" verify "$kd" --against "$ref"
  count_check
  [ -z "$(find "$kd" -name '*.tmp.*')" ] || fail "temporary files left after the rebuild: $(ls -a "$kd")"
fi

# ---------------------------------------------------------------------------------------
# Refusals: exit 4 and one line naming the file. Each case damages a fresh copy of 15-5-5-5.
victim=additive-5-9-10-13-14.pdb
fresh() {
  rm -rf "$scratch/bad"
  cp -r "$s15" "$scratch/bad"
}
refuse() {
  local name=$1
  shift
  expect_run "$name" 4 "$solver" --pdb "$scratch/bad" --goal blank-first --cache-dir none --input "$scratch/easy.txt" &&
    expect_err_line "$name" "$@"
}
fresh
py table_damage.py xor "$scratch/bad/$victim" middle 0x04
refuse "flipped byte" "$scratch/bad/$victim"
fresh
truncate -s -1 "$scratch/bad/$victim"
refuse "truncated table" "$scratch/bad/$victim"
fresh
truncate -s 100 "$scratch/bad/$victim"
refuse "table shorter than its header" "$scratch/bad/$victim"
fresh
cp "$scratch/sets/8-4-4/additive-1-2-4-5.pdb" "$scratch/bad/$victim"
refuse "3x3 table under a 4x4 name" "$scratch/bad/$victim"
fresh
sed -i 's/ xxh3=[0-9a-f]*//' "$scratch/bad/manifest.txt"
cp "$scratch/sets/8-4-4/additive-1-2-4-5.pdb" "$scratch/bad/$victim"
refuse "3x3 table, manifest without checksums" "$scratch/bad/$victim" "3x3"
fresh
sed -i 's/^goal .*/goal 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15/' "$scratch/bad/manifest.txt"
refuse "manifest goal edited" "$scratch/bad/additive-" "goal"
fresh
rm "$scratch/bad/$victim"
refuse "missing table" "$scratch/bad/$victim"
fresh
# Change the last hex digit of the victim's checksum.
py table_damage.py checksum "$scratch/bad/manifest.txt" "$scratch/bad/manifest.txt" last "$victim"
count_check
cmp -s "$s15/manifest.txt" "$scratch/bad/manifest.txt" && fail "could not edit the manifest's checksum"
refuse "manifest checksum" "$scratch/bad/$victim" "xxh3"
expect_run "missing set" 4 "$solver" --pdb "$scratch/no-such-set" --goal blank-first --cache-dir none --input "$scratch/easy.txt" &&
  expect_err_line "missing set" "$scratch/no-such-set"

# A FIFO where a table or the manifest is expected: refused at once (exit 4, one line), never
# waited on (`timeout` turns a hang into a failure); discovery skips such a set.
fresh
rm "$scratch/bad/$victim"
mkfifo "$scratch/bad/$victim"
expect_run "a FIFO for a table" 4 timeout 20 "$solver" --pdb "$scratch/bad" --goal blank-first --cache-dir none \
  --input "$scratch/easy.txt" && expect_err_line "a FIFO for a table" "$scratch/bad/$victim: not a regular file (a FIFO)"
mkdir -p "$scratch/fifo-manifest"
mkfifo "$scratch/fifo-manifest/manifest.txt"
expect_run "a FIFO manifest" 4 timeout 20 "$solver" --pdb "$scratch/fifo-manifest" --goal blank-first --cache-dir none \
  --input "$scratch/easy.txt" && expect_err_line "a FIFO manifest" "manifest.txt: not a regular file (a FIFO)"
mkdir -p "$scratch/fifo-path"
mv "$scratch/fifo-manifest" "$scratch/fifo-path/a"
mv "$scratch/bad" "$scratch/fifo-path/b"
# shellcheck disable=SC2086
if LOYD_PDB_PATH="$scratch/fifo-path:$s15" expect_run "discovery past FIFOs" 0 timeout 20 "$solver" --goal blank-first --json $one; then
  count_check
  grep -q '"heuristic":"pdb:15-5-5-5"' "$scratch/out" || fail "discovery past FIFOs: not using 15-5-5-5: $(cat "$scratch/out")"
fi

# Tables rewritten in place while in use (issue 21 item 6). A weak 2-2 set keeps Korf #88
# searching for many seconds; truncating a mapped table under it raises SIGBUS on the next
# read: one line naming the cause and status 4, not a crash.
expect_run "weak 2-2 set" 0 "$pdbgen" build --size 4x4 --goal blank-first --pattern 1,2 --pattern 3,4 --encoding raw \
  --out "$scratch/weak" -q || finish
cp -r "$scratch/weak" "$scratch/weak2"  # for the tests after this one
cp -r "$scratch/weak" "$scratch/weak3"
hard=$(awk -F'\t' '!/^#/ && $1 == 88 { print $2 }' "$repo/data/korf100.tsv")
# Returns once a process (the solver, a child of timeout) has mapped the table $1, and half a
# second more.
wait_mapped() {
  for _ in $(seq 300); do
    grep -qs "$1" /proc/[0-9]*/maps && break
    sleep 0.05
  done
  sleep 0.5
}
timeout 120 "$solver" --pdb "$scratch/weak" --goal blank-first --cache-dir none "$hard" >"$scratch/out" 2>"$scratch/err" &
pid=$!
wait_mapped "$scratch/weak/additive-1-2.pdb"
truncate -s 0 "$scratch/weak/additive-1-2.pdb"
wait "$pid"
ran "timeout 120 solver --pdb weak --goal blank-first --cache-dir none KORF-88, the table truncated once mapped" $?
expect_status "table truncated while mapped" 4
expect_err_line "table truncated while mapped" "SIGBUS" "additive-1-2.pdb: a memory-mapped table could not be read (SIGBUS): its file was truncated or rewritten while in use"
# A table rewritten in place under a running search (its entries zeroed: the search would run
# for hours): the search stops within a moment of the change, status 4 naming the table (the
# tables are checked every 0.2 s while searches run, not only before an answer is printed).
# Zeroes the entries of table $1 (after its 256-byte header) in place once a process has
# mapped it, then waits for the solver $pid and returns its status.
zero_once_mapped() {
  wait_mapped "$1"
  local size
  size=$(stat -c %s "$1")
  dd if=/dev/zero of="$1" bs=1 seek=256 count=$((size - 256)) conv=notrunc 2>/dev/null
  wait "$pid"
}
timeout 100 "$solver" --pdb "$scratch/weak2" --goal blank-first --cache-dir none "$hard" >"$scratch/out" 2>"$scratch/err" &
pid=$!
zero_once_mapped "$scratch/weak2/additive-1-2.pdb"
ran "timeout 100 solver --pdb weak2 --goal blank-first --cache-dir none KORF-88, the entries zeroed in place mid-search" $?
expect_status "table rewritten under a search" 4
expect_err_line "table rewritten under a search" "$scratch/weak2/additive-1-2.pdb: it was modified while in use"
[ -s "$scratch/out" ] && fail "table rewritten under a search: printed $(head -c 300 "$scratch/out")"
# The same with lines from a stream that stays open, two threads: one searches the hard line,
# the other, done with two easy ones, waits for the next line (holding the input); the watch
# must not wait for it (it did: the run went on until the input ended).
rm -f "$scratch/feed"
mkfifo "$scratch/feed"
timeout 100 "$solver" --pdb "$scratch/weak3" --goal blank-first --cache-dir none -j 2 <"$scratch/feed" \
  >"$scratch/out" 2>"$scratch/err" &
pid=$!
{
  echo "$hard"
  echo "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
  echo "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
  exec sleep 120
} >"$scratch/feed" &
feeder=$!
zero_once_mapped "$scratch/weak3/additive-1-2.pdb"
ran "timeout 100 solver --pdb weak3 -j 2 < a stream left open, the entries zeroed mid-search" $?
kill "$feeder" 2>/dev/null
wait "$feeder" 2>/dev/null
expect_status "table rewritten under a search, input open" 4
expect_err_line "table rewritten under a search, input open" "$scratch/weak3/additive-1-2.pdb: it was modified while in use"
# A batch whose table is rewritten in place between two lines: the answer that may rest on
# the changed entries is not printed; the run stops with the table's name and status 4.
# (Mapped tables only: a zstd table is decoded into memory and cannot change under a search.)
expect_run "raw 15-5-5-5" 0 "$pdbgen" build --preset 15-5-5-5 --encoding raw --out "$scratch/raw15" -j 1 -q || finish
lines=$(head -2 "$scratch/easy.txt")
# two_lines_around SET PAUSE_BEFORE PAUSE_AFTER CMD...: the solver on SET reads the first of
# $lines; once its answer is out (so the table was loaded as it was) and PAUSE_BEFORE seconds
# more, CMD changes a table, and PAUSE_AFTER seconds later the second line is sent.
two_lines_around() {
  local set=$1 before=$2 after=$3
  shift 3
  : >"$scratch/out"
  {
    echo "$lines" | head -1
    for _ in $(seq 300); do
      [ -s "$scratch/out" ] && break
      sleep 0.05
    done
    sleep "$before"
    "$@"
    sleep "$after"
    echo "$lines" | tail -1
  } | "$solver" --pdb "$set" --goal blank-first --cache-dir none -j 1 >"$scratch/out" 2>"$scratch/err"
  ran "solver --pdb $set --goal blank-first --cache-dir none -j 1, two lines around: $*" $?
}
two_lines_around "$scratch/raw15" 0.2 0.5 bash -c 'printf x >>"$1"' _ "$scratch/raw15/$victim"
expect_status "table rewritten between lines" 4
expect_err_line "table rewritten between lines" "$scratch/raw15/$victim: its size went from" "while in use"
[ "$(wc -l <"$scratch/out")" -le 1 ] || fail "table rewritten between lines: printed $(wc -l <"$scratch/out") answers"

# The same with the next line sent at once after the change (here only the modification time,
# set far in the past so a file system keeping whole seconds sees it too):
# the answer is checked before it is printed, not at most every 0.2 s (a README probe found the
# second answer printed and exit 0).
expect_run "raw 15-5-5-5 again" 0 "$pdbgen" build --preset 15-5-5-5 --encoding raw --out "$scratch/raw15b" -j 1 -q || finish
two_lines_around "$scratch/raw15b" 0 0 touch -d @1000000000 "$scratch/raw15b/$victim"
expect_status "table touched before a line" 4
expect_err_line "table touched before a line" "$scratch/raw15b/$victim: it was modified while in use"
[ "$(wc -l <"$scratch/out")" -le 1 ] || fail "table touched before a line: printed $(wc -l <"$scratch/out") answers"

# A first-time user on a terminal with a random 5x5 board and no 24-puzzle tables (issue 21
# item 15): told at once that the board needs tables, with the build command and its cost,
# then shown the progress (bound, nodes, rate). `script` gives the solver a terminal. The
# progress line comes once the search has run a second: the time limit leaves it seven more, as
# a loaded machine (CI runs two tests at once, some with many processes) can hold the process
# off the CPU for seconds (a CI run held it from about 1 s to past its 3 s limit).
b25=$("$solver" scramble --size 5x5 --seed 3)
if command -v script >/dev/null; then
  count_check
  script -qec "$(printf '%q ' "$solver" --time-limit 8 --cache-dir none "$b25")" /dev/null >"$scratch/tty" 2>&1
  got=$?
  [ "$got" = 3 ] || fail "5x5 on a terminal: exited $got, expected 3 (time limit): $(head -c 600 "$scratch/tty")"
  first=$(head -1 "$scratch/tty")
  for want in "no pattern databases found for 5x5" "pdbgen build --preset 24-6-6-6-6x2 " "min on 2 cores" "MiB of memory"; do
    count_check
    case "$first" in *"$want"*) ;; *) fail "5x5 on a terminal: first line lacks '$want': $first" ;; esac
  done
  count_check
  grep -q "hours or days" "$scratch/tty" || fail "5x5 on a terminal: no word on the wait: $(head -c 600 "$scratch/tty")"
  count_check
  grep -q "solver: bound [0-9]*, [0-9,]* nodes, [0-9.]* s, [0-9.]* M nodes/s" "$scratch/tty" ||
    fail "5x5 on a terminal: no progress line: $(head -c 600 "$scratch/tty")"
  count_check
  [ "$(grep -c "no pattern databases found" "$scratch/tty")" = 1 ] || fail "5x5 on a terminal: the hint repeated at the end"
  script -qec "$(printf '%q ' "$solver" -q --time-limit 0.5 --cache-dir none "$b25")" /dev/null >"$scratch/tty" 2>&1
  count_check
  ! grep -q "no pattern databases\|hours or days" "$scratch/tty" || fail "5x5 on a terminal with -q: $(head -c 600 "$scratch/tty")"
fi
# Not on a terminal (scripts, pipes): no notice at the start, the hint once at the end.
expect_run "5x5 piped" 3 "$solver" --time-limit 0.5 --cache-dir none "$b25"
count_check
! grep -q "hours or days" "$scratch/err" && grep -q "pdbgen build --preset 24-6-6-6-6x2 " "$scratch/err" ||
  fail "5x5 piped: $(head -c 600 "$scratch/err")"

finish
