# shellcheck shell=bash
# The command-line tests' harness: sourced first by every tests/*_test.sh.
#
#   . "$(dirname "$0")/harness.sh"
#   harness_args 2 "SOLVER SCRATCH_DIR" "$@"     # the usage, exit 2 on another count
#   program solver "$1"                            # $solver: an executable, else exit 2
#   scratch_dir "$2"                               # emptied now, removed at exit if all passed
#   run "$solver" --help                           # stdout, stderr in $scratch/out, $scratch/err
#   expect_status "--help" 0
#   expect_out "--help" "^Usage: solver"
#   finish                                         # the count; exit 0, or 1 if a check failed
#
# Every check counts once in $checks; a failed one prints one line "FAIL: NAME: what" on
# stderr (then, indented, the command and the heads of its stdout and stderr) and counts in
# $failures. `finish` prints "TEST: all N checks passed" or "TEST: F of N checks failed" and
# exits 0 or 1; `skip` exits 77 (ctest: skipped). The scratch folder is removed at exit unless
# a check failed (it is kept, and named, for a look) or the test keeps it (--keep).
#
# No `set -e` or pipefail here: the tests run commands that are meant to fail and check their
# statuses (-e would end a test at the first), and `cmd | grep -q` would fail at random under
# pipefail when grep leaves before cmd has written everything. Unset variables are errors.
set -u

tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$tests_dir")  # the source tree: data/, docs/, tests/
test_name=$(basename "$0" .sh)
# The checkers in tests/*.py run on Debian's interpreter, whatever python3 comes first on PATH.
python=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ in the source tree
checks=0
failures=0
scratch=""
keep_scratch=0
finished=0
last_cmd=""
rc=0

# harness_args COUNT "USAGE" "$@": exits 2 with the usage line unless there are COUNT arguments.
harness_args() {
  local want=$1 usage=$2
  shift 2
  if [ $# -ne "$want" ]; then
    echo "usage: $0 $usage" >&2
    exit 2
  fi
}

# program VARIABLE PATH: sets VARIABLE to the absolute path of PATH, an executable file (tests
# run it from other folders); else says so and exits 2.
program() {
  if [ ! -f "$2" ] || [ ! -x "$2" ]; then
    echo "$test_name: '$2' is not an executable program" >&2
    exit 2
  fi
  printf -v "$1" %s "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
}

# scratch_dir DIR [--keep]: DIR (emptied) is the test's scratch folder, $scratch (its absolute
# path); $scratch/stdin is the empty standard input of `run`. At exit it is removed, unless a
# check failed or --keep (for pictures a test leaves behind).
scratch_dir() {
  [ "${2:-}" = --keep ] && keep_scratch=1
  rm -rf "$1"
  mkdir -p "$1" || exit 2
  scratch=$(cd "$1" && pwd)
  : >"$scratch/stdin"
  : >"$scratch/out"
  : >"$scratch/err"
}

# At exit: a test that ends with status 0 without `finish` (an early exit, or no `finish` at the
# end), or with a failed check, fails; the scratch folder goes unless kept.
harness_exit() {
  local status=$?
  if [ "$status" -eq 0 ] && { [ "$finished" -eq 0 ] || [ "$failures" -ne 0 ]; }; then
    echo "FAIL: $test_name ended before its last check (finish)" >&2
    status=1
    failures=$((failures + 1))
  fi
  if [ -n "$scratch" ] && [ "$failures" -eq 0 ] && [ "$keep_scratch" -eq 0 ]; then
    rm -rf "$scratch"
  fi
  exit "$status"
}

# fail MESSAGE: one failed check.
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# count_check: counts one check whose condition follows, as in
#   count_check
#   [ "$(grep -c x "$scratch/out")" = 2 ] || fail "NAME: not two x"
count_check() {
  checks=$((checks + 1))
}

# show: the last run's command line and the heads of its stdout and stderr, indented, on stderr.
show() {
  echo "  command: $last_cmd" >&2
  head -c 4000 "$scratch/out" | head -20 | sed 's/^/  stdout: /' >&2
  head -c 4000 "$scratch/err" | head -20 | sed 's/^/  stderr: /' >&2
}

# run COMMAND...: runs it with stdin from $scratch/stdin (empty unless a test writes it), stdout
# to $scratch/out and stderr to $scratch/err; its exit status in $rc. Checks nothing.
run() {
  last_cmd="$*"
  "$@" <"$scratch/stdin" >"$scratch/out" 2>"$scratch/err"
  rc=$?
}

# ran COMMAND_LINE STATUS: records a command the test ran itself (in the background, under a
# limit, through a pipe) as the last run, for expect_status and show; its output is expected in
# $scratch/out and $scratch/err.
ran() {
  last_cmd=$1
  rc=$2
}

# answered PER FILE COMMAND...: runs COMMAND as a program's helper would: writes FILE's lines
# PER at a time (0: all at once) and reads each group's answers (waiting up to 20 s for each)
# before writing the next; prints how many answers came (every line's, when the solver answers
# what it was given without waiting for more input).
answered() {
  local per=$1 file=$2 count=0 line n at=0
  shift 2
  n=$(wc -l <"$file")
  [ "$per" = 0 ] && per=$n
  coproc CLIENT { exec "$@" 2>/dev/null; }
  while [ "$at" -lt "$n" ]; do
    sed -n "$((at + 1)),$((at + per))p" "$file" >&"${CLIENT[1]}"
    for _ in $(seq "$per"); do
      IFS= read -r -t 20 line <&"${CLIENT[0]}" || break 2
      count=$((count + 1))
    done
    at=$((at + per))
  done
  exec {CLIENT[1]}>&-
  wait "$CLIENT_PID" 2>/dev/null
  echo "$count"
}

# expect_status NAME STATUS: the last run exited with STATUS. Returns 1 when it did not, so that
# checks of its output can be skipped: `expect_status x 0 && expect_out x ...`.
expect_status() {
  checks=$((checks + 1))
  if [ "$rc" != "$2" ]; then
    fail "$1: exit status $rc, expected $2"
    show
    return 1
  fi
}

# expect_run NAME STATUS COMMAND...: run, then expect_status (and its return).
expect_run() {
  local name=$1 want=$2
  shift 2
  run "$@"
  expect_status "$name" "$want"
}

# keep_output NAME: copies the last run's stdout and stderr to $scratch/NAME.out, NAME.err.
keep_output() {
  cp "$scratch/out" "$scratch/$1.out"
  cp "$scratch/err" "$scratch/$1.err"
}

# expect_file NAME FILE REGEX: a line of FILE matches the extended regular expression.
expect_file() {
  checks=$((checks + 1))
  if ! grep -Eq -- "$3" "$2" 2>/dev/null; then
    fail "$1: $(basename "$2") does not match /$3/"
    head -c 4000 "$2" 2>/dev/null | head -20 | sed 's/^/  file: /' >&2
    show
  fi
}

# expect_out NAME REGEX, expect_err NAME REGEX: a line of the last run's stdout (stderr)
# matches the extended regular expression.
expect_out() { expect_file "$1" "$scratch/out" "$2"; }
expect_err() { expect_file "$1" "$scratch/err" "$2"; }

# expect_once NAME FILE REGEX: exactly one line of FILE matches.
expect_once() {
  checks=$((checks + 1))
  local n
  n=$(grep -Ec -- "$3" "$2")
  if [ "$n" != 1 ]; then
    fail "$1: /$3/ matches $n lines of $(basename "$2"), expected one"
    show
  fi
}

# expect_no_out NAME, expect_no_err NAME: the last run printed nothing on stdout (stderr).
expect_no_out() {
  checks=$((checks + 1))
  if [ -s "$scratch/out" ]; then
    fail "$1: unexpected stdout"
    show
  fi
}
expect_no_err() {
  checks=$((checks + 1))
  if [ -s "$scratch/err" ]; then
    fail "$1: unexpected stderr"
    show
  fi
}

# expect_err_line NAME [TEXT...]: the last run's stderr is one line, holding every TEXT (as
# fixed strings).
expect_err_line() {
  local name=$1 t lines
  shift
  checks=$((checks + 1))
  lines=$(wc -l <"$scratch/err")
  if [ "$lines" != 1 ]; then
    fail "$name: stderr is $lines lines, expected one"
    show
    return
  fi
  for t in "$@"; do
    if ! grep -qF -- "$t" "$scratch/err"; then
      fail "$name: stderr lacks '$t'"
      show
    fi
  done
}

# expect NAME COMMAND...: COMMAND (a test: [, cmp, grep ...) succeeds.
expect() {
  local name=$1
  shift
  checks=$((checks + 1))
  if ! "$@"; then
    fail "$name: \`$*\` failed"
    show
  fi
}

# not COMMAND...: succeeds when COMMAND fails (for expect: `expect "no note" not grep -q x file`).
not() { ! "$@"; }

# expect_py NAME SCRIPT ARGS...: the checker tests/SCRIPT (Python) passes; its complaints are
# printed under the failure.
expect_py() {
  local name=$1 script=$2
  shift 2
  checks=$((checks + 1))
  if ! "$python" "$tests_dir/$script" "$@" >"$scratch/py.log" 2>&1; then
    fail "$name: $script $1 failed:"
    head -c 4000 "$scratch/py.log" | head -20 | sed 's/^/  /' >&2
    show
  fi
}

# py SCRIPT ARGS...: runs the helper tests/SCRIPT (Python): writing inputs, damaging files.
py() {
  local script=$1
  shift
  "$python" "$tests_dir/$script" "$@"
}

# skip REASON: the test does not apply here (ctest: skipped).
skip() {
  echo "SKIP: $test_name: $*" >&2
  exit 77
}

# finish: prints the count; exits 0 when every check passed, else 1.
finish() {
  finished=1
  if [ "$failures" -ne 0 ]; then
    echo "$test_name: $failures of $checks checks failed${scratch:+ (scratch kept in $scratch)}" >&2
    exit 1
  fi
  echo "$test_name: all $checks checks passed"
  exit 0
}

# The CPUs this process may run on (its affinity mask, as the programs count them).
cpu_count() { env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc; }

# mpi_ready PROGRAM: skips the test (77) when PROGRAM is built without MPI or no mpirun is
# installed; otherwise allows Open MPI to run as root (CI does) and sets `mpi` to the launcher's
# command line (ranks may outnumber the cores here, and are not pinned).
mpi_ready() {
  if "$1" --version | grep -q "MPI: not built in"; then
    skip "$(basename "$1") is built without MPI"
  fi
  command -v mpirun >/dev/null || skip "no mpirun"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  mpi=(mpirun --oversubscribe --bind-to none)
}

if [ ! -x "$python" ]; then
  echo "$test_name: $python is missing (Debian's python3: ./setup.sh installs it)" >&2
  exit 2
fi
trap harness_exit EXIT
