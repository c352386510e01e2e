#!/usr/bin/env bash
# Command-line tests of `solver --resume`: a search stopped by a limit prints a resume token
# (text and JSON), a run given the token (or the earlier output's file) takes the search up and
# ends at the known optimal length, with fewer nodes than a fresh search; tokens of other
# instances are noted, damaged tokens and files without one refused, and the options that
# cannot resume are refused.
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

finish
