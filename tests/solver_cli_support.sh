# Shell helpers shared by the solver's command-line tests (cli_test.sh, conventions_cli_test.sh).
# Source it after setting $solver (the program) and $tmp (a scratch folder); it counts in
# $checks and $failures, which the sourcing script reports.
checks=0
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run [ARGS...]: runs the solver with stdin from $tmp/stdin (empty unless written), and
# sets $rc; stdout in $tmp/out, stderr in $tmp/err.
: >"$tmp/stdin"
run() {
  "$solver" "$@" <"$tmp/stdin" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  last_cmd="solver $*"
}

show() {
  echo "  command: $last_cmd" >&2
  sed 's/^/  stdout: /' "$tmp/out" | head -20 >&2
  sed 's/^/  stderr: /' "$tmp/err" | head -20 >&2
}

# expect_rc NAME CODE: the last run exited with CODE.
expect_rc() {
  checks=$((checks + 1))
  if [ "$rc" -ne "$2" ]; then
    fail "$1: exit status $rc, expected $2"
    show
  fi
}

# expect_out NAME REGEX / expect_err NAME REGEX: stdout / stderr matches the extended regex.
expect_out() {
  checks=$((checks + 1))
  if ! grep -Eq -- "$2" "$tmp/out"; then
    fail "$1: stdout does not match /$2/"
    show
  fi
}
expect_err() {
  checks=$((checks + 1))
  if ! grep -Eq -- "$2" "$tmp/err"; then
    fail "$1: stderr does not match /$2/"
    show
  fi
}
expect_no_out() {
  checks=$((checks + 1))
  if [ -s "$tmp/out" ]; then
    fail "$1: unexpected stdout"
    show
  fi
}
