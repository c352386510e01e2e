#!/usr/bin/env bash
# Command-line tests of `solver --resume`: a search stopped by a limit prints a resume token
# (text and JSON), a run given the token (or the earlier output's file) takes the search up and
# ends at the known optimal length, with fewer nodes than a fresh search; tokens of other
# instances are noted, damaged tokens and files without one refused, and the options that
# cannot resume are refused. --checkpoint: a run killed by SIGKILL is taken up from its file.
#
# Usage: resume_cli_test.sh SOLVER SCRATCH_DIR
. "$(dirname "$0")/harness.sh"
harness_args 2 "SOLVER SCRATCH_DIR" "$@"
program solver "$1"
scratch_dir "$2"

# Korf's instance 1 (blank-first), 57 moves; its Manhattan search generates about 80 M nodes.
k1="14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
opts=(--goal blank-first --heuristic manhattan)

run "$solver" "${opts[@]}" -j 1 --node-limit 3000000 "$k1"
expect_status "a node limit" 3
expect_out "a limit's line carries a token" \
  "^argument 1: limit \(node limit\) nodes [0-9]+ seconds [0-9.]+ lower bound [0-9]+ resume r1\.[0-9]+\.[0-9x]+\.[UDLR-]+\.[0-9a-f]{16}\.[0-9a-f]{16}$"
keep_output first
token=$(grep -oE 'r1\.[^ ]+' "$scratch/first.out")
first_nodes=$(sed -E 's/.* nodes ([0-9]+) .*/\1/' "$scratch/first.out")

run "$solver" "${opts[@]}" -j 1 --resume "$token" "$k1"
expect_status "--resume TOKEN" 0
expect_out "--resume TOKEN: the optimal length, resumed" "^argument 1: length 57 moves [UDLR]+ nodes [0-9]+ seconds [0-9.]+ resumed at bound [0-9]+$"
resumed_nodes=$(sed -E 's/.* nodes ([0-9]+) .*/\1/' "$scratch/out")
run "$solver" "${opts[@]}" -j 1 "$k1"
fresh_nodes=$(sed -E 's/.* nodes ([0-9]+) .*/\1/' "$scratch/out")
checks=$((checks + 1))
# One thread: the resumed run does what the first left, no more (a few replayed siblings).
if [ $((first_nodes + resumed_nodes)) -gt $((fresh_nodes + 1000)) ]; then
  fail "resumed: $first_nodes + $resumed_nodes nodes, a fresh search $fresh_nodes"
fi

# The earlier output as a file, split over two threads, in JSON.
run "$solver" "${opts[@]}" -j 2 --json --resume "$scratch/first.out" "$k1"
expect_status "--resume FILE -j 2 --json" 0
expect_out "--resume FILE: solved, resumed_from" '"status":"solved","length":57,.*"resumed_from":[0-9]+\}$'

# JSON output carries the token too, and a JSON file resumes.
run "$solver" "${opts[@]}" -j 2 --json --node-limit 2000000 "$k1"
expect_status "--json limit" 3
expect_out "--json: resume after error" '"lower_bound":[0-9]+,"error":"node limit","resume":"r1\.[^"]+"\}$'
keep_output json
run "$solver" "${opts[@]}" -j 1 --node-limit 2000000 --resume "$scratch/json.out" "$k1"
expect_status "a resumed search stopped again" 3
expect_out "stopped again: resumed, and a new token" "resumed at bound [0-9]+ resume r1\."
keep_output second
run "$solver" "${opts[@]}" -j 2 --resume "$scratch/second.out" "$k1"
expect_out "a second resume: the optimal length" "^argument 1: length 57 .* resumed at bound"
# Both outputs, in either order: the token further along is taken (the second's, whose
# resumed run generates fewer nodes than one from the first).
run "$solver" "${opts[@]}" -j 1 --resume "$scratch/second.out" --resume "$scratch/json.out" "$k1"
late=$(sed -E 's/.* nodes ([0-9]+) .*/\1/' "$scratch/out")
run "$solver" "${opts[@]}" -j 1 --resume "$scratch/json.out" --resume "$scratch/second.out" "$k1"
expect_out "both outputs: solved" "^argument 1: length 57 "
expect "both outputs, either order: the same point" test "$late" = "$(sed -E 's/.* nodes ([0-9]+) .*/\1/' "$scratch/out")"
run "$solver" "${opts[@]}" -j 1 --resume "$scratch/json.out" "$k1"
expect "the first output alone: more nodes" test "$(sed -E 's/.* nodes ([0-9]+) .*/\1/' "$scratch/out")" -gt "$late"

# A token of another instance: solved from the start, with a note.
run "$solver" --heuristic manhattan --resume "$token" 8 6 7 2 5 4 3 0 1
expect_status "another instance's token" 0
expect_out "another instance: solved" "^argument 1: length 31 moves [UDLR]+ nodes [0-9]+ seconds [0-9.]+$"
expect_err "another instance: noted" "^solver: 1 of the 1 --resume point was not taken up \(a token is tied"
run "$solver" --heuristic manhattan -q --resume "$token" 8 6 7 2 5 4 3 0 1
expect_no_err "-q: no note"

# A label holding "resume r1.5": the run's own output still resumes it.
printf 'my resume r1.5 test: 8 6 7/2 5 4/3 0 1\n' >"$scratch/label.txt"
run "$solver" -j 1 --heuristic manhattan --node-limit 10 --input "$scratch/label.txt"
expect_status "a label like a token: a limit" 3
keep_output label
run "$solver" -j 1 --heuristic manhattan --input "$scratch/label.txt" --resume "$scratch/label.out"
expect_status "a label like a token: resumed" 0
expect_out "a label like a token: resumed, optimal" "^my resume r1\.5 test: length 31 .* resumed at bound"

# Refusals: damaged tokens, files without one, options that cannot resume.
run "$solver" "${opts[@]}" --resume "r1.A7.29.U.0000000000000000.0000000000000000" "$k1"
expect_status "a token damaged in its first field: a token still" 2
bad=${token%?}0
[ "$bad" = "$token" ] && bad=${token%?}1
run "$solver" "${opts[@]}" --resume "$bad" "$k1"
expect_status "a damaged token" 2
expect_err "a damaged token: named" "^solver: resume token 'r1\..*': its check does not match"
sed "s/resume r1\./resume r1.9/" "$scratch/first.out" >"$scratch/damaged.out"
run "$solver" "${opts[@]}" --resume "$scratch/damaged.out" "$k1"
expect_status "a file with a damaged token" 2
expect_err "a file with a damaged token: its line named" "^solver: --resume .*damaged.out line 1: resume token 'r1\.9"
head -c 20000000 /dev/zero >"$scratch/zeros"
run "$solver" "${opts[@]}" --resume "$scratch/zeros" "$k1"
expect_status "a file of one huge line" 2
expect_err "a file of one huge line: said" "line 1 is over 16 MiB"
echo "argument 1: length 3 moves RRD" >"$scratch/none.out"
run "$solver" "${opts[@]}" --resume "$scratch/none.out" "$k1"
expect_status "a file without a token" 2
expect_err "a file without a token: said" "holds no resume token"
run "$solver" "${opts[@]}" --resume "$scratch/missing.out" "$k1"
expect_status "a missing file" 4
expect_err "a missing file: named" "^solver: cannot read --resume .*missing.out"
run "$solver" "${opts[@]}" --resume "$scratch" "$k1"
expect_status "a folder" 2
run "$solver" "${opts[@]}" -a astar --resume "$token" "$k1"
expect_status "--algorithm astar" 2
expect_err "--algorithm astar: said" "does not apply to --algorithm astar"
run "$solver" --metric mtm --resume "$token" 8 6 7 2 5 4 3 0 1
expect_status "--metric mtm" 2
run "$solver" check --resume "$token" 8 6 7 2 5 4 3 0 1 R
expect_status "check --resume" 2

# --checkpoint: a run killed with SIGKILL (no chance to print a token) is taken up from the
# file, which holds the search's point from its last save.
ck="$scratch/ck.txt"
rm -f "$ck"
"$solver" "${opts[@]}" -j 1 --checkpoint "$ck" --checkpoint-every 0.1 "$k1" \
  >"$scratch/killed.out" 2>"$scratch/killed.err" &
pid=$!
for _ in $(seq 400); do
  grep -q '^r1\.' "$ck" 2>/dev/null && break
  sleep 0.05
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
killed=$?  # 137; 0 when a starved poll let the search end first (then it printed its answer)
checks=$((checks + 1))
[ "$(head -n 1 "$ck")" = "# loyd solver checkpoint: the searches' latest points; take them up with --resume and this file" ] ||
  fail "--checkpoint: the file's first line is $(head -n 1 "$ck")"
checks=$((checks + 1))
grep -qE '^r1\.[0-9]+\.[0-9x]+\.[UDLR-]+\.[0-9a-f]{16}\.[0-9a-f]{16}$' "$ck" ||
  fail "--checkpoint: no token line in $(cat "$ck")"
checks=$((checks + 1))
[ "$killed" != 137 ] || [ ! -s "$scratch/killed.out" ] || fail "--checkpoint: the killed run printed $(cat "$scratch/killed.out")"
run "$solver" "${opts[@]}" -j 1 --resume "$ck" --checkpoint "$ck" "$k1"
expect_status "--resume CHECKPOINT" 0
expect_out "--resume CHECKPOINT: the optimal length, resumed" "^argument 1: length 57 moves [UDLR]+ nodes [0-9]+ seconds [0-9.]+ resumed at bound [0-9]+$"
expect "--resume CHECKPOINT: fewer nodes than a fresh search" \
  test "$(sed -E 's/.* nodes ([0-9]+) .*/\1/' "$scratch/out")" -lt "$fresh_nodes"
expect "the checkpoint file kept" test -s "$ck"
# That run solved the instance: the file now holds its solution's point, so a run taken up from
# it finds the answer again at once (one thread: the solution's path replayed, no search).
run "$solver" "${opts[@]}" -j 1 --resume "$ck" "$k1"
expect_status "--resume CHECKPOINT of a solved instance" 0
expect_out "... found again at once" "^argument 1: length 57 moves [UDLR]+ nodes [0-9]{1,2} seconds [0-9.]+ resumed at bound 57$"
# A batch on two threads: the points of the instances whose searches generated a million nodes
# or more are kept (korf-28: 3.3 M with Manhattan), not those of shorter ones (korf-12: 0.4 M);
# taken up, the batch finds the first again at once and searches the second as before. With the
# shipped 15-5-5-5 tables, whose goal the instances' is mapped onto, the same (korf-88: 5.4 M).
grep -E '^korf-(12|28): ' "$(dirname "$0")/../data/korf100.txt" >"$scratch/two.txt"
run "$solver" "${opts[@]}" -j 2 --checkpoint "$scratch/ck11.txt" --input "$scratch/two.txt"
expect_status "--checkpoint, a batch solved" 0
expect "one solved point kept" test "$(grep -c '^r1\.52\.' "$scratch/ck11.txt")" = 1
expect "... and no other" test "$(grep -c '^r1\.' "$scratch/ck11.txt")" = 1
run "$solver" "${opts[@]}" -j 2 --json --resume "$scratch/ck11.txt" --input "$scratch/two.txt"
expect_status "--resume of a batch's checkpoint" 0
expect_out "korf-28 found again at once" '"label":"korf-28".*"length":52,.*"nodes_generated":[0-9]{1,2},.*"resumed_from":52'
expect_out "korf-12 searched as before" '"label":"korf-12".*"length":45,.*"nodes_generated":[0-9]{6,}'
expect "... not resumed" test "$(grep '"korf-12"' "$scratch/out" | grep -c resumed_from)" = 0
grep -E '^korf-88: ' "$(dirname "$0")/../data/korf100.txt" >"$scratch/k88.txt"
pdb=(--goal blank-first --pdb "$(dirname "$0")/../data/15-5-5-5")
run "$solver" "${pdb[@]}" -j 2 --checkpoint "$scratch/ck12.txt" --input "$scratch/k88.txt"
expect_status "--checkpoint with tables" 0
expect "a solved point with tables" grep -q '^r1\.65\.' "$scratch/ck12.txt"
run "$solver" "${pdb[@]}" -j 2 --resume "$scratch/ck12.txt" --input "$scratch/k88.txt"
expect_status "--resume of it with tables" 0
expect_out "korf-88 found again" "^korf-88: length 65 moves [UDLR]+ nodes [0-9]+ seconds [0-9.]+ resumed at bound 65$"
expect "... with far fewer nodes" test "$(sed -E 's/.* nodes ([0-9]+) .*/\1/' "$scratch/out" | head -n 1)" -lt 1000000
# A solved point is written within --checkpoint-every seconds even when nothing else happens in
# the run (here it waits for input that never comes), so a run killed then keeps it.
mkfifo "$scratch/fifo13"
"$solver" "${opts[@]}" -j 1 --checkpoint "$scratch/ck13.txt" --checkpoint-every 0.2 \
  --input "$scratch/fifo13" >/dev/null 2>&1 &
pid=$!
exec 8>"$scratch/fifo13"
grep '^korf-28: ' "$scratch/two.txt" >&8
# (A pause's point at bound 52 may come first: the solved point's path is the 52 moves.)
solved='^r1\.52\.[0-9x]+\.[UDLR]{52}\.'
for _ in $(seq 400); do grep -qE "$solved" "$scratch/ck13.txt" 2>/dev/null && break; sleep 0.05; done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
exec 8>&-
expect "a solved point written while the run waits" grep -qE "$solved" "$scratch/ck13.txt"
run "$solver" "${opts[@]}" -j 1 --resume "$scratch/ck13.txt" --input "$scratch/two.txt"
expect_status "--resume of a killed run's checkpoint" 0
expect_out "korf-28 found again at once after the kill" "^korf-28: length 52 moves [UDLR]+ nodes [0-9]{1,2} seconds [0-9.]+ resumed at bound 52$"
# A checkpoint file that went through CRLF line ends is still one (as --resume reads it).
sed 's/$/\r/' "$scratch/ck13.txt" >"$scratch/ck14.txt"
run "$solver" "${opts[@]}" -j 1 --resume "$scratch/ck14.txt" --checkpoint "$scratch/ck14.txt" --input "$scratch/two.txt"
expect_status "--checkpoint of a CRLF checkpoint file" 0
expect_out "... its point taken up" "^korf-28: length 52 moves [UDLR]+ nodes [0-9]{1,2} seconds [0-9.]+ resumed at bound 52$"
# A checkpoint file the user may not write is refused, not replaced through its folder (as
# root, checked as the user nobody, in a folder of /tmp that user can reach).
ro=$(mktemp -d "${TMPDIR:-/tmp}/loyd-resume-ro.XXXXXX")
chmod 1777 "$ro" && cp "$scratch/ck13.txt" "$ro/ro.txt" && chmod 444 "$ro/ro.txt"
as_user=()
[ "$(id -u)" != 0 ] || as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ "$(id -u)" != 0 ] || "${as_user[@]}" test -w "$ro" 2>/dev/null; then
  run "${as_user[@]}" "$solver" --heuristic manhattan --checkpoint "$ro/ro.txt" 8 6 7 2 5 4 3 0 1
  expect_status "--checkpoint on a read-only file" 4
  expect_err "... said" "^solver: cannot write --checkpoint .*ro.txt: Permission denied"
  expect "... and left as it was" cmp -s "$scratch/ck13.txt" "$ro/ro.txt"
  # A folder on the way that user may not search: said so, not "does not exist".
  if [ ${#as_user[@]} -gt 0 ]; then
    mkdir -m 700 "$ro/private"
    run "${as_user[@]}" "$solver" --heuristic manhattan --checkpoint "$ro/private/ck.txt" 8 6 7 2 5 4 3 0 1
    expect_status "--checkpoint in a folder the user may not search" 4
    expect_err "... said" "^solver: cannot write --checkpoint .*private/ck.txt: Permission denied$"
  fi
else
  echo "resume_cli: the read-only checkpoint case skipped (the user nobody cannot reach $ro)"
fi
rm -rf "$ro"
# Points given by --resume are kept in the file, also for instances this run does not search;
# a limit's token replaces the point held, or is added.
run "$solver" --heuristic manhattan --resume "$scratch/first.out" --checkpoint "$scratch/ck2.txt" 8 6 7 2 5 4 3 0 1
expect_status "--checkpoint with --resume of another instance" 0
expect "the given point kept" grep -qx "$token" "$scratch/ck2.txt"
run "$solver" "${opts[@]}" -j 1 --node-limit 4000000 --resume "$token" --checkpoint "$scratch/ck2.txt" "$k1"
expect_status "--checkpoint, a limit" 3
later=$(grep -oE 'r1\.[^ ]+' "$scratch/out")
expect "a limit's token replaces the point held" grep -qx "$later" "$scratch/ck2.txt"
expect "... and the point before is gone" test "$(grep -c '^r1\.' "$scratch/ck2.txt")" = 1
run "$solver" --heuristic manhattan -j 1 --node-limit 10 --checkpoint "$scratch/ck5.txt" 8 6 7 2 5 4 3 0 1
expect_status "--checkpoint, a limit on an instance the file did not hold" 3
expect "a limit's token added" grep -qx "$(grep -oE 'r1\.[^ ]+' "$scratch/out")" "$scratch/ck5.txt"
# One run per file: a second run on a file in use is refused while the first goes on.
# (The first run reads a FIFO no line ever comes through: it holds the lock until killed.)
mkfifo "$scratch/fifo6"
"$solver" --heuristic manhattan --checkpoint "$scratch/ck6.txt" --input "$scratch/fifo6" \
  >/dev/null 2>&1 &
pid=$!
exec 7<>"$scratch/fifo6"
for _ in $(seq 400); do [ -s "$scratch/ck6.txt" ] && break; sleep 0.05; done
run "$solver" --heuristic manhattan --checkpoint "$scratch/ck6.txt" 8 6 7 2 5 4 3 0 1
expect_status "--checkpoint in use" 2
expect_err "--checkpoint in use: said" "^solver: --checkpoint .*ck6.txt is in use by another solver run"
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
exec 7>&-
run "$solver" --heuristic manhattan --checkpoint "$scratch/ck6.txt" 8 6 7 2 5 4 3 0 1
expect_status "--checkpoint after the run holding it was killed" 0
# Standard output or the --html page on the checkpoint file: refused before any search.
"$solver" --heuristic manhattan --checkpoint "$scratch/ck7.txt" 8 6 7 2 5 4 3 0 1 \
  >"$scratch/ck7.txt" 2>"$scratch/err"
rc=$?
expect_status "--checkpoint on standard output's file" 2
expect_err "--checkpoint on standard output's file: said" "is the file standard output writes to"
run "$solver" --heuristic manhattan --checkpoint "$scratch/ck8.txt" --html "$scratch/ck8.txt" 8 6 7 2 5 4 3 0 1
expect_status "--html on the checkpoint file" 2
expect_err "--html on the checkpoint file: said" "is the --checkpoint file( or its lock)?, which this run writes"
expect "--html on the checkpoint file: refused before it is written" test ! -e "$scratch/ck8.txt"
run "$solver" --heuristic manhattan --checkpoint "$scratch/ck9.txt" --html "$scratch/./ck9.txt" 8 6 7 2 5 4 3 0 1
expect_status "--html naming the new checkpoint file another way" 2
run "$solver" --heuristic manhattan --checkpoint "$scratch/ck9.txt" --html "$scratch/.ck9.txt.lock" 8 6 7 2 5 4 3 0 1
expect_status "--html on the checkpoint's lock" 2
run "$solver" --heuristic manhattan --checkpoint "$scratch/ck10.txt" --html "$scratch/no/page.html" 8 6 7 2 5 4 3 0 1
expect_status "--html in a missing folder, with --checkpoint" 4
expect "... refused before the checkpoint is made" test ! -e "$scratch/ck10.txt" -a ! -e "$scratch/.ck10.txt.lock"
run "$solver" --checkpoint - 8 6 7 2 5 4 3 0 1
expect_status "--checkpoint -" 2
run "$solver" --checkpoint "$scratch" 8 6 7 2 5 4 3 0 1
expect_status "--checkpoint FOLDER" 4
# A checkpoint file that holds no point yet (no search reached a save) is a valid --resume.
run "$solver" --heuristic manhattan --checkpoint "$scratch/ck4.txt" 8 6 7 2 5 4 3 0 1
expect "a short search: the file holds its header only" test "$(wc -l <"$scratch/ck4.txt")" = 1
run "$solver" --heuristic manhattan --resume "$scratch/ck4.txt" 8 6 7 2 5 4 3 0 1
expect_status "--resume of a checkpoint without points" 0
expect_out "--resume of a checkpoint without points: solved" "^argument 1: length 31 "
# The temporaries of runs killed while they wrote the checkpoint go when the next run takes its
# lock (a PID no process has); a live process's stays.
sh -c 'exit 0' & gone=$!
wait "$gone"
touch "$scratch/.ck4.txt.tmp.$gone" "$scratch/.ck4.txt.tmp.$$"
run "$solver" --heuristic manhattan --checkpoint "$scratch/ck4.txt" 8 6 7 2 5 4 3 0 1
expect_status "--checkpoint beside a killed run's temporary" 0
expect "a killed run's temporary removed" test ! -e "$scratch/.ck4.txt.tmp.$gone"
expect "a live process's temporary kept" test -e "$scratch/.ck4.txt.tmp.$$"
rm -f "$scratch/.ck4.txt.tmp.$$"
# --all and --count: a limit in the search for the length leaves a token that --all takes up
# (the 31 moves of the 3x3's hardest positions, the count of a run not stopped); a limit in the
# listing after it leaves the length and no token.
run "$solver" --heuristic manhattan -j 1 --count 8 6 7 2 5 4 3 0 1
whole_count=$(grep -oE 'solutions [0-9]+' "$scratch/out")
run "$solver" --heuristic manhattan -j 1 --all --node-limit 200 8 6 7 2 5 4 3 0 1
expect_status "--all stopped while it looks for the length" 3
cp "$scratch/out" "$scratch/all1.out"
expect_out "--all stopped while it looks for the length: a token" " resume r1\."
run "$solver" --heuristic manhattan -j 1 --count --resume "$scratch/all1.out" 8 6 7 2 5 4 3 0 1
expect_status "--count taken up" 0
expect_out "--count taken up: the length, every solution" "^argument 1: length 31 $whole_count nodes .* resumed at bound "
run "$solver" --heuristic manhattan -j 1 --count --node-limit 40000 8 6 7 2 5 4 3 0 1
expect_status "--count stopped while it counts" 3
expect_out "--count stopped while it counts: the length" "length 31 solutions at least [0-9]+ .*lower bound 31"
expect "--count stopped while it counts: no token" test "$(grep -c ' resume r1' "$scratch/out")" = 0
# A folder the run cannot write (a read-only mount; for a user other than root, a folder
# without write permission) refuses --checkpoint there before any search.
mkdir -p "$scratch/ro-src" && ro_dir=""
if [ "$(id -u)" != 0 ]; then
  chmod 555 "$scratch/ro-src" && ro_dir=$scratch/ro-src
elif mkdir -p "$scratch/ro-ck" && mount --bind "$scratch/ro-src" "$scratch/ro-ck" 2>/dev/null; then
  if mount -o remount,ro,bind "$scratch/ro-ck" 2>/dev/null; then ro_dir=$scratch/ro-ck; else umount "$scratch/ro-ck"; fi
fi
if [ -n "$ro_dir" ]; then
  run "$solver" --heuristic manhattan --checkpoint "$ro_dir/ck.txt" 8 6 7 2 5 4 3 0 1
  expect_status "--checkpoint in a folder that cannot be written" 4
  expect_err "--checkpoint in a folder that cannot be written: said" "^solver: cannot write --checkpoint .*ck.txt: cannot make a file in .*: "
  expect "--checkpoint in a folder that cannot be written: no search" test ! -s "$scratch/out"
  if [ "$ro_dir" = "$scratch/ro-src" ]; then chmod 755 "$ro_dir"; else umount "$ro_dir"; fi
fi
# Refusals: a file that is not a checkpoint is never overwritten; bad intervals; astar, mtm;
# a folder that does not exist.
cp "$scratch/first.out" "$scratch/notck.txt"
run "$solver" "${opts[@]}" --checkpoint "$scratch/notck.txt" "$k1"
expect_status "--checkpoint on another file" 2
expect_err "--checkpoint on another file: said" "^solver: --checkpoint .*notck.txt exists and is not a checkpoint file"
expect "--checkpoint on another file: left as it was" cmp -s "$scratch/first.out" "$scratch/notck.txt"
expect "--checkpoint on another file: no lock file left beside it" test ! -e "$scratch/.notck.txt.lock"
for every in 0 0.05 -1 nan inf x; do
  run "$solver" --checkpoint "$scratch/ck3.txt" --checkpoint-every "$every" 8 6 7 2 5 4 3 0 1
  expect_status "--checkpoint-every $every" 2
done
run "$solver" --checkpoint-every 5 8 6 7 2 5 4 3 0 1
expect_status "--checkpoint-every alone" 2
expect_err "--checkpoint-every alone: said" "needs --checkpoint FILE"
run "$solver" -a astar --checkpoint "$scratch/ck3.txt" 8 6 7 2 5 4 3 0 1
expect_status "--checkpoint --algorithm astar" 2
run "$solver" --metric mtm --checkpoint "$scratch/ck3.txt" 8 6 7 2 5 4 3 0 1
expect_status "--checkpoint --metric mtm" 2
run "$solver" --checkpoint "$scratch/no/such/folder/ck.txt" 8 6 7 2 5 4 3 0 1
expect_status "--checkpoint in a missing folder" 4
expect "a refused --checkpoint writes nothing" test ! -e "$scratch/ck3.txt"

finish
