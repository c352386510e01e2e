#!/usr/bin/env bash
# The play page (`solver play`, docs/play.md): the command's own behaviour, then the page in a
# real headless Chromium (tests/play_browser.py: play, shuffle, solve, hint, tables, images,
# against the command line and a BFS oracle).
#
# Usage: play_browser_test.sh SOLVER PDBGEN REPO_ROOT PLAY_TABLES SCRATCH_DIR
# Exit status: 0 passed, 1 a check failed, 77 skipped: this build has no page (no emscripten
# when it was built: `solver play` exits 9) or no browser is installed.
set -u
if [ $# -ne 5 ]; then
  echo "usage: $0 SOLVER PDBGEN REPO_ROOT PLAY_TABLES SCRATCH_DIR" >&2
  exit 2
fi
solver=$1
pdbgen=$2
root=$3
tables=$4
scratch=$5
rm -rf "$scratch"
mkdir -p "$scratch"
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

"$solver" play --out "$scratch/page.html" 2>"$scratch/play.err"
rc=$?
if [ $rc -eq 9 ]; then
  grep -q "this build has no play page" "$scratch/play.err" || fail "exit 9 without saying why: $(cat "$scratch/play.err")"
  echo "SKIP: this solver was built without the play page (no emscripten at build time)" >&2
  [ $failures -eq 0 ] && exit 77 || exit 1
fi
[ $rc -eq 0 ] || fail "solver play --out: exit $rc: $(cat "$scratch/play.err")"
grep -q "open it in a browser" "$scratch/play.err" || fail "solver play does not say what it wrote"
size=$(stat -c %s "$scratch/page.html")
[ "$size" -le $((8 * 1024 * 1024)) ] || fail "the page is $size bytes, above 8 MiB"
grep -q "default-src 'none'; connect-src 'none'" "$scratch/page.html" || fail "the page's policy does not forbid fetching"
grep -q '<script type="application/json" id="loyd-start">{"goal":"blank-last"}</script>' "$scratch/page.html" ||
  fail "the page does not start on the default goal"
# To standard output, on a board and goal of the command line's own forms.
"$solver" play --out - --goal blank-first 1 2 0 3 4 5 6 7 8 >"$scratch/start.html" 2>"$scratch/start.err" ||
  fail "solver play --out - BOARD: $(cat "$scratch/start.err")"
grep -q '{"board":"1 2 0/3 4 5/6 7 8","goal":"blank-first"}' "$scratch/start.html" || fail "the start position is not in the page"
[ -s "$scratch/start.err" ] && fail "solver play --out - printed on stderr: $(cat "$scratch/start.err")"
"$solver" play --out - --size 4x3 >"$scratch/size.html" || fail "solver play --size 4x3"
grep -q '{"size":"4x3","goal":"blank-last"}' "$scratch/size.html" || fail "--size does not reach the page"
# Refusals: an invalid board (1), no --out, an option of another command, a goal in labels (2).
"$solver" play --out "$scratch/bad.html" "1 2 3/4 5" 2>"$scratch/bad.err"
[ $? -eq 1 ] || fail "an invalid board: not exit 1"
grep -q "ragged rows" "$scratch/bad.err" || fail "an invalid board: $(cat "$scratch/bad.err")"
[ -e "$scratch/bad.html" ] && fail "a page was written for an invalid board"
"$solver" play 2>"$scratch/noout.err"
[ $? -eq 2 ] && grep -q "play needs --out" "$scratch/noout.err" || fail "play without --out: $(cat "$scratch/noout.err")"
"$solver" play --out "$scratch/x.html" --json 2>"$scratch/json.err"
[ $? -eq 2 ] && grep -q "does not apply to play" "$scratch/json.err" || fail "play --json: $(cat "$scratch/json.err")"
"$solver" play --out "$scratch/x.html" --goal "A B C/D E F/G H _" 2>"$scratch/labels.err"
[ $? -eq 2 ] && grep -q "numbered tiles" "$scratch/labels.err" || fail "play with a goal in labels: $(cat "$scratch/labels.err")"
"$solver" play --help | grep -q "solver play --out FILE" || fail "solver play --help"

python3 "$root/tests/play_browser.py" "$scratch/page.html" --solver "$solver" --pdbgen "$pdbgen" --repo "$root" \
  --tables "$tables" --work "$scratch/work" --screenshot "$scratch/play.png" --phone-screenshot "$scratch/phone.png"
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "the page in the browser (play_browser.py exit $rc)"
if [ $failures -ne 0 ]; then
  echo "play_browser: $failures failure(s)" >&2
  exit 1
fi
echo "play_browser: all checks passed"
