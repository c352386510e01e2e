#!/usr/bin/env bash
# The play page (`solver play`, docs/play.md): the command's own behaviour, then the page in a
# real headless Chromium (tests/play_browser.py: play, shuffle, solve, hint, tables, images,
# against the command line and a BFS oracle).
#
# Usage: play_browser_test.sh SOLVER PDBGEN PLAY_TABLES SCRATCH_DIR
# Exit status: 0 passed, 1 a check failed, 77 skipped: this build has no page (no emscripten
# when it was built: `solver play` exits 9) or no browser is installed. The scratch folder keeps
# the pages and the screenshots (tests/harness.sh).
. "$(dirname "$0")/harness.sh"
harness_args 4 "SOLVER PDBGEN PLAY_TABLES SCRATCH_DIR" "$@"
program solver "$1"
program pdbgen "$2"
tables=$3
scratch_dir "$4" --keep

run "$solver" play --out "$scratch/page.html"
if [ "$rc" -eq 9 ]; then
  expect_err "exit 9 says why" "this build has no play page"
  [ "$failures" -eq 0 ] && skip "this solver was built without the play page (no emscripten at build time)"
  finish
fi
expect_status "solver play --out" 0
expect_err "solver play says what it wrote" "open it in a browser"
size=$(stat -c %s "$scratch/page.html")
expect "the page is at most 8 MiB ($size bytes)" [ "$size" -le $((8 * 1024 * 1024)) ]
expect_file "the page's policy forbids fetching" "$scratch/page.html" "default-src 'none'; connect-src 'none'"
expect_file "the page starts on the default goal" "$scratch/page.html" \
  '<script type="application/json" id="loyd-start">\{"goal":"blank-last"\}</script>'
# To standard output, on a board and goal of the command line's own forms.
expect_run "solver play --out - BOARD" 0 "$solver" play --out - --goal blank-first 1 2 0 3 4 5 6 7 8
expect_out "the start position is in the page" '\{"board":"1 2 0/3 4 5/6 7 8","goal":"blank-first"\}'
expect_no_err "solver play --out - BOARD"
expect_run "solver play --size 4x3" 0 "$solver" play --out - --size 4x3
expect_out "--size reaches the page" '\{"size":"4x3","goal":"blank-last"\}'
expect_run "solver play --goal blank-first alone" 0 "$solver" play --out - --goal blank-first
expect_out "--goal blank-first alone reaches the page" '<script type="application/json" id="loyd-start">\{"goal":"blank-first"\}</script>'
# Refusals: an invalid board (1), no --out, an option of another command, a goal in labels (2).
expect_run "an invalid board" 1 "$solver" play --out "$scratch/bad.html" "1 2 3/4 5"
expect_err "an invalid board: named" "ragged rows"
expect "no page is written for an invalid board" [ ! -e "$scratch/bad.html" ]
# The board arguments as solve reads them: a byte order mark dropped; an empty argument, a
# comment, separate tiles mixed with a whole board, or two boards refused (2).
expect_run "play: a byte order mark" 0 "$solver" play --out - $'\xef\xbb\xbf1 2 3 4 5 6 7 0 8'
expect_out "play: a byte order mark: dropped" '\{"board":"1 2 3/4 5 6/7 0 8","goal":"blank-last"\}'
expect_run "play: a labelled board" 0 "$solver" play --out - "easy: 8 2 0/4 6 1/3 7 5"
expect_out "play: a labelled board: the label dropped" '\{"board":"8 2 0/4 6 1/3 7 5","goal":"blank-last"\}'
expect_run "play: a label and no board" 1 "$solver" play --out "$scratch/x.html" "easy:"
expect_err "play: a label and no board: said" "^solver: argument 1: no tiles$"
expect_run "play: an empty argument" 2 "$solver" play --out "$scratch/x.html" ""
expect_err "play: an empty argument: said" "argument 1 is empty"
expect_run "play: a comment" 2 "$solver" play --out "$scratch/x.html" "# c"
expect_err "play: a comment: said" "argument 1 is a comment"
expect_run "play: tiles and a board mixed" 2 "$solver" play --out "$scratch/x.html" 1 2 3 "4 5 6" 7 0 8
expect_err "play: tiles and a board mixed: said" "mix separate tiles"
expect_run "play: two boards" 2 "$solver" play --out "$scratch/x.html" "1 2 3/4 5 6/7 0 8" "1 2 3/4 5 6/7 8 0"
expect_err "play: two boards: said" "play opens on one board; 2 were given"
expect "no page is written for a refused argument" [ ! -e "$scratch/x.html" ]
expect_run "play without --out" 2 "$solver" play
expect_err "play without --out: said" "play needs --out"
expect_run "play --json" 2 "$solver" play --out "$scratch/x.html" --json
expect_err "play --json: said" "does not apply to play"
expect_run "play with a goal in labels" 2 "$solver" play --out "$scratch/x.html" --goal "A B C/D E F/G H _"
expect_err "play with a goal in labels: said" "numbered tiles"
run "$solver" play --help
expect_out "solver play --help" "solver play --out FILE"

"$python" "$tests_dir/play_browser.py" "$scratch/page.html" --solver "$solver" --pdbgen "$pdbgen" --repo "$repo" \
  --tables "$tables" --work "$scratch/work" --screenshot "$scratch/play.png" --phone-screenshot "$scratch/phone.png"
ran "play_browser.py (its failures above)" $?
[ "$rc" -eq 77 ] && skip "no browser"
expect_status "the page in the browser (tests/play_browser.py)" 0
finish
