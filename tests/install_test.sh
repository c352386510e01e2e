#!/usr/bin/env bash
# The installation, as a user gets it: `cmake --install` of the built tree into a scratch
# prefix, the prefix then MOVED elsewhere; the installed solver run with no flags must use the
# installed tables (no fallback hint), no build-tree path may be compiled into the installed
# programs, and the example of docs/library.md (tests/consumer) must build and run against the
# moved prefix with find_package(loyd) and with pkg-config, without the project's own flags.
#
# Usage: install_test.sh BUILD_DIR REPO_ROOT SCRATCH_DIR
set -u
build=$1
root=$2
tmp=$3
rm -rf "$tmp"
mkdir -p "$tmp/home" || exit 2
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/home/data" XDG_CACHE_HOME="$tmp/home/cache"
unset LOYD_PDB_PATH
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# The example of docs/library.md is the consumer that is built below, byte for byte.
sed -n '/^```cpp$/,/^```$/p' "$root/docs/library.md" | sed '1d;$d' | cmp -s - "$root/tests/consumer/main.cc" ||
  fail "the C++ example of docs/library.md differs from tests/consumer/main.cc"

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 || { fail "cmake --install: $(tail -5 "$tmp/install.log")"; exit 1; }
mv "$tmp/prefix" "$tmp/moved"
p="$tmp/moved"
for f in bin/solver bin/pdbgen include/loyd/search/solve.h include/loyd/base/version.h lib/libloyd.a \
  lib/cmake/loyd/loydConfig.cmake lib/cmake/loyd/loydConfigVersion.cmake lib/pkgconfig/loyd.pc \
  share/loyd/pdb/8-4-4/manifest.txt share/loyd/pdb/8-mtm-fringe/manifest.txt share/loyd/pdb/15-5-5-5/manifest.txt; do
  [ -e "$p/$f" ] || fail "not installed: $f"
done

# Man pages (from --help by help2man) and bash completions.
for prog in solver pdbgen; do
  m="$p/share/man/man1/$prog.1"
  if [ -e "$m" ]; then
    grep -q "^\.TH $(tr a-z A-Z <<<"$prog")" "$m" || fail "$prog.1 is not a man page"
  else
    fail "not installed: share/man/man1/$prog.1"
  fi
done
grep -q 'lookups' "$p/share/man/man1/solver.1" || fail "solver.1 does not document --lookups"
out=$(bash -c '
  source "$1/share/bash-completion/completions/pdbgen"
  COMP_WORDS=("$1/bin/pdbgen" build --preset 15-); COMP_CWORD=3; _loyd_pdbgen; echo "${COMPREPLY[*]}"
  source "$1/share/bash-completion/completions/solver"
  COMP_WORDS=(solver --lookups a); COMP_CWORD=2; _loyd_solver; echo "${COMPREPLY[*]}"
  COMP_WORDS=(solver --no-p); COMP_CWORD=1; _loyd_solver; echo "${COMPREPLY[*]}"
  COMP_WORDS=(solver sc); COMP_CWORD=1; _loyd_solver; echo "${COMPREPLY[*]}"
  COMP_WORDS=(solver scramble --s); COMP_CWORD=2; _loyd_solver; echo "${COMPREPLY[*]}"
  COMP_WORDS=(solver check --notation ""); COMP_CWORD=3; _loyd_solver; echo "${COMPREPLY[*]}"
  COMP_WORDS=(solver play --o); COMP_CWORD=2; _loyd_solver; echo "${COMPREPLY[*]}"' _ "$p" 2>&1)
[ "$(sed -n 1p <<<"$out")" = "15-5-5-5 15-6-6-3 15-7-8 15-fringe 15-mtm-6-6 15-mtm-7-7" ] || fail "pdbgen completion of --preset 15-: $out"
[ "$(sed -n 2p <<<"$out")" = "all" ] || fail "solver completion of --lookups a: $out"
[ "$(sed -n 3p <<<"$out")" = "--no-prune --no-progress" ] || fail "solver completion of --no-p: $out"
[ "$(sed -n 4p <<<"$out")" = "scramble" ] || fail "solver completion of the command sc: $out"
[ "$(sed -n 5p <<<"$out")" = "--size --seed" ] || fail "solver completion of scramble --s: $out"
[ "$(sed -n 6p <<<"$out")" = "blank tile" ] || fail "solver completion of check --notation: $out"
[ "$(sed -n 7p <<<"$out")" = "--out" ] || fail "solver completion of play --o: $out"
grep -q 'scramble' "$p/share/man/man1/solver.1" || fail "solver.1 does not document scramble"

# The moved solver, from another folder, with no flags: the installed 3x3 and 4x4 tables.
(cd "$tmp" && "$p/bin/solver" --json 8 6 7 2 5 4 3 0 1) >"$tmp/out" 2>"$tmp/err" || fail "installed solver: $(cat "$tmp/err")"
grep -q '"heuristic":"pdb:8-4-4".*"length":31\|"length":31.*"heuristic":"pdb:8-4-4"' "$tmp/out" ||
  fail "the moved solver did not use its installed 8-4-4 tables: $(cat "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "the moved solver printed on stderr: $(cat "$tmp/err")"
(cd "$tmp" && "$p/bin/solver" --goal blank-first --json 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3) >"$tmp/out" 2>&1
grep -q '"heuristic":"pdb:15-5-5-5"' "$tmp/out" && grep -q '"length":57' "$tmp/out" ||
  fail "the moved solver did not solve Korf #1 with its 15-5-5-5 tables: $(cat "$tmp/out")"
# The play page travels inside the installed solver (exit 9: this build has none).
(cd "$tmp" && "$p/bin/solver" play -q --out page.html) 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ]; then
  grep -q "default-src 'none'" "$tmp/page.html" || fail "the installed solver's play page is not the page"
elif [ $rc -ne 9 ]; then
  fail "installed solver play: exit $rc: $(cat "$tmp/err")"
fi
for prog in solver pdbgen; do
  if strings "$p/bin/$prog" | grep -qF -e "$root" -e "$build"; then
    fail "$prog holds a build-tree path: $(strings "$p/bin/$prog" | grep -F -e "$root" -e "$build" | head -3)"
  fi
done

# find_package(loyd) from the moved prefix; the consumer inherits none of loyd's flags.
if cmake -S "$root/tests/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$p" >"$tmp/c.log" 2>&1 &&
  cmake --build "$tmp/consumer" >>"$tmp/c.log" 2>&1; then
  "$tmp/consumer/consumer" "$p/share/loyd/pdb/15-5-5-5" >"$tmp/out" 2>&1
  grep -q "^57 moves: " "$tmp/out" || fail "consumer (find_package): $(cat "$tmp/out")"
  if grep -qE -- "-march=native|-Wconversion|-Wshadow" "$tmp/consumer/CMakeFiles/consumer.dir/flags.make"; then
    fail "the consumer inherited loyd's private flags: $(grep FLAGS "$tmp/consumer/CMakeFiles/consumer.dir/flags.make")"
  fi
else
  fail "consumer (find_package) did not build: $(tail -15 "$tmp/c.log")"
fi
# pkg-config, from the moved prefix.
if flags=$(PKG_CONFIG_PATH="$p/lib/pkgconfig" pkg-config --cflags --libs --static loyd) &&
  c++ -std=c++20 "$root/tests/consumer/main.cc" $flags -o "$tmp/consumer-pc" 2>"$tmp/pc.log"; then
  "$tmp/consumer-pc" "$p/share/loyd/pdb/15-5-5-5" | grep -q "^57 moves: " || fail "consumer (pkg-config) gave a wrong answer"
else
  fail "consumer (pkg-config) did not build: $(head -5 "$tmp/pc.log")"
fi

# Packages: cpack's .deb and .tar.gz; their file lists and the .deb's dependencies; the .deb's
# content unpacked in a scratch root runs from there with its own tables.
if cpack --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1; then
  deb=$(ls "$tmp"/pkg/loyd_*_*.deb 2>/dev/null | head -1)
  tgz=$(ls "$tmp"/pkg/loyd-*.tar.gz 2>/dev/null | head -1)
  [ -n "$deb" ] && [ -n "$tgz" ] || fail "cpack did not make a .deb and a .tar.gz: $(ls "$tmp/pkg")"
  if [ -n "$deb" ]; then
    dpkg-deb -c "$deb" | awk '{print $6}' >"$tmp/deb.list"
    for f in ./usr/bin/solver ./usr/bin/pdbgen ./usr/lib/libloyd.a ./usr/include/loyd/search/solve.h \
      ./usr/lib/cmake/loyd/loydConfig.cmake ./usr/lib/pkgconfig/loyd.pc ./usr/share/man/man1/solver.1 \
      ./usr/share/bash-completion/completions/pdbgen ./usr/share/loyd/pdb/15-5-5-5/manifest.txt; do
      grep -qxF "$f" "$tmp/deb.list" || fail ".deb lacks $f"
    done
    dpkg-deb -I "$deb" >"$tmp/deb.info"
    for dep in libzstd1 libxxhash0 libboost-program-options1.74.0; do
      grep -q "^ Depends:.*$dep" "$tmp/deb.info" || fail ".deb does not depend on $dep: $(grep Depends "$tmp/deb.info")"
    done
    if ! "$build/pdbgen" --version | grep -q "MPI: not built in"; then
      grep -q "^ Depends:.*libopenmpi3" "$tmp/deb.info" || fail ".deb of an MPI build does not depend on libopenmpi3"
    fi
    dpkg-deb -x "$deb" "$tmp/root"
    (cd "$tmp" && "$tmp/root/usr/bin/solver" --json 8 6 7 2 5 4 3 0 1) 2>&1 | grep -q '"heuristic":"pdb:8-4-4"' ||
      fail "the unpacked .deb's solver does not use its tables"
    # A table package (pdbgen package) of a stronger 3x3 set, unpacked in the same root: the
    # solver there uses it with no flags.
    "$p/bin/pdbgen" build --size 3x3 --pattern 1,2,3,4,5,6 --kind full --name fleet-3x3 --out "$tmp/fleet" -q \
      >/dev/null 2>&1 || fail "could not build the fleet-3x3 set"
    if "$p/bin/pdbgen" package "$tmp/fleet" --out "$tmp/tpkg" >"$tmp/tpkg.out" 2>&1; then
      tdeb="$tmp/tpkg/loyd-pdb-fleet-3x3_0.2.0_all.deb"
      [ "$(cat "$tmp/tpkg.out")" = "$tdeb
$tmp/tpkg/loyd-pdb-fleet-3x3-0.2.0.tar.gz" ] || fail "pdbgen package output: $(cat "$tmp/tpkg.out")"
      dpkg-deb -c "$tdeb" | awk '{print $6}' | grep -qx "./usr/share/loyd/pdb/fleet-3x3/manifest.txt" ||
        fail "the table .deb lacks the manifest"
      dpkg-deb -I "$tdeb" | grep -q "^ Architecture: all" || fail "the table .deb is not Architecture: all"
      tar tzf "$tmp/tpkg/loyd-pdb-fleet-3x3-0.2.0.tar.gz" | grep -qx "usr/share/loyd/pdb/fleet-3x3/full-1-2-3-4-5-6.pdb" ||
        fail "the table .tar.gz lacks the table"
      dpkg-deb -x "$tdeb" "$tmp/root"
      (cd "$tmp" && "$tmp/root/usr/bin/solver" --json 8 6 7 2 5 4 3 0 1) 2>&1 | grep -q '"heuristic":"pdb:fleet-3x3"' ||
        fail "the solver does not use the installed table package"
    else
      fail "pdbgen package: $(cat "$tmp/tpkg.out")"
    fi
    # A damaged set is never packaged.
    printf 'x' | dd of="$tmp/fleet/full-1-2-3-4-5-6.pdb" bs=1 seek=5000 conv=notrunc 2>/dev/null
    "$p/bin/pdbgen" package "$tmp/fleet" --out "$tmp/tpkg2" >/dev/null 2>&1 && fail "pdbgen package packaged a damaged set"
    [ ! -e "$tmp/tpkg2/loyd-pdb-fleet-3x3_0.2.0_all.deb" ] || fail "a damaged set left a package"
  fi
  if [ -n "$tgz" ]; then
    tar tzf "$tgz" >"$tmp/tgz.list"
    for f in bin/solver share/loyd/pdb/8-4-4/manifest.txt lib/cmake/loyd/loydConfig.cmake share/man/man1/pdbgen.1; do
      grep -q "/$f\$" "$tmp/tgz.list" || fail ".tar.gz lacks $f"
    done
  fi
else
  fail "cpack failed: $(tail -5 "$tmp/cpack.log")"
fi

if [ $failures -ne 0 ]; then
  echo "install_test: $failures failure(s)" >&2
  exit 1
fi
rm -rf "$tmp"
echo "install_test: all checks passed"
