#!/usr/bin/env bash
# Command-line tests of the solver: exit codes, plain and --json output, and every printed
# solution replayed by an independent checker (tests/cli_check.py, standard library only),
# which also compares lengths with its own BFS on boards of up to 8 cells.
#
# Usage: cli_test.sh SOLVER SCRATCH_DIR
# Prints one line per failed check and exits 1 if any check failed (tests/harness.sh).
. "$(dirname "$0")/harness.sh"
harness_args 2 "SOLVER SCRATCH_DIR" "$@"
program solver "$1"
scratch_dir "$2"

# verify NAME FORMAT INPUTFILE CHECKER-ARGS...: the last run's stdout passes the checker.
verify() {
  local name=$1 format=$2 input=$3
  shift 3
  expect_py "$name" cli_check.py verify "$format" --input "$input" --output "$scratch/out" "$@"
}

# one_instance FILE TILES...: writes "argument 1: TILES" so the checker can find the
# instance under the label the solver uses for command-line numbers.
one_instance() {
  local f=$1
  shift
  echo "argument 1: $*" >"$f"
}

# --- Help, version, usage errors ---------------------------------------------------------

run "$solver" --help
expect_status "--help" 0
expect_out "--help" "^Usage: solver"
expect_out "--help lists exit codes" "^  2 +usage error"
expect_out "--help lists play's own status" "^  9 +play: this build has no play page"
expect "--help lists no pdbgen status (6, busy)" not grep -q "^  6 " "$scratch/out"
run "$solver" --version
expect_status "--version" 0
expect_out "--version" "^solver \(loyd\) [0-9]+\.[0-9]+"

run "$solver" --no-such-option 6 4 7 8 5 0 3 2 1
expect_status "unknown option" 2
run "$solver" --heuristic bogus 6 4 7 8 5 0 3 2 1
expect_status "bad --heuristic" 2
expect_err "bad --heuristic names it" "bogus"
run "$solver" --algorithm dfs 6 4 7 8 5 0 3 2 1
expect_status "bad --algorithm" 2
# A word of letters where a board or command belongs is a mistyped command (usage, exit 2);
# with --goal labels, letters are tiles and the board is judged as one.
for word in frob solv; do
  run "$solver" "$word" 1 2 3 4 5 6 7 8 0
  expect_status "mistyped command $word" 2
  expect_err "mistyped command $word: named" "^solver: unknown command '$word' \(solve, check, scramble, play"
done
run "$solver" --goal "A B C/D E F/G H _" frob
expect_status "a word with --goal labels is a board" 1
run "$solver" --time-limit -1 6 4 7 8 5 0 3 2 1
expect_status "negative --time-limit" 2
run "$solver" --time-limit abc 6 4 7 8 5 0 3 2 1
expect_status "non-numeric --time-limit" 2
for t in inf nan 1e400; do
  run "$solver" --time-limit "$t" 6 4 7 8 5 0 3 2 1
  expect_status "--time-limit $t" 2
done
run "$solver" --node-limit 5 --max-nodes 5 6 4 7 8 5 0 3 2 1
expect_status "--node-limit with --max-nodes" 2
for bad in -1 0 +5 1e3; do
  run "$solver" --node-limit "$bad" 6 4 7 8 5 0 3 2 1
  expect_status "--node-limit $bad" 2
  expect_err "--node-limit $bad" "node-limit"
done
for empty in --input --pdb --cache-dir; do
  run "$solver" "$empty" "" 6 4 7 8 5 0 3 2 1
  expect_status "$empty ''" 2
  expect_err "$empty ''" "^solver: $empty needs"
done
# Options belong to commands (program/command_options.h): one of another command is a usage
# error, one line naming the option and the command, before anything is read or written.
for refused in "check:--all:check --all 8 6 7 2 5 4 3 0 1 R" "check:--show:check --show 1 2 3 0 R" \
    "solve:--seed:--seed 3 8 6 7 2 5 4 3 0 1" "solve:--no-optimal:--no-optimal 8 6 7 2 5 4 3 0 1" \
    "scramble:--heuristic:scramble --heuristic pdb" "scramble:--input:scramble --input x.txt" \
    "play:--json:play --out $scratch/x.html --json" "play:--count:play --out $scratch/x.html --count 2" \
    "check:--count:check --count 1 2 3 0 R"; do
  command=${refused%%:*}
  rest=${refused#*:}
  option=${rest%%:*}
  # shellcheck disable=SC2086
  run "$solver" ${rest#*:}
  expect_status "$option in $command" 2
  expect_err "$option in $command" "^solver: $option does not apply to $command \(see solver --help\)$"
  expect_err_line "$option in $command: one line"
  expect_no_out "$option in $command"
done
expect "a refused play wrote no page" [ ! -e "$scratch/x.html" ]
# A short option of another command, whose long name solve has too (--count), is named so.
run "$solver" -n 3 "8 2 0/4 6 1/3 7 5"
expect_status "-n in solve" 2
expect_err "-n in solve: whose it is" "^solver: -n \(--count of scramble\) does not apply to solve \(see solver --help\)$"
# IDA*'s switches where no IDA* of theirs runs: refused, not ignored.
for refused in "--no-prune:--algorithm astar:A\* keeps every position" \
    "--no-prune:--metric mtm:no duplicate-move automaton" \
    "--no-bpmx:--algorithm astar:with --all or --count"; do
  option=${refused%%:*}
  rest=${refused#*:}
  # shellcheck disable=SC2086
  run "$solver" "$option" ${rest%%:*} "8 2 0/4 6 1/3 7 5"
  expect_status "$option with ${rest%%:*}" 2
  expect_err "$option with ${rest%%:*}" "^solver: $option does not apply to ${rest%%:*} .*${rest#*:}"
  expect_err_line "$option with ${rest%%:*}: one line"
  expect_no_out "$option with ${rest%%:*}"
done
expect_run "--no-bpmx with A* and --count" 0 "$solver" --no-bpmx --algorithm astar --count \
  --heuristic manhattan "8 6 7/2 5 4/3 0 1" &&
  expect_out "--no-bpmx with A* and --count" "^argument 1: length 31 solutions "
# The command word is found past options and their values; --count is solve's flag and
# scramble's number, each read as its command declares it.
expect_run "an option before check" 0 "$solver" --goal blank-first check "1 0 2/3 4 5/6 7 8" L &&
  expect_out "an option before check" "^argument 1: optimal stm 1 "
expect_run "scramble --count N" 0 "$solver" scramble --count 2 --seed 1 --size 3x3 &&
  expect "scramble --count 2: two positions" [ "$(wc -l <"$scratch/out")" = 2 ]
expect_run "solve --count" 0 "$solver" --count -j 1 8 6 7 2 5 4 3 0 1 &&
  expect_out "solve --count" "^argument 1: length 31 .*solutions [0-9]+"
# A file saved with a UTF-8 byte order mark.
printf '\xef\xbb\xbf8 6 7 2 5 4 3 0 1\n' >"$scratch/bom.txt"
run "$solver" -j 1 --input "$scratch/bom.txt"
expect_status "a byte order mark" 0
expect_out "a byte order mark" "bom.txt:1: length 31 "
# ... also at the start of a file concatenated to it, and of an argument.
cat "$scratch/bom.txt" "$scratch/bom.txt" >"$scratch/bom2.txt"
run "$solver" -j 1 --input "$scratch/bom2.txt"
expect_status "byte order marks of two files" 0
expect_out "byte order marks of two files: the second line" "bom2.txt:2: length 31 "
run "$solver" -j 1 $'\xef\xbb\xbf8 6 7 2 5 4 3 0 1'
expect_status "a byte order mark in an argument" 0
expect_out "a byte order mark in an argument" "^argument 1: length 31 "
# ... and of check's moves, the last argument or --moves.
expect_run "a byte order mark before check's moves" 0 "$solver" check "1 2 3 4 5 6 7 0 8" $'\xef\xbb\xbfR'
expect_out "a byte order mark before check's moves" "^argument 1: optimal stm 1 "
expect_run "a byte order mark before --moves" 0 "$solver" check --moves $'\xef\xbb\xbfR' "1 2 3 4 5 6 7 0 8"
expect_out "a byte order mark before --moves" "^argument 1: optimal stm 1 "
# check's moves given twice, or in two arguments: said so (not "mix separate tiles").
expect_run "check: moves as an argument and --moves" 2 "$solver" check "1 2 3/4 5 6/7 0 8" R --moves R
expect_err "check: moves as an argument and --moves: said" "^solver: 'R' reads as moves before the moves: check takes its moves once"
expect_run "check: moves in two arguments" 2 "$solver" check "1 2 3/4 5 6/7 0 8" R L
expect_err "check: moves in two arguments: said" "quote moves holding spaces"
expect_run "check: moves in one quoted argument" 0 "$solver" check "1 2 3/4 5 6/0 7 8" "R R"
# An argument holding no board is refused, where a line of input would be skipped.
for empty in "" "  " $'\t\n'; do
  run "$solver" -j 1 8 6 7 2 5 4 3 0 1 "$empty"
  expect_status "an empty argument after separate tiles" 2
  expect_err "an empty argument after separate tiles: named" "^solver: argument 10 is empty: a board was expected"
done
run "$solver" -j 1 "8 6 7 2 5 4 3 0 1" ""
expect_status "an empty argument after a board" 2
expect_err "an empty argument after a board: named" "^solver: argument 2 is empty"
run "$solver" check "" R
expect_status "check: an empty board argument" 2
expect_err "check: an empty board argument: named" "^solver: argument 1 is empty"
run "$solver" -j 1 "# note" "8 6 7 2 5 4 3 0 1"
expect_status "a comment argument" 2
expect_err "a comment argument: named" "^solver: argument 1 is a comment \('# note'\)"
# An argument may carry its own label, and be written as a grid (a line break ends a row).
run "$solver" -j 1 "easy: 1 2 3 4 5 6 7 0 8" "$(printf '8 6 7\n2 5 4\n3 0 1\n')"
expect_status "a labelled argument and a grid" 0
expect_out "a labelled argument" "^easy: length 1 "
expect_out "a board written as a grid" "^argument 2: length 31 "
run "$solver" -j 1 "$(printf '1 2\n3 4 5 6 7\n0 8')"
expect_status "a grid of ragged rows" 1
expect_err "a grid of ragged rows: said" "ragged rows: row 2 has 5 tiles"
run "$solver" -j 1 --size 3x2 "$(printf '1 2 3\n4 0 5')"
expect_status "a 3x2 grid" 0
expect_out "a 3x2 grid" "^argument 1: length 1 "
# After --, the boards (or a command) follow.
run "$solver" -j 1 -- 8 6 7 2 5 4 3 0 1
expect_status "-- then a board" 0
expect_out "-- then a board" "^argument 1: length 31 "
# Tiles as separate arguments with commas after them are one board too.
run "$solver" -j 1 8, 6, 7, 2, 5, 4, 3, 0, 1
expect_status "separate tiles with commas" 0
expect_out "separate tiles with commas: one board" "^argument 1: length 31 "
run "$solver" -j 1 1 2 3 "4 5 6" 7 0 8
expect_status "separate tiles and a whole board mixed" 2
expect_err "separate tiles and a whole board mixed: the first of each named" "mix separate tiles \\('1'\\) and whole boards \\('4 5 6'\\)"
# A label as an argument of its own (before the tiles): said so.
run "$solver" -j 1 easy: 8 6 7 2 5 4 3 0 1
expect_status "a label as an argument of its own" 2
expect_err "a label as an argument of its own: said" "^solver: the label 'easy:' is an argument of its own: quote it with its board, as in 'easy: 8 \\.\\.\\.'"
# An option that takes a value followed by another option: the missing value is named (the
# option parser would take --size as --count's value and complain of '2x2').
run "$solver" scramble --count --size 2x2
expect_status "scramble --count --size 2x2" 2
expect_err "scramble --count --size 2x2: the missing value named" "^solver: --count needs a value \\(the argument after it is the option '--size'\\)"
# Well-formed sizes too large for any board, and a --goal keyword with a line's end.
run "$solver" --size 99999x99999 "1 2 3 0"
expect_status "--size 99999x99999" 2
expect_err "--size 99999x99999: not supported" "^solver: board size 99999x99999 is not supported"
run "$solver" -j 1 --goal "$(printf 'blank-first\r')" "1 2 3 0"
expect_status "--goal with a CR" 0
# A lone - reads the instances from standard input.
printf '8 6 7 2 5 4 3 0 1\n' >"$scratch/stdin"
run "$solver" -j 1 -
expect_status "- reads stdin" 0
expect_out "- reads stdin" "^stdin:1: length 31 "
printf '1 2 3/4 5 6/7 0 8 R\n' >"$scratch/stdin"
run "$solver" check -
expect_status "check - reads stdin" 0
expect_out "check - reads stdin: the line checked" "^stdin:1: "
# A lone - among other arguments is refused (it is standard input, not a tile), as is - twice.
run "$solver" -j 1 - -
expect_status "- twice" 2
expect_err "- twice: said" "lone '-' reads standard input and must be the only argument"
run "$solver" -j 1 1 2 3 4 5 6 7 - 8
expect_status "- among separate tiles" 2
expect_err "- among separate tiles: the blank named" "the blank is 0, _ or \\."
# ... but check's last argument is its moves, where - is none.
run "$solver" check 1 2 3 4 5 6 7 8 0 -
expect_status "check with - as the moves" 0
expect_out "check with - as the moves: no moves, optimal" "^argument 1: optimal stm 0 "
# An empty moves argument is no moves too (JSON writes a solved board's as ""), not a refusal.
run "$solver" check "1 2 3/4 5 6/7 8 _" ""
expect_status "check with empty moves" 0
expect_out "check with empty moves: no moves, optimal" "^argument 1: optimal stm 0 "
run "$solver" check "1 2 3/4 5 6/7 _ 8" ""
expect_status "check with empty moves, off the goal" 8
expect_out "check with empty moves, off the goal: misses it" "^argument 1: misses-goal stm 0 "
: >"$scratch/stdin"
# A word is named as no tile number, not counted as one; a huge number is out of range.
run "$solver" -j 1 solve frob
expect_status "a word as the board" 1
expect_out "a word as the board: named" "'frob' is not a tile number"
run "$solver" -j 1 "1 2 3/4 5 6/7 4294967297 8"
expect_status "a tile number beyond any integer" 1
expect_out "a tile number beyond any integer: out of range" "'4294967297' is out of range"
# check with the moves left out: the last tile is taken for the moves, and the message says so.
run "$solver" check 1 2 3 4 5 6 7 0 8
expect_status "check without moves" 1
expect_out "check without moves: said" "were they left out"
run "$solver" check 1 2 3 4 5 6 7 8 _
expect_status "check without moves, the blank last" 1
expect_out "check without moves, the blank last: said" "were they left out"
# --node-limit 1 stops one instance however many threads search it.
run "$solver" -j 2 --node-limit 1 8 6 7 2 5 4 3 0 1
expect_status "--node-limit 1 on two threads" 3
# The end of a batch: the thread that runs out of lines takes over half of the search still
# running (Korf's #1: 57 moves, about 80 M nodes with Manhattan), whose record then says two
# threads; the others, short, stay on one.
printf 'k1: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\ne1: 1 2 0 3 4 5 6 7 8 9 10 11 12 13 14 15\ne2: 1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n' >"$scratch/batch_end.txt"
run "$solver" -j 2 --heuristic manhattan --goal blank-first --json --input "$scratch/batch_end.txt"
expect_status "the end of a batch" 0
expect_out "the end of a batch: the long search at its length, on two threads" '^\{"label":"k1","status":"solved","length":57,.*"threads":2\}$'
expect_out "the end of a batch: a short one on one" '^\{"label":"e1","status":"solved","length":2,[^}]*"seconds":[0-9.]+\}$'
# A line too long to be an instance is invalid and skipped; the lines around it are solved.
{ echo "1 2 3 4 5 6 7 0 8"; printf '1 %.0s' $(seq 40000); echo; echo "8 6 7 2 5 4 3 0 1"; } >"$scratch/long.txt"
run "$solver" -j 1 --input "$scratch/long.txt"
expect_status "a 80 kB line" 1
expect_out "a 80 kB line: invalid" "long.txt:2: invalid: line longer than 65536 bytes"
expect_out "a 80 kB line: the next one" "long.txt:3: length 31 "
# A line the --pdb set does not fit (another board) is invalid, like one whose goal it cannot
# map; the lines around it are solved. Tables counting another metric fit no line: usage.
printf '1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n8 6 7 2 5 4 3 0 1\n' >"$scratch/mixed.txt"
run "$solver" -j 1 --pdb "$repo/data/8-4-4" --input "$scratch/mixed.txt"
expect_status "a 4x4 line with 3x3 tables" 1
expect_out "a 4x4 line with 3x3 tables: invalid" "mixed.txt:2: invalid: the tables in .*8-4-4 are for 3x3 boards, the instance is 4x4"
expect_out "a 4x4 line with 3x3 tables: the next one" "mixed.txt:3: length 31 "
# A small stack limit (ulimit -s 32: soft and hard) is no crash: buffers live on the heap, the
# program runs on a thread of its own with 8 MiB and so do the search threads.
run bash -c 'ulimit -s 32 && exec "$0" -j 2 --goal blank-first --pdb "$1" "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15"' \
  "$solver" "$repo/data/15-5-5-5"
expect_status "ulimit -s 32" 0 && expect_out "ulimit -s 32: solved" "^argument 1: length 42 "
echo "6 4 7 8 5 0 3 2 1" >"$scratch/one.txt"
run "$solver" --input "$scratch/one.txt" 6 4 7 8 5 0 3 2 1
expect_status "--input and arguments" 2

for size in 4 4x 1x4 6x5 axb 4x4x4 0x0; do
  run "$solver" --size "$size" 6 4 7 8 5 0 3 2 1
  expect_status "bad --size $size" 2
  expect_err "bad --size $size message" "size"
  expect_no_out "bad --size $size"
done

for goal in nonsense "1 2 3" "1 2 3 4 5 6 7 8 8" "1 2 3 4 5 6 7 8 9" "1 2 x 4 5 6 7 8" "1 2 x 4 5 6 7 8 8" \
    "1 2 3/4 5 6/7 8" "1 2 3/4 5 6/7 8 0//"; do
  run "$solver" --goal "$goal" 6 4 7 8 5 0 3 2 1
  expect_status "bad --goal '$goal'" 2
  expect_err "bad --goal '$goal' message" "goal"
  expect_no_out "bad --goal '$goal'"
done
run "$solver" --size 2x4 --goal "1 2 3 4 5 6 7 8 0" 1 2 3 4 5 6 7 0
expect_status "--goal of 9 numbers with --size 2x4" 2
# A goal holding a token that is not a number is a goal in labels (README: Boards): the board
# must then use the same labels, and one that does not is an invalid instance, named.
run "$solver" --goal "1 2 x 4 5 6 7 8 0" 6 4 7 8 5 0 3 2 1
expect_status "board in numbers, goal in labels" 1
expect_err "board in numbers, goal in labels names the token" "'3' is not one of the goal's labels"

# No instance at all: empty stdin, only comments, empty file.
: >"$scratch/stdin"
run "$solver"
expect_status "empty stdin" 2
expect_err "empty stdin message" "no instance"
printf '# only a comment\n\n   \n' >"$scratch/stdin"
run "$solver"
expect_status "comments only" 2
: >"$scratch/stdin"
: >"$scratch/empty.txt"
run "$solver" --input "$scratch/empty.txt"
expect_status "empty file" 2
# A read error on stdin (a folder as stdin: EISDIR) is a failed read, not an empty input.
"$solver" <"$scratch" >"$scratch/out" 2>"$scratch/err"
ran "solver <folder" $?
expect_status "a folder as stdin" 4
expect_err "a folder as stdin: named" "^solver: stdin: cannot read: Is a directory$"
expect_err_line "a folder as stdin"

# File errors.
run "$solver" --input "$scratch/does-not-exist.txt"
expect_status "missing --input file" 4
expect_err "missing --input file names it" "does-not-exist.txt"
expect_err "missing --input file says why" "does-not-exist.txt': No such file or directory"
run "$solver" --input "$scratch"
expect_status "--input is a directory" 4
expect_err "--input is a directory, said so" "^solver: cannot read input file '.*': it is a folder$"
run "$solver" --cache-dir "$scratch/one.txt" 8 6 7 2 5 4 3 0 1
expect_status "--cache-dir is a file" 2
expect_err "--cache-dir is a file: said" "^solver: --cache-dir .*one.txt is not a folder"

# --- Solving -------------------------------------------------------------------------------

# The two 31-move 3x3 states, as separate numbers and as one argument with commas.
for inst in "6 4 7 8 5 0 3 2 1" "8 6 7 2 5 4 3 0 1"; do
  # shellcheck disable=SC2086
  run "$solver" $inst
  expect_status "3x3 $inst" 0
  one_instance "$scratch/inst.txt" "$inst"
  verify "3x3 $inst" plain "$scratch/inst.txt" --size 3x3 --expect "argument 1=solved:31"
  run "$solver" --json "${inst// /,}"
  expect_status "3x3 commas $inst" 0
  echo "argument 1: $inst" >"$scratch/inst.txt"
  verify "3x3 commas --json $inst" json "$scratch/inst.txt" --size 3x3 --expect "argument 1=solved:31"
done

# Every heuristic and both algorithms agree on a 3x3 batch (lengths from the checker's BFS
# would need 181,440 states in Python; the seeds' 31 and the goal's 0 are known instead).
cat >"$scratch/batch33.txt" <<'EOF'
# two hardest and the goal itself
a: 6 4 7 8 5 0 3 2 1
b: 8 6 7 2 5 4 3 0 1
goal: 1 2 3 4 5 6 7 8 0
EOF
for h in misplaced manhattan linear-conflict; do
  for alg in ida astar; do
    [ "$h/$alg" = misplaced/ida ] && continue  # ~10^8 nodes on the 31-move states
    run "$solver" --heuristic "$h" --algorithm "$alg" --input "$scratch/batch33.txt"
    expect_status "3x3 batch $h $alg" 0
    verify "3x3 batch $h $alg" plain "$scratch/batch33.txt" --size 3x3 \
      --expect a=solved:31 --expect b=solved:31 --expect goal=solved:0
  done
done
run "$solver" --input "$scratch/batch33.txt"
expect_out "at the goal: no moves" "^goal: length 0 moves - "

# The seeds' 4x4 board: 55 moves (optimal: IDA* with an admissible heuristic).
run "$solver" 5 10 14 7 8 3 6 1 15 0 12 9 2 11 4 13
expect_status "4x4 55 moves" 0
one_instance "$scratch/inst.txt" 5 10 14 7 8 3 6 1 15 0 12 9 2 11 4 13
verify "4x4 55 moves" plain "$scratch/inst.txt" --size 4x4 --expect "argument 1=solved:55"

# Korf's instances with --goal blank-first: the three easiest, at their published lengths.
grep -v '^#' "$repo/data/korf100.tsv" | sort -t$'\t' -k5 -n | head -3 |
  awk -F'\t' '{print "korf-" $1 ": " $2}' >"$scratch/korf.txt"
mapfile -t korf_expect < <(grep -v '^#' "$repo/data/korf100.tsv" | sort -t$'\t' -k5 -n | head -3 |
  awk -F'\t' '{print "--expect\nkorf-" $1 "=solved:" $4}')
run "$solver" --goal blank-first --json --input "$scratch/korf.txt"
expect_status "korf easiest three" 0
verify "korf easiest three" json "$scratch/korf.txt" --size 4x4 --goal blank-first "${korf_expect[@]}"

# data/korf24.txt is korf24.tsv's 33 boards as solver input, labelled as korf100.txt is; each
# one reads as a solvable 5x5 board (a node limit of 1 stops every search at once: exit 3).
expect "korf24.txt holds korf24.tsv's boards" cmp -s \
  <(grep -v '^#' "$repo/data/korf24.txt") \
  <(grep -v '^#' "$repo/data/korf24.tsv" | awk -F'\t' '{print "korf-" $1 ": " $2}')
run "$solver" --goal blank-first --heuristic manhattan --node-limit 1 --json -j 1 \
  --input "$repo/data/korf24.txt"
expect_status "korf24.txt read" 3
expect_out "korf24.txt: 33 instances, each stopped by the limit" \
  '"instances":33,"solved":0,"unsolvable":0,"limit":33,"invalid":0'

# Non-square boards, explicit goals, lengths against the checker's BFS (2x3, 2x4, 4x2).
cat >"$scratch/b24.txt" <<'EOF'
p1: 7 6 5 4 3 2 1 0
p2: 0 1 2 3 4 5 6 7
p3: 2 1 3 4 5 6 7 0
p4: 1,2,3,4,5,6,0,7
p5: 5 2 7 0 3 6 1 4
p6: 1 2 3 4 5 6 7 0
EOF
for goal in blank-last blank-first "3 1 0 7 5 2 6 4"; do
  for size in 2x4 4x2; do
    run "$solver" --size "$size" --goal "$goal" --json --input "$scratch/b24.txt"
    expect_status "$size goal '$goal'" 0
    verify "$size goal '$goal'" json "$scratch/b24.txt" --size "$size" --goal "$goal" --bfs
    expect_out "$size goal '$goal' has all six" '"label":"p6"'
    if grep -q '"status":"invalid"\|"status":"limit"' "$scratch/out"; then
      fail "$size goal '$goal': invalid or limit record"
      show
    fi
  done
done
run "$solver" --size 2x3 --algorithm astar --heuristic misplaced 5 4 3 2 1 0
expect_status "2x3 A* misplaced" 0
one_instance "$scratch/inst.txt" 5 4 3 2 1 0
verify "2x3 A* misplaced" plain "$scratch/inst.txt" --size 2x3 --bfs

# 3x4 and 4x3: no BFS; the checker replays, and the heuristics must agree on the length.
# The instances are 60-move random walks from blank-first (so solvable).
printf 'q1: 4 1 5 10 2 11 3 9 0 7 6 8\nq2: 10 4 5 8 3 2 6 9 1 7 0 11\nq3: 10 3 2 5 0 1 6 8 7 9 11 4\n' \
  >"$scratch/3x4.txt"
printf 'q1: 11 4 2 9 8 0 6 7 5 10 1 3\nq2: 0 8 6 11 9 10 1 3 2 5 4 7\nq3: 1 5 0 3 7 8 2 4 6 9 10 11\n' \
  >"$scratch/4x3.txt"
for size in 3x4 4x3; do
  for h in manhattan linear-conflict; do
    run "$solver" --size "$size" --goal blank-first --heuristic "$h" --input "$scratch/$size.txt"
    expect_status "$size $h" 0
    verify "$size $h" plain "$scratch/$size.txt" --size "$size" --goal blank-first \
      --expect q1=solved --expect q2=solved --expect q3=solved
    cut -d' ' -f1-3 "$scratch/out" >"$scratch/len-$h"
  done
  count_check
  cmp -s "$scratch/len-manhattan" "$scratch/len-linear-conflict" ||
    fail "$size: manhattan and linear-conflict lengths differ"
done
# 4x5: from blank-first the blank moves R R D D; Manhattan distance 4, so 4 is optimal.
run "$solver" --size 4x5 --goal blank-first 1 2 6 3 4 5 10 7 8 9 0 11 12 13 14 15 16 17 18 19
expect_status "4x5" 0
one_instance "$scratch/inst.txt" 1 2 6 3 4 5 10 7 8 9 0 11 12 13 14 15 16 17 18 19
verify "4x5" plain "$scratch/inst.txt" --size 4x5 --goal blank-first --expect "argument 1=solved:4"

# 25 numbers: a 5x5 board, inferred; the blank moves right once.
run "$solver" 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24
expect_status "5x5 inferred" 0
expect_out "5x5 inferred" "^argument 1: length 1 moves R "

# Unsolvable: reported, not an error (exit 0).
run "$solver" --json 1 2 3 4 5 6 8 7 0
expect_status "unsolvable 3x3" 0
one_instance "$scratch/inst.txt" 1 2 3 4 5 6 8 7 0
verify "unsolvable 3x3" json "$scratch/inst.txt" --size 3x3 --expect "argument 1=unsolvable"
expect_out "unsolvable: no start value (not evaluated)" '"heuristic_start":null'
run "$solver" 1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0
expect_status "Sam Loyd's 14-15" 0
expect_out "Sam Loyd's 14-15" "^argument 1: unsolvable$"

# Limits: exit 3, status limit, the others in the batch still solved. The heuristic is
# pinned: with pattern databases installed the default would solve "hard" in under 2^20
# nodes, before IDA* first looks at the clock.
printf 'easy: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\nhard: 5 10 14 7 8 3 6 1 15 0 12 9 2 11 4 13\nafter: 1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15\n' \
  >"$scratch/limit.txt"
run "$solver" --heuristic linear-conflict --node-limit 1000 --json --input "$scratch/limit.txt"
expect_status "node limit" 3
verify "node limit" json "$scratch/limit.txt" --size 4x4 \
  --expect easy=solved:1 --expect hard=limit --expect after=solved:2
expect_err "node limit message" "hard: node limit"
run "$solver" --heuristic linear-conflict --max-nodes 1000 --input "$scratch/limit.txt"
expect_status "--max-nodes" 3
verify "--max-nodes" plain "$scratch/limit.txt" --size 4x4 \
  --expect easy=solved:1 --expect hard=limit --expect after=solved:2
run "$solver" --heuristic linear-conflict --algorithm astar --node-limit 5000 --input "$scratch/limit.txt"
expect_status "A* node limit" 3
expect_err "A* node limit given: no default named" "^solver: hard: node limit reached after [0-9]+ nodes generated \(A\* counts the 5000 positions it stored against the limit\)$"
# A*'s default limit, reached by the count after it on a 5x2 board: the message names it.
run "$solver" --goal blank-first --algorithm astar --count "5 2 3 4 8/1 6 7 9 0"
expect_status "A*'s default node limit" 3
expect_err "A*'s default node limit: named" "^solver: argument 1: node limit reached after [0-9]+ nodes; no --node-limit was given: A\*'s default is 20000000, give a larger one to go further$"
# A search that runs out of memory (A* under a ulimit, as in a capped container) reached a
# limit: exit 3, its record in input order with "out of memory", the next line solved.
printf 'hard: %s\neasy: 1 2 3 4 5 6 7 0 8\n' "$("$solver" scramble --size 5x5 --seed 1 -q)" >"$scratch/oom.txt"
run bash -c 'ulimit -v 700000 && exec "$0" -q -a astar -j 1 --node-limit 100000000 --json --input "$1"' \
  "$solver" "$scratch/oom.txt"
expect_status "A* out of memory" 3
expect_out "A* out of memory: its record" '^\{"label":"hard","status":"limit",.*"error":"out of memory"\}$'
expect_out "A* out of memory: the next line solved" '^\{"label":"easy","status":"solved","length":1,'
expect_out "A* out of memory: counted as a limit" '"limit":1,'
run bash -c 'ulimit -v 700000 && exec "$0" -q -a astar -j 1 --node-limit 100000000 --input "$1"' \
  "$solver" "$scratch/oom.txt"
expect_out "A* out of memory, plain: its counts and bound kept" '^hard: limit \(out of memory\) nodes [1-9][0-9]+ seconds [0-9.]+ lower bound [1-9][0-9]+$'
# Out of memory before the search's first node (the walking-distance tables of a 6x4 board
# under a ulimit of 65 MB; 30 to 115 MB do it here): the heuristic's start value is unknown, null, not 0.
run bash -c 'ulimit -v 65000 && exec "$0" -q -j 1 --json --heuristic walking-distance --time-limit 5 "$1"' \
  "$solver" "$("$solver" scramble -q --size 6x4 --seed 11)"
expect_status "out of memory at the start" 3
expect_out "out of memory at the start: no start value" '"heuristic":"walking-distance","heuristic_start":null,.*"lower_bound":0,"error":"out of memory"'
run "$solver" --heuristic linear-conflict --time-limit 0.001 --input "$scratch/limit.txt"
expect_status "time limit" 3
expect_out "time limit" "^hard: limit \(time limit\)"

# --show prints the boards, ending at the goal.
run "$solver" --show 1 2 3 4 5 6 7 0 8
expect_status "--show" 0
expect_out "--show start" "^start$"
expect_out "--show move" "^move 1: R \(tile 8\)$"
expect_out "--show end" "^7 8 \.$"
# With --json the boards go into the record, which stays one valid JSON line.
run "$solver" --show --json 1 2 3 4 5 6 7 0 8
expect_status "--show --json" 0
expect_py "--show --json" cli_check.py show-json "$scratch/out"

# --- Batches with bad lines ----------------------------------------------------------------

# Every kind of bad line among good ones: the good ones are solved, in order, exit 1, and
# stderr names each bad line by its line number.
cat >"$scratch/mixed.txt" <<'EOF'
# comments and blank lines are skipped

ok1: 1 2 3 4 5 6 7 0 8
count: 1 2 3 4 5 6 7 0
repeated: 1 1 3 4 5 6 7 8 0
range: 1 2 3 4 5 6 7 8 9
negative: 1 2 3 4 5 6 7 -8 0
noblank: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
word: 1 2 3 four 5 6 7 8 0
   : 1 2 3 4 5 6 7 8 0
empty:
ok2: 1 2 3 4 5 6 0 7 8
    # indented comment
ok3 ,with comma: 1,2,3,4,5,6,7,8,0
EOF
# The records of that batch, in order, in text and in JSON.
mixed_records=(--expect ok1=solved:1 --expect count=invalid --expect repeated=invalid
  --expect range=invalid --expect negative=invalid --expect noblank=invalid
  --expect word=invalid --expect "$scratch/mixed.txt:10=invalid" --expect empty=invalid
  --expect ok2=solved:2 --expect "ok3 ,with comma=solved:0")
run "$solver" --input "$scratch/mixed.txt"
expect_status "mixed batch" 1
# Text mode keeps one line per instance line: the invalid ones say so on stdout as well.
verify "mixed batch" plain "$scratch/mixed.txt" --size 3x3 "${mixed_records[@]}"
for line in 4 5 6 7 8 9 10 11; do
  expect_err "mixed batch names line $line" "mixed.txt:$line: "
done
expect_err "wrong count message" "mixed.txt:4: .*(8|9)"
expect_err "repeated message" "mixed.txt:5: .*twice"
expect_err "out of range message" "mixed.txt:6: .*out of range"
expect_err "missing blank message" "mixed.txt:8: .*16"
count_check
[ "$(grep -Ec 'mixed.txt:[0-9]+: ' "$scratch/err")" -eq 8 ] || { fail "mixed batch: expected 8 error lines"; show; }

run "$solver" --json --input "$scratch/mixed.txt"
expect_status "mixed batch --json" 1
verify "mixed batch --json" json "$scratch/mixed.txt" --size 3x3 "${mixed_records[@]}"

# The same through stdin; a bad line and a limit: invalid wins (exit 1).
cp "$scratch/mixed.txt" "$scratch/stdin"
run "$solver"
expect_status "mixed batch on stdin" 1
expect_err "stdin origin" "stdin:4: "
cat "$scratch/limit.txt" >"$scratch/stdin"
echo "bad: 1 2 3" >>"$scratch/stdin"
run "$solver" --heuristic linear-conflict --node-limit 1000 --input -
expect_status "invalid and limit" 1
: >"$scratch/stdin"

# --size applies to every line; lines of another size are invalid, the rest solved.
printf 'a: 1 2 3 4 5 6 0 7\nb: 1 2 3 4 5 6 7 8 0\nc: 1 2 3 4 5 6 7 0\n' >"$scratch/size.txt"
run "$solver" --size 2x4 --input "$scratch/size.txt"
expect_status "--size with a wrong line" 1
verify "--size with a wrong line" plain "$scratch/size.txt" --size 2x4 --bfs \
  --expect a=solved:1 --expect b=invalid --expect c=solved:0
expect_err "--size wrong line message" "size.txt:2: .*expected 8"
# An explicit goal fixes the board: a line of another size is invalid.
run "$solver" --goal "1 2 3 4 5 6 7 8 0" 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15
expect_status "instance larger than the explicit goal" 1
# Counts that cannot be inferred without --size.
run "$solver" 1 2 3 4 5 6 7 0
expect_status "8 numbers without --size" 1
expect_err "8 numbers without --size message" "--size"

# --- --html never replaces a file the run reads (exit 2, the file untouched) ----------------
printf 'a: 8 6 7 2 5 4 3 0 1\n' >"$scratch/html_in.txt"
cp -r "$repo/data/8-4-4" "$scratch/html_set"
cp "$scratch/html_set/manifest.txt" "$scratch/html_manifest.before"
expect_same() {  # expect_same NAME FILE COPY: FILE still has COPY's content
  count_check
  cmp -s "$2" "$3" || fail "$1: the file was changed"
}
cp "$scratch/html_in.txt" "$scratch/html_in.before"
run "$solver" --input "$scratch/html_in.txt" --html "$scratch/html_in.txt"
expect_status "--html over the --input file" 2
expect_err "--html over the --input file: named" "is the --input file"
# An --html that cannot be written (a folder; a missing folder) is refused before the search:
# Korf #60 with Manhattan would search for minutes.
hard60=$(grep "^korf-60:" "$repo/data/korf100.txt" | sed 's/^[^:]*://; s/#.*//')
for bad in "$scratch" "$scratch/no-such-folder/page.html"; do
  run timeout 20 "$solver" -j 1 --heuristic manhattan --goal blank-first --html "$bad" "$hard60"
  expect_status "--html $bad" 4
  expect_err "--html $bad: said at once" "^solver: cannot write --html $bad: (it is a folder|the folder .* does not exist)$"
done
# Nor a file in a folder where no file can be made (/proc: the page's temporary file fails).
if [ -d /proc ] && [ -f /proc/version ]; then
  run timeout 20 "$solver" -j 1 --heuristic manhattan --goal blank-first --html /proc/version "$hard60"
  expect_status "--html /proc/version" 4
  expect_err "--html /proc/version: said at once" "^solver: cannot write --html /proc/version: cannot make a file in /proc: "
fi
# Nor a device (/dev/full would take nothing), said before the search too; `-` is not standard
# output (which carries the results): refused, exit 2, no file named `-` written.
run timeout 20 "$solver" -j 1 --heuristic manhattan --goal blank-first --html /dev/full "$hard60"
expect_status "--html /dev/full" 4
expect_err "--html /dev/full: said at once" "^solver: cannot write --html /dev/full: not a regular file, and only a regular file is ever written over: remove it, or write elsewhere$"
# Nor a file the user may not write to (it would be replaced through a writable folder): said
# before the search, the file left as it was; play --out too (as root, checked as the user
# nobody, in a folder of /tmp that user can reach and write).
ro=$(mktemp -d "${TMPDIR:-/tmp}/loyd-cli-ro.XXXXXX")
chmod 1777 "$ro" && printf 'kept\n' >"$ro/page.html" && chmod 444 "$ro/page.html"
as_user=()
[ "$(id -u)" != 0 ] || as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ "$(id -u)" != 0 ] || "${as_user[@]}" test -w "$ro" 2>/dev/null; then
  run timeout 20 "${as_user[@]}" "$solver" -j 1 --heuristic manhattan --goal blank-first --html "$ro/page.html" "$hard60"
  expect_status "--html on a read-only file" 4
  expect_err "--html on a read-only file: said at once" "^solver: cannot write --html .*/page.html: Permission denied$"
  expect "--html on a read-only file: left as it was" grep -qx kept "$ro/page.html"
  "$solver" play --out - >/dev/null 2>&1
  if [ $? != 9 ]; then
    run "${as_user[@]}" "$solver" play --out "$ro/page.html"
    expect_status "play --out on a read-only file" 4
    expect_err "play --out on a read-only file: said" "^solver: cannot write --out .*/page.html: Permission denied$"
    expect "play --out on a read-only file: left as it was" grep -qx kept "$ro/page.html"
  fi
  # Another user's file in a sticky folder (root's, writable by all, in $ro): its replacement
  # would fail at the rename, after the search; refused at once.
  if [ ${#as_user[@]} -gt 0 ]; then
    printf 'kept\n' >"$ro/theirs.html" && chmod 666 "$ro/theirs.html"
    run timeout 20 "${as_user[@]}" "$solver" -j 1 --heuristic manhattan --goal blank-first --html "$ro/theirs.html" "$hard60"
    expect_status "--html on another user's file in a sticky folder" 4
    expect_err "... said at once" "^solver: cannot write --html .*/theirs.html: Operation not permitted$"
    expect "... left as it was" grep -qx kept "$ro/theirs.html"
  fi
else
  echo "cli: the read-only --html case skipped (the user nobody cannot reach $ro)"
fi
rm -rf "$ro"
# An immutable file (where chattr +i works: root on a file system that has the flag).
printf 'kept\n' >"$scratch/immutable.html"
if chattr +i "$scratch/immutable.html" 2>/dev/null; then
  run timeout 20 "$solver" -j 1 --heuristic manhattan --goal blank-first --html "$scratch/immutable.html" "$hard60"
  chattr -i "$scratch/immutable.html"
  expect_status "--html on an immutable file" 4
  expect_err "--html on an immutable file: said at once" "^solver: cannot write --html .*/immutable.html: Operation not permitted$"
  expect "--html on an immutable file: left as it was" grep -qx kept "$scratch/immutable.html"
fi
cd "$scratch" || exit 1
run "$solver" --html - 8 6 7 2 5 4 3 0 1
cd - >/dev/null || exit 1
expect_status "--html -" 2
expect_err "--html -: said" "^solver: --html -: standard output carries the results; give the page a file name \(see solver --help\)$"
expect "--html -: no file named -" [ ! -e "$scratch/-" ]
# Nor the file standard output is redirected to (the page would replace the results).
run "$solver" --html /dev/stdout 8 6 7 2 5 4 3 0 1
expect_status "--html /dev/stdout into a file" 2
expect_err "--html /dev/stdout: said" "^solver: --html /dev/stdout is the file standard output writes to: give another file \(see solver --help\)$"
expect "--html /dev/stdout: the output not replaced" [ ! -s "$scratch/out" ]
# A dangling link is written through, like any link: refused when its destination's folder is
# missing (the link stays a link), written there when the folder exists.
ln -sfn no-such-folder/page.html "$scratch/html_dangling.html"
run timeout 20 "$solver" -j 1 --heuristic manhattan --goal blank-first --html "$scratch/html_dangling.html" "$hard60"
expect_status "--html through a dangling link" 4
expect_err "--html through a dangling link: said at once" "^solver: cannot write --html .*html_dangling.html: the folder .*no-such-folder does not exist$"
expect "--html through a dangling link: still a link" [ -L "$scratch/html_dangling.html" ]
mkdir -p "$scratch/html_dest"
ln -sfn html_dest/page.html "$scratch/html_dangling.html"
run "$solver" --html "$scratch/html_dangling.html" 8 6 7 2 5 4 3 0 1
expect_status "--html through a dangling link into a folder" 0
expect "--html through a dangling link: the page at its destination" grep -q "<html" "$scratch/html_dest/page.html"
expect "--html through a dangling link: the link kept" [ -L "$scratch/html_dangling.html" ]
expect_same "--html over the --input file" "$scratch/html_in.txt" "$scratch/html_in.before"
ln -s html_in.txt "$scratch/html_link.html"
run "$solver" --input "$scratch/html_in.txt" --html "$scratch/html_link.html"
expect_status "--html through a link to the input" 2
expect_same "--html through a link to the input" "$scratch/html_in.txt" "$scratch/html_in.before"
cp "$scratch/html_in.txt" "$scratch/stdin"
run "$solver" --html "$scratch/stdin"
expect_status "--html over the file stdin reads" 2
: >"$scratch/stdin"
run "$solver" --pdb "$scratch/html_set" --html "$scratch/html_set/manifest.txt" 8 6 7 2 5 4 3 0 1
expect_status "--html over the --pdb manifest" 2
expect_same "--html over the --pdb manifest" "$scratch/html_set/manifest.txt" "$scratch/html_manifest.before"
cp "$scratch/html_set/additive-1-2-4-5.pdb" "$scratch/html_table.before"
run "$solver" --html "$scratch/html_set/additive-1-2-4-5.pdb" 8 6 7 2 5 4 3 0 1
expect_status "--html over a set's table" 2
expect_same "--html over a set's table" "$scratch/html_set/additive-1-2-4-5.pdb" "$scratch/html_table.before"
# (a set this 3x3 run never reads: said as such, not as a file "this run reads")
expect_err "--html over a set's table: why" "is a file of the table set in .*html_set \\(a set's files are never written over by a page\\): give another file \\(see solver --help\\)$"
run "$solver" --html "$scratch/html_page.html" 8 6 7 2 5 4 3 0 1
expect_status "--html to a new file" 0

# --- A*'s node limit counts the positions it stores: its message says so ---
run "$solver" -q -a astar --node-limit 5000 --heuristic manhattan --goal blank-first 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3
expect_status "A* node limit" 3
expect_err "A* node limit: what it counts" "^solver: argument 1: node limit reached after [0-9]+ nodes generated \(A\* counts the 5000 positions it stored against the limit\)$"
# With --all, A* finds the length and the enumeration after it is what the limit stops: its nodes.
run "$solver" -q --all -a astar --node-limit 3000 --pdb "$repo/data/8-4-4" 8 6 7 2 5 4 3 0 1
expect_status "A* --all node limit" 3
expect_err "A* --all node limit: nodes" "^solver: argument 1: node limit reached after [0-9]+ nodes$"

# --- Control characters in labels never reach the terminal: escaped in plain text (\x1b) ---
printf 'x\033[31mred\tz: 8 6 7 2 5 4 3 0 1\nb\033]0;title\007: 9 9\n' >"$scratch/stdin"
run "$solver"
expect_status "labels with control characters" 1
expect_out "a label's escape sequence is escaped" '^x\\x1b\[31mred\\tz: length 31 '
expect_out "an invalid line's label is escaped" '^b\\x1b\]0;title\\x07: invalid: '
count_check
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$scratch/out" "$scratch/err"; then
  fail "a control character reached the output"
  show
fi
# C1 controls (0x9b alone is CSI on an 8-bit terminal; U+0085, U+009B in UTF-8) and the line
# separator: escaped in text, and in JSON as \u escapes, so every record stays one line.
printf '\2332J\302\205\302\233x\342\200\250: 8 6 7 2 5 4 3 0 1\n' >"$scratch/stdin"
run "$solver"
expect_out "C1 controls and separators in a label are escaped" '^\\x9b2J\\u0085\\u009bx\\u2028: length 31 '
run "$solver" --json
expect_out "C1 controls and separators in a JSON label are escaped" '^\{"label":"'$'\xef\xbf\xbd''2J\\u0085\\u009bx\\u2028",'
printf 'x\033[2Jy: 8 6 7/2 5 4/3 0 1 UULDDRRUULDLDRRUULDLDRRUULLDDRR\n' >"$scratch/stdin"
run "$solver" check
expect_out "check: the label is escaped" '^x\\x1b\[2Jy: optimal'
: >"$scratch/stdin"
run "$solver" --goal "$(printf 'A\033 B C/D E F/G H _')" "B A C/D E F/G H _"
expect_status "a goal label with a control character" 2
expect_err "a goal label with a control character: named" "label 'A[\\]x1b' holds a control character"

# --- SIGINT / SIGTERM: the instance in progress is printed with its lower bound, then the
# summary; exit 130. (Korf #60 with Manhattan alone runs for minutes.)
hard=$(grep "^korf-60:" "$repo/data/korf100.txt" | sed 's/^[^:]*://; s/#.*//')
printf 'easy: 1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\nhard: %s\n' "$hard" >"$scratch/interrupt.txt"
# start_hard: the solver on interrupt.txt in the background ($victim), returning once "hard"
# has started (the easy record is out), not after a fixed sleep: on a loaded machine the solver
# may not have installed its handlers 1.5 s after the fork. The output file is emptied here
# first: the child's own redirection may come after the first look, which would then see the
# last run's lines and signal a process that has not installed its handlers yet.
start_hard() {
  : >"$scratch/out"
  "$solver" -j 1 --heuristic manhattan --goal blank-first --input "$scratch/interrupt.txt" >"$scratch/out" 2>"$scratch/err" &
  victim=$!
  for _ in $(seq 300); do
    grep -q '^easy:' "$scratch/out" 2>/dev/null && break
    sleep 0.1
  done
  sleep 0.3
}
for sig in INT TERM; do
  start_hard
  kill -s "$sig" "$victim"
  wait "$victim"
  ran "solver -j 1 --heuristic manhattan --goal blank-first --input interrupt.txt, then SIG$sig" $?
  expect_status "SIG$sig" 130
  expect_out "SIG$sig: the instance in progress" "^hard: limit \(interrupted\) nodes [0-9]+ seconds [0-9.]+ lower bound [0-9]+ resume r1\.[0-9]+\.[^ ]+$"
  expect_out "SIG$sig: the summary" "^summary: instances 2, solved 1, "
done
# Boards given as arguments are read ahead: the one after the instance in progress is in the
# window, not started, when the signal comes, and is then neither searched nor printed (it
# used to be searched, and printed solved). The signal is sent once the solver has used 0.3 s
# of CPU (/proc/PID/stat utime), so its handlers are in place and the hard search has begun.
"$solver" -j 1 --heuristic manhattan --goal blank-first "$hard" "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15" \
  "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15" >"$scratch/out" 2>"$scratch/err" &
victim=$!
for _ in $(seq 300); do
  ticks=$(awk '{ print $14 }' "/proc/$victim/stat" 2>/dev/null || echo 0)
  [ "${ticks:-0}" -ge 30 ] && break
  sleep 0.1
done
kill -s TERM "$victim"
wait "$victim"
ran "solver -j 1 --heuristic manhattan --goal blank-first KORF-60 EASY EASY, then SIGTERM" $?
expect_status "SIGTERM with boards read ahead" 130
expect_out "SIGTERM with boards read ahead: the instance in progress" "^argument 1: limit \(interrupted\)"
count_check
! grep -q '^argument [23]:' "$scratch/out" || fail "SIGTERM: a board read ahead was searched after the signal: $(cat "$scratch/out")"

# The same SIGTERM twice at once (as `timeout` sends it, to the process and then its group) is
# one request: still 130 with the record, not the end by the second signal (143).
start_hard
kill -s TERM "$victim"
kill -s TERM "$victim" 2>/dev/null
wait "$victim"
ran "solver ... --input interrupt.txt, then SIGTERM twice at once" $?
expect_status "SIGTERM twice at once" 130
expect_out "SIGTERM twice at once: the instance in progress" "^hard: limit \(interrupted\)"

# A signal while the solver waits for input (a pipe with nothing more yet, a FIFO no writer
# opened) or skips blank lines: the input ends there, what was solved is printed, exit 130 (it
# was ignored until more input came: timeout's SIGKILL would give 137).
(echo 8 6 7 2 5 4 3 0 1; sleep 30) | timeout --preserve-status -k 5 -s INT 2 "$solver" -j 1 >"$scratch/out" 2>"$scratch/err"
ran "(echo BOARD; sleep 30) | timeout -s INT 2 solver" $?
expect_status "SIGINT while waiting for input" 130
expect_out "SIGINT while waiting for input: the record" "^stdin:1: length 31 "
yes '' | timeout --preserve-status -k 5 -s INT 2 "$solver" -j 1 >"$scratch/out" 2>"$scratch/err"
ran "yes '' | timeout -s INT 2 solver" $?
expect_status "SIGINT while skipping blank lines" 130
mkfifo "$scratch/no-writer"
timeout --preserve-status -k 5 -s INT 2 "$solver" -j 1 --input "$scratch/no-writer" >"$scratch/out" 2>"$scratch/err"
ran "timeout -s INT 2 solver --input FIFO" $?
expect_status "SIGINT while opening a FIFO no writer opened" 130
for j in 1 2; do
  timeout --preserve-status -k 5 -s TERM 2 "$solver" -j $j --input /dev/zero >"$scratch/out" 2>"$scratch/err"
  ran "timeout -s TERM 2 solver -j $j --input /dev/zero" $?
  expect_status "SIGTERM while skipping an endless line, -j $j" 130
  expect_out "an endless line, -j $j: its record printed before the signal" "^/dev/zero:1: invalid: line longer than 65536 bytes$"
done

# A line too long is reported once its first 64 KiB are read, before its end comes (an endless
# one, as /dev/zero, would never be reported otherwise); then its rest is skipped.
# With -j 2 the reading ahead stops there too, so the record is not held back.
head -c 70000 /dev/zero | tr '\0' x >"$scratch/70k-x" # no newline
for j in 1 2; do
  coproc LONG { exec "$solver" -j "$j" --input - 2>/dev/null; }
  cat "$scratch/70k-x" >&"${LONG[1]}"
  IFS= read -r -t 20 line <&"${LONG[0]}" || line=
  expect "a line too long, its end not yet written, -j $j: reported at once" [ "$line" = "stdin:1: invalid: line longer than 65536 bytes" ]
  printf 'x\n8 6 7 2 5 4 3 0 1\n' >&"${LONG[1]}"
  IFS= read -r -t 20 line <&"${LONG[0]}" || line=
  expect "a line too long, -j $j: its rest skipped, the next line solved" [ "${line%% moves*}" = "stdin:2: length 31" ]
  exec {LONG[1]}>&-
  wait "$LONG_PID" 2>/dev/null
done

# A program that writes a line and waits for its answer gets it, also with -j 2: the read-ahead
# that chooses how to use the threads stops where the input pauses.
printf '8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 0 8\n' >"$scratch/two_lines.txt"
expect "one line at a time, -j 2: each answered" [ "$(answered 1 "$scratch/two_lines.txt" "$solver" -j 2)" = 2 ]

# scramble too: the first signal stops the drawing after a whole line, exit 130.
for sig in INT TERM; do
  : >"$scratch/out" # emptied before the start, as in start_hard
  "$solver" scramble --count 18446744073709551615 --seed 1 -q >"$scratch/out" 2>"$scratch/err" &
  victim=$!
  for _ in $(seq 300); do
    [ -s "$scratch/out" ] && break
    sleep 0.1
  done
  kill -s "$sig" "$victim"
  wait "$victim"
  ran "solver scramble --count 2^64-1, then SIG$sig" $?
  expect_status "scramble, SIG$sig" 130
  expect "scramble, SIG$sig: the last line printed is whole" [ "$(tail -c 1 "$scratch/out" | od -An -c | tr -d ' ')" = '\n' ]
done

# --- Failed writes to stdout: the first one ends the run, one line naming it, exit 4 -----

# run_to DEST [ARGS...]: as run "$solver" ARGS, with stdout to DEST.
run_to() {
  local dest=$1
  shift
  "$solver" "$@" <"$scratch/stdin" >"$dest" 2>"$scratch/err"
  ran "solver $* >$dest" $?
  : >"$scratch/out"
}
if [ -w /dev/full ]; then
  run_to /dev/full 8 6 7 2 5 4 3 0 1
  expect_status "solve >/dev/full" 4
  expect_err "solve >/dev/full names it" "^solver: cannot write to standard output: No space left on device$"
  expect_err_line "solve >/dev/full"
  run_to /dev/full --help
  expect_status "--help >/dev/full" 4
  run_to /dev/full check "8 6 7/2 5 4/3 0 1" UULDDRRUULDLDRRUULDLDRRUULLDDRR
  expect_status "check >/dev/full" 4
  expect_err "check >/dev/full names it" "cannot write to standard output"
  run_to /dev/full scramble --size 3x3 --count 3 --seed 1
  expect_status "scramble >/dev/full" 4
  expect_err_line "scramble >/dev/full"
fi
"$solver" scramble --size 3x3 --count 5000 --seed 5 >"$scratch/many.txt" 2>/dev/null
# A file size limit (SIGXFSZ ignored, as the solver does): EFBIG, not a record cut silently.
(ulimit -f 8; "$solver" --json --input "$scratch/many.txt" >"$scratch/big.json" 2>"$scratch/err")
ran "solver --json --input many.txt (ulimit -f 8)" $?
expect_status "ulimit -f" 4
expect_err "ulimit -f names it" "^solver: cannot write to standard output: File too large$"
# The reader leaves with SIGPIPE ignored: EPIPE stops the batch (status 4, one line).
(trap '' PIPE; "$solver" --input "$scratch/many.txt" 2>"$scratch/err"; echo $? >"$scratch/pipe_rc") | head -c 1 >/dev/null
ran "solver --input many.txt | head -c 1 (SIGPIPE ignored)" "$(cat "$scratch/pipe_rc")"
expect_status "a closed pipe with SIGPIPE ignored" 4
expect_err "a closed pipe names it" "^solver: cannot write to standard output: Broken pipe$"
expect_err_line "a closed pipe"

# --- -j above the CPUs: one thread per CPU, one note on stderr, the same answers ------------
# 3,000 easy lines (-j 1024 once started 1,024 threads on two cores, every one woken for each
# line printed: minutes). `nproc` counts the CPUs of the affinity mask, as the solver does.
seq 3000 | awk '{ split("1 2 3 4 5 6 0 7 8|1 2 3 4 5 6 7 0 8|1 2 3 0 4 6 7 5 8|1 2 3 4 0 6 7 5 8", b, "|");
                  print "e" $1 ": " b[$1 % 4 + 1] }' >"$scratch/easy.txt"
cpus=$(cpu_count)
records() {  # the records and summary without seconds and threads
  sed -E 's/, search seconds [0-9.]+, table load seconds [0-9.]+//; s/ seconds [0-9.]+//; s/, threads [0-9]+$//' "$1"
}
run "$solver" -j 1 --input "$scratch/easy.txt"
expect_status "3,000 easy lines -j 1" 0
records "$scratch/out" >"$scratch/easy_one.txt"
expect_out "3,000 easy lines -j 1: the summary" "^summary: instances 3000, solved 3000, .*, threads 1$"
if [ "$cpus" -lt 1024 ]; then
  plural=$([ "$cpus" = 1 ] || echo s)
  run "$solver" -j 1024 --input "$scratch/easy.txt"
  expect_status "-j 1024" 0
  count_check
  records "$scratch/out" | cmp -s - "$scratch/easy_one.txt" || { fail "-j 1024: not the records of -j 1"; show; }
  expect_out "-j 1024: the summary says the CPUs" "^summary: instances 3000, .*, threads $cpus$"
  expect_err "-j 1024: the note" "^solver: -j 1024 is more than the $cpus CPU$plural available; using $cpus$"
  expect_err_line "-j 1024: only the note"
  run "$solver" -q -j 1024 --input "$scratch/easy.txt"
  expect_status "-q -j 1024" 0
  expect_no_err "-q -j 1024"
  run "$solver" --json -j 1024 --input "$scratch/easy.txt"
  expect_status "--json -j 1024" 0
  count_check
  grep -qv '^{' "$scratch/out" && { fail "--json -j 1024: a line of stdout is not a record"; show; }
  expect_err "--json -j 1024: the note on stderr" "^solver: -j 1024 is more than the "
fi
run "$solver" -j "$cpus" --input "$scratch/easy.txt"
expect_no_err "-j $cpus (the CPUs): no note"
run "$solver" -j 0 --input "$scratch/easy.txt"
expect_no_err "-j 0: no note"
expect_out "-j 0: one thread per CPU" "^summary: instances 3000, .*, threads $cpus$"
# On one CPU (taskset): one thread, whatever -j says, and the default is one too.
if command -v taskset >/dev/null; then
  first=$(sed -nE 's/^Cpus_allowed_list:[[:space:]]*([0-9]+).*/\1/p' /proc/self/status)
  run taskset -c "$first" "$solver" -j 4 --input "$scratch/easy.txt"
  expect_status "-j 4 on one CPU" 0
  expect_err "-j 4 on one CPU: the note" "^solver: -j 4 is more than the 1 CPU available; using 1$"
  expect_out "-j 4 on one CPU: one thread" "^summary: instances 3000, .*, threads 1$"
  run taskset -c "$first" "$solver" --input "$scratch/easy.txt"
  expect_out "the default on one CPU: one thread" "^summary: instances 3000, .*, threads 1$"
  expect_no_err "the default on one CPU: no note"
fi
# Out of range: a usage error.
for bad in -1 1025 100000; do
  run "$solver" -j "$bad" 8 6 7 2 5 4 3 0 1
  expect_status "-j $bad" 2
  expect_err "-j $bad: named" "^solver: --jobs must be between 0 and 1024"
done

# --- 5 (internal error) cannot be provoked from the command line: the library checks every
# solution before printing it and throws only on a bug.

finish
