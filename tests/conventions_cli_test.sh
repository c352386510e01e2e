#!/usr/bin/env bash
# Command-line tests of the puzzle users' conventions (README: Boards, Moves, check, scramble):
# boards in rows and in labels, tile notation and run lengths, `solver check` and `solver
# scramble`, from arguments, --input files and stdin, every bad-input case, and the round trip
# scramble -> solve -> check. Answers are checked by an independent oracle
# (tests/conventions_check.py, standard library, with tests/puzzle_oracle.py): it reads boards
# and moves itself (labels kept as text, never numbered the solver's way), replays every move,
# and compares lengths with its own BFS on boards of up to 8 cells.
#
# Usage: conventions_cli_test.sh SOLVER SCRATCH_DIR
# Prints one line per failed check and exits 1 if any check failed (tests/harness.sh).
. "$(dirname "$0")/harness.sh"
harness_args 2 "SOLVER SCRATCH_DIR" "$@"
program solver "$1"
scratch_dir "$2"
# The shipped 3x3 tables keep the 3x3 searches instant; nothing else is looked up.
export LOYD_PDB_PATH="$repo/data"
pdb=(--pdb "$repo/data/8-4-4" --cache-dir none)

# oracle NAME SUBCOMMAND ARGS...: the last run's stdout passes the oracle (tests/conventions_check.py).
oracle() {
  local name=$1
  shift
  expect_py "$name" conventions_check.py "$@" --output "$scratch/out"
}

# --- Boards: rows, commas, labels -----------------------------------------------------------

# The same 3x3 board from arguments (one, and split into tiles), flat and in rows, with commas.
echo "8 6 7/2 5 4/3 0 1" >"$scratch/b33"
for form in "8 6 7/2 5 4/3 0 1" "8,6,7/2,5,4/3,0,1" "8 6 7 /2 5 4/ 3 _ 1" "8 6 7 2 5 4 3 . 1"; do
  run "$solver" "${pdb[@]}" "$form"
  expect_status "3x3 '$form'" 0
  expect_out "3x3 '$form' is 31 moves" "^argument 1: length 31 "
  oracle "3x3 '$form'" solved --boards "$scratch/b33"
done
# shellcheck disable=SC2046
run "$solver" "${pdb[@]}" 8 6 7/2 5 4/3 0 1
expect_status "3x3 rows as separate arguments" 0
oracle "3x3 rows as separate arguments" solved --boards "$scratch/b33"

# Rectangles in rows need no --size: 4x2, 2x4, 3x2 against the oracle's BFS.
# (b is 36 moves away, the most on 4x2; d cannot reach the goal.)
printf 'a: 1 2 3 4/5 6 7 0\nb: 0 7 2 1/4 3 6 5\nc: 0 2 6 3/7 5 1 4\nd: 7 6 5 4/3 2 1 0\n' >"$scratch/r42"
printf 'a: 1 2/3 4/5 6/7 0\nb: 0 7/6 5/3 4/1 2\nc: 5,3/7,0/6,1/4,2\nd: 2,1/3,4/5,6/7,0\n' >"$scratch/r24"
printf 'a: 5 4 3/2 1 0\nb: 0 5 4/3 2 1\nc: 4 5 0/1 2 3\n' >"$scratch/r32"
for f in r42 r24 r32; do
  run "$solver" --input "$scratch/$f"
  expect_status "rows $f from a file" 0
  oracle "rows $f from a file" solved --boards "$scratch/$f" --bfs
  cp "$scratch/$f" "$scratch/stdin"
  run "$solver"
  expect_status "rows $f from stdin" 0
  oracle "rows $f from stdin" solved --boards "$scratch/$f" --bfs
  : >"$scratch/stdin"
done

# Bad boards: ragged rows, empty rows, rows against --size, unsupported shapes; one line each,
# the batch goes on (exit 1).
cat >"$scratch/bad-rows" <<'EOF'
ok: 1 2 3/4 5 6/7 0 8
ragged: 1 2 3/4 5/6 7 8 0
ragged-one: 1 2 3/4/5 6 7 8 0
empty-row: 1 2 3/4 5 6/7 8 0//
one-column: 1/2/0
too-big: 1 2 3 4 5 6 7 8 9 10 11 12 13/14 15 16 17 18 19 20 21 22 23 24 25 0
EOF
run "$solver" --input "$scratch/bad-rows"
expect_status "bad rows" 1
expect_out "bad rows: ok solved" "^ok: length 1 moves R "
expect_out "ragged" "^ragged: invalid: ragged rows: row 2 has 2 tiles, row 1 has 3$"
expect_out "ragged, one tile" "^ragged-one: invalid: ragged rows: row 2 has 1 tile, row 1 has 3$"
expect_out "empty row" "^empty-row: invalid: row 4 is empty$"
expect_out "one column" "^one-column: invalid: a board of 1 column and 3 rows is not supported"
expect_out "too big" "^too-big: invalid: more than 25 tiles"
expect_err "bad rows named by line" "bad-rows:2: ragged rows"
run "$solver" --size 2x4 "1 2 3 4/5 6 7 0"
expect_status "rows against --size" 1
expect_out "rows against --size" "invalid: the rows make a 4x2 board, --size is 2x4"
run "$solver" "1 2 3/4 5/6 7 8 0"
expect_status "ragged argument" 1

# Labels: a goal in labels, boards in the same labels, from arguments, files and stdin; the
# oracle replays on the labels themselves.
goal="A B C/D E F/G H _"
printf 'one: A B C/D E F/_ G H\ntwo: H G F/E D C/B A _\n' >"$scratch/lab33"
run "$solver" "${pdb[@]}" --goal "$goal" --input "$scratch/lab33"
expect_status "labels 3x3 from a file" 0
oracle "labels 3x3 from a file" solved --goal "$goal" --boards "$scratch/lab33"
cp "$scratch/lab33" "$scratch/stdin"
run "$solver" "${pdb[@]}" --goal "$goal" --notation tile
expect_status "labels 3x3 from stdin, tile notation" 0
oracle "labels 3x3 from stdin, tile notation" solved --goal "$goal" --notation tile --runs --boards "$scratch/lab33"
: >"$scratch/stdin"
run "$solver" "${pdb[@]}" --goal "$goal" A B C D E F _ G H
expect_status "labels as separate arguments" 0
expect_out "labels as separate arguments" "^argument 1: length 2 moves RR "
# A 2x4 of words and emoji, blank first, against the BFS.
goal24="_ cat/dog 🐭/owl 🐸/yak 🦊"
printf 'p: 🦊 yak/🐸 owl/🐭 dog/cat _\nq: cat _/dog 🐭/owl 🐸/yak 🦊\nr: _ cat/dog 🐭/owl 🐸/🦊 yak\n' >"$scratch/lab24"
run "$solver" --goal "$goal24" --input "$scratch/lab24"
expect_status "labels 2x4" 0
oracle "labels 2x4" solved --goal "$goal24" --boards "$scratch/lab24" --bfs
# --show and --show --json speak the labels.
run "$solver" "${pdb[@]}" --goal "$goal" --show "A B C/D E F/G _ H"
expect_out "--show labels: the moved tile" "^move 1: R \(tile H\)$"
expect_out "--show labels: the end" "^G H _$"
run "$solver" "${pdb[@]}" --goal "$goal" --show --json "A B C/D E F/G _ H"
oracle "--show --json with labels" show-json-labels
# The replay page carries the labels.
run "$solver" "${pdb[@]}" --goal "$goal" --html "$scratch/lab.html" "A B C/D E F/_ G H"
expect_status "--html with labels" 0
count_check
grep -q '"start":\["A","B","C","D","E","F",null,"G","H"\]' "$scratch/lab.html" || fail "--html with labels: no labels in the page"

# Label refusals: each an invalid line naming the token (exit 1), or a bad --goal (exit 2).
cat >"$scratch/bad-labels" <<'EOF'
unknown: A B C/D E F/G H Q
duplicate: A A C/D E F/G H _
blanks: A B C/D E F/G _ .
other-labels: a b c/d e f/g h _
numbers: 1 2 3/4 5 6/7 8 0
fine: A B C/D E F/G _ H
EOF
run "$solver" "${pdb[@]}" --goal "$goal" --input "$scratch/bad-labels"
expect_status "bad labels" 1
expect_out "unknown label" "^unknown: invalid: 'Q' is not one of the goal's labels \(A B C D E F G H; blank _ \. or 0\)$"
expect_out "duplicate label" "^duplicate: invalid: label 'A' appears twice$"
expect_out "two blanks" "^blanks: invalid: two blanks$"
expect_out "a goal in other labels" "^other-labels: invalid: 'a' is not one of the goal's labels"
expect_out "numbers against labels" "^numbers: invalid: '1' is not one of the goal's labels"
expect_out "the good line still solved" "^fine: length 1 moves R "
run "$solver" "A B C/D E F/G H _"
expect_status "labels without --goal" 1
expect_out "labels without --goal" "'A' is not a tile number \(a board in labels needs --goal in the same labels\)"
for g in "A B C/D E F/G H I" "A B C/D E F/G _ ." "A B C/D E F/A H _" "A B C/D E/F G H _" "A B C D E F G _"; do
  run "$solver" --goal "$g" "A B C/D E F/G _ H"
  expect_status "bad label goal '$g'" 2
  expect_err "bad label goal '$g' message" "bad --goal"
  expect_no_out "bad label goal '$g'"
done

# --- Moves: notations and run lengths --------------------------------------------------------

printf 'x: 0 2 6 3/7 5 1 4\ny: 0 7 2 1/4 3 6 5\n' >"$scratch/n42"
run "$solver" --notation tile --input "$scratch/n42"
expect_status "tile notation" 0
oracle "tile notation: runs by default" solved --notation tile --runs --boards "$scratch/n42" --bfs
run "$solver" --notation tile --no-runs --input "$scratch/n42"
oracle "tile notation --no-runs" solved --notation tile --no-runs --boards "$scratch/n42" --bfs
run "$solver" --runs --input "$scratch/n42"
oracle "blank notation --runs" solved --notation blank --runs --boards "$scratch/n42" --bfs
run "$solver" --input "$scratch/n42"
oracle "blank notation: today's letters" solved --notation blank --no-runs --boards "$scratch/n42" --bfs
# The JSON names the notation when it is not the default (and is unchanged when it is).
run "$solver" --json --notation tile "1 2 3/4 5 6/0 7 8"
expect_out "JSON notation" '"moves":"L2","notation":"tile","runs":true,'
run "$solver" --json --notation blank --runs "1 2 3/4 5 6/0 7 8"
expect_out "JSON blank with runs" '"moves":"R2","notation":"blank","runs":true,'
run "$solver" --json "1 2 3/4 5 6/0 7 8"
count_check
if grep -q '"notation"' "$scratch/out"; then fail "default JSON grew a notation field"; show; fi
run "$solver" --notation sideways 1 2 3 0
expect_status "bad --notation" 2
expect_err "bad --notation message" "bad notation 'sideways'"
run "$solver" --runs --no-runs 1 2 3 0
expect_status "--runs with --no-runs" 2

# --- check -----------------------------------------------------------------------------------

# Every verdict on a 2x4 board against the oracle's BFS, in both notations, from a file.
cat >"$scratch/check-blank" <<'EOF'
optimal: 1 2 3 4/5 6 0 7 R
detour: 1 2 3 4/5 6 0 7 RLR
runs: 1 2 3 4/5 0 6 7 R2
misses: 1 2 3 4/5 6 0 7 L
illegal: 1 2 3 4/5 6 0 7 RRR
illegal-run: 1 2 3 4/5 6 0 7 UR3
empty: 1 2 3 4/5 6 7 0 -
long: 1 2 3 4/5 6 7 0 ULLLDRRRULLLDRRR
EOF
run "$solver" --input "$scratch/check-blank" check
expect_status "check verdicts (blank)" 8
oracle "check verdicts (blank)" checked --lines "$scratch/check-blank" --bfs
expect_out "check summary" "^summary: instances 8, optimal 3, suboptimal 1, solves 0, misses-goal 2, illegal 2, invalid 0$"
awk '{m=$NF; t=""; for(i=1;i<=length(m);i++){c=substr(m,i,1); t=t (c=="U"?"D":c=="D"?"U":c=="L"?"R":c=="R"?"L":c)}; $NF=t; print}' "$scratch/check-blank" >"$scratch/check-tile"
run "$solver" check --notation tile --input "$scratch/check-tile"
expect_status "check verdicts (tile)" 8
oracle "check verdicts (tile)" checked --notation tile --lines "$scratch/check-tile" --bfs
expect_out "tile notation names the letter as written" "^illegal-run: illegal: move 3 \(L at character 2\) leaves the board: no tile can slide left$"
# The same from stdin.
cp "$scratch/check-blank" "$scratch/stdin"
run "$solver" check
expect_status "check from stdin" 8
oracle "check from stdin" checked --lines "$scratch/check-blank" --bfs
: >"$scratch/stdin"

# Arguments: BOARD... MOVES (board quoted or as separate tiles) and --moves; exit statuses.
run "$solver" check "1 2 3/4 5 6/7 0 8" R
expect_status "check optimal" 0
expect_out "check optimal" "^argument 1: optimal stm 1 mtm 1 optimal 1 difference 0$"
run "$solver" check 1 2 3 4 5 6 7 0 8 R
expect_status "check, board as separate tiles" 0
run "$solver" check --moves R "1 2 3/4 5 6/7 0 8"
expect_status "check --moves" 0
run "$solver" check "1 2 3/4 5 6/7 0 8" RLR
expect_status "check suboptimal" 7
expect_out "check suboptimal" "^argument 1: suboptimal stm 3 mtm 3 optimal 1 difference 2$"
run "$solver" check "1 2 3/4 5 6/7 0 8" L
expect_status "check misses the goal" 8
expect_out "check misses the goal" "^argument 1: misses-goal stm 1 mtm 1 optimal 1 ends 1 2 3/4 5 6/0 7 8$"
run "$solver" check --board-format flat "1 2 3/4 5 6/7 0 8" L
expect_out "check --board-format flat" "ends 1 2 3 4 5 6 0 7 8$"
run "$solver" check "1 2 3/4 5 6/7 0 8" RD
expect_status "check illegal" 8
expect_out "check illegal names the move" "^argument 1: illegal: move 2 \(D at character 2\) leaves the board: the blank cannot move down$"
run "$solver" check "1 2 3/4 5 6/7 0 8" R0
expect_status "check run length 0" 1
expect_out "check run length 0" "invalid: moves 'R0': run length 0 at character 2$"
run "$solver" check "1 2 3/4 5 6/7 0 8" R05
expect_status "check leading zero" 1
run "$solver" check "1 2 3/4 5 6/7 0 8" RX
expect_status "check bad letter" 1
expect_out "check bad letter" "bad move character 'X' at character 2"
run "$solver" check "1 2 3/4 5 6/7 0 8"
expect_status "check without moves" 2
expect_err "check without moves" "check needs a board and moves"
printf 'lonely: 1 2 3 4 5 6 7 0 8\n' >"$scratch/stdin"
run "$solver" check
expect_status "check line without moves" 1
: >"$scratch/stdin"
# Unsolvable start: no sequence reaches the goal.
run "$solver" check "1 2 3/4 5 6/8 7 0" UL
expect_status "check unsolvable" 8
expect_out "check unsolvable" "misses-goal stm 2 mtm 2 optimal unknown \(unsolvable\) ends "
# --no-optimal: replay only.
run "$solver" check --no-optimal "1 2 3/4 5 6/7 0 8" RLR
expect_status "check --no-optimal" 0
expect_out "check --no-optimal" "^argument 1: solves stm 3 mtm 3 optimal unknown \(not searched\)$"
# Labels, tile notation with runs, JSON.
run "$solver" "${pdb[@]}" check --goal "$goal" --notation tile --json "A B C/D E F/_ G H" L2
expect_status "check labels JSON" 0
oracle "check labels JSON" check-json-labels
run "$solver" check --json "1 2 3/4 5 6/7 0 8" LU3
oracle "check illegal JSON" check-json-illegal
# An invalid line outranks a miss in the exit status; a limit hides the optimum (exit 3).
printf 'bad: 1 2 3/4 5 6/7 0 8 R0\nmiss: 1 2 3/4 5 6/7 0 8 L\n' >"$scratch/mixed"
run "$solver" check --input "$scratch/mixed"
expect_status "check invalid beats miss" 1
hard="5 10 14 7/8 3 6 1/15 0 12 9/2 11 4 13"
run "$solver" --pdb "$repo/data/15-5-5-5" --cache-dir none "$hard"
expect_out "the 55-move board" "^argument 1: length 55 "
run "$solver" check --heuristic manhattan --node-limit 1000 "$hard" "$(awk '{print $6}' "$scratch/out")"
expect_status "check with a limit" 3
expect_out "check with a limit" "optimal unknown \(node limit, at least [0-9]+\)"
# A limit reached once every shorter length is ruled out (here by h of the start, 2) still
# proves the sequence optimal.
run "$solver" check --heuristic manhattan --node-limit 1 "1 2 3/4 5 6/0 7 8" R2
expect_status "check proved optimal under a limit" 0
expect_out "check proved optimal under a limit" "^argument 1: optimal stm 2 mtm 1 optimal 2 difference 0$"
run "$solver" check --heuristic manhattan --node-limit 1 "1 2 3/4 5 6/0 7 8" R2L2R2
expect_status "check suboptimal under a limit" 3
expect_out "check suboptimal under a limit" "solves stm 6 mtm 3 optimal unknown \(node limit, at least 2\)"

# --- scramble --------------------------------------------------------------------------------

run "$solver" scramble --size 3x2 --count 60 --seed 11
expect_status "scramble 3x2" 0
cp "$scratch/out" "$scratch/s32"
oracle "scramble 3x2: solvable, rows" solvable --count 60
run "$solver" scramble --size 3x2 --count 60 --seed 11
count_check
cmp -s "$scratch/out" "$scratch/s32" || fail "scramble: the same seed gave other boards"
run "$solver" scramble --size 3x2 --count 60 --seed 12
count_check
if cmp -s "$scratch/out" "$scratch/s32"; then fail "scramble: two seeds gave the same boards"; fi
run "$solver" scramble --size 4x2 --goal blank-first --count 40 --seed 3
oracle "scramble 4x2 blank-first" solvable --goal blank-first --size 4x2 --count 40
run "$solver" scramble --goal "$goal24" --count 40 --seed 5
expect_status "scramble in labels" 0
cp "$scratch/out" "$scratch/slab"
oracle "scramble in labels" solvable --goal "$goal24" --count 40
run "$solver" scramble --size 3x3 --board-format flat --seed 2 --count 3
expect_out "scramble --board-format flat" "^[0-8]( [0-8]){8}$"
run "$solver" scramble --seed 1
expect_out "scramble: 4x4 by default" "^[0-9]+( [0-9]+){3}(/[0-9]+( [0-9]+){3}){3}$"
run "$solver" scramble --size 3x3
expect_status "scramble without a seed" 0
expect_err "scramble names its seed" "^solver: scramble seed [0-9]+ \(--seed [0-9]+ repeats it\)$"
run "$solver" scramble --size 3x3 -q
expect_no_err "scramble -q: nothing on stderr"
for bad in "--count abc" "--count -1" "--seed -5" "--seed 18446744073709551616" "--json" "--heuristic pdb" \
    "--size 1x5" "--goal nonsense" "--board-format grid" "1 2 3 0"; do
  # shellcheck disable=SC2086
  run "$solver" scramble $bad
  expect_status "scramble $bad" 2
  expect_no_out "scramble $bad"
done
run "$solver" scramble --help
expect_status "scramble --help" 0
expect_out "scramble --help" "^Usage: solver scramble"
run "$solver" check --help
expect_out "check --help" "^Usage: solver check"
run "$solver" check --html x.html "1 2 3 0" R
expect_status "--html does not apply to check" 2
expect_err "--html does not apply to check" "--html does not apply to check"

# --- Round trips: scramble -> solve -> check ------------------------------------------------

# 2x4 in tile notation: solve's lengths are the BFS distances, and check finds every answer
# optimal.
run "$solver" scramble --size 2x4 --count 25 --seed 21
awk '{print "s" NR ": " $0}' "$scratch/out" >"$scratch/rt24"
run "$solver" --notation tile --input "$scratch/rt24"
expect_status "round trip 2x4: solve" 0
oracle "round trip 2x4: solve" solved --notation tile --runs --boards "$scratch/rt24" --bfs
paste -d' ' "$scratch/rt24" <(awk '{print $5}' "$scratch/out" | grep -v '^$' | head -25) >"$scratch/rt24-check"
run "$solver" check --notation tile --input "$scratch/rt24-check"
expect_status "round trip 2x4: check" 0
oracle "round trip 2x4: check" checked --notation tile --lines "$scratch/rt24-check" --bfs
count_check
[ "$(grep -c ': optimal stm' "$scratch/out")" -eq 25 ] || { fail "round trip 2x4: not 25 optimal"; show; }
# 3x3 in labels through a pipe: scramble | solve, then check agrees with solve's lengths.
"$solver" scramble --goal "$goal" --count 12 --seed 8 | awk '{print "t" NR ": " $0}' >"$scratch/rt33"
cp "$scratch/rt33" "$scratch/stdin"
run "$solver" "${pdb[@]}" --goal "$goal" --notation tile --input -
: >"$scratch/stdin"
expect_status "round trip 3x3 labels: solve" 0
cp "$scratch/out" "$scratch/rt33-solved"
oracle "round trip 3x3 labels: solve" solved --goal "$goal" --notation tile --runs --boards "$scratch/rt33"
paste -d' ' "$scratch/rt33" <(awk '$1 != "summary:" {print $5}' "$scratch/rt33-solved") >"$scratch/rt33-check"
run "$solver" "${pdb[@]}" check --goal "$goal" --notation tile --input "$scratch/rt33-check"
expect_status "round trip 3x3 labels: check" 0
oracle "round trip 3x3 labels: check" checked --goal "$goal" --notation tile --lines "$scratch/rt33-check" \
  --solved "$scratch/rt33-solved"

finish
