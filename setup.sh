#!/usr/bin/env bash
# loyd's one setup script.
#   ./setup.sh        install missing Debian packages (emscripten too, for the play page),
#                     build (Release, ./build), solve an example
#   ./setup.sh test   the same install (and Chromium, for the replay page's browser test,
#                     clang-format, for the formatting check, and clang, for the sanitizer
#                     trees and fuzzing) and
#                     build, then every test (Release, formatting included), the unit tests
#                     again under AddressSanitizer + UndefinedBehaviorSanitizer, the threaded
#                     ones under ThreadSanitizer, and a 10 s fuzz run of every fuzz target
#   ./setup.sh build  install and build only
#   ./setup.sh fuzz [SECONDS]  a long fuzz run (SECONDS per target, default 600)
set -euo pipefail
cd "$(dirname "$0")"

mode=${1:-example}
packages=(cmake make g++ pkg-config libboost-program-options-dev libzstd-dev libxxhash-dev
          nlohmann-json3-dev libgtest-dev help2man openmpi-bin libopenmpi-dev
          pybind11-dev python3-dev python3-numpy python3-pytest)  # the last four: the Python module
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
updated=""
# apt_install PKG...: installs those not installed yet; returns apt-get's status.
apt_install() {
  local missing=() p
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "setup: installing ${missing[*]}" >&2
  if [ -z "$updated" ]; then
    $sudo apt-get update -qq || return 1
    updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}
apt_install "${packages[@]}"
# The play page (`solver play`, docs/play.md) is the engine compiled to WebAssembly by Debian's
# emscripten; without it the solver is built without the page (and its browser test skipped).
if ! apt_install emscripten; then
  echo "setup: could not install emscripten; the solver is built without the play page" >&2
fi
# The replay and play pages' browser tests run headless Chromium; only the test run installs
# it, and without it those tests are skipped.
if [ "$mode" = test ] && ! apt_install chromium; then
  echo "setup: could not install chromium; the browser tests (replay_browser, play_browser) will be skipped" >&2
fi

# The test run checks the tree's formatting (tests/format_test.sh) with Debian's clang-format.
if [ "$mode" = test ] && ! apt_install clang-format; then
  echo "setup: could not install clang-format, which the test run needs" >&2
  exit 1
fi

# clang_tree DIR OPTION...: configures the build tree DIR with clang. A tree an earlier run
# configured with another compiler is removed first (CMake, told of a new compiler, would
# drop the tree's options).
clang_tree() {
  local dir=$1
  shift
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++' "$dir/CMakeCache.txt"; then
    rm -rf "$dir"
  fi
  CC=clang CXX=clang++ cmake -S . -B "$dir" "$@" >/dev/null
}

# Fuzzing (./setup.sh fuzz, and the smoke run of ./setup.sh test) needs clang's libFuzzer;
# the test run's sanitizer trees are compiled by clang too (built and run in about 70 % of
# g++'s time).
install_clang() {
  apt_install clang libclang-rt-14-dev
}
install_fuzz_tools() {
  install_clang
  clang_tree build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOYD_FUZZ=ON -DLOYD_BUILD_TESTS=OFF \
    -DLOYD_BUILD_PROGRAMS=OFF -DLOYD_BUILD_BENCH=OFF -DLOYD_INSTALL=OFF -DLOYD_PYTHON=OFF
  cmake --build build-fuzz -j "$jobs" --target fuzz_targets
}

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs"

case "$mode" in
  example)
    echo "setup: built ./build/solver and ./build/pdbgen; solving an example:" >&2
    ./build/solver 5 10 14 7 8 3 6 1 15 0 12 9 2 11 4 13
    ;;
  build) ;;
  test)
    # Each stage's wall time on stderr (CI keeps both commands within about 30 minutes).
    stage() { echo "setup: $1 done at ${SECONDS} s" >&2; }
    stage "install and Release build"
    ctest --test-dir build --output-on-failure -j "$jobs"
    stage "Release tests"
    # The sanitizer trees are built without MPI (Open MPI's own libraries report leaks and races
    # of their own under ASan/TSan); the distributed build is tested there with ranks played by
    # threads (tests/thread_group.h), and with real mpirun ranks in the Release run above.
    # Both are compiled by clang: built and run in about 70 % of g++'s time (docs/benchmarks.md).
    install_clang
    # Both sanitizer trees keep only line tables as debug information (-gline-tables-only):
    # their reports still name file:line, and the ASan tree builds in about 10 % less time
    # (docs/benchmarks.md).
    line_tables=-DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only
    clang_tree build-asan -DCMAKE_BUILD_TYPE=Debug "$line_tables" -DLOYD_SANITIZE=ON -DLOYD_BUILD_BENCH=OFF -DLOYD_MPI=OFF \
      -DLOYD_PLAY_PAGE=OFF
    cmake --build build-asan -j "$jobs" --target loyd_tests
    stage "ASan+UBSan build"
    ctest --test-dir build-asan --output-on-failure -j "$jobs" -L unit
    stage "ASan+UBSan tests"
    # The tests that run threads (split IDA*, parallel builds and verify, concurrent cache
    # fills, the sliced build on thread ranks) and the solver's threads, again under
    # ThreadSanitizer: any data race fails the run. This tree builds only the threaded tests' files.
    clang_tree build-tsan -DCMAKE_BUILD_TYPE=Debug "$line_tables" -DLOYD_TSAN=ON -DLOYD_BUILD_BENCH=OFF -DLOYD_MPI=OFF \
      -DLOYD_PLAY_PAGE=OFF  # (the play page is built and tested once, in ./build)
    cmake --build build-tsan -j "$jobs" --target loyd_tests solver
    stage "TSan build"
    tests/tsan_run.sh "$PWD/build-tsan"
    stage "TSan tests"
    # Fuzz smoke run: every libFuzzer target for 10 s under ASan + UBSan.
    install_fuzz_tools
    stage "fuzz build"
    tests/fuzz/run.sh 10 "$PWD/build-fuzz"
    stage "fuzz smoke run"
    ;;
  fuzz)
    # A long run: ./setup.sh fuzz SECONDS (per target, default 600).
    install_fuzz_tools
    tests/fuzz/run.sh "${2:-600}" "$PWD/build-fuzz"
    ;;
  *) echo "usage: ./setup.sh [example|build|test|fuzz [SECONDS]]" >&2; exit 2 ;;
esac
