#!/usr/bin/env bash
# Command-line tests of the multi-tile metric and of all optimal solutions (README: "The
# multi-tile metric", "All optimal solutions"): `--metric mtm` answers at the exact MTM distance
# with run lengths, `--count` and `--all` against the number of shortest paths, `check
# --metric mtm`, JSON records, limits, and every refusal. The oracle is independent of the
# solver (tests/metric_check.py, standard library, with tests/puzzle_oracle.py): a breadth-first
# search of the whole 3x3 and 2x4 spaces in each metric that also counts the shortest paths to
# every position.
#
# Usage: metric_cli_test.sh SOLVER SCRATCH_DIR
# Prints one line per failed check and exits 1 if any check failed (tests/harness.sh).
. "$(dirname "$0")/harness.sh"
harness_args 2 "SOLVER SCRATCH_DIR" "$@"
program solver "$1"
scratch_dir "$2"
# The shipped tables only (8-4-4 in stm, 8-mtm-fringe in mtm); 2x4 uses the classic heuristics.
export LOYD_PDB_PATH="$repo/data"

# judge_run NAME METRIC W H BOARDS MODE: the oracle (tests/metric_check.py) on the last run's output.
judge_run() {
  expect_py "$1" metric_check.py judge "$2" "$3" "$4" "$5" "$scratch/out" "$6"
}

# Boards: random solvable 3x3 and 2x4 positions (fixed seeds), in rows.
expect_run "scramble 3x3" 0 "$solver" scramble --size 3x3 --count 12 --seed 11
cp "$scratch/out" "$scratch/b33"
expect_run "scramble 4x2" 0 "$solver" scramble --size 4x2 --count 12 --seed 12
cp "$scratch/out" "$scratch/b42"
printf '8 2 0/4 6 1/3 7 5\n' >>"$scratch/b33"   # 24 stm moves (4 solutions), 18 mtm (2 solutions)

# ---------------------------------------------------------------------------------------
# --metric mtm: the MTM distance, moves with run lengths, from stdin and --input.
run "$solver" --metric mtm --input "$scratch/b33" -j 2
expect_status "mtm 3x3" 0
judge_run "mtm 3x3 at the MTM distance" mtm 3 3 "$scratch/b33" solve
cp "$scratch/b42" "$scratch/stdin"
run "$solver" --metric mtm
expect_status "mtm 4x2 from stdin" 0
judge_run "mtm 4x2 at the MTM distance (walking distance)" mtm 4 2 "$scratch/b42" solve
run "$solver" --metric mtm --algorithm astar --input "$scratch/b42"
expect_status "mtm A*" 0
judge_run "mtm A* at the MTM distance" mtm 4 2 "$scratch/b42" solve
run "$solver" --metric mtm --heuristic manhattan --input "$scratch/b42"
expect_status "mtm per-axis Manhattan bound" 0
judge_run "mtm with the Manhattan bound" mtm 4 2 "$scratch/b42" solve
: >"$scratch/stdin"
run "$solver" --metric mtm --json --show "1 2 3/4 5 6/0 7 8"
expect_status "mtm json" 0
expect_out "mtm json: one move of two tiles" '"length":1,"moves":"R2","metric":"mtm","length_stm":2'
expect_out "mtm json: the tiles of the move" '"moved":\[\[7,8\]\]'
run "$solver" --metric mtm --show --notation tile "1 2 3/4 5 6/0 7 8"
expect_out "mtm --show names the run and its tiles" '^move 1: L2 \(tiles 7 8\)$'
run "$solver" --metric stm "8 2 0/4 6 1/3 7 5"
expect_out "--metric stm is today's output" '^argument 1: length 24 moves [UDLR]{24} nodes'

# ---------------------------------------------------------------------------------------
# --count and --all against the number of shortest paths, in both metrics.
run "$solver" --count --input "$scratch/b33"
expect_status "count stm 3x3" 0
judge_run "count stm 3x3" stm 3 3 "$scratch/b33" count
expect_out "count: the summary totals the solutions" '^summary: .* solutions [0-9]+$'
run "$solver" --count --metric mtm --input "$scratch/b33"
expect_status "count mtm 3x3" 0
judge_run "count mtm 3x3" mtm 3 3 "$scratch/b33" count
run "$solver" --all --max-solutions 100000 --input "$scratch/b42"
expect_status "all stm 4x2" 0
judge_run "all stm 4x2: every solution, distinct, optimal" stm 4 2 "$scratch/b42" all
run "$solver" --all --metric mtm --max-solutions 100000 --input "$scratch/b33"
expect_status "all mtm 3x3" 0
judge_run "all mtm 3x3: every solution, distinct, optimal" mtm 3 3 "$scratch/b33" all
run "$solver" --all --no-prune --heuristic manhattan "8 2 0/4 6 1/3 7 5"
expect_out "all: four solutions of the 24-move board" '^argument 1: length 24 solutions 4 nodes'
# The cap: two listed, said so, exit 0.
run "$solver" --all --max-solutions 2 "8 2 0/4 6 1/3 7 5"
expect_status "all capped" 0
expect_out "all capped: said" '^argument 1: length 24 solutions 2 \(the first 2 listed; there are more\) nodes'
expect_out "all capped: the second solution" '^argument 1: solution 2 [UDLR]{24}$'
count_check
[ "$(grep -c ': solution ' "$scratch/out")" = 2 ] || { fail "all capped: not exactly two solutions"; show; }
run "$solver" --all --json --max-solutions 3 --notation tile "8 2 0/4 6 1/3 7 5"
expect_py "all json record" metric_check.py all-json "$scratch/out"
run "$solver" --count --json "1 2 3/4 5 6/7 8 0" "8 2 0/4 6 1/3 7 5" "1 2 3/4 5 6/8 7 0"
expect_py "count json records" metric_check.py count-json "$scratch/out"
# --all with --html: every solution on the page.
run "$solver" --all --html "$scratch/all.html" "8 2 0/4 6 1/3 7 5"
count_check
grep -q 'argument 1 #4' "$scratch/all.html" || { fail "--all --html: the fourth solution is not on the page"; show; }
# A limit: exit 3, a lower bound.
run "$solver" --count --node-limit 1000 --heuristic manhattan --goal blank-first 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3
expect_status "count under a node limit" 3
expect_out "count under a node limit: said" '^argument 1: limit \(node limit\).* lower bound [0-9]+ resume r1\.[^ ]+$'

# ---------------------------------------------------------------------------------------
# check in the multi-tile metric.
run "$solver" check --metric mtm "8 2 0/4 6 1/3 7 5" DLULD2RU2RDL2URD2RU2LD2R
expect_status "check mtm optimal" 0
expect_out "check mtm optimal" '^argument 1: optimal stm 24 mtm 18 optimal 18 \(mtm\) difference 0$'
run "$solver" check --metric mtm "8 2 0/4 6 1/3 7 5" DLULDDRUURDLLURDDRUULDDRLR
expect_status "check mtm suboptimal" 7
expect_out "check mtm suboptimal" '^argument 1: suboptimal stm 26 mtm 20 optimal 18 \(mtm\) difference 2$'
run "$solver" check "8 2 0/4 6 1/3 7 5" DLULD2RU2RDL2URD2RU2LD2R
expect_out "check stm of the same moves" '^argument 1: optimal stm 24 mtm 18 optimal 24 difference 0$'
# An illegal move is numbered in the metric's moves: R5 is the second MTM move (the fourth STM).
run "$solver" check --metric mtm "1 2 3/4 5 6/0 7 8" UR5
expect_status "check mtm illegal" 8
expect_out "check mtm illegal: its MTM number" '^argument 1: illegal: move 2 \(R at character 2\) leaves the board'
run "$solver" check "1 2 3/4 5 6/0 7 8" UR5
expect_out "check stm illegal: its STM number" '^argument 1: illegal: move 4 \(R at character 2\) leaves the board'

# ---------------------------------------------------------------------------------------
# Refusals: one line, exit 2.
for args in "--all --count" "--max-solutions 3" "--all --max-solutions 0" "--all --max-solutions x" \
            "--metric fast" "--metric mtm --no-runs" "--metric mtm --heuristic linear-conflict" \
            "--metric mtm --heuristic misplaced" "--all --show" "--count --html $scratch/x.html" \
            "check --count" "scramble --all"; do
  # shellcheck disable=SC2086
  run "$solver" $args "8 2 0/4 6 1/3 7 5"
  expect_status "refused: $args" 2
  count_check
  [ "$(wc -l <"$scratch/err")" -eq 1 ] || { fail "refused: $args: not one line on stderr"; show; }
done
# (Discovery also reads the user's data folder: an empty one here, so that only the shipped
# sets are found.)
export XDG_DATA_HOME="$scratch/xdg"
run "$solver" --metric mtm --pdb "$repo/data/8-4-4" "8 2 0/4 6 1/3 7 5"
expect_status "stm tables refused in mtm" 2
expect_err "stm tables refused in mtm: said" 'count stm moves'
expect_err "stm tables refused in mtm: the remedies" 'add --metric stm to search in theirs, or leave out --pdb \(for 3x3 boards with the goal of those tables, the solver then uses the 8-mtm-fringe tables in .*data/8-mtm-fringe\)'
# With no set of the search's metric to be found for the board, the remedy builds one.
expect_run "an mtm set for 3x2" 0 "$(dirname "$solver")/pdbgen" build --size 3x2 --pattern 1,2 \
  --metric mtm --out "$scratch/m32" -q
run "$solver" --pdb "$scratch/m32" "1 2 3/4 0 5"
expect_status "mtm tables refused in stm" 2
expect_err "mtm tables refused in stm: the build" 'or leave out --pdb \(the solver finds stm tables itself; build some with: .*pdbgen build --size 3x2 .*--out .*xdg/loyd/pdb/'
unset XDG_DATA_HOME
# scramble keeps its --count N
run "$solver" scramble --count 3 --seed 1 --size 3x3
expect_status "scramble --count" 0
count_check
[ "$(wc -l <"$scratch/out")" -eq 3 ] || { fail "scramble --count 3: not three lines"; show; }

finish
