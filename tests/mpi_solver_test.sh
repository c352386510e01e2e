#!/usr/bin/env bash
# The solver under real mpirun ranks on localhost:
# - a batch mixing 3x3 and 15-puzzle instances (with unsolvable, invalid, comment and labelled
#   lines) on 3 ranks prints what one process prints, byte for byte apart from the seconds, in
#   text and JSON, with the same exit status; `check` too; a per-instance node limit too;
# - mpirun -np 1 is the one-process run;
# - the multi-tile metric (a batch handed out, one instance) and --all/--count: the one-process
#   records;
# - one 15-puzzle instance (Korf #60, 66 moves) split over 3 ranks: its optimal length, the
#   moves replayed by an independent checker (tests/puzzle_oracle.py), node counts of all ranks;
#   a node limit counted over the ranks stops all of them (exit 3);
# - errors end every rank with one message and the documented status: an unreadable input (4),
#   a usage error (2), no instance (2), ranks holding different tables (4), a rank that cannot
#   load the tables (4, naming the rank).
#
# Usage: mpi_solver_test.sh SOLVER SCRATCH_DIR
# Exits 77 (skipped) when the solver is built without MPI or mpirun is missing; 1 if a check failed
# (tests/harness.sh). Inputs and checks in Python: tests/mpi_solver_check.py.
. "$(dirname "$0")/harness.sh"
harness_args 2 "SOLVER SCRATCH_DIR" "$@"
program solver "$1"
mpi_ready "$solver"
scratch_dir "$2"
# The shipped tables only (8-fringe, 8-4-4, 15-5-5-5), found the same way on every rank.
export LOYD_PDB_PATH=$repo/data XDG_DATA_HOME=$scratch/xdg

# run_as NAME EXPECTED_STATUS COMMAND...: expect_run, its stdout and stderr kept as
# $scratch/NAME.out and NAME.err.
run_as() {
  local name=$1
  expect_run "$@"
  keep_output "$name"
}
# timeless FILE: the file without its seconds (text and JSON) and the summary's threads (one
# process runs -j 3 on at most the CPUs it has; the ranks' threads are checked on their own).
# (And the resume tokens: one process prints them on a limit, ranks never: --resume is refused
# under mpirun.)
timeless() {
  sed -E 's/ resume r1\.[^ ]+$//; s/,"resume":"r1\.[^"]+"//;
          s/, search seconds [0-9.]+, table load seconds [0-9.]+//; s/ seconds [0-9.]+//g;
          s/"(seconds|search_seconds|load_seconds)":[0-9.]+//g; s/, threads [0-9]+$//;
          s/,"threads":[0-9]+\}\}$/}}/' "$1"
}
# same NAME A B: the two runs printed the same records (apart from the seconds).
same() {
  count_check
  if ! diff <(timeless "$scratch/$2.out") <(timeless "$scratch/$3.out") >"$scratch/$1.diff"; then
    fail "$1: $2 and $3 differ"
    head -20 "$scratch/$1.diff" >&2
  fi
}

# --------------------------------------------------------------------------------------
run_as version 0 "${mpi[@]}" -np 2 "$solver" --version
expect_once "version once, naming Open MPI" "$scratch/version.out" "^MPI: Open MPI"
expect_once "version once" "$scratch/version.out" "^solver \(loyd\)"
# --version or --help on one rank only: refused on every rank, exit 2, naming it (was a hang).
run_as version_one_rank 2 timeout 60 "${mpi[@]}" -np 1 "$solver" 8 6 7 2 5 4 3 0 1 : -np 1 "$solver" --version
expect_once "version on one rank: said" "$scratch/version_one_rank.err" "^solver: rank 1 runs solver --version, rank 0 runs solver with an instance or a command: under mpirun every rank runs the same command"
run_as help_one_rank 2 timeout 60 "${mpi[@]}" -np 1 "$solver" --help : -np 1 "$solver" 8 6 7 2 5 4 3 0 1
expect_once "help on one rank: said" "$scratch/help_one_rank.err" "^solver: rank 1 runs solver with an instance or a command, rank 0 runs solver --help"

# A first line over 64 KiB in a file: its record at once, and the batch after it handed out to
# the ranks as any other (it was taken for a paused input: every instance split over the ranks).
{
  head -c 70000 /dev/zero | tr '\0' 'a'
  echo
  for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do "$solver" scramble -q --size 3x3 --seed "$seed"; done
} >"$scratch/long.txt"
run_as long_two 1 timeout 60 "${mpi[@]}" -np 2 "$solver" -j 1 --json --input "$scratch/long.txt"
run_as long_one 1 "$solver" -j 1 --json --input "$scratch/long.txt"
same "a long first line: the one-process records" long_one long_two
expect "a long first line: no instance split over the ranks" not grep -q '"ranks"' "$scratch/long_two.out"

# The batch: random 3x3 positions (half cannot reach the goal), ten easy Korf instances,
# invalid lines, comments, a label; goal blank-first for both sizes.
py mpi_solver_check.py make-batch "$repo/data/korf100.txt" >"$scratch/batch.txt"
common=(--goal blank-first --cache-dir none --input "$scratch/batch.txt")
run_as one 1 "$solver" -j 3 "${common[@]}"
run_as three 1 "${mpi[@]}" -np 3 "$solver" -j 1 "${common[@]}"
same "batch on 3 ranks" one three
expect_file "batch: the 15-puzzle solved" "$scratch/three.out" "^korf-93: length 46 "
expect_file "batch: the summary" "$scratch/three.out" "^summary: instances 55, solved 29, unsolvable 22, limit 0, invalid 4, .* threads 3$"
count_check
# (one process on fewer than 3 CPUs also notes that -j 3 is more than it has)
diff <(grep -v -- '-j 3 is more than the' "$scratch/one.err" | grep -c .) <(grep -c '^solver: ' "$scratch/three.err") >/dev/null ||
  fail "batch on 3 ranks: messages differ: $(cat "$scratch/three.err")"
# With 3x3 tables given by --pdb, each 15-puzzle line is an invalid line; the rest solved.
run_as pdb33_one 1 "$solver" -j 3 --pdb "$repo/data/8-4-4" "${common[@]}"
run_as pdb33_three 1 "${mpi[@]}" -np 3 "$solver" -j 1 --pdb "$repo/data/8-4-4" "${common[@]}"
same "batch with 3x3 tables on 3 ranks" pdb33_one pdb33_three
expect_file "batch with 3x3 tables: a 15-puzzle line" "$scratch/pdb33_three.out" \
  "^korf-93: invalid: the tables in .*8-4-4 are for 3x3 boards, the instance is 4x4$"
expect_file "batch with 3x3 tables: the summary" "$scratch/pdb33_three.out" \
  "^summary: instances 55, solved 19, unsolvable 22, limit 0, invalid 14, "
run_as one_json 1 "$solver" -j 3 --json "${common[@]}"
run_as three_json 1 "${mpi[@]}" -np 3 "$solver" -j 1 --json "${common[@]}"
same "JSON batch on 3 ranks" one_json three_json
# -np 1 is the one-process run, summary included.
run_as np1 1 "${mpi[@]}" -np 1 "$solver" -j 3 "${common[@]}"
same "mpirun -np 1" one np1
# The end of a batch on ranks: a thread with nothing left to search (the input used up) goes
# to its own rank's searches still running, as in one process (README: -j). Korf's #1 with
# Manhattan (57 moves, about 80 M nodes; k0 and k1) and two short lines (e1, e2).
# - Rank 0's side: on two ranks of two threads with k1 last, rank 0's workers take the lines
#   as it reads them, so k1 runs there and rank 0's other thread, run out, joins it.
# - Another rank's: rank 0 with one thread takes k0 first (a second or more) while rank 1,
#   with two, is handed k1 and the short lines; once rank 0 answers it that nothing is left,
#   its other thread joins k1. Only rank 1 can put k1 on two threads.
if [ "$(cpu_count)" -ge 2 ]; then
  k1='k1: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3'
  e1='e1: 1 2 0 3 4 5 6 7 8 9 10 11 12 13 14 15'
  e2='e2: 1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15'
  printf '%s\n' "$e1" "$e2" "$k1" >"$scratch/end_rank0.txt"
  printf '%s\n' "${k1/k1:/k0:}" "$k1" "$e1" "$e2" >"$scratch/end_rank1.txt"
  end_args=(--heuristic manhattan --goal blank-first --json)
  run_as end_rank0 0 timeout 300 "${mpi[@]}" -np 2 "$solver" -j 2 "${end_args[@]}" \
    --input "$scratch/end_rank0.txt"
  run_as end_rank1 0 timeout 300 "${mpi[@]}" -np 1 "$solver" -j 1 "${end_args[@]}" \
    --input "$scratch/end_rank1.txt" : -np 1 "$solver" -j 2 "${end_args[@]}" --input "$scratch/end_rank1.txt"
  for side in rank0 rank1; do
    expect_once "the end of a batch on ranks, $side: k1 at its length, on two threads" \
      "$scratch/end_$side.out" '^\{"label":"k1","status":"solved","length":57,.*"threads":2\}$'
    expect_once "the end of a batch on ranks, $side: a short one on one thread" \
      "$scratch/end_$side.out" '^\{"label":"e1","status":"solved","length":2,[^}]*"seconds":[0-9.]+\}$'
  done
fi
# A per-instance node limit (below 65,536 it is exact, so the records are the same; the
# status is 1 for the invalid lines, which win over 3).
run_as limit_one 1 "$solver" -j 2 --node-limit 20000 "${common[@]}"
run_as limit_two 1 "${mpi[@]}" -np 2 "$solver" -j 1 --node-limit 20000 "${common[@]}"
same "batch with a node limit on 2 ranks" limit_one limit_two
expect_file "batch with a node limit: a limit" "$scratch/limit_two.out" ": limit \(node limit\) nodes 2000[0-9] "
expect "one process: a limit's resume token" grep -q " resume r1\." "$scratch/limit_one.out"
expect "two ranks: no resume token" not grep -q "resume r1" "$scratch/limit_two.out"
token=$(grep -o -m1 'r1\.[^ ]*' "$scratch/limit_one.out")
run "${mpi[@]}" -np 2 "$solver" -j 1 --resume "$token" "${common[@]}"
expect_status "--resume under mpirun" 2
expect_err "--resume under mpirun: said" "--resume takes up searches in one process: not under mpirun"
run "${mpi[@]}" -np 2 "$solver" -j 1 --checkpoint "$scratch/ck.txt" "${common[@]}"
expect_status "--checkpoint under mpirun" 2
expect_err "--checkpoint under mpirun: said" "--checkpoint saves searches in one process: not under mpirun"
expect "--checkpoint under mpirun: no file" test ! -e "$scratch/ck.txt"

# A program that writes a line and waits for its answer gets it over ranks too: neither the
# read-ahead that chooses how to use the ranks nor rank 0's serving of the others waits for
# input not there yet while an answer is ready.
printf '8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 0 8\n' >"$scratch/two_lines.txt"
expect "one line at a time on 2 ranks: each answered" \
  [ "$(answered 1 "$scratch/two_lines.txt" "${mpi[@]}" -np 2 "$solver" -j 1)" = 2 ]
expect "one line at a time on 3 ranks, -j 2: each answered" \
  [ "$(answered 1 "$scratch/two_lines.txt" "${mpi[@]}" -np 3 "$solver" -j 2)" = 2 ]
# A line too long whose end never comes (/dev/zero): its record is printed over ranks too.
# (Stopped once its record is out, or after 60 s: mpirun's start may be slow on a loaded machine.)
"${mpi[@]}" -np 2 "$solver" -j 1 --input /dev/zero >"$scratch/out" 2>"$scratch/err" &
endless=$!
for _ in $(seq 1200); do
  grep -q '^/dev/zero:1: ' "$scratch/out" 2>/dev/null && break
  sleep 0.05
done
kill -TERM "$endless" 2>/dev/null
for _ in $(seq 400); do kill -0 "$endless" 2>/dev/null || break; sleep 0.05; done
kill -KILL "$endless" 2>/dev/null  # (as timeout -k would)
wait "$endless"
ran "mpirun -np 2 solver --input /dev/zero, stopped by SIGTERM" $?
expect_out "an endless line on 2 ranks: its record printed" "^/dev/zero:1: invalid: line longer than 65536 bytes$"
# A batch whose input then pauses: every record of the lines sent is printed while the input
# has nothing more (rank 0's serving of the other ranks does not wait on the input; it held
# the last 9 of these 38 back until the input ended).
grep -v '^#' "$repo/data/korf100.txt" | sed -n 3,40p >"$scratch/k38.txt"
expect "a batch, then a pause, on 3 ranks: every line sent answered" \
  [ "$(answered 0 "$scratch/k38.txt" "${mpi[@]}" -np 3 "$solver" --goal blank-first --pdb "$repo/data/15-5-5-5")" = 38 ]

# check: the solutions found, one made longer, one illegal.
py mpi_solver_check.py make-claims "$scratch/one.out" "$scratch/batch.txt" >"$scratch/claims.txt"
run_as check_one 8 "$solver" check -j 2 --goal blank-first --cache-dir none --input "$scratch/claims.txt"
run_as check_two 8 "${mpi[@]}" -np 2 "$solver" check -j 1 --goal blank-first --cache-dir none --input "$scratch/claims.txt"
same "check on 2 ranks" check_one check_two
expect_file "check on 2 ranks: optimal" "$scratch/check_two.out" "^korf-93: optimal stm 46 "

# The multi-tile metric and every optimal solution: the same records as one process (MTM
# batches are handed out; --all and --count run on rank 0 alone).
head -40 "$scratch/batch.txt" | grep -v korf >"$scratch/small3.txt"
mtm=(--metric mtm --goal blank-first --cache-dir none --input "$scratch/small3.txt")
run_as mtm_one 1 "$solver" -j 3 "${mtm[@]}"
run_as mtm_three 1 "${mpi[@]}" -np 3 "$solver" -j 1 "${mtm[@]}"
same "MTM batch on 3 ranks" mtm_one mtm_three
expect_file "MTM batch: metric named" "$scratch/mtm_three.out" ": length [0-9]+ metric mtm "
run_as mtm_single_one 0 "$solver" -j 1 --metric mtm --goal blank-first "8 6 7 2 5 4 3 0 1"
run_as mtm_single 0 "${mpi[@]}" -np 3 "$solver" -j 1 --metric mtm --goal blank-first "8 6 7 2 5 4 3 0 1"
same "MTM instance on 3 ranks" mtm_single_one mtm_single
expect_file "MTM instance on 3 ranks: solved" "$scratch/mtm_single.out" "^argument 1: length 21 metric mtm "
for mode in "--all --max-solutions 5" --count; do
  name=all_${mode%% *}
  name=${name//-/}
  # shellcheck disable=SC2086
  run_as "${name}_one" 0 "$solver" -j 1 $mode --goal blank-first "8 6 7 2 5 4 3 0 1" "6 4 7 8 5 0 3 2 1"
  # shellcheck disable=SC2086
  run_as "${name}_three" 0 "${mpi[@]}" -np 3 "$solver" -j 1 $mode --goal blank-first "8 6 7 2 5 4 3 0 1" "6 4 7 8 5 0 3 2 1"
  same "$mode on 3 ranks" "${name}_one" "${name}_three"
done
expect_file "--count on 3 ranks: counted" "$scratch/all_count_three.out" "^argument 1: length 27 solutions 1 "

# --------------------------------------------------------------------------------------
# One instance over 3 ranks: Korf #60, 66 moves with 15-5-5-5.
korf60=$(grep '^korf-60:' "$repo/data/korf100.txt")
run_as split 0 "${mpi[@]}" -np 3 "$solver" --json --goal blank-first --pdb "$repo/data/15-5-5-5" "$korf60"
expect_py "split over 3 ranks" mpi_solver_check.py split "$scratch/split.out" "$repo/data/korf100.tsv"
# A node limit counted over the ranks stops all of them.
run_as split_limit 3 "${mpi[@]}" -np 3 "$solver" --goal blank-first --pdb "$repo/data/15-5-5-5" --node-limit 2000000 "$korf60"
expect_py "node limit over 3 ranks" mpi_solver_check.py split-limit "$scratch/split_limit.out"
expect_once "node limit over 3 ranks: said once" "$scratch/split_limit.err" "node limit reached"

# --------------------------------------------------------------------------------------
# Errors: one message, the same status on every rank.
run_as unreadable 4 "${mpi[@]}" -np 3 "$solver" --input "$scratch/no-such-file"
expect_once "unreadable input: said once" "$scratch/unreadable.err" "^solver: cannot open input file"
run_as usage 2 "${mpi[@]}" -np 3 "$solver" --jobs -4 1 2 3 4
expect_once "usage error: said once" "$scratch/usage.err" "^solver: --jobs must be"
printf '# nothing\n\n' >"$scratch/empty.txt"
run_as empty 2 "${mpi[@]}" -np 2 "$solver" --input "$scratch/empty.txt"
expect_once "no instance: said once" "$scratch/empty.err" "no instance found"
# Each rank reads /proc/self/cwd/...: its own working folder's tables. Ranks 1-2 hold another
# set (a split search refuses to start) or a damaged one (a split search: every rank stops; a
# batch: rank 1 or 2 cannot search what it is given while rank 0 searches Korf #60 first).
for f in a b c; do mkdir -p "$scratch/$f/sets"; done
cp -r "$repo/data/8-4-4" "$scratch/a/sets/8-4-4"
cp -r "$repo/data/8-fringe" "$scratch/b/sets/8-4-4"
cp -r "$repo/data/8-4-4" "$scratch/c/sets/8-4-4"
printf 'x' >>"$(ls "$scratch"/c/sets/8-4-4/*.pdb | head -1)"
for f in a c; do ln -s "$repo/data/15-5-5-5" "$scratch/$f/sets/15-5-5-5"; done
# two_sets FOLDER_OF_RANKS_1_2 SOLVER_ARGS...: rank 0 in a, ranks 1-2 in the other folder.
two_sets() {
  local other=$1
  shift
  LOYD_PDB_PATH=/proc/self/cwd/sets "${mpi[@]}" -np 1 --wdir "$scratch/a" "$solver" "$@" : \
    -np 2 --wdir "$scratch/$other" "$solver" "$@"
}
run_as other_tables 4 two_sets b --goal blank-first "8 6 7 2 5 4 3 0 1"
expect_once "other tables: said once" "$scratch/other_tables.err" \
  "^solver: the ranks hold different tables in /proc/self/cwd/sets/8-4-4 "
run_as damaged_split 4 two_sets c --goal blank-first "8 6 7 2 5 4 3 0 1"
expect_once "damaged tables, split: said once" "$scratch/damaged_split.err" \
  "^solver: rank 1: /proc/self/cwd/sets/8-4-4/.*\.pdb: "
{ echo "$korf60"; head -60 "$scratch/batch.txt" | grep -v korf; } >"$scratch/small.txt"
run_as damaged_batch 4 two_sets c -j 1 --goal blank-first --input "$scratch/small.txt"
expect_file "damaged tables, batch: the rank named" "$scratch/damaged_batch.err" \
  "^solver: rank [12]: /proc/self/cwd/sets/8-4-4/.*\.pdb: "
# Rank 0 takes the first line (Korf #60) as a rule, but which rank a line goes to is timing:
# some line solved, and Korf #60, when it was rank 0's, at its optimal length.
expect_file "damaged tables, batch: the others solved" "$scratch/damaged_batch.out" "^[^ ]+: length [0-9]+ "
expect "damaged tables, batch: Korf #60 optimal when solved" \
  sh -c '! grep -q "^korf-60: " "$1" || grep -q "^korf-60: length 66 " "$1"' sh "$scratch/damaged_batch.out"
# The failed ranks get no more work; the input is read to its end (docs/scale.md): every line
# is printed as a record on stdout (invalid lines too), those the failed ranks held as
# "LABEL: error: rank N: ..." (and on stderr).
records=$(grep -c '' "$scratch/damaged_batch.out")
errors=$(grep -c '^[^ ]*small.txt:[0-9]*: error: rank [12]: ' "$scratch/damaged_batch.out")
errors_said=$(grep -c '^solver: [^ ]*small.txt:[0-9]*: rank [12]: ' "$scratch/damaged_batch.err")
lines=$(grep -cvE '^(#|$)' "$scratch/small.txt")
expect "damaged tables, batch: every line a record ($records of $lines)" [ "$records" = "$lines" ]
expect "damaged tables, batch: some error lines ($errors)" [ "$errors" -ge 1 ]
expect "damaged tables, batch: each also on stderr ($errors, $errors_said)" [ "$errors" = "$errors_said" ]

# --------------------------------------------------------------------------------------
# SIGTERM during a batch of long searches, to every rank of 2 (as Slurm's scancel sends it) or
# to rank 1 alone of 3: each search stops as in one process (limit (interrupted), the summary,
# exit 130), at once rather than when the ranks' instances finish. To rank 1 alone, the run is
# interrupted as a whole: rank 1 tells rank 0, which stops its own search, hands out no more
# lines and tells rank 2 to stop its search (rank 1 used to take the rest of the input and stop
# each search at once while the other ranks' long searches went on).
grep -E '^korf-(60|82|88|3|4):' "$repo/data/korf100.txt" >"$scratch/long.txt"

# sigterm_batch NAME RANKS TO (all or a rank): the run, the signal, and the checks, named NAME.
sigterm_batch() {
  local name=$1 np=$2 to=$3 launcher started took p signalled=0
  "${mpi[@]}" -np "$np" "$solver" -j 1 --goal blank-first --heuristic manhattan --input "$scratch/long.txt" \
    >"$scratch/sigterm-$to.out" 2>"$scratch/sigterm-$to.err" &
  launcher=$!
  # The signal once the ranks search (a fixed sleep could end before they are started, under
  # load): korf-3 or korf-4 (0.5-4 s) answered, korf-60, 82 and 88 (30 s and more each) left.
  for _ in $(seq 600); do
    grep -q " length " "$scratch/sigterm-$to.out" && break
    sleep 0.1
  done
  sleep 0.5
  started=$(date +%s)
  for p in $(pgrep -P $launcher); do
    if [ "$to" = all ] || tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$to"; then
      kill -TERM "$p" 2>/dev/null && signalled=$((signalled + 1))
    fi
  done
  # No process signalled (its environment unreadable): end the run rather than wait minutes.
  [ "$signalled" -gt 0 ] || kill -TERM $(pgrep -P $launcher) 2>/dev/null
  wait $launcher
  ran "mpirun -np $np solver --input long.txt, then $name" $?
  expect "$name: a rank signalled" [ "$signalled" -gt 0 ]
  took=$(($(date +%s) - started))
  expect_status "$name" 130
  expect_file "$name: searches stopped" "$scratch/sigterm-$to.out" " limit \(interrupted\) nodes [0-9]+ "
  expect_file "$name: the summary" "$scratch/sigterm-$to.out" "^summary: instances "
  expect "$name: the run ended at once (${took} s)" [ "$took" -le 5 ]
}
sigterm_batch "SIGTERM to the ranks" 2 all
sigterm_batch "SIGTERM to rank 1 of 3 only" 3 1

finish
