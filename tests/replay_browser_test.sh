#!/usr/bin/env bash
# The replay page in a real browser. html_page_demo writes pages of fixed solved instances
# (3x3 and 4x4 numbers, a 4x3 board of hostile and UTF-8 labels, a batch of six boards from
# 2x2 to 12x2, one already solved; both notations); replay_browser.py steps each instance to
# its end through the page's own controls in headless Chromium and checks the DOM against its
# own replay, then takes a screenshot. A page whose script is sabotaged must fail the check.
#
# Usage: replay_browser_test.sh HTML_PAGE_DEMO REPO_ROOT SCRATCH_DIR SOLVER
# Exit status: 0 passed, 1 a check failed, 77 no browser (ctest: skipped).
set -u
if [ $# -ne 4 ]; then
  echo "usage: $0 HTML_PAGE_DEMO REPO_ROOT SCRATCH_DIR SOLVER" >&2
  exit 2
fi
demo=$1
root=$2
scratch=$3
solver=$4
check="python3 $root/tests/replay_browser.py"
rm -rf "$scratch"
mkdir -p "$scratch"
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# Runs the checker; a missing browser skips the whole test.
browser_check() {
  $check "$@"
  local rc=$?
  if [ $rc -eq 77 ]; then
    exit 77
  fi
  return $rc
}

"$demo" "$scratch" || { echo "FAIL: html_page_demo did not write the pages" >&2; exit 1; }

# The oracle's own look at the data: every instance's moves replay from its start to its goal
# (tests/puzzle_oracle.py on the labels numbered), and the numbered goals are blank-last.
python3 - "$root/tests" "$scratch"/*.html <<'PY' || fail "the pages' data does not replay"
import json, re, sys
sys.path.insert(0, sys.argv[1])
from puzzle_oracle import replay
bad = 0
for page in sys.argv[2:]:
    text = open(page, encoding="utf-8").read()
    data = json.loads(re.search(r'id="loyd-data">(.*?)</script>', text, re.S).group(1))
    for inst in data["instances"]:
        ids = {None: 0}
        num = lambda b: [ids.setdefault(x, len(ids)) for x in b]
        start, goal = num(inst["start"]), num(inst["goal"])
        why = replay(inst["width"], inst["height"], start, goal, inst["moves"])
        if why:
            print("%s: %s: %s" % (page, inst["label"], why), file=sys.stderr)
            bad += 1
        if all(x is None or x.isdigit() for x in inst["goal"]):
            n = inst["width"] * inst["height"]
            if inst["goal"] != [str(k) for k in range(1, n)] + [None]:
                print("%s: %s: goal is not blank-last" % (page, inst["label"]), file=sys.stderr)
                bad += 1
sys.exit(1 if bad else 0)
PY

blank_last() {  # blank_last N: "1 2 ... N-1 _"
  echo "$(seq -s ' ' 1 $(($1 - 1))) _"
}

browser_check "$scratch/3x3.html" --final 1 "$(blank_last 9)" || fail "3x3 page"
browser_check "$scratch/4x4.html" --final 1 "$(blank_last 16)" || fail "4x4 page"
browser_check "$scratch/4x3-labels.html" \
  --final 1 '["A","</script><b>","é","&amp;","\"q'"'"'","日本","🙂","x  y","<!--","Ω\u2028","loooooong",null]' \
  || fail "labels page"
# The batch: every instance picked from the list (the second one first) and stepped to its
# end; the screenshot shows the 15-puzzle halfway.
browser_check "$scratch/batch.html" --final 2 '["red","red","blue","blue","gold","gold","teal","teal","plum","plum","ink",null]' \
  --final 4 "$(blank_last 25)" --screenshot "$scratch/batch.png" --window 1100x700 \
  --fragment "instance=3&step=17" || fail "batch page"

# The solver's own page (--html): a batch from stdin with an unsolvable line (left out of the
# page) and a blank-first 4x4 instance; every solved instance ends on its goal in the browser.
printf 'a: 8 6 7 2 5 4 3 0 1\nodd: 2 1 3 4 5 6 7 8 0\nb: 1 2 3 4 5 6 7 0 8\n' |
  "$solver" --pdb "$root/data/8-4-4" --cache-dir none --html "$scratch/solved.html" >"$scratch/solved.out" 2>&1 ||
  fail "solver --html: $(cat "$scratch/solved.out")"
python3 - "$scratch/solved.html" <<'PY' || fail "solver --html: the page does not hold the two solved instances"
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(re.search(r'id="loyd-data">(.*?)</script>', text, re.S).group(1))
labels = [i["label"] for i in data["instances"]]
assert labels == ["a", "b"], labels
assert len(data["instances"][0]["moves"]) == 31, data["instances"][0]["moves"]
PY
browser_check "$scratch/solved.html" --final 1 "$(blank_last 9)" --final 2 "$(blank_last 9)" || fail "solver --html page"
"$solver" --pdb "$root/data/15-5-5-5" --cache-dir none --goal blank-first --html "$scratch/korf.html" \
  14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 >"$scratch/korf.out" 2>&1 || fail "solver --html 4x4: $(cat "$scratch/korf.out")"
browser_check "$scratch/korf.html" --final 1 '[null,"1","2","3","4","5","6","7","8","9","10","11","12","13","14","15"]' \
  || fail "solver --html 4x4 page"

# A run in labels and tile notation: the page draws the goal's labels and opens in tile notation.
"$solver" --pdb "$root/data/8-4-4" --cache-dir none --goal "A B C/D E F/G H _" --notation tile \
  --html "$scratch/labels.html" "H G F/E D C/B A _" >"$scratch/labels.out" 2>&1 ||
  fail "solver --html in labels: $(cat "$scratch/labels.out")"
grep -q '"notation":"tile"' "$scratch/labels.html" || fail "solver --html in labels: not in tile notation"
browser_check "$scratch/labels.html" --final 1 '["A","B","C","D","E","F","G","H",null]' \
  || fail "solver --html page in labels"

# The harness must catch a page that draws the wrong board: one whose script shows the
# position before the last move when the last move is played (an off-by-one).
sed 's/var cells = st.path.cells\[k\]/var cells = st.path.cells[Math.max(0, k === st.inst.moves.length ? k - 1 : k)]/' \
  "$scratch/3x3.html" >"$scratch/broken.html"
if cmp -s "$scratch/3x3.html" "$scratch/broken.html"; then
  fail "could not sabotage the page's script (the test needs updating)"
elif $check "$scratch/broken.html" 2>"$scratch/broken.err"; then
  fail "a page with a broken script passed the browser check"
elif ! grep -q "after stepping to the end: the board drawn is" "$scratch/broken.err"; then
  fail "the broken page failed for another reason: $(head -3 "$scratch/broken.err")"
fi

if [ $failures -ne 0 ]; then
  echo "replay_browser: $failures failure(s)" >&2
  exit 1
fi
echo "replay_browser: all checks passed"
