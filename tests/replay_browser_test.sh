#!/usr/bin/env bash
# The replay page in a real browser. html_page_demo writes pages of fixed solved instances
# (3x3 and 4x4 numbers, a 4x3 board of hostile and UTF-8 labels, a batch of six boards from
# 2x2 to 12x2, one already solved; both notations); replay_browser.py steps each instance to
# its end through the page's own controls in headless Chromium and checks the DOM against its
# own replay, then takes a screenshot. A page whose script is sabotaged must fail the check.
#
# Usage: replay_browser_test.sh HTML_PAGE_DEMO SOLVER SCRATCH_DIR
# Exit status: 0 passed, 1 a check failed, 77 no browser (ctest: skipped). The scratch folder
# keeps the pages and the screenshot (tests/harness.sh).
. "$(dirname "$0")/harness.sh"
harness_args 3 "HTML_PAGE_DEMO SOLVER SCRATCH_DIR" "$@"
program demo "$1"
program solver "$2"
scratch_dir "$3" --keep
check=("$python" "$tests_dir/replay_browser.py")

# browser_check NAME PAGE ARGS...: tests/replay_browser.py passes on PAGE; a missing browser
# skips the whole test.
browser_check() {
  local name=$1
  shift
  "${check[@]}" "$@"
  ran "replay_browser.py $* (its failures above)" $?
  [ "$rc" -eq 77 ] && skip "no browser"
  expect_status "$name" 0
}

expect_run "html_page_demo writes the pages" 0 "$demo" "$scratch" || finish

# The oracle's own look at the data: every instance's moves replay from its start to its goal
# (tests/puzzle_oracle.py on the labels numbered), and the numbered goals are blank-last.
expect_py "the pages' data replays" replay_pages_check.py replays "$scratch"/*.html

blank_last() {  # blank_last N: "1 2 ... N-1 _"
  echo "$(seq -s ' ' 1 $(($1 - 1))) _"
}

browser_check "3x3 page" "$scratch/3x3.html" --final 1 "$(blank_last 9)"
browser_check "4x4 page" "$scratch/4x4.html" --final 1 "$(blank_last 16)"
browser_check "labels page" "$scratch/4x3-labels.html" \
  --final 1 '["A","</script><b>","é","&amp;","\"q'"'"'","日本","🙂","x  y","<!--","Ω\u2028","loooooong",null]'
# The batch: every instance picked from the list (the second one first) and stepped to its
# end; the screenshot shows the 15-puzzle halfway.
browser_check "batch page" "$scratch/batch.html" \
  --final 2 '["red","red","blue","blue","gold","gold","teal","teal","plum","plum","ink",null]' \
  --final 4 "$(blank_last 25)" --screenshot "$scratch/batch.png" --window 1100x700 \
  --fragment "instance=3&step=17"

# The solver's own page (--html): a batch from stdin with an unsolvable line (left out of the
# page) and a blank-first 4x4 instance; every solved instance ends on its goal in the browser.
printf 'a: 8 6 7 2 5 4 3 0 1\nodd: 2 1 3 4 5 6 7 8 0\nb: 1 2 3 4 5 6 7 0 8\n' |
  "$solver" --pdb "$repo/data/8-4-4" --cache-dir none --html "$scratch/solved.html" >"$scratch/out" 2>"$scratch/err"
ran "printf 'a: ...' | solver --pdb data/8-4-4 --cache-dir none --html solved.html" $?
expect_status "solver --html" 0
expect_py "solver --html: the page holds the two solved instances" replay_pages_check.py solved-page "$scratch/solved.html"
browser_check "solver --html page" "$scratch/solved.html" --final 1 "$(blank_last 9)" --final 2 "$(blank_last 9)"
expect_run "solver --html 4x4" 0 "$solver" --pdb "$repo/data/15-5-5-5" --cache-dir none --goal blank-first \
  --html "$scratch/korf.html" 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3
browser_check "solver --html 4x4 page" "$scratch/korf.html" \
  --final 1 '[null,"1","2","3","4","5","6","7","8","9","10","11","12","13","14","15"]'

# A run in labels and tile notation: the page draws the goal's labels and opens in tile notation.
expect_run "solver --html in labels" 0 "$solver" --pdb "$repo/data/8-4-4" --cache-dir none --goal "A B C/D E F/G H _" \
  --notation tile --html "$scratch/labels.html" "H G F/E D C/B A _"
expect_file "solver --html in labels: in tile notation" "$scratch/labels.html" '"notation":"tile"'
browser_check "solver --html page in labels" "$scratch/labels.html" --final 1 '["A","B","C","D","E","F","G","H",null]'

# The harness must catch a page that draws the wrong board: one whose script shows the
# position before the last move when the last move is played (an off-by-one).
sed 's/var cells = st.path.cells\[k\]/var cells = st.path.cells[Math.max(0, k === st.inst.moves.length ? k - 1 : k)]/' \
  "$scratch/3x3.html" >"$scratch/broken.html"
count_check
if cmp -s "$scratch/3x3.html" "$scratch/broken.html"; then
  fail "could not sabotage the page's script (the test needs updating)"
elif "${check[@]}" "$scratch/broken.html" 2>"$scratch/broken.err"; then
  fail "a page with a broken script passed the browser check"
elif ! grep -q "after stepping to the end: the board drawn is" "$scratch/broken.err"; then
  fail "the broken page failed for another reason: $(head -3 "$scratch/broken.err")"
fi

finish
